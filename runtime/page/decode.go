// Page bodies: decompression, repetition and definition levels and values
// in every encoding, for data pages v1 and v2 and dictionary pages. See
// https://parquet.apache.org/docs/file-format/data-pages/ (layout),
// https://parquet.apache.org/docs/file-format/data-pages/encodings/
// (encodings) and https://parquet.apache.org/docs/file-format/nestedencoding/
// (levels).

package page

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math/bits"
	"slices"
	"sync/atomic"

	"github.com/pqgen/pqgen/runtime/compress"
	"github.com/pqgen/pqgen/runtime/encode"
	"github.com/pqgen/pqgen/runtime/internal/swar"
	"github.com/pqgen/pqgen/runtime/meta"
)

// Decoder decodes the pages of one column chunk. It keeps the chunk's
// dictionary and scratch buffers, so that decoding a page allocates
// nothing in steady state. The zero value is not usable; see NewDecoder.
type Decoder struct {
	col Column
	lim Limits

	dict      Values
	dictLen   int
	dictMax   uint64 // the longest entry of a BYTE_ARRAY dictionary, in bytes
	hasDict   bool
	dictID    uint64
	lazyBytes bool

	buf     []byte // decompressed page (or values section)
	idx     []int32
	scratch encode.ByteArrays
}

// dictSeq numbers dictionaries, and the values of BYTE_ARRAY pages that
// were not dictionary-encoded (Page.BytesID), across decoders; only
// equality matters.
var dictSeq atomic.Uint64

// NewDecoder returns a decoder for the pages of col.
func NewDecoder(col Column, lim Limits) *Decoder {
	d := &Decoder{}
	d.Reset(col, lim)
	return d
}

// Reset prepares d for another column chunk, forgetting its dictionary.
func (d *Decoder) Reset(col Column, lim Limits) {
	d.col = col
	d.lim = lim.norm()
	d.hasDict = false
	d.dictLen = 0
}

// Column returns the column d decodes.
func (d *Decoder) Column() Column { return d.col }

// HasDictionary reports whether a dictionary page has been decoded.
func (d *Decoder) HasDictionary() bool { return d.hasDict }

// Dictionary returns the decoded dictionary values (valid until the next
// dictionary page or Reset) and the number of entries.
func (d *Decoder) Dictionary() (*Values, int) { return &d.dict, d.dictLen }

// valueSize returns the byte width of fixed-size physical types (0 for
// BOOLEAN and BYTE_ARRAY).
func valueSize(t meta.Type, typeLength int) int {
	switch t {
	case meta.Int32, meta.Float:
		return 4
	case meta.Int64, meta.Double:
		return 8
	case meta.Int96:
		return 12
	case meta.FixedLenByteArray:
		return typeLength
	}
	return 0
}

func (d *Decoder) checkColumn() error {
	switch d.col.Type {
	case meta.Boolean, meta.Int32, meta.Int64, meta.Int96, meta.Float, meta.Double, meta.ByteArray:
	case meta.FixedLenByteArray:
		if d.col.TypeLength <= 0 {
			return fmt.Errorf("%w: FIXED_LEN_BYTE_ARRAY of length %d", ErrCorrupt, d.col.TypeLength)
		}
	default:
		return fmt.Errorf("%w: physical type %d", ErrUnsupported, d.col.Type)
	}
	return nil
}

// decompress returns the uncompressed form of src, whose declared size is
// size: src itself for UNCOMPRESSED, else d.buf.
func (d *Decoder) decompress(src []byte, size int, compressed bool) ([]byte, error) {
	if !compressed || d.col.Codec == meta.Uncompressed {
		if len(src) != size {
			return nil, fmt.Errorf("%w: %d stored bytes but an uncompressed size of %d", ErrCorrupt, len(src), size)
		}
		return src, nil
	}
	if len(src) == 0 {
		// Never hand an empty section to a codec (an empty v2 values
		// section is legal).
		if size != 0 {
			return nil, fmt.Errorf("%w: empty compressed section declares %d uncompressed bytes", ErrCorrupt, size)
		}
		return src, nil
	}
	out, err := compress.Decompress(d.buf[:0], src, d.col.Codec, size)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrCorrupt, err)
	}
	d.buf = out
	return out, nil
}

