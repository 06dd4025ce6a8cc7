// Column chunk writing: levels and values move from the typed buffers into
// the open page of each leaf column, pages are cut at row boundaries and
// encoded (https://parquet.apache.org/docs/file-format/data-pages/), and
// each chunk's compressed pages are buffered until its row group ends.
// Page sizes are checked adaptively, as parquet-java does: after 100 rows,
// then about halfway to the row count at which the page would be full.

package runtime

import (
	"fmt"
	"io"

	"github.com/pqgen/pqgen/runtime/bloom"
	"github.com/pqgen/pqgen/runtime/compress"
	"github.com/pqgen/pqgen/runtime/crypt"
	"github.com/pqgen/pqgen/runtime/encode"
	"github.com/pqgen/pqgen/runtime/geo"
	"github.com/pqgen/pqgen/runtime/internal/bufpool"
	"github.com/pqgen/pqgen/runtime/internal/swar"
	"github.com/pqgen/pqgen/runtime/meta"
	"github.com/pqgen/pqgen/runtime/page"
	"github.com/pqgen/pqgen/runtime/schema"
)

const (
	minPageCheck = 100   // rows before the first page size check
	maxPageCheck = 10000 // most rows between two checks
)

// leafWriter writes the chunks of one leaf column.
type leafWriter struct {
	fw     *FileWriter
	node   *schema.Node
	path   []string
	maxDef uint8
	maxRep uint8
	lv     *Levels
	vals   valueWriter
	i32    *Int32Buffer
	i64    *Int64Buffer
	f32    *FloatBuffer
	f64    *DoubleBuffer
	// back is the typed buffer (*Int64Buffer, ...) the column's pages are
	// filled from; front the one generated code fills: the same but for a
	// pipelined writer (WithParallelism), which hands the front one's
	// rows to the back one at EndRows (pass, passBatch).
	back, front any
	pass        func()

	opt    leafOptions  // fixed when the writer opens
	set    colSettings  // the settings the value writers share
	crypto *colCrypto   // nil for plaintext columns
	sc     *pageScratch // set by forColumns and writeChunk before use
	pg     openPage     // the page being filled
	chunk  openChunk    // the pages and statistics of the chunk being filled
	pend   *pendingPage // the page compressing apart, if any (write_defer.go)
}

// pageScratch is the working memory of building a page: the encoded
// values, the page builder's buffers and the page. A page is finished
// (copied into its column's pageStore) before the goroutine building it
// moves on, so the columns share one pageScratch per goroutine instead of
// holding four page-sized buffers each (which wide schemas paid for in
// peak heap).
type pageScratch struct {
	b            page.Builder // buffers only: builder sets the codec
	values, page []byte
	enc          crypt.ChunkEncryptor // the encryptor builder hands b
	// cold: the buffers were taken (move) and the first page cut has not
	// sized those the pools lacked yet (warm).
	cold bool
}

// builder returns the shared page builder set up for c: its codec, CRC
// and, for an encrypted column, the encryptor of its chunk in the current
// row group. Precondition: c.sc is set.
func (c *leafWriter) builder() *page.Builder {
	b := &c.sc.b
	b.Codec, b.Level, b.CRC = c.opt.codec, c.set.level, c.opt.crc
	b.Encryptor = nil
	if c.crypto != nil {
		c.sc.enc = crypt.ChunkEncryptor{Cipher: c.crypto.cipher, FileAAD: c.fw.crypto.fileAAD,
			RowGroup: len(c.fw.rowGroups), Column: c.crypto.col, Path: c.node.PathString()}
		b.Encryptor = &c.sc.enc
	}
	return b
}

// pageLevel is the compression level of a page of encoding enc: the
// column's, except that a BYTE_STREAM_SPLIT page under ZSTD at
// DefaultLevel gets splitZstdLevel (see pageLevel's callers).
func pageLevel(codec meta.CompressionCodec, level compress.Level, enc meta.Encoding) compress.Level {
	if codec == meta.Zstd && level == compress.DefaultLevel && enc == meta.EncodingByteStreamSplit {
		return splitZstdLevel
	}
	return level
}

// storeRuns decides which data pages of a column skip compression
// (probeRuns): after a page the codec shrank by less than 1/32, the next
// page is stored (and after such an encoding trial, the page it sampled:
// colSettings.flatTrial) (page.DataPageParams.Store), then, each time a
// compressed probe page fails again, runs of twice as many; a page that
// compresses ends the runs.
//
// Dictionary indices and packed deltas are often incompressible: storing
// such pages skips ZSTD's slow pass over them and reads back faster;
// SNAPPY already skips such data quickly, so it gains little.
type storeRuns struct{ probeRuns }

// next accounts for a data page just built (stored or compressed). A
// page asked to be stored but compressed anyway (a DATA_PAGE of a codec
// without a stored form) counts as a probe.
func (s *storeRuns) next(codec meta.CompressionCodec, b page.Built) {
	switch {
	case codec == meta.Uncompressed:
	case b.Stored:
		s.due() // counted off the run
	default:
		s.verdict(incompressible(b.CompressedSize, b.UncompressedSize))
	}
}

