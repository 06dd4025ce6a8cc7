package runtime

import (
	"bytes"
	"errors"
	"math/big"
	"math/rand/v2"
	"testing"
)

func TestDecimalString(t *testing.T) {
	for _, c := range []struct {
		u     int64
		scale int32
		want  string
	}{
		{-150, 2, "-1.50"}, {5, 2, "0.05"}, {-5, 2, "-0.05"}, {120, 0, "120"}, {0, 3, "0.000"},
		{0, 0, "0"}, {-9223372036854775808, 0, "-9223372036854775808"}, {-9223372036854775808, 19, "-0.9223372036854775808"},
		{123456789, 38, "0.00000000000000000000000000000123456789"},
	} {
		d := NewDecimal(c.u, c.scale)
		if got := d.String(); got != c.want {
			t.Errorf("NewDecimal(%d, %d) = %q, want %q", c.u, c.scale, got, c.want)
		}
		back, err := ParseDecimal(c.want)
		if err != nil || back != d {
			t.Errorf("ParseDecimal(%q) = %#v, %v; want %#v", c.want, back, err, d)
		}
	}
	for _, bad := range []string{"", "-", "1e5", "1.2.3", " 1", "+-1", "0x10", "1." + string(bytes.Repeat([]byte("0"), 39)),
		"100000000000000000000000000000000000000000" /* 2^128 < 10^41 */} {
		if _, err := ParseDecimal(bad); !errors.Is(err, ErrValue) {
			t.Errorf("ParseDecimal(%q): error %v, want ErrValue", bad, err)
		}
	}
	if d, err := ParseDecimal("+.5"); err != nil || d.String() != "0.5" {
		t.Errorf("ParseDecimal(+.5) = %v, %v", d, err)
	}
}

// randomUnscaled returns a random integer of up to 127 bits and a sign.
func randomUnscaled(r *rand.Rand) *big.Int {
	u := new(big.Int).SetUint64(r.Uint64())
	u.Lsh(u, 63)
	u.Or(u, new(big.Int).SetUint64(r.Uint64()>>1))
	u.Rsh(u, uint(r.IntN(127)))
	if r.IntN(2) == 0 {
		u.Neg(u)
	}
	return u
}

// TestDecimalBig checks the 128-bit arithmetic against math/big on random
// values of every size: Unscaled, String, Float64, Int, Compare, Rescale
// and the FIXED_LEN_BYTE_ARRAY bytes.
func TestDecimalBig(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for i := 0; i < 20000; i++ {
		u := randomUnscaled(r)
		scale := int32(r.IntN(MaxDecimalScale + 1))
		d, err := NewDecimalBig(u, scale)
		if err != nil {
			t.Fatal(err)
		}
		if d.Unscaled().Cmp(u) != 0 {
			t.Fatalf("Unscaled() = %s, want %s", d.Unscaled(), u)
		}
		if got, ok := d.Unscaled64(); ok != u.IsInt64() || ok && got != u.Int64() {
			t.Fatalf("%s: Unscaled64 = %d, %v", u, got, ok)
		}
		if d.Sign() != u.Sign() {
			t.Fatalf("%s: Sign %d", u, d.Sign())
		}
		rat := new(big.Rat).SetFrac(u, pow10Big(int(scale)))
		if got, want := d.String(), rat.FloatString(int(scale)); got != want {
			t.Fatalf("String() = %s, want %s", got, want)
		}
		if got, _ := rat.Float64(); d.Float64() != got {
			t.Fatalf("%s: Float64() = %v, want %v", d, d.Float64(), got)
		}
		if got, want := d.Int(), new(big.Int).Quo(u, pow10Big(int(scale))); got.Cmp(want) != 0 {
			t.Fatalf("%s: Int() = %s, want %s", d, got, want)
		}
		back, err := ParseDecimal(d.String())
		if err != nil || back != d {
			t.Fatalf("ParseDecimal(%s) = %v, %v", d, back, err)
		}
		// Compare against another value at another scale.
		e, _ := NewDecimalBig(randomUnscaled(r), int32(r.IntN(MaxDecimalScale+1)))
		erat := new(big.Rat).SetFrac(e.Unscaled(), pow10Big(int(e.scale)))
		if got, want := CompareDecimal(d, e), rat.Cmp(erat); got != want {
			t.Fatalf("CompareDecimal(%s, %s) = %d, want %d", d, e, got, want)
		}
		if d.Equal(e) != (rat.Cmp(erat) == 0) {
			t.Fatalf("%s.Equal(%s) = %v", d, e, d.Equal(e))
		}
		if CompareDecimal(d, d) != 0 || !d.Equal(d) {
			t.Fatalf("CompareDecimal(%s, itself) != 0", d)
		}
		// Rescale up and back down is exact within 128 bits.
		if up, err := d.Rescale(scale + 1); err == nil {
			if CompareDecimal(up, d) != 0 || up.scale != scale+1 {
				t.Fatalf("%s.Rescale(%d) = %s", d, scale+1, up)
			}
			if down, err := up.Rescale(scale); err != nil || down != d {
				t.Fatalf("%s.Rescale(%d) = %s, %v", up, scale, down, err)
			}
		} else if !errors.Is(err, ErrValue) || u.BitLen() < 124 && scale < MaxDecimalScale {
			t.Fatalf("%s.Rescale(%d): %v", d, scale+1, err)
		}
		// Fixed bytes: the smallest n holding u, and n-1 must fail.
		n := (u.BitLen() + 8) / 8 // with the sign bit
		b, err := AppendDecimalFixed([]byte{7}, d, scale, 0, n)
		if err != nil {
			t.Fatalf("%s in %d bytes: %v", d, n, err)
		}
		if got := DecimalFromFixed(b[1:], scale); got != d {
			t.Fatalf("%s: bytes % x read as %s", d, b[1:], got)
		}
		if n > 1 {
			if b, err := AppendDecimalFixed([]byte{7}, d, scale, 0, n-1); !errors.Is(err, ErrValue) || !bytes.Equal(b, []byte{7}) {
				t.Fatalf("%s in %d bytes: % x, %v; want ErrValue", d, n-1, b, err)
			}
		}
	}
}

