package runtime

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/pqgen/pqgen/runtime/compress"
	"github.com/pqgen/pqgen/runtime/encode"
	"github.com/pqgen/pqgen/runtime/meta"
	"github.com/pqgen/pqgen/runtime/variant"
)

// The files of testdata/deviations were written by the writers
// themselves (peers/js/deviations.mjs: DuckDB 1.5.6 through
// @duckdb/node-api, hyparquet-writer 0.17.0); the expected values are
// those the writer's own reader gives back (DuckDB, hyparquet), printed
// by the same script.

// openDeviation opens testdata/deviations/name with opts.
func openDeviation(t *testing.T, name string, opts ...ReaderOption) (*FileReader, error) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "deviations", name))
	if err != nil {
		t.Fatal(err)
	}
	return NewFileReader(strings.NewReader(string(b)), int64(len(b)), opts...)
}

// wantDeviations checks the kinds and columns recorded, in order.
func wantDeviations(t *testing.T, f *File, want ...Deviation) {
	t.Helper()
	got := f.Deviations()
	if len(got) != len(want) {
		t.Fatalf("deviations %v, want %d", got, len(want))
	}
	for i, d := range got {
		w := want[i]
		if d.Kind != w.Kind || d.Column != w.Column || d.RowGroup != w.RowGroup || d.Page != w.Page || d.Writer == "" || d.What == "" {
			t.Errorf("deviation %d: %+v, want kind %s, column %q, row group %d, page %d", i, d, w.Kind, w.Column, w.RowGroup, w.Page)
		}
	}
}

// wantStrict checks that err wraps ErrDeviation and names kind (and
// column, when given).
func wantStrict(t *testing.T, err error, kind DeviationKind, column string) {
	t.Helper()
	if !errors.Is(err, ErrDeviation) || !strings.Contains(err.Error(), string(kind)) || !strings.Contains(err.Error(), column) {
		t.Fatalf("strict: %v, want ErrDeviation naming %s and %q", err, kind, column)
	}
}

// readInt32 reads every row of INT32 leaf col: values (nulls as nil).
func readInt32(t *testing.T, fr *FileReader, col int) ([]*int32, error) {
	t.Helper()
	r, err := fr.Int32Reader(col)
	if err != nil {
		t.Fatal(err)
	}
	n, err := r.ReadRows(int(fr.NumRows()) + 1)
	if err != nil {
		return nil, err
	}
	out := make([]*int32, n)
	vi := 0
	for i := range n {
		if len(r.Def) == 0 || r.Def[i] == 1 {
			v := r.Values[vi]
			out[i] = &v
			vi++
		}
	}
	return out, nil
}

