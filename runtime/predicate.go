// Typed row predicates: the values generated TWhere fields build
// (TWhere.At.Between(t0, t1)), combined with And, Or and Not and given to a
// reader with WithFilter. A predicate is a small tree whose leaves compare
// one leaf column with values held in the column's PLAIN encoding, so that
// they compare in the column's sort order with chunk statistics, page
// indexes, bloom filters and decoded values alike (filter*.go).

package runtime

import (
	"encoding/binary"
	"fmt"
	"math"
	"strings"

	"github.com/pqgen/pqgen/runtime/meta"
)

// Predicate selects rows. Build one with the methods of the fields of a
// generated TWhere value (Eq, Lt, Between, IsNull, ...) and combine them
// with And, Or and Not; give it to a reader with WithFilter.
//
// A comparison is true only on a row whose column holds a value (a null
// compares false, NotEq included), with Go's semantics for the field's
// type: NaN equals nothing and is ordered with nothing, -0.0 equals +0.0.
// Not negates in two-valued logic: Not(f.Eq(v)) also keeps the rows where
// f is null. A field the file lacks reads as null.
type Predicate interface {
	// String describes the predicate: `and(at between [a, b], kind = "buy")`.
	String() string
	isPredicate()
}

// predOp is the operator of a leaf predicate.
type predOp uint8

const (
	opEq predOp = iota
	opNotEq
	opIn
	opLt
	opLe
	opGt
	opGe
	opBetween
	opIsNull
	opNotNull
	opIntersects
)

var opNames = [...]string{"=", "!=", "in", "<", "<=", ">", ">=", "between", "is null", "is not null", "intersects"}

// predLeaf compares the leaf column at path with keys, the PLAIN encodings
// (without length prefix) of values of physical type phys.
type predLeaf struct {
	path string
	op   predOp
	phys meta.Type
	keys [][]byte
	show []string // the Go values, for String
	box  *Box     // of opIntersects
	// elem: the column is under one or more lists or maps, and a row
	// matches when some value of it satisfies op.
	elem bool
}

// predSame is SameElement(p).
type predSame struct{ p Predicate }

type predAnd struct{ ps []Predicate }
type predOr struct{ ps []Predicate }
type predNot struct{ p Predicate }

// predBad is a predicate built from invalid arguments (a nil operand, a
// value its column cannot hold); a reader given it fails with an error
// wrapping ErrConfig and err, the cause, when there is one (ErrValue).
type predBad struct {
	why string
	err error
}

func (*predLeaf) isPredicate() {}
func (*predSame) isPredicate() {}
func (*predAnd) isPredicate()  {}
func (*predOr) isPredicate()   {}
func (*predNot) isPredicate()  {}
func (*predBad) isPredicate()  {}

func (p *predLeaf) String() string {
	if p.elem {
		q := *p
		q.elem = false
		return "any " + q.String()
	}
	switch p.op {
	case opIsNull, opNotNull:
		return p.path + " " + opNames[p.op]
	case opIn:
		return p.path + " in (" + strings.Join(p.show, ", ") + ")"
	case opBetween:
		return p.path + " between [" + p.show[0] + ", " + p.show[1] + "]"
	}
	return p.path + " " + opNames[p.op] + " " + p.show[0]
}

func joinPreds(name string, ps []Predicate) string {
	s := make([]string, len(ps))
	for i, p := range ps {
		s[i] = p.String()
	}
	return name + "(" + strings.Join(s, ", ") + ")"
}

func (p *predAnd) String() string { return joinPreds("and", p.ps) }
func (p *predOr) String() string  { return joinPreds("or", p.ps) }
func (p *predNot) String() string { return "not(" + p.p.String() + ")" }
func (p *predSame) String() string {
	return "same element(" + p.p.String() + ")"
}
func (p *predBad) String() string { return "invalid(" + p.message() + ")" }

// message is why p is invalid, with its cause.
func (p *predBad) message() string {
	if p.err != nil {
		return p.why + ": " + p.err.Error()
	}
	return p.why
}

// checkOperands returns a predBad when one of ps is nil.
func checkOperands(name string, ps []Predicate) Predicate {
	for i, p := range ps {
		if p == nil {
			return &predBad{why: fmt.Sprintf("%s: operand %d is nil", name, i)}
		}
	}
	return nil
}

