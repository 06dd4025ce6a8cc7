package geninterop

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/google/go-cmp/cmp"

	"github.com/pqgen/pqgen/examples/evolution"
	"github.com/pqgen/pqgen/runtime"
)

// arrowWrite writes one record batch of schema sc, filled by fill, with
// arrow-go's pqarrow writer.
func arrowWrite(t *testing.T, sc *arrow.Schema, fill func(rb *array.RecordBuilder)) []byte {
	t.Helper()
	rb := array.NewRecordBuilder(memory.DefaultAllocator, sc)
	defer rb.Release()
	fill(rb)
	rec := rb.NewRecordBatch()
	defer rec.Release()
	var buf bytes.Buffer
	w, err := pqarrow.NewFileWriter(sc, &buf, nil, pqarrow.DefaultWriterProps())
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(rec); err != nil {
		t.Fatalf("arrow-go: %v", err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// readAllRows reads every row of a generated reader through
// runtime.AllRows (the generated All) and closes it.
func readAllRows[T any](t *testing.T, r interface {
	runtime.RowReader[T]
	Close() error
}) []T {
	t.Helper()
	var out []T
	for row, err := range runtime.AllRows[T](r) {
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, row)
	}
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestArrowFilesIntoEvolvedTypes: files written by arrow-go read into
// the widened types of examples/evolution by the schema evolution rules:
// int8/int16/int32 and float32 widened, millisecond timestamps into
// microseconds, a field of a list element dropped and one added, a struct
// made nullable, map keys and values widened; arrow's nullable columns
// into required fields only with WithOptionalAsRequired.
func TestArrowFilesIntoEvolvedTypes(t *testing.T) {
	const rows = 700
	utcMs := &arrow.TimestampType{Unit: arrow.Millisecond, TimeZone: "UTC"}
	inner := arrow.StructOf(
		arrow.Field{Name: "d", Type: arrow.PrimitiveTypes.Int16},
		arrow.Field{Name: "xs", Type: arrow.ListOfNonNullable(arrow.PrimitiveTypes.Int8)},
	)
	item := arrow.StructOf(
		arrow.Field{Name: "a", Type: arrow.PrimitiveTypes.Int32},
		arrow.Field{Name: "b", Type: arrow.PrimitiveTypes.Float32},
		arrow.Field{Name: "t", Type: utcMs},
		arrow.Field{Name: "x", Type: arrow.BinaryTypes.String},
	)
	m := arrow.MapOf(arrow.PrimitiveTypes.Int16, arrow.PrimitiveTypes.Int32)
	m.SetItemNullable(false)
	sc := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int32},
		{Name: "items", Type: arrow.ListOfNonNullable(item)},
		{Name: "opt", Type: inner, Nullable: true},
		{Name: "inner", Type: inner},
		{Name: "m", Type: m},
		{Name: "ms", Type: arrow.MapOf(arrow.BinaryTypes.String, arrow.PrimitiveTypes.Int32)},
	}, nil)
	var want []evolution.NestedV2
	fillInner := func(b *array.StructBuilder, d int16, xs []int8) *evolution.InnerV2 {
		b.Append(true)
		b.FieldBuilder(0).(*array.Int16Builder).Append(d)
		lb := b.FieldBuilder(1).(*array.ListBuilder)
		lb.Append(true)
		d32 := int32(d)
		out := &evolution.InnerV2{D: &d32}
		for _, x := range xs {
			lb.ValueBuilder().(*array.Int8Builder).Append(x)
			x64 := int64(x)
			out.Xs = append(out.Xs, &x64)
		}
		return out
	}
	data := arrowWrite(t, sc, func(rb *array.RecordBuilder) {
		for i := range rows {
			w := evolution.NestedV2{ID: int64(i*7 - 1000)}
			rb.Field(0).(*array.Int32Builder).Append(int32(i*7 - 1000))
			lb := rb.Field(1).(*array.ListBuilder)
			lb.Append(true)
			sb := lb.ValueBuilder().(*array.StructBuilder)
			for k := range i % 3 {
				ms := int64(i*100000+k) * 1001
				sb.Append(true)
				sb.FieldBuilder(0).(*array.Int32Builder).Append(int32(i*10 + k))
				sb.FieldBuilder(1).(*array.Float32Builder).Append(float32(k) / 4)
				sb.FieldBuilder(2).(*array.TimestampBuilder).Append(arrow.Timestamp(ms))
				sb.FieldBuilder(3).(*array.StringBuilder).Append("dropped")
				w.Items = append(w.Items, evolution.ItemV2{A: int64(i*10 + k), B: float64(k) / 4, T: time.UnixMilli(ms).UTC()})
			}
			ob := rb.Field(2).(*array.StructBuilder)
			if i%3 == 0 {
				ob.AppendNull()
			} else {
				w.Opt = fillInner(ob, int16(-i%100), []int8{int8(i % 128)})
			}
			w.Inner = fillInner(rb.Field(3).(*array.StructBuilder), int16(i%300), []int8{-5, int8(i % 100)}[:i%3%2*2])
			mb := rb.Field(4).(*array.MapBuilder)
			mb.Append(true)
			msb := rb.Field(5).(*array.MapBuilder)
			msb.Append(true)
			for k := range i % 4 {
				mb.KeyBuilder().(*array.Int16Builder).Append(int16(k - 1))
				mb.ItemBuilder().(*array.Int32Builder).Append(int32(i * k))
				msb.KeyBuilder().(*array.StringBuilder).Append(strings.Repeat("k", k))
				msb.ItemBuilder().(*array.Int32Builder).Append(int32(k))
				if w.M == nil {
					w.M, w.MS = map[int64]int64{}, map[string]*int64{}
				}
				w.M[int64(k-1)] = int64(i * k)
				v := int64(k)
				w.MS[strings.Repeat("k", k)] = &v
			}
			want = append(want, w)
		}
	})
	r, err := evolution.NewNestedV2Reader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	got := readAllRows[evolution.NestedV2](t, r)
	if d := cmp.Diff(want, got); d != "" {
		t.Fatalf("arrow-go's nested file read as NestedV2 (-want +got):\n%s", d)
	}

	// Flat, nullable (as arrow-go writes by default): refused into
	// required fields without the option, read with it.
	fsc := arrow.NewSchema([]arrow.Field{
		{Name: "a", Type: arrow.PrimitiveTypes.Int32, Nullable: true}, {Name: "b", Type: arrow.PrimitiveTypes.Int16, Nullable: true},
		{Name: "c", Type: arrow.PrimitiveTypes.Int8, Nullable: true}, {Name: "d", Type: arrow.PrimitiveTypes.Uint16, Nullable: true},
		{Name: "f", Type: arrow.PrimitiveTypes.Float32, Nullable: true}, {Name: "g", Type: arrow.PrimitiveTypes.Float32, Nullable: true},
		{Name: "t", Type: utcMs, Nullable: true}, {Name: "extra", Type: arrow.BinaryTypes.String, Nullable: true},
	}, nil)
	var wantFlat []evolution.BenchWide
	data = arrowWrite(t, fsc, func(rb *array.RecordBuilder) {
		for i := range rows {
			rb.Field(0).(*array.Int32Builder).Append(int32(-i * 99991))
			rb.Field(1).(*array.Int16Builder).Append(int16(i * 77))
			rb.Field(2).(*array.Int8Builder).Append(int8(i))
			rb.Field(3).(*array.Uint16Builder).Append(uint16(i * 1000))
			rb.Field(4).(*array.Float32Builder).Append(float32(i) / 3)
			rb.Field(5).(*array.Float32Builder).Append(-float32(i))
			rb.Field(6).(*array.TimestampBuilder).Append(arrow.Timestamp(int64(i) * 86400123))
			rb.Field(7).(*array.StringBuilder).Append("extra")
			wantFlat = append(wantFlat, evolution.BenchWide{A: int64(-i * 99991), B: int64(int16(i * 77)), C: int64(int8(i)), D: int64(uint16(i * 1000)),
				F: float64(float32(i) / 3), G: -float64(i), T: time.UnixMilli(int64(i) * 86400123).UTC()})
		}
	})
	if _, err := evolution.NewBenchWideReader(bytes.NewReader(data), int64(len(data))); !errors.Is(err, runtime.ErrBind) ||
		!strings.Contains(err.Error(), `field "a" is optional in the file, required requested`) {
		t.Fatalf("arrow-go's nullable columns into required fields without the option: %v", err)
	}
	fr, err := evolution.NewBenchWideReader(bytes.NewReader(data), int64(len(data)), runtime.WithOptionalAsRequired(true))
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(wantFlat, readAllRows[evolution.BenchWide](t, fr)); d != "" {
		t.Fatalf("arrow-go's flat file read as BenchWide (-want +got):\n%s", d)
	}
}