// mustInt32 is readInt32 failing the test on error.
func mustInt32(t *testing.T, fr *FileReader, col int) []*int32 {
	t.Helper()
	v, err := readInt32(t, fr, col)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestDeviationDuckDBDelta33: DuckDB 1.5 (PARQUET_VERSION V2) writes the
// INT32 and UINT32 deltas between values 2^32 apart in miniblocks of bit
// width 33. Read leniently, the values are DuckDB's; under WithStrict
// the read fails naming the deviation.
func TestDeviationDuckDBDelta33(t *testing.T) {
	fr, err := openDeviation(t, "duckdb_delta33.parquet")
	if err != nil {
		t.Fatal(err)
	}
	a := mustInt32(t, fr, 1)
	u := mustInt32(t, fr, 2)
	if len(a) != 200 || len(u) != 200 {
		t.Fatalf("%d and %d rows, want 200", len(a), len(u))
	}
	// As the script's SQL computes them (and DuckDB reads them back).
	for i := range 200 {
		var wa *int32
		switch {
		case i%7 == 6:
		case i >= 190:
			v := int32(i - 195)
			wa = &v
		case i%2 == 0:
			v := int32(math.MinInt32 + i)
			wa = &v
		default:
			v := int32(math.MaxInt32 - i)
			wa = &v
		}
		if (a[i] == nil) != (wa == nil) || (wa != nil && *a[i] != *wa) {
			t.Fatalf("a row %d: %v, want %v", i, a[i], wa)
		}
		wu := uint32(i)
		if i%2 == 1 {
			wu = math.MaxUint32 - uint32(i)
		}
		if u[i] == nil || uint32(*u[i]) != wu {
			t.Fatalf("u row %d: %v, want %d", i, u[i], wu)
		}
	}
	if *a[1] != 2147483646 || uint32(*u[1]) != 4294967294 || a[6] != nil || *a[199] != 4 {
		t.Fatal("rows 1, 6, 199 differ from DuckDB's reading")
	}
	wantDeviations(t, fr.File(),
		Deviation{Kind: DeviationWideDelta, Column: "a", RowGroup: 0, Page: 0},
		Deviation{Kind: DeviationWideDelta, Column: "u", RowGroup: 0, Page: 0})

	fr, err = openDeviation(t, "duckdb_delta33.parquet", WithStrict(true))
	if err != nil {
		t.Fatal(err)
	}
	_, err = readInt32(t, fr, 1)
	wantStrict(t, err, DeviationWideDelta, `column "a", row group 0, page 0`)
	if len(fr.File().Deviations()) != 0 {
		t.Fatal("deviations recorded under WithStrict")
	}
}

// readVariantsJSON reads every Variant of the group at path, as JSON ("null"
// for a null group).
func readVariantsJSON(t *testing.T, fr *FileReader, path string) ([]string, error) {
	t.Helper()
	v, err := fr.VariantReader(path)
	if err != nil {
		return nil, err
	}
	if _, err := v.ReadRows(int(fr.NumRows()) + 1); err != nil {
		return nil, err
	}
	var out []string
	for _, e := range v.Rows {
		if e.IsNull() {
			out = append(out, "null")
			continue
		}
		x, err := e.Parse()
		if err != nil {
			t.Fatal(err)
		}
		if x.Unsorted() {
			t.Fatalf("the reader handed out an object out of key order: % x", e.Value)
		}
		out = append(out, x.String())
	}
	return out, nil
}

// TestDeviationVariants: DuckDB 1.5 lists the fields of Variant objects
// in first-use order of their keys; hyparquet-writer 0.17 shreds Variant
// object fields as optional groups. Both read (objects come out
// re-encoded in key order; a null field group is a missing field), with
// the values the writers' own readers give; under WithStrict the read
// fails naming the deviation.
func TestDeviationVariants(t *testing.T) {
	for _, c := range []struct {
		file string
		want []string
		devs []Deviation
	}{
		{"duckdb_variant_unsorted.parquet",
			// DuckDB: {'alpha': x, 'mid': [1, 2], 'zeta': 1}, {'a': 3, 'b':
			// {'x': true, 'y': 2}}, NULL, 42, text.
			[]string{`{"alpha":"x","mid":[1,2],"zeta":1}`, `{"a":3,"b":{"x":true,"y":2}}`, "null", "42", `"text"`},
			[]Deviation{{Kind: DeviationVariantUnsorted, Column: "v.value", RowGroup: -1, Page: -1}}},
		{"hyparquet_variant_optional.parquet",
			// hyparquet: {"a":1,"b":"x"}, {"a":2}, {"c":true,"b":"y"}, "plain".
			[]string{`{"a":1,"b":"x"}`, `{"a":2}`, `{"b":"y","c":true}`, `"plain"`},
			[]Deviation{{Kind: DeviationVariantOptionalField, Column: "v.typed_value.a", RowGroup: -1, Page: -1},
				{Kind: DeviationVariantOptionalField, Column: "v.typed_value.b", RowGroup: -1, Page: -1}}},
	} {
		t.Run(c.file, func(t *testing.T) {
			fr, err := openDeviation(t, c.file)
			if err != nil {
				t.Fatal(err)
			}
			got, err := readVariantsJSON(t, fr, "v")
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, c.want) {
				t.Fatalf("got %q\nwant %q", got, c.want)
			}
			wantDeviations(t, fr.File(), c.devs...)

			fr, err = openDeviation(t, c.file, WithStrict(true))
			if err != nil {
				t.Fatal(err)
			}
			_, err = readVariantsJSON(t, fr, "v")
			wantStrict(t, err, c.devs[0].Kind, `column "`+c.devs[0].Column+`"`)
		})
	}
}

