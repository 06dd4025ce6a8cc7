package evolution

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	pqrt "github.com/pqgen/pqgen/runtime"
)

const rows = 1500

// halves are FLOAT16 bit patterns and their values, worked out by hand.
var halves = []struct {
	bits uint16
	val  float32
}{
	{0x0000, 0}, {0x3c00, 1}, {0xc100, -2.5}, {0x0001, 1.0 / (1 << 24)}, {0x03ff, 1023.0 / (1 << 24)},
	{0x7bff, 65504}, {0x3555, 0.333251953125}, {0xfbff, -65504}, {0x7c00, float32(math.Inf(1))},
}

func dec(v int64, scale int) *big.Int {
	x := big.NewInt(v)
	return x.Mul(x, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(scale)), nil))
}

// be is x in n big-endian two's complement bytes.
func be(x *big.Int, n int) []byte {
	if x.Sign() >= 0 {
		return x.FillBytes(make([]byte, n))
	}
	y := new(big.Int).Add(new(big.Int).Lsh(big.NewInt(1), uint(8*n)), x)
	return y.FillBytes(make([]byte, n))
}

// unbe is the value of big-endian two's complement b.
func unbe(b []byte) *big.Int {
	x := new(big.Int).SetBytes(b)
	if len(b) > 0 && b[0]&0x80 != 0 {
		x.Sub(x, new(big.Int).Lsh(big.NewInt(1), uint(8*len(b))))
	}
	return x
}

func pick[T any](i int, vs ...T) T { return vs[i%len(vs)] }

func flatV1(i int) FlatV1 {
	h := halves[i%len(halves)]
	day := time.Date(1970, 1, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, (i%200-100)*37)
	var fix [8]byte
	copy(fix[:], be(big.NewInt(int64(i-750)*123456789), 8))
	return FlatV1{
		I8: pick(i, int8(math.MinInt8), -1, 0, math.MaxInt8, int8(i)), I16: pick(i, int16(math.MinInt16), math.MaxInt16, int16(i*7)),
		I32: pick(i, int32(math.MinInt32), math.MaxInt32, int32(i*-99991)), I8Wide: pick(i, int8(math.MinInt8), math.MaxInt8, int8(i)),
		U8: pick(i, uint8(0), math.MaxUint8, uint8(i)), U16: pick(i, uint16(0), math.MaxUint16, uint16(i*3)),
		U32: pick(i, uint32(0), math.MaxUint32, uint32(i)*2654435761), U8Wide: pick(i, uint8(math.MaxUint8), uint8(i)),
		U32Wide: pick(i, uint32(math.MaxUint32), 1<<31, uint32(i)),
		F32:     pick(i, float32(0.1), -3.4e38, float32(i)/7, float32(math.SmallestNonzeroFloat32)),
		F16:     [2]byte{byte(h.bits), byte(h.bits >> 8)}, F16Wide: [2]byte{byte(h.bits), byte(h.bits >> 8)},
		Date: day, DateNano: day,
		TsMilli: time.UnixMilli(int64(i-700) * 86400123).UTC(), TsMicro: time.UnixMicro(int64(i-700) * 86400123457).UTC(),
		TmMilliUnit: time.Duration(i*57601%86400000) * time.Millisecond, TmMicroUnit: time.Duration(int64(i)*57600001%86400000000) * time.Microsecond,
		Dec32: pick(i, int32(-999999999), 999999999, int32(i*1001)), Dec64: pick(i, int64(-999999999999999999), 999999999999999999, int64(i)*-1000003),
		DecFix:   fix,
		DecBytes: be(dec(int64(i)*-7777777, 9), 9),
		Str:      pick(i, "", "abc", strings.Repeat("x", i%50)), Enum: pick(i, "RED", "GREEN", ""), JSON: pick(i, `{"a":1}`, `[]`),
		Raw: pick(i, []byte{}, []byte{0, 0xff}, []byte("raw")),
		Req: int64(i) * -3, Dropped: "gone", OldName: int32(i) - 3,
		IntF: pick(i, int32(math.MinInt32), math.MaxInt32, int32(i*-99991)), U16F: pick(i, uint16(0), math.MaxUint16, uint16(i*3)),
	}
}

