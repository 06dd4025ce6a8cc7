// Schema evolution: binding the schema of a type (as it is today) to the
// schema of a file (as it was when written). Fields match by field id
// when both sides carry one (and no sibling on either side shares it),
// else by name, group by group; LIST and MAP
// groups match whatever names and legacy layout (two-level lists,
// MAP_KEY_VALUE) the file gives their inner nodes. Each bound leaf then
// reads its file column through an adapter (read_adapt.go) when the two
// differ in levels or type: a nullable field read from a required one
// gets its definition levels synthesized, a widened type gets its values
// converted page by page. Rules: gen/doc.go, "Schema evolution".

package runtime

import (
	"fmt"
	"slices"
	"strings"

	"github.com/pqgen/pqgen/runtime/meta"
	"github.com/pqgen/pqgen/runtime/schema"
)

// match is the file node a node of the bound schema reads. A virtual
// match has no node of its own in the file (the element of a legacy
// two-level list, which is its repeated node itself): it is defined
// exactly when h is, and its children are matched among h's.
type match struct {
	h       *schema.Node
	virtual bool
	// elem marks the file's repeated node of a list that is its element
	// too (a legacy two-level list, a bare repeated field).
	elem bool
	// bare is the file's bare repeated field (no LIST annotation) that a
	// LIST group of the bound schema, matched virtually, reads.
	bare *schema.Node
}

// binder matches a bound schema's nodes to a file's.
type binder struct {
	have, want *schema.Schema
	m          map[*schema.Node]match
	// variants are the paths of want's Variant groups, matched whole
	// (VariantColumn): nothing below them is matched.
	variants map[string]bool
	kids     map[*schema.Node]*childIndex // see children
	failed   *schema.Node                 // the node of walk's error (mismatch)
}

func isListGroup(n *schema.Node) bool {
	return n.Group && (n.Logical.Kind == meta.LogicalList || n.Converted.Set && n.Converted.Val == meta.ConvertedList)
}

func isMapGroup(n *schema.Node) bool {
	return n.Group && (n.Logical.Kind == meta.LogicalMap || n.Converted.Set &&
		(n.Converted.Val == meta.ConvertedMap || n.Converted.Val == meta.ConvertedMapKeyValue))
}

// groupKind names what group n holds: a list, a map or a struct.
func groupKind(n *schema.Node) string {
	switch {
	case isListGroup(n):
		return "a list"
	case isMapGroup(n):
		return "a map"
	}
	return "a group"
}

// soleRepeated returns the only child of g when it is repeated.
func soleRepeated(g *schema.Node) *schema.Node {
	if g == nil || len(g.Children) != 1 || g.Children[0].Repetition != meta.Repeated {
		return nil
	}
	return g.Children[0]
}

// byIDOrName returns the child of hp that w reads: the one with w's field
// id when both carry ids, else the one with w's name (unless both carry
// different ids). An id that two siblings share, in the file or in the
// type, names neither: such fields match by name. Siblings of the same
// name (the format does not forbid them) pair up in order: the k-th of
// the type reads the k-th of the file.
func (b *binder) byIDOrName(hp, w *schema.Node) *schema.Node {
	have := b.children(hp)
	var want *childIndex
	if w.Parent != nil {
		want = b.children(w.Parent)
	}
	byID := w.FieldID.Set && (want == nil || len(want.byID[w.FieldID.Val]) == 1)
	if byID {
		switch ids := have.byID[w.FieldID.Val]; len(ids) {
		case 1:
			return ids[0]
		case 0:
		default:
			byID = false // shared in the file
		}
	}
	rank := 0
	if want != nil {
		rank = max(slices.Index(want.byName[w.Name], w), 0)
	}
	names := have.byName[w.Name]
	if rank >= len(names) {
		return nil
	}
	c := names[rank]
	if w.FieldID.Set && c.FieldID.Set && (byID || c.FieldID.Val != w.FieldID.Val) {
		return nil // another field under a reused name
	}
	return c
}

