package runtime

import (
	"errors"
	"math"
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
