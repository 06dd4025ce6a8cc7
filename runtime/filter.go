// Filtered reading (WithFilter): row groups pruned by chunk statistics and
// bloom filters, pages by the column index and offset index, then rows
// selected exactly by decoding the predicate's columns first; every column
// reader of the FileReader then reads only the selected rows, passing over
// the pages that hold none (late materialization through the row ranges of
// read_cursor.go). Page index:
// https://parquet.apache.org/docs/file-format/pageindex/.

package runtime

import (
	"errors"
	"fmt"
	"slices"

	"github.com/pqgen/pqgen/runtime/bloom"
	"github.com/pqgen/pqgen/runtime/meta"
	"github.com/pqgen/pqgen/runtime/schema"
)

// WithFilter makes a reader return only the rows on which p is true, in
// file order. Row groups and pages that cannot hold such a row are never
// read; the predicate's columns are decoded first, and the other columns
// only for the selected rows. The columns p names need not be among those
// of WithColumns. A predicate on a column the file lacks sees nulls; a
// column of another physical type than the predicate's, or a repeated
// one (but the columns under lists and maps, under ListField.Any,
// ListOf.Any, MapField.AnyKey and AnyValue),
// fails the first read with an error wrapping ErrFilter. A predicate
// built from invalid arguments (a nil operand, a value its column cannot
// hold) fails the reader's open with an error wrapping ErrConfig, and
// ErrValue for such a value.
//
// With a filter, NumRows counts the rows that pruning by statistics and
// page indexes leaves; it falls to the exact count as reading proceeds.
func WithFilter(p Predicate) ReaderOption {
	return func(c *readerConfig) {
		if p == nil {
			c.fail("WithFilter(nil)")
			return
		}
		if bad := findBad(p); bad != nil {
			if bad.err != nil {
				c.fail("WithFilter: %s: %w", bad.why, bad.err)
			} else {
				c.fail("WithFilter: %s", bad.why)
			}
			return
		}
		c.Filter = p
	}
}

func findBad(p Predicate) *predBad {
	switch p := p.(type) {
	case *predBad:
		return p
	case *predAnd:
		for _, q := range p.ps {
			if b := findBad(q); b != nil {
				return b
			}
		}
	case *predOr:
		for _, q := range p.ps {
			if b := findBad(q); b != nil {
				return b
			}
		}
	case *predNot:
		return findBad(p.p)
	case *predSame:
		return findBad(p.p)
	}
	return nil
}

// WithRowGroups restricts reading to the row groups with the given
// indices (a split, see Splits); they are read in file order. An index
// outside the file fails NewFileReader with an error wrapping ErrConfig.
func WithRowGroups(indices ...int) ReaderOption {
	return func(c *readerConfig) {
		for _, i := range indices {
			if i < 0 {
				c.fail("WithRowGroups: negative index %d", i)
				return
			}
		}
		c.RowGroups = append([]int{}, indices...)
	}
}

// filterState is the progress of a FileReader's filter.
type filterState struct {
	pred     Predicate
	leaves   map[*predLeaf]*boundLeaf
	same     map[*predSame]*boundSame
	cols     []int // file columns whose values a leaf tests, each once
	prepared bool
	err      error
	exact    map[int]bool // row groups whose ranges are the matching rows
	planIdx  int          // fr.rowGroups[:planIdx] are exact
	planRows int64        // their rows
}

// boundLeaf is a predicate leaf bound to the file.
type boundLeaf struct {
	col      int       // file leaf, -1 when the file lacks it (all null)
	order    orderKind // of the keys (the bound schema's leaf)
	readType meta.Type // the type the column is read as
	prune    bool      // the file's bounds and bloom filters are in the keys' order
	match    rowMatcher
	slots    rowMatcher // of an elem leaf: match per slot, before the rows
}

// boundSame is a SameElement predicate bound to the file: its leaves, the
// file column whose levels place the elements (-1 when the file has none
// of the leaves' columns), and the definition level from which a slot
// holds an element.
type boundSame struct {
	leaves  []*predLeaf
	ref     int
	elemDef uint8
}

// bindSame checks SameElement(p.p) against the schema want (the leaves of
// p.p are bound already, in leaves) and binds it.
func (r *FileReader) bindSame(p *predSame, want *schema.Schema, leaves map[*predLeaf]*boundLeaf) (*boundSame, error) {
	bs := &boundSame{ref: -1}
	var elem *schema.Node // the repeated node the leaves share
	var collect func(q Predicate) error
	collect = func(q Predicate) error {
		switch q := q.(type) {
		case *predAnd:
			for _, x := range q.ps {
				if err := collect(x); err != nil {
					return err
				}
			}
		case *predOr:
			for _, x := range q.ps {
				if err := collect(x); err != nil {
					return err
				}
			}
		case *predNot:
			return collect(q.p)
		case *predSame:
			return fmt.Errorf("%w: %s: a SameElement inside another", ErrFilter, p)
		case *predLeaf:
			if !q.elem {
				return fmt.Errorf("%w: %s: %s is not a predicate on list elements or map entries (Any, AnyKey, AnyValue)", ErrFilter, p, q)
			}
			// The innermost list or map above the leaf (bindLeaf checked
			// there is one): a leaf inside a list of the elements has
			// another than a leaf of the elements themselves.
			rep := want.Leaf(q.path)
			for rep.Repetition != meta.Repeated {
				rep = rep.Parent
			}
			if elem != nil && rep != elem {
				return fmt.Errorf("%w: %s: columns %q and %q are not in the elements of the same list or map", ErrFilter, p, bs.leaves[0].path, q.path)
			}
			elem = rep
			bs.leaves = append(bs.leaves, q)
			if bl := leaves[q]; bs.ref < 0 && bl.col >= 0 {
				bs.ref = bl.col
			}
		}
		return nil
	}
	if err := collect(p.p); err != nil {
		return nil, err
	}
	if elem == nil {
		return nil, fmt.Errorf("%w: %s: no predicate on list elements or map entries", ErrFilter, p)
	}
	bs.elemDef = elem.MaxDef
	return bs, nil
}