// incompressible reports whether a codec shrank n bytes to c by less than
// 1/32.
func incompressible(c, n int) bool { return c*32 >= n*31 }

// splitZstdLevel compresses BYTE_STREAM_SPLIT pages when ZSTD is at its
// DefaultLevel (the fastest speed, which leaves split pages of noisy
// values uncompressed): the encoding only pays through what level 3 finds,
// so fallbackEnc's trial and the pages both use it.
const splitZstdLevel compress.Level = 3

// pageInfo records one data page of the open chunk.
type pageInfo struct {
	offset    int64 // within the chunk's data pages
	size      int32 // header and body
	firstRow  int64
	nulls     int64
	nans      int64
	unencoded int64
	nullPage  bool
	bounds    bool // minLen/maxLen valid
	minOff    int  // into pageBounds
	minLen    int
	maxLen    int
}

// polarsMisreadsDelta reports whether Polars (polars-parquet 0.55, in
// nodejs-polars 0.26.1) fails to read leaf n's column chunk when it holds
// DELTA_BINARY_PACKED, DELTA_LENGTH_BYTE_ARRAY, DELTA_BYTE_ARRAY or
// BYTE_STREAM_SPLIT pages: a required leaf below optional groups and no
// repeated one. When a page whose rows all have the groups present
// precedes one where some do not, Polars fails the whole read ("validity
// mask length must match the number of values", "validity must be equal
// to the array's length"); PLAIN and dictionary pages read, as do such
// columns in lists, optional leaves, and the same pages in DuckDB,
// arrow-rs and hyparquet. The automatic choice (fallbackEnc) keeps PLAIN
// for these columns; an encoding the writer is given is still written.
func polarsMisreadsDelta(n *schema.Node) bool {
	return n.Repetition == meta.Required && n.MaxDef > 0 && n.MaxRep == 0
}

