// Value handling of the writer, per physical type: moving values from a
// column buffer into the open page, their bounds, dictionary encoding with
// fallback, the page's value encoding and bloom filter hashing. Encodings:
// https://parquet.apache.org/docs/file-format/data-pages/encodings/.

package runtime

import (
	"bytes"
	"encoding/binary"
	"math"
	"slices"

	"github.com/pqgen/pqgen/runtime/bloom"
	"github.com/pqgen/pqgen/runtime/compress"
	"github.com/pqgen/pqgen/runtime/encode"
	"github.com/pqgen/pqgen/runtime/geo"
	"github.com/pqgen/pqgen/runtime/meta"
)

// valueWriter is the typed half of a leaf writer.
type valueWriter interface {
	// buffered returns the number of values in the column buffer.
	buffered() int
	// checkBuffer checks type-specific buffer invariants.
	checkBuffer() error
	// take moves buffer values [from, to) into the open page.
	take(from, to int)
	// clearBuffer empties the column buffer (levels excluded).
	clearBuffer()
	// pageBytes estimates the encoded size of the open page's values.
	pageBytes() int
	// encodePage appends the open page's values, encoded, to dst and
	// empties the page's values; it returns the encoding used.
	encodePage(dst []byte) ([]byte, meta.Encoding)
	// bounds appends the PLAIN encodings of the open page's minimum and
	// maximum to dst (when it has any), reports its NaN count and the
	// unencoded byte-array bytes, and resets the page's bounds.
	bounds(dst []byte) (_ []byte, b pageBounds)
	// dictionary state of the open chunk: whether dictionary encoding is
	// in force, the dictionary page body and its entry count, the
	// dictionary size (PLAIN-encoded: 0 only for a dictionary of no
	// entry), and the reset between chunks.
	dictMode() bool
	dictPage(dst []byte) ([]byte, int)
	dictSize() int
	resetChunk(dict bool)
	// abandonDict ends dictionary encoding for the rest of the chunk when
	// the dictionary built from the open page does not pay off (see
	// dictPays; judged early: nor is likely to, see dictHopeless), turning
	// the page's indices back into values, and reports whether it did.
	abandonDict(j dictJudging) bool
}

// dictJudging is what a chunk's dictionary is judged on
// (valueWriter.abandonDict), all of it on the chunk's first page.
type dictJudging int

const (
	// judgedEarly: the page's first values (leafWriter.judgeEarly); the
	// dictionary goes only when hopeless (dictProjectedHopeless).
	judgedEarly dictJudging = iota
	// judgedOnPage: the page, a sample of the chunk (leafWriter.judgeDict).
	judgedOnPage
	// judgedWhole: the page is the whole chunk, cut by its row group's
	// flush: judged exactly, whatever its size (dictPays).
	judgedWhole
)

// dictSizes is what a chunk's dictionary is judged by: n values (the
// indices of the open page) in dictLen entries of dictBytes bytes PLAIN,
// against plainBytes for the same values PLAIN.
type dictSizes struct{ n, dictLen, dictBytes, plainBytes int }

// dictOutcome is the outcome of judging a chunk's dictionary (judge).
type dictOutcome int

const (
	// dictKept: the dictionary stays (judged early and not hopeless, or
	// hopeless but paying).
	dictKept dictOutcome = iota
	// dictBeatsPlain: it pays against PLAIN (dictPays), and stays unless
	// the column's value writer finds an encoding that beats it
	// (altBeatsDict).
	dictBeatsPlain
	// dictDropped: it does not pay.
	dictDropped
)

// judge judges a dictionary of sizes c on j, for every value writer's
// abandonDict.
func (j dictJudging) judge(c dictSizes) dictOutcome {
	pays := dictPays(c.n, c.dictLen, c.dictBytes, c.plainBytes, j == judgedWhole)
	switch {
	case j == judgedEarly && (pays || !dictProjectedHopeless(c.n, c.dictLen, c.dictBytes, c.plainBytes)):
		return dictKept
	case j == judgedEarly:
		return dictDropped
	case pays:
		return dictBeatsPlain
	}
	return dictDropped
}

// minDictJudge is the number of values a chunk's first page needs before
// the writer judges whether its dictionary pays off on it, a sample of
// the chunk: below it the dictionary is kept, whatever its size, unless
// the page is the whole chunk (judgedWhole), judged exactly.
const minDictJudge = 1000

// dictPays reports whether dictionary encoding of n values is worth it:
// as parquet-java decides after a chunk's first page, the dictionary
// (PLAIN bytes) plus the indices must be smaller than the values PLAIN.
// Fewer than minDictJudge values are no sample to judge a chunk by: they
// keep the dictionary unless they are the whole chunk (whole).
func dictPays(n, dictLen, dictBytes, plainBytes int, whole bool) bool {
	if n < minDictJudge && !whole {
		return true
	}
	return dictBytes+n*encode.DictBitWidth(dictLen)/8 < plainBytes
}

// dictEarlyValues is the number of values of its first page after which
// a chunk's dictionary is judged early (leafWriter.judgeEarly), and
// dictEarlyRepeat the most repeated values, per dictEarlyValues, that count as
// hopeless for it.
const (
	dictEarlyValues = 1024
	dictEarlyRepeat = 16
)

// dictHopeless reports whether a dictionary of dictLen entries built from
// n values will not pay: at least dictEarlyValues values with at most
// dictEarlyRepeat in dictEarlyValues repeated. Values drawn uniformly from
// K keys repeat about n²/2K times in n draws, so a column judged hopeless
// so has some 32,000 keys or more, and a dictionary of 8,192 such values
// does not pay either (dictPays): the early judgement saves hashing them
// without dropping dictionaries judgeDict would keep.
func dictHopeless(n, dictLen int) bool {
	return n >= dictEarlyValues && (n-dictLen)*dictEarlyValues <= dictEarlyRepeat*n
}

// dictEarlyMargin is how many times the PLAIN bytes of dictJudgeValues
// values their dictionary and indices must be projected to take
// (dictProjectedHopeless) for the early judgement to drop it.
const dictEarlyMargin = 1.03

// dictProjectedHopeless reports whether a dictionary of dictLen entries
// of dictBytes (PLAIN), built from n values of plainBytes (PLAIN), is
// hopeless (dictHopeless) or projected not to pay once the first page
// holds dictJudgeValues values, when judgeDict weighs it (dictPays):
// values drawn uniformly from K keys give K(1-exp(-n/K)) distinct ones in
// n draws, so dictLen in n gives K, and K the entries of dictJudgeValues
// draws. Their entries and indices must take dictEarlyMargin times the
// values' PLAIN bytes or more. Prices, quantities and other columns of
// some 10,000 values were hashed to dictJudgeValues values only to drop
// the dictionary then (1,024 values of 10,000 keys repeat about 50 times,
// too often for dictHopeless).
//
// The projection errs towards keeping: skewed values (a few keys
// repeated most, as in Zipf draws) and runs repeat more in the first
// values than uniform draws of the same keys, so they give a smaller K;
// a chunk of fewer values, or one with more values past its first page,
// is judged on fewer values, whose dictionary pays less.
func dictProjectedHopeless(n, dictLen, dictBytes, plainBytes int) bool {
	if dictHopeless(n, dictLen) {
		return true
	}
	if n < dictEarlyValues || dictLen <= 0 || dictLen >= n || n >= dictJudgeValues {
		return false
	}
	k := uniformKeys(float64(n), float64(dictLen))
	const m = float64(dictJudgeValues)
	d := k * -math.Expm1(-m/k) // the entries of m draws
	entries := int(math.Ceil(d))
	cost := d*float64(dictBytes)/float64(dictLen) + m*float64(encode.DictBitWidth(entries))/8
	return cost >= dictEarlyMargin*m*float64(plainBytes)/float64(n)
}

// uniformKeys returns the number of keys K, for d distinct values in n
// uniform draws (0 < d < n), that K(1-exp(-n/K)) = d: the function grows
// with K from d(1-exp(-n/d)) < d at K = d towards n > d, and 60 halvings
// of [d, 2^40 d] find K within a part in 10^6.
func uniformKeys(n, d float64) float64 {
	lo, hi := d, d*(1<<40)
	for range 60 {
		mid := math.Sqrt(lo * hi) // halving on a log scale
		if mid*-math.Expm1(-n/mid) < d {
			lo = mid
		} else {
			hi = mid
		}
	}
	return math.Sqrt(lo * hi)
}

// pageBounds describes the bounds appended by valueWriter.bounds.
type pageBounds struct {
	ok          bool  // min and max were appended
	nanOnly     bool  // they are NaNs (total order, every value NaN)
	minLen      int   // min is dst[start:start+minLen], max follows
	nans        int64 // NaN values (float orders)
	unencodedBA int64 // bytes of the byte-array values
}

