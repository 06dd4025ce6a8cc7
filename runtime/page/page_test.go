package page

import (
	"bytes"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/pqgen/pqgen/runtime/compress"
	"github.com/pqgen/pqgen/runtime/encode"
	"github.com/pqgen/pqgen/runtime/meta"
)

// pageBytes returns the stored form of a page: header then body. When crc
// is true the header carries the CRC32 of the body.
func pageBytes(h meta.PageHeader, body []byte, crc bool) []byte {
	h.CompressedPageSize = int32(len(body))
	if crc {
		h.CRC = meta.Some(int32(crc32.ChecksumIEEE(body)))
	}
	return append(h.AppendThrift(nil), body...)
}

// v1 builds a DATA_PAGE v1 (levels RLE with length prefix) compressed
// with codec.
func v1(t testing.TB, codec meta.CompressionCodec, col Column, def, rep []uint8, enc meta.Encoding, values []byte) []byte {
	var raw []byte
	if col.MaxRep > 0 {
		raw = encode.AppendRLELevelsPrefixed(raw, rep, bitWidth(col.MaxRep))
	}
	if col.MaxDef > 0 {
		raw = encode.AppendRLELevelsPrefixed(raw, def, bitWidth(col.MaxDef))
	}
	raw = append(raw, values...)
	n := max(len(def), len(rep))
	body, err := compress.Compress(nil, raw, codec, 0)
	if err != nil {
		t.Fatal(err)
	}
	h := meta.PageHeader{Type: meta.DataPage, UncompressedPageSize: int32(len(raw)),
		DataPageHeader: &meta.DataPageHeader{NumValues: int32(n), Encoding: enc, DefinitionLevelEncoding: meta.EncodingRLE, RepetitionLevelEncoding: meta.EncodingRLE}}
	return pageBytes(h, body, true)
}

// v2 builds a DATA_PAGE_V2 whose values are compressed with codec when
// compressed is true.
func v2(t testing.TB, codec meta.CompressionCodec, col Column, def, rep []uint8, enc meta.Encoding, values []byte, compressed bool) []byte {
	var r, d []byte
	if col.MaxRep > 0 {
		r = encode.AppendRLELevels(nil, rep, bitWidth(col.MaxRep))
	}
	if col.MaxDef > 0 {
		d = encode.AppendRLELevels(nil, def, bitWidth(col.MaxDef))
	}
	vals := values
	if compressed && len(values) > 0 {
		var err error
		vals, err = compress.Compress(nil, values, codec, 0)
		if err != nil {
			t.Fatal(err)
		}
	}
	body := slices.Concat(r, d, vals)
	n := max(len(def), len(rep))
	nulls := 0
	for _, l := range def {
		if l < col.MaxDef {
			nulls++
		}
	}
	rows := n
	if col.MaxRep > 0 {
		rows = 0
		for _, l := range rep {
			if l == 0 {
				rows++
			}
		}
	}
	h := meta.PageHeader{Type: meta.DataPageV2, UncompressedPageSize: int32(len(r) + len(d) + len(values)),
		DataPageHeaderV2: &meta.DataPageHeaderV2{NumValues: int32(n), NumNulls: int32(nulls), NumRows: int32(rows), Encoding: enc,
			DefinitionLevelsByteLength: int32(len(d)), RepetitionLevelsByteLength: int32(len(r)), IsCompressed: meta.Some(compressed)}}
	return pageBytes(h, body, true)
}

func dictPage(t testing.TB, codec meta.CompressionCodec, n int, plain []byte) []byte {
	body, err := compress.Compress(nil, plain, codec, 0)
	if err != nil {
		t.Fatal(err)
	}
	h := meta.PageHeader{Type: meta.DictionaryPage, UncompressedPageSize: int32(len(plain)),
		DictionaryPageHeader: &meta.DictionaryPageHeader{NumValues: int32(n), Encoding: meta.EncodingPlain}}
	return pageBytes(h, body, true)
}

func bitWidth(m uint8) int {
	w := 0
	for m > 0 {
		w++
		m >>= 1
	}
	return w
}

// readChunk reads every page of chunk and returns the concatenated levels
// and values (rendered with fmt).
func readChunk(chunk []byte, col Column, opts ChunkOptions) (def, rep []uint8, vals string, err error) {
	var cr ChunkReader
	cr.Reset(bytes.NewReader(chunk), 0, int64(len(chunk)), col, opts)
	var all []string
	for {
		p, err := cr.Next()
		if err == io.EOF {
			return def, rep, fmt.Sprint(all), nil
		}
		if err != nil {
			return def, rep, "", err
		}
		def = append(def, p.Def...)
		rep = append(rep, p.Rep...)
		all = append(all, valuesString(p, col.Type))
	}
}

// valuesString renders the values of p, of type t, with fmt.
func valuesString(p *Page, t meta.Type) string {
	v := &p.Values
	switch t {
	case meta.Boolean:
		return fmt.Sprint(v.Bool)
	case meta.Int32:
		return fmt.Sprint(v.Int32)
	case meta.Int64:
		return fmt.Sprint(v.Int64)
	case meta.Int96:
		return fmt.Sprint(v.Int96)
	case meta.Float:
		return fmt.Sprint(v.Float)
	case meta.Double:
		return fmt.Sprint(v.Double)
	case meta.ByteArray:
		var s []string
		for i := range v.Bytes.Len() {
			s = append(s, string(v.Bytes.At(i)))
		}
		return fmt.Sprint(s)
	case meta.FixedLenByteArray:
		return fmt.Sprintf("%x", v.Fixed)
	}
	return ""
}

