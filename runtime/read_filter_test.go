package runtime

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/pqgen/pqgen/internal/corpus"
	"github.com/pqgen/pqgen/runtime/encode"
	"github.com/pqgen/pqgen/runtime/meta"
)

// rowsOf splits a column's levels and values into rows (rendered).
func rowsOf(d *columnData, maxRep uint8, maxDef uint8) []string {
	var out []string
	v := 0
	n := max(len(d.Def), len(d.Rep), len(d.Values))
	if len(d.Def) == 0 && len(d.Rep) == 0 {
		n = len(d.Values)
	}
	var cur []any
	for i := range n {
		if maxRep == 0 || d.Rep[i] == 0 {
			if i > 0 {
				out = append(out, fmt.Sprint(cur))
			}
			cur = nil
		}
		if maxDef == 0 || d.Def[i] == maxDef {
			cur = append(cur, d.Values[v])
			v++
		} else {
			cur = append(cur, fmt.Sprintf("null@%d", d.Def[i]))
		}
	}
	if n > 0 {
		out = append(out, fmt.Sprint(cur))
	}
	return out
}

// TestPageFilter keeps the pages of alltypes_tiny_pages whose id range
// meets [1000, 1100] or [5000, 5050] and checks every column against the
// full read restricted to the rows of those pages.
func TestPageFilter(t *testing.T) {
	path := corpus.Path(t, "data/alltypes_tiny_pages.parquet")
	keep := func(f *File, rg int, ci *meta.ColumnIndex, p int) bool {
		if ci.NullPages[p] {
			return false
		}
		lo := int32(binary.LittleEndian.Uint32(ci.MinValues[p]))
		hi := int32(binary.LittleEndian.Uint32(ci.MaxValues[p]))
		return (lo <= 1100 && hi >= 1000) || (lo <= 5050 && hi >= 5000)
	}
	full := openReader(t, path)
	cr := openCounting(t, path)
	filtered, err := NewFileReader(cr, cr.size, WithColumnPageFilter("id", keep))
	if err != nil {
		t.Fatal(err)
	}
	// The expected rows, from the id column's offset index.
	idCol := full.File().Schema.Leaf("id").Column
	ci, _ := full.ColumnIndex(0, idCol)
	oi, _ := full.OffsetIndex(0, idCol)
	total := full.File().Meta.RowGroups[0].NumRows
	var want []int64
	for p, pl := range oi.PageLocations {
		end := total
		if p+1 < len(oi.PageLocations) {
			end = oi.PageLocations[p+1].FirstRowIndex
		}
		if keep(full.File(), 0, ci, p) {
			for r := pl.FirstRowIndex; r < end; r++ {
				want = append(want, r)
			}
		}
	}
	if len(want) == 0 || int64(len(want)) == total {
		t.Fatalf("the filter keeps %d of %d rows", len(want), total)
	}
	if filtered.NumRows() != int64(len(want)) {
		t.Fatalf("NumRows %d, want %d", filtered.NumRows(), len(want))
	}
	for col, leaf := range full.File().Schema.Leaves {
		all, err := readColumn(full, col, 1000)
		if err != nil {
			t.Fatal(err)
		}
		allRows := rowsOf(all, leaf.MaxRep, leaf.MaxDef)
		for _, batch := range []int{1, 13, 10000} {
			fr, err := NewFileReader(cr, cr.size, WithColumnPageFilter("id", keep))
			if err != nil {
				t.Fatal(err)
			}
			got, err := readColumn(fr, col, batch)
			if err != nil {
				t.Fatalf("%s: %v", leaf.PathString(), err)
			}
			gotRows := rowsOf(got, leaf.MaxRep, leaf.MaxDef)
			var exp []string
			for _, r := range want {
				exp = append(exp, allRows[r])
			}
			if got.Rows != len(want) || !slices.Equal(gotRows, exp) {
				t.Fatalf("%s (batch %d): %d rows, want %d; first %v, want %v", leaf.PathString(), batch, got.Rows, len(want), gotRows[:min(3, len(gotRows))], exp[:3])
			}
		}
	}
}

