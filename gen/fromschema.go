package gen

import (
	"fmt"
	"strings"

	"github.com/pqgen/pqgen/runtime"
	"github.com/pqgen/pqgen/runtime/meta"
	"github.com/pqgen/pqgen/runtime/schema"
)

// Well-known Go types.
var (
	timeTime     = named("time", "Time")
	timeDuration = named("time", "Duration")
	int96Type    = named("github.com/pqgen/pqgen/runtime/encode", "Int96")
	variantType  = named(pathVariant, "Encoded")
	decimalType  = named(pathRuntime, "Decimal")
	intervalType = named(pathRuntime, "Interval")
)

// maxDecimalBytes is the widest FIXED_LEN_BYTE_ARRAY a runtime.Decimal
// holds (38 digits).
const maxDecimalBytes = 16

// fromSchema builds the IR of a row type named typeName from a schema, as
// the schema-text and file sources do: every group becomes a declared
// struct, named after the type and the field path. where names a node's
// position for messages.
func fromSchema(s *schema.Schema, typeName string, opts Options, where func(*schema.Node) string) (*Type, error) {
	b := &schemaBuilder{where: where, opts: opts, typeNames: uniqueNames{}}
	t := &Type{Name: typeName, Schema: s, Names: namesFor(typeName), File: fileName(typeName)}
	// Struct names never take the generated identifiers.
	for _, n := range t.Names.all() {
		b.typeNames[n] = true
	}
	root, err := b.group(s.Root, typeName)
	if err != nil {
		return nil, err
	}
	t.Root = root
	t.Structs = b.structs
	return t, nil
}

type schemaBuilder struct {
	where     func(*schema.Node) string
	opts      Options
	typeNames uniqueNames
	structs   []*Struct
}

func (b *schemaBuilder) errorf(n *schema.Node, format string, args ...any) error {
	return fmt.Errorf("%s: %s: %s", b.where(n), n.PathString(), fmt.Sprintf(format, args...))
}

// group maps a group node to a struct value named name.
func (b *schemaBuilder) group(n *schema.Node, name string) (*Value, error) {
	st := &Struct{Name: b.typeNames.take(name), Declare: true}
	st.Go = named("", st.Name)
	b.structs = append(b.structs, st)
	fields := uniqueNames{}
	for _, c := range n.Children {
		fname := fields.take(exportedName(c.Name, b.opts.PlainNames))
		v, err := b.field(c, st.Name+fname)
		if err != nil {
			return nil, err
		}
		st.Fields = append(st.Fields, &Field{Name: fname, Tag: tagFor(c, v), Value: v})
		st.Exact = append(st.Exact, RefField{Name: fname, Type: v.Go, Tag: tagFor(c, v)})
	}
	v := &Value{Kind: KindStruct, Node: n, Struct: st, Base: st.Go, Go: st.Go}
	return v, nil
}

// field maps a child node (with its repetition) to a value; typeName names
// a struct it may need (the parent's name and the field's): a group is
// named typeName, the elements of a list and the values of a map
// elemTypeName(typeName).
func (b *schemaBuilder) field(n *schema.Node, typeName string) (*Value, error) {
	if n.Repetition == meta.Repeated {
		// An unannotated repeated field: a required list of required
		// elements of the field's type.
		elem, err := b.element(n, n, elemTypeName(typeName))
		if err != nil {
			return nil, err
		}
		return &Value{Kind: KindList, Node: n, Repeated: n, Elem: elem, Go: sliceOf(elem.Go), Base: sliceOf(elem.Go)}, nil
	}
	if n.Group {
		if v, ok, err := b.listOrMap(n, typeName); ok || err != nil {
			return v, err
		}
		if n.Logical.Kind == meta.LogicalVariant && n.Parent != nil && n.Parent.Parent == nil {
			// A Variant field of the row: a variant.Encoded. Deeper
			// Variants keep their groups as structs.
			v := &Value{Kind: KindVariant, Node: n, Go: variantType, Base: variantType}
			if n.Repetition == meta.Optional {
				v.Null = NullZero
			}
			return v, nil
		}
	}
	return b.element(n, n, typeName)
}

// element maps node n as a value of its own (not a list); n's repetition
// is ignored when it is the repeated node of a list (rep).
func (b *schemaBuilder) element(n, rep *schema.Node, typeName string) (*Value, error) {
	var v *Value
	if n.Group {
		// A LIST/MAP group, including a repeated one serving as the
		// element of an enclosing two-level list.
		if lv, ok, err := b.listOrMap(n, typeName); ok || err != nil {
			return lv, err
		}
		if fv, ok := b.fileRef(n); ok {
			v = fv
		} else {
			var err error
			if v, err = b.group(n, typeName); err != nil {
				return nil, err
			}
		}
	} else {
		var err error
		if v, err = b.scalar(n); err != nil {
			return nil, err
		}
	}
	if n.Repetition == meta.Optional {
		if v.Kind == KindScalar && v.Conv == ConvBytes {
			v.Null = NullNil
		} else {
			v.Null = NullPointer
			v.Go = pointerTo(v.Base)
		}
	}
	return v, nil
}