// DecodeDictionaryPage decodes a dictionary page whose stored (compressed)
// body is body and makes it the dictionary of the following data pages.
func (d *Decoder) DecodeDictionaryPage(h *meta.PageHeader, body []byte) error {
	if err := d.checkColumn(); err != nil {
		return err
	}
	dh := h.DictionaryPageHeader
	if h.Type != meta.DictionaryPage || dh == nil {
		return fmt.Errorf("%w: not a dictionary page", ErrHeader)
	}
	if err := CheckHeader(h, int64(len(body)), d.lim); err != nil {
		return err
	}
	switch dh.Encoding {
	case meta.EncodingPlain, meta.EncodingPlainDictionary:
	default:
		return fmt.Errorf("%w: dictionary page encoding %s", ErrUnsupported, dh.Encoding.String())
	}
	data, err := d.decompress(body, int(h.UncompressedPageSize), true)
	if err != nil {
		return err
	}
	n := int(dh.NumValues)
	d.hasDict = false
	if err := decodePlain(&d.dict, d.col.Type, d.col.TypeLength, data, n); err != nil {
		return fmt.Errorf("dictionary of %d values: %w", n, err)
	}
	d.dictLen = n
	d.dictMax = 0
	if d.col.Type == meta.ByteArray {
		d.dictMax = maxEntry(d.dict.Bytes.Offsets)
	}
	d.hasDict = true
	d.dictID = dictSeq.Add(1)
	return nil
}

// maxEntry returns the length of the longest value whose offsets are offs
// (ascending, as decodePlain makes them).
func maxEntry(offs []uint32) uint64 {
	var m uint32
	for i := 1; i < len(offs); i++ {
		m = max(m, offs[i]-offs[i-1])
	}
	return uint64(m)
}

// DecodeDataPage decodes a DATA_PAGE or DATA_PAGE_V2 whose stored bytes
// (after the header) are body into p, reusing p's buffers.
func (d *Decoder) DecodeDataPage(h *meta.PageHeader, body []byte, p *Page) error {
	if err := d.checkColumn(); err != nil {
		return err
	}
	if err := CheckHeader(h, int64(len(body)), d.lim); err != nil {
		return err
	}
	if len(body) != int(h.CompressedPageSize) {
		return fmt.Errorf("%w: %d body bytes for a compressed page size of %d", ErrCorrupt, len(body), h.CompressedPageSize)
	}
	p.Header = h
	p.Dict = false
	p.DictBytes = nil
	p.BytesID = 0
	if p.KeepBytes {
		p.Values.Bytes.Data, p.KeepBytes = nil, false
	}
	p.WideDeltas = false
	p.V2Compressed = false
	p.RLEIntegers = false
	p.EmptyValues = false
	p.Indices = p.Indices[:0]
	var (
		n    int
		enc  meta.Encoding
		vals []byte
		err  error
	)
	maxDef, maxRep := d.col.MaxDef, d.col.MaxRep
	switch h.Type {
	case meta.DataPage:
		dp := h.DataPageHeader
		n, enc = int(dp.NumValues), dp.Encoding
		data, err := d.decompress(body, int(h.UncompressedPageSize), true)
		if err != nil {
			return err
		}
		pos := 0
		p.Rep, pos, err = levelsV1(p.Rep[:0], data, pos, maxRep, n, dp.RepetitionLevelEncoding, "repetition")
		if err != nil {
			return err
		}
		p.Def, pos, err = levelsV1(p.Def[:0], data, pos, maxDef, n, dp.DefinitionLevelEncoding, "definition")
		if err != nil {
			return err
		}
		vals = data[pos:]
	case meta.DataPageV2:
		v2 := h.DataPageHeaderV2
		n, enc = int(v2.NumValues), v2.Encoding
		rl, dl := int(v2.RepetitionLevelsByteLength), int(v2.DefinitionLevelsByteLength)
		p.Rep, err = levelsV2(p.Rep[:0], body[:rl], maxRep, n, "repetition")
		if err != nil {
			return err
		}
		p.Def, err = levelsV2(p.Def[:0], body[rl:rl+dl], maxDef, n, "definition")
		if err != nil {
			return err
		}
		compressed := v2.Compressed()
		if !compressed && d.col.V2AlwaysCompressed && d.col.Codec != meta.Uncompressed && len(body) > rl+dl {
			compressed, p.V2Compressed = true, true
		}
		vals, err = d.decompress(body[rl+dl:], int(h.UncompressedPageSize)-rl-dl, compressed)
		if err != nil {
			return err
		}
	default:
		return fmt.Errorf("%w: page type %d is not a data page", ErrHeader, h.Type)
	}
	p.NumValues = n
	nn := n
	if maxDef > 0 {
		nn = 0
		for _, l := range p.Def {
			if l == maxDef {
				nn++
			}
		}
	}
	// num_nulls of a v2 header is informative only: the levels are
	// authoritative.
	if err := d.decodeValues(p, enc, vals, nn); err != nil {
		return err
	}
	if d.col.Type == meta.ByteArray && !p.Dict {
		p.BytesID = dictSeq.Add(1)
	}
	return nil
}