func flatV2(v FlatV1, i int) FlatV2 {
	var dec64, decBytes [16]byte
	copy(dec64[:], be(dec(v.Dec64, 4), 16))
	copy(decBytes[:], be(unbe(v.DecBytes), 16))
	req := v.Req
	return FlatV2{
		I8: int16(v.I8), I16: int32(v.I16), I32: int64(v.I32), I8Wide: int64(v.I8Wide),
		U8: int16(v.U8), U16: int32(v.U16), U32: int64(v.U32), U8Wide: uint32(v.U8Wide), U32Wide: uint64(v.U32Wide),
		F32: float64(v.F32), F16: halves[i%len(halves)].val, F16Wide: float64(halves[i%len(halves)].val),
		Date: v.Date, DateNano: v.DateNano, TsMilli: v.TsMilli, TsMicro: v.TsMicro, TmMilliUnit: v.TmMilliUnit, TmMicroUnit: v.TmMicroUnit,
		Dec32: int64(v.Dec32) * 100, Dec64: dec64,
		DecFix:   be(new(big.Int).Mul(unbe(v.DecFix[:]), big.NewInt(100)), 9), // compared by value (cmpDec)
		DecBytes: decBytes,
		Str:      emptyAsNil([]byte(v.Str)), Enum: v.Enum, JSON: v.JSON, Raw: string(v.Raw),
		Req: &req, NewName: v.OldName, IntF: float64(v.IntF), U16F: float32(v.U16F),
	}
}

// emptyAsNil is b, nil when empty: how a required []byte reads an empty
// value back.
func emptyAsNil(b []byte) []byte {
	if len(b) == 0 {
		return nil
	}
	return b
}

// cmpDec compares the BYTE_ARRAY decimal by value, whatever its width.
var cmpDec = cmp.FilterPath(func(p cmp.Path) bool { return p.Last().String() == ".DecFix" },
	cmp.Comparer(func(a, b []byte) bool { return unbe(a).Cmp(unbe(b)) == 0 }))

// readAll reads every row of r, in Reads of 97 rows.
func readAll[T any](t *testing.T, r interface {
	Read([]T) (int, error)
	Close() error
}) []T {
	t.Helper()
	return readBatches(t, r, 97)
}

// writerOptions are the layouts every file of the matrix is written in:
// dictionary pages or not, pages of 100 rows, several row groups.
var writerOptions = map[string][]pqrt.WriterOption{
	"dict":   {pqrt.WithPageRowLimit(100), pqrt.WithRowGroupSize(32 << 10)},
	"plain":  {pqrt.WithDictionary(false), pqrt.WithPageRowLimit(100)},
	"v2zstd": {pqrt.WithDataPageVersion(2), pqrt.WithPageRowLimit(333)},
}

// writeRows writes rs with a generated writer and returns the file.
func writeRows[T any, W interface {
	Write([]T) (int, error)
	Close() error
}](tb testing.TB, newW func(io.Writer, ...pqrt.WriterOption) (W, error), rs []T, opts ...pqrt.WriterOption) []byte {
	tb.Helper()
	var buf bytes.Buffer
	w, err := newW(&buf, opts...)
	if err != nil {
		tb.Fatal(err)
	}
	if _, err := w.Write(rs); err != nil {
		tb.Fatal(err)
	}
	if err := w.Close(); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes()
}

