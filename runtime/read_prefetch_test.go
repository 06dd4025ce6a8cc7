package runtime

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pqgen/pqgen/internal/corpus"
	"github.com/pqgen/pqgen/runtime/encode"
	"github.com/pqgen/pqgen/runtime/meta"
	"github.com/pqgen/pqgen/runtime/variant"
)

// repeatedFile returns a file of rows rows of a required int64 and a
// repeated string (zero to four values a row), in pages of at most 40
// rows.
func repeatedFile(t *testing.T, rows int, opts ...WriterOption) []byte {
	t.Helper()
	var buf bytes.Buffer
	s := mustSchema(t, `message m { required int64 id; repeated binary tags (STRING); }`)
	w, err := NewFileWriter(&buf, s, append([]WriterOption{WithPageRowLimit(40)}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	for start := 0; start < rows; start += 500 {
		ids, _ := w.Int64Buffer(0)
		tags, _ := w.ByteArrayBuffer(1)
		end := min(start+500, rows)
		for i := start; i < end; i++ {
			ids.Values = append(ids.Values, int64(i)*3-7)
			n := (i * 7) % 5
			if n == 0 {
				tags.Def, tags.Rep = append(tags.Def, 0), append(tags.Rep, 0)
			}
			for k := range n {
				tags.Def = append(tags.Def, 1)
				tags.Rep = append(tags.Rep, uint8(min(k, 1)))
				tags.Values.AppendString(fmt.Sprintf("t%d-%d", i%97, k))
			}
		}
		if err := w.EndRows(end - start); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestReadAheadPrefetch: files of many pages per chunk (flat columns of
// every physical type, and a repeated string column), read through
// ReadColumns with WithReadParallelism(2), have pages decoded ahead by
// the read-ahead goroutine (page.ChunkReader.Prefetch) and hand out the
// batches of the sequential reads, under several codecs, in v1 and v2
// pages, with the byte-array readers of generated readers (lazy) too,
// whose strings share the pages' bytes; the strings of batches read
// before keep their values after the reader is released and its
// buffers reused.
func TestReadAheadPrefetch(t *testing.T) {
	defer func(m int) { readAheadMinSlots = m }(readAheadMinSlots)
	readAheadMinSlots = 1
	dir := t.TempDir()
	var files []string
	for _, codec := range []meta.CompressionCodec{meta.Snappy, meta.Zstd, meta.Uncompressed} {
		for _, v := range []int{1, 2} {
			opts := []WriterOption{WithCompression(codec, 0), WithDataPageVersion(v)}
			flat := writeFilterFile(t, randRows(newRand(uint64(v)), 4000),
				append(opts, WithPageRowLimit(50), WithRowGroupSize(96<<10))...)
			rep := repeatedFile(t, 4000, opts...)
			for name, b := range map[string][]byte{"flat": flat, "repeated": rep} {
				path := filepath.Join(dir, fmt.Sprintf("%s-%s-v%d.parquet", name, codec.String(), v))
				if err := os.WriteFile(path, b, 0o644); err != nil {
					t.Fatal(err)
				}
				files = append(files, path)
			}
		}
	}
	prefetched := int64(0)
	for _, path := range files {
		for _, sizes := range [][]int{{37}, {5, 200, 64, 1}} {
			for _, lazy := range []bool{false, true} {
				seq, _, fr := pipeRead(t, path, sizes, lazy)
				fr.Release()
				got, strs, fr := pipeRead(t, path, sizes, lazy, WithReadParallelism(2))
				want := cloneStrings(strs)
				if fr.pipe == nil || fr.pipe.off {
					t.Fatalf("%s: nothing was read ahead", path)
				}
				fr.Release()
				prefetched += fr.pipe.prefetched.Load()
				sameBatches(t, fmt.Sprintf("%s, batches %v, lazy %v", path, sizes, lazy), got, seq)
				pipeRead(t, path, sizes, lazy, WithReadParallelism(2))
				if !slices.Equal(strs, want) {
					t.Fatalf("%s, lazy %v: strings of released batches changed", path, lazy)
				}
			}
		}
	}
	if prefetched == 0 {
		t.Fatal("no page was decoded ahead")
	}
	t.Logf("%d pages decoded ahead", prefetched)
}

// TestReadAheadWholeCorpus: every file of the corpus, the encrypted ones
// with their keys, read through ReadColumns with every batch read ahead
// (and pages prefetched, decrypted ahead) gives the batches of the
// sequential read and ends with the same error, if any.
func TestReadAheadWholeCorpus(t *testing.T) {
	defer func(m int) { readAheadMinSlots = m }(readAheadMinSlots)
	readAheadMinSlots = 1
	prefetched := int64(0)
	files := corpus.Files(t, ".parquet")
	encrypted := corpus.Files(t, ".parquet.encrypted")
	if len(encrypted) < 8 {
		t.Fatalf("%d encrypted files", len(encrypted))
	}
	for _, rel := range append(files, encrypted...) {
		path := corpus.Path(t, rel)
		var opts []ReaderOption
		if strings.HasSuffix(rel, ".encrypted") {
			opts = corpusKeyOptions(t, rel)
		}
		for _, sizes := range [][]int{{7}, {100, 3}} {
			for _, lazy := range []bool{false, true} {
				seq, _, fr, errSeq := tryPipeRead(t, path, sizes, lazy, opts...)
				if fr != nil {
					fr.Release()
				}
				if strings.HasSuffix(rel, ".encrypted") && errSeq != nil {
					t.Fatalf("%s: %v", rel, errSeq)
				}
				got, _, fr, errPar := tryPipeRead(t, path, sizes, lazy, append(opts, WithReadParallelism(2))...)
				if fr != nil {
					fr.Release()
					if fr.pipe != nil {
						prefetched += fr.pipe.prefetched.Load()
					}
				}
				what := fmt.Sprintf("%s, batches %v, lazy %v", rel, sizes, lazy)
				if fmt.Sprint(errPar) != fmt.Sprint(errSeq) {
					t.Fatalf("%s: read ahead: %v; sequentially: %v", what, errPar, errSeq)
				}
				sameBatches(t, what, got, seq)
			}
		}
	}
	if prefetched == 0 {
		t.Fatal("no page was decoded ahead")
	}
}

// FuzzReadAhead: arbitrary bytes read through ReadColumns with every
// batch read ahead and pages prefetched give the batches, and end with
// the error, of the sequential read; neither panics. Each input is read
// three times: with eager and lazy strings, and lazy under row selection
// by the first column's page index; Variants are read through their
// VariantReader. Seeds: the files of TestReadAheadPrefetch's shapes,
// small, a file of Variants (variantShredFile), and the input that found
// that a Read of fewer rows than the batch read ahead returned the error
// met past its rows. The batches vary in size, so that the batches read
// ahead are split (a Read of fewer rows) and extended (of more).
func FuzzReadAhead(f *testing.F) {
	defer func(m int) { readAheadMinSlots = m }(readAheadMinSlots)
	readAheadMinSlots = 1
	f.Add(writeFilterFile(f, randRows(newRand(3), 200), WithPageRowLimit(20), WithCompression(meta.Snappy, 0)))
	f.Add(writeFilterFile(f, randRows(newRand(4), 200), WithPageRowLimit(30), WithDataPageVersion(2), WithCompression(meta.Zstd, 0)))
	f.Add(smallIndexedFile(f))
	_, variants := variantShredFile(f, 300)
	f.Add(variants)
	sizes := []int{9, 40, 40, 17, 3, 25}
	f.Fuzz(func(t *testing.T, data []byte) {
		opts := []ReaderOption{WithMaxFooterSize(1 << 20), WithMaxPageSize(1 << 20), WithMaxPageValues(1 << 16),
			WithMetaLimits(meta.Limits{MaxStringLen: 1 << 16, MaxContainerLen: 1 << 12, MaxDepth: 32})}
		fr, err := NewFileReader(bytes.NewReader(data), int64(len(data)), opts...)
		if err != nil || len(fr.File().Meta.RowGroups)*len(fr.File().Schema.Leaves) > 256 {
			return
		}
		// The last read selects rows by the first column's page index
		// (when it has one): its columns pass over pages.
		first := fr.File().Schema.Leaves[0].PathString()
		filter := WithColumnPageFilter(first, func(_ *File, _ int, _ *meta.ColumnIndex, page int) bool { return page%3 != 1 })
		for _, v := range []struct{ lazy, filtered bool }{{false, false}, {true, false}, {true, true}} {
			lazy, opts := v.lazy, slices.Clip(opts)
			if v.filtered {
				opts = append(opts, filter)
			}
			seq, _, fr, errSeq := pipeReadAt(t, bytes.NewReader(data), int64(len(data)), "fuzz", sizes, lazy, opts...)
			if fr != nil {
				fr.Release()
			}
			got, _, fr, errPar := pipeReadAt(t, bytes.NewReader(data), int64(len(data)), "fuzz", sizes, lazy, append(opts, WithReadParallelism(2))...)
			if fr != nil {
				fr.Release()
			}
			if fmt.Sprint(errPar) != fmt.Sprint(errSeq) {
				t.Fatalf("read ahead: %v; sequentially: %v", errPar, errSeq)
			}
			sameBatches(t, "fuzz", got, seq)
		}
	})
}

// TestReadAheadBound: a legacy two-level list (a repeated primitive)
// bound to the modern three-level layout of int64 elements, whose
// definition levels the layout adapter maps, read through ReadColumns
// with every batch read ahead in batches of 7, 100 and 3 rows (which
// split and extend the batches read ahead), gives the levels and values
// of the sequential read.
func TestReadAheadBound(t *testing.T) {
	defer func(m int) { readAheadMinSlots = m }(readAheadMinSlots)
	readAheadMinSlots = 1
	const rows = 6000
	var buf bytes.Buffer
	fw, err := NewFileWriter(&buf, mustParse(t, `message m { optional group l (LIST) { repeated int32 element; } }`), WithPageRowLimit(40))
	if err != nil {
		t.Fatal(err)
	}
	c, _ := fw.Int32Buffer(0)
	for i := range rows {
		switch i % 4 { // null, [], [i], [i, -i]
		case 0, 1:
			c.Def, c.Rep = append(c.Def, uint8(i%4)), append(c.Rep, 0)
		case 2:
			c.Def, c.Rep, c.Values = append(c.Def, 2), append(c.Rep, 0), append(c.Values, int32(i))
		case 3:
			c.Def, c.Rep, c.Values = append(c.Def, 2, 2), append(c.Rep, 0, 1), append(c.Values, int32(i), -int32(i))
		}
	}
	data := endRows(t, fw, rows, &buf)
	var par *FileReader
	read := func(opts ...ReaderOption) []string {
		r, err := NewFileReader(bytes.NewReader(data), int64(len(data)), opts...)
		if err != nil {
			t.Fatal(err)
		}
		par = r
		defer r.Release()
		idx, err := r.Bind(mustParse(t, `message m { optional group l (LIST) { repeated group list { optional int64 element; } } }`))
		if err != nil {
			t.Fatal(err)
		}
		col, err := r.Int64Reader(idx[0])
		if err != nil {
			t.Fatal(err)
		}
		jobs := []ColumnJob{{c: col, path: "l.list.element"}} // one slice, as generated readers keep
		out, err := columnBatches(r, "", jobs, []int{7, 100, 3}, func() []string { return []string{fmt.Sprint(col.Def, col.Rep, col.Values)} })
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	seq, got := read(), read(WithReadParallelism(2))
	// Read ahead, not left to the caller (a layout adapter used to turn
	// the read-ahead off). Whether a page is prefetched too depends on the
	// goroutine finding time between these short batches: the pages are
	// TestReadAheadPrefetch's.
	if p := par.pipe; p == nil || p.off || p.back == nil {
		t.Fatal("the bound column was not read ahead")
	}
	if len(seq) == 0 || !strings.Contains(seq[0], "[0 1 3 3 3") {
		t.Fatalf("sequentially: %.80q", seq)
	}
	sameBatches(t, "bound legacy list", got, seq)
}

// TestReadAheadNullSplit: a null element read into a required one
// (WithOptionalAsRequired) in a file of pages of 40 rows, read through
// ReadColumns in batches of 40, 9, 17 and 3 rows, fails the same
// ReadColumns read ahead as sequentially, with the same error, after the
// same batches, wherever the null lies: a batch read ahead that holds the
// null past the rows of a smaller ReadColumns hands those rows out, and
// the error comes with the ReadColumns that reaches the null's row. The
// nulls are first and second elements of their lists, in the first and
// last rows of pages and batches and between. It does so with row
// selection too (WithColumnPageFilter dropping every third page), for
// the nulls in the pages kept.
func TestReadAheadNullSplit(t *testing.T) {
	defer func(m int) { readAheadMinSlots = m }(readAheadMinSlots)
	readAheadMinSlots = 1
	const rows = 2000
	file := func(null int) []byte {
		var buf bytes.Buffer
		fw, err := NewFileWriter(&buf, mustParse(t, `message m { optional group l (LIST) { repeated group list { optional int32 element; } } }`), WithPageRowLimit(40))
		if err != nil {
			t.Fatal(err)
		}
		c, _ := fw.Int32Buffer(0)
		for i := range rows {
			switch i % 4 { // null, [], [i], [i, -i]; the null: [null] or [i, null]
			case 0, 1:
				c.Def, c.Rep = append(c.Def, uint8(i%4)), append(c.Rep, 0)
			case 2:
				if i == null {
					c.Def, c.Rep = append(c.Def, 2), append(c.Rep, 0)
				} else {
					c.Def, c.Rep, c.Values = append(c.Def, 3), append(c.Rep, 0), append(c.Values, int32(i))
				}
			case 3:
				c.Def, c.Rep, c.Values = append(c.Def, 3), append(c.Rep, 0), append(c.Values, int32(i))
				if i == null {
					c.Def, c.Rep = append(c.Def, 2), append(c.Rep, 1)
				} else {
					c.Def, c.Rep, c.Values = append(c.Def, 3), append(c.Rep, 1), append(c.Values, -int32(i))
				}
			}
		}
		return endRows(t, fw, rows, &buf)
	}
	read := func(data []byte, opts ...ReaderOption) (out []string, err error) {
		r, err := NewFileReader(bytes.NewReader(data), int64(len(data)), append(opts, WithOptionalAsRequired(true))...)
		if err != nil {
			t.Fatal(err)
		}
		defer r.Release()
		idx, err := r.Bind(mustParse(t, `message m { optional group l (LIST) { repeated group list { required int32 element; } } }`))
		if err != nil {
			t.Fatal(err)
		}
		col, err := r.Int32Reader(idx[0])
		if err != nil {
			t.Fatal(err)
		}
		jobs := []ColumnJob{{c: col, path: "l.list.element"}}
		return columnBatches(r, "", jobs, []int{40, 9, 17, 3}, func() []string { return []string{fmt.Sprint(col.Def, col.Rep, col.Values)} })
	}
	filter := WithColumnPageFilter("l.list.element", func(_ *File, _ int, _ *meta.ColumnIndex, page int) bool { return page%3 != 1 })
	for _, filtered := range []bool{false, true} {
		for _, null := range []int{2, 3, 42, 43, 78, 79, 82, 83, 114, 115, 1002, 1003, 1042, 1043, 1959, 1999} {
			var opts []ReaderOption
			want := fmt.Sprintf("row %d: a null", null)
			if filtered {
				if null/40%3 == 1 {
					continue // in a page dropped
				}
				opts, want = []ReaderOption{filter}, "a null"
			}
			what := fmt.Sprintf("null in row %d, filtered %v", null, filtered)
			data := file(null)
			seq, errSeq := read(data, opts...)
			got, errPar := read(data, append(opts, WithReadParallelism(2))...)
			if errSeq == nil || !strings.Contains(errSeq.Error(), want) {
				t.Fatalf("%s: sequentially %v, want an error containing %q", what, errSeq, want)
			}
			if fmt.Sprint(errPar) != fmt.Sprint(errSeq) {
				t.Fatalf("%s: read ahead: %v; sequentially: %v", what, errPar, errSeq)
			}
			sameBatches(t, what, got, seq)
		}
	}
}

// TestReadAheadPageErrorSplit: a corrupt page header (the fourth page of
// 40 rows, rows 120 to 159), met by a batch of 100 rows read ahead from
// row 100, fails the ReadColumns that needs that page, read ahead as
// sequentially: for a flat column the next ReadColumns, of rows 100 to
// 119, returns them; for a list column it fails, as the end of row 119
// is only known from the page after it (a row may go on on the next
// page of a DATA_PAGE v1 column).
func TestReadAheadPageErrorSplit(t *testing.T) {
	defer func(m int) { readAheadMinSlots = m }(readAheadMinSlots)
	readAheadMinSlots = 1
	const rows = 400
	for _, tc := range []struct{ schema, want string }{
		{`message m { required int32 a; }`, "rows from 120"},
		{`message m { optional group l (LIST) { repeated group list { required int32 element; } } }`, "rows from 100"},
	} {
		var buf bytes.Buffer
		fw, err := NewFileWriter(&buf, mustParse(t, tc.schema), WithPageRowLimit(40))
		if err != nil {
			t.Fatal(err)
		}
		c, _ := fw.Int32Buffer(0)
		for i := range rows {
			c.Values = append(c.Values, int32(i))
			if strings.Contains(tc.schema, "LIST") {
				c.Def, c.Rep = append(c.Def, 2), append(c.Rep, 0)
			}
		}
		data := endRows(t, fw, rows, &buf)
		fr, err := NewFileReader(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			t.Fatal(err)
		}
		oi, err := fr.OffsetIndex(0, 0)
		if err != nil || oi == nil || len(oi.PageLocations) != rows/40 || oi.PageLocations[3].FirstRowIndex != 120 {
			t.Fatalf("%s: offset index %v, %v", tc.schema, oi, err)
		}
		off := oi.PageLocations[3].Offset
		copy(data[off:], []byte{0xff, 0xff, 0xff, 0xff}) // no thrift field header
		sizes := []int{100, 20, 5, 40}
		seq, _, sfr, errSeq := pipeReadAt(t, bytes.NewReader(data), int64(len(data)), "corrupt", sizes, false)
		sfr.Release()
		got, _, pfr, errPar := pipeReadAt(t, bytes.NewReader(data), int64(len(data)), "corrupt", sizes, false, WithReadParallelism(2))
		if p := pfr.pipe; p == nil || p.back == nil {
			t.Fatalf("%s: nothing was read ahead", tc.schema)
		}
		pfr.Release()
		if errSeq == nil || !strings.Contains(errSeq.Error(), tc.want+":") || !strings.Contains(errSeq.Error(), "page 3") {
			t.Fatalf("%s: sequentially %v, want an error of page 3 %s", tc.schema, errSeq, tc.want)
		}
		if fmt.Sprint(errPar) != fmt.Sprint(errSeq) {
			t.Fatalf("%s: read ahead: %v; sequentially: %v", tc.schema, errPar, errSeq)
		}
		sameBatches(t, tc.schema, got, seq)
	}
}

// TestReadAheadPrefetchFiltered: under row selection by the page index
// (WithColumnPageFilter keeping three pages of idx in five), where
// columns pass over the pages without kept rows, the read-ahead
// goroutine decodes ahead the pages that hold kept rows, and only those
// (nextPageWanted: none of the pages decoded ahead is then passed over),
// and ReadColumns hands out the batches of the sequential reads, in v1
// and v2 pages.
func TestReadAheadPrefetchFiltered(t *testing.T) {
	defer func(m int) { readAheadMinSlots = m }(readAheadMinSlots)
	readAheadMinSlots = 1
	keep := WithColumnPageFilter("idx", func(_ *File, _ int, _ *meta.ColumnIndex, page int) bool { return page%5 < 3 })
	var prefetched, wasted int64
	for _, v := range []int{1, 2} {
		data := writeFilterFile(t, randRows(newRand(uint64(v)), 4000), WithPageRowLimit(50), WithDataPageVersion(v), WithCompression(meta.Snappy, 0))
		for _, sizes := range [][]int{{37}, {5, 200, 64, 1}} {
			what := fmt.Sprintf("v%d pages, batches %v", v, sizes)
			seq, _, fr, err := pipeReadAt(t, bytes.NewReader(data), int64(len(data)), what, sizes, false, keep)
			if err != nil {
				t.Fatal(err)
			}
			if n := fr.NumRows(); n >= 4000 || n < 2000 {
				t.Fatalf("%s: %d rows kept of 4,000", what, n)
			}
			fr.Release()
			got, _, fr, err := pipeReadAt(t, bytes.NewReader(data), int64(len(data)), what, sizes, false, keep, WithReadParallelism(2))
			if err != nil {
				t.Fatal(err)
			}
			fr.Release()
			prefetched += fr.pipe.prefetched.Load()
			wasted += fr.pipe.wasted.Load()
			sameBatches(t, what, got, seq)
		}
	}
	if prefetched == 0 || wasted != 0 {
		t.Fatalf("%d pages decoded ahead, %d of them passed over", prefetched, wasted)
	}
	t.Logf("%d pages decoded ahead", prefetched)
}

// TestReadAheadVariant: ReadColumns of a typed column and three Variant
// readers (a shredded Variant, an unshredded one, shredded Variants in a
// list) with WithReadParallelism(2) reads ahead the typed column and
// the Variants' leaves, and hands out the batches of the sequential
// reads (their Rows, and the bytes Detach copies): in Reads of 37 rows
// with the Variants rebuilt ahead (all batches but the first, the last
// one of 3 rows included), in Reads of changing sizes rebuilt by the Read
// that takes them.
func TestReadAheadVariant(t *testing.T) {
	defer func(m int) { readAheadMinSlots = m }(readAheadMinSlots)
	readAheadMinSlots = 1
	_, data := variantShredFile(t, 3000)
	read := func(sizes []int, opts ...ReaderOption) ([]string, *FileReader) {
		fr, err := NewFileReader(bytes.NewReader(data), int64(len(data)), opts...)
		if err != nil {
			t.Fatal(err)
		}
		ids, err := fr.Int32Reader(0)
		if err != nil {
			t.Fatal(err)
		}
		jobs := []ColumnJob{{c: ids, path: "id"}}
		var vrs []*VariantReader
		for _, path := range []string{"v", "w", "l.list.element"} {
			vr, err := fr.VariantReader(path)
			if err != nil {
				t.Fatal(err)
			}
			vrs = append(vrs, vr)
			jobs = append(jobs, ColumnJob{c: vr, path: path})
		}
		out, err := columnBatches(fr, "", jobs, sizes, func() []string {
			out := []string{fmt.Sprint(ids.Values)}
			for _, vr := range vrs {
				out = append(out, fmt.Sprintf("%v %v %x %x", vr.Def, vr.Rep, vr.Rows, vr.Detach()))
			}
			return out
		})
		if err != nil {
			t.Fatal(err)
		}
		return out, fr
	}
	for _, sizes := range [][]int{{37}, {5, 200, 64, 1}} {
		seq, fr := read(sizes)
		fr.Release()
		got, fr := read(sizes, WithReadParallelism(2))
		leaves := len(fr.File().Schema.Leaves) // id and every Variant's
		if p := fr.pipe; p == nil || p.off || p.back == nil || len(p.front) != leaves {
			t.Fatalf("batches %v: not all %d columns were read ahead", sizes, leaves)
		}
		fr.Release()
		sameBatches(t, fmt.Sprintf("batches %v", sizes), got, seq)
		if len(seq) < 4*3000/200 {
			t.Fatalf("batches %v: %d batches", sizes, len(seq)/4)
		}
		batches, rebuilt := len(seq)/4, int(fr.pipe.rebuilt.Load())
		if want := 3 * (batches - 1); len(sizes) == 1 && rebuilt != want {
			t.Fatalf("batches %v: %d of %d batches' Variants rebuilt ahead, want %d", sizes, rebuilt, 3*batches, want)
		}
		t.Logf("batches %v: %d of %d batches' Variants rebuilt ahead", sizes, rebuilt, 3*batches)
	}
}

// TestReadAheadShortColumn: a column whose chunk holds fewer rows than its
// row group says (30, 40 or 45 of 100), read ahead in batches of 20 and
// then 45, fails the Read of 45 rows with the error of the sequential
// read: met while reading ahead (30 rows), or by the Read that extends
// the batch read ahead (40 and 45).
func TestReadAheadShortColumn(t *testing.T) {
	defer func(m int) { readAheadMinSlots = m }(readAheadMinSlots)
	readAheadMinSlots = 1
	ints := func(n int) synthPage {
		v := make([]int64, n)
		for i := range v {
			v[i] = int64(i)
		}
		return synthPage{n: n, enc: meta.EncodingPlain, values: encode.AppendPlainInt64(nil, v)}
	}
	for _, short := range []int{40, 45, 30} {
		file := synthFile(t, "message m { required int64 a; required int64 b; }", []int64{100}, [][][]synthPage{{{ints(100)}, {ints(short)}}})
		sizes := []int{20, 45}
		seq, _, fr, errSeq := pipeReadAt(t, bytes.NewReader(file), int64(len(file)), "short", sizes, false)
		fr.Release()
		got, _, fr, errPar := pipeReadAt(t, bytes.NewReader(file), int64(len(file)), "short", sizes, false, WithReadParallelism(2))
		fr.Release()
		if errSeq == nil {
			t.Fatalf("b of %d rows: no error", short)
		}
		if fmt.Sprint(errPar) != fmt.Sprint(errSeq) {
			t.Fatalf("b of %d rows: read ahead: %v; sequentially: %v", short, errPar, errSeq)
		}
		sameBatches(t, fmt.Sprintf("b of %d rows", short), got, seq)
	}
}

// TestReadAheadVariantShort: a Variant whose two leaves both hold fewer
// rows than their row group says (90 of 100), read ahead in batches of
// 20 beside an int64 column, gives the batches and the error of the
// sequential read: the leaves' batch of the last rows, short in both
// alike, is not taken for one rebuilt ahead.
func TestReadAheadVariantShort(t *testing.T) {
	defer func(m int) { readAheadMinSlots = m }(readAheadMinSlots)
	readAheadMinSlots = 1
	e := encodeVariant(t, func(b *variant.Builder) { b.AppendInt64(7) })
	const rows, short = 100, 90
	ints := make([]int64, rows)
	var md, val encode.ByteArrays
	for i := range short {
		ints[i] = int64(i)
		md.Append(e.Metadata)
		val.Append(e.Value)
	}
	data := synthFile(t, "message m { required int64 a; required group v (VARIANT(1)) { required binary metadata; required binary value; } }", []int64{rows}, [][][]synthPage{{
		{{n: rows, enc: meta.EncodingPlain, values: encode.AppendPlainInt64(nil, ints)}},
		{{n: short, enc: meta.EncodingPlain, values: encode.AppendPlainByteArray(nil, md)}},
		{{n: short, enc: meta.EncodingPlain, values: encode.AppendPlainByteArray(nil, val)}},
	}})
	read := func(opts ...ReaderOption) ([]string, *FileReader, error) {
		fr, err := NewFileReader(bytes.NewReader(data), int64(len(data)), opts...)
		if err != nil {
			t.Fatal(err)
		}
		a, _ := fr.Int64Reader(0)
		vr, err := fr.VariantReader("v")
		if err != nil {
			t.Fatal(err)
		}
		out, err := columnBatches(fr, "", []ColumnJob{{c: a, path: "a"}, {c: vr, path: "v"}}, []int{20}, func() []string {
			return []string{fmt.Sprint(a.Values), fmt.Sprintf("%v %x", vr.Def, vr.Rows)}
		})
		return out, fr, err
	}
	seq, fr, errSeq := read()
	fr.Release()
	got, fr, errPar := read(WithReadParallelism(2))
	rebuilt := fr.pipe.rebuilt.Load()
	fr.Release()
	if errSeq == nil || !strings.Contains(errSeq.Error(), "the pages hold 90 rows, the row group 100") {
		t.Fatalf("sequentially %v", errSeq)
	}
	if fmt.Sprint(errPar) != fmt.Sprint(errSeq) {
		t.Fatalf("read ahead: %v; sequentially: %v", errPar, errSeq)
	}
	sameBatches(t, "short Variant", got, seq)
	if rebuilt != 3 { // the batches from row 20 to row 80
		t.Fatalf("%d batches' Variants rebuilt ahead, want 3", rebuilt)
	}
}

// TestReadAheadVariantError: a shredded Variant column (int64 typed_value)
// whose row holds both value and typed_value, which rebuilding rejects,
// read through ReadColumns beside an int32 column, with the Variant's
// leaves read ahead, fails the same ReadColumns as the sequential read,
// with the same error naming the occurrence in the batch, after the same
// batches, wherever the row lies: in batches of 40, 9, 17 and 3 rows,
// whose Variants the Read rebuilds, and of 20 rows, whose Variants are
// rebuilt ahead but for the batch that holds the row. So does a corrupt
// page of one of the Variant's leaves.
func TestReadAheadVariantError(t *testing.T) {
	defer func(m int) { readAheadMinSlots = m }(readAheadMinSlots)
	readAheadMinSlots = 1
	const rows = 600
	e := encodeVariant(t, func(b *variant.Builder) { b.AppendInt64(7) })
	file := func(bad int) []byte {
		var buf bytes.Buffer
		fw, err := NewFileWriter(&buf, mustSchema(t, `message m { required int32 id; optional group v (VARIANT(1)) { required binary metadata; optional binary value; optional int64 typed_value; } }`), WithPageRowLimit(20))
		if err != nil {
			t.Fatal(err)
		}
		ids, _ := fw.Int32Buffer(0)
		md, _ := fw.ByteArrayBuffer(1)
		val, _ := fw.ByteArrayBuffer(2)
		typed, _ := fw.Int64Buffer(3)
		for i := range rows {
			ids.Values = append(ids.Values, int32(i))
			md.Def = append(md.Def, 1)
			md.Values.Append(e.Metadata)
			if i == bad || i%7 == 3 {
				val.Def = append(val.Def, 2)
				val.Values.Append(e.Value)
			} else {
				val.Def = append(val.Def, 1)
			}
			if i%7 == 3 {
				typed.Def = append(typed.Def, 1)
			} else {
				typed.Def = append(typed.Def, 2)
				typed.Values = append(typed.Values, int64(i))
			}
		}
		return endRows(t, fw, rows, &buf)
	}
	read := func(data []byte, sizes []int, opts ...ReaderOption) (out []string, fr *FileReader, err error) {
		fr, err = NewFileReader(bytes.NewReader(data), int64(len(data)), opts...)
		if err != nil {
			t.Fatal(err)
		}
		ids, _ := fr.Int32Reader(0)
		vr, err := fr.VariantReader("v")
		if err != nil {
			t.Fatal(err)
		}
		jobs := []ColumnJob{{c: ids, path: "id"}, {c: vr, path: "v"}}
		out, err = columnBatches(fr, "", jobs, sizes, func() []string {
			return []string{fmt.Sprint(ids.Values), fmt.Sprintf("%v %v %x", vr.Def, vr.Rep, vr.Rows)}
		})
		return out, fr, err
	}
	for _, sizes := range [][]int{{40, 9, 17, 3}, {20}} {
		rebuilt := 0
		for _, bad := range []int{0, 39, 40, 41, 48, 49, 65, 67, 68, 300, 599} {
			what := fmt.Sprintf("batches %v, bad row %d", sizes, bad)
			data := file(bad)
			seq, fr, errSeq := read(data, sizes)
			fr.Release()
			got, fr, errPar := read(data, sizes, WithReadParallelism(2))
			if p := fr.pipe; bad > 40 && (p == nil || p.back == nil || len(p.front) != 4) {
				t.Fatalf("%s: the Variant's leaves were not read ahead", what)
			}
			if fr.pipe != nil {
				rebuilt += int(fr.pipe.rebuilt.Load())
			}
			fr.Release()
			if errSeq == nil || !errors.Is(errSeq, ErrVariant) || !strings.Contains(errSeq.Error(), "conflicting value and typed_value") {
				t.Fatalf("%s: sequentially %v", what, errSeq)
			}
			if fmt.Sprint(errPar) != fmt.Sprint(errSeq) {
				t.Fatalf("%s: read ahead: %v; sequentially: %v", what, errPar, errSeq)
			}
			sameBatches(t, what, got, seq)
		}
		// The batches of 20 rows between the first (read sequentially)
		// and the bad row's: 0+0+1+1+1+1+2+2+2+14+28.
		if want := 52; len(sizes) == 1 && rebuilt != want {
			t.Fatalf("batches %v: %d batches' Variants rebuilt ahead, want %d", sizes, rebuilt, want)
		}
		// A corrupt page of typed_value (pages of 20 rows) fails the
		// Read of its rows too, whose leaves met the error ahead.
		for _, page := range []int{1, 2, 17, 29} {
			what := fmt.Sprintf("batches %v, corrupt page %d", sizes, page)
			data := file(-1)
			fr, err := NewFileReader(bytes.NewReader(data), int64(len(data)))
			if err != nil {
				t.Fatal(err)
			}
			oi, err := fr.OffsetIndex(0, 3)
			if err != nil || oi == nil || len(oi.PageLocations) != rows/20 {
				t.Fatalf("%s: offset index %v, %v", what, oi, err)
			}
			copy(data[oi.PageLocations[page].Offset:], []byte{0xff, 0xff, 0xff, 0xff}) // no thrift field header
			seq, fr, errSeq := read(data, sizes)
			fr.Release()
			got, fr, errPar := read(data, sizes, WithReadParallelism(2))
			fr.Release()
			if errSeq == nil || !strings.Contains(errSeq.Error(), fmt.Sprintf("page %d", page)) {
				t.Fatalf("%s: sequentially %v", what, errSeq)
			}
			if fmt.Sprint(errPar) != fmt.Sprint(errSeq) {
				t.Fatalf("%s: read ahead: %v; sequentially: %v", what, errPar, errSeq)
			}
			sameBatches(t, what, got, seq)
		}
	}
}
