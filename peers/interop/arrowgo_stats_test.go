package interop

import (
	"bytes"
	"flag"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/float16"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	pgo "github.com/parquet-go/parquet-go"
)

var updateArrowGo = flag.Bool("update-arrowgo", false, "rewrite the files of runtime/testdata/deviations that the Go peers write")

// TestArrowGoStatsFiles checks that the files of runtime/testdata/
// deviations that runtime's TestArrowGo* tests read are what arrow-go
// writes (-update-arrowgo rewrites them). Each holds an INT32 id and a
// column whose bounds arrow-go gets wrong:
//
//   - arrowgo_list_stats.parquet: ids 0-9 and a list of int64 l written in
//     batches of 2 rows, so that the batches [[], [100]] and [null, [200]]
//     hold no more values than null or empty lists, which arrow-go
//     leaves out of the chunk's and the page's bounds (max 6 where 200
//     occurs); then, as a second row group, the batch [[], [null, 50]],
//     whose page arrow-go marks as a null page;
//   - arrowgo_float16_nan.parquet: ids 0-7 and a FLOAT16 f written in
//     batches of 4 rows, [1, 2, 3, 4] then [-50, null, NaN, 7]: in a
//     batch with a null (the spaced path), a NaN makes arrow-go forget
//     the values before it (and a NaN last, all of the batch's), and
//     the chunk's bounds are [1, 7];
//   - arrowgo_dict_empty.parquet: ids 0-3 and an Arrow dictionary array
//     s of "b", "", "c", "", dictionary-encoded: the min is "b".
func TestArrowGoStatsFiles(t *testing.T) {
	for _, c := range []struct {
		name   string
		fields []arrow.Field
		props  []parquet.WriterProperty
		rows   []string // JSON record batches, or builder input below
		build  func(sc *arrow.Schema) []arrow.RecordBatch
	}{
		{name: "arrowgo_list_stats.parquet",
			fields: []arrow.Field{{Name: "id", Type: arrow.PrimitiveTypes.Int32}, {Name: "l", Type: arrow.ListOf(arrow.PrimitiveTypes.Int64), Nullable: true}},
			props:  []parquet.WriterProperty{parquet.WithPageIndexEnabled(true), parquet.WithDictionaryDefault(false), parquet.WithBatchSize(2)},
			rows: []string{
				`[{"id": 0, "l": [1, 2]}, {"id": 1, "l": [3, 4]}, {"id": 2, "l": []}, {"id": 3, "l": [100]}, {"id": 4, "l": null},
				  {"id": 5, "l": [200]}, {"id": 6, "l": [5]}, {"id": 7, "l": [6]}]`,
				`[{"id": 8, "l": []}, {"id": 9, "l": [null, 50]}]`,
			}},
		{name: "arrowgo_float16_nan.parquet",
			fields: []arrow.Field{{Name: "id", Type: arrow.PrimitiveTypes.Int32}, {Name: "f", Type: arrow.FixedWidthTypes.Float16, Nullable: true}},
			props:  []parquet.WriterProperty{parquet.WithPageIndexEnabled(true), parquet.WithBatchSize(4)},
			build: func(sc *arrow.Schema) []arrow.RecordBatch {
				rb := array.NewRecordBuilder(memory.DefaultAllocator, sc)
				defer rb.Release()
				ids, fs := rb.Field(0).(*array.Int32Builder), rb.Field(1).(*array.Float16Builder)
				for i, v := range []float32{1, 2, 3, 4, -50, -1, float32(math.NaN()), 7} {
					ids.Append(int32(i))
					if v == -1 {
						fs.AppendNull()
					} else {
						fs.Append(float16.New(v))
					}
				}
				return []arrow.RecordBatch{rb.NewRecordBatch()}
			}},
		{name: "arrowgo_dict_empty.parquet",
			fields: []arrow.Field{{Name: "id", Type: arrow.PrimitiveTypes.Int32},
				{Name: "s", Type: &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: arrow.BinaryTypes.String}, Nullable: true}},
			props: []parquet.WriterProperty{parquet.WithPageIndexEnabled(true)},
			build: func(sc *arrow.Schema) []arrow.RecordBatch {
				rb := array.NewRecordBuilder(memory.DefaultAllocator, sc)
				defer rb.Release()
				ids, ss := rb.Field(0).(*array.Int32Builder), rb.Field(1).(*array.BinaryDictionaryBuilder)
				for i, v := range []string{"b", "", "c", ""} {
					ids.Append(int32(i))
					if err := ss.AppendString(v); err != nil {
						t.Fatal(err)
					}
				}
				return []arrow.RecordBatch{rb.NewRecordBatch()}
			}},
	} {
		sc := arrow.NewSchema(c.fields, nil)
		var recs []arrow.RecordBatch
		if c.build != nil {
			recs = c.build(sc)
		}
		data := writeArrowGo(t, sc, parquet.NewWriterProperties(c.props...), append(recs, jsonRecords(t, sc, c.rows...)...))
		checkTestdata(t, c.name, data)
	}
}

