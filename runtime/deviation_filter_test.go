package runtime

import (
	"encoding/binary"
	"errors"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/pqgen/pqgen/runtime/bloom"
	"github.com/pqgen/pqgen/runtime/meta"
)

// filteredIDs reads the INT32 column "id" of testdata/deviations/name
// under filter p (opts added) and returns its values.
func filteredIDs(t *testing.T, name string, p Predicate, opts ...ReaderOption) ([]int32, *FileReader, error) {
	t.Helper()
	fr, err := openDeviation(t, name, append(opts, WithFilter(p))...)
	if err != nil {
		return nil, nil, err
	}
	r, err := fr.Int32Reader(fr.File().Schema.Leaf("id").Column)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.ReadRows(100); errors.Is(err, io.EOF) {
		return nil, fr, nil // no row kept
	} else if err != nil {
		return nil, fr, err
	}
	return slices.Clone(r.Values), fr, nil
}

// leafOn is the predicate op on the column at path with PLAIN keys.
func leafOn(path string, phys meta.Type, op predOp, keys ...any) *predLeaf {
	p := &predLeaf{path: path, op: op, phys: phys, show: make([]string, len(keys))}
	for _, k := range keys {
		p.keys = append(p.keys, plainOf(k))
	}
	return p
}

// filterCase is a filtered read of a deviation file and the ids of the
// rows it must return.
type filterCase struct {
	p    Predicate
	want []int32
}

// checkFilterCases reads file under each case's filter and checks the
// ids and that the deviation dev (its column, row group and page) is the
// one recorded.
func checkFilterCases(t *testing.T, file string, dev Deviation, cases ...filterCase) {
	t.Helper()
	for _, c := range cases {
		checkFilterCase(t, file, c, nil, dev)
	}
}

// checkCleanCases reads file under each case's filter with WithStrict
// and checks the ids, and that no deviation is recorded.
func checkCleanCases(t *testing.T, file string, cases ...filterCase) {
	t.Helper()
	for _, c := range cases {
		checkFilterCase(t, file, c, []ReaderOption{WithStrict(true)})
	}
}

// checkFilterCase reads file under c's filter (opts added) and checks the
// ids and that the deviations recorded are devs.
func checkFilterCase(t *testing.T, file string, c filterCase, opts []ReaderOption, devs ...Deviation) {
	t.Helper()
	got, fr, err := filteredIDs(t, file, c.p, opts...)
	if err != nil {
		t.Fatalf("%s: %v", c.p, err)
	}
	if !slices.Equal(got, c.want) {
		t.Errorf("%s: ids %v, want %v", c.p, got, c.want)
	}
	wantDeviations(t, fr.File(), devs...)
}

// TestDeviationPolarsNullPage: Polars writes the column index entry of a
// page of floats holding NaN with null_pages true, with 0 nulls (f) or
// some (g) in its 20 rows. Filtered reads took the page as all null and
// returned no row; now they take its values as unbounded, with the rows
// of the SQL in peers/js/deviations.mjs, and record the deviation per
// column; under WithStrict the filtered read fails naming it. In a list
// (lf) nothing shows the values: those pages are not used.
func TestDeviationPolarsNullPage(t *testing.T) {
	// f: i*0.5-3, NaN when i%5 == 1; g: f, null when i%4 == 3.
	checkFilterCases(t, "polars_nan_null_page.parquet", Deviation{Kind: DeviationNullPageValues, Column: "f", RowGroup: 0, Page: 0},
		filterCase{leafOn("f", meta.Double, opEq, 2.0), []int32{10}},
		filterCase{leafOn("f", meta.Double, opBetween, -1.0, 1.0), []int32{4, 5, 7, 8}})
	checkFilterCases(t, "polars_nan_null_page.parquet", Deviation{Kind: DeviationNullPageValues, Column: "g", RowGroup: 0, Page: 0},
		filterCase{leafOn("g", meta.Double, opGt, 4.0), []int32{17, 18}},
		filterCase{leafOn("g", meta.Double, opIsNull), []int32{3, 7, 11, 15, 19}})
	// lf: null, [], or [f, null, -i, null, null] as i%4 is 0, 1 or more:
	// its page counts 30 nulls in 20 rows, which does not show the values;
	// Polars' null pages of floats in lists are not used, without a
	// record, so that WithStrict reads them too.
	checkCleanCases(t, "polars_nan_null_page.parquet",
		filterCase{elemOn("lf.list.element", meta.Double, opGt, 4.0), []int32{15, 18, 19}},
		filterCase{elemOn("lf.list.element", meta.Double, opEq, -6.0), []int32{6}})
	_, fr, err := filteredIDs(t, "polars_nan_null_page.parquet", leafOn("f", meta.Double, opEq, 2.0), WithStrict(true))
	wantStrict(t, err, DeviationNullPageValues, `column "f", row group 0, page 0`)
	if fr != nil && len(fr.File().Deviations()) != 0 {
		t.Fatal("deviations recorded under WithStrict")
	}
}