// childIndex holds a group's children by field id and by name, each list
// in schema order.
type childIndex struct {
	byID   map[int32][]*schema.Node
	byName map[string][]*schema.Node
}

// children returns the index of g's children, built on first use: a
// lookup per field costs the same in a group of 10,000 fields as in one
// of ten.
func (b *binder) children(g *schema.Node) *childIndex {
	if x, ok := b.kids[g]; ok {
		return x
	}
	x := &childIndex{byName: make(map[string][]*schema.Node, len(g.Children))}
	for _, c := range g.Children {
		if c.FieldID.Set {
			if x.byID == nil { // most schemas carry no ids
				x.byID = map[int32][]*schema.Node{}
			}
			x.byID[c.FieldID.Val] = append(x.byID[c.FieldID.Val], c)
		}
		x.byName[c.Name] = append(x.byName[c.Name], c)
	}
	b.kids[g] = x
	return x
}

// mismatch returns the error of a node of the bound schema, w, that the
// file's node matched to it cannot be read as (an ErrBind naming w's
// path), and keeps w for CheckSchema.
func (b *binder) mismatch(w *schema.Node, format string, args ...any) error {
	b.failed = w
	return fmt.Errorf("%w: column %q: "+format, append([]any{ErrBind, w.PathString()}, args...)...)
}

// walk matches the children of w, matched to m, and below.
func (b *binder) walk(w *schema.Node, m match) error {
	for i, wc := range w.Children {
		if b.variants[wc.PathString()] {
			continue
		}
		var cm match
		hp := m.h
		shapeFree := false // the repeated node of a list, a leaf in a legacy file
		switch {
		case hp == nil:
		case m.bare != nil && isListGroup(w) && soleRepeated(w) == wc:
			cm = match{h: m.bare, elem: true}
			shapeFree = true
		case isListGroup(w) && soleRepeated(w) == wc && isListGroup(hp) && soleRepeated(hp) != nil:
			cm = match{h: soleRepeated(hp)}
			cm.elem = cm.h.IsTwoLevelElement()
			shapeFree = cm.elem
		case w.Parent != nil && isListGroup(w.Parent) && soleRepeated(w.Parent) == w && len(w.Children) == 1 &&
			!w.IsTwoLevelElement() && !m.virtual && hp.Repetition == meta.Repeated:
			// The element of a list: the file's repeated node itself in
			// a legacy layout, else its only child, whatever its name.
			if m.elem {
				cm = match{h: hp, virtual: true}
			} else if hp.Group && len(hp.Children) == 1 {
				cm = match{h: hp.Children[0]}
			}
		case w.Parent != nil && isListGroup(w.Parent) && soleRepeated(w.Parent) == w && w.IsTwoLevelElement() &&
			!m.elem && !m.virtual && hp.Repetition == meta.Repeated:
			// A two-level list requested (its repeated group is the
			// element, as parquet-avro's "array" and parquet-thrift's
			// "<list>_tuple" groups) of a file whose repeated node holds
			// the element: the element's fields are matched among those of
			// the file's element, which must not be null (the requested
			// layout has no level for a null element).
			el := hp
			if hp.Group && len(hp.Children) == 1 {
				el = hp.Children[0]
			}
			if el == hp || !el.Group {
				return b.mismatch(wc, "the file's list elements are %s, the requested list's are groups (a two-level list)", el.PathString())
			}
			if el.Repetition != meta.Required {
				return b.mismatch(wc, "the file's list elements (%s) may be null, the requested two-level list's may not", el.PathString())
			}
			if c := b.byIDOrName(el, wc); c != nil {
				cm = match{h: c}
			}
		case isMapGroup(w) && soleRepeated(w) == wc && isMapGroup(hp) && soleRepeated(hp) != nil:
			cm = match{h: soleRepeated(hp)}
		case w.Parent != nil && isMapGroup(w.Parent) && soleRepeated(w.Parent) == w && len(w.Children) == 2 &&
			hp.Repetition == meta.Repeated && isMapGroup(hp.Parent) && len(hp.Children) <= 2:
			// Key and value: by name, else by position.
			if c := b.byIDOrName(hp, wc); c != nil {
				cm = match{h: c}
			} else if i < len(hp.Children) {
				cm = match{h: hp.Children[i]}
			}
		default:
			c := b.byIDOrName(hp, wc)
			switch {
			case c != nil && isListGroup(wc) && soleRepeated(wc) != nil && c.Repetition == meta.Repeated && !isListGroup(c) && !isMapGroup(c):
				// A bare repeated field read as a list: the list group
				// has no node in the file.
				cm = match{h: hp, virtual: true, bare: c}
			case c != nil:
				cm = match{h: c}
			}
		}
		if cm.h != nil && wc.Group != cm.h.Group && !shapeFree {
			what := func(n *schema.Node) string {
				if n.Group {
					return "a group"
				}
				return "a leaf"
			}
			return b.mismatch(wc, "%s in the file, %s requested", what(cm.h), what(wc))
		}
		if cm.h != nil && !shapeFree && !cm.virtual && wc.Group && cm.h.Group &&
			wc.Repetition != meta.Repeated && cm.h.Repetition != meta.Repeated && groupKind(wc) != groupKind(cm.h) {
			// A list read as a map or a struct (or the other way round)
			// would find none of its inner nodes and read as missing.
			return b.mismatch(wc, "%s in the file, %s requested", groupKind(cm.h), groupKind(wc))
		}
		b.m[wc] = cm
		if err := b.walk(wc, cm); err != nil {
			return err
		}
	}
	return nil
}