// hasNot reports whether p negates anything.
func hasNot(p Predicate) bool {
	switch p := p.(type) {
	case *predAnd:
		return slices.ContainsFunc(p.ps, hasNot)
	case *predOr:
		return slices.ContainsFunc(p.ps, hasNot)
	case *predNot:
		return true
	case *predSame:
		return hasNot(p.p)
	}
	return false
}

// rangeRows returns the rows of a set of row ranges.
func rangeRows(rr []rowRange) int64 {
	n := int64(0)
	for _, r := range rr {
		n += r.end - r.start
	}
	return n
}

// intersectRanges returns the rows in both a and b.
func intersectRanges(a, b []rowRange) []rowRange {
	out := []rowRange{}
	for i, j := 0, 0; i < len(a) && j < len(b); {
		s, e := max(a[i].start, b[j].start), min(a[i].end, b[j].end)
		if s < e {
			out = appendRange(out, s, e)
		}
		if a[i].end < b[j].end {
			i++
		} else {
			j++
		}
	}
	return out
}

// unionRanges returns the rows in a or b.
func unionRanges(a, b []rowRange) []rowRange {
	out := []rowRange{}
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		var r rowRange
		if j >= len(b) || i < len(a) && a[i].start <= b[j].start {
			r, i = a[i], i+1
		} else {
			r, j = b[j], j+1
		}
		out = appendRange(out, r.start, r.end)
	}
	return out
}

// complementRanges returns the rows of [0, total) not in a.
func complementRanges(a []rowRange, total int64) []rowRange {
	out := []rowRange{}
	at := int64(0)
	for _, r := range a {
		if r.start > at {
			out = append(out, rowRange{at, r.start})
		}
		at = max(at, r.end)
	}
	if at < total {
		out = append(out, rowRange{at, total})
	}
	return out
}

// appendRange appends [s, e) to sorted ranges, merging when it touches or
// overlaps the last one.
func appendRange(out []rowRange, s, e int64) []rowRange {
	if n := len(out); n > 0 && out[n-1].end >= s {
		out[n-1].end = max(out[n-1].end, e)
		return out
	}
	return append(out, rowRange{s, e})
}

// bindFilter binds the leaves of the filter to the file's columns; want is
// the schema of Bind (nil: the file's).
func (r *FileReader) bindFilter(want *schema.Schema) error {
	fs := r.filter
	if want == nil {
		want = r.f.Schema
	}
	fs.leaves = map[*predLeaf]*boundLeaf{}
	fs.same = map[*predSame]*boundSame{}
	seen := map[int]bool{}
	var walk func(p Predicate) error
	walk = func(p Predicate) error {
		switch p := p.(type) {
		case *predSame:
			if err := walk(p.p); err != nil {
				return err
			}
			bs, err := r.bindSame(p, want, fs.leaves)
			if err != nil {
				return err
			}
			fs.same[p] = bs
		case *predAnd:
			for _, q := range p.ps {
				if err := walk(q); err != nil {
					return err
				}
			}
		case *predOr:
			for _, q := range p.ps {
				if err := walk(q); err != nil {
					return err
				}
			}
		case *predNot:
			return walk(p.p)
		case *predLeaf:
			bl, err := r.bindLeaf(p, want)
			if err != nil {
				return err
			}
			fs.leaves[p] = bl
			if bl.col >= 0 && !seen[bl.col] {
				seen[bl.col] = true
				fs.cols = append(fs.cols, bl.col)
			}
		}
		return nil
	}
	return walk(fs.pred)
}

