package encode

import (
	"runtime"
	"syscall"
)

// threadCPU locks the goroutine to its thread and returns the CPU time
// (user+system, ns) the thread has consumed, or -1 if unavailable.
func threadCPU() int64 {
	runtime.LockOSThread()
	var r syscall.Rusage
	if err := syscall.Getrusage(1 /* RUSAGE_THREAD */, &r); err != nil {
		return -1
	}
	return r.Utime.Nano() + r.Stime.Nano()
}