// levelsV1 decodes the levels of a v1 page starting at data[pos:].
func levelsV1(dst []uint8, data []byte, pos int, max uint8, n int, enc meta.Encoding, what string) ([]uint8, int, error) {
	if max == 0 {
		return dst[:0], pos, nil
	}
	w := bits.Len8(max)
	var (
		k   int
		err error
	)
	switch enc {
	case meta.EncodingRLE:
		dst, k, err = encode.DecodeRLELevelsPrefixed(dst, data[pos:], w, n)
	case meta.EncodingBitPacked:
		dst, k, err = encode.DecodeBitPackedLevels(dst, data[pos:], w, n)
	default:
		return dst[:0], pos, fmt.Errorf("%w: %s level encoding %s", ErrUnsupported, what, enc.String())
	}
	if err != nil {
		return dst[:0], pos, fmt.Errorf("%w: %s levels: %w", ErrCorrupt, what, err)
	}
	if err := checkLevels(dst, max, n, what); err != nil {
		return dst[:0], pos, err
	}
	return dst, pos + k, nil
}

// levelsV2 decodes the levels of a v2 page (RLE without length prefix).
func levelsV2(dst []uint8, data []byte, max uint8, n int, what string) ([]uint8, error) {
	if max == 0 {
		return dst[:0], nil
	}
	dst, _, err := encode.DecodeRLELevels(dst, data, bits.Len8(max), n)
	if err != nil {
		return dst[:0], fmt.Errorf("%w: %s levels: %w", ErrCorrupt, what, err)
	}
	if err := checkLevels(dst, max, n, what); err != nil {
		return dst[:0], err
	}
	return dst, nil
}

func checkLevels(l []uint8, max uint8, n int, what string) error {
	if len(l) != n {
		return fmt.Errorf("%w: %d %s levels decoded, num_values is %d", ErrCorrupt, len(l), what, n)
	}
	if !swar.AnyAbove(l, max) {
		return nil
	}
	for i, v := range l {
		if v > max {
			return fmt.Errorf("%w: %s level %d at slot %d exceeds the maximum %d", ErrCorrupt, what, v, i, max)
		}
	}
	return nil
}

// The encodings of no values in the encodings whose values start with a
// header, which an empty values section of a page without non-null
// values stands for (Page.EmptyValues).
var (
	// A DELTA_BINARY_PACKED header: blocks of 128 values in 4 miniblocks,
	// 0 values, first value 0.
	noDeltaValues = []byte{0x80, 0x01, 0x04, 0x00, 0x00}
	// DELTA_BYTE_ARRAY: no prefix lengths, then no suffixes (their
	// DELTA_LENGTH_BYTE_ARRAY lengths).
	noDeltaByteArrays = []byte{0x80, 0x01, 0x04, 0x00, 0x00, 0x80, 0x01, 0x04, 0x00, 0x00}
	// RLE values: a length prefix of 0.
	noRLEValues = []byte{0, 0, 0, 0}
)

// noValues returns the encoding of no values in enc, or nil when enc's
// encoding of no values is empty (PLAIN, BYTE_STREAM_SPLIT, the
// dictionary encodings, ALP) or enc is not known.
func noValues(enc meta.Encoding) []byte {
	switch enc {
	case meta.EncodingDeltaBinaryPacked, meta.EncodingDeltaLengthByteArray:
		return noDeltaValues
	case meta.EncodingDeltaByteArray:
		return noDeltaByteArrays
	case meta.EncodingRLE:
		return noRLEValues
	}
	return nil
}

