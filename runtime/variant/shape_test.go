package variant

import (
	"errors"
	"strings"
	"testing"

	"github.com/pqgen/pqgen/runtime/schema"
)

// TestShapeOfRejects: layouts VariantShredding.md does not allow are
// ErrShape, naming the reason.
func TestShapeOfRejects(t *testing.T) {
	for _, c := range []struct{ body, reason string }{
		{`optional binary value;`, "metadata"},
		{`required binary metadata;`, "neither value nor typed_value"},
		{`required binary metadata; optional int32 value;`, "value must be binary"},
		{`required binary metadata; optional binary value; optional binary other;`, `unexpected field "other"`},
		{`required binary metadata; optional int32 typed_value (INT(32, false));`, "typed_value"},
		{`required binary metadata; repeated int64 typed_value;`, "repeated"},
		{`required binary metadata; optional group typed_value {}`, "without fields"},
		{`required binary metadata; optional group typed_value { repeated group a { optional binary value; } }`, "required group"},
		{`required binary metadata; optional group typed_value { optional binary a; }`, "required group"},
		{`required binary metadata; optional group typed_value (LIST) { repeated binary list; }`, "3-level"},
		{`required binary metadata; optional group typed_value { required group a { required binary metadata; optional binary value; } }`, "below the top"},
	} {
		s, err := schema.Parse("message m { required group v (VARIANT) { " + c.body + " } }")
		if err != nil {
			t.Fatalf("%s: %v", c.body, err)
		}
		_, err = ShapeOf(s.Root.Children[0])
		if !errors.Is(err, ErrShape) || !strings.Contains(err.Error(), c.reason) {
			t.Errorf("%s: %v, want ErrShape saying %q", c.body, err, c.reason)
		}
	}
}

// TestShapeOf describes a shredded object with an array field.
func TestShapeOf(t *testing.T) {
	sh := mustShape(t, `message m { optional group v (VARIANT) {
  required binary metadata;
  optional binary value;
  optional group typed_value {
    required group a { optional binary value; optional int64 typed_value; }
    required group b { optional group typed_value (LIST) { repeated group list { required group element { optional binary typed_value (STRING); } } } }
  }
} }`)
	if sh.TypedKind != TypedObject || len(sh.Fields) != 2 || sh.Metadata.PathString() != "v.metadata" || sh.Value.PathString() != "v.value" {
		t.Fatalf("top: %+v", sh)
	}
	a, b := sh.Fields[0], sh.Fields[1]
	if a.Name != "a" || a.Shape.TypedKind != TypedPrimitive || a.Shape.Primitive != KindInt64 {
		t.Fatalf("a: %+v", a.Shape)
	}
	if b.Name != "b" || b.Shape.TypedKind != TypedArray || b.Shape.Value != nil || b.Shape.List.PathString() != "v.typed_value.b.typed_value.list" ||
		b.Shape.Element.TypedKind != TypedPrimitive || b.Shape.Element.Primitive != KindString {
		t.Fatalf("b: %+v", b.Shape)
	}
	if !sh.HasField("b") || sh.HasField("c") {
		t.Fatal("HasField")
	}
	var leaves []string
	for _, l := range sh.Leaves() {
		leaves = append(leaves, l.PathString())
	}
	if got := strings.Join(leaves, " "); got != "v.metadata v.value v.typed_value.a.value v.typed_value.a.typed_value v.typed_value.b.typed_value.list.element.typed_value" {
		t.Fatalf("Leaves: %s", got)
	}
}

// TestShapeOptionalField: an optional shredded field group, as
// hyparquet-writer 0.17 writes it, is accepted and reported.
func TestShapeOptionalField(t *testing.T) {
	sh := mustShape(t, `message m { optional group v (VARIANT) {
  required binary metadata;
  optional binary value;
  optional group typed_value {
    optional group a { optional binary value; optional group typed_value { optional group x { optional int32 typed_value; } } }
    required group b { optional binary value; }
  }
} }`)
	var got []string
	for _, n := range sh.OptionalFields() {
		got = append(got, n.PathString())
	}
	if strings.Join(got, " ") != "v.typed_value.a v.typed_value.a.typed_value.x" || !sh.Fields[0].Optional || sh.Fields[1].Optional {
		t.Fatalf("OptionalFields: %v", got)
	}
}

// mustShape returns the Shape of the first field of the schema text.
func mustShape(t *testing.T, text string) *Shape {
	t.Helper()
	s, err := schema.Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	sh, err := ShapeOf(s.Root.Children[0])
	if err != nil {
		t.Fatal(err)
	}
	return sh
}
