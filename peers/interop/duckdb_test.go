package interop

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/pqgen/pqgen/peers/internal/nodejs"
	"github.com/pqgen/pqgen/runtime"
	"github.com/pqgen/pqgen/runtime/meta"
	"github.com/pqgen/pqgen/runtime/schema"
)

// TestDuckDBReadsOurFiles: DuckDB (@duckdb/node-api) reads every file of
// the writer matrix with the values written.
func TestDuckDBReadsOurFiles(t *testing.T) {
	checkJSReader(t, "duckdb", cmpOpts{}, duckdbCannotRead)
	checkCannotRead(t, "duckdb", duckdbCannotRead, duckdbCannotReadErrors)
}

// duckdbCannotReadErrors are the errors duckdbCannotRead documents.
var duckdbCannotReadErrors = []string{
	"BYTE_STREAM_SPLIT encoding is only supported for FLOAT or DOUBLE data",
	"Delta Length Byte Array encoding is only supported for string/blob data",
}

// checkCannotRead: every column exclude leaves out of a matrix file, read
// alone by reader (read.mjs), still fails with one of errs, the errors
// exclude documents, so that the exclusion goes once reader reads the
// column.
func checkCannotRead(t *testing.T, reader string, exclude func(matrixFile) []string, errs []string) {
	files := writeMatrixFiles(t)
	s, _ := schema.Parse(testSchema)
	names := topNames(s)
	dir := t.TempDir()
	args := []string{reader}
	type probe struct{ file, col, path string }
	var probes []probe
	for i, f := range files {
		for _, col := range exclude(f) {
			// One link per column: read.mjs keys its output by path.
			p := filepath.Join(dir, fmt.Sprintf("%d_%s.parquet", i, col))
			if err := os.Symlink(f.path, p); err != nil {
				t.Fatal(err)
			}
			others := slices.DeleteFunc(slices.Clone(names), func(n string) bool { return n == col })
			args = append(args, "--exclude="+strings.Join(others, ","), p)
			probes = append(probes, probe{filepath.Base(f.path), col, p})
		}
	}
	if len(probes) == 0 {
		t.Fatalf("%s: the exclusion leaves no column out of any matrix file: remove it", reader)
	}
	out := runJS(t, "read.mjs", args...)
	for _, p := range probes {
		r := out[p.path]
		switch {
		case r == nil:
			t.Errorf("%s: no output for column %s of %s", reader, p.col, p.file)
		case r.Err == "":
			t.Errorf("%s reads column %s of %s now: narrow its exclusion", reader, p.col, p.file)
		case !slices.ContainsFunc(errs, func(e string) bool { return strings.Contains(r.Err, e) }):
			t.Errorf("%s: column %s of %s: error %q, not one its exclusion documents", reader, p.col, p.file, r.Err)
		}
	}
	t.Logf("%s: %d columns left out of matrix files still fail alone", reader, len(probes))
}

// duckdbCannotRead names the columns of a file that DuckDB 1.5.6 cannot
// read: BYTE_STREAM_SPLIT pages of a column that is not FLOAT or DOUBLE
// (INT32, INT64, FIXED_LEN_BYTE_ARRAY; allowed since parquet-format 2.11)
// fail the whole query with "Invalid Error: BYTE_STREAM_SPLIT encoding is
// only supported for FLOAT or DOUBLE data". Those columns are left out of
// the SELECT; the rest of the file is compared. Likewise
// DELTA_LENGTH_BYTE_ARRAY pages of a DECIMAL byte-array column ("Invalid
// Error: Delta Length Byte Array encoding is only supported for
// string/blob data").
func duckdbCannotRead(f matrixFile) []string {
	return columnsWhere(f, func(leaf *schema.Node, encs []meta.Encoding) bool {
		bss := leaf.Type != meta.Float && leaf.Type != meta.Double && slices.Contains(encs, meta.EncodingByteStreamSplit)
		dlba := leaf.Logical.Kind == meta.LogicalDecimal && slices.Contains(encs, meta.EncodingDeltaLengthByteArray)
		return bss || dlba
	})
}