// keyStats tracks bounds as order-preserving unsigned keys.
type keyStats struct {
	mn, mx       uint64
	has          bool
	nans         int64
	nanMn, nanMx uint64 // smallest and largest NaN key (total order)
}

func (s *keyStats) add(k uint64) {
	if !s.has {
		s.mn, s.mx, s.has = k, k, true
		return
	}
	if k < s.mn {
		s.mn = k
	}
	if k > s.mx {
		s.mx = k
	}
}

func (s *keyStats) addNaN(k uint64) {
	if s.nans == 0 {
		s.nanMn, s.nanMx = k, k
	} else {
		if k < s.nanMn {
			s.nanMn = k
		}
		if k > s.nanMx {
			s.nanMx = k
		}
	}
	s.nans++
}

func statsInt32(s *keyStats, src []int32) {
	if len(src) == 0 {
		return
	}
	mn, mx := minMax[int32](src)
	s.add(uint64(uint32(mn) ^ 1<<31))
	s.add(uint64(uint32(mx) ^ 1<<31))
}

func statsUint32(s *keyStats, src []int32) {
	if len(src) == 0 {
		return
	}
	mn, mx := minMax[uint32](src)
	s.add(uint64(mn))
	s.add(uint64(mx))
}

func statsInt64(s *keyStats, src []int64) {
	if len(src) == 0 {
		return
	}
	mn, mx := minMax[int64](src)
	s.add(uint64(mn) ^ 1<<63)
	s.add(uint64(mx) ^ 1<<63)
}

func statsUint64(s *keyStats, src []int64) {
	if len(src) == 0 {
		return
	}
	mn, mx := minMax[uint64](src)
	s.add(mn)
	s.add(mx)
}

func statsFloat(s *keyStats, src []float32) {
	for _, v := range src {
		k := uint64(totalKey32(math.Float32bits(v)))
		if v != v {
			s.addNaN(k)
			continue
		}
		s.add(k)
	}
}

func statsDouble(s *keyStats, src []float64) {
	for _, v := range src {
		k := totalKey64(math.Float64bits(v))
		if v != v {
			s.addNaN(k)
			continue
		}
		s.add(k)
	}
}

// appendKeyBounds appends the PLAIN min and max of s under order o; total
// selects the IEEE 754 total order (NaN bounds for all-NaN pages, no
// signed-zero adjustment).
func appendKeyBounds(dst []byte, s *keyStats, o orderKind, total bool) ([]byte, pageBounds) {
	b := pageBounds{nans: s.nans}
	mn, mx, has := s.mn, s.mx, s.has
	if !has && total && s.nans > 0 {
		mn, mx, has = s.nanMn, s.nanMx, true
		b.nanOnly = true
	}
	if !has {
		return dst, b
	}
	b.ok = true
	switch o {
	case orderBool:
		dst = append(dst, byte(mn), byte(mx))
		b.minLen = 1
	case orderInt32:
		dst = binary.LittleEndian.AppendUint32(dst, uint32(mn)^1<<31)
		dst = binary.LittleEndian.AppendUint32(dst, uint32(mx)^1<<31)
		b.minLen = 4
	case orderUint32:
		dst = binary.LittleEndian.AppendUint32(dst, uint32(mn))
		dst = binary.LittleEndian.AppendUint32(dst, uint32(mx))
		b.minLen = 4
	case orderInt64:
		dst = binary.LittleEndian.AppendUint64(dst, mn^1<<63)
		dst = binary.LittleEndian.AppendUint64(dst, mx^1<<63)
		b.minLen = 8
	case orderUint64:
		dst = binary.LittleEndian.AppendUint64(dst, mn)
		dst = binary.LittleEndian.AppendUint64(dst, mx)
		b.minLen = 8
	case orderFloat:
		lo, hi := math.Float32frombits(fromTotalKey32(uint32(mn))), math.Float32frombits(fromTotalKey32(uint32(mx)))
		if !total {
			lo, hi = minBoundFloat(lo), maxBoundFloat(hi)
		}
		dst = binary.LittleEndian.AppendUint32(dst, math.Float32bits(lo))
		dst = binary.LittleEndian.AppendUint32(dst, math.Float32bits(hi))
		b.minLen = 4
	case orderDouble:
		lo, hi := math.Float64frombits(fromTotalKey64(mn)), math.Float64frombits(fromTotalKey64(mx))
		if !total {
			lo, hi = minBoundDouble(lo), maxBoundDouble(hi)
		}
		dst = binary.LittleEndian.AppendUint64(dst, math.Float64bits(lo))
		dst = binary.LittleEndian.AppendUint64(dst, math.Float64bits(hi))
		b.minLen = 8
	default:
		b.ok = false
	}
	*s = keyStats{}
	return dst, b
}

func fromTotalKey32(k uint32) uint32 {
	if k&(1<<31) != 0 {
		return k &^ (1 << 31)
	}
	return ^k
}

func fromTotalKey64(k uint64) uint64 {
	if k&(1<<63) != 0 {
		return k &^ (1 << 63)
	}
	return ^k
}

// colSettings are the per-column settings the value writers consult.
type colSettings struct {
	order     orderKind
	total     bool // IEEE 754 total order (floats)
	stats     bool // bounds are computed
	enc       meta.Encoding
	dictLimit encode.DictLimits
	bloom     *bloom.Filter
	// autoEnc: no encoding was configured, so when a chunk falls back from
	// its dictionary the writer picks one by type and data (fallbackEnc);
	// baseEnc is the encoding each chunk starts with.
	autoEnc bool
	baseEnc meta.Encoding
	// alpTrial: the automatic choice of a FLOAT or DOUBLE column may try
	// ALP (WithALPTrial).
	alpTrial bool
	codec    meta.CompressionCodec // the column's codec
	// text: a BYTE_ARRAY column of plain bytes or STRING, which readers
	// take in every encoding (DuckDB reads DELTA_LENGTH_BYTE_ARRAY only
	// for strings and blobs, not decimals or JSON).
	text  bool
	level compress.Level // the column's codec level
	// plainFallback: the automatic choice after a dictionary falls back
	// (fallbackEnc) keeps PLAIN (polarsMisreadsDelta).
	plainFallback bool
	// flatTrial is set by trialPick when the codec shrank the winning
	// trial by less than 1/32: the page it sampled is stored, as after a
	// compressed page that failed (storeRuns); cutPage clears it.
	flatTrial bool
	// Once-a-chunk attempts spaced out (probe_runs.go) while their
	// outcome holds: altRuns altBeatsDict's trials, after trials that kept
	// the dictionary (writes of small row groups spent a third of their
	// time in them: 200 row groups of 1,000 flat rows, 53 ms, 18 ms of it
	// the name column's samples); dictRuns the dictionary itself, after
	// chunks that dropped it (leafWriter.startChunk); encRuns
	// fallbackEnc's trials, after trials that picked the encoding the one
	// before had picked (lastPick, with its flatTrial: lastFlat; picked
	// once a trial ran).
	altRuns, dictRuns, encRuns probeRuns
	picked, lastFlat           bool
	lastPick                   meta.Encoding
}

// reusePick reports whether this chunk takes the encoding the column's
// last trials picked (encRuns) instead of a trial of its own, and if so
// sets it, as trialPick would have.
func (s *colSettings) reusePick() bool {
	if !s.picked || s.encRuns.due() {
		return false // no trial yet, or this chunk's is due
	}
	s.enc, s.flatTrial = s.lastPick, s.lastFlat
	return true
}

// recordPick records the pick of fallbackEnc's trial (s.enc and
// s.flatTrial, from trialPick) for the chunks after (reusePick).
func (s *colSettings) recordPick() {
	s.encRuns.verdict(s.picked && s.enc == s.lastPick)
	s.picked, s.lastPick, s.lastFlat = true, s.enc, s.flatTrial
}

// ---- BOOLEAN ----

type boolValues struct {
	buf  *BoolBuffer
	set  *colSettings
	page []bool
	st   keyStats
}

func (v *boolValues) buffered() int                { return len(v.buf.Values) }
func (v *boolValues) checkBuffer() error           { return nil }
func (v *boolValues) clearBuffer()                 { v.buf.Values = v.buf.Values[:0] }
func (v *boolValues) pageBytes() int               { return len(v.page)/8 + 1 }
func (v *boolValues) dictMode() bool               { return false }
func (v *boolValues) dictSize() int                { return 0 }
func (v *boolValues) resetChunk(bool)              {}
func (v *boolValues) abandonDict(dictJudging) bool { return false }
func (v *boolValues) dictPage(dst []byte) ([]byte, int) {
	return dst, 0
}

