// Writing Variant columns: each Variant is split over the leaves of its
// VARIANT group. A value whose type matches the group's typed_value goes
// there (objects field by field, arrays element by element, recursively);
// anything else goes to the binary value column; an object's fields
// without a shredded column stay together in value as a smaller object.
// This is the writer's side of
// https://github.com/apache/parquet-format/blob/master/VariantShredding.md.

package runtime

import (
	"fmt"

	"github.com/pqgen/pqgen/runtime/meta"
	"github.com/pqgen/pqgen/runtime/schema"
	"github.com/pqgen/pqgen/runtime/variant"
)

// VariantWriter shreds Variants into the column buffers of a VARIANT
// group. It appends levels and values only: the caller ends rows with
// FileWriter.EndRows as for any other column.
//
// For generated code (see "For generated code" in the package doc).
type VariantWriter struct {
	shape  *variant.Shape
	group  *schema.Node
	leaves []*wleaf // in schema order: leaves[i] is column base+i
	base   int
	b      variant.Builder
	tmp    []byte
	// checked holds the Variants Check accepted that Append has not yet
	// taken, in order, with their parse: Append reuses it.
	checked []checkedVariant
	next    int // first of checked not yet taken
}

// checkedVariant is one Variant Check accepted, and its parse.
type checkedVariant struct {
	e variant.Encoded
	v variant.Value
}

// maxChecked bounds the parses Check keeps for Append (a generated writer
// checks a batch of at most 2,048 rows, then appends them).
const maxChecked = 4096

type wleaf struct {
	node  *schema.Node
	lv    *Levels
	bools *BoolBuffer
	i32   *Int32Buffer
	i64   *Int64Buffer
	f32   *FloatBuffer
	f64   *DoubleBuffer
	bytes *ByteArrayBuffer
	fixed *FixedBuffer
	scale uint8
}

// leaf returns the writer of leaf n of the group.
func (w *VariantWriter) leaf(n *schema.Node) *wleaf { return w.leaves[n.Column-w.base] }

// levels appends one slot.
func (l *wleaf) levels(def, rep uint8) {
	if l.node.MaxDef > 0 {
		l.lv.Def = append(l.lv.Def, def)
	}
	if l.node.MaxRep > 0 {
		l.lv.Rep = append(l.lv.Rep, rep)
	}
}

// VariantWriter returns the writer of the VARIANT group at path (dotted,
// as in the schema).
func (fw *FileWriter) VariantWriter(path string) (*VariantWriter, error) {
	g := groupAt(fw.schema, path)
	if g == nil {
		return nil, fmt.Errorf("%w: no group %q", ErrColumnType, path)
	}
	shape, err := variant.ShapeOf(g)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrColumnType, err)
	}
	if opt := shape.OptionalFields(); len(opt) > 0 {
		// Read from other writers' files, never written.
		return nil, fmt.Errorf("%w: %w: %s: shredded field must be a required group", ErrColumnType, variant.ErrShape, opt[0].PathString())
	}
	leaves := shape.Leaves()
	w := &VariantWriter{shape: shape, group: g, base: leaves[0].Column}
	for _, n := range leaves {
		l := &wleaf{node: n}
		switch n.Type {
		case meta.Boolean:
			l.bools, err = fw.BoolBuffer(n.Column)
			if err == nil {
				l.lv = &l.bools.Levels
			}
		case meta.Int32:
			l.i32, err = fw.Int32Buffer(n.Column)
			if err == nil {
				l.lv = &l.i32.Levels
			}
		case meta.Int64:
			l.i64, err = fw.Int64Buffer(n.Column)
			if err == nil {
				l.lv = &l.i64.Levels
			}
		case meta.Float:
			l.f32, err = fw.FloatBuffer(n.Column)
			if err == nil {
				l.lv = &l.f32.Levels
			}
		case meta.Double:
			l.f64, err = fw.DoubleBuffer(n.Column)
			if err == nil {
				l.lv = &l.f64.Levels
			}
		case meta.ByteArray:
			l.bytes, err = fw.ByteArrayBuffer(n.Column)
			if err == nil {
				l.lv = &l.bytes.Levels
			}
		case meta.FixedLenByteArray:
			l.fixed, err = fw.FixedBuffer(n.Column)
			if err == nil {
				l.lv = &l.fixed.Levels
			}
		default:
			err = fmt.Errorf("%w: %s: %s in a Variant", ErrColumnType, n.PathString(), schema.TypeName(n.Type, n.TypeLength))
		}
		if err != nil {
			return nil, err
		}
		if n.Logical.Kind == meta.LogicalDecimal {
			l.scale = uint8(n.Logical.Decimal.Scale)
		}
		w.leaves = append(w.leaves, l)
	}
	return w, nil
}

