// The leaf table of a generated reader: opening its typed column readers
// in one call (OpenLeaves, Leaf) and checking, before assembly, that the
// levels of a batch describe one shape of rows (Leaves.Check), so the
// generated assembly indexes only in range.

package runtime

import (
	"bytes"
	"fmt"

	"github.com/pqgen/pqgen/runtime/meta"
	"github.com/pqgen/pqgen/runtime/schema"
)

// leafReader is a typed column reader (*BoolReader ... *FixedReader).
type leafReader interface {
	ColumnRows
	openLeaf(fr *FileReader, col int) error
	levels() *Levels
	numValues() int
}

// LeafSlot is one leaf column of a generated reader: the leaf's index in
// the schema the reader was bound with, and the field of the reader that
// receives its typed column reader. Make one with Leaf.
//
// For generated code (see "For generated code" in the package doc).
type LeafSlot struct {
	col   int
	open  func(fr *FileReader, fileCol int) (leafReader, error)
	bytes bool // read with ByteArrayReader.Bytes (LeafBytes)
}

// Leaf returns the slot of leaf col (an index into the Leaves of the
// schema given to Bind) whose reader OpenLeaves stores in *dst, a field
// of the generated reader of one of the typed column reader types
// (*Int64Reader, *ByteArrayReader, ...). *dst stays nil when the column
// is not read.
//
// For generated code (see "For generated code" in the package doc).
func Leaf[T any, P interface {
	*T
	leafReader
}](dst *P, col int) LeafSlot {
	return LeafSlot{col: col, open: func(fr *FileReader, fileCol int) (leafReader, error) {
		c := P(new(T))
		if err := c.openLeaf(fr, fileCol); err != nil {
			return nil, err
		}
		*dst = c
		return c, nil
	}}
}

// Leaves is the table of the leaf columns a generated reader reads (see
// FileReader.OpenLeaves).
//
// For generated code (see "For generated code" in the package doc).
type Leaves struct {
	// Jobs are the ReadColumns jobs of the open leaves, in slot order; the
	// generated reader appends those of its Variant columns.
	Jobs   []ColumnJob
	typ    string
	leaves []openLeaf
	fr     *FileReader // its ReadParallelism and read-ahead decide Split
}

// openLeaf is one leaf that OpenLeaves opened.
type openLeaf struct {
	col    int // leaf index in the bound schema
	path   string
	r      leafReader
	maxDef uint8
	maxRep uint8
	bytes  bool // read with Bytes (LeafBytes)
	// repDef[r-1] is the definition level of the repeated node at
	// repetition level r on the leaf's path.
	repDef []uint8
	// with is the leaf (an index into Leaves.leaves) whose levels this
	// one's must agree with, projected onto group (repetition level gr,
	// definition level gd); -1 when none.
	with   int
	gr, gd uint8
	group  string
}

// OpenLeaves opens the typed reader of every slot whose leaf the file has
// and that is projected (WithColumns), storing it where the slot says and
// its levels in lv[col] (lv, indexed by leaf, may be nil). typ names the
// row type in errors. It must follow Bind (or BindDefaults), whose schema
// the slots' leaf indices refer to.
//
// For generated code (see "For generated code" in the package doc).
func (r *FileReader) OpenLeaves(typ string, lv []*Levels, slots ...LeafSlot) (*Leaves, error) {
	if r.want == nil {
		return nil, fmt.Errorf("%w: %s: OpenLeaves before Bind", ErrColumn, typ)
	}
	s := &Leaves{typ: typ, fr: r}
	first := map[*schema.Node]int{} // per group: the first open leaf below it
	for _, sl := range slots {
		if sl.col < 0 || sl.col >= len(r.want.Leaves) || sl.col >= len(r.bound) {
			return nil, fmt.Errorf("%w: %s: leaf %d of a schema with %d leaves", ErrColumn, typ, sl.col, len(r.want.Leaves))
		}
		fc := r.bound[sl.col]
		if !r.Projected(fc) {
			continue
		}
		c, err := sl.open(r, fc)
		if err != nil {
			return nil, err
		}
		n := r.want.Leaves[sl.col]
		l := openLeaf{col: sl.col, path: n.PathString(), r: c, maxDef: n.MaxDef, maxRep: n.MaxRep, bytes: sl.bytes, with: -1}
		l.repDef = repeatedDefs(n)
		// The deepest group holding an earlier leaf: the levels of the
		// two leaves must agree down to it (and so above it).
		for g := n.Parent; g != nil && g.Parent != nil; g = g.Parent {
			if f, ok := first[g]; ok {
				if g.MaxDef > 0 {
					l.with, l.gr, l.gd, l.group = f, g.MaxRep, g.MaxDef, g.PathString()
				}
				break
			}
		}
		for g := n.Parent; g != nil && g.Parent != nil; g = g.Parent {
			if _, ok := first[g]; !ok {
				first[g] = len(s.leaves)
			}
		}
		s.leaves = append(s.leaves, l)
		s.Jobs = append(s.Jobs, ColumnJob{c: c, path: l.path})
		if lv != nil {
			lv[sl.col] = c.levels()
		}
	}
	return s, nil
}

