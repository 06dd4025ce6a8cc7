package gen

import (
	"github.com/pqgen/pqgen/runtime/meta"
	"github.com/pqgen/pqgen/runtime/schema"
)

// readPlan is what the generated reader of a row type does, decided
// before any code is printed: which leaves it reads with a typed column
// reader, how each top-level field is assembled, which leaf decides each
// nested value and which slabs back the lists and nullable structs.
type readPlan struct {
	t *Type
	// leaves are the leaves read by a typed column reader, in schema
	// order: every leaf but those of Variant fields.
	leaves []*schema.Node
	// variants and defaults are the top-level Variant fields and the
	// fields tagged default(...).
	variants, defaults []*Field
	// fields holds, per top-level field in order, how it is assembled.
	fields []fieldPlan
	// drivers are the nested values (lists, maps, nullable structs) of
	// row-by-row fields, each with the leaves whose levels may decide it:
	// the reader takes the first that is read.
	drivers []driverPlan
	// slabs name the reader's Slab of each list and nullable struct.
	slabs *readerSlabs
	// ptrSlabs are the slabs of pointer targets, set by assembleBody.
	ptrSlabs *slabDecls
	// fillQ0 and fillDefined, set by assembleBody, say whether the fill
	// methods take the part's first values (some leaf sets pointers) and
	// the scratch of defined rows (some flat field is optional).
	fillQ0, fillDefined bool
}

// readHow is how a top-level field is assembled.
type readHow int

const (
	// readVariant: the Variants, copied out of the Variant reader.
	readVariant readHow = iota
	// readFlat: a scalar without repetition and at most one definition
	// level, in one loop over the rows.
	readFlat
	// readColumnWise: lists and nullable groups without maps, one loop
	// per leaf over its level slots.
	readColumnWise
	// readRowByRow: every leaf at once, row by row (maps, whose keys and
	// values go together, and required structs).
	readRowByRow
)

// fieldPlan is how one top-level field is assembled.
type fieldPlan struct {
	field *Field
	how   readHow
	// note says how, for the field's comments ("" for the plain loops).
	note string
}

// comment is the field's column name and note, "name (note)", which
// heads its block or documents its fill method.
func (fp fieldPlan) comment() string {
	if fp.note == "" {
		return fp.field.Value.Node.Name
	}
	return fp.field.Value.Node.Name + " (" + fp.note + ")"
}

// driverPlan is a nested value of a row-by-row field and the leaves under
// it, in schema order.
type driverPlan struct {
	value  *Value
	leaves []int
}

// planRead computes the read plan of t.
func planRead(t *Type) *readPlan {
	p := &readPlan{t: t, variants: variantFields(t), defaults: defaultFields(t), slabs: newReaderSlabs(t)}
	vcols := variantColumns(t)
	for _, l := range t.Schema.Leaves {
		if !vcols[l.Column] {
			p.leaves = append(p.leaves, l)
		}
	}
	for _, fl := range t.Root.Struct.Fields {
		v := fl.Value
		fp := fieldPlan{field: fl}
		switch {
		case v.Kind == KindVariant:
			fp.how, fp.note = readVariant, "Variant"
		case columnWise(v):
			fp.how = readColumnWise
		case v.Kind == KindScalar && v.Node.MaxRep == 0 && v.Node.MaxDef <= 1:
			fp.how = readFlat
		default:
			fp.how, fp.note = readRowByRow, "row by row"
			if holdsMap(v) {
				fp.note = "row by row: a map needs its keys and values together"
			}
			v.walk(func(x *Value) {
				if x.Kind == KindList || x.Kind == KindMap || x.Kind == KindStruct && x.Null != NotNull {
					p.drivers = append(p.drivers, driverPlan{value: x, leaves: leafIndexes(x.Node)})
				}
			})
		}
		p.fields = append(p.fields, fp)
	}
	return p
}

// hasLeaves reports whether the reader reads any leaf with a typed column
// reader (a row type of Variants alone does not).
func (p *readPlan) hasLeaves() bool { return len(p.leaves) > 0 }

// columnWise reports whether a top-level field is assembled one leaf at a
// time: it holds lists or nullable groups, and no maps (a map's keys and
// values must be read together, so fields with maps are assembled row by
// row, all their leaves at once).
func columnWise(v *Value) bool {
	nested, hasMap := false, false
	v.walk(func(x *Value) {
		switch {
		case x.Kind == KindMap:
			hasMap = true
		case x.Kind == KindList, x.Kind == KindStruct && x.Null != NotNull:
			nested = true
		}
	})
	return nested && !hasMap
}

// holdsMap reports whether v is or holds a map.
func holdsMap(v *Value) bool {
	found := false
	v.walk(func(x *Value) { found = found || x.Kind == KindMap })
	return found
}

// defaultFields are the top-level fields tagged default(...).
func defaultFields(t *Type) []*Field {
	var out []*Field
	for _, fl := range t.Root.Struct.Fields {
		if fl.Default != nil {
			out = append(out, fl)
		}
	}
	return out
}

// readerSlabs names the reader's runtime.Slab of each list (its
// elements) and nullable struct (the structs pointed to) of the row type,
// Variants aside: the assembler takes them from there rather than
// allocating each.
type readerSlabs struct {
	order []*Value
	names map[*Value]string
}

func newReaderSlabs(t *Type) *readerSlabs {
	s := &readerSlabs{names: map[*Value]string{}}
	for _, fl := range t.Root.Struct.Fields {
		if fl.Value.Kind == KindVariant {
			continue
		}
		fl.Value.walk(func(v *Value) {
			if v.Kind == KindList || v.Kind == KindStruct && v.Null != NotNull {
				s.names[v] = "slab" + t.Names.Values[v]
				s.order = append(s.order, v)
			}
		})
	}
	return s
}

// bytesLeaves are the leaves of t read into []byte values
// (ByteArrayReader.Bytes), which the reader opens with runtime.LeafBytes.
func bytesLeaves(t *Type) map[int]bool {
	out := map[int]bool{}
	for _, fl := range t.Root.Struct.Fields {
		if fl.Value.Kind == KindVariant {
			continue
		}
		fl.Value.walk(func(v *Value) {
			if v.Kind == KindScalar && v.Conv == ConvBytes && v.Node.Type == meta.ByteArray {
				out[v.Node.Column] = true
			}
		})
	}
	return out
}
