// Predicate evaluation, cheapest first: on bounds (chunk statistics and
// column-index pages) in three-valued form (no row, every row, or maybe
// some rows match), on bloom filters for equalities, and exactly on decoded
// values. Sort orders follow write_stats.go and the Statistics and
// ColumnOrder comments of parquet.thrift:
// https://github.com/apache/parquet-format/blob/master/src/main/thrift/parquet.thrift.

package runtime

import (
	"bytes"
	"encoding/binary"
	"math"
	"slices"

	"github.com/pqgen/pqgen/runtime/bloom"
	"github.com/pqgen/pqgen/runtime/encode"
	"github.com/pqgen/pqgen/runtime/meta"
)

// tri is what bounds tell of a predicate on a set of rows.
type tri uint8

const (
	triNone  tri = iota // no row matches
	triMaybe            // some rows may match
	triAll              // every row matches
)

// evalTri evaluates p over the three-valued results of its leaves.
func evalTri(p Predicate, leaf func(*predLeaf) tri) tri {
	switch p := p.(type) {
	case *predLeaf:
		return leaf(p)
	case *predAnd:
		out := triAll
		for _, q := range p.ps {
			out = min(out, evalTri(q, leaf))
			if out == triNone {
				break
			}
		}
		return out
	case *predOr:
		out := triNone
		for _, q := range p.ps {
			out = max(out, evalTri(q, leaf))
			if out == triAll {
				break
			}
		}
		return out
	case *predNot:
		return triAll - evalTri(p.p, leaf)
	case *predSame:
		// As evalRanges: no element can satisfy p.p where one of the
		// leaves it needs has none, when it negates nothing.
		if !hasNot(p.p) && evalTri(p.p, leaf) == triNone {
			return triNone
		}
		return triMaybe
	}
	return triMaybe
}

// bounds are what statistics say of a set of values of one column.
type bounds struct {
	min, max  []byte // valid bounds in the column order (maybe truncated)
	hasMinMax bool
	nulls     int64
	hasNulls  bool
	values    int64 // slots (rows: the column is not repeated)
	distinct  int64 // distinct values the writer counted (0: none, or not given)
	allNull   bool  // known to hold only nulls
	nanFree   bool  // known to hold no NaN (float orders)
}

// boundLen returns the PLAIN length of a bound of order o and physical
// type t (typeLen for FIXED_LEN_BYTE_ARRAY), or -1 for any length.
func boundLen(o orderKind, t meta.Type, typeLen int32) int {
	switch o {
	case orderBool:
		return 1
	case orderInt32, orderUint32, orderFloat:
		return 4
	case orderInt64, orderUint64, orderDouble:
		return 8
	case orderFloat16:
		return 2
	case orderInt96Time:
		return 12
	}
	if t == meta.FixedLenByteArray && o == orderDecimal {
		return int(typeLen)
	}
	return -1
}

// floatOf decodes a PLAIN float bound of order o.
func floatOf(o orderKind, b []byte) float64 {
	switch o {
	case orderFloat:
		return float64(math.Float32frombits(binary.LittleEndian.Uint32(b)))
	case orderFloat16:
		return float64(Float16ToFloat32(binary.LittleEndian.Uint16(b)))
	}
	return math.Float64frombits(binary.LittleEndian.Uint64(b))
}

// compareKey compares two PLAIN values of order o by the semantics of
// their Go type: floats numerically (ok is false when one is NaN, which
// compares with nothing), other orders by compareBounds.
func compareKey(o orderKind, a, b []byte) (c int, ok bool) {
	if o.isFloat() {
		x, y := floatOf(o, a), floatOf(o, b)
		switch {
		case x != x || y != y:
			return 0, false
		case x < y:
			return -1, true
		case x > y:
			return 1, true
		}
		return 0, true
	}
	if o == orderNone {
		return bytes.Compare(a, b), true
	}
	return compareBounds(o, a, b), true
}

