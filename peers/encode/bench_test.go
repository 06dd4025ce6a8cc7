package encode

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/parquet-go/parquet-go/encoding/bytestreamsplit"
	"github.com/parquet-go/parquet-go/encoding/delta"
	"github.com/parquet-go/parquet-go/encoding/plain"
	"github.com/parquet-go/parquet-go/encoding/rle"
	pq "github.com/pqgen/pqgen/runtime/encode"
)

// All benchmarks work on benchN values; b.SetBytes is the size of the
// decoded values (fixed-width) or of the value bytes (byte arrays), the
// same for every implementation, so MB/s compare directly.
const benchN = 64 * 1024

func int64s() []int64 {
	r := rand.New(rand.NewPCG(1, 1))
	v := make([]int64, benchN)
	x := int64(1_000_000)
	for i := range v {
		x += int64(r.IntN(1000)) - 300
		v[i] = x
	}
	return v
}

func int32s() []int32 {
	v64 := int64s()
	v := make([]int32, len(v64))
	for i := range v {
		v[i] = int32(v64[i])
	}
	return v
}

func doubles() []float64 {
	r := rand.New(rand.NewPCG(5, 5))
	v := make([]float64, benchN)
	for i := range v {
		v[i] = r.NormFloat64()
	}
	return v
}

func floats() []float32 {
	d := doubles()
	v := make([]float32, len(d))
	for i := range d {
		v[i] = float32(d[i])
	}
	return v
}

func levels(w int) []uint8 {
	r := rand.New(rand.NewPCG(2, 2))
	v := make([]uint8, benchN)
	for i := range v {
		v[i] = uint8(r.Uint32() & (1<<w - 1))
	}
	return v
}

func indices(w int) []int32 {
	r := rand.New(rand.NewPCG(4, 4))
	v := make([]int32, benchN)
	for i := range v {
		v[i] = int32(r.Uint32() & (1<<w - 1))
	}
	return v
}

func strs() pq.ByteArrays {
	r := rand.New(rand.NewPCG(3, 3))
	var ba pq.ByteArrays
	for i := range benchN {
		ba.AppendString(fmt.Sprintf("prefix/%08d/%x", i*7, r.Uint32()%4096))
	}
	return ba
}

func arrowStrs(ba pq.ByteArrays) []parquet.ByteArray {
	v := make([]parquet.ByteArray, ba.Len())
	for i := range v {
		v[i] = ba.At(i)
	}
	return v
}