func (v *boolValues) take(from, to int) {
	src := v.buf.Values[from:to]
	v.page = append(pageBool.grow(v.page, len(src)), src...)
	if v.set.stats && len(src) > 0 {
		// Two scans that stop at the first value sought: their branches
		// are predictable, where one loop telling each value apart
		// mispredicted on mixed values (the suite's 200-column write, 25
		// columns of random booleans, took 2-3% less time).
		if slices.Contains(src, false) {
			v.st.add(0)
		}
		if slices.Contains(src, true) {
			v.st.add(1)
		}
	}
}

func (v *boolValues) encodePage(dst []byte) ([]byte, meta.Encoding) {
	enc := v.set.enc
	if enc == meta.EncodingRLE {
		dst = encode.AppendRLEBool(dst, v.page)
	} else {
		enc = meta.EncodingPlain
		dst = encode.AppendPlainBool(dst, v.page)
	}
	v.page = v.page[:0]
	return dst, enc
}

func (v *boolValues) bounds(dst []byte) ([]byte, pageBounds) {
	return appendKeyBounds(dst, &v.st, orderBool, false)
}

func (v *boolValues) release() {
	pageBool.put(v.page)
	v.page = nil
}

// ---- INT32, INT64, FLOAT, DOUBLE ----

// numValues handles the 4- and 8-byte numeric types; ops holds what
// differs between them.
type numValues[T int32 | int64 | float32 | float64] struct {
	vals  *[]T
	set   *colSettings
	ops   *numOps[T]
	page  []T     // open page values (no dictionary)
	idx   []int32 // open page dictionary indices
	dict  bool    // dictionary encoding in force
	trial bool    // fell back from the dictionary: the next page picks the encoding
	st    keyStats
	// alp spaces out ALP (probeRuns) on a column configured for it: after
	// a page ALP did not shrink, the next pages go straight to PLAIN, in
	// runs between probes; a page ALP shrinks ends the runs. Values ALP
	// cannot encode (random, noisy) then cost little more than PLAIN. A
	// failed page also drops the encoder's (exponent, factor) preset,
	// which the next probe chooses from its own values (encodePage).
	alp probeRuns

	pages *hintPool[T] // the pool of page's buffer (write_pool.go)
}

type numOps[T int32 | int64 | float32 | float64] struct {
	width     int
	float     bool
	insert    func(idx []int32, src []T) ([]int32, int, bool)
	dictLen   func() int
	dictSize  func() int
	dictPlain func(dst []byte) []byte
	dictReset func(encode.DictLimits)
	// dictRelease gives the dictionary's memory to encode's pools (a
	// closed writer's, which uses it no more).
	dictRelease func()
	encReset    func() // a new chunk: forget encoder state (ALP's preset)
	// gather appends the dictionary entries named by idx to dst[:0].
	// Precondition: every index is in [0, dictLen()).
	gather func(dst []T, idx []int32) []T
	encode func(dst []byte, src []T, enc meta.Encoding) []byte
	stats  func(s *keyStats, src []T)
	hash   func(T) uint64
}

func (v *numValues[T]) buffered() int      { return len(*v.vals) }
func (v *numValues[T]) checkBuffer() error { return nil }
func (v *numValues[T]) clearBuffer()       { *v.vals = (*v.vals)[:0] }
func (v *numValues[T]) dictMode() bool     { return v.dict }

func (v *numValues[T]) dictSize() int {
	if v.ops.dictLen == nil {
		return 0
	}
	return v.ops.dictSize()
}

func (v *numValues[T]) pageBytes() int {
	if v.dict {
		return len(v.idx)*encode.DictBitWidth(v.ops.dictLen())/8 + 1
	}
	return len(v.page) * v.ops.width
}

func (v *numValues[T]) take(from, to int) {
	src := (*v.vals)[from:to]
	if v.set.stats && v.ops.stats != nil {
		v.ops.stats(&v.st, src)
	}
	if f := v.set.bloom; f != nil {
		for _, x := range src {
			f.Insert(v.ops.hash(x))
		}
	}
	if v.dict {
		idx, added, full := v.ops.insert(pageIdx.grow(v.idx, len(src)), src)
		v.idx = idx
		if !full {
			return
		}
		v.fallback()
		src = src[added:]
	}
	v.page = append(v.pages.grow(v.page, len(src)), src...)
}

func (v *numValues[T]) release() {
	v.pages.put(v.page)
	pageIdx.put(v.idx)
	v.page, v.idx = nil, nil
	if v.ops.dictRelease != nil {
		v.ops.dictRelease()
	}
}

func (v *numValues[T]) abandonDict(j dictJudging) bool {
	if !v.dict {
		return false
	}
	switch j.judge(dictSizes{len(v.idx), v.ops.dictLen(), v.ops.dictSize(), len(v.idx) * v.ops.width}) {
	case dictKept:
		return false
	case dictBeatsPlain:
		if !v.altBeatsDict() {
			return false
		}
	}
	v.fallback()
	v.ops.dictReset(v.set.dictLimit)
	return true
}

// altBeatsDict reports, for a column whose encoding the writer picks,
// whether the chunk would take fewer bytes without its dictionary, in
// DELTA_BINARY_PACKED for integers or, under a codec, BYTE_STREAM_SPLIT
// for floating point, judged on the open page, the chunk's first
// (beatsDict). dictPays weighs a dictionary against PLAIN only; numbers
// that step or wander (counters with repeats, sensor readings, prices,
// jittered times) repeat enough for a dictionary to beat PLAIN, but their
// deltas, or their split bytes, take fewer bytes still.
func (v *numValues[T]) altBeatsDict() bool {
	alt := meta.EncodingDeltaBinaryPacked
	if v.ops.float {
		if v.set.codec == meta.Uncompressed || v.set.alpTrial {
			return false // PLAIN's bytes, which dictPays weighed; ALP's own trial
		}
		alt = meta.EncodingByteStreamSplit
	}
	n := len(v.idx)
	if !v.set.autoEnc || n < minDictJudge || !v.set.altRuns.due() {
		return false
	}
	vals := v.ops.gather(growBuf(v.pages.p, nil, n), v.idx)
	defer func() { v.pages.p.Put(vals) }()
	buf := v.ops.dictPlain(growBuf(&poolU8, nil, v.ops.dictSize()+n*(v.ops.width+1)))
	defer func() { poolU8.Put(buf) }()
	m := len(buf)
	buf = encode.AppendDictIndices(buf, v.idx, encode.DictBitWidth(v.ops.dictLen()))
	k := len(buf)
	buf = v.ops.encode(buf, vals, alt)
	// Integers' deltas can be larger than the dictionary before the
	// codec and far smaller after (values repeated in sorted runs): no
	// screen; these pages are small.
	_, ok := v.set.beatsDict(buf[:m], buf[m:k], v.idx, []encTrial{{alt, buf[k:]}})
	v.set.altRuns.verdict(!ok)
	return ok
}

// beatsDict reports whether the smallest of the alternative encodings
// alts of a page of values takes fewer bytes after the column's codec
// than their dictionary encoding (dictCost), and which. dict is the PLAIN
// dictionary page of the entries idx names, numbered in order of first
// appearance; indices their encoding.
func (s *colSettings) beatsDict(dict, indices []byte, idx []int32, alts []encTrial) (meta.Encoding, bool) {
	size := func(a encTrial) (int, bool) { return len(a.data), true }
	if s.codec != meta.Uncompressed {
		var scratch []byte
		defer func() { poolU8.Put(scratch) }()
		size = func(a encTrial) (int, bool) {
			c, err := compress.Compress(growBuf(&poolU8, scratch[:0], len(a.data)+len(a.data)/8+1024), a.data, s.codec, pageLevel(s.codec, s.level, a.enc))
			scratch = c
			return min(len(c), len(a.data)), err == nil
		}
	}
	cd, ok1 := size(encTrial{meta.EncodingPlain, dict})
	ci, ok2 := size(encTrial{meta.EncodingRLEDictionary, indices})
	if !ok1 || !ok2 {
		return 0, false
	}
	best, enc := math.MaxInt, meta.Encoding(0)
	for _, a := range alts {
		c, ok := size(a)
		if !ok {
			return 0, false
		}
		if c < best {
			best, enc = c, a.enc
		}
	}
	return enc, float64(best) < dictCost(cd, ci, idx)
}