func newLeafWriter(fw *FileWriter, n *schema.Node, cc *columnConfig) (*leafWriter, error) {
	cfg := &fw.cfg
	if cc == nil {
		cc = &columnConfig{}
	}
	path := n.PathString()
	c := &leafWriter{
		fw: fw, node: n, path: n.Path, maxDef: n.MaxDef, maxRep: n.MaxRep,
		opt: leafOptions{
			version:   cfg.DataPageVersion,
			pageIndex: cfg.PageIndex,
			sizeStats: cfg.SizeStatistics,
			truncLen:  cfg.StatsTruncateLength,
			utf8:      isUTF8(n),
			colOrder:  cc.Order.Or(meta.TypeDefinedOrder),
			codec:     cc.Codec.Or(cfg.Codec),
			kv:        cc.KeyValueMetadata,
		},
	}
	level := cfg.CodecLevel
	if cc.Codec.Set { // WithColumnCompression sets codec and level together
		level = cc.CodecLevel.Val
	}
	c.opt.crc = cfg.CRC
	c.set.level = level
	c.set.stats = cc.Statistics.Or(cfg.Statistics)
	c.opt.pageStats = cfg.PageStatistics && c.set.stats
	c.set.enc = cc.Encoding.Or(meta.EncodingPlain)
	c.set.baseEnc = c.set.enc
	c.set.autoEnc = !cc.Encoding.Set
	c.set.alpTrial = cfg.ALPTrial
	c.set.plainFallback = polarsMisreadsDelta(n)
	c.set.codec = c.opt.codec
	c.set.text = n.Type == meta.ByteArray && (n.Logical.Kind == meta.LogicalString ||
		n.Logical.Kind == meta.LogicalNone && n.Logical.Unrecognized == 0 && !n.Converted.Set)
	c.set.dictLimit = encode.DictLimits{MaxBytes: cfg.MaxDictSize}
	c.set.order = columnOrderKind(n)
	switch c.opt.colOrder {
	case meta.IEEE754TotalOrder:
		if !c.set.order.isFloat() {
			return nil, fmt.Errorf("%w: column %q: IEEE 754 total order needs FLOAT, DOUBLE or FLOAT16", ErrConfig, path)
		}
		c.set.total = true
	case meta.Int96TimestampOrder:
		if n.Type != meta.Int96 {
			return nil, fmt.Errorf("%w: column %q: INT96 timestamp order needs INT96", ErrConfig, path)
		}
		c.set.order = orderInt96Time
	}
	if !c.set.stats {
		c.set.order = orderNone
	}
	if !encodingFits(n.Type, c.set.enc) {
		return nil, fmt.Errorf("%w: column %q: encoding %d cannot encode %s", ErrConfig, path, c.set.enc,
			schema.TypeName(n.Type, n.TypeLength))
	}
	c.opt.dictOn = cc.Dictionary.Or(cfg.Dictionary)
	if n.Type == meta.Boolean || n.Type == meta.Int96 {
		if cc.Dictionary.Set && cc.Dictionary.Val {
			return nil, fmt.Errorf("%w: column %q: %s columns are not dictionary-encoded", ErrConfig, path,
				schema.TypeName(n.Type, n.TypeLength))
		}
		c.opt.dictOn = false
	}
	if cc.BloomNDV > 0 {
		if n.Type == meta.Boolean {
			return nil, fmt.Errorf("%w: column %q: BOOLEAN columns have no bloom filter", ErrConfig, path)
		}
		c.set.bloom = bloom.New(bloom.OptimalNumBytes(cc.BloomNDV, cc.BloomFPP))
	}
	switch n.Type {
	case meta.Boolean:
		c.vals = &boolValues{buf: &BoolBuffer{}, set: &c.set}
		c.lv = &c.vals.(*boolValues).buf.Levels
	case meta.Int32:
		c.i32 = &Int32Buffer{}
		c.vals, c.lv = newInt32Values(c.i32, &c.set), &c.i32.Levels
	case meta.Int64:
		c.i64 = &Int64Buffer{}
		c.vals, c.lv = newInt64Values(c.i64, &c.set), &c.i64.Levels
	case meta.Float:
		c.f32 = &FloatBuffer{}
		c.vals, c.lv = newFloatValues(c.f32, &c.set), &c.f32.Levels
	case meta.Double:
		c.f64 = &DoubleBuffer{}
		c.vals, c.lv = newDoubleValues(c.f64, &c.set), &c.f64.Levels
	case meta.Int96:
		v := &fixedValues{i96: &Int96Buffer{}, size: 12, set: &c.set}
		c.vals, c.lv = v, &v.i96.Levels
	case meta.ByteArray:
		v := &byteArrayValues{buf: &ByteArrayBuffer{}, set: &c.set}
		switch k := n.Logical.Kind; {
		case !c.set.stats:
		case k == meta.LogicalGeometry:
			v.geo = &geo.Stats{}
		case k == meta.LogicalGeography && n.Logical.Geography.Algorithm.Or(meta.Spherical) == meta.Spherical:
			v.geo = geo.NewSphericalStats()
		case k == meta.LogicalGeography:
			v.geo = &geo.Stats{}
		}
		c.vals, c.lv = v, &v.buf.Levels
	case meta.FixedLenByteArray:
		if n.TypeLength <= 0 {
			return nil, fmt.Errorf("%w: column %q: FIXED_LEN_BYTE_ARRAY of length %d", ErrConfig, path, n.TypeLength)
		}
		v := &fixedValues{buf: &FixedBuffer{Size: int(n.TypeLength)}, size: int(n.TypeLength), set: &c.set}
		v.bb.total = c.set.total
		c.vals, c.lv = v, &v.buf.Levels
	default:
		return nil, fmt.Errorf("%w: column %q: unknown physical type %d", ErrConfig, path, n.Type)
	}
	c.back = c.bufferOf()
	moveBatch(c.back, true, c.maxDef > 0, c.maxRep > 0)
	c.front = c.back
	c.startChunk()
	c.pg.nextCheck = min(minPageCheck, cfg.PageRowLimit)
	if c.opt.sizeStats {
		c.pg.defHist = make([]int64, int(c.maxDef)+1)
		c.pg.repHist = make([]int64, int(c.maxRep)+1)
		c.chunk.defHist = make([]int64, int(c.maxDef)+1)
		c.chunk.repHist = make([]int64, int(c.maxRep)+1)
	}
	return c, nil
}

// encodingFits reports whether enc can encode values of type t.
func encodingFits(t meta.Type, enc meta.Encoding) bool {
	switch enc {
	case meta.EncodingPlain:
		return true
	case meta.EncodingRLE:
		return t == meta.Boolean
	case meta.EncodingDeltaBinaryPacked:
		return t == meta.Int32 || t == meta.Int64
	case meta.EncodingDeltaLengthByteArray:
		return t == meta.ByteArray
	case meta.EncodingDeltaByteArray:
		return t == meta.ByteArray || t == meta.FixedLenByteArray
	case meta.EncodingByteStreamSplit:
		return t == meta.Int32 || t == meta.Int64 || t == meta.Float || t == meta.Double || t == meta.FixedLenByteArray
	case meta.EncodingALP:
		return t == meta.Float || t == meta.Double
	}
	return false
}

func errFixedSize(got, want int) error {
	return fmt.Errorf("%w: FixedBuffer.Size is %d, the column's length is %d", ErrRows, got, want)
}

func errFixedLen(n, size int) error {
	return fmt.Errorf("%w: %d bytes of FIXED_LEN_BYTE_ARRAY values are not a multiple of %d", ErrRows, n, size)
}

// pendingSlots returns how much the buffers hold.
func (c *leafWriter) pendingSlots() int {
	return len(c.lv.Def) + len(c.lv.Rep) + c.vals.buffered()
}

