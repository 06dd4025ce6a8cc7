package genfuzz

import (
	"fmt"
	"reflect"
	"strings"
	"time"

	"github.com/pqgen/pqgen/runtime"
	"github.com/pqgen/pqgen/runtime/meta"
	"github.com/pqgen/pqgen/runtime/schema"
)

// A shape pairs a schema node with the Go type generated for it. It is
// derived here from the schema and the Go type by reflection, not from
// pqgen's IR, so that it checks the generator rather than repeating it.
type shape struct {
	kind shapeKind
	// node is the leaf, the group, the LIST or MAP group, or the bare
	// repeated field.
	node *schema.Node
	// t is the Go type of the value as its container holds it.
	t reflect.Type
	// opt: the value may be null; ptr: null is a nil pointer (otherwise a
	// nil slice or map).
	opt, ptr bool
	fields   []*shape
	// elem is a list's element or a map's value; key a map's key.
	elem, key *shape
	// rep is the repeated node of a list or map.
	rep *schema.Node
	// repLevel is the repetition level of rep.
	repLevel int
	// col is a leaf's column index; cols every leaf column below.
	col  int
	cols []int
}

type shapeKind int

const (
	leafShape shapeKind = iota
	structShape
	listShape
	mapShape
)

var (
	timeType     = reflect.TypeFor[time.Time]()
	durationType = reflect.TypeFor[time.Duration]()
	intervalType = reflect.TypeFor[runtime.Interval]()
)

type shapeBuilder struct {
	index map[*schema.Node]int
}

// buildShape maps the schema onto the row type t.
func buildShape(s *schema.Schema, t reflect.Type) (*shape, error) {
	b := &shapeBuilder{index: map[*schema.Node]int{}}
	var walk func(n *schema.Node)
	walk = func(n *schema.Node) {
		if !n.Group {
			b.index[n] = len(b.index)
		}
		for _, c := range n.Children {
			walk(c)
		}
	}
	walk(s.Root)
	return b.value(s.Root, t, false)
}

// levels returns the definition and repetition levels of n, counted from
// the root.
func levels(n *schema.Node) (def, rep int) {
	for ; n != nil && n.Parent != nil; n = n.Parent {
		switch n.Repetition {
		case meta.Optional:
			def++
		case meta.Repeated:
			def++
			rep++
		}
	}
	return def, rep
}

// isMapNode reports whether n is a map: a group annotated MAP, or
// MAP_KEY_VALUE as older writers annotated maps.
func isMapNode(n *schema.Node) bool {
	return n.Group && (n.Logical.Kind == meta.LogicalMap || n.Converted.Set && n.Converted.Val == meta.ConvertedMapKeyValue)
}

// repeatedIsElement reports whether the repeated field r of LIST group
// list is the list's element, by the LIST type's backward-compatibility
// rules (LogicalTypes.md): it is a primitive, a group of more than one
// field, a group whose one field is repeated, or a group of one field
// named "array" or the list's name with "_tuple" appended. Otherwise (the
// three-level layout) its one field is the element.
func repeatedIsElement(list, r *schema.Node) bool {
	switch {
	case !r.Group, len(r.Children) > 1:
		return true
	case len(r.Children) == 1 && r.Children[0].Repetition == meta.Repeated:
		return true
	}
	return r.Name == "array" || r.Name == list.Name+"_tuple"
}

// field maps a struct field holding child c.
func (b *shapeBuilder) field(c *schema.Node, t reflect.Type) (*shape, error) {
	if c.Repetition != meta.Repeated {
		return b.value(c, t, c.Repetition == meta.Optional)
	}
	if t.Kind() != reflect.Slice {
		return nil, fmt.Errorf("%s: repeated field is %s, not a slice", c.PathString(), t)
	}
	elem, err := b.value(c, t.Elem(), false)
	if err != nil {
		return nil, err
	}
	_, rl := levels(c)
	return &shape{kind: listShape, node: c, t: t, elem: elem, rep: c, repLevel: rl, cols: elem.cols}, nil
}

