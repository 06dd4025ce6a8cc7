package encode

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

const benchN = 64 * 1024

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
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	c0 := threadCPU()
	for b.Loop() {
		copy(dst, src)
	}
	reportValues(b, benchN, c0)
}

func BenchmarkDecodePlainInt64(b *testing.B) {
	src := AppendPlainInt64(nil, benchInt64s())
	dst := make([]int64, benchN)
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	c0 := threadCPU()
	for b.Loop() {
		dst, _, _ = DecodePlainInt64(dst, src)
	}
	reportValues(b, benchN, c0)
}

func BenchmarkDecodePlainInt32(b *testing.B) {
	src := AppendPlainInt32(nil, benchInt32s())
	dst := make([]int32, benchN)
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	c0 := threadCPU()
	for b.Loop() {
		dst, _, _ = DecodePlainInt32(dst, src)
	}
	reportValues(b, benchN, c0)
}

func BenchmarkEncodePlainInt64(b *testing.B) {
	v := benchInt64s()
	var dst []byte
	b.SetBytes(int64(8 * len(v)))
	b.ReportAllocs()
	c0 := threadCPU()
	for b.Loop() {
		dst = AppendPlainInt64(dst[:0], v)
	}
	reportValues(b, benchN, c0)
}

func BenchmarkDecodePlainByteArray(b *testing.B) {
	ba := benchStrings()
	src := AppendPlainByteArray(nil, ba)
	var dst ByteArrays
	b.SetBytes(int64(ba.TotalLen()))
	b.ReportAllocs()
	c0 := threadCPU()
	for b.Loop() {
		dst, _, _ = DecodePlainByteArray(dst, src)
	}
	reportValues(b, benchN, c0)
}

func BenchmarkEncodePlainByteArray(b *testing.B) {
	ba := benchStrings()
	var dst []byte
	b.SetBytes(int64(ba.TotalLen()))
	b.ReportAllocs()
	c0 := threadCPU()
	for b.Loop() {
		dst = AppendPlainByteArray(dst[:0], ba)
	}
	reportValues(b, benchN, c0)
}

func BenchmarkDecodePlainBool(b *testing.B) {
	lv := benchLevels(1, false)
	src := AppendPlainBool(nil, bytesAsBools(lv))
	dst := make([]bool, benchN)
	b.SetBytes(benchN)
	b.ReportAllocs()
	c0 := threadCPU()
	for b.Loop() {
		dst, _, _ = DecodePlainBool(dst, src, benchN)
	}
	reportValues(b, benchN, c0)
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
				b.SetBytes(benchN)
				b.ReportAllocs()
				c0 := threadCPU()
				for b.Loop() {
					dst, _, _ = DecodeRLELevels(dst, src, w, benchN)
				}
				reportValues(b, benchN, c0)
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
				b.SetBytes(benchN)
				b.ReportAllocs()
				c0 := threadCPU()
				for b.Loop() {
					dst = AppendRLELevels(dst[:0], v, w)
				}
				reportValues(b, benchN, c0)
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
			b.SetBytes(4 * benchN)
			b.ReportAllocs()
			c0 := threadCPU()
			for b.Loop() {
				dst, _, _ = DecodeRLEInt32(dst, src, w, benchN)
			}
			reportValues(b, benchN, c0)
		})
	}
}

func BenchmarkEncodeRLEInt32(b *testing.B) {
	for _, w := range []int{1, 8, 16} {
		b.Run(fmt.Sprintf("w%d", w), func(b *testing.B) {
			v := benchIndices(w)
			var dst []byte
			b.SetBytes(4 * benchN)
			b.ReportAllocs()
			c0 := threadCPU()
			for b.Loop() {
				dst = AppendRLEInt32(dst[:0], v, w)
			}
			reportValues(b, benchN, c0)
		})
	}
}

func BenchmarkDecodeDeltaInt64(b *testing.B) {
	src := AppendDeltaInt64(nil, benchInt64s())
	dst := make([]int64, benchN)
	b.SetBytes(8 * benchN)
	b.ReportAllocs()
	c0 := threadCPU()
	for b.Loop() {
		dst, _, _ = DecodeDeltaInt64(dst, src)
	}
	reportValues(b, benchN, c0)
}

func BenchmarkDecodeDeltaInt32(b *testing.B) {
	src := AppendDeltaInt32(nil, benchInt32s())
	dst := make([]int32, benchN)
	b.SetBytes(4 * benchN)
	b.ReportAllocs()
	c0 := threadCPU()
	for b.Loop() {
		dst, _, _ = DecodeDeltaInt32(dst, src)
	}
	reportValues(b, benchN, c0)
}

func BenchmarkEncodeDeltaInt64(b *testing.B) {
	v := benchInt64s()
	var dst []byte
	b.SetBytes(8 * benchN)
	b.ReportAllocs()
	c0 := threadCPU()
	for b.Loop() {
		dst = AppendDeltaInt64(dst[:0], v)
	}
	reportValues(b, benchN, c0)
}

