package variant

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/pqgen/pqgen/internal/corpus"
)

func mustParse(t *testing.T, m, v []byte) Value {
	t.Helper()
	x, err := Parse(m, v)
	if err != nil {
		t.Fatalf("Parse(% x, % x): %v", m, v, err)
	}
	return x
}

// TestSpecObjectOrder builds the specification's example object
// {"c": 3, "b": 2, "a": 1}: field ids and offsets sorted by key, values in
// append order. Bytes worked out by hand from the encoding's layout.
func TestSpecObjectOrder(t *testing.T) {
	var b Builder
	b.StartObject()
	b.Key("c")
	b.AppendInt(3)
	b.Key("b")
	b.AppendInt(2)
	b.Key("a")
	b.AppendInt(1)
	b.End()
	m, v, err := b.Finish()
	if err != nil {
		t.Fatal(err)
	}
	// Dictionary in first-use order c, b, a: not sorted, 1-byte offsets.
	wantM := []byte{0x01, 3, 0, 1, 2, 3, 'c', 'b', 'a'}
	// Object header: basic type 2, offset size 1, id size 1, not large
	// -> 0b000000_10; 3 elements; ids a=2, b=1, c=0; offsets of a, b, c in
	// the values region (c at 0, b at 2, a at 4) then the size 6; values
	// int8 3, int8 2, int8 1 (header 3<<2 = 0x0c).
	wantV := []byte{0x02, 3, 2, 1, 0, 4, 2, 0, 6, 0x0c, 3, 0x0c, 2, 0x0c, 1}
	if !bytes.Equal(m, wantM) || !bytes.Equal(v, wantV) {
		t.Fatalf("got\n% x\n% x\nwant\n% x\n% x", m, v, wantM, wantV)
	}
	x := mustParse(t, m, v)
	if got := x.String(); got != `{"a":1,"b":2,"c":3}` {
		t.Fatalf("JSON %s", got)
	}
	if f, ok := x.Get("b"); !ok || f.Int() != 2 || f.Kind() != KindInt8 {
		t.Fatalf("Get(b) = %v %v", f, ok)
	}
	if _, ok := x.Get("d"); ok {
		t.Fatal("Get(d) found a field")
	}
}

// TestLargeSizes crosses every size boundary: 256 elements (is_large), 2-
// and 3-byte offsets, 2-byte field ids, 4-byte string lengths.
func TestLargeSizes(t *testing.T) {
	var b Builder
	b.StartObject()
	for i := range 300 {
		b.Key(strings.Repeat("k", 1+i%7) + string(rune('a'+i%26)) + string(rune('A'+i/26)))
		b.AppendString(strings.Repeat("x", i*3))
	}
	b.Key("arr")
	b.StartArray()
	for i := range 70000 {
		b.AppendInt(int64(i))
	}
	b.End()
	b.End()
	m, v, err := b.Finish()
	if err != nil {
		t.Fatal(err)
	}
	x := mustParse(t, m, v)
	if x.Len() != 301 {
		t.Fatalf("Len %d", x.Len())
	}
	if v[0] != (0x10|1<<2|2)<<2|basicObject { // large, 2-byte ids, 3-byte offsets
		t.Fatalf("object header %08b", v[0])
	}
	arr, ok := x.Get("arr")
	if !ok || arr.Len() != 70000 || arr.Index(69999).Int() != 69999 || arr.Index(300).Kind() != KindInt16 {
		t.Fatalf("arr: %v %d", ok, arr.Len())
	}
	s, _ := x.Get("kkkkkkgF") // i=292? find any long string and check its size
	_ = s
	for i := range x.Len() {
		name, f := x.Field(i)
		if name == "arr" {
			continue
		}
		if f.Kind() != KindString {
			t.Fatalf("%s: %v", name, f.Kind())
		}
	}
}

