package runtime

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/pqgen/pqgen/runtime/encode"
	"github.com/pqgen/pqgen/runtime/meta"
)

// The random filter test: a file with a column of every physical type and
// of the logical types whose order differs (unsigned, decimal, FLOAT16,
// INT96), random values with nulls, NaN, -0.0, long strings (truncated
// statistics), written with and without statistics, page indexes and
// bloom filters; random predicates read through WithFilter must select
// exactly the rows a brute-force evaluation on the Go values selects.

const filterSchema = `message m {
  required int64 idx;
  optional int32 i32;
  optional int32 u32 (INTEGER(32,false));
  optional int64 i64;
  optional int64 u64 (INTEGER(64,false));
  optional float f32;
  optional double f64;
  optional boolean b;
  optional binary s (STRING);
  optional fixed_len_byte_array(4) fx;
  optional int32 dec (DECIMAL(9,2));
  optional fixed_len_byte_array(2) h (FLOAT16);
  optional int96 t96;
  optional binary bdec (DECIMAL(20,2));
  required int64 sorted;
}`

// f16 are half-precision values with their float64 meaning (NaN, zeros,
// subnormal, largest finite).
var f16 = []struct {
	bits uint16
	v    float64
}{
	{0x3c00, 1}, {0xc000, -2}, {0x8000, math.Copysign(0, -1)}, {0x0000, 0}, {0x7e00, math.NaN()},
	{0x3800, 0.5}, {0x7bff, 65504}, {0x0001, 5.960464477539063e-08}, {0xfc00, math.Inf(-1)}, {0x4200, 3},
}

// frow is one row of the test file: a nil field is null.
type frow struct {
	idx    int64
	i32    *int32
	u32    *uint32
	i64    *int64
	u64    *uint64
	f32    *float32
	f64    *float64
	b      *bool
	s      *string
	fx     *[4]byte
	dec    *int32
	h      *int // index into f16
	t96    *[2]int64
	bdec   *int64
	sorted int64
}

func ptr[T any](v T) *T { return &v }

func randRows(r *rand.Rand, n int) []frow {
	rows := make([]frow, n)
	strs := []string{"", "a", "ab", "abc", "b", "zz", "\U0010ffff\u00e9", "long-string-value-aaaaaaaaaaaaaaaaaaaaa", "long-string-value-aaaaaaaaaaaaaaaaaaaab", "long-string-value-z"}
	floats := []float64{0, math.Copysign(0, -1), 1, -1, 2.5, math.NaN(), math.Inf(1), math.Inf(-1), 1e-300, -7}
	for i := range rows {
		x := &rows[i]
		x.idx = int64(i)
		x.sorted = int64(i/3) * 7
		null := func() bool { return r.IntN(6) == 0 }
		if !null() {
			x.i32 = ptr(int32(r.IntN(41) - 20))
		}
		if !null() {
			x.u32 = ptr([]uint32{0, 1, 5, 1 << 31, math.MaxUint32, 7}[r.IntN(6)])
		}
		if !null() {
			x.i64 = ptr(int64(r.IntN(1000)) - 500)
		}
		if !null() {
			x.u64 = ptr([]uint64{0, 3, 1 << 63, math.MaxUint64, 9}[r.IntN(5)])
		}
		if !null() {
			x.f32 = ptr(float32(floats[r.IntN(len(floats))]))
		}
		if !null() {
			x.f64 = ptr(floats[r.IntN(len(floats))])
		}
		if !null() {
			x.b = ptr(r.IntN(2) == 0)
		}
		if !null() {
			x.s = ptr(strs[r.IntN(len(strs))])
		}
		if !null() {
			x.fx = &[4]byte{byte(r.IntN(3)), byte(r.IntN(256)), 0, 1}
		}
		if !null() {
			x.dec = ptr(int32(r.IntN(2001) - 1000))
		}
		if !null() {
			x.h = ptr(r.IntN(len(f16)))
		}
		if !null() {
			x.t96 = &[2]int64{int64(2440000 + r.IntN(3)), int64(r.IntN(5)) * 1e9}
		}
		if !null() {
			x.bdec = ptr([]int64{0, -1, 1, 127, 128, -128, -129, 1 << 40, -(1 << 40), 300}[r.IntN(10)])
		}
	}
	return rows
}

// decBytes is the minimal big-endian two's complement of v.
func decBytes(v int64) []byte {
	b := binary.BigEndian.AppendUint64(nil, uint64(v))
	for len(b) > 1 && (b[0] == 0 && b[1]&0x80 == 0 || b[0] == 0xff && b[1]&0x80 != 0) {
		b = b[1:]
	}
	return b
}

func int96Of(t [2]int64) encode.Int96 {
	var v encode.Int96
	binary.LittleEndian.PutUint64(v[:8], uint64(t[1]))
	binary.LittleEndian.PutUint32(v[8:], uint32(t[0]))
	return v
}