// Append appends one Variant at repetition level rep (0 for a group
// outside any list); the zero Encoded appends a null group, which must
// then be optional. The Variant is validated first; nothing is appended
// when it is invalid or cannot be stored (a value that matches no
// typed_value in a group without a value column).
func (w *VariantWriter) Append(e variant.Encoded, rep uint8) error {
	if e.IsNull() {
		if w.group.Repetition != meta.Optional {
			return fmt.Errorf("%w: %s: null Variant in a required group", ErrColumnType, w.group.PathString())
		}
		w.AppendNull(w.group.MaxDef-1, rep)
		return nil
	}
	v, ok := w.takeChecked(e)
	if !ok {
		var err error
		if v, err = w.parse(e); err != nil {
			return err
		}
	}
	ml := w.leaf(w.shape.Metadata)
	ml.levels(w.group.MaxDef, rep)
	ml.bytes.Values.Append(e.Metadata)
	w.put(w.shape, v, true, rep)
	return nil
}

// Check reports whether Append would accept e, without appending: a
// generated writer checks a whole batch of rows first, so that a Variant
// it cannot store rejects the batch and leaves the file consistent.
// Check keeps what it parsed: the Appends of the same Encodeds (the same
// slices, their bytes unchanged in between), in the order checked, reuse
// it instead of parsing and checking each Variant again.
func (w *VariantWriter) Check(e variant.Encoded) error {
	if e.IsNull() {
		if w.group.Repetition != meta.Optional {
			return fmt.Errorf("%w: %s: null Variant in a required group", ErrColumnType, w.group.PathString())
		}
		return nil
	}
	v, err := w.parse(e)
	if err != nil {
		// The batch is rejected: let go of the rows checked before.
		clear(w.checked)
		w.checked, w.next = w.checked[:0], 0
		return err
	}
	if len(w.checked) < maxChecked {
		w.checked = append(w.checked, checkedVariant{e, v})
	}
	return nil
}

// parse validates e and checks that the group can store it.
func (w *VariantWriter) parse(e variant.Encoded) (variant.Value, error) {
	v, err := e.Parse()
	if err != nil {
		return v, fmt.Errorf("%s: %w", w.group.PathString(), err)
	}
	if v.Unsorted() {
		// Readers accept objects out of key order (DuckDB writes them);
		// writers produce only what the specification allows.
		return v, fmt.Errorf("%s: %w: an object's keys are not in key order (re-encode it with variant.Builder)", w.group.PathString(), variant.ErrMalformed)
	}
	if err := w.check(w.shape, v, true); err != nil {
		return v, fmt.Errorf("%s: %w", w.group.PathString(), err)
	}
	return v, nil
}

// takeChecked returns the parse Check kept for e, dropping those kept
// for Variants checked before e and never appended.
func (w *VariantWriter) takeChecked(e variant.Encoded) (variant.Value, bool) {
	for w.next < len(w.checked) {
		c := &w.checked[w.next]
		w.next++
		if sameSlice(c.e.Metadata, e.Metadata) && sameSlice(c.e.Value, e.Value) {
			v := c.v
			if w.next == len(w.checked) {
				clear(w.checked)
				w.checked, w.next = w.checked[:0], 0
			}
			return v, true
		}
	}
	clear(w.checked)
	w.checked, w.next = w.checked[:0], 0
	return variant.Value{}, false
}

// sameSlice reports whether a and b are the same non-empty slice.
func sameSlice(a, b []byte) bool {
	return len(a) == len(b) && len(a) > 0 && &a[0] == &b[0]
}

// AppendNull appends one slot with definition level def (below the
// group's) and repetition level rep to every leaf: the group is absent
// because it or an enclosing field is null or an enclosing list is empty.
func (w *VariantWriter) AppendNull(def, rep uint8) {
	w.nulls(w.group, def, rep)
}

