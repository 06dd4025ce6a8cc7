package runtime

import (
	"bytes"
	"errors"
	"math"
	"testing"

	"github.com/pqgen/pqgen/runtime/meta"
)

// alpFile writes n rows of prices with two decimals (cents), random
// doubles (noise), floats with exceptions and nulls (f, optional) and
// prices again without a configured encoding (auto), and returns the file
// and the values.
func alpFile(t *testing.T, opts ...WriterOption) ([]byte, [][]float64, []float32) {
	t.Helper()
	const n = 5000
	s := mustSchema(t, `message m {
  required double cents;
  required double noise;
  optional float f;
  required double auto;
}`)
	var buf bytes.Buffer
	w, err := NewFileWriter(&buf, s, append([]WriterOption{WithDictionary(false), WithPageRowLimit(2000)}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	cents, _ := w.DoubleBuffer(0)
	noise, _ := w.DoubleBuffer(1)
	fb, _ := w.FloatBuffer(2)
	auto, _ := w.DoubleBuffer(3)
	rnd := newRand(9)
	special := []float32{float32(math.Copysign(0, -1)), math.Float32frombits(0x7FC00001), float32(math.Inf(-1)), math.SmallestNonzeroFloat32}
	var want [][]float64 = make([][]float64, 3)
	var wantF []float32
	for i := range n {
		c := float64(rnd.IntN(1_000_000)) / 100
		want[0] = append(want[0], c)
		want[1] = append(want[1], rnd.Float64())
		want[2] = append(want[2], float64(rnd.IntN(100_000))/100)
		cents.Values = append(cents.Values, c)
		noise.Values = append(noise.Values, want[1][i])
		auto.Values = append(auto.Values, want[2][i])
		if i%7 == 3 {
			fb.Def = append(fb.Def, 0)
			continue
		}
		x := float32(rnd.IntN(10000)) / 10
		if i%101 == 0 {
			x = special[i%len(special)]
		}
		wantF = append(wantF, x)
		fb.Def = append(fb.Def, 1)
		fb.Values = append(fb.Values, x)
	}
	if err := w.EndRows(n); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes(), want, wantF
}

// alpPageEncodings returns the encodings of the data pages of a column.
func alpPageEncodings(f *File, col int) map[meta.Encoding]bool {
	out := map[meta.Encoding]bool{}
	for _, rg := range f.Meta.RowGroups {
		for _, e := range rg.Columns[col].MetaData.EncodingStats {
			if e.PageType != meta.DictionaryPage {
				out[e.Encoding] = true
			}
		}
	}
	return out
}

// TestALPWriteOptIn: ALP only on request (WithColumnEncoding, or the
// trial under WithALPTrial); pages ALP does not shrink (random doubles)
// are written PLAIN; every value reads back bit for bit.
func TestALPWriteOptIn(t *testing.T) {
	for _, codec := range []meta.CompressionCodec{meta.Uncompressed, meta.Zstd} {
		for _, trial := range []bool{false, true} {
			b, want, wantF := alpFile(t, WithCompression(codec, 0), WithALPTrial(trial),
				WithColumnEncoding("cents", meta.EncodingALP), WithColumnEncoding("noise", meta.EncodingALP),
				WithColumnEncoding("f", meta.EncodingALP))
			f := openBytes(t, b)
			autoWant := meta.EncodingPlain
			if trial {
				autoWant = meta.EncodingALP
			}
			for col, enc := range map[int]meta.Encoding{0: meta.EncodingALP, 1: meta.EncodingPlain, 2: meta.EncodingALP, 3: autoWant} {
				got := alpPageEncodings(f, col)
				if len(got) != 1 || !got[enc] {
					t.Errorf("%v trial %v column %d: page encodings %v, want %v", codec, trial, col, got, enc)
				}
			}
			r, err := NewFileReader(bytes.NewReader(b), int64(len(b)))
			if err != nil {
				t.Fatal(err)
			}
			for i, col := range []int{0, 1, 3} {
				c, _ := r.DoubleReader(col)
				if k, err := c.ReadRows(len(want[i])); k != len(want[i]) || err != nil {
					t.Fatalf("column %d: %d rows, %v", col, k, err)
				}
				for j, v := range c.Values {
					if math.Float64bits(v) != math.Float64bits(want[i][j]) {
						t.Fatalf("column %d value %d: %v, want %v", col, j, v, want[i][j])
					}
				}
			}
			c, _ := r.FloatReader(2)
			if k, err := c.ReadRows(5000); k != 5000 || err != nil || len(c.Values) != len(wantF) {
				t.Fatalf("column f: %d rows, %d values, %v", k, len(c.Values), err)
			}
			for j, v := range c.Values {
				if math.Float32bits(v) != math.Float32bits(wantF[j]) {
					t.Fatalf("column f value %d: %x, want %x", j, math.Float32bits(v), math.Float32bits(wantF[j]))
				}
			}
		}
	}
}

// TestALPConfig: ALP is refused for columns that are not FLOAT or DOUBLE.
func TestALPConfig(t *testing.T) {
	s := mustSchema(t, `message m { required int64 x; }`)
	var buf bytes.Buffer
	_, err := NewFileWriter(&buf, s, WithColumnEncoding("x", meta.EncodingALP))
	if !errors.Is(err, ErrConfig) {
		t.Fatalf("ALP on INT64: %v", err)
	}
}

// TestALPRuns: after pages ALP does not shrink the writer skips it for
// runs of 1, 2, 4, ... 16 pages between probes; a page it shrinks ends
// the runs. In a file, a chunk of random then decimal values has PLAIN
// pages, then ALP pages again once a probe succeeds, and reads back.
func TestALPRuns(t *testing.T) {
	var r probeRuns
	for _, want := range []int{1, 2, 4, 8, 16, 16} {
		r.verdict(true) // ALP did not shrink the page: PLAIN goes on
		if r.skip != want {
			t.Fatalf("run %d, want %d", r.skip, want)
		}
	}
	if r.verdict(false); r.skip != 0 || r.run != 0 {
		t.Fatalf("after success: %+v", r)
	}

	s := mustSchema(t, "message m { required double v; }")
	var buf bytes.Buffer
	w, err := NewFileWriter(&buf, s, WithDictionary(false), WithPageRowLimit(500), WithColumnEncoding("v", meta.EncodingALP))
	if err != nil {
		t.Fatal(err)
	}
	d, _ := w.DoubleBuffer(0)
	rnd := newRand(5)
	for i := range 20000 {
		x := rnd.Float64()
		if i >= 5000 {
			x = float64(rnd.IntN(100000)) / 100
		}
		d.Values = append(d.Values, x)
	}
	want := append([]float64(nil), d.Values...)
	if err := w.EndRows(len(want)); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	f := openBytes(t, buf.Bytes())
	counts := map[meta.Encoding]int32{}
	for _, e := range f.Meta.RowGroups[0].Columns[0].MetaData.EncodingStats {
		counts[e.Encoding] += e.Count
	}
	// 10 random pages: ALP probes on pages 1, 3 and 6 fail (runs of 1, 2
	// and 4 PLAIN pages follow them); page 11, the first of 30 decimal
	// pages, is a probe again, chooses its own parameters and succeeds.
	if counts[meta.EncodingPlain] != 10 || counts[meta.EncodingALP] != 30 {
		t.Fatalf("page encodings %v", counts)
	}
	rd, err := NewFileReader(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		t.Fatal(err)
	}
	c, _ := rd.DoubleReader(0)
	if k, err := c.ReadRows(len(want)); k != len(want) || err != nil {
		t.Fatalf("%d rows, %v", k, err)
	}
	for i := range want {
		if c.Values[i] != want[i] {
			t.Fatalf("value %d: %v, want %v", i, c.Values[i], want[i])
		}
	}
}

// TestALPParallelSameBytes: ALP columns (with their presets and PLAIN
// runs) give the same file with WithParallelism as without.
func TestALPParallelSameBytes(t *testing.T) {
	s := mustSchema(t, "message m { required double a; required float b; }")
	write := func(opts ...WriterOption) []byte {
		var buf bytes.Buffer
		w, err := NewFileWriter(&buf, s, append([]WriterOption{WithDictionary(false), WithPageRowLimit(1000),
			WithColumnEncoding("a", meta.EncodingALP), WithColumnEncoding("b", meta.EncodingALP)}, opts...)...)
		if err != nil {
			t.Fatal(err)
		}
		a, _ := w.DoubleBuffer(0)
		b, _ := w.FloatBuffer(1)
		rnd := newRand(3)
		for i := range 30000 {
			x := float64(rnd.IntN(100000)) / 100
			if i/3000%2 == 1 {
				x = rnd.Float64()
			}
			a.Values = append(a.Values, x)
			b.Values = append(b.Values, float32(rnd.IntN(1000))/10)
		}
		if err := w.EndRows(30000); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		return buf.Bytes()
	}
	if !bytes.Equal(write(), write(WithParallelism(2))) {
		t.Fatal("parallel writing changed the file")
	}
}