// Drivers sets drv[k] to the first leaf of lists[k] that is open, or -1:
// the leaf whose levels decide whether nested value k is null and how
// long it is.
//
// For generated code (see "For generated code" in the package doc).
func (s *Leaves) Drivers(drv []int, lists [][]int) {
	for k, ls := range lists {
		drv[k] = -1
		for _, col := range ls {
			if s.open(col) {
				drv[k] = col
				break
			}
		}
	}
}

// open reports whether leaf col is open.
func (s *Leaves) open(col int) bool {
	for _, l := range s.leaves {
		if l.col == col {
			return true
		}
	}
	return false
}

// Check checks the levels the open leaves hold after ReadColumns, before
// the generated code assembles rows from them, so that assembly indexes
// only in range: in each leaf, a repetition level r > 0 continues a list
// at level r that both it and the slot before it hold an element of (the
// definition level of both is at least that of the repeated node); and
// every two leaves under a common group agree on its shape (their level
// slots of repetition level at most the group's, definition levels
// clipped to the group's, are equal). The column readers guarantee the
// rest (ReadRows, ReadRowsExact): levels at most the leaf's maxima, a
// batch starting a row, the rows asked for, and one value per slot of
// the maximum definition level. An error wraps ErrChunk and names the
// row type and the column.
//
// For generated code (see "For generated code" in the package doc).
func (s *Leaves) Check() error {
	for i := range s.leaves {
		l := &s.leaves[i]
		lv := l.r.levels()
		if l.maxRep > 0 {
			// The lists at levels up to the group shared with an
			// earlier leaf are checked through it: the earlier leaf's
			// are valid, and sameShape makes this leaf's equal.
			from := uint8(0)
			if l.with >= 0 {
				from = l.gr
			}
			if err := l.checkLists(lv, from); err != nil {
				return fmt.Errorf("%w: %s: column %q: %w", ErrChunk, s.typ, l.path, err)
			}
		}
		if l.with >= 0 {
			f := &s.leaves[l.with]
			if slot, ok := sameShape(lv, f.r.levels(), l.gr, l.gd, max(l.maxRep, f.maxRep) <= l.gr, max(l.maxDef, f.maxDef) <= l.gd); !ok {
				return fmt.Errorf("%w: %s: column %q disagrees with column %q on the shape of %s (level slot %d)", ErrChunk, s.typ, l.path, f.path, l.group, slot)
			}
		}
	}
	return nil
}

// checkLists checks that each repetition level r > from of lv continues
// a list at level r holding an element at that slot and at the slot
// before; and that lv has as many definition as repetition levels and
// starts a row, as sameShape needs.
func (l *openLeaf) checkLists(lv *Levels, from uint8) error {
	rep, def := lv.Rep, lv.Def
	if len(def) != len(rep) {
		return fmt.Errorf("%d definition levels for %d repetition levels", len(def), len(rep))
	}
	if len(rep) > 0 && rep[0] != 0 {
		return fmt.Errorf("repetition level %d at level slot 0", rep[0])
	}
	switch {
	case from >= l.maxRep:
		return nil
	case l.maxRep == 1:
		// The common case, without the lookup of the repeated node.
		if i := firstBrokenList(rep, def, l.repDef[0]); i >= 0 {
			return l.checkLists1(rep, def, i)
		}
		return nil
	}
	for i, r := range rep {
		if r <= from {
			continue
		}
		if i == 0 || r > l.maxRep {
			return fmt.Errorf("repetition level %d at level slot %d", r, i)
		}
		// A repeated node has a definition level of at least 1, so
		// maxDef > 0 here.
		d := l.repDef[r-1]
		if def[i] < d || def[i-1] < d {
			return fmt.Errorf("level slot %d continues a list at repetition level %d that is empty or null", i, r)
		}
	}
	return nil
}

// checkLists1 describes the fault checkLists found at slot i of a leaf
// with one repetition level.
func (l *openLeaf) checkLists1(rep, def []uint8, i int) error {
	if rep[i] > l.maxRep {
		return fmt.Errorf("repetition level %d at level slot %d", rep[i], i)
	}
	return fmt.Errorf("level slot %d continues a list at repetition level %d that is empty or null", i, rep[i])
}