// decodeValues decodes nn non-null values of encoding enc from src.
func (d *Decoder) decodeValues(p *Page, enc meta.Encoding, src []byte, nn int) error {
	t, size := d.col.Type, d.col.TypeLength
	v := &p.Values
	if nn == 0 && len(src) == 0 {
		if none := noValues(enc); none != nil {
			src, p.EmptyValues = none, true
		}
	}
	switch enc {
	case meta.EncodingPlain:
		if err := decodePlain(v, t, size, src, nn); err != nil {
			return err
		}
		return nil
	case meta.EncodingPlainDictionary, meta.EncodingRLEDictionary:
		return d.decodeDict(p, src, nn)
	case meta.EncodingRLE:
		if t == meta.Int32 || t == meta.Int64 {
			return d.decodeRLEIntegers(p, src, nn)
		}
		if t != meta.Boolean {
			return fmt.Errorf("%w: RLE encoding for %s values", ErrUnsupported, t.String())
		}
		out, _, err := encode.DecodeRLEBool(v.Bool, src, nn)
		v.Bool = out
		if err != nil {
			return fmt.Errorf("%w: RLE booleans: %w", ErrCorrupt, err)
		}
		return countCheck(len(out), nn, "RLE")
	case meta.EncodingDeltaBinaryPacked:
		if err := deltaCountCheck(src, nn, "DELTA_BINARY_PACKED"); err != nil {
			return err
		}
		var err error
		var got int
		switch t {
		case meta.Int32:
			v.Int32, _, p.WideDeltas, err = encode.DecodeDeltaInt32Wide(v.Int32, src)
			got = len(v.Int32)
			if got > nn {
				v.Int32 = v.Int32[:nn]
			}
		case meta.Int64:
			v.Int64, _, err = encode.DecodeDeltaInt64(v.Int64, src)
			got = len(v.Int64)
			if got > nn {
				v.Int64 = v.Int64[:nn]
			}
		default:
			return fmt.Errorf("%w: DELTA_BINARY_PACKED for %s values", ErrUnsupported, t.String())
		}
		if err != nil {
			return fmt.Errorf("%w: DELTA_BINARY_PACKED: %w", ErrCorrupt, err)
		}
		return countCheck(got, nn, "DELTA_BINARY_PACKED")
	case meta.EncodingDeltaLengthByteArray:
		if t != meta.ByteArray {
			return fmt.Errorf("%w: DELTA_LENGTH_BYTE_ARRAY for %s values", ErrUnsupported, t.String())
		}
		if err := deltaCountCheck(src, nn, "DELTA_LENGTH_BYTE_ARRAY"); err != nil {
			return err
		}
		out, _, err := encode.DecodeDeltaLengthByteArray(v.Bytes, src)
		v.Bytes = out
		if err != nil {
			return fmt.Errorf("%w: DELTA_LENGTH_BYTE_ARRAY: %w", ErrCorrupt, err)
		}
		return truncBytes(&v.Bytes, nn, "DELTA_LENGTH_BYTE_ARRAY")
	case meta.EncodingDeltaByteArray:
		switch t {
		case meta.ByteArray:
			// The decoder sizes the values before it allocates them, and
			// bounds them by MaxPageSize: no separate pass over the
			// prefix lengths (deltaByteArrayCheck) is needed.
			if err := deltaCountCheck(src, nn, "DELTA_BYTE_ARRAY"); err != nil {
				return err
			}
			out, _, err := encode.DecodeDeltaByteArrayBounded(v.Bytes, src, uint64(d.lim.MaxPageSize))
			v.Bytes = out
			if errors.Is(err, encode.ErrBound) {
				return fmt.Errorf("%w: DELTA_BYTE_ARRAY page expands above the limit of %d bytes (WithMaxPageSize): %w", ErrTooLarge, d.lim.MaxPageSize, err)
			}
			if err != nil {
				return fmt.Errorf("%w: DELTA_BYTE_ARRAY: %w", ErrCorrupt, err)
			}
			return truncBytes(&v.Bytes, nn, "DELTA_BYTE_ARRAY")
		case meta.FixedLenByteArray:
			if err := d.deltaByteArrayCheck(src, nn); err != nil {
				return err
			}
			out, _, err := encode.DecodeDeltaByteArrayFixed(v.Fixed, src, size, &d.scratch)
			v.Fixed = out
			if err != nil {
				return fmt.Errorf("%w: DELTA_BYTE_ARRAY: %w", ErrCorrupt, err)
			}
			got := len(out) / size
			if got > nn {
				v.Fixed = v.Fixed[:nn*size]
			}
			return countCheck(got, nn, "DELTA_BYTE_ARRAY")
		}
		return fmt.Errorf("%w: DELTA_BYTE_ARRAY for %s values", ErrUnsupported, t.String())
	case meta.EncodingByteStreamSplit:
		return decodeBSS(v, t, size, src, nn)
	case meta.EncodingALP:
		return decodeALP(v, t, src, nn)
	}
	return fmt.Errorf("%w: value encoding %s", ErrUnsupported, enc.String())
}