// leafBounds evaluates leaf p, whose keys and bounds have order o, on b.
func leafBounds(p *predLeaf, o orderKind, b bounds) tri {
	if b.allNull || b.hasNulls && b.values > 0 && b.nulls >= b.values {
		if p.op == opIsNull {
			return triAll
		}
		return triNone
	}
	noNull := b.hasNulls && b.nulls == 0
	switch p.op {
	case opIsNull:
		if noNull {
			return triNone
		}
		return triMaybe
	case opNotNull:
		if noNull {
			return triAll
		}
		return triMaybe
	}
	if !b.hasMinMax || o == orderNone {
		return triMaybe
	}
	if c, ok := compareKey(o, b.min, b.max); !ok || c > 0 {
		return triMaybe // NaN or inverted bounds: unusable
	}
	canAll := noNull && (!o.isFloat() || b.nanFree)
	all := func(cond bool) tri {
		if cond && canAll {
			return triAll
		}
		return triMaybe
	}
	// cmp compares key k with bound x; ok false for a NaN key.
	cmp := func(k, x []byte) (int, bool) { return compareKey(o, k, x) }
	switch p.op {
	case opEq, opIn:
		out := triNone
		for _, k := range p.keys {
			lo, ok := cmp(k, b.min)
			if !ok {
				continue // NaN equals nothing
			}
			hi, _ := cmp(k, b.max)
			if lo < 0 || hi > 0 {
				continue
			}
			out = max(out, all(lo == 0 && hi == 0))
		}
		return out
	case opNotEq:
		lo, ok := cmp(p.keys[0], b.min)
		if !ok {
			return all(true) // NaN differs from every value
		}
		hi, _ := cmp(p.keys[0], b.max)
		if lo == 0 && hi == 0 && (!o.isFloat() || b.nanFree) {
			return triNone
		}
		return all(lo < 0 || hi > 0)
	case opBetween:
		cl, ok1 := cmp(p.keys[0], b.max) // lo vs max
		ch, ok2 := cmp(p.keys[1], b.min) // hi vs min
		if !ok1 || !ok2 || cl > 0 || ch < 0 {
			return triNone
		}
		a1, _ := cmp(p.keys[0], b.min)
		a2, _ := cmp(p.keys[1], b.max)
		return all(a1 <= 0 && a2 >= 0)
	}
	k := p.keys[0]
	cmin, ok := cmp(k, b.min)
	if !ok {
		return triNone // nothing is ordered with NaN
	}
	cmax, _ := cmp(k, b.max)
	switch p.op {
	case opLt: // v < k
		if cmin <= 0 {
			return triNone
		}
		return all(cmax > 0)
	case opLe:
		if cmin < 0 {
			return triNone
		}
		return all(cmax >= 0)
	case opGt: // v > k
		if cmax >= 0 {
			return triNone
		}
		return all(cmin < 0)
	case opGe:
		if cmax > 0 {
			return triNone
		}
		return all(cmin <= 0)
	}
	return triMaybe
}

// leafBloom reports whether the bloom filter bf proves that no value of
// the chunk satisfies the equality leaf p (Eq or In) of physical type t
// and order o.
func leafBloom(p *predLeaf, o orderKind, t meta.Type, bf *bloom.Filter) bool {
	if bf == nil || p.op != opEq && p.op != opIn || o == orderDecimal || o == orderNone && t != meta.FixedLenByteArray && t != meta.ByteArray {
		return false
	}
	for _, k := range p.keys {
		var h uint64
		switch t {
		case meta.Int32:
			h = bloom.HashInt32(int32(binary.LittleEndian.Uint32(k)))
		case meta.Int64:
			h = bloom.HashInt64(int64(binary.LittleEndian.Uint64(k)))
		case meta.Float, meta.Double:
			f := floatOf(o, k)
			if f == 0 || f != f {
				return false // -0 and +0 hash apart; NaN matches nothing anyway
			}
			if t == meta.Float {
				h = bloom.HashFloat(float32(f))
			} else {
				h = bloom.HashDouble(f)
			}
		case meta.Int96:
			h = bloom.HashInt96([12]byte(k))
		case meta.ByteArray, meta.FixedLenByteArray:
			if o == orderFloat16 {
				return false
			}
			h = bloom.HashBytes(k)
		default:
			return false
		}
		if bf.Check(h) {
			return false
		}
	}
	return true
}

// rowMatcher evaluates a leaf on a batch of one column: out[i] reports
// whether row i matches.
type rowMatcher func(cd *colBatch, out []bool)

// colBatch is a batch of rows of one non-repeated column.
type colBatch struct {
	lv     *Levels
	maxDef uint8
	n      int // rows
	// the values: exactly one is set, by physical type
	bools   []bool
	i32     []int32
	i64     []int64
	i96     []encode.Int96
	f32     []float32
	f64     []float64
	ba      *encode.ByteArrays
	fixed   []byte
	fixSize int
}