// dec13 is the FIXED_LEN_BYTE_ARRAY(13) of DECIMAL unscaled value v.
func dec13(v int64) []byte {
	b := make([]byte, 13)
	for i := 12; i >= 0; i-- {
		b[i] = byte(v)
		v >>= 8
	}
	return b
}

// TestDeviationPolarsChunkBounds: Polars writes chunk statistics without
// the values of the pages of floats holding NaN (f: min 4 where 0 is),
// and gives a decimal (d) its last value as min and max. Filtered reads
// dropped the row group and returned no row; now they check bounds that
// decide against the column index, and prune by the pages when those
// leave values out, recording the deviation.
func TestDeviationPolarsChunkBounds(t *testing.T) {
	// f: NaN for id 3, id*100 below 8, else id*0.5; d: -(id*1000+0.5) when
	// id%3 == 0, else id*10.5 (DECIMAL(29, 1)).
	chunk := Deviation{Kind: DeviationChunkBoundsNarrow, Column: "f", RowGroup: 0, Page: -1}
	page := Deviation{Kind: DeviationNullPageValues, Column: "f", RowGroup: 0, Page: 0}
	for _, c := range []struct {
		filterCase
		devs []Deviation
	}{
		{filterCase{leafOn("f", meta.Double, opLt, 1.0), []int32{0}}, []Deviation{chunk, page}},
		// (100 lies within the chunk's bounds, which decide nothing)
		{filterCase{leafOn("f", meta.Double, opEq, 100.0), []int32{1}}, []Deviation{page}},
		{filterCase{leafOn("f", meta.Double, opGt, 650.0), []int32{7}}, []Deviation{page}},
		{filterCase{leafOn("f", meta.Double, opGt, 750.0), nil}, []Deviation{chunk, page}},
		{filterCase{leafOn("d", meta.FixedLenByteArray, opEq, dec13(105)), []int32{1}}, []Deviation{{Kind: DeviationChunkBoundsNarrow, Column: "d", RowGroup: 0, Page: -1}}},
		{filterCase{leafOn("d", meta.FixedLenByteArray, opBetween, dec13(-60010), dec13(-29990)), []int32{3, 6}},
			[]Deviation{{Kind: DeviationChunkBoundsNarrow, Column: "d", RowGroup: 0, Page: -1}}},
	} {
		checkFilterCase(t, "polars_chunk_bounds.parquet", c.filterCase, nil, c.devs...)
	}
	_, _, err := filteredIDs(t, "polars_chunk_bounds.parquet", leafOn("d", meta.FixedLenByteArray, opEq, dec13(105)), WithStrict(true))
	wantStrict(t, err, DeviationChunkBoundsNarrow, `column "d", row group 0`)
}

// TestDeviationParquetjsBloomUnset: parquetjs writes the algorithm, hash
// and compression of a bloom filter header as empty unions. BloomFilter
// refuses such a filter (bloom.ErrUnset); filtered reads failed on it,
// and now read the chunk without the filter, recording the deviation;
// under WithStrict they fail naming it.
func TestDeviationParquetjsBloomUnset(t *testing.T) {
	fr, err := openDeviation(t, "parquetjs_bloom_unset.parquet")
	if err != nil {
		t.Fatal(err)
	}
	col := fr.File().Schema.Leaf("s").Column
	if !fr.File().Meta.RowGroups[0].Columns[col].MetaData.BloomFilterOffset.Set {
		t.Fatal("the file has no bloom filter on s")
	}
	if _, err := fr.BloomFilter(0, col); !errors.Is(err, bloom.ErrUnset) || !errors.Is(err, bloom.ErrUnsupported) {
		t.Fatalf("BloomFilter: %v, want bloom.ErrUnset and ErrUnsupported", err)
	}
	// s: "k" + i%6, null when i%4 == 3.
	checkFilterCases(t, "parquetjs_bloom_unset.parquet", Deviation{Kind: DeviationBloomUnset, Column: "s", RowGroup: 0, Page: -1},
		filterCase{leafOn("s", meta.ByteArray, opEq, "k2"), []int32{2, 8, 14}},
		filterCase{leafOn("s", meta.ByteArray, opIn, "k5", "zz"), []int32{5, 17}},
		filterCase{leafOn("s", meta.ByteArray, opEq, "zz"), nil})
	_, _, err = filteredIDs(t, "parquetjs_bloom_unset.parquet", leafOn("s", meta.ByteArray, opEq, "k2"), WithStrict(true))
	wantStrict(t, err, DeviationBloomUnset, `column "s", row group 0`)
}