// TestFlatEvolution writes FlatV1 rows and reads them as FlatV2: every
// widening of the rules, a field made nullable, one dropped, one added,
// one renamed under its field id.
func TestFlatEvolution(t *testing.T) {
	var v1 []FlatV1
	var want []FlatV2
	for i := range rows {
		v1 = append(v1, flatV1(i))
		want = append(want, flatV2(v1[i], i))
	}
	for name, opts := range writerOptions {
		data := writeRows(t, NewFlatV1Writer, v1, opts...)
		r, err := NewFlatV2Reader(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		got := readAll[FlatV2](t, r)
		if len(got) != rows {
			t.Fatalf("%s: %d rows, want %d", name, len(got), rows)
		}
		for i := range got {
			if d := cmp.Diff(want[i], got[i], cmpDec); d != "" {
				t.Fatalf("%s: row %d (-want +got):\n%s", name, i, d)
			}
		}
		// A filter on the field renamed under its id finds the file's
		// column old_name.
		r, err = NewFlatV2Reader(bytes.NewReader(data), int64(len(data)), pqrt.WithFilter(FlatV2Where.NewName.Between(4, 6)))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		got = readAll[FlatV2](t, r)
		if len(got) != 3 || got[0].NewName != 4 || got[2].NewName != 6 {
			t.Fatalf("%s: filter on new_name: %d rows: %+v", name, len(got), got)
		}
		// Filters on integers read as floats compare the floats.
		r, err = NewFlatV2Reader(bytes.NewReader(data), int64(len(data)), pqrt.WithFilter(pqrt.And(FlatV2Where.IntF.Lt(-1e8), FlatV2Where.U16F.Ge(3000))))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		got = readAll[FlatV2](t, r)
		var keep []FlatV2
		for _, w := range want {
			if w.IntF < -1e8 && w.U16F >= 3000 {
				keep = append(keep, w)
			}
		}
		if d := cmp.Diff(keep, got, cmpDec); len(keep) < 100 || d != "" {
			t.Fatalf("%s: filter on int_f and u16_f: %d rows, want %d: %s", name, len(got), len(keep), d)
		}
	}
}

func nestedV1(i int) NestedV1 {
	v := NestedV1{ID: int32(i) * -7919, Inner: InnerV1{D: int16(i % 300), Xs: []int8{int8(i), -128, 127}[:i%4%3]},
		M: map[int16]int32{}, MS: map[string]int32{}}
	for k := range i % 4 {
		v.Items = append(v.Items, ItemV1{A: int32(i*10 + k), B: float32(k) / 3, T: time.UnixMilli(int64(i*1000+k) * 77777).UTC(), X: "x"})
		v.M[int16(k-2)] = int32(i - k*1000000)
		v.MS[strings.Repeat("k", k)] = int32(k)
	}
	if i%3 == 1 {
		v.Opt = &InnerV1{D: -1, Xs: []int8{int8(i % 100)}}
	}
	return v
}

func innerV2(in InnerV1) InnerV2 {
	d := int32(in.D)
	out := InnerV2{D: &d}
	for _, x := range in.Xs {
		x64 := int64(x)
		out.Xs = append(out.Xs, &x64)
	}
	return out
}

func nestedV2(v NestedV1) NestedV2 {
	out := NestedV2{ID: int64(v.ID)}
	if len(v.M) > 0 { // an empty map reads as nil
		out.M, out.MS = map[int64]int64{}, map[string]*int64{}
	}
	for _, it := range v.Items {
		out.Items = append(out.Items, ItemV2{A: int64(it.A), B: float64(it.B), T: it.T})
	}
	if v.Opt != nil {
		o := innerV2(*v.Opt)
		out.Opt = &o
	}
	in := innerV2(v.Inner)
	out.Inner = &in
	for k, x := range v.M {
		out.M[int64(k)] = int64(x)
	}
	for k, x := range v.MS {
		x64 := int64(x)
		out.MS[k] = &x64
	}
	return out
}

// TestNestedEvolution writes NestedV1 rows and reads them as NestedV2:
// widenings inside list elements, structs, map keys and values, a struct
// and list elements made nullable, a field of a list element dropped and
// one added.
func TestNestedEvolution(t *testing.T) {
	var v1 []NestedV1
	var want []NestedV2
	for i := range rows {
		v1 = append(v1, nestedV1(i))
		want = append(want, nestedV2(v1[i]))
	}
	for name, opts := range writerOptions {
		data := writeRows(t, NewNestedV1Writer, v1, opts...)
		r, err := NewNestedV2Reader(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		got := readAll[NestedV2](t, r)
		if len(got) != rows {
			t.Fatalf("%s: %d rows, want %d", name, len(got), rows)
		}
		for i := range got {
			if d := cmp.Diff(want[i], got[i]); d != "" {
				t.Fatalf("%s: row %d (-want +got):\n%s", name, i, d)
			}
		}
	}
}

// TestOptionalAsRequired reads nullable columns into required fields:
// refused at open without runtime.WithOptionalAsRequired; with it, rows
// without nulls read, and a null is an error naming column and row, which
// every later Read returns.
func TestOptionalAsRequired(t *testing.T) {
	write := func(rs []OptV1) []byte { return writeRows(t, NewOptV1Writer, rs, pqrt.WithPageRowLimit(50)) }
	var v1 []OptV1
	var want []OptV2
	for i := range 300 {
		a, s, e := int32(i), strings.Repeat("s", i%5), int32(-i)
		v1 = append(v1, OptV1{A: &a, S: &s, L: []*int32{&e, &e}[:i%3]})
		want = append(want, OptV2{A: int64(i), S: s, L: []int32{-int32(i), -int32(i)}[:i%3]})
		if i%3 == 0 {
			want[i].L = nil // an empty list reads as nil
		}
	}
	data := write(v1)
	if _, err := NewOptV2Reader(bytes.NewReader(data), int64(len(data))); !errors.Is(err, pqrt.ErrBind) ||
		!strings.Contains(err.Error(), `column "a": field "a" is optional in the file, required requested`) {
		t.Fatalf("without the option: %v", err)
	}
	r, err := NewOptV2Reader(bytes.NewReader(data), int64(len(data)), pqrt.WithOptionalAsRequired(true))
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(want, readAll[OptV2](t, r)); d != "" {
		t.Fatalf("(-want +got):\n%s", d)
	}
	// Nulls: in a top-level field at row 123, in a list element at row 208.
	for _, c := range optNulls(123, 208) {
		rs := append([]OptV1(nil), v1...)
		rs[c.row].L = append([]*int32(nil), rs[c.row].L...)
		c.mutate(&rs[c.row])
		data := write(rs)
		r, err := NewOptV2Reader(bytes.NewReader(data), int64(len(data)), pqrt.WithOptionalAsRequired(true))
		if err != nil {
			t.Fatal(err)
		}
		var rerr error
		buf := make([]OptV2, 64)
		for rerr == nil {
			_, rerr = r.Read(buf)
		}
		if !errors.Is(rerr, pqrt.ErrValue) || !strings.Contains(rerr.Error(), c.msg) {
			t.Errorf("a null read into a required field: %v, want one containing %s", rerr, c.msg)
		}
		// The error is final: the columns before the failing one moved on.
		for range 3 {
			if n, err := r.Read(buf); n != 0 || err != rerr {
				t.Errorf("row %d: Read after the error: %d rows, %v; want 0 and the same error", c.row, n, err)
			}
		}
	}
}

// optNull is a null written into an OptV1 row that OptV2 requires, and
// the error reading it names.
type optNull struct {
	row    int
	mutate func(*OptV1)
	msg    string
}

// optNulls are the nulls of OptV1 rows top (in the top-level field) and
// elem (in a list element, which the row must have).
func optNulls(top, elem int) []optNull {
	return []optNull{
		{top, func(v *OptV1) { v.A = nil }, fmt.Sprintf(`column "a", row %d: a null`, top)},
		{elem, func(v *OptV1) { v.L[0] = nil }, fmt.Sprintf(`column "l.list.element", row %d: a null`, elem)},
	}
}

// TestNarrowingRefused: each narrowing or change of type fails at open
// with an error wrapping ErrBind that names the column and both types.
func TestNarrowingRefused(t *testing.T) {
	flat := writeRows(t, NewFlatV1Writer, []FlatV1{flatV1(1)})
	flat2 := writeRows(t, NewFlatV2Writer, []FlatV2{{DateNano: time.Unix(0, 0), TsMicro: time.Unix(0, 0), Enum: "{}"}}) // a zero time.Time is beyond TIMESTAMP(NANOS); "" is not JSON
	nested := writeRows(t, NewNestedV1Writer, []NestedV1{nestedV1(2)})
	nested2 := writeRows(t, NewNestedV2Writer, []NestedV2{{}})
	open := func(data []byte, f func(r *bytes.Reader, n int64) error) error {
		return f(bytes.NewReader(data), int64(len(data)))
	}
	for _, c := range []struct {
		name string
		err  error
		msg  string
	}{
		{"int32 to int16", open(flat, func(r *bytes.Reader, n int64) error { _, err := NewNarrow16Reader(r, n); return err }),
			`column "i32": int32 in the file, int32 (INT(16,true)) requested`},
		{"int64 to int32", open(nested2, func(r *bytes.Reader, n int64) error { _, err := NewNarrow32Reader(r, n); return err }),
			`column "id": int64 in the file, int32 requested`},
		{"double to float", open(flat2, func(r *bytes.Reader, n int64) error { _, err := NewNarrowFReader(r, n); return err }),
			`column "f32": double in the file, float requested`},
		{"micros to millis", open(flat, func(r *bytes.Reader, n int64) error { _, err := NewNarrowUnitReader(r, n); return err }),
			`column "ts_micro": int64 (TIMESTAMP(MICROS,true)) in the file, int64 (TIMESTAMP(MILLIS,true)) requested`},
		{"decimal scale 2 to 1", open(flat, func(r *bytes.Reader, n int64) error { _, err := NewNarrowScaleReader(r, n); return err }),
			`column "dec64": int64 (DECIMAL(18,2)) in the file, int64 (DECIMAL(18,1)) requested`},
		{"string to int", open(flat, func(r *bytes.Reader, n int64) error { _, err := NewNarrowStrReader(r, n); return err }),
			`column "str": binary (STRING) in the file, int64 requested`},
		{"signed to unsigned", open(flat, func(r *bytes.Reader, n int64) error { _, err := NewNarrowSignReader(r, n); return err }),
			`column "i8": int32 (INT(8,true)) in the file, int64 (INT(64,false)) requested`},
		{"list element int32 to int16", open(nested, func(r *bytes.Reader, n int64) error { _, err := NewNarrowElemReader(r, n); return err }),
			`column "items.list.element.a": int32 in the file, int32 (INT(16,true)) requested`},
	} {
		if !errors.Is(c.err, pqrt.ErrBind) || !strings.Contains(c.err.Error(), c.msg) {
			t.Errorf("%s: %v, want an ErrBind naming %s", c.name, c.err, c.msg)
		}
	}
}

// TestDefaults reads a file that lacks required columns: fields tagged
// default(...) read as their defaults, an optional field as zero, and a
// required field without a default fails at open naming its column. A
// file that has the columns reads their values, and WithColumns leaves
// an unprojected column zero, not its default.
func TestDefaults(t *testing.T) {
	data := writeRows(t, NewSlimWriter, []Slim{{ID: 1, Name: "a"}, {ID: 2, Name: "b"}})
	r, err := NewDefaultsV2Reader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	want := []DefaultsV2{
		{ID: 1, Name: "a", Region: "eu-west, 1", Level: -3, Mask: math.MaxUint32, Ratio: 0.5, On: true},
		{ID: 2, Name: "b", Region: "eu-west, 1", Level: -3, Mask: math.MaxUint32, Ratio: 0.5, On: true},
	}
	if d := cmp.Diff(want, readAll[DefaultsV2](t, r)); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
	if _, err := NewMissingV2Reader(bytes.NewReader(data), int64(len(data))); !errors.Is(err, pqrt.ErrBind) ||
		!strings.Contains(err.Error(), `column "region": required in the requested schema but absent from the file`) {
		t.Errorf("a required field without default: %v", err)
	}

	full := []DefaultsV2{{ID: 3, Name: "c", Region: "us", Level: 9, Mask: 1, Ratio: 2, On: false, Plain: 4}}
	data = writeRows(t, NewDefaultsV2Writer, full)
	r, err = NewDefaultsV2Reader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(full, readAll[DefaultsV2](t, r)); d != "" {
		t.Errorf("a file with the columns (-want +got):\n%s", d)
	}
	r, err = NewDefaultsV2Reader(bytes.NewReader(data), int64(len(data)), pqrt.WithColumns("id"))
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]DefaultsV2{{ID: 3}}, readAll[DefaultsV2](t, r)); d != "" {
		t.Errorf("WithColumns(id) (-want +got):\n%s", d)
	}
}