// TestCorpusBinary decodes every example of variant/ and checks it against
// data_dictionary.json: primitives by kind and exact value, objects and
// arrays structurally.
func TestCorpusBinary(t *testing.T) {
	dir := filepath.Join(corpus.Dir(t), "variant")
	raw, err := os.ReadFile(filepath.Join(dir, "data_dictionary.json"))
	if err != nil {
		t.Fatal(err)
	}
	// The file ends its object with a trailing comma (NOTES.md).
	raw = regexp.MustCompile(`,\s*}\s*$`).ReplaceAll(raw, []byte("}"))
	var dict map[string]any
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	if err := d.Decode(&dict); err != nil {
		t.Fatal(err)
	}
	us := func(s string) int64 { tm, _ := time.Parse(time.RFC3339Nano, s); return tm.UnixMicro() }
	ns := func(s string) int64 { tm, _ := time.Parse(time.RFC3339Nano, s); return tm.UnixNano() }
	type want struct {
		kind Kind
		val  any
	}
	prims := map[string]want{
		"primitive_null":               {KindNull, nil},
		"primitive_boolean_true":       {KindTrue, true},
		"primitive_boolean_false":      {KindFalse, false},
		"primitive_int8":               {KindInt8, int64(42)},
		"primitive_int16":              {KindInt16, int64(1234)},
		"primitive_int32":              {KindInt32, int64(123456)},
		"primitive_int64":              {KindInt64, int64(1234567890123456789)},
		"primitive_double":             {KindDouble, 1234567890.1234},
		"primitive_float":              {KindFloat, float64(float32(1234567940.0))},
		"primitive_decimal4":           {KindDecimal4, "12.34"},
		"primitive_decimal8":           {KindDecimal8, "12345678.90"},
		"primitive_decimal16":          {KindDecimal16, "12345678912345678.90"},
		"primitive_date":               {KindDate, int32(time.Date(2025, 4, 16, 0, 0, 0, 0, time.UTC).Unix() / 86400)},
		"primitive_timestamp":          {KindTimestamp, us("2025-04-16T12:34:56.78-04:00")},
		"primitive_timestampntz":       {KindTimestampNTZ, us("2025-04-16T12:34:56.78Z")},
		"primitive_timestamp_nanos":    {KindTimestampNanos, ns("2024-11-07T12:33:54.123456789Z")},
		"primitive_timestampntz_nanos": {KindTimestampNTZNanos, ns("2024-11-07T12:33:54.123456789Z")},
		"primitive_time":               {KindTime, int64(((12*60+33)*60+54)*1_000_000 + 123456)},
		"primitive_binary":             {KindBinary, "AxM33q2+78r+"},
		"primitive_string":             {KindString, dict["primitive_string"]},
		"short_string":                 {KindString, dict["short_string"]},
		"primitive_uuid":               {KindUUID, `"f24f9b64-81fa-49d1-b74e-8c09a6e31c56"`},
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.value"))
	if len(files) < 29 {
		t.Fatalf("%d .value files in %s", len(files), dir)
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".value")
		t.Run(name, func(t *testing.T) {
			mb, err := os.ReadFile(strings.TrimSuffix(f, ".value") + ".metadata")
			if err != nil {
				t.Fatal(err)
			}
			vb, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			v := mustParse(t, mb, vb)
			checkRebuild(t, v)
			if w, ok := prims[name]; ok {
				if v.Kind() != w.kind {
					t.Fatalf("kind %v, want %v", v.Kind(), w.kind)
				}
				var got any
				switch w.kind {
				case KindNull:
				case KindTrue, KindFalse:
					got = v.Bool()
				case KindInt8, KindInt16, KindInt32, KindInt64:
					got = v.Int()
				case KindDouble, KindFloat:
					got = v.Float()
				case KindDecimal4, KindDecimal8, KindDecimal16:
					got = string(v.Decimal().Append(nil))
				case KindDate:
					got = v.Date()
				case KindTimestamp, KindTimestampNTZ, KindTimestampNanos, KindTimestampNTZNanos, KindTime:
					got = v.Timestamp()
				case KindBinary:
					got = strings.Trim(v.String(), `"`)
				case KindString:
					got = v.Str()
				case KindUUID:
					got = v.String()
				}
				if got != w.val {
					t.Fatalf("value %#v, want %#v", got, w.val)
				}
				return
			}
			if name == "long_string" { // not in the dictionary (NOTES.md)
				if v.Kind() != KindString || len(v.Str()) < 64 || v.b[0]&3 != basicPrimitive {
					t.Fatalf("long_string: %v, %d bytes", v.Kind(), len(v.Str()))
				}
				return
			}
			exp, ok := dict[name]
			if !ok {
				t.Fatalf("%s: not in data_dictionary.json", name)
			}
			var got any
			d := json.NewDecoder(strings.NewReader(v.String()))
			d.UseNumber()
			if err := d.Decode(&got); err != nil {
				t.Fatalf("our JSON %s: %v", v, err)
			}
			if diff := cmp.Diff(normJSON(exp), normJSON(got)); diff != "" {
				t.Fatalf("%s (-dictionary +ours):\n%s", v, diff)
			}
		})
	}
}

