// Column cursors: the walk of one leaf column through the column chunks of
// the selected row groups, page by page, cutting levels and values at row
// boundaries (a row starts at each repetition level 0; see
// https://parquet.apache.org/docs/file-format/nestedencoding/).

package runtime

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/pqgen/pqgen/runtime/encode"
	"github.com/pqgen/pqgen/runtime/meta"
	"github.com/pqgen/pqgen/runtime/page"
	"github.com/pqgen/pqgen/runtime/schema"
)

// sink receives the values of a page range; each typed reader is one.
type sink interface {
	resetValues()
	appendValues(p *page.Page, from, to int) error
}

// cursor walks one leaf column across pages, chunks and row groups.
type cursor struct {
	fr   *FileReader
	leaf *schema.Node
	col  int
	rg   int               // index into fr.rowGroups of the current chunk; -1 before the first
	bufs *colBufs          // from FileReader.takeBufs; nil once released
	cr   *page.ChunkReader // &bufs.cr
	lv   *Levels           // the levels and sink reading through c (adopt), nil before
	sink sink

	pg        *page.Page // current page, nil when none is loaded
	slot, val int        // next slot and next value in pg

	chunkSlots, chunkRows int64 // counted over the pages loaded so far
	wantSlots, wantRows   int64 // as the metadata states for the chunk
	inChunk               bool
	err                   error

	// Row selection (WithColumnPageFilter): the kept rows of the chunk (nil:
	// all), the first range not yet passed, the chunk row index of the
	// next row start, whether the row in progress is skipped, and the
	// column's offset index (nil: pages are decoded and rows dropped).
	ranges   []rowRange
	rangeIdx int
	nextRow  int64
	skipping bool
	oi       *meta.OffsetIndex
	pageOrd  int  // data pages of the chunk loaded or skipped so far
	jumped   bool // the last page was passed over by the offset index (SkipTo)
	dictFree bool // the chunk's metadata names no dictionary page nor encoding
	// slots holds, for a repeated column, the level slots of each data
	// page of the chunk, from the column index's repetition level
	// histograms (pageSlots), loaded when a page is first passed over;
	// nil when the file has none that agree with the offset index.
	slots     []int64
	slotsRead bool

	adapt *adapter // the column's layout adapter (Bind), or nil
	taken int64    // rows started by the slots taken so far (with an adapter's levels)
	// nullSlot is the slot of the null the adapter refused in the last
	// take that failed, -1 when it failed otherwise; defsAt the length of
	// the levels before that take.
	nullSlot, defsAt int

	// Page prefetching (read_prefetch.go): whether a read-ahead goroutine
	// may decode the chunk reader's next page while the column is idle,
	// the column's request for it (the index of that page in the chunk
	// plus 1, 0 for none), and the lock of the chunk reader, which both
	// the column's reads and the prefetch take.
	prefetchOK bool
	wantPage   atomic.Int32
	crMu       spinLock

	// List padding (DeviationListPadding): the definition level of the
	// last slot of the page before in the chunk (-1 at a chunk's start
	// and after a page passed over), and repDef[r-1], the definition
	// level of the leaf's repeated node at repetition level r (made when
	// first needed).
	lastDef int
	repDef  []uint8
}

// converts reports whether the column's layout adapter converts its
// pages' values (Bind to another compatible type).
func (c *cursor) converts() bool { return c.adapt != nil && c.adapt.conv }

func (c *cursor) init(fr *FileReader, col int) {
	c.fr = fr
	c.col = col
	c.leaf = fr.f.Schema.Leaves[col]
	c.rg = -1
	c.adapt = fr.adapt[col]
	// Column readers may be made concurrently.
	fr.mu.Lock()
	defer fr.mu.Unlock()
	c.bufs = fr.takeBufs()
	c.cr = &c.bufs.cr
	if !slices.Contains(fr.active, col) {
		fr.active = append(fr.active, col)
	}
	fr.cursors = append(fr.cursors, c)
}

// colBufs are the buffers of one column reader: its page reader's (the
// read window, the decompressed page, its levels and values, the
// dictionary) and its own levels and values, which FileReader.Release
// returns to a pool: a reader opened after another was released
// reads into that one's buffers instead of allocating and clearing its
// own (bufSets). Nothing a column reader hands out for good points into
// them: strings are substrings of its own copies, which it never returns,
// or of page value bytes the page has left to them (Page.KeepBytes).
type colBufs struct {
	cr       page.ChunkReader
	def, rep []uint8
	bools    []bool
	i32      []int32
	i64      []int64
	i96      []encode.Int96
	f32      []float32
	f64      []float64
	fixed    []byte
	bytes    encode.ByteArrays
	refs     []int32
}

// bufSets pools the colBufs of released FileReaders, one *[]*colBufs per
// reader in the order its column readers were made: a reader made later
// gives its column readers those of the same position, so that reading
// files of one schema one after the other reuses each column's buffers
// for the same column.
var bufSets sync.Pool

