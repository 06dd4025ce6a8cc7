package runtime

import (
	"errors"
	"fmt"
	goruntime "runtime"
	"slices"
	"strings"
	"testing"

	"github.com/pqgen/pqgen/internal/corpus"
	"github.com/pqgen/pqgen/runtime/meta"
)

// releaseFiles are corpus files with BYTE_ARRAY columns, plain and
// dictionary-encoded, of one and several pages, flat and repeated, v1
// and v2 pages, and several codecs.
var releaseFiles = []string{
	"data/alltypes_dictionary.parquet",
	"data/delta_length_byte_array.parquet",
	"data/alltypes_plain.snappy.parquet",
	"data/datapage_v2.snappy.parquet",
	"data/nested_lists.snappy.parquet",
	"data/list_columns.parquet",
	"data/nullable.impala.parquet",
	"data/alltypes_tiny_pages.parquet",
}

// releaseRead reads every BYTE_ARRAY, INT32 and INT64 column of fr in
// batches of 37 rows up to its last row and returns, per column, the text of its levels and
// values: strings through String, kept across batches, which must stay
// valid.
func releaseRead(t *testing.T, fr *FileReader) (cols [][]string, strs []string) {
	t.Helper()
	for _, l := range fr.File().Schema.Leaves {
		var (
			c    ColumnRows
			lv   *Levels
			vals func() string
			err  error
		)
		switch l.Type {
		case meta.ByteArray:
			var b *ByteArrayReader
			if b, err = fr.ByteArrayReader(l.Column); err == nil {
				c, lv = b, &b.Levels
				vals = func() string {
					var s []string
					for i := range b.Values.Len() {
						s = append(s, b.String(i))
					}
					strs = append(strs, s...)
					return fmt.Sprintf("%q", s)
				}
			}
		case meta.Int32:
			var r *Int32Reader
			if r, err = fr.Int32Reader(l.Column); err == nil {
				c, lv, vals = r, &r.Levels, func() string { return fmt.Sprint(r.Values) }
			}
		case meta.Int64:
			var r *Int64Reader
			if r, err = fr.Int64Reader(l.Column); err == nil {
				c, lv, vals = r, &r.Levels, func() string { return fmt.Sprint(r.Values) }
			}
		default:
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		read := func() (int, error) {
			n, err := c.ReadRows(37)
			// Whether a column lacks a kind of levels is told by nil.
			out = append(out, fmt.Sprint(lv.Def == nil, lv.Rep == nil, lv.Def, lv.Rep, vals()))
			return n, err
		}
		// Up to the last row, not to io.EOF: a reader released then
		// still holds the last batch, whose strings share its buffer.
		for rows := int64(0); rows < fr.NumRows(); {
			n, err := read()
			if err != nil {
				t.Fatalf("column %s: %v", l.PathString(), err)
			}
			if n == 0 {
				t.Fatalf("column %s: 0 rows", l.PathString())
			}
			rows += int64(n)
		}
		cols = append(cols, out)
	}
	return cols, strs
}

// TestReleaseReuse: FileReader.Release hands the page buffers of its
// column readers to the readers of files opened later. Each corpus file
// read after others were released gives the same levels and values as
// when it was read first, with fresh buffers; the strings of every
// released reader keep their values while later readers overwrite the
// buffers; a released reader's column readers hold no levels or values
// and fail with ErrClosed; and Release twice does nothing more.
func TestReleaseReuse(t *testing.T) {
	fresh := map[string][][]string{}
	for _, f := range releaseFiles {
		// No Release: every reader has its own buffers.
		cols, _ := releaseRead(t, openReader(t, corpus.Path(t, f)))
		fresh[f] = cols
	}
	type kept struct {
		file       string
		strs, want []string
	}
	var all []kept
	for round := range 2 {
		// Each file twice in a row: the second read gets the buffers of
		// the first, column by column.
		for i := range 2 * len(releaseFiles) {
			f := releaseFiles[i/2]
			fr := openReader(t, corpus.Path(t, f))
			cols, strs := releaseRead(t, fr)
			if !slices.EqualFunc(cols, fresh[f], slices.Equal) {
				t.Fatalf("round %d, %s: values read after other readers were released differ from a fresh read", round, f)
			}
			fr.Release()
			fr.Release()
			// want shares no bytes with the strings.
			all = append(all, kept{f, strs, cloneStrings(strs)})
			for _, k := range all {
				for i := range k.strs {
					if k.strs[i] != k.want[i] {
						t.Fatalf("after reading %s, string %d of %s changed from %q to %q", f, i, k.file, k.want[i], k.strs[i])
					}
				}
			}
		}
	}
	fr := openReader(t, corpus.Path(t, releaseFiles[0]))
	c := readStringCol(t, fr)
	fr.Release()
	if c.Values.Len() != 0 || c.Def != nil || c.Rep != nil {
		t.Fatalf("after Release: %d values, levels %v %v, want none", c.Values.Len(), c.Def, c.Rep)
	}
	if _, err := c.ReadRows(2); !errors.Is(err, ErrClosed) || !strings.Contains(err.Error(), `column "string_col"`) {
		t.Fatalf("ReadRows after Release: %v, want ErrClosed naming column string_col", err)
	}
	// Releasing allocates nothing per column (the error of a released
	// column reader is built only when read): the set of buffers handed
	// to the pool and its header.
	const runs = 10
	var frs []*FileReader
	for range runs + 1 {
		fr := openReader(t, corpus.Path(t, releaseFiles[0]))
		releaseRead(t, fr)
		frs = append(frs, fr)
	}
	cols := len(frs[0].File().Schema.Leaves)
	n := testing.AllocsPerRun(runs, func() {
		frs[0].Release()
		frs = frs[1:]
	})
	if n > 2 {
		t.Fatalf("Release of a reader of %d columns: %v allocations, want at most 2", cols, n)
	}
}

// readStringCol reads two rows of the column string_col of fr (a file of
// releaseFiles[0]) and returns its reader.
func readStringCol(t *testing.T, fr *FileReader) *ByteArrayReader {
	t.Helper()
	c, err := fr.ByteArrayReader(fr.File().Schema.Leaf("string_col").Column)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.ReadRows(2); err != nil {
		t.Fatal(err)
	}
	return c
}

// cloneStrings returns copies of ss that share no bytes with them.
func cloneStrings(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = string([]byte(s))
	}
	return out
}

// TestReleaseKeepsSpare: a reader that takes a released reader's buffers
// and uses fewer of them (reads fewer columns, or has no read-ahead set)
// gives the rest back with its own at Release, so that the next reader
// of all the columns finds every column's buffers again instead of
// making new ones. The pools are held (holdPools).
func TestReleaseKeepsSpare(t *testing.T) {
	goruntime.GC() // two collections empty the pools
	goruntime.GC()
	holdPools(t)
	path := corpus.Path(t, releaseFiles[0])
	bufsOf := func(fr *FileReader) map[*colBufs]bool {
		m := map[*colBufs]bool{}
		for _, c := range fr.cursors {
			m[c.bufs] = true
		}
		return m
	}
	all := openReader(t, path)
	releaseRead(t, all)
	first := bufsOf(all)
	all.Release()

	one := openReader(t, path) // one column of the file
	readStringCol(t, one)
	one.Release()

	again := openReader(t, path)
	releaseRead(t, again)
	got := bufsOf(again)
	reused := 0
	for b := range got {
		if first[b] {
			reused++
		}
	}
	if len(first) < 2 || reused != len(first) {
		t.Fatalf("the third reader of %d columns reused %d of the %d buffers the first released (the second read one column)", len(got), reused, len(first))
	}
}