// value maps node n, held as a value of type t (nullable when optional).
func (b *shapeBuilder) value(n *schema.Node, t reflect.Type, optional bool) (*shape, error) {
	s := &shape{node: n, t: t, opt: optional}
	base := t
	if optional {
		switch t.Kind() {
		case reflect.Pointer:
			s.ptr, base = true, t.Elem()
		case reflect.Slice, reflect.Map:
		default:
			return nil, fmt.Errorf("%s: optional node is %s, which cannot hold null", n.PathString(), t)
		}
	}
	switch {
	case n.Group && n.Logical.Kind == meta.LogicalList:
		r := n.Children[0]
		e, eopt := r, false // the repeated field is the element, required
		if !repeatedIsElement(n, r) {
			e = r.Children[0]
			eopt = e.Repetition == meta.Optional
		}
		if base.Kind() != reflect.Slice {
			return nil, fmt.Errorf("%s: LIST is %s, not a slice", n.PathString(), t)
		}
		elem, err := b.value(e, base.Elem(), eopt)
		if err != nil {
			return nil, err
		}
		s.kind, s.rep, s.elem, s.cols = listShape, r, elem, elem.cols
		_, s.repLevel = levels(r)
	case isMapNode(n):
		r := n.Children[0]
		k, v := r.Children[0], r.Children[1]
		if base.Kind() != reflect.Map {
			return nil, fmt.Errorf("%s: MAP is %s, not a map", n.PathString(), t)
		}
		key, err := b.value(k, base.Key(), false)
		if err != nil {
			return nil, err
		}
		val, err := b.value(v, base.Elem(), v.Repetition == meta.Optional)
		if err != nil {
			return nil, err
		}
		s.kind, s.rep, s.key, s.elem = mapShape, r, key, val
		s.cols = append(append([]int(nil), key.cols...), val.cols...)
		_, s.repLevel = levels(r)
	case n.Group:
		if base.Kind() != reflect.Struct || base.NumField() != len(n.Children) {
			return nil, fmt.Errorf("%s: group of %d fields is %s", n.PathString(), len(n.Children), t)
		}
		s.kind = structShape
		for i, c := range n.Children {
			f := base.Field(i)
			tag := f.Tag.Get("parquet")
			if name, _, _ := strings.Cut(tag, ","); name != c.Name {
				return nil, fmt.Errorf("%s: field %s of %s has tag %q, want the column name %q first", n.PathString(), f.Name, base, tag, c.Name)
			}
			fs, err := b.field(c, f.Type)
			if err != nil {
				return nil, err
			}
			s.fields = append(s.fields, fs)
			s.cols = append(s.cols, fs.cols...)
		}
	default:
		if err := leafTypeOK(n, base); err != nil {
			return nil, err
		}
		s.kind, s.col, s.cols = leafShape, b.index[n], []int{b.index[n]}
	}
	return s, nil
}

// leafTypeOK checks that Go type t can hold leaf n's physical type.
func leafTypeOK(n *schema.Node, t reflect.Type) error {
	k := t.Kind()
	ok := false
	switch n.Type {
	case meta.Boolean:
		ok = k == reflect.Bool
	case meta.Int32:
		ok = t == timeType && n.Logical.Kind == meta.LogicalDate ||
			t == durationType && n.Logical.Kind == meta.LogicalTime ||
			t != durationType && k >= reflect.Int8 && k <= reflect.Int32 || k >= reflect.Uint8 && k <= reflect.Uint32
	case meta.Int64:
		ok = t == timeType && n.Logical.Kind == meta.LogicalTimestamp ||
			t == durationType && n.Logical.Kind == meta.LogicalTime ||
			t != durationType && k == reflect.Int64 || k == reflect.Uint64
	case meta.Int96:
		ok = k == reflect.Array && t.Len() == 12 && t.Elem().Kind() == reflect.Uint8
	case meta.Float:
		ok = k == reflect.Float32
	case meta.Double:
		ok = k == reflect.Float64
	case meta.ByteArray:
		ok = k == reflect.String || k == reflect.Slice && t.Elem().Kind() == reflect.Uint8
	case meta.FixedLenByteArray:
		ok = k == reflect.Array && t.Len() == int(n.TypeLength) && t.Elem().Kind() == reflect.Uint8 ||
			k == reflect.Float32 && n.Logical.Kind == meta.LogicalFloat16 && n.TypeLength == 2 ||
			t == intervalType && n.TypeLength == 12
	}
	if !ok {
		return fmt.Errorf("%s: %s leaf is %s", n.PathString(), n.Type, t)
	}
	return nil
}
