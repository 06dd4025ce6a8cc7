// Reading Variant columns: the leaves of a VARIANT group (metadata, value
// and every shredded typed_value column) are read together and each row's
// Variant is rebuilt from them, following "Reconstructing a Shredded
// Variant" in
// https://github.com/apache/parquet-format/blob/master/VariantShredding.md.

package runtime

import (
	"fmt"
	"io"
	"unicode/utf8"

	"github.com/pqgen/pqgen/runtime/meta"
	"github.com/pqgen/pqgen/runtime/schema"
	"github.com/pqgen/pqgen/runtime/variant"
)

// VariantReader reads the Variant column rooted at a VARIANT group. After
// ReadRows, Rows holds one encoded Variant per occurrence of the group (one
// per row when no list encloses it), the zero Encoded where the group is
// null or absent; Def and Rep hold each occurrence's definition and
// repetition levels, so that a caller can place Variants inside lists (an
// empty or null enclosing list is an occurrence with Def below the
// group's). The bytes stay valid until the next ReadRows.
//
// For generated code (see "For generated code" in the package doc).
type VariantReader struct {
	Rows     []variant.Encoded
	Def, Rep []uint8

	f      *File // where deviations are recorded
	shape  *variant.Shape
	group  *schema.Node
	leaves []*vleaf // in schema order: leaves[i] is column base+i
	base   int
	b      variant.Builder
	buf    []byte // the rows' bytes, back to back
	spans  []int  // per row: metadata end, value end (offsets in buf)
	// unsorted holds the value columns whose unsorted objects are
	// recorded already: File.Deviations keeps one record per column, so
	// later values need not ask again.
	unsorted map[*schema.Node]bool
}

// vleaf is one leaf of the Variant group and its position in the rows
// last read.
type vleaf struct {
	node      *schema.Node
	r         ColumnRows
	lv        *Levels
	pos, vpos int // next slot, next non-null value
	// typed values, by physical type (one is set)
	bools *BoolReader
	i32   *Int32Reader
	i64   *Int64Reader
	f32   *FloatReader
	f64   *DoubleReader
	bytes *ByteArrayReader
	fixed *FixedReader
	scale uint8
}

// VariantReader returns a reader of the VARIANT group at path (dotted, as
// in the schema). Every leaf of the group must be projected.
func (r *FileReader) VariantReader(path string) (*VariantReader, error) {
	g := groupAt(r.f.Schema, path)
	if g == nil {
		return nil, fmt.Errorf("%w: no group %q", ErrColumn, path)
	}
	return r.variantReader(g)
}

func (r *FileReader) variantReader(g *schema.Node) (*VariantReader, error) {
	shape, err := variant.ShapeOf(g)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrColumn, err)
	}
	for _, n := range shape.OptionalFields() {
		err := r.f.deviate(Deviation{Kind: DeviationVariantOptionalField, Writer: "hyparquet-writer 0.17", Column: n.PathString(), RowGroup: -1, Page: -1,
			What: "a shredded Variant object field is an optional group, not a required one (a null group reads as a missing field)"})
		if err != nil {
			return nil, err
		}
	}
	leaves := shape.Leaves()
	v := &VariantReader{f: r.f, shape: shape, group: g, base: leaves[0].Column}
	for _, n := range leaves {
		l := &vleaf{node: n}
		var c ColumnRows
		switch n.Type {
		case meta.Boolean:
			c, err = r.BoolReader(n.Column)
		case meta.Int32:
			c, err = r.Int32Reader(n.Column)
		case meta.Int64:
			c, err = r.Int64Reader(n.Column)
		case meta.Float:
			c, err = r.FloatReader(n.Column)
		case meta.Double:
			c, err = r.DoubleReader(n.Column)
		case meta.ByteArray:
			c, err = r.ByteArrayReader(n.Column)
		case meta.FixedLenByteArray:
			c, err = r.FixedReader(n.Column)
		default:
			err = fmt.Errorf("%w: %s: %s in a Variant", ErrColumn, n.PathString(), schema.TypeName(n.Type, n.TypeLength))
		}
		if err != nil {
			return nil, err
		}
		l.use(c)
		if n.Logical.Kind == meta.LogicalDecimal {
			l.scale = uint8(n.Logical.Decimal.Scale)
		}
		v.leaves = append(v.leaves, l)
	}
	return v, nil
}