func newBinder(have, want *schema.Schema, variants []string) *binder {
	b := &binder{have: have, want: want, m: map[*schema.Node]match{want.Root: {h: have.Root}}, variants: map[string]bool{},
		kids: map[*schema.Node]*childIndex{}}
	for _, v := range variants {
		b.variants[v] = true
	}
	return b
}

// bindOptions are the reader options that change how Bind matches.
type bindOptions struct {
	// optionalAsRequired reads optional file fields into required ones
	// (WithOptionalAsRequired).
	optionalAsRequired bool
	// coarserUnits reads times into coarser units, exactly
	// (WithCoarserTimeUnits).
	coarserUnits bool
	// defaults are the paths of the bound schema's required leaves that
	// have a default value for files that lack them (BindDefaults).
	defaults map[string]bool
}

// bindAdapt matches want's leaves to have's (see Bind).
func bindAdapt(have, want *schema.Schema, opt bindOptions, variants ...string) ([]int, map[int]*adapter, error) {
	if want == nil {
		return nil, nil, fmt.Errorf("%w: nil schema", ErrBind)
	}
	b := newBinder(have, want, variants)
	if err := b.walk(want.Root, match{h: have.Root}); err != nil {
		return nil, nil, err
	}
	idx := make([]int, len(want.Leaves))
	var adapt map[int]*adapter
	for i, w := range want.Leaves {
		if under(w, variants) {
			// A Variant is read by its group (VariantColumn), whatever
			// shredded layout the file gives it.
			idx[i] = -1
			continue
		}
		path := w.PathString()
		h := b.m[w].h
		if h == nil {
			if mayBeNull(w) || opt.defaults[path] {
				idx[i] = -1
				continue
			}
			return nil, nil, fmt.Errorf("%w: column %q: required in the requested schema but absent from the file", ErrBind, path)
		}
		a, err := b.adapter(h, w, opt)
		if err != nil {
			return nil, nil, err
		}
		if a != nil {
			if adapt == nil {
				adapt = map[int]*adapter{}
			}
			adapt[h.Column] = a
		}
		idx[i] = h.Column
	}
	return idx, adapt, nil
}