var codecs = []meta.CompressionCodec{meta.Uncompressed, meta.Snappy, meta.Gzip, meta.Brotli, meta.Zstd, meta.LZ4Raw}

// TestPagesAllEncodings decodes v1 and v2 pages of every encoding under
// every writable codec.
func TestPagesAllEncodings(t *testing.T) {
	optional := Column{Path: "c", MaxDef: 1}
	def := []uint8{1, 0, 1, 1, 0}
	i32 := []int32{7, -3, 1 << 30}
	i64 := []int64{7, -3, 1 << 60}
	f32 := []float32{1.5, float32(math.Inf(-1)), -0}
	f64 := []float64{1.5, math.Pi, -2}
	var ba encode.ByteArrays
	for _, s := range []string{"apple", "apricot", ""} {
		ba.AppendString(s)
	}
	fixed := []byte("aaaabbbbcccc")
	type tc struct {
		name  string
		typ   meta.Type
		size  int
		enc   meta.Encoding
		vals  []byte
		want  string
		dict  []byte // dictionary page (PLAIN) when enc is dictionary
		ndict int
	}
	cases := []tc{
		{"bool plain", meta.Boolean, 0, meta.EncodingPlain, encode.AppendPlainBool(nil, []bool{true, false, true}), "[[true false true]]", nil, 0},
		{"bool rle", meta.Boolean, 0, meta.EncodingRLE, encode.AppendRLEBool(nil, []bool{true, false, true}), "[[true false true]]", nil, 0},
		{"int32 plain", meta.Int32, 0, meta.EncodingPlain, encode.AppendPlainInt32(nil, i32), "[[7 -3 1073741824]]", nil, 0},
		{"int32 delta", meta.Int32, 0, meta.EncodingDeltaBinaryPacked, encode.AppendDeltaInt32(nil, i32), "[[7 -3 1073741824]]", nil, 0},
		{"int32 bss", meta.Int32, 0, meta.EncodingByteStreamSplit, encode.AppendByteStreamSplitInt32(nil, i32), "[[7 -3 1073741824]]", nil, 0},
		{"int32 dict", meta.Int32, 0, meta.EncodingRLEDictionary, encode.AppendDictIndices(nil, []int32{1, 0, 1}, 1), "[[-3 7 -3]]", encode.AppendPlainInt32(nil, []int32{7, -3}), 2},
		{"int32 plain_dictionary", meta.Int32, 0, meta.EncodingPlainDictionary, encode.AppendDictIndices(nil, []int32{1, 1, 0}, 1), "[[-3 -3 7]]", encode.AppendPlainInt32(nil, []int32{7, -3}), 2},
		{"int64 plain", meta.Int64, 0, meta.EncodingPlain, encode.AppendPlainInt64(nil, i64), "[[7 -3 1152921504606846976]]", nil, 0},
		{"int64 delta", meta.Int64, 0, meta.EncodingDeltaBinaryPacked, encode.AppendDeltaInt64(nil, i64), "[[7 -3 1152921504606846976]]", nil, 0},
		{"int64 bss", meta.Int64, 0, meta.EncodingByteStreamSplit, encode.AppendByteStreamSplitInt64(nil, i64), "[[7 -3 1152921504606846976]]", nil, 0},
		{"int96 plain", meta.Int96, 0, meta.EncodingPlain, encode.AppendPlainInt96(nil, []encode.Int96{{1}, {2}, {3}}), "[[[1 0 0 0 0 0 0 0 0 0 0 0] [2 0 0 0 0 0 0 0 0 0 0 0] [3 0 0 0 0 0 0 0 0 0 0 0]]]", nil, 0},
		{"float plain", meta.Float, 0, meta.EncodingPlain, encode.AppendPlainFloat(nil, f32), "[[1.5 -Inf 0]]", nil, 0},
		{"float bss", meta.Float, 0, meta.EncodingByteStreamSplit, encode.AppendByteStreamSplitFloat(nil, f32), "[[1.5 -Inf 0]]", nil, 0},
		{"double plain", meta.Double, 0, meta.EncodingPlain, encode.AppendPlainDouble(nil, f64), "[[1.5 3.141592653589793 -2]]", nil, 0},
		{"double bss", meta.Double, 0, meta.EncodingByteStreamSplit, encode.AppendByteStreamSplitDouble(nil, f64), "[[1.5 3.141592653589793 -2]]", nil, 0},
		{"float alp", meta.Float, 0, meta.EncodingALP, encode.AppendALPFloat(nil, f32), "[[1.5 -Inf 0]]", nil, 0},
		{"double alp", meta.Double, 0, meta.EncodingALP, encode.AppendALPDouble(nil, f64), "[[1.5 3.141592653589793 -2]]", nil, 0},
		{"double dict", meta.Double, 0, meta.EncodingRLEDictionary, encode.AppendDictIndices(nil, []int32{0, 0, 0}, 0), "[[2.5 2.5 2.5]]", encode.AppendPlainDouble(nil, []float64{2.5}), 1},
		{"bytes plain", meta.ByteArray, 0, meta.EncodingPlain, encode.AppendPlainByteArray(nil, ba), "[[apple apricot ]]", nil, 0},
		{"bytes delta length", meta.ByteArray, 0, meta.EncodingDeltaLengthByteArray, encode.AppendDeltaLengthByteArray(nil, ba), "[[apple apricot ]]", nil, 0},
		{"bytes delta", meta.ByteArray, 0, meta.EncodingDeltaByteArray, encode.AppendDeltaByteArray(nil, ba), "[[apple apricot ]]", nil, 0},
		{"bytes dict", meta.ByteArray, 0, meta.EncodingRLEDictionary, encode.AppendDictIndices(nil, []int32{2, 0, 1}, 2), "[[ apple apricot]]", encode.AppendPlainByteArray(nil, ba), 3},
		{"fixed plain", meta.FixedLenByteArray, 4, meta.EncodingPlain, encode.AppendPlainFixed(nil, fixed), "[616161616262626263636363]", nil, 0},
		{"fixed bss", meta.FixedLenByteArray, 4, meta.EncodingByteStreamSplit, encode.AppendByteStreamSplitFixed(nil, fixed, 4), "[616161616262626263636363]", nil, 0},
		{"fixed delta", meta.FixedLenByteArray, 4, meta.EncodingDeltaByteArray, encode.AppendDeltaByteArrayFixed(nil, fixed, 4), "[616161616262626263636363]", nil, 0},
		{"fixed dict", meta.FixedLenByteArray, 4, meta.EncodingRLEDictionary, encode.AppendDictIndices(nil, []int32{0, 0, 0}, 1), "[616161616161616161616161]", []byte("aaaabbbb"), 2},
	}
	for _, c := range cases {
		for _, codec := range codecs {
			for _, version := range []int{1, 2} {
				col := optional
				col.Type, col.TypeLength, col.Codec = c.typ, c.size, codec
				var chunk []byte
				if c.dict != nil {
					chunk = dictPage(t, codec, c.ndict, c.dict)
				}
				if version == 1 {
					chunk = append(chunk, v1(t, codec, col, def, nil, c.enc, c.vals)...)
				} else {
					chunk = append(chunk, v2(t, codec, col, def, nil, c.enc, c.vals, true)...)
				}
				gotDef, _, got, err := readChunk(chunk, col, ChunkOptions{VerifyCRC: true})
				if err != nil {
					t.Errorf("%s v%d %s: %v", c.name, version, codec.String(), err)
					continue
				}
				if got != c.want || !slices.Equal(gotDef, def) {
					t.Errorf("%s v%d %s: %s %v, want %s %v", c.name, version, codec.String(), got, gotDef, c.want, def)
				}
			}
		}
	}
}

