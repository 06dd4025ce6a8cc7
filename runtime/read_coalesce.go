// Read coalescing for object storage (WithReadCoalescing): before a
// FileReader reads the page indexes of a filter or the pages of a row
// group, it works out every byte range it is about to read (from the
// footer and the offset indexes) and fetches them with few ReadAt calls,
// merging ranges less than a gap apart; the small reads that follow are
// served from memory.

package runtime

import (
	"cmp"
	"io"
	"slices"
	"sync"
)

// WithReadCoalescing makes a reader fetch the byte ranges it is about to
// need in few large ReadAt calls instead of many small ones, for storage
// where each request costs (HTTP range requests to object stores): the
// page indexes and bloom filters a filter (WithFilter) consults, then for
// each row group the pages of its selected rows in every column read.
// Ranges less than gap bytes apart are fetched as one, the bytes between
// them included; at most maxBuffer bytes are held at a time (the ranges of
// a row group beyond it are read as they come). Without the option each
// page is its own read. A MemoryFile is read in place, option or not.
func WithReadCoalescing(gap, maxBuffer int64) ReaderOption {
	return func(c *readerConfig) {
		if gap < 0 || maxBuffer <= 0 {
			c.fail("WithReadCoalescing(%d, %d): the gap must not be negative and the buffer positive", gap, maxBuffer)
			return
		}
		c.CoalesceGap, c.CoalesceBuffer = gap, maxBuffer
	}
}

// byteRange is the half-open range [off, end) of file bytes.
type byteRange struct{ off, end int64 }

// span is fetched file bytes.
type span struct {
	off int64
	b   []byte
}

// coalescer is an io.ReaderAt serving reads from prefetched spans when
// they hold them, and from the underlying reader otherwise. It is safe
// for concurrent use when the underlying reader is.
type coalescer struct {
	r        io.ReaderAt
	size     int64
	gap, max int64
	mu       sync.Mutex
	spans    []span // oldest first
	held     int64
}

// ReadAt implements io.ReaderAt.
func (c *coalescer) ReadAt(p []byte, off int64) (int, error) {
	c.mu.Lock()
	for i := len(c.spans) - 1; i >= 0; i-- {
		s := c.spans[i]
		if off >= s.off && off+int64(len(p)) <= s.off+int64(len(s.b)) {
			n := copy(p, s.b[off-s.off:])
			c.mu.Unlock()
			return n, nil
		}
	}
	c.mu.Unlock()
	return c.r.ReadAt(p, off)
}

// prefetch fetches ranges (within the file), merged across gaps, and
// keeps them, dropping the oldest spans beyond the buffer limit. Ranges
// already held are not fetched again. A failed fetch is not an error: the
// reads it was for go to the underlying reader and report it there.
func (c *coalescer) prefetch(ranges []byteRange) {
	slices.SortFunc(ranges, func(a, b byteRange) int { return cmp.Compare(a.off, b.off) })
	var merged []byteRange
	for _, r := range ranges {
		r.off, r.end = max(r.off, 0), min(r.end, c.size)
		if r.off >= r.end || c.holds(r) {
			continue
		}
		if n := len(merged); n > 0 && r.off-merged[n-1].end <= c.gap {
			merged[n-1].end = max(merged[n-1].end, r.end)
			continue
		}
		merged = append(merged, r)
	}
	budget := c.max
	for _, r := range merged {
		n := r.end - r.off
		if n > budget {
			continue
		}
		budget -= n
		b := make([]byte, n)
		if m, err := c.r.ReadAt(b, r.off); m < len(b) {
			_ = err // reported by the read that needs these bytes
			continue
		}
		c.mu.Lock()
		c.spans = append(c.spans, span{r.off, b})
		c.held += n
		for c.held > c.max && len(c.spans) > 1 {
			c.held -= int64(len(c.spans[0].b))
			c.spans = c.spans[1:]
		}
		c.mu.Unlock()
	}
}

