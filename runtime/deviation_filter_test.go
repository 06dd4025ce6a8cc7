package runtime

import (
	"errors"
	"io"
	"slices"
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

// TestDeviationPolarsNullPage: Polars writes the column index entry of a
// page of floats holding NaN with null_pages true, with 0 nulls (f) or
// some (g) in its 20 rows. Filtered reads took the page as all null and
// returned no row; now they take its values as unbounded, with the rows
// of the SQL in peers/js/deviations.mjs, and record the deviation per
// column; under WithStrict the filtered read fails naming it.
func TestDeviationPolarsNullPage(t *testing.T) {
	for _, c := range []struct {
		p    Predicate
		want []int32
		col  string
	}{
		// f: i*0.5-3, NaN when i%5 == 1; g: f, null when i%4 == 3.
		{leafOn("f", meta.Double, opEq, 2.0), []int32{10}, "f"},
		{leafOn("f", meta.Double, opBetween, -1.0, 1.0), []int32{4, 5, 7, 8}, "f"},
		{leafOn("g", meta.Double, opGt, 4.0), []int32{17, 18}, "g"},
		{leafOn("g", meta.Double, opIsNull), []int32{3, 7, 11, 15, 19}, "g"},
	} {
		got, fr, err := filteredIDs(t, "polars_nan_null_page.parquet", c.p)
		if err != nil {
			t.Fatalf("%s: %v", c.p, err)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: ids %v, want %v", c.p, got, c.want)
		}
		wantDeviations(t, fr.File(), Deviation{Kind: DeviationNullPageValues, Column: c.col, RowGroup: 0, Page: 0})
	}
	_, fr, err := filteredIDs(t, "polars_nan_null_page.parquet", leafOn("f", meta.Double, opEq, 2.0), WithStrict(true))
	wantStrict(t, err, DeviationNullPageValues, `column "f", row group 0, page 0`)
	if fr != nil && len(fr.File().Deviations()) != 0 {
		t.Fatal("deviations recorded under WithStrict")
	}
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
	for _, c := range []struct {
		p    Predicate
		want []int32
	}{
		{leafOn("s", meta.ByteArray, opEq, "k2"), []int32{2, 8, 14}},
		{leafOn("s", meta.ByteArray, opIn, "k5", "zz"), []int32{5, 17}},
		{leafOn("s", meta.ByteArray, opEq, "zz"), nil},
	} {
		got, fr, err := filteredIDs(t, "parquetjs_bloom_unset.parquet", c.p)
		if err != nil {
			t.Fatalf("%s: %v", c.p, err)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: ids %v, want %v", c.p, got, c.want)
		}
		wantDeviations(t, fr.File(), Deviation{Kind: DeviationBloomUnset, Column: "s", RowGroup: 0, Page: -1})
	}
	_, _, err = filteredIDs(t, "parquetjs_bloom_unset.parquet", leafOn("s", meta.ByteArray, opEq, "k2"), WithStrict(true))
	wantStrict(t, err, DeviationBloomUnset, `column "s", row group 0`)
}