// TestRepeatedLevels: a required-in-repeated column (max rep 1, max def 1)
// with v1 BIT_PACKED and RLE levels and a v2 page.
func TestRepeatedLevels(t *testing.T) {
	col := Column{Path: "l.list.element", Type: meta.Int32, MaxDef: 1, MaxRep: 1}
	def := []uint8{1, 1, 0, 1, 1}
	rep := []uint8{0, 1, 0, 0, 1}
	vals := encode.AppendPlainInt32(nil, []int32{1, 2, 3, 4})
	for _, chunk := range [][]byte{
		v1(t, meta.Uncompressed, col, def, rep, meta.EncodingPlain, vals),
		v2(t, meta.Uncompressed, col, def, rep, meta.EncodingPlain, vals, false),
	} {
		d, r, got, err := readChunk(chunk, col, ChunkOptions{})
		if err != nil || got != "[[1 2 3 4]]" || !slices.Equal(d, def) || !slices.Equal(r, rep) {
			t.Errorf("%v %v %s %v", d, r, got, err)
		}
	}
	// BIT_PACKED levels (deprecated), v1 only.
	raw := slices.Concat(encode.AppendBitPackedLevels(nil, rep, 1), encode.AppendBitPackedLevels(nil, def, 1), vals)
	h := meta.PageHeader{Type: meta.DataPage, UncompressedPageSize: int32(len(raw)),
		DataPageHeader: &meta.DataPageHeader{NumValues: 5, Encoding: meta.EncodingPlain, DefinitionLevelEncoding: meta.EncodingBitPacked, RepetitionLevelEncoding: meta.EncodingBitPacked}}
	d, r, got, err := readChunk(pageBytes(h, raw, false), col, ChunkOptions{})
	if err != nil || got != "[[1 2 3 4]]" || !slices.Equal(d, def) || !slices.Equal(r, rep) {
		t.Errorf("bit-packed: %v %v %s %v", d, r, got, err)
	}
}

// TestEmptyV2ValuesNeverReachCodec: a v2 page of nulls only, with 0 value
// bytes, reads under a codec whose empty stream would be invalid.
func TestEmptyV2ValuesNeverReachCodec(t *testing.T) {
	col := Column{Path: "c", Type: meta.Float, MaxDef: 1, Codec: meta.Snappy}
	chunk := v2(t, meta.Snappy, col, []uint8{0, 0}, nil, meta.EncodingPlain, nil, true)
	d, _, got, err := readChunk(chunk, col, ChunkOptions{VerifyCRC: true})
	if err != nil || got != "[[]]" || !slices.Equal(d, []uint8{0, 0}) {
		t.Fatalf("%v %s %v", d, got, err)
	}
}

func expectErr(t *testing.T, name string, chunk []byte, col Column, opts ChunkOptions, want ...error) *Error {
	t.Helper()
	_, _, _, err := readChunk(chunk, col, opts)
	if err == nil {
		t.Errorf("%s: no error", name)
		return nil
	}
	var pe *Error
	if !errors.As(err, &pe) {
		t.Errorf("%s: %v is not a *page.Error", name, err)
	}
	for _, w := range want {
		if !errors.Is(err, w) {
			t.Errorf("%s: %v does not wrap %v", name, err, w)
		}
	}
	return pe
}

