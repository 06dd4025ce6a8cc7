//go:build unix

package bench

import "syscall"

// processCPU returns the CPU time (user+system, ns) consumed by every
// thread of the process so far, or -1 if unavailable.
func processCPU() int64 {
	var r syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &r); err != nil {
		return -1
	}
	return r.Utime.Nano() + r.Stime.Nano()
}
