package encode

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"testing"
)

const benchN = 64 * 1024

// benchValues runs body, which handles n values of size bytes in all, as
// the benchmark loop, reporting bytes and allocations per iteration and
// the values per second (reportValues).
func benchValues(b *testing.B, n int, size int64, body func()) {
	b.SetBytes(size)
	b.ReportAllocs()
	c0 := threadCPU()
	for b.Loop() {
		body()
	}
	reportValues(b, n, c0)
}

// reportValues reports the values decoded or encoded per second, by wall
// clock (Mvalues/s) and by the CPU time of the benchmarking thread since
// c0 (cpu-Mvalues/s, robust against other processes on a shared machine).
func reportValues(b *testing.B, n int, c0 int64) {
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds()/1e6, "Mvalues/s")
	if c1 := threadCPU(); c0 >= 0 && c1 > c0 {
		b.ReportMetric(float64(n)*float64(b.N)/float64(c1-c0)*1e3, "cpu-Mvalues/s")
	}
}

func benchInt64s() []int64 {
	r := rand.New(rand.NewPCG(1, 1))
	v := make([]int64, benchN)
	x := int64(1_000_000)
	for i := range v {
		x += int64(r.IntN(1000)) - 300
		v[i] = x
	}
	return v
}

func benchInt32s() []int32 {
	v64 := benchInt64s()
	v := make([]int32, len(v64))
	for i := range v {
		v[i] = int32(v64[i])
	}
	return v
}

func benchLevels(w int, runs bool) []uint8 {
	r := rand.New(rand.NewPCG(2, 2))
	v := make([]uint8, benchN)
	for i := 0; i < len(v); {
		x := uint8(r.Uint32() & (1<<w - 1))
		k := 1
		if runs {
			k = 1 + r.IntN(30)
		}
		for j := 0; j < k && i < len(v); j++ {
			v[i] = x
			i++
		}
	}
	return v
}

func benchStrings() ByteArrays {
	r := rand.New(rand.NewPCG(3, 3))
	var ba ByteArrays
	for i := range benchN {
		ba.AppendString(fmt.Sprintf("prefix/%08d/%x", i*7, r.Uint32()%4096))
	}
	return ba
}

func BenchmarkCopy(b *testing.B) {
	src := AppendPlainInt64(nil, benchInt64s())
	dst := make([]byte, len(src))
	benchValues(b, benchN, int64(len(src)), func() {
		copy(dst, src)
	})
}

func BenchmarkDecodePlainInt64(b *testing.B) {
	src := AppendPlainInt64(nil, benchInt64s())
	dst := make([]int64, benchN)
	benchValues(b, benchN, int64(len(src)), func() {
		dst, _, _ = DecodePlainInt64(dst, src)
	})
}

func BenchmarkDecodePlainInt32(b *testing.B) {
	src := AppendPlainInt32(nil, benchInt32s())
	dst := make([]int32, benchN)
	benchValues(b, benchN, int64(len(src)), func() {
		dst, _, _ = DecodePlainInt32(dst, src)
	})
}

func BenchmarkEncodePlainInt64(b *testing.B) {
	v := benchInt64s()
	var dst []byte
	benchValues(b, benchN, int64(8*len(v)), func() {
		dst = AppendPlainInt64(dst[:0], v)
	})
}

func BenchmarkDecodePlainByteArray(b *testing.B) {
	ba := benchStrings()
	src := AppendPlainByteArray(nil, ba)
	var dst ByteArrays
	benchValues(b, benchN, int64(ba.TotalLen()), func() {
		dst, _, _ = DecodePlainByteArray(dst, src)
	})
}

func BenchmarkEncodePlainByteArray(b *testing.B) {
	ba := benchStrings()
	var dst []byte
	benchValues(b, benchN, int64(ba.TotalLen()), func() {
		dst = AppendPlainByteArray(dst[:0], ba)
	})
}

func BenchmarkDecodePlainBool(b *testing.B) {
	lv := benchLevels(1, false)
	src := AppendPlainBool(nil, bytesAsBools(lv))
	dst := make([]bool, benchN)
	benchValues(b, benchN, benchN, func() {
		dst, _, _ = DecodePlainBool(dst, src, benchN)
	})
}

func BenchmarkDecodeRLELevels(b *testing.B) {
	for _, runs := range []bool{false, true} {
		for _, w := range []int{1, 2, 3, 4, 5, 8} {
			name := fmt.Sprintf("bitpacked/w%d", w)
			if runs {
				name = fmt.Sprintf("runs/w%d", w)
			}
			b.Run(name, func(b *testing.B) {
				src := AppendRLELevels(nil, benchLevels(w, runs), w)
				dst := make([]uint8, benchN)
				benchValues(b, benchN, benchN, func() {
					dst, _, _ = DecodeRLELevels(dst, src, w, benchN)
				})
			})
		}
	}
}

