// A load-insensitive comparison of decode cost: process CPU time per decode
// of the wide footer, pqgen versus apache/thrift generated code (the
// machine running the benchmarks may be shared). Run with PQGEN_CPU_RATIO=1.

package meta

import (
	"os"
	"runtime"
	"syscall"
	"testing"
	"time"
)

func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func perOpCPU(n int, f func()) time.Duration {
	runtime.GC()
	start := cpuTime()
	for i := 0; i < n; i++ {
		f()
	}
	runtime.GC()
	return (cpuTime() - start) / time.Duration(n)
}

func TestDecodeCPURatio(t *testing.T) {
	if os.Getenv("PQGEN_CPU_RATIO") == "" {
		t.Skip("set PQGEN_CPU_RATIO=1 to measure")
	}
	data := wideOnce()
	minOurs, minRef := time.Hour, time.Hour
	for round := 0; round < 7; round++ {
		ours := perOpCPU(20, func() { _, _, _ = DecodeFileMetaData(data, nil) })
		ref := perOpCPU(10, func() { _, _ = refDecode(data) })
		minOurs, minRef = min(minOurs, ours), min(minRef, ref)
		t.Logf("CPU per decode: pqgen %v, apache-thrift %v, ratio %.2f", ours, ref, float64(ref)/float64(ours))
	}
	t.Logf("best of 7: pqgen %v, apache-thrift %v, ratio %.2f", minOurs, minRef, float64(minRef)/float64(minOurs))
}
