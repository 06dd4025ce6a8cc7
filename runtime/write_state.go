// The state of a leaf column's writer, in three parts with one owner
// each: leafOptions, fixed when the writer opens (write_column.go's
// newLeafWriter); openPage, the page being filled (write_column.go's
// addLevels, checkPage, cutPage); openChunk, the pages and statistics of
// the column chunk of the open row group (filled by cutPage, written and
// reset by write_footer.go's writeChunk and reset).

package runtime

import "github.com/pqgen/pqgen/runtime/meta"

// leafOptions are the settings of one leaf column, resolved from the
// writer's options once.
type leafOptions struct {
	dictOn    bool // dictionary encoding configured
	version   int  // data page version
	pageStats bool // statistics in data page headers
	pageIndex bool
	sizeStats bool
	truncLen  int  // byte-array bounds truncation (0: none)
	utf8      bool // the column holds UTF-8 text (bounds truncate on runes)
	colOrder  meta.ColumnOrderKind
	codec     meta.CompressionCodec
	crc       bool
	kv        []meta.KeyValue // column chunk key-value metadata
}

// openPage is the page being filled: its levels, counts and level
// histograms, until cutPage encodes it.
type openPage struct {
	def, rep  []uint8
	rows      int
	slots     int
	nulls     int
	nextCheck int // rows at which the page size is checked again
	// resume, when not 0, makes nextCheck an early dictionary check
	// (leafWriter.judgeEarly) only: if the dictionary survives it, the
	// page size is next checked at resume rows, as without that check.
	resume           int
	defHist, repHist []int64
	boundScratch     []byte
}

// openChunk is the column chunk of the open row group: its encoded data
// pages, their page-index entries and the chunk statistics.
type openChunk struct {
	store      pageStore // data pages (headers and bodies)
	rawRuns    storeRuns // which data pages skip compression (kept across chunks)
	pages      []pageInfo
	pageBounds []byte // min/max of the column index, back to back
	pageHists  []int64
	dictPages  int  // data pages written in dictionary mode
	dictTried  bool // the chunk started with a dictionary (startChunk)
	rows       int64
	slots      int64 // value slots
	nulls      int64
	nans       int64
	unencoded  int64
	defHist    []int64
	repHist    []int64
	uncompSize int64 // data pages only
	compSize   int64
	bounds     chunkBounds
	encStats   []meta.PageEncodingStats
	noColIndex bool // a non-null page has no bounds (all NaN), or a page holds NaN
	dictJudged bool // the chunk's dictionary was judged (judgeDict)
	dictEarly  bool // the chunk's dictionary had its early judgement (judgeEarly)
}

// chunkBounds are the chunk's min and max, and the NaN bounds of its
// NaN-only pages (IEEE 754 total order).
type chunkBounds struct {
	min, max       []byte
	ok             bool
	nanMin, nanMax []byte
	nanOK          bool
}

// reset empties the chunk after its row group was written, keeping its
// buffers (and rawRuns, which spans chunks); free takes the store's pages.
func (ch *openChunk) reset(free *[][]byte) {
	ch.store.reset(free)
	ch.pages = ch.pages[:0]
	ch.pageBounds = ch.pageBounds[:0]
	ch.pageHists = ch.pageHists[:0]
	ch.dictPages = 0
	ch.rows, ch.slots, ch.nulls, ch.nans, ch.unencoded = 0, 0, 0, 0, 0
	clear(ch.defHist)
	clear(ch.repHist)
	ch.uncompSize, ch.compSize = 0, 0
	ch.bounds.ok, ch.bounds.nanOK = false, false
	ch.encStats = nil
	ch.noColIndex = false
	ch.dictJudged = false
	ch.dictEarly = false
}
