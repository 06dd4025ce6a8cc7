package runtime

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/pqgen/pqgen/runtime/schema"
)

// evolveFile is the file schema of the narrowing matrix: a column of
// every kind, flat and in nested positions.
const evolveFile = `message m {
  required int64 i64;
  required int32 i32;
  required int32 i16 (INT(16,true));
  required int32 i8 (INT(8,true));
  required int32 u8 (INT(8,false));
  required int32 u32 (INT(32,false));
  required int64 u64 (INT(64,false));
  required double f64;
  required float f32;
  required fixed_len_byte_array(2) f16 (FLOAT16);
  required binary s (STRING);
  required binary b;
  required binary bs (BSON);
  required int32 d (DATE);
  required int64 ts (TIMESTAMP(MICROS,true));
  required int64 tn (TIMESTAMP(NANOS,true));
  required int32 tm (TIME(MILLIS,true));
  required int64 dec (DECIMAL(18,4));
  required fixed_len_byte_array(16) u (UUID);
  required boolean ok;
  required group g { required int64 x; }
  optional group l (LIST) { repeated group list { required int32 element; } }
  optional group m (MAP) { repeated group key_value { required int32 key; optional int64 value; } }
}`

// TestBindRefusesNarrowing: every narrowing or change of type, flat and
// nested, fails at Bind with ErrBind naming the column and both types.
func TestBindRefusesNarrowing(t *testing.T) {
	have := mustParse(t, evolveFile)
	for _, c := range []struct{ want, msg string }{
		{`required int32 i64;`, `column "i64": int64 in the file, int32 requested`},
		{`required int32 i32 (INT(16,true));`, `column "i32": int32 in the file, int32 (INT(16,true)) requested`},
		{`required int32 i16 (INT(8,true));`, `column "i16": int32 (INT(16,true)) in the file, int32 (INT(8,true)) requested`},
		{`required int32 i8 (INT(8,false));`, `column "i8": int32 (INT(8,true)) in the file, int32 (INT(8,false)) requested`},
		{`required int64 i8 (INT(64,false));`, `column "i8": int32 (INT(8,true)) in the file, int64 (INT(64,false)) requested`},
		{`required int32 u8 (INT(8,true));`, `column "u8": int32 (INT(8,false)) in the file, int32 (INT(8,true)) requested`},
		{`required int32 u32;`, `column "u32": int32 (INT(32,false)) in the file, int32 requested`},
		{`required int64 u64;`, `column "u64": int64 (INT(64,false)) in the file, int64 requested`},
		{`required float f64;`, `column "f64": double in the file, float requested`},
		{`required fixed_len_byte_array(2) f32 (FLOAT16);`, `column "f32": float in the file, fixed_len_byte_array(2) (FLOAT16) requested`},
		{`required double i64;`, `column "i64": int64 in the file, double requested: another type`},
		{`required double u64;`, `column "u64": int64 (INT(64,false)) in the file, double requested: another type`},
		{`required float i32;`, `column "i32": int32 in the file, float requested: another type`},
		{`required float u32;`, `column "u32": int32 (INT(32,false)) in the file, float requested: another type`},
		{`required int64 s;`, `column "s": binary (STRING) in the file, int64 requested`},
		{`required binary s (BSON);`, `column "s": binary (STRING) in the file, binary (BSON) requested`},
		{`required binary bs (STRING);`, `column "bs": binary (BSON) in the file, binary (STRING) requested`},
		{`required binary b (DECIMAL(9,2));`, `column "b": binary in the file, binary (DECIMAL(9,2)) requested`},
		{`required int32 d;`, `column "d": int32 (DATE) in the file, int32 requested`},
		{`required int64 ts;`, `column "ts": int64 (TIMESTAMP(MICROS,true)) in the file, int64 requested`},
		{`required int64 ts (TIMESTAMP(MILLIS,true));`, `column "ts": int64 (TIMESTAMP(MICROS,true)) in the file, int64 (TIMESTAMP(MILLIS,true)) requested: a coarser unit`},
		{`required int64 tn (TIMESTAMP(MICROS,true));`, `column "tn": int64 (TIMESTAMP(NANOS,true)) in the file, int64 (TIMESTAMP(MICROS,true)) requested: a coarser unit`},
		{`required int32 tm (DATE);`, `column "tm": int32 (TIME(MILLIS,true)) in the file, int32 (DATE) requested`},
		{`required int64 dec (DECIMAL(18,3));`, `column "dec": int64 (DECIMAL(18,4)) in the file, int64 (DECIMAL(18,3)) requested`},
		{`required int64 dec (DECIMAL(18,5));`, `column "dec": int64 (DECIMAL(18,4)) in the file, int64 (DECIMAL(18,5)) requested: a smaller scale or fewer integer digits`},
		{`required int32 dec (DECIMAL(9,4));`, `column "dec": int64 (DECIMAL(18,4)) in the file, int32 (DECIMAL(9,4)) requested`},
		{`required int64 i64 (DECIMAL(18,0));`, `column "i64": int64 in the file, int64 (DECIMAL(18,0)) requested`},
		{`required fixed_len_byte_array(8) u;`, `column "u": fixed_len_byte_array(16) (UUID) in the file, fixed_len_byte_array(8) requested`},
		{`required fixed_len_byte_array(16) u (FLOAT16);`, `column "u": fixed_len_byte_array(16) (UUID) in the file, fixed_len_byte_array(16) (FLOAT16) requested`},
		{`required int32 ok;`, `column "ok": boolean in the file, int32 requested`},
		{`required group g { required int32 x; }`, `column "g.x": int64 in the file, int32 requested`},
		{`optional group l (LIST) { repeated group list { required int32 element (INT(16,true)); } }`, `column "l.list.element": int32 in the file, int32 (INT(16,true)) requested`},
		{`optional group m (MAP) { repeated group key_value { required int32 key (INT(8,true)); optional int64 value; } }`, `column "m.key_value.key": int32 in the file, int32 (INT(8,true)) requested`},
		{`optional group m (MAP) { repeated group key_value { required int32 key; optional int32 value; } }`, `column "m.key_value.value": int64 in the file, int32 requested`},
		{`required int64 g;`, `column "g": a group in the file, a leaf requested`},
		{`optional group l (MAP) { repeated group key_value { required int32 key; optional int32 value; } }`, `column "l": a list in the file, a map requested`},
		{`optional group m (LIST) { repeated group list { optional int32 element; } }`, `column "m": a map in the file, a list requested`},
		{`optional group l { optional int32 element; }`, `column "l": a list in the file, a group requested`},
		{`optional group g (LIST) { repeated group list { optional int32 element; } }`, `column "g": a group in the file, a list requested`},
		{`optional group i64 { optional int64 x; }`, `column "i64": a leaf in the file, a group requested`},
		{`repeated int64 i64;`, `column "i64": field "i64" is required in the file, repeated requested`},
		{`required binary missing;`, `column "missing": required in the requested schema but absent from the file`},
	} {
		want := mustParse(t, "message m { "+c.want+" }")
		_, _, err := bindAdapt(have, want, bindOptions{})
		if !errors.Is(err, ErrBind) || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s: %v, want an ErrBind containing %s", c.want, err, c.msg)
		}
	}
	// The widenings of the same columns bind.
	for _, w := range []string{
		`required int64 i32;`, `required int32 i16;`, `required int64 i8;`, `required int32 i8 (INT(16,true));`, `required int32 u8 (INT(16,true));`,
		`required int32 u8 (INT(16,false));`, `required int64 u32;`, `required int64 u32 (INT(64,false));`, `required double f32;`,
		`required float f16;`, `required double f16;`, `required double i32;`, `required double u32;`, `required float i16;`, `required float u8;`, `required binary s (ENUM);`, `required binary s (JSON);`, `required binary s;`,
		`required binary b (STRING);`, `required binary b (BSON);`, `required binary bs;`, `required int64 d (TIMESTAMP(MILLIS,true));`,
		`required int64 ts (TIMESTAMP(NANOS,false));`, `required int64 tm (TIME(NANOS,true));`, `required fixed_len_byte_array(10) dec (DECIMAL(20,6));`,
		`required fixed_len_byte_array(9) dec (DECIMAL(20,4));`, `required binary dec (DECIMAL(40,10));`, `required fixed_len_byte_array(16) u;`,
		`optional int64 i64;`, `optional group g { optional int64 x; optional int32 y; }`, `required int96 tn;`,
		`optional group l (LIST) { repeated group list { optional int64 element; } }`,
		`optional group m (MAP) { repeated group key_value { required int64 key; optional int64 value; } }`,
	} {
		if _, _, err := bindAdapt(have, mustParse(t, "message m { "+w+" }"), bindOptions{}); err != nil {
			t.Errorf("%s: %v", w, err)
		}
	}
}

