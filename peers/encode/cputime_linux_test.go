package encode

import "syscall"

// threadCPU returns the CPU time (user+system, ns) consumed by the calling
// OS thread, or -1 if unavailable.
func threadCPU() int64 {
	var r syscall.Rusage
	if err := syscall.Getrusage(1 /* RUSAGE_THREAD */, &r); err != nil {
		return -1
	}
	return r.Utime.Nano() + r.Stime.Nano()
}
