package runtime

import (
	"encoding/binary"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/pqgen/pqgen/internal/corpus"
	"github.com/pqgen/pqgen/runtime/encode"
	"github.com/pqgen/pqgen/runtime/meta"
	"github.com/pqgen/pqgen/runtime/page"
)

// columnData is every level and value of one column, as read.
type columnData struct {
	Rows     int
	Def, Rep []uint8
	Values   []any
}

// readColumn reads all rows of leaf col in batches of batch rows.
func readColumn(fr *FileReader, col, batch int) (*columnData, error) {
	out := &columnData{}
	leaf := fr.File().Schema.Leaves[col]
	type rr interface {
		ReadRows(int) (int, error)
	}
	var (
		r   rr
		lv  *Levels
		get func()
		err error
	)
	switch leaf.Type {
	case meta.Boolean:
		c, e := fr.BoolReader(col)
		r, lv, err = c, &c.Levels, e
		get = func() {
			for _, v := range c.Values {
				out.Values = append(out.Values, v)
			}
		}
	case meta.Int32:
		c, e := fr.Int32Reader(col)
		r, lv, err = c, &c.Levels, e
		get = func() {
			for _, v := range c.Values {
				out.Values = append(out.Values, v)
			}
		}
	case meta.Int64:
		c, e := fr.Int64Reader(col)
		r, lv, err = c, &c.Levels, e
		get = func() {
			for _, v := range c.Values {
				out.Values = append(out.Values, v)
			}
		}
	case meta.Int96:
		c, e := fr.Int96Reader(col)
		r, lv, err = c, &c.Levels, e
		get = func() {
			for _, v := range c.Values {
				out.Values = append(out.Values, v)
			}
		}
	case meta.Float:
		c, e := fr.FloatReader(col)
		r, lv, err = c, &c.Levels, e
		get = func() {
			for _, v := range c.Values {
				out.Values = append(out.Values, v)
			}
		}
	case meta.Double:
		c, e := fr.DoubleReader(col)
		r, lv, err = c, &c.Levels, e
		get = func() {
			for _, v := range c.Values {
				out.Values = append(out.Values, v)
			}
		}
	case meta.ByteArray:
		c, e := fr.ByteArrayReader(col)
		r, lv, err = c, &c.Levels, e
		get = func() {
			for i := range c.Values.Len() {
				out.Values = append(out.Values, c.String(i))
			}
		}
	case meta.FixedLenByteArray:
		c, e := fr.FixedReader(col)
		r, lv, err = c, &c.Levels, e
		get = func() {
			for i := 0; i < len(c.Values); i += c.Size {
				out.Values = append(out.Values, []byte(string(c.Values[i:i+c.Size])))
			}
		}
	default:
		return nil, fmt.Errorf("type %d", leaf.Type)
	}
	if err != nil {
		return nil, err
	}
	for {
		n, err := r.ReadRows(batch)
		if err == io.EOF {
			if n != 0 {
				return nil, fmt.Errorf("ReadRows returned %d rows with io.EOF", n)
			}
			return out, nil
		}
		if err != nil {
			return out, err
		}
		if n == 0 || n > batch {
			return nil, fmt.Errorf("ReadRows(%d) returned %d rows", batch, n)
		}
		out.Rows += n
		out.Def = append(out.Def, lv.Def...)
		out.Rep = append(out.Rep, lv.Rep...)
		get()
	}
}

func openReader(tb testing.TB, path string, opts ...ReaderOption) *FileReader {
	tb.Helper()
	fh, size := openTestFile(tb, path)
	fr, err := NewFileReader(fh, size, opts...)
	if err != nil {
		tb.Fatalf("%s: %v", path, err)
	}
	return fr
}

// openTestFile opens the file at path for the test's duration and returns it
// and its size.
func openTestFile(tb testing.TB, path string) (*os.File, int64) {
	tb.Helper()
	fh, err := os.Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { fh.Close() })
	st, err := fh.Stat()
	if err != nil {
		tb.Fatal(err)
	}
	return fh, st.Size()
}