// over returns a VariantReader of v's group that reads its leaves from
// rs, readers of the same types as v's leaves' in the same order: the
// back readers of a read ahead (readPipe.vback).
func (v *VariantReader) over(rs []pipeReader) *VariantReader {
	o := &VariantReader{f: v.f, shape: v.shape, group: v.group, base: v.base}
	for i, l := range v.leaves {
		n := &vleaf{node: l.node, scale: l.scale}
		n.use(rs[i])
		o.leaves = append(o.leaves, n)
	}
	return o
}

// use makes c, a typed reader of the leaf's column, the reader the leaf
// reads.
func (l *vleaf) use(c ColumnRows) {
	l.r = c
	switch c := c.(type) {
	case *BoolReader:
		l.bools, l.lv = c, &c.Levels
	case *Int32Reader:
		l.i32, l.lv = c, &c.Levels
	case *Int64Reader:
		l.i64, l.lv = c, &c.Levels
	case *FloatReader:
		l.f32, l.lv = c, &c.Levels
	case *DoubleReader:
		l.f64, l.lv = c, &c.Levels
	case *ByteArrayReader:
		l.bytes, l.lv = c, &c.Levels
	case *FixedReader:
		l.fixed, l.lv = c, &c.Levels
	}
}

// swapRows exchanges the rows rebuilt by v and by o, a VariantReader of
// the same group (over). The leaves' positions are rebuild's own: the
// next batch starts them again (leafRows).
func (v *VariantReader) swapRows(o *VariantReader) {
	v.Rows, o.Rows = o.Rows, v.Rows
	v.Def, o.Def = o.Def, v.Def
	v.Rep, o.Rep = o.Rep, v.Rep
	v.buf, o.buf = o.buf, v.buf
	v.spans, o.spans = o.spans, v.spans
}

// VariantColumn returns the reader of the VARIANT group at path, or nil
// and no error when WithColumns left any of its leaves out, or when the
// group may be null and the file lacks it: its Variants then read as null
// (the zero variant.Encoded), as the fields of other columns left out stay
// zero. A required group the file lacks is an error.
//
// For generated code (see "For generated code" in the package doc).
func (r *FileReader) VariantColumn(path string, required bool) (*VariantReader, error) {
	g := groupAt(r.f.Schema, path)
	absent := g == nil
	if g != nil && r.projected != nil {
		for _, l := range r.f.Schema.Leaves {
			if !r.projected[l.Column] && descends(l, g) {
				absent = true
				break
			}
		}
	}
	if absent {
		if required && g == nil {
			return nil, fmt.Errorf("%w: Variant %q: required but absent from the file", ErrBind, path)
		}
		return nil, nil
	}
	return r.variantReader(g)
}

// descends reports whether g is an ancestor of n.
func descends(n, g *schema.Node) bool {
	for p := n.Parent; p != nil; p = p.Parent {
		if p == g {
			return true
		}
	}
	return false
}

// groupAt returns the group below the root of s whose dotted path is
// path, or nil.
func groupAt(s *schema.Schema, path string) *schema.Node {
	var find func(n *schema.Node) *schema.Node
	find = func(n *schema.Node) *schema.Node {
		if n.Group && n.Parent != nil && n.PathString() == path {
			return n
		}
		for _, c := range n.Children {
			if g := find(c); g != nil {
				return g
			}
		}
		return nil
	}
	return find(s.Root)
}