// TestBindLegacyAnnotations: columns annotated with a legacy
// ConvertedType alone (as writers before LogicalType, parquetjs and
// hyparquet-writer store them) bind as their logical types do, and
// narrowings of them fail as those of modern ones.
func TestBindLegacyAnnotations(t *testing.T) {
	for _, c := range []struct{ file, want, msg string }{
		{`required int64 ts (TIMESTAMP_MILLIS);`, `required int64 ts (TIMESTAMP(NANOS,true));`, ""},
		{`required int64 ts (TIMESTAMP_MICROS);`, `required int64 ts (TIMESTAMP(MICROS,false));`, ""},
		{`required int32 t (TIME_MILLIS);`, `required int64 t (TIME(NANOS,true));`, ""},
		{`required int32 x (UINT_8);`, `required int32 x (INT(8,false));`, ""},
		{`required int32 x (UINT_32);`, `required int64 x;`, ""},
		{`required int32 x (UINT_16);`, `required double x;`, ""},
		{`required int32 x (INT_16);`, `required int32 x (INT(16,true));`, ""},
		{`required binary s (UTF8);`, `required binary s (STRING);`, ""},
		{`required int32 d (DECIMAL(9,2));`, `required int64 d (DECIMAL(18,2));`, ""},
		{`required fixed_len_byte_array(12) iv;`, `required fixed_len_byte_array(12) iv (INTERVAL);`, ""},
		{`required int64 ts (TIMESTAMP_MICROS);`, `required int64 ts (TIMESTAMP(MILLIS,true));`,
			`column "ts": int64 (TIMESTAMP_MICROS) in the file, int64 (TIMESTAMP(MILLIS,true)) requested: a coarser unit`},
		{`required int32 x (UINT_32);`, `required int32 x;`, `column "x": int32 (INT(32,false)) in the file, int32 requested: a narrower integer type`},
		{`required int64 x (INT_64);`, `required double x;`, `column "x": int64 (INT(64,true)) in the file, double requested: another type`},
	} {
		_, _, err := bindAdapt(mustParse(t, "message m { "+c.file+" }"), mustParse(t, "message m { "+c.want+" }"), bindOptions{})
		switch {
		case c.msg == "" && err != nil:
			t.Errorf("%s into %s: %v", c.file, c.want, err)
		case c.msg != "" && (!errors.Is(err, ErrBind) || !strings.Contains(err.Error(), c.msg)):
			t.Errorf("%s into %s: %v, want an ErrBind containing %s", c.file, c.want, err, c.msg)
		}
	}
}