// normJSON turns json.Numbers into float64 so that 1.23456789 (double)
// and 1 (int8) compare by value.
func normJSON(x any) any {
	switch x := x.(type) {
	case json.Number:
		f, _ := x.Float64()
		return f
	case map[string]any:
		out := map[string]any{}
		for k, v := range x {
			out[k] = normJSON(v)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, v := range x {
			out[i] = normJSON(v)
		}
		return out
	}
	return x
}

// checkRebuild re-encodes v with a fresh dictionary, walking it (not
// copying bytes), and checks the result parses to the same JSON.
func checkRebuild(t *testing.T, v Value) {
	t.Helper()
	var b Builder
	b.AppendValue(v)
	m, val, err := b.Finish()
	if err != nil {
		t.Fatalf("rebuild: %v", err)
	}
	w := mustParse(t, m, val)
	if w.String() != v.String() {
		t.Fatalf("rebuilt %s, want %s", w, v)
	}
	// Encoded against the original dictionary, the bytes are copied.
	fb := NewBuilderFor(v.Metadata())
	fb.AppendValue(v)
	m2, val2, err := fb.Finish()
	if err != nil || !bytes.Equal(m2, v.Metadata().Bytes()) || !bytes.Equal(val2, v.Raw()) {
		t.Fatalf("fixed-dictionary copy differs: %v", err)
	}
}

func TestFromJSON(t *testing.T) {
	cases := []struct{ in, out string }{
		{`null`, `null`},
		{`[true,false,0,-128,128,-32769,2147483648,-9223372036854775808]`, `[true,false,0,-128,128,-32769,2147483648,-9223372036854775808]`},
		{`12.30`, `12.30`},
		{`-0.001`, `-0.001`},
		{`99999999999999999999999999999999999999`, `99999999999999999999999999999999999999`},
		{`999999999999999999999999999999999999999`, `1e+39`},
		{`1.5e3`, `1500`},
		{`{"b":{"y":[],"x":{}},"a":"é"}`, `{"a":"é","b":{"x":{},"y":[]}}`},
		{`"` + strings.Repeat("long ", 20) + `"`, `"` + strings.Repeat("long ", 20) + `"`},
	}
	for _, c := range cases {
		m, v, err := FromJSON([]byte(c.in))
		if err != nil {
			t.Fatalf("%s: %v", c.in, err)
		}
		x := mustParse(t, m, v)
		if got := x.String(); got != c.out {
			t.Errorf("%s -> %s, want %s", c.in, got, c.out)
		}
	}
	x := mustJSON(t, `12.30`)
	if x.Kind() != KindDecimal4 || x.Decimal().Scale != 2 {
		t.Fatalf("12.30: %v scale %d", x.Kind(), x.Decimal().Scale)
	}
	x = mustJSON(t, `-1234567890123.5`)
	if x.Kind() != KindDecimal8 {
		t.Fatalf("decimal8: %v", x.Kind())
	}
	for _, bad := range []string{`{"a":1,"a":2}`, `[1,`, `{"a"}`, `1 2`} {
		if _, _, err := FromJSON([]byte(bad)); err == nil {
			t.Errorf("%s: no error", bad)
		}
	}
}

func mustJSON(t *testing.T, s string) Value {
	t.Helper()
	m, v, err := FromJSON([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return mustParse(t, m, v)
}

func mustFinish(t *testing.T, b *Builder) Value {
	t.Helper()
	m, v, err := b.Finish()
	if err != nil {
		t.Fatal(err)
	}
	return mustParse(t, m, v)
}

func TestTemporalJSON(t *testing.T) {
	var b Builder
	b.StartArray()
	b.AppendDate(-1)
	b.AppendTimestamp(KindTimestamp, 1_500_000)
	b.AppendTimestamp(KindTimestampNTZ, -1)
	b.AppendTimestamp(KindTimestampNanos, 1)
	b.AppendTimestamp(KindTime, 86399_999_999)
	b.AppendDouble(math.Inf(-1))
	b.AppendFloat(float32(math.NaN()))
	b.AppendBinary([]byte{0xff})
	b.AppendUUID([16]byte{0: 0xab, 15: 0x01})
	b.End()
	x := mustFinish(t, &b)
	want := `["1969-12-31","1970-01-01T00:00:01.500000Z","1969-12-31T23:59:59.999999","1970-01-01T00:00:00.000000001Z","23:59:59.999999","-Infinity","NaN","/w==","ab000000-0000-0000-0000-000000000001"]`
	if got := x.String(); got != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
}

func TestBuilderMisuse(t *testing.T) {
	cases := map[string]func(b *Builder){
		"value without key": func(b *Builder) { b.StartObject(); b.AppendInt(1); b.End() },
		"key in array":      func(b *Builder) { b.StartArray(); b.Key("a"); b.End() },
		"two keys":          func(b *Builder) { b.StartObject(); b.Key("a"); b.Key("b") },
		"dangling key":      func(b *Builder) { b.StartObject(); b.Key("a"); b.End() },
		"duplicate": func(b *Builder) {
			b.StartObject()
			b.Key("a")
			b.AppendNull()
			b.Key("a")
			b.AppendNull()
			b.End()
		},
		"two values":   func(b *Builder) { b.AppendNull(); b.AppendNull() },
		"unclosed":     func(b *Builder) { b.StartArray() },
		"extra end":    func(b *Builder) { b.AppendNull(); b.End() },
		"empty":        func(b *Builder) {},
		"bad utf8":     func(b *Builder) { b.AppendString("\xff") },
		"scale":        func(b *Builder) { b.AppendDecimal(Decimal{Scale: 39}) },
		"not temporal": func(b *Builder) { b.AppendTimestamp(KindInt64, 1) },
	}
	for name, f := range cases {
		var b Builder
		f(&b)
		if _, _, err := b.Finish(); !errors.Is(err, ErrBuild) {
			t.Errorf("%s: err %v", name, err)
		}
	}
	fb := NewBuilderFor(mustJSON(t, `{"a":1}`).Metadata())
	fb.StartObject()
	fb.Key("zz")
	if _, _, err := fb.Finish(); !errors.Is(err, ErrBuild) {
		t.Errorf("key outside fixed dictionary: %v", err)
	}
}

func TestMalformed(t *testing.T) {
	m := []byte{0x01, 2, 0, 1, 2, 'a', 'b'} // names a, b
	cases := map[string]struct{ m, v []byte }{
		"empty value":           {m, nil},
		"truncated int32":       {m, []byte{byte(KindInt32) << 2, 1, 2}},
		"unknown primitive":     {m, []byte{21 << 2}},
		"long string past end":  {m, []byte{byte(KindString) << 2, 9, 0, 0, 0, 'a'}},
		"short string past end": {m, []byte{3<<2 | 1, 'a'}},
		"bad utf8":              {m, []byte{1<<2 | 1, 0xff}},
		"decimal scale":         {m, []byte{byte(KindDecimal4) << 2, 39, 0, 0, 0, 0}},
		"id out of range":       {m, []byte{0x02, 1, 2, 0, 1, 0}},
		"unsorted keys twice":   {m, []byte{0x02, 3, 1, 0, 1, 0, 1, 2, 3, 0, 0, 0}},
		"keys duplicate":        {m, []byte{0x02, 2, 0, 0, 0, 1, 2, 0, 0}},
		"offset outside":        {m, []byte{0x03, 1, 5, 1, 0}},
		"overlap":               {m, []byte{0x03, 3, 0, 0, 0, 2, byte(KindInt8) << 2, 7}},
		"region past end":       {m, []byte{0x03, 1, 0, 9, 0}},
		"huge count":            {m, []byte{0x03 | 1<<4, 0xff, 0xff, 0xff, 0x7f}},
		"trailing":              {m, []byte{0, 0}},
		"array reserved bits":   {m, []byte{0x03 | 1<<5, 0, 0}},
		"bad metadata version":  {[]byte{0x02, 0, 0}, []byte{0}},
		"metadata unsorted":     {[]byte{0x11, 2, 0, 1, 2, 'b', 'a'}, []byte{0}},
		"metadata offsets":      {[]byte{0x01, 2, 0, 2, 1, 'a', 'b'}, []byte{0}},
		"metadata short":        {[]byte{0x01, 2, 0, 1}, []byte{0}},
		"metadata first offset": {[]byte{0x01, 1, 1, 1, 'a'}, []byte{0}},
	}
	for name, c := range cases {
		if _, err := Parse(c.m, c.v); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	deep := bytes.Repeat([]byte{0x03, 1, 0, 0}, MaxDepth+1)
	if _, err := Parse(emptyMetadata, deep); !errors.Is(err, ErrTooDeep) && !errors.Is(err, ErrMalformed) {
		t.Errorf("deep: %v", err)
	}
}

// TestDepthLimit nests arrays exactly to the limit and one past it.
func TestDepthLimit(t *testing.T) {
	build := func(depth int) []byte {
		var b Builder
		for range depth {
			b.StartArray()
		}
		b.AppendNull()
		for range depth {
			b.End()
		}
		_, v, err := b.Finish()
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	if _, err := Parse(emptyMetadata, build(MaxDepth)); err != nil {
		t.Fatalf("depth %d: %v", MaxDepth, err)
	}
	if _, err := Parse(emptyMetadata, build(MaxDepth+1)); !errors.Is(err, ErrTooDeep) {
		t.Fatalf("depth %d: %v", MaxDepth+1, err)
	}
}

// FuzzParse: any bytes either fail to parse or give a value whose
// accessors, JSON and re-encoding work and agree.
func FuzzParse(f *testing.F) {
	f.Add([]byte{0x01, 0, 0}, []byte{0})
	f.Add([]byte{0x01, 3, 0, 1, 2, 3, 'c', 'b', 'a'}, []byte{0x02, 3, 2, 1, 0, 4, 2, 0, 6, 0x0c, 3, 0x0c, 2, 0x0c, 1})
	f.Add([]byte{0x01, 2, 0, 1, 2, 'a', 'b'}, []byte{0x02, 2, 1, 0, 0, 2, 7, byte(KindInt8) << 2, 7, 0x03, 1, 0, 1, byte(KindTrue) << 2})
	if dir, ok := corpus.Lookup(); ok {
		files, _ := filepath.Glob(filepath.Join(dir, "variant", "*.value"))
		for _, p := range files {
			mb, _ := os.ReadFile(strings.TrimSuffix(p, ".value") + ".metadata")
			vb, _ := os.ReadFile(p)
			f.Add(mb, vb)
		}
	}
	f.Fuzz(func(t *testing.T, m, v []byte) {
		x, err := Parse(m, v)
		if err != nil {
			return
		}
		js := x.String()
		var b Builder
		b.AppendValue(x)
		m2, v2, err := b.Finish()
		if err != nil {
			t.Fatalf("rebuild: %v", err)
		}
		y, err := Parse(m2, v2)
		if err != nil {
			t.Fatalf("rebuilt value does not parse: %v", err)
		}
		if y.String() != js {
			t.Fatalf("rebuilt %s, want %s", y, js)
		}
	})
}

func TestEqual(t *testing.T) {
	eq := [][2]string{
		{`1`, `1.0`}, {`12.30`, `12.3`}, {`-5`, `-5.000`}, {`99999999999999999999`, `99999999999999999999.00`},
		{`{"a":[1,"x"],"b":null}`, `{"b":null,"a":[1.0,"x"]}`},
		{`"` + strings.Repeat("s", 70) + `"`, `"` + strings.Repeat("s", 70) + `"`},
	}
	for _, c := range eq {
		if !Equal(mustJSON(t, c[0]), mustJSON(t, c[1])) {
			t.Errorf("%s != %s", c[0], c[1])
		}
	}
	ne := [][2]string{{`1`, `2`}, {`1`, `"1"`}, {`1.5e0`, `1.5`}, {`{"a":1}`, `{"a":1,"b":1}`}, {`[1,2]`, `[2,1]`}, {`true`, `false`}, {`null`, `{}`}}
	for _, c := range ne {
		if Equal(mustJSON(t, c[0]), mustJSON(t, c[1])) {
			t.Errorf("%s == %s", c[0], c[1])
		}
	}
	// A short and a long string of the same bytes are equal.
	var b1, b2 Builder
	b1.AppendString("abc")
	b2.StartArray()
	b2.AppendValue(mustJSON(t, `"abc"`))
	b2.End()
	long := []byte{byte(KindString) << 2, 3, 0, 0, 0, 'a', 'b', 'c'}
	lv, err := Parse(emptyMetadata, long)
	if err != nil {
		t.Fatal(err)
	}
	if !Equal(mustFinish(t, &b1), lv) {
		t.Error("short and long string differ")
	}
}

// TestBuilderForSortsByName: a Builder on a fixed, unsorted dictionary
// stores an object's fields in name order (not id order) and rejects a
// key given twice.
func TestBuilderForSortsByName(t *testing.T) {
	md := EncodeMetadata([]string{"c", "a", "bb", "b"})
	m, err := ParseMetadata(md)
	if err != nil || m.Sorted() {
		t.Fatalf("metadata: sorted %v, %v", m.Sorted(), err)
	}
	b := NewBuilderFor(m)
	b.StartObject()
	for i, k := range []string{"c", "bb", "a", "b"} {
		b.Key(k)
		b.AppendInt8(int8(i))
	}
	b.End()
	_, val, err := b.Finish()
	if err != nil {
		t.Fatal(err)
	}
	v := mustParse(t, md, val)
	var got []string
	for i := range v.Len() {
		name, fv := v.Field(i)
		got = append(got, fmt.Sprintf("%s=%d/%d", name, fv.Int(), v.FieldID(i)))
	}
	if s := strings.Join(got, " "); s != "a=2/1 b=3/3 bb=1/2 c=0/0" {
		t.Fatalf("fields %s", s)
	}
	b = NewBuilderFor(m)
	b.StartObject()
	for range 2 {
		b.Key("bb")
		b.AppendNull()
	}
	b.End()
	if _, _, err := b.Finish(); !errors.Is(err, ErrBuild) || !strings.Contains(err.Error(), `duplicate key "bb"`) {
		t.Fatalf("duplicate key: %v", err)
	}
}

// TestBuilderForAllocates: once warm, building an object against a fixed
// dictionary allocates nothing (the shredding writer does so per row).
func TestBuilderForAllocates(t *testing.T) {
	m, err := ParseMetadata(EncodeMetadata([]string{"c", "a", "bb", "b"}))
	if err != nil {
		t.Fatal(err)
	}
	var b Builder
	var dst []byte
	build := func() {
		b.ResetFor(m)
		b.StartObject()
		for _, k := range []string{"c", "bb", "a", "b"} {
			b.Key(k)
			b.AppendInt8(1)
		}
		b.End()
		if dst, err = b.AppendTo(dst[:0]); err != nil {
			t.Fatal(err)
		}
	}
	build()
	if n := testing.AllocsPerRun(100, build); n != 0 {
		t.Fatalf("%v allocations per object", n)
	}
}

// TestUnsortedObject reads an object whose field ids are not in key
// order, as DuckDB 1.5 writes them: Parse accepts it and Unsorted reports
// it (on nested values too), Get finds every field by a linear scan,
// Field returns them as stored, and AppendValue re-encodes it in key
// order even on the value's own dictionary.
func TestUnsortedObject(t *testing.T) {
	m := []byte{0x01, 2, 0, 1, 2, 'a', 'b'} // names a, b
	// {"b": 7, "a": [true]}: ids 1, 0; offsets 0, 2, 7.
	raw := []byte{0x02, 2, 1, 0, 0, 2, 7, byte(KindInt8) << 2, 7, 0x03, 1, 0, 1, byte(KindTrue) << 2}
	v, err := Parse(m, raw)
	if err != nil {
		t.Fatal(err)
	}
	if !v.Unsorted() {
		t.Fatal("Unsorted: false")
	}
	if k, f := v.Field(0); k != "b" || f.Int() != 7 {
		t.Fatalf("Field(0) = %q %v", k, f)
	}
	b, ok := v.Get("b")
	if !ok || b.Int() != 7 {
		t.Fatalf(`Get("b") = %v %v`, b, ok)
	}
	a, ok := v.Get("a")
	if !ok || a.Kind() != KindArray || !a.Unsorted() || a.Index(0).Kind() != KindTrue {
		t.Fatalf(`Get("a") = %v %v`, a, ok)
	}
	if _, ok := v.Get("c"); ok {
		t.Fatal(`Get("c") found`)
	}
	md, err := ParseMetadata(m)
	if err != nil {
		t.Fatal(err)
	}
	bl := NewBuilderFor(md)
	bl.AppendValue(v)
	_, out, err := bl.Finish()
	if err != nil {
		t.Fatal(err)
	}
	// Ids and offsets in key order (a, b); values stay in append order.
	want := []byte{0x02, 2, 0, 1, 2, 0, 7, byte(KindInt8) << 2, 7, 0x03, 1, 0, 1, byte(KindTrue) << 2}
	if !bytes.Equal(out, want) {
		t.Fatalf("re-encoded % x, want % x", out, want)
	}
	again, err := Parse(m, out)
	if err != nil || again.Unsorted() || !Equal(again, v) {
		t.Fatalf("re-encoded value: %v, unsorted %v", err, again.Unsorted())
	}
	if v.String() != `{"a":[true],"b":7}` {
		t.Fatalf("JSON in key order: %s", v)
	}
	// A sorted object is not flagged.
	if s, err := Parse(m, want); err != nil || s.Unsorted() {
		t.Fatalf("sorted: %v %v", err, s.Unsorted())
	}
}