// dictCost returns what the dictionary encoding of a chunk costs, in
// bytes, for the values of its first page whose indices are idx: the
// page's indices (indices bytes) plus the share of its dictionary page
// (dict bytes) that new values add. The indices grow with the chunk; the
// dictionary by the entries new values add, at the rate the page's second
// half added them (a column of 1,000 keys has nearly all of them by then,
// a random walk keeps adding, more slowly), so the dictionary page counts
// at a rate per value, not as a whole: a dictionary that has stopped
// growing costs little more over a long chunk. The rate falls as values
// recur (a random walk has about the square root of its length in
// distinct values, so over a chunk four times the page it adds entries at
// 0.57 times the rate of the page's second half): half the rate is
// counted, which keeps a dictionary of values that drift at a steady rate
// more often than it drops one. Entries are numbered in order of first
// appearance, so those the first half named are the first d1.
// Precondition: len(idx) >= 2.
func dictCost(dict, indices int, idx []int32) float64 {
	n := len(idx)
	d, d1 := int(slices.Max(idx))+1, int(slices.Max(idx[:n/2]))+1
	grow := float64(d-d1) / float64(n-n/2) / 2 // new entries per value
	return float64(indices) + float64(dict)/float64(d)*grow*float64(n)
}

// encTrialValues is the most values of a page an encoding trial encodes,
// and encTrialBytes about the most BYTE_ARRAY value bytes. The trials'
// compressions cost as much as a page's: with 4,096 values they took 18%
// of the CPU time of a 200-column zstd write; of the benchmark suite's
// twelve files, a quarter of that sample picked the same encodings in
// eleven and a smaller file in the twelfth, and an eighth the same bytes
// in all twelve (with 3.6% fewer instructions in the runtime and codecs
// of the 200-column zstd write; a sixteenth changed the 200-column files).
const (
	encTrialValues = 512
	encTrialBytes  = 32 << 10
)

// encTrial is a sample of a page's values in one encoding.
type encTrial struct {
	enc  meta.Encoding
	data []byte
}

// trialNearTie is how much larger (in 1/1000ths) than the smallest a
// compressed trial may be and still count as a tie, won by the trial with
// the least encoded data (it costs the codec the least time, writing and
// reading).
const trialNearTie = 30

// trialPick returns the encoding of the trial that the column's codec, at
// each page's level, compresses smallest (without a codec, the smallest
// trial); of trials within trialNearTie of the smallest, the one with the
// least encoded data, then the first. The trials are the same values, so
// the winner's pages are smaller for data that stays alike through the
// chunk: a sample of one page costs one compression per trial and chunk.
//
// Which encoding is smallest depends on the data (sorted e-mail addresses
// favour DELTA_BYTE_ARRAY, random hex PLAIN's compression), so the
// fallback tries them (TestFallbackPicksSmallest holds the cases).
//
// scratch is spare room for the compressed trials (its length is ignored;
// it must not overlap the trials' data).
func (s *colSettings) trialPick(trials []encTrial, scratch []byte) meta.Encoding {
	var sizes [3]int
	scratch = scratch[:0]
	for i, t := range trials {
		sizes[i] = len(t.data)
		if s.codec == meta.Uncompressed {
			continue
		}
		c, err := compress.Compress(scratch[:0], t.data, s.codec, pageLevel(s.codec, s.level, t.enc))
		if err != nil {
			return meta.EncodingPlain
		}
		scratch = c
		sizes[i] = len(c)
	}
	best := 0
	for i := range trials {
		if sizes[i] < sizes[best] {
			best = i
		}
	}
	limit := sizes[best] + sizes[best]*trialNearTie/1000
	pick := best
	for i := range trials {
		if sizes[i] <= limit && len(trials[i].data) < len(trials[pick].data) {
			pick = i
		}
	}
	s.flatTrial = s.codec != meta.Uncompressed && incompressible(sizes[pick], len(trials[pick].data))
	return trials[pick].enc
}

// fallbackEnc picks the encoding of a chunk falling back from its
// dictionary, when none was configured, from the values of its first page
// after the fallback (see trialPick): DELTA_BINARY_PACKED for
// non-decreasing integers; for other integers, DELTA_BINARY_PACKED or
// PLAIN by trial; for floating point under a codec, BYTE_STREAM_SPLIT or
// PLAIN by trial (the split groups the bytes of noisy values, which the
// codec then finds alike, but scatters those of values with few
// significant digits).
//
// The trials are encoded after the bytes of dst, whose room the page then
// reuses: fallbackEnc returns dst, grown, with its bytes unchanged.
func (v *numValues[T]) fallbackEnc(dst []byte) []byte {
	v.trial = false
	if len(v.page) < 2 || v.set.plainFallback {
		return dst
	}
	sample := v.page[:min(len(v.page), encTrialValues)]
	alt := meta.EncodingDeltaBinaryPacked
	if v.ops.float {
		if v.set.alpTrial {
			return v.floatTrialALP(dst, sample)
		}
		if v.set.codec == meta.Uncompressed {
			return dst // the same bytes in another order
		}
		alt = meta.EncodingByteStreamSplit
	} else {
		sorted := true
		for i := 1; i < len(v.page); i++ {
			if v.page[i] < v.page[i-1] {
				sorted = false
				break
			}
		}
		if sorted {
			v.set.enc = meta.EncodingDeltaBinaryPacked
			return dst
		}
	}
	if v.set.reusePick() {
		return dst
	}
	base := len(dst)
	plain := v.ops.encode(dst, sample, meta.EncodingPlain)
	all := v.ops.encode(plain, sample, alt)
	v.set.enc = v.set.trialPick([]encTrial{{meta.EncodingPlain, plain[base:]}, {alt, all[len(plain):]}}, all[len(all):])
	v.set.recordPick()
	return all[:base]
}

// floatTrialALP is fallbackEnc for floating point under WithALPTrial:
// PLAIN, BYTE_STREAM_SPLIT (under a codec) and ALP by trial.
func (v *numValues[T]) floatTrialALP(dst []byte, sample []T) []byte {
	base := len(dst)
	all := v.ops.encode(dst, sample, meta.EncodingPlain)
	trials := []encTrial{{meta.EncodingPlain, all[base:]}}
	if v.set.codec != meta.Uncompressed {
		n := len(all)
		all = v.ops.encode(all, sample, meta.EncodingByteStreamSplit)
		trials = append(trials, encTrial{meta.EncodingByteStreamSplit, all[n:]})
	}
	n := len(all)
	all = v.ops.encode(all, sample, meta.EncodingALP)
	trials = append(trials, encTrial{meta.EncodingALP, all[n:]})
	v.set.enc = v.set.trialPick(trials, all[len(all):])
	return all[:base]
}

// fallback ends dictionary encoding for the rest of the chunk: the open
// page's indices are turned back into values.
func (v *numValues[T]) fallback() {
	v.dict = false
	v.trial = v.set.autoEnc
	v.page = v.ops.gather(v.pages.grow(v.page[:0], len(v.idx)), v.idx)
	v.idx = v.idx[:0]
}

func (v *numValues[T]) encodePage(dst []byte) ([]byte, meta.Encoding) {
	if v.dict {
		dst = encode.AppendDictIndices(dst, v.idx, encode.DictBitWidth(v.ops.dictLen()))
		v.idx = v.idx[:0]
		return dst, meta.EncodingRLEDictionary
	}
	if v.trial {
		dst = v.fallbackEnc(dst)
	}
	enc, start := v.set.enc, len(dst)
	if enc == meta.EncodingALP && !v.alp.due() {
		enc = meta.EncodingPlain
	}
	if enc == meta.EncodingALP && len(v.page) > encode.ALPMaxValues {
		enc = meta.EncodingPlain // more values than an ALP header counts
	}
	dst = v.ops.encode(dst, v.page, enc)
	if enc == meta.EncodingALP {
		// Values ALP does not shrink (noisy, random) are written PLAIN.
		shrank := len(dst)-start <= len(v.page)*v.ops.width
		v.alp.verdict(!shrank)
		if !shrank {
			enc = meta.EncodingPlain
			dst = v.ops.encode(dst[:start], v.page, enc)
			if v.ops.encReset != nil {
				v.ops.encReset() // the next probe chooses its own parameters
			}
		}
	}
	v.page = v.page[:0]
	return dst, enc
}

func (v *numValues[T]) bounds(dst []byte) ([]byte, pageBounds) {
	return appendKeyBounds(dst, &v.st, v.set.order, v.set.total)
}

func (v *numValues[T]) dictPage(dst []byte) ([]byte, int) {
	return v.ops.dictPlain(dst), v.ops.dictLen()
}

func (v *numValues[T]) resetChunk(dict bool) {
	v.dict = dict && v.ops.insert != nil
	v.set.enc = v.set.baseEnc
	v.trial = v.set.autoEnc && !v.dict // no dictionary: the first page picks the encoding
	if v.ops.dictReset != nil {
		v.ops.dictReset(v.set.dictLimit)
	}
	if v.ops.encReset != nil {
		v.ops.encReset()
	}
	v.alp = probeRuns{}
	v.idx = v.idx[:0]
	v.page = v.page[:0]
}