// takeBufs returns the buffers for fr's next column reader: the next of
// a released reader's set, taken from bufSets on the first call, or new
// ones.
func (fr *FileReader) takeBufs() *colBufs {
	if !fr.tookSpare {
		fr.tookSpare = true
		if set, ok := bufSets.Get().(*[]*colBufs); ok {
			fr.spare = *set
		}
	}
	if len(fr.spare) == 0 {
		return new(colBufs)
	}
	b := fr.spare[0]
	fr.spare[0] = nil
	fr.spare = fr.spare[1:]
	return b
}

// bufUser is a sink that keeps its values in colBufs: it takes them when
// its cursor first reads and gives them back when the cursor is released.
type bufUser interface {
	takeBufs(b *colBufs)
	giveBufs(b *colBufs)
}

// adopt makes lv and the sink s, which read through c from now on, use
// c's buffers.
func (c *cursor) adopt(lv *Levels, s sink) {
	c.lv, c.sink = lv, s
	// Levels a column lacks stay nil, as the checks tell them apart so.
	if c.leaf.MaxDef > 0 {
		lv.Def = c.bufs.def[:0]
	}
	if c.leaf.MaxRep > 0 {
		lv.Rep = c.bufs.rep[:0]
	}
	if u, ok := s.(bufUser); ok {
		u.takeBufs(c.bufs)
	}
}

// release takes c's buffers back from its reader's levels and values,
// which are empty from then on, and returns them (nil if c was released
// before); c fails with ErrClosed.
func (c *cursor) release() *colBufs {
	b := c.bufs
	if b == nil {
		return nil
	}
	if c.lv != nil {
		b.def, b.rep = c.lv.Def[:0], c.lv.Rep[:0]
		c.lv.Def, c.lv.Rep = nil, nil
		if u, ok := c.sink.(bufUser); ok {
			u.giveBufs(b)
		}
	}
	c.crMu.lock()
	b.cr.Detach()
	c.bufs, c.cr, c.pg, c.lv, c.sink = nil, nil, nil, nil, nil
	c.crMu.unlock()
	if c.err == nil {
		c.err = releasedError{c.leaf}
	}
	return b
}

// releasedError is the error of a column reader after Release: it wraps
// ErrClosed and names the column. Being one pointer, it is stored in an
// error without an allocation, and its text is built only when asked for.
type releasedError struct{ leaf *schema.Node }

func (e releasedError) Error() string {
	return fmt.Sprintf("%v: the reader of column %q was released", ErrClosed, e.leaf.PathString())
}

func (e releasedError) Unwrap() error { return ErrClosed }

// chunkRange returns the byte range of column col in row group rg, checked
// against the file.
func chunkRange(f *File, rg, col int) (start, length int64, md *meta.ColumnMetaData, err error) {
	cc := &f.Meta.RowGroups[rg].Columns[col]
	path := f.Schema.Leaves[col].PathString()
	md = cc.MetaData
	if cc.CryptoMetadata != nil || cc.EncryptedColumnMetadata != nil {
		if f.Encryption == nil {
			return 0, 0, nil, fmt.Errorf("%w: column %q, row group %d: the column has crypto metadata but the file no encryption algorithm", ErrChunk, path, rg)
		}
		if _, err := f.columnCipher(col); err != nil {
			return 0, 0, nil, err
		}
	}
	if md == nil {
		return 0, 0, nil, fmt.Errorf("%w: column %q, row group %d: no column metadata", ErrChunk, path, rg)
	}
	if cc.FilePath.Set {
		return 0, 0, nil, fmt.Errorf("%w: column %q, row group %d: the chunk is in another file (%q), which is not supported", ErrChunk, path, rg, cc.FilePath.Val)
	}
	if md.Type != f.Schema.Leaves[col].Type {
		return 0, 0, nil, fmt.Errorf("%w: column %q, row group %d: chunk type %d differs from the schema's %d", ErrChunk, path, rg, md.Type, f.Schema.Leaves[col].Type)
	}
	start = md.DataPageOffset
	// A dictionary page, when recorded, precedes the data pages; an
	// offset of 0 (the magic) is a known writer bug and means "none".
	// Some writers record a data page offset of 0 for a chunk that holds
	// only a dictionary page.
	if d, ok := md.DictionaryPageOffset.Get(); ok && d >= int64(len(Magic)) && (d < start || start < int64(len(Magic))) {
		start = d
	} else if ok && d == 0 {
		err := f.deviate(Deviation{Kind: DeviationDictionaryOffsetZero, Writer: "parquet-mr 1.12, old parquet-cpp", Column: path, RowGroup: rg, Page: -1,
			What: "dictionary_page_offset is 0, the file's magic (read as absent: the chunk starts at its first data page)"})
		if err != nil {
			return 0, 0, nil, err
		}
	}
	length = md.TotalCompressedSize
	limit := f.FooterOffset
	if limit <= 0 || limit > f.Size {
		limit = f.Size
	}
	if oldParquetMR(f.Meta.CreatedBy.Val) && start >= 0 && length >= 0 && start <= limit && length <= limit-start {
		// parquet-mr up to 1.2.8 left the dictionary page header out of
		// total_compressed_size (PARQUET-816, IMPALA-694): allow up to
		// 100 more bytes, within the column data.
		length += min(100, limit-start-length)
	}
	if length == 0 && md.NumValues == 0 && f.Meta.RowGroups[rg].NumRows == 0 {
		// A row group of no rows whose chunks hold no page: arrow-go
		// writes one for each empty record batch, its chunks at
		// data_page_offset 0. There is nothing to read, wherever it is.
		return int64(len(Magic)), 0, md, nil
	}
	if start < int64(len(Magic)) || length < 0 || start > limit || length > limit-start {
		return 0, 0, nil, fmt.Errorf("%w: column %q, row group %d: chunk of %d bytes at offset %d lies outside the %d bytes of column data",
			ErrChunk, path, rg, length, start, limit)
	}
	if md.NumValues < 0 {
		return 0, 0, nil, fmt.Errorf("%w: column %q, row group %d: num_values %d", ErrChunk, path, rg, md.NumValues)
	}
	return start, length, md, nil
}