// adapter checks the levels and type of file leaf h bound to leaf w and
// returns the adapter that reads one as the other (nil when none is
// needed).
func (b *binder) adapter(h, w *schema.Node, opt bindOptions) (*adapter, error) {
	path := w.PathString()
	a := &adapter{path: path, wantType: w.Type, wantSize: int(w.TypeLength), wantMaxDef: w.MaxDef, fileMaxDef: h.MaxDef, mul: 1, div: 1}
	if err := a.setConversion(h, w, opt); err != nil {
		return nil, err
	}
	ws := pathNodes(w)
	// Repetition: repeated nodes correspond one to one.
	for _, wn := range ws {
		m := b.m[wn]
		if m.virtual {
			continue
		}
		hr, wr := m.h.Repetition, wn.Repetition
		if (hr == meta.Repeated) != (wr == meta.Repeated) {
			return nil, fmt.Errorf("%w: column %q: field %q is %s in the file, %s requested", ErrBind, path,
				m.h.PathString(), strings.ToLower(hr.String()), strings.ToLower(wr.String()))
		}
	}
	if h.MaxRep != w.MaxRep {
		return nil, fmt.Errorf("%w: column %q: %d levels of repetition in the file, %d requested", ErrBind, path, h.MaxRep, w.MaxRep)
	}
	// Definition: file level d defines the file nodes of MaxDef <= d; a
	// bound node is defined when the file node it reads is.
	defMap := make([]int16, int(h.MaxDef)+1)
	same := h.MaxDef == w.MaxDef
	var relaxed *schema.Node
	for d := range defMap {
		cnt := int16(0)
		for _, wn := range ws {
			if int(b.m[wn].h.MaxDef) <= d {
				if wn.Repetition != meta.Required {
					cnt++
				}
				continue
			}
			if wn.Repetition == meta.Required {
				cnt = -1
				if relaxed == nil {
					relaxed = wn
				}
			}
			break
		}
		defMap[d] = cnt
		if cnt != int16(d) {
			same = false
		}
	}
	if relaxed != nil && !opt.optionalAsRequired {
		hn := b.m[relaxed].h
		return nil, fmt.Errorf("%w: column %q: field %q is %s in the file, required requested (WithOptionalAsRequired reads it, failing on a null)",
			ErrBind, path, hn.PathString(), strings.ToLower(hn.Repetition.String()))
	}
	if !same {
		a.defMap = defMap
	}
	if !a.conv && a.defMap == nil {
		return nil, nil
	}
	return a, nil
}

// Value kinds of leaves, for the widening rules.
const (
	kindOther = iota
	kindBool
	kindInt
	kindFloat
	kindDate
	kindTime
	kindTimestamp
	kindDecimal
	kindBytes
	kindFixed
	kindInt96
)

// leafKind is what the values of a leaf are.
type leafKind struct {
	kind   int
	bits   int  // kindInt, kindFloat
	signed bool // kindInt
	unit   meta.TimeUnit
	prec   int32 // kindDecimal
	scale  int32
}