// present returns whether row i holds a value.
func (cd *colBatch) present(i int) bool { return cd.maxDef == 0 || cd.lv.Def[i] == cd.maxDef }

// eachValue calls f(i, k) for each row i holding value k and sets out[i]
// to false for the null rows.
func eachValue(cd *colBatch, out []bool, f func(i, k int)) {
	k := 0
	for i := 0; i < cd.n; i++ {
		if !cd.present(i) {
			out[i] = false
			continue
		}
		f(i, k)
		k++
	}
}

// newRowMatcher returns the exact evaluation of leaf p on values of order
// o (the order of the type the reader decodes into).
func newRowMatcher(p *predLeaf, o orderKind) rowMatcher {
	switch p.op {
	case opIntersects:
		return geoRowMatcher(p.box)
	case opIsNull, opNotNull:
		want := p.op == opNotNull
		return func(cd *colBatch, out []bool) {
			for i := 0; i < cd.n; i++ {
				out[i] = cd.present(i) == want
			}
		}
	}
	if o.isFloat() {
		keys := make([]float64, len(p.keys))
		for i, k := range p.keys {
			keys[i] = floatOf(o, k)
		}
		m := floatMatch(p.op, keys)
		return func(cd *colBatch, out []bool) {
			switch {
			case cd.f32 != nil:
				eachValue(cd, out, func(i, k int) { out[i] = m(float64(cd.f32[k])) })
			case cd.f64 != nil:
				eachValue(cd, out, func(i, k int) { out[i] = m(cd.f64[k]) })
			default: // FLOAT16
				eachValue(cd, out, func(i, k int) {
					out[i] = m(float64(Float16At(cd.fixed, k)))
				})
			}
		}
	}
	switch o {
	case orderInt32, orderInt64, orderUint32, orderUint64, orderBool:
		keys := make([]uint64, len(p.keys))
		for i, k := range p.keys {
			keys[i] = intKey(o, k)
		}
		m := orderedMatch(p.op, keys, cmp3[uint64])
		return func(cd *colBatch, out []bool) {
			switch {
			case cd.i32 != nil:
				eachValue(cd, out, func(i, k int) { out[i] = m(intKey32(o, cd.i32[k])) })
			case cd.i64 != nil:
				eachValue(cd, out, func(i, k int) { out[i] = m(intKey64(o, cd.i64[k])) })
			default:
				eachValue(cd, out, func(i, k int) {
					b := uint64(0)
					if cd.bools[k] {
						b = 1
					}
					out[i] = m(b)
				})
			}
		}
	}
	cmp := func(a, b []byte) int { c, _ := compareKey(o, a, b); return c }
	m := orderedMatch(p.op, p.keys, cmp)
	return func(cd *colBatch, out []bool) {
		switch {
		case cd.ba != nil:
			eachValue(cd, out, func(i, k int) { out[i] = m(cd.ba.At(k)) })
		case cd.i96 != nil:
			eachValue(cd, out, func(i, k int) { out[i] = m(cd.i96[k][:]) })
		default:
			s := cd.fixSize
			eachValue(cd, out, func(i, k int) { out[i] = m(cd.fixed[k*s : (k+1)*s]) })
		}
	}
}

// anyElement returns the matcher of the values under lists and maps from
// m, the matcher of one value: row i matches when one of its slots holds a
// value m accepts. The batch's levels hold one slot per value, and one for
// each empty or null list or map at any level (colReader.checkRows checked
// the row count).
func anyElement(m rowMatcher) rowMatcher {
	var slots []bool
	return func(cd *colBatch, out []bool) {
		s := *cd
		s.n = len(cd.lv.Rep)
		slots = slices.Grow(slots[:0], s.n)[:s.n]
		m(&s, slots)
		clear(out)
		slotRows(cd.lv.Rep, slots, out)
	}
}

// slotRows sets out[r] where a slot of row r is set in slots, the rows
// starting at the slots of repetition level 0 (rep); out is cleared by the
// caller, and slots past len(out) rows are ignored.
func slotRows(rep []uint8, slots, out []bool) {
	row := -1
	for i, r := range rep {
		if r == 0 {
			row++
		}
		if slots[i] && row < len(out) {
			out[row] = true
		}
	}
}

