package bench

import (
	"bytes"
	"testing"
)

// BenchmarkReadNested reads the cases whose reads are furthest from the
// issue's targets (nested and nested-he at 200,000 rows, wide and wide-he
// at 20,000, each with snappy and zstd) with pqgen's reader, sequential
// and under WithReadParallelism(2) (impl=pqgen-par): a short benchmark
// for profiles and interleaved A/B runs of the read path, without the
// suite's writes and other libraries.
func BenchmarkReadNested(b *testing.B) {
	b.Run("type=nested", func(b *testing.B) { benchRead(b, contactRows(200_000), contactLibs()[:2]) })
	b.Run("type=nested-he", func(b *testing.B) { benchRead(b, contactRowsHE(200_000), contactLibs()[:2]) })
	b.Run("type=wide", func(b *testing.B) { benchRead(b, wideRows(20_000), wideLibs()[:2]) })
	b.Run("type=wide-he", func(b *testing.B) { benchRead(b, wideRowsHE(20_000), wideLibs()[:2]) })
}

// benchRead writes rows with the first of libs once per codec and reads
// the file back with each of libs (pqgen and pqgen-par) in batches of
// ReadBatch rows, reporting CPU time per read besides ns/op.
func benchRead[T any](b *testing.B, rows []T, libs []lib[T]) {
	for _, c := range codecs {
		var file bytes.Buffer
		if err := libs[0].write(&file, rows, c); err != nil {
			b.Fatal(err)
		}
		for _, l := range libs {
			b.Run("codec="+c.name+"/impl="+l.name, func(b *testing.B) {
				batch := make([]T, ReadBatch)
				b.ReportAllocs()
				b.ResetTimer()
				c0 := processCPU()
				for range b.N {
					if err := l.read(file.Bytes(), batch, nil); err != nil {
						b.Fatal(err)
					}
				}
				if c0 >= 0 {
					b.ReportMetric(float64(processCPU()-c0)/1e6/float64(b.N), "cpu-ms/op")
				}
			})
		}
	}
}