// And is true on the rows where every p is true (every row when ps is
// empty).
func And(ps ...Predicate) Predicate {
	if bad := checkOperands("And", ps); bad != nil {
		return bad
	}
	return &predAnd{ps: append([]Predicate{}, ps...)}
}

// Or is true on the rows where some p is true (no row when ps is empty).
func Or(ps ...Predicate) Predicate {
	if bad := checkOperands("Or", ps); bad != nil {
		return bad
	}
	return &predOr{ps: append([]Predicate{}, ps...)}
}

// Not is true on the rows where p is false.
func Not(p Predicate) Predicate {
	if p == nil {
		return &predBad{why: "Not: the operand is nil"}
	}
	return &predNot{p: p}
}

// SameElement is true on the rows where one element of a list (one entry
// of a map) satisfies p as a whole, where the Any predicates p combines
// would each be satisfied by some element, not necessarily the same one:
//
//	runtime.SameElement(runtime.And(OrderWhere.Lines.Any().SKU.Eq("A-1"),
//		OrderWhere.Lines.Any().Quantity.Gt(2)))
//
// keeps the orders with a line of SKU A-1 and a quantity above 2. Every
// leaf of p must be a predicate on the elements of the same list (the keys
// and values of the same map), on fields with no list or map between that
// list and them; p may combine them with And, Or and Not (Not negates
// within the element: SameElement(Not(l.Any().A.Eq(1))) keeps the rows
// with an element whose A is not 1, null included) but holds no other
// SameElement. A reader given another p fails with an error wrapping
// ErrFilter. Pruning by statistics, bloom filters and page indexes applies
// to a p without Not.
func SameElement(p Predicate) Predicate {
	if p == nil {
		return &predBad{why: "SameElement: the operand is nil"}
	}
	return &predSame{p: p}
}

// keyBuffer is a column buffer whose first value is a predicate key.
// It is implemented by *BoolBuffer, *Int32Buffer, ... *FixedBuffer.
type keyBuffer interface {
	firstKey() (meta.Type, []byte)
}

func (b *BoolBuffer) firstKey() (meta.Type, []byte) {
	if len(b.Values) > 0 && b.Values[0] {
		return meta.Boolean, []byte{1}
	}
	return meta.Boolean, []byte{0}
}

func (b *Int32Buffer) firstKey() (meta.Type, []byte) {
	return meta.Int32, binary.LittleEndian.AppendUint32(nil, uint32(first(b.Values)))
}

func (b *Int64Buffer) firstKey() (meta.Type, []byte) {
	return meta.Int64, binary.LittleEndian.AppendUint64(nil, uint64(first(b.Values)))
}

func (b *Int96Buffer) firstKey() (meta.Type, []byte) {
	v := first(b.Values)
	return meta.Int96, v[:]
}

func (b *FloatBuffer) firstKey() (meta.Type, []byte) {
	return meta.Float, binary.LittleEndian.AppendUint32(nil, math.Float32bits(first(b.Values)))
}

func (b *DoubleBuffer) firstKey() (meta.Type, []byte) {
	return meta.Double, binary.LittleEndian.AppendUint64(nil, math.Float64bits(first(b.Values)))
}

func (b *ByteArrayBuffer) firstKey() (meta.Type, []byte) {
	if b.Values.Len() == 0 {
		return meta.ByteArray, []byte{}
	}
	return meta.ByteArray, append([]byte{}, b.Values.At(0)...)
}

func (b *FixedBuffer) firstKey() (meta.Type, []byte) {
	return meta.FixedLenByteArray, append([]byte{}, b.Values...)
}

func first[T any](s []T) (v T) {
	if len(s) > 0 {
		v = s[0]
	}
	return v
}

// Field is the predicate builder of a leaf field of Go type T whose
// values are compared for equality only (a bool, an INTERVAL).
type Field[T any] struct {
	path string
	key  func(T) (meta.Type, []byte, error)
	elem bool // the builder of ListField.Any, ListOf.Any, MapField.AnyKey or AnyValue
}

// NewField returns the builder of the leaf column at the dotted path whose
// Go values put appends to a column buffer exactly as the generated
// writer does, failing where the writer would (a value the column cannot
// hold): a predicate on such a value fails the reader's open with
// ErrConfig (WithFilter), as other malformed predicates do.
//
// For generated code (see "For generated code" in the package doc).
func NewField[T any, E any, B interface {
	*E
	keyBuffer
}](path string, put func(B, T) error) Field[T] {
	return Field[T]{path: path, key: func(v T) (meta.Type, []byte, error) {
		var b E
		if err := put(&b, v); err != nil {
			return 0, nil, err
		}
		t, k := B(&b).firstKey()
		return t, k, nil
	}}
}

