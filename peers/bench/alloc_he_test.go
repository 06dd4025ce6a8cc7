package bench

import (
	"bytes"
	goruntime "runtime"
	"testing"
)

// flatHEFile returns n high-entropy Flat rows, pqgen's library and the
// file it writes of them (snappy).
func flatHEFile(t *testing.T, n int) ([]Flat, lib[Flat], *bytes.Buffer) {
	t.Helper()
	rows := flatRowsHE(n)
	l := pqgenLib[Flat](pqgenName, NewFlatWriter, NewFlatReader, pqgenOpts{})
	var buf bytes.Buffer
	if err := l.write(&buf, rows, codecs[0]); err != nil {
		t.Fatal(err)
	}
	return rows, l, &buf
}

// TestFlatHEReadAllocs: reading high-entropy Flat rows with pqgen into a
// reused batch allocates one string per distinct name (the names are
// dictionary-encoded, and one row group holds them all), one slab of Opt
// targets per batch, and a fixed number of buffers for the reader and its
// columns that does not grow with the rows: nothing per row. (Counts, not
// times: this asserts nothing about speed.)
func TestFlatHEReadAllocs(t *testing.T) {
	const perReader = 200 // the reader, its column buffers and dictionary caches
	for _, n := range []int{20_000, 80_000} {
		rows, l, buf := flatHEFile(t, n)
		distinct := map[string]bool{}
		for _, r := range rows {
			distinct[r.Name] = true
		}
		batches := (n + ReadBatch - 1) / ReadBatch
		batch := make([]Flat, ReadBatch)
		got := 0
		allocs := testing.AllocsPerRun(3, func() {
			got = 0
			if err := l.read(buf.Bytes(), batch, func(b []Flat) { got += len(b) }); err != nil {
				t.Fatal(err)
			}
		})
		if got != n {
			t.Fatalf("%d rows read, %d written", got, n)
		}
		if limit := float64(len(distinct) + batches + perReader); allocs > limit {
			t.Errorf("%d rows: %v allocations, above %v (%d distinct names, %d batches, %d for the reader)", n, allocs, limit, len(distinct), batches, perReader)
		}
	}
}

// TestFlatHEReadBytes: reading high-entropy Flat rows with pqgen into a
// reused batch, after an earlier reader was closed, allocates the bytes
// of what the rows keep and a fixed budget for the reader, not the
// reader's page and column buffers, which it takes over from the closed
// one (runtime.FileReader.Release): the copy of the name dictionary
// (its bytes and an offset per entry), the targets of Opt (4 bytes per
// row at most) and perReader bytes for the footer and the reader's
// structs. Reading with buffers of its own costs about 28 bytes per row
// more. The least of three reads counts (a garbage collection empties
// the pool). Counts, not times.
func TestFlatHEReadBytes(t *testing.T) {
	const perReader = 64 << 10
	for _, n := range []int{20_000, 80_000} {
		rows, l, buf := flatHEFile(t, n)
		distinct := map[string]bool{}
		dict := 0
		for _, r := range rows {
			if !distinct[r.Name] {
				distinct[r.Name] = true
				dict += len(r.Name) + 4
			}
		}
		batch := make([]Flat, ReadBatch)
		read := func() {
			if err := l.read(buf.Bytes(), batch, nil); err != nil {
				t.Fatal(err)
			}
		}
		read() // its buffers go to the pool
		least := uint64(1 << 63)
		for range 3 {
			var m0, m1 goruntime.MemStats
			goruntime.ReadMemStats(&m0)
			read()
			goruntime.ReadMemStats(&m1)
			least = min(least, m1.TotalAlloc-m0.TotalAlloc)
		}
		if limit := uint64(dict + 4*n + perReader); least > limit {
			t.Errorf("%d rows: a read allocates %d bytes, above %d (a dictionary of %d bytes, %d rows, %d for the reader)", n, least, limit, dict, n, perReader)
		}
	}
}