// listOrMap recognises LIST and MAP groups with the backward-compatibility
// rules of the logical types specification.
func (b *schemaBuilder) listOrMap(n *schema.Node, typeName string) (*Value, bool, error) {
	isList := n.Logical.Kind == meta.LogicalList
	isMap := n.Logical.Kind == meta.LogicalMap ||
		n.Converted.Set && n.Converted.Val == meta.ConvertedMapKeyValue && (n.Parent == nil || n.Parent.Logical.Kind != meta.LogicalMap)
	if !isList && !isMap {
		return nil, false, nil
	}
	if len(n.Children) != 1 || n.Children[0].Repetition != meta.Repeated {
		// Not a valid LIST/MAP layout: a plain group.
		return nil, false, nil
	}
	r := n.Children[0]
	null := NotNull
	if n.Repetition == meta.Optional {
		null = NullNil
	}
	if isMap && r.Group && len(r.Children) == 2 && !r.Children[0].Group &&
		r.Children[0].Repetition == meta.Required && r.Children[1].Repetition != meta.Repeated {
		key, err := b.scalar(r.Children[0])
		if err != nil {
			return nil, true, err
		}
		if key.Conv == ConvBytes {
			// []byte is not comparable: binary keys become strings.
			key.Conv, key.Go, key.Base = ConvString, named("", "string"), named("", "string")
		}
		val, err := b.element(r.Children[1], nil, elemTypeName(typeName))
		if err != nil {
			return nil, true, err
		}
		t := mapOf(key.Go, val.Go)
		return &Value{Kind: KindMap, Node: n, Repeated: r, Key: key, Elem: val, Go: t, Base: t, Null: null}, true, nil
	}
	// A list (or a MAP whose layout a Go map cannot hold: a list of its
	// key/value groups).
	elemNode := r
	if isList && !r.IsTwoLevelElement() {
		// Rule 5: the single child is the element, with its repetition.
		elemNode = r.Children[0]
	}
	elem, err := b.element(elemNode, r, elemTypeName(typeName))
	if err != nil {
		return nil, true, err
	}
	t := sliceOf(elem.Go)
	return &Value{Kind: KindList, Node: n, Repeated: r, Elem: elem, Go: t, Base: t, Null: null}, true, nil
}

// decimalType reports whether DECIMAL l becomes a runtime.Decimal: asked
// for, and of a scale a Decimal holds.
func (b *schemaBuilder) decimalType(l meta.LogicalType) bool {
	return b.opts.Decimal == DecimalType && l.Decimal.Scale >= 0 && l.Decimal.Scale <= runtime.MaxDecimalScale
}

// scalar maps a leaf to its natural Go type.
func (b *schemaBuilder) scalar(n *schema.Node) (*Value, error) {
	v := &Value{Kind: KindScalar, Node: n, Conv: ConvNative}
	l := n.Logical
	var t *TypeRef
	switch n.Type {
	case meta.Boolean:
		t = named("", "bool")
	case meta.Int32, meta.Int64:
		t = named("", "int32")
		if n.Type == meta.Int64 {
			t = named("", "int64")
		}
		switch l.Kind {
		case meta.LogicalDecimal:
			if b.decimalType(l) {
				t, v.Conv = decimalType, ConvDecimal
			}
		case meta.LogicalInteger:
			name := fmt.Sprintf("int%d", l.Integer.BitWidth)
			if !l.Integer.IsSigned {
				name = "u" + name
			}
			switch l.Integer.BitWidth {
			case 8, 16, 32, 64:
				if (l.Integer.BitWidth == 64) == (n.Type == meta.Int64) {
					t = named("", name)
				}
			}
		case meta.LogicalDate:
			if n.Type == meta.Int32 {
				t, v.Conv = timeTime, ConvDate
			}
		case meta.LogicalTimestamp:
			if n.Type == meta.Int64 {
				t, v.Conv = timeTime, ConvTimestamp
			}
		case meta.LogicalTime:
			if (n.Type == meta.Int32) == (l.Time.Unit == meta.Millis) {
				t, v.Conv = timeDuration, ConvDuration
			}
		}
	case meta.Int96:
		t = int96Type
	case meta.Float:
		t = named("", "float32")
	case meta.Double:
		t = named("", "float64")
	case meta.ByteArray:
		switch l.Kind {
		case meta.LogicalString, meta.LogicalEnum, meta.LogicalJSON:
			t, v.Conv = named("", "string"), ConvString
		default:
			t, v.Conv = sliceOf(named("", "byte")), ConvBytes
		}
	case meta.FixedLenByteArray:
		if n.TypeLength > 1<<20 {
			return nil, b.errorf(n, "FIXED_LEN_BYTE_ARRAY(%d) is too long for a Go array", n.TypeLength)
		}
		t, v.Conv = arrayOf(int64(n.TypeLength), named("", "byte")), ConvFixed
		if l.Kind == meta.LogicalFloat16 && n.TypeLength == 2 {
			t, v.Conv = named("", "float32"), ConvFloat16
		}
		if n.TypeLength == 12 && l.Kind == meta.LogicalNone && n.Converted.Set && n.Converted.Val == meta.ConvertedInterval {
			t, v.Conv = intervalType, ConvInterval
		}
		if l.Kind == meta.LogicalDecimal && n.TypeLength <= maxDecimalBytes && b.decimalType(l) {
			t, v.Conv = decimalType, ConvDecimal
		}
	default:
		return nil, b.errorf(n, "unsupported physical type %d", n.Type)
	}
	v.Go, v.Base = t, t
	return v, nil
}

