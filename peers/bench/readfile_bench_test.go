package bench

import (
	"io"
	"os"
	"path/filepath"
	goruntime "runtime"
	"slices"
	"testing"
	"time"

	pqrt "github.com/pqgen/pqgen/runtime"
)

// BenchmarkReadFileParallel reads the suite's flat, nested and wide rows
// (regular and high-entropy; -rows flat rows, a quarter as many nested
// and a tenth as many wide; snappy and zstd) with the
// generated ReadTFile from a file of one row group (groups=1: read in
// parts, cut at page boundaries) and of 8 (groups=8, as DuckDB and Spark
// write large files), with WithReadParallelism 1 and 2, in turn in each iteration: at 2, two
// goroutines read the row groups, each into its own rows of the
// result (runtime.ReadFileWith). Each read starts on a collected heap (the
// collection is not timed). It reports the median time of each setting's
// reads (par1-ms, par2-ms) and their ratio (speed-up). Reads in one process
// are steadier than across processes: on the suite's 2-vCPU VM, memory new
// to the process costs several microseconds a page on first touch (more
// when both cores fault at once), so a read's time depends on how much of
// the result's memory the runtime still holds from the reads before.
func BenchmarkReadFileParallel(b *testing.B) {
	n := *benchRows
	b.Run("type=flat", func(b *testing.B) { benchReadFileParallel(b, n, flatRows, NewFlatWriter, ReadFlatFile) })
	b.Run("type=flat-he", func(b *testing.B) { benchReadFileParallel(b, n, flatRowsHE, NewFlatWriter, ReadFlatFile) })
	b.Run("type=nested", func(b *testing.B) { benchReadFileParallel(b, n/4, contactRows, NewContactWriter, ReadContactFile) })
	b.Run("type=nested-he", func(b *testing.B) {
		benchReadFileParallel(b, n/4, contactRowsHE, NewContactWriter, ReadContactFile)
	})
	b.Run("type=wide", func(b *testing.B) { benchReadFileParallel(b, n/10, wideRows, NewWideWriter, ReadWideFile) })
	b.Run("type=wide-he", func(b *testing.B) { benchReadFileParallel(b, n/10, wideRowsHE, NewWideWriter, ReadWideFile) })
}

func benchReadFileParallel[T any, W rowGroupWriter[T]](b *testing.B, n int, gen func(int) []T, newW func(io.Writer, ...pqrt.WriterOption) (W, error), read func(string, ...pqrt.ReaderOption) ([]T, error)) {
	for _, c := range codecs {
		for _, groups := range []int{1, 8} {
			b.Run("codec="+c.name+"/groups="+string(rune('0'+groups)), func(b *testing.B) {
				path := filepath.Join(b.TempDir(), "rows.parquet")
				writeRowGroups(b, path, gen(n), groups, newW, pqrt.WithCompression(c.pqgen, 0))
				// Each iteration reads the file once with each setting, in
				// turn, timing each read apart.
				var took [2][]float64 // ms, per setting
				b.ReportAllocs()
				for b.Loop() {
					for k, par := range []int{1, 2} {
						b.StopTimer()
						goruntime.GC()
						b.StartTimer()
						start := time.Now()
						got, err := read(path, pqrt.WithReadParallelism(par))
						took[k] = append(took[k], time.Since(start).Seconds()*1e3)
						if err != nil || len(got) != n {
							b.Fatalf("par=%d: %d rows, %v", par, len(got), err)
						}
					}
				}
				m1, m2 := median(took[0]), median(took[1])
				b.ReportMetric(m1, "par1-ms")
				b.ReportMetric(m2, "par2-ms")
				b.ReportMetric(m1/m2, "speed-up")
			})
		}
	}
}

// median returns the median of xs (sorted in place).
func median(xs []float64) float64 {
	slices.Sort(xs)
	n := len(xs)
	if n == 0 {
		return 0
	}
	if n%2 == 1 {
		return xs[n/2]
	}
	return (xs[n/2-1] + xs[n/2]) / 2
}

// rowGroupWriter is a generated writer.
type rowGroupWriter[T any] interface {
	Write([]T) (int, error)
	Flush() error
	Close() error
}

// writeRowGroups writes rows to a new file at path in row groups of equal
// rows.
func writeRowGroups[T any, W rowGroupWriter[T]](b *testing.B, path string, rows []T, groups int, newW func(io.Writer, ...pqrt.WriterOption) (W, error), opts ...pqrt.WriterOption) {
	fh, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	w, err := newW(fh, opts...)
	if err != nil {
		b.Fatal(err)
	}
	for g := range groups {
		if _, err := w.Write(rows[g*len(rows)/groups : (g+1)*len(rows)/groups]); err != nil {
			b.Fatal(err)
		}
		if err := w.Flush(); err != nil {
			b.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		b.Fatal(err)
	}
	if err := fh.Close(); err != nil {
		b.Fatal(err)
	}
}