// enterChunk returns the first of the selected row groups from index idx
// of r.RowGroups() that has rows to read (len(r.RowGroups()) when none
// does) and its row selection (nil: every row). With a filter, the row
// groups passed on the way get their exact selection first; with read
// coalescing, the pages of the row group are fetched. Cursors of
// different columns may call it concurrently.
func (fr *FileReader) enterChunk(idx int) (int, []rowRange, error) {
	fr.mu.Lock()
	defer fr.mu.Unlock()
	if err := fr.prepareFilter(); err != nil {
		return 0, nil, err
	}
	for ; idx < len(fr.rowGroups) && fr.filter != nil; idx++ {
		if err := fr.refine(fr.rowGroups[idx]); err != nil {
			return 0, nil, err
		}
		if rr, ok := fr.ranges[fr.rowGroups[idx]]; !ok || len(rr) > 0 {
			break
		}
	}
	if idx >= len(fr.rowGroups) {
		return idx, nil, nil
	}
	rg := fr.rowGroups[idx]
	if _, ok := fr.f.r.(*coalescer); ok && !fr.fetched[rg] {
		if fr.fetched == nil {
			fr.fetched = map[int]bool{}
		}
		fr.fetched[rg] = true
		fr.prefetchPages(rg, fr.active, fr.ranges[rg])
	}
	return idx, fr.ranges[rg], nil
}

// nextChunk moves to the next selected row group; false at the end.
func (c *cursor) nextChunk() (bool, error) {
	fr := c.fr
	next, ranges, err := fr.enterChunk(c.rg + 1)
	if err != nil {
		return false, err
	}
	c.rg = next
	if c.rg >= len(fr.rowGroups) {
		c.inChunk = false
		return false, nil
	}
	rg := fr.rowGroups[c.rg]
	start, length, md, err := chunkRange(fr.f, rg, c.col)
	if err != nil {
		return false, err
	}
	pc := page.Column{
		Path:       c.leaf.PathString(),
		Type:       c.leaf.Type,
		TypeLength: int(c.leaf.TypeLength),
		MaxDef:     c.leaf.MaxDef,
		MaxRep:     c.leaf.MaxRep,
		Codec:      md.Codec,
		RowGroup:   rg,
		Index:      c.col,
		// ARROW-10353 (see DeviationV2Compressed).
		V2AlwaysCompressed: oldParquetCpp(fr.f.Meta.CreatedBy.Val),
		// parquetjs's RLE integers (see DeviationRLEIntegers).
		RLEBitWidth: int(c.leaf.IntTypeLength),
	}
	c.chunkSlots, c.chunkRows, c.lastDef = 0, 0, -1
	c.wantSlots, c.wantRows = md.NumValues, fr.f.Meta.RowGroups[rg].NumRows
	c.ranges, c.rangeIdx, c.nextRow, c.skipping, c.oi, c.pageOrd, c.jumped = ranges, 0, 0, false, nil, 0, false
	c.slots, c.slotsRead = c.slots[:0], false
	if c.ranges != nil {
		oi, err := fr.pageOffsets(rg, c.col)
		if err != nil {
			return false, err
		}
		c.oi = oi
		c.dictFree = !dictEncoded(md)
	}
	cfg := &fr.cfg
	dec, err := fr.f.chunkDecryptor(rg, c.col)
	if err != nil {
		return false, err
	}
	var pdec page.Decryptor
	if dec != nil {
		pdec = dec
	}
	c.cr.Reset(fr.f.r, start, length, pc, page.ChunkOptions{
		Decryptor:     pdec,
		Limits:        page.Limits{MaxHeaderSize: cfg.MaxPageHeaderSize, MaxPageSize: cfg.MaxPageSize, MaxValues: cfg.MaxPageValues},
		VerifyCRC:     cfg.CRCCheck,
		Sparse:        c.oi != nil,
		LazyDictBytes: c.leaf.Type == meta.ByteArray,
		// DuckDB's encrypted pages (see DeviationEncryptionNoAAD).
		PlaintextPageSizes: pdec != nil && fr.f.crypto.noAAD,
	})
	c.inChunk = true
	return true, nil
}

