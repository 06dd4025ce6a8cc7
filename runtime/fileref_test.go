package runtime

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/pqgen/pqgen/runtime/schema"
)

// TestFileRefResolve walks the resolution table of the FILE type, row by
// row, and its validation rules.
func TestFileRefResolve(t *testing.T) {
	uri := ptr("s3://bucket/file.jpg")
	for _, c := range []struct {
		name string
		ref  FileRef
		want string // FileTarget.String, or "" for invalid
	}{
		{"inline", FileRef{Inline: []byte("abc")}, "inline bytes (3)"},
		{"empty inline", FileRef{Inline: []byte{}}, "inline bytes (0)"},
		{"inline with provenance", FileRef{Inline: []byte("ab"), URI: uri, Offset: ptr(int64(5)), Size: ptr(int64(2))}, "inline bytes (2)"},
		{"whole external", FileRef{URI: uri}, "external URI s3://bucket/file.jpg"},
		{"external offset only", FileRef{URI: uri, Offset: ptr(int64(3))}, ""},
		{"external size only", FileRef{URI: uri, Size: ptr(int64(10))}, "external URI s3://bucket/file.jpg [0, 10)"},
		{"external range", FileRef{URI: uri, Offset: ptr(int64(10)), Size: ptr(int64(20))}, "external URI s3://bucket/file.jpg [10, 30)"},
		{"offset only", FileRef{Offset: ptr(int64(3))}, ""},
		{"size only", FileRef{Size: ptr(int64(3))}, ""},
		{"self range", FileRef{Offset: ptr(int64(4)), Size: ptr(int64(100))}, "range of this file [4, 104)"},
		{"nothing", FileRef{ContentType: ptr("image/png")}, ""},
		{"empty uri is unset", FileRef{URI: ptr("")}, ""},
		{"negative offset", FileRef{URI: uri, Offset: ptr(int64(-1)), Size: ptr(int64(1))}, ""},
		{"negative size", FileRef{Offset: ptr(int64(0)), Size: ptr(int64(-1))}, ""},
		{"overflow", FileRef{Offset: ptr(int64(1)), Size: ptr(int64(1<<63 - 1))}, ""},
		{"zero size", FileRef{Offset: ptr(int64(7)), Size: ptr(int64(0))}, "range of this file [7, 7)"},
	} {
		got, err := c.ref.Resolve()
		if c.want == "" {
			if !errors.Is(err, ErrFileRef) || got.Kind != FileRefInvalid || c.ref.Validate() == nil {
				t.Errorf("%s: %v, %v; want an error wrapping ErrFileRef", c.name, got, err)
			}
			continue
		}
		if err != nil || got.String() != c.want || c.ref.Validate() != nil {
			t.Errorf("%s: %q, %v; want %q", c.name, got, err, c.want)
		}
	}
	if m := (FileRef{}).MediaType(); m != "application/octet-stream" {
		t.Errorf("default media type %q", m)
	}
	if m := (FileRef{ContentType: ptr("image/png")}).MediaType(); m != "image/png" {
		t.Errorf("media type %q", m)
	}
}

// TestFileRefBytes reads inline values and ranges of a file through its
// ReaderAt, and refuses ranges past the end, external references and
// sizes above the limit.
func TestFileRefBytes(t *testing.T) {
	s := mustSchema(t, "message m { required int32 x; }")
	var buf bytes.Buffer
	w, err := NewFileWriter(&buf, s)
	if err != nil {
		t.Fatal(err)
	}
	x, _ := w.Int32Buffer(0)
	x.Values = append(x.Values, 1)
	if err := w.EndRows(1); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	f := openBytes(t, buf.Bytes())
	size := int64(buf.Len())
	for _, c := range []struct {
		name string
		ref  FileRef
		max  int64
		want []byte // nil: an error
	}{
		{"magic", FileRef{Offset: ptr(int64(0)), Size: ptr(int64(4))}, 0, []byte("PAR1")},
		{"trailing magic", FileRef{Offset: ptr(size - 4), Size: ptr(int64(4))}, 0, []byte("PAR1")},
		{"empty range at the end", FileRef{Offset: ptr(size), Size: ptr(int64(0))}, 0, []byte{}},
		{"inline", FileRef{Inline: []byte("hello")}, 0, []byte("hello")},
		{"past the end", FileRef{Offset: ptr(size - 2), Size: ptr(int64(4))}, 0, nil},
		{"beyond", FileRef{Offset: ptr(size + 1), Size: ptr(int64(0))}, 0, nil},
		// A size from the file far beyond it is refused before any allocation.
		{"huge size", FileRef{Offset: ptr(int64(0)), Size: ptr(int64(1) << 50)}, 0, nil},
		{"huge offset", FileRef{Offset: ptr(int64(1) << 62), Size: ptr(int64(1) << 40)}, 0, nil},
		{"above the limit", FileRef{Offset: ptr(int64(0)), Size: ptr(int64(4))}, 3, nil},
		{"inline above the limit", FileRef{Inline: []byte("hello")}, 4, nil},
		{"external", FileRef{URI: ptr("file:///etc/hosts")}, 0, nil},
		{"invalid", FileRef{Size: ptr(int64(4))}, 0, nil},
	} {
		got, err := f.ReadFileRef(c.ref, c.max)
		if c.want == nil {
			if !errors.Is(err, ErrFileRef) {
				t.Errorf("%s: %q, %v; want an error wrapping ErrFileRef", c.name, got, err)
			}
			continue
		}
		if err != nil || !bytes.Equal(got, c.want) {
			t.Errorf("%s: %q, %v; want %q", c.name, got, err, c.want)
		}
	}
}