// expectedErrors lists the corpus files (or file/column) pqgen refuses, and
// what the error must wrap.
var expectedErrors = map[string]error{
	// A 1 GiB dictionary page: above the default 256 MiB page limit.
	"data/large_string_map.brotli.parquet/arr.key_value.key": page.ErrTooLarge,
	// Checksums that do not match (CRC checks are on).
	"data/datapage_v1-corrupt-checksum.parquet/a":                      page.ErrCRC,
	"data/datapage_v1-corrupt-checksum.parquet/b":                      page.ErrCRC,
	"data/rle-dict-uncompressed-corrupt-checksum.parquet/long_field":   page.ErrCRC,
	"data/rle-dict-uncompressed-corrupt-checksum.parquet/binary_field": page.ErrCRC,
}

// readAll reads every column of rel and returns them by path; it checks
// that each column yields NumRows rows whatever the batch size.
func readAll(t *testing.T, rel string, batch int, opts ...ReaderOption) (map[string]*columnData, map[string]error) {
	t.Helper()
	fr := openReader(t, corpus.Path(t, rel), opts...)
	out := map[string]*columnData{}
	errs := map[string]error{}
	for col, leaf := range fr.File().Schema.Leaves {
		d, err := readColumn(fr, col, batch)
		if err != nil {
			errs[leaf.PathString()] = err
			continue
		}
		if int64(d.Rows) != fr.NumRows() {
			t.Errorf("%s: column %s: %d rows, the footer says %d", rel, leaf.PathString(), d.Rows, fr.NumRows())
		}
		out[leaf.PathString()] = d
	}
	return out, errs
}

// TestReadCorpus reads every column of every unencrypted file of data/
// with CRC checks on, in batches of 1, 3 and 1024 rows, and requires the
// same content each time; the files of expectedErrors must fail with the
// listed error instead.
func TestReadCorpus(t *testing.T) {
	n, ok := 0, 0
	for _, rel := range corpus.ParquetFiles(t) {
		if strings.HasSuffix(rel, ".encrypted") || strings.HasPrefix(rel, "bad_data/") {
			continue
		}
		n++
		t.Run(rel, func(t *testing.T) {
			var ref map[string]*columnData
			for _, batch := range []int{1024, 3, 1} {
				got, errs := readAll(t, rel, batch, WithCRCCheck(true))
				for col, err := range errs {
					want := expectedErrors[rel+"/"+col]
					if want == nil || !errors.Is(err, want) {
						t.Errorf("column %s (batch %d): %v", col, batch, err)
					}
					if want == page.ErrCRC && !strings.Contains(err.Error(), "column \""+col+"\"") {
						t.Errorf("column %s: CRC error does not name the column: %v", col, err)
					}
				}
				for k := range expectedErrors {
					if c, ok := strings.CutPrefix(k, rel+"/"); ok && errs[c] == nil {
						t.Errorf("column %s: read without the expected error", c)
					}
				}
				if ref == nil {
					ref = got
					continue
				}
				for col, d := range got {
					r := ref[col]
					if !slices.Equal(d.Def, r.Def) || !slices.Equal(d.Rep, r.Rep) || fmt.Sprint(d.Values) != fmt.Sprint(r.Values) {
						t.Errorf("column %s: batch %d reads differently from batch 1024", col, batch)
					}
				}
			}
			if !t.Failed() {
				ok++
			}
		})
	}
	t.Logf("%d of %d files read as expected", ok, n)
}

// TestReadCorruptChecksumWithoutCheck: with CRC checks off, the corrupt
// checksum files read (their contents are intact).
func TestReadCorruptChecksumWithoutCheck(t *testing.T) {
	for _, rel := range []string{"data/datapage_v1-corrupt-checksum.parquet", "data/rle-dict-uncompressed-corrupt-checksum.parquet"} {
		_, errs := readAll(t, rel, 100)
		for col, err := range errs {
			t.Errorf("%s: column %s: %v", rel, col, err)
		}
	}
	// The named page: column a's page 0, column b's page 1.
	_, errs := readAll(t, "data/datapage_v1-corrupt-checksum.parquet", 100, WithCRCCheck(true))
	var pe *page.Error
	if !errors.As(errs["a"], &pe) || pe.Page != 0 || pe.Column != "a" {
		t.Errorf("column a: %v, want a CRC error on page 0", errs["a"])
	}
	if !errors.As(errs["b"], &pe) || pe.Page != 1 || pe.Column != "b" {
		t.Errorf("column b: %v, want a CRC error on page 1", errs["b"])
	}
	_, errs = readAll(t, "data/rle-dict-uncompressed-corrupt-checksum.parquet", 100, WithCRCCheck(true))
	if !errors.As(errs["long_field"], &pe) || pe.Page != page.DictionaryPage {
		t.Errorf("long_field: %v, want a CRC error on the dictionary page", errs["long_field"])
	}
}