func TestPageErrors(t *testing.T) {
	req := Column{Path: "x", Type: meta.Int32, RowGroup: 3}
	good := v1(t, meta.Uncompressed, req, []uint8{0, 0}, nil, meta.EncodingPlain, encode.AppendPlainInt32(nil, []int32{1, 2}))
	if _, _, got, err := readChunk(good, req, ChunkOptions{VerifyCRC: true}); err != nil || got != "[[1 2]]" {
		t.Fatal(got, err)
	}
	// CRC: flip a value byte.
	bad := slices.Clone(good)
	bad[len(bad)-1] ^= 1
	if pe := expectErr(t, "crc", slices.Concat(good, bad), req, ChunkOptions{VerifyCRC: true}, ErrCRC); pe != nil {
		if pe.Page != 1 || pe.RowGroup != 3 || pe.Column != "x" || pe.Offset != int64(len(good)) {
			t.Errorf("crc error location: %+v", pe)
		}
	}
	if _, _, _, err := readChunk(bad, req, ChunkOptions{}); err != nil {
		t.Errorf("crc unchecked: %v", err)
	}
	// Truncated chunk: the page runs past its end.
	expectErr(t, "truncated", good[:len(good)-1], req, ChunkOptions{}, ErrCorrupt)
	// Header cut short.
	expectErr(t, "header", good[:3], req, ChunkOptions{}, ErrHeader, meta.ErrTruncated)
	// Too few values for the levels (required column, 3 slots, 2 values).
	h := meta.PageHeader{Type: meta.DataPage, UncompressedPageSize: 8,
		DataPageHeader: &meta.DataPageHeader{NumValues: 3, Encoding: meta.EncodingPlain, DefinitionLevelEncoding: meta.EncodingRLE, RepetitionLevelEncoding: meta.EncodingRLE}}
	expectErr(t, "few values", pageBytes(h, encode.AppendPlainInt32(nil, []int32{1, 2}), false), req, ChunkOptions{}, ErrCorrupt)
	// Limits.
	expectErr(t, "page size", good, req, ChunkOptions{Limits: Limits{MaxPageSize: 4}}, ErrTooLarge)
	expectErr(t, "values", good, req, ChunkOptions{Limits: Limits{MaxValues: 1}}, ErrTooLarge)
	expectErr(t, "header size", good, req, ChunkOptions{Limits: Limits{MaxHeaderSize: 4}}, ErrTooLarge)
	// A definition level above the maximum.
	opt := Column{Path: "o", Type: meta.Int32, MaxDef: 1}
	// (An RLE run of one value 3 at bit width 1, behind its length prefix.)
	lh := meta.PageHeader{Type: meta.DataPage, UncompressedPageSize: 10,
		DataPageHeader: &meta.DataPageHeader{NumValues: 1, Encoding: meta.EncodingPlain, DefinitionLevelEncoding: meta.EncodingRLE, RepetitionLevelEncoding: meta.EncodingRLE}}
	expectErr(t, "level range", pageBytes(lh, slices.Concat([]byte{2, 0, 0, 0, 2, 3}, encode.AppendPlainInt32(nil, []int32{1})), false), opt, ChunkOptions{}, ErrCorrupt)
	// Dictionary index out of range.
	chunk := slices.Concat(dictPage(t, meta.Uncompressed, 2, encode.AppendPlainInt32(nil, []int32{5, 6})),
		v1(t, meta.Uncompressed, req, []uint8{0, 0}, nil, meta.EncodingRLEDictionary, encode.AppendDictIndices(nil, []int32{1, 2}, 2)))
	if pe := expectErr(t, "dict index", chunk, req, ChunkOptions{}, ErrCorrupt, encode.ErrIndexRange); pe != nil && pe.Page != 0 {
		t.Errorf("dict index error on page %d", pe.Page)
	}
	// The same for BYTE_ARRAY, resolved now or left lazy.
	var strs encode.ByteArrays
	strs.AppendString("x")
	strs.AppendString("yz")
	bcol := Column{Path: "b", Type: meta.ByteArray}
	bchunk := slices.Concat(dictPage(t, meta.Uncompressed, 2, encode.AppendPlainByteArray(nil, strs)),
		v1(t, meta.Uncompressed, bcol, []uint8{0, 0}, nil, meta.EncodingRLEDictionary, encode.AppendDictIndices(nil, []int32{1, 2}, 2)))
	for _, lazy := range []bool{false, true} {
		if pe := expectErr(t, fmt.Sprintf("byte array dict index (lazy %v)", lazy), bchunk, bcol, ChunkOptions{LazyDictBytes: lazy}, ErrCorrupt, encode.ErrIndexRange); pe != nil && pe.Page != 0 {
			t.Errorf("byte array dict index error on page %d", pe.Page)
		}
	}
	// Dictionary-encoded page without a dictionary.
	expectErr(t, "no dict", v1(t, meta.Uncompressed, req, []uint8{0}, nil, meta.EncodingRLEDictionary, encode.AppendDictIndices(nil, []int32{0}, 1)), req, ChunkOptions{}, ErrCorrupt)
	// Dictionary page after a data page.
	if pe := expectErr(t, "late dict", slices.Concat(good, dictPage(t, meta.Uncompressed, 1, encode.AppendPlainInt32(nil, []int32{5}))), req, ChunkOptions{}, ErrCorrupt); pe != nil && pe.Page != DictionaryPage {
		t.Errorf("late dictionary error on page %d", pe.Page)
	}
	// Negative dictionary size.
	dh := meta.PageHeader{Type: meta.DictionaryPage, DictionaryPageHeader: &meta.DictionaryPageHeader{NumValues: -1}}
	expectErr(t, "negative dict", pageBytes(dh, nil, false), req, ChunkOptions{}, ErrHeader)
	// ALP is for FLOAT and DOUBLE only.
	h.DataPageHeader.Encoding = meta.EncodingALP
	h.DataPageHeader.NumValues = 2
	expectErr(t, "alp", pageBytes(h, encode.AppendPlainInt32(nil, []int32{1, 2}), false), req, ChunkOptions{}, ErrUnsupported)
	// A v1 ALP page of nulls only, with and without its (empty) header.
	dopt := Column{Path: "d", Type: meta.Double, MaxDef: 1}
	for _, body := range [][]byte{nil, encode.AppendALPDouble(nil, nil)} {
		if d, _, got, err := readChunk(v1(t, meta.Uncompressed, dopt, []uint8{0, 0}, nil, meta.EncodingALP, body), dopt, ChunkOptions{}); err != nil || got != "[[]]" || len(d) != 2 {
			t.Errorf("ALP page of nulls (%d bytes): %v %s %v", len(body), d, got, err)
		}
	}
	// An ALP page whose header counts other values than the levels.
	dreq := Column{Path: "d", Type: meta.Double}
	expectErr(t, "alp count", v1(t, meta.Uncompressed, dreq, nil, nil, meta.EncodingALP, encode.AppendALPDouble(nil, []float64{1, 2, 3})), dreq, ChunkOptions{}, ErrCorrupt, encode.ErrLength)
	// Delta header claiming more values than the levels.
	expectErr(t, "delta count", v1(t, meta.Uncompressed, req, []uint8{0}, nil, meta.EncodingDeltaBinaryPacked, encode.AppendDeltaInt32(nil, []int32{1, 2, 3})), req, ChunkOptions{}, ErrCorrupt)
	// Corrupt compressed data.
	sn := Column{Path: "s", Type: meta.Int32, Codec: meta.Snappy}
	sh := meta.PageHeader{Type: meta.DataPage, UncompressedPageSize: 8,
		DataPageHeader: &meta.DataPageHeader{NumValues: 2, Encoding: meta.EncodingPlain, DefinitionLevelEncoding: meta.EncodingRLE, RepetitionLevelEncoding: meta.EncodingRLE}}
	expectErr(t, "snappy", pageBytes(sh, []byte{0xff, 0xff, 0xff, 0xff}, false), sn, ChunkOptions{}, ErrCorrupt, compress.ErrCorrupt)
	// An index page is skipped.
	ih := meta.PageHeader{Type: meta.IndexPage, IndexPageHeader: &meta.IndexPageHeader{}}
	if _, _, got, err := readChunk(slices.Concat(pageBytes(ih, []byte{1, 2, 3}, false), good), req, ChunkOptions{}); err != nil || got != "[[1 2]]" {
		t.Errorf("index page: %s %v", got, err)
	}
}

