// A load-insensitive comparison of decode cost: process CPU time per decode
// of the wide footer, pqgen versus apache/thrift generated code, taken in
// alternating rounds so that a shared machine slows both alike. Run with
// go test -run='^$' -bench=DecodeCPURatio ./runtime/meta.

package meta

import (
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

// BenchmarkDecodeCPURatio reports apache-thrift's CPU time per decode of
// the wide footer divided by pqgen's (cpu-ratio, best round of each), and
// pqgen's best CPU time per decode (cpu-ns/op).
func BenchmarkDecodeCPURatio(b *testing.B) {
	data := wideOnce()
	minOurs, minRef := time.Duration(1<<62), time.Duration(1<<62)
	for b.Loop() {
		ours := perOpCPU(20, func() { _, _, _ = DecodeFileMetaData(data, nil) })
		ref := perOpCPU(10, func() { _, _ = refDecode(data) })
		minOurs, minRef = min(minOurs, ours), min(minRef, ref)
	}
	if minOurs > 0 {
		b.ReportMetric(float64(minRef)/float64(minOurs), "cpu-ratio")
	}
	b.ReportMetric(float64(minOurs.Nanoseconds()), "cpu-ns/op")
}