func (r *FileReader) bindLeaf(p *predLeaf, want *schema.Schema) (*boundLeaf, error) {
	w := want.Leaf(p.path)
	if w == nil {
		return nil, fmt.Errorf("%w: %s: no column %q", ErrFilter, p, p.path)
	}
	for _, l := range want.Leaves[w.Column+1:] {
		if l.PathString() == p.path {
			// A name with a dot beside a nested column of the same path.
			return nil, fmt.Errorf("%w: %s: two columns have the path %q", ErrFilter, p, p.path)
		}
	}
	if p.elem && w.MaxRep < 1 {
		return nil, fmt.Errorf("%w: %s: column %q is not under a list or a map", ErrFilter, p, p.path)
	}
	if !p.elem && w.MaxRep > 0 {
		return nil, fmt.Errorf("%w: %s: column %q is repeated", ErrFilter, p, p.path)
	}
	if p.op == opIntersects && w.Type != meta.ByteArray {
		return nil, fmt.Errorf("%w: %s: column %q is %s, not WKB bytes", ErrFilter, p, p.path, schema.TypeName(w.Type, w.TypeLength))
	}
	order := predicateOrder(w)
	if len(p.keys) > 0 {
		if p.phys != w.Type {
			return nil, fmt.Errorf("%w: %s: column %q is %s, the predicate's values %s", ErrFilter, p, p.path,
				schema.TypeName(w.Type, w.TypeLength), schema.TypeName(p.phys, 0))
		}
		for _, k := range p.keys {
			if n := boundLen(order, w.Type, w.TypeLength); n >= 0 && len(k) != n || w.Type == meta.FixedLenByteArray && len(k) != int(w.TypeLength) {
				return nil, fmt.Errorf("%w: %s: a value of %d bytes for column %q of type %s", ErrFilter, p, len(k), p.path, schema.TypeName(w.Type, w.TypeLength))
			}
		}
	}
	bl := &boundLeaf{col: -1, order: order, readType: w.Type}
	bl.match = newRowMatcher(p, bl.order)
	if p.elem {
		bl.slots = bl.match
		bl.match = anyElement(bl.match)
	}
	var h *schema.Node
	if want == r.want && r.bound != nil {
		// Bound by field id or name, in any list layout.
		if w.Column < len(r.bound) && r.bound[w.Column] >= 0 {
			h = r.f.Schema.Leaves[r.bound[w.Column]]
		}
	} else {
		h = r.f.Schema.Leaf(p.path)
	}
	if h == nil {
		return bl, nil
	}
	if h.MaxRep != w.MaxRep {
		return nil, fmt.Errorf("%w: %s: column %q has repetition level %d in the file, %d in the row type", ErrFilter, p, p.path, h.MaxRep, w.MaxRep)
	}
	bl.col = h.Column
	a := r.adapt[h.Column]
	if a == nil || !a.conv {
		if h.Type != w.Type || h.Type == meta.FixedLenByteArray && h.TypeLength != w.TypeLength {
			return nil, fmt.Errorf("%w: %s: column %q is %s in the file", ErrFilter, p, p.path, schema.TypeName(h.Type, h.TypeLength))
		}
		bl.prune = columnOrderKind(h) == bl.order
	}
	return bl, nil
}

// predicateOrder returns the order a predicate on leaf n compares values
// and keys in: the column's statistics order, but for INT96, which has
// none (its statistics never prune) and compares as the timestamps its
// values are. Keys have boundLen(predicateOrder(n), ...) bytes.
func predicateOrder(n *schema.Node) orderKind {
	if n.Type == meta.Int96 {
		return orderInt96Time
	}
	return columnOrderKind(n)
}

// prepareFilter binds the filter and prunes the selected row groups by
// statistics, bloom filters and page indexes, once.
func (r *FileReader) prepareFilter() error {
	fs := r.filter
	if fs == nil || fs.prepared {
		if fs != nil {
			return fs.err
		}
		return nil
	}
	fs.prepared = true
	fs.err = r.pruneFilter()
	return fs.err
}

func (r *FileReader) pruneFilter() error {
	fs := r.filter
	if err := r.bindFilter(r.want); err != nil {
		return err
	}
	r.prefetchFilterIndexes()
	fs.exact = map[int]bool{}
	if r.ranges == nil {
		r.ranges = map[int][]rowRange{}
	}
	kept := r.rowGroups[:0:0]
	r.numRows = 0
	for _, rg := range r.rowGroups {
		total := r.f.Meta.RowGroups[rg].NumRows
		stats := map[*predLeaf]tri{}
		t := evalTri(fs.pred, func(p *predLeaf) tri {
			v, err := r.leafChunk(p, fs.leaves[p], rg)
			if err != nil {
				fs.err = err
			}
			if p.elem && v == triAll {
				v = triMaybe // an empty or null list has no element
			}
			stats[p] = v
			return v
		})
		if fs.err != nil {
			return fs.err
		}
		if t == triNone {
			continue
		}
		var perr error
		maybe, all := evalRanges(fs.pred, total, func(p *predLeaf) ([]rowRange, []rowRange) {
			st, ok := stats[p]
			if !ok {
				st = triMaybe // not evaluated: a short-circuit decided without it
			}
			mb, al, err := r.leafPages(p, fs.leaves[p], rg, total, st)
			if err != nil && perr == nil {
				perr = err
			}
			return mb, al
		})
		if perr != nil {
			return perr
		}
		if prev, ok := r.ranges[rg]; ok {
			maybe = intersectRanges(maybe, prev)
			all = intersectRanges(all, prev)
		}
		n := rangeRows(maybe)
		if n == 0 {
			continue
		}
		fs.exact[rg] = rangeRows(all) == n
		if n == total {
			delete(r.ranges, rg)
		} else {
			r.ranges[rg] = maybe
		}
		kept = append(kept, rg)
		r.numRows += n
	}
	r.rowGroups = kept
	return nil
}

// evalRanges evaluates p on the rows [0, total) of a row group from its
// leaves' results: maybe holds the rows that may match, all those that
// surely do.
func evalRanges(p Predicate, total int64, leaf func(*predLeaf) (maybe, all []rowRange)) (maybe, all []rowRange) {
	full := []rowRange{{0, total}}
	switch p := p.(type) {
	case *predLeaf:
		return leaf(p)
	case *predAnd:
		maybe, all = full, full
		for _, q := range p.ps {
			m, a := evalRanges(q, total, leaf)
			maybe, all = intersectRanges(maybe, m), intersectRanges(all, a)
		}
		return maybe, all
	case *predOr:
		maybe, all = []rowRange{}, []rowRange{}
		for _, q := range p.ps {
			m, a := evalRanges(q, total, leaf)
			maybe, all = unionRanges(maybe, m), unionRanges(all, a)
		}
		return maybe, all
	case *predNot:
		m, a := evalRanges(p.p, total, leaf)
		return complementRanges(a, total), complementRanges(m, total)
	case *predSame:
		// The rows where one element satisfies p.p are among those where
		// each of its leaves is satisfied by some element, when p.p
		// negates nothing; no page is ever known to match throughout.
		if hasNot(p.p) {
			return full, []rowRange{}
		}
		m, _ := evalRanges(p.p, total, leaf)
		return m, []rowRange{}
	}
	return full, []rowRange{}
}

