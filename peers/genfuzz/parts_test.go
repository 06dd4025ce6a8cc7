package genfuzz

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/pqgen/pqgen/runtime/schema"
)

// TestRandomSchema checks that schemas are a function of the seed, that
// they parse, and that a few hundred seeds reach every shape and type the
// generator is meant to cover.
func TestRandomSchema(t *testing.T) {
	if a, b := RandomSchema(7), RandomSchema(7); a != b {
		t.Fatalf("seed 7 gives two schemas:\n%s\n%s", a, b)
	}
	if RandomSchema(7) == RandomSchema(8) {
		t.Fatal("seeds 7 and 8 give the same schema")
	}
	want := []string{
		"boolean", "int32", "int64", "int96", "float", "double", "binary", "fixed_len_byte_array(",
		"(STRING)", "(UTF8)", "(ENUM)", "(JSON)", "(BSON)", "(UUID)", "(FLOAT16)", "(INTERVAL)", "(DATE)",
		"(DECIMAL(", "int32 element (DECIMAL(", "(TIME(MILLIS,", "(TIME(MICROS,", "(TIME(NANOS,", "(TIME_MILLIS)",
		"(TIMESTAMP(MILLIS,true", "(TIMESTAMP(MICROS,false", "(TIMESTAMP(NANOS,", "(TIMESTAMP_MICROS)",
		"(INT(8,false))", "(INT(16,true))", "(INT(64,false))", "(UINT_32)", "(INT_8)",
		"optional group", "required group", "repeated group", "(LIST)", "(MAP)", "repeated int",
		"optional group element", "required group value", "group element (LIST)", "group value (MAP)",
		`"a b"`, "type", `"f\"q"`, "key_value", `"名前"`, ") = ", "(LIST) = ",
	}
	seen := map[string]bool{}
	maxDepth := 0
	for seed := range uint64(400) {
		text := RandomSchema(seed)
		s, err := schema.Parse(text)
		if err != nil {
			t.Fatalf("seed %d: %v\n%s", seed, err, text)
		}
		for _, w := range want {
			if strings.Contains(text, w) {
				seen[w] = true
			}
		}
		for _, l := range s.Leaves {
			maxDepth = max(maxDepth, len(l.Path))
		}
	}
	for _, w := range want {
		if !seen[w] {
			t.Errorf("no schema of 400 has %q", w)
		}
	}
	// Four nested LIST or MAP groups of three levels each, plus the leaf.
	if maxDepth < 9 {
		t.Errorf("the deepest leaf path has %d names, want at least 9", maxDepth)
	}
}

// TestShred checks the expected columns on rows whose levels are worked
// out by hand, including a map whose entry order comes from the file.
func TestShred(t *testing.T) {
	s, err := schema.Parse(`message m {
  optional group a (LIST) { repeated group list { optional int32 element; } }
  required group m (MAP) { repeated group key_value { required binary key (STRING); optional int64 value; } }
}`)
	if err != nil {
		t.Fatal(err)
	}
	type row struct {
		A []*int32          `parquet:"a"`
		M map[string]*int64 `parquet:"m"`
	}
	root, err := buildShape(s, reflect.TypeFor[row]())
	if err != nil {
		t.Fatal(err)
	}
	i32 := func(v int32) *int32 { return &v }
	i64 := func(v int64) *int64 { return &v }
	rows := []row{
		{A: nil, M: map[string]*int64{}},
		{A: []*int32{}, M: map[string]*int64{"x": nil}},
		{A: []*int32{i32(1), nil, i32(-2)}, M: map[string]*int64{"p": i64(1), "q": i64(2)}},
	}
	file := []*column{{}, {def: []int16{0, 1, 1, 1}, rep: []int16{0, 0, 0, 1}, vals: []string{"x", "q", "p"}}, {}}
	cols, mismatch := expectedColumns(root, reflect.ValueOf(rows), 3, file)
	if mismatch != "" {
		t.Fatal(mismatch)
	}
	want := []column{
		{def: []int16{0, 1, 3, 2, 3}, rep: []int16{0, 0, 0, 1, 1}, vals: []string{"1", "-2"}, maxDef: 3, maxRep: 1},
		{def: []int16{0, 1, 1, 1}, rep: []int16{0, 0, 0, 1}, vals: []string{"x", "q", "p"}, maxDef: 1, maxRep: 1},
		{def: []int16{0, 1, 2, 2}, rep: []int16{0, 0, 0, 1}, vals: []string{"2", "1"}, maxDef: 2, maxRep: 1},
	}
	for i, w := range want {
		g := cols[i]
		if !slices.Equal(g.def, w.def) || !slices.Equal(g.rep, w.rep) || !slices.Equal(g.vals, w.vals) || g.maxDef != w.maxDef || g.maxRep != w.maxRep {
			t.Errorf("column %d: got %+v, want %+v", i, *g, w)
		}
	}
	// A file whose map holds other keys is reported.
	file[1].vals = []string{"x", "q", "r"}
	if _, mismatch := expectedColumns(root, reflect.ValueOf(rows), 3, file); !strings.Contains(mismatch, `map instance 1 has keys ["p" "q"], the file ["q" "r"]`) {
		t.Errorf("mismatch = %q", mismatch)
	}
	// A reader of the map's columns alone sees the map and no list.
	p := projected(root, reflect.ValueOf(rows[2]), map[int]bool{1: true, 2: true}).Interface().(row)
	if p.A != nil || len(p.M) != 2 || *p.M["q"] != 2 {
		t.Errorf("projected = %+v", p)
	}
	// The comparison of rows treats a null list and an empty one apart.
	if d := diffValue(root, reflect.ValueOf(rows[0]), reflect.ValueOf(rows[1]), "row"); d != "row.A: want null true, got null false (want []*int32(nil), got []*int32{})" {
		t.Errorf("diffValue = %q", d)
	}
}
