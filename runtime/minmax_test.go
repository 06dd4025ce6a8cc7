package runtime

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestMinMax compares minMax with its plain twin and with slices.Min and
// slices.Max of the converted values, on every length up to 40 and on
// random lengths, with the extremes at a few positions, for the four
// element types and, as the unsigned statistics take them, int32 and
// int64 in unsigned order.
func TestMinMax(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 9))
	lengths := make([]int, 0, 80)
	for n := 1; n <= 40; n++ {
		lengths = append(lengths, n)
	}
	for range 40 {
		lengths = append(lengths, 1+r.IntN(5000))
	}
	for _, n := range lengths {
		a32, a64 := make([]int32, n), make([]int64, n)
		u32, u64 := make([]uint32, n), make([]uint64, n)
		for i := range n {
			a32[i], a64[i] = int32(r.Uint32()), int64(r.Uint64())
			u32[i], u64[i] = r.Uint32(), r.Uint64()
		}
		checkMinMax[int32](t, n, a32)
		checkMinMax[uint32](t, n, a32)
		checkMinMax[int64](t, n, a64)
		checkMinMax[uint64](t, n, a64)
		checkMinMax[uint32](t, n, u32)
		checkMinMax[uint64](t, n, u64)
		// The extremes at each position (a few positions for long inputs).
		for _, at := range []int{0, n / 3, n / 2, n - 1} {
			b := append([]int64(nil), a64...)
			b[at] = math.MinInt64
			checkMinMax[int64](t, n, b)
			checkMinMax[uint64](t, n, b)
			b[at] = math.MaxInt64
			checkMinMax[int64](t, n, b)
			checkMinMax[uint64](t, n, b)
		}
	}
}

func checkMinMax[U, T integer](t *testing.T, n int, src []T) {
	t.Helper()
	mn, mx := minMax[U](src)
	pn, px := minMaxPlain[U](src)
	conv := make([]U, len(src))
	for i, v := range src {
		conv[i] = U(v)
	}
	if wn, wx := slices.Min(conv), slices.Max(conv); mn != wn || mx != wx || pn != wn || px != wx {
		t.Fatalf("%d values of %T as %T: minMax gives %v, %v, the plain loop %v, %v, want %v, %v", n, src[0], mn, mn, mx, pn, px, wn, wx)
	}
}

// BenchmarkMinMax compares minMax with its plain twin on a page of 8,192
// int64 and of int32.
func BenchmarkMinMax(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 1))
	a64, a32 := make([]int64, 8192), make([]int32, 8192)
	for i := range a64 {
		a64[i], a32[i] = int64(r.Uint64()), int32(r.Uint32())
	}
	var sink int64
	b.Run("type=int64/impl=unrolled", func(b *testing.B) {
		b.SetBytes(8 * 8192)
		for b.Loop() {
			mn, mx := minMax[int64](a64)
			sink += mn ^ mx
		}
	})
	b.Run("type=int64/impl=plain", func(b *testing.B) {
		b.SetBytes(8 * 8192)
		for b.Loop() {
			mn, mx := minMaxPlain[int64](a64)
			sink += mn ^ mx
		}
	})
	b.Run("type=int32/impl=unrolled", func(b *testing.B) {
		b.SetBytes(4 * 8192)
		for b.Loop() {
			mn, mx := minMax[int32](a32)
			sink += int64(mn ^ mx)
		}
	})
	b.Run("type=int32/impl=plain", func(b *testing.B) {
		b.SetBytes(4 * 8192)
		for b.Loop() {
			mn, mx := minMaxPlain[int32](a32)
			sink += int64(mn ^ mx)
		}
	})
	_ = sink
}
