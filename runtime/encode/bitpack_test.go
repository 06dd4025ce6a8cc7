package encode

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"unsafe"
)

func randVals(r *rand.Rand, n, w int) []uint64 {
	v := make([]uint64, n)
	for i := range v {
		if w == 64 {
			v[i] = r.Uint64()
		} else if w > 0 {
			v[i] = r.Uint64() & (1<<w - 1)
		}
	}
	return v
}

var kernelLens = []int{0, 1, 7, 8, 9, 31, 32, 33, 63, 64, 65, 100, 127, 128, 129, 255, 256, 1000}

// TestKernelsDifferential compares every generated kernel (through the
// dispatchers) with the reference for every width, many lengths and
// starting offsets.
func TestKernelsDifferential(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for w := 0; w <= 64; w++ {
		for _, n := range kernelLens {
			for _, off := range []int{0, 1, 3} {
				vals := randVals(r, n, w)
				packed := append(make([]byte, off), refPack(nil, vals, w)...)
				src := packed[off:]
				// unpack64
				got := make([]uint64, n)
				unpack64(got, src, w)
				if !slices.Equal(got, vals) {
					t.Fatalf("unpack64 w=%d n=%d off=%d", w, n, off)
				}
				// pack64
				if p := appendPack64(make([]byte, off), vals, w)[off:]; !slices.Equal(p, src) {
					t.Fatalf("pack64 w=%d n=%d off=%d", w, n, off)
				}
				if w <= 32 {
					v32 := make([]uint32, n)
					for i := range v32 {
						v32[i] = uint32(vals[i])
					}
					g32 := make([]uint32, n)
					unpack32(g32, src, w)
					if !slices.Equal(g32, v32) {
						t.Fatalf("unpack32 w=%d n=%d off=%d", w, n, off)
					}
					if p := appendPack32(make([]byte, off), v32, w)[off:]; !slices.Equal(p, src) {
						t.Fatalf("pack32 w=%d n=%d off=%d", w, n, off)
					}
				}
				if w <= 8 {
					v8 := make([]uint8, n)
					for i := range v8 {
						v8[i] = uint8(vals[i])
					}
					g8 := make([]uint8, n)
					unpack8(g8, src, w)
					if !slices.Equal(g8, v8) {
						t.Fatalf("unpack8 w=%d n=%d off=%d", w, n, off)
					}
					if p := appendPackLevels(make([]byte, off), v8, w)[off:]; !slices.Equal(p, src) {
						t.Fatalf("packLevels w=%d n=%d off=%d", w, n, off)
					}
				}
			}
		}
	}
}

// The kernels must not read past the bytes the values occupy.
func TestKernelsExactInput(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for w := 1; w <= 64; w++ {
		for _, n := range kernelLens {
			vals := randVals(r, n, w)
			packed := refPack(nil, vals, w)
			src := packed[:len(packed):len(packed)]
			got := make([]uint64, n)
			unpack64(got, src, w)
			if !slices.Equal(got, vals) {
				t.Fatalf("w=%d n=%d", w, n)
			}
		}
	}
}

func TestUnsafeCastsTwin(t *testing.T) {
	i := []int32{-1, 0, 1 << 30}
	u := as32[uint32](i)
	for k := range i {
		if u[k] != uint32(i[k]) {
			t.Fatal("as32[uint32] of int32s")
		}
	}
	if cap(as32[uint32](make([]int32, 0, 9))) != 9 {
		t.Fatal("capacity lost")
	}
	w := []uint64{1<<64 - 1, 0, 1 << 62}
	for k, x := range as64[int64](w) {
		if x != int64(w[k]) {
			t.Fatal("as64[int64] of uint64s")
		}
	}
	f := []float32{float32(math.NaN()), float32(math.Copysign(0, -1)), 1.5}
	for k, x := range as32[uint32](f) {
		if x != math.Float32bits(f[k]) {
			t.Fatal("as32[uint32] of float32s")
		}
	}
	g := []float64{math.NaN(), math.Copysign(0, -1), -2.25}
	for k, x := range as64[uint64](g) {
		if x != math.Float64bits(g[k]) {
			t.Fatal("as64[uint64] of float64s")
		}
	}
	for k, x := range as64[uint64]([]int64{-1, 0, 1 << 62}) {
		if x != uint64([]int64{-1, 0, 1 << 62}[k]) {
			t.Fatal("as64[uint64] of int64s")
		}
	}
	b := []bool{true, false, true}
	for k, x := range boolsAsBytes(b) {
		want := uint8(0)
		if b[k] {
			want = 1
		}
		if x != want {
			t.Fatal("boolsAsBytes")
		}
	}
	if unsafe.Sizeof(Int96{}) != 12 {
		t.Fatal("Int96 size")
	}
}

// TestDeltaKernelsDifferential checks the fused unpack-and-sum kernels of
// every width against the reference unpacker plus a plain prefix sum.
func TestDeltaKernelsDifferential(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	for w := 1; w <= 64; w++ {
		for range 20 {
			vals := randVals(r, 32, w)
			src := refPack(nil, vals, w)
			last, m := r.Uint64(), r.Uint64()
			want := make([]int64, 32)
			l := last
			for i, v := range vals {
				l += v + m
				want[i] = int64(l)
			}
			got := make([]int64, 32)
			if end := deltaUnpack64Kernels(w, got, src, last, m); end != l || !slices.Equal(got, want) {
				t.Fatalf("deltaUnpack64 w=%d", w)
			}
			if w > 32 {
				continue
			}
			l32, m32 := uint32(last), uint32(m)
			want32 := make([]uint32, 32)
			for i, v := range vals {
				l32 += uint32(v) + m32
				want32[i] = l32
			}
			got32 := make([]uint32, 32)
			if end := deltaUnpack32Kernels(w, got32, src, uint32(last), m32); end != l32 || !slices.Equal(got32, want32) {
				t.Fatalf("deltaUnpack32 w=%d", w)
			}
		}
	}
}

// TestPackSubKernelsDifferential checks the subtract-and-pack kernels of
// every width against the reference packer.
func TestPackSubKernelsDifferential(t *testing.T) {
	r := rand.New(rand.NewPCG(15, 16))
	for w := 1; w <= 64; w++ {
		for range 20 {
			vals := randVals(r, 32, w)
			want := refPack(nil, vals, w)
			m := r.Uint64()
			in := make([]uint64, 32)
			for i, v := range vals {
				in[i] = v + m
			}
			got := make([]byte, 4*w)
			packSub64Kernels(w, got, in, m)
			if !slices.Equal(got, want) {
				t.Fatalf("packSub64 w=%d", w)
			}
			if w > 32 {
				continue
			}
			in32 := make([]uint32, 32)
			for i, v := range vals {
				in32[i] = uint32(v) + uint32(m)
			}
			got = make([]byte, 4*w)
			packSub32Kernels(w, got, in32, uint32(m))
			if !slices.Equal(got, want) {
				t.Fatalf("packSub32 w=%d", w)
			}
		}
	}
}
