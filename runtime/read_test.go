package runtime

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	goruntime "runtime"
	"strings"
	"testing"

	"github.com/pqgen/pqgen/internal/corpus"
	"github.com/pqgen/pqgen/runtime/bloom"
	"github.com/pqgen/pqgen/runtime/meta"
	"github.com/pqgen/pqgen/runtime/page"
	"github.com/pqgen/pqgen/runtime/schema"
)

func mustParse(t testing.TB, text string) *schema.Schema {
	t.Helper()
	s, err := schema.Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestBind(t *testing.T) {
	have := mustParse(t, `message m {
  required int64 id;
  optional binary name (STRING);
  optional group tags (LIST) {
    repeated group list {
      optional binary element (STRING);
    }
  }
  required fixed_len_byte_array(16) uuid (UUID);
}`)
	cases := []struct {
		want string
		idx  string
		err  string
	}{
		{`message m { required int64 id; }`, "[0]", ""},
		{`message m { optional binary name (STRING); required int64 id; }`, "[1 0]", ""},
		{`message m { optional group tags (LIST) { repeated group list { optional binary element (STRING); } } }`, "[2]", ""},
		{`message m { optional int32 missing; required int64 id; }`, "[-1 0]", ""},
		{`message m { optional group g { required int32 x; } }`, "[-1]", ""},
		{`message m { repeated int32 r; }`, "[-1]", ""},
		{`message m { required int32 missing; }`, "", `"missing": required`},
		{`message m { required group g { required int32 x; } }`, "", `"g.x": required`},
		{`message m { required int32 id; }`, "", `"id": int64 in the file, int32 requested`},
		{`message m { optional int64 id; }`, "[0]", ""},             // required in the file: levels synthesized
		{`message m { required binary name (STRING); }`, "[1]", ""}, // optional in the file: read while no null
		{`message m { repeated binary name (STRING); }`, "", `"name": field "name" is optional in the file, repeated requested`},
		{`message m { required fixed_len_byte_array(8) uuid; }`, "", `"uuid": fixed_len_byte_array(16) (UUID) in the file, fixed_len_byte_array(8) requested`},
		{`message m { required group tags (LIST) { repeated group list { required binary element (STRING); } } }`, "[2]", ""},
		{`message m { optional group tags (LIST) { required group list { optional binary element (STRING); } } }`, "", `"tags.list.element": field "tags.list" is repeated in the file, required requested`},
	}
	for _, c := range cases {
		idx, _, err := bindAdapt(have, mustParse(t, c.want), bindOptions{optionalAsRequired: true})
		if c.err != "" {
			if err == nil || !errors.Is(err, ErrBind) || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s: error %v, want one containing %s", c.want, err, c.err)
			}
			continue
		}
		if err != nil || fmt.Sprint(idx) != c.idx {
			t.Errorf("%s: %v %v, want %s", c.want, idx, err, c.idx)
		}
	}
}

func TestFileReaderBindCorpus(t *testing.T) {
	fr := openReader(t, corpus.Path(t, "data/alltypes_plain.parquet"))
	idx, err := fr.Bind(fr.File().Schema)
	if err != nil {
		t.Fatal(err)
	}
	for i, j := range idx {
		if i != j {
			t.Fatalf("self-bind: %v", idx)
		}
	}
}

