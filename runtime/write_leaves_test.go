package runtime

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/pqgen/pqgen/runtime/encode"
	"github.com/pqgen/pqgen/runtime/variant"
)

const buffersSchema = `message m {
  required boolean b;
  optional int32 i32;
  required int64 i64;
  required int96 i96;
  required float f32;
  repeated double f64;
  optional binary s (STRING);
  required fixed_len_byte_array(3) fx;
  required group v (VARIANT) {
    required binary metadata;
    optional binary value;
  }
}`

// TestOpenBuffers: a table of every buffer kind sets each field to the
// buffer the FileWriter's own method returns for that column, and a row
// shredded through those fields is written.
func TestOpenBuffers(t *testing.T) {
	var buf bytes.Buffer
	fw, err := NewFileWriter(&buf, mustSchema(t, buffersSchema))
	if err != nil {
		t.Fatal(err)
	}
	var w struct {
		b   *BoolBuffer
		i32 *Int32Buffer
		i64 *Int64Buffer
		i96 *Int96Buffer
		f32 *FloatBuffer
		f64 *DoubleBuffer
		s   *ByteArrayBuffer
		fx  *FixedBuffer
		v   *VariantWriter
	}
	err = OpenBuffers(fw,
		Buffer(&w.b, 0), Buffer(&w.i32, 1), Buffer(&w.i64, 2), Buffer(&w.i96, 3),
		Buffer(&w.f32, 4), Buffer(&w.f64, 5), Buffer(&w.s, 6), Buffer(&w.fx, 7),
		VariantBuffer(&w.v, "v"))
	if err != nil {
		t.Fatal(err)
	}
	same := func(name string, got, want any, err error) {
		t.Helper()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got != want {
			t.Errorf("%s: OpenBuffers set %p, the FileWriter's method returns %p", name, got, want)
		}
	}
	bb, err := fw.BoolBuffer(0)
	same("b", w.b, bb, err)
	i32, err := fw.Int32Buffer(1)
	same("i32", w.i32, i32, err)
	i64, err := fw.Int64Buffer(2)
	same("i64", w.i64, i64, err)
	i96, err := fw.Int96Buffer(3)
	same("i96", w.i96, i96, err)
	f32, err := fw.FloatBuffer(4)
	same("f32", w.f32, f32, err)
	f64, err := fw.DoubleBuffer(5)
	same("f64", w.f64, f64, err)
	s, err := fw.ByteArrayBuffer(6)
	same("s", w.s, s, err)
	fx, err := fw.FixedBuffer(7)
	same("fx", w.fx, fx, err)
	if w.fx.Size != 3 {
		t.Errorf("fx.Size = %d, want 3", w.fx.Size)
	}
	if w.v == nil {
		t.Fatal("the Variant writer was not set")
	}
	// One row through the fields, as a generated shredder appends it.
	w.b.Values = append(w.b.Values, true)
	w.i32.Def = append(w.i32.Def, 0)
	w.i64.Values = append(w.i64.Values, 7)
	w.i96.Values = append(w.i96.Values, encode.Int96{1, 2, 3})
	w.f32.Values = append(w.f32.Values, 1.5)
	w.f64.Def = append(w.f64.Def, 0)
	w.f64.Rep = append(w.f64.Rep, 0)
	w.s.Def = append(w.s.Def, 1)
	w.s.Values.AppendString("x")
	w.fx.Values = append(w.fx.Values, 'a', 'b', 'c')
	if err := w.v.Append(encodeVariant(t, func(b *variant.Builder) { b.AppendInt64(5) }), 0); err != nil {
		t.Fatal(err)
	}
	if err := fw.EndRows(1); err != nil {
		t.Fatal(err)
	}
	if err := fw.Close(); err != nil {
		t.Fatal(err)
	}
	if n := fw.NumRows(); n != 1 {
		t.Errorf("the writer ended %d rows, want 1", n)
	}
	if _, err := OpenFile(bytes.NewReader(buf.Bytes()), int64(buf.Len())); err != nil {
		t.Fatal(err)
	}
}

// TestOpenBuffersErrors: a wrong type, a column out of range, a path that
// is no Variant group and an entry without destination are errors wrapping
// ErrColumnType that name the column, and the entries after the error are
// left unset.
func TestOpenBuffersErrors(t *testing.T) {
	var buf bytes.Buffer
	fw, err := NewFileWriter(&buf, mustSchema(t, buffersSchema))
	if err != nil {
		t.Fatal(err)
	}
	var (
		b   *BoolBuffer
		i32 *Int32Buffer
		i64 *Int64Buffer
		v   *VariantWriter
	)
	for _, c := range []struct {
		name string
		bufs []LeafBuffer
		want string
	}{
		{"wrong type", []LeafBuffer{Buffer(&b, 0), Buffer(&i64, 1), Buffer(&i32, 1)}, `column "i32" is int32`},
		{"out of range", []LeafBuffer{Buffer(&b, 0), Buffer(&i32, 10), Buffer(&i64, 2)}, "Int32Buffer(10): the schema has 10 leaf columns"},
		{"negative", []LeafBuffer{Buffer(&i32, -1), Buffer(&i64, 2)}, "Int32Buffer(-1)"},
		{"no Variant group", []LeafBuffer{Buffer(&b, 0), VariantBuffer(&v, "s"), Buffer(&i64, 2)}, `no group "s"`},
		{"zero entry", []LeafBuffer{Buffer(&b, 0), {}, Buffer(&i64, 2)}, "the entry of column 0 has no destination"},
		{"nil destination", []LeafBuffer{Buffer(&b, 0), Buffer((**Int32Buffer)(nil), 1), Buffer(&i64, 2)}, "the entry of column 1 has no destination"},
		{"nil Variant destination", []LeafBuffer{VariantBuffer(nil, "v"), Buffer(&i64, 2)}, `the entry of Variant group "v" has no destination`},
	} {
		b, i32, i64, v = nil, nil, nil, nil
		err := OpenBuffers(fw, c.bufs...)
		if !errors.Is(err, ErrColumnType) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want ErrColumnType with %q", c.name, err, c.want)
		}
		if i64 != nil {
			t.Errorf("%s: the entry after the error was set", c.name)
		}
	}
	if err := OpenBuffers(fw); err != nil {
		t.Errorf("an empty table: %v", err)
	}
}