// checkRows checks that the buffer holds exactly n whole rows.
func (c *leafWriter) checkRows(n int) error {
	lv := c.lv
	if err := c.vals.checkBuffer(); err != nil {
		return fmt.Errorf("column %q: %w", c.node.PathString(), err)
	}
	nv := c.vals.buffered()
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: column %q: EndRows(%d): %s", ErrRows, c.node.PathString(), n, fmt.Sprintf(format, args...))
	}
	switch {
	case c.maxRep > 0:
		if len(lv.Rep) != len(lv.Def) {
			return bad("%d repetition levels but %d definition levels", len(lv.Rep), len(lv.Def))
		}
		if len(lv.Rep) > 0 && lv.Rep[0] != 0 {
			return bad("the first repetition level is %d, not 0", lv.Rep[0])
		}
		if swar.AnyAbove(lv.Rep, c.maxRep) {
			return bad("repetition level %d exceeds the maximum %d", firstAbove(lv.Rep, c.maxRep), c.maxRep)
		}
		if rows := countLevel(lv.Rep, 0); rows != n {
			return bad("the repetition levels hold %d rows", rows)
		}
	case c.maxDef > 0:
		if len(lv.Rep) != 0 {
			return bad("%d repetition levels in a non-repeated column", len(lv.Rep))
		}
		if len(lv.Def) != n {
			return bad("%d definition levels", len(lv.Def))
		}
	default:
		if len(lv.Rep) != 0 || len(lv.Def) != 0 {
			return bad("levels in a required column")
		}
		if nv != n {
			return bad("%d values", nv)
		}
		return nil
	}
	if swar.AnyAbove(lv.Def, c.maxDef) {
		return bad("definition level %d exceeds the maximum %d", firstAbove(lv.Def, c.maxDef), c.maxDef)
	}
	if defined := countLevel(lv.Def, c.maxDef); defined != nv {
		return bad("%d values for %d defined slots", nv, defined)
	}
	return nil
}

// consume moves n checked rows from the buffers into pages.
func (c *leafWriter) consume(n int) error {
	lv := c.lv
	slot, val := 0, 0
	for n > 0 {
		k := min(n, max(c.pg.nextCheck-c.pg.rows, 1))
		var end, nv int
		switch {
		case c.maxRep > 0:
			end = rowEnd(lv.Rep, slot, k)
			nv = c.addLevels(lv.Def[slot:end], lv.Rep[slot:end])
		case c.maxDef > 0:
			end = slot + k
			nv = c.addLevels(lv.Def[slot:end], nil)
		default:
			end, nv = slot+k, k
		}
		c.vals.take(val, val+nv)
		c.pg.slots += end - slot
		c.pg.nulls += end - slot - nv
		c.pg.rows += k
		slot, val, n = end, val+nv, n-k
		if c.pg.rows >= c.pg.nextCheck {
			if err := c.checkPage(); err != nil {
				return err
			}
		}
	}
	lv.Def, lv.Rep = lv.Def[:0], lv.Rep[:0]
	c.vals.clearBuffer()
	return nil
}

// addLevels appends levels to the open page and returns the number of
// defined slots.
func (c *leafWriter) addLevels(def, rep []uint8) int {
	c.pg.def = append(pageDef.grow(c.pg.def, len(def)), def...)
	if c.maxRep > 0 {
		c.pg.rep = append(pageRep.grow(c.pg.rep, len(rep)), rep...)
	}
	if !c.opt.sizeStats {
		return countLevel(def, c.maxDef)
	}
	h := c.pg.defHist
	before := h[c.maxDef]
	addHistogram(h, def)
	if c.maxRep > 0 {
		addHistogram(c.pg.repHist, rep)
	}
	return int(h[c.maxDef] - before)
}

// pageEstimate estimates the encoded size of the open page.
func (c *leafWriter) pageEstimate() int {
	lv := 0
	if c.maxDef > 0 {
		lv += c.pg.slots * page.LevelBitWidth(c.maxDef) / 8
	}
	if c.maxRep > 0 {
		lv += c.pg.slots * page.LevelBitWidth(c.maxRep) / 8
	}
	return lv + c.vals.pageBytes()
}

// checkPage cuts the open page when it is full, else schedules the next
// check.
func (c *leafWriter) checkPage() error {
	cfg := &c.fw.cfg
	resume := c.pg.resume
	c.pg.resume = 0
	if !c.judgeEarly() && resume > 0 {
		// An early dictionary check only, and the dictionary stays: the
		// page size checks go on as if it had not been there.
		c.pg.nextCheck = resume
		c.scheduleEarly()
		return nil
	}
	if !c.chunk.dictJudged && c.pg.slots-c.pg.nulls >= dictJudgeValues {
		c.judgeDict(false)
	}
	est := c.pageEstimate()
	if est >= cfg.PageSize || c.pg.rows >= cfg.PageRowLimit {
		if c.sc.cold {
			c.sc.warm(est, true)
		}
		return c.cutPage(false)
	}
	// Rows at which the page would be full, at the rate seen so far;
	// check again halfway there.
	next := c.pg.rows + minPageCheck
	if est > 0 {
		full := int(int64(c.pg.rows) * int64(cfg.PageSize) / int64(est))
		next = max(next, (c.pg.rows+full)/2)
	}
	next = min(next, c.pg.rows+maxPageCheck, cfg.PageRowLimit)
	if !c.chunk.dictJudged && c.vals.dictMode() {
		next = min(next, c.pg.rows+dictJudgeValues/2)
	}
	c.pg.nextCheck = max(next, c.pg.rows+1)
	c.scheduleEarly()
	return nil
}

