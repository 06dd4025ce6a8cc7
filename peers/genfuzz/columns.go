package genfuzz

import (
	"bytes"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/schema"
	"github.com/pqgen/pqgen/peers/internal/arrowcol"
)

// column is the content of one leaf column: a definition and repetition
// level per slot (empty when the maximum level is 0) and the rendered
// non-null values.
type column struct {
	def, rep []int16
	vals     []string
	maxDef   int
	maxRep   int
}

// shredder computes the expected columns of rows by the record shredding
// of the Dremel paper, walking the rows and the schema together.
type shredder struct {
	cols []*column
	// keyOrder holds, per map shape, the key order of each of its
	// non-empty instances in document order, as the file stores them: Go
	// maps have no order, so the order is taken from the file and only
	// the set of keys is checked.
	keyOrder map[*shape][][]string
	keyNext  map[*shape]int
	// mismatch records the first map whose keys differ from the file's.
	mismatch string
}

// expectedColumns shreds rows (a slice of the row type of root) into
// columns; file holds the columns read from the file, whose map key
// columns give the order of each map's entries (when file is nil, the
// entries are in the order of their keys' physical values).
func expectedColumns(root *shape, rows reflect.Value, numCols int, file []*column) ([]*column, string) {
	x := &shredder{keyNext: map[*shape]int{}}
	for range numCols {
		x.cols = append(x.cols, &column{})
	}
	x.setLevels(root)
	if file != nil {
		x.keyOrder = map[*shape][][]string{}
		x.keyOrders(root, file)
	}
	for i := range rows.Len() {
		x.value(root, rows.Index(i), 0, 0)
	}
	return x.cols, x.mismatch
}

// setLevels records each leaf column's maximum levels.
func (x *shredder) setLevels(s *shape) {
	switch s.kind {
	case leafShape:
		c := x.cols[s.col]
		c.maxDef, c.maxRep = levels(s.node)
	case structShape:
		for _, f := range s.fields {
			x.setLevels(f)
		}
	case listShape:
		x.setLevels(s.elem)
	case mapShape:
		x.setLevels(s.key)
		x.setLevels(s.elem)
	}
}

// keyOrders splits each map's key column (as read from the file) into the
// key sequences of its non-empty instances.
func (x *shredder) keyOrders(s *shape, file []*column) {
	switch s.kind {
	case structShape:
		for _, f := range s.fields {
			x.keyOrders(f, file)
		}
	case listShape:
		x.keyOrders(s.elem, file)
	case mapShape:
		x.keyOrders(s.elem, file)
		if s.key.col >= len(file) {
			return
		}
		kc := file[s.key.col]
		entryDef, _ := levels(s.rep)
		var inst [][]string
		v := 0
		for i := range kc.def {
			if int(kc.def[i]) < entryDef {
				continue
			}
			if v >= len(kc.vals) {
				break
			}
			if i == 0 || int(kc.rep[i]) < s.repLevel {
				inst = append(inst, nil)
			}
			if len(inst) > 0 {
				inst[len(inst)-1] = append(inst[len(inst)-1], kc.vals[v])
			}
			v++
		}
		x.keyOrder[s] = inst
	}
}

func (x *shredder) slot(c int, def, rep int, val *string) {
	col := x.cols[c]
	if col.maxDef > 0 {
		col.def = append(col.def, int16(def))
	}
	if col.maxRep > 0 {
		col.rep = append(col.rep, int16(rep))
	}
	if val != nil {
		col.vals = append(col.vals, *val)
	}
}

// nulls gives every leaf below s an empty slot.
func (x *shredder) nulls(s *shape, def, rep int) {
	for _, c := range s.cols {
		x.slot(c, def, rep, nil)
	}
}

// value shreds v, the value of shape s whose first slot gets repetition
// level rep; def is the definition level of s's parent.
func (x *shredder) value(s *shape, v reflect.Value, def, rep int) {
	if s.opt {
		if v.IsNil() {
			x.nulls(s, def, rep)
			return
		}
		def++
		if s.ptr {
			v = v.Elem()
		}
	}
	switch s.kind {
	case structShape:
		for i, f := range s.fields {
			x.value(f, v.Field(i), def, rep)
		}
	case listShape:
		if v.Len() == 0 {
			x.nulls(s, def, rep)
			return
		}
		for i := range v.Len() {
			r := rep
			if i > 0 {
				r = s.repLevel
			}
			x.value(s.elem, v.Index(i), def+1, r)
		}
	case mapShape:
		if v.Len() == 0 {
			x.nulls(s, def, rep)
			return
		}
		keys := v.MapKeys()
		byPhys := map[string]reflect.Value{}
		var phys []string
		for _, k := range keys {
			p := physical(s.key, k)
			byPhys[p] = k
			phys = append(phys, p)
		}
		slices.Sort(phys)
		order := phys
		i := x.keyNext[s]
		x.keyNext[s]++
		if x.keyOrder == nil {
			// No file to follow: keys in the order of their physical values.
		} else if inst := x.keyOrder[s]; i < len(inst) {
			got := slices.Clone(inst[i])
			slices.Sort(got)
			if slices.Equal(got, phys) {
				order = inst[i]
			} else if x.mismatch == "" {
				x.mismatch = fmt.Sprintf("%s: map instance %d has keys %q, the file %q", s.node.PathString(), i, phys, inst[i])
			}
		} else if x.mismatch == "" {
			x.mismatch = fmt.Sprintf("%s: map instance %d with keys %q is missing from the file", s.node.PathString(), i, phys)
		}
		for j, p := range order {
			r := rep
			if j > 0 {
				r = s.repLevel
			}
			k := byPhys[p]
			x.value(s.key, k, def+1, r)
			x.value(s.elem, v.MapIndex(k), def+1, r)
		}
	default:
		p := physical(s, v)
		x.slot(s.col, def, rep, &p)
	}
}

