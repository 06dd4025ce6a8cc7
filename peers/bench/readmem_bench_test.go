package bench

import (
	"bytes"
	"errors"
	"io"
	"testing"
	"time"

	pqrt "github.com/pqgen/pqgen/runtime"
)

// BenchmarkReadMemory reads a file held in memory (the suite's flat,
// flat-he and nested rows, 200,000 of each, and wide and wide-he, 20,000;
// snappy and zstd) with pqgen's generated reader over a bytes.Reader,
// which the reader copies its pages from, and over a runtime.MemoryFile,
// whose pages it decodes in place: in each iteration once each, in turn,
// in batches of ReadBatch rows. It reports the median CPU time of each
// (copy-cpu-ms, mem-cpu-ms) and their ratio (speed-up).
func BenchmarkReadMemory(b *testing.B) {
	b.Run("type=flat", func(b *testing.B) { benchReadMemory(b, flatRows(200_000), flatLibs()[0], NewFlatReader) })
	b.Run("type=flat-he", func(b *testing.B) { benchReadMemory(b, flatRowsHE(200_000), flatLibs()[0], NewFlatReader) })
	b.Run("type=nested", func(b *testing.B) { benchReadMemory(b, contactRows(200_000), contactLibs()[0], NewContactReader) })
	b.Run("type=wide", func(b *testing.B) { benchReadMemory(b, wideRows(20_000), wideLibs()[0], NewWideReader) })
	b.Run("type=wide-he", func(b *testing.B) { benchReadMemory(b, wideRowsHE(20_000), wideLibs()[0], NewWideReader) })
}

func benchReadMemory[T any, R interface{ Read([]T) (int, error) }](b *testing.B, rows []T, l lib[T], open func(io.ReaderAt, int64, ...pqrt.ReaderOption) (R, error)) {
	for _, c := range codecs {
		b.Run("codec="+c.name, func(b *testing.B) {
			var file bytes.Buffer
			if err := l.write(&file, rows, c); err != nil {
				b.Fatal(err)
			}
			data, batch := file.Bytes(), make([]T, ReadBatch)
			read := func(r io.ReaderAt) {
				rr, err := open(r, int64(len(data)))
				if err != nil {
					b.Fatal(err)
				}
				for {
					_, err := rr.Read(batch)
					if errors.Is(err, io.EOF) {
						return
					}
					if err != nil {
						b.Fatal(err)
					}
				}
			}
			var took [2][]float64 // CPU ms: bytes.Reader, MemoryFile
			b.ReportAllocs()
			for b.Loop() {
				for k, r := range []io.ReaderAt{bytes.NewReader(data), pqrt.MemoryFile(data)} {
					c0, t0 := processCPU(), time.Now()
					read(r)
					if c1 := processCPU(); c0 >= 0 {
						took[k] = append(took[k], float64(c1-c0)/1e6)
					} else {
						took[k] = append(took[k], time.Since(t0).Seconds()*1e3)
					}
				}
			}
			m0, m1 := median(took[0]), median(took[1])
			b.ReportMetric(m0, "copy-cpu-ms")
			b.ReportMetric(m1, "mem-cpu-ms")
			b.ReportMetric(m0/m1, "speed-up")
		})
	}
}