// dictEarlyPending reports whether the chunk's dictionary is still to be
// judged early (judgeEarly).
func (c *leafWriter) dictEarlyPending() bool {
	return !c.chunk.dictJudged && !c.chunk.dictEarly && len(c.chunk.pages) == 0 && c.vals.dictMode()
}

// scheduleEarly moves the next check forward to when the open page should
// hold dictEarlyValues values, if that comes first and the dictionary is
// still to be judged early; the page size check then resumes where it was
// scheduled (openPage.resume).
func (c *leafWriter) scheduleEarly() {
	if !c.dictEarlyPending() {
		return
	}
	at := c.pg.rows + max(dictEarlyValues-(c.pg.slots-c.pg.nulls), 1)
	if at < c.pg.nextCheck {
		c.pg.resume = c.pg.nextCheck
		c.pg.nextCheck = at
	}
}

// judgeEarly judges the chunk's dictionary once its first page holds
// dictEarlyValues values, before judgeDict does: a dictionary of nearly
// as many entries as values (valueWriter.abandonDict, judgedEarly) is
// dropped then, instead of hashing every value of a column of unique values
// up to dictJudgeValues. It reports whether the dictionary was dropped; the
// judgement depends on the values alone.
func (c *leafWriter) judgeEarly() bool {
	if !c.dictEarlyPending() || c.pg.slots-c.pg.nulls < dictEarlyValues {
		return false
	}
	c.chunk.dictEarly = true
	if !c.vals.abandonDict(judgedEarly) {
		return false
	}
	c.chunk.dictJudged = true
	c.dictVerdict(true)
	return true
}

// startChunk readies the value writer for a new chunk: with a dictionary
// when the column has one, unless the chunks before dropped theirs
// (dictRuns: after a chunk that dropped it, the next 1, then 2, 4, 8, up
// to 16 chunks go without one while each chunk that tries again drops it
// too; one that keeps it ends the runs). Writes of small row groups
// hashed every value of such columns into a dictionary they then
// dropped: 200 groups of 1,000 flat rows took 31 ms, now 24 ms. A chunk
// without a dictionary picks its encoding by the fallback trial
// (fallbackEnc), as a chunk that dropped its dictionary at its first page
// did, unless the dictionary's trial had picked it (altBeatsDict); a
// chunk that would have kept its dictionary goes without it to the end of
// the run. Chunks follow one another in one order whatever the
// parallelism, so the file does not depend on it.
func (c *leafWriter) startChunk() {
	c.chunk.dictTried = c.opt.dictOn && c.set.dictRuns.due()
	c.vals.resetChunk(c.chunk.dictTried)
}

// dictVerdict records the judgement of the chunk's dictionary (dropped
// or kept) for the chunks after it (startChunk).
func (c *leafWriter) dictVerdict(dropped bool) {
	if c.chunk.dictTried {
		c.set.dictRuns.verdict(dropped)
	}
}

// dictJudgeValues is the number of values of its first page after which
// a chunk's dictionary is judged, if the page was not cut before.
const dictJudgeValues = 8192

// judgeDict decides, once per chunk, on the values of its first page,
// whether its dictionary pays (valueWriter.abandonDict): early, so that a
// column of unique values is not hashed for long. last: the page is cut
// by the row group's flush, so the first page is the whole chunk, judged
// exactly whatever its size (judgedWhole): chunks of fewer than
// minDictJudge values kept their dictionaries, whatever their size, and
// 10,000 rows of 200 columns in groups of 250 took 13.8 MB; judged,
// 9.97 MB.
func (c *leafWriter) judgeDict(last bool) {
	c.chunk.dictJudged = true
	if len(c.chunk.pages) == 0 && c.vals.dictMode() {
		j := judgedOnPage
		if last {
			j = judgedWhole
		}
		c.dictVerdict(c.vals.abandonDict(j))
	}
}

// bufferedSize is the row group size this column contributes: its encoded
// pages, its open page and its dictionary.
// While a page is pending, it counts at its bound, and exact is false.
func (c *leafWriter) bufferedSize() (size int64, exact bool) {
	size = int64(c.pageEstimate()) + int64(c.vals.dictSize())
	if pp := c.pend; pp != nil && pp.state.Load() != pageDone {
		return size + pp.base + pp.bound, false // the store is the finisher's
	}
	return size + c.chunk.store.n, true
}