// TestDeviationParquetjsPageIndex: parquetjs writes the offset index of a
// chunk of 10 pages with every page after the first at row 0. Filtered
// reads failed on it (OffsetIndex refuses it); now they read the chunk as
// having no page index, recording the deviation; under WithStrict they
// fail naming it.
func TestDeviationParquetjsPageIndex(t *testing.T) {
	fr, err := openDeviation(t, "parquetjs_page_index.parquet")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := fr.OffsetIndex(0, 0); !errors.Is(err, ErrChunk) {
		t.Fatalf("OffsetIndex: %v, want ErrChunk", err)
	}
	// id: 0..99; s: 'k'+id, null when id%4 == 3.
	checkFilterCases(t, "parquetjs_page_index.parquet", Deviation{Kind: DeviationPageIndexRows, Column: "id", RowGroup: 0, Page: -1},
		filterCase{leafOn("id", meta.Int32, opEq, int32(57)), []int32{57}},
		filterCase{leafOn("id", meta.Int32, opGt, int32(95)), []int32{96, 97, 98, 99}})
	// (reading id for the rows s keeps meets id's index too)
	sDev, idDev := Deviation{Kind: DeviationPageIndexRows, Column: "s", RowGroup: 0, Page: -1}, Deviation{Kind: DeviationPageIndexRows, Column: "id", RowGroup: 0, Page: -1}
	checkFilterCase(t, "parquetjs_page_index.parquet", filterCase{leafOn("s", meta.ByteArray, opEq, "k42"), []int32{42}}, nil, sDev, idDev)
	checkFilterCase(t, "parquetjs_page_index.parquet", filterCase{leafOn("s", meta.ByteArray, opIsNull),
		[]int32{3, 7, 11, 15, 19, 23, 27, 31, 35, 39, 43, 47, 51, 55, 59, 63, 67, 71, 75, 79, 83, 87, 91, 95, 99}}, nil, sDev, idDev)
	_, _, err = filteredIDs(t, "parquetjs_page_index.parquet", leafOn("id", meta.Int32, opEq, int32(57)), WithStrict(true))
	wantStrict(t, err, DeviationPageIndexRows, `column "id", row group 0`)
}

// elemOn is leafOn for an element predicate (some value of the row).
func elemOn(path string, phys meta.Type, op predOp, keys ...any) *predLeaf {
	p := leafOn(path, phys, op, keys...)
	p.elem = true
	return p
}

// TestDeviationDuckDBStructListNulls: DuckDB counts every level slot of
// a field of a struct in a list as null in the chunk statistics (44 of
// 44), with the min and max of its values. Filtered reads took the chunk
// as all null and returned no row; now they do not use the null count.
func TestDeviationDuckDBStructListNulls(t *testing.T) {
	// ls: null, [], or [{x: i, y: 'y'+i}, null, {x: null, y: null}] as
	// i%5 is 0, 1 or more.
	checkFilterCases(t, "duckdb_struct_list_nulls.parquet", Deviation{Kind: DeviationNullCountAll, Column: "ls.list.element.x", RowGroup: 0, Page: -1},
		filterCase{elemOn("ls.list.element.x", meta.Int64, opGt, int64(10)), []int32{12, 13, 14, 17, 18, 19}},
		filterCase{elemOn("ls.list.element.x", meta.Int64, opEq, int64(3)), []int32{3}},
		filterCase{Not(elemOn("ls.list.element.x", meta.Int64, opLt, int64(18))), []int32{0, 1, 5, 6, 10, 11, 15, 16, 18, 19}})
	_, _, err := filteredIDs(t, "duckdb_struct_list_nulls.parquet", elemOn("ls.list.element.x", meta.Int64, opEq, int64(3)), WithStrict(true))
	wantStrict(t, err, DeviationNullCountAll, `column "ls.list.element.x", row group 0`)
}