// columnsWhere names the top-level columns of a matrix file holding a leaf
// of which a chunk, with its encodings, satisfies cannot.
func columnsWhere(f matrixFile, cannot func(leaf *schema.Node, encs []meta.Encoding) bool) []string {
	r, err := runtime.NewFileReader(bytes.NewReader(f.data), int64(len(f.data)))
	if err != nil {
		return nil
	}
	var out []string
	for _, rg := range r.File().Meta.RowGroups {
		for ci, cc := range rg.Columns {
			leaf := r.File().Schema.Leaves[ci]
			if top := leaf.Path[0]; cannot(leaf, cc.MetaData.Encodings) && !slices.Contains(out, top) {
				out = append(out, top)
			}
		}
	}
	return out
}

// TestDuckDBMetadataOfOurFiles: DuckDB's parquet_metadata of every matrix
// file shows the codec, encodings, offsets, bloom filter offsets and
// column key-value metadata of our footer, and the statistics (null
// count, min, max, exactness) of the rows written.
func TestDuckDBMetadataOfOurFiles(t *testing.T) {
	needNode(t)
	files := writeMatrixFiles(t)
	var paths []string
	for _, f := range files {
		paths = append(paths, f.path)
	}
	out := runJS(t, "duckdb_meta.mjs", paths...)
	s, err := schema.Parse(testSchema)
	if err != nil {
		t.Fatal(err)
	}
	blooms := 0
	for _, f := range files {
		t.Run(f.c.name, func(t *testing.T) {
			blooms += checkDuckDBMeta(t, f, s, out[f.path])
		})
	}
	t.Logf("parquet_metadata of %d files checked; %d bloom filter offsets", len(files), blooms)
	if blooms == 0 {
		t.Error("no configuration with bloom filters")
	}
}

// duckMeta is one row of parquet_metadata (integers are decimal strings).
type duckMeta struct {
	RowGroup        string  `json:"row_group_id"`
	RowGroupRows    string  `json:"row_group_num_rows"`
	Column          string  `json:"column_id"`
	NumValues       string  `json:"num_values"`
	Path            string  `json:"path_in_schema"`
	Type            string  `json:"type"`
	NullCount       *string `json:"stats_null_count"`
	Min             *string `json:"stats_min_value"`
	Max             *string `json:"stats_max_value"`
	Compression     string  `json:"compression"`
	Encodings       string  `json:"encodings"`
	DictOffset      *string `json:"dictionary_page_offset"`
	DataOffset      string  `json:"data_page_offset"`
	CompressedSize  string  `json:"total_compressed_size"`
	BloomOffset     *string `json:"bloom_filter_offset"`
	BloomLength     *string `json:"bloom_filter_length"`
	MinExact        *bool   `json:"min_is_exact"`
	MaxExact        *bool   `json:"max_is_exact"`
	KeyValueMetadat []struct {
		Key, Value string
	} `json:"key_value_metadata"`
}

func optInt(v meta.Opt[int64]) *string {
	if !v.Set {
		return nil
	}
	s := strconv.FormatInt(v.Val, 10)
	return &s
}

func strp(s *string) string {
	if s == nil {
		return "null"
	}
	return strconv.Quote(*s)
}