func TestDecimalColumns(t *testing.T) {
	d := NewDecimal(150, 2) // 1.50
	for _, c := range []struct {
		scale, precision int32
		want             int64
		err              bool
	}{
		{2, 9, 150, false}, {4, 9, 15000, false}, {1, 9, 15, false}, {0, 9, 0, true}, // 1.5 loses a digit at scale 0
		{2, 3, 150, false}, {2, 2, 0, true}, {3, 4, 1500, false}, {3, 3, 0, true},
	} {
		got, err := DecimalUnscaled64(d, c.scale, c.precision)
		if c.err != (err != nil) || !c.err && got != c.want || err != nil && !errors.Is(err, ErrValue) {
			t.Errorf("DecimalUnscaled64(1.50, %d, %d) = %d, %v", c.scale, c.precision, got, err)
		}
		got32, err := DecimalUnscaled32(d, c.scale, c.precision)
		if c.err != (err != nil) || !c.err && int64(got32) != c.want {
			t.Errorf("DecimalUnscaled32(1.50, %d, %d) = %d, %v", c.scale, c.precision, got32, err)
		}
	}
	if _, err := DecimalUnscaled32(NewDecimal(1<<31, 0), 0, 18); !errors.Is(err, ErrValue) {
		t.Errorf("2^31 into 32 bits: %v", err)
	}
	if v, err := DecimalUnscaled32(NewDecimal(-1<<31, 0), 0, 18); err != nil || v != -1<<31 {
		t.Errorf("-2^31 into 32 bits: %d, %v", v, err)
	}
	big38, _ := ParseDecimal("99999999999999999999999999999999999999")
	if b, err := AppendDecimalFixed(nil, big38, 0, 38, 16); err != nil || len(b) != 16 {
		t.Errorf("10^38-1 into DECIMAL(38): % x, %v", b, err)
	}
	if _, err := AppendDecimalFixed(nil, big38, 0, 37, 16); !errors.Is(err, ErrValue) {
		t.Errorf("10^38-1 into DECIMAL(37): %v", err)
	}
	if b, err := AppendDecimalFixed(nil, NewDecimal(-1, 0), 0, 2, 2); err != nil || !bytes.Equal(b, []byte{0xff, 0xff}) {
		t.Errorf("-1 in 2 bytes: % x, %v", b, err)
	}
	if b, err := AppendDecimalFixed(nil, NewDecimal(128, 0), 0, 3, 1); !errors.Is(err, ErrValue) {
		t.Errorf("128 in 1 byte: % x, %v", b, err)
	}
	if _, err := NewDecimal(1, 0).Rescale(39); !errors.Is(err, ErrValue) {
		t.Errorf("Rescale(39): %v", err)
	}
	if got := DecimalFromFixed([]byte{0xff, 0x38}, 1).String(); got != "-20.0" {
		t.Errorf("DecimalFromFixed(ff 38, 1) = %s", got)
	}
	if !NewDecimal(10, 1).Equal(NewDecimal(1, 0)) || NewDecimal(10, 1) == NewDecimal(1, 0) {
		t.Errorf("1.0 and 1: Equal but not ==")
	}
	if i, ok := NewDecimal(-1999, 3).Int64(); !ok || i != -1 {
		t.Errorf("(-1.999).Int64() = %d, %v", i, ok)
	}
}

func FuzzParseDecimal(f *testing.F) {
	for _, s := range []string{"0", "-1.50", "99999999999999999999999999999999999999", "1e5", ".", "+.0"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d, err := ParseDecimal(s)
		if err != nil {
			if !errors.Is(err, ErrValue) {
				t.Fatalf("ParseDecimal(%q): %v not ErrValue", s, err)
			}
			return
		}
		back, err := ParseDecimal(d.String())
		if err != nil || back != d {
			t.Fatalf("ParseDecimal(%q) = %s, which parses back as %v, %v", s, d, back, err)
		}
	})
}

func FuzzDecimalFromFixed(f *testing.F) {
	f.Add([]byte{0x80}, uint8(2))
	f.Add([]byte{0x7f, 0xff, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1}, uint8(38))
	f.Fuzz(func(t *testing.T, b []byte, s uint8) {
		scale := int32(s % (MaxDecimalScale + 1))
		d := DecimalFromFixed(b, scale)
		if len(b) == 0 || len(b) > 16 {
			return
		}
		out, err := AppendDecimalFixed(nil, d, scale, 0, len(b))
		if err != nil || !bytes.Equal(out, b) {
			t.Fatalf("% x read as %s written as % x, %v", b, d, out, err)
		}
	})
}

func BenchmarkDecimalUnscaled64(b *testing.B) {
	d := NewDecimal(123456789, 2)
	for i := 0; i < b.N; i++ {
		if _, err := DecimalUnscaled64(d, 2, 18); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDecimalString(b *testing.B) {
	d := NewDecimal(-123456789, 2)
	for i := 0; i < b.N; i++ {
		_ = d.String()
	}
}