// TestDeviationDuckDBStructListNaN: DuckDB counts the nulls of the
// fields of structs in lists past num_values (68 of 56 slots, ln: a
// struct in a struct), or as many as the values while counting 3
// distinct values (ld), and writes no min and max when they hold NaN.
// Filtered reads took each chunk as all null and returned no row; now
// they do not use such counts, and record the deviation. A count of as
// many nulls as values, and nothing else (ls), cannot be told from a
// chunk of nulls: it is not used, without a record.
func TestDeviationDuckDBStructListNaN(t *testing.T) {
	// ls, ln: null, [], or [{x}, null, {x: null}] (ln: x in a struct s)
	// as i%5 is 0, 1 or more, x NaN when i%3 == 0, else i/2; ld: ls with
	// x = i%2.
	checkFilterCases(t, "duckdb_struct_list_nan.parquet", Deviation{Kind: DeviationNullCountAll, Column: "ln.list.element.s.x", RowGroup: 0, Page: -1},
		filterCase{elemOn("ln.list.element.s.x", meta.Double, opEq, 2.0), []int32{4}},
		filterCase{elemOn("ln.list.element.s.x", meta.Double, opGt, 5.0), []int32{13, 14, 17, 19}})
	checkFilterCases(t, "duckdb_struct_list_nan.parquet", Deviation{Kind: DeviationNullCountAll, Column: "ld.list.element.x", RowGroup: 0, Page: -1},
		filterCase{elemOn("ld.list.element.x", meta.Double, opEq, 1.0), []int32{7, 13, 17, 19}})
	checkCleanCases(t, "duckdb_struct_list_nan.parquet",
		filterCase{elemOn("ls.list.element.x", meta.Double, opGt, 5.0), []int32{13, 14, 17, 19}},
		filterCase{elemOn("ls.list.element.x", meta.Double, opBetween, 1.0, 3.5), []int32{2, 4, 7}})
	_, _, err := filteredIDs(t, "duckdb_struct_list_nan.parquet", elemOn("ln.list.element.s.x", meta.Double, opEq, 2.0), WithStrict(true))
	wantStrict(t, err, DeviationNullCountAll, `column "ln.list.element.s.x", row group 0`)
}

// TestDeviationArrowRsListNullPage: arrow-rs writes the column index
// entry of a page of a list with null_pages true, its definition level
// histogram counting 20 values (l; ls, its strings, with the empty min
// and max of a null page). Filtered reads skipped the page and returned
// no row; now they read it, without bounds.
func TestDeviationArrowRsListNullPage(t *testing.T) {
	// l: null, [], or [i, null, -i] as i%4 is 0, 1 or more.
	checkFilterCases(t, "wasm_list_null_page.parquet", Deviation{Kind: DeviationNullPageValues, Column: "l.list.item", RowGroup: 0, Page: 0},
		filterCase{elemOn("l.list.item", meta.Int32, opEq, int32(-6)), []int32{6}},
		filterCase{elemOn("l.list.item", meta.Int32, opGt, int32(15)), []int32{18, 19}})
	// ls: l's lists of strings, 's'+i for i and 't'+i for -i. The page's
	// min and max are empty strings, which are no bounds.
	checkFilterCases(t, "wasm_list_null_page.parquet", Deviation{Kind: DeviationNullPageValues, Column: "ls.list.item", RowGroup: 0, Page: 0},
		filterCase{elemOn("ls.list.item", meta.ByteArray, opEq, "s6"), []int32{6}},
		filterCase{elemOn("ls.list.item", meta.ByteArray, opGt, "t5"), []int32{6, 7}},
		filterCase{elemOn("ls.list.item", meta.ByteArray, opBetween, "s1", "s2"), []int32{2, 10, 11, 14, 15, 18, 19}})
	_, _, err := filteredIDs(t, "wasm_list_null_page.parquet", elemOn("l.list.item", meta.Int32, opEq, int32(-6)), WithStrict(true))
	wantStrict(t, err, DeviationNullPageValues, `column "l.list.item", row group 0, page 0`)
}