// checkDuckDBMeta compares DuckDB's parquet_metadata of one matrix file
// with our footer and with the statistics of the rows written; it
// returns the number of bloom filters DuckDB located.
func checkDuckDBMeta(t *testing.T, f matrixFile, s *schema.Schema, jf *nodejs.File) int {
	t.Helper()
	if jf == nil || jf.Err != "" {
		t.Fatalf("duckdb: parquet_metadata: %v", jf)
	}
	footer := openOwn(t, f.data).File().Meta
	if len(jf.Rows) != len(footer.RowGroups)*numCols {
		t.Fatalf("duckdb: %d metadata rows for %d row groups", len(jf.Rows), len(footer.RowGroups))
	}
	blooms := 0
	first := 0
	for i, raw := range jf.Rows {
		var m duckMeta
		if err := json.Unmarshal(raw, &m); err != nil {
			t.Fatal(err)
		}
		rg, ci := i/numCols, i%numCols
		if m.RowGroup != strconv.Itoa(rg) || m.Column != strconv.Itoa(ci) {
			t.Fatalf("duckdb: metadata row %d is row group %s column %s", i, m.RowGroup, m.Column)
		}
		if ci == 0 && i > 0 {
			first += int(footer.RowGroups[rg-1].NumRows)
		}
		n := int(footer.RowGroups[rg].NumRows)
		cm := footer.RowGroups[rg].Columns[ci].MetaData
		leaf := s.Leaves[ci]
		where := fmt.Sprintf("duckdb: rg %d column %s", rg, leaf.PathString())
		if m.RowGroupRows != strconv.Itoa(n) || m.NumValues != strconv.FormatInt(cm.NumValues, 10) {
			t.Errorf("%s: %s rows, %s values; we wrote %d, %d", where, m.RowGroupRows, m.NumValues, n, cm.NumValues)
		}
		if m.Path != strings.Join(leaf.Path, ", ") || m.Type != leaf.Type.String() {
			t.Errorf("%s: path %q type %s", where, m.Path, m.Type)
		}
		if m.Compression != cm.Codec.String() || !strings.HasPrefix(f.c.name, m.Compression+"/") {
			t.Errorf("%s: compression %s, we wrote %s", where, m.Compression, cm.Codec)
		}
		var ours []string
		for _, e := range cm.Encodings {
			ours = append(ours, e.String())
		}
		theirs := strings.Split(m.Encodings, ", ")
		sort.Strings(ours)
		sort.Strings(theirs)
		if !slices.Equal(slices.Compact(ours), slices.Compact(theirs)) {
			t.Errorf("%s: encodings %q, we wrote %v", where, m.Encodings, ours)
		}
		if strp(m.DictOffset) != strp(optInt(cm.DictionaryPageOffset)) || m.DataOffset != strconv.FormatInt(cm.DataPageOffset, 10) ||
			m.CompressedSize != strconv.FormatInt(cm.TotalCompressedSize, 10) {
			t.Errorf("%s: offsets dict %s data %s size %s; we wrote %v %d %d", where, strp(m.DictOffset), m.DataOffset,
				m.CompressedSize, cm.DictionaryPageOffset, cm.DataPageOffset, cm.TotalCompressedSize)
		}
		if f.c.dict == "plain" && slices.Contains(theirs, "RLE_DICTIONARY") {
			t.Errorf("%s: encodings %q with the dictionary off", where, m.Encodings)
		}
		if enc := requestedEncoding(f.c, ci); enc != "" && !slices.Contains(theirs, enc) {
			t.Errorf("%s: encodings %q lack the requested %s", where, m.Encodings, enc)
		}
		wantBloom := f.c.bloom && (ci == cID || ci == cName)
		if (m.BloomOffset != nil) != wantBloom || strp(m.BloomOffset) != strp(optInt(cm.BloomFilterOffset)) {
			t.Errorf("%s: bloom_filter_offset %s; we wrote %v (bloom wanted %v)", where, strp(m.BloomOffset), cm.BloomFilterOffset, wantBloom)
		}
		if cm.BloomFilterLength.Set {
			if l := strconv.Itoa(int(cm.BloomFilterLength.Val)); m.BloomLength == nil || *m.BloomLength != l {
				t.Errorf("%s: bloom_filter_length %s, want %s", where, strp(m.BloomLength), l)
			}
		}
		if m.BloomOffset != nil {
			blooms++
		}
		if ci == cID && (len(m.KeyValueMetadat) != 1 || m.KeyValueMetadat[0].Key != "ck" || m.KeyValueMetadat[0].Value != "cv") {
			t.Errorf("%s: key_value_metadata %+v, want ck=cv", where, m.KeyValueMetadat)
		}
		// Statistics of the rows of this row group.
		e := f.ds.chunkStats(ci, first, first+n)
		if m.NullCount == nil || *m.NullCount != strconv.FormatInt(e.nulls, 10) {
			t.Errorf("%s: null count %s, want %d", where, strp(m.NullCount), e.nulls)
		}
		if !e.has {
			if m.Min != nil || m.Max != nil {
				t.Errorf("%s: min/max %s/%s, want none", where, strp(m.Min), strp(m.Max))
			}
			continue
		}
		if m.Min == nil || m.Max == nil {
			t.Errorf("%s: no min/max", where)
			continue
		}
		if d := sameStat(leaf, e.min, *m.Min); d != "" {
			t.Errorf("%s: min: %s", where, d)
		}
		if d := sameStat(leaf, e.max, *m.Max); d != "" {
			t.Errorf("%s: max: %s", where, d)
		}
		if m.MinExact == nil || *m.MinExact != e.minExact || m.MaxExact == nil || *m.MaxExact != e.maxExact {
			t.Errorf("%s: exactness %v/%v, want %v/%v", where, m.MinExact, m.MaxExact, e.minExact, e.maxExact)
		}
	}
	return blooms
}