// Detach returns the Variants of the last ReadRows with their bytes copied
// into one new buffer, so that they outlive the next ReadRows.
func (v *VariantReader) Detach() []variant.Encoded {
	buf := make([]byte, len(v.buf))
	copy(buf, v.buf)
	return v.appendRows(make([]variant.Encoded, 0, len(v.Rows)), buf)
}

// appendRows appends the Variants recorded in spans, sliced out of buf
// (v.buf or a copy of it).
func (v *VariantReader) appendRows(dst []variant.Encoded, buf []byte) []variant.Encoded {
	start := 0
	for i := 0; i < len(v.spans); i += 2 {
		me, ve := v.spans[i], v.spans[i+1]
		if me < 0 {
			dst = append(dst, variant.Encoded{})
			continue
		}
		dst = append(dst, variant.Encoded{Metadata: buf[start:me:me], Value: buf[me:ve:ve]})
		start = ve
	}
	return dst
}

// ReadRows reads the next n rows (fewer at the end of the file) and
// rebuilds their Variants into Rows; it returns 0, io.EOF after the last
// row.
func (v *VariantReader) ReadRows(n int) (int, error) {
	v.reset()
	got := -1
	for _, l := range v.leaves {
		k, err := l.r.ReadRows(n)
		if got, err = v.leafRows(l, got, k, err); err != nil {
			return 0, err
		}
	}
	return v.rebuild(got)
}

// reset empties the rows before a batch.
func (v *VariantReader) reset() {
	v.Rows = v.Rows[:0]
	v.Def, v.Rep = v.Def[:0], v.Rep[:0]
	v.buf = v.buf[:0]
	v.spans = v.spans[:0]
}

// leafRows takes the result of leaf l's ReadRows, k rows or err, for a
// batch whose leaves before l read got rows (-1 for the first leaf), and
// returns the batch's rows: every leaf must read as many (io.EOF counts
// none).
func (v *VariantReader) leafRows(l *vleaf, got, k int, err error) (int, error) {
	if err == io.EOF {
		k, err = 0, nil
	}
	if err != nil {
		return 0, err
	}
	if got >= 0 && k != got {
		return 0, exactRows(k, got, nil, l.node.PathString())
	}
	l.pos, l.vpos = 0, 0
	return k, nil
}

// rebuild rebuilds the Variants of the got rows the leaves hold into
// Rows, Def and Rep (0, io.EOF when got is not positive).
func (v *VariantReader) rebuild(got int) (int, error) {
	if got <= 0 {
		return 0, io.EOF
	}
	lead := v.first(v.group)
	for lead.pos < lead.slots() {
		d, err := lead.def()
		if err != nil {
			return 0, err
		}
		v.Def = append(v.Def, d)
		v.Rep = append(v.Rep, uint8(max(lead.rep(), 0)))
		if err := v.row(); err != nil {
			return 0, fmt.Errorf("%s: occurrence %d of the batch: %w", v.group.PathString(), len(v.Def)-1, err)
		}
	}
	for _, l := range v.leaves {
		if l.pos != l.slots() {
			return 0, fmt.Errorf("%w: column %s: %d level entries left after the rows", ErrChunk, l.node.PathString(), l.slots()-l.pos)
		}
	}
	// Slice the rows out of buf only now that it no longer grows.
	v.Rows = v.appendRows(v.Rows, v.buf)
	return got, nil
}

// slots returns the number of level entries read for the leaf.
func (l *vleaf) slots() int {
	if l.node.MaxDef > 0 {
		return len(l.lv.Def)
	}
	if l.node.MaxRep > 0 {
		return len(l.lv.Rep)
	}
	return l.valueCount()
}