// sameShape reports whether a and b agree on the shape of a group of
// repetition level gr and definition level gd > 0 (so both leaves have
// definition levels, as many as repetition levels when they have those):
// their slots of repetition level at most gr, with definition levels
// clipped to gd, are equal. flat says that neither leaf repeats below the
// group, so every slot counts; whole, that neither has definition levels
// above gd, so none needs clipping. If not, it also returns a slot where
// they differ.
func sameShape(a, b *Levels, gr, gd uint8, flat, whole bool) (int, bool) {
	if flat {
		if len(a.Def) != len(b.Def) || len(a.Rep) != len(b.Rep) {
			return min(len(a.Def), len(b.Def)), false
		}
		if !bytes.Equal(a.Rep, b.Rep) {
			return mismatch(a.Rep, b.Rep), false
		}
		if whole {
			if !bytes.Equal(a.Def, b.Def) {
				return mismatch(a.Def, b.Def), false
			}
			return 0, true
		}
		bd := b.Def[:len(a.Def)]
		for i, x := range a.Def {
			// min(x, gd) == min(y, gd): equal, or both at least gd.
			if y := bd[i]; x != y && (x < gd || y < gd) {
				return i, false
			}
		}
		return 0, true
	}
	if len(a.Rep) == 0 {
		a, b = b, a // a repeats below the group
	}
	ar, ad := a.Rep, a.Def[:len(a.Rep)]
	br, bd := b.Rep, b.Def
	j := 0
	for i, r := range ar {
		if r > gr {
			continue
		}
		if br != nil {
			for j < len(br) && br[j] > gr {
				j++
			}
		}
		if j == len(bd) || br != nil && br[j] != r {
			return i, false
		}
		if x, y := ad[i], bd[j]; x != y && (x < gd || y < gd) {
			return i, false
		}
		j++
	}
	if br != nil {
		for j < len(br) && br[j] > gr {
			j++
		}
	}
	return len(ar), j == len(bd)
}

// mismatch returns the first index where a and b (of one length) differ.
func mismatch(a, b []uint8) int {
	for i := range a {
		if a[i] != b[i] {
			return i
		}
	}
	return len(a)
}

// Used checks, after assembly, that it used every level slot (p, per
// leaf) and value (q) of the open leaves: the generated code's own
// consistency, which Check makes hold for any input.
//
// For generated code (see "For generated code" in the package doc).
func (s *Leaves) Used(p, q []int) error {
	for i := range s.leaves {
		l := &s.leaves[i]
		slots := l.slots()
		if q[l.col] != l.r.numValues() || (l.maxDef > 0 || l.maxRep > 0) && p[l.col] != slots {
			return fmt.Errorf("%w: %s: column %q: assembly used %d of %d values and %d of %d level slots", ErrChunk, s.typ, l.path, q[l.col], l.r.numValues(), p[l.col], slots)
		}
	}
	return nil
}

// slots returns how many level slots the leaf's batch holds.
func (l *openLeaf) slots() int {
	lv := l.r.levels()
	if l.maxDef == 0 {
		return len(lv.Rep)
	}
	return len(lv.Def)
}

func (c *BoolReader) openLeaf(fr *FileReader, col int) error {
	return openCol(fr, col, meta.Boolean, &c.c)
}
func (c *Int32Reader) openLeaf(fr *FileReader, col int) error {
	return openCol(fr, col, meta.Int32, &c.c)
}
func (c *Int64Reader) openLeaf(fr *FileReader, col int) error {
	return openCol(fr, col, meta.Int64, &c.c)
}
func (c *Int96Reader) openLeaf(fr *FileReader, col int) error {
	return openCol(fr, col, meta.Int96, &c.c)
}
func (c *FloatReader) openLeaf(fr *FileReader, col int) error {
	return openCol(fr, col, meta.Float, &c.c)
}
func (c *DoubleReader) openLeaf(fr *FileReader, col int) error {
	return openCol(fr, col, meta.Double, &c.c)
}
func (c *ByteArrayReader) openLeaf(fr *FileReader, col int) error {
	c.lazy = true
	return openCol(fr, col, meta.ByteArray, &c.c)
}
func (c *FixedReader) openLeaf(fr *FileReader, col int) error {
	if err := openCol(fr, col, meta.FixedLenByteArray, &c.c); err != nil {
		return err
	}
	c.Size = int(fr.f.Schema.Leaves[col].TypeLength)
	if a := fr.adapt[col]; a != nil && a.conv {
		c.Size = a.wantSize
	}
	return nil
}

// openCol positions cursor c at leaf col of type t.
func openCol(fr *FileReader, col int, t meta.Type, c *cursor) error {
	if err := fr.column(col, t); err != nil {
		return err
	}
	c.init(fr, col)
	return nil
}

func (c *BoolReader) numValues() int      { return len(c.Values) }
func (c *Int32Reader) numValues() int     { return len(c.Values) }
func (c *Int64Reader) numValues() int     { return len(c.Values) }
func (c *Int96Reader) numValues() int     { return len(c.Values) }
func (c *FloatReader) numValues() int     { return len(c.Values) }
func (c *DoubleReader) numValues() int    { return len(c.Values) }
func (c *ByteArrayReader) numValues() int { return c.Values.Len() }
func (c *FixedReader) numValues() int {
	if c.Size <= 0 {
		return 0
	}
	return len(c.Values) / c.Size
}

// repeatedDefs returns, for leaf n, the definition level of its repeated
// node at each repetition level r, at index r-1 (len is n.MaxRep).
func repeatedDefs(n *schema.Node) []uint8 {
	d := make([]uint8, n.MaxRep)
	for g := n; g != nil && g.Parent != nil; g = g.Parent {
		if g.Repetition == meta.Repeated {
			d[g.MaxRep-1] = g.MaxDef
		}
	}
	return d
}