// chunkBounds returns what the statistics of leaf col in row group rg say.
func (r *FileReader) chunkBounds(rg, col int, o orderKind) bounds {
	cc := &r.f.Meta.RowGroups[rg].Columns[col]
	md := cc.MetaData
	if md == nil || md.Statistics == nil {
		return bounds{}
	}
	st := md.Statistics
	b := bounds{values: md.NumValues}
	if n, ok := st.NullCount.Get(); ok && n >= 0 {
		b.nulls, b.hasNulls = n, true
	}
	if n, ok := st.NanCount.Get(); ok && n == 0 {
		b.nanFree = true
	}
	if n, ok := st.DistinctCount.Get(); ok && n > 0 {
		b.distinct = n
	}
	ok, emptyMin := r.f.boundsUsable(rg, col)
	if !ok {
		// Bounds a writer is known to have computed wrongly
		// (docs/DEVIATIONS.md) prune nothing.
		return b
	}
	b.min, b.max, b.hasMinMax = r.usableBounds(col, o, st.MinValue, st.MaxValue, st.Min, st.Max)
	if emptyMin && b.hasMinMax {
		b.min = []byte{}
	}
	return b
}

// usableBounds picks the bounds of leaf col that hold in order o: the
// min_value/max_value of a column with a defined order, else the
// deprecated min/max when they are in signed order and that is o.
func (r *FileReader) usableBounds(col int, o orderKind, minV, maxV, minD, maxD []byte) (lo, hi []byte, ok bool) {
	leaf := r.f.Schema.Leaves[col]
	n := boundLen(o, leaf.Type, leaf.TypeLength)
	valid := func(a, b []byte) bool {
		return a != nil && b != nil && (n < 0 || len(a) == n && len(b) == n)
	}
	switch r.f.ColumnOrder(col) {
	case meta.TypeDefinedOrder, meta.IEEE754TotalOrder:
		if valid(minV, maxV) {
			return minV, maxV, true
		}
	}
	switch o {
	case orderBool, orderInt32, orderInt64, orderFloat, orderDouble:
		if valid(minD, maxD) {
			return minD, maxD, true
		}
	}
	return nil, nil, false
}

// leafChunk evaluates leaf p on the statistics and bloom filter of its
// chunk in row group rg.
func (r *FileReader) leafChunk(p *predLeaf, bl *boundLeaf, rg int) (tri, error) {
	if bl.col < 0 {
		return leafBounds(p, bl.order, bounds{allNull: true}), nil
	}
	if !bl.prune {
		return triMaybe, nil
	}
	b := r.chunkBounds(rg, bl.col, bl.order)
	if err := r.nullsContradicted(&b, bl.col, rg, -1); err != nil {
		return 0, err
	}
	t := leafBounds(p, bl.order, b)
	if b.hasMinMax && t != triMaybe && writtenByPolars(r.f) {
		// Polars' bounds that decide are checked against the column
		// index (not those of other writers: the window queries of
		// examples/generated's BenchmarkFilterEvents took 11-25% longer,
		// reading the indexes of the row groups they drop).
		why, err := r.chunkBoundsNarrow(rg, bl.col, bl.order, b)
		if err != nil {
			return 0, err
		}
		if why != "" {
			err := r.f.deviate(Deviation{Kind: DeviationChunkBoundsNarrow, Writer: "Polars", Column: r.f.Schema.Leaves[bl.col].PathString(), RowGroup: rg, Page: -1,
				What: fmt.Sprintf("the chunk statistics' min and max leave out values of the column index's pages: %s (the chunk's bounds are not used)", why)})
			if err != nil {
				return 0, err
			}
			b.min, b.max, b.hasMinMax = nil, nil, false
			t = leafBounds(p, bl.order, b)
		}
	}
	if p.op == opIntersects && t != triNone {
		if md := r.f.Meta.RowGroups[rg].Columns[bl.col].MetaData; md != nil && geoChunkMisses(p.box, md.GeospatialStatistics) {
			return triNone, nil
		}
		return t, nil
	}
	if t == triNone || p.op != opEq && p.op != opIn {
		return t, nil
	}
	var bf *bloom.Filter
	if md := r.f.Meta.RowGroups[rg].Columns[bl.col].MetaData; md != nil && md.BloomFilterOffset.Set && !bloomGarbled(r.f, md) {
		var err error
		if bf, err = r.BloomFilter(rg, bl.col); err != nil {
			if !errors.Is(err, bloom.ErrUnsupported) {
				return 0, err
			}
			// A filter of another algorithm, hash or compression
			// cannot rule values out: the chunk is read. One that
			// names none deviates (parquetjs).
			if errors.Is(err, bloom.ErrUnset) {
				derr := r.f.deviate(Deviation{Kind: DeviationBloomUnset, Writer: "parquetjs", Column: r.f.Schema.Leaves[bl.col].PathString(), RowGroup: rg, Page: -1,
					What: "a bloom filter header whose algorithm, hash and compression unions have no member set (the filter is not used)"})
				if derr != nil {
					return 0, derr
				}
			}
			bf = nil
		}
	}
	if leafBloom(p, bl.order, r.f.Schema.Leaves[bl.col].Type, bf) {
		return triNone, nil
	}
	return t, nil
}