func (w *VariantWriter) nulls(n *schema.Node, def, rep uint8) {
	if !n.Group {
		w.leaf(n).levels(def, rep)
		return
	}
	for _, c := range n.Children {
		w.nulls(c, def, rep)
	}
}

// matches reports how v is stored under s: in typed_value (true) or in
// value.
func matches(s *variant.Shape, v variant.Value) bool {
	switch s.TypedKind {
	case variant.TypedObject:
		return v.Kind() == variant.KindObject
	case variant.TypedArray:
		return v.Kind() == variant.KindArray
	case variant.TypedPrimitive:
		// A value goes to typed_value when the column holds it exactly:
		// its own kind, or (Exact Numeric equivalence class) a narrower
		// integer or decimal of the column's scale that fits the column.
		// It then reads back as the column's kind, an equal value.
		k := v.Kind()
		switch s.Primitive {
		case variant.KindTrue:
			return k == variant.KindTrue || k == variant.KindFalse
		case variant.KindInt8, variant.KindInt16, variant.KindInt32, variant.KindInt64:
			if k < variant.KindInt8 || k > s.Primitive {
				return false
			}
			x := v.Int()
			switch s.Primitive {
			case variant.KindInt8:
				return x == int64(int8(x))
			case variant.KindInt16:
				return x == int64(int16(x))
			case variant.KindInt32:
				return x == int64(int32(x))
			}
			return true
		case variant.KindDecimal4, variant.KindDecimal8, variant.KindDecimal16:
			lt := s.Typed.Logical.Decimal
			if k < variant.KindDecimal4 || k > s.Primitive || int32(v.Decimal().Scale) != lt.Scale {
				return false
			}
			d := v.Decimal()
			if !digitsWithin(d.Hi, d.Lo, lt.Precision) {
				return false // the column's precision, not only its bytes
			}
			switch {
			case s.Typed.Type == meta.FixedLenByteArray:
				return fitsBytes(d, int(s.Typed.TypeLength))
			case s.Primitive == variant.KindDecimal4:
				return d.Hi == int64(d.Lo)>>63 && int64(d.Lo) == int64(int32(d.Lo))
			case s.Primitive == variant.KindDecimal8:
				return d.Hi == int64(d.Lo)>>63
			}
			return true
		}
		return k == s.Primitive
	}
	return false
}

// check walks v as put will, before anything is appended, so that a
// Variant is either stored whole or not at all.
func (w *VariantWriter) check(s *variant.Shape, v variant.Value, present bool) error {
	if !present {
		if s.Value != nil && s.Value.Repetition == meta.Required {
			return fmt.Errorf("%w: %s: a missing value in a required value column", ErrColumnType, s.Node.PathString())
		}
		return nil
	}
	if !matches(s, v) {
		if s.Value == nil {
			return fmt.Errorf("%w: %s: a %v matches neither typed_value nor a value column", ErrColumnType, s.Node.PathString(), v.Kind())
		}
		return nil
	}
	switch s.TypedKind {
	case variant.TypedArray:
		for i := range v.Len() {
			if err := w.check(s.Element, v.Index(i), true); err != nil {
				return err
			}
		}
	case variant.TypedObject:
		for _, f := range s.Fields {
			fv, ok := v.Get(f.Name)
			if err := w.check(f.Shape, fv, ok); err != nil {
				return err
			}
		}
		if s.Value == nil {
			for i := range v.Len() {
				if name, _ := v.Field(i); !s.HasField(name) {
					return fmt.Errorf("%w: %s: field %q has no shredded column and there is no value column", ErrColumnType, s.Node.PathString(), name)
				}
			}
		}
	}
	return nil
}