// TestPageFilterSkipsIO: with a page index, the pages holding only
// skipped rows are never read, in any column.
func TestPageFilterSkipsIO(t *testing.T) {
	synthIndex = true
	file := benchFile(t, 100_000) // 10 pages of 10000 rows per column
	synthIndex = false
	cr := &countingReader{r: bytes.NewReader(file), size: int64(len(file))}
	keep := func(_ *File, _ int, _ *meta.ColumnIndex, p int) bool { return p == 3 || p == 7 }
	fr, err := NewFileReader(cr, cr.size, WithColumnPageFilter("id", keep))
	if err != nil {
		t.Fatal(err)
	}
	if fr.NumRows() != 20000 {
		t.Fatalf("NumRows %d", fr.NumRows())
	}
	for col := range 3 {
		cr.reads = nil
		d, err := readColumn(fr, col, 999)
		if err != nil || d.Rows != 20000 {
			t.Fatal(col, d.Rows, err)
		}
		if col == 0 && (d.Values[0] != int64(30000) || d.Values[19999] != int64(79999)) {
			t.Fatalf("ids %v..%v", d.Values[0], d.Values[19999])
		}
		md := fr.File().Meta.RowGroups[0].Columns[col].MetaData
		var n int64
		for _, r := range cr.reads {
			if r[0] >= md.DataPageOffset && r[0] < md.DataPageOffset+md.TotalCompressedSize {
				n += r[1] - r[0]
			}
		}
		if n > md.TotalCompressedSize/3 {
			t.Errorf("column %d: read %d of %d chunk bytes", col, n, md.TotalCompressedSize)
		}
	}
}

// TestPageFilterReadsNoSkippedHeader: a column without repetition passes
// over the pages holding only skipped rows by its offset index, without
// reading their headers (a request each on object storage), and stops at
// its last kept page: no read starts in a skipped page, except the first
// page of a chunk whose dictionary page comes before it (read on the way
// to the dictionary). Every kept value reads back.
func TestPageFilterReadsNoSkippedHeader(t *testing.T) {
	synthIndex = true
	file := benchFile(t, 100_000) // 10 pages of 10000 rows per column
	synthIndex = false
	cr := &countingReader{r: bytes.NewReader(file), size: int64(len(file))}
	for _, kept := range [][]int{{3, 7}, {0, 9}, {5}, {1, 2}} {
		keep := func(_ *File, _ int, _ *meta.ColumnIndex, p int) bool { return slices.Contains(kept, p) }
		fr, err := NewFileReader(cr, cr.size, WithColumnPageFilter("id", keep))
		if err != nil {
			t.Fatal(err)
		}
		for col := range 3 {
			oi, err := fr.OffsetIndex(0, col)
			if err != nil || oi == nil {
				t.Fatal(oi, err)
			}
			md := fr.File().Meta.RowGroups[0].Columns[col].MetaData
			dict := md.DictionaryPageOffset.Set
			cr.reads = nil
			d, err := readColumn(fr, col, 999)
			if err != nil || d.Rows != 10000*len(kept) {
				t.Fatal(kept, col, d.Rows, err)
			}
			if col == 0 {
				for i, p := range kept {
					if got := d.Values[10000*i]; got != int64(10000*p) {
						t.Fatalf("pages %v: row %d of the kept ones is id %v, want %d", kept, 10000*i, got, 10000*p)
					}
				}
			}
			for _, r := range cr.reads {
				for p, pl := range oi.PageLocations {
					if slices.Contains(kept, p) || p == 0 && dict {
						continue
					}
					if r[0] >= pl.Offset && r[0] < pl.Offset+int64(pl.CompressedPageSize) {
						t.Errorf("pages %v kept, column %d: a read of %d bytes at %d, in skipped page %d", kept, col, r[1]-r[0], r[0], p)
					}
				}
			}
		}
	}
}

// TestPageFilterMisplacedPage: an offset index that places a kept page at
// the offset of another (of another row count), behind pages passed over
// by the index, is an ErrChunk error naming the column, not that page's
// values read as the kept rows.
func TestPageFilterMisplacedPage(t *testing.T) {
	var pages []synthPage
	id := int64(0)
	for _, n := range []int{1000, 2000, 3000, 4000} {
		v := make([]int64, n)
		for i := range v {
			v[i] = id
			id++
		}
		pages = append(pages, synthPage{n: n, enc: meta.EncodingPlain, values: encode.AppendPlainInt64(nil, v)})
	}
	synthIndex = true
	synthOffsetEdit = func(_ int, oi *meta.OffsetIndex) { oi.PageLocations[2].Offset = oi.PageLocations[3].Offset }
	file := synthFile(t, "message m { required int64 id; }", []int64{10000}, [][][]synthPage{{pages}})
	synthIndex, synthOffsetEdit = false, nil
	keep := func(_ *File, _ int, _ *meta.ColumnIndex, p int) bool { return p == 2 }
	fr, err := NewFileReader(bytes.NewReader(file), int64(len(file)), WithColumnPageFilter("id", keep))
	if err != nil {
		t.Fatal(err)
	}
	c, err := fr.Int64Reader(0)
	if err != nil {
		t.Fatal(err)
	}
	// The kept rows hold ids 3000 to 5999: no batch of other ids may come
	// out before the error.
	for want := int64(3000); ; want += 1000 {
		n, err := c.ReadRows(1000)
		if err != nil {
			if !errors.Is(err, ErrChunk) || !strings.Contains(err.Error(), `"id"`) {
				t.Fatalf("error %v; want ErrChunk naming the column", err)
			}
			break
		}
		if n == 0 || c.Values[0] != want {
			t.Fatalf("read %d rows from id %v, want id %d, or an error", n, c.Values[:min(1, n)], want)
		}
	}
}