// holds reports whether one span holds all of r.
func (c *coalescer) holds(r byteRange) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, s := range c.spans {
		if r.off >= s.off && r.end <= s.off+int64(len(s.b)) {
			return true
		}
	}
	return false
}

// indexRanges returns the byte ranges of the column and offset indexes of
// leaves cols in row groups rgs.
func (r *FileReader) indexRanges(rgs, cols []int, columnIndex bool) []byteRange {
	var out []byteRange
	for _, rg := range rgs {
		for _, col := range cols {
			cc := &r.f.Meta.RowGroups[rg].Columns[col]
			if off, ok := cc.OffsetIndexOffset.Get(); ok {
				out = append(out, byteRange{off, off + int64(cc.OffsetIndexLength.Or(0))})
			}
			if off, ok := cc.ColumnIndexOffset.Get(); ok && columnIndex {
				out = append(out, byteRange{off, off + int64(cc.ColumnIndexLength.Or(0))})
			}
		}
	}
	return out
}

// prefetchFilterIndexes fetches the page indexes and bloom filters of the
// filter's columns in the selected row groups.
func (r *FileReader) prefetchFilterIndexes() {
	c, ok := r.f.r.(*coalescer)
	if !ok {
		return
	}
	rr := r.indexRanges(r.rowGroups, r.filter.cols, true)
	for _, rg := range r.rowGroups {
		for _, col := range r.filter.cols {
			if md := r.f.Meta.RowGroups[rg].Columns[col].MetaData; md != nil {
				if off, ok := md.BloomFilterOffset.Get(); ok && md.BloomFilterLength.Or(0) > 0 {
					rr = append(rr, byteRange{off, off + int64(md.BloomFilterLength.Val)})
				}
			}
		}
	}
	c.prefetch(rr)
}

// prefetchPages fetches the pages of leaves cols in row group rg that hold
// rows of sel (nil: every row): their dictionary pages, and the data pages
// the offset index places in sel, or the whole chunk without an offset
// index.
func (r *FileReader) prefetchPages(rg int, cols []int, sel []rowRange) {
	c, ok := r.f.r.(*coalescer)
	if !ok {
		return
	}
	c.prefetch(r.indexRanges([]int{rg}, cols, false))
	total := r.f.Meta.RowGroups[rg].NumRows
	var rr []byteRange
	for _, col := range cols {
		start, length, _, err := chunkRange(r.f, rg, col)
		if err != nil {
			continue
		}
		end := start + length
		sparse := false
		if sel != nil {
			if o, err := r.OffsetIndex(rg, col); err == nil && o != nil && len(o.PageLocations) > 0 {
				sparse = true
				locs := o.PageLocations
				if locs[0].Offset > start {
					// The dictionary page, and the probes past it and into
					// the first data page's header, which the reader reads
					// on its way (page.ChunkReader.SkipPage).
					rr = append(rr, byteRange{start, min(end, locs[0].Offset+2*sparseProbe)})
				}
				for i, pl := range locs {
					last, pageEnd := total, end
					if i+1 < len(locs) {
						last = locs[i+1].FirstRowIndex
						if next := locs[i+1].Offset; next > pl.Offset {
							pageEnd = next
						}
					}
					if len(intersectRanges(sel, []rowRange{{pl.FirstRowIndex, last}})) == 0 {
						continue
					}
					// The page runs to the next one: some writers'
					// compressed_page_size leaves out the page header
					// (xitongsys/parquet-go). The reader probes a little past
					// a page for the next header.
					pageEnd = max(pageEnd, pl.Offset+int64(pl.CompressedPageSize))
					rr = append(rr, byteRange{pl.Offset, min(end, pageEnd+2*sparseProbe)})
				}
			}
		}
		if !sparse {
			rr = append(rr, byteRange{start, end})
		}
	}
	c.prefetch(rr)
}

// sparseProbe mirrors the page reader's probe past a page read sparsely.
const sparseProbe = 256