// nestedPair returns row i as NestedV1 and as the NestedV2 it reads as.
func nestedPair(i int) (evolution.NestedV1, evolution.NestedV2) {
	v1 := evolution.NestedV1{ID: int32(i*13 - 500), Inner: evolution.InnerV1{D: int16(i % 300), Xs: []int8{int8(i % 100), -128}[:i%3%2*2]},
		M: map[int16]int32{}, MS: map[string]int32{}}
	d := int32(v1.Inner.D)
	v2 := evolution.NestedV2{ID: int64(v1.ID), Inner: &evolution.InnerV2{D: &d}}
	for _, x := range v1.Inner.Xs {
		x64 := int64(x)
		v2.Inner.Xs = append(v2.Inner.Xs, &x64)
	}
	for k := range i % 3 {
		ms := int64(i*1000+k) * 86401
		v1.Items = append(v1.Items, evolution.ItemV1{A: int32(-i - k), B: float32(i) / 8, T: time.UnixMilli(ms).UTC(), X: "x"})
		v2.Items = append(v2.Items, evolution.ItemV2{A: int64(-i - k), B: float64(float32(i) / 8), T: time.UnixMilli(ms).UTC()})
		v1.M[int16(k*100-7)] = int32(i * 1000 * k)
		v1.MS[strings.Repeat("s", k+1)] = int32(-k)
		if v2.M == nil {
			v2.M, v2.MS = map[int64]int64{}, map[string]*int64{}
		}
		v2.M[int64(k*100-7)] = int64(i * 1000 * k)
		val := int64(-k)
		v2.MS[strings.Repeat("s", k+1)] = &val
	}
	if i%4 == 1 {
		v1.Opt = &evolution.InnerV1{D: int16(-i), Xs: []int8{7}}
		d, x := int32(-i), int64(7)
		v2.Opt = &evolution.InnerV2{D: &d, Xs: []*int64{&x}}
	}
	return v1, v2
}