func TestWithColumns(t *testing.T) {
	path := corpus.Path(t, "data/alltypes_plain.parquet")
	fr := openReader(t, path, WithColumns("id", "string_col"))
	if got := fmt.Sprint(fr.Columns()); got != "[0 9]" {
		t.Fatalf("Columns() = %s", got)
	}
	for col, want := range map[int]bool{-1: false, 0: true, 1: false, 9: true, 10: false, 11: false} {
		if got := fr.Projected(col); got != want {
			t.Errorf("Projected(%d) = %v, want %v", col, got, want)
		}
	}
	if all := openReader(t, path); !all.Projected(1) || !all.Projected(10) || all.Projected(11) || all.Projected(-1) {
		t.Errorf("without WithColumns: Projected(1, 10, 11, -1) = %v %v %v %v, want true true false false",
			all.Projected(1), all.Projected(10), all.Projected(11), all.Projected(-1))
	}
	if _, err := fr.Int32Reader(0); err != nil {
		t.Fatal(err)
	}
	if _, err := fr.BoolReader(1); !errors.Is(err, ErrColumn) {
		t.Fatalf("unprojected column: %v", err)
	}
	if _, err := fr.Int64Reader(0); !errors.Is(err, ErrColumn) {
		t.Fatalf("wrong type: %v", err)
	}
	if _, err := fr.Int32Reader(99); !errors.Is(err, ErrColumn) {
		t.Fatalf("out of range: %v", err)
	}
	fh := openCounting(t, path)
	st := fh.size
	fr2, err := NewFileReader(fh, st, WithColumns("bool_col"))
	if err != nil {
		t.Fatal(err)
	}
	c, _ := fr2.BoolReader(1)
	if n, err := c.ReadRows(100); n != 8 || err != nil {
		t.Fatal(n, err)
	}
	// Only the footer and column 1's chunk were read.
	md := fr2.File().Meta.RowGroups[0].Columns[1].MetaData
	lo, hi := md.DataPageOffset, md.DataPageOffset+md.TotalCompressedSize
	for _, r := range fh.reads {
		if r[0] < fr2.File().FooterOffset-8 && (r[0] < lo || r[1] > hi) && r[0] != 0 {
			t.Errorf("read [%d, %d) outside the chunk [%d, %d)", r[0], r[1], lo, hi)
		}
	}
	// A path of no column: without Bind, every column request fails.
	if fr4, err := NewFileReader(fh, st, WithColumns("bool_col", "nope")); err != nil {
		t.Fatal(err)
	} else if _, err := fr4.BoolReader(1); !errors.Is(err, ErrColumn) || !strings.Contains(err.Error(), `no column "nope" in the file`) {
		t.Fatalf("unknown column: %v", err)
	}
	// A group path selects the leaves below it (and only those: "int_map"
	// is not a prefix match of "int_Map_Array").
	fr3 := openReader(t, corpus.Path(t, "data/nullable.impala.parquet"), WithColumns("int_map", "nested_struct.C"))
	if got := fmt.Sprint(fr3.Columns()); got != "[3 4 9 10]" {
		t.Fatalf("group projection: %s", got)
	}
	// A group path selects the leaves of the group, not a column whose
	// name starts with the group's and a dot.
	var buf bytes.Buffer
	fw, err := NewFileWriter(&buf, mustParse(t, `message m { required int64 "a.b"; required group a { required int64 c; } }`))
	if err != nil {
		t.Fatal(err)
	}
	if err := fw.EndRows(0); err != nil {
		t.Fatal(err)
	}
	if err := fw.Close(); err != nil {
		t.Fatal(err)
	}
	fr5, err := NewFileReader(bytes.NewReader(buf.Bytes()), int64(buf.Len()), WithColumns("a"))
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(fr5.Columns()); got != "[1]" {
		t.Errorf(`WithColumns("a") beside a column "a.b": columns %s, want [1]`, got)
	}
}

// countingReader records the ranges read.
type countingReader struct {
	r     io.ReaderAt
	size  int64
	reads [][2]int64
}

func (c *countingReader) ReadAt(p []byte, off int64) (int, error) {
	c.reads = append(c.reads, [2]int64{off, off + int64(len(p))})
	return c.r.ReadAt(p, off)
}

func openCounting(t *testing.T, path string) *countingReader {
	fr := openReader(t, path)
	return &countingReader{r: fr.File().ReaderAt(), size: fr.File().Size}
}

func TestWithRowGroupFilter(t *testing.T) {
	path := corpus.Path(t, "data/sort_columns.parquet")
	all := openReader(t, path)
	if len(all.File().Meta.RowGroups) < 2 {
		t.Skip("needs several row groups")
	}
	fr := openReader(t, path, WithRowGroupFilter(func(f *File, rg int) bool { return rg == 1 }))
	if fr.NumRows() != all.File().Meta.RowGroups[1].NumRows || fmt.Sprint(fr.RowGroups()) != "[1]" {
		t.Fatalf("NumRows %d, RowGroups %v", fr.NumRows(), fr.RowGroups())
	}
	d, err := readColumn(fr, 0, 100)
	if err != nil {
		t.Fatal(err)
	}
	if int64(d.Rows) != fr.NumRows() {
		t.Fatalf("%d rows", d.Rows)
	}
}