// kept reports whether chunk row row is selected.
func (c *cursor) kept(row int64) bool {
	if c.ranges == nil {
		return true
	}
	for c.rangeIdx < len(c.ranges) && c.ranges[c.rangeIdx].end <= row {
		c.rangeIdx++
	}
	return c.rangeIdx < len(c.ranges) && c.ranges[c.rangeIdx].start <= row
}

// skippable returns the row span of the next data page when the offset
// index shows that none of its rows is kept.
func (c *cursor) skippable() (rows int64, ok bool) {
	if c.oi == nil || c.pageOrd >= len(c.oi.PageLocations) {
		return 0, false
	}
	locs := c.oi.PageLocations
	start, end := locs[c.pageOrd].FirstRowIndex, c.wantRows
	if c.pageOrd+1 < len(locs) {
		end = locs[c.pageOrd+1].FirstRowIndex
	}
	if start != c.nextRow || end < start {
		return 0, false // the index disagrees with the pages read so far
	}
	for row := start; row < end; {
		if c.kept(row) {
			return 0, false
		}
		if c.rangeIdx >= len(c.ranges) {
			break
		}
		row = c.ranges[c.rangeIdx].start
	}
	return end - start, true
}

// passOver counts a data page passed over (skippable): its values (slots)
// and rows.
func (c *cursor) passOver(slots, rows int64) {
	c.lastDef = -1
	c.chunkSlots += slots
	c.chunkRows += rows
	c.nextRow += rows
	c.skipping = true
	c.pageOrd++
}

// jumpTarget returns the file offset of the data page after the next one,
// from the offset index, and the next page's level slots, when the cursor
// may pass over the next one by it (SkipTo, which also requires that
// offset to lie after the reader's and within the chunk): the chunk
// reader stands where the index places the next page, and the page's
// slots are known: its rows when the column is not repeated, else from
// the column index's level histograms (pageSlots). A chunk's first page is
// passed over so only when its metadata names no dictionary: otherwise
// SkipPage reads the dictionary page on the way, and an index that listed
// the dictionary page as a data page could not make the reader leap it.
func (c *cursor) jumpTarget(rows int64) (off, slots int64, ok bool) {
	if c.oi == nil || c.pageOrd+1 >= len(c.oi.PageLocations) || c.pageOrd == 0 && !c.dictFree {
		return 0, 0, false
	}
	locs := c.oi.PageLocations
	if c.cr.Pos() != locs[c.pageOrd].Offset {
		return 0, 0, false
	}
	slots = rows
	if c.leaf.MaxRep > 0 {
		if slots, ok = c.pageSlots(c.pageOrd); !ok {
			return 0, 0, false
		}
	}
	return locs[c.pageOrd+1].Offset, slots, true
}

// pageSlots returns the level slots of data page i of a repeated
// column's chunk: the sum of its repetition level histogram in the column
// index. The histograms are read on first use (a request on object
// storage, in place of one per page header) and used only when they fit
// the offset index and the metadata: one per page, each page's count of
// level 0 its rows, the slots adding up to the chunk's values. Otherwise,
// or without a column index, the headers are read.
func (c *cursor) pageSlots(i int) (int64, bool) {
	if !c.slotsRead {
		c.slotsRead = true
		c.slots = c.histSlots(c.slots[:0])
	}
	if i >= len(c.slots) {
		return 0, false
	}
	return c.slots[i], true
}

// histSlots appends to dst the level slots of each data page of the
// current chunk from its column index (pageSlots), or returns nil.
func (c *cursor) histSlots(dst []int64) []int64 {
	ci, err := c.fr.ColumnIndex(c.fr.rowGroups[c.rg], c.col)
	if err != nil || ci == nil {
		return nil // optional: the page headers give the same counts
	}
	return slotsFromHist(dst, ci.RepetitionLevelHistograms, c.oi.PageLocations, int(c.leaf.MaxRep), c.wantRows, c.wantSlots)
}

// slotsFromHist appends to dst the level slots of each page of a chunk
// of rows rows and slots level slots whose pages locs lists, from the
// pages' repetition level histograms h (maxRep+1 counts per page), or
// returns nil when h does not fit: another length, a negative count, a
// page whose count of level 0 differs from its rows in locs, or a sum
// other than slots.
func slotsFromHist(dst, h []int64, locs []meta.PageLocation, maxRep int, rows, slots int64) []int64 {
	w := maxRep + 1
	if len(h) != w*len(locs) {
		return nil
	}
	total := int64(0)
	for i, pl := range locs {
		end := rows
		if i+1 < len(locs) {
			end = locs[i+1].FirstRowIndex
		}
		n := int64(0)
		for _, x := range h[i*w : (i+1)*w] {
			if x < 0 || x > slots-total-n { // no sum beyond slots, nor overflow
				return nil
			}
			n += x
		}
		if h[i*w] != end-pl.FirstRowIndex {
			return nil
		}
		total += n
		dst = append(dst, n)
	}
	if total != slots {
		return nil
	}
	return dst
}