// intKey maps a PLAIN integer key of order o to a uint64 whose unsigned
// order is the order o.
func intKey(o orderKind, k []byte) uint64 {
	switch o {
	case orderBool:
		return uint64(k[0])
	case orderInt32, orderUint32:
		return intKey32(o, int32(binary.LittleEndian.Uint32(k)))
	}
	return intKey64(o, int64(binary.LittleEndian.Uint64(k)))
}

func intKey32(o orderKind, v int32) uint64 {
	if o == orderUint32 {
		return uint64(uint32(v))
	}
	return uint64(int64(v)) ^ 1<<63
}

func intKey64(o orderKind, v int64) uint64 {
	if o == orderUint64 {
		return uint64(v)
	}
	return uint64(v) ^ 1<<63
}

// orderedMatch returns the test of op against keys under cmp.
func orderedMatch[V any](op predOp, keys []V, cmp func(a, b V) int) func(V) bool {
	switch op {
	case opEq:
		k := keys[0]
		return func(v V) bool { return cmp(v, k) == 0 }
	case opNotEq:
		k := keys[0]
		return func(v V) bool { return cmp(v, k) != 0 }
	case opIn:
		return func(v V) bool {
			for _, k := range keys {
				if cmp(v, k) == 0 {
					return true
				}
			}
			return false
		}
	case opLt:
		return func(v V) bool { return cmp(v, keys[0]) < 0 }
	case opLe:
		return func(v V) bool { return cmp(v, keys[0]) <= 0 }
	case opGt:
		return func(v V) bool { return cmp(v, keys[0]) > 0 }
	case opGe:
		return func(v V) bool { return cmp(v, keys[0]) >= 0 }
	case opBetween:
		return func(v V) bool { return cmp(v, keys[0]) >= 0 && cmp(v, keys[1]) <= 0 }
	}
	return func(V) bool { return false }
}

// floatMatch is orderedMatch with Go's float operators (NaN compares
// false, -0 equals +0).
func floatMatch(op predOp, keys []float64) func(float64) bool {
	switch op {
	case opEq:
		return func(v float64) bool { return v == keys[0] }
	case opNotEq:
		return func(v float64) bool { return v != keys[0] }
	case opIn:
		return func(v float64) bool {
			for _, k := range keys {
				if v == k {
					return true
				}
			}
			return false
		}
	case opLt:
		return func(v float64) bool { return v < keys[0] }
	case opLe:
		return func(v float64) bool { return v <= keys[0] }
	case opGt:
		return func(v float64) bool { return v > keys[0] }
	case opGe:
		return func(v float64) bool { return v >= keys[0] }
	case opBetween:
		return func(v float64) bool { return keys[0] <= v && v <= keys[1] }
	}
	return func(float64) bool { return false }
}

// boolSlabs hands out the []bool results of one batch's predicate nodes,
// reused from batch to batch so evaluating a filter allocates only for its
// first batch.
type boolSlabs struct {
	bufs [][]bool
	used int
}

// take returns a cleared slice of n results, valid until reset.
func (s *boolSlabs) take(n int) []bool {
	if s.used == len(s.bufs) {
		s.bufs = append(s.bufs, nil)
	}
	b := s.bufs[s.used]
	if cap(b) < n {
		b = make([]bool, n)
		s.bufs[s.used] = b
	}
	s.used++
	b = b[:n]
	clear(b)
	return b
}

// reset makes every slice handed out since the last reset free again.
func (s *boolSlabs) reset() { s.used = 0 }

// evalRows evaluates p on a batch of n rows given its leaves' and
// SameElement nodes' results (which leaf and same take from sl), with
// every node's result taken from sl.
func evalRows(p Predicate, n int, sl *boolSlabs, leaf func(*predLeaf) []bool, same func(*predSame) []bool) []bool {
	switch p := p.(type) {
	case *predLeaf:
		return leaf(p)
	case *predSame:
		return same(p)
	case *predAnd:
		out := sl.take(n)
		for i := range out {
			out[i] = true
		}
		for _, q := range p.ps {
			for i, v := range evalRows(q, n, sl, leaf, same) {
				out[i] = out[i] && v
			}
		}
		return out
	case *predOr:
		out := sl.take(n)
		for _, q := range p.ps {
			for i, v := range evalRows(q, n, sl, leaf, same) {
				out[i] = out[i] || v
			}
		}
		return out
	case *predNot:
		out := evalRows(p.p, n, sl, leaf, same)
		for i := range out {
			out[i] = !out[i]
		}
		return out
	}
	return sl.take(n)
}