// nanOutsideBounds reports whether bounds of values holding nans NaN
// leave them out: a float column without IEEE754_TOTAL_ORDER, whose
// bounds never hold NaN.
func (c *leafWriter) nanOutsideBounds(nans int64) bool {
	return nans > 0 && c.set.order.isFloat() && !c.set.total
}

// cutPage encodes the open page into the chunk; last: the chunk's last
// page, cut by its row group's flush.
func (c *leafWriter) cutPage(last bool) error {
	// The previous page's size decides this one's storing (storeRuns).
	if err := c.awaitPage(); err != nil {
		return err
	}
	c.pg.nextCheck = min(minPageCheck, c.fw.cfg.PageRowLimit)
	c.pg.resume = 0
	if c.pg.rows == 0 {
		return nil
	}
	if !c.chunk.dictJudged {
		c.judgeDict(last)
	}
	wasDict := c.vals.dictMode()
	sc := c.sc
	if sc.cold { // a page cut at a flush (checkPage warms full pages)
		sc.warm(c.pageEstimate(), false)
	}
	values, enc := c.vals.encodePage(sc.values[:0])
	sc.values = values
	if wasDict && c.pg.slots == c.pg.nulls && c.vals.dictSize() == 0 {
		// A page of nulls before the chunk's first value goes PLAIN, its
		// values section empty, so that a chunk of nulls has no
		// dictionary page: an empty dictionary page is a codec frame of
		// nothing, which hyparquet-compressors 1.1.2 cannot decode for
		// LZ4_RAW (the frame is the one byte 0x00).
		values, enc, wasDict = values[:0], meta.EncodingPlain, false
	}
	if enc == meta.EncodingRLEDictionary && c.opt.version == 1 {
		// Data page v1 files traditionally name dictionary indices
		// PLAIN_DICTIONARY, as the readers of that era expect.
		enc = meta.EncodingPlainDictionary
	}
	bnd, pb := c.vals.bounds(c.pg.boundScratch[:0])
	c.pg.boundScratch = bnd
	nulls := int64(c.pg.nulls)
	nonNull := c.pg.slots - c.pg.nulls
	info := pageInfo{
		firstRow:  c.chunk.rows,
		nulls:     nulls,
		nans:      pb.nans,
		unencoded: pb.unencodedBA,
		nullPage:  nonNull == 0,
	}
	var mn, mx []byte
	if pb.ok {
		mn, mx = bnd[:pb.minLen], bnd[pb.minLen:]
		if pb.nanOnly {
			c.mergeNaNBounds(mn, mx)
		} else {
			c.mergeChunkBounds(mn, mx)
		}
	} else if nonNull > 0 && c.set.order != orderNone {
		c.chunk.noColIndex = true // all values NaN under the type order
	}
	if c.nanOutsideBounds(pb.nans) {
		// Readers that order NaN above all (Spark's comparisons, through
		// parquet-java's column index filter) would prune NaN rows by
		// such a page's bounds: the chunk gets no column index, as
		// parquet-java's own writer does.
		c.chunk.noColIndex = true
	}
	var stats *meta.Statistics
	if c.opt.pageStats {
		stats = c.statistics(mn, mx, pb.ok, nulls, pb.nans)
	}
	if c.opt.pageIndex && pb.ok {
		info.bounds = true
		info.minOff = len(c.chunk.pageBounds)
		tmn, _ := c.truncMin(mn)
		c.chunk.pageBounds = append(c.chunk.pageBounds, tmn...)
		info.minLen = len(tmn)
		c.chunk.pageBounds, _ = c.truncMax(c.chunk.pageBounds, mx)
		info.maxLen = len(c.chunk.pageBounds) - info.minOff - info.minLen
	}
	p := page.DataPageParams{
		Version:    c.opt.version,
		NumValues:  c.pg.slots,
		NumNulls:   c.pg.nulls,
		NumRows:    c.pg.rows,
		Encoding:   enc,
		Rep:        c.pg.rep,
		Def:        c.pg.def,
		MaxRep:     c.maxRep,
		MaxDef:     c.maxDef,
		Values:     values,
		Statistics: stats,
	}
	b := c.builder()
	b.Level = pageLevel(c.opt.codec, c.set.level, enc)
	if c.set.flatTrial {
		// The encoding trial just compressed a sample of this page: a
		// failed probe.
		c.set.flatTrial = false
		if !c.chunk.rawRuns.skipping() {
			c.chunk.rawRuns.verdict(true)
		}
	}
	p.Store = c.chunk.rawRuns.skipping()
	p.Ordinal = len(c.chunk.pages)
	if held := len(values) + len(p.Def) + len(p.Rep) + 16; c.deferPage(held) {
		if err := c.prepare(&p, b.Level, info, held); err != nil {
			return err
		}
	} else {
		var built page.Built
		var err error
		sc.page, built, err = b.AppendDataPage(sc.page[:0], &p)
		if err != nil {
			return c.pageErr(len(c.fw.rowGroups), err)
		}
		c.pageBuilt(sc.page, nil, built, &info)
		c.chunk.pages = append(c.chunk.pages, info)
	}
	if wasDict {
		c.chunk.dictPages++
	}
	pt := meta.DataPage
	if c.opt.version == 2 {
		pt = meta.DataPageV2
	}
	c.countEncoding(pt, enc)
	c.chunk.rows += int64(c.pg.rows)
	c.chunk.slots += int64(c.pg.slots)
	c.chunk.nulls += nulls
	c.chunk.nans += pb.nans
	c.chunk.unencoded += pb.unencodedBA
	if c.opt.sizeStats {
		if c.maxRep > 0 {
			c.chunk.pageHists = append(c.chunk.pageHists, c.pg.repHist...)
		}
		if c.maxDef > 0 {
			c.chunk.pageHists = append(c.chunk.pageHists, c.pg.defHist...)
		}
		for i, v := range c.pg.defHist {
			c.chunk.defHist[i] += v
			c.pg.defHist[i] = 0
		}
		for i, v := range c.pg.repHist {
			c.chunk.repHist[i] += v
			c.pg.repHist[i] = 0
		}
	}
	c.pg.def, c.pg.rep = c.pg.def[:0], c.pg.rep[:0]
	c.pg.rows, c.pg.slots, c.pg.nulls = 0, 0, 0
	return nil
}