func kindOf(n *schema.Node) leafKind {
	l := n.Logical
	switch l.Kind {
	case meta.LogicalDecimal:
		if n.Type == meta.Int32 || n.Type == meta.Int64 || n.Type == meta.FixedLenByteArray || n.Type == meta.ByteArray {
			return leafKind{kind: kindDecimal, prec: l.Decimal.Precision, scale: l.Decimal.Scale}
		}
	case meta.LogicalDate:
		if n.Type == meta.Int32 {
			return leafKind{kind: kindDate}
		}
	case meta.LogicalTime:
		if n.Type == meta.Int32 || n.Type == meta.Int64 {
			return leafKind{kind: kindTime, unit: l.Time.Unit}
		}
	case meta.LogicalTimestamp:
		if n.Type == meta.Int64 {
			return leafKind{kind: kindTimestamp, unit: l.Time.Unit}
		}
	case meta.LogicalInteger:
		bits := int(l.Integer.BitWidth)
		if n.Type == meta.Int32 && bits <= 32 || n.Type == meta.Int64 && bits == 64 {
			return leafKind{kind: kindInt, bits: bits, signed: l.Integer.IsSigned}
		}
	case meta.LogicalFloat16:
		if n.Type == meta.FixedLenByteArray && n.TypeLength == 2 {
			return leafKind{kind: kindFloat, bits: 16}
		}
	case meta.LogicalNone:
		switch n.Type {
		case meta.Boolean:
			return leafKind{kind: kindBool}
		case meta.Int32:
			return leafKind{kind: kindInt, bits: 32, signed: true}
		case meta.Int64:
			return leafKind{kind: kindInt, bits: 64, signed: true}
		case meta.Float:
			return leafKind{kind: kindFloat, bits: 32}
		case meta.Double:
			return leafKind{kind: kindFloat, bits: 64}
		case meta.Int96:
			return leafKind{kind: kindInt96}
		}
	}
	switch n.Type {
	case meta.ByteArray:
		return leafKind{kind: kindBytes}
	case meta.FixedLenByteArray:
		return leafKind{kind: kindFixed}
	}
	return leafKind{}
}

// typeString describes the type of a leaf: "int32 (INT(16,true))".
func typeString(n *schema.Node) string {
	s := schema.TypeName(n.Type, n.TypeLength)
	if a := schema.Annotation(n); a != "" {
		s += " (" + a + ")"
	}
	return s
}

// textual reports whether BYTE_ARRAY values of logical kind k are text or
// raw bytes, which read as one another unchanged.
func textual(k meta.LogicalKind) bool {
	return k == meta.LogicalNone || k == meta.LogicalString || k == meta.LogicalEnum || k == meta.LogicalJSON
}

