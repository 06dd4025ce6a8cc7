package schema

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/pqgen/pqgen/runtime/meta"
)

const nested = `message spark_schema {
  required int64 id = 1;
  optional binary name (STRING);
  optional fixed_len_byte_array(16) uid (UUID) = 3;
  optional int32 price (DECIMAL(9,2));
  optional int64 ts (TIMESTAMP(MICROS,true));
  optional int64 local_ts (TIMESTAMP(NANOS,false));
  optional int32 t (TIME(MILLIS,true));
  optional int32 small (INT(8,false));
  optional fixed_len_byte_array(2) half (FLOAT16);
  optional group tags (LIST) = 7 {
    repeated group list {
      optional binary element (STRING);
    }
  }
  optional group attrs (MAP) {
    repeated group key_value {
      required binary key (STRING);
      optional group value (LIST) {
        repeated group list {
          required int32 element;
        }
      }
    }
  }
  optional group v (VARIANT(1)) {
    required binary metadata;
    required binary value;
  }
  optional binary geom (GEOMETRY("srid:4326"));
  optional binary geog (GEOGRAPHY("OGC:CRS84",KARNEY));
  optional fixed_len_byte_array(12) iv (INTERVAL);
  required int96 legacy_ts;
  repeated boolean flags;
}
`

func TestParsePrintRoundTrip(t *testing.T) {
	s, err := Parse(nested)
	if err != nil {
		t.Fatal(err)
	}
	if got := s.String(); got != nested {
		t.Fatalf("printed schema differs:\n%s", cmp.Diff(nested, got))
	}
	// Through the footer representation and back.
	s2, err := FromElements(s.Elements())
	if err != nil {
		t.Fatal(err)
	}
	if got := s2.String(); got != nested {
		t.Fatalf("schema through elements differs:\n%s", cmp.Diff(nested, got))
	}
}

func TestLevels(t *testing.T) {
	s, err := Parse(nested)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][2]uint8{ // path -> {maxDef, maxRep}
		"id":                                 {0, 0},
		"name":                               {1, 0},
		"tags.list.element":                  {3, 1},
		"attrs.key_value.key":                {2, 1},
		"attrs.key_value.value.list.element": {4, 2},
		"v.metadata":                         {1, 0},
		"flags":                              {1, 1},
	}
	for path, lv := range want {
		l := s.Leaf(path)
		if l == nil {
			t.Fatalf("no leaf %s", path)
		}
		if l.MaxDef != lv[0] || l.MaxRep != lv[1] {
			t.Errorf("%s: levels def=%d rep=%d, want %v", path, l.MaxDef, l.MaxRep, lv)
		}
	}
	if len(s.Leaves) != 19 {
		t.Errorf("%d leaves, want 19", len(s.Leaves))
	}
	for i, l := range s.Leaves {
		if l.Column != i {
			t.Errorf("leaf %s has column %d, want %d", l.PathString(), l.Column, i)
		}
	}
}

func TestElementsCarryCompatibleConvertedTypes(t *testing.T) {
	s, err := Parse(nested)
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]meta.SchemaElement{}
	for _, e := range s.Elements() {
		byName[e.Name] = e
	}
	checks := []struct {
		name string
		want meta.Opt[meta.ConvertedType]
	}{
		{"name", meta.Some(meta.ConvertedUTF8)},
		{"price", meta.Some(meta.ConvertedDecimal)},
		{"ts", meta.Some(meta.ConvertedTimestampMicros)},
		{"local_ts", meta.Opt[meta.ConvertedType]{}}, // NANOS has no legacy form
		{"t", meta.Some(meta.ConvertedTimeMillis)},
		{"small", meta.Some(meta.ConvertedUint8)},
		{"uid", meta.Opt[meta.ConvertedType]{}},
		{"tags", meta.Some(meta.ConvertedList)},
		{"attrs", meta.Some(meta.ConvertedMap)},
		{"iv", meta.Some(meta.ConvertedInterval)},
	}
	for _, c := range checks {
		if got := byName[c.name].ConvertedType; got != c.want {
			t.Errorf("%s: converted type %+v, want %+v", c.name, got, c.want)
		}
	}
	if p := byName["price"]; p.Scale != meta.Some(int32(2)) || p.Precision != meta.Some(int32(9)) {
		t.Errorf("price: legacy scale/precision %+v/%+v", p.Scale, p.Precision)
	}
}

