// Shapes: the Parquet layout of a (possibly shredded) Variant column.
//
// VariantShredding.md: a VARIANT group holds a required binary metadata,
// an optional (or, unshredded, required) binary value and an optional
// typed_value that is a primitive of the "Shredded Value Types" table, a
// 3-level LIST whose element is a required group of value/typed_value, or
// a group of required per-field groups of value/typed_value. Fields are
// found by name, not position.

package variant

import (
	"errors"
	"fmt"

	"github.com/pqgen/pqgen/runtime/meta"
	"github.com/pqgen/pqgen/runtime/schema"
)

// ErrShape reports a VARIANT group whose layout the shredding
// specification does not allow (or a shredded type it does not list).
var ErrShape = errors.New("variant: invalid shredded layout")

// Shape is the layout of one Variant, or of one shredded part of it (an
// object field, an array element): its value leaf and its typed_value.
type Shape struct {
	// Node is the group holding value and typed_value (the VARIANT group
	// itself at the top).
	Node *schema.Node
	// Metadata is the metadata leaf; set on the top-level Shape only.
	Metadata *schema.Node
	// Value is the binary value leaf, or nil when absent.
	Value *schema.Node
	// Typed is the typed_value node, or nil when absent.
	Typed *schema.Node
	// TypedKind says what Typed holds: a primitive of kind Primitive, an
	// object (Fields) or an array (Element).
	TypedKind TypedKind
	// Primitive is the Variant kind of a primitive typed_value.
	Primitive Kind
	// Fields are the shredded fields of an object typed_value, in schema
	// order.
	Fields []Field
	// List and Element describe an array typed_value: the repeated group
	// and the element's Shape.
	List    *schema.Node
	Element *Shape
}

// Field is one shredded object field.
type Field struct {
	Name  string
	Shape *Shape
	// Optional reports that the field's group is optional where the
	// specification requires it (hyparquet-writer 0.17 writes them so): a
	// null group reads as a missing field. See Shape.OptionalFields.
	Optional bool
}

// TypedKind is what a typed_value holds.
type TypedKind uint8

// The kinds of typed_value.
const (
	TypedNone TypedKind = iota
	TypedPrimitive
	TypedObject
	TypedArray
)

// ShapeOf returns the Shape of the VARIANT group n. It fails, naming the
// node, on a layout the specification does not allow: a missing or
// non-binary metadata, a non-binary value, a typed_value of an unlisted
// type, an object field that is not a group or is repeated, an array
// element that is not a required group. An optional object field group
// is accepted (Field.Optional, Shape.OptionalFields): its meaning is
// unambiguous, and a widely used writer makes it.
func ShapeOf(n *schema.Node) (*Shape, error) {
	if !n.Group {
		return nil, fmt.Errorf("%w: %s is not a group", ErrShape, n.PathString())
	}
	s, err := shapeOf(n, true)
	if err != nil {
		return nil, err
	}
	return s, nil
}

func child(n *schema.Node, name string) *schema.Node {
	for _, c := range n.Children {
		if c.Name == name {
			return c
		}
	}
	return nil
}

func shapeOf(n *schema.Node, top bool) (*Shape, error) {
	s := &Shape{Node: n}
	path := n.PathString()
	for _, c := range n.Children {
		switch c.Name {
		case "metadata", "value", "typed_value":
		default:
			return nil, fmt.Errorf("%w: %s: unexpected field %q", ErrShape, path, c.Name)
		}
	}
	if top {
		m := child(n, "metadata")
		if m == nil || m.Group || m.Type != meta.ByteArray || m.Repetition != meta.Required {
			return nil, fmt.Errorf("%w: %s: needs a required binary metadata field", ErrShape, path)
		}
		s.Metadata = m
	} else if child(n, "metadata") != nil {
		return nil, fmt.Errorf("%w: %s: metadata below the top of a Variant", ErrShape, path)
	}
	if v := child(n, "value"); v != nil {
		if v.Group || v.Type != meta.ByteArray || v.Repetition == meta.Repeated {
			return nil, fmt.Errorf("%w: %s: value must be binary", ErrShape, path)
		}
		s.Value = v
	}
	t := child(n, "typed_value")
	if t == nil {
		if s.Value == nil {
			return nil, fmt.Errorf("%w: %s: neither value nor typed_value", ErrShape, path)
		}
		return s, nil
	}
	if t.Repetition == meta.Repeated {
		return nil, fmt.Errorf("%w: %s: typed_value is repeated", ErrShape, path)
	}
	s.Typed = t
	switch {
	case !t.Group:
		k, err := primitiveKind(t)
		if err != nil {
			return nil, err
		}
		s.TypedKind, s.Primitive = TypedPrimitive, k
	case t.Logical.Kind == meta.LogicalList:
		if len(t.Children) != 1 || t.Children[0].Repetition != meta.Repeated || !t.Children[0].Group || len(t.Children[0].Children) != 1 {
			return nil, fmt.Errorf("%w: %s: typed_value LIST is not a 3-level list", ErrShape, path)
		}
		list := t.Children[0]
		el := list.Children[0]
		if !el.Group || el.Repetition != meta.Required {
			return nil, fmt.Errorf("%w: %s: array element must be a required group", ErrShape, el.PathString())
		}
		es, err := shapeOf(el, false)
		if err != nil {
			return nil, err
		}
		s.TypedKind, s.List, s.Element = TypedArray, list, es
	default:
		if t.Logical.Kind != meta.LogicalNone {
			return nil, fmt.Errorf("%w: %s: typed_value group annotated %v", ErrShape, t.PathString(), t.Logical.Kind)
		}
		s.TypedKind = TypedObject
		if len(t.Children) == 0 {
			return nil, fmt.Errorf("%w: %s: typed_value object without fields", ErrShape, t.PathString())
		}
		for _, f := range t.Children {
			if !f.Group || f.Repetition == meta.Repeated {
				return nil, fmt.Errorf("%w: %s: shredded field must be a required group", ErrShape, f.PathString())
			}
			fs, err := shapeOf(f, false)
			if err != nil {
				return nil, err
			}
			s.Fields = append(s.Fields, Field{Name: f.Name, Shape: fs, Optional: f.Repetition == meta.Optional})
		}
	}
	return s, nil
}

