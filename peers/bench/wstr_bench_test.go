package bench

import (
	"bytes"
	"testing"
)

// BenchmarkWriteStrings writes the string-heavy cases of the suite
// (flat-he, nested, nested-he; 200,000 rows, snappy) with pqgen's
// sequential writer and parquet-go's: a short benchmark for profiles and interleaved
// A/B runs of the write path, without the suite's other runs.
func BenchmarkWriteStrings(b *testing.B) {
	b.Run("type=flat-he", func(b *testing.B) { benchWrite(b, flatRowsHE(200_000), flatLibs(), againstParquetGo) })
	b.Run("type=nested", func(b *testing.B) { benchWrite(b, contactRows(200_000), contactLibs(), againstParquetGo) })
	b.Run("type=nested-he", func(b *testing.B) { benchWrite(b, contactRowsHE(200_000), contactLibs(), againstParquetGo) })
}

// BenchmarkWriteFlat writes the suite's flat and flat-he rows (200,000,
// snappy) with pqgen's sequential writer and parquet-go's, as
// BenchmarkWriteStrings does for the string-heavy cases.
func BenchmarkWriteFlat(b *testing.B) {
	b.Run("type=flat", func(b *testing.B) { benchWrite(b, flatRows(200_000), flatLibs(), againstParquetGo) })
	b.Run("type=flat-he", func(b *testing.B) { benchWrite(b, flatRowsHE(200_000), flatLibs(), againstParquetGo) })
}

// The libraries a write benchmark runs, as indices into a suite's libs
// (pqgen, pqgen-par, parquet-go, arrow-go).
var (
	againstParquetGo = []int{0, 2} // pqgen and parquet-go
	seqAndParallel   = []int{0, 1} // pqgen and pqgen-par
)

// benchWrite runs the writes of libs[i] for each i of which.
func benchWrite[T any](b *testing.B, rows []T, libs []lib[T], which []int) {
	for _, i := range which {
		l := libs[i]
		b.Run("impl="+l.name, func(b *testing.B) { benchWriteLib(b, rows, l) })
	}
}

// benchWriteLib measures l's writes of rows (snappy) into a reused
// buffer, with the CPU time per write (cpu-ms/op) and the file's size.
func benchWriteLib[T any](b *testing.B, rows []T, l lib[T]) {
	var out bytes.Buffer
	if err := l.write(&out, rows, codecs[0]); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	c0 := processCPU()
	for range b.N {
		out.Reset()
		if err := l.write(&out, rows, codecs[0]); err != nil {
			b.Fatal(err)
		}
	}
	if c0 >= 0 {
		b.ReportMetric(float64(processCPU()-c0)/1e6/float64(b.N), "cpu-ms/op")
	}
	b.ReportMetric(float64(out.Len()), "file-B")
}

// BenchmarkWriteParallel writes the suite's flat, flat-he, nested and
// nested-he rows (200,000, snappy) with pqgen's sequential writer and with
// WithParallelism(2) (pqgen-par), in a loop of b.N writes: the speed-up
// of a writer in steady use, which the suite's single writes per round
// understate, and with cpu-ms/op, what the pipeline costs in CPU time.
// Each level of -bench matches by substring: type=flat$ selects flat
// alone, type=flat flat and flat-he.
func BenchmarkWriteParallel(b *testing.B) {
	b.Run("type=flat", func(b *testing.B) { benchWrite(b, flatRows(200_000), flatLibs(), seqAndParallel) })
	b.Run("type=flat-he", func(b *testing.B) { benchWrite(b, flatRowsHE(200_000), flatLibs(), seqAndParallel) })
	b.Run("type=nested", func(b *testing.B) { benchWrite(b, contactRows(200_000), contactLibs(), seqAndParallel) })
	b.Run("type=nested-he", func(b *testing.B) { benchWrite(b, contactRowsHE(200_000), contactLibs(), seqAndParallel) })
}