// TestReadBadData: every file of bad_data/ fails cleanly, except
// ARROW-GH-43605 (dictionary indices of bit width 0), which reads.
func TestReadBadData(t *testing.T) {
	for _, rel := range corpus.Files(t, ".parquet") {
		if !strings.HasPrefix(rel, "bad_data/") {
			continue
		}
		t.Run(rel, func(t *testing.T) {
			fh, err := os.Open(corpus.Path(t, rel))
			if err != nil {
				t.Fatal(err)
			}
			defer fh.Close()
			st, _ := fh.Stat()
			var firstErr error
			fr, err := NewFileReader(fh, st.Size(), WithCRCCheck(true))
			if err != nil {
				firstErr = err
			} else {
				for col := range fr.File().Schema.Leaves {
					if _, err := readColumn(fr, col, 100); err != nil && firstErr == nil {
						firstErr = err
					}
				}
			}
			if strings.HasSuffix(rel, "ARROW-GH-43605.parquet") {
				if firstErr != nil {
					t.Fatalf("must read: %v", firstErr)
				}
				return
			}
			if firstErr == nil {
				t.Fatal("read without error")
			}
			t.Logf("%v", firstErr)
		})
	}
}

// TestReadARROWGH43605 checks the values of the file whose dictionary
// indices have bit width 0 (every index is 0).
func TestReadARROWGH43605(t *testing.T) {
	got, errs := readAll(t, "bad_data/ARROW-GH-43605.parquet", 1000)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	for col, d := range got {
		if len(d.Values) == 0 {
			continue
		}
		for i, v := range d.Values {
			if fmt.Sprint(v) != fmt.Sprint(d.Values[0]) {
				t.Errorf("column %s value %d: %v, want every value equal to the only dictionary entry %v", col, i, v, d.Values[0])
				break
			}
		}
	}
}

// csvCheck compares the columns of rel with the CSV companion: a header of
// column names, one record per row, an empty field for a null.
func csvCheck(t *testing.T, rel, csvRel string) {
	t.Helper()
	got, errs := readAll(t, rel, 97)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	fh, err := os.Open(corpus.Path(t, csvRel))
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	recs, err := csv.NewReader(fh).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	header, rows := recs[0], recs[1:]
	checked := 0
	for j, name := range header {
		name = strings.TrimSpace(name)
		d := got[name]
		if d == nil {
			t.Errorf("no column %q", name)
			continue
		}
		if d.Rows != len(rows) {
			t.Errorf("column %s: %d rows, the CSV %d", name, d.Rows, len(rows))
			continue
		}
		v := 0
		for i, rec := range rows {
			null := len(d.Def) > 0 && d.Def[i] == 0
			if null {
				if rec[j] != "" {
					t.Errorf("column %s row %d: null, want %q", name, i, rec[j])
				}
				continue
			}
			s := fmt.Sprint(d.Values[v])
			v++
			if s != rec[j] {
				t.Errorf("column %s row %d: %q, want %q", name, i, s, rec[j])
				break
			}
		}
		checked++
	}
	if checked != len(header) {
		t.Errorf("%d of %d columns checked", checked, len(header))
	}
}

func TestReadDeltaBinaryPacked(t *testing.T) {
	csvCheck(t, "data/delta_binary_packed.parquet", "data/delta_binary_packed_expect.csv")
}

func TestReadDeltaByteArray(t *testing.T) {
	csvCheck(t, "data/delta_byte_array.parquet", "data/delta_byte_array_expect.csv")
}