// leafPages evaluates leaf p on the pages of its column in row group rg
// (of total rows), given its result t on the chunk.
func (r *FileReader) leafPages(p *predLeaf, bl *boundLeaf, rg int, total int64, t tri) (maybe, all []rowRange, err error) {
	full := []rowRange{{0, total}}
	switch {
	case t == triNone:
		return []rowRange{}, []rowRange{}, nil
	case t == triAll:
		return full, full, nil
	case bl.col < 0 || !bl.prune:
		return full, []rowRange{}, nil
	}
	ok, emptyMin := r.f.boundsUsable(rg, bl.col)
	if !ok {
		// The writer's column index is as wrong as its chunk bounds
		// (chunkBounds); its null pages may hold values.
		return full, []rowRange{}, nil
	}
	ci, err := r.ColumnIndex(rg, bl.col)
	if err != nil {
		return nil, nil, err
	}
	oi, err := r.pageOffsets(rg, bl.col)
	if err != nil {
		return nil, nil, err
	}
	if ci == nil || oi == nil {
		return full, []rowRange{}, nil
	}
	locs := oi.PageLocations
	path := r.f.Schema.Leaves[bl.col].PathString()
	if len(ci.NullPages) != len(locs) || len(locs) == 0 || locs[0].FirstRowIndex != 0 {
		return nil, nil, fmt.Errorf("%w: column %q, row group %d: the column index and offset index disagree on the pages", ErrChunk, path, rg)
	}
	maybe, all = []rowRange{}, []rowRange{}
	for i := range locs {
		start, end := locs[i].FirstRowIndex, total
		if i+1 < len(locs) {
			end = locs[i+1].FirstRowIndex
		}
		if start >= end || end > total {
			return nil, nil, fmt.Errorf("%w: column %q, row group %d: offset index page %d covers rows [%d, %d) of %d", ErrChunk, path, rg, i, start, end, total)
		}
		b := bounds{values: end - start, allNull: ci.NullPages[i]}
		if p.elem {
			b.values = 0 // rows, not the page's values: unknown
		}
		if ci.NullCounts != nil && ci.NullCounts[i] >= 0 {
			b.nulls, b.hasNulls = ci.NullCounts[i], true
		}
		unbounded := false
		if b.allNull {
			why, holds := r.nullPageHolds(ci, i, b, end-start, bl.col)
			if why != "" {
				err := r.f.deviate(Deviation{Kind: DeviationNullPageValues, Writer: "Polars, arrow-rs", Column: path, RowGroup: rg, Page: i,
					What: fmt.Sprintf("the column index says page %d holds only nulls, but %s (its values are taken as unbounded)", i, why)})
				if err != nil {
					return nil, nil, err
				}
			}
			// The min and max of a null page are placeholders (empty
			// byte strings), which would pass for the bounds of a
			// BYTE_ARRAY column.
			b.allNull, unbounded = !holds, holds
		}
		if !b.allNull && !unbounded {
			b.min, b.max, b.hasMinMax = r.usableBounds(bl.col, bl.order, ci.MinValues[i], ci.MaxValues[i], nil, nil)
			if emptyMin && b.hasMinMax {
				b.min = []byte{}
			}
			if err := r.nullsContradicted(&b, bl.col, rg, i); err != nil {
				return nil, nil, err
			}
		}
		t := leafBounds(p, bl.order, b)
		if p.elem && t == triAll {
			t = triMaybe // an empty or null list has no element
		}
		switch t {
		case triAll:
			all = appendRange(all, start, end)
			maybe = appendRange(maybe, start, end)
		case triMaybe:
			maybe = appendRange(maybe, start, end)
		}
	}
	return maybe, all, nil
}

// nullsContradicted drops the null count of b, the bounds of leaf col's
// chunk in row group rg (page -1) or of one of its pages, when it counts
// at least as many nulls as values and so would take the chunk or page
// as all null, while it holds values: it counts more nulls than values,
// or b has a min and max or a distinct count, which only values give.
// DuckDB overcounts so the nulls of the fields of structs in lists: it
// counts the slots of a null struct twice. Pruning on such a count would
// drop rows that hold values. It records the deviation, or under
// WithStrict returns it. A count of as many nulls as values, and nothing
// else, of a leaf under a struct in a list is not used either, without a
// record: from DuckDB it may hide values (its bounds are left out when
// the values hold NaN), and it cannot be told from a chunk of nulls.
func (r *FileReader) nullsContradicted(b *bounds, col, rg, page int) error {
	if !b.hasNulls || b.values <= 0 || b.nulls < b.values {
		return nil
	}
	leaf := r.f.Schema.Leaves[col]
	var why string
	switch {
	case b.nulls > b.values:
		why = fmt.Sprintf("count %d nulls in %d values", b.nulls, b.values)
	case b.hasMinMax:
		why = fmt.Sprintf("count %d nulls in %d values, yet give a min and max", b.nulls, b.values)
	case b.distinct > 0:
		why = fmt.Sprintf("count %d nulls in %d values, yet %d distinct values", b.nulls, b.values, b.distinct)
	default:
		if structInList(leaf) {
			b.nulls, b.hasNulls = 0, false
		}
		return nil
	}
	where := "chunk statistics"
	if page >= 0 {
		where = fmt.Sprintf("column index entry of page %d", page)
	}
	err := r.f.deviate(Deviation{Kind: DeviationNullCountAll, Writer: "DuckDB 1.5, Polars", Column: leaf.PathString(), RowGroup: rg, Page: page,
		What: fmt.Sprintf("the %s %s (the null count is not used)", where, why)})
	b.nulls, b.hasNulls = 0, false
	return err
}

