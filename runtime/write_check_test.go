package runtime

import (
	"bytes"
	"errors"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/pqgen/pqgen/internal/corpus"
	"github.com/pqgen/pqgen/runtime/geo"
	"github.com/pqgen/pqgen/runtime/schema"
)

// TestWriteRefusesInvalidUTF8 checks that a STRING, ENUM or JSON value
// that is not UTF-8, or a JSON value that is not one JSON document, fails
// EndRows (and poisons the writer) with an error
// wrapping ErrValue that names the column and the row, while valid text
// of every width and plain BYTE_ARRAY bytes are written as given.
func TestWriteRefusesInvalidUTF8(t *testing.T) {
	const text = `message m {
  required binary plain;
  optional binary s (STRING);
  optional group l (LIST) {
    repeated group list {
      optional binary element (STRING);
    }
  }
  required binary e (ENUM);
  required binary j (JSON);
}`
	type row struct {
		plain string
		s     *string
		l     []*string // nil: a null list
		e, j  string
	}
	str := func(s string) *string { return &s }
	good := []row{
		{plain: "\xff\xfe", s: str("é日🙂"), l: []*string{str("a"), nil, str("ü")}, e: "A", j: `{"k":"ö"}`},
		{plain: "", s: nil, l: nil, e: "", j: "{}"},
		{plain: "x", s: str(""), l: []*string{}, e: "B", j: ` "a string, any JSON value" `},
		{plain: "y", s: str("z"), l: []*string{}, e: "C", j: "null"},
	}
	// fill appends rows to the buffers as a generated writer would.
	fill := func(w *FileWriter, rows []row) {
		p, _ := w.ByteArrayBuffer(0)
		s, _ := w.ByteArrayBuffer(1)
		l, _ := w.ByteArrayBuffer(2)
		e, _ := w.ByteArrayBuffer(3)
		j, _ := w.ByteArrayBuffer(4)
		for _, r := range rows {
			p.Values.AppendString(r.plain)
			if r.s == nil {
				s.Def = append(s.Def, 0)
			} else {
				s.Def = append(s.Def, 1)
				s.Values.AppendString(*r.s)
			}
			switch {
			case r.l == nil:
				l.Def, l.Rep = append(l.Def, 0), append(l.Rep, 0)
			case len(r.l) == 0:
				l.Def, l.Rep = append(l.Def, 1), append(l.Rep, 0)
			}
			for k, x := range r.l {
				rep := uint8(1)
				if k == 0 {
					rep = 0
				}
				l.Rep = append(l.Rep, rep)
				if x == nil {
					l.Def = append(l.Def, 2)
				} else {
					l.Def = append(l.Def, 3)
					l.Values.AppendString(*x)
				}
			}
			e.Values.AppendString(r.e)
			j.Values.AppendString(r.j)
		}
	}
	// start writes the good rows in a first batch.
	start := func(par int) (*FileWriter, *bytes.Buffer) {
		var buf bytes.Buffer
		w, err := NewFileWriter(&buf, mustSchema(t, text), WithParallelism(par))
		if err != nil {
			t.Fatal(err)
		}
		fill(w, good)
		if err := w.EndRows(len(good)); err != nil {
			t.Fatalf("parallelism %d: valid rows: %v", par, err)
		}
		return w, &buf
	}
	for _, par := range []int{1, 2} {
		// Valid rows are written, plain bytes as they are.
		w, buf := start(par)
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		fr, err := NewFileReader(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
		if err != nil {
			t.Fatal(err)
		}
		r, err := fr.ByteArrayReader(0)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := r.ReadRows(4); err != nil {
			t.Fatal(err)
		}
		if r.Values.Len() != 4 || r.String(0) != "\xff\xfe" || r.String(2) != "x" {
			t.Fatalf("plain column read back %d values, %q", r.Values.Len(), r.String(0))
		}
		r, err = fr.ByteArrayReader(1)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := r.ReadRows(4); err != nil || r.String(0) != "é日🙂" {
			t.Fatalf("STRING column read back %q, %v", r.String(0), err)
		}

		for _, tc := range []struct {
			name string
			bad  row
			col  string
			show string
		}{
			{"string", row{s: str("a\xffb"), j: "0"}, "s", `"a\xffb" is not valid UTF-8`},
			{"list element after a null and a valid one", row{l: []*string{nil, str("ok"), str("\xc3")}, j: "0"}, "l.list.element", `"\xc3" is not valid UTF-8`},
			{"enum", row{e: "\x80", j: "0"}, "e", `"\x80" is not valid UTF-8, which ENUM values`},
			{"json", row{j: `{"k":"` + strings.Repeat("é", 40) + "\xe2\x82" + `"}`}, "j", `… (90 bytes) is not valid UTF-8, which JSON values`},
			{"empty json", row{}, "j", `"" is not one valid JSON document`},
			{"json cut short", row{j: `{"a":[1,`}, "j", `"{\"a\":[1," is not one valid JSON document`},
			{"two json documents", row{j: `{} {}`}, "j", `"{} {}" is not one`},
			{"NaN in json", row{j: `NaN`}, "j", `"NaN" is not one`},
		} {
			w, _ := start(par)
			// The bad value in the second row of the second batch.
			fill(w, []row{good[1], tc.bad})
			err := w.EndRows(2)
			if !errors.Is(err, ErrValue) {
				t.Fatalf("parallelism %d, %s: EndRows: %v, want ErrValue", par, tc.name, err)
			}
			want := `column "` + tc.col + `": row 5: value does not fit the requested type: `
			if msg := err.Error(); !strings.HasPrefix(msg, want) || !strings.Contains(msg, tc.show) {
				t.Errorf("parallelism %d, %s: %q, want the prefix %q and %s", par, tc.name, msg, want, tc.show)
			}
			if werr := w.Err(); werr != err {
				t.Errorf("parallelism %d, %s: Err after the refusal: %v, want the refusal", par, tc.name, werr)
			}
			if err := w.Close(); !errors.Is(err, ErrValue) {
				t.Errorf("parallelism %d, %s: Close after the refusal: %v, want the same error", par, tc.name, err)
			}
		}
	}
}

// TestWriteRefusesBadGeometry checks that a GEOMETRY or GEOGRAPHY value
// that is not one whole WKB geometry fails EndRows with an error wrapping
// ErrValue that names column and row, while WKB of every kind is written
// with its statistics and plain BYTE_ARRAY columns keep any bytes.
func TestWriteRefusesBadGeometry(t *testing.T) {
	const text = `message m {
  required binary raw;
  optional binary g (GEOMETRY);
  required binary h (GEOGRAPHY);
}`
	point := geo.AppendPoint(nil, 1, 2)
	line := geo.AppendLineString(nil, [][2]float64{{0, 0}, {3, 4}})
	poly := geo.AppendPolygon(nil, [][][2]float64{{{0, 0}, {1, 0}, {0, 1}, {0, 0}}})
	write := func(g, h [][]byte) error {
		var buf bytes.Buffer
		w, err := NewFileWriter(&buf, mustSchema(t, text))
		if err != nil {
			t.Fatal(err)
		}
		raw, _ := w.ByteArrayBuffer(0)
		gb, _ := w.ByteArrayBuffer(1)
		hb, _ := w.ByteArrayBuffer(2)
		for i := range h {
			raw.Values.Append([]byte{1, 2, 3}) // not WKB, not a GEOMETRY
			if g[i] == nil {
				gb.Def = append(gb.Def, 0)
			} else {
				gb.Def = append(gb.Def, 1)
				gb.Values.Append(g[i])
			}
			hb.Values.Append(h[i])
		}
		if err := w.EndRows(len(h)); err != nil {
			return err
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		f := openBytes(t, buf.Bytes())
		if s := f.Meta.RowGroups[0].Columns[1].MetaData.GeospatialStatistics; s == nil || s.BBox == nil {
			t.Errorf("GEOMETRY chunk without its box: %+v", s)
		}
		return nil
	}
	if err := write([][]byte{point, nil, line}, [][]byte{poly, point, line}); err != nil {
		t.Fatalf("WKB: %v", err)
	}
	for _, tc := range []struct {
		name string
		g, h [][]byte
		want string
	}{
		{"empty", [][]byte{point, nil, {}}, [][]byte{point, point, point}, `column "g": row 2: value does not fit the requested type: "" is not one WKB geometry, which GEOMETRY values must be: geo: malformed WKB: truncated header`},
		{"header only", [][]byte{point, nil, point}, [][]byte{point, {1, 1, 0, 0, 0}, point}, `column "h": row 1: value does not fit the requested type: "\x01\x01\x00\x00\x00" is not one WKB geometry, which GEOGRAPHY values must be: geo: malformed WKB: 1 points in 0 bytes`},
		{"trailing bytes", [][]byte{append(append([]byte{}, point...), 0), nil, point}, [][]byte{point, point, point}, `column "g": row 0: value does not fit the requested type: "\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\xf0?\x00\x00\x00\x00\x00\x00\x00@\x00" is not one WKB geometry, which GEOMETRY values must be: geo: malformed WKB: 1 trailing bytes`},
	} {
		err := write(tc.g, tc.h)
		if !errors.Is(err, ErrValue) || err.Error() != tc.want {
			t.Errorf("%s: %v, want\n%s", tc.name, err, tc.want)
		}
	}
}

// TestDecimalBytesFit compares decimalBytesFit with big.Int arithmetic on
// the edges of every precision and on random bytes of every length.
func TestDecimalBytesFit(t *testing.T) {
	twos := func(x *big.Int, n int) []byte { // x in n bytes, two's complement
		m := new(big.Int).Set(x)
		if m.Sign() < 0 {
			m.Add(m, new(big.Int).Lsh(big.NewInt(1), uint(8*n)))
		}
		return m.FillBytes(make([]byte, n))
	}
	want := func(b []byte, p int32) bool {
		return new(big.Int).Abs(bigFromTwos(b)).Cmp(pow10Big(int(p))) < 0
	}
	for p := int32(1); p <= 45; p++ {
		bound := pow10Big(int(p))
		n := (bound.BitLen()+1)/8 + 2 // room for ±10^p and sign bytes
		for _, d := range []int64{-1, 0, 1} {
			for _, neg := range []bool{false, true} {
				x := new(big.Int).Add(bound, big.NewInt(d))
				if neg {
					x.Neg(x)
				}
				for _, size := range []int{n, n + 17} {
					b := twos(x, size)
					if got := decimalBytesFit(b, p); got != (d < 0) || got != want(b, p) {
						t.Fatalf("precision %d, %s in %d bytes: %v", p, x, size, got)
					}
				}
			}
		}
	}
	if !decimalBytesFit(nil, 5) || !decimalBytesFit([]byte{}, 1) {
		t.Fatal("an empty value is 0")
	}
	r := rand.New(rand.NewPCG(3, 4))
	for range 50000 {
		b := make([]byte, r.IntN(24))
		for i := range b {
			b[i] = byte(r.Uint32())
		}
		if len(b) > 1 && r.IntN(2) == 0 { // sign extension, often
			ext := byte(0)
			if b[len(b)/2]&0x80 != 0 {
				ext = 0xff
			}
			for i := range len(b) / 2 {
				b[i] = ext
			}
		}
		p := int32(1 + r.IntN(45))
		if len(b) > 0 && decimalBytesFit(b, p) != want(b, p) {
			t.Fatalf("%x, precision %d: %v", b, p, !want(b, p))
		}
	}
}

// TestWriteRefusesOutOfRange checks that DECIMAL bytes over the
// precision and TIME values outside a day fail EndRows naming column and
// row, and that the edges that fit are written.
func TestWriteRefusesOutOfRange(t *testing.T) {
	const text = `message m {
  required fixed_len_byte_array(4) f (DECIMAL(7,2));
  optional binary b (DECIMAL(3,0));
  required int32 ms (TIME(MILLIS,true));
  required int64 us (TIME(MICROS,false));
  required int64 ns (TIME(NANOS,true));
}`
	type row struct {
		f     []byte
		b     []byte // nil: null
		ms    int32
		us, n int64
	}
	ok := []row{
		{f: []byte{0x00, 0x98, 0x96, 0x7f}, b: []byte{0x03, 0xe7}, ms: 0, us: 0, n: 0},                                                    // 9999999, 999
		{f: []byte{0xff, 0x67, 0x69, 0x81}, b: []byte{0xff, 0xff, 0xfc, 0x19}, ms: 86_400_000, us: 86_400_000_000, n: 86_400_000_000_000}, // -9999999, -999
		{f: []byte{0, 0, 0, 0}, b: nil, ms: 1, us: 1, n: 1},
	}
	write := func(rows []row) error {
		var buf bytes.Buffer
		w, err := NewFileWriter(&buf, mustSchema(t, text))
		if err != nil {
			t.Fatal(err)
		}
		f, _ := w.FixedBuffer(0)
		b, _ := w.ByteArrayBuffer(1)
		ms, _ := w.Int32Buffer(2)
		us, _ := w.Int64Buffer(3)
		ns, _ := w.Int64Buffer(4)
		for _, r := range rows {
			f.Values = append(f.Values, r.f...)
			if r.b == nil {
				b.Def = append(b.Def, 0)
			} else {
				b.Def = append(b.Def, 1)
				b.Values.Append(r.b)
			}
			ms.Values = append(ms.Values, r.ms)
			us.Values = append(us.Values, r.us)
			ns.Values = append(ns.Values, r.n)
		}
		if err := w.EndRows(len(rows)); err != nil {
			return err
		}
		return w.Close()
	}
	if err := write(ok); err != nil {
		t.Fatalf("values that fit: %v", err)
	}
	for _, tc := range []struct {
		name string
		set  func(*row)
		want string
	}{
		{"10^7 in DECIMAL(7)", func(r *row) { r.f = []byte{0x00, 0x98, 0x96, 0x80} }, `column "f": row 2: value does not fit the requested type: "\x00\x98\x96\x80" (the unscaled integer 10000000) has more than the 7 digits of its DECIMAL precision`},
		{"-10^7 in DECIMAL(7)", func(r *row) { r.f = []byte{0xff, 0x67, 0x69, 0x80} }, `column "f": row 2: value does not fit the requested type: "\xffgi\x80" (the unscaled integer -10000000) has more than the 7 digits of its DECIMAL precision`},
		{"1000 in DECIMAL(3), after a null", func(r *row) { r.b = []byte{0x03, 0xe8} }, `column "b": row 2: value does not fit the requested type: "\x03\xe8" (the unscaled integer 1000) has more than the 3 digits of its DECIMAL precision`},
		{"a day and a millisecond", func(r *row) { r.ms = 86_400_001 }, `column "ms": row 2: value does not fit the requested type: TIME(MILLIS) value 86400001 is not a time of day (0 to 24 hours, at most 86400000)`},
		{"a negative time", func(r *row) { r.us = -1 }, `column "us": row 2: value does not fit the requested type: TIME(MICROS) value -1 is not a time of day (0 to 24 hours, at most 86400000000)`},
		{"25 hours in nanoseconds", func(r *row) { r.n = 90_000_000_000_000 }, `column "ns": row 2: value does not fit the requested type: TIME(NANOS) value 90000000000000 is not a time of day (0 to 24 hours, at most 86400000000000)`},
	} {
		rows := append([]row(nil), ok...)
		rows[2].b = nil
		if tc.name == "1000 in DECIMAL(3), after a null" {
			rows[1].b = nil
		}
		tc.set(&rows[2])
		if err := write(rows); !errors.Is(err, ErrValue) || err.Error() != tc.want {
			t.Errorf("%s: %v, want\n%s", tc.name, err, tc.want)
		}
	}
}

// TestWriterRefusesMisfitAnnotations: NewFileWriter refuses a schema whose
// annotation its type cannot carry (other readers refuse or misread such
// files) with ErrConfig and schema.ErrInvalid, naming the column; the
// schema of every readable file of the corpus passes, so that files read
// can be written back.
func TestWriterRefusesMisfitAnnotations(t *testing.T) {
	for text, msg := range map[string]string{
		`message m { required int32 a; required int32 s (STRING); }`:                           `column "s": STRING annotates binary, not int32`,
		`message m { optional group g { optional int64 d (DECIMAL(20,2)); } }`:                 `column "g.d": DECIMAL(20,2): int64 holds up to 18 digits, not 20`,
		`message m { required fixed_len_byte_array(15) u (UUID); }`:                            `column "u": UUID annotates fixed_len_byte_array(16)`,
		`message m { optional group l (LIST) { repeated int32 e (TIMESTAMP(MILLIS,true)); } }`: `column "l.e": TIMESTAMP(MILLIS,true) annotates int64, not int32`,
	} {
		_, err := NewFileWriter(&bytes.Buffer{}, mustParse(t, text))
		if !errors.Is(err, ErrConfig) || !errors.Is(err, schema.ErrInvalid) || !strings.Contains(err.Error(), msg) {
			t.Errorf("%s: %v, want ErrConfig and schema.ErrInvalid with %s", text, err, msg)
		}
	}
	n := 0
	for _, rel := range corpus.ParquetFiles(t) {
		if strings.HasSuffix(rel, ".encrypted") {
			continue
		}
		f, fh, err := OpenPath(corpus.Path(t, rel))
		if err != nil {
			continue // bad_data/ files whose footers do not read
		}
		fh.Close()
		n++
		if err := schema.CheckAnnotations(f.Schema); err != nil {
			t.Errorf("%s: %v", rel, err)
		}
	}
	if n < 100 {
		t.Errorf("only %d corpus files checked", n)
	}
}