// TestDictionaryExpansionBound: dictionary-encoded byte arrays whose
// resolved size exceeds MaxPageSize fail instead of being allocated.
func TestDictionaryExpansionBound(t *testing.T) {
	col := Column{Path: "b", Type: meta.ByteArray}
	var d encode.ByteArrays
	d.Append(bytes.Repeat([]byte{'x'}, 1000))
	idx := make([]int32, 5000)
	chunk := slices.Concat(dictPage(t, meta.Uncompressed, 1, encode.AppendPlainByteArray(nil, d)),
		v1(t, meta.Uncompressed, col, make([]uint8, 5000), nil, meta.EncodingRLEDictionary, encode.AppendDictIndices(nil, idx, 0)))
	expectErr(t, "expansion", chunk, col, ChunkOptions{Limits: Limits{MaxPageSize: 1 << 20}}, ErrTooLarge)
	if _, _, _, err := readChunk(chunk, col, ChunkOptions{}); err != nil {
		t.Errorf("default limit: %v", err)
	}
}

// TestDeltaByteArrayExpansionBound: DELTA_BYTE_ARRAY values whose shared
// prefixes expand them beyond MaxPageSize fail, with ErrTooLarge, instead
// of being allocated, for BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY.
func TestDeltaByteArrayExpansionBound(t *testing.T) {
	long := bytes.Repeat([]byte{'x'}, 1000)
	var vals encode.ByteArrays
	for range 5000 {
		vals.Append(long) // 5 MB of values in a few KB of stream
	}
	for _, c := range []struct {
		col  Column
		data []byte
	}{
		{Column{Path: "b", Type: meta.ByteArray}, encode.AppendDeltaByteArray(nil, vals)},
		{Column{Path: "f", Type: meta.FixedLenByteArray, TypeLength: 1000}, encode.AppendDeltaByteArrayFixed(nil, vals.Data, 1000)},
	} {
		chunk := v1(t, meta.Uncompressed, c.col, make([]uint8, 5000), nil, meta.EncodingDeltaByteArray, c.data)
		expectErr(t, c.col.Path+" expansion", chunk, c.col, ChunkOptions{Limits: Limits{MaxPageSize: 1 << 20}}, ErrTooLarge)
		// A bound of exactly the values' bytes admits them (BYTE_ARRAY:
		// FIXED_LEN_BYTE_ARRAY pages are bounded from above before they
		// are decoded).
		if c.col.Type != meta.ByteArray {
			continue
		}
		if _, _, _, err := readChunk(chunk, c.col, ChunkOptions{Limits: Limits{MaxPageSize: 5000 * 1000}}); err != nil {
			t.Errorf("%s: bound of the values' size: %v", c.col.Path, err)
		}
	}
}

