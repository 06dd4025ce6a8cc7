//go:build !unix

package bench

// processCPU is unavailable here: rates fall back to wall time.
func processCPU() int64 { return -1 }