// writeInt32Column writes the first leaf (INT32) of a file of schema text
// from its levels and values.
func writeInt32Column(t *testing.T, text string, def, rep []uint8, vals []int32, rows int) []byte {
	t.Helper()
	var buf bytes.Buffer
	fw, err := NewFileWriter(&buf, mustParse(t, text))
	if err != nil {
		t.Fatal(err)
	}
	c, err := fw.Int32Buffer(0)
	if err != nil {
		t.Fatal(err)
	}
	c.Def, c.Rep, c.Values = def, rep, vals
	if err := fw.EndRows(rows); err != nil {
		t.Fatal(err)
	}
	if err := fw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestBindLegacyLists: two-level lists (a repeated primitive, a group
// named array) and MAP_KEY_VALUE maps read through the modern three-level
// layout of the bound schema, with its definition levels synthesized,
// values widened.
func TestBindLegacyLists(t *testing.T) {
	// Rows: null, [], [1], [2, 3].
	def := []uint8{0, 1, 2, 2, 2}
	rep := []uint8{0, 0, 0, 0, 1}
	vals := []int32{1, 2, 3}
	modern := `message m { optional group l (LIST) { repeated group list { optional int64 element; } } }`
	for _, c := range []struct{ name, file string }{
		{"repeated primitive", `message m { optional group l (LIST) { repeated int32 element; } }`},
		{"array group", `message m { optional group l (LIST) { repeated group array { required int32 v; } } }`},
		{"three-level, other names", `message m { optional group l (LIST) { repeated group bag { required int32 item; } } }`},
	} {
		data := writeInt32Column(t, c.file, def, rep, vals, 4)
		want := modern
		if c.name == "array group" {
			want = `message m { optional group l (LIST) { repeated group list { optional group element { optional int64 v; } } } }`
		}
		r := adaptReader(t, data)
		idx, err := r.Bind(mustParse(t, want))
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		col, err := r.Int64Reader(idx[0])
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if n, err := col.ReadRows(4); n != 4 || err != nil {
			t.Fatalf("%s: %d %v", c.name, n, err)
		}
		wantDef := []uint8{0, 1, 3, 3, 3}
		if c.name == "array group" {
			wantDef = []uint8{0, 1, 4, 4, 4}
		}
		if !slices.Equal(col.Def, wantDef) || !slices.Equal(col.Rep, rep) || !slices.Equal(col.Values, []int64{1, 2, 3}) {
			t.Errorf("%s: def %v rep %v values %v", c.name, col.Def, col.Rep, col.Values)
		}
		// WithColumns takes the bound schema's path of the elements,
		// which the file names otherwise.
		w := mustParse(t, want)
		r = adaptReader(t, data, WithColumns(w.Leaves[0].PathString()))
		if _, err := r.Bind(w); err != nil || !r.Projected(0) {
			t.Errorf("%s: WithColumns(%q): %v, projected %v", c.name, w.Leaves[0].PathString(), err, r.Projected(0))
		}
	}
	// A MAP_KEY_VALUE map with other names reads as a MAP.
	data := writeInt32Column(t, `message m { optional group m (MAP_KEY_VALUE) { repeated group map { required int32 k; } } }`,
		[]uint8{0, 2, 2}, []uint8{0, 0, 1}, []int32{7, 8}, 2)
	r := adaptReader(t, data)
	idx, err := r.Bind(mustParse(t, `message m { optional group m (MAP) { repeated group key_value { required int32 key; optional int32 value; } } }`))
	if err != nil {
		t.Fatal(err)
	}
	if idx[0] != 0 || idx[1] != -1 {
		t.Errorf("map: %v", idx)
	}
}

// TestBindTwoLevelElements: a LIST whose repeated group is its element by
// the backward-compatibility rules (parquet-avro's "array" group of one
// field, parquet-thrift's "<list>_tuple", a group whose one field is
// repeated) is bound as the generator reads it, whether the requested
// schema is the file's own (code generated from the file) or a
// three-level list; a requested two-level list reads a three-level file
// whose elements are required, and refuses one whose elements may be null.
func TestBindTwoLevelElements(t *testing.T) {
	// Rows: null, [], [{v: 1}], [{v: 2}, {v: null}, {v: 3}].
	def := []uint8{0, 1, 3, 3, 2, 3}
	rep := []uint8{0, 0, 0, 0, 1, 1}
	vals := []int32{1, 2, 3}
	for _, c := range []struct{ name, file, want string }{
		{"array, as written",
			`message m { optional group l (LIST) { repeated group array { optional int32 v; } } }`,
			`message m { optional group l (LIST) { repeated group array { optional int32 v; } } }`},
		{"array, widened",
			`message m { optional group l (LIST) { repeated group array { optional int32 v; } } }`,
			`message m { optional group l (LIST) { repeated group array { optional int64 v; } } }`},
		{"tuple, as written",
			`message m { optional group l (LIST) { repeated group l_tuple { optional int32 v; } } }`,
			`message m { optional group l (LIST) { repeated group l_tuple { optional int32 v; } } }`},
		{"array, read as three levels",
			`message m { optional group l (LIST) { repeated group array { optional int32 v; } } }`,
			`message m { optional group l (LIST) { repeated group list { required group element { optional int64 v; } } } }`},
		{"three levels, read as array",
			`message m { optional group l (LIST) { repeated group list { required group element { optional int32 v; } } } }`,
			`message m { optional group l (LIST) { repeated group array { optional int64 v; } } }`},
	} {
		r := adaptReader(t, writeInt32Column(t, c.file, def, rep, vals, 4))
		idx, err := r.Bind(mustParse(t, c.want))
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		col, err := r.Int64Reader(idx[0])
		if err != nil {
			// Not widened: read as written.
			col32, err := r.Int32Reader(idx[0])
			if err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			if n, err := col32.ReadRows(4); n != 4 || err != nil {
				t.Fatalf("%s: %d %v", c.name, n, err)
			}
			if !slices.Equal(col32.Def, def) || !slices.Equal(col32.Rep, rep) || !slices.Equal(col32.Values, vals) {
				t.Errorf("%s: def %v rep %v values %v", c.name, col32.Def, col32.Rep, col32.Values)
			}
			continue
		}
		if n, err := col.ReadRows(4); n != 4 || err != nil {
			t.Fatalf("%s: %d %v", c.name, n, err)
		}
		if !slices.Equal(col.Def, def) || !slices.Equal(col.Rep, rep) || !slices.Equal(col.Values, []int64{1, 2, 3}) {
			t.Errorf("%s: def %v rep %v values %v", c.name, col.Def, col.Rep, col.Values)
		}
	}
	// A group whose only field is repeated is the element (rule 3 of the
	// LIST backward-compatibility rules). Rows: null, [], [{v: []}],
	// [{v: [1, 2]}, {v: [3]}].
	data := writeInt32Column(t, `message m { optional group l (LIST) { repeated group bag { repeated int32 v; } } }`,
		[]uint8{0, 1, 2, 3, 3, 3}, []uint8{0, 0, 0, 0, 2, 1}, vals, 4)
	for _, want := range []string{
		`message m { optional group l (LIST) { repeated group bag { repeated int32 v; } } }`,
		`message m { optional group l (LIST) { repeated group list { required group element { repeated int32 v; } } } }`,
	} {
		r := adaptReader(t, data)
		idx, err := r.Bind(mustParse(t, want))
		if err != nil {
			t.Errorf("%s: %v", want, err)
			continue
		}
		col, err := r.Int32Reader(idx[0])
		if err != nil {
			t.Fatal(err)
		}
		if n, err := col.ReadRows(4); n != 4 || err != nil {
			t.Fatal(n, err)
		}
		if !slices.Equal(col.Def, []uint8{0, 1, 2, 3, 3, 3}) || !slices.Equal(col.Rep, []uint8{0, 0, 0, 0, 2, 1}) || !slices.Equal(col.Values, vals) {
			t.Errorf("%s: def %v rep %v values %v", want, col.Def, col.Rep, col.Values)
		}
	}
	// A requested two-level list cannot hold the null elements a
	// three-level file may have, nor elements that are not groups.
	for _, c := range []struct{ file, msg string }{
		{`message m { optional group l (LIST) { repeated group list { optional group element { optional int32 v; } } } }`, `may be null`},
		{`message m { optional group l (LIST) { repeated group list { optional int32 element; } } }`, `the requested list's are groups`},
	} {
		r := adaptReader(t, writeInt32Column(t, c.file, []uint8{0}, []uint8{0}, nil, 1))
		_, err := r.Bind(mustParse(t, `message m { optional group l (LIST) { repeated group array { optional int32 v; } } }`))
		if !errors.Is(err, ErrBind) || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s: %v, want an ErrBind containing %q", c.file, err, c.msg)
		}
	}
}

// TestBindFieldIDs: fields match by field id when both sides carry one
// (a renamed field keeps reading, a reused name with another id does
// not), else by name.
func TestBindFieldIDs(t *testing.T) {
	have := mustParse(t, `message m { required int32 a = 1; required int32 b = 2; required int32 c; optional group g = 3 { required int32 x = 4; } }`)
	for _, c := range []struct{ want, idx string }{
		{`required int32 renamed = 1; optional int32 b = 9; required int32 c = 5;`, "[0 -1 2]"},
		{`optional group h = 3 { required int64 y = 4; }`, "[3]"},
		{`required int32 b; required int32 a;`, "[1 0]"},
	} {
		idx, _, err := bindAdapt(have, mustParse(t, "message m { "+c.want+" }"), bindOptions{})
		if err != nil || fmt.Sprint(idx) != c.idx {
			t.Errorf("%s: %v %v, want %s", c.want, idx, err, c.idx)
		}
	}
	// An id two siblings share, in the file or in the type, names
	// neither: those fields match by name (a file of genfuzz's schema
	// with a leaf and a group of id 7 did not read back into its own
	// type), the others still by id. Siblings of one name (FuzzBind's
	// schema bound to itself) match in order.
	for _, c := range []struct{ file, want, idx string }{
		{`repeated int96 key = 7; optional group x = 7 { optional double go; } required int32 a = 1;`,
			`repeated int96 key = 7; optional group x = 7 { optional double go; } required int32 renamed = 1;`, "[0 1 2]"},
		{`required int32 a = 7; required int32 b = 7;`, `required int32 b = 7; required int32 a = 7;`, "[1 0]"},
		{`required int32 a = 7; required int32 b = 7;`, `optional int32 c = 7;`, "[-1]"},
		{`required int32 a = 7; required int32 b = 7;`, `optional int32 b = 8;`, "[-1]"},
		{`required int32 a = 7; required int32 b = 8;`, `optional int32 b = 7; required int32 a = 7;`, "[-1 0]"},
		{`required int32 a = 7; required int32 b;`, `required int32 b = 7; optional int32 a = 7;`, "[1 0]"},
		// Siblings of one name pair up in order.
		{`optional int64 a = 1; required int32 a; required int32 a;`, `optional int64 a = 1; required int32 a; required int32 a;`, "[0 1 2]"},
		{`required int32 a; required int64 b; required int32 a;`, `required int32 a; required int64 a;`, "[0 2]"},
	} {
		idx, _, err := bindAdapt(mustParse(t, "message m { "+c.file+" }"), mustParse(t, "message m { "+c.want+" }"), bindOptions{})
		if err != nil || fmt.Sprint(idx) != c.idx {
			t.Errorf("%s read as %s: %v %v, want %s", c.file, c.want, idx, err, c.idx)
		}
	}
}

// TestCheckSchema: the verdict per column, without reading data.
func TestCheckSchema(t *testing.T) {
	file := mustParse(t, `message m { required int32 a = 1; optional int64 b; required binary gone; required int32 n; }`)
	want := mustParse(t, `message m { required int64 renamed = 1; required int64 b; optional int32 c; required int32 d; required int32 n (INT(8,true)); }`)
	var got []string
	for _, c := range CheckSchema(file, want, []string{"d"}, nil) {
		got = append(got, fmt.Sprintf("%s %s<-%s %v", c.Status, c.Path, c.FilePath, c.Err != nil))
	}
	wantS := "[converted renamed<-a false incompatible b<-b true missing c<- false missing d<- false incompatible n<-n true skipped gone<-gone false]"
	if fmt.Sprint(got) != wantS {
		t.Errorf("got  %v\nwant %s", got, wantS)
	}
	got = got[:0]
	for _, c := range CheckSchema(file, want, nil, nil, WithOptionalAsRequired(true)) {
		got = append(got, c.Status.String())
	}
	if fmt.Sprint(got) != "[converted converted missing incompatible incompatible skipped]" {
		t.Errorf("WithOptionalAsRequired, no default: %v", got)
	}
	// A field required on one side and optional on the other is named,
	// with the way it goes, at the group where it changes; a leaf that
	// only widens has no note.
	file = mustParse(t, `message m { required group g { required int32 a; optional int32 b; } optional int32 c; required int32 w; }`)
	want = mustParse(t, `message m { optional group g { required int32 a; required int32 b; } required int32 c; required int64 w; }`)
	var notes []string
	for _, c := range CheckSchema(file, want, nil, nil, WithOptionalAsRequired(true)) {
		notes = append(notes, c.Path+": "+c.Note)
	}
	wantNotes := []string{
		"g.a: g is required in the file, optional in the type",
		"g.b: g is required in the file, optional in the type",
		"c: c is optional in the file, required in the type: a null fails the read",
		"w: ",
	}
	if !slices.Equal(notes, wantNotes) {
		t.Errorf("notes %q, want %q", notes, wantNotes)
	}
	// A mismatch at a group of no field (FuzzBind's input): Bind fails,
	// and so does the check, naming the group.
	file = mustParse(t, `message m { optional group l { repeated int32 x; } }`)
	want = mustParse(t, `message m { optional group l (LIST) {} }`)
	_, _, err := bindAdapt(file, want, bindOptions{})
	checks := CheckSchema(file, want, nil, nil)
	if err == nil || len(checks) != 2 || checks[0].Path != "l" || checks[0].Status != ColumnIncompatible || !errors.Is(checks[0].Err, ErrBind) {
		t.Errorf("a list of no field read from a group: Bind %v, CheckSchema %+v", err, checks)
	}
	// Also when another column is incompatible for its own reason: the
	// check still names the group Bind fails at.
	file = mustParse(t, `message m { required int64 a; optional group l { repeated int32 x; } }`)
	want = mustParse(t, `message m { required int32 a; optional group l (LIST) {} }`)
	_, _, err = bindAdapt(file, want, bindOptions{})
	checks = CheckSchema(file, want, nil, nil)
	var paths []string
	for _, c := range checks {
		if c.Status == ColumnIncompatible {
			paths = append(paths, c.Path)
		}
	}
	if err == nil || fmt.Sprint(paths) != "[a l]" {
		t.Errorf("a narrowing and a list of no field: Bind %v, incompatible %v", err, paths)
	}
}

// FuzzBind: binding any schema to any other never panics; it binds or
// fails with ErrBind, and CheckSchema agrees with it.
func FuzzBind(f *testing.F) {
	f.Add(evolveFile, `message m { required int64 i32; optional group l (LIST) { repeated group list { optional int64 element; } } }`)
	f.Add(`message m { optional group l (LIST) { repeated int32 element; } }`, `message m { optional group l (LIST) { repeated group list { optional int64 element; } } }`)
	f.Add(`message m { optional group m (MAP_KEY_VALUE) { repeated group map { required int32 k; } } }`, `message m { optional group m (MAP) { repeated group key_value { required int32 key; optional int32 value; } } }`)
	f.Add(`message m { required int32 a = 1; }`, `message m { optional int64 b = 1; required int32 d; }`)
	f.Add(`message m { optional group l (LIST) { repeated group array { optional int32 v; } } }`, `message m { optional group l (LIST) { repeated group array { optional int64 v; } } }`)
	f.Add(`message m { optional group l (LIST) { repeated group list { optional group element { optional int32 v; } } } }`, `message m { optional group l (LIST) { repeated group l_tuple { optional int32 v; } } }`)
	f.Add(`message m { repeated int96 key = 7; optional group x = 7 { optional double go; } }`, `message m { optional group x = 7 { optional double go; } repeated int96 key = 7; }`)
	f.Fuzz(func(t *testing.T, haveText, wantText string) {
		have, err1 := schema.Parse(haveText)
		want, err2 := schema.Parse(wantText)
		if err1 != nil || err2 != nil {
			return
		}
		// A schema binds to itself, each leaf to its own column: a file
		// reads back into the type of its own schema.
		for _, s := range []*schema.Schema{have, want} {
			idx, _, err := bindAdapt(s, s, bindOptions{})
			if err != nil {
				t.Fatalf("binding %s to itself: %v", s, err)
			}
			for i, j := range idx {
				if i != j {
					t.Fatalf("binding %s to itself: leaf %d reads column %d", s, i, j)
				}
			}
		}
		for _, opt := range []bindOptions{{}, {optionalAsRequired: true, coarserUnits: true}} {
			_, _, err := bindAdapt(have, want, opt)
			if err != nil && !errors.Is(err, ErrBind) {
				t.Fatalf("error not wrapping ErrBind: %v", err)
			}
			var opts []ReaderOption
			if opt.optionalAsRequired {
				opts = append(opts, WithOptionalAsRequired(true), WithCoarserTimeUnits(true))
			}
			bad := false
			for _, c := range CheckSchema(have, want, nil, nil, opts...) {
				bad = bad || c.Status == ColumnIncompatible
			}
			if bad != (err != nil) {
				t.Fatalf("Bind: %v; CheckSchema finds an incompatible column: %v", err, bad)
			}
		}
	})
}

// TestBindVariantShredding: a Variant group is matched whole, whatever
// the shredding on either side (a typed_value leaf in the type, a group
// in the file).
func TestBindVariantShredding(t *testing.T) {
	have := mustParse(t, `message m { required int32 id; optional group v (VARIANT) { required binary metadata; optional binary value;
  optional group typed_value { required group a { optional binary value; optional int64 typed_value; } } } }`)
	want := mustParse(t, `message m { required int64 id; optional group v (VARIANT) { required binary metadata; optional binary value; optional int64 typed_value; } }`)
	idx, _, err := bindAdapt(have, want, bindOptions{}, "v")
	if err != nil || fmt.Sprint(idx) != "[0 -1 -1 -1]" {
		t.Fatalf("%v %v", idx, err)
	}
	var got []string
	for _, c := range CheckSchema(have, want, nil, []string{"v"}) {
		got = append(got, c.Status.String()+" "+c.Path)
	}
	if fmt.Sprint(got) != "[converted id]" {
		t.Errorf("CheckSchema: %v", got)
	}
}

// evolveFuzzFile and evolveFuzzWant are the schemas of FuzzReadEvolved:
// every conversion of the schema evolution rules, flat and in a list.
const (
	evolveFuzzFile = `message m {
  required int32 a;
  required int32 u (INT(32,false));
  optional float f;
  required fixed_len_byte_array(2) h (FLOAT16);
  required int32 d (DATE);
  optional int64 ts (TIMESTAMP(MILLIS,true));
  required int32 tm (TIME(MILLIS,true));
  required fixed_len_byte_array(5) dec (DECIMAL(10,2));
  optional binary decb (DECIMAL(12,1));
  optional group l (LIST) { repeated group list { required int32 element; } }
}`
	evolveFuzzWant = `message m {
  optional int64 a;
  required int64 u;
  required double f;
  required double h;
  required int64 d (TIMESTAMP(NANOS,true));
  required int64 ts (TIMESTAMP(NANOS,true));
  required int64 tm (TIME(NANOS,true));
  required fixed_len_byte_array(16) dec (DECIMAL(30,9));
  required int64 decb (DECIMAL(18,3));
  optional group l (LIST) { repeated group list { optional int64 element; } }
}`
)

// evolveFuzzSeed writes rows of evolveFuzzFile.
func evolveFuzzSeed(tb testing.TB, rows int) []byte {
	tb.Helper()
	s, err := schema.Parse(evolveFuzzFile)
	if err != nil {
		tb.Fatal(err)
	}
	var buf bytes.Buffer
	fw, err := NewFileWriter(&buf, s, WithPageRowLimit(7))
	if err != nil {
		tb.Fatal(err)
	}
	a, _ := fw.Int32Buffer(0)
	u, _ := fw.Int32Buffer(1)
	fl, _ := fw.FloatBuffer(2)
	h, _ := fw.FixedBuffer(3)
	d, _ := fw.Int32Buffer(4)
	ts, _ := fw.Int64Buffer(5)
	tm, _ := fw.Int32Buffer(6)
	dec, _ := fw.FixedBuffer(7)
	decb, _ := fw.ByteArrayBuffer(8)
	l, _ := fw.Int32Buffer(9)
	for i := range rows {
		a.Values = append(a.Values, int32(i*-7919))
		u.Values = append(u.Values, int32(-i))
		fl.Def = append(fl.Def, 1)
		fl.Values = append(fl.Values, float32(i)/3)
		h.Values = append(h.Values, byte(i), 0x3c)
		d.Values = append(d.Values, int32(i*400-20000))
		ts.Def = append(ts.Def, uint8(i%2))
		if i%2 == 1 {
			ts.Values = append(ts.Values, int64(i)*86400001)
		}
		tm.Values = append(tm.Values, int32(i*1000))
		dec.Values = append(dec.Values, 0xff, 0xff, 0, byte(i), 1)
		decb.Def = append(decb.Def, 1)
		decb.Values.Append([]byte{byte(i), 2, 3})
		l.Def = append(l.Def, 2, 2)
		l.Rep = append(l.Rep, 0, 1)
		l.Values = append(l.Values, int32(i), -int32(i))
	}
	if err := fw.EndRows(rows); err != nil {
		tb.Fatal(err)
	}
	if err := fw.Close(); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes()
}

// FuzzReadEvolved reads hostile files through the conversions of the
// schema evolution rules (bound to evolveFuzzWant): errors, never a
// panic. The seed reads without error.
func FuzzReadEvolved(f *testing.F) {
	seed := evolveFuzzSeed(f, 40)
	want, err := schema.Parse(evolveFuzzWant)
	if err != nil {
		f.Fatal(err)
	}
	fr, err := NewFileReader(bytes.NewReader(seed), int64(len(seed)), WithOptionalAsRequired(true))
	if err != nil {
		f.Fatal(err)
	}
	if _, err := fr.Bind(want); err != nil {
		f.Fatalf("the seed does not bind: %v", err)
	}
	f.Add(seed)
	f.Fuzz(func(t *testing.T, data []byte) {
		fr, err := NewFileReader(bytes.NewReader(data), int64(len(data)), WithOptionalAsRequired(true),
			WithMaxFooterSize(1<<20), WithMaxPageSize(1<<20), WithMaxPageValues(1<<16))
		if err != nil || len(fr.File().Meta.RowGroups)*len(fr.File().Schema.Leaves) > 256 {
			return
		}
		idx, err := fr.Bind(want)
		if err != nil {
			return
		}
		for i, col := range idx {
			if col >= 0 {
				readFuzzColumnAs(fr, col, want.Leaves[i].Type)
			}
		}
	})
}

// TestBindBareRepeated: a bare repeated field (no LIST annotation) reads
// as a list of the bound schema, required or optional, its elements
// widened and made nullable.
func TestBindBareRepeated(t *testing.T) {
	// Rows: [], [1], [2, 3].
	data := writeInt32Column(t, `message m { repeated int32 x; }`, []uint8{0, 1, 1, 1}, []uint8{0, 0, 0, 1}, []int32{1, 2, 3}, 3)
	for _, c := range []struct {
		want string
		def  []uint8
	}{
		{`message m { required group x (LIST) { repeated group list { required int64 element; } } }`, []uint8{0, 1, 1, 1}},
		{`message m { optional group x (LIST) { repeated group list { optional int64 element; } } }`, []uint8{1, 3, 3, 3}},
	} {
		r := adaptReader(t, data)
		idx, err := r.Bind(mustParse(t, c.want))
		if err != nil {
			t.Fatalf("%s: %v", c.want, err)
		}
		col, err := r.Int64Reader(idx[0])
		if err != nil {
			t.Fatal(err)
		}
		if n, err := col.ReadRows(3); n != 3 || err != nil {
			t.Fatal(n, err)
		}
		if !slices.Equal(col.Def, c.def) || !slices.Equal(col.Rep, []uint8{0, 0, 0, 1}) || !slices.Equal(col.Values, []int64{1, 2, 3}) {
			t.Errorf("%s: def %v rep %v values %v", c.want, col.Def, col.Rep, col.Values)
		}
	}
}

// BenchmarkBind binds a flat schema of 6, 200 and 10,000 optional columns
// with field ids to itself, as a generated reader does at every open: the
// lookups of the children by id and by name (binder.children) keep it
// linear in the columns.
func BenchmarkBind(b *testing.B) {
	for _, n := range []int{6, 200, 10_000} {
		var sb strings.Builder
		sb.WriteString("message m {")
		for i := range n {
			fmt.Fprintf(&sb, " optional int64 c%d = %d;", i, i+1)
		}
		sb.WriteString(" }")
		s := mustParse(b, sb.String())
		b.Run(fmt.Sprintf("columns=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, _, err := bindAdapt(s, s, bindOptions{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
