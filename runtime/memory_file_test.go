package runtime

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/pqgen/pqgen/internal/corpus"
)

// readEvery reads every column of the file r holds as readColumn does,
// in batches of 1,000 rows, and returns a record of each column's levels
// and values or error, or of the error opening the file.
func readEvery(r io.ReaderAt, size int64, opts []ReaderOption) map[string]string {
	fr, err := NewFileReader(r, size, opts...)
	if err != nil {
		return map[string]string{"open": err.Error()}
	}
	defer fr.Release()
	out := map[string]string{}
	for col, leaf := range fr.File().Schema.Leaves {
		d, err := readColumn(fr, col, 1000)
		if err != nil {
			out[leaf.PathString()] = "error: " + err.Error()
			continue
		}
		out[leaf.PathString()] = fmt.Sprint(d.Rows, d.Def, d.Rep, d.Values)
	}
	return out
}

// TestMemoryFileCorpus: every file of the corpus, bad_data/ and the
// encrypted ones (with their keys) included, reads from a MemoryFile as
// from a bytes.Reader over a copy: the same levels and values of every
// column, and the same errors, with CRC checks, with WithReadParallelism(2)
// and with read coalescing (which a MemoryFile does without); and no byte
// of the memory changes.
func TestMemoryFileCorpus(t *testing.T) {
	files := 0
	for _, rel := range corpus.ParquetFiles(t) {
		data, err := os.ReadFile(corpus.Path(t, rel))
		if err != nil {
			t.Fatal(err)
		}
		orig := slices.Clone(data)
		var keys []ReaderOption
		if strings.HasSuffix(rel, ".encrypted") {
			keys = corpusKeys(rel)
		}
		for _, opts := range [][]ReaderOption{{WithCRCCheck(true)}, {WithReadParallelism(2)}, {WithReadCoalescing(1<<10, 1<<20)}} {
			opts = append(slices.Clone(keys), opts...)
			want := readEvery(bytes.NewReader(orig), int64(len(orig)), opts)
			got := readEvery(MemoryFile(data), int64(len(data)), opts)
			for col, w := range want {
				if got[col] != w {
					t.Errorf("%s: column %s reads from memory as\n%.300s\nwant\n%.300s", rel, col, got[col], w)
				}
			}
			if len(got) != len(want) {
				t.Errorf("%s: %d columns from memory, want %d", rel, len(got), len(want))
			}
		}
		if !bytes.Equal(data, orig) {
			t.Fatalf("%s: reading changed the file's memory", rel)
		}
		files++
	}
	t.Logf("%d files read alike from memory", files)
}

// TestMemoryFileReadAt: ReadAt behaves as bytes.Reader's, offsets past
// the end, negative ones and reads running past it included, and
// FileBytes is the file.
func TestMemoryFileReadAt(t *testing.T) {
	data := []byte("0123456789")
	m, b := MemoryFile(data), bytes.NewReader(data)
	for _, c := range []struct {
		off int64
		n   int
	}{{0, 4}, {6, 4}, {8, 4}, {10, 1}, {11, 1}, {0, 0}, {-1, 2}} {
		p, q := make([]byte, c.n), make([]byte, c.n)
		n1, err1 := m.ReadAt(p, c.off)
		n2, err2 := b.ReadAt(q, c.off)
		if n1 != n2 || !bytes.Equal(p, q) || fmt.Sprint(err1) != fmt.Sprint(err2) {
			t.Errorf("ReadAt(%d bytes, %d) = %d %q %v, bytes.Reader %d %q %v", c.n, c.off, n1, p, err1, n2, q, err2)
		}
	}
	if !bytes.Equal(m.FileBytes(), data) {
		t.Error("FileBytes is not the file")
	}
}