// TestCheckFileGroup checks the specification's example groups and
// groups the FILE type does not allow.
func TestCheckFileGroup(t *testing.T) {
	for _, c := range []struct {
		text string
		ok   bool
	}{
		{`optional group my_file (FILE) {
  optional binary uri (STRING);
  optional int64 offset;
  optional int64 size;
  optional binary content_type (STRING);
  optional binary checksum (STRING);
  optional binary inline;
}`, true},
		{`optional group inline_file (FILE) { optional binary inline; optional binary content_type (STRING); }`, true},
		{`optional group external_file (FILE) { optional binary uri (STRING); optional binary content_type (STRING); optional binary checksum (STRING); }`, true},
		{`optional group f (FILE) { optional binary uri; }`, true},
		{`optional group f (FILE) { required binary uri (STRING); }`, false},
		{`optional group f (FILE) { optional binary URI (STRING); }`, false},
		{`optional group f (FILE) { optional int32 offset; }`, false},
		{`optional group f (FILE) { optional binary inline (STRING); }`, false},
		{`optional group f (FILE) { optional int64 mtime; }`, false},
		{`optional group f (FILE) { optional group uri { optional binary x; } }`, false},
	} {
		s, err := schema.Parse("message m {\n" + c.text + "\n}")
		if err != nil {
			t.Fatalf("%s: %v", c.text, err)
		}
		err = CheckFileGroup(s.Root.Children[0])
		if (err == nil) != c.ok || err != nil && !errors.Is(err, ErrFileRef) {
			t.Errorf("%s: %v, want ok %v", c.text, err, c.ok)
		}
	}
}

// TestWriteFileRefValidation: EndRows rejects a present FILE value that
// does not resolve (error wrapping ErrFileRef) and accepts null groups and
// valid values; in a list of FILE groups every element is checked.
func TestWriteFileRefValidation(t *testing.T) {
	type fv struct {
		def uint8
		s   string // uri, inline
		n   int64  // offset, size
	}
	// Fields in schema order: uri, offset, size, inline; def 0 null group,
	// 1 present field unset, 2 set.
	for _, c := range []struct {
		name string
		row  [4]fv
		ok   bool
	}{
		{"null group", [4]fv{{}, {}, {}, {}}, true},
		{"inline", [4]fv{{def: 1}, {def: 1}, {def: 1}, {def: 2, s: "x"}}, true},
		{"empty inline", [4]fv{{def: 1}, {def: 1}, {def: 1}, {def: 2}}, true},
		{"self range", [4]fv{{def: 1}, {def: 2, n: 4}, {def: 2, n: 10}, {def: 1}}, true},
		{"external", [4]fv{{def: 2, s: "s3://b/k"}, {def: 1}, {def: 1}, {def: 1}}, true},
		{"offset without size", [4]fv{{def: 2, s: "s3://b/k"}, {def: 2, n: 4}, {def: 1}, {def: 1}}, false},
		{"nothing set", [4]fv{{def: 1}, {def: 1}, {def: 1}, {def: 1}}, false},
		{"empty uri", [4]fv{{def: 2}, {def: 1}, {def: 1}, {def: 1}}, false},
		{"size only", [4]fv{{def: 1}, {def: 1}, {def: 2, n: 3}, {def: 1}}, false},
		{"negative size", [4]fv{{def: 1}, {def: 2, n: 0}, {def: 2, n: -1}, {def: 1}}, false},
	} {
		s := mustSchema(t, `message m {
  optional group f (FILE) {
    optional binary uri (STRING);
    optional int64 offset;
    optional int64 size;
    optional binary inline;
  }
}`)
		var buf bytes.Buffer
		w, err := NewFileWriter(&buf, s)
		if err != nil {
			t.Fatal(err)
		}
		for i, f := range c.row {
			if i == 1 || i == 2 {
				b, _ := w.Int64Buffer(i)
				b.Def = append(b.Def, f.def)
				if f.def == 2 {
					b.Values = append(b.Values, f.n)
				}
				continue
			}
			b, _ := w.ByteArrayBuffer(i)
			b.Def = append(b.Def, f.def)
			if f.def == 2 {
				b.Values.AppendString(f.s)
			}
		}
		err = w.EndRows(1)
		if c.ok != (err == nil) || err != nil && !errors.Is(err, ErrFileRef) {
			t.Errorf("%s: %v", c.name, err)
		}
	}

	// A list of FILE groups: the second element of the second row lacks
	// a size.
	s := mustSchema(t, `message m {
  optional group files (LIST) {
    repeated group list {
      optional group element (FILE) { optional int64 offset; optional int64 size; }
    }
  }
}`)
	var buf bytes.Buffer
	w, err := NewFileWriter(&buf, s)
	if err != nil {
		t.Fatal(err)
	}
	off, _ := w.Int64Buffer(0)
	size, _ := w.Int64Buffer(1)
	// Row 0: [ {0, 4} ]; row 1: [ null, {8, -} ].
	off.Rep, off.Def, off.Values = []uint8{0, 0, 1}, []uint8{4, 2, 4}, []int64{0, 8}
	size.Rep, size.Def, size.Values = []uint8{0, 0, 1}, []uint8{4, 2, 3}, []int64{4}
	if err := w.EndRows(2); !errors.Is(err, ErrFileRef) || !strings.Contains(err.Error(), "value 2") {
		t.Fatalf("list of FILE groups: %v", err)
	}
}