// jsonRecords returns a record batch of sc for each JSON array of rows.
func jsonRecords(t *testing.T, sc *arrow.Schema, batches ...string) []arrow.RecordBatch {
	t.Helper()
	var out []arrow.RecordBatch
	for _, js := range batches {
		rec, _, err := array.RecordFromJSON(memory.DefaultAllocator, sc, strings.NewReader(js))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, rec)
	}
	return out
}

// writeArrowGo has arrow-go (pqarrow) write recs, each its own row group,
// and releases them.
func writeArrowGo(t *testing.T, sc *arrow.Schema, props *parquet.WriterProperties, recs []arrow.RecordBatch) []byte {
	t.Helper()
	var buf bytes.Buffer
	fw, err := pqarrow.NewFileWriter(sc, &buf, props, pqarrow.DefaultWriterProps())
	if err != nil {
		t.Fatal(err)
	}
	for _, rec := range recs {
		err = fw.Write(rec)
		rec.Release()
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := fw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// pgoLZ4Row is a row of parquetgo_lz4_bloom.parquet.
type pgoLZ4Row struct {
	ID int32 `parquet:"id"`
	V  int64 `parquet:"v,lz4"`
	W  int64 `parquet:"w,zstd"`
}

// TestParquetGoBloomFile checks that runtime/testdata/deviations/
// parquetgo_lz4_bloom.parquet, which runtime's TestParquetGoLZ4Bloom reads,
// is what parquet-go writes (-update-arrowgo rewrites it): ids 0-599 and
// v = w = id*7919, v compressed with LZ4 and w with ZSTD, both with bloom
// filters, written a row at a time. parquet-go fills v's filter from LZ4's
// leftovers: it holds none of the values (of 300 rows, 138 of 300; of 200,
// all; a GenericWriter given the rows at once fills its filters from the
// values and is right).
func TestParquetGoBloomFile(t *testing.T) {
	var buf bytes.Buffer
	w := pgo.NewWriter(&buf, pgo.SchemaOf(new(pgoLZ4Row)), pgo.BloomFilters(pgo.SplitBlockFilter(10, "v"), pgo.SplitBlockFilter(10, "w")))
	for i := range 600 {
		if err := w.Write(&pgoLZ4Row{ID: int32(i), V: int64(i) * 7919, W: int64(i) * 7919}); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	checkTestdata(t, "parquetgo_lz4_bloom.parquet", buf.Bytes())
}

// checkTestdata compares data with runtime/testdata/deviations/name, which
// -update-arrowgo rewrites first.
func checkTestdata(t *testing.T, name string, data []byte) {
	t.Helper()
	path := filepath.Join("..", "..", "runtime", "testdata", "deviations", name)
	if *updateArrowGo {
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	old, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(old, data) {
		t.Errorf("%s differs from what its writer writes now: check that the writer still has the fault, then run with -update-arrowgo", path)
	}
}

// pgoNullRow is a row of parquetgo_index_null_bounds.parquet.
type pgoNullRow struct {
	ID int32   `parquet:"id"`
	O  [4]byte `parquet:"o,optional"` // the zero value is null
}

// TestParquetGoIndexFile checks that runtime/testdata/deviations/
// parquetgo_index_null_bounds.parquet, which runtime's
// TestParquetGoIndexNullBounds reads, is what parquet-go writes
// (-update-arrowgo rewrites it): ids 0-19 and an optional 4-byte o,
// 00 00 00 id*10+1 for ids 0-9 and null after, in pages of 16 bytes.
// parquet-go's column index of o has min_values and max_values for the
// pages of values only, not for the null pages (so for its
// FIXED_LEN_BYTE_ARRAY columns; an optional int64 gets placeholder
// bounds).
func TestParquetGoIndexFile(t *testing.T) {
	var buf bytes.Buffer
	w := pgo.NewWriter(&buf, pgo.SchemaOf(new(pgoNullRow)), pgo.PageBufferSize(16))
	for i := range 20 {
		r := pgoNullRow{ID: int32(i)}
		if i < 10 {
			r.O = [4]byte{0, 0, 0, byte(i*10 + 1)}
		}
		if err := w.Write(&r); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	checkTestdata(t, "parquetgo_index_null_bounds.parquet", buf.Bytes())
}

// pgoFloatRow is a row of parquetgo_float_nan.parquet.
type pgoFloatRow struct {
	ID int32   `parquet:"id"`
	G  float32 `parquet:"g,dict"`
}

// TestParquetGoFloatFile checks that runtime/testdata/deviations/
// parquetgo_float_nan.parquet, which runtime's TestParquetGoFloatNaN reads,
// is what parquet-go writes (-update-arrowgo rewrites it): ids 0-4 and a
// dictionary-encoded float g of -50, 1, NaN, 3, 4, whose bounds parquet-go
// gives as [3, 4]: the values before the NaN are left out.
func TestParquetGoFloatFile(t *testing.T) {
	var buf bytes.Buffer
	w := pgo.NewGenericWriter[pgoFloatRow](&buf)
	for i, v := range []float32{-50, 1, float32(math.NaN()), 3, 4} {
		if _, err := w.Write([]pgoFloatRow{{ID: int32(i), G: v}}); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	checkTestdata(t, "parquetgo_float_nan.parquet", buf.Bytes())
}