// gatherBits appends to dst[:0] the entries of a dictionary, held as bit
// patterns in bits, named by idx, converted by conv. Precondition: every
// index is in [0, len(bits)).
func gatherBits[T any, K uint32 | uint64](dst []T, bits []K, idx []int32, conv func(K) T) []T {
	dst = slices.Grow(dst[:0], len(idx))[:len(idx)]
	for j, i := range idx {
		dst[j] = conv(bits[i])
	}
	return dst
}

func newInt32Values(buf *Int32Buffer, set *colSettings) *numValues[int32] {
	d := &encode.Dict32{}
	ops := &numOps[int32]{
		width:       4,
		insert:      d.InsertInt32,
		dictLen:     d.Len,
		dictSize:    d.Size,
		dictPlain:   d.AppendPlain,
		dictReset:   func(l encode.DictLimits) { d.Reset(); d.Limits = l },
		dictRelease: d.Release,
		gather: func(dst []int32, idx []int32) []int32 {
			return gatherBits(dst, d.Values(), idx, func(k uint32) int32 { return int32(k) })
		},
		encode: func(dst []byte, src []int32, enc meta.Encoding) []byte {
			switch enc {
			case meta.EncodingDeltaBinaryPacked:
				return encode.AppendDeltaInt32(dst, src)
			case meta.EncodingByteStreamSplit:
				return encode.AppendByteStreamSplitInt32(dst, src)
			}
			return encode.AppendPlainInt32(dst, src)
		},
		hash: bloom.HashInt32,
	}
	switch set.order {
	case orderInt32:
		ops.stats = statsInt32
	case orderUint32:
		ops.stats = statsUint32
	}
	return &numValues[int32]{vals: &buf.Values, set: set, ops: ops, pages: &pageI32}
}

func newInt64Values(buf *Int64Buffer, set *colSettings) *numValues[int64] {
	d := &encode.Dict64{}
	ops := &numOps[int64]{
		width:       8,
		insert:      d.InsertInt64,
		dictLen:     d.Len,
		dictSize:    d.Size,
		dictPlain:   d.AppendPlain,
		dictReset:   func(l encode.DictLimits) { d.Reset(); d.Limits = l },
		dictRelease: d.Release,
		gather: func(dst []int64, idx []int32) []int64 {
			return gatherBits(dst, d.Values(), idx, func(k uint64) int64 { return int64(k) })
		},
		encode: func(dst []byte, src []int64, enc meta.Encoding) []byte {
			switch enc {
			case meta.EncodingDeltaBinaryPacked:
				return encode.AppendDeltaInt64(dst, src)
			case meta.EncodingByteStreamSplit:
				return encode.AppendByteStreamSplitInt64(dst, src)
			}
			return encode.AppendPlainInt64(dst, src)
		},
		hash: bloom.HashInt64,
	}
	switch set.order {
	case orderInt64:
		ops.stats = statsInt64
	case orderUint64:
		ops.stats = statsUint64
	}
	return &numValues[int64]{vals: &buf.Values, set: set, ops: ops, pages: &pageI64}
}

func newFloatValues(buf *FloatBuffer, set *colSettings) *numValues[float32] {
	d := &encode.Dict32{}
	alp := &encode.ALPEncoder{}
	ops := &numOps[float32]{
		width:       4,
		float:       true,
		insert:      d.InsertFloat,
		dictLen:     d.Len,
		dictSize:    d.Size,
		dictPlain:   d.AppendPlain,
		dictReset:   func(l encode.DictLimits) { d.Reset(); d.Limits = l },
		dictRelease: d.Release,
		gather: func(dst []float32, idx []int32) []float32 {
			return gatherBits(dst, d.Values(), idx, math.Float32frombits)
		},
		encode: func(dst []byte, src []float32, enc meta.Encoding) []byte {
			switch enc {
			case meta.EncodingByteStreamSplit:
				return encode.AppendByteStreamSplitFloat(dst, src)
			case meta.EncodingALP:
				return alp.AppendFloat(dst, src)
			}
			return encode.AppendPlainFloat(dst, src)
		},
		encReset: alp.Reset,
		stats:    statsFloat,
		hash:     bloom.HashFloat,
	}
	return &numValues[float32]{vals: &buf.Values, set: set, ops: ops, pages: &pageF32}
}

func newDoubleValues(buf *DoubleBuffer, set *colSettings) *numValues[float64] {
	d := &encode.Dict64{}
	alp := &encode.ALPEncoder{}
	ops := &numOps[float64]{
		width:       8,
		float:       true,
		insert:      d.InsertDouble,
		dictLen:     d.Len,
		dictSize:    d.Size,
		dictPlain:   d.AppendPlain,
		dictReset:   func(l encode.DictLimits) { d.Reset(); d.Limits = l },
		dictRelease: d.Release,
		gather: func(dst []float64, idx []int32) []float64 {
			return gatherBits(dst, d.Values(), idx, math.Float64frombits)
		},
		encode: func(dst []byte, src []float64, enc meta.Encoding) []byte {
			switch enc {
			case meta.EncodingByteStreamSplit:
				return encode.AppendByteStreamSplitDouble(dst, src)
			case meta.EncodingALP:
				return alp.AppendDouble(dst, src)
			}
			return encode.AppendPlainDouble(dst, src)
		},
		encReset: alp.Reset,
		stats:    statsDouble,
		hash:     bloom.HashDouble,
	}
	return &numValues[float64]{vals: &buf.Values, set: set, ops: ops, pages: &pageF64}
}

// ---- BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY, INT96 (as bytes) ----

// bytesBounds tracks byte-string bounds under a comparison order.
type bytesBounds struct {
	mn, mx []byte
	has    bool
	nans   int64
	total  bool   // FLOAT16 under IEEE 754 total order
	nanMn  uint16 // smallest and largest NaN (total order)
	nanMx  uint16
}

func (b *bytesBounds) add(o orderKind, x []byte) {
	if o == orderFloat16 {
		u := binary.LittleEndian.Uint16(x)
		if isNaN16(u) {
			if b.nans == 0 || totalKey16(u) < totalKey16(b.nanMn) {
				b.nanMn = u
			}
			if b.nans == 0 || totalKey16(u) > totalKey16(b.nanMx) {
				b.nanMx = u
			}
			b.nans++
			return
		}
	}
	if !b.has {
		b.mn, b.mx, b.has = append(b.mn[:0], x...), append(b.mx[:0], x...), true
		return
	}
	if compareBounds(o, x, b.mn) < 0 {
		b.mn = append(b.mn[:0], x...)
	} else if compareBounds(o, x, b.mx) > 0 {
		b.mx = append(b.mx[:0], x...)
	}
}

// pageMarks records which dictionary entries the open page references, so
// that the page statistics of a dictionary-encoded column compare each
// distinct value once per page instead of every value: a page's bounds
// are those of the entries it references.
type pageMarks struct {
	stamp []uint32 // stamp[i] == epoch: entry i is in the open page's bounds
	epoch uint32
}

// next starts a new page, or a new dictionary (whose indices restart).
func (m *pageMarks) next() {
	m.epoch++
	if m.epoch == 0 { // wrapped: an old stamp could match
		clear(m.stamp)
		m.epoch = 1
	}
}

// addBounds adds to b, under order o, the entries of dict named by idx
// that the open page has not referenced yet. Precondition: every index in
// idx is in [0, dict.Len()).
func (m *pageMarks) addBounds(b *bytesBounds, o orderKind, dict encode.ByteArrays, idx []int32) {
	if m.epoch == 0 {
		m.epoch = 1
	}
	if n := dict.Len(); len(m.stamp) < n {
		// Entries past len were never stamped: zero.
		m.stamp = slices.Grow(m.stamp, n-len(m.stamp))[:n]
	}
	st, ep := m.stamp, m.epoch
	for _, i := range idx {
		if st[i] == ep {
			continue
		}
		st[i] = ep
		b.add(o, dict.At(int(i)))
	}
}