// landed checks the page loaded after pages passed over by the offset
// index (jumpTarget): it must hold the values of as many rows as the
// index gives it, or the index placed it wrongly.
func (c *cursor) landed(p *page.Page) error {
	if !c.jumped || c.pageOrd >= len(c.oi.PageLocations) {
		return nil
	}
	c.jumped = false
	locs := c.oi.PageLocations
	end := c.wantRows
	if c.pageOrd+1 < len(locs) {
		end = locs[c.pageOrd+1].FirstRowIndex
	}
	rows := end - locs[c.pageOrd].FirstRowIndex
	if c.leaf.MaxRep == 0 {
		if int64(p.NumValues) != rows {
			return c.misplaced(p, "values", int64(p.NumValues), "its offset index entry", rows, "rows")
		}
		return nil
	}
	// A repeated column jumps by its histograms (pageSlots): the page
	// must hold as many level slots as they give, and start as many rows
	// as the offset index.
	if want := c.slots[c.pageOrd]; int64(p.NumValues) != want {
		return c.misplaced(p, "level slots", int64(p.NumValues), "its column index's histogram", want, "level slots")
	}
	if got := int64(countLevel(p.Rep, 0)); got != rows {
		return c.misplaced(p, "rows", got, "its offset index entry", rows, "rows")
	}
	return nil
}

// misplaced is the error of a page reached by the offset index that does
// not fit its entry.
func (c *cursor) misplaced(p *page.Page, what string, got int64, src string, want int64, unit string) error {
	return fmt.Errorf("%w: column %q, row group %d: page %d at offset %d holds %d %s, %s %d %s",
		ErrChunk, c.leaf.PathString(), c.fr.rowGroups[c.rg], p.Ordinal, p.Offset, got, what, src, want, unit)
}

// restSkipped reports, after skippable found the next page skippable,
// whether no row from that page to the chunk's end is kept.
func (c *cursor) restSkipped() bool {
	return c.rangeIdx >= len(c.ranges) || c.ranges[c.rangeIdx].start >= c.wantRows
}

// nextPage loads the next non-empty page, moving across chunks (the row
// in progress, if any, is complete at a chunk's end) and passing over the
// pages that hold only rows skipped by WithColumnPageFilter. It returns false at
// the end of the last chunk.
func (c *cursor) nextPage() (ok bool, err error) {
	for {
		if !c.inChunk {
			more, err := c.nextChunk()
			if err != nil || !more {
				return false, err
			}
		}
		var p *page.Page
		err := io.EOF
		// The chunk ends after the metadata's num_values slots, even when
		// its byte range extends further (see oldParquetMR).
		if c.chunkSlots < c.wantSlots {
			rows, ok := c.skippable()
			if ok && c.cr.Prefetched() {
				c.fr.pipe.wastedPrefetch() // the page asked for is passed over
			}
			if ok && c.restSkipped() {
				// No row of the rest of the chunk is kept: it ends here,
				// without reading the headers of its other pages (a
				// request each on object storage).
				c.chunkSlots, c.chunkRows, c.nextRow = c.wantSlots, c.wantRows, c.wantRows
				c.skipping = true
				c.pageOrd = len(c.oi.PageLocations)
			} else if ok {
				if next, slots, jump := c.jumpTarget(rows); jump && c.cr.SkipTo(next, 1) {
					// The offset index places the next page: pass over
					// this one without reading its header (a request on
					// object storage).
					c.jumped = true
					c.passOver(slots, rows)
					continue
				}
				h, err := c.cr.SkipPage()
				if err == nil {
					c.jumped = false // a header read: the reader is where it says
					c.passOver(pageNumValues(h), rows)
					continue
				}
				if err != io.EOF {
					return false, err
				}
			} else {
				p, err = c.cr.Next()
				if err == nil {
					err = c.landed(p)
					c.pageOrd++
				}
			}
		}
		if err == io.EOF {
			if err := c.endChunk(); err != nil {
				return false, err
			}
			c.inChunk = false
			c.pg = nil
			continue
		}
		if err != nil {
			return false, err
		}
		if notes := c.cr.TakeWidthNotes(); notes != nil {
			if err := c.fr.f.widthDeviations(notes, c.leaf.PathString(), c.fr.rowGroups[c.rg], p.Ordinal); err != nil {
				return false, err
			}
		}
		if p.WideDeltas {
			err := c.fr.f.deviate(Deviation{Kind: DeviationWideDelta, Writer: "DuckDB 1.5", Column: c.leaf.PathString(), RowGroup: c.fr.rowGroups[c.rg], Page: p.Ordinal,
				What: "INT32 DELTA_BINARY_PACKED miniblocks wider than 32 bits (deltas computed in 64 bits; read wrapped to 32 bits)"})
			if err != nil {
				return false, err
			}
		}
		if p.V2Compressed {
			err := c.fr.f.deviate(Deviation{Kind: DeviationV2Compressed, Writer: "parquet-cpp before Arrow 3.0", Column: c.leaf.PathString(), RowGroup: c.fr.rowGroups[c.rg], Page: p.Ordinal,
				What: "a DATA_PAGE_V2 page says is_compressed false but its values are compressed (ARROW-10353; decompressed)"})
			if err != nil {
				return false, err
			}
		}
		if p.RLEIntegers {
			err := c.fr.f.deviate(Deviation{Kind: DeviationRLEIntegers, Writer: "parquetjs", Column: c.leaf.PathString(), RowGroup: c.fr.rowGroups[c.rg], Page: p.Ordinal,
				What: fmt.Sprintf("%s values in the RLE encoding, which the format has for BOOLEAN only (read at the bit width %d the column's type_length gives)", c.leaf.Type, c.leaf.IntTypeLength)})
			if err != nil {
				return false, err
			}
		}
		if p.EmptyValues {
			err := c.fr.f.deviate(Deviation{Kind: DeviationEmptyValues, Writer: "Parquet.Net before aloneguid/parquet-dotnet#388, QuestDB before questdb/questdb#7212", Column: c.leaf.PathString(), RowGroup: c.fr.rowGroups[c.rg], Page: p.Ordinal,
				What: fmt.Sprintf("a page of nulls only whose %s values section is empty, without the header its encoding starts with (read as no values)", dataEncoding(p.Header))})
			if err != nil {
				return false, err
			}
		}
		if p.NumValues == 0 {
			continue
		}
		rows := int64(p.NumValues)
		if c.leaf.MaxRep > 0 {
			if c.chunkSlots == 0 && p.Rep[0] != 0 {
				return false, &page.Error{Column: c.leaf.PathString(), RowGroup: c.fr.rowGroups[c.rg], Page: p.Ordinal, Offset: p.Offset,
					Err: fmt.Errorf("%w: the chunk's first repetition level is %d, not 0", page.ErrCorrupt, p.Rep[0])}
			}
			rows = int64(countLevel(p.Rep, 0))
		}
		if c.converts() {
			if err := c.adapt.convert(p, c.leaf); err != nil {
				return false, &page.Error{Column: c.leaf.PathString(), RowGroup: c.fr.rowGroups[c.rg], Page: p.Ordinal, Offset: p.Offset, Err: err}
			}
		}
		c.chunkSlots += int64(p.NumValues)
		c.chunkRows += rows
		if c.leaf.MaxRep > 0 {
			if err := c.dropListPadding(p); err != nil {
				return false, err
			}
		}
		c.pg, c.slot, c.val = p, 0, 0
		return true, nil
	}
}

