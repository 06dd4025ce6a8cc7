package bench

import (
	"bytes"
	"testing"
)

// BenchmarkWideWrite writes the wide and wide-he rows (20,000 of each) with
// every library's writer, snappy and zstd, without the suite's reads: a
// focused benchmark for profiling and comparing wide writes. It
// reports the suite's metrics (measure) and the CPU time per write,
// cpu-ms/op, which a loaded machine disturbs less than wall time.
func BenchmarkWideWrite(b *testing.B) {
	for _, s := range []struct {
		name string
		gen  func(int) []Wide
	}{{"wide", wideRows}, {"wide-he", wideRowsHE}} {
		var rows []Wide
		for _, c := range codecs {
			for _, l := range wideLibs() {
				b.Run("type="+s.name+"/codec="+c.name+"/impl="+l.name, func(b *testing.B) {
					if rows == nil {
						rows = s.gen(20_000)
					}
					wideWrite(b, rows, l, c)
				})
			}
		}
	}
}

// wideWrite measures l's writes of rows with codec c.
func wideWrite(b *testing.B, rows []Wide, l lib[Wide], c codec) {
	var out bytes.Buffer
	if err := l.write(&out, rows, c); err != nil {
		b.Fatal(err)
	}
	size := out.Len()
	out.Grow(size / 4)
	c0 := processCPU()
	measure(b, len(rows), wideBytes(rows), size, 0, func() {
		out.Reset()
		if err := l.write(&out, rows, c); err != nil {
			b.Fatal(err)
		}
	})
	if c1 := processCPU(); c0 >= 0 && c1 > c0 {
		// measure runs the write once more to sample the heap.
		b.ReportMetric(float64(c1-c0)/1e6/float64(b.N+1), "cpu-ms/op")
	}
}