func (l *vleaf) valueCount() int {
	switch {
	case l.bools != nil:
		return len(l.bools.Values)
	case l.i32 != nil:
		return len(l.i32.Values)
	case l.i64 != nil:
		return len(l.i64.Values)
	case l.f32 != nil:
		return len(l.f32.Values)
	case l.f64 != nil:
		return len(l.f64.Values)
	case l.bytes != nil:
		return l.bytes.Values.Len()
	}
	if l.fixed.Size == 0 {
		return 0
	}
	return len(l.fixed.Values) / l.fixed.Size
}

// def returns the definition level of the leaf's next slot.
func (l *vleaf) def() (uint8, error) {
	if l.pos >= l.slots() {
		return 0, fmt.Errorf("%w: column %s ends inside a row", ErrChunk, l.node.PathString())
	}
	if l.node.MaxDef == 0 {
		return 0, nil
	}
	return l.lv.Def[l.pos], nil
}

// rep returns the repetition level of the next slot, -1 at the end.
func (l *vleaf) rep() int {
	if l.pos >= l.slots() {
		return -1
	}
	if l.node.MaxRep == 0 {
		return 0
	}
	return int(l.lv.Rep[l.pos])
}

// leaf returns the reader of leaf n of the group.
func (v *VariantReader) leaf(n *schema.Node) *vleaf { return v.leaves[n.Column-v.base] }

// first returns the first leaf under n.
func (v *VariantReader) first(n *schema.Node) *vleaf {
	for n.Group {
		n = n.Children[0]
	}
	return v.leaf(n)
}

// defined reports whether group or leaf n is defined at the current slot
// of its leaves.
func (v *VariantReader) defined(n *schema.Node) (bool, error) {
	d, err := v.first(n).def()
	return d >= n.MaxDef, err
}

// skip consumes one slot of every leaf under n (an occurrence that is null
// or empty above them).
func (v *VariantReader) skip(n *schema.Node) {
	if !n.Group {
		v.leaf(n).pos++
		return
	}
	for _, c := range n.Children {
		v.skip(c)
	}
}

// row rebuilds the next row's Variant and records it in buf and spans.
func (v *VariantReader) row() error {
	ok, err := v.defined(v.group)
	if err != nil {
		return err
	}
	if !ok {
		v.skip(v.group)
		v.spans = append(v.spans, -1, -1)
		return nil
	}
	ml := v.leaf(v.shape.Metadata)
	if d, err := ml.def(); err != nil {
		return err
	} else if d != ml.node.MaxDef {
		return fmt.Errorf("%w: %s: null metadata in a defined Variant", ErrChunk, ml.node.PathString())
	}
	mb := ml.bytes.Values.At(ml.vpos)
	ml.pos++
	ml.vpos++
	m, err := variant.ParseMetadata(mb)
	if err != nil {
		return fmt.Errorf("%w: metadata: %w", ErrVariant, err)
	}
	v.b.ResetFor(m)
	present, err := v.construct(v.shape, m)
	if err != nil {
		return err
	}
	if !present { // a missing top-level Variant reads as Variant null
		v.b.AppendNull()
	}
	v.buf = append(v.buf, mb...)
	me := len(v.buf)
	if v.buf, err = v.b.AppendTo(v.buf); err != nil {
		return fmt.Errorf("%w: %w", ErrVariant, err)
	}
	v.spans = append(v.spans, me, len(v.buf))
	return nil
}