func TestReadDeltaEncodingOptionalColumn(t *testing.T) {
	csvCheck(t, "data/delta_encoding_optional_column.parquet", "data/delta_encoding_optional_column_expect.csv")
}

func levels(s ...uint8) []uint8 { return s }

// TestReadOldListStructure: [[1, 2], [3, 4]] in a two-level legacy list
// (old_list_structure.md).
func TestReadOldListStructure(t *testing.T) {
	got, _ := readAll(t, "data/old_list_structure.parquet", 10)
	d := got["a.array.array"]
	if d == nil || fmt.Sprint(d.Values) != "[1 2 3 4]" || !slices.Equal(d.Rep, levels(0, 2, 1, 2)) || !slices.Equal(d.Def, levels(2, 2, 2, 2)) || d.Rows != 1 {
		t.Fatalf("got %+v", d)
	}
}

// TestReadMapNoValue: map_no_value.md.
func TestReadMapNoValue(t *testing.T) {
	got, _ := readAll(t, "data/map_no_value.parquet", 2)
	rep := levels(0, 1, 1, 0, 1, 1, 0, 1, 1)
	for _, col := range []string{"my_map.key_value.key", "my_map_no_v.key_value.key", "my_list.list.element"} {
		d := got[col]
		if d == nil || fmt.Sprint(d.Values) != "[1 2 3 4 5 6 7 8 9]" || !slices.Equal(d.Rep, rep) || d.Rows != 3 {
			t.Errorf("%s: got %+v", col, d)
		}
	}
	d := got["my_map.key_value.value"]
	if d == nil || len(d.Values) != 0 || !slices.Equal(d.Def, levels(1, 1, 1, 1, 1, 1, 1, 1, 1)) || !slices.Equal(d.Rep, rep) {
		t.Errorf("my_map.key_value.value: got %+v", d)
	}
}

// TestReadFixedLengthByteArray: 1000 rows, 105 nulls, the others
// descending big-endian values within [1, 1000] (fixed_length_byte_array.md).
func TestReadFixedLengthByteArray(t *testing.T) {
	got, _ := readAll(t, "data/fixed_length_byte_array.parquet", 33)
	d := got["flba_field"]
	if d == nil || d.Rows != 1000 || len(d.Values) != 895 {
		t.Fatalf("got %v rows, %v values", d.Rows, len(d.Values))
	}
	prev := uint32(1001)
	for i, v := range d.Values {
		x := binary.BigEndian.Uint32(v.([]byte))
		if x >= prev || x < 1 {
			t.Fatalf("value %d: %d after %d", i, x, prev)
		}
		prev = x
	}
	if first, last := binary.BigEndian.Uint32(d.Values[0].([]byte)), prev; first != 0x3E8 || last != 1 {
		t.Errorf("first %d, last %d; want 1000 and 1 (the min and max of the metadata)", first, last)
	}
}

// TestReadInt32WithNullPages: 1000 values, 275 nulls (int32_with_null_pages.md).
func TestReadInt32WithNullPages(t *testing.T) {
	got, _ := readAll(t, "data/int32_with_null_pages.parquet", 100)
	d := got["int32_field"]
	if d == nil || d.Rows != 1000 || len(d.Values) != 725 {
		t.Fatalf("got %d rows, %d values", d.Rows, len(d.Values))
	}
	lo, hi := int32(1<<31-1), int32(-1<<31)
	for _, v := range d.Values {
		lo, hi = min(lo, v.(int32)), max(hi, v.(int32))
	}
	if lo != -2136906554 || hi != 2145722375 {
		t.Errorf("min %d, max %d", lo, hi)
	}
}