func (f Field[T]) leaf(op predOp, vs ...T) Predicate {
	if f.key == nil {
		return &predBad{why: "a Field that is not part of a generated TWhere value"}
	}
	p := &predLeaf{path: f.path, op: op, elem: f.elem}
	for _, v := range vs {
		t, k, err := f.key(v)
		if err != nil {
			return &predBad{why: fmt.Sprintf("%s: value %s", f.path, showValue(v)), err: err}
		}
		p.phys = t
		p.keys = append(p.keys, k)
		p.show = append(p.show, showValue(v))
	}
	return p
}

func showValue(v any) string {
	switch x := v.(type) {
	case string:
		return fmt.Sprintf("%q", x)
	case []byte:
		return fmt.Sprintf("%x", x)
	case fmt.Stringer:
		return x.String()
	}
	return fmt.Sprint(v)
}

// Eq is true where the field equals v.
func (f Field[T]) Eq(v T) Predicate { return f.leaf(opEq, v) }

// NotEq is true where the field holds a value other than v.
func (f Field[T]) NotEq(v T) Predicate { return f.leaf(opNotEq, v) }

// In is true where the field equals one of vs (no row when vs is empty).
func (f Field[T]) In(vs ...T) Predicate { return f.leaf(opIn, vs...) }

// OrderedField is the predicate builder of a leaf field whose type is
// ordered: numbers, strings and byte strings, times, durations, decimals.
type OrderedField[T any] struct{ Field[T] }

// NewOrderedField is NewField for an ordered type.
//
// For generated code (see "For generated code" in the package doc).
func NewOrderedField[T any, E any, B interface {
	*E
	keyBuffer
}](path string, put func(B, T) error) OrderedField[T] {
	return OrderedField[T]{NewField[T, E, B](path, put)}
}

// Lt is true where the field is less than v.
func (f OrderedField[T]) Lt(v T) Predicate { return f.leaf(opLt, v) }

// Le is true where the field is at most v.
func (f OrderedField[T]) Le(v T) Predicate { return f.leaf(opLe, v) }

// Gt is true where the field is greater than v.
func (f OrderedField[T]) Gt(v T) Predicate { return f.leaf(opGt, v) }

// Ge is true where the field is at least v.
func (f OrderedField[T]) Ge(v T) Predicate { return f.leaf(opGe, v) }

// Between is true where lo <= field <= hi.
func (f OrderedField[T]) Between(lo, hi T) Predicate { return f.leaf(opBetween, lo, hi) }

// NullableField is a Field that may be null.
type NullableField[T any] struct{ Field[T] }

// NewNullableField is NewField for a nullable field.
//
// For generated code (see "For generated code" in the package doc).
func NewNullableField[T any, E any, B interface {
	*E
	keyBuffer
}](path string, put func(B, T) error) NullableField[T] {
	return NullableField[T]{NewField[T, E, B](path, put)}
}

// IsNull is true where the field is null.
func (f NullableField[T]) IsNull() Predicate { return f.leaf(opIsNull) }

// NotNull is true where the field holds a value.
func (f NullableField[T]) NotNull() Predicate { return f.leaf(opNotNull) }

// NullableOrderedField is an OrderedField that may be null.
type NullableOrderedField[T any] struct{ OrderedField[T] }

// NewNullableOrderedField is NewField for a nullable ordered field.
//
// For generated code (see "For generated code" in the package doc).
func NewNullableOrderedField[T any, E any, B interface {
	*E
	keyBuffer
}](path string, put func(B, T) error) NullableOrderedField[T] {
	return NullableOrderedField[T]{NewOrderedField[T, E, B](path, put)}
}

// IsNull is true where the field is null.
func (f NullableOrderedField[T]) IsNull() Predicate { return f.leaf(opIsNull) }

// NotNull is true where the field holds a value.
func (f NullableOrderedField[T]) NotNull() Predicate { return f.leaf(opNotNull) }

// ListField is the predicate builder of a list field whose elements are
// scalars: Any returns the builder of the elements, whose predicates are
// true on the rows where some element satisfies them.
type ListField[E any] struct{ elem E }

