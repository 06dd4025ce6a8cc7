package golden

import "testing"

// TestLegacyRoundTrip generates the code of testdata/schema/legacy.schema
// (every backward-compatible LIST and MAP layout, as older parquet-java,
// parquet-avro and parquet-thrift wrote them) and runs a test of it: rows
// with null, empty and filled lists and maps of each layout written by
// the generated writer read back through the generated reader as exactly
// the rows written. The reader binds the type's schema to the file's, so
// this is the path of code generated from such a file (-from) reading it.
func TestLegacyRoundTrip(t *testing.T) {
	runSchemaTest(t, "legacy.schema", "legacyroundtrip", legacyRoundTripCode, modernSchema)
}

// modernSchema is legacy.schema in the modern layouts: three-level LISTs of
// required elements, MAPs with key_value groups (a MAP of keys alone, a
// list of key groups in Go, stays a MAP). Its Go type (Modern) has
// the fields and values of Legacy, under other element type names, so the
// two read the same rows as the same JSON.
const modernSchema = `message modern {
  optional group std (LIST) { repeated group list { optional binary element (STRING); } }
  optional group r1 (LIST) { repeated group list { required int32 element; } }
  optional group r2 (LIST) { repeated group list { required group element { required binary str (UTF8); required int32 num; } } }
  optional group r3 (LIST) { repeated group list { required group element { required group num (LIST) { repeated group list { required int32 element; } } } } }
  optional group r4a (LIST) { repeated group list { required group element { required binary str (UTF8); } } }
  optional group r4t (LIST) { repeated group list { required group element { required binary str (UTF8); } } }
  optional group r5 (LIST) { repeated group list { required binary element (UTF8); } }
  optional group nested (LIST) { repeated group list { required group element (LIST) { repeated group list { required int32 element; } } } }
  required group bare (LIST) { repeated group list { required int32 element; } }
  required group bare_group (LIST) { repeated group list { required group element { required int64 a; optional binary b; } } }
  optional group mkv (MAP) { repeated group key_value { required binary key (UTF8); optional int32 value; } }
  required group m2 (MAP) { repeated group key_value { required binary key (UTF8); required int64 value; } }
  optional group keys (MAP) { repeated group key_value { required int32 key; } }
}`