// decodeRLEIntegers decodes nn INT32 or INT64 values in the RLE
// encoding, as parquetjs writes them (Column.RLEBitWidth): a 4-byte
// length, then the hybrid at the column's width.
func (d *Decoder) decodeRLEIntegers(p *Page, src []byte, nn int) error {
	t, w := d.col.Type, d.col.RLEBitWidth
	if w < 1 || w > 32 {
		return fmt.Errorf("%w: RLE encoding for %s values (the column's type_length gives no bit width from 1 to 32)", ErrUnsupported, t.String())
	}
	v := &p.Values
	dst := v.Int32
	if t == meta.Int64 {
		dst = d.idx
	}
	out, _, err := encode.DecodeRLEInt32Prefixed(dst[:0], src, w, nn)
	if t == meta.Int64 {
		d.idx = out
		v.Int64 = slices.Grow(v.Int64[:0], len(out))[:len(out)]
		for i, x := range out {
			v.Int64[i] = int64(x)
		}
	} else {
		v.Int32 = out
	}
	if err != nil {
		return fmt.Errorf("%w: RLE %s values at bit width %d: %w", ErrCorrupt, t.String(), w, err)
	}
	p.RLEIntegers = true
	return countCheck(len(out), nn, "RLE")
}

func countCheck(got, want int, what string) error {
	if got < want {
		return fmt.Errorf("%w: %s: %d values decoded, the levels call for %d", ErrCorrupt, what, got, want)
	}
	return nil
}

func truncBytes(b *encode.ByteArrays, nn int, what string) error {
	got := b.Len()
	if err := countCheck(got, nn, what); err != nil {
		return err
	}
	if len(b.Offsets) == 0 {
		b.Offsets = append(b.Offsets, 0)
	}
	b.Offsets = b.Offsets[:nn+1]
	b.Data = b.Data[:b.Offsets[nn]]
	return nil
}

// deltaCountCheck reads the value count of the DELTA_BINARY_PACKED header
// at the start of src and rejects one above nn: zero-width miniblocks let
// a few bytes claim billions of values.
func deltaCountCheck(src []byte, nn int, what string) error {
	pos := 0
	var total uint64
	for range 3 {
		x, k := binary.Uvarint(src[pos:])
		if k <= 0 {
			return fmt.Errorf("%w: %s: malformed delta header: %w", ErrCorrupt, what, encode.ErrCorrupt)
		}
		pos += k
		total = x
	}
	if total > uint64(nn) {
		return fmt.Errorf("%w: %s: the delta header announces %d values, the levels call for %d", ErrCorrupt, what, total, nn)
	}
	return nil
}

// deltaByteArrayCheck bounds the bytes a DELTA_BYTE_ARRAY page expands to
// (shared prefixes are copied from the previous value) by MaxPageSize.
func (d *Decoder) deltaByteArrayCheck(src []byte, nn int) error {
	const what = "DELTA_BYTE_ARRAY"
	if err := deltaCountCheck(src, nn, what); err != nil {
		return err
	}
	pre, k, err := encode.DecodeDeltaInt32(d.idx[:0], src)
	d.idx = pre
	if err != nil {
		return fmt.Errorf("%w: %s prefix lengths: %w", ErrCorrupt, what, err)
	}
	var total uint64
	for _, p := range pre {
		total += uint64(uint32(p))
	}
	total += uint64(len(src) - k)
	if total > uint64(d.lim.MaxPageSize) {
		return fmt.Errorf("%w: %s page expands to %d bytes or more, above the limit of %d (WithMaxPageSize)", ErrTooLarge, what, total, d.lim.MaxPageSize)
	}
	return nil
}