// TestArrowGoListStats: arrow-go leaves out of the bounds of a list leaf
// the values of each write batch that holds no more values than null or
// empty lists (arrowgo_list_stats.parquet, written by peers/interop's
// TestArrowGoStatsFiles in batches of 2 rows: the chunk's max is 6
// where 100 and 200 occur, and the page of the second row group, [[],
// [null, 50]], is a null page). Filtered reads returned no row for l > 50
// and for l = 50; StatisticsTrusted now rejects the bounds of leaves in
// lists of arrow-go's files, and filtered reads use neither them nor the
// column index. Nothing is recorded: the bounds of one file cannot show
// the fault.
func TestArrowGoListStats(t *testing.T) {
	const file = "arrowgo_list_stats.parquet"
	fr, err := openDeviation(t, file)
	if err != nil {
		t.Fatal(err)
	}
	f := fr.File()
	l, id := f.Schema.Leaf("l.list.element").Column, f.Schema.Leaf("id").Column
	if ok, why := f.StatisticsTrusted(0, l); ok || !strings.Contains(why, "arrow-go") {
		t.Errorf("StatisticsTrusted(0, l) = %v, %q; want false naming arrow-go", ok, why)
	}
	if ok, why := f.StatisticsTrusted(0, id); !ok {
		t.Errorf("StatisticsTrusted(0, id) = false, %q; want true: id is in no list", why)
	}
	checkCleanCases(t, file,
		filterCase{elemOn("l.list.element", meta.Int64, opGt, int64(50)), []int32{3, 5}},
		filterCase{elemOn("l.list.element", meta.Int64, opEq, int64(100)), []int32{3}},
		filterCase{elemOn("l.list.element", meta.Int64, opEq, int64(50)), []int32{9}},
		filterCase{elemOn("l.list.element", meta.Int64, opBetween, int64(4), int64(5)), []int32{1, 6}},
		filterCase{Not(elemOn("l.list.element", meta.Int64, opLe, int64(6))), []int32{2, 3, 4, 5, 8, 9}},
		filterCase{leafOn("id", meta.Int32, opGt, int32(7)), []int32{8, 9}})
}

// TestArrowGoFloat16NaN: in a batch with a null, arrow-go forgets the
// FLOAT16 values before a NaN (arrowgo_float16_nan.parquet: f is 1, 2, 3,
// 4, -50, null, NaN, 7 for ids 0-7, written in batches of 4; the chunk's
// bounds are [1, 7]). f < 0 returned no row; FLOAT16 bounds of arrow-go's
// files are no longer used.
func TestArrowGoFloat16NaN(t *testing.T) {
	const file = "arrowgo_float16_nan.parquet"
	checkCleanCases(t, file,
		filterCase{leafOn("f", meta.FixedLenByteArray, opLt, binary.LittleEndian.AppendUint16(nil, Float32ToFloat16(0))), []int32{4}},
		filterCase{leafOn("f", meta.FixedLenByteArray, opEq, binary.LittleEndian.AppendUint16(nil, Float32ToFloat16(-50))), []int32{4}},
		filterCase{leafOn("f", meta.FixedLenByteArray, opGt, binary.LittleEndian.AppendUint16(nil, Float32ToFloat16(5))), []int32{7}})
}

// TestArrowGoDictEmpty: arrow-go leaves the empty string out of the min
// of a dictionary-encoded chunk of an Arrow dictionary array
// (arrowgo_dict_empty.parquet: s is "b", "", "c", "" for ids 0-3; min
// "b"). s = "" and s < "b" returned no row; the min of arrow-go's
// dictionary-encoded BYTE_ARRAY chunks and pages is now taken as "", and
// their max is still used.
func TestArrowGoDictEmpty(t *testing.T) {
	const file = "arrowgo_dict_empty.parquet"
	checkCleanCases(t, file,
		filterCase{leafOn("s", meta.ByteArray, opEq, ""), []int32{1, 3}},
		filterCase{leafOn("s", meta.ByteArray, opLt, "b"), []int32{1, 3}},
		filterCase{leafOn("s", meta.ByteArray, opGt, "c"), nil},
		filterCase{leafOn("s", meta.ByteArray, opGe, "b"), []int32{0, 2}})
	fr, err := openDeviation(t, file)
	if err != nil {
		t.Fatal(err)
	}
	if ok, emptyMin := fr.File().boundsUsable(0, fr.File().Schema.Leaf("s").Column); !ok || !emptyMin {
		t.Errorf("boundsUsable = %v, %v; want true, true (the max is right)", ok, emptyMin)
	}
}