// addBytes adds byte strings under the unsigned byte-wise order.
func (b *bytesBounds) addBytes(src encode.ByteArrays) {
	n := src.Len()
	if n == 0 {
		return
	}
	first := src.Data[src.Offsets[0]:src.Offsets[1]]
	mn, mx := first, first
	newMin, newMax := true, true
	if b.has {
		mn, mx = b.mn, b.mx
		newMin, newMax = false, false
	}
	// A value whose first 16 bytes, zero-padded and read big-endian as
	// two words, lie strictly between those of the bounds is strictly
	// between the bounds: a greater padded prefix than mn's means greater
	// than mn (or mn extended), a smaller one than mx's smaller than mx (or
	// a proper prefix of it). The second word settles values that share
	// their first 8 bytes with a bound ("contact 1234", URLs). Of the
	// values insideRun stops at, those whose prefix is strictly beyond a
	// bound's are the new bound by it alone, as are the values after them
	// that keep going the same way (beyondRun: ids and times written as
	// text rise, each a new maximum); only values that tie a bound's
	// prefix need a full comparison.
	lo, hi := keyAt(mn, 0, uint32(len(mn))), keyAt(mx, 0, uint32(len(mx)))
	data, offs := src.Data, src.Offsets[:n+1]
	for i := insideRun(data, offs, 0, lo, hi); i < n; i = insideRun(data, offs, i+1, lo, hi) {
		start, end := offs[i], offs[i+1]
		x, k := data[start:end], keyAt(data, start, end-start)
		switch {
		case k.less(lo):
			j, kj := beyondRun(data, offs, i+1, k, false)
			mn, lo, newMin, i = data[offs[j-1]:offs[j]], kj, true, j-1
		case hi.less(k):
			j, kj := beyondRun(data, offs, i+1, k, true)
			mx, hi, newMax, i = data[offs[j-1]:offs[j]], kj, true, j-1
		case bytes.Compare(x, mn) < 0:
			mn, lo, newMin = x, k, true
		case bytes.Compare(x, mx) > 0:
			mx, hi, newMax = x, k, true
		}
	}
	if newMin {
		b.mn = append(b.mn[:0], mn...)
	}
	if newMax {
		b.mx = append(b.mx[:0], mx...)
	}
	b.has = true
}

// key16 is a value's first 16 bytes, zero-padded, as two big-endian
// words: keys compare as the padded prefixes do.
type key16 struct{ hi, lo uint64 }

// insideRun returns the first of values [i, len(offs)-1) of data (as in
// encode.ByteArrays) whose padded 16-byte prefix (key16) is not
// strictly between lo and hi, or len(offs)-1 when there is none. It calls
// nothing, so that its loop keeps every variable in a register; the
// second word is read only for a value whose first word ties a bound's.
func insideRun(data []byte, offs []uint32, i int, lo, hi key16) int {
	for ; i+1 < len(offs); i++ {
		start, end := offs[i], offs[i+1]
		m := end - start
		k := word(data, start, m)
		if k > lo.hi && k < hi.hi {
			continue
		}
		if k < lo.hi || k > hi.hi {
			return i
		}
		// A tie on the first word: the second decides.
		var k2 uint64
		if m > 8 {
			k2 = word(data, start+8, m-8)
		}
		if (k > lo.hi || k2 > lo.lo) && (k < hi.hi || k2 < hi.lo) {
			continue
		}
		return i
	}
	return len(offs) - 1
}

// word returns the m bytes of data at start (their first 8 when m > 8),
// zero-padded and read big-endian: 0 for m = 0.
func word(data []byte, start, m uint32) uint64 {
	if m >= 8 {
		return binary.BigEndian.Uint64(data[start:])
	}
	if int(start)+8 <= len(data) {
		// The bytes after the value are masked off.
		return binary.BigEndian.Uint64(data[start:]) &^ (^uint64(0) >> (8 * m))
	}
	return prefixKey(data[start : start+m])
}

// beyondRun follows a run of values of data that rise (up) or fall
// (!up) strictly by their key16, from value i on, value i-1 having key k:
// it returns the first value past the run (len(offs)-1 at the end) and
// the key of the run's last value. It calls nothing, as insideRun.
func beyondRun(data []byte, offs []uint32, i int, k key16, up bool) (int, key16) {
	for ; i+1 < len(offs); i++ {
		start := offs[i]
		next := keyAt(data, start, offs[i+1]-start)
		if up && !k.less(next) || !up && !next.less(k) {
			break
		}
		k = next
	}
	return i, k
}

// less reports whether k orders before l.
func (k key16) less(l key16) bool { return k.hi < l.hi || k.hi == l.hi && k.lo < l.lo }

// keyAt returns the key16 of the m bytes of data at start.
func keyAt(data []byte, start, m uint32) key16 {
	k := key16{hi: word(data, start, m)}
	if m > 8 {
		k.lo = word(data, start+8, m-8)
	}
	return k
}

// prefixKey returns x's first 8 bytes, zero-padded, read big-endian.
func prefixKey(x []byte) uint64 {
	var w [8]byte
	copy(w[:], x)
	return binary.BigEndian.Uint64(w[:])
}

func (b *bytesBounds) appendTo(dst []byte, o orderKind) ([]byte, pageBounds) {
	pb := pageBounds{nans: b.nans}
	if !b.has && b.total && b.nans > 0 { // all NaN: the NaN bounds
		pb.ok, pb.minLen, pb.nanOnly = true, 2, true
		dst = binary.LittleEndian.AppendUint16(dst, b.nanMn)
		dst = binary.LittleEndian.AppendUint16(dst, b.nanMx)
	}
	if b.has {
		pb.ok = true
		pb.minLen = len(b.mn)
		start := len(dst)
		dst = append(dst, b.mn...)
		dst = append(dst, b.mx...)
		if o == orderFloat16 && !b.total { // type order: zero min is -0, zero max +0
			if u := binary.LittleEndian.Uint16(dst[start:]); u&0x7fff == 0 {
				binary.LittleEndian.PutUint16(dst[start:], 0x8000)
			}
			if u := binary.LittleEndian.Uint16(dst[start+2:]); u&0x7fff == 0 {
				binary.LittleEndian.PutUint16(dst[start+2:], 0)
			}
		}
	}
	b.has, b.nans = false, 0
	return dst, pb
}

type byteArrayValues struct {
	buf       *ByteArrayBuffer
	set       *colSettings
	page      encode.ByteArrays
	idx       []int32
	dict      bool
	d         encode.DictBytes
	bb        bytesBounds
	marks     pageMarks
	unencoded int64
	geo       *geo.Stats // GEOMETRY and GEOGRAPHY columns with statistics
	wkbCheck  geo.Stats  // checkValues' scratch for GEOMETRY and GEOGRAPHY values
	trial     bool       // fell back from the dictionary: the next page picks the encoding
}

func (v *byteArrayValues) buffered() int      { return v.buf.Values.Len() }
func (v *byteArrayValues) checkBuffer() error { return v.buf.Values.Err() }
func (v *byteArrayValues) clearBuffer()       { v.buf.Values.Reset() }
func (v *byteArrayValues) dictMode() bool     { return v.dict }
func (v *byteArrayValues) dictSize() int      { return v.d.Size() }

func (v *byteArrayValues) pageBytes() int {
	if v.dict {
		return len(v.idx)*encode.DictBitWidth(v.d.Len())/8 + 1
	}
	return v.page.PlainLen()
}

// sliceByteArrays returns values [from, to) of b, aliasing it.
func sliceByteArrays(b encode.ByteArrays, from, to int) encode.ByteArrays {
	if from == to {
		return encode.ByteArrays{}
	}
	return encode.ByteArrays{Data: b.Data, Offsets: b.Offsets[from : to+1]}
}

// appendByteArrays appends the values of src to dst.
func appendByteArrays(dst *encode.ByteArrays, src encode.ByteArrays) {
	n := src.Len()
	if n == 0 {
		return
	}
	dst.Offsets = pageOffs.grow(dst.Offsets, n+1)
	if len(dst.Offsets) == 0 {
		dst.Offsets = append(dst.Offsets, uint32(len(dst.Data)))
	}
	lo, hi := src.Offsets[0], src.Offsets[n]
	shift := uint32(len(dst.Data)) - lo
	dst.Data = append(pageData.grow(dst.Data, int(hi-lo)), src.Data[lo:hi]...)
	k := len(dst.Offsets)
	dst.Offsets = dst.Offsets[:k+n]
	out := dst.Offsets[k:]
	for i, o := range src.Offsets[1 : n+1] {
		out[i] = o + shift
	}
}