// decodePlain decodes exactly n PLAIN values (trailing bytes are ignored).
func decodePlain(v *Values, t meta.Type, size int, src []byte, n int) error {
	var err error
	if sz := valueSize(t, size); sz > 0 {
		if uint64(len(src)) < uint64(n)*uint64(sz) {
			return fmt.Errorf("%w: PLAIN: %d values of %d bytes need %d bytes, %d present", ErrCorrupt, n, sz, uint64(n)*uint64(sz), len(src))
		}
		src = src[:n*sz]
	}
	switch t {
	case meta.Boolean:
		if len(src)*8 < n {
			return fmt.Errorf("%w: PLAIN: %d booleans need %d bytes, %d present", ErrCorrupt, n, (n+7)/8, len(src))
		}
		v.Bool, _, err = encode.DecodePlainBool(v.Bool, src, n)
	case meta.Int32:
		v.Int32, _, err = encode.DecodePlainInt32(v.Int32, src)
	case meta.Int64:
		v.Int64, _, err = encode.DecodePlainInt64(v.Int64, src)
	case meta.Int96:
		v.Int96, _, err = encode.DecodePlainInt96(v.Int96, src)
	case meta.Float:
		v.Float, _, err = encode.DecodePlainFloat(v.Float, src)
	case meta.Double:
		v.Double, _, err = encode.DecodePlainDouble(v.Double, src)
	case meta.FixedLenByteArray:
		v.Fixed, _, err = encode.DecodePlainFixed(v.Fixed, src, size)
	case meta.ByteArray:
		// Find the end of the n values, then decode exactly them.
		pos := 0
		for i := 0; i < n; i++ {
			if len(src)-pos < 4 {
				return fmt.Errorf("%w: PLAIN: byte array %d of %d: length at byte %d: %w", ErrCorrupt, i, n, pos, encode.ErrTruncated)
			}
			l := binary.LittleEndian.Uint32(src[pos:])
			if uint64(l) > uint64(len(src)-pos-4) {
				return fmt.Errorf("%w: PLAIN: byte array %d of %d: length %d exceeds the %d bytes left: %w", ErrCorrupt, i, n, l, len(src)-pos-4, encode.ErrLength)
			}
			pos += 4 + int(l)
		}
		v.Bytes, _, err = encode.DecodePlainByteArray(v.Bytes, src[:pos])
	default:
		return fmt.Errorf("%w: physical type %d", ErrUnsupported, t)
	}
	if err != nil {
		return fmt.Errorf("%w: PLAIN: %w", ErrCorrupt, err)
	}
	return nil
}

// decodeALP decodes an ALP page (FLOAT and DOUBLE only) of nn values. A
// page of nulls only may leave the ALP header out.
func decodeALP(v *Values, t meta.Type, src []byte, nn int) error {
	var err error
	if nn == 0 && len(src) == 0 && (t == meta.Float || t == meta.Double) {
		v.Float, v.Double = v.Float[:0], v.Double[:0]
		return nil
	}
	switch t {
	case meta.Float:
		v.Float, _, err = encode.DecodeALPFloat(v.Float, src, nn)
	case meta.Double:
		v.Double, _, err = encode.DecodeALPDouble(v.Double, src, nn)
	default:
		return fmt.Errorf("%w: ALP for %s values", ErrUnsupported, t.String())
	}
	if err != nil {
		return fmt.Errorf("%w: ALP: %w", ErrCorrupt, err)
	}
	return nil
}

func decodeBSS(v *Values, t meta.Type, size int, src []byte, nn int) error {
	sz := valueSize(t, size)
	if sz == 0 || t == meta.Int96 {
		return fmt.Errorf("%w: BYTE_STREAM_SPLIT for %s values", ErrUnsupported, t.String())
	}
	if uint64(len(src)) != uint64(nn)*uint64(sz) {
		return fmt.Errorf("%w: BYTE_STREAM_SPLIT: %d bytes for %d values of %d bytes", ErrCorrupt, len(src), nn, sz)
	}
	var err error
	switch t {
	case meta.Int32:
		v.Int32, _, err = encode.DecodeByteStreamSplitInt32(v.Int32, src)
	case meta.Int64:
		v.Int64, _, err = encode.DecodeByteStreamSplitInt64(v.Int64, src)
	case meta.Float:
		v.Float, _, err = encode.DecodeByteStreamSplitFloat(v.Float, src)
	case meta.Double:
		v.Double, _, err = encode.DecodeByteStreamSplitDouble(v.Double, src)
	case meta.FixedLenByteArray:
		v.Fixed, _, err = encode.DecodeByteStreamSplitFixed(v.Fixed, src, size)
	}
	if err != nil {
		return fmt.Errorf("%w: BYTE_STREAM_SPLIT: %w", ErrCorrupt, err)
	}
	return nil
}