// pageErr wraps err, the failure of building a page of c in row group
// rg, naming both.
func (c *leafWriter) pageErr(rg int, err error) error {
	return fmt.Errorf("column %q: row group %d: %w", c.node.PathString(), rg, err)
}

// pageBuilt appends the page built, hdr then body (nil when hdr holds
// the whole page), to the chunk, filling info's offset and size.
func (c *leafWriter) pageBuilt(hdr, body []byte, built page.Built, info *pageInfo) {
	info.offset = c.chunk.store.n
	c.fw.freeMu.Lock()
	c.chunk.store.appendPage(hdr, body, &c.fw.free)
	c.fw.freeMu.Unlock()
	c.chunk.rawRuns.next(c.opt.codec, built)
	info.size = int32(built.Size())
	c.chunk.uncompSize += int64(built.HeaderSize + built.UncompressedSize)
	c.chunk.compSize += int64(built.Size())
}

func (c *leafWriter) countEncoding(pt meta.PageType, enc meta.Encoding) {
	for i := range c.chunk.encStats {
		if e := &c.chunk.encStats[i]; e.PageType == pt && e.Encoding == enc {
			e.Count++
			return
		}
	}
	c.chunk.encStats = append(c.chunk.encStats, meta.PageEncodingStats{PageType: pt, Encoding: enc, Count: 1})
}

func (c *leafWriter) mergeChunkBounds(mn, mx []byte) {
	if !c.chunk.bounds.ok {
		c.chunk.bounds.min = append(c.chunk.bounds.min[:0], mn...)
		c.chunk.bounds.max = append(c.chunk.bounds.max[:0], mx...)
		c.chunk.bounds.ok = true
		return
	}
	if compareBounds(c.set.order, mn, c.chunk.bounds.min) < 0 {
		c.chunk.bounds.min = append(c.chunk.bounds.min[:0], mn...)
	}
	if compareBounds(c.set.order, mx, c.chunk.bounds.max) > 0 {
		c.chunk.bounds.max = append(c.chunk.bounds.max[:0], mx...)
	}
}

// mergeNaNBounds merges the bounds of a page whose values are all NaN
// (total order); they are the chunk's bounds only if every page is so.
func (c *leafWriter) mergeNaNBounds(mn, mx []byte) {
	if !c.chunk.bounds.nanOK || compareBounds(c.set.order, mn, c.chunk.bounds.nanMin) < 0 {
		c.chunk.bounds.nanMin = append(c.chunk.bounds.nanMin[:0], mn...)
	}
	if !c.chunk.bounds.nanOK || compareBounds(c.set.order, mx, c.chunk.bounds.nanMax) > 0 {
		c.chunk.bounds.nanMax = append(c.chunk.bounds.nanMax[:0], mx...)
	}
	c.chunk.bounds.nanOK = true
}

// chunkBounds returns the chunk's bounds: those of its non-NaN values, or,
// when every value is NaN under the total order, the NaN bounds.
func (c *leafWriter) chunkBounds() (mn, mx []byte, ok bool) {
	if c.chunk.bounds.ok {
		return c.chunk.bounds.min, c.chunk.bounds.max, true
	}
	if c.chunk.bounds.nanOK {
		return c.chunk.bounds.nanMin, c.chunk.bounds.nanMax, true
	}
	return nil, nil, false
}

// truncates reports whether the column's bounds may be truncated.
func (c *leafWriter) truncates() bool {
	return c.node.Type == meta.ByteArray && c.set.order == orderBytes && c.opt.truncLen > 0
}

func (c *leafWriter) truncMin(v []byte) ([]byte, bool) {
	if !c.truncates() {
		return v, true
	}
	return truncateMin(v, c.opt.truncLen, c.opt.utf8)
}