// structInList reports whether leaf n lies in a group (a struct) within
// its innermost repeated ancestor.
func structInList(n *schema.Node) bool {
	if n.Repetition == meta.Repeated {
		return false
	}
	for g := n.Parent; g != nil && g.Parent != nil; g = g.Parent {
		if g.Repetition == meta.Repeated {
			return false
		}
		if g.MaxRep > 0 {
			return true
		}
	}
	return false
}

// chunkBoundsNarrow tells how the min and max of b, the bounds of leaf
// col's chunk in row group rg, leave out values of the chunk's pages as
// its column index gives them, or returns "" (also without a column
// index, and for orders whose bounds may be truncated, whose bounds
// cannot be compared). Polars merges the pages' statistics into the
// chunk's without the pages whose floats hold NaN (null pages to its
// index), and gives decimals bounds that leave out other pages' values.
func (r *FileReader) chunkBoundsNarrow(rg, col int, o orderKind, b bounds) (string, error) {
	leaf := r.f.Schema.Leaves[col]
	if boundLen(o, leaf.Type, leaf.TypeLength) < 0 {
		return "", nil
	}
	ci, err := r.ColumnIndex(rg, col)
	if err != nil || ci == nil {
		return "", err
	}
	oi, err := r.pageOffsets(rg, col)
	if err != nil || oi == nil || len(oi.PageLocations) != len(ci.NullPages) {
		return "", err
	}
	total := r.f.Meta.RowGroups[rg].NumRows
	for i, null := range ci.NullPages {
		if null {
			end := total
			if i+1 < len(oi.PageLocations) {
				end = oi.PageLocations[i+1].FirstRowIndex
			}
			pb := bounds{allNull: true}
			if ci.NullCounts != nil && ci.NullCounts[i] >= 0 {
				pb.nulls, pb.hasNulls = ci.NullCounts[i], true
			}
			if _, holds := r.nullPageHolds(ci, i, pb, end-oi.PageLocations[i].FirstRowIndex, col); holds {
				return fmt.Sprintf("page %d holds values it gives no bounds for", i), nil
			}
			continue
		}
		lo, hi, ok := r.usableBounds(col, o, ci.MinValues[i], ci.MaxValues[i], nil, nil)
		if !ok {
			continue
		}
		if c, ok := compareKey(o, lo, b.min); ok && c < 0 {
			return fmt.Sprintf("page %d's min is below the chunk's", i), nil
		}
		if c, ok := compareKey(o, hi, b.max); ok && c > 0 {
			return fmt.Sprintf("page %d's max is above the chunk's", i), nil
		}
	}
	return "", nil
}

// nullPageHolds tells whether page i of leaf col, which column index ci
// says holds only nulls (b its bounds, rows its rows), holds values after
// all: why, by nullPageValues (a deviation to record), or holds without
// why for a null page of floats in a list of Polars' files, which marks
// so the pages of floats holding NaN, and which no count shows in a list
// (such pages are not used, without a record: they cannot be told from
// pages of nulls).
func (r *FileReader) nullPageHolds(ci *meta.ColumnIndex, i int, b bounds, rows int64, col int) (why string, holds bool) {
	leaf := r.f.Schema.Leaves[col]
	if why = nullPageValues(ci, i, b, rows, leaf.MaxDef); why != "" {
		return why, true
	}
	return "", polarsFloatList(r.f, leaf)
}

// polarsFloatList reports whether leaf n of f is a FLOAT or DOUBLE
// column in a list or map of a file Polars wrote.
func polarsFloatList(f *File, n *schema.Node) bool {
	return n.MaxRep > 0 && (n.Type == meta.Float || n.Type == meta.Double) && writtenByPolars(f)
}

// nullPageValues tells why page i, which ci says holds only nulls (b
// its bounds, rows its rows), holds values after all, or returns "": its
// definition level histogram counts slots of the leaf's maximum level
// maxDef (arrow-rs marks so the pages of repeated columns), or its null
// count is below its rows, where a page of nulls holds at least one per
// row (Polars marks so the pages of floats holding NaN).
func nullPageValues(ci *meta.ColumnIndex, i int, b bounds, rows int64, maxDef uint8) string {
	if h := ci.DefinitionLevelHistograms; maxDef > 0 && len(h) == len(ci.NullPages)*(int(maxDef)+1) {
		if n := h[i*(int(maxDef)+1)+int(maxDef)]; n > 0 {
			return fmt.Sprintf("its definition level histogram counts %d values", n)
		}
	}
	if b.hasNulls && b.nulls < rows {
		return fmt.Sprintf("it counts %d nulls in its %d rows", b.nulls, rows)
	}
	return ""
}

// filterBatch is how many rows refine decodes at a time.
const filterBatch = 4096

