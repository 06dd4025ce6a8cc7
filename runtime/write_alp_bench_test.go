package runtime

import (
	"bytes"
	"math"
	"testing"

	"github.com/pqgen/pqgen/runtime/meta"
)

// alpBenchRows is the number of rows of the ALP file benchmarks.
const alpBenchRows = 1 << 20

// alpBenchData returns the benchmark data sets: prices with two decimals,
// sensor readings with one to three decimals, random doubles.
func alpBenchData() map[string][]float64 {
	r := newRand(21)
	sets := map[string][]float64{"prices": nil, "sensor": nil, "random": nil}
	for range alpBenchRows {
		sets["prices"] = append(sets["prices"], float64(r.IntN(10_000_000))/100)
		scale := math.Pow10(1 + r.IntN(3))
		sets["sensor"] = append(sets["sensor"], math.Round((15+8*r.NormFloat64())*scale)/scale)
		sets["random"] = append(sets["random"], r.Float64())
	}
	return sets
}

// BenchmarkALPFile writes and reads a file of one required DOUBLE column
// (no dictionary, 1 MiB pages) of each data set in ALP,
// BYTE_STREAM_SPLIT and PLAIN, uncompressed and under ZSTD. It reports
// the file's bytes per value (file-B/value; ALP pages that would be
// larger than PLAIN are written PLAIN), and the write and read
// throughput in values per second (SetBytes counts 8 bytes a value).
func BenchmarkALPFile(b *testing.B) {
	s := mustSchema(b, "message m { required double v; }")
	for name, vals := range alpBenchData() {
		for _, enc := range []meta.Encoding{meta.EncodingALP, meta.EncodingByteStreamSplit, meta.EncodingPlain} {
			for _, codec := range []meta.CompressionCodec{meta.Uncompressed, meta.Zstd} {
				opts := []WriterOption{WithDictionary(false), WithCompression(codec, 0), WithColumnEncoding("v", enc), WithStatistics(false)}
				write := func(buf *bytes.Buffer) {
					w, err := NewFileWriter(buf, s, opts...)
					if err != nil {
						b.Fatal(err)
					}
					d, _ := w.DoubleBuffer(0)
					d.Values = append(d.Values[:0], vals...)
					if err := w.EndRows(len(vals)); err != nil {
						b.Fatal(err)
					}
					if err := w.Close(); err != nil {
						b.Fatal(err)
					}
				}
				id := name + "/" + enc.String() + "/" + codec.String()
				b.Run("write/"+id, func(b *testing.B) {
					var buf bytes.Buffer
					c0 := alpBenchStart(b)
					for b.Loop() {
						buf.Reset()
						write(&buf)
					}
					b.ReportMetric(float64(buf.Len())/alpBenchRows, "file-B/value")
					alpBenchEnd(b, c0)
				})
				b.Run("read/"+id, func(b *testing.B) {
					var buf bytes.Buffer
					write(&buf)
					data := buf.Bytes()
					c0 := alpBenchStart(b)
					for b.Loop() {
						r, err := NewFileReader(bytes.NewReader(data), int64(len(data)))
						if err != nil {
							b.Fatal(err)
						}
						c, _ := r.DoubleReader(0)
						if k, err := c.ReadRows(alpBenchRows); k != alpBenchRows || err != nil {
							b.Fatalf("%d rows, %v", k, err)
						}
					}
					alpBenchEnd(b, c0)
				})
			}
		}
	}
}

// alpBenchStart sets the bytes (8 a value) and allocation reporting and
// returns the process CPU time.
func alpBenchStart(b *testing.B) int64 {
	b.SetBytes(8 * alpBenchRows)
	b.ReportAllocs()
	return processCPU()
}

// alpBenchEnd reports values per second by the wall clock (Mvalues/s)
// and by the process CPU time since c0 (cpu-Mvalues/s).
func alpBenchEnd(b *testing.B, c0 int64) {
	n := alpBenchRows * float64(b.N)
	b.ReportMetric(n/b.Elapsed().Seconds()/1e6, "Mvalues/s")
	if c1 := processCPU(); c0 >= 0 && c1 > c0 {
		b.ReportMetric(n/float64(c1-c0)*1e3, "cpu-Mvalues/s")
	}
}