func BenchmarkEncodeDeltaInt32(b *testing.B) {
	v := benchInt32s()
	var dst []byte
	b.SetBytes(4 * benchN)
	b.ReportAllocs()
	c0 := threadCPU()
	for b.Loop() {
		dst = AppendDeltaInt32(dst[:0], v)
	}
	reportValues(b, benchN, c0)
}

func BenchmarkDecodeDeltaLengthByteArray(b *testing.B) {
	ba := benchStrings()
	src := AppendDeltaLengthByteArray(nil, ba)
	var dst ByteArrays
	b.SetBytes(int64(ba.TotalLen()))
	b.ReportAllocs()
	c0 := threadCPU()
	for b.Loop() {
		dst, _, _ = DecodeDeltaLengthByteArray(dst, src)
	}
	reportValues(b, benchN, c0)
}

func BenchmarkEncodeDeltaLengthByteArray(b *testing.B) {
	ba := benchStrings()
	var dst []byte
	b.SetBytes(int64(ba.TotalLen()))
	b.ReportAllocs()
	c0 := threadCPU()
	for b.Loop() {
		dst = AppendDeltaLengthByteArray(dst[:0], ba)
	}
	reportValues(b, benchN, c0)
}

func BenchmarkDecodeDeltaByteArray(b *testing.B) {
	ba := benchStrings()
	src := AppendDeltaByteArray(nil, ba)
	var dst ByteArrays
	b.SetBytes(int64(ba.TotalLen()))
	b.ReportAllocs()
	c0 := threadCPU()
	for b.Loop() {
		dst, _, _ = DecodeDeltaByteArray(dst, src)
	}
	reportValues(b, benchN, c0)
}

func BenchmarkEncodeDeltaByteArray(b *testing.B) {
	ba := benchStrings()
	var dst []byte
	b.SetBytes(int64(ba.TotalLen()))
	b.ReportAllocs()
	c0 := threadCPU()
	for b.Loop() {
		dst = AppendDeltaByteArray(dst[:0], ba)
	}
	reportValues(b, benchN, c0)
}

func benchDoubles() []float64 {
	r := rand.New(rand.NewPCG(5, 5))
	v := make([]float64, benchN)
	for i := range v {
		v[i] = r.NormFloat64()
	}
	return v
}

func BenchmarkDecodeByteStreamSplitDouble(b *testing.B) {
	src := AppendByteStreamSplitDouble(nil, benchDoubles())
	dst := make([]float64, benchN)
	b.SetBytes(8 * benchN)
	b.ReportAllocs()
	c0 := threadCPU()
	for b.Loop() {
		dst, _, _ = DecodeByteStreamSplitDouble(dst, src)
	}
	reportValues(b, benchN, c0)
}

func BenchmarkEncodeByteStreamSplitDouble(b *testing.B) {
	v := benchDoubles()
	var dst []byte
	b.SetBytes(8 * benchN)
	b.ReportAllocs()
	c0 := threadCPU()
	for b.Loop() {
		dst = AppendByteStreamSplitDouble(dst[:0], v)
	}
	reportValues(b, benchN, c0)
}

func BenchmarkDecodeByteStreamSplitFloat(b *testing.B) {
	d := benchDoubles()
	f := make([]float32, len(d))
	for i := range d {
		f[i] = float32(d[i])
	}
	src := AppendByteStreamSplitFloat(nil, f)
	dst := make([]float32, benchN)
	b.SetBytes(4 * benchN)
	b.ReportAllocs()
	c0 := threadCPU()
	for b.Loop() {
		dst, _, _ = DecodeByteStreamSplitFloat(dst, src)
	}
	reportValues(b, benchN, c0)
}

func BenchmarkEncodeByteStreamSplitFloat(b *testing.B) {
	d := benchDoubles()
	f := make([]float32, len(d))
	for i := range d {
		f[i] = float32(d[i])
	}
	var dst []byte
	b.SetBytes(4 * benchN)
	b.ReportAllocs()
	c0 := threadCPU()
	for b.Loop() {
		dst = AppendByteStreamSplitFloat(dst[:0], f)
	}
	reportValues(b, benchN, c0)
}

func BenchmarkDictInsertInt64(b *testing.B) {
	v := benchInt64s()
	for i := range v {
		v[i] %= 4096
	}
	var d Dict64
	idx := make([]int32, 0, benchN)
	b.SetBytes(8 * benchN)
	b.ReportAllocs()
	c0 := threadCPU()
	for b.Loop() {
		d.Reset()
		idx, _, _ = d.InsertInt64(idx[:0], v)
	}
	reportValues(b, benchN, c0)
}

func BenchmarkDictInsertByteArray(b *testing.B) {
	var ba ByteArrays
	for i := range benchN {
		ba.AppendString(fmt.Sprintf("category-%d", i%1000))
	}
	var d DictBytes
	idx := make([]int32, 0, benchN)
	b.SetBytes(int64(ba.TotalLen()))
	b.ReportAllocs()
	c0 := threadCPU()
	for b.Loop() {
		d.Reset()
		idx, _, _ = d.InsertByteArrays(idx[:0], ba)
	}
	reportValues(b, benchN, c0)
}