// refine replaces the ranges of row group rg by exactly the rows on which
// the filter is true, decoding the predicate's columns over the rows that
// pruning kept.
func (r *FileReader) refine(rg int) error {
	fs := r.filter
	if fs.exact[rg] {
		return nil
	}
	coarse, had := r.ranges[rg]
	if !had {
		coarse = []rowRange{{0, r.f.Meta.RowGroups[rg].NumRows}}
	}
	sub := &FileReader{f: r.f, cfg: r.cfg, rowGroups: []int{rg}, ranges: map[int][]rowRange{}, adapt: r.adapt}
	// The next row group's readers, or the next file's, reuse the buffers.
	defer sub.Release()
	if had {
		sub.ranges[rg] = coarse
	}
	readers := make(map[int]*colReader, len(fs.cols))
	for _, col := range fs.cols {
		cr, err := sub.newColReader(col, r.boundType(col))
		if err != nil {
			return err
		}
		readers[col] = cr
	}
	exact := []rowRange{}
	ri, at := 0, int64(0) // the coarse range and chunk row of the next batch row
	if len(coarse) > 0 {
		at = coarse[0].start
	}
	var sl boolSlabs
	for left := rangeRows(coarse); left > 0; {
		n := int(min(left, filterBatch))
		sl.reset()
		for _, col := range fs.cols {
			if err := readers[col].read(n); err != nil {
				return err
			}
		}
		var sameErr error
		sel := evalRows(fs.pred, n, &sl, func(p *predLeaf) []bool {
			out := sl.take(n)
			bl := fs.leaves[p]
			if bl.col < 0 {
				if p.op == opIsNull {
					for i := range out {
						out[i] = true
					}
				}
				return out
			}
			bl.match(&readers[bl.col].batch, out)
			return out
		}, func(p *predSame) []bool {
			out, err := fs.sameRows(p, n, &sl, readers)
			if err != nil && sameErr == nil {
				sameErr = err
			}
			return out
		})
		if sameErr != nil {
			return sameErr
		}
		for _, keep := range sel {
			if keep {
				exact = appendRange(exact, at, at+1)
			}
			at++
			if at == coarse[ri].end && ri+1 < len(coarse) {
				ri++
				at = coarse[ri].start
			}
		}
		left -= int64(n)
	}
	fs.exact[rg] = true
	r.numRows -= rangeRows(coarse) - rangeRows(exact)
	r.ranges[rg] = exact
	return nil
}

// sameRows evaluates SameElement p on a batch of n rows: its predicate on
// each slot of the elements' columns, then a row is kept where one of its
// slots holds an element satisfying it. The columns of the elements of one
// list have one slot per element and one per empty or null list, so their
// slots align; a file whose columns disagree is corrupt.
func (fs *filterState) sameRows(p *predSame, n int, sl *boolSlabs, readers map[int]*colReader) ([]bool, error) {
	out := sl.take(n)
	bs := fs.same[p]
	if bs.ref < 0 {
		return out, nil // no element column in the file: no element
	}
	lv := readers[bs.ref].batch.lv
	slots := len(lv.Rep)
	for _, q := range bs.leaves {
		if bl := fs.leaves[q]; bl.col >= 0 {
			if got := len(readers[bl.col].batch.lv.Rep); got != slots {
				return nil, fmt.Errorf("%w: columns %s and %s: %d and %d element slots in a batch of %d rows", ErrChunk,
					readers[bs.ref].path, readers[bl.col].path, slots, got, n)
			}
		}
	}
	in := evalRows(p.p, slots, sl, func(q *predLeaf) []bool {
		s := sl.take(slots)
		if bl := fs.leaves[q]; bl.col >= 0 {
			b := readers[bl.col].batch
			b.n = slots
			bl.slots(&b, s)
		}
		return s
	}, func(*predSame) []bool { return sl.take(slots) }) // bindSame refuses nested ones
	for i, d := range lv.Def {
		in[i] = in[i] && d >= bs.elemDef // a slot of an element, not of an empty or null list
	}
	slotRows(lv.Rep, in, out)
	return out, nil
}

// boundType returns the physical type file leaf col is read as.
func (r *FileReader) boundType(col int) meta.Type {
	if a := r.adapt[col]; a != nil && a.conv {
		return a.wantType
	}
	return r.f.Schema.Leaves[col].Type
}

// colReader reads batches of one column for refine.
type colReader struct {
	rows  ColumnRows
	path  string
	batch colBatch
	fill  func()
	rep   bool // the elements of a list: n rows of any number of slots
}

// checkRows checks that the levels of a repeated column's batch hold n
// rows (n repetition levels 0) and one definition level per slot.
func (cr *colReader) checkRows(n int) error {
	lv := cr.batch.lv
	if len(lv.Def) != len(lv.Rep) || len(lv.Rep) > 0 && lv.Rep[0] != 0 {
		return fmt.Errorf("%w: column %s: %d definition and %d repetition levels for %d rows", ErrChunk, cr.path, len(lv.Def), len(lv.Rep), n)
	}
	rows := 0
	for _, r := range lv.Rep {
		if r == 0 {
			rows++
		}
	}
	if rows != n {
		return fmt.Errorf("%w: column %s: %d rows in a batch of %d", ErrChunk, cr.path, rows, n)
	}
	return nil
}