// TestDeviationHyparquetIntWidth: hyparquet-writer 0.17 writes the
// INTEGER logical type's bitWidth as a Thrift i32. The footer reads, the
// annotations are the written ones, and the values are hyparquet's;
// under WithStrict the file does not open.
func TestDeviationHyparquetIntWidth(t *testing.T) {
	fr, err := openDeviation(t, "hyparquet_int_width.parquet")
	if err != nil {
		t.Fatal(err)
	}
	s := fr.File().Schema
	if got := s.String(); !strings.Contains(got, "required int32 i8 (INT(8,true));") || !strings.Contains(got, "optional int32 u16 (INT(16,false));") {
		t.Fatalf("schema:\n%s", got)
	}
	i8 := mustInt32(t, fr, 0)
	u16 := mustInt32(t, fr, 1)
	var gi, gu []int32
	for i := range i8 {
		gi, gu = append(gi, *i8[i]), append(gu, *u16[i])
	}
	if !slices.Equal(gi, []int32{-128, 0, 127}) || !slices.Equal(gu, []int32{0, 1, 65535}) {
		t.Fatalf("i8 %v, u16 %v", gi, gu)
	}
	wantDeviations(t, fr.File(), Deviation{Kind: DeviationThriftIntWidth, RowGroup: -1, Page: -1})
	if d := fr.File().Deviations()[0]; !strings.Contains(d.What, "IntType.bitWidth") || !strings.Contains(d.What, "i32") {
		t.Fatalf("deviation: %s", d)
	}

	_, err = openDeviation(t, "hyparquet_int_width.parquet", WithStrict(true))
	wantStrict(t, err, DeviationThriftIntWidth, "IntType.bitWidth")
}

// TestDeviationParquetjsRLE: parquetjs (@dsnp/parquetjs 1.8) writes
// INT32 and INT64 columns with encoding 'RLE' in the RLE/bit-packed
// hybrid at the bit width it stores as type_length (8, 12 and 32 for
// INT32 columns, one optional; 20 for INT64), in data pages v1 and v2,
// two row groups of pages of 50 rows. Every value read equals the one
// parquetjs's own reader gives back (parquetjs_rle.jsonl, printed by
// peers/js/deviations.mjs): among them the negative values of width 32,
// whose sign bit parquetjs drops in bit-packed groups but keeps in runs.
// Each RLE column is noted once per row group; under WithStrict its read
// fails naming the deviation.
func TestDeviationParquetjsRLE(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("testdata", "deviations", "parquetjs_rle.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	type row struct {
		ID, U8, I12 int32
		I32         *int32
		I64         int64
	}
	var want []row
	for line := range strings.Lines(string(b)) {
		var r row
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatal(err)
		}
		want = append(want, r)
	}
	if len(want) != 300 {
		t.Fatalf("%d expected rows, want 300", len(want))
	}
	for _, name := range []string{"parquetjs_rle_v1.parquet", "parquetjs_rle_v2.parquet"} {
		fr, err := openDeviation(t, name)
		if err != nil {
			t.Fatal(err)
		}
		id, u8, i12, i32 := mustInt32(t, fr, 0), mustInt32(t, fr, 1), mustInt32(t, fr, 2), mustInt32(t, fr, 3)
		r64, err := fr.Int64Reader(4)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := r64.ReadRows(int(fr.NumRows()) + 1); err != nil {
			t.Fatal(err)
		}
		if len(id) != len(want) || len(r64.Values) != len(want) {
			t.Fatalf("%s: %d and %d rows, want %d", name, len(id), len(r64.Values), len(want))
		}
		negative := 0
		for i, w := range want {
			if *id[i] != w.ID || *u8[i] != w.U8 || *i12[i] != w.I12 || r64.Values[i] != w.I64 ||
				(i32[i] == nil) != (w.I32 == nil) || w.I32 != nil && *i32[i] != *w.I32 {
				t.Fatalf("%s row %d: id %d, u8 %d, i12 %d, i32 %v, i64 %d; parquetjs reads %+v", name, i, *id[i], *u8[i], *i12[i], i32[i], r64.Values[i], w)
			}
			if w.I32 != nil && *w.I32 < 0 {
				negative++
			}
		}
		if negative == 0 || *i32[3] != 2147480648 || i32[5] != nil {
			t.Fatalf("%s: %d negative i32 values, row 3 %v, row 5 %v: the file no longer holds the cases", name, negative, i32[3], i32[5])
		}
		var devs []Deviation // in the order read: column by column
		for _, c := range []string{"u8", "i12", "i32", "i64"} {
			for rg := range 2 {
				devs = append(devs, Deviation{Kind: DeviationRLEIntegers, Column: c, RowGroup: rg, Page: 0})
			}
		}
		wantDeviations(t, fr.File(), devs...)

		fr, err = openDeviation(t, name, WithStrict(true))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := readInt32(t, fr, 0); err != nil {
			t.Fatalf("%s: the PLAIN column under WithStrict: %v", name, err)
		}
		_, err = readInt32(t, fr, 2)
		wantStrict(t, err, DeviationRLEIntegers, `column "i12", row group 0, page 0`)
	}
}