// put appends v (or a missing value) under s, whose group is defined.
// Precondition: check accepted the same arguments.
func (w *VariantWriter) put(s *variant.Shape, v variant.Value, present bool, rep uint8) {
	base := s.Node.MaxDef
	typedNull := func() {
		if s.Typed != nil {
			w.nulls(s.Typed, base, rep)
		}
	}
	valueNull := func() {
		if s.Value != nil {
			w.leaf(s.Value).levels(base, rep)
		}
	}
	if !present {
		valueNull()
		typedNull()
		return
	}
	if !matches(s, v) {
		l := w.leaf(s.Value)
		l.levels(s.Value.MaxDef, rep)
		l.bytes.Values.Append(v.Raw())
		typedNull()
		return
	}
	switch s.TypedKind {
	case variant.TypedPrimitive:
		valueNull()
		w.primitive(w.leaf(s.Typed), s.Primitive, v, rep)
	case variant.TypedArray:
		valueNull()
		if v.Len() == 0 {
			w.nulls(s.Typed, s.Typed.MaxDef, rep)
			return
		}
		for i := range v.Len() {
			r := rep
			if i > 0 {
				r = s.List.MaxRep
			}
			w.put(s.Element, v.Index(i), true, r)
		}
	case variant.TypedObject:
		// The fields without a column stay in value, as an object.
		w.b.ResetFor(v.Metadata())
		w.b.StartObject()
		rest := 0
		for i := range v.Len() {
			name, fv := v.Field(i)
			if !s.HasField(name) {
				w.b.Key(name)
				w.b.AppendValue(fv)
				rest++
			}
		}
		w.b.End()
		if rest > 0 {
			w.tmp, _ = w.b.AppendTo(w.tmp[:0]) // keys come from v's own metadata
			l := w.leaf(s.Value)
			l.levels(s.Value.MaxDef, rep)
			l.bytes.Values.Append(w.tmp)
		} else {
			valueNull()
		}
		for _, f := range s.Fields {
			fv, ok := v.Get(f.Name)
			w.put(f.Shape, fv, ok, rep)
		}
	}
}

// primitive appends v to the typed_value leaf l.
func (w *VariantWriter) primitive(l *wleaf, k variant.Kind, v variant.Value, rep uint8) {
	l.levels(l.node.MaxDef, rep)
	switch k {
	case variant.KindTrue:
		l.bools.Values = append(l.bools.Values, v.Bool())
	case variant.KindInt8, variant.KindInt16, variant.KindInt32:
		l.i32.Values = append(l.i32.Values, int32(v.Int()))
	case variant.KindDate:
		l.i32.Values = append(l.i32.Values, v.Date())
	case variant.KindInt64:
		l.i64.Values = append(l.i64.Values, v.Int())
	case variant.KindTime, variant.KindTimestamp, variant.KindTimestampNTZ, variant.KindTimestampNanos, variant.KindTimestampNTZNanos:
		l.i64.Values = append(l.i64.Values, v.Timestamp())
	case variant.KindFloat:
		l.f32.Values = append(l.f32.Values, float32(v.Float()))
	case variant.KindDouble:
		l.f64.Values = append(l.f64.Values, v.Float())
	case variant.KindDecimal4:
		l.i32.Values = append(l.i32.Values, int32(v.Decimal().Lo))
	case variant.KindDecimal8:
		l.i64.Values = append(l.i64.Values, int64(v.Decimal().Lo))
	case variant.KindDecimal16:
		be := bigEndian128(v.Decimal())
		if l.fixed != nil {
			l.fixed.Values = append(l.fixed.Values, be[16-l.fixed.Size:]...)
		} else {
			l.bytes.Values.Append(minimalTwos(be[:]))
		}
	case variant.KindBinary, variant.KindString:
		l.bytes.Values.Append(v.Bytes())
	case variant.KindUUID:
		u := v.UUID()
		l.fixed.Values = append(l.fixed.Values, u[:]...)
	}
}

func bigEndian128(d variant.Decimal) (b [16]byte) {
	hi, lo := uint64(d.Hi), d.Lo
	for i := range 8 {
		b[7-i] = byte(hi >> (8 * i))
		b[15-i] = byte(lo >> (8 * i))
	}
	return b
}

// minimalTwos trims redundant sign bytes of a big-endian two's-complement
// integer, as Parquet writers store BYTE_ARRAY decimals.
func minimalTwos(b []byte) []byte {
	for len(b) > 1 && (b[0] == 0 && b[1]&0x80 == 0 || b[0] == 0xff && b[1]&0x80 != 0) {
		b = b[1:]
	}
	return b
}

// fitsBytes reports whether d's unscaled value fits n big-endian bytes.
func fitsBytes(d variant.Decimal, n int) bool {
	be := bigEndian128(d)
	return len(minimalTwos(be[:])) <= n
}