func TestErrorString(t *testing.T) {
	e := &Error{Column: "a.b", RowGroup: 2, Page: 5, Offset: 100, Err: ErrCRC}
	if s := e.Error(); s != `column "a.b", row group 2, page 5 at offset 100: page: checksum mismatch` {
		t.Error(s)
	}
	e.Page, e.Offset = DictionaryPage, -1
	if s := e.Error(); s != `column "a.b", row group 2, dictionary page: page: checksum mismatch` {
		t.Error(s)
	}
}

// decryptor is a test Decryptor that XORs bodies with 0x55 and stores
// headers behind a 4-byte length, as modular encryption does.
type decryptor struct{ mods []Module }

func (d *decryptor) Header(src []byte, m Module) ([]byte, int, error) {
	d.mods = append(d.mods, m)
	n := int(src[0]) | int(src[1])<<8 | int(src[2])<<16 | int(src[3])<<24
	out := make([]byte, n)
	for i := range out {
		out[i] = src[4+i] ^ 0x55
	}
	return out, 4 + n, nil
}

func (d *decryptor) Body(dst, src []byte, m Module) ([]byte, error) {
	d.mods = append(d.mods, m)
	dst = dst[:0]
	for _, b := range src {
		dst = append(dst, b^0x55)
	}
	return dst, nil
}

func TestDecryptorHook(t *testing.T) {
	col := Column{Path: "x", Type: meta.Int32, RowGroup: 1, Index: 4}
	body := encode.AppendPlainInt32(nil, []int32{9, 8})
	h := meta.PageHeader{Type: meta.DataPage, UncompressedPageSize: 8, CompressedPageSize: 8,
		DataPageHeader: &meta.DataPageHeader{NumValues: 2, Encoding: meta.EncodingPlain}}
	hb := h.AppendThrift(nil)
	var chunk []byte
	for range 2 {
		chunk = append(chunk, byte(len(hb)), 0, 0, 0)
		for _, b := range hb {
			chunk = append(chunk, b^0x55)
		}
		for _, b := range body {
			chunk = append(chunk, b^0x55)
		}
	}
	dec := &decryptor{}
	_, _, got, err := readChunk(chunk, col, ChunkOptions{Decryptor: dec})
	if err != nil || got != "[[9 8] [9 8]]" {
		t.Fatal(got, err)
	}
	want := "[{4 1 4 0} {2 1 4 0} {4 1 4 1} {2 1 4 1}]"
	if fmt.Sprint(dec.mods) != want {
		t.Errorf("modules %v, want %s", dec.mods, want)
	}
}

// TestSkipPage: skipped pages are not decoded (a corrupt body is not
// noticed), the dictionary met on the way is, and the following page
// decodes against it.
func TestSkipPage(t *testing.T) {
	col := Column{Path: "x", Type: meta.Int32}
	dict := dictPage(t, meta.Uncompressed, 2, encode.AppendPlainInt32(nil, []int32{10, 20}))
	bad := v1(t, meta.Uncompressed, col, []uint8{0, 0}, nil, meta.EncodingRLEDictionary, []byte{1, 0xff, 0xff}) // corrupt indices
	good := v1(t, meta.Uncompressed, col, []uint8{0, 0}, nil, meta.EncodingRLEDictionary, encode.AppendDictIndices(nil, []int32{1, 0}, 1))
	chunk := slices.Concat(dict, bad, good)
	for _, sparse := range []bool{false, true} {
		var cr ChunkReader
		cr.Reset(bytes.NewReader(chunk), 0, int64(len(chunk)), col, ChunkOptions{Sparse: sparse, VerifyCRC: true})
		h, err := cr.SkipPage()
		if err != nil || h.DataPageHeader.NumValues != 2 {
			t.Fatal(h, err)
		}
		p, err := cr.Next()
		if err != nil || fmt.Sprint(p.Values.Int32) != "[20 10]" || p.Ordinal != 1 {
			t.Fatal(p, err)
		}
		if _, err := cr.SkipPage(); err != io.EOF {
			t.Fatal(err)
		}
	}
}

