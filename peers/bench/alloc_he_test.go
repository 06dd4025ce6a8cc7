package bench

import (
	"bytes"
	"testing"
)

// TestFlatHEReadAllocs: reading high-entropy Flat rows with pqgen into a
// reused batch allocates one string per distinct name (the names are
// dictionary-encoded, and one row group holds them all), one slab of Opt
// targets per batch, and a fixed number of buffers for the reader and its
// columns that does not grow with the rows: nothing per row. (Counts, not
// times: this asserts nothing about speed.)
func TestFlatHEReadAllocs(t *testing.T) {
	const perReader = 200 // the reader, its column buffers and dictionary caches
	for _, n := range []int{20_000, 80_000} {
		rows := flatRowsHE(n)
		l := pqgenLib[Flat](pqgenName, NewFlatWriter, NewFlatReader)
		var buf bytes.Buffer
		if err := l.write(&buf, rows, codecs[0]); err != nil {
			t.Fatal(err)
		}
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