// dropListPadding drops the slots of p that continue a null or empty
// list with the same marker (DeviationListPadding), once the chunk's
// counts have taken them: p's levels and NumValues are then those of the
// slots kept.
func (c *cursor) dropListPadding(p *page.Page) error {
	n := p.NumValues
	rep, def := p.Rep[:n], p.Def[:n]
	prev := c.lastDef
	c.lastDef = int(def[n-1])
	if c.repDef == nil {
		c.repDef = repeatedDefs(c.leaf)
	}
	i := firstListPadding(rep, def, c.repDef, prev)
	if i < 0 {
		return nil
	}
	err := c.fr.f.deviate(Deviation{Kind: DeviationListPadding, Writer: "DuckDB 1.5", Column: c.leaf.PathString(), RowGroup: c.fr.rowGroups[c.rg], Page: p.Ordinal,
		What: fmt.Sprintf("level slot %d and others continue a null or empty list with its own marker (a NULL fixed-size ARRAY written as one slot per element; dropped)", i)})
	if err != nil {
		return err
	}
	p.NumValues = dropListPadding(rep, def, c.repDef, prev, i)
	p.Rep, p.Def = rep[:p.NumValues], def[:p.NumValues]
	return nil
}

// pageNumValues returns num_values of a data page header.
func pageNumValues(h *meta.PageHeader) int64 {
	if h.DataPageHeaderV2 != nil && h.Type == meta.DataPageV2 {
		return int64(h.DataPageHeaderV2.NumValues)
	}
	if h.DataPageHeader != nil {
		return int64(h.DataPageHeader.NumValues)
	}
	return 0
}

// endChunk checks the counts of a finished chunk against its metadata.
func (c *cursor) endChunk() error {
	rg := c.fr.rowGroups[c.rg]
	if c.chunkRows != c.wantRows {
		return fmt.Errorf("%w: column %q, row group %d: the pages hold %d rows, the row group %d", ErrChunk, c.leaf.PathString(), rg, c.chunkRows, c.wantRows)
	}
	if c.chunkSlots != c.wantSlots {
		return fmt.Errorf("%w: column %q, row group %d: the pages hold %d values, the chunk metadata %d", ErrChunk, c.leaf.PathString(), rg, c.chunkSlots, c.wantSlots)
	}
	return nil
}

// readRows replaces lv and the sink's values with the next n whole rows.
func (c *cursor) readRows(n int, lv *Levels, s sink) (int, error) {
	c.start(lv, s)
	return c.moreRows(n, lv, s)
}

// readRowsAhead is readRows for a batch read ahead (read_pipe.go): on an
// error it keeps what it read and returns, with the error, the rows a
// sequential read (readRows) from the same place could have returned
// without meeting it (see moreRowsKeep).
func (c *cursor) readRowsAhead(n int, lv *Levels, s sink) (int, error) {
	c.start(lv, s)
	return c.moreRowsKeep(n, lv, s, true)
}

