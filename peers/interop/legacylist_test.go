package interop

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
)

// legacyListSchema has the two-level lists whose repeated group of one
// field is the element itself (rule 4 of the LIST backward-compatibility
// rules): parquet-avro's "array" (the layout of its old list structure,
// for lists of records) and parquet-thrift's "<list>_tuple".
const legacyListSchema = `message m {
  optional group a (LIST) { repeated group array { optional int32 v; } }
  optional group t (LIST) { repeated group t_tuple { required binary s (STRING); } }
}`

// writeLegacyListFile writes rows null, [], [{v: 1}, {v: null}] / [{s: x}]
// and [{v: 2}] / [{s: y}, {s: ""}] of legacyListSchema and returns the
// file and its canonical rows, elements as groups.
func writeLegacyListFile(t *testing.T) ([]byte, [][]any) {
	t.Helper()
	w, buf := newWriter(t, legacyListSchema)
	a, err := w.Int32Buffer(0)
	if err != nil {
		t.Fatal(err)
	}
	s, err := w.ByteArrayBuffer(1)
	if err != nil {
		t.Fatal(err)
	}
	a.Def, a.Rep, a.Values = []uint8{0, 1, 3, 2, 3}, []uint8{0, 0, 0, 1, 0}, []int32{1, 2}
	s.Def, s.Rep = []uint8{0, 1, 2, 2, 2}, []uint8{0, 0, 0, 0, 1}
	for _, v := range []string{"x", "y", ""} {
		s.Values.AppendString(v)
	}
	if err := w.EndRows(4); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	v := func(x any) *structV { return &structV{[]string{"v"}, []any{x}} }
	str := func(x string) *structV { return &structV{[]string{"s"}, []any{x}} }
	return buf.Bytes(), [][]any{
		{nil, nil},
		{[]any{}, []any{}},
		{[]any{v(intV("1")), v(nil)}, []any{str("x")}},
		{[]any{v(intV("2"))}, []any{str("y"), str("")}},
	}
}

// TestLegacyListElements: arrow-go and parquet-wasm (arrow-rs) read the
// repeated groups of legacyListSchema as the lists' elements, groups of one
// field, as pqgen's generator types them (gen: []TA with TA{V *int32}) and
// its reader binds them (golden's TestLegacyRoundTrip reads such a file
// through generated code). DuckDB 1.5 and hyparquet 1.31 do not apply the
// rule: they read the group's one field as the element, a documented
// exception checked here so that it fails once they do.
func TestLegacyListElements(t *testing.T) {
	data, want := writeLegacyListFile(t)
	// arrow-go: the Arrow type of each list.
	pf, err := file.NewParquetReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	defer pf.Close()
	ar, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{}, memory.DefaultAllocator)
	if err != nil {
		t.Fatal(err)
	}
	sc, err := ar.Schema()
	if err != nil {
		t.Fatal(err)
	}
	for i, w := range []string{"list<array: struct<v: int32 nullable>, nullable>", "list<t_tuple: struct<s: utf8>, nullable>"} {
		if got := sc.Field(i).Type.String(); got != w {
			t.Errorf("arrow-go: field %s is %s, want %s", sc.Field(i).Name, got, w)
		}
	}
	tbl, err := ar.ReadTable(context.Background())
	if err != nil {
		t.Fatalf("arrow-go: %v", err)
	}
	if tbl.NumRows() != 4 {
		t.Errorf("arrow-go: %d rows", tbl.NumRows())
	}
	tbl.Release()
	// Our own reader with the file's schema, as generated code reads it.
	r := openOwn(t, data)
	if _, err := r.Bind(r.File().Schema); err != nil {
		t.Fatalf("pqgen: binding the file's own schema: %v", err)
	}
	needNode(t)
	path := filepath.Join(t.TempDir(), "legacy_lists.parquet")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	names := []string{"a", "t"}
	out := runJS(t, "read.mjs", "wasm", path)
	compareRows(t, "wasm", "legacy_lists.parquet", out[path], want, names, cmpOpts{used: &relaxed{}})
	// DuckDB and hyparquet: the group's field as the element.
	flat := [][]any{
		{nil, nil},
		{[]any{}, []any{}},
		{[]any{intV("1"), nil}, []any{"x"}},
		{[]any{intV("2")}, []any{"y", ""}},
	}
	for _, reader := range []string{"duckdb", "hyparquet"} {
		out := runJS(t, "read.mjs", reader, path)
		compareRows(t, reader, "legacy_lists.parquet (exception: the group's field as the element)", out[path], flat, names, cmpOpts{used: &relaxed{}})
	}
	if reflect.DeepEqual(want, flat) {
		t.Fatal("the two readings must differ")
	}
}