// TestDeviationDuckDBEncrypted: DuckDB 1.5 encrypts the footer and every
// module with AES-GCM without AAD, its columns with the footer key
// without crypto_metadata, and gives page sizes before encryption. The
// file reads with the footer key; under WithStrict it does not open; a
// wrong key still fails authentication.
func TestDeviationDuckDBEncrypted(t *testing.T) {
	key := []byte("0123456789012345")
	fr, err := openDeviation(t, "duckdb_encrypted.parquet", WithFooterKey(key))
	if err != nil {
		t.Fatal(err)
	}
	id := mustInt32(t, fr, 0)
	r, err := fr.ByteArrayReader(1)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.ReadRows(10); err != nil {
		t.Fatal(err)
	}
	for i := range 5 {
		if id[i] == nil || *id[i] != int32(i) || r.String(i) != "row "+string(rune('0'+i)) {
			t.Fatalf("row %d: %v %q", i, id[i], r.String(i))
		}
	}
	if len(id) != 5 || r.Values.Len() != 5 {
		t.Fatalf("%d and %d rows, want 5", len(id), r.Values.Len())
	}
	wantDeviations(t, fr.File(), Deviation{Kind: DeviationEncryptionNoAAD, RowGroup: -1, Page: -1})

	_, err = openDeviation(t, "duckdb_encrypted.parquet", WithFooterKey(key), WithStrict(true))
	wantStrict(t, err, DeviationEncryptionNoAAD, "")
	_, err = openDeviation(t, "duckdb_encrypted.parquet", WithFooterKey([]byte("0123456789012346")))
	if err == nil || errors.Is(err, ErrDeviation) {
		t.Fatalf("wrong key: %v", err)
	}
}

// TestDeviationWriterStaysSorted: what readers tolerate, the writer does
// not produce: a Variant object out of key order and a schema with an
// optional shredded field are refused; what pqgen writes reads without
// deviation.
func TestDeviationWriterStaysSorted(t *testing.T) {
	m := []byte{0x01, 2, 0, 1, 2, 'a', 'b'}
	unsorted := variant.Encoded{Metadata: m, Value: []byte{0x02, 2, 1, 0, 0, 2, 4, byte(variant.KindInt8) << 2, 7, byte(variant.KindInt8) << 2, 8}}
	if v, err := unsorted.Parse(); err != nil || !v.Unsorted() {
		t.Fatalf("test value: %v", err)
	}
	var buf bytes.Buffer
	fw, err := NewFileWriter(&buf, mustSchema(t, `message m { required group v (VARIANT) { required binary metadata; required binary value; } }`))
	if err != nil {
		t.Fatal(err)
	}
	vw, err := fw.VariantWriter("v")
	if err != nil {
		t.Fatal(err)
	}
	if err := vw.Append(unsorted, 0); !errors.Is(err, variant.ErrMalformed) || !strings.Contains(err.Error(), "key order") {
		t.Fatalf("unsorted object: %v", err)
	}
	sorted := encodeVariant(t, func(b *variant.Builder) {
		b.StartObject()
		b.Key("b")
		b.AppendInt64(8)
		b.Key("a")
		b.AppendInt64(7)
		b.End()
	})
	if err := vw.Append(sorted, 0); err != nil {
		t.Fatal(err)
	}
	if err := fw.EndRows(1); err != nil {
		t.Fatal(err)
	}
	if err := fw.Close(); err != nil {
		t.Fatal(err)
	}
	fr, err := NewFileReader(bytes.NewReader(buf.Bytes()), int64(buf.Len()), WithStrict(true))
	if err != nil {
		t.Fatal(err)
	}
	got, err := readVariantsJSON(t, fr, "v")
	if err != nil || !slices.Equal(got, []string{`{"a":7,"b":8}`}) || len(fr.File().Deviations()) != 0 {
		t.Fatalf("pqgen's own file: %q, %v, %v", got, err, fr.File().Deviations())
	}

	fw, err = NewFileWriter(&buf, mustSchema(t, `message m { required group v (VARIANT) { required binary metadata; optional binary value;
  optional group typed_value { optional group a { optional binary value; } } } }`))
	if err == nil {
		_, err = fw.VariantWriter("v")
	}
	if !errors.Is(err, variant.ErrShape) {
		t.Fatalf("optional shredded field on the write side: %v", err)
	}
}

