package runtime

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"slices"
	"testing"
	"unsafe"

	"github.com/pqgen/pqgen/runtime/encode"
	"github.com/pqgen/pqgen/runtime/meta"
	"github.com/pqgen/pqgen/runtime/schema"
)

// synthPage is one page of a synthetic column chunk: levels and the
// encoded values section (dict marks a dictionary page of n entries).
type synthPage struct {
	def, rep []uint8
	enc      meta.Encoding
	values   []byte
	dict     bool
	n        int
	v2       bool
}

// synthFile assembles a file (no compression) from a schema and, per row
// group, per leaf, the pages of the chunk. rows[i] is row group i's row
// count.
func synthFile(t testing.TB, text string, rows []int64, chunks [][][]synthPage) []byte {
	s, err := schema.Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	out := []byte(Magic)
	md := meta.FileMetaData{Version: 1, Schema: s.Elements(), CreatedBy: meta.Some("pqgen synthetic test")}
	type index struct {
		rg, col int
		oi      meta.OffsetIndex
	}
	var indexes []index
	for rg, cols := range chunks {
		g := meta.RowGroup{NumRows: rows[rg]}
		for c, pages := range cols {
			leaf := s.Leaves[c]
			start := int64(len(out))
			var nv int64
			var oi meta.OffsetIndex
			var row int64
			for _, p := range pages {
				off := int64(len(out))
				out = appendSynthPage(out, leaf, p)
				if !p.dict {
					nv += int64(max(len(p.def), len(p.rep), p.n))
					oi.PageLocations = append(oi.PageLocations, meta.PageLocation{Offset: off, CompressedPageSize: int32(int64(len(out)) - off), FirstRowIndex: row})
					n := max(len(p.def), len(p.rep), p.n)
					for i := range n {
						if len(p.rep) == 0 || p.rep[i] == 0 {
							row++
						}
					}
				}
			}
			if synthIndex {
				if synthOffsetEdit != nil {
					synthOffsetEdit(c, &oi)
				}
				indexes = append(indexes, index{rg, c, oi})
			}
			cm := &meta.ColumnMetaData{Type: leaf.Type, Encodings: []meta.Encoding{meta.EncodingPlain, meta.EncodingRLE}, PathInSchema: leaf.Path,
				Codec: meta.Uncompressed, NumValues: nv, TotalCompressedSize: int64(len(out)) - start, TotalUncompressedSize: int64(len(out)) - start,
				DataPageOffset: start}
			g.Columns = append(g.Columns, meta.ColumnChunk{FileOffset: start, MetaData: cm})
			g.TotalByteSize += cm.TotalCompressedSize
		}
		md.RowGroups = append(md.RowGroups, g)
		md.NumRows += rows[rg]
	}
	for _, ix := range indexes {
		// A column index without statistics (empty min/max): filters in
		// tests select pages by number.
		np := len(ix.oi.PageLocations)
		ci := meta.ColumnIndex{NullPages: make([]bool, np), MinValues: make([][]byte, np), MaxValues: make([][]byte, np)}
		for i := range np {
			ci.MinValues[i], ci.MaxValues[i] = []byte{}, []byte{}
		}
		cc := &md.RowGroups[ix.rg].Columns[ix.col]
		off := int64(len(out))
		out = ci.AppendThrift(out)
		cc.ColumnIndexOffset, cc.ColumnIndexLength = meta.Some(off), meta.Some(int32(int64(len(out))-off))
		off = int64(len(out))
		out = ix.oi.AppendThrift(out)
		cc.OffsetIndexOffset, cc.OffsetIndexLength = meta.Some(off), meta.Some(int32(int64(len(out))-off))
	}
	foot := md.AppendThrift(nil)
	out = append(out, foot...)
	out = binary.LittleEndian.AppendUint32(out, uint32(len(foot)))
	return append(out, Magic...)
}