// TestParquetGoLZ4Bloom: parquet-go fills the bloom filter of an LZ4
// column from the bytes LZ4 leaves in its pages after compressing them
// (parquetgo_lz4_bloom.parquet: v = w = id*7919 for ids 0-599, v LZ4, w
// ZSTD, both with bloom filters; v's holds none of the values). v = 39595
// returned no row; the bloom filters of parquet-go's LZ4 chunks are no
// longer used.
func TestParquetGoLZ4Bloom(t *testing.T) {
	const file = "parquetgo_lz4_bloom.parquet"
	fr, err := openDeviation(t, file)
	if err != nil {
		t.Fatal(err)
	}
	bf, err := fr.BloomFilter(0, fr.File().Schema.Leaf("v").Column)
	if err != nil {
		t.Fatal(err)
	}
	if bf.Check(bloom.HashInt64(39595)) {
		t.Fatal("v's bloom filter holds 39595: parquet-go no longer garbles it")
	}
	checkCleanCases(t, file,
		filterCase{leafOn("v", meta.Int64, opEq, int64(39595)), []int32{5}},
		filterCase{leafOn("v", meta.Int64, opIn, int64(0), int64(7919*599)), []int32{0, 599}},
		filterCase{leafOn("w", meta.Int64, opEq, int64(39595)), []int32{5}},
		filterCase{leafOn("w", meta.Int64, opEq, int64(39596)), nil})
}

// TestDeviationParquetGoIndexNullBounds: parquet-go leaves the min and
// max values of null pages out of its column index of FIXED_LEN_BYTE_ARRAY
// columns (parquetgo_index_null_bounds.parquet: o is 00 00 00 id*10+1 for
// ids 0-9, null for ids 10-19, in 9 pages, the last 4 null; the index has
// 5 mins and maxes). ColumnIndex refused it (lists of different lengths)
// and filtered reads on o failed; now it puts empty bounds in for the null
// pages and records the deviation, and under WithStrict fails naming it.
func TestDeviationParquetGoIndexNullBounds(t *testing.T) {
	const file = "parquetgo_index_null_bounds.parquet"
	fr, err := openDeviation(t, file)
	if err != nil {
		t.Fatal(err)
	}
	ci, err := fr.ColumnIndex(0, fr.File().Schema.Leaf("o").Column)
	if err != nil {
		t.Fatal(err)
	}
	if len(ci.NullPages) != 9 || len(ci.MinValues) != 9 || len(ci.MaxValues) != 9 || len(ci.MinValues[5]) != 0 || len(ci.MaxValues[8]) != 0 ||
		len(ci.MinValues[4]) != 4 {
		t.Errorf("ColumnIndex(0, o) = %+v, want 9 pages, empty bounds for the last 4", ci)
	}
	o36 := []byte{0, 0, 0, 36}
	dev := Deviation{Kind: DeviationIndexNullBounds, Column: "o", RowGroup: 0, Page: -1}
	checkFilterCases(t, file, dev,
		filterCase{leafOn("o", meta.FixedLenByteArray, opGt, o36), []int32{4, 5, 6, 7, 8, 9}},
		filterCase{leafOn("o", meta.FixedLenByteArray, opLt, []byte{0, 0, 0, 12}), []int32{0, 1}})
	_, _, err = filteredIDs(t, file, leafOn("o", meta.FixedLenByteArray, opGt, o36), WithStrict(true))
	wantStrict(t, err, DeviationIndexNullBounds, `column "o", row group 0`)
}

// TestParquetGoFloatNaN: parquet-go restarts the min and max of a
// dictionary-encoded float column after a NaN among its dictionary's
// values (parquetgo_float_nan.parquet: g is -50, 1, NaN, 3, 4 for ids
// 0-4; bounds [3, 4]). g < 0 and g = 1 returned no row; the bounds of
// parquet-go's dictionary-encoded floats are no longer used.
func TestParquetGoFloatNaN(t *testing.T) {
	const file = "parquetgo_float_nan.parquet"
	checkCleanCases(t, file,
		filterCase{leafOn("g", meta.Float, opLt, float32(0)), []int32{0}},
		filterCase{leafOn("g", meta.Float, opEq, float32(1)), []int32{1}},
		filterCase{leafOn("g", meta.Float, opGe, float32(3)), []int32{3, 4}})
}
