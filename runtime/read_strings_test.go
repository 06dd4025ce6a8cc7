package runtime

import (
	"fmt"
	"io"
	"testing"

	"github.com/pqgen/pqgen/runtime/encode"
	"github.com/pqgen/pqgen/runtime/meta"
)

// TestDictStringAllocs: the strings of a dictionary-encoded column cost no
// allocation of their own: they are substrings of the copy of their
// dictionary the reader makes once per dictionary. The file has two row
// groups, each with a dictionary of 50 entries of which its three pages of
// 2,000 rows use 40; it is read in batches of 700 rows (batches span pages
// and row groups). Reading it with String on every value allocates exactly
// one more than reading it without (the result slice), and String returns
// the right values.
func TestDictStringAllocs(t *testing.T) {
	const (
		groups, pages, pageRows = 2, 3, 2000
		entries, used           = 50, 40
		batch                   = 700
	)
	var chunks [][][]synthPage
	var rows []int64
	var want []string
	for g := range groups {
		var d encode.ByteArrays
		for e := range entries {
			d.AppendString(fmt.Sprintf("group %d, entry %02d", g, e))
		}
		col := []synthPage{{dict: true, n: entries, values: encode.AppendPlainByteArray(nil, d)}}
		for p := range pages {
			idx := make([]int32, pageRows)
			for i := range idx {
				idx[i] = int32((p*pageRows + i) * 7 % used)
				want = append(want, fmt.Sprintf("group %d, entry %02d", g, idx[i]))
			}
			col = append(col, synthPage{n: pageRows, enc: meta.EncodingRLEDictionary, values: encode.AppendDictIndices(nil, idx, 6)})
		}
		chunks = append(chunks, [][]synthPage{col})
		rows = append(rows, pages*pageRows)
	}
	file := synthFile(t, `message m { required binary s (STRING); }`, rows, chunks)

	read := func(strings bool) []string {
		var got []string
		if strings {
			got = make([]string, 0, len(want))
		}
		readBatches(t, file, batch, false, func(c *ByteArrayReader) {
			if strings {
				for i := range c.Values.Len() {
					got = append(got, c.String(i))
				}
			}
		})
		return got
	}
	got := read(true)
	if len(got) != len(want) {
		t.Fatalf("%d values, want %d", len(got), len(want))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("value %d: %q, want %q", i, got[i], want[i])
		}
	}
	with := testing.AllocsPerRun(5, func() { stringsSink = read(true) })
	without := testing.AllocsPerRun(5, func() { stringsSink = read(false) })
	if d := with - without; d != 1 {
		t.Errorf("reading with String allocates %v more than without, want 1 (the result slice)", d)
	}
}

var stringsSink []string

// readBatches reads column 0 of file, a BYTE_ARRAY column, in batches of
// batch rows, and calls each after every batch; lazy sets the reader's
// mode of generated readers (see ByteArrayReader.lazy).
func readBatches(t *testing.T, file []byte, batch int, lazy bool, each func(c *ByteArrayReader)) {
	t.Helper()
	c, err := readerOf(t, file).ByteArrayReader(0)
	if err != nil {
		t.Fatal(err)
	}
	c.lazy = lazy
	for {
		_, err := c.ReadRows(batch)
		if err == io.EOF {
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		each(c)
	}
}