// synthIndex makes synthFile write a page index for every chunk, first
// passed to synthOffsetEdit (with the leaf's number) when it is set.
var (
	synthIndex      bool
	synthOffsetEdit func(col int, oi *meta.OffsetIndex)
)

func appendSynthPage(dst []byte, leaf *schema.Node, p synthPage) []byte {
	if p.dict {
		h := meta.PageHeader{Type: meta.DictionaryPage, UncompressedPageSize: int32(len(p.values)), CompressedPageSize: int32(len(p.values)),
			DictionaryPageHeader: &meta.DictionaryPageHeader{NumValues: int32(p.n), Encoding: meta.EncodingPlain}}
		return append(h.AppendThrift(dst), p.values...)
	}
	n := max(len(p.def), len(p.rep), p.n)
	bw := func(m uint8) int { return len(fmt.Sprintf("%b", m)) }
	if p.v2 {
		var r, d []byte
		if leaf.MaxRep > 0 {
			r = encode.AppendRLELevels(nil, p.rep, bw(leaf.MaxRep))
		}
		if leaf.MaxDef > 0 {
			d = encode.AppendRLELevels(nil, p.def, bw(leaf.MaxDef))
		}
		body := slices.Concat(r, d, p.values)
		rows := 0
		for i := range n {
			if leaf.MaxRep == 0 || p.rep[i] == 0 {
				rows++
			}
		}
		h := meta.PageHeader{Type: meta.DataPageV2, UncompressedPageSize: int32(len(body)), CompressedPageSize: int32(len(body)),
			DataPageHeaderV2: &meta.DataPageHeaderV2{NumValues: int32(n), NumRows: int32(rows), Encoding: p.enc,
				DefinitionLevelsByteLength: int32(len(d)), RepetitionLevelsByteLength: int32(len(r)), IsCompressed: meta.Some(false)}}
		return append(h.AppendThrift(dst), body...)
	}
	var body []byte
	if leaf.MaxRep > 0 {
		body = encode.AppendRLELevelsPrefixed(body, p.rep, bw(leaf.MaxRep))
	}
	if leaf.MaxDef > 0 {
		body = encode.AppendRLELevelsPrefixed(body, p.def, bw(leaf.MaxDef))
	}
	body = append(body, p.values...)
	h := meta.PageHeader{Type: meta.DataPage, UncompressedPageSize: int32(len(body)), CompressedPageSize: int32(len(body)),
		DataPageHeader: &meta.DataPageHeader{NumValues: int32(n), Encoding: p.enc, DefinitionLevelEncoding: meta.EncodingRLE, RepetitionLevelEncoding: meta.EncodingRLE}}
	return append(h.AppendThrift(dst), body...)
}

func readerOf(t testing.TB, file []byte, opts ...ReaderOption) *FileReader {
	fr, err := NewFileReader(bytes.NewReader(file), int64(len(file)), opts...)
	if err != nil {
		t.Fatal(err)
	}
	return fr
}

