// Package dremel rebuilds values from leaf columns, the record assembly
// of the Dremel paper over a pqgen schema, for the cross-checks of the
// peers module: each test supplies where the levels and values come from
// and the form of its canonical groups, lists and maps.
package dremel

import (
	"fmt"

	"github.com/pqgen/pqgen/runtime/meta"
	"github.com/pqgen/pqgen/runtime/schema"
)

// Columns are the leaf columns being assembled, each read in order.
type Columns interface {
	// Levels are the definition and repetition levels of leaf col's next
	// slot; ok is false when the leaf has none left.
	Levels(col int) (def, rep int, ok bool)
	// Skip consumes the next slot of leaf col, which holds no value (a
	// null or an empty repeated field above the leaf).
	Skip(col int)
	// Value consumes the next slot of leaf n, which holds a value, and
	// returns the value.
	Value(n *schema.Node) any
}

// Forms are the values the assembly builds.
type Forms struct {
	// Group is the value of group n with the values of its children.
	Group func(n *schema.Node, vals []any) any
	// Child is the value of child i of a value Group built for n.
	Child func(n *schema.Node, group any, i int) any
	// Map is a MAP of [key, value] pairs, in the file's order (a value
	// is nil when the key_value group has no value field).
	Map func(pairs [][2]any) any
}

// Assembler assembles fields from Columns into Forms.
type Assembler struct {
	Cols  Columns
	Forms Forms
}

// FirstLeaf is the first leaf under n, whose levels are n's.
func FirstLeaf(n *schema.Node) *schema.Node {
	for n.Group {
		n = n.Children[0]
	}
	return n
}

// Field is the value of field n in a defined parent: nil when null, a
// []any for a repeated field. It panics when a leaf has no slot left.
func (a *Assembler) Field(n *schema.Node) any {
	first := FirstLeaf(n)
	def, _, ok := a.Cols.Levels(first.Column)
	if !ok {
		panic(fmt.Sprintf("column %s: no value left", first.PathString()))
	}
	if n.Repetition == meta.Repeated {
		if def < int(n.MaxDef) {
			a.skip(n)
			return []any{}
		}
		out := []any{}
		for {
			out = append(out, a.occurrence(n))
			_, rep, ok := a.Cols.Levels(first.Column)
			if !ok || rep < int(n.MaxRep) {
				return out
			}
		}
	}
	if n.Repetition == meta.Optional && def < int(n.MaxDef) {
		a.skip(n)
		return nil
	}
	return a.occurrence(n)
}

// skip consumes the one slot every leaf under n has when n is null or an
// empty repeated field.
func (a *Assembler) skip(n *schema.Node) {
	if !n.Group {
		a.Cols.Skip(n.Column)
		return
	}
	for _, c := range n.Children {
		a.skip(c)
	}
}

// occurrence is one defined occurrence of n. A LIST or MAP group (by its
// logical or converted type) of one repeated child becomes a list or a
// map; any other group a Group.
func (a *Assembler) occurrence(n *schema.Node) any {
	if !n.Group {
		return a.Cols.Value(n)
	}
	isList := n.Logical.Kind == meta.LogicalList || n.Converted.Set && n.Converted.Val == meta.ConvertedList
	isMap := n.Logical.Kind == meta.LogicalMap || n.Converted.Set && (n.Converted.Val == meta.ConvertedMap || n.Converted.Val == meta.ConvertedMapKeyValue)
	if (isList || isMap) && len(n.Children) == 1 && n.Children[0].Repetition == meta.Repeated {
		rep := n.Children[0]
		elems := a.Field(rep).([]any)
		if isList {
			if rep.Group && len(rep.Children) == 1 {
				for i, e := range elems {
					elems[i] = a.Forms.Child(rep, e, 0)
				}
			}
			return elems
		}
		pairs := make([][2]any, 0, len(elems))
		for _, e := range elems {
			var v any
			if len(rep.Children) > 1 {
				v = a.Forms.Child(rep, e, 1)
			}
			pairs = append(pairs, [2]any{a.Forms.Child(rep, e, 0), v})
		}
		return a.Forms.Map(pairs)
	}
	vals := make([]any, len(n.Children))
	for i, c := range n.Children {
		vals[i] = a.Field(c)
	}
	return a.Forms.Group(n, vals)
}