// construct appends the Variant stored by s at the current slots (s.Node
// is defined there) and reports whether one is present: false when value
// and typed_value are both null (a missing object field).
func (v *VariantReader) construct(s *variant.Shape, m variant.Metadata) (bool, error) {
	var raw []byte
	if s.Value != nil {
		l := v.leaf(s.Value)
		d, err := l.def()
		if err != nil {
			return false, err
		}
		if d == s.Value.MaxDef {
			raw = l.bytes.Values.At(l.vpos)
			l.vpos++
		}
		l.pos++
	}
	typed := false
	if s.Typed != nil {
		ok, err := v.defined(s.Typed)
		if err != nil {
			return false, err
		}
		typed = ok
	}
	if !typed {
		if s.Typed != nil {
			v.skip(s.Typed)
		}
		if raw == nil {
			return false, nil
		}
		val, err := v.parseValue(s, m, raw)
		if err != nil {
			return false, err
		}
		v.b.AppendValue(val)
		return true, nil
	}
	switch s.TypedKind {
	case variant.TypedPrimitive:
		if raw != nil {
			return false, fmt.Errorf("%w: %s: conflicting value and typed_value", ErrVariant, s.Node.PathString())
		}
		return true, v.primitive(s)
	case variant.TypedArray:
		if raw != nil {
			return false, fmt.Errorf("%w: %s: conflicting value and typed_value", ErrVariant, s.Node.PathString())
		}
		return true, v.array(s, m)
	}
	// A shredded object, partially when value holds the other fields.
	var rest variant.Value
	if raw != nil {
		val, err := v.parseValue(s, m, raw)
		if err != nil {
			return false, err
		}
		if val.Kind() != variant.KindObject {
			return false, fmt.Errorf("%w: %s: non-object value with shredded fields", ErrVariant, s.Node.PathString())
		}
		rest = val
	}
	v.b.StartObject()
	for _, f := range s.Fields {
		present, err := v.present(f.Shape)
		if err != nil {
			return false, err
		}
		if !present { // a missing field: both columns null
			v.skip(f.Shape.Node)
			continue
		}
		v.b.Key(f.Name)
		if _, err := v.construct(f.Shape, m); err != nil {
			return false, err
		}
	}
	for i := range rest.Len() {
		name, fv := rest.Field(i)
		if s.HasField(name) {
			// The shredded column is authoritative: a writer must not
			// store a shredded field in value, and readers may assume it
			// does not (VariantShredding.md, "Objects").
			continue
		}
		v.b.Key(name)
		v.b.AppendValue(fv)
	}
	v.b.End()
	return true, v.b.Err()
}

// parseValue validates the value column's raw bytes of s against m,
// recording an object out of key order as a deviation (the Builder
// re-encodes it in key order).
func (v *VariantReader) parseValue(s *variant.Shape, m variant.Metadata, raw []byte) (variant.Value, error) {
	val, err := variant.ParseValue(m, raw)
	if err != nil {
		return val, fmt.Errorf("%w: %s: %w", ErrVariant, s.Value.PathString(), err)
	}
	if val.Unsorted() && !v.unsorted[s.Value] {
		if v.unsorted == nil {
			v.unsorted = map[*schema.Node]bool{}
		}
		v.unsorted[s.Value] = true
		err := v.f.deviate(Deviation{Kind: DeviationVariantUnsorted, Writer: "DuckDB 1.5", Column: s.Value.PathString(), RowGroup: -1, Page: -1,
			What: "a Variant object's field ids are not in key order (read; re-encoded in key order)"})
		if err != nil {
			return val, err
		}
	}
	return val, nil
}

// present reports whether the value or the typed_value of s (whose group
// is defined) holds something at the current slots, without consuming
// them.
func (v *VariantReader) present(s *variant.Shape) (bool, error) {
	if s.Value != nil {
		d, err := v.leaf(s.Value).def()
		if err != nil || d == s.Value.MaxDef {
			return err == nil, err
		}
	}
	if s.Typed != nil {
		return v.defined(s.Typed)
	}
	return false, nil
}

// array appends the shredded array at the current slots of s.Typed.
func (v *VariantReader) array(s *variant.Shape, m variant.Metadata) error {
	v.b.StartArray()
	ok, err := v.defined(s.List)
	if err != nil {
		return err
	}
	if !ok { // an empty list
		v.skip(s.Typed)
		v.b.End()
		return v.b.Err()
	}
	lead := v.first(s.List)
	for {
		present, err := v.construct(s.Element, m)
		if err != nil {
			return err
		}
		if !present { // elements cannot be missing: read as Variant null
			v.b.AppendNull()
		}
		if lead.rep() != int(s.List.MaxRep) {
			break
		}
		if ok, err := v.defined(s.List); err != nil {
			return err
		} else if !ok {
			return fmt.Errorf("%w: %s: undefined element inside a list", ErrChunk, s.List.PathString())
		}
	}
	v.b.End()
	return v.b.Err()
}