func TestConvertedOnlyResolves(t *testing.T) {
	// A footer written before LogicalType: only ConvertedType is present.
	els := []meta.SchemaElement{
		{Name: "m", NumChildren: meta.Some(int32(5))},
		{Name: "s", Type: meta.Some(meta.ByteArray), RepetitionType: meta.Some(meta.Optional), ConvertedType: meta.Some(meta.ConvertedUTF8)},
		{Name: "d", Type: meta.Some(meta.FixedLenByteArray), TypeLength: meta.Some(int32(5)), RepetitionType: meta.Some(meta.Required),
			ConvertedType: meta.Some(meta.ConvertedDecimal), Scale: meta.Some(int32(3)), Precision: meta.Some(int32(10))},
		{Name: "ts", Type: meta.Some(meta.Int64), RepetitionType: meta.Some(meta.Required), ConvertedType: meta.Some(meta.ConvertedTimestampMillis)},
		{Name: "u", Type: meta.Some(meta.Int32), RepetitionType: meta.Some(meta.Required), ConvertedType: meta.Some(meta.ConvertedUint16)},
		// LogicalType wins over ConvertedType when both are present.
		{Name: "both", Type: meta.Some(meta.Int64), RepetitionType: meta.Some(meta.Required), ConvertedType: meta.Some(meta.ConvertedTimestampMicros),
			LogicalType: &meta.LogicalType{Kind: meta.LogicalTimestamp, Time: meta.TimeType{IsAdjustedToUTC: false, Unit: meta.Micros}}},
	}
	s, err := FromElements(els)
	if err != nil {
		t.Fatal(err)
	}
	want := `message m {
  optional binary s (STRING);
  required fixed_len_byte_array(5) d (DECIMAL(10,3));
  required int64 ts (TIMESTAMP_MILLIS);
  required int32 u (INT(16,false));
  required int64 both (TIMESTAMP(MICROS,false));
}
`
	if got := s.String(); got != want {
		t.Fatal(cmp.Diff(want, got))
	}
	// The legacy time column resolves to the type its ConvertedType stands
	// for, and stays a ConvertedType alone through the schema text and
	// Elements; the others get their LogicalType.
	ts := s.Leaves[2]
	if !ts.ConvertedOnly || ts.Logical != (meta.LogicalType{Kind: meta.LogicalTimestamp, Time: meta.TimeType{IsAdjustedToUTC: true, Unit: meta.Millis}}) {
		t.Errorf("ts: ConvertedOnly %v, logical %+v", ts.ConvertedOnly, ts.Logical)
	}
	back, err := Parse(s.String())
	if err != nil {
		t.Fatal(err)
	}
	if back.String() != want {
		t.Fatal(cmp.Diff(want, back.String()))
	}
	for _, sch := range []*Schema{s, back} {
		got := map[string]meta.SchemaElement{}
		for _, e := range sch.Elements() {
			got[e.Name] = e
		}
		if e := got["ts"]; e.LogicalType != nil || e.ConvertedType != meta.Some(meta.ConvertedTimestampMillis) {
			t.Errorf("ts written with logical type %+v, converted type %+v; want TIMESTAMP_MILLIS alone", e.LogicalType, e.ConvertedType)
		}
		if e := got["both"]; e.LogicalType == nil || e.LogicalType.Time.IsAdjustedToUTC || e.ConvertedType != meta.Some(meta.ConvertedTimestampMicros) {
			t.Errorf("both written with logical type %+v, converted type %+v", e.LogicalType, e.ConvertedType)
		}
		if e := got["s"]; e.LogicalType == nil || e.LogicalType.Kind != meta.LogicalString {
			t.Errorf("s written with logical type %+v", e.LogicalType)
		}
	}
	// An unrecognised LogicalType member falls back to ConvertedType.
	els[1].LogicalType = &meta.LogicalType{Unrecognized: 2555}
	s, err = FromElements(els)
	if err != nil {
		t.Fatal(err)
	}
	if s.Leaves[0].Logical.Kind != meta.LogicalString {
		t.Fatalf("unrecognised logical type did not fall back to UTF8: %+v", s.Leaves[0].Logical)
	}
}