// TestRowsSpanPagesAndRowGroups: v1 pages whose rows continue on the next
// page, two row groups, read in batches of every size from 1 to 7.
func TestRowsSpanPagesAndRowGroups(t *testing.T) {
	text := `message m { optional group l (LIST) { repeated group list { required int64 element; } } }`
	// Row group 0: rows [1 2 3] [] null [4] [5 6]; the first page ends
	// inside row 0 and the second inside row 4.
	p1 := synthPage{def: []uint8{2, 2}, rep: []uint8{0, 1}, enc: meta.EncodingPlain, values: encode.AppendPlainInt64(nil, []int64{1, 2})}
	p2 := synthPage{def: []uint8{2, 1, 0, 2, 2}, rep: []uint8{1, 0, 0, 0, 0}, enc: meta.EncodingPlain, values: encode.AppendPlainInt64(nil, []int64{3, 4, 5})}
	p3 := synthPage{def: []uint8{2}, rep: []uint8{1}, enc: meta.EncodingPlain, values: encode.AppendPlainInt64(nil, []int64{6})}
	// Row group 1: rows [7] [8 9], a v2 page.
	p4 := synthPage{def: []uint8{2, 2, 2}, rep: []uint8{0, 0, 1}, enc: meta.EncodingPlain, values: encode.AppendPlainInt64(nil, []int64{7, 8, 9}), v2: true}
	file := synthFile(t, text, []int64{5, 2}, [][][]synthPage{{{p1, p2, p3}}, {{p4}}})
	wantRows := [][]int64{{1, 2, 3}, {}, nil, {4}, {5, 6}, {7}, {8, 9}}
	for batch := 1; batch <= 8; batch++ {
		fr := readerOf(t, file)
		c, err := fr.Int64Reader(0)
		if err != nil {
			t.Fatal(err)
		}
		var got [][]int64
		for {
			n, err := c.ReadRows(batch)
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			if n > batch || (n < batch && len(got)+n != len(wantRows)) {
				t.Fatalf("batch %d: %d rows", batch, n)
			}
			// Assemble the rows from the levels.
			v := 0
			rows := 0
			for i := range c.Rep {
				if c.Rep[i] == 0 {
					rows++
					switch c.Def[i] {
					case 0:
						got = append(got, nil)
						continue
					default:
						got = append(got, []int64{})
					}
				}
				if c.Def[i] == 2 {
					got[len(got)-1] = append(got[len(got)-1], c.Values[v])
					v++
				}
			}
			if rows != n || v != len(c.Values) {
				t.Fatalf("batch %d: %d rows in the levels, %d returned; %d of %d values", batch, rows, n, v, len(c.Values))
			}
		}
		if fmt.Sprint(got) != fmt.Sprint(wantRows) {
			t.Fatalf("batch %d: %v, want %v", batch, got, wantRows)
		}
	}
	// Row group filter: only the second.
	fr := readerOf(t, file, WithRowGroupFilter(func(_ *File, rg int) bool { return rg == 1 }))
	c, _ := fr.Int64Reader(0)
	if n, err := c.ReadRows(10); n != 2 || err != nil || fmt.Sprint(c.Values) != "[7 8 9]" {
		t.Fatalf("filtered: %d %v %v", n, err, c.Values)
	}
}

// TestChunkCountChecks: a chunk whose pages hold fewer rows than the row
// group, or whose first repetition level is not 0, fails.
func TestChunkCountChecks(t *testing.T) {
	text := `message m { repeated int32 r; }`
	p := synthPage{def: []uint8{1, 1}, rep: []uint8{0, 1}, enc: meta.EncodingPlain, values: encode.AppendPlainInt32(nil, []int32{1, 2})}
	file := synthFile(t, text, []int64{2}, [][][]synthPage{{{p}}})
	c, _ := readerOf(t, file).Int32Reader(0)
	if _, err := c.ReadRows(10); err == nil {
		t.Fatal("1 row read for a row group of 2")
	}
	bad := synthPage{def: []uint8{1, 1}, rep: []uint8{1, 0}, enc: meta.EncodingPlain, values: encode.AppendPlainInt32(nil, []int32{1, 2})}
	file = synthFile(t, text, []int64{1}, [][][]synthPage{{{bad}}})
	c, _ = readerOf(t, file).Int32Reader(0)
	if _, err := c.ReadRows(10); err == nil {
		t.Fatal("first repetition level 1 accepted")
	}
	// Sticky.
	if _, err := c.ReadRows(10); err == nil {
		t.Fatal("error not sticky")
	}
}