// TestDeviationV2CompressedAnyway: parquet-cpp before Arrow 3.0
// ("parquet-cpp version 1.x") compressed the values of DATA_PAGE_V2 pages
// while setting is_compressed to false (ARROW-10353); Arrow C++ reads
// them as compressed. No such writer can be run here, so the file is
// pqgen's own with that writer's created_by and the flag cleared in the
// page header (same length: a compact bool is its field header's type).
// Any other writer's page with the flag cleared is taken at its word.
func TestDeviationV2CompressedAnyway(t *testing.T) {
	write := func(createdBy string) []byte {
		var buf bytes.Buffer
		fw, err := NewFileWriter(&buf, mustSchema(t, "message m { required int64 a; }"),
			WithDataPageVersion(2), WithCompression(meta.Snappy, compress.DefaultLevel), WithDictionary(false), WithCreatedBy(createdBy))
		if err != nil {
			t.Fatal(err)
		}
		b, _ := fw.Int64Buffer(0)
		for i := range 1000 {
			b.Values = append(b.Values, int64(i%10)) // compresses well
		}
		data, off := finishFirstPage(t, fw, &buf, 1000)
		h, n, err := meta.DecodePageHeader(data[off:], nil)
		if err != nil || !h.DataPageHeaderV2.Compressed() || h.CompressedPageSize >= h.UncompressedPageSize {
			t.Fatalf("page header %+v: %v", h, err)
		}
		h.DataPageHeaderV2.IsCompressed = meta.Some(false)
		enc := h.AppendThrift(nil)
		if len(enc) != n {
			t.Fatalf("re-encoded header of %d bytes, was %d", len(enc), n)
		}
		copy(data[off:], enc)
		return data
	}
	read := func(data []byte, opts ...ReaderOption) (*FileReader, []int64, error) {
		fr, err := NewFileReader(bytes.NewReader(data), int64(len(data)), opts...)
		if err != nil {
			t.Fatal(err)
		}
		r, err := fr.Int64Reader(0)
		if err != nil {
			t.Fatal(err)
		}
		_, err = r.ReadRows(2000)
		return fr, r.Values, err
	}
	data := write("parquet-cpp version 1.5.1-SNAPSHOT")
	fr, got, err := read(data)
	if err != nil || len(got) != 1000 || got[999] != 9 || got[10] != 0 || got[11] != 1 {
		t.Fatalf("lenient: %v, %d values", err, len(got))
	}
	wantDeviations(t, fr.File(), Deviation{Kind: DeviationV2Compressed, Column: "a", RowGroup: 0, Page: 0})
	_, _, err = read(data, WithStrict(true))
	wantStrict(t, err, DeviationV2Compressed, `column "a", row group 0, page 0`)

	// parquet-cpp-arrow (Arrow 3.0 on) is believed: the snappy bytes are
	// then taken for plain values, which do not fit the page.
	_, _, err = read(write("parquet-cpp-arrow version 3.0.0"))
	if err == nil || errors.Is(err, ErrDeviation) {
		t.Fatalf("parquet-cpp-arrow: %v", err)
	}
	for cb, want := range map[string]bool{"parquet-cpp version 1.5.1": true, "parquet-cpp": true, "parquet-cpp version 2.0.0": false,
		"parquet-cpp-arrow version 1.0.0": false, "parquet-mr version 1.2.0": false, "": false} {
		if oldParquetCpp(cb) != want {
			t.Errorf("oldParquetCpp(%q) = %v", cb, !want)
		}
	}
}

