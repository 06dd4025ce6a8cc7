// Hand-built byte vectors for the compact-protocol codec: bool fields, long
// field ids, long-form list headers, unknown fields of every wire type,
// wrong wire types, unknown union members, limits and truncation
// (https://github.com/apache/thrift/blob/master/doc/specs/thrift-compact-protocol.md).

package meta

import (
	"bytes"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func cat(parts ...[]byte) []byte { return bytes.Join(parts, nil) }

func TestPageHeaderBoolFieldExactBytes(t *testing.T) {
	// PageHeader{type=DICTIONARY_PAGE, uncompressed=100, compressed=50,
	// dictionary_page_header{num_values=3, encoding=PLAIN, is_sorted=true}}
	in := []byte{
		0x15, 0x04, // 1: i32 2
		0x15, 0xC8, 0x01, // 2: i32 100
		0x15, 0x64, // 3: i32 50
		0x4C,       // 7: struct (delta 4)
		0x15, 0x06, // 1: i32 3
		0x15, 0x00, // 2: i32 0
		0x11, // 3: bool true in the header
		0x00, // stop DictionaryPageHeader
		0x00, // stop PageHeader
	}
	var h PageHeader
	n, err := h.DecodeThrift(append(in, 0xAA, 0xBB), nil)
	if err != nil || n != len(in) {
		t.Fatalf("n=%d err=%v", n, err)
	}
	want := PageHeader{Type: DictionaryPage, UncompressedPageSize: 100, CompressedPageSize: 50,
		DictionaryPageHeader: &DictionaryPageHeader{NumValues: 3, Encoding: EncodingPlain, IsSorted: Some(true)}}
	if diff := cmp.Diff(want, h); diff != "" {
		t.Fatal(diff)
	}
	if got := h.AppendThrift(nil); !bytes.Equal(got, in) {
		t.Fatalf("encode: got % x want % x", got, in)
	}
	// is_sorted=false is 0x12.
	h.DictionaryPageHeader.IsSorted = Some(false)
	in[12] = 0x12
	if got := h.AppendThrift(nil); !bytes.Equal(got, in) {
		t.Fatalf("encode false: got % x want % x", got, in)
	}
}

func TestPageHeaderReuse(t *testing.T) {
	stats := &Statistics{MaxValue: []byte("zz"), MinValue: []byte("aa"), NullCount: Some[int64](1)}
	src := (&PageHeader{Type: DataPage, UncompressedPageSize: 10, CompressedPageSize: 8, CRC: Some[int32](-5),
		DataPageHeader: &DataPageHeader{NumValues: 4, Encoding: EncodingRLEDictionary,
			DefinitionLevelEncoding: EncodingRLE, RepetitionLevelEncoding: EncodingRLE, Statistics: stats}}).AppendThrift(nil)
	var h PageHeader
	if _, err := h.DecodeThrift(src, nil); err != nil {
		t.Fatal(err)
	}
	dp, st := h.DataPageHeader, h.DataPageHeader.Statistics
	allocs := testing.AllocsPerRun(100, func() {
		if _, err := h.DecodeThrift(src, nil); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Errorf("reused decode allocates %v times", allocs)
	}
	if h.DataPageHeader != dp || h.DataPageHeader.Statistics != st {
		t.Error("sub-struct pointers not reused")
	}
	if string(h.DataPageHeader.Statistics.MaxValue) != "zz" || h.CRC != Some[int32](-5) {
		t.Errorf("bad decode: %+v", h.DataPageHeader.Statistics)
	}
	// A header without statistics clears them.
	src2 := (&PageHeader{Type: DataPage, DataPageHeader: &DataPageHeader{NumValues: 1}}).AppendThrift(nil)
	if _, err := h.DecodeThrift(src2, nil); err != nil {
		t.Fatal(err)
	}
	if h.DataPageHeader.Statistics != nil || h.CRC.Set {
		t.Error("stale fields after reuse")
	}
}

func TestLongFieldIDs(t *testing.T) {
	if got, want := fst(appendField(nil, 0, 20, tI32)), []byte{0x05, 0x28}; !bytes.Equal(got, want) {
		t.Errorf("long form header: % x want % x", got, want)
	}
	if got, want := fst(appendField(nil, 5, 3, tI64)), []byte{0x06, 0x06}; !bytes.Equal(got, want) {
		t.Errorf("backwards id: % x want % x", got, want)
	}
	// Statistics: unknown field 100 (long form), then field 9 (long form:
	// ids going backwards), field 3 (long form again), then 4 by delta 1.
	in := []byte{
		0x06, 0xC8, 0x01, 0x02, // 100: i64 1 (unknown)
		0x06, 0x12, 0x04, // 9: i64 2 nan_count
		0x06, 0x06, 0x06, // 3: i64 3 null_count
		0x16, 0x08, // 4: i64 4 distinct_count (delta 1)
		0x00,
	}
	var s Statistics
	if _, err := s.DecodeThrift(in, nil); err != nil {
		t.Fatal(err)
	}
	want := Statistics{NanCount: Some[int64](2), NullCount: Some[int64](3), DistinctCount: Some[int64](4)}
	if diff := cmp.Diff(want, s); diff != "" {
		t.Fatal(diff)
	}
}

func fst(b []byte, _ int16) []byte { return b }

func TestLongFormListHeader(t *testing.T) {
	ci := ColumnIndex{NullPages: make([]bool, 20), MinValues: make([][]byte, 20), MaxValues: make([][]byte, 20),
		BoundaryOrder: Ascending, NullCounts: make([]int64, 15)}
	for i := range ci.MinValues {
		ci.MinValues[i] = []byte{byte(i)}
		ci.MaxValues[i] = []byte{byte(i), 1}
		ci.NullPages[i] = i%3 == 0
	}
	ci.NullCounts[14] = -1
	b := ci.AppendThrift(nil)
	// field 1 list, long form: 0xF1 (size 15+, bool elements), size 20, then bytes 1/2.
	want := append([]byte{0x19, 0xF1, 0x14}, 1, 2, 2, 1, 2, 2, 1, 2, 2, 1, 2, 2, 1, 2, 2, 1, 2, 2, 1, 2)
	if !bytes.HasPrefix(b, want) {
		t.Fatalf("got % x\nwant prefix % x", b[:len(want)], want)
	}
	got, n, err := DecodeColumnIndex(b, nil)
	if err != nil || n != len(b) {
		t.Fatal(n, err)
	}
	if diff := cmp.Diff(&ci, got); diff != "" {
		t.Fatal(diff)
	}
	// Exactly 14 elements use the short form.
	short := (&OffsetIndex{PageLocations: make([]PageLocation, 14)}).AppendThrift(nil)
	if short[1] != 0xEC {
		t.Errorf("14 elements: header %#x want 0xec", short[1])
	}
}

// unknownOfEveryType is a run of unknown fields (ids 20..33), one per wire
// type, including nested structs, lists, sets and maps.
var unknownOfEveryType = []byte{
	0x05, 0x28, 0x07, // 20: i32 (long form id)
	0x11,       // 21: bool true
	0x12,       // 22: bool false
	0x13, 0xFF, // 23: i8
	0x14, 0x03, // 24: i16
	0x16, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01, // 25: i64, 10-byte varint
	0x17, 1, 2, 3, 4, 5, 6, 7, 8, // 26: double
	0x18, 0x03, 'a', 'b', 'c', // 27: binary
	0x19, 0x35, 0x02, 0x04, 0x06, // 28: list<i32> of 3
	0x1A, 0x28, 0x01, 'x', 0x01, 'y', // 29: set<binary> of 2
	0x1B, 0x02, 0x5C, 0x02, 0x15, 0x02, 0x00, 0x04, 0x00, // 30: map<i32,struct> of 2
	0x1C, 0x1C, 0x18, 0x01, 'z', 0x00, 0x11, 0x00, // 31: struct{1: struct{1: "z"}, 2: true}
	0x1D, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, // 32: uuid
	0x19, 0x21, 0x01, // 33: list<bool> of 2
	0x02, // bool list element 2 (false)
}

func TestSkipUnknownFieldsOfEveryType(t *testing.T) {
	// Statistics{unknowns..., null_count(3, long form) = 7}
	in := cat(unknownOfEveryType, []byte{0x06, 0x06, 0x0E, 0x00})
	var s Statistics
	n, err := s.DecodeThrift(in, nil)
	if err != nil || n != len(in) {
		t.Fatalf("n=%d/%d err=%v", n, len(in), err)
	}
	if diff := cmp.Diff(Statistics{NullCount: Some[int64](7)}, s); diff != "" {
		t.Fatal(diff)
	}
	// The 32767 reserved id is skipped like any unknown field.
	in = []byte{0x05, 0xFE, 0xFF, 0x03, 0x02, 0x06, 0x06, 0x0E, 0x00}
	if _, err := s.DecodeThrift(in, nil); err != nil || s.NullCount != Some[int64](7) {
		t.Fatalf("reserved id: %v %+v", err, s)
	}
}

func TestWrongWireTypeIsSkipped(t *testing.T) {
	in := []byte{
		0x38, 0x03, 'a', 'b', 'c', // 3 (null_count, i64) as binary: skipped
		0x35, 0x02, // 6 (min_value, binary) as i32: skipped
		0x15, 0x02, // 7 (is_max_value_exact, bool) as i32: skipped
		0x19, 0x15, 0x02, // 8 (is_min_value_exact, bool) as list: skipped
		0x16, 0x0A, // 9: i64 5
		0x00,
	}
	var s Statistics
	if _, err := s.DecodeThrift(in, nil); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(Statistics{NanCount: Some[int64](5)}, s); diff != "" {
		t.Fatal(diff)
	}
	// A list field whose element type is wrong is skipped too: ColumnMetaData
	// encodings as list<binary>.
	cm := ColumnMetaData{Encodings: []Encoding{EncodingPlain}, PathInSchema: []string{"a"}}
	b := cm.AppendThrift(nil)
	bad := bytes.Replace(b, []byte{0x19, 0x15, 0x00}, []byte{0x19, 0x18, 0x01, 'q'}, 1)
	_, _, err := DecodeColumnMetaData(bad, nil)
	if !errors.Is(err, ErrMissingField) || !strings.Contains(err.Error(), "encodings") {
		t.Fatalf("required field with wrong element type: %v", err)
	}
}

func TestUnknownUnionMember(t *testing.T) {
	// SchemaElement{name "a", logicalType{2555: struct{1: i32 1}}}
	in := []byte{0x48, 0x01, 'a', 0x6C, 0x0C, 0xF6, 0x27, 0x15, 0x02, 0x00, 0x00, 0x00}
	x := FileMetaData{Schema: []SchemaElement{{Name: "a", LogicalType: &LogicalType{}}}}
	enc := x.AppendThrift(nil)
	i := bytes.Index(enc, []byte{0x48, 0x01, 'a'})
	src := cat(enc[:i], in, enc[i+len([]byte{0x48, 0x01, 'a', 0x6C, 0x00, 0x00}):])
	got, _, err := DecodeFileMetaData(src, nil)
	if err != nil {
		t.Fatal(err)
	}
	lt := got.Schema[0].LogicalType
	if lt == nil || lt.Kind != LogicalNone || lt.Unrecognized != 2555 {
		t.Fatalf("logical type %+v", lt)
	}
	if !bytes.Equal(got.AppendThrift(nil), enc) {
		t.Fatal("unknown member re-encoded")
	}
	// A known member after an unknown one wins.
	in2 := []byte{0x0C, 0xF6, 0x27, 0x00, 0x0C, 0x0A, 0x15, 0x04, 0x15, 0x0A, 0x00, 0x00} // 2555{}, 5: DECIMAL{2,5}
	var l LogicalType
	d := newDecoder(in2, nil, false)
	if err := d.readLogicalType(&l, false); err != nil {
		t.Fatal(err)
	}
	if l.Kind != LogicalDecimal || l.Decimal != (DecimalType{Scale: 2, Precision: 5}) || l.Unrecognized != 2555 {
		t.Fatalf("%+v", l)
	}
}

func TestEmptyUnionValues(t *testing.T) {
	x := BloomFilterHeader{NumBytes: 32, Algorithm: BloomBlock, Hash: BloomXXHash, Compression: BloomUncompressed}
	b := x.AppendThrift(nil)
	want := []byte{0x15, 0x40, 0x1C, 0x1C, 0x00, 0x00, 0x1C, 0x1C, 0x00, 0x00, 0x1C, 0x1C, 0x00, 0x00, 0x00}
	if !bytes.Equal(b, want) {
		t.Fatalf("% x\n% x", b, want)
	}
	got, _, err := DecodeBloomFilterHeader(b, nil)
	if err != nil || *got != x {
		t.Fatal(err, got)
	}
	// Unknown hash member 2: value 0.
	b[7] = 0x2C
	got, _, err = DecodeBloomFilterHeader(b, nil)
	if err != nil || got.Hash != 0 {
		t.Fatal(err, got)
	}
}

func TestDoubleAndI8(t *testing.T) {
	gs := GeospatialStatistics{BBox: &BoundingBox{Xmin: 1.5, Xmax: -2, Ymin: 0, Ymax: 3, Zmax: Some(4.25)}}
	cm := ColumnMetaData{Encodings: []Encoding{}, PathInSchema: []string{}, GeospatialStatistics: &gs}
	b := cm.AppendThrift(nil)
	if !bytes.Contains(b, []byte{0x17, 0, 0, 0, 0, 0, 0, 0xF8, 0x3F}) { // 1.5 LE
		t.Fatalf("double not 8-byte LE: % x", b)
	}
	got, _, err := DecodeColumnMetaData(b, nil)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(&cm, got); diff != "" {
		t.Fatal(diff)
	}
	lt := LogicalType{Kind: LogicalInteger, Integer: IntType{BitWidth: -8, IsSigned: true}}
	se := FileMetaData{Schema: []SchemaElement{{Name: "i", LogicalType: &lt}}}
	b = se.AppendThrift(nil)
	if !bytes.Contains(b, []byte{0xAC, 0x13, 0xF8, 0x11, 0x00, 0x00}) { // 10: INTEGER{1: i8 -8, 2: true}
		t.Fatalf("i8: % x", b)
	}
}

func TestMissingRequiredField(t *testing.T) {
	_, _, err := DecodeFileMetaData([]byte{0x15, 0x02, 0x00}, nil)
	if !errors.Is(err, ErrMissingField) || !strings.Contains(err.Error(), "FileMetaData: required field FileMetaData.schema is missing") {
		t.Fatalf("%v", err)
	}
}

func TestErrorPath(t *testing.T) {
	cm := &ColumnMetaData{Encodings: []Encoding{}, PathInSchema: []string{"a"},
		Statistics: &Statistics{Max: []byte("MMMM")}}
	x := FileMetaData{RowGroups: []RowGroup{{}, {Columns: []ColumnChunk{{MetaData: cm}}}}}
	b := x.AppendThrift(nil)
	i := bytes.Index(b, []byte("MMMM"))
	bad := cat(b[:i-1], []byte{0xFF, 0xFF, 0xFF, 0xFF, 0x07}, b[i:]) // length 2^31-1
	_, _, err := DecodeFileMetaData(bad, nil)
	var de *DecodeError
	if !errors.As(err, &de) || !errors.Is(err, ErrLimit) {
		t.Fatalf("%v", err)
	}
	if de.Path != "FileMetaData.row_groups[1].columns[0].meta_data.statistics.max" || de.Offset != i-1 {
		t.Fatalf("path %q offset %d (want %d): %v", de.Path, de.Offset, i-1, err)
	}
	// Within the string limit, beyond the input.
	bad = cat(b[:i-1], []byte{0x80, 0x80, 0x40}, b[i:]) // length 1<<20
	_, _, err = DecodeFileMetaData(bad, nil)
	if !errors.Is(err, ErrTruncated) || !strings.Contains(err.Error(), "string length 1048576 exceeds remaining") {
		t.Fatalf("%v", err)
	}
	// Negative length.
	bad = cat(b[:i-1], []byte{0xFF, 0xFF, 0xFF, 0xFF, 0x0F}, b[i:])
	if _, _, err = DecodeFileMetaData(bad, nil); !errors.Is(err, ErrInvalid) {
		t.Fatalf("%v", err)
	}
}

func TestLimits(t *testing.T) {
	// list<i64> of 1,000,001 elements claimed.
	in := []byte{0x29, 0xF6, 0xC1, 0x84, 0x3D, 0x00}
	var s SizeStatistics
	d := newDecoder(in, nil, true)
	if err := d.readSizeStatistics(&s, false); !errors.Is(err, ErrLimit) {
		t.Fatalf("container limit: %v", err)
	}
	// 500 elements claimed, 2 bytes left.
	in = []byte{0x29, 0xF6, 0xF4, 0x03, 0x00, 0x00}
	d = newDecoder(in, nil, true)
	if err := d.readSizeStatistics(&s, false); !errors.Is(err, ErrTruncated) {
		t.Fatalf("remaining bytes: %v", err)
	}
	// 3 doubles claimed in 20 bytes: each needs 8.
	in = append([]byte{0x19, 0x37}, make([]byte, 20)...)
	d = newDecoder(in, nil, true)
	if err := d.readSizeStatistics(&s, false); !errors.Is(err, ErrTruncated) {
		t.Fatalf("double list: %v", err)
	}
	// 10 ColumnChunks claimed in 12 bytes: each needs at least 3.
	in = append([]byte{0x19, 0xAC}, make([]byte, 12)...)
	var rg RowGroup
	d = newDecoder(in, nil, true)
	if err := d.readRowGroup(&rg, false); !errors.Is(err, ErrTruncated) || !strings.Contains(err.Error(), "list of 10 elements of at least 3 bytes") {
		t.Fatalf("struct list: %v", err)
	}
	// String limit.
	in = []byte{0x18, 0x05, 'a', 'b', 'c', 'd', 'e', 0x00}
	var st Statistics
	if _, err := st.DecodeThrift(in, &Limits{MaxStringLen: 4}); !errors.Is(err, ErrLimit) {
		t.Fatalf("string limit: %v", err)
	}
	if _, err := st.DecodeThrift(in, &Limits{MaxStringLen: 5}); err != nil {
		t.Fatal(err)
	}
}

func TestDepthBomb(t *testing.T) {
	// Unknown field holding structs nested 100 deep.
	var in []byte
	for i := 0; i < 100; i++ {
		in = append(in, 0x1C)
	}
	var st Statistics
	_, err := st.DecodeThrift(in, nil)
	if !errors.Is(err, ErrDepth) {
		t.Fatalf("struct bomb: %v", err)
	}
	// Nested lists.
	in = []byte{0x19}
	for i := 0; i < 100; i++ {
		in = append(in, 0x19)
	}
	if _, err = st.DecodeThrift(in, nil); !errors.Is(err, ErrDepth) {
		t.Fatalf("list bomb: %v", err)
	}
	// Within the limit: 10 nested structs decode.
	in = nil
	for i := 0; i < 10; i++ {
		in = append(in, 0x1C)
	}
	in = append(in, make([]byte, 11)...)
	if _, err = st.DecodeThrift(in, &Limits{MaxDepth: 12}); err != nil {
		t.Fatal(err)
	}
	if _, err = st.DecodeThrift(in, &Limits{MaxDepth: 10}); !errors.Is(err, ErrDepth) {
		t.Fatal(err)
	}
}

func TestBadIntegers(t *testing.T) {
	for name, in := range map[string][]byte{
		"varint 11 bytes": {0x16, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01, 0x00},
		"varint overflow": {0x16, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x02, 0x00},
		"i32 overflow":    {0x15, 0x80, 0x80, 0x80, 0x80, 0x20, 0x00},
		"i16 field id":    {0x06, 0x80, 0x80, 0x04, 0x00, 0x00},
		"bad wire type":   {0x1E, 0x00},
	} {
		var h PageHeader
		if _, err := h.DecodeThrift(in, nil); !errors.Is(err, ErrInvalid) {
			t.Errorf("%s: %v", name, err)
		}
	}
	// The largest and smallest i32 and i64 round-trip.
	x := PageHeader{UncompressedPageSize: -1 << 31, CompressedPageSize: 1<<31 - 1, CRC: Some[int32](-1)}
	var y PageHeader
	if _, err := y.DecodeThrift(x.AppendThrift(nil), nil); err != nil || y != x {
		t.Fatal(err, y)
	}
	s := Statistics{NullCount: Some[int64](-1 << 63), DistinctCount: Some[int64](1<<63 - 1)}
	var s2 Statistics
	if _, err := s2.DecodeThrift(s.AppendThrift(nil), nil); err != nil || s2.NullCount != s.NullCount || s2.DistinctCount != s.DistinctCount {
		t.Fatal(err, s2)
	}
}

func TestTruncatedFooterEveryOffset(t *testing.T) {
	dir := corpusDir(t)
	for _, name := range []string{"data/alltypes_tiny_pages.parquet", "data/geospatial/crs-geography.parquet", "data/encrypt_columns_plaintext_footer.parquet.encrypted"} {
		data, _, err := footer(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		_, n, err := DecodeFileMetaData(data, nil)
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < n; i++ {
			_, _, err := DecodeFileMetaData(data[:i], nil)
			var de *DecodeError
			if !errors.As(err, &de) || !errors.Is(err, ErrTruncated) && !errors.Is(err, ErrMissingField) {
				t.Fatalf("%s truncated at %d: %v", name, i, err)
			}
		}
	}
}

func TestPresentEmptyValues(t *testing.T) {
	x := FileMetaData{Schema: []SchemaElement{}, RowGroups: []RowGroup{}, KeyValueMetadata: []KeyValue{},
		FooterSigningKeyMetadata: []byte{}}
	got, _, err := DecodeFileMetaData(x.AppendThrift(nil), nil)
	if err != nil {
		t.Fatal(err)
	}
	if got.Schema == nil || got.RowGroups == nil || got.KeyValueMetadata == nil || got.FooterSigningKeyMetadata == nil || got.ColumnOrders != nil {
		t.Fatalf("presence lost: %+v", got)
	}
	var s Statistics
	if _, err := s.DecodeThrift([]byte{0x18, 0x00, 0x00}, nil); err != nil || s.Max == nil || len(s.Max) != 0 {
		t.Fatal(err, s)
	}
}

func TestEnumStrings(t *testing.T) {
	for got, want := range map[string]string{
		EncodingRLEDictionary.String(): "RLE_DICTIONARY", Encoding(12).String(): "Encoding(12)",
		Encoding(1).String(): "Encoding(1)", Snappy.String(): "SNAPPY", Int32.String(): "INT32",
		Optional.String(): "OPTIONAL", DataPageV2.String(): "DATA_PAGE_V2", ConvertedUTF8.String(): "UTF8",
		LogicalTimestamp.String(): "TIMESTAMP", LogicalKind(9).String(): "LogicalKind(9)", Nanos.String(): "NANOS",
		IEEE754TotalOrder.String(): "IEEE_754_TOTAL_ORDER", Descending.String(): "DESCENDING",
		Karney.String(): "KARNEY", LZ4Raw.String(): "LZ4_RAW", FixedLenByteArray.String(): "FIXED_LEN_BYTE_ARRAY",
		AesGcmCtrV1.String(): "AES_GCM_CTR_V1", CryptoColumnKey.String(): "ENCRYPTION_WITH_COLUMN_KEY",
	} {
		if got != want {
			t.Errorf("got %q want %q", got, want)
		}
	}
}

func TestDepthCap(t *testing.T) {
	in := bytes.Repeat([]byte{0x1C}, 20_000)
	var st Statistics
	if _, err := st.DecodeThrift(in, &Limits{MaxDepth: 1 << 30}); !errors.Is(err, ErrDepth) || !strings.Contains(err.Error(), "10000") {
		t.Fatal(err)
	}
}

// TestIntegerOfAnotherWidth reads an integer field written with another
// Thrift integer type than its own, as hyparquet-writer 0.17 writes
// IntType.bitWidth (an i8) as an i32: the value is taken when it fits and
// noted once by DecodeFileMetaDataNotes; a value that does not fit fails.
func TestIntegerOfAnotherWidth(t *testing.T) {
	x := FileMetaData{Version: 2, RowGroups: []RowGroup{}, Schema: []SchemaElement{
		{Name: "root", NumChildren: Some[int32](2)},
		{Name: "a", Type: Some(Int32), LogicalType: &LogicalType{Kind: LogicalInteger, Integer: IntType{BitWidth: 8, IsSigned: true}}},
		{Name: "b", Type: Some(Int32), LogicalType: &LogicalType{Kind: LogicalInteger, Integer: IntType{BitWidth: 16, IsSigned: false}}},
	}}
	enc := x.AppendThrift(nil)
	i8a := []byte{0x13, 0x08, 0x11, 0x00} // 1: i8 8, 2: true, stop
	i8b := []byte{0x13, 0x10, 0x12, 0x00} // 1: i8 16, 2: false, stop
	if bytes.Count(enc, i8a) != 1 || bytes.Count(enc, i8b) != 1 {
		t.Fatalf("IntType bytes not found in % x", enc)
	}
	src := bytes.Replace(enc, i8a, []byte{0x15, 0x10, 0x11, 0x00}, 1) // 1: i32 8
	src = bytes.Replace(src, i8b, []byte{0x16, 0x20, 0x12, 0x00}, 1)  // 1: i64 16
	got, n, notes, err := DecodeFileMetaDataNotes(src, nil)
	if err != nil || n != len(src) {
		t.Fatalf("%v after %d of %d bytes", err, n, len(src))
	}
	if diff := cmp.Diff(&x, got); diff != "" {
		t.Fatal(diff)
	}
	want := []WidthNote{{Field: "IntType.bitWidth", Want: "i8", Got: "i32"}}
	if diff := cmp.Diff(want, notes); diff != "" {
		t.Fatalf("notes (one per field): %s", diff)
	}
	if _, _, notes, _ := DecodeFileMetaDataNotes(enc, nil); len(notes) != 0 {
		t.Fatalf("notes on in-spec metadata: %v", notes)
	}
	// 300 does not fit an i8.
	bad := bytes.Replace(enc, i8a, []byte{0x15, 0xD8, 0x04, 0x11, 0x00}, 1)
	if _, _, err := DecodeFileMetaData(bad, nil); !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "bitWidth") {
		t.Fatalf("i32 300 for an i8: %v", err)
	}
	// An i16 wire value out of the i16 range is malformed, though it
	// would fit the i32 field (FileMetaData.version; varint 65536 is
	// zigzag 32768).
	v16 := bytes.Replace(enc, []byte{0x15, 0x04}, []byte{0x14, 0x80, 0x80, 0x04}, 1)
	if _, _, err := DecodeFileMetaData(v16, nil); !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "version") {
		t.Fatalf("i16 32768 for an i32: %v", err)
	}
	// An i32 field written as an i8 reads too (FileMetaData.version).
	v8 := bytes.Replace(enc, []byte{0x15, 0x04}, []byte{0x13, 0x02}, 1)
	got, _, notes, err = DecodeFileMetaDataNotes(v8, nil)
	if err != nil || got.Version != 2 || len(notes) != 1 || notes[0] != (WidthNote{Field: "FileMetaData.version", Want: "i32", Got: "i8"}) {
		t.Fatalf("version as i8: %v, %+v", err, notes)
	}
}