// run benchmarks f as sub-benchmark name. Besides the wall-clock metrics
// it reports cpu-MB/s, the throughput by the CPU time of the benchmarking
// thread: on a shared machine other processes steal wall-clock time but
// not thread CPU time, so benchratio prefers this metric.
func run(b *testing.B, name string, bytes int64, f func()) {
	b.Run(name, func(b *testing.B) {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		b.SetBytes(bytes)
		b.ReportAllocs()
		c0 := threadCPU()
		for b.Loop() {
			f()
		}
		if c1 := threadCPU(); c0 >= 0 && c1 > c0 {
			b.ReportMetric(float64(bytes)*float64(b.N)/float64(c1-c0)*1e3, "cpu-MB/s")
		}
	})
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// ---- PLAIN ----

func BenchmarkDecodePlainInt64(b *testing.B) {
	v := int64s()
	src := pq.AppendPlainInt64(nil, v)
	dst := make([]int64, benchN)
	run(b, "pqgen", 8*benchN, func() { dst, _, _ = pq.DecodePlainInt64(dst, src) })
	var e plain.Encoding
	run(b, "parquetgo", 8*benchN, func() { dst = must(e.DecodeInt64(dst, src)) })
	af := arrowInt64(v, parquet.Encodings.Plain)
	run(b, "arrowgo", 8*benchN, func() {
		arrowColumn(b, af).(*file.Int64ColumnChunkReader).ReadBatch(benchN, dst, nil, nil)
	})
	bb := make([]byte, len(src))
	run(b, "copy", 8*benchN, func() { copy(bb, src) })
}

func BenchmarkEncodePlainInt64(b *testing.B) {
	v := int64s()
	var dst []byte
	run(b, "pqgen", 8*benchN, func() { dst = pq.AppendPlainInt64(dst[:0], v) })
	var e plain.Encoding
	run(b, "parquetgo", 8*benchN, func() { dst = must(e.EncodeInt64(dst[:0], v)) })
	var buf bytes.Buffer
	sc := arrowSchema(parquet.Types.Int64, 0)
	run(b, "arrowgo", 8*benchN, func() {
		arrowWrite(&buf, sc, parquet.Encodings.Plain, func(cw file.ColumnChunkWriter) {
			cw.(*file.Int64ColumnChunkWriter).WriteBatch(v, nil, nil)
		})
	})
}

func BenchmarkDecodePlainByteArray(b *testing.B) {
	ba := strs()
	src := pq.AppendPlainByteArray(nil, ba)
	nb := int64(ba.TotalLen())
	var dst pq.ByteArrays
	run(b, "pqgen", nb, func() { dst, _, _ = pq.DecodePlainByteArray(dst, src) })
	var e plain.Encoding
	var data []byte
	var offs []uint32
	run(b, "parquetgo", nb, func() { data, offs, _ = e.DecodeByteArray(data, src, offs) })
	af := arrowByteArray(arrowStrs(ba), parquet.Encodings.Plain)
	out := make([]parquet.ByteArray, benchN)
	run(b, "arrowgo", nb, func() {
		arrowColumn(b, af).(*file.ByteArrayColumnChunkReader).ReadBatch(benchN, out, nil, nil)
	})
}

func BenchmarkEncodePlainByteArray(b *testing.B) {
	ba := strs()
	nb := int64(ba.TotalLen())
	var dst []byte
	run(b, "pqgen", nb, func() { dst = pq.AppendPlainByteArray(dst[:0], ba) })
	var e plain.Encoding
	run(b, "parquetgo", nb, func() { dst = must(e.EncodeByteArray(dst[:0], ba.Data, ba.Offsets)) })
	av := arrowStrs(ba)
	var buf bytes.Buffer
	sc := arrowSchema(parquet.Types.ByteArray, 0)
	run(b, "arrowgo", nb, func() {
		arrowWrite(&buf, sc, parquet.Encodings.Plain, func(cw file.ColumnChunkWriter) {
			cw.(*file.ByteArrayColumnChunkWriter).WriteBatch(av, nil, nil)
		})
	})
}

// ---- RLE / bit-packing hybrid ----

func BenchmarkDecodeRLELevels(b *testing.B) {
	for _, w := range []int{1, 2, 3, 5, 8} {
		b.Run(fmt.Sprintf("w%d", w), func(b *testing.B) {
			src := pq.AppendRLELevels(nil, levels(w), w)
			dst := make([]uint8, benchN)
			run(b, "pqgen", benchN, func() { dst, _, _ = pq.DecodeRLELevels(dst, src, w, benchN) })
			e := rle.Encoding{BitWidth: w}
			run(b, "parquetgo", benchN, func() { dst = must(e.DecodeLevels(dst, src)) })
		})
	}
}

func BenchmarkEncodeRLELevels(b *testing.B) {
	for _, w := range []int{1, 3, 8} {
		b.Run(fmt.Sprintf("w%d", w), func(b *testing.B) {
			v := levels(w)
			var dst []byte
			run(b, "pqgen", benchN, func() { dst = pq.AppendRLELevels(dst[:0], v, w) })
			e := rle.Encoding{BitWidth: w}
			run(b, "parquetgo", benchN, func() { dst = must(e.EncodeLevels(dst[:0], v)) })
		})
	}
}

func BenchmarkDecodeDictIndices(b *testing.B) {
	for _, w := range []int{1, 4, 8, 12, 20} {
		b.Run(fmt.Sprintf("w%d", w), func(b *testing.B) {
			src := pq.AppendDictIndices(nil, indices(w), w)
			dst := make([]int32, benchN)
			run(b, "pqgen", 4*benchN, func() { dst, _, _ = pq.DecodeDictIndices(dst, src, benchN) })
			var e rle.DictionaryEncoding
			run(b, "parquetgo", 4*benchN, func() { dst = must(e.DecodeInt32(dst, src)) })
		})
	}
}

func BenchmarkEncodeDictIndices(b *testing.B) {
	for _, w := range []int{1, 8, 16} {
		b.Run(fmt.Sprintf("w%d", w), func(b *testing.B) {
			v := indices(w)
			var dst []byte
			run(b, "pqgen", 4*benchN, func() { dst = pq.AppendDictIndices(dst[:0], v, w) })
			var e rle.DictionaryEncoding
			run(b, "parquetgo", 4*benchN, func() { dst = must(e.EncodeInt32(dst[:0], v)) })
		})
	}
}

// ---- DELTA_BINARY_PACKED ----

func BenchmarkDecodeDeltaInt64(b *testing.B) {
	v := int64s()
	src := pq.AppendDeltaInt64(nil, v)
	dst := make([]int64, benchN)
	run(b, "pqgen", 8*benchN, func() { dst, _, _ = pq.DecodeDeltaInt64(dst, src) })
	var e delta.BinaryPackedEncoding
	run(b, "parquetgo", 8*benchN, func() { dst = must(e.DecodeInt64(dst, src)) })
	af := arrowInt64(v, parquet.Encodings.DeltaBinaryPacked)
	run(b, "arrowgo", 8*benchN, func() {
		arrowColumn(b, af).(*file.Int64ColumnChunkReader).ReadBatch(benchN, dst, nil, nil)
	})
}

func BenchmarkDecodeDeltaInt32(b *testing.B) {
	v := int32s()
	src := pq.AppendDeltaInt32(nil, v)
	dst := make([]int32, benchN)
	run(b, "pqgen", 4*benchN, func() { dst, _, _ = pq.DecodeDeltaInt32(dst, src) })
	var e delta.BinaryPackedEncoding
	run(b, "parquetgo", 4*benchN, func() { dst = must(e.DecodeInt32(dst, src)) })
	af := arrowInt32(v, parquet.Encodings.DeltaBinaryPacked)
	run(b, "arrowgo", 4*benchN, func() {
		arrowColumn(b, af).(*file.Int32ColumnChunkReader).ReadBatch(benchN, dst, nil, nil)
	})
}

func BenchmarkEncodeDeltaInt64(b *testing.B) {
	v := int64s()
	var dst []byte
	run(b, "pqgen", 8*benchN, func() { dst = pq.AppendDeltaInt64(dst[:0], v) })
	var e delta.BinaryPackedEncoding
	run(b, "parquetgo", 8*benchN, func() { dst = must(e.EncodeInt64(dst[:0], v)) })
	var buf bytes.Buffer
	sc := arrowSchema(parquet.Types.Int64, 0)
	run(b, "arrowgo", 8*benchN, func() {
		arrowWrite(&buf, sc, parquet.Encodings.DeltaBinaryPacked, func(cw file.ColumnChunkWriter) {
			cw.(*file.Int64ColumnChunkWriter).WriteBatch(v, nil, nil)
		})
	})
}

func BenchmarkEncodeDeltaInt32(b *testing.B) {
	v := int32s()
	var dst []byte
	run(b, "pqgen", 4*benchN, func() { dst = pq.AppendDeltaInt32(dst[:0], v) })
	var e delta.BinaryPackedEncoding
	run(b, "parquetgo", 4*benchN, func() { dst = must(e.EncodeInt32(dst[:0], v)) })
	var buf bytes.Buffer
	sc := arrowSchema(parquet.Types.Int32, 0)
	run(b, "arrowgo", 4*benchN, func() {
		arrowWrite(&buf, sc, parquet.Encodings.DeltaBinaryPacked, func(cw file.ColumnChunkWriter) {
			cw.(*file.Int32ColumnChunkWriter).WriteBatch(v, nil, nil)
		})
	})
}

// ---- DELTA_LENGTH_BYTE_ARRAY / DELTA_BYTE_ARRAY ----

func benchByteArrayCodec(b *testing.B, decode bool, enc parquet.Encoding,
	pqEnc func([]byte, pq.ByteArrays) []byte,
	pqDec func(pq.ByteArrays, []byte) (pq.ByteArrays, int, error),
	pgEnc interface {
		EncodeByteArray([]byte, []byte, []uint32) ([]byte, error)
		DecodeByteArray([]byte, []byte, []uint32) ([]byte, []uint32, error)
	}) {
	ba := strs()
	nb := int64(ba.TotalLen())
	src := pqEnc(nil, ba)
	av := arrowStrs(ba)
	if decode {
		var dst pq.ByteArrays
		run(b, "pqgen", nb, func() { dst, _, _ = pqDec(dst, src) })
		var data []byte
		var offs []uint32
		run(b, "parquetgo", nb, func() { data, offs, _ = pgEnc.DecodeByteArray(data, src, offs) })
		af := arrowByteArray(av, enc)
		out := make([]parquet.ByteArray, benchN)
		run(b, "arrowgo", nb, func() {
			arrowColumn(b, af).(*file.ByteArrayColumnChunkReader).ReadBatch(benchN, out, nil, nil)
		})
		return
	}
	var dst []byte
	run(b, "pqgen", nb, func() { dst = pqEnc(dst[:0], ba) })
	run(b, "parquetgo", nb, func() { dst = must(pgEnc.EncodeByteArray(dst[:0], ba.Data, ba.Offsets)) })
	var buf bytes.Buffer
	sc := arrowSchema(parquet.Types.ByteArray, 0)
	run(b, "arrowgo", nb, func() {
		arrowWrite(&buf, sc, enc, func(cw file.ColumnChunkWriter) {
			cw.(*file.ByteArrayColumnChunkWriter).WriteBatch(av, nil, nil)
		})
	})
}

func BenchmarkDecodeDeltaLengthByteArray(b *testing.B) {
	benchByteArrayCodec(b, true, parquet.Encodings.DeltaLengthByteArray, pq.AppendDeltaLengthByteArray, pq.DecodeDeltaLengthByteArray, &delta.LengthByteArrayEncoding{})
}

func BenchmarkEncodeDeltaLengthByteArray(b *testing.B) {
	benchByteArrayCodec(b, false, parquet.Encodings.DeltaLengthByteArray, pq.AppendDeltaLengthByteArray, pq.DecodeDeltaLengthByteArray, &delta.LengthByteArrayEncoding{})
}

func BenchmarkDecodeDeltaByteArray(b *testing.B) {
	benchByteArrayCodec(b, true, parquet.Encodings.DeltaByteArray, pq.AppendDeltaByteArray, pq.DecodeDeltaByteArray, &delta.ByteArrayEncoding{})
}

func BenchmarkEncodeDeltaByteArray(b *testing.B) {
	benchByteArrayCodec(b, false, parquet.Encodings.DeltaByteArray, pq.AppendDeltaByteArray, pq.DecodeDeltaByteArray, &delta.ByteArrayEncoding{})
}

// ---- BYTE_STREAM_SPLIT ----

func BenchmarkDecodeByteStreamSplitDouble(b *testing.B) {
	v := doubles()
	src := pq.AppendByteStreamSplitDouble(nil, v)
	dst := make([]float64, benchN)
	run(b, "pqgen", 8*benchN, func() { dst, _, _ = pq.DecodeByteStreamSplitDouble(dst, src) })
	var e bytestreamsplit.Encoding
	run(b, "parquetgo", 8*benchN, func() { dst = must(e.DecodeDouble(dst, src)) })
	af := arrowDouble(v, parquet.Encodings.ByteStreamSplit)
	run(b, "arrowgo", 8*benchN, func() {
		arrowColumn(b, af).(*file.Float64ColumnChunkReader).ReadBatch(benchN, dst, nil, nil)
	})
}

func BenchmarkEncodeByteStreamSplitDouble(b *testing.B) {
	v := doubles()
	var dst []byte
	run(b, "pqgen", 8*benchN, func() { dst = pq.AppendByteStreamSplitDouble(dst[:0], v) })
	var e bytestreamsplit.Encoding
	run(b, "parquetgo", 8*benchN, func() { dst = must(e.EncodeDouble(dst[:0], v)) })
	var buf bytes.Buffer
	sc := arrowSchema(parquet.Types.Double, 0)
	run(b, "arrowgo", 8*benchN, func() {
		arrowWrite(&buf, sc, parquet.Encodings.ByteStreamSplit, func(cw file.ColumnChunkWriter) {
			cw.(*file.Float64ColumnChunkWriter).WriteBatch(v, nil, nil)
		})
	})
}

func BenchmarkDecodeByteStreamSplitFloat(b *testing.B) {
	v := floats()
	src := pq.AppendByteStreamSplitFloat(nil, v)
	dst := make([]float32, benchN)
	run(b, "pqgen", 4*benchN, func() { dst, _, _ = pq.DecodeByteStreamSplitFloat(dst, src) })
	var e bytestreamsplit.Encoding
	run(b, "parquetgo", 4*benchN, func() { dst = must(e.DecodeFloat(dst, src)) })
	af := arrowFloat(v, parquet.Encodings.ByteStreamSplit)
	run(b, "arrowgo", 4*benchN, func() {
		arrowColumn(b, af).(*file.Float32ColumnChunkReader).ReadBatch(benchN, dst, nil, nil)
	})
}

func BenchmarkEncodeByteStreamSplitFloat(b *testing.B) {
	v := floats()
	var dst []byte
	run(b, "pqgen", 4*benchN, func() { dst = pq.AppendByteStreamSplitFloat(dst[:0], v) })
	var e bytestreamsplit.Encoding
	run(b, "parquetgo", 4*benchN, func() { dst = must(e.EncodeFloat(dst[:0], v)) })
	var buf bytes.Buffer
	sc := arrowSchema(parquet.Types.Float, 0)
	run(b, "arrowgo", 4*benchN, func() {
		arrowWrite(&buf, sc, parquet.Encodings.ByteStreamSplit, func(cw file.ColumnChunkWriter) {
			cw.(*file.Float32ColumnChunkWriter).WriteBatch(v, nil, nil)
		})
	})
}