func (r *FileReader) newColReader(col int, t meta.Type) (*colReader, error) {
	leaf := r.f.Schema.Leaves[col]
	cr := &colReader{path: leaf.PathString()}
	cr.batch.maxDef = leaf.MaxDef
	cr.rep = leaf.MaxRep > 0
	if a := r.adapt[col]; a != nil && a.defMap != nil {
		cr.batch.maxDef = a.wantMaxDef
	}
	var err error
	switch t {
	case meta.Boolean:
		var c *BoolReader
		if c, err = r.BoolReader(col); err == nil {
			cr.rows, cr.batch.lv = c, &c.Levels
			cr.fill = func() { cr.batch.bools = nonNil(c.Values) }
		}
	case meta.Int32:
		var c *Int32Reader
		if c, err = r.Int32Reader(col); err == nil {
			cr.rows, cr.batch.lv = c, &c.Levels
			cr.fill = func() { cr.batch.i32 = nonNil(c.Values) }
		}
	case meta.Int64:
		var c *Int64Reader
		if c, err = r.Int64Reader(col); err == nil {
			cr.rows, cr.batch.lv = c, &c.Levels
			cr.fill = func() { cr.batch.i64 = nonNil(c.Values) }
		}
	case meta.Int96:
		var c *Int96Reader
		if c, err = r.Int96Reader(col); err == nil {
			cr.rows, cr.batch.lv = c, &c.Levels
			cr.fill = func() { cr.batch.i96 = nonNil(c.Values) }
		}
	case meta.Float:
		var c *FloatReader
		if c, err = r.FloatReader(col); err == nil {
			cr.rows, cr.batch.lv = c, &c.Levels
			cr.fill = func() { cr.batch.f32 = nonNil(c.Values) }
		}
	case meta.Double:
		var c *DoubleReader
		if c, err = r.DoubleReader(col); err == nil {
			cr.rows, cr.batch.lv = c, &c.Levels
			cr.fill = func() { cr.batch.f64 = nonNil(c.Values) }
		}
	case meta.ByteArray:
		var c *ByteArrayReader
		if c, err = r.ByteArrayReader(col); err == nil {
			cr.rows, cr.batch.lv = c, &c.Levels
			cr.fill = func() { cr.batch.ba = &c.Values }
		}
	default:
		var c *FixedReader
		if c, err = r.FixedReader(col); err == nil {
			cr.rows, cr.batch.lv = c, &c.Levels
			cr.batch.fixSize = c.Size
			cr.fill = func() { cr.batch.fixed = nonNil(c.Values) }
		}
	}
	return cr, err
}

// nonNil returns s, or an empty non-nil slice: a colBatch tells its
// values' type by which slice is set.
func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// read decodes the next n rows into the batch.
func (cr *colReader) read(n int) error {
	if err := ReadRowsExact(cr.rows, n, cr.path); err != nil {
		return err
	}
	cr.fill()
	cr.batch.n = n
	if cr.rep {
		return cr.checkRows(n)
	}
	if cr.batch.maxDef > 0 && len(cr.batch.lv.Def) != n {
		return fmt.Errorf("%w: column %s: %d definition levels for %d rows", ErrChunk, cr.path, len(cr.batch.lv.Def), n)
	}
	return nil
}

// Available returns how many of the next n rows, after the first read
// rows of the selection, the readers of r can return: n, fewer at the end,
// 0 after the last. With a filter (WithFilter), it first selects exactly
// the matching rows of the row groups those rows lie in.
//
// For generated code (see "For generated code" in the package doc).
func (r *FileReader) Available(read int64, n int) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	fs := r.filter
	if fs != nil {
		if err := r.prepareFilter(); err != nil {
			return 0, err
		}
		for fs.planRows < read+int64(n) && fs.planIdx < len(r.rowGroups) {
			rg := r.rowGroups[fs.planIdx]
			if err := r.refine(rg); err != nil {
				return 0, err
			}
			if rr, ok := r.ranges[rg]; ok {
				fs.planRows += rangeRows(rr)
			} else {
				fs.planRows += r.f.Meta.RowGroups[rg].NumRows
			}
			fs.planIdx++
		}
		return int(max(0, min(int64(n), fs.planRows-read))), nil
	}
	return int(max(0, min(int64(n), r.numRows-read))), nil
}

// Split is a share of a file's row groups for one reader (WithRowGroups).
type Split struct {
	// RowGroups are the row group indices, in file order.
	RowGroups []int
	// Rows and Bytes are their rows and compressed bytes.
	Rows, Bytes int64
}

// Splits divides the row groups of f into at most n splits of
// consecutive row groups with about the same compressed bytes each, for
// n goroutines or workers that each read one with WithRowGroups. Empty
// splits are left out.
func Splits(f *File, n int) []Split {
	rgs := f.Meta.RowGroups
	if n < 1 {
		n = 1
	}
	size := make([]int64, len(rgs))
	total := int64(0)
	for i := range rgs {
		s, ok := rgs[i].TotalCompressedSize.Get()
		if !ok || s <= 0 {
			s = 0
			for _, c := range rgs[i].Columns {
				if c.MetaData != nil {
					s += max(0, c.MetaData.TotalCompressedSize)
				}
			}
		}
		size[i] = s
		total += s
	}
	var out []Split
	cum := int64(0)
	for i := range rgs {
		// The row group goes to the split its middle byte falls in.
		k := 0
		if total > 0 {
			mid := float64(cum) + float64(size[i])/2
			k = min(n-1, int(mid*float64(n)/float64(total)))
		} else {
			k = i * n / len(rgs)
		}
		cum += size[i]
		if len(out) == 0 || k > len(out)-1 && len(out) < n {
			out = append(out, Split{})
		}
		s := &out[len(out)-1]
		s.RowGroups = append(s.RowGroups, i)
		s.Rows += rgs[i].NumRows
		s.Bytes += size[i]
	}
	return slices.Clip(out)
}