// TestReadInt96FromSpark: int96_from_spark.md, as microseconds (null
// fifth).
func TestReadInt96FromSpark(t *testing.T) {
	got, _ := readAll(t, "data/int96_from_spark.parquet", 4)
	d := got["a"]
	if d == nil || !slices.Equal(d.Def, levels(1, 1, 1, 1, 0, 1)) {
		t.Fatalf("got %+v", d)
	}
	want := []int64{1704141296123456, 1704070800000000, 253402225200000000, 1735599600000000, 9089380393200000000}
	for i, v := range d.Values {
		b := v.(encode.Int96)
		nanos := int64(binary.LittleEndian.Uint64(b[:8]))
		// The Julian day is a signed 32-bit value; the last value only
		// matches with wrapping 64-bit arithmetic, as Spark computes it.
		day := int64(int32(binary.LittleEndian.Uint32(b[8:])))
		micros := (day-2440588)*86400_000000 + nanos/1000
		if micros != want[i] {
			t.Errorf("value %d: %d µs, want %d", i, micros, want[i])
		}
	}
}

// TestBindInt96FromSpark reads Spark's INT96 timestamps bound to INT64
// TIMESTAMPs, as a generated reader of a time.Time field does: in
// nanoseconds the value past 2262 fails the read, in microseconds (with
// WithCoarserTimeUnits) the last, whose Julian day Spark wrapped around
// (year 290000 in its description): an error naming the value, never a
// wrapped instant. CheckSchema calls the column converted.
func TestBindInt96FromSpark(t *testing.T) {
	path := corpus.Path(t, "data/int96_from_spark.parquet")
	for _, c := range []struct {
		unit string
		n    int
		msg  string
	}{
		{"NANOS", 2, `column "a", row group 0, page 0 at offset 81: value does not fit the requested type: INT96 timestamp (Julian day 5373484, 10800000000000 ns) (value 2 of the page) is beyond an INT64 count of nanoseconds (1677-09-21 to 2262-04-11)`},
		{"MICROS", 4, `column "a", row group 0, page 0 at offset 81: value does not fit the requested type: INT96 timestamp (Julian day -105862232, -32509551616000 ns) (value 4 of the page) is beyond an INT64 count of microseconds`},
	} {
		want := mustParse(t, "message m { optional int64 a (TIMESTAMP("+c.unit+",true)); }")
		if got := CheckSchema(openReader(t, path).File().Schema, want, nil, nil, WithCoarserTimeUnits(true)); len(got) != 1 || got[0].Status != ColumnConverted {
			t.Errorf("%s: CheckSchema %+v", c.unit, got)
		}
		r := openReader(t, path, WithCoarserTimeUnits(true))
		idx, err := r.Bind(want)
		if err != nil {
			t.Fatal(c.unit, err)
		}
		rd, err := r.Int64Reader(idx[0])
		if err != nil {
			t.Fatal(err)
		}
		// The page converts as a whole: the read fails before its rows.
		n, err := rd.ReadRows(6)
		if n != 0 || !errors.Is(err, ErrValue) || err.Error() != c.msg {
			t.Errorf("%s: %d rows, %v\nwant %s", c.unit, n, err, c.msg)
		}
	}
}

// TestReadLZ4Variants: the three LZ4 flavours hold the same 4 rows.
func TestReadLZ4Variants(t *testing.T) {
	for _, rel := range []string{"data/hadoop_lz4_compressed.parquet", "data/non_hadoop_lz4_compressed.parquet", "data/lz4_raw_compressed.parquet"} {
		got, errs := readAll(t, rel, 3)
		if len(errs) > 0 {
			t.Fatal(rel, errs)
		}
		if s := fmt.Sprint(got["c0"].Values, got["c1"].Values, got["v11"].Values); s != "[1593604800 1593604800 1593604801 1593604801] [abc def abc def] [42 7.7 42.125 7.7]" {
			t.Errorf("%s: %s", rel, s)
		}
	}
}