// benchFile builds a file of n rows: a required int64 (PLAIN), a required
// string (dictionary of 100 entries) and an optional int64 (10% nulls),
// in pages of 10000 rows.
func benchFile(b testing.TB, n int) []byte {
	text := `message m { required int64 id; required binary s (STRING); optional int64 o; }`
	var dict encode.ByteArrays
	for i := range 100 {
		dict.AppendString(fmt.Sprintf("value-%03d-%s", i, "padding"))
	}
	var ids, strs, opts []synthPage
	strs = append(strs, synthPage{dict: true, n: 100, values: encode.AppendPlainByteArray(nil, dict)})
	for start := 0; start < n; start += 10000 {
		m := min(10000, n-start)
		iv := make([]int64, m)
		idx := make([]int32, m)
		def := make([]uint8, m)
		var ov []int64
		for i := range m {
			iv[i] = int64(start + i)
			idx[i] = int32((start + i) * 7 % 100)
			if (start+i)%10 != 0 {
				def[i] = 1
				ov = append(ov, int64(start+i))
			}
		}
		ids = append(ids, synthPage{n: m, enc: meta.EncodingPlain, values: encode.AppendPlainInt64(nil, iv)})
		strs = append(strs, synthPage{n: m, enc: meta.EncodingRLEDictionary, values: encode.AppendDictIndices(nil, idx, 7)})
		opts = append(opts, synthPage{def: def, enc: meta.EncodingPlain, values: encode.AppendPlainInt64(nil, ov)})
	}
	return synthFile(b, text, []int64{int64(n)}, [][][]synthPage{{ids, strs, opts}})
}

func TestBenchFileContents(t *testing.T) {
	file := benchFile(t, 25000)
	fr := readerOf(t, file)
	for col := range 3 {
		d, err := readColumn(fr, col, 999)
		if err != nil || d.Rows != 25000 {
			t.Fatal(col, err)
		}
		switch col {
		case 0:
			if d.Values[24999] != int64(24999) {
				t.Fatal(d.Values[24999])
			}
		case 1:
			if d.Values[3] != "value-021-padding" {
				t.Fatal(d.Values[3])
			}
		case 2:
			if len(d.Values) != 22500 || d.Values[0] != int64(1) {
				t.Fatal(len(d.Values), d.Values[0])
			}
		}
	}
}

const benchRows = 200_000

func benchReadRows(b *testing.B, col, bytesPerRow int, read func(fr *FileReader) func(int) (int, error)) {
	file := benchFile(b, benchRows)
	b.SetBytes(int64(benchRows * bytesPerRow))
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		fr := readerOf(b, file)
		rr := read(fr)
		for {
			_, err := rr(1024)
			if err == io.EOF {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
		}
	}
}

func BenchmarkReadRowsInt64(b *testing.B) {
	benchReadRows(b, 0, 8, func(fr *FileReader) func(int) (int, error) {
		c, _ := fr.Int64Reader(0)
		return c.ReadRows
	})
}

func BenchmarkReadRowsString(b *testing.B) {
	benchReadRows(b, 1, 17, func(fr *FileReader) func(int) (int, error) {
		c, _ := fr.ByteArrayReader(1)
		return func(n int) (int, error) {
			k, err := c.ReadRows(n)
			for i := range c.Values.Len() {
				stringSink = c.String(i)
			}
			return k, err
		}
	})
}

func BenchmarkReadRowsOptionalInt64(b *testing.B) {
	benchReadRows(b, 2, 9, func(fr *FileReader) func(int) (int, error) {
		c, _ := fr.Int64Reader(2)
		return c.ReadRows
	})
}

