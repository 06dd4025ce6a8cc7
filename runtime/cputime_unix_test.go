//go:build unix

package runtime

import "syscall"

// processCPU returns the CPU time (user+system, ns) the process has
// consumed, or -1 if unavailable: benchmarks report throughput by it as
// well as by the wall clock, which other processes on a shared machine
// distort.
func processCPU() int64 {
	var r syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &r); err != nil {
		return -1
	}
	return r.Utime.Nano() + r.Stime.Nano()
}
