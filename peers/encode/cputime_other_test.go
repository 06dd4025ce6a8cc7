//go:build !linux

package encode

func threadCPU() int64 { return -1 }