func TestFromElementsRejects(t *testing.T) {
	leaf := func(name string) meta.SchemaElement {
		return meta.SchemaElement{Name: name, Type: meta.Some(meta.Int32), RepetitionType: meta.Some(meta.Required)}
	}
	group := func(name string, n int32) meta.SchemaElement {
		return meta.SchemaElement{Name: name, NumChildren: meta.Some(n), RepetitionType: meta.Some(meta.Optional)}
	}
	deep := []meta.SchemaElement{{Name: "m", NumChildren: meta.Some(int32(1))}}
	for i := 0; i < MaxDepth+1; i++ {
		deep = append(deep, group("g", 1))
	}
	deep = append(deep, leaf("x"))
	cases := []struct {
		name string
		els  []meta.SchemaElement
		msg  string
	}{
		{"empty", nil, "no schema elements"},
		{"too many children", []meta.SchemaElement{{Name: "m", NumChildren: meta.Some(int32(1000000))}, leaf("a")}, "claims 1000000 children but only 1 elements follow"},
		{"negative children", []meta.SchemaElement{{Name: "m", NumChildren: meta.Some(int32(1))}, group("g", -3)}, "num_children -3"},
		{"children consumed by descendants", []meta.SchemaElement{{Name: "m", NumChildren: meta.Some(int32(2))}, group("g", 2), leaf("a"), leaf("b")}, "the root claims more children than the 4 schema elements hold"},
		{"grandchildren consumed", []meta.SchemaElement{{Name: "m", NumChildren: meta.Some(int32(1))}, group("g", 2), group("h", 2), leaf("a"), leaf("b")}, "group g claims more children than the 5 schema elements hold"},
		{"extra elements", []meta.SchemaElement{{Name: "m", NumChildren: meta.Some(int32(1))}, leaf("a"), leaf("b")}, "outside the root"},
		{"too deep", deep, "deeper than 100"},
		{"bad type", []meta.SchemaElement{{Name: "m", NumChildren: meta.Some(int32(1))}, {Name: "a", Type: meta.Some(meta.Type(9))}}, "physical type 9"},
		{"flba without length", []meta.SchemaElement{{Name: "m", NumChildren: meta.Some(int32(1))}, {Name: "a", Type: meta.Some(meta.FixedLenByteArray)}}, "type_length"},
		{"bad repetition", []meta.SchemaElement{{Name: "m", NumChildren: meta.Some(int32(1))}, {Name: "a", Type: meta.Some(meta.Int32), RepetitionType: meta.Some(meta.FieldRepetitionType(7))}}, "repetition type 7"},
	}
	for _, c := range cases {
		_, err := FromElements(c.els)
		if err == nil || !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s: error %v, want ErrInvalid containing %q", c.name, err, c.msg)
		}
	}
}

func TestParseErrorsCarryPosition(t *testing.T) {
	cases := []struct{ text, want string }{
		{"message m {\n  required int33 x;\n}", "2:12: unknown type 'int33'"},
		{"message m {\n  required int32 x\n}", "3:1: expected \";\", found '}'"},
		{"message m {\n  optional binary s (STRNG);\n}", "2:22: unknown annotation 'STRNG'"},
		{"message m {\n  optional int32 d (DECIMAL(9));\n}", "2:21: DECIMAL takes 2 parameters, found 1"},
		{"message m {\n  optional int64 t (TIMESTAMP(MICROS));\n}", "2:21: TIMESTAMP needs a unit"},
		{"message m {\n  optional int32 i (INT(7,true));\n}", "2:25: bit width must be 8, 16, 32 or 64"},
		{"mesage m {}", "1:1: expected 'message'"},
		{"message m {\n  required fixed_len_byte_array(0) f;\n}", "2:33: expected a positive length"},
		{"message m { required int32 a; } extra", "1:33: unexpected 'extra' after the message"},
		{"message m { required binary s (STRING); \"", "1:41: unterminated string"},
	}
	for _, c := range cases {
		_, err := Parse(c.text)
		var se *SyntaxError
		if !errors.As(err, &se) || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("Parse(%q): %v, want prefix %q", c.text, err, c.want)
		}
	}
}