func BenchmarkEncodeRLELevels(b *testing.B) {
	for _, runs := range []bool{false, true} {
		for _, w := range []int{1, 3, 8} {
			name := fmt.Sprintf("bitpacked/w%d", w)
			if runs {
				name = fmt.Sprintf("runs/w%d", w)
			}
			b.Run(name, func(b *testing.B) {
				v := benchLevels(w, runs)
				var dst []byte
				benchValues(b, benchN, benchN, func() {
					dst = AppendRLELevels(dst[:0], v, w)
				})
			})
		}
	}
}

func benchIndices(w int) []int32 {
	r := rand.New(rand.NewPCG(4, 4))
	v := make([]int32, benchN)
	for i := range v {
		v[i] = int32(r.Uint32() & (1<<w - 1))
	}
	return v
}

func BenchmarkDecodeRLEInt32(b *testing.B) {
	for _, w := range []int{1, 2, 4, 8, 12, 16, 20, 32} {
		b.Run(fmt.Sprintf("w%d", w), func(b *testing.B) {
			src := AppendRLEInt32(nil, benchIndices(w), w)
			dst := make([]int32, benchN)
			benchValues(b, benchN, 4*benchN, func() {
				dst, _, _ = DecodeRLEInt32(dst, src, w, benchN)
			})
		})
	}
}

func BenchmarkEncodeRLEInt32(b *testing.B) {
	for _, w := range []int{1, 8, 16} {
		b.Run(fmt.Sprintf("w%d", w), func(b *testing.B) {
			v := benchIndices(w)
			var dst []byte
			benchValues(b, benchN, 4*benchN, func() {
				dst = AppendRLEInt32(dst[:0], v, w)
			})
		})
	}
}

func BenchmarkDecodeDeltaInt64(b *testing.B) {
	src := AppendDeltaInt64(nil, benchInt64s())
	dst := make([]int64, benchN)
	benchValues(b, benchN, 8*benchN, func() {
		dst, _, _ = DecodeDeltaInt64(dst, src)
	})
}

func BenchmarkDecodeDeltaInt32(b *testing.B) {
	src := AppendDeltaInt32(nil, benchInt32s())
	dst := make([]int32, benchN)
	benchValues(b, benchN, 4*benchN, func() {
		dst, _, _ = DecodeDeltaInt32(dst, src)
	})
}

// BenchmarkDecodeDeltaInt32Wide: the reader's entry point (which also
// takes miniblocks of 64-bit deltas) on in-spec data (/spec) and on the
// values alternating between the INT32 extremes, their deltas packed in
// 64 bits (width 33) as DuckDB 1.5 writes them (/wide).
func BenchmarkDecodeDeltaInt32Wide(b *testing.B) {
	wide := make([]int64, benchN)
	for i := range wide {
		wide[i] = math.MinInt32 + int64(i%1000)
		if i%2 == 1 {
			wide[i] = math.MaxInt32 - int64(i%1000)
		}
	}
	for _, c := range []struct {
		name string
		src  []byte
	}{{"spec", AppendDeltaInt32(nil, benchInt32s())}, {"wide", AppendDeltaInt64(nil, wide)}} {
		b.Run(c.name, func(b *testing.B) {
			dst := make([]int32, benchN)
			benchValues(b, benchN, 4*benchN, func() {
				dst, _, _, _ = DecodeDeltaInt32Wide(dst, c.src)
			})
		})
	}
}

func BenchmarkEncodeDeltaInt64(b *testing.B) {
	v := benchInt64s()
	var dst []byte
	benchValues(b, benchN, 8*benchN, func() {
		dst = AppendDeltaInt64(dst[:0], v)
	})
}

func BenchmarkEncodeDeltaInt32(b *testing.B) {
	v := benchInt32s()
	var dst []byte
	benchValues(b, benchN, 4*benchN, func() {
		dst = AppendDeltaInt32(dst[:0], v)
	})
}

func BenchmarkDecodeDeltaLengthByteArray(b *testing.B) {
	ba := benchStrings()
	src := AppendDeltaLengthByteArray(nil, ba)
	var dst ByteArrays
	benchValues(b, benchN, int64(ba.TotalLen()), func() {
		dst, _, _ = DecodeDeltaLengthByteArray(dst, src)
	})
}

func BenchmarkEncodeDeltaLengthByteArray(b *testing.B) {
	ba := benchStrings()
	var dst []byte
	benchValues(b, benchN, int64(ba.TotalLen()), func() {
		dst = AppendDeltaLengthByteArray(dst[:0], ba)
	})
}

func BenchmarkDecodeDeltaByteArray(b *testing.B) {
	ba := benchStrings()
	src := AppendDeltaByteArray(nil, ba)
	var dst ByteArrays
	benchValues(b, benchN, int64(ba.TotalLen()), func() {
		dst, _, _ = DecodeDeltaByteArray(dst, src)
	})
}

