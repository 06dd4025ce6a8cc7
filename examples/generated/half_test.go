package generated

import (
	"math"
	"path/filepath"
	"testing"

	"github.com/pqgen/pqgen/internal/corpus"
	"github.com/pqgen/pqgen/runtime"
)

// TestHalfCorpus reads the corpus's FLOAT16 files (written by Arrow C++)
// as float32 and as raw bits: the values the corpus README lists, signed
// zeros and NaN included.
func TestHalfCorpus(t *testing.T) {
	nan := float32(math.NaN())
	negZero := float32(math.Copysign(0, -1))
	for _, c := range []struct {
		file string
		want []*float32
		bits []uint16 // binary16 bits of the non-null values
	}{
		{"data/float16_zeros_and_nans.parquet", []*float32{nil, ptr(float32(0)), &nan}, []uint16{0x0000, 0x7e00}},
		{"data/float16_nonzeros_and_nans.parquet",
			[]*float32{nil, ptr(float32(1)), ptr(float32(-2)), &nan, ptr(float32(0)), ptr(float32(-1)), &negZero, ptr(float32(2))},
			[]uint16{0x3c00, 0xc000, 0x7e00, 0x0000, 0xbc00, 0x8000, 0x4000}},
	} {
		path := corpus.Path(t, c.file)
		rows, err := ReadHalfFile(path)
		if err != nil {
			t.Fatalf("%s: %v", c.file, err)
		}
		raw, err := ReadHalfRawFile(path)
		if err != nil {
			t.Fatalf("%s: %v", c.file, err)
		}
		if len(rows) != len(c.want) || len(raw) != len(c.want) {
			t.Fatalf("%s: %d and %d rows, want %d", c.file, len(rows), len(raw), len(c.want))
		}
		k := 0
		for i, w := range c.want {
			got := rows[i].X
			if (got == nil) != (w == nil) || (raw[i].X == nil) != (w == nil) {
				t.Fatalf("%s row %d: null %v, raw null %v, want null %v", c.file, i, got == nil, raw[i].X == nil, w == nil)
			}
			if w == nil {
				continue
			}
			if math.Float32bits(*got) != math.Float32bits(*w) && !(math.IsNaN(float64(*got)) && math.IsNaN(float64(*w))) {
				t.Errorf("%s row %d: %v (%#08x), want %v", c.file, i, *got, math.Float32bits(*got), *w)
			}
			if b := uint16(raw[i].X[0]) | uint16(raw[i].X[1])<<8; b != c.bits[k] {
				t.Errorf("%s row %d: bits %#04x, want %#04x", c.file, i, b, c.bits[k])
			}
			k++
		}
	}
}

// TestHalfWrite writes float32 values through a FLOAT16 column and reads
// the bits back raw: rounded to nearest even, overflow to ±Inf, NaN kept;
// and the raw bits written read back as the exact float32 values.
func TestHalfWrite(t *testing.T) {
	in := []float32{0.1, 1.0 / 3, 65504, 65519.99, 65520, -1e10, float32(math.Inf(-1)), float32(math.NaN()),
		float32(math.Ldexp(1, -25)), float32(math.Ldexp(1.5, -25)), float32(math.Copysign(0, -1)), 2049, 2051}
	want := []uint16{0x2e66, 0x3555, 0x7bff, 0x7bff, 0x7c00, 0xfc00, 0xfc00, 0x7e00, 0x0000, 0x0001, 0x8000, 0x6800, 0x6802}
	rows := make([]Half, len(in)+1) // and a null
	for i := range in {
		rows[i].X = &in[i]
	}
	path := filepath.Join(t.TempDir(), "half.parquet")
	if err := WriteHalfFile(path, rows); err != nil {
		t.Fatal(err)
	}
	raw, err := ReadHalfRawFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(raw) != len(rows) || raw[len(in)].X != nil {
		t.Fatalf("%d rows read back, last %v; want %d, the last null", len(raw), raw[len(raw)-1].X, len(rows))
	}
	for i, w := range want {
		if b := uint16(raw[i].X[0]) | uint16(raw[i].X[1])<<8; b != w {
			t.Errorf("%v written as %#04x, want %#04x", in[i], b, w)
		}
	}
	// The raw bits back through a raw writer and the float32 reader.
	path2 := filepath.Join(t.TempDir(), "half_raw.parquet")
	if err := WriteHalfRawFile(path2, raw); err != nil {
		t.Fatal(err)
	}
	back, err := ReadHalfFile(path2)
	if err != nil {
		t.Fatal(err)
	}
	for i, w := range want {
		if got := math.Float32bits(*back[i].X); got != math.Float32bits(runtime.Float16ToFloat32(w)) {
			t.Errorf("bits %#04x read as %#08x, want %v", w, got, runtime.Float16ToFloat32(w))
		}
	}
}