// elemBuilder is a builder Any can return: withElem marks its predicates
// as "some element satisfies".
type elemBuilder[E any] interface{ withElem() E }

// NewListField returns the builder of a list field whose element builder
// is e (built with NewField or NewOrderedField on the element's column).
//
// For generated code (see "For generated code" in the package doc).
func NewListField[E elemBuilder[E]](e E) ListField[E] { return ListField[E]{elem: e.withElem()} }

// Any returns the builder of the list's elements: its predicates are true
// on the rows where at least one element satisfies them, so a null or
// empty list matches none and a null element satisfies no comparison.
// Not(l.Any().Eq(v)) keeps the rows where no element equals v.
func (l ListField[E]) Any() E { return l.elem }

// ListOf is the predicate builder of a list field whose elements are
// structs, lists or maps (or, inside those, scalars): Any returns E, the
// builder of its elements (for structs, a struct holding the builders of
// their fields that have one), whose predicates are true on the rows where
// some value under the list satisfies them.
type ListOf[E any] struct{ elem E }

// NewListOf returns the builder of a list whose element builder is e,
// made of builders made with AnyElement.
//
// For generated code (see "For generated code" in the package doc).
func NewListOf[E any](e E) ListOf[E] { return ListOf[E]{elem: e} }

// Any returns the builder of the list's elements: each predicate is true
// on the rows where at least one value under the list satisfies it (at
// every level of nesting: Lines.Any().Parts.Any().Name.Eq(x) holds where
// some part of some line is named x), so a null or empty list matches none
// and a null element or field satisfies no comparison. Two predicates
// joined by And may hold on different elements: And(l.Any().A.Eq(1),
// l.Any().B.Eq(2)) keeps a row with one element whose A is 1 and another
// whose B is 2 (SameElement asks for one element).
func (l ListOf[E]) Any() E { return l.elem }

// AnyElement returns b, the builder of a scalar under one or more levels
// of repetition (made with NewField or NewOrderedField on its column), with
// its predicates made "some value of the row satisfies", for NewListOf,
// NewMapOf and NewMapKeyOf.
//
// For generated code (see "For generated code" in the package doc).
func AnyElement[B elemBuilder[B]](b B) B { return b.withElem() }

// MapField is the predicate builder of a map field whose keys are scalars
// and whose values have builders (scalars, or structs, lists or maps
// holding some): AnyKey and AnyValue return the builders of its keys and
// of its values, whose predicates are true on the rows where some entry's
// key (some value under the map's values) satisfies them.
type MapField[K, V any] struct {
	key   K
	value V
}

// NewMapOf returns the builder of a map whose key builder is k and value
// builder v, made of builders made with AnyElement.
//
// For generated code (see "For generated code" in the package doc).
func NewMapOf[K, V any](k K, v V) MapField[K, V] { return MapField[K, V]{key: k, value: v} }

// AnyKey returns the builder of the map's keys: its predicates are true on
// the rows where at least one key satisfies them, so a null or empty map
// matches none. Not(m.AnyKey().Eq(k)) keeps the rows whose map has no key
// k.
func (m MapField[K, V]) AnyKey() K { return m.key }

// AnyValue returns the builder of the map's values: its predicates are
// true on the rows where at least one value satisfies them (a null value
// satisfies no comparison). A key predicate and a value predicate combined
// with And may be satisfied by different entries of the map (SameElement
// asks for one entry).
func (m MapField[K, V]) AnyValue() V { return m.value }

// MapKeyField is the predicate builder of a map field whose keys are
// scalars and whose values have no builders: AnyKey, as for MapField.
type MapKeyField[K any] struct{ key K }

// NewMapKeyOf returns the builder of a map whose key builder is k, made
// with AnyElement.
//
// For generated code (see "For generated code" in the package doc).
func NewMapKeyOf[K any](k K) MapKeyField[K] { return MapKeyField[K]{key: k} }

// AnyKey returns the builder of the map's keys: its predicates are true on
// the rows where at least one key satisfies them, so a null or empty map
// matches none.
func (m MapKeyField[K]) AnyKey() K { return m.key }

func (f Field[T]) withElem() Field[T] {
	f.elem = true
	return f
}

func (f OrderedField[T]) withElem() OrderedField[T] {
	f.elem = true
	return f
}