// start empties lv and the sink's values for a new batch.
func (c *cursor) start(lv *Levels, s sink) {
	if c.lv == nil && c.bufs != nil {
		c.adopt(lv, s)
	}
	lv.Def = lv.Def[:0]
	lv.Rep = lv.Rep[:0]
	s.resetValues()
}

// moreRows appends the levels and values of the next n whole rows to
// those lv and the sink s hold (see readRows); on an error they are
// emptied.
func (c *cursor) moreRows(n int, lv *Levels, s sink) (int, error) {
	return c.moreRowsKeep(n, lv, s, false)
}

// moreRowsKeep is moreRows, but with keep set an error leaves lv and the
// sink as they were when it was met, and comes with the number of whole
// rows they hold that a read of fewer rows would have returned without
// meeting it: a read ahead of n rows that fails past the rows the next
// Read asks for still hands those out (read_pipe.go). When the next page
// fails, every row taken counts, but for the last one when a row may
// continue on that page (a repeated column) or the read would look for
// the next kept row there (row selection). When the layout adapter
// refuses a null, the rows before the one holding it count: the slots
// before that row are taken again. Any other error (a batch of more than
// maxBatchBytes of values) counts none and empties lv and the sink.
func (c *cursor) moreRowsKeep(n int, lv *Levels, s sink, keep bool) (int, error) {
	if c.err != nil {
		return 0, c.err
	}
	if n <= 0 {
		return 0, nil
	}
	rows := 0
	fail := func(err error, good int) (int, error) {
		c.err = err
		if keep && good >= 0 {
			return good, err
		}
		lv.Def = lv.Def[:0]
		lv.Rep = lv.Rep[:0]
		s.resetValues()
		return 0, err
	}
	// refused is fail for an error of take, which leaves c.slot at the
	// first slot it failed to take, rows at the rows counted before them
	// and, when the layout adapter refused a null, the levels of the
	// slots before it in lv.Def and nothing else.
	refused := func(err error, rows int) (int, error) {
		good := -1
		if keep && c.nullSlot >= 0 {
			lv.Def = lv.Def[:c.defsAt]
			good = c.takeBefore(c.pg, c.slot, c.nullSlot, rows, lv, s)
		}
		return fail(err, good)
	}
	maxRep := c.leaf.MaxRep
	for {
		if c.pg == nil || c.slot >= c.pg.NumValues {
			c.crMu.lock()
			ok, err := c.nextPage()
			c.crMu.unlock()
			if err != nil {
				good := rows
				if (maxRep > 0 || c.ranges != nil) && rows > 0 {
					good-- // the last row may go on, or the next kept one start, on that page
				}
				return fail(err, good)
			}
			if !ok {
				break
			}
		}
		p := c.pg
		if c.ranges != nil {
			// Row selection: walk row by row, taking kept rows and
			// dropping the others.
			full, err := c.selectRows(p, n, &rows, lv, s)
			if err != nil {
				return refused(err, rows)
			}
			if full {
				break
			}
			continue
		}
		start := c.slot
		var end, k int
		if maxRep == 0 {
			k = min(n-rows, p.NumValues-start)
			end = start + k
		} else {
			end, k = takeRows(p.Rep, start, n-rows)
		}
		if err := c.take(p, start, end, lv, s); err != nil {
			return refused(err, rows)
		}
		rows += k
		if end < p.NumValues || (maxRep == 0 && rows == n) {
			break
		}
	}
	if rows == 0 {
		return 0, io.EOF
	}
	if c.prefetchOK {
		c.askPrefetch()
	}
	return rows, nil
}

// take appends the levels and values of slots [start, end) of p. When
// the layout adapter refuses a null it sets c.nullSlot to the slot
// holding it, else -1 on an error.
func (c *cursor) take(p *page.Page, start, end int, lv *Levels, s sink) error {
	c.nullSlot = -1
	nn := c.nonNull(p, start, end)
	if a := c.adapt; a != nil && a.defMap != nil {
		var defs, rep []uint8
		if c.leaf.MaxDef > 0 {
			defs = p.Def[start:end]
		}
		if c.leaf.MaxRep > 0 {
			rep = p.Rep[start:end]
		}
		c.defsAt = len(lv.Def)
		if bad, err := a.appendDefs(lv, defs, end-start, rep, c.taken); err != nil {
			c.nullSlot = start + bad
			return err
		}
		if rep != nil {
			c.taken += int64(countLevel(rep, 0))
		} else {
			c.taken += int64(end - start)
		}
	} else if c.leaf.MaxDef > 0 {
		lv.Def = append(lv.Def, p.Def[start:end]...)
	}
	if c.leaf.MaxRep > 0 {
		lv.Rep = append(lv.Rep, p.Rep[start:end]...)
	}
	if nn > 0 {
		if err := s.appendValues(p, c.val, c.val+nn); err != nil {
			return err
		}
	}
	c.slot = end
	c.val += nn
	return nil
}

