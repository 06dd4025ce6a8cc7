package interop

import (
	"encoding/binary"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/parquet"
)

// TestReadArrowGoEmptyRowGroups reads a file in which arrow-go wrote each
// empty record batch as a row group of 0 rows whose column chunks hold no
// page and sit at data_page_offset 0 (found by TestArrowGoFuzz, seed 16;
// with dictionaries on, the empty chunks hold a dictionary page, which
// locates them). The reader took such a chunk for one lying outside the
// file and failed the read with ErrChunk; it now reads the group as
// empty and finds the rows arrow-go reads.
func TestReadArrowGoEmptyRowGroups(t *testing.T) {
	sc := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "l", Type: arrow.ListOf(arrow.PrimitiveTypes.Int32), Nullable: true},
	}, nil)
	for _, dict := range []bool{false, true} {
		props := parquet.NewWriterProperties(parquet.WithPageIndexEnabled(true), parquet.WithDictionaryDefault(dict))
		data := writeArrowGoBatches(t, sc, props)
		r := openOwn(t, data)
		md := r.File().Meta
		if c := md.RowGroups[1].Columns[0].MetaData; len(md.RowGroups) != 4 || md.RowGroups[1].NumRows != 0 || c.DataPageOffset != 0 ||
			c.TotalCompressedSize != 0 && !dict {
			t.Fatalf("dictionaries %v: arrow-go no longer writes an empty batch as a row group of empty chunks at offset 0: %d row groups, the second %+v",
				dict, len(md.RowGroups), c)
		}
		cols, err := readAllPlain(r)
		if err != nil {
			t.Fatalf("dictionaries %v: %v", dict, err)
		}
		var ids []int64
		for _, v := range cols[0].vals {
			ids = append(ids, int64(binary.LittleEndian.Uint64(v)))
		}
		if want := []int64{1, 2, 3, 4}; !slices.Equal(ids, want) {
			t.Errorf("dictionaries %v: ids %v, want %v", dict, ids, want)
		}
		for ci, want := range arrowReadAll(t, data) {
			sameGot(t, "pqgen", ci, &cols[ci], &want, true)
		}
	}
}

// writeArrowGoBatches has arrow-go write four record batches of sc, the
// second and the last empty, each its own row group.
func writeArrowGoBatches(t *testing.T, sc *arrow.Schema, props *parquet.WriterProperties) []byte {
	t.Helper()
	return writeArrowGo(t, sc, props, jsonRecords(t, sc,
		`[{"id": 1, "s": "a", "l": [1, 2]}, {"id": 2, "s": null, "l": null}, {"id": 3, "s": "c", "l": []}]`,
		`[]`,
		`[{"id": 4, "s": "d", "l": [null]}]`,
		`[]`))
}