func BenchmarkEncodeDeltaByteArray(b *testing.B) {
	ba := benchStrings()
	var dst []byte
	benchValues(b, benchN, int64(ba.TotalLen()), func() {
		dst = AppendDeltaByteArray(dst[:0], ba)
	})
}

// BenchmarkEncodeDeltaByteArrayKeys encodes keys that share one byte
// with their neighbours (an "s" and 12 or 13 random base-36 digits), the
// unique string columns of the peers' wide rows.
func BenchmarkEncodeDeltaByteArrayKeys(b *testing.B) {
	r := rand.New(rand.NewPCG(4, 4))
	var ba ByteArrays
	for range benchN {
		ba.AppendString("s" + strconv.FormatUint(r.Uint64(), 36))
	}
	var dst []byte
	benchValues(b, benchN, int64(ba.TotalLen()), func() {
		dst = AppendDeltaByteArray(dst[:0], ba)
	})
}

func benchDoubles() []float64 {
	r := rand.New(rand.NewPCG(5, 5))
	v := make([]float64, benchN)
	for i := range v {
		v[i] = r.NormFloat64()
	}
	return v
}

// benchFloats is benchDoubles rounded to float32.
func benchFloats() []float32 {
	d := benchDoubles()
	f := make([]float32, len(d))
	for i := range d {
		f[i] = float32(d[i])
	}
	return f
}

func BenchmarkDecodeByteStreamSplitDouble(b *testing.B) {
	src := AppendByteStreamSplitDouble(nil, benchDoubles())
	dst := make([]float64, benchN)
	benchValues(b, benchN, 8*benchN, func() {
		dst, _, _ = DecodeByteStreamSplitDouble(dst, src)
	})
}

func BenchmarkEncodeByteStreamSplitDouble(b *testing.B) {
	v := benchDoubles()
	var dst []byte
	benchValues(b, benchN, 8*benchN, func() {
		dst = AppendByteStreamSplitDouble(dst[:0], v)
	})
}

func BenchmarkDecodeByteStreamSplitFloat(b *testing.B) {
	f := benchFloats()
	src := AppendByteStreamSplitFloat(nil, f)
	dst := make([]float32, benchN)
	benchValues(b, benchN, 4*benchN, func() {
		dst, _, _ = DecodeByteStreamSplitFloat(dst, src)
	})
}

func BenchmarkEncodeByteStreamSplitFloat(b *testing.B) {
	f := benchFloats()
	var dst []byte
	benchValues(b, benchN, 4*benchN, func() {
		dst = AppendByteStreamSplitFloat(dst[:0], f)
	})
}

func BenchmarkDictInsertInt64(b *testing.B) {
	v := benchInt64s()
	for i := range v {
		v[i] %= 4096
	}
	var d Dict64
	idx := make([]int32, 0, benchN)
	benchValues(b, benchN, 8*benchN, func() {
		d.Reset()
		idx, _, _ = d.InsertInt64(idx[:0], v)
	})
}

func BenchmarkDictInsertByteArray(b *testing.B) {
	var ba ByteArrays
	for i := range benchN {
		ba.AppendString(fmt.Sprintf("category-%d", i%1000))
	}
	var d DictBytes
	idx := make([]int32, 0, benchN)
	benchValues(b, benchN, int64(ba.TotalLen()), func() {
		d.Reset()
		idx, _, _ = d.InsertByteArrays(idx[:0], ba)
	})
}

// BenchmarkDictInsertZipf inserts draws from a Zipf distribution (s = 1.1)
// over 50,000 random keys of 4 to 24 bytes, as the suite's high-entropy
// name column: a dictionary larger than the caches, with a hot head. At
// n=1M the draws are a row group of the suite's flat rows (some 42,000
// distinct keys, a table of 1 MiB).
func BenchmarkDictInsertZipf(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	keys := make([][]byte, 50_000)
	for i := range keys {
		k := make([]byte, 4+r.IntN(21))
		for j := range k {
			k[j] = byte('a' + r.IntN(26))
		}
		keys[i] = k
	}
	z := rand.NewZipf(r, 1.1, 1, uint64(len(keys)-1))
	for _, n := range []int{200_000, 1_000_000} {
		var ba ByteArrays
		for range n {
			ba.Append(keys[z.Uint64()])
		}
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			d := DictBytes{Limits: DictLimits{MaxBytes: 4 << 20}}
			idx := make([]int32, 0, ba.Len())
			benchValues(b, ba.Len(), int64(ba.TotalLen()), func() {
				d.Reset()
				idx, _, _ = d.InsertByteArrays(idx[:0], ba)
			})
		})
	}
}