// TestPageFilterNoRows: a filter that keeps nothing skips every row
// group.
func TestPageFilterNoRows(t *testing.T) {
	fr := openReader(t, corpus.Path(t, "data/alltypes_tiny_pages.parquet"),
		WithColumnPageFilter("id", func(*File, int, *meta.ColumnIndex, int) bool { return false }))
	if fr.NumRows() != 0 || len(fr.RowGroups()) != 0 {
		t.Fatal(fr.NumRows(), fr.RowGroups())
	}
	c, _ := fr.Int32Reader(fr.File().Schema.Leaf("id").Column)
	if n, err := c.ReadRows(10); n != 0 || err != io.EOF {
		t.Fatal(n, err)
	}
	if _, err := NewFileReader(fr.File().ReaderAt(), fr.File().Size, WithColumnPageFilter("nope", func(*File, int, *meta.ColumnIndex, int) bool { return true })); err == nil {
		t.Fatal("unknown filter column accepted")
	}
}

// TestPageFilterCorpus: for every corpus file with a page index, keeping
// every other page of the first leaf yields, in every column, exactly the
// rows of the full read that lie in the kept ranges.
func TestPageFilterCorpus(t *testing.T) {
	files := 0
	for _, rel := range corpus.ParquetFiles(t) {
		if strings.HasSuffix(rel, ".encrypted") || strings.HasPrefix(rel, "bad_data/") || strings.Contains(rel, "large_string_map") {
			continue
		}
		full := openReader(t, corpus.Path(t, rel))
		f := full.File()
		if len(f.Meta.RowGroups) == 0 || len(f.Schema.Leaves) == 0 {
			continue
		}
		first := f.Schema.Leaves[0].PathString()
		fr, err := NewFileReader(f.ReaderAt(), f.Size, WithColumnPageFilter(first, func(_ *File, _ int, _ *meta.ColumnIndex, p int) bool { return p%2 == 0 }))
		if err != nil {
			t.Errorf("%s: %v", rel, err)
			continue
		}
		if len(fr.ranges) == 0 {
			continue // no page index
		}
		files++
		// Row numbers kept, across row groups.
		var keep []int
		base := 0
		for rg := range f.Meta.RowGroups {
			n := int(f.Meta.RowGroups[rg].NumRows)
			rr, filtered := fr.ranges[rg]
			switch {
			case !slices.Contains(fr.rowGroups, rg):
			case !filtered:
				for r := range n {
					keep = append(keep, base+r)
				}
			default:
				for _, x := range rr {
					for r := x.start; r < x.end; r++ {
						keep = append(keep, base+int(r))
					}
				}
			}
			base += n
		}
		if int64(len(keep)) != fr.NumRows() {
			t.Errorf("%s: NumRows %d, ranges hold %d", rel, fr.NumRows(), len(keep))
		}
		for col, leaf := range f.Schema.Leaves {
			all, err := readColumn(full, col, 1000)
			if err != nil {
				continue
			}
			got, err := readColumn(fr, col, 5)
			if err != nil {
				t.Errorf("%s %s: %v", rel, leaf.PathString(), err)
				continue
			}
			allRows := rowsOf(all, leaf.MaxRep, leaf.MaxDef)
			gotRows := rowsOf(got, leaf.MaxRep, leaf.MaxDef)
			if len(gotRows) != len(keep) {
				t.Errorf("%s %s: %d rows, want %d", rel, leaf.PathString(), len(gotRows), len(keep))
				continue
			}
			for i, r := range keep {
				if gotRows[i] != allRows[r] {
					t.Errorf("%s %s: row %d (file row %d) = %s, want %s", rel, leaf.PathString(), i, r, gotRows[i], allRows[r])
					break
				}
			}
		}
	}
	if files == 0 {
		t.Fatal("no corpus file with a page index")
	}
	t.Logf("%d files with a page index checked", files)
}

