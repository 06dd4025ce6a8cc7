package runtime

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"runtime/debug"
	"slices"
	"strings"
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
	// The least of three measures each, with the GC off: a GC during one
	// empties the buffer pools, and the reads after it allocate their
	// buffers anew (after other tests, often enough that the least of
	// three alone still failed about one run in three).
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	with, without := math.Inf(1), math.Inf(1)
	for range 3 {
		with = min(with, testing.AllocsPerRun(5, func() { stringsSink = read(true) }))
		without = min(without, testing.AllocsPerRun(5, func() { stringsSink = read(false) }))
	}
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

// TestAfterShared checks the buffer that follows a batch strings share:
// the room after it while that holds a batch of the same size, never the
// batch's own bytes; then a new buffer, with room for eight small batches
// (so at least eight share an allocation) or for one large.
func TestAfterShared(t *testing.T) {
	const n, need = 100, 100 + 100/16 + 64
	d := make([]byte, 0, stringBufCap(need))
	d = append(d, bytes.Repeat([]byte{'a'}, n)...)
	first := batchString(d)
	shared := 1 // batches in the first buffer
	for {
		room := cap(d) - len(d)
		next := afterShared(d)
		if len(next) != 0 || cap(next) < need {
			t.Fatalf("batch %d: len %d cap %d, want 0 and at least %d", shared, len(next), cap(next), need)
		}
		next = append(next, bytes.Repeat([]byte{'b'}, n)...)
		if &next[0] != &d[:len(d)+1][len(d)] {
			if room >= need {
				t.Fatalf("batch %d: a new buffer with %d bytes of room left", shared, room)
			}
			if cap(next) != stringBufCap(need) {
				t.Fatalf("new buffer: cap %d, want %d", cap(next), stringBufCap(need))
			}
			break
		}
		d = next
		shared++
	}
	if shared < 8 {
		t.Errorf("%d batches shared the first buffer, want at least 8", shared)
	}
	if first != strings.Repeat("a", n) {
		t.Fatalf("the first batch's string changed: %q", first)
	}
	big := make([]byte, smallStringBatch)
	if got, want := cap(afterShared(big)), smallStringBatch+smallStringBatch/16+64; got != want {
		t.Errorf("after a large batch: cap %d, want %d (one batch)", got, want)
	}
}

// TestDictStringStarts reads dictionary-encoded strings whose dictionaries
// hold empty entries (first, in the middle and last, where a value starts
// at the end of the dictionary's bytes) beside long ones, over two row
// groups with a PLAIN page between the dictionary pages of each, in
// batches of one to all values, lazy or not: batches of one dictionary,
// of two (the spans' path of stringRefs.get) and of dictionary and plain
// values. Every string must be the value written.
func TestDictStringStarts(t *testing.T) {
	entries := func(g int) []string {
		return []string{"", fmt.Sprintf("g%d a", g), "", strings.Repeat(fmt.Sprint(g), 40), fmt.Sprintf("g%d b", g), ""}
	}
	var chunks [][][]synthPage
	var rows []int64
	var want []string
	for g := range 2 {
		var d encode.ByteArrays
		for _, e := range entries(g) {
			d.AppendString(e)
		}
		col := []synthPage{{dict: true, n: d.Len(), values: encode.AppendPlainByteArray(nil, d)}}
		var n int64
		for p := range 3 {
			if p == 1 {
				var vals encode.ByteArrays
				for i := range 5 {
					s := fmt.Sprintf("plain g%d %d", g, i)
					vals.AppendString(s)
					want = append(want, s)
				}
				col = append(col, synthPage{n: 5, enc: meta.EncodingPlain, values: encode.AppendPlainByteArray(nil, vals)})
				n += 5
				continue
			}
			idx := make([]int32, 40)
			for i := range idx {
				idx[i] = int32((i*5 + p) % d.Len())
				want = append(want, entries(g)[idx[i]])
			}
			col = append(col, synthPage{n: len(idx), enc: meta.EncodingRLEDictionary, values: encode.AppendDictIndices(nil, idx, 3)})
			n += int64(len(idx))
		}
		chunks = append(chunks, [][]synthPage{col})
		rows = append(rows, n)
	}
	file := synthFile(t, `message m { required binary s (STRING); }`, rows, chunks)
	for _, batch := range []int{1, 7, 39, 41, 84, 85, 200} {
		for _, lazy := range []bool{false, true} {
			var got []string
			readBatches(t, file, batch, lazy, func(c *ByteArrayReader) {
				for i := range c.Values.Len() {
					got = append(got, c.String(i))
				}
			})
			if !slices.Equal(got, want) {
				t.Fatalf("batch %d, lazy %v:\n got %q\nwant %q", batch, lazy, got, want)
			}
		}
	}
}