// setConversion checks that the values of file leaf h read as those of
// w, exactly, and sets up the conversion when their physical types
// differ.
func (a *adapter) setConversion(h, w *schema.Node, opt bindOptions) error {
	hk, wk := kindOf(h), kindOf(w)
	refuse := func(why string) error {
		return fmt.Errorf("%w: column %q: %s in the file, %s requested: %s", ErrBind, a.path, typeString(h), typeString(w), why)
	}
	hl, wl := h.Logical.Kind, w.Logical.Kind
	rawBytes := (h.Type == meta.ByteArray || h.Type == meta.FixedLenByteArray) && h.Type == w.Type && h.TypeLength == w.TypeLength &&
		hl == meta.LogicalNone && !h.Converted.Set
	switch {
	case rawBytes && wk.kind != kindDecimal && wl != meta.LogicalVariant:
		// Bytes without annotation (as writers that drop one store
		// them) read as the annotated bytes of the type, unchanged.
	case hk.kind != wk.kind:
		switch {
		case hk.kind == kindDate && wk.kind == kindTimestamp:
			a.mul = 86400e9 / unitNanos(wk.unit)
		case hk.kind == kindTimestamp && wk.kind == kindInt96:
			a.mul = unitNanos(hk.unit)
		case hk.kind == kindInt && wk.kind == kindFloat && (wk.bits == 64 && hk.bits <= 32 || wk.bits == 32 && hk.bits <= 16):
			// Exact: every integer of those widths is a float64
			// (float32) value.
			a.zext = !hk.signed
		case hk.kind == kindInt96 && wk.kind == kindTimestamp:
			// The legacy timestamp (Spark, Impala, Hive) counts
			// nanoseconds: a coarser unit is narrowing.
			a.div = unitNanos(wk.unit)
			if a.div > 1 && !opt.coarserUnits {
				return refuse("a coarser unit than INT96's nanoseconds (WithCoarserTimeUnits reads whole values)")
			}
		default:
			return refuse("another type")
		}
	case hk.kind == kindInt:
		ok := hk.signed == wk.signed && hk.bits <= wk.bits || !hk.signed && wk.signed && hk.bits < wk.bits
		if !ok {
			return refuse("a narrower integer type")
		}
		a.zext = !hk.signed
	case hk.kind == kindFloat:
		if hk.bits > wk.bits {
			return refuse("a narrower floating-point type")
		}
	case hk.kind == kindTime || hk.kind == kindTimestamp:
		hn, wn := unitNanos(hk.unit), unitNanos(wk.unit)
		if hn < wn && !opt.coarserUnits {
			return refuse("a coarser unit (WithCoarserTimeUnits reads whole values)")
		}
		if hn < wn {
			a.div = wn / hn
		} else {
			a.mul = hn / wn
		}
	case hk.kind == kindDecimal:
		if wk.scale < hk.scale || wk.prec-wk.scale < hk.prec-hk.scale {
			return refuse("a smaller scale or fewer integer digits")
		}
		a.rescale = int(wk.scale - hk.scale)
		for range a.rescale {
			if a.mul > 1e17 {
				a.mul = 0 // more than int64 holds: bytes only
				break
			}
			a.mul *= 10
		}
		if a.mul == 0 && (w.Type == meta.Int32 || w.Type == meta.Int64) {
			return refuse("a scale change beyond 18 digits")
		}
	case hk.kind == kindBytes:
		ok := hl == wl || textual(hl) && textual(wl) || hl == meta.LogicalBSON && wl == meta.LogicalNone
		if !ok {
			return refuse("another logical type")
		}
	case hk.kind == kindFixed:
		if h.TypeLength != w.TypeLength {
			return refuse("another fixed length")
		}
		if hl != wl && wl != meta.LogicalNone {
			return refuse("another logical type")
		}
	case hk.kind == kindOther:
		if h.Type != w.Type || h.TypeLength != w.TypeLength || hl != wl {
			return refuse("another type")
		}
	}
	a.conv = h.Type != w.Type || h.TypeLength != w.TypeLength || a.mul != 1 || a.div != 1 || a.rescale != 0
	return nil
}

// ColumnStatus is how a column fares when a file is read into a type
// (CheckSchema).
type ColumnStatus int

// The column statuses of CheckSchema.
const (
	// ColumnMatch: the file's column reads as it is.
	ColumnMatch ColumnStatus = iota
	// ColumnConverted: the column reads as another type (widened, or
	// another annotation of the same bytes) or through synthesized or
	// checked definition levels.
	ColumnConverted
	// ColumnSkipped: the file's column has no field in the type; it is
	// never read.
	ColumnSkipped
	// ColumnMissing: the type's column is absent from the file; it reads
	// as null, zero or its default.
	ColumnMissing
	// ColumnIncompatible: the file cannot be read into the type; Err
	// says why.
	ColumnIncompatible
)

// String returns "match", "converted", "skipped", "missing" or
// "incompatible".
func (s ColumnStatus) String() string {
	switch s {
	case ColumnMatch:
		return "match"
	case ColumnConverted:
		return "converted"
	case ColumnSkipped:
		return "skipped"
	case ColumnMissing:
		return "missing"
	case ColumnIncompatible:
		return "incompatible"
	}
	return fmt.Sprintf("ColumnStatus(%d)", int(s))
}

// ColumnCheck is the verdict of CheckSchema on one column.
type ColumnCheck struct {
	// Path is the column's dotted path in the type (in the file for a
	// skipped column; the file's path may differ for a renamed field
	// matched by id).
	Path string
	// FilePath is the path of the file's column it reads ("" when
	// missing).
	FilePath string
	// Status is the verdict.
	Status ColumnStatus
	// File and Type describe the column's type in the file and in the
	// type ("" when absent).
	File, Type string
	// Err is the reason of an incompatible column, wrapping ErrBind.
	Err error
	// Note tells, for a converted column whose field is required on one
	// side and optional on the other, which field and which way
	// ("name is required in the file, optional in the type"): File and
	// Type, which describe the leaf's values, do not show it.
	Note string
}