// primitive appends the typed_value leaf's current value as a Variant of
// the shape's kind.
func (v *VariantReader) primitive(s *variant.Shape) error {
	l := v.leaf(s.Typed)
	i := l.vpos
	l.pos++
	l.vpos++
	b := &v.b
	switch k := s.Primitive; k {
	case variant.KindTrue:
		b.AppendBool(l.bools.Values[i])
	case variant.KindInt8:
		b.AppendInt8(int8(l.i32.Values[i]))
	case variant.KindInt16:
		b.AppendInt16(int16(l.i32.Values[i]))
	case variant.KindInt32:
		b.AppendInt32(l.i32.Values[i])
	case variant.KindInt64:
		b.AppendInt64(l.i64.Values[i])
	case variant.KindFloat:
		b.AppendFloat(l.f32.Values[i])
	case variant.KindDouble:
		b.AppendDouble(l.f64.Values[i])
	case variant.KindDate:
		b.AppendDate(l.i32.Values[i])
	case variant.KindTime, variant.KindTimestamp, variant.KindTimestampNTZ, variant.KindTimestampNanos, variant.KindTimestampNTZNanos:
		b.AppendTimestamp(k, l.i64.Values[i])
	case variant.KindDecimal4:
		x := int64(l.i32.Values[i])
		b.AppendDecimalKind(k, variant.Decimal{Hi: x >> 63, Lo: uint64(x), Scale: l.scale})
	case variant.KindDecimal8:
		x := l.i64.Values[i]
		b.AppendDecimalKind(k, variant.Decimal{Hi: x >> 63, Lo: uint64(x), Scale: l.scale})
	case variant.KindDecimal16:
		var be []byte
		if l.bytes != nil {
			be = l.bytes.Values.At(i)
		} else {
			be = l.fixed.Values[i*l.fixed.Size : (i+1)*l.fixed.Size]
		}
		d, ok := decimal128(be, l.scale)
		if !ok {
			return fmt.Errorf("%w: %s: decimal of %d bytes", ErrVariant, s.Typed.PathString(), len(be))
		}
		b.AppendDecimalKind(k, d)
	case variant.KindBinary:
		b.AppendBinary(l.bytes.Values.At(i))
	case variant.KindString:
		p := l.bytes.Values.At(i)
		if !utf8.Valid(p) {
			return fmt.Errorf("%w: %s: string is not UTF-8", ErrVariant, s.Typed.PathString())
		}
		b.AppendString(string(p))
	case variant.KindUUID:
		var u [16]byte
		copy(u[:], l.fixed.Values[i*16:(i+1)*16])
		b.AppendUUID(u)
	default:
		return fmt.Errorf("%w: %s: kind %v", ErrVariant, s.Typed.PathString(), k)
	}
	return b.Err()
}

// decimal128 sign-extends a big-endian two's-complement integer of at
// most 16 bytes.
func decimal128(be []byte, scale uint8) (variant.Decimal, bool) {
	if len(be) == 0 || len(be) > 16 {
		return variant.Decimal{}, false
	}
	var b [16]byte
	fill := byte(0)
	if be[0]&0x80 != 0 {
		fill = 0xff
	}
	for i := range 16 - len(be) {
		b[i] = fill
	}
	copy(b[16-len(be):], be)
	var hi, lo uint64
	for i := range 8 {
		hi = hi<<8 | uint64(b[i])
		lo = lo<<8 | uint64(b[8+i])
	}
	return variant.Decimal{Hi: int64(hi), Lo: lo, Scale: scale}, true
}