// TestStorePages: a data page asked to be stored skips the codec where it
// can (a DATA_PAGE_V2 of any codec, marked is_compressed=false; a
// DATA_PAGE of SNAPPY or ZSTD, whose body is then exactly the codec's
// stored form of the raw body) and says so in Built.Stored; a DATA_PAGE of
// another codec is compressed as usual. Every page decodes to its values.
func TestStorePages(t *testing.T) {
	vals := encode.AppendPlainInt64(nil, []int64{1, 2, 3, 1 << 40, -7})
	for _, codec := range []meta.CompressionCodec{meta.Snappy, meta.Zstd, meta.Gzip} {
		for _, version := range []int{1, 2} {
			var b Builder
			b.Codec = codec
			p := DataPageParams{Version: version, NumValues: 5, NumRows: 5, Encoding: meta.EncodingPlain, Values: vals, Store: true}
			page, built, err := b.AppendDataPage(nil, &p)
			if err != nil {
				t.Fatal(err)
			}
			h, n, err := meta.DecodePageHeader(page, nil)
			if err != nil {
				t.Fatal(err)
			}
			body := page[n:]
			want := version == 2 || compress.CanStore(codec)
			if built.Stored != want {
				t.Errorf("%v v%d: Stored %v, want %v", codec, version, built.Stored, want)
			}
			if version == 2 {
				if h.DataPageHeaderV2.IsCompressed.Or(true) || !bytes.Equal(body, vals) {
					t.Errorf("%v v2: is_compressed %v, body %x", codec, h.DataPageHeaderV2.IsCompressed, body)
				}
				continue
			}
			if stored, ok := compress.AppendStored(nil, vals, codec); ok != bytes.Equal(stored, body) {
				t.Errorf("%v v1: body %x, stored form %x (%v)", codec, body, stored, ok)
			}
			raw, err := compress.Decompress(nil, body, codec, int(h.UncompressedPageSize))
			if err != nil || !bytes.Equal(raw, vals) {
				t.Errorf("%v v1: decoded %x, %v", codec, raw, err)
			}
		}
	}
}

// TestPlaintextPageSizesModuleBound: with PlaintextPageSizes, an encrypted
// page whose module length field exceeds compressed_page_size plus the
// encryption overhead is refused before its body is read.
func TestPlaintextPageSizesModuleBound(t *testing.T) {
	col := Column{Path: "x", Type: meta.Int32}
	h := meta.PageHeader{Type: meta.DataPage, UncompressedPageSize: 8, CompressedPageSize: 8,
		DataPageHeader: &meta.DataPageHeader{NumValues: 2, Encoding: meta.EncodingPlain}}
	hb := h.AppendThrift(nil)
	chunk := []byte{byte(len(hb)), 0, 0, 0}
	for _, b := range hb {
		chunk = append(chunk, b^0x55)
	}
	l := 8 + moduleOverhead + 1
	chunk = append(chunk, byte(l), 0, 0, 0)
	chunk = append(chunk, make([]byte, l)...)
	_, _, _, err := readChunk(chunk, col, ChunkOptions{Decryptor: &decryptor{}, PlaintextPageSizes: true})
	if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "for a page of 8") {
		t.Fatal(err)
	}
}

// TestCheckLevels: checkLevels accepts levels up to the maximum and names
// the first level above it, at every slot of pages longer than the eight
// bytes its scan takes per step, for small and large maxima.
func TestCheckLevels(t *testing.T) {
	for _, max := range []uint8{0, 1, 2, 3, 127, 128, 200, 254} {
		for n := 0; n <= 27; n++ {
			l := make([]uint8, n)
			for i := range l {
				l[i] = uint8(i) % (max + 1)
			}
			if err := checkLevels(l, max, n, "definition"); err != nil {
				t.Fatalf("max %d, %d levels: %v", max, n, err)
			}
			for p := range n {
				bad := slices.Clone(l)
				bad[p] = max + 1
				err := checkLevels(bad, max, n, "definition")
				want := fmt.Sprintf("definition level %d at slot %d exceeds the maximum %d", max+1, p, max)
				if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), want) {
					t.Fatalf("max %d, %d levels, %d above at %d: %v, want %q", max, n, max+1, p, err, want)
				}
			}
		}
	}
}

// TestSkipToBounds: SkipTo moves the reader only to an offset after its
// position and before the chunk's end (an offset index's word is not
// taken beyond the chunk), and counts the pages passed in the ordinals.
func TestSkipToBounds(t *testing.T) {
	var c ChunkReader
	c.Reset(bytes.NewReader(make([]byte, 200)), 100, 50, Column{Type: meta.Int64}, ChunkOptions{})
	for _, off := range []int64{99, 100, 150, 151, 1 << 40} {
		if c.SkipTo(off, 1) || c.Pos() != 100 {
			t.Errorf("SkipTo(%d) from 100 in [100, 150): moved to %d", off, c.Pos())
		}
	}
	if !c.SkipTo(120, 2) || c.Pos() != 120 || c.ordinal != 2 {
		t.Fatalf("SkipTo(120): at %d, ordinal %d", c.Pos(), c.ordinal)
	}
	if c.SkipTo(110, 1) || c.Pos() != 120 {
		t.Fatalf("SkipTo backwards moved to %d", c.Pos())
	}
}