// requestedEncoding is the encoding matrix() asks for column ci when the
// dictionary is off ("" when none is asked for).
func requestedEncoding(c config, ci int) string {
	if !c.rleBool || c.dict != "plain" {
		return ""
	}
	v2 := strings.Contains(c.name, "/v2/")
	switch ci {
	case cID, cU32:
		return "DELTA_BINARY_PACKED"
	case cI32, cF, cD, cFx:
		return "BYTE_STREAM_SPLIT"
	case cB:
		return "RLE"
	case cName:
		if v2 {
			return "DELTA_BYTE_ARRAY"
		}
		return "DELTA_LENGTH_BYTE_ARRAY"
	case cDec:
		if v2 {
			return "DELTA_LENGTH_BYTE_ARRAY"
		}
	case cTags:
		if !v2 {
			return "DELTA_BINARY_PACKED"
		}
	}
	return ""
}

// sameStat compares a PLAIN bound with DuckDB's text of it.
func sameStat(leaf *schema.Node, plain []byte, text string) string {
	switch v := plainValue(leaf, plain).(type) {
	case bool:
		if strconv.FormatBool(v) != text {
			return fmt.Sprintf("want %v, got %q", v, text)
		}
		return ""
	case bytesV:
		b, err := duckBlob(text)
		if err != nil || string(b) != string(v) {
			return fmt.Sprintf("want %x, got %q", []byte(v), text)
		}
		return ""
	default:
		return sameValue(v, text, cmpOpts{})
	}
}

// duckBlob parses DuckDB's text of a BLOB: printable ASCII as is, other
// bytes as \xNN.
func duckBlob(s string) ([]byte, error) {
	var out []byte
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+3 < len(s) && (s[i+1] == 'x' || s[i+1] == 'X') {
			b, err := hex.DecodeString(s[i+2 : i+4])
			if err != nil {
				return nil, err
			}
			out = append(out, b...)
			i += 3
			continue
		}
		out = append(out, s[i])
	}
	return out, nil
}

