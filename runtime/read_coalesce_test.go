package runtime

import (
	"bytes"
	"errors"
	"io"
	"slices"
	"testing"

	"github.com/pqgen/pqgen/runtime/meta"
)

// rangeLogReader records the ReadAt calls made on a byte slice.
type rangeLogReader struct {
	b     []byte
	calls []byteRange
	fail  bool
}

func (c *rangeLogReader) ReadAt(p []byte, off int64) (int, error) {
	c.calls = append(c.calls, byteRange{off, off + int64(len(p))})
	if c.fail {
		return 0, errors.New("storage down")
	}
	if off >= int64(len(c.b)) {
		return 0, io.EOF
	}
	n := copy(p, c.b[off:])
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

// TestCoalescer checks the merging of ranges across gaps, that held
// ranges are not fetched again, that reads inside a span are served from
// memory with the file's bytes, the buffer limit, and that a failed
// prefetch leaves the reads to the underlying reader.
func TestCoalescer(t *testing.T) {
	file := make([]byte, 1000)
	for i := range file {
		file[i] = byte(i * 7)
	}
	under := &rangeLogReader{b: file}
	c := &coalescer{r: under, size: int64(len(file)), gap: 10, max: 300}

	// [100,150) and [155,200) are 5 apart: one fetch; [400,450) its own;
	// [990,1200) is clipped to the file.
	c.prefetch([]byteRange{{400, 450}, {155, 200}, {100, 150}, {990, 1200}})
	want := []byteRange{{100, 200}, {400, 450}, {990, 1000}}
	if !slices.Equal(under.calls, want) {
		t.Fatalf("fetches %v, want %v", under.calls, want)
	}
	// Held ranges are not fetched again.
	under.calls = nil
	c.prefetch([]byteRange{{120, 180}, {400, 420}})
	if len(under.calls) != 0 {
		t.Fatalf("held ranges fetched again: %v", under.calls)
	}
	// Reads inside a span come from memory, with the file's bytes.
	p := make([]byte, 30)
	if n, err := c.ReadAt(p, 160); n != 30 || err != nil || !bytes.Equal(p, file[160:190]) {
		t.Fatalf("served read: %d, %v", n, err)
	}
	// A read crossing a span's end goes to the underlying reader.
	if n, err := c.ReadAt(p, 190); n != 30 || err != nil || !bytes.Equal(p, file[190:220]) || len(under.calls) != 1 {
		t.Fatalf("read past a span: %d, %v, calls %v", n, err, under.calls)
	}
	// The buffer holds at most max bytes: a 250-byte fetch drops the
	// oldest spans, and a range larger than the budget is not fetched.
	under.calls = nil
	c.prefetch([]byteRange{{500, 750}, {0, 400}})
	if !slices.Equal(under.calls, []byteRange{{500, 750}}) {
		t.Fatalf("fetches under the budget: %v", under.calls)
	}
	if c.held > c.max {
		t.Fatalf("holds %d bytes, limit %d", c.held, c.max)
	}
	if c.holds(byteRange{100, 200}) {
		t.Fatal("the oldest span was kept beyond the limit")
	}
	// A failed fetch is not kept; the read reports the storage's error.
	under.fail = true
	c.prefetch([]byteRange{{800, 850}})
	if c.holds(byteRange{800, 850}) {
		t.Fatal("a failed fetch was kept")
	}
	if _, err := c.ReadAt(p, 800); err == nil {
		t.Fatal("the read of a failed fetch succeeded")
	}
}

// TestCoalescedPagesServeEveryRead: with read coalescing, a filtered read
// of kept pages 3 and 7 of ten finds every byte its columns read (the
// dictionary page, the kept pages' headers and bodies) in the prefetched
// spans: the underlying reader sees only the footer's and the prefetches'
// reads. It holds for an offset index whose compressed_page_size leaves
// out the page header, as xitongsys/parquet-go writes it. The kept ids
// read back.
func TestCoalescedPagesServeEveryRead(t *testing.T) {
	for _, short := range []bool{false, true} {
		synthIndex = true
		if short {
			synthOffsetEdit = func(_ int, oi *meta.OffsetIndex) {
				for i := range oi.PageLocations {
					// Short by more than the reader's probes past a
					// page, as a header with long statistics would be.
					oi.PageLocations[i].CompressedPageSize -= 1000
				}
			}
		}
		file := benchFile(t, 100_000) // 10 pages of 10000 rows per column; s has a dictionary
		synthIndex, synthOffsetEdit = false, nil
		under := &rangeLogReader{b: file}
		keep := func(_ *File, _ int, _ *meta.ColumnIndex, p int) bool { return p == 3 || p == 7 }
		fr, err := NewFileReader(under, int64(len(file)), WithColumnPageFilter("id", keep), WithReadCoalescing(0, 64<<20))
		if err != nil {
			t.Fatal(err)
		}
		before := len(under.calls)
		ids, _ := fr.Int64Reader(0)
		strs, _ := fr.ByteArrayReader(1)
		opts, _ := fr.Int64Reader(2)
		if err := fr.ReadColumns(20000, Col(ids, "id"), Col(strs, "s"), Col(opts, "o")); err != nil {
			t.Fatal(err)
		}
		if ids.Values[0] != 30000 || ids.Values[19999] != 79999 || strs.Values.Len() != 20000 {
			t.Fatalf("short sizes %v: ids %d..%d, %d strings", short, ids.Values[0], ids.Values[19999], strs.Values.Len())
		}
		// The coalescer never fetches a held range again: a call that
		// overlaps an earlier one is a read the spans did not serve.
		calls := under.calls[before:]
		for i, c := range calls {
			for _, d := range calls[:i] {
				if c.off < d.end && d.off < c.end {
					t.Errorf("short sizes %v: the read of [%d, %d) missed the prefetched [%d, %d)", short, c.off, c.end, d.off, d.end)
				}
			}
		}
	}
}