// TestRLEIntegers: INT32 and INT64 pages in the RLE encoding (parquetjs)
// read at Column.RLEBitWidth, behind their 4-byte length, in v1 and v2
// pages: values of width 32 as signed 32-bit integers, widened with their
// sign for INT64. Without a width from 1 to 32 they are refused, and a
// short run is corrupt.
func TestRLEIntegers(t *testing.T) {
	vals := []int32{3, 3, 3, 3, 3, 3, 3, 3, 3, 1, 2, 0, 3}
	neg := []int32{-5, -5, -5, -5, -5, -5, -5, -5, -5, 7, math.MinInt32, -1}
	for _, c := range []struct {
		typ  meta.Type
		w    int
		src  []int32
		want string
	}{
		{meta.Int32, 2, vals, "[[3 3 3 3 3 3 3 3 3 1 2 0 3]]"},
		{meta.Int64, 2, vals, "[[3 3 3 3 3 3 3 3 3 1 2 0 3]]"},
		{meta.Int32, 32, neg, "[[-5 -5 -5 -5 -5 -5 -5 -5 -5 7 -2147483648 -1]]"},
		{meta.Int64, 32, neg, "[[-5 -5 -5 -5 -5 -5 -5 -5 -5 7 -2147483648 -1]]"},
	} {
		col := Column{Path: "r", Type: c.typ, RLEBitWidth: c.w}
		body := encode.AppendRLEInt32Prefixed(nil, c.src, c.w)
		lv := make([]uint8, len(c.src))
		for _, chunk := range [][]byte{
			v1(t, meta.Snappy, col, lv, nil, meta.EncodingRLE, body),
			v2(t, meta.Snappy, col, lv, nil, meta.EncodingRLE, body, true),
		} {
			_, _, got, err := readChunk(chunk, Column{Path: "r", Type: c.typ, RLEBitWidth: c.w, Codec: meta.Snappy}, ChunkOptions{})
			if err != nil || got != c.want {
				t.Errorf("%s at width %d: %s, %v; want %s", c.typ, c.w, got, err, c.want)
			}
			var cr ChunkReader
			cr.Reset(bytes.NewReader(chunk), 0, int64(len(chunk)), Column{Path: "r", Type: c.typ, RLEBitWidth: c.w, Codec: meta.Snappy}, ChunkOptions{})
			if p, err := cr.Next(); err != nil || !p.RLEIntegers {
				t.Errorf("%s at width %d: RLEIntegers not reported (%v)", c.typ, c.w, err)
			}
			for _, w := range []int{0, 33} {
				expectErr(t, fmt.Sprintf("width %d", w), chunk, Column{Path: "r", Type: c.typ, RLEBitWidth: w, Codec: meta.Snappy}, ChunkOptions{}, ErrUnsupported)
			}
		}
	}
	col := Column{Path: "r", Type: meta.Int32, RLEBitWidth: 4}
	body := encode.AppendRLEInt32Prefixed(nil, []int32{1, 2, 3}, 4)
	short := v1(t, meta.Uncompressed, col, make([]uint8, 9), nil, meta.EncodingRLE, body)
	expectErr(t, "short", short, col, ChunkOptions{}, ErrCorrupt)
}

// TestEmptyValuesSection: a page of nulls only whose values section is
// empty where its encoding starts with a header (the DELTA_BINARY_PACKED
// pages of Parquet.Net and QuestDB, see Page.EmptyValues) reads as no
// values, with Page.EmptyValues set; the same page with a value, or
// with a values section that is not empty, does not change.
func TestEmptyValuesSection(t *testing.T) {
	for _, c := range []struct {
		typ  meta.Type
		enc  meta.Encoding
		none []byte // the encoding of no values, as writers write it
	}{
		{meta.Int32, meta.EncodingDeltaBinaryPacked, encode.AppendDeltaInt32(nil, nil)},
		{meta.Int64, meta.EncodingDeltaBinaryPacked, encode.AppendDeltaInt64(nil, nil)},
		{meta.ByteArray, meta.EncodingDeltaLengthByteArray, encode.AppendDeltaLengthByteArray(nil, encode.ByteArrays{})},
		{meta.ByteArray, meta.EncodingDeltaByteArray, encode.AppendDeltaByteArray(nil, encode.ByteArrays{})},
		{meta.FixedLenByteArray, meta.EncodingDeltaByteArray, encode.AppendDeltaByteArrayFixed(nil, nil, 4)},
		{meta.Boolean, meta.EncodingRLE, encode.AppendRLEBool(nil, nil)},
	} {
		col := Column{Path: "c", Type: c.typ, TypeLength: 4, MaxDef: 1}
		name := c.typ.String() + " " + c.enc.String()
		for _, ver := range []int{1, 2} {
			page := func(def []uint8, values []byte) []byte {
				if ver == 1 {
					return v1(t, meta.Uncompressed, col, def, nil, c.enc, values)
				}
				return v2(t, meta.Uncompressed, col, def, nil, c.enc, values, false)
			}
			for _, k := range []struct {
				def    []uint8
				values []byte
				empty  bool // EmptyValues
				fails  bool
			}{
				{[]uint8{0, 0, 0}, nil, true, false},
				{[]uint8{0, 0, 0}, c.none, false, false},
				{[]uint8{0, 1, 0}, nil, false, true},
				{[]uint8{0, 0, 0}, []byte{0x80}, false, true},
			} {
				chunk := page(k.def, k.values)
				var cr ChunkReader
				cr.Reset(bytes.NewReader(chunk), 0, int64(len(chunk)), col, ChunkOptions{})
				p, err := cr.Next()
				if k.fails {
					if err == nil || !errors.Is(err, ErrCorrupt) {
						t.Errorf("%s v%d, levels %v, values %x: %v, want ErrCorrupt", name, ver, k.def, k.values, err)
					}
					continue
				}
				if err != nil {
					t.Errorf("%s v%d, levels %v, values %x: %v", name, ver, k.def, k.values, err)
					continue
				}
				if p.EmptyValues != k.empty || !slices.Equal(p.Def, k.def) || valuesString(p, c.typ) != valuesString(&Page{}, c.typ) {
					t.Errorf("%s v%d, values %x: EmptyValues %v, levels %v, values %s", name, ver, k.values, p.EmptyValues, p.Def, valuesString(p, c.typ))
				}
			}
		}
	}
}