// TestReadRowsSteadyStateAllocsBytes: ReadRows and String on a
// dictionary-encoded string column and an optional int64 column allocate
// nothing in steady state (pages of 10000 rows, calls of 7 rows).
func TestReadRowsSteadyStateAllocsBytes(t *testing.T) {
	fr := readerOf(t, benchFile(t, 30000))
	s, _ := fr.ByteArrayReader(1)
	o, _ := fr.Int64Reader(2)
	for range 100 {
		s.ReadRows(7)
		o.ReadRows(7)
		for i := range s.Values.Len() {
			stringSink = s.String(i)
		}
	}
	allocs := testing.AllocsPerRun(100, func() {
		if _, err := s.ReadRows(7); err != nil {
			t.Fatal(err)
		}
		for i := range s.Values.Len() {
			stringSink = s.String(i)
		}
		if _, err := o.ReadRows(7); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Errorf("%v allocations per call", allocs)
	}
}

// TestStringAcrossDictionaries: one batch spanning three row groups, each
// with its own dictionary; String returns the right value everywhere and
// shares one string per entry within a dictionary.
func TestStringAcrossDictionaries(t *testing.T) {
	var groups [][][]synthPage
	var rows []int64
	for g := range 3 {
		var d encode.ByteArrays
		for e := range 3 {
			d.AppendString(fmt.Sprintf("g%d-e%d", g, e))
		}
		groups = append(groups, [][]synthPage{{
			{dict: true, n: 3, values: encode.AppendPlainByteArray(nil, d)},
			{n: 4, enc: meta.EncodingRLEDictionary, values: encode.AppendDictIndices(nil, []int32{2, 0, 2, 1}, 2)},
		}})
		rows = append(rows, 4)
	}
	c, got := readStrings(t, synthFile(t, `message m { required binary s (STRING); }`, rows, groups), 12)
	want := "[g0-e2 g0-e0 g0-e2 g0-e1 g1-e2 g1-e0 g1-e2 g1-e1 g2-e2 g2-e0 g2-e2 g2-e1]"
	if fmt.Sprint(got) != want {
		t.Fatalf("%v", got)
	}
	for g := range 3 {
		if unsafe.StringData(c.String(4*g)) != unsafe.StringData(c.String(4*g+2)) {
			t.Errorf("row group %d: the same entry gives two strings", g)
		}
	}
}

// TestStringPlainAroundDictionary: in a batch of plain, then
// dictionary-encoded, then plain values, String returns each value, and
// the dictionary-encoded ones share one string per entry.
func TestStringPlainAroundDictionary(t *testing.T) {
	plain := func(vals ...string) synthPage {
		var b encode.ByteArrays
		for _, v := range vals {
			b.AppendString(v)
		}
		return synthPage{n: len(vals), enc: meta.EncodingPlain, values: encode.AppendPlainByteArray(nil, b)}
	}
	dict := plain("d0", "d1")
	dict.dict = true
	groups := [][][]synthPage{
		{{plain("p0", "p1", "p2")}},
		{{dict, {n: 4, enc: meta.EncodingRLEDictionary, values: encode.AppendDictIndices(nil, []int32{1, 0, 1, 1}, 1)}}},
		{{plain("q0", "q1")}},
	}
	c, got := readStrings(t, synthFile(t, `message m { required binary s (STRING); }`, []int64{3, 4, 2}, groups), 9)
	if want := "[p0 p1 p2 d1 d0 d1 d1 q0 q1]"; fmt.Sprint(got) != want {
		t.Fatalf("got %v, want %s", got, want)
	}
	if unsafe.StringData(c.String(3)) != unsafe.StringData(c.String(5)) {
		t.Error("the same dictionary entry gives two strings")
	}
	if unsafe.StringData(c.String(0)) == unsafe.StringData(c.String(3)) {
		t.Error("a plain value shares the string of a dictionary entry")
	}
}

// readStrings reads the n rows of the one-column file in one batch and
// returns its reader and the values as strings.
func readStrings(t *testing.T, file []byte, n int) (*ByteArrayReader, []string) {
	t.Helper()
	c, _ := readerOf(t, file).ByteArrayReader(0)
	if k, err := c.ReadRows(n + 1); k != n || err != nil {
		t.Fatal(k, err)
	}
	got := make([]string, c.Values.Len())
	for i := range got {
		got[i] = c.String(i)
	}
	return c, got
}