func writeFilterFile(t testing.TB, rows []frow, opts ...WriterOption) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := NewFileWriter(&buf, mustSchema(t, filterSchema), opts...)
	if err != nil {
		t.Fatal(err)
	}
	for start := 0; start < len(rows); start += 100 {
		batch := rows[start:min(start+100, len(rows))]
		c0, _ := w.Int64Buffer(0)
		for _, x := range batch {
			c0.Values = append(c0.Values, x.idx)
		}
		opt := func(lv *Levels, present bool, add func()) {
			if present {
				lv.Def = append(lv.Def, 1)
				add()
			} else {
				lv.Def = append(lv.Def, 0)
			}
		}
		b1, _ := w.Int32Buffer(1)
		b2, _ := w.Int32Buffer(2)
		b3, _ := w.Int64Buffer(3)
		b4, _ := w.Int64Buffer(4)
		b5, _ := w.FloatBuffer(5)
		b6, _ := w.DoubleBuffer(6)
		b7, _ := w.BoolBuffer(7)
		b8, _ := w.ByteArrayBuffer(8)
		b9, _ := w.FixedBuffer(9)
		b10, _ := w.Int32Buffer(10)
		b11, _ := w.FixedBuffer(11)
		b12, _ := w.Int96Buffer(12)
		b13, _ := w.ByteArrayBuffer(13)
		b14, _ := w.Int64Buffer(14)
		for _, x := range batch {
			opt(&b1.Levels, x.i32 != nil, func() { b1.Values = append(b1.Values, *x.i32) })
			opt(&b2.Levels, x.u32 != nil, func() { b2.Values = append(b2.Values, int32(*x.u32)) })
			opt(&b3.Levels, x.i64 != nil, func() { b3.Values = append(b3.Values, *x.i64) })
			opt(&b4.Levels, x.u64 != nil, func() { b4.Values = append(b4.Values, int64(*x.u64)) })
			opt(&b5.Levels, x.f32 != nil, func() { b5.Values = append(b5.Values, *x.f32) })
			opt(&b6.Levels, x.f64 != nil, func() { b6.Values = append(b6.Values, *x.f64) })
			opt(&b7.Levels, x.b != nil, func() { b7.Values = append(b7.Values, *x.b) })
			opt(&b8.Levels, x.s != nil, func() { b8.Values.AppendString(*x.s) })
			opt(&b9.Levels, x.fx != nil, func() { b9.Values = append(b9.Values, x.fx[:]...) })
			opt(&b10.Levels, x.dec != nil, func() { b10.Values = append(b10.Values, *x.dec) })
			opt(&b11.Levels, x.h != nil, func() { b11.Values = binary.LittleEndian.AppendUint16(b11.Values, f16[*x.h].bits) })
			opt(&b12.Levels, x.t96 != nil, func() { b12.Values = append(b12.Values, int96Of(*x.t96)) })
			opt(&b13.Levels, x.bdec != nil, func() { b13.Values.Append(decBytes(*x.bdec)) })
			b14.Values = append(b14.Values, x.sorted)
		}
		if err := w.EndRows(len(batch)); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// fcol is a column of the test: its predicate builder and brute-force
// accessors.
type fcol struct {
	name    string
	ordered bool
	// op builds a predicate; val returns the Go value of a row (nil when
	// null); cmp compares two Go values (ok false when unordered, as with
	// NaN); pick draws a comparison value.
	op   func(op predOp, vs ...any) Predicate
	val  func(x *frow) any
	cmp  func(a, b any) (int, bool)
	pick func(r *rand.Rand, rows []frow) any
}

func cmpOrd[T int32 | uint32 | int64 | uint64 | string](a, b any) (int, bool) {
	x, y := a.(T), b.(T)
	switch {
	case x < y:
		return -1, true
	case x > y:
		return 1, true
	}
	return 0, true
}

func cmpFloat(a, b any) (int, bool) {
	x, y := a.(float64), b.(float64)
	switch {
	case x != x || y != y:
		return 0, false
	case x < y:
		return -1, true
	case x > y:
		return 1, true
	}
	return 0, true
}

// builder returns, for op and values, the predicate of field f.
func builder[T any](f NullableOrderedField[T]) func(op predOp, vs ...any) Predicate {
	return func(op predOp, vs ...any) Predicate {
		ts := make([]T, len(vs))
		for i, v := range vs {
			ts[i] = v.(T)
		}
		switch op {
		case opEq:
			return f.Eq(ts[0])
		case opNotEq:
			return f.NotEq(ts[0])
		case opIn:
			return f.In(ts...)
		case opLt:
			return f.Lt(ts[0])
		case opLe:
			return f.Le(ts[0])
		case opGt:
			return f.Gt(ts[0])
		case opGe:
			return f.Ge(ts[0])
		case opBetween:
			return f.Between(ts[0], ts[1])
		case opIsNull:
			return f.IsNull()
		}
		return f.NotNull()
	}
}

func pickFrom[T any](get func(x *frow) *T, extra ...T) func(r *rand.Rand, rows []frow) any {
	return func(r *rand.Rand, rows []frow) any {
		if len(extra) > 0 && r.IntN(4) == 0 {
			return extra[r.IntN(len(extra))]
		}
		for range 20 {
			if v := get(&rows[r.IntN(len(rows))]); v != nil {
				return *v
			}
		}
		return *new(T)
	}
}

func valOf[T any](get func(x *frow) *T) func(x *frow) any {
	return func(x *frow) any {
		if v := get(x); v != nil {
			return *v
		}
		return nil
	}
}

func filterCols() []fcol {
	f32v := func(x *frow) *float64 {
		if x.f32 == nil {
			return nil
		}
		return ptr(float64(*x.f32))
	}
	t96 := func(x *frow) *int64 { // (days-2440000)*1e12 + nanos orders like INT96 times here
		if x.t96 == nil {
			return nil
		}
		return ptr((x.t96[0]-2440000)*1e12 + x.t96[1])
	}
	return []fcol{
		{name: "i32", ordered: true, op: builder(NewNullableOrderedField("i32", func(b *Int32Buffer, v int32) error { b.Values = append(b.Values, v); return nil })),
			val: valOf(func(x *frow) *int32 { return x.i32 }), cmp: cmpOrd[int32], pick: pickFrom(func(x *frow) *int32 { return x.i32 }, -100, 100)},
		{name: "u32", ordered: true, op: builder(NewNullableOrderedField("u32", func(b *Int32Buffer, v uint32) error { b.Values = append(b.Values, int32(v)); return nil })),
			val: valOf(func(x *frow) *uint32 { return x.u32 }), cmp: cmpOrd[uint32], pick: pickFrom(func(x *frow) *uint32 { return x.u32 }, 2, 1<<31+1)},
		{name: "i64", ordered: true, op: builder(NewNullableOrderedField("i64", func(b *Int64Buffer, v int64) error { b.Values = append(b.Values, v); return nil })),
			val: valOf(func(x *frow) *int64 { return x.i64 }), cmp: cmpOrd[int64], pick: pickFrom(func(x *frow) *int64 { return x.i64 }, -1000, 1000)},
		{name: "u64", ordered: true, op: builder(NewNullableOrderedField("u64", func(b *Int64Buffer, v uint64) error { b.Values = append(b.Values, int64(v)); return nil })),
			val: valOf(func(x *frow) *uint64 { return x.u64 }), cmp: cmpOrd[uint64], pick: pickFrom(func(x *frow) *uint64 { return x.u64 }, 1<<63+1, 4)},
		{name: "f32", ordered: true, op: builder(NewNullableOrderedField("f32", func(b *FloatBuffer, v float64) error { b.Values = append(b.Values, float32(v)); return nil })),
			val: valOf(f32v), cmp: cmpFloat, pick: pickFrom(f32v, math.NaN(), math.Copysign(0, -1), 0, 1.5)},
		{name: "f64", ordered: true, op: builder(NewNullableOrderedField("f64", func(b *DoubleBuffer, v float64) error { b.Values = append(b.Values, v); return nil })),
			val: valOf(func(x *frow) *float64 { return x.f64 }), cmp: cmpFloat, pick: pickFrom(func(x *frow) *float64 { return x.f64 }, math.NaN(), math.Copysign(0, -1), 0, 1.5)},
		{name: "b", op: builder(NewNullableOrderedField("b", func(b *BoolBuffer, v bool) error { b.Values = append(b.Values, v); return nil })),
			val: valOf(func(x *frow) *bool { return x.b }), cmp: func(a, b any) (int, bool) {
				if a.(bool) == b.(bool) {
					return 0, true
				}
				return 1, true
			}, pick: pickFrom(func(x *frow) *bool { return x.b })},
		{name: "s", ordered: true, op: builder(NewNullableOrderedField("s", func(b *ByteArrayBuffer, v string) error { b.Values.AppendString(v); return nil })),
			val: valOf(func(x *frow) *string { return x.s }), cmp: cmpOrd[string], pick: pickFrom(func(x *frow) *string { return x.s }, "long-string-value-aaaaaaaaaaaaaaaaaaaaa0", "long-string-value-a", "long", "zzz", "\xff\xff")},
		{name: "fx", ordered: true, op: builder(NewNullableOrderedField("fx", func(b *FixedBuffer, v string) error { b.Values = append(b.Values, v...); return nil })),
			val: func(x *frow) any {
				if x.fx == nil {
					return nil
				}
				return string(x.fx[:])
			}, cmp: cmpOrd[string], pick: func(r *rand.Rand, rows []frow) any {
				return string([]byte{byte(r.IntN(3)), byte(r.IntN(256)), 0, byte(r.IntN(2))})
			}},
		{name: "dec", ordered: true, op: builder(NewNullableOrderedField("dec", func(b *Int32Buffer, v int32) error { b.Values = append(b.Values, v); return nil })),
			val: valOf(func(x *frow) *int32 { return x.dec }), cmp: cmpOrd[int32], pick: pickFrom(func(x *frow) *int32 { return x.dec }, -2000, 2000)},
		{name: "h", ordered: true, op: builder(NewNullableOrderedField("h", func(b *FixedBuffer, i int) error {
			b.Values = binary.LittleEndian.AppendUint16(b.Values, f16[i].bits)
			return nil
		})),
			val: func(x *frow) any {
				if x.h == nil {
					return nil
				}
				return *x.h
			}, cmp: func(a, b any) (int, bool) { return cmpFloat(f16[a.(int)].v, f16[b.(int)].v) },
			pick: func(r *rand.Rand, rows []frow) any { return r.IntN(len(f16)) }},
		{name: "t96", ordered: true, op: builder(NewNullableOrderedField("t96", func(b *Int96Buffer, v int64) error {
			b.Values = append(b.Values, int96Of([2]int64{v/1e12 + 2440000, v % 1e12}))
			return nil
		})), val: valOf(t96), cmp: cmpOrd[int64], pick: pickFrom(t96, 1e12+2e9, 3e12)},
		{name: "bdec", ordered: true, op: builder(NewNullableOrderedField("bdec", func(b *ByteArrayBuffer, v int64) error { b.Values.Append(decBytes(v)); return nil })),
			val: valOf(func(x *frow) *int64 { return x.bdec }), cmp: cmpOrd[int64], pick: pickFrom(func(x *frow) *int64 { return x.bdec }, 129, -1<<41)},
		{name: "sorted", ordered: true, op: builder(NewNullableOrderedField("sorted", func(b *Int64Buffer, v int64) error { b.Values = append(b.Values, v); return nil })),
			val: func(x *frow) any { return x.sorted }, cmp: cmpOrd[int64], pick: func(r *rand.Rand, rows []frow) any { return int64(r.IntN(len(rows) * 3)) }},
	}
}

// fpred is a random predicate and its brute-force twin.
type fpred struct {
	p     Predicate
	match func(x *frow) bool
}

func randLeaf(r *rand.Rand, cols []fcol, rows []frow) fpred {
	c := cols[r.IntN(len(cols))]
	ops := []predOp{opEq, opNotEq, opIn, opIsNull, opNotNull}
	if c.ordered {
		ops = append(ops, opLt, opLe, opGt, opGe, opBetween, opBetween)
	}
	op := ops[r.IntN(len(ops))]
	var vs []any
	switch op {
	case opIsNull, opNotNull:
	case opIn:
		for range r.IntN(4) {
			vs = append(vs, c.pick(r, rows))
		}
	case opBetween:
		vs = []any{c.pick(r, rows), c.pick(r, rows)}
		if c2, ok := c.cmp(vs[0], vs[1]); ok && c2 > 0 && r.IntN(4) != 0 {
			vs[0], vs[1] = vs[1], vs[0]
		}
	default:
		vs = []any{c.pick(r, rows)}
	}
	m := func(x *frow) bool {
		v := c.val(x)
		return bruteOp(op, v == nil, vs, func(k any) (int, bool) { return c.cmp(v, k) })
	}
	return fpred{p: c.op(op, vs...), match: m}
}

// bruteOp is the test's evaluation of op on one value: null tells whether
// it is null, cmp compares it with a key (ok false when either is NaN).
func bruteOp[K any](op predOp, null bool, keys []K, cmp func(K) (int, bool)) bool {
	switch op {
	case opIsNull:
		return null
	case opNotNull:
		return !null
	}
	if null {
		return false
	}
	switch op {
	case opEq, opIn:
		for _, k := range keys {
			if d, ok := cmp(k); ok && d == 0 {
				return true
			}
		}
		return false
	case opNotEq:
		d, ok := cmp(keys[0])
		return !ok || d != 0
	case opBetween:
		d1, ok1 := cmp(keys[0])
		d2, ok2 := cmp(keys[1])
		return ok1 && ok2 && d1 >= 0 && d2 <= 0
	}
	d, ok := cmp(keys[0])
	if !ok {
		return false
	}
	switch op {
	case opLt:
		return d < 0
	case opLe:
		return d <= 0
	case opGt:
		return d > 0
	}
	return d >= 0
}

func randPred(r *rand.Rand, cols []fcol, rows []frow, depth int) fpred {
	if depth == 0 || r.IntN(3) == 0 {
		return randLeaf(r, cols, rows)
	}
	switch r.IntN(3) {
	case 0:
		q := randPred(r, cols, rows, depth-1)
		return fpred{p: Not(q.p), match: func(x *frow) bool { return !q.match(x) }}
	case 1:
		a, b := randPred(r, cols, rows, depth-1), randPred(r, cols, rows, depth-1)
		return fpred{p: And(a.p, b.p), match: func(x *frow) bool { return a.match(x) && b.match(x) }}
	}
	a, b := randPred(r, cols, rows, depth-1), randPred(r, cols, rows, depth-1)
	return fpred{p: Or(a.p, b.p), match: func(x *frow) bool { return a.match(x) || b.match(x) }}
}

// filteredIdx reads the idx and s columns of the rows of data that p
// selects, checking that the two stay aligned.
func filteredIdx(t testing.TB, data []byte, rows []frow, opts ...ReaderOption) []int64 {
	t.Helper()
	fr, err := NewFileReader(bytes.NewReader(data), int64(len(data)), opts...)
	if err != nil {
		t.Fatal(err)
	}
	idx, err := fr.Int64Reader(0)
	if err != nil {
		t.Fatal(err)
	}
	sr, err := fr.ByteArrayReader(8)
	if err != nil {
		t.Fatal(err)
	}
	var out []int64
	for read := int64(0); ; {
		k, err := fr.Available(read, 37)
		if err != nil {
			t.Fatal(err)
		}
		if k == 0 {
			if _, err := idx.ReadRows(1); err != io.EOF {
				t.Fatalf("after the last selected row: %v, want io.EOF", err)
			}
			return out
		}
		if err := ReadRowsExact(idx, k, "idx"); err != nil {
			t.Fatal(err)
		}
		if err := ReadRowsExact(sr, k, "s"); err != nil {
			t.Fatal(err)
		}
		v := 0
		for i, id := range idx.Values {
			want := rows[id].s
			if (sr.Def[i] == 1) != (want != nil) || want != nil && sr.String(v) != *want {
				t.Fatalf("row %d: column s is not aligned with idx", id)
			}
			if sr.Def[i] == 1 {
				v++
			}
		}
		out = append(out, idx.Values...)
		read += int64(k)
	}
}

func TestFilterRandom(t *testing.T) {
	r := newRand(16)
	rows := randRows(r, 3000)
	cols := filterCols()
	variants := []struct {
		name string
		opts []WriterOption
	}{
		{"pages", []WriterOption{WithPageRowLimit(64), WithRowGroupSize(24 << 10), WithStatsTruncateLength(8),
			WithColumnBloomFilter("i64", 2000, 0.01), WithColumnBloomFilter("s", 100, 0.01), WithColumnBloomFilter("u32", 100, 0.01),
			WithColumnBloomFilter("t96", 100, 0.01), WithColumnBloomFilter("fx", 100, 0.01), WithColumnBloomFilter("f64", 100, 0.01)}},
		{"v2-nodict", []WriterOption{WithPageRowLimit(100), WithDataPageVersion(2), WithDictionary(false), WithRowGroupSize(32 << 10)}},
		{"no-stats", []WriterOption{WithPageRowLimit(64), WithStatistics(false), WithPageIndex(false), WithRowGroupSize(24 << 10)}},
		{"no-index", []WriterOption{WithPageRowLimit(64), WithPageIndex(false)}},
		{"total-order", []WriterOption{WithPageRowLimit(50), WithColumnOrder("f32", meta.IEEE754TotalOrder), WithColumnOrder("f64", meta.IEEE754TotalOrder),
			WithColumnOrder("h", meta.IEEE754TotalOrder)}},
	}
	for _, v := range variants {
		data := writeFilterFile(t, rows, v.opts...)
		f := openBytes(t, data)
		t.Logf("%s: %d row groups, %d bytes", v.name, len(f.Meta.RowGroups), len(data))
		for i := range 150 {
			q := randPred(r, cols, rows, 2)
			var want []int64
			for j := range rows {
				if q.match(&rows[j]) {
					want = append(want, int64(j))
				}
			}
			got := filteredIdx(t, data, rows, WithFilter(q.p))
			if !slices.Equal(got, want) {
				t.Fatalf("%s, predicate %d %s: %d rows, want %d (first %v, want %v)", v.name, i, q.p, len(got), len(want), head(got), head(want))
			}
		}
	}
}

func head(s []int64) []int64 { return s[:min(len(s), 8)] }

// TestFilterPrunes checks that a narrow predicate on a sorted column reads
// a small share of the file's bytes.
func TestFilterPrunes(t *testing.T) {
	rows := randRows(newRand(3), 20000)
	data := writeFilterFile(t, rows, WithPageRowLimit(200), WithRowGroupSize(64<<10), WithColumnBloomFilter("i64", 2000, 0.01))
	cols := filterCols()
	sorted := cols[len(cols)-1]
	cr := &countingReaderAt{r: bytes.NewReader(data)}
	fr, err := NewFileReader(cr, int64(len(data)), WithFilter(sorted.op(opBetween, int64(7000), int64(7100))))
	if err != nil {
		t.Fatal(err)
	}
	idx, _ := fr.Int64Reader(0)
	n, err := fr.Available(0, 1000)
	if err != nil || n != 45 {
		t.Fatalf("Available: %d, %v; want 45 rows", n, err)
	}
	if err := ReadRowsExact(idx, n, "idx"); err != nil {
		t.Fatal(err)
	}
	if idx.Values[0] != 3000 || idx.Values[44] != 3044 {
		t.Fatalf("rows %d..%d, want 3000..3044", idx.Values[0], idx.Values[44])
	}
	if share := float64(cr.n) / float64(len(data)); share > 0.05 {
		t.Fatalf("read %d of %d bytes (%.1f%%)", cr.n, len(data), 100*share)
	}
}

type countingReaderAt struct {
	r     io.ReaderAt
	n     int64
	calls int
}

func (c *countingReaderAt) ReadAt(p []byte, off int64) (int, error) {
	c.n += int64(len(p))
	c.calls++
	return c.r.ReadAt(p, off)
}

func TestFilterErrors(t *testing.T) {
	data := writeFilterFile(t, randRows(newRand(1), 10))
	open := func(p Predicate) error {
		fr, err := NewFileReader(bytes.NewReader(data), int64(len(data)), WithFilter(p))
		if err != nil {
			return err
		}
		_, err = fr.Available(0, 10)
		return err
	}
	i64 := NewNullableOrderedField("i64", func(b *Int64Buffer, v int64) error { b.Values = append(b.Values, v); return nil })
	wrong := NewOrderedField("i32", func(b *Int64Buffer, v int64) error { b.Values = append(b.Values, v); return nil })
	missing := NewOrderedField("nope", func(b *Int64Buffer, v int64) error { b.Values = append(b.Values, v); return nil })
	for _, c := range []struct {
		p    Predicate
		want error
	}{
		{nil, ErrConfig},
		{And(i64.Eq(1), nil), ErrConfig},
		{Not(nil), ErrConfig},
		{Field[int]{}.Eq(1), ErrConfig},
		{wrong.Eq(1), ErrFilter},
		{missing.Eq(1), ErrFilter},
		{NewListField(NewOrderedField("i64", func(b *Int64Buffer, v int64) error { b.Values = append(b.Values, v); return nil })).Any().Eq(1), ErrFilter}, // not a list
		// An INT96 key of other than 12 bytes (a predicate built without
		// Int96Buffer): found by FuzzFilter, it panicked comparing values.
		{&predLeaf{path: "t96", op: opGt, phys: meta.Int96, keys: [][]byte{{1}}, show: []string{"1"}}, ErrFilter},
	} {
		err := open(c.p)
		if !errors.Is(err, c.want) {
			t.Errorf("%v: %v, want %v", c.p, err, c.want)
		}
	}
	if s := And(i64.Between(1, 2), Or(Not(i64.IsNull()), i64.In(3, 4))).String(); s != "and(i64 between [1, 2], or(not(i64 is null), i64 in (3, 4)))" {
		t.Errorf("String: %s", s)
	}
	tags := NewListField(NewOrderedField("tags.list.element", func(b *ByteArrayBuffer, v string) error { b.Values.AppendString(v); return nil }))
	if s := Not(tags.Any().In("a", "b")).String(); s != `not(any tags.list.element in ("a", "b"))` {
		t.Errorf("String: %s", s)
	}
	// A column named "a.b" beside the column b of a group a: a predicate
	// on the path "a.b" could mean either, and filtered the first.
	var buf bytes.Buffer
	fw, err := NewFileWriter(&buf, mustParse(t, `message m { required int64 "a.b"; required group a { required int64 b; } }`))
	if err != nil {
		t.Fatal(err)
	}
	for c := range 2 {
		b, _ := fw.Int64Buffer(c)
		b.Values = append(b.Values, int64(c))
	}
	if err := fw.EndRows(1); err != nil {
		t.Fatal(err)
	}
	if err := fw.Close(); err != nil {
		t.Fatal(err)
	}
	ab := NewOrderedField("a.b", func(b *Int64Buffer, v int64) error { b.Values = append(b.Values, v); return nil })
	fr, err := NewFileReader(bytes.NewReader(buf.Bytes()), int64(buf.Len()), WithFilter(ab.Eq(1)))
	if err == nil {
		_, err = fr.Available(0, 1)
	}
	if !errors.Is(err, ErrFilter) || !strings.Contains(err.Error(), `two columns have the path "a.b"`) {
		t.Errorf("a predicate on an ambiguous path: %v", err)
	}
}

// TestAnyElement: a row matches when one of its slots does; empty and
// null lists (one slot without a value) match nothing.
func TestAnyElement(t *testing.T) {
	p := NewListField(NewOrderedField("l.list.element", func(b *Int32Buffer, v int32) error { b.Values = append(b.Values, v); return nil })).Any().Gt(5)
	m := anyElement(newRowMatcher(p.(*predLeaf), orderInt32))
	// rows: [1 7], [], null, [6], [null 2], [3 4 9]
	cd := &colBatch{maxDef: 3, n: 6, lv: &Levels{
		Def: []uint8{3, 3, 1, 0, 3, 2, 3, 3, 3, 3},
		Rep: []uint8{0, 1, 0, 0, 0, 0, 1, 0, 1, 1},
	}, i32: []int32{1, 7, 6, 2, 3, 4, 9}}
	out := make([]bool, 6)
	m(cd, out)
	if want := []bool{true, false, false, true, false, true}; !slices.Equal(out, want) {
		t.Fatalf("got %v, want %v", out, want)
	}
	cr := &colReader{path: "l", rep: true}
	cr.batch.lv = cd.lv
	if err := cr.checkRows(6); err != nil {
		t.Fatal(err)
	}
	if err := cr.checkRows(5); !errors.Is(err, ErrChunk) {
		t.Fatalf("5 rows: %v", err)
	}
	cr.batch.lv = &Levels{Def: []uint8{3}, Rep: []uint8{1}}
	if err := cr.checkRows(1); !errors.Is(err, ErrChunk) {
		t.Fatalf("a batch starting inside a row: %v", err)
	}
}

func TestRangeSets(t *testing.T) {
	a := []rowRange{{0, 5}, {10, 20}}
	b := []rowRange{{3, 12}, {15, 16}, {19, 30}}
	if got := fmt.Sprint(intersectRanges(a, b)); got != "[{3 5} {10 12} {15 16} {19 20}]" {
		t.Errorf("intersect: %s", got)
	}
	if got := fmt.Sprint(unionRanges(a, b)); got != "[{0 30}]" {
		t.Errorf("union: %s", got)
	}
	if got := fmt.Sprint(complementRanges(a, 25)); got != "[{5 10} {20 25}]" {
		t.Errorf("complement: %s", got)
	}
}

func TestSplits(t *testing.T) {
	rows := randRows(newRand(5), 5000)
	data := writeFilterFile(t, rows, WithRowGroupSize(8<<10))
	f := openBytes(t, data)
	nrg := len(f.Meta.RowGroups)
	if nrg < 8 {
		t.Fatalf("%d row groups", nrg)
	}
	splits := Splits(f, 3)
	if len(splits) != 3 {
		t.Fatalf("%d splits", len(splits))
	}
	var all []int64
	next := 0
	for _, s := range splits {
		for _, rg := range s.RowGroups {
			if rg != next {
				t.Fatalf("split row groups %v do not follow on from %d", s.RowGroups, next)
			}
			next++
		}
		if s.Bytes*5 < int64(len(data)) { // each about a third
			t.Errorf("unbalanced split: %d bytes of %d", s.Bytes, len(data))
		}
		all = append(all, filteredIdx(t, data, rows, WithRowGroups(s.RowGroups...))...)
	}
	if next != nrg || len(all) != 5000 || !slices.IsSorted(all) || all[4999] != 4999 {
		t.Fatalf("the splits cover %d row groups of %d and %d rows", next, nrg, len(all))
	}
	if _, err := NewFileReader(bytes.NewReader(data), int64(len(data)), WithRowGroups(nrg)); !errors.Is(err, ErrConfig) {
		t.Errorf("WithRowGroups(out of range): %v", err)
	}
}

// TestFilterFloatEdges: pages whose bounds leave out NaN, hold only -0.0
// or only +0.0, and the same under IEEE 754 total order.
func TestFilterFloatEdges(t *testing.T) {
	nz := math.Copysign(0, -1)
	vals := []float64{1, math.NaN(), 1, 1, nz, nz, 0, 0, math.NaN(), math.NaN(), 2, nz}
	rows := make([]frow, len(vals))
	for i, v := range vals {
		rows[i] = frow{idx: int64(i), f64: ptr(v), f32: ptr(float32(v))}
	}
	cols := filterCols()
	f32, f64 := cols[4], cols[5]
	for _, order := range []meta.ColumnOrderKind{meta.TypeDefinedOrder, meta.IEEE754TotalOrder} {
		data := writeFilterFile(t, rows, WithPageRowLimit(2), WithColumnOrder("f32", order), WithColumnOrder("f64", order))
		for _, c := range []struct {
			op   predOp
			v    float64
			want []int64
		}{
			{opNotEq, 1, []int64{1, 4, 5, 6, 7, 8, 9, 10, 11}},
			{opEq, 0, []int64{4, 5, 6, 7, 11}},
			{opEq, nz, []int64{4, 5, 6, 7, 11}},
			{opLt, 0, nil},
			{opGe, nz, []int64{0, 2, 3, 4, 5, 6, 7, 10, 11}},
			{opEq, math.NaN(), nil},
			{opNotEq, math.NaN(), []int64{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}},
			{opGt, 1, []int64{10}},
		} {
			for _, col := range []fcol{f32, f64} {
				got := filteredIdx(t, data, rows, WithFilter(col.op(c.op, c.v)))
				if !slices.Equal(got, c.want) {
					t.Errorf("%v: %s %s %v: %v, want %v", order, col.name, opNames[c.op], c.v, got, c.want)
				}
				got = filteredIdx(t, data, rows, WithFilter(Not(col.op(c.op, c.v))))
				var not []int64
				for i := range vals {
					if !slices.Contains(c.want, int64(i)) {
						not = append(not, int64(i))
					}
				}
				if !slices.Equal(got, not) {
					t.Errorf("%v: not(%s %s %v): %v, want %v", order, col.name, opNames[c.op], c.v, got, not)
				}
			}
		}
	}
}

// TestFilterConcurrentColumns reads two columns of a filtered reader from
// two goroutines (run with -race).
func TestFilterConcurrentColumns(t *testing.T) {
	rows := randRows(newRand(8), 4000)
	data := writeFilterFile(t, rows, WithPageRowLimit(64), WithRowGroupSize(16<<10))
	sorted := filterCols()[len(filterCols())-1]
	fr, err := NewFileReader(bytes.NewReader(data), int64(len(data)), WithFilter(Or(sorted.op(opLt, int64(700)), sorted.op(opGe, int64(9000)))))
	if err != nil {
		t.Fatal(err)
	}
	a, _ := fr.Int64Reader(0)
	b, _ := fr.Int64Reader(14)
	var got [2][]int64
	done := make(chan error, 2)
	for i, c := range []*Int64Reader{a, b} {
		go func() {
			for {
				_, err := c.ReadRows(50)
				if err == io.EOF {
					done <- nil
					return
				}
				if err != nil {
					done <- err
					return
				}
				got[i] = append(got[i], c.Values...)
			}
		}()
	}
	for range 2 {
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
	var want [2][]int64
	for _, x := range rows {
		if x.sorted < 700 || x.sorted >= 9000 {
			want[0] = append(want[0], x.idx)
			want[1] = append(want[1], x.sorted)
		}
	}
	if !slices.Equal(got[0], want[0]) || !slices.Equal(got[1], want[1]) {
		t.Fatalf("got %d and %d rows, want %d", len(got[0]), len(got[1]), len(want[0]))
	}
}

// TestFilterAdapted: a predicate in the bound schema's encoding (micros)
// on a file storing the column in another unit (millis) compares the
// converted values; the file's statistics, in millis, are not used.
func TestFilterAdapted(t *testing.T) {
	var buf bytes.Buffer
	w, err := NewFileWriter(&buf, mustSchema(t, "message m { required int64 t (TIMESTAMP(MILLIS,true)); optional int32 d (DECIMAL(9,2)); }"), WithPageRowLimit(10))
	if err != nil {
		t.Fatal(err)
	}
	c0, _ := w.Int64Buffer(0)
	c1, _ := w.Int32Buffer(1)
	for i := range 100 {
		c0.Values = append(c0.Values, int64(i))
		if i%3 == 0 {
			c1.Def = append(c1.Def, 0)
		} else {
			c1.Def = append(c1.Def, 1)
			c1.Values = append(c1.Values, int32(i-50))
		}
	}
	data := endRows(t, w, 100, &buf)
	want := mustSchema(t, "message m { required int64 t (TIMESTAMP(MICROS,true)); optional int64 d (DECIMAL(18,2)); }")
	tf := NewOrderedField("t", func(b *Int64Buffer, v int64) error { b.Values = append(b.Values, v); return nil })
	df := NewNullableOrderedField("d", func(b *Int64Buffer, v int64) error { b.Values = append(b.Values, v); return nil })
	for _, c := range []struct {
		p    Predicate
		want []int64
	}{
		{tf.Between(20_000, 24_000), []int64{20, 21, 22, 23, 24}},
		{tf.Eq(20), nil}, // 20 µs is no whole millisecond of the file
		{And(df.Lt(-45), tf.Lt(10_000)), []int64{1, 2, 4}},
		{df.IsNull(), []int64{0, 3, 6, 9, 12, 15, 18, 21, 24, 27, 30, 33, 36, 39, 42, 45, 48, 51, 54, 57, 60, 63, 66, 69, 72, 75, 78, 81, 84, 87, 90, 93, 96, 99}},
	} {
		fr, err := NewFileReader(bytes.NewReader(data), int64(len(data)), WithFilter(c.p))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := fr.Bind(want); err != nil {
			t.Fatal(err)
		}
		tr, err := fr.Int64Reader(0)
		if err != nil {
			t.Fatal(err)
		}
		var got []int64
		for {
			k, err := fr.Available(int64(len(got)), 7)
			if err != nil {
				t.Fatal(err)
			}
			if k == 0 {
				break
			}
			if err := ReadRowsExact(tr, k, "t"); err != nil {
				t.Fatal(err)
			}
			for _, v := range tr.Values {
				got = append(got, v/1000)
			}
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: %v, want %v", c.p, got, c.want)
		}
	}
}

// TestFilterUntrustedBounds: the bounds of chunks whose writer is known to
// have computed them wrongly (StatisticsTrusted: binary columns of
// parquet-mr before 1.8) prune nothing, while the same file under a
// current created_by uses them.
func TestFilterUntrustedBounds(t *testing.T) {
	rows := randRows(rand.New(rand.NewPCG(3, 4)), 300)
	col := -1
	for created, want := range map[string]bool{"parquet-mr version 1.7.0 (build abc)": false, "parquet-mr version 1.12.3 (build abc)": true} {
		data := writeFilterFile(t, rows, WithCreatedBy(created))
		r, err := NewFileReader(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			t.Fatal(err)
		}
		if col < 0 {
			col = r.File().Schema.Leaf("s").Column
		}
		leaf := r.File().Schema.Leaves[col]
		if got := r.chunkBounds(0, col, columnOrderKind(leaf)).hasMinMax; got != want {
			t.Errorf("%s: bounds used %v, want %v", created, got, want)
		}
	}
}

// TestFilterListLegacy: an element predicate binds to the element column
// of a file's legacy two-level list, and matches the rows where some
// element satisfies it.
func TestFilterListLegacy(t *testing.T) {
	var buf bytes.Buffer
	w, err := NewFileWriter(&buf, mustSchema(t, "message m { optional group tags (LIST) { repeated binary array (STRING); } }"), WithPageRowLimit(4))
	if err != nil {
		t.Fatal(err)
	}
	c, _ := w.ByteArrayBuffer(0)
	// rows: null, [], [a], [b c], [c], [a b a], null, [d]
	for _, row := range [][]string{nil, {}, {"a"}, {"b", "c"}, {"c"}, {"a", "b", "a"}, nil, {"d"}} {
		switch {
		case row == nil:
			c.Def, c.Rep = append(c.Def, 0), append(c.Rep, 0)
		case len(row) == 0:
			c.Def, c.Rep = append(c.Def, 1), append(c.Rep, 0)
		}
		for i, v := range row {
			c.Def, c.Rep = append(c.Def, 2), append(c.Rep, uint8(min(i, 1)))
			c.Values.AppendString(v)
		}
	}
	data := endRows(t, w, 8, &buf)
	want := mustSchema(t, "message m { optional group tags (LIST) { repeated group list { required binary element (STRING); } } }")
	tags := NewListField(NewOrderedField("tags.list.element", func(b *ByteArrayBuffer, v string) error { b.Values.AppendString(v); return nil }))
	for _, c := range []struct {
		p    Predicate
		want []int64
	}{
		{tags.Any().Eq("a"), []int64{2, 5}},
		{tags.Any().Ge("c"), []int64{3, 4, 7}},
		{tags.Any().In("b", "d"), []int64{3, 5, 7}},
		{Not(tags.Any().Lt("c")), []int64{0, 1, 4, 6, 7}},
		{tags.Any().Eq("z"), nil},
	} {
		fr, err := NewFileReader(bytes.NewReader(data), int64(len(data)), WithFilter(c.p))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := fr.Bind(want); err != nil {
			t.Fatal(err)
		}
		var got []int64
		if _, err := fr.Available(0, 8); err != nil {
			t.Fatal(err)
		}
		for _, rg := range fr.RowGroups() {
			rr, ok := fr.ranges[rg]
			if !ok {
				rr = []rowRange{{0, fr.f.Meta.RowGroups[rg].NumRows}}
			}
			for _, x := range rr {
				for i := x.start; i < x.end; i++ {
					got = append(got, i)
				}
			}
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: rows %v, want %v", c.p, got, c.want)
		}
	}
}

// endRows ends the n buffered rows of w, closes it and returns the file
// it wrote to buf.
func endRows(t testing.TB, w *FileWriter, n int, buf *bytes.Buffer) []byte {
	t.Helper()
	if err := w.EndRows(n); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}
