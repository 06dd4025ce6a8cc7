package runtime

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"math"
	"math/big"
	"slices"
	"strings"
	"testing"

	"github.com/pqgen/pqgen/internal/corpus"
	"github.com/pqgen/pqgen/runtime/encode"
	"github.com/pqgen/pqgen/runtime/meta"
	"github.com/pqgen/pqgen/runtime/page"
)

// adaptFile writes a file whose columns are all optional and whose
// decimals use other physical types than adaptWant's, as DuckDB and
// arrow write them; rows with null set hold nulls where adaptWant
// requires a value.
func adaptFile(t *testing.T, rows int, null bool, opts ...WriterOption) []byte {
	t.Helper()
	s := mustParse(t, `message m {
  optional int64 id;
  optional fixed_len_byte_array(9) d (DECIMAL(18,2));
  optional binary e (DECIMAL(9,3));
  optional int64 f (DECIMAL(10,1));
  optional int32 g (DECIMAL(5,0));
  optional group l (LIST) {
    repeated group list {
      optional int32 element;
    }
  }
}`)
	var buf bytes.Buffer
	fw, err := NewFileWriter(&buf, s, opts...)
	if err != nil {
		t.Fatal(err)
	}
	id, _ := fw.Int64Buffer(0)
	d, _ := fw.FixedBuffer(1)
	e, _ := fw.ByteArrayBuffer(2)
	f, _ := fw.Int64Buffer(3)
	g, _ := fw.Int32Buffer(4)
	l, _ := fw.Int32Buffer(5)
	for i := 0; i < rows; i++ {
		if null && i == rows-1 {
			id.Def = append(id.Def, 0)
		} else {
			id.Def = append(id.Def, 1)
			id.Values = append(id.Values, int64(i))
		}
		d.Def = append(d.Def, 1)
		d.Values = append(d.Values, adaptBytes(adaptD(i), 9)...)
		if i%3 == 0 {
			e.Def = append(e.Def, 0)
		} else {
			e.Def = append(e.Def, 1)
			e.Values.Append(adaptBytes(adaptE(i), 4))
		}
		f.Def = append(f.Def, 1)
		f.Values = append(f.Values, adaptD(i))
		g.Def = append(g.Def, 1)
		g.Values = append(g.Values, int32(adaptE(i)))
		for k := 0; k < i%3; k++ {
			l.Def = append(l.Def, 3)
			l.Rep = append(l.Rep, min(uint8(k), 1))
			l.Values = append(l.Values, int32(i*10+k))
		}
		if i%3 == 0 {
			l.Def = append(l.Def, 1) // an empty list
			l.Rep = append(l.Rep, 0)
		}
		if err := fw.EndRows(1); err != nil {
			t.Fatal(err)
		}
	}
	if err := fw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func adaptD(i int) int64 { return int64(i)*1000003 - 150000000 }
func adaptE(i int) int64 { return int64(i)*7 - 1000 }

// adaptBytes is v big-endian two's complement in w bytes.
func adaptBytes(v int64, w int) []byte {
	b := make([]byte, w)
	for k := 0; k < w; k++ {
		if k < 8 {
			b[w-1-k] = byte(v >> (8 * k))
		} else if v < 0 {
			b[w-1-k] = 0xff
		}
	}
	return b
}

const adaptWant = `message m {
  required int64 id;
  required int64 d (DECIMAL(18,2));
  optional int32 e (DECIMAL(9,3));
  optional fixed_len_byte_array(16) f (DECIMAL(38,1));
  optional binary g (DECIMAL(5,0));
  required group l (LIST) {
    repeated group list {
      required int32 element;
    }
  }
}`

// TestBindCompatibleLayouts reads DECIMAL columns stored in other physical
// types, and optional columns into required fields, through Bind and the
// typed readers of the bound schema.
func TestBindCompatibleLayouts(t *testing.T) {
	const rows = 1000
	for _, dict := range []bool{true, false} {
		data := adaptFile(t, rows, false, WithDictionary(dict), WithPageRowLimit(128))
		if _, err := adaptReader(t, data).Bind(mustParse(t, adaptWant)); !errors.Is(err, ErrBind) ||
			!strings.Contains(err.Error(), `field "id" is optional in the file, required requested`) {
			t.Fatalf("optional into required without WithOptionalAsRequired: %v", err)
		}
		r := adaptReader(t, data, WithOptionalAsRequired(true))
		idx, err := r.Bind(mustParse(t, adaptWant))
		if err != nil {
			t.Fatal(err)
		}
		id, err := r.Int64Reader(idx[0])
		if err != nil {
			t.Fatal(err)
		}
		d, err := r.Int64Reader(idx[1])
		if err != nil {
			t.Fatal(err)
		}
		e, _ := r.Int32Reader(idx[2])
		f, err := r.FixedReader(idx[3])
		if err != nil || f.Size != 16 {
			t.Fatalf("FixedReader: %v, size %v", err, f)
		}
		g, _ := r.ByteArrayReader(idx[4])
		l, _ := r.Int32Reader(idx[5])
		if _, err := r.Int32Reader(idx[1]); err == nil {
			t.Error("column d bound as INT64 also reads as INT32")
		}
		cols := []interface{ ReadRows(int) (int, error) }{id, d, e, f, g, l}
		for _, c := range cols {
			if n, err := c.ReadRows(rows); n != rows || err != nil {
				t.Fatalf("dict %v: ReadRows: %d %v", dict, n, err)
			}
		}
		if len(id.Def) != 0 || len(d.Def) != 0 || len(id.Values) != rows {
			t.Errorf("dict %v: required columns have %d, %d levels, %d values", dict, len(id.Def), len(d.Def), len(id.Values))
		}
		var wantE []int32
		var wantF, wantG []byte
		var wantL []int32
		var wantLDef []uint8
		for i := 0; i < rows; i++ {
			if id.Values[i] != int64(i) || d.Values[i] != adaptD(i) {
				t.Fatalf("dict %v: row %d: id %d, d %d", dict, i, id.Values[i], d.Values[i])
			}
			if i%3 != 0 {
				wantE = append(wantE, int32(adaptE(i)))
			}
			wantF = append(wantF, adaptBytes(adaptD(i), 16)...)
			wantG = append(wantG, adaptBytes(adaptE(i), 8)...)
			for k := 0; k < i%3; k++ {
				wantL = append(wantL, int32(i*10+k))
				wantLDef = append(wantLDef, 1)
			}
			if i%3 == 0 {
				wantLDef = append(wantLDef, 0)
			}
		}
		if !slices.Equal(e.Values, wantE) || len(e.Def) != rows {
			t.Errorf("dict %v: e: %d values, %d levels", dict, len(e.Values), len(e.Def))
		}
		if !bytes.Equal(f.Values, wantF) {
			t.Errorf("dict %v: f differs", dict)
		}
		if !bytes.Equal(g.Values.Data, wantG) || g.Values.Len() != rows || g.String(5) != string(adaptBytes(adaptE(5), 8)) {
			t.Errorf("dict %v: g differs", dict)
		}
		if !slices.Equal(l.Values, wantL) || !slices.Equal(l.Def, wantLDef) {
			t.Errorf("dict %v: l: values %v..., levels %v...", dict, l.Values[:min(6, len(l.Values))], l.Def[:min(6, len(l.Def))])
		}
		for _, c := range cols {
			if _, err := c.ReadRows(1); err != io.EOF {
				t.Fatalf("dict %v: ReadRows after the end: %v", dict, err)
			}
		}
	}

	// A null in a field the bound schema requires is an error.
	r := adaptReader(t, adaptFile(t, 10, true), WithOptionalAsRequired(true))
	idx, err := r.Bind(mustParse(t, adaptWant))
	if err != nil {
		t.Fatal(err)
	}
	id, _ := r.Int64Reader(idx[0])
	if _, err := id.ReadRows(10); !errors.Is(err, ErrValue) || !strings.Contains(err.Error(), `column "id", row `) {
		t.Errorf("a null in a required field: %v", err)
	}

	// Incompatible layouts do not bind.
	for _, want := range []string{
		`message m { optional int64 id; required int32 d (DECIMAL(9,2)); }`,  // precision 18 > 9
		`message m { optional int64 id; required int64 d (DECIMAL(18,3)); }`, // another scale
		`message m { optional int64 id; required int64 d; }`,                 // not a decimal
		`message m { optional int64 id; optional binary f (STRING); }`,
	} {
		if _, err := r.Bind(mustParse(t, want)); !errors.Is(err, ErrBind) {
			t.Errorf("%s: %v", want, err)
		}
	}
}

// TestBindDecimalCorpus: the corpus stores the decimals 1.00 to 24.00 as
// INT32, INT64, FIXED_LEN_BYTE_ARRAY (of 11 and 6 bytes) and BYTE_ARRAY,
// each in an optional column; every file reads into a required INT64
// DECIMAL(18,2) (when its precision fits) and a required 16-byte
// DECIMAL(38,2) as the same unscaled values 100 to 2400.
func TestBindDecimalCorpus(t *testing.T) {
	var wantInt []int64
	var wantFixed []byte
	for i := int64(1); i <= 24; i++ {
		wantInt = append(wantInt, 100*i)
		wantFixed = append(wantFixed, adaptBytes(100*i, 16)...)
	}
	for _, c := range []struct {
		rel     string
		toInt64 bool // precision at most 18
	}{
		{"data/int32_decimal.parquet", true},
		{"data/int64_decimal.parquet", true},
		{"data/fixed_length_decimal.parquet", false},
		{"data/fixed_length_decimal_legacy.parquet", true},
		{"data/byte_array_decimal.parquet", true},
	} {
		fr := openReader(t, corpus.Path(t, c.rel), WithOptionalAsRequired(true))
		idx, err := fr.Bind(mustParse(t, `message m { required int64 value (DECIMAL(18,2)); }`))
		if !c.toInt64 {
			if !errors.Is(err, ErrBind) {
				t.Errorf("%s: bound as DECIMAL(18,2): %v", c.rel, err)
			}
		} else {
			if err != nil {
				t.Fatalf("%s: %v", c.rel, err)
			}
			r, err := fr.Int64Reader(idx[0])
			if err != nil {
				t.Fatalf("%s: %v", c.rel, err)
			}
			if n, err := r.ReadRows(100); n != 24 || err != nil || len(r.Def) != 0 || !slices.Equal(r.Values, wantInt) {
				t.Errorf("%s: INT64: %d rows, %v, %d levels, values %v", c.rel, n, err, len(r.Def), r.Values)
			}
		}
		fr = openReader(t, corpus.Path(t, c.rel), WithOptionalAsRequired(true))
		idx, err = fr.Bind(mustParse(t, `message m { required fixed_len_byte_array(16) value (DECIMAL(38,2)); }`))
		if err != nil {
			t.Fatalf("%s: %v", c.rel, err)
		}
		r, err := fr.FixedReader(idx[0])
		if err != nil {
			t.Fatalf("%s: %v", c.rel, err)
		}
		if n, err := r.ReadRows(100); n != 24 || err != nil || len(r.Def) != 0 || r.Size != 16 || !bytes.Equal(r.Values, wantFixed) {
			t.Errorf("%s: FIXED_LEN_BYTE_ARRAY(16): %d rows, %v, %d levels, size %d, values %x", c.rel, n, err, len(r.Def), r.Size, r.Values)
		}
	}
}

func adaptReader(t *testing.T, data []byte, opts ...ReaderOption) *FileReader {
	t.Helper()
	r, err := NewFileReader(bytes.NewReader(data), int64(len(data)), opts...)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestBindTimeUnits reads TIMESTAMP and TIME columns stored in another
// unit (as DuckDB writes TIMESTAMP(MICROS) for any timestamp with a time
// zone) into the bound unit, exactly.
func TestBindTimeUnits(t *testing.T) {
	s := mustParse(t, `message m {
  optional int64 ts (TIMESTAMP(MICROS,true));
  required int64 tm (TIME(MICROS,true));
  required int32 d (TIME(MILLIS,true));
}`)
	write := func(extra int64) []byte {
		var buf bytes.Buffer
		fw, err := NewFileWriter(&buf, s)
		if err != nil {
			t.Fatal(err)
		}
		ts, _ := fw.Int64Buffer(0)
		tm, _ := fw.Int64Buffer(1)
		d, _ := fw.Int32Buffer(2)
		for i := int64(0); i < 100; i++ {
			ts.Def = append(ts.Def, 1)
			ts.Values = append(ts.Values, (i*86400123-5e9)*1000+extra)
			tm.Values = append(tm.Values, i*864001*1000) // within a day
			d.Values = append(d.Values, int32(i*1000+7))
		}
		if err := fw.EndRows(100); err != nil {
			t.Fatal(err)
		}
		if err := fw.Close(); err != nil {
			t.Fatal(err)
		}
		return buf.Bytes()
	}
	want := mustParse(t, `message m {
  required int64 ts (TIMESTAMP(MILLIS,true));
  required int32 tm (TIME(MILLIS,true));
  required int64 d (TIME(NANOS,true));
}`)
	if _, err := adaptReader(t, write(0)).Bind(want); !errors.Is(err, ErrBind) || !strings.Contains(err.Error(), "a coarser unit") {
		t.Fatalf("coarser units without WithCoarserTimeUnits: %v", err)
	}
	r := adaptReader(t, write(0), WithCoarserTimeUnits(true), WithOptionalAsRequired(true))
	idx, err := r.Bind(want)
	if err != nil {
		t.Fatal(err)
	}
	ts, _ := r.Int64Reader(idx[0])
	tm, err := r.Int32Reader(idx[1])
	if err != nil {
		t.Fatal(err)
	}
	d, _ := r.Int64Reader(idx[2])
	for _, c := range []interface{ ReadRows(int) (int, error) }{ts, tm, d} {
		if n, err := c.ReadRows(100); n != 100 || err != nil {
			t.Fatalf("ReadRows: %d %v", n, err)
		}
	}
	for i := int64(0); i < 100; i++ {
		if ts.Values[i] != i*86400123-5e9 || int64(tm.Values[i]) != i*864001 || d.Values[i] != (i*1000+7)*1e6 {
			t.Fatalf("row %d: %d %d %d", i, ts.Values[i], tm.Values[i], d.Values[i])
		}
	}
	// A value that is not a whole number of milliseconds is an error.
	r = adaptReader(t, write(1), WithCoarserTimeUnits(true), WithOptionalAsRequired(true))
	idx, err = r.Bind(want)
	if err != nil {
		t.Fatal(err)
	}
	ts, _ = r.Int64Reader(idx[0])
	if _, err := ts.ReadRows(100); !errors.Is(err, ErrValue) {
		t.Errorf("microseconds read as milliseconds: %v", err)
	}
}

// TestBindFinerUnitOverflow: a TIMESTAMP(MILLIS) value whose count of
// nanoseconds overflows an INT64 (year 3000) read as TIMESTAMP(NANOS)
// fails with ErrValue, naming the column, row group and page, the value
// as stored and the factor; the values before it on the page, and a
// column that fits, read.
func TestBindFinerUnitOverflow(t *testing.T) {
	s := mustParse(t, `message m {
  required int64 ts (TIMESTAMP(MILLIS,true));
}`)
	var buf bytes.Buffer
	fw, err := NewFileWriter(&buf, s)
	if err != nil {
		t.Fatal(err)
	}
	ts, _ := fw.Int64Buffer(0)
	ts.Values = append(ts.Values, 0, 9223372036854, 32503680000000) // 1970, the last whole millisecond of TIMESTAMP(NANOS), 3000
	if err := fw.EndRows(3); err != nil {
		t.Fatal(err)
	}
	if err := fw.Close(); err != nil {
		t.Fatal(err)
	}
	want := mustParse(t, `message m {
  required int64 ts (TIMESTAMP(NANOS,true));
}`)
	r := adaptReader(t, buf.Bytes())
	idx, err := r.Bind(want)
	if err != nil {
		t.Fatal(err)
	}
	c, _ := r.Int64Reader(idx[0])
	_, err = c.ReadRows(3)
	const msg = `column "ts", row group 0, page 0 at offset 4: value does not fit the requested type: ` +
		`value 32503680000000 (value 2 of the page) does not fit int64 once multiplied by 1000000 (a finer unit or a larger scale)`
	if !errors.Is(err, ErrValue) || err.Error() != msg {
		t.Errorf("year 3000 in nanoseconds: %v\nwant %s", err, msg)
	}
}

// TestBindInt96FromTimestamp reads INT64 timestamps (as arrow writes the
// INT96 timestamps it reads) into an INT96 column.
func TestBindInt96FromTimestamp(t *testing.T) {
	s := mustParse(t, `message m { required int64 ts (TIMESTAMP(NANOS,true)); required int64 ms (TIMESTAMP(MILLIS,false)); }`)
	var buf bytes.Buffer
	fw, err := NewFileWriter(&buf, s)
	if err != nil {
		t.Fatal(err)
	}
	ts, _ := fw.Int64Buffer(0)
	ms, _ := fw.Int64Buffer(1)
	ts.Values = append(ts.Values, 0, -1, 86400e9+5, 1700000000123456789)
	ms.Values = append(ms.Values, 0, -1, 86400e3+5, 1700000000123)
	if err := fw.EndRows(4); err != nil {
		t.Fatal(err)
	}
	if err := fw.Close(); err != nil {
		t.Fatal(err)
	}
	r := adaptReader(t, buf.Bytes())
	idx, err := r.Bind(mustParse(t, `message m { required int96 ts; required int96 ms; }`))
	if err != nil {
		t.Fatal(err)
	}
	i96 := func(nanos uint64, julian uint32) encode.Int96 {
		var x encode.Int96
		binary.LittleEndian.PutUint64(x[:], nanos)
		binary.LittleEndian.PutUint32(x[8:], julian)
		return x
	}
	const day = uint64(86400e9)
	want := [][]encode.Int96{
		{i96(0, 2440588), i96(86400e9-1, 2440587), i96(5, 2440589), i96(1700000000123456789%day, uint32(2440588+1700000000123456789/day))},
		{i96(0, 2440588), i96(86400e9-1e6, 2440587), i96(5e6, 2440589), i96(1700000000123%(day/1e6)*1e6, uint32(2440588+1700000000123/(day/1e6)))},
	}
	for c := range 2 {
		rd, err := r.Int96Reader(idx[c])
		if err != nil {
			t.Fatal(err)
		}
		if n, err := rd.ReadRows(4); n != 4 || err != nil {
			t.Fatal(n, err)
		}
		if !slices.Equal(rd.Values, want[c]) {
			t.Errorf("column %d: %x, want %x", c, rd.Values, want[c])
		}
	}
}

// TestBindIntegersAsFloats reads integer columns into DOUBLE (up to 32
// bits) and FLOAT (up to 16) fields, exactly, unsigned ones zero-extended;
// a value beyond its column's width that a float32 would round fails.
func TestBindIntegersAsFloats(t *testing.T) {
	s := mustParse(t, `message m { required int32 i8 (INT(8,true)); required int32 u16 (INT(16,false)); required int32 i32;
  required int32 u32 (INT(32,false)); required int32 i16 (INT(16,true)); }`)
	vals := [][]int32{
		{-128, 127, 0, -1},
		{0, 65535, 1, 70000},
		{math.MinInt32, math.MaxInt32, 0, -1},
		{0, -1, math.MaxInt32, math.MinInt32}, // 0, 4294967295, 2147483647, 2147483648
		{-32768, 32767, 1, 16777217},          // the last: no float32 holds it
	}
	var buf bytes.Buffer
	fw, err := NewFileWriter(&buf, s, WithPageRowLimit(3))
	if err != nil {
		t.Fatal(err)
	}
	for c, v := range vals {
		b, _ := fw.Int32Buffer(c)
		b.Values = append(b.Values, v...)
	}
	if err := fw.EndRows(4); err != nil {
		t.Fatal(err)
	}
	if err := fw.Close(); err != nil {
		t.Fatal(err)
	}
	r := adaptReader(t, buf.Bytes())
	idx, err := r.Bind(mustParse(t, `message m { required double i8; required float u16; required double i32; required double u32; required float i16; }`))
	if err != nil {
		t.Fatal(err)
	}
	want := [][]float64{{-128, 127, 0, -1}, {0, 65535, 1, 70000}, {math.MinInt32, math.MaxInt32, 0, -1}, {0, 4294967295, 2147483647, 2147483648}, {-32768, 32767, 1}}
	for c := range vals {
		var got []float64
		var n int
		if c == 1 || c == 4 {
			rd, err := r.FloatReader(idx[c])
			if err != nil {
				t.Fatal(err)
			}
			if n, err = rd.ReadRows(len(want[c])); err != nil {
				t.Fatal(err)
			}
			for _, v := range rd.Values {
				got = append(got, float64(v))
			}
			if c == 4 {
				// The second page holds the value no float32 holds.
				_, err := rd.ReadRows(1)
				msg := `column "i16", row group 0, page 1 at offset `
				if !errors.Is(err, ErrValue) || !strings.Contains(err.Error(), msg) || !strings.Contains(err.Error(), "value 16777217 (value 0 of the page) does not fit float") {
					t.Errorf("i16: %v", err)
				}
			}
		} else {
			rd, err := r.DoubleReader(idx[c])
			if err != nil {
				t.Fatal(err)
			}
			n, _ = rd.ReadRows(4)
			got = rd.Values
		}
		if !slices.Equal(got, want[c]) {
			t.Errorf("column %d: %d rows %v, want %v", c, n, got, want[c])
		}
	}
}

// TestRescaleBE checks the DECIMAL rescaling of big-endian two's
// complement values against math/big, and that it allocates nothing per
// value once its buffers have grown.
func TestRescaleBE(t *testing.T) {
	ref := func(b []byte, k int) []byte {
		x := new(big.Int).SetBytes(b)
		if len(b) > 0 && b[0]&0x80 != 0 {
			x.Sub(x, new(big.Int).Lsh(big.NewInt(1), uint(8*len(b))))
		}
		x.Mul(x, pow10Big(k))
		m := (x.BitLen() + 8) / 8
		if x.Sign() < 0 {
			x.Add(x, new(big.Int).Lsh(big.NewInt(1), uint(8*m)))
		}
		return x.FillBytes(make([]byte, m))
	}
	vals := [][]byte{{}, {0}, {1}, {0x7f}, {0x80}, {0xff}, {0xff, 0xff}, {0x80, 0, 0, 0},
		{0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}, {0x80, 0, 0, 0, 0, 0, 0, 0},
		{0xfe, 0x12, 0x34, 0x56, 0x78, 0x9a, 0xbc, 0xde, 0xf0, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77}}
	for _, k := range []int{1, 2, 18, 19, 30} {
		a := &adapter{rescale: k}
		for _, b := range vals {
			got := a.rescaleBE([]byte{9}, b)
			if want := ref(b, k); !bytes.Equal(got[1:], want) || got[0] != 9 {
				t.Errorf("rescale %x by 10^%d: %x, want 09%x", b, k, got, want)
			}
		}
		dst := make([]byte, 0, 64)
		if n := testing.AllocsPerRun(100, func() { dst = a.rescaleBE(dst[:0], vals[len(vals)-1]) }); n != 0 {
			t.Errorf("rescale by 10^%d: %v allocations per value", k, n)
		}
	}
}

// TestBindRescaleAcrossPages reads DECIMALs stored as FIXED_LEN_BYTE_ARRAY
// and BYTE_ARRAY into a larger scale of the same physical type, over
// pages of 128 rows, with and without dictionaries. The rescaled values
// are longer than those they come from: before the adapter exchanged its
// buffers with the page's (handOver), the decoder decoded the second page
// into the buffer the first page had been converted into, and the
// conversion of the second page overwrote values it had yet to read:
// row 129 of d read as fffffffffffffff82f25865016515930, and row 143 of e
// as -25769803775000000, without an error.
func TestBindRescaleAcrossPages(t *testing.T) {
	const rows = 1000
	// The unscaled value v at scale s, read at scale s+k, in w bytes
	// (w 0: the fewest bytes holding its sign), by math/big.
	want := func(v int64, k, w int) []byte {
		x := new(big.Int).Mul(big.NewInt(v), pow10Big(k))
		if w == 0 {
			w = (x.BitLen() + 8) / 8
		}
		if x.Sign() < 0 {
			x.Add(x, new(big.Int).Lsh(big.NewInt(1), uint(8*w)))
		}
		return x.FillBytes(make([]byte, w))
	}
	for _, dict := range []bool{false, true} {
		r := adaptReader(t, adaptFile(t, rows, false, WithDictionary(dict), WithPageRowLimit(128)))
		idx, err := r.Bind(mustParse(t, `message m {
  optional fixed_len_byte_array(16) d (DECIMAL(38,6));
  optional binary e (DECIMAL(18,9));
}`))
		if err != nil {
			t.Fatal(err)
		}
		d, err := r.FixedReader(idx[0])
		if err != nil {
			t.Fatal(err)
		}
		e, err := r.ByteArrayReader(idx[1])
		if err != nil {
			t.Fatal(err)
		}
		if n, err := d.ReadRows(rows); n != rows || err != nil {
			t.Fatalf("dict %v: d: ReadRows: %d %v", dict, n, err)
		}
		if n, err := e.ReadRows(rows); n != rows || err != nil {
			t.Fatalf("dict %v: e: ReadRows: %d %v", dict, n, err)
		}
		k := 0
		for i := 0; i < rows; i++ {
			if got, w := d.Values[i*16:(i+1)*16], want(adaptD(i), 4, 16); !bytes.Equal(got, w) {
				t.Fatalf("dict %v: d, row %d: %x, want %x", dict, i, got, w)
			}
			if i%3 == 0 {
				continue // null
			}
			if got, w := e.Values.At(k), want(adaptE(i), 6, 0); !bytes.Equal(got, w) {
				t.Fatalf("dict %v: e, row %d: %x, want %x", dict, i, got, w)
			}
			k++
		}
		if k != e.Values.Len() {
			t.Errorf("dict %v: e holds %d values, want %d", dict, e.Values.Len(), k)
		}
	}
}

// TestConvertInt96 checks the INT96 to INT64 TIMESTAMP conversion against
// math/big on any bits (Julian days and nanoseconds of every sign and
// size, the ends of each unit's range): an exact count, or an error
// wrapping ErrValue where the count is not whole or overflows.
func TestConvertInt96(t *testing.T) {
	r := newRand(96)
	var vals []encode.Int96
	for _, day := range []int64{-1 << 31, -106752 + 2440588, 2440587, 2440588, 106751 + 2440588, 1<<31 - 1} {
		for _, ns := range []int64{-1 << 63, -86400e9, -1, 0, 1, 763145224192, 85636854775807, 86400e9 - 1, 86400e9, 1<<63 - 1} {
			vals = append(vals, int96Of([2]int64{day, ns}))
		}
	}
	for range 20000 {
		day := 2440588 + r.Int64N(300000) - 150000
		if r.IntN(4) == 0 {
			day = int64(int32(r.Uint32()))
		}
		ns := r.Int64N(86400e9)
		if r.IntN(4) == 0 {
			ns = int64(r.Uint64())
		}
		if r.IntN(2) == 0 {
			ns -= ns % 1000
		}
		vals = append(vals, int96Of([2]int64{day, ns}))
	}
	for _, div := range []int64{1, 1e3, 1e6} {
		a := &adapter{wantType: meta.Int64, mul: 1, div: div}
		for i, v := range vals {
			p := &page.Page{}
			p.Values.Int96 = []encode.Int96{v}
			err := a.convertInt96(p)
			day := int64(int32(binary.LittleEndian.Uint32(v[8:])))
			ns := int64(binary.LittleEndian.Uint64(v[:8]))
			exact := new(big.Int).Mul(big.NewInt(day-2440588), big.NewInt(86400e9))
			exact.Add(exact, big.NewInt(ns))
			q, m := new(big.Int).QuoRem(exact, big.NewInt(div), new(big.Int))
			switch {
			case m.Sign() != 0:
				if !errors.Is(err, ErrValue) || !strings.Contains(err.Error(), "not a whole number") {
					t.Fatalf("value %d %x (unit %d ns): %v, want not whole", i, v, div, err)
				}
			case !q.IsInt64():
				if !errors.Is(err, ErrValue) || !strings.Contains(err.Error(), "beyond an INT64 count") {
					t.Fatalf("value %d %x (unit %d ns): %v, want beyond", i, v, div, err)
				}
			case err != nil || len(p.Values.Int64) != 1 || p.Values.Int64[0] != q.Int64():
				t.Fatalf("value %d %x (unit %d ns): %v %v, want %d", i, v, div, err, p.Values.Int64, q)
			}
		}
	}
}