// tagFor returns the struct tag of a generated field for node n: the exact
// column name, and the options a Go-source run would need to rebuild the
// same column type.
func tagFor(n *schema.Node, v *Value) string {
	opts := []string{n.Name}
	if n.Repetition == meta.Optional && v.Null != NullPointer {
		opts = append(opts, "optional")
	}
	leaf := n
	switch v.Kind {
	case KindList:
		if v.Node == v.Repeated {
			opts = append(opts, "repeated")
		} else {
			opts = append(opts, "list")
		}
		if v.Elem.Kind == KindScalar {
			leaf = v.Elem.Node
		}
	}
	if !leaf.Group {
		l := leaf.Logical
		switch l.Kind {
		case meta.LogicalTimestamp:
			o := "timestamp(" + tagUnit(l.Time.Unit)
			if !l.Time.IsAdjustedToUTC {
				o += ",local"
			}
			opts = append(opts, o+")")
		case meta.LogicalTime:
			o := "time(" + tagUnit(l.Time.Unit)
			if !l.Time.IsAdjustedToUTC {
				o += ",local"
			}
			opts = append(opts, o+")")
		case meta.LogicalDecimal:
			opts = append(opts, fmt.Sprintf("decimal(%d,%d)", l.Decimal.Scale, l.Decimal.Precision))
		case meta.LogicalDate, meta.LogicalUUID, meta.LogicalEnum, meta.LogicalJSON, meta.LogicalBSON,
			meta.LogicalFloat16, meta.LogicalGeometry, meta.LogicalGeography:
			opts = append(opts, strings.ToLower(schema.LogicalString(meta.LogicalType{Kind: l.Kind})))
		default:
			if leaf.Converted.Set && leaf.Converted.Val == meta.ConvertedInterval {
				opts = append(opts, "interval") // a converted type only
			}
		}
	}
	if n.Group && n.Logical.Kind == meta.LogicalFile && v.Kind == KindStruct && v.Struct.Declare {
		opts = append(opts, "file") // runtime.FileRef implies it
	}
	if n.FieldID.Set {
		opts = append(opts, fmt.Sprintf("id(%d)", n.FieldID.Val))
	}
	return `parquet:"` + escapeTag(strings.Join(opts, ",")) + `"`
}

func escapeTag(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`)
	return r.Replace(s)
}

func tagUnit(u meta.TimeUnit) string {
	switch u {
	case meta.Millis:
		return "millisecond"
	case meta.Micros:
		return "microsecond"
	}
	return "nanosecond"
}

// fileRefFields are the Go fields of runtime.FileRef by FILE field name,
// with their Go types.
var fileRefFields = map[string]struct{ name, typ string }{
	"uri": {"URI", "*string"}, "offset": {"Offset", "*int64"}, "size": {"Size", "*int64"},
	"content_type": {"ContentType", "*string"}, "checksum": {"Checksum", "*string"}, "inline": {"Inline", "[]byte"},
}

// fileRef binds a FILE-annotated group to runtime.FileRef when its fields
// are among FileRef's, with their Go types (uri, content_type and
// checksum STRING); other FILE groups become declared structs.
func (b *schemaBuilder) fileRef(n *schema.Node) (*Value, bool) {
	if n.Logical.Kind != meta.LogicalFile || runtime.CheckFileGroup(n) != nil {
		return nil, false
	}
	ref := named(pathRuntime, "FileRef")
	st := &Struct{Name: "FileRef", Go: ref}
	for _, c := range n.Children {
		v, err := b.scalar(c)
		if err != nil {
			return nil, false
		}
		if c.Repetition == meta.Optional && v.Conv != ConvBytes {
			v.Null, v.Go = NullPointer, pointerTo(v.Base)
		} else if c.Repetition == meta.Optional {
			v.Null = NullNil
		}
		f := fileRefFields[c.Name]
		if v.Go.String() != f.typ {
			return nil, false
		}
		st.Fields = append(st.Fields, &Field{Name: f.name, Value: v})
	}
	return &Value{Kind: KindStruct, Node: n, Struct: st, Base: ref, Go: ref}, true
}