// decodeDict decodes nn dictionary indices and resolves them.
func (d *Decoder) decodeDict(p *Page, src []byte, nn int) error {
	if !d.hasDict {
		return fmt.Errorf("%w: dictionary-encoded page without a dictionary page", ErrCorrupt)
	}
	idx, _, err := encode.DecodeDictIndices(p.Indices[:0], src, nn)
	p.Indices = idx
	if err != nil {
		return fmt.Errorf("%w: dictionary indices: %w", ErrCorrupt, err)
	}
	if len(idx) != nn {
		return fmt.Errorf("%w: %d dictionary indices decoded, the levels call for %d", ErrCorrupt, len(idx), nn)
	}
	v, dv := &p.Values, &d.dict
	if err := d.gatherCheck(idx); err != nil {
		return err
	}
	if d.lazyBytes && d.col.Type == meta.ByteArray {
		// gatherCheck has checked every index against the dictionary.
		v.Bytes.Data = v.Bytes.Data[:0]
		v.Bytes.Offsets = append(v.Bytes.Offsets[:0], 0)
		p.Dict = true
		p.DictID = d.dictID
		p.DictLen = d.dictLen
		p.DictBytes = &dv.Bytes
		return nil
	}
	switch d.col.Type {
	case meta.Boolean:
		v.Bool, err = encode.Gather(v.Bool, dv.Bool, idx)
	case meta.Int32:
		v.Int32, err = encode.Gather(v.Int32, dv.Int32, idx)
	case meta.Int64:
		v.Int64, err = encode.Gather(v.Int64, dv.Int64, idx)
	case meta.Int96:
		v.Int96, err = encode.Gather(v.Int96, dv.Int96, idx)
	case meta.Float:
		v.Float, err = encode.Gather(v.Float, dv.Float, idx)
	case meta.Double:
		v.Double, err = encode.Gather(v.Double, dv.Double, idx)
	case meta.ByteArray:
		v.Bytes, err = encode.GatherByteArrays(v.Bytes, dv.Bytes, idx)
	case meta.FixedLenByteArray:
		v.Fixed, err = encode.GatherFixed(v.Fixed, dv.Fixed, d.col.TypeLength, idx)
	}
	if err != nil {
		return fmt.Errorf("%w: %w", ErrCorrupt, err)
	}
	p.Dict = true
	p.DictID = d.dictID
	p.DictLen = d.dictLen
	return nil
}

// gatherCheck bounds the bytes the resolved values of a byte-array page
// take by MaxPageSize (a dictionary entry may be repeated many times) and,
// for BYTE_ARRAY, checks every index against the dictionary (the lazy
// path of decodeDict relies on it).
func (d *Decoder) gatherCheck(idx []int32) error {
	var total uint64
	switch d.col.Type {
	case meta.ByteArray:
		if uint64(len(idx))*d.dictMax <= uint64(d.lim.MaxPageSize) {
			// No choice of entries can exceed the bound: check the
			// indices only, without reading the dictionary's offsets at
			// random.
			var m uint32
			for _, i := range idx {
				m = max(m, uint32(i))
			}
			if uint64(m) < uint64(d.dictLen) {
				return nil
			}
		}
		offs := d.dict.Bytes.Offsets
		for j, i := range idx {
			if uint(i) >= uint(d.dictLen) {
				return fmt.Errorf("%w: index %d of %d-entry dictionary at position %d: %w", ErrCorrupt, i, d.dictLen, j, encode.ErrIndexRange)
			}
			total += uint64(offs[i+1] - offs[i])
		}
	case meta.FixedLenByteArray:
		total = uint64(len(idx)) * uint64(d.col.TypeLength)
	default:
		return nil
	}
	if total > uint64(d.lim.MaxPageSize) {
		return fmt.Errorf("%w: dictionary-encoded page expands to %d bytes, above the limit of %d (WithMaxPageSize)", ErrTooLarge, total, d.lim.MaxPageSize)
	}
	return nil
}
