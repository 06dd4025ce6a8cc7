package runtime

import (
	"bytes"
	"math"
	"math/rand/v2"
	"sort"
	"testing"
)

// refFloat16 is the value of binary16 bits h computed from the definition
// with float64 arithmetic (NaN for NaNs).
func refFloat16(h uint16) float64 {
	s := 1.0
	if h&0x8000 != 0 {
		s = -1
	}
	e, m := int(h>>10)&0x1f, float64(h&0x3ff)
	switch e {
	case 0x1f:
		if m != 0 {
			return math.NaN()
		}
		return math.Inf(int(s))
	case 0:
		return s * math.Ldexp(m, -24)
	}
	return s * math.Ldexp(1+m/1024, e-15)
}

// TestFloat16ToFloat32All checks every one of the 65536 binary16 values
// against the definition, and that converting back gives the same bits.
func TestFloat16ToFloat32All(t *testing.T) {
	for i := 0; i < 1<<16; i++ {
		h := uint16(i)
		f := Float16ToFloat32(h)
		want := refFloat16(h)
		if math.IsNaN(want) {
			fb := math.Float32bits(f)
			if !math.IsNaN(float64(f)) || fb>>31 != uint32(h>>15) || (fb>>13)&0x3ff != uint32(h&0x3ff) {
				t.Fatalf("Float16ToFloat32(%#04x) = %#08x, want a NaN of the same sign and payload", h, fb)
			}
			back := Float32ToFloat16(f)
			if back&0x7c00 != 0x7c00 || back&0x3ff == 0 || back&0x8000 != h&0x8000 || back != h|0x200 {
				t.Fatalf("Float32ToFloat16(NaN of %#04x) = %#04x, want %#04x (quiet)", h, back, h|0x200)
			}
			continue
		}
		if float64(f) != want || math.Signbit(float64(f)) != (h&0x8000 != 0) {
			t.Fatalf("Float16ToFloat32(%#04x) = %v, want %v", h, f, want)
		}
		if back := Float32ToFloat16(f); back != h {
			t.Fatalf("Float32ToFloat16(Float16ToFloat32(%#04x)) = %#04x", h, back)
		}
	}
}

// TestFloat32ToFloat16Ties checks, for every pair of neighbouring finite
// binary16 values of either sign, that their midpoint rounds to the one
// with the even significand and that the float32 values just below and
// above it round down and up; past the largest finite value the upper
// neighbour is Inf (65520 and above overflow).
func TestFloat32ToFloat16Ties(t *testing.T) {
	for _, sign := range []uint16{0, 0x8000} {
		for h := uint16(0); h < 0x7c00; h++ {
			lo, hi := refFloat16(h), refFloat16(h+1)
			if h+1 == 0x7c00 {
				hi = 65536 // where the next binade would start
			}
			mid := (lo + hi) / 2
			if float64(float32(mid)) != mid {
				t.Fatalf("midpoint %v not a float32", mid)
			}
			m := float32(mid)
			even := h
			if h&1 == 1 {
				even = h + 1
			}
			below := math.Nextafter32(m, 0)
			above := math.Nextafter32(m, float32(math.Inf(1)))
			if sign != 0 {
				m, below, above = -m, -below, -above
			}
			for _, c := range []struct {
				in   float32
				want uint16
			}{{m, even}, {below, h}, {above, h + 1}} {
				if got := Float32ToFloat16(c.in); got != c.want|sign {
					t.Fatalf("Float32ToFloat16(%v) = %#04x, want %#04x", c.in, got, c.want|sign)
				}
			}
		}
	}
}

// refRound rounds x (finite, non-negative) to binary16 by searching the
// sorted non-negative values (vals[h] for bits h, up to 65536 for Inf):
// nearest, ties to even, 65520 and above Inf.
func refRound(x float64, vals []float64) uint16 {
	if x >= 65520 {
		return 0x7c00
	}
	i := sort.SearchFloat64s(vals, x) // vals[i-1] < x <= vals[i]
	if vals[i] == x {
		return uint16(i)
	}
	lo, hi := vals[i-1], vals[i]
	switch {
	case x-lo < hi-x:
		return uint16(i - 1)
	case x-lo > hi-x:
		return uint16(i)
	case (i-1)&1 == 0:
		return uint16(i - 1)
	}
	return uint16(i)
}