func (v *byteArrayValues) take(from, to int) {
	src := sliceByteArrays(v.buf.Values, from, to)
	n := src.Len()
	if n == 0 {
		return
	}
	v.unencoded += int64(src.Offsets[n] - src.Offsets[0])
	if v.geo != nil {
		for i := range n {
			// EndRows refused bytes that are not WKB (checkValues); were
			// one to reach here, the chunk would get no statistics.
			_ = v.geo.Add(src.At(i))
		}
	}
	stats := v.set.stats && v.set.order != orderNone
	f := v.set.bloom
	if v.dict {
		before, n0 := v.d.Len(), len(v.idx)
		idx, added, full := v.d.InsertByteArrays(pageIdx.grow(v.idx, n), src)
		v.idx = idx
		switch {
		case !stats:
		case v.set.order == orderBytes:
			// The values themselves, read in order with most
			// skipped by their first byte, cost less than the
			// entries they name, scattered over the dictionary.
			v.bb.addBytes(sliceByteArrays(src, 0, added))
		default:
			v.marks.addBounds(&v.bb, v.set.order, v.d.Values(), idx[n0:])
		}
		if f != nil {
			// Only the values new to the dictionary need hashing: the
			// filter and the dictionary both cover exactly the chunk.
			hashByteArrays(f, v.d.Values(), before, v.d.Len())
		}
		if !full {
			return
		}
		v.fallback()
		src = sliceByteArrays(src, added, n)
	}
	if stats {
		if v.set.order == orderBytes {
			v.bb.addBytes(src)
		} else {
			for i := range src.Len() {
				v.bb.add(v.set.order, src.At(i))
			}
		}
	}
	if f != nil {
		hashByteArrays(f, src, 0, src.Len())
	}
	appendByteArrays(&v.page, src)
}

func (v *byteArrayValues) release() {
	pageData.put(v.page.Data)
	pageOffs.put(v.page.Offsets)
	pageIdx.put(v.idx)
	v.page, v.idx = encode.ByteArrays{}, nil
	v.d.Release()
}

// fallback ends dictionary encoding for the rest of the chunk: the open
// page's indices are turned back into values.
func (v *byteArrayValues) fallback() {
	v.dict = false
	v.trial = v.set.autoEnc
	// The page's buffers grow through their pools, to the open page's
	// value bytes (v.unencoded: the values gathered and those of the
	// batch left to append), instead of by append in the gathering, to
	// sizes that went back a class below and were grown again by the
	// next writer.
	v.page.Data = pageData.grow(v.page.Data, int(v.unencoded))
	v.page.Offsets = pageOffs.grow(v.page.Offsets, len(v.idx)+1)
	page, err := encode.GatherByteArrays(v.page, v.d.Values(), v.idx)
	if err != nil {
		panic("runtime: gathering our own dictionary: " + err.Error())
	}
	v.page = page
	v.idx = v.idx[:0]
}

// fallbackEnc picks the encoding of a text chunk (colSettings.text)
// falling back from its dictionary or written without one, when no
// encoding was configured, from the values of its first page after the
// fallback (at most encTrialValues values and about encTrialBytes bytes of
// it): PLAIN, DELTA_LENGTH_BYTE_ARRAY (lengths apart from
// the bytes, which a codec then finds alike) or DELTA_BYTE_ARRAY (each
// value's prefix shared with the previous one left out), by trial (see
// trialPick).
//
// The trials are encoded after the bytes of dst, as for numbers
// (numValues.fallbackEnc), which it returns grown.
func (v *byteArrayValues) fallbackEnc(dst []byte) []byte {
	v.trial = false
	if v.page.Len() < 2 || !v.set.text || v.set.plainFallback {
		return dst
	}
	if v.set.reusePick() {
		return dst
	}
	n := min(v.page.Len(), encTrialValues)
	offs := v.page.Offsets
	for n > 2 && offs[n]-offs[0] > encTrialBytes {
		n /= 2
	}
	sample := sliceByteArrays(v.page, 0, n)
	base := len(dst)
	all := encode.AppendPlainByteArray(dst, sample)
	m := len(all)
	all = encode.AppendDeltaLengthByteArray(all, sample)
	k := len(all)
	all = encode.AppendDeltaByteArray(all, sample)
	v.set.enc = v.set.trialPick([]encTrial{
		{meta.EncodingPlain, all[base:m]},
		{meta.EncodingDeltaLengthByteArray, all[m:k]},
		{meta.EncodingDeltaByteArray, all[k:]},
	}, all[len(all):])
	v.set.recordPick()
	return all[:base]
}

func (v *byteArrayValues) abandonDict(j dictJudging) bool {
	if !v.dict {
		return false
	}
	// v.unencoded holds the open page's value bytes until bounds is called.
	picked := false // altBeatsDict picked the encoding
	switch j.judge(dictSizes{len(v.idx), v.d.Len(), v.d.Size(), int(v.unencoded) + 4*len(v.idx)}) {
	case dictKept:
		return false
	case dictBeatsPlain:
		if !v.altBeatsDict() {
			return false
		}
		picked = true
	}
	v.fallback()
	v.trial = v.trial && !picked
	v.d.Reset()
	v.d.Limits = v.set.dictLimit
	return true
}

// altBeatsDict is numValues.altBeatsDict for text: PLAIN,
// DELTA_LENGTH_BYTE_ARRAY and DELTA_BYTE_ARRAY (which fallbackEnc tries)
// against the dictionary, after the codec, on the page's first values (at
// most about dictAltBytes of them). Sorted or clustered strings with
// repeats (e-mail addresses, URLs, timestamps as text, each a few times in
// a row) beat PLAIN with a dictionary but share long prefixes with their
// neighbours, which DELTA_BYTE_ARRAY drops: such columns took 9 to 23
// times the bytes with their dictionaries. When the dictionary is dropped,
// the chunk takes the encoding that won (the sample is larger than
// fallbackEnc's).
//
// The values are gathered, encoded and compressed only when, on the first
// dictAltScreenValues values and before the codec, the least the
// alternatives can take (the values' bytes, or the suffixes
// DELTA_BYTE_ARRAY keeps) is under dictAltScreen times the dictionary's
// cost: a text page's compressions cost as much as a page's.
func (v *byteArrayValues) altBeatsDict() bool {
	if !v.set.autoEnc || !v.set.text || len(v.idx) < minDictJudge || !v.set.altRuns.due() {
		return false
	}
	dv := v.d.Values()
	lead := v.idx[:min(len(v.idx), dictAltScreenValues)]
	total, suffixes := encode.GatheredLens(dv, lead)
	entries := sliceByteArrays(dv, 0, int(slices.Max(lead))+1)
	buf := encode.AppendDictIndices(growBuf(&poolU8, nil, 5*len(lead)+16), lead, encode.DictBitWidth(entries.Len()))
	defer func() { poolU8.Put(buf) }()
	if float64(min(total, suffixes)) >= dictAltScreen*dictCost(entries.PlainLen(), len(buf), lead) {
		return false
	}
	n, total := altSample(dv, v.idx)
	if n < minDictJudge {
		return false
	}
	idx := v.idx[:n]
	entries = sliceByteArrays(dv, 0, int(slices.Max(idx))+1)
	vals, err := encode.GatherByteArrays(encode.ByteArrays{Data: growBuf(&poolU8, nil, total), Offsets: growBuf(&poolU32, nil, n+1)}, dv, idx)
	defer func() { poolU8.Put(vals.Data); poolU32.Put(vals.Offsets) }()
	if err != nil {
		return false
	}
	buf = encode.AppendDictIndices(growBuf(&poolU8, buf[:0], entries.PlainLen()+3*total+21*n+16), idx, encode.DictBitWidth(entries.Len()))
	i := len(buf)
	buf = encode.AppendPlainByteArray(buf, entries)
	p := len(buf)
	buf = encode.AppendPlainByteArray(buf, vals)
	l := len(buf)
	buf = encode.AppendDeltaLengthByteArray(buf, vals)
	k := len(buf)
	buf = encode.AppendDeltaByteArray(buf, vals)
	win, ok := v.set.beatsDict(buf[i:p], buf[:i], idx, []encTrial{
		{meta.EncodingPlain, buf[p:l]},
		{meta.EncodingDeltaLengthByteArray, buf[l:k]},
		{meta.EncodingDeltaByteArray, buf[k:]},
	})
	if ok {
		v.set.enc = win
	}
	v.set.altRuns.verdict(!ok)
	return ok
}

// altSample returns the size of altBeatsDict's sample of the values idx
// names in dict and their bytes: the first dictJudgeValues values (or all),
// halved while their bytes exceed dictAltBytes, down to minDictJudge
// values (0 when even those exceed it). One pass counts the bytes of every
// candidate size.
func altSample(dict encode.ByteArrays, idx []int32) (n, total int) {
	var sizes, bytesAt [8]int // n, n/2, ...: 4 at most (8,192 down to 1,024)
	k := 0
	for m := min(len(idx), dictJudgeValues); m >= minDictJudge && k < len(sizes); m /= 2 {
		sizes[k] = m
		k++
	}
	if k == 0 {
		return 0, 0
	}
	j := k - 1 // the smallest size not reached yet
	for i, e := range idx[:sizes[0]] {
		total += int(dict.Offsets[e+1] - dict.Offsets[e])
		if j >= 0 && i+1 == sizes[j] {
			bytesAt[j] = total
			j--
		}
	}
	for j = 0; j < k; j++ {
		if bytesAt[j] <= dictAltBytes {
			return sizes[j], bytesAt[j]
		}
	}
	return 0, 0
}