// TestDeviationPageHeaderIntWidth: a page header integer written with
// another Thrift integer width (num_values as an i16, as in the corpus's
// ARROW-RS-GH-6229-DICTHEADER.parquet) reads, recorded with its column,
// row group and page; under WithStrict the read fails. The file is
// pqgen's own with that one field header's type changed (an i16 varint
// has the bytes of an i32 one).
func TestDeviationPageHeaderIntWidth(t *testing.T) {
	var buf bytes.Buffer
	fw, err := NewFileWriter(&buf, mustSchema(t, "message m { required int32 a; }"), WithDataPageVersion(1), WithDictionary(false))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := fw.Int32Buffer(0)
	b.Values = append(b.Values, 7, 8, 9)
	data, off64 := finishFirstPage(t, fw, &buf, 3)
	off := int(off64)
	var h meta.PageHeader
	n, _, err := h.DecodeThriftNotes(data[off:], nil)
	if err != nil {
		t.Fatal(err)
	}
	patched := false
	for i := off; i < off+n && !patched; i++ {
		if data[i] != 0x15 { // a field header of delta 1, type i32
			continue
		}
		data[i] = 0x14 // type i16
		_, notes, err := h.DecodeThriftNotes(data[off:], nil)
		if err == nil && len(notes) == 1 && notes[0] == (meta.WidthNote{Field: "DataPageHeader.num_values", Want: "i32", Got: "i16"}) {
			patched = true
			break
		}
		data[i] = 0x15
	}
	if !patched {
		t.Fatal("num_values not found in the page header")
	}
	fr, err := NewFileReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	got := mustInt32(t, fr, 0)
	if len(got) != 3 || *got[0] != 7 || *got[2] != 9 {
		t.Fatalf("values %v", got)
	}
	wantDeviations(t, fr.File(), Deviation{Kind: DeviationThriftIntWidth, Column: "a", RowGroup: 0, Page: 0})
	if d := fr.File().Deviations()[0]; !strings.Contains(d.What, "page header field DataPageHeader.num_values is written as a Thrift i16, not i32") {
		t.Fatalf("deviation: %s", d)
	}
	fr, err = NewFileReader(bytes.NewReader(data), int64(len(data)), WithStrict(true))
	if err != nil {
		t.Fatal(err)
	}
	_, err = readInt32(t, fr, 0)
	wantStrict(t, err, DeviationThriftIntWidth, `column "a", row group 0, page 0`)
}

// finishFirstPage ends fw's rows and file (written to buf) and returns
// the file and the offset of its first column's first data page.
func finishFirstPage(t *testing.T, fw *FileWriter, buf *bytes.Buffer, rows int) ([]byte, int64) {
	t.Helper()
	if err := fw.EndRows(rows); err != nil {
		t.Fatal(err)
	}
	if err := fw.Close(); err != nil {
		t.Fatal(err)
	}
	data := buf.Bytes()
	f, err := OpenFile(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	return data, f.Meta.RowGroups[0].Columns[0].MetaData.DataPageOffset
}

// TestDeviationLog: deviations are recorded once per kind, column and row
// group, in the order met, at most maxDeviations, safely from several
// goroutines; String names where, kind, writer and what.
func TestDeviationLog(t *testing.T) {
	f := &File{devs: new(deviationLog)}
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 600 {
				// Every goroutine records the same 600 (column, row group)
				// pairs, each twice.
				for range 2 {
					if err := f.deviate(Deviation{Kind: DeviationWideDelta, Writer: "w", What: "x", Column: fmt.Sprint("c", i%300), RowGroup: i / 300, Page: g}); err != nil {
						t.Error(err)
					}
				}
				_ = f.Deviations()
			}
		}()
	}
	wg.Wait()
	if got := len(f.Deviations()); got != 600 {
		t.Fatalf("%d deviations, want 600 (one per column and row group)", got)
	}
	for i := range maxDeviations {
		f.deviate(Deviation{Kind: DeviationVariantUnsorted, Column: fmt.Sprint("v", i), RowGroup: -1, Page: -1})
	}
	if got := len(f.Deviations()); got != maxDeviations {
		t.Fatalf("%d deviations, want the cap %d", got, maxDeviations)
	}
	d := Deviation{Kind: DeviationWideDelta, Writer: "DuckDB 1.5", What: "w", Column: "a.b", RowGroup: 2, Page: 5}
	if got := d.String(); got != `column "a.b", row group 2, page 5, int32-delta-wider-than-32-bits (DuckDB 1.5): w` {
		t.Fatalf("String: %s", got)
	}
	d = Deviation{Kind: DeviationThriftIntWidth, Writer: "x", What: "y", RowGroup: -1, Page: -1}
	if got := d.String(); got != "thrift-integer-width (x): y" {
		t.Fatalf("String: %s", got)
	}
	strict := &File{cfg: readerConfig{Strict: true}, devs: new(deviationLog)}
	if err := strict.deviate(d); !errors.Is(err, ErrDeviation) || err.Error() != "deviation from the Parquet specification: thrift-integer-width (x): y (WithStrict)" {
		t.Fatalf("strict: %v", err)
	}
}