// primitiveKind maps a typed_value leaf to its Variant kind, following
// the specification's table of shredded value types.
func primitiveKind(t *schema.Node) (Kind, error) {
	lt := t.Logical
	bad := func() (Kind, error) {
		return 0, fmt.Errorf("%w: %s: unsupported shredded value type %s %s", ErrShape, t.PathString(), schema.TypeName(t.Type, t.TypeLength), schema.Annotation(t))
	}
	switch t.Type {
	case meta.Boolean:
		if lt.Kind == meta.LogicalNone {
			return KindTrue, nil // either boolean kind; the value decides
		}
	case meta.Int32:
		switch lt.Kind {
		case meta.LogicalNone:
			return KindInt32, nil
		case meta.LogicalInteger:
			if !lt.Integer.IsSigned {
				return bad()
			}
			switch lt.Integer.BitWidth {
			case 8:
				return KindInt8, nil
			case 16:
				return KindInt16, nil
			case 32:
				return KindInt32, nil
			}
		case meta.LogicalDecimal:
			return KindDecimal4, nil
		case meta.LogicalDate:
			return KindDate, nil
		}
	case meta.Int64:
		switch lt.Kind {
		case meta.LogicalNone:
			return KindInt64, nil
		case meta.LogicalInteger:
			if lt.Integer.IsSigned && lt.Integer.BitWidth == 64 {
				return KindInt64, nil
			}
		case meta.LogicalDecimal:
			return KindDecimal8, nil
		case meta.LogicalTime:
			if !lt.Time.IsAdjustedToUTC && lt.Time.Unit == meta.Micros {
				return KindTime, nil
			}
		case meta.LogicalTimestamp:
			switch {
			case lt.Time.Unit == meta.Micros && lt.Time.IsAdjustedToUTC:
				return KindTimestamp, nil
			case lt.Time.Unit == meta.Micros:
				return KindTimestampNTZ, nil
			case lt.Time.Unit == meta.Nanos && lt.Time.IsAdjustedToUTC:
				return KindTimestampNanos, nil
			case lt.Time.Unit == meta.Nanos:
				return KindTimestampNTZNanos, nil
			}
		}
	case meta.Float:
		if lt.Kind == meta.LogicalNone {
			return KindFloat, nil
		}
	case meta.Double:
		if lt.Kind == meta.LogicalNone {
			return KindDouble, nil
		}
	case meta.ByteArray:
		switch lt.Kind {
		case meta.LogicalNone:
			return KindBinary, nil
		case meta.LogicalString:
			return KindString, nil
		case meta.LogicalDecimal:
			return KindDecimal16, nil
		}
	case meta.FixedLenByteArray:
		switch {
		case lt.Kind == meta.LogicalUUID && t.TypeLength == 16:
			return KindUUID, nil
		case lt.Kind == meta.LogicalDecimal && t.TypeLength <= 16:
			return KindDecimal16, nil
		}
	}
	return bad()
}

// OptionalFields returns the groups of the shredded object fields, at any
// depth, that are optional where the specification requires them
// (Field.Optional), in schema order.
func (s *Shape) OptionalFields() []*schema.Node {
	var out []*schema.Node
	var walk func(*Shape)
	walk = func(s *Shape) {
		for _, f := range s.Fields {
			if f.Optional {
				out = append(out, f.Shape.Node)
			}
			walk(f.Shape)
		}
		if s.Element != nil {
			walk(s.Element)
		}
	}
	walk(s)
	return out
}

// Leaves returns every leaf of the Shape (metadata, values and typed
// columns), in schema order.
func (s *Shape) Leaves() []*schema.Node {
	var out []*schema.Node
	var walk func(n *schema.Node)
	walk = func(n *schema.Node) {
		if !n.Group {
			out = append(out, n)
			return
		}
		for _, c := range n.Children {
			walk(c)
		}
	}
	walk(s.Node)
	return out
}

// HasField reports whether an object Shape shreds the field name.
func (s *Shape) HasField(name string) bool {
	for _, f := range s.Fields {
		if f.Name == name {
			return true
		}
	}
	return false
}