func TestSmallIndexedFileFilter(t *testing.T) {
	file := smallIndexedFile(t)
	fr := readerOf(t, file, WithColumnPageFilter("id", func(_ *File, _ int, _ *meta.ColumnIndex, p int) bool { return p%2 == 1 }))
	if fr.NumRows() != 10 {
		t.Fatal(fr.NumRows())
	}
	ids, err := readColumn(fr, 0, 3)
	if err != nil || fmt.Sprint(ids.Values) != "[5 6 7 8 9 15 16 17 18 19]" {
		t.Fatal(ids, err)
	}
	s, err := readColumn(fr, 1, 4)
	if err != nil || fmt.Sprint(s.Values) != "[x xxx xxxxx xxx xxxxx xxxxxxx]" || !slices.Equal(s.Def, []uint8{1, 0, 1, 0, 1, 1, 0, 1, 0, 1}) {
		t.Fatal(s, err)
	}
}

// listPagesFile writes rows rows of an id and a list of strings (row i:
// null when i%7 == 0, else i%4 strings "<i>.<j>") in pages of pageRows
// rows, with or without size statistics (and so the column index's level
// histograms).
func listPagesFile(t testing.TB, rows, pageRows int, sizeStats bool) []byte {
	var buf bytes.Buffer
	w, err := NewFileWriter(&buf, mustSchema(t, "message m { required int64 id; optional group tags (LIST) { repeated group list { required binary element (STRING); } } }"),
		WithPageRowLimit(pageRows), WithDictionary(false), WithSizeStatistics(sizeStats))
	if err != nil {
		t.Fatal(err)
	}
	ids, _ := w.Int64Buffer(0)
	tags, _ := w.ByteArrayBuffer(1)
	for i := range rows {
		ids.Values = append(ids.Values, int64(i))
		switch n := i % 4; {
		case i%7 == 0:
			tags.Def, tags.Rep = append(tags.Def, 0), append(tags.Rep, 0)
		case n == 0:
			tags.Def, tags.Rep = append(tags.Def, 1), append(tags.Rep, 0)
		default:
			for j := range n {
				tags.Def, tags.Rep = append(tags.Def, 2), append(tags.Rep, uint8(min(j, 1)))
				tags.Values.AppendString(fmt.Sprintf("%d.%d", i, j))
			}
		}
	}
	return endRows(t, w, rows, &buf)
}

// TestPageFilterListReadsNoSkippedHeader: a filtered read of a list
// column passes over the pages holding no kept row by the offset index
// and the column index's repetition level histograms (which give a page's
// level slots), without reading their headers, and reads the kept rows'
// elements exactly. Without histograms it reads the headers, as before.
func TestPageFilterListReadsNoSkippedHeader(t *testing.T) {
	for _, stats := range []bool{true, false} {
		file := listPagesFile(t, 10000, 1000, stats)
		cr := &countingReader{r: bytes.NewReader(file), size: int64(len(file))}
		for _, kept := range [][]int{{3, 7}, {0, 9}, {5}, {1, 2}, {2, 4, 6}} {
			keep := func(_ *File, _ int, _ *meta.ColumnIndex, p int) bool { return slices.Contains(kept, p) }
			fr, err := NewFileReader(cr, cr.size, WithColumnPageFilter("id", keep))
			if err != nil {
				t.Fatal(err)
			}
			oi, err := fr.OffsetIndex(0, 1)
			if err != nil || oi == nil || len(oi.PageLocations) != 10 {
				t.Fatal(oi, err)
			}
			cr.reads = nil
			d, err := readColumn(fr, 1, 333)
			if err != nil || d.Rows != 1000*len(kept) {
				t.Fatal(stats, kept, d.Rows, err)
			}
			var want []any
			for _, p := range kept {
				for i := 1000 * p; i < 1000*(p+1); i++ {
					if i%7 != 0 {
						for j := range i % 4 {
							want = append(want, fmt.Sprintf("%d.%d", i, j))
						}
					}
				}
			}
			if !slices.Equal(d.Values, want) {
				t.Fatalf("histograms %v, pages %v: %d values, want %d", stats, kept, len(d.Values), len(want))
			}
			inSkipped := 0
			for _, r := range cr.reads {
				for p, pl := range oi.PageLocations {
					if !slices.Contains(kept, p) && r[0] >= pl.Offset && r[0] < pl.Offset+int64(pl.CompressedPageSize) {
						inSkipped++
					}
				}
			}
			switch {
			case stats && inSkipped > 0:
				t.Errorf("pages %v kept: %d reads start in skipped pages", kept, inSkipped)
			case !stats && inSkipped == 0 && kept[0] > 0:
				t.Errorf("pages %v kept, no histograms: no skipped header read, yet nothing else gives the pages' slots", kept)
			}
		}
	}
}