// takeBefore takes again, for moreRowsKeep, the slots of p from start
// up to the row that holds slot bad (whose null the layout adapter
// refused), and returns the whole rows lv then holds: before, the rows
// counted up to start (the last of which goes on at start when the
// column is repeated and p.Rep[start] is not 0), plus those started
// before that row. It returns -1 when the slots fail again.
func (c *cursor) takeBefore(p *page.Page, start, bad, before int, lv *Levels, s sink) int {
	cut, good := bad, before+bad-start
	if c.leaf.MaxRep > 0 {
		cut, good = start, before-1 // bad is in the row going on at start
		for j := bad; j >= start; j-- {
			if p.Rep[j] == 0 {
				cut, good = j, before+countLevel(p.Rep[start:j], 0)
				break
			}
		}
	}
	if cut > start && c.take(p, start, cut, lv, s) != nil {
		return -1
	}
	return max(good, 0)
}

// nonNull counts the slots of [start, end) holding a value.
func (c *cursor) nonNull(p *page.Page, start, end int) int {
	maxDef := c.leaf.MaxDef
	if maxDef == 0 {
		return end - start
	}
	return countLevel(p.Def[start:end], maxDef)
}

// selectRows consumes slots of p from c.slot under row selection: kept
// rows are appended, others dropped, each run of either at once (the rows
// up to the next bound of the selection, found from the ranges rather than
// row by row). It stops before a kept row once n rows are taken (full is
// then true) or at the end of the page.
func (c *cursor) selectRows(p *page.Page, n int, rows *int, lv *Levels, s sink) (full bool, err error) {
	maxRep := c.leaf.MaxRep
	var rep []uint8
	if maxRep > 0 {
		rep = p.Rep[:p.NumValues]
	}
	// consume takes slots [c.slot, end) when the rows they belong to are
	// kept, else drops them.
	consume := func(end int) error {
		if end == c.slot {
			return nil
		}
		if c.skipping {
			c.val += c.nonNull(p, c.slot, end)
			c.slot = end
			return nil
		}
		return c.take(p, c.slot, end, lv, s)
	}
	if maxRep > 0 && c.slot < len(rep) && rep[c.slot] != 0 {
		// The page starts by continuing the row in progress: its slots
		// go with it.
		end, _ := takeRows(rep, c.slot, 0)
		if err := consume(end); err != nil {
			return false, err
		}
	}
	for c.slot < p.NumValues {
		row := c.nextRow
		keep := c.kept(row)
		if keep && *rows == n {
			return true, nil
		}
		span := int64(math.MaxInt64) // rows until the selection changes
		switch {
		case keep:
			span = min(c.ranges[c.rangeIdx].end-row, int64(n-*rows))
		case c.rangeIdx < len(c.ranges):
			span = c.ranges[c.rangeIdx].start - row
		}
		span = min(span, int64(p.NumValues-c.slot))
		var end, k int
		if maxRep == 0 {
			k = int(span)
			end = c.slot + k
		} else {
			end, k = takeRows(rep, c.slot, int(span))
		}
		c.skipping = !keep
		if err := consume(end); err != nil {
			return false, err
		}
		c.nextRow += int64(k)
		if keep {
			*rows += k
		}
	}
	return false, nil
}

// oldParquetCpp reports whether createdBy names parquet-cpp before 2.0.0
// (the application name of Arrow C++ before Arrow 3.0, which then became
// "parquet-cpp-arrow"): those versions compressed the values of
// DATA_PAGE_V2 pages whatever is_compressed said (ARROW-10353).
func oldParquetCpp(createdBy string) bool {
	app, v, ok := writerVersion(createdBy)
	return ok && app == "parquet-cpp" && v[0] < 2
}

// writtenByPolars reports whether Polars wrote f (its created_by,
// "Polars", names no version).
func writtenByPolars(f *File) bool {
	app, _, ok := writerVersion(f.Meta.CreatedBy.Val)
	return ok && app == "Polars"
}

// writtenByParquetjs reports whether parquetjs wrote f (its created_by
// is "@dsnp/parquetjs", or another fork's name holding parquetjs).
func writtenByParquetjs(f *File) bool {
	app, _, ok := writerVersion(f.Meta.CreatedBy.Val)
	return ok && strings.Contains(app, "parquetjs")
}

// oldParquetMR reports whether createdBy names parquet-mr older than
// 1.2.9 (or without a version), whose chunk sizes omit the dictionary page
// header.
func oldParquetMR(createdBy string) bool {
	app, v, ok := writerVersion(createdBy)
	return ok && app == "parquet-mr" && (v[0] < 1 || v[0] == 1 && (v[1] < 2 || v[1] == 2 && v[2] < 9))
}

// dataEncoding returns the encoding of the values of a data page of
// header h.
func dataEncoding(h *meta.PageHeader) meta.Encoding {
	if h.DataPageHeaderV2 != nil {
		return h.DataPageHeaderV2.Encoding
	}
	if h.DataPageHeader != nil {
		return h.DataPageHeader.Encoding
	}
	return 0
}