// TestLentPageLimit reads a column of a small PLAIN page, a PLAIN page of
// more than maxLentPage value bytes and a small DELTA_LENGTH_BYTE_ARRAY
// page, lazily (as generated readers do) and not, in batches that span
// the pages. The strings of the small pages share the pages' bytes (the
// batch holds no bytes of its own), those of the large page are copied
// into the batch, so that a kept string does not keep the large page
// alive; a batch that meets the large page after a small one gathers the
// values it shares first. Every string, kept until the end, must equal
// the value written.
func TestLentPageLimit(t *testing.T) {
	const small, bigVals, bigLen = 100, 2600, 2 << 10
	if bigVals*bigLen <= maxLentPage {
		t.Fatalf("the large page holds %d bytes, not more than maxLentPage (%d)", bigVals*bigLen, maxLentPage)
	}
	var want []string
	page := func(n int, enc meta.Encoding, value func(i int) string) synthPage {
		var vals encode.ByteArrays
		for i := range n {
			vals.AppendString(value(i))
			want = append(want, value(i))
		}
		data := encode.AppendPlainByteArray(nil, vals)
		if enc == meta.EncodingDeltaLengthByteArray {
			data = encode.AppendDeltaLengthByteArray(nil, vals)
		}
		return synthPage{n: n, enc: enc, values: data}
	}
	col := []synthPage{
		page(small, meta.EncodingPlain, func(i int) string { return fmt.Sprintf("first %03d", i) }),
		page(bigVals, meta.EncodingPlain, func(i int) string { return fmt.Sprintf("%04d", i) + strings.Repeat("x", bigLen-4) }),
		page(small, meta.EncodingDeltaLengthByteArray, func(i int) string { return fmt.Sprintf("last %03d", i) }),
	}
	file := synthFile(t, `message m { required binary s (STRING); }`, []int64{int64(len(want))}, [][][]synthPage{{col}})
	for _, batch := range []int{1, 60, 150, 3000} {
		for _, lazy := range []bool{false, true} {
			var got []string
			readBatches(t, file, batch, lazy, func(c *ByteArrayReader) {
				first := len(got)
				for i := range c.Values.Len() {
					got = append(got, c.String(i))
				}
				if !lazy {
					return
				}
				// Batches of the small pages alone share their bytes;
				// those of the large page alone copy them.
				switch last := len(got) - 1; {
				case last < small || first >= small+bigVals:
					if len(c.Values.Data) != 0 {
						t.Fatalf("batch %d, values %d to %d (small pages): %d bytes copied, want none", batch, first, last, len(c.Values.Data))
					}
				case first >= small && last < small+bigVals:
					if len(c.Values.Data) != int(c.Values.Offsets[c.Values.Len()]) {
						t.Fatalf("batch %d, values %d to %d (large page): %d bytes in the batch, want all %d", batch, first, last, len(c.Values.Data), c.Values.Offsets[c.Values.Len()])
					}
				}
			})
			if !slices.Equal(got, want) {
				for i := range min(len(got), len(want)) {
					if got[i] != want[i] {
						t.Fatalf("batch %d, lazy %v: value %d: %.20q, want %.20q", batch, lazy, i, got[i], want[i])
					}
				}
				t.Fatalf("batch %d, lazy %v: %d values, want %d", batch, lazy, len(got), len(want))
			}
		}
	}
}
