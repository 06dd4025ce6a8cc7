package runtime

import (
	"errors"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

type fakeColumn struct {
	rows int
	err  error
}

func (c *fakeColumn) ReadRows(n int) (int, error) { return min(n, c.rows), c.err }

func TestReadRowsExact(t *testing.T) {
	if err := ReadRowsExact(&fakeColumn{rows: 10}, 10, "a.b"); err != nil {
		t.Fatalf("whole batch: %v", err)
	}
	err := ReadRowsExact(&fakeColumn{rows: 7}, 10, "a.b")
	if !errors.Is(err, ErrChunk) || !strings.Contains(err.Error(), "column a.b: 7 rows where 10 were expected") {
		t.Fatalf("short column: %v", err)
	}
	boom := errors.New("boom")
	if err := ReadRowsExact(&fakeColumn{rows: 10, err: boom}, 10, "a"); !errors.Is(err, boom) {
		t.Fatalf("column error not passed on: %v", err)
	}
}

func TestDateDays(t *testing.T) {
	east := time.FixedZone("east", 10*3600)
	for _, c := range []struct {
		t    time.Time
		want int32
	}{
		{time.Date(1970, 1, 1, 0, 0, 0, 0, time.UTC), 0},
		{time.Date(1970, 1, 1, 23, 59, 59, 999, time.UTC), 0},
		{time.Date(1970, 1, 2, 0, 0, 0, 0, time.UTC), 1},
		{time.Date(1969, 12, 31, 23, 59, 59, 0, time.UTC), -1},
		{time.Date(1969, 12, 31, 0, 0, 0, 0, time.UTC), -1},
		{time.Date(1969, 12, 30, 23, 0, 0, 0, time.UTC), -2},
		{time.Date(2024, 2, 29, 12, 0, 0, 0, time.UTC), 19782},
		{time.Date(1970, 1, 2, 5, 0, 0, 0, east), 0}, // 1970-01-01 19:00 UTC
		{time.Date(1900, 1, 1, 0, 0, 0, 0, time.UTC), -25567},
	} {
		if got := DateDays(c.t); got != c.want {
			t.Errorf("DateDays(%v) = %d, want %d", c.t, got, c.want)
		}
	}
}

// TestPresizeRows: the footer's row count is taken when plausible for the
// file's size, bounded when not.
func TestPresizeRows(t *testing.T) {
	for _, c := range []struct {
		rows, file, size int64
		want             int
	}{
		{0, 100, 8, 0},
		{-5, 100, 8, 0},
		{1_000_000, 4 << 20, 64, 1_000_000},  // 64 MB of rows from 4 MiB: taken
		{1 << 40, 1000, 64, 4096},            // a lying footer in a small file
		{1 << 40, 1 << 30, 64, 1 << 30},      // bounded by 64 bytes of rows per byte
		{10_000_000, 1 << 20, 128, 524_288},  // 64 MiB of 128-byte rows
		{100, 10, 1 << 20, 100},              // few huge rows: minimum 4,096 rows
		{1 << 62, 1 << 62, 1, math.MaxInt32}, // never past MaxInt32
	} {
		if got := presizeRows(c.rows, c.file, c.size); got != c.want {
			t.Errorf("presizeRows(%d, %d, %d) = %d, want %d", c.rows, c.file, c.size, got, c.want)
		}
	}
}

// fakeRows is a RowReader of int64 rows 0, 1, ... that claims claim rows
// and holds have, recording the largest Read.
type fakeRows struct {
	claim, have, next int64
	largest           int
}

func (f *fakeRows) NumRows() int64 { return f.claim }
func (f *fakeRows) Close() error   { return nil }
func (f *fakeRows) Read(rows []int64) (int, error) {
	f.largest = max(f.largest, len(rows))
	n := 0
	for n < len(rows) && f.next < f.have {
		rows[n] = f.next
		n++
		f.next++
	}
	if f.next == f.have && (n < len(rows) || n == 0) {
		return n, io.EOF
	}
	return n, nil
}

// TestReadFileRows: the result is presized from the footer's count and not
// grown when the count is true, read in batches of at most readFileBatch
// rows, grows past a count too small, and stays bounded for a count too
// large.
func TestReadFileRows(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(path, make([]byte, 1000), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		claim, have int64
		wantCap     int // at most
	}{
		{10000, 10000, 10000},     // true count: exactly presized
		{0, 0, 0},                 // empty
		{10000, 7000, 10000},      // fewer rows than counted
		{5000, 9000, 9000 + 5000}, // more: grows
		{1 << 40, 3, 4096},        // a lying count: bounded by presizeRows
	} {
		f := &fakeRows{claim: c.claim, have: c.have}
		got, err := ReadFileRows[int64](path, func(io.ReaderAt, int64) (*fakeRows, error) { return f, nil })
		if err != nil {
			t.Fatal(err)
		}
		if int64(len(got)) != c.have || cap(got) > c.wantCap {
			t.Fatalf("claim %d, have %d: %d rows, capacity %d (want at most %d)", c.claim, c.have, len(got), cap(got), c.wantCap)
		}
		for i, v := range got {
			if v != int64(i) {
				t.Fatalf("claim %d, have %d: row %d is %d", c.claim, c.have, i, v)
			}
		}
		if f.largest > readFileBatch {
			t.Fatalf("claim %d, have %d: a Read of %d rows", c.claim, c.have, f.largest)
		}
	}
}

// countReader is a RowReader of the numbers 0 to n-1, Read as a
// generated reader does: the rows AllRowsAhead left in ahead first.
type countReader struct {
	next, n int
	ahead   []int
}

func (c *countReader) Read(rows []int) (int, error) {
	if len(c.ahead) > 0 {
		return TakeAhead(rows, &c.ahead), nil
	}
	k := min(len(rows), c.n-c.next)
	if k == 0 && len(rows) > 0 {
		return 0, io.EOF
	}
	for i := range k {
		rows[i] = c.next + i
	}
	c.next += k
	return k, nil
}

func (c *countReader) NumRows() int64 { return int64(c.n) }
func (c *countReader) Close() error   { return nil }

// TestAllRowsAhead: a loop over AllRowsAhead that stops at a row leaves
// the rest of its batch of 256 to the next Read, in pieces as small as
// the Read asks (TakeAhead), then to the next loop; AllRows drops them.
func TestAllRowsAhead(t *testing.T) {
	c := &countReader{n: 1000}
	var got []int
	take := func(seq func(func(int, error) bool), n int) {
		for v, err := range seq {
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, v)
			if n--; n == 0 {
				break
			}
		}
	}
	take(AllRowsAhead(c, &c.ahead), 10) // 0-9; 10-255 ahead
	buf := make([]int, 100)
	for _, want := range []int{100, 100, 46} { // 10-255 from ahead, in the Reads' sizes
		if n, err := c.Read(buf); n != want || err != nil {
			t.Fatalf("Read after a stopped loop: %d, %v; want %d rows", n, err, want)
		}
		got = append(got, buf[:want]...)
	}
	if c.ahead != nil {
		t.Fatalf("%d rows still ahead after they were read", len(c.ahead))
	}
	take(AllRowsAhead(c, &c.ahead), 256) // 256-511: stops at the batch's last row, nothing ahead
	if c.ahead != nil {
		t.Fatalf("%d rows ahead after a loop stopped at its batch's last row", len(c.ahead))
	}
	take(AllRowsAhead(c, &c.ahead), -1) // the rest
	for i, v := range got {
		if v != i {
			t.Fatalf("row %d is %d", i, v)
		}
	}
	if len(got) != c.n {
		t.Fatalf("%d rows, want %d", len(got), c.n)
	}
	// AllRows, for code generated before, drops the rest of the batch.
	c = &countReader{n: 1000}
	got = got[:0]
	take(AllRows[int](c), 10)
	if n, _ := c.Read(buf[:1]); n != 1 || buf[0] != 256 {
		t.Fatalf("Read after AllRows stopped: %d rows, first %d; want row 256", n, buf[0])
	}
}