// TestReadDuckDBFiles: files DuckDB writes (every codec it writes, data
// page v1 and v2, many types, nested lists, structs and maps, nulls at
// every level) read through our FileReader with the rows DuckDB reads,
// every column compared. DuckDB 1.5.6 ends each page's levels and
// dictionary indices with a bit-packed run declaring 256 values even when
// fewer are left: the reader must take the values needed and skip the
// padding (runtime/encode TestRLEOverDeclaredBitPackedRun).
func TestReadDuckDBFiles(t *testing.T) {
	needNode(t)
	dir := t.TempDir()
	out := runJS(t, "write.mjs", dir, "2500")
	if len(out) < 14 {
		t.Fatalf("DuckDB wrote %d files", len(out))
	}
	var paths []string
	for p := range out {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	same, cols := 0, 0
	for _, p := range paths {
		t.Run(strings.TrimSuffix(filepath.Base(p), ".parquet"), func(t *testing.T) {
			data, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			r := openOwn(t, data)
			fs := r.File().Schema
			if len(r.File().Meta.RowGroups) < 2 {
				t.Errorf("%d row groups; the test wants several", len(r.File().Meta.RowGroups))
			}
			got, errs := readColumnsPlain(r)
			for _, err := range errs {
				if err != nil {
					t.Fatalf("pqgen: %v", err)
				}
			}
			names := topNames(fs)
			rows, err := assembleSome(fs, got, make([]bool, len(names)))
			if err != nil {
				t.Fatalf("pqgen: %v", err)
			}
			if compareRows(t, "duckdb (want: pqgen's value)", filepath.Base(p), out[p], rows, names, cmpOpts{}) == 0 {
				cols += len(names)
				same++
			}
		})
	}
	t.Logf("%d of %d DuckDB-written files read identically; %d top-level columns compared", same, len(paths), cols)
	if same != len(paths) {
		t.Errorf("only %d of %d DuckDB-written files read identically", same, len(paths))
	}
}

// TestDuckDBProbesOurBloomFilters: DuckDB's parquet_bloom_probe finds, in
// each row group of every matrix file with bloom filters, a value of id
// and of name that the row group holds, and excludes most values never
// written.
func TestDuckDBProbesOurBloomFilters(t *testing.T) {
	needNode(t)
	type probe struct {
		File   string   `json:"file"`
		Column string   `json:"column"`
		Values []string `json:"values"`
	}
	var spec []probe
	present := map[string][]string{} // file+column: the value present in row group i
	for _, f := range writeMatrixFiles(t) {
		if !f.c.bloom {
			continue
		}
		footer := openOwn(t, f.data).File().Meta
		for _, ci := range []int{cID, cName} {
			col := &f.ds.cols[ci]
			p := probe{File: f.path, Column: testColumnName(ci)}
			first := 0
			for _, rg := range footer.RowGroups {
				v := col.vals[col.rowVal[first]] // the first value at or after the row group's first row
				if ci == cID {
					p.Values = append(p.Values, strconv.FormatInt(int64(binary.LittleEndian.Uint64(v)), 10))
				} else {
					p.Values = append(p.Values, "'"+strings.ReplaceAll(string(v), "'", "''")+"'")
				}
				first += int(rg.NumRows)
			}
			present[f.path+" "+p.Column] = p.Values
			for i := 0; i < 20; i++ {
				if ci == cID {
					p.Values = append(p.Values, strconv.FormatInt(1<<40+int64(i), 10))
				} else {
					p.Values = append(p.Values, fmt.Sprintf("'absent-%d'", i))
				}
			}
			spec = append(spec, p)
		}
	}
	if len(spec) == 0 {
		t.Fatal("no matrix configuration with bloom filters")
	}
	b, _ := json.Marshal(spec)
	specPath := filepath.Join(t.TempDir(), "probes.json")
	if err := os.WriteFile(specPath, b, 0o644); err != nil {
		t.Fatal(err)
	}
	out := runJS(t, "duckdb_bloom.mjs", specPath)["probes"]
	if out == nil || out.Err != "" {
		t.Fatalf("duckdb: parquet_bloom_probe: %v", out)
	}
	found, excluded, absent := 0, 0, 0
	for _, raw := range out.Rows {
		var r struct {
			File, Column, Value string
			Excludes            []bool
		}
		if err := json.Unmarshal(raw, &r); err != nil {
			t.Fatal(err)
		}
		if rg := slices.Index(present[r.File+" "+r.Column], r.Value); rg >= 0 {
			if rg >= len(r.Excludes) || r.Excludes[rg] {
				t.Errorf("duckdb: %s: column %s: row group %d holds %s, yet its bloom filter excludes it (%v)",
					filepath.Base(r.File), r.Column, rg, r.Value, r.Excludes)
			}
			found++
			continue
		}
		for _, x := range r.Excludes {
			absent++
			if x {
				excluded++
			}
		}
	}
	if excluded < absent*9/10 {
		t.Errorf("duckdb: bloom filters exclude only %d of %d absent values", excluded, absent)
	}
	t.Logf("duckdb: %d present values found, %d of %d absent (row group, value) pairs excluded", found, excluded, absent)
}

// testColumnName is the top-level name of a leaf of testSchema.
func testColumnName(ci int) string {
	return [numCols]string{"id", "name", "tags", "i32", "d", "f", "b", "fx", "u32", "dec"}[ci]
}