// TestStringSharing: dictionary-encoded values share one string per
// entry; plain values are substrings of one copy of the batch's bytes,
// made by the first String call after ReadRows.
func TestStringSharing(t *testing.T) {
	fr := openReader(t, corpus.Path(t, "data/alltypes_dictionary.parquet"))
	col := fr.File().Schema.Leaf("string_col").Column
	c, err := fr.ByteArrayReader(col)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.ReadRows(100); err != nil {
		t.Fatal(err)
	}
	a, b := c.String(0), c.String(0)
	if a != b || c.Values.Len() < 1 {
		t.Fatal("String differs")
	}
	if allocs := testing.AllocsPerRun(100, func() { stringSink = c.String(0) }); allocs != 0 {
		t.Errorf("String of a dictionary value allocates %v times", allocs)
	}
	fr = openReader(t, corpus.Path(t, "data/delta_length_byte_array.parquet"))
	c, _ = fr.ByteArrayReader(0)
	if _, err := c.ReadRows(100); err != nil {
		t.Fatal(err)
	}
	if len(c.Values.At(0)) < 2 {
		t.Fatalf("value %q too short to allocate", c.Values.At(0))
	}
	stringSink = c.String(0)
	if allocs := testing.AllocsPerRun(100, func() { stringSink = c.String(c.Values.Len() - 1) }); allocs != 0 {
		t.Errorf("later Strings of plain values allocate %v times, want 0", allocs)
	}
	if got, want := c.String(c.Values.Len()-1), string(c.Values.At(c.Values.Len()-1)); got != want {
		t.Errorf("String = %q, want %q", got, want)
	}
	if _, err := c.ReadRows(100); err != nil {
		t.Fatal(err)
	}
	if got, want := c.String(0), string(c.Values.At(0)); got != want {
		t.Errorf("after the next ReadRows, String(0) = %q, want %q", got, want)
	}
}