func TestParseAcceptsOtherSpellings(t *testing.T) {
	// parquet-java's legacy names, INTEGER, id before annotation, Arrow's
	// key=value parameters, comments and quoted names.
	text := `message m {
  // a comment
  required binary a (UTF8);
  required int32 b = 4 (INTEGER(16,true));
  required int64 c (TIMESTAMP(isAdjustedToUTC=false, timeUnit=milliseconds, is_from_converted_type=false));
  required int32 d (DATE);
  required int64 e (TIMESTAMP_MICROS);
  required int32 f (UINT_32);
  required byte_array "with space" (JSON);
  optional group kv (MAP_KEY_VALUE) { repeated group map { required binary key; } };
}`
	s, err := Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	want := `message m {
  required binary a (STRING);
  required int32 b (INT(16,true)) = 4;
  required int64 c (TIMESTAMP(MILLIS,false));
  required int32 d (DATE);
  required int64 e (TIMESTAMP_MICROS);
  required int32 f (INT(32,false));
  required binary "with space" (JSON);
  optional group kv (MAP_KEY_VALUE) {
    repeated group map {
      required binary key;
    }
  }
}
`
	if got := s.String(); got != want {
		t.Fatal(cmp.Diff(want, got))
	}
	if c := s.Leaf("e").Converted; c != meta.Some(meta.ConvertedTimestampMicros) {
		t.Errorf("legacy annotation not kept as ConvertedType: %+v", c)
	}
}

func FuzzParse(f *testing.F) {
	f.Add(nested)
	f.Add("message m { required int32 a; }")
	f.Add("message m { required fixed_len_byte_array(3) d (DECIMAL(7,2)); optional group g (LIST) { repeated int32 x (DATE); } }")
	f.Fuzz(func(t *testing.T, text string) {
		s, err := Parse(text)
		if err != nil {
			return
		}
		// Whatever parses prints to text that parses to the same print.
		again, err := Parse(s.String())
		if err != nil {
			t.Fatalf("printed schema does not parse: %v\n%s", err, s.String())
		}
		if again.String() != s.String() {
			t.Fatalf("print/parse not stable:\n%s", cmp.Diff(s.String(), again.String()))
		}
		// The check of annotations never panics, and judges the printed
		// schema as it judges the parsed one.
		if e1, e2 := CheckAnnotations(s), CheckAnnotations(again); (e1 == nil) != (e2 == nil) || e1 != nil && !errors.Is(e1, ErrInvalid) {
			t.Fatalf("CheckAnnotations: %v, after printing %v", e1, e2)
		}
	})
}

// TestIsTwoLevelElement: the LIST backward-compatibility rules, on the
// specification's examples and the three-level layout under other names.
func TestIsTwoLevelElement(t *testing.T) {
	for _, c := range []struct {
		text string
		want bool
	}{
		{`optional group l (LIST) { repeated int32 element; }`, true},                                         // rule 1
		{`optional group l (LIST) { repeated group element { required binary s; required int32 n; } }`, true}, // rule 2
		{`optional group l (LIST) { repeated group element { repeated int32 n; } }`, true},                    // rule 3
		{`optional group l (LIST) { repeated group array { required binary s; } }`, true},                     // rule 4
		{`optional group l (LIST) { repeated group l_tuple { required binary s; } }`, true},                   // rule 4
		{`optional group l (LIST) { repeated group element { required binary s; } }`, false},                  // rule 5
		{`optional group l (LIST) { repeated group list { optional int32 element; } }`, false},
		{`optional group l (LIST) { repeated group bag { optional group array { optional int32 x; } } }`, false},
		{`optional group l (LIST) { repeated group m_tuple { required binary s; } }`, false},
	} {
		s, err := Parse("message m { " + c.text + " }")
		if err != nil {
			t.Fatal(err)
		}
		if got := s.Root.Children[0].Children[0].IsTwoLevelElement(); got != c.want {
			t.Errorf("%s: %v, want %v", c.text, got, c.want)
		}
	}
}