// TestSlotsFromHist: a page's level slots are the sum of its repetition
// level histogram, used only when every histogram fits the offset index
// (level 0 counts the page's rows) and the chunk's slots.
func TestSlotsFromHist(t *testing.T) {
	locs := []meta.PageLocation{{FirstRowIndex: 0}, {FirstRowIndex: 3}, {FirstRowIndex: 5}}
	h := []int64{3, 4, 2, 1, 1, 0} // pages of 3, 2 and 1 rows
	if got := slotsFromHist(nil, h, locs, 1, 6, 11); !slices.Equal(got, []int64{7, 3, 1}) {
		t.Fatalf("slots %v, want [7 3 1]", got)
	}
	for _, c := range []struct {
		name        string
		h           []int64
		rows, slots int64
	}{
		{"short", h[:4], 6, 11},
		{"rows of a page", []int64{2, 5, 2, 1, 1, 0}, 6, 11},
		{"rows of the last page", h, 7, 11},
		{"sum", h, 6, 12},
		{"negative", []int64{3, 4, 2, -1, 1, 2}, 6, 11},
		{"above the slots", []int64{3, math.MaxInt64 - 3, 2, 1, 1, 6}, 6, 11},
	} {
		if got := slotsFromHist(nil, c.h, locs, 1, c.rows, c.slots); got != nil {
			t.Errorf("%s: slots %v, want none", c.name, got)
		}
	}
	// Six pages of one row whose counts, each within the chunk's 2^62
	// slots, add up to 5 * 2^62, which wraps to 2^62: a sum checked only
	// at the end would take them.
	six := []meta.PageLocation{{FirstRowIndex: 0}, {FirstRowIndex: 1}, {FirstRowIndex: 2}, {FirstRowIndex: 3}, {FirstRowIndex: 4}, {FirstRowIndex: 5}}
	wrap := []int64{1, 1 << 62, 1, 1 << 62, 1, 1 << 62, 1, 1 << 62, 1, 1<<62 - 6, 1, 0}
	if got := slotsFromHist(nil, wrap, six, 1, 6, 1<<62); got != nil {
		t.Errorf("counts wrapping to the chunk's slots: slots %v, want none", got)
	}
}

// TestPageFilterListMisplacedPage: an offset index placing a kept page of
// a list column at the next page's offset, behind pages passed over by
// the histograms, fails the read with ErrChunk naming the column instead
// of returning that page's elements as the kept rows'.
func TestPageFilterListMisplacedPage(t *testing.T) {
	file := listPagesFile(t, 10000, 1000, true)
	fr, err := NewFileReader(bytes.NewReader(file), int64(len(file)))
	if err != nil {
		t.Fatal(err)
	}
	oi, err := fr.OffsetIndex(0, 1)
	if err != nil {
		t.Fatal(err)
	}
	cc := fr.File().Meta.RowGroups[0].Columns[1]
	off, n := cc.OffsetIndexOffset.Val, int64(cc.OffsetIndexLength.Val)
	oi.PageLocations[5].Offset = oi.PageLocations[6].Offset
	enc := oi.AppendThrift(nil)
	if int64(len(enc)) != n {
		t.Fatalf("the edited offset index takes %d bytes, not %d", len(enc), n)
	}
	bad := slices.Clone(file)
	copy(bad[off:], enc)
	keep := func(_ *File, _ int, _ *meta.ColumnIndex, p int) bool { return p == 5 }
	fr, err = NewFileReader(bytes.NewReader(bad), int64(len(bad)), WithColumnPageFilter("id", keep))
	if err != nil {
		t.Fatal(err)
	}
	d, err := readColumn(fr, 1, 250)
	if !errors.Is(err, ErrChunk) || !strings.Contains(err.Error(), `"tags.list.element"`) {
		t.Fatalf("error %v (%d values read); want ErrChunk naming the column", err, len(d.Values))
	}
	for _, v := range d.Values {
		if !strings.HasPrefix(v.(string), "5") {
			t.Fatalf("value %q read before the error, outside the kept page", v)
		}
	}
}