// TestDeviationEmptyValues: the DELTA_BINARY_PACKED encoders of
// Parquet.Net and QuestDB wrote the pages of nulls only with an empty
// values section, without the header the encoding starts with
// (aloneguid/parquet-dotnet#388, questdb/questdb#7212). No such writer
// can be run here, so the file is made by hand: an optional
// INT32 column of two DELTA_BINARY_PACKED pages, three nulls with an
// empty values section, then 5, null, 7. Read leniently, the rows are
// those; under WithStrict the read fails naming the deviation.
func TestDeviationEmptyValues(t *testing.T) {
	page := func(def []uint8, values []int32, header bool) []byte {
		body := encode.AppendRLELevelsPrefixed(nil, def, 1)
		if header {
			body = encode.AppendDeltaInt32(body, values)
		}
		h := meta.PageHeader{Type: meta.DataPage, UncompressedPageSize: int32(len(body)), CompressedPageSize: int32(len(body)),
			DataPageHeader: &meta.DataPageHeader{NumValues: int32(len(def)), Encoding: meta.EncodingDeltaBinaryPacked,
				DefinitionLevelEncoding: meta.EncodingRLE, RepetitionLevelEncoding: meta.EncodingRLE}}
		return append(h.AppendThrift(nil), body...)
	}
	file := func(header bool) []byte {
		chunk := slices.Concat(page([]uint8{0, 0, 0}, nil, header), page([]uint8{1, 0, 1}, []int32{5, 7}, true))
		fm := meta.FileMetaData{Version: 1, NumRows: 6, CreatedBy: meta.Some("QuestDB"),
			Schema: []meta.SchemaElement{{Name: "schema", NumChildren: meta.Some(int32(1))},
				{Name: "q", Type: meta.Some(meta.Int32), RepetitionType: meta.Some(meta.Optional)}},
			RowGroups: []meta.RowGroup{{NumRows: 6, TotalByteSize: int64(len(chunk)), Columns: []meta.ColumnChunk{{FileOffset: 4,
				MetaData: &meta.ColumnMetaData{Type: meta.Int32, Encodings: []meta.Encoding{meta.EncodingRLE, meta.EncodingDeltaBinaryPacked},
					PathInSchema: []string{"q"}, Codec: meta.Uncompressed, NumValues: 6, TotalUncompressedSize: int64(len(chunk)),
					TotalCompressedSize: int64(len(chunk)), DataPageOffset: 4}}}}}}
		footer := fm.AppendThrift(nil)
		return slices.Concat([]byte("PAR1"), chunk, footer, binary.LittleEndian.AppendUint32(nil, uint32(len(footer))), []byte("PAR1"))
	}
	read := func(data []byte, opts ...ReaderOption) (*FileReader, []*int32, error) {
		fr, err := NewFileReader(bytes.NewReader(data), int64(len(data)), opts...)
		if err != nil {
			t.Fatal(err)
		}
		got, err := readInt32(t, fr, 0)
		return fr, got, err
	}
	five, seven := int32(5), int32(7)
	want := []*int32{nil, nil, nil, &five, nil, &seven}
	for _, header := range []bool{true, false} {
		fr, got, err := read(file(header))
		if err != nil || !slices.EqualFunc(got, want, func(a, b *int32) bool { return (a == nil) == (b == nil) && (a == nil || *a == *b) }) {
			t.Fatalf("header %v: %v, %v", header, got, err)
		}
		if header {
			wantDeviations(t, fr.File())
			continue
		}
		wantDeviations(t, fr.File(), Deviation{Kind: DeviationEmptyValues, Column: "q", RowGroup: 0, Page: 0})
		_, _, err = read(file(header), WithStrict(true))
		wantStrict(t, err, DeviationEmptyValues, `column "q", row group 0, page 0`)
	}
}