func (c *leafWriter) truncMax(dst, v []byte) ([]byte, bool) {
	if !c.truncates() {
		return append(dst, v...), true
	}
	return truncateMax(dst, v, c.opt.truncLen, c.opt.utf8)
}

// statistics builds a Statistics (bounds copied and truncated).
func (c *leafWriter) statistics(mn, mx []byte, ok bool, nulls, nans int64) *meta.Statistics {
	s := &meta.Statistics{NullCount: meta.Some(nulls)}
	if c.set.order.isFloat() {
		s.NanCount = meta.Some(nans)
	}
	if ok {
		tmn, minExact := c.truncMin(mn)
		s.MinValue = append([]byte{}, tmn...)
		var maxExact bool
		s.MaxValue, maxExact = c.truncMax([]byte{}, mx)
		s.IsMinValueExact = meta.Some(minExact)
		s.IsMaxValueExact = meta.Some(maxExact)
	}
	return s
}

// storeBlock is the size of the blocks a pageStore holds pages in.
const storeBlock = 64 << 10

// pageStore holds the encoded pages of an open column chunk in blocks of
// storeBlock bytes: growing it never copies, and the blocks go back to
// the writer's free list once the chunk is written, so a steady stream
// of row groups reuses the same memory. A chunk whose first page is
// small starts with a small block instead, from the size-classed pool
// of such blocks (poolStore), which doubles (copied, bufpool.Grow) up to
// storeBlock bytes: a writer holds a block per column for
// its open row group, and 2,000 columns of a few hundred bytes each held
// 125 MB in blocks of storeBlock bytes. The store keeps its small first
// block for its next chunk, and a closed writer gives it to the pools.
type pageStore struct {
	blocks [][]byte
	n      int64
	spare  []byte // a first block of less than storeBlock bytes, for the next chunk
	big    bool   // the last chunk held storeBlock/2 bytes or more
}

// appendPage appends a page, hdr then body.
func (s *pageStore) appendPage(hdr, body []byte, free *[][]byte) {
	if len(s.blocks) == 0 {
		s.blocks = append(s.blocks, s.first(len(hdr)+len(body), free))
	}
	s.append(hdr, free)
	s.append(body, free)
}

// first returns the first block of a chunk whose first page is of m
// bytes: one of storeBlock bytes when the page or the last chunk held
// half as much or more (the spare then goes back to the pools, as the
// column's chunks have grown), else the spare or a small one.
func (s *pageStore) first(m int, free *[][]byte) []byte {
	if s.big || m >= storeBlock/2 {
		s.release()
		return takeBlock(free)
	}
	if s.spare != nil {
		b := s.spare
		s.spare = nil
		return b[:0]
	}
	return bufpool.Grow(&poolStore, nil, m)
}

// append appends p. Precondition: the store has its first block
// (appendPage).
func (s *pageStore) append(p []byte, free *[][]byte) {
	s.n += int64(len(p))
	for len(p) > 0 {
		switch n := len(s.blocks); {
		case len(s.blocks[n-1]) < cap(s.blocks[n-1]):
		case n == 1 && cap(s.blocks[0]) < storeBlock:
			// The small first block is full: double it, up to half a
			// storeBlock in the pools' classes, then into a storeBlock.
			if old := s.blocks[0]; max(2*cap(old), len(old)+len(p)) <= storeBlock/2 {
				s.blocks[0] = bufpool.Grow(&poolStore, old, len(p))
			} else {
				s.blocks[0] = append(takeBlock(free), old...)
				poolStore.Put(old)
			}
		default:
			s.blocks = append(s.blocks, takeBlock(free))
		}
		last := &s.blocks[len(s.blocks)-1]
		k := min(len(p), cap(*last)-len(*last))
		*last = append(*last, p[:k]...)
		p = p[k:]
	}
}

// takeBlock returns an empty block of storeBlock bytes, from the free
// list when it has one.
func takeBlock(free *[][]byte) []byte {
	if k := len(*free); k > 0 {
		b := (*free)[k-1][:0]
		*free = (*free)[:k-1]
		return b
	}
	return newStoreBlock()
}

// writeTo writes the pages to w.
func (s *pageStore) writeTo(w io.Writer) error {
	for _, b := range s.blocks {
		if _, err := w.Write(b); err != nil {
			return err
		}
	}
	return nil
}

// reset empties the store, giving its blocks of storeBlock bytes to the
// free list and keeping a smaller first block as its spare.
func (s *pageStore) reset(free *[][]byte) {
	s.big = s.n >= storeBlock/2
	for _, b := range s.blocks {
		if cap(b) == storeBlock {
			*free = append(*free, b)
		} else {
			s.spare = b[:0] // the first block, so first took no spare
		}
	}
	clear(s.blocks)
	s.blocks = s.blocks[:0]
	s.n = 0
}

// release gives the store's spare to the pools (its writer is closed, or
// its chunks outgrew it).
func (s *pageStore) release() {
	poolStore.Put(s.spare)
	s.spare = nil
}