// dictAltBytes bounds the value bytes of the sample altBeatsDict weighs a
// text chunk's dictionary on. dictAltScreen is how many times the
// dictionary's cost, before the codec, the least the alternatives can take
// may be, on the first dictAltScreenValues values, for them to be encoded
// and compressed: for sorted e-mail addresses (each twice) that least was
// 0.91 times the dictionary's cost, for timestamps as text (each three
// times) 0.12, and DELTA_BYTE_ARRAY then took a twentieth and a tenth of
// the dictionary's bytes after zstd; for columns of 20 to 1,000 short keys
// in random order, whose dictionaries win, 1.81 to 2.04, screened out (on
// 2,048 values, 1,000 keys measured 1.10; on 8,192, 2.17).
const (
	dictAltBytes        = 256 << 10
	dictAltScreen       = 1.5
	dictAltScreenValues = 4096
)

// hashByteArrays inserts values [from, to) of b into f.
func hashByteArrays(f *bloom.Filter, b encode.ByteArrays, from, to int) {
	for i := from; i < to; i++ {
		f.Insert(bloom.HashBytes(b.Data[b.Offsets[i]:b.Offsets[i+1]]))
	}
}

func (v *byteArrayValues) encodePage(dst []byte) ([]byte, meta.Encoding) {
	if v.dict {
		dst = encode.AppendDictIndices(dst, v.idx, encode.DictBitWidth(v.d.Len()))
		v.idx = v.idx[:0]
		return dst, meta.EncodingRLEDictionary
	}
	if v.trial {
		dst = v.fallbackEnc(dst)
	}
	switch v.set.enc {
	case meta.EncodingDeltaLengthByteArray:
		dst = encode.AppendDeltaLengthByteArray(dst, v.page)
	case meta.EncodingDeltaByteArray:
		dst = encode.AppendDeltaByteArray(dst, v.page)
	default:
		dst = encode.AppendPlainByteArray(dst, v.page)
	}
	v.page.Reset()
	return dst, v.set.enc
}

func (v *byteArrayValues) bounds(dst []byte) ([]byte, pageBounds) {
	v.marks.next()
	dst, b := v.bb.appendTo(dst, v.set.order)
	b.unencodedBA, v.unencoded = v.unencoded, 0
	return dst, b
}

func (v *byteArrayValues) dictPage(dst []byte) ([]byte, int) {
	return v.d.AppendPlain(dst), v.d.Len()
}

func (v *byteArrayValues) resetChunk(dict bool) {
	if v.geo != nil {
		v.geo.Reset()
	}
	v.dict = dict
	v.set.enc = v.set.baseEnc
	v.trial = v.set.autoEnc && !dict // no dictionary: the first page picks the encoding
	v.d.Reset()
	v.marks.next()
	v.d.Limits = v.set.dictLimit
	v.idx = v.idx[:0]
	v.page.Reset()
}

// fixedValues handles FIXED_LEN_BYTE_ARRAY (size bytes per value) and, with
// size 12 and int96 set, INT96.
type fixedValues struct {
	buf   *FixedBuffer
	i96   *Int96Buffer
	size  int
	set   *colSettings
	page  []byte
	idx   []int32
	dict  bool
	d     encode.DictBytes
	bb    bytesBounds
	marks pageMarks
	plain []byte
}

func (v *fixedValues) buffered() int {
	if v.i96 != nil {
		return len(v.i96.Values)
	}
	return len(v.buf.Values) / v.size
}

func (v *fixedValues) checkBuffer() error {
	if v.i96 != nil {
		return nil
	}
	if v.buf.Size != v.size {
		return errFixedSize(v.buf.Size, v.size)
	}
	if len(v.buf.Values)%v.size != 0 {
		return errFixedLen(len(v.buf.Values), v.size)
	}
	return nil
}

// release gives the dictionary's memory to encode's pools (a closed
// writer's, which uses it no more).
func (v *fixedValues) release() { v.d.Release() }

func (v *fixedValues) clearBuffer() {
	if v.i96 != nil {
		v.i96.Values = v.i96.Values[:0]
		return
	}
	v.buf.Values = v.buf.Values[:0]
}

func (v *fixedValues) dictMode() bool { return v.dict }
func (v *fixedValues) dictSize() int  { return v.d.Size() }

func (v *fixedValues) pageBytes() int {
	if v.dict {
		return len(v.idx)*encode.DictBitWidth(v.d.Len())/8 + 1
	}
	return len(v.page)
}

func (v *fixedValues) take(from, to int) {
	var src []byte
	if v.i96 != nil {
		v.plain = encode.AppendPlainInt96(v.plain[:0], v.i96.Values[from:to])
		src = v.plain
	} else {
		src = v.buf.Values[from*v.size : to*v.size]
	}
	if len(src) == 0 {
		return
	}
	stats := v.set.stats && v.set.order != orderNone
	f := v.set.bloom
	if v.dict {
		before, n0 := v.d.Len(), len(v.idx)
		idx, added, full := v.d.InsertFixed(v.idx, src, v.size)
		v.idx = idx
		if stats {
			if v.set.order == orderFloat16 {
				// NaNs are counted per value, not per distinct value.
				for i := 0; i < added*v.size; i += v.size {
					v.bb.add(v.set.order, src[i:i+v.size])
				}
			} else {
				v.marks.addBounds(&v.bb, v.set.order, v.d.Values(), idx[n0:])
			}
		}
		if f != nil {
			// Only the values new to the dictionary need hashing, as
			// for BYTE_ARRAY.
			hashByteArrays(f, v.d.Values(), before, v.d.Len())
		}
		if !full {
			return
		}
		v.fallback()
		src = src[added*v.size:]
	}
	if stats {
		for i := 0; i < len(src); i += v.size {
			v.bb.add(v.set.order, src[i:i+v.size])
		}
	}
	if f != nil {
		for i := 0; i < len(src); i += v.size {
			f.Insert(bloom.HashBytes(src[i : i+v.size]))
		}
	}
	v.page = append(v.page, src...)
}

func (v *fixedValues) encodePage(dst []byte) ([]byte, meta.Encoding) {
	if v.dict {
		dst = encode.AppendDictIndices(dst, v.idx, encode.DictBitWidth(v.d.Len()))
		v.idx = v.idx[:0]
		return dst, meta.EncodingRLEDictionary
	}
	switch v.set.enc {
	case meta.EncodingDeltaByteArray:
		dst = encode.AppendDeltaByteArrayFixed(dst, v.page, v.size)
	case meta.EncodingByteStreamSplit:
		dst = encode.AppendByteStreamSplitFixed(dst, v.page, v.size)
	default:
		dst = encode.AppendPlainFixed(dst, v.page)
	}
	v.page = v.page[:0]
	return dst, v.set.enc
}

func (v *fixedValues) bounds(dst []byte) ([]byte, pageBounds) {
	v.marks.next()
	return v.bb.appendTo(dst, v.set.order)
}

func (v *fixedValues) dictPage(dst []byte) ([]byte, int) {
	return v.d.AppendPlain(dst), v.d.Len()
}

// abandonDict judges a FIXED_LEN_BYTE_ARRAY chunk's dictionary (INT96
// columns have none) as byteArrayValues.abandonDict does, against PLAIN
// only: UUIDs, hashes and decimals that rarely repeat drop it (early, when
// hopeless), instead of growing it to the dictionary limits with an index
// per value on top of every value's bytes.
func (v *fixedValues) abandonDict(j dictJudging) bool {
	if !v.dict || j.judge(dictSizes{len(v.idx), v.d.Len(), v.d.Size(), len(v.idx) * v.size}) != dictDropped {
		return false
	}
	v.fallback()
	v.d.Reset()
	v.d.Limits = v.set.dictLimit
	return true
}

// fallback ends dictionary encoding for the rest of the chunk: the open
// page's indices are turned back into values.
func (v *fixedValues) fallback() {
	v.dict = false
	page, err := encode.GatherFixed(v.page[:0], v.d.Values().Data, v.size, v.idx)
	if err != nil {
		panic("runtime: gathering our own dictionary: " + err.Error())
	}
	v.page = page
	v.idx = v.idx[:0]
}

func (v *fixedValues) resetChunk(dict bool) {
	v.dict = dict
	v.d.Reset()
	v.marks.next()
	v.d.Limits = v.set.dictLimit
	v.idx = v.idx[:0]
	v.page = v.page[:0]
}