// nullabilityNote returns ColumnCheck.Note for bound leaf w: the first
// field on its path that is required in the file and optional in the
// bound schema, or the reverse; "" when each field is either on both.
func (b *binder) nullabilityNote(w *schema.Node) string {
	for _, wn := range pathNodes(w) {
		m := b.m[wn]
		if m.h == nil || m.virtual {
			continue
		}
		switch hr, wr := m.h.Repetition, wn.Repetition; {
		case hr == meta.Required && wr == meta.Optional:
			return fmt.Sprintf("%s is required in the file, optional in the type", m.h.PathString())
		case hr == meta.Optional && wr == meta.Required:
			return fmt.Sprintf("%s is optional in the file, required in the type: a null fails the read", m.h.PathString())
		}
	}
	return ""
}

// CheckSchema reports, without reading any data, how the columns of a
// file of schema file read into a type of schema want (as Bind and the
// generated readers would, with the same options: WithOptionalAsRequired,
// WithCoarserTimeUnits): one ColumnCheck per leaf of want, in its order,
// then one per leaf of the file that want lacks. defaults are the paths of
// want's required leaves that have a default(...) value; variants the
// paths of its Variant groups, which read whatever their shredding (their
// leaves are left out of the report). The file reads into the type
// exactly when no column is ColumnIncompatible.
func CheckSchema(file, want *schema.Schema, defaults, variants []string, opts ...ReaderOption) []ColumnCheck {
	cfg := newReaderConfig(opts...)
	opt := bindOptions{optionalAsRequired: cfg.OptionalAsRequired, coarserUnits: cfg.CoarserTimeUnits, defaults: map[string]bool{}}
	for _, p := range defaults {
		opt.defaults[p] = true
	}
	b := newBinder(file, want, variants)
	walkErr := b.walk(want.Root, match{h: file.Root})
	var out []ColumnCheck
	used := map[int]bool{}
	for _, w := range want.Leaves {
		if under(w, variants) {
			continue
		}
		c := ColumnCheck{Path: w.PathString(), Type: typeString(w)}
		h := b.m[w].h
		switch {
		case h == nil && walkErr != nil:
			c.Status, c.Err = ColumnIncompatible, walkErr
		case h == nil:
			c.Status = ColumnMissing
			if !mayBeNull(w) && !opt.defaults[c.Path] {
				c.Status = ColumnIncompatible
				c.Err = fmt.Errorf("%w: column %q: required in the requested schema but absent from the file", ErrBind, c.Path)
			}
		default:
			used[h.Column] = true
			c.FilePath, c.File = h.PathString(), typeString(h)
			a, err := b.adapter(h, w, opt)
			switch {
			case err != nil:
				c.Status, c.Err = ColumnIncompatible, err
			case a != nil || c.File != c.Type:
				c.Status = ColumnConverted
				c.Note = b.nullabilityNote(w)
			}
		}
		out = append(out, c)
	}
	if walkErr != nil && b.failed != nil && !slices.ContainsFunc(out, func(c ColumnCheck) bool { return c.Err == walkErr }) {
		// No requested leaf carries the mismatch Bind fails with (it is
		// at a group of no field, say): the check names its group.
		out = append(out, ColumnCheck{Path: b.failed.PathString(), Status: ColumnIncompatible, Type: groupKind(b.failed), Err: walkErr})
	}
	for _, h := range file.Leaves {
		if !used[h.Column] && !under(h, variants) {
			out = append(out, ColumnCheck{Path: h.PathString(), FilePath: h.PathString(), Status: ColumnSkipped, File: typeString(h)})
		}
	}
	return out
}