const legacyRoundTripCode = `package legacyroundtrip

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"reflect"
	"testing"

	pqrt "github.com/pqgen/pqgen/runtime"
)

func TestRoundTrip(t *testing.T) {
	s := func(x string) *string { return &x }
	i := func(x int32) *int32 { return &x }
	// Lists and maps that cannot be null (m2, the inner lists of nested,
	// bare fields) read back nil when empty.
	rows := []Legacy{
		{},
		{Std: []*string{}, R1: []int32{}, R2: []LegacyR2{}, R3: []LegacyR3{}, R4a: []LegacyR4a{}, R4t: []LegacyR4t{},
			R5: []string{}, Nested: [][]int32{}, Mkv: map[string]*int32{}, M2: map[string]int64{"a": 1}, Keys: []LegacyKey{}},
		{Std: []*string{s("x"), nil, s("")}, R1: []int32{1, -2}, R2: []LegacyR2{{Str: "p", Num: 3}, {Str: "", Num: 0}},
			R3: []LegacyR3{{}, {Num: []int32{4, 5}}, {Num: []int32{6}}}, R4a: []LegacyR4a{{Str: "avro"}, {Str: ""}},
			R4t: []LegacyR4t{{Str: "thrift"}}, R5: []string{"five", "5"}, Nested: [][]int32{nil, {7, 8}, {9}},
			Bare: []int32{10, 11}, BareGroup: []LegacyBareGroup{{A: 12, B: []byte("b")}, {A: 13}},
			Mkv: map[string]*int32{"k": i(14), "n": nil}, M2: map[string]int64{"x": 15, "y": 16}, Keys: []LegacyKey{{Key: 17}}},
		{R4a: []LegacyR4a{{Str: "one"}}, R4t: []LegacyR4t{{Str: "a"}, {Str: "b"}, {Str: "c"}}},
	}
	var buf bytes.Buffer
	w, err := NewLegacyWriter(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write(rows); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	// The file keeps the legacy layout (the names of the repeated groups).
	f, err := pqrt.OpenFile(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		t.Fatal(err)
	}
	for k, want := range map[int]string{4: "r3.element.num", 5: "r4a.array.str", 6: "r4t.r4t_tuple.str"} {
		if got := f.Schema.Leaves[k].PathString(); got != want {
			t.Errorf("leaf %d: %s, want %s", k, got, want)
		}
	}
	r, err := NewLegacyReader(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		t.Fatal(err)
	}
	got := make([]Legacy, len(rows)+1)
	if n, err := r.Read(got); n != len(rows) {
		t.Fatalf("read %d rows: %v", n, err)
	}
	got = got[:len(rows)]
	// Predicates on the elements of each layout keep the rows holding a
	// matching element, read whole (as the unfiltered read gives them,
	// itself compared with the rows written below).
	for _, c := range []struct {
		name string
		p    pqrt.Predicate
		rows []int
	}{
		{"array group", LegacyWhere.R4a.Any().Str.Eq("avro"), []int{2}},
		{"tuple group", LegacyWhere.R4t.Any().Str.In("a", "thrift"), []int{2, 3}},
		{"repeated primitive", LegacyWhere.R1.Any().Lt(0), []int{2}},
		{"several fields", pqrt.SameElement(pqrt.And(LegacyWhere.R2.Any().Str.Eq(""), LegacyWhere.R2.Any().Num.Eq(0))), []int{2}},
		{"one repeated field", LegacyWhere.R3.Any().Num.Any().Eq(6), []int{2}},
		{"nested two-level", LegacyWhere.Nested.Any().Any().Ge(8), []int{2}},
		{"MAP_KEY_VALUE", LegacyWhere.Mkv.AnyKey().Eq("k"), []int{2}},
		{"bare group", LegacyWhere.BareGroup.Any().A.Eq(13), []int{2}},
	} {
		fr, err := NewLegacyReader(bytes.NewReader(buf.Bytes()), int64(buf.Len()), pqrt.WithFilter(c.p))
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		kept := make([]Legacy, len(rows)+1)
		n, err := fr.Read(kept)
		if err != nil && !errors.Is(err, io.EOF) {
			t.Fatalf("%s: %v", c.name, err)
		}
		if n != len(c.rows) {
			t.Errorf("%s: kept %d rows, want %d", c.name, n, len(c.rows))
			continue
		}
		for j, k := range c.rows {
			if !reflect.DeepEqual(kept[j], got[k]) {
				t.Errorf("%s: row %d kept is not row %d", c.name, j, k)
			}
		}
	}
	// The same file read through the modern layouts (code generated for
	// today's structs reading files of older writers): the same rows.
	mr, err := NewModernReader(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		t.Fatalf("modern type: %v", err)
	}
	modern := make([]Modern, len(rows)+1)
	if n, err := mr.Read(modern); n != len(rows) {
		t.Fatalf("modern type: read %d rows: %v", n, err)
	}
	for k := range rows {
		lj, err1 := json.Marshal(got[k])
		mj, err2 := json.Marshal(modern[k])
		if err1 != nil || err2 != nil || string(lj) != string(mj) {
			t.Errorf("row %d through the modern type:\n got %s\nwant %s (%v %v)", k, mj, lj, err1, err2)
		}
	}
	for k := range rows {
		g, w := reflect.ValueOf(got[k]), reflect.ValueOf(rows[k])
		for j := range g.NumField() {
			if !reflect.DeepEqual(g.Field(j).Interface(), w.Field(j).Interface()) {
				t.Errorf("row %d, %s: got %#v, want %#v", k, g.Type().Field(j).Name, g.Field(j).Interface(), w.Field(j).Interface())
			}
		}
	}
}
`
