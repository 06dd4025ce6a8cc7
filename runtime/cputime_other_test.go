//go:build !unix

package runtime

// processCPU is unavailable here (see cputime_unix_test.go).
func processCPU() int64 { return -1 }