// readArrow reads every leaf column of the file with arrow-go's low-level
// column chunk readers, across row groups.
func readArrow(data []byte) (cols []*column, rows int64, rowGroups int, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("arrow-go panicked: %v", r)
		}
	}()
	rdr, err := file.NewParquetReader(bytes.NewReader(data))
	if err != nil {
		return nil, 0, 0, err
	}
	defer rdr.Close()
	sc := rdr.MetaData().Schema
	for c := range sc.NumColumns() {
		l, err := arrowcol.Read(rdr, c, 97)
		if err != nil {
			return nil, 0, 0, fmt.Errorf("column %d: %w", c, err)
		}
		leaf := sc.Column(c)
		cols = append(cols, &column{def: l.Def, rep: l.Rep, vals: l.Vals,
			maxDef: int(leaf.MaxDefinitionLevel()), maxRep: int(leaf.MaxRepetitionLevel())})
	}
	return cols, rdr.NumRows(), rdr.NumRowGroups(), nil
}

// arrowSchema returns the schema arrow-go reads from the file's footer.
func arrowSchema(data []byte) (*schema.Schema, error) {
	rdr, err := file.NewParquetReader(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	defer rdr.Close()
	return rdr.MetaData().Schema, nil
}

// diffColumns returns where got (read by arrow-go) first differs from want
// (shredded from the rows), or "".
func diffColumns(want, got []*column, paths []string) string {
	if len(want) != len(got) {
		return fmt.Sprintf("want %d leaf columns, arrow-go reads %d", len(want), len(got))
	}
	for c := range want {
		w, g := want[c], got[c]
		where := fmt.Sprintf("column %d (%s)", c, paths[c])
		if w.maxDef != g.maxDef || w.maxRep != g.maxRep {
			return fmt.Sprintf("%s: want max levels def %d rep %d, arrow-go has def %d rep %d", where, w.maxDef, w.maxRep, g.maxDef, g.maxRep)
		}
		if d := diffSeq("definition levels", w.def, g.def, w.rep); d != "" {
			return where + ": " + d
		}
		if d := diffSeq("repetition levels", w.rep, g.rep, w.rep); d != "" {
			return where + ": " + d
		}
		if d := diffSeq("values", w.vals, g.vals, nil); d != "" {
			return where + ": " + d
		}
	}
	return ""
}

// diffSeq describes the first difference of two sequences; rep (when
// given) locates the row of a slot.
func diffSeq[T comparable](what string, want, got []T, rep []int16) string {
	for i := range min(len(want), len(got)) {
		if want[i] != got[i] {
			row := ""
			if rep != nil {
				r := -1
				for _, x := range rep[:i+1] {
					if x == 0 {
						r++
					}
				}
				row = fmt.Sprintf(" (row %d)", r)
			}
			return fmt.Sprintf("%s differ at %d%s: want %s, got %s; want %s, got %s", what, i, row,
				quoteAny(want[i]), quoteAny(got[i]), window(want, i), window(got, i))
		}
	}
	if len(want) != len(got) {
		return fmt.Sprintf("want %d %s, got %d", len(want), what, len(got))
	}
	return ""
}

func quoteAny(v any) string {
	if s, ok := v.(string); ok {
		if len(s) > 40 {
			s = s[:40] + "…"
		}
		return fmt.Sprintf("%q", s)
	}
	return fmt.Sprint(v)
}

// window renders the elements around i.
func window[T any](s []T, i int) string {
	lo, hi := max(0, i-4), min(len(s), i+5)
	var b strings.Builder
	b.WriteString("[")
	for j := lo; j < hi; j++ {
		if j > lo {
			b.WriteString(" ")
		}
		b.WriteString(quoteAny(s[j]))
	}
	b.WriteString("]")
	return b.String()
}