// TestFloat32ToFloat16Random compares the conversion of random float32 bit
// patterns (every exponent, so overflow, subnormals and underflow) with a
// search over the sorted binary16 values.
func TestFloat32ToFloat16Random(t *testing.T) {
	vals := make([]float64, 0x7c01)
	for h := range vals {
		vals[h] = refFloat16(uint16(h))
	}
	vals[0x7c00] = 65536 // Inf stands where the next binade would start
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 1_000_000; i++ {
		b := r.Uint32()
		if i%2 == 0 {
			// Half of them near binary16's range (exponents 90..150).
			b = b&0x807fffff | (90+r.Uint32N(61))<<23
		}
		f := math.Float32frombits(b)
		if math.IsNaN(float64(f)) || math.IsInf(float64(f), 0) {
			continue
		}
		want := refRound(math.Abs(float64(f)), vals)
		if math.Signbit(float64(f)) {
			want |= 0x8000
		}
		if got := Float32ToFloat16(f); got != want {
			t.Fatalf("Float32ToFloat16(%v = %#08x) = %#04x, want %#04x", f, b, got, want)
		}
	}
}

func TestFloat32ToFloat16Cases(t *testing.T) {
	inf, nan := float32(math.Inf(1)), math.Float32frombits(0x7fc00001)
	for _, c := range []struct {
		in   float32
		want uint16
	}{
		{0, 0}, {float32(math.Copysign(0, -1)), 0x8000}, {1, 0x3c00}, {-2, 0xc000},
		{0.1, 0x2e66}, {1.0 / 3, 0x3555}, {65504, 0x7bff}, {65519.996, 0x7bff}, {65520, 0x7c00},
		{-65520, 0xfc00}, {1e10, 0x7c00}, {-1e10, 0xfc00}, {inf, 0x7c00}, {-inf, 0xfc00},
		{float32(math.Ldexp(1, -24)), 0x0001}, {float32(math.Ldexp(1, -25)), 0},
		{float32(math.Ldexp(1.5, -25)), 0x0001}, {float32(math.Ldexp(3, -25)), 0x0002},
		{float32(math.Ldexp(1, -14)), 0x0400}, {float32(math.Ldexp(1023.5, -24)), 0x0400},
		{math.Float32frombits(1), 0}, {-math.Float32frombits(1), 0x8000},
		{2049, 0x6800}, {2051, 0x6802}, // ties at spacing 2: to even
		{nan, 0x7e00}, {math.Float32frombits(0xff802000), 0xfe01}, // a signalling NaN becomes quiet
	} {
		if got := Float32ToFloat16(c.in); got != c.want {
			t.Errorf("Float32ToFloat16(%v = %#08x) = %#04x, want %#04x", c.in, math.Float32bits(c.in), got, c.want)
		}
	}
	b := AppendFloat16([]byte{9}, 1)
	b = AppendFloat16(b, -65504)
	if want := []byte{9, 0x00, 0x3c, 0xff, 0xfb}; !bytes.Equal(b, want) {
		t.Errorf("AppendFloat16: % x, want % x", b, want)
	}
	if got := Float16At(b[1:], 1); got != -65504 {
		t.Errorf("Float16At = %v, want -65504", got)
	}
}

func BenchmarkFloat32ToFloat16(b *testing.B) {
	vals := make([]float32, 1024)
	for i := range vals {
		vals[i] = float32(i) * 0.37
	}
	var s uint16
	for i := 0; i < b.N; i++ {
		s += Float32ToFloat16(vals[i&1023])
	}
	_ = s
}

func BenchmarkFloat16ToFloat32(b *testing.B) {
	var s float32
	for i := 0; i < b.N; i++ {
		s += Float16ToFloat32(uint16(i))
	}
	_ = s
}