// TestBytesCopies: Bytes returns copies of the batch's values, each
// capped at its own end, made by one allocation per batch, and still
// intact after the next ReadRows reuses Values.
func TestBytesCopies(t *testing.T) {
	fr := openReader(t, corpus.Path(t, "data/delta_length_byte_array.parquet"))
	c, err := fr.ByteArrayReader(0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.ReadRows(100); err != nil {
		t.Fatal(err)
	}
	n := c.Values.Len()
	if n != 100 {
		t.Fatalf("%d values, want 100", n)
	}
	got := make([][]byte, n)
	want := make([]string, n)
	for i := range n {
		got[i], want[i] = c.Bytes(i), string(c.Values.At(i))
		if string(got[i]) != want[i] || cap(got[i]) != len(got[i]) || got[i] == nil {
			t.Fatalf("Bytes(%d) = %q (cap %d), want %q, capped", i, got[i], cap(got[i]), want[i])
		}
	}
	if allocs := testing.AllocsPerRun(100, func() { bytesSink = c.Bytes(n - 1) }); allocs != 0 {
		t.Errorf("later Bytes calls allocate %v times, want 0", allocs)
	}
	got[0] = append(got[0], 'x')
	if string(got[1]) != want[1] {
		t.Fatalf("appending to Bytes(0) changed Bytes(1) to %q", got[1])
	}
	if _, err := c.ReadRows(100); err != nil {
		t.Fatal(err)
	}
	if g, w := string(c.Bytes(0)), string(c.Values.At(0)); g != w || g == want[0] {
		t.Errorf("after the next ReadRows, Bytes(0) = %q, want %q (not the first batch's %q)", g, w, want[0])
	}
	for i := 1; i < n; i++ {
		if string(got[i]) != want[i] {
			t.Fatalf("the next ReadRows changed an earlier Bytes(%d) to %q, want %q", i, got[i], want[i])
		}
	}
}

var bytesSink []byte

// TestReadRowsSteadyStateAllocs: after warm-up, ReadRows allocates
// nothing per call while staying within loaded pages.
func TestReadRowsSteadyStateAllocs(t *testing.T) {
	fr := openReader(t, corpus.Path(t, "data/alltypes_tiny_pages.parquet"))
	col := fr.File().Schema.Leaf("id").Column
	c, err := fr.Int32Reader(col)
	if err != nil {
		t.Fatal(err)
	}
	for range 10 {
		if _, err := c.ReadRows(50); err != nil {
			t.Fatal(err)
		}
	}
	allocs := testing.AllocsPerRun(50, func() {
		if _, err := c.ReadRows(7); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Errorf("%v allocations per ReadRows", allocs)
	}
}

// TestReadRowsRepeated: rows of a repeated column are cut at repetition
// level 0 whatever the batch size, across pages.
func TestReadRowsRepeated(t *testing.T) {
	fr := openReader(t, corpus.Path(t, "data/nested_lists.snappy.parquet"))
	for col, leaf := range fr.File().Schema.Leaves {
		if leaf.MaxRep == 0 {
			continue
		}
		c, err := fr.ByteArrayReader(col)
		if err != nil {
			continue
		}
		for {
			n, err := c.ReadRows(1)
			if err == io.EOF {
				break
			}
			if err != nil || n != 1 {
				t.Fatal(n, err)
			}
			if len(c.Rep) == 0 || c.Rep[0] != 0 {
				t.Fatalf("row does not start at repetition level 0: %v", c.Rep)
			}
			for _, r := range c.Rep[1:] {
				if r == 0 {
					t.Fatalf("two rows in one: %v", c.Rep)
				}
			}
		}
		if n, err := c.ReadRows(5); n != 0 || err != io.EOF {
			t.Fatalf("after the end: %d, %v", n, err)
		}
	}
}

func TestBloomFilter(t *testing.T) {
	for _, rel := range []string{"data/data_index_bloom_encoding_stats.parquet", "data/data_index_bloom_encoding_with_length.parquet"} {
		fr := openReader(t, corpus.Path(t, rel))
		d, err := readColumn(fr, 0, 1000)
		if err != nil {
			t.Fatal(err)
		}
		bf, err := fr.BloomFilter(0, 0)
		if err != nil || bf == nil {
			t.Fatalf("%s: %v %v", rel, bf, err)
		}
		for _, v := range d.Values {
			if !bf.Check(bloom.HashString(v.(string))) {
				t.Errorf("%s: %q is not in the bloom filter", rel, v)
			}
		}
		fp := 0
		for i := range 1000 {
			if bf.Check(bloom.HashString(fmt.Sprintf("absent value %d", i))) {
				fp++
			}
		}
		if fp > 100 {
			t.Errorf("%s: %d false positives of 1000", rel, fp)
		}
	}
	fr := openReader(t, corpus.Path(t, "data/alltypes_plain.parquet"))
	if bf, err := fr.BloomFilter(0, 0); bf != nil || err != nil {
		t.Errorf("no filter: %v %v", bf, err)
	}
	if _, err := fr.BloomFilter(5, 0); !errors.Is(err, ErrColumn) {
		t.Errorf("bad row group: %v", err)
	}
}

// TestBloomFilterWithoutLengthBounded: a bloom filter header without
// bloom_filter_length that claims a bitset larger than the rest of the
// file fails before the bitset is allocated.
func TestBloomFilterWithoutLengthBounded(t *testing.T) {
	data, err := os.ReadFile(corpus.Path(t, "data/data_index_bloom_encoding_stats.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	fr, err := NewFileReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	md := fr.File().Meta.RowGroups[0].Columns[0].MetaData
	off, ok := md.BloomFilterOffset.Get()
	if !ok || md.BloomFilterLength.Set {
		t.Fatalf("the file should have a bloom filter without length: offset %v, length %v", md.BloomFilterOffset, md.BloomFilterLength)
	}
	const claimed = 64 << 20
	h := meta.BloomFilterHeader{NumBytes: claimed, Algorithm: meta.BloomBlock, Hash: meta.BloomXXHash, Compression: meta.BloomUncompressed}
	enc := h.AppendThrift(nil)
	if int64(len(data))-off < int64(len(enc)) {
		t.Fatalf("no room for the header")
	}
	copy(data[off:], enc)
	var before, after goruntime.MemStats
	goruntime.ReadMemStats(&before)
	bf, err := fr.BloomFilter(0, 0)
	goruntime.ReadMemStats(&after)
	if bf != nil || !errors.Is(err, ErrChunk) || !errors.Is(err, bloom.ErrCorrupt) {
		t.Fatalf("got %v, %v; want an error wrapping ErrChunk and bloom.ErrCorrupt", bf, err)
	}
	if got := after.TotalAlloc - before.TotalAlloc; got >= 1<<20 {
		t.Errorf("%d bytes allocated for a %d-byte file", got, len(data))
	}
}

// TestPageIndex: the offset index lists exactly the data pages the chunk
// reader finds, and the column index has one entry per page.
func TestPageIndex(t *testing.T) {
	fr := openReader(t, corpus.Path(t, "data/alltypes_tiny_pages.parquet"))
	f := fr.File()
	checked := 0
	for col, leaf := range f.Schema.Leaves {
		oi, err := fr.OffsetIndex(0, col)
		if err != nil {
			t.Fatalf("%s: %v", leaf.PathString(), err)
		}
		if oi == nil {
			continue // parquet-mr writes no page index for INT96
		}
		ci, err := fr.ColumnIndex(0, col)
		if err != nil {
			t.Fatalf("%s: %v", leaf.PathString(), err)
		}
		if ci != nil && len(ci.NullPages) != len(oi.PageLocations) {
			t.Errorf("%s: %d column index entries, %d pages", leaf.PathString(), len(ci.NullPages), len(oi.PageLocations))
		}
		start, length, md, err := chunkRange(f, 0, col)
		if err != nil {
			t.Fatal(err)
		}
		var cr page.ChunkReader
		cr.Reset(f.ReaderAt(), start, length, page.Column{Path: leaf.PathString(), Type: leaf.Type, TypeLength: int(leaf.TypeLength),
			MaxDef: leaf.MaxDef, MaxRep: leaf.MaxRep, Codec: md.Codec}, page.ChunkOptions{VerifyCRC: true})
		var offs []int64
		var rows int64
		var first []int64
		for {
			p, err := cr.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			offs = append(offs, p.Offset)
			first = append(first, rows)
			rows += int64(p.NumValues) // flat columns: one slot per row
		}
		if len(offs) != len(oi.PageLocations) {
			t.Fatalf("%s: %d pages read, %d in the offset index", leaf.PathString(), len(offs), len(oi.PageLocations))
		}
		for i, pl := range oi.PageLocations {
			if pl.Offset != offs[i] || pl.FirstRowIndex != first[i] {
				t.Errorf("%s page %d: offset index %d/%d, read %d/%d", leaf.PathString(), i, pl.Offset, pl.FirstRowIndex, offs[i], first[i])
			}
		}
		checked++
	}
	if checked < len(f.Schema.Leaves)-1 {
		t.Fatalf("%d columns checked", checked)
	}
	fr = openReader(t, corpus.Path(t, "data/alltypes_plain.parquet"))
	if oi, err := fr.OffsetIndex(0, 0); oi != nil || err != nil {
		t.Errorf("no index: %v %v", oi, err)
	}
	if ci, err := fr.ColumnIndex(0, 0); ci != nil || err != nil {
		t.Errorf("no index: %v %v", ci, err)
	}
}

func TestOldParquetMR(t *testing.T) {
	for s, want := range map[string]bool{
		"parquet-mr":                            true,
		"parquet-mr version 1.2.8":              true,
		"parquet-mr version 1.2.9":              false,
		"parquet-mr version 1.10.0 (build abc)": false,
		"parquet-mr version 1.1.0-SNAPSHOT":     true,
		"parquet-mr version 0.9.0":              true,
		"parquet-cpp version 1.2.0":             false,
		"impala version 1.3.0":                  false,
		"":                                      false,
	} {
		if got := oldParquetMR(s); got != want {
			t.Errorf("%q: %v", s, got)
		}
	}
}

var stringSink string

// TestConcurrentColumnReaders: column readers of one FileReader are
// independent and may run in parallel.
func TestConcurrentColumnReaders(t *testing.T) {
	fr := openReader(t, corpus.Path(t, "data/alltypes_tiny_pages.parquet"), WithColumnPageFilter("id", func(_ *File, _ int, _ *meta.ColumnIndex, p int) bool { return p%3 == 0 }))
	leaves := fr.File().Schema.Leaves
	want := make([]string, len(leaves))
	for col := range leaves {
		d, err := readColumn(fr, col, 100)
		if err != nil {
			t.Fatal(err)
		}
		want[col] = fmt.Sprint(d)
	}
	errs := make(chan error, len(leaves))
	for col := range leaves {
		go func() {
			d, err := readColumn(fr, col, 37)
			if err == nil && fmt.Sprint(d) != want[col] {
				err = fmt.Errorf("column %d differs when read concurrently", col)
			}
			errs <- err
		}()
	}
	for range leaves {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}
