package encode

import (
	"math/rand/v2"
	"testing"

	"github.com/pqgen/pqgen/runtime/compress"
	"github.com/pqgen/pqgen/runtime/meta"
)

// alpBenchN is the number of values of one benchmark page (1 MiB of
// doubles, the writer's default page size).
const alpBenchN = 128 * 1024

// alpBenchSets are the data sets of the ALP comparison: prices with two
// decimals, sensor readings with one to three decimals, random doubles.
var alpBenchSets = []struct {
	name string
	kind int
}{{"prices", 0}, {"sensor", 1}, {"random", 2}}

// alpBenchEncodings encode a page of doubles with ALP, BYTE_STREAM_SPLIT
// and PLAIN.
var alpBenchEncodings = []struct {
	name string
	enc  func([]byte, []float64) []byte
	dec  func([]float64, []byte) ([]float64, error)
}{
	{"alp", AppendALPDouble, func(d []float64, s []byte) ([]float64, error) {
		d, _, err := DecodeALPDouble(d, s, alpBenchN)
		return d, err
	}},
	{"bss", AppendByteStreamSplitDouble, func(d []float64, s []byte) ([]float64, error) {
		d, _, err := DecodeByteStreamSplitDouble(d, s)
		return d, err
	}},
	{"plain", AppendPlainDouble, func(d []float64, s []byte) ([]float64, error) {
		d, _, err := DecodePlainDouble(d, s)
		return d, err
	}},
}

// alpBenchEach runs body as a sub-benchmark for every data set and
// encoding, with the data set's page of values.
func alpBenchEach(b *testing.B, body func(b *testing.B, vals []float64, enc func([]byte, []float64) []byte, dec func([]float64, []byte) ([]float64, error))) {
	for _, ds := range alpBenchSets {
		vals := alpDataDouble(rand.New(rand.NewPCG(11, uint64(ds.kind))), alpBenchN, ds.kind)
		for _, e := range alpBenchEncodings {
			b.Run(ds.name+"/"+e.name, func(b *testing.B) { body(b, vals, e.enc, e.dec) })
		}
	}
}

// BenchmarkALPSize reports the bytes per value of each data set under
// ALP, BYTE_STREAM_SPLIT and PLAIN, uncompressed (B/value) and under ZSTD
// (zstd-B/value), with the encode throughput. "alp" is the ALP page
// itself; the writer falls back to PLAIN when that is smaller.
func BenchmarkALPSize(b *testing.B) {
	alpBenchEach(b, func(b *testing.B, vals []float64, enc func([]byte, []float64) []byte, _ func([]float64, []byte) ([]float64, error)) {
		page := enc(nil, vals)
		z, err := compress.Compress(nil, page, meta.Zstd, 0)
		if err != nil {
			b.Fatal(err)
		}
		buf := page[:0]
		benchValues(b, alpBenchN, 8*alpBenchN, func() { buf = enc(buf[:0], vals) })
		b.ReportMetric(float64(len(page))/alpBenchN, "B/value")
		b.ReportMetric(float64(len(z))/alpBenchN, "zstd-B/value")
	})
}

// BenchmarkALPDecode reports the decode throughput of each encoding on
// each data set (Mvalues/s; SetBytes counts the decoded 8-byte values).
func BenchmarkALPDecode(b *testing.B) {
	alpBenchEach(b, func(b *testing.B, vals []float64, enc func([]byte, []float64) []byte, dec func([]float64, []byte) ([]float64, error)) {
		page := enc(nil, vals)
		out := make([]float64, alpBenchN)
		benchValues(b, alpBenchN, 8*alpBenchN, func() {
			var err error
			if out, err = dec(out, page); err != nil {
				b.Fatal(err)
			}
		})
	})
}