// TestReadSpecialPages covers the empty v2 pages, concatenated gzip
// members and the dictionary found without dictionary_page_offset.
func TestReadSpecialPages(t *testing.T) {
	got, _ := readAll(t, "data/datapage_v2_empty_datapage.snappy.parquet", 5)
	if d := got["value"]; d == nil || d.Rows != 1 || len(d.Values) != 0 || !slices.Equal(d.Def, levels(0)) {
		t.Errorf("datapage_v2_empty_datapage: %+v", d)
	}
	got, _ = readAll(t, "data/page_v2_empty_compressed.parquet", 5)
	for col, d := range got {
		if d.Rows != 10 || len(d.Values) != 0 {
			t.Errorf("page_v2_empty_compressed %s: %d rows, %d values", col, d.Rows, len(d.Values))
		}
	}
	got, _ = readAll(t, "data/concatenated_gzip_members.parquet", 100)
	for col, d := range got {
		if d.Rows != 513 {
			t.Errorf("concatenated_gzip_members %s: %d rows", col, d.Rows)
		}
		for i, v := range d.Values {
			if fmt.Sprint(v) != strconv.Itoa(i+1) {
				t.Errorf("concatenated_gzip_members %s value %d: %v", col, i, v)
				break
			}
		}
	}
	got, _ = readAll(t, "data/nation.dict-malformed.parquet", 10)
	if d := got["nation_key"]; d == nil || d.Rows != 25 || fmt.Sprint(d.Values[:5]) != "[0 1 2 3 4]" {
		t.Errorf("nation.dict-malformed nation_key: %+v", d)
	}
	if d := got["name"]; d == nil || fmt.Sprint(d.Values[:5]) != "[ALGERIA ARGENTINA BRAZIL CANADA EGYPT]" {
		t.Errorf("nation.dict-malformed name: %+v", d)
	}
	if d := got["region_key"]; d == nil || fmt.Sprint(d.Values[:5]) != "[0 1 1 1 4]" {
		t.Errorf("nation.dict-malformed region_key: %+v", d)
	}
}

// TestReadREADMENotes checks the values data/README.md gives for
// nan_in_stats and the float16 files (little-endian half floats).
func TestReadREADMENotes(t *testing.T) {
	got, _ := readAll(t, "data/nan_in_stats.parquet", 10)
	if d := got["x"]; d == nil || len(d.Values) != 2 || d.Values[0] != 1.0 || !isNaN(d.Values[1].(float64)) {
		t.Errorf("nan_in_stats: %+v", d)
	}
	half := func(d *columnData) []string {
		var out []string
		for _, v := range d.Values {
			h := binary.LittleEndian.Uint16(v.([]byte))
			if h&0x7c00 == 0x7c00 && h&0x03ff != 0 {
				out = append(out, "NaN")
			} else {
				out = append(out, fmt.Sprintf("%04x", h))
			}
		}
		return out
	}
	got, _ = readAll(t, "data/float16_zeros_and_nans.parquet", 10)
	if d := got["x"]; d == nil || !slices.Equal(d.Def, levels(0, 1, 1)) || fmt.Sprint(half(d)) != "[0000 NaN]" {
		t.Errorf("float16_zeros_and_nans: %+v", d)
	}
	got, _ = readAll(t, "data/float16_nonzeros_and_nans.parquet", 10)
	// 1.0, -2.0, NaN, 0.0, -1.0, -0.0, 2.0 after a null.
	if d := got["x"]; d == nil || !slices.Equal(d.Def, levels(0, 1, 1, 1, 1, 1, 1, 1)) || fmt.Sprint(half(d)) != "[3c00 c000 NaN 0000 bc00 8000 4000]" {
		t.Errorf("float16_nonzeros_and_nans: %+v", d)
	}
}

func isNaN(f float64) bool { return f != f }

// TestReadEncryptedFails: without keys, encrypted files fail cleanly, at
// open (encrypted footer) or when an encrypted column is read.
func TestReadEncryptedFails(t *testing.T) {
	for _, rel := range corpus.Files(t, ".parquet.encrypted") {
		fh, err := os.Open(corpus.Path(t, rel))
		if err != nil {
			t.Fatal(err)
		}
		st, _ := fh.Stat()
		fr, err := NewFileReader(fh, st.Size())
		if err == nil {
			failed := false
			for col := range fr.File().Schema.Leaves {
				if _, err := readColumn(fr, col, 100); err != nil {
					failed = true
					if !strings.Contains(err.Error(), "encrypted") {
						t.Errorf("%s: %v", rel, err)
					}
				}
			}
			if !failed {
				t.Errorf("%s: read without error", rel)
			}
		} else if !errors.Is(err, ErrEncryptedFooter) {
			t.Errorf("%s: %v", rel, err)
		}
		fh.Close()
	}
}