// TestDuckDBFilesIntoEvolvedTypes: DuckDB rewrites a NestedV1 file
// (every column nullable, timestamps in microseconds, its own list and
// map layout); the file reads into NestedV2 under the schema evolution
// rules with WithOptionalAsRequired (without it, it is refused at open).
func TestDuckDBFilesIntoEvolvedTypes(t *testing.T) {
	const rows = 500
	var v1 []evolution.NestedV1
	var want []evolution.NestedV2
	for i := range rows {
		a, b := nestedPair(i)
		v1, want = append(v1, a), append(want, b)
	}
	dir := t.TempDir()
	src, dst := filepath.Join(dir, "v1.parquet"), filepath.Join(dir, "v1_duckdb.parquet")
	var buf bytes.Buffer
	w, err := evolution.NewNestedV1Writer(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write(v1); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(src, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	res := runJS(t, "write", "duckdb", []map[string]any{{"src": src, "dst": dst}})
	if r := res[dst]; r == nil || r.err != "" {
		t.Fatalf("DuckDB: %+v", r)
	}
	data, err := os.ReadFile(dst)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := evolution.NewNestedV2Reader(bytes.NewReader(data), int64(len(data))); !errors.Is(err, runtime.ErrBind) ||
		!strings.Contains(err.Error(), "is optional in the file, required requested") {
		t.Fatalf("DuckDB's nullable columns into required fields without the option: %v", err)
	}
	r, err := evolution.NewNestedV2Reader(bytes.NewReader(data), int64(len(data)), runtime.WithOptionalAsRequired(true))
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(want, readAllRows[evolution.NestedV2](t, r)); d != "" {
		t.Fatalf("DuckDB's rewrite read as NestedV2 (-want +got):\n%s", d)
	}
}
