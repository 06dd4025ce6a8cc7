package generated

import (
	"bytes"
	"errors"
	"io"
	"testing"

	"github.com/pqgen/pqgen/runtime"
)

// TestAllStopsWithoutSkipping: All reads ahead in batches of 256 rows,
// and a loop that stops early leaves the rest of its batch to the next
// Read or All, which used to skip it (a Read after stopping at the 10th
// row returned row 256). The row a loop stops at was yielded: it is not
// returned again. Every row comes once and in order whatever the
// mix of Reads and stopped loops, with and without WithReadParallelism;
// Close drops the rows read ahead.
func TestAllStopsWithoutSkipping(t *testing.T) {
	rows := events(1000)
	data := writeAll(t, rows, []runtime.WriterOption{runtime.WithPageRowLimit(100)}, NewEventWriter)
	for _, par := range []int{1, 2} {
		r, err := NewEventReader(bytes.NewReader(data), int64(len(data)), runtime.WithReadParallelism(par))
		if err != nil {
			t.Fatal(err)
		}
		var ids []int64
		// all takes n rows through All, stopping at the n-th (all of them
		// when n < 0).
		all := func(n int) {
			for row, err := range r.All() {
				if err != nil {
					t.Fatal(err)
				}
				ids = append(ids, row.ID)
				if n--; n == 0 {
					break
				}
			}
		}
		read := func(n int) (int, error) {
			b := make([]Event, n)
			k, err := r.Read(b)
			for _, e := range b[:k] {
				ids = append(ids, e.ID)
			}
			return k, err
		}
		all(10)  // stops within the first batch
		read(5)  // rows 10-14, read ahead
		all(300) // the batch's rest, then into the next batch
		// The rows of the second batch left: 2*256-10-5-300.
		if k, err := read(1000); err != nil || k != 197 {
			t.Fatalf("parallelism %d: Read after a stopped loop: %d rows, %v; want the 197 read ahead", par, k, err)
		}
		all(1) // stops at its first row
		all(-1)
		if _, err := read(10); !errors.Is(err, io.EOF) {
			t.Fatalf("parallelism %d: Read at the end: %v", par, err)
		}
		if len(ids) != len(rows) {
			t.Fatalf("parallelism %d: %d rows read, want %d", par, len(ids), len(rows))
		}
		for i, id := range ids {
			if id != rows[i].ID {
				t.Fatalf("parallelism %d: row %d has id %d, want %d", par, i, id, rows[i].ID)
			}
		}
		// Close drops the rows read ahead.
		r, err = NewEventReader(bytes.NewReader(data), int64(len(data)), runtime.WithReadParallelism(par))
		if err != nil {
			t.Fatal(err)
		}
		all(1)
		if err := r.Close(); err != nil {
			t.Fatal(err)
		}
		if k, err := read(10); k != 0 || !errors.Is(err, runtime.ErrClosed) {
			t.Fatalf("parallelism %d: Read after Close: %d, %v", par, k, err)
		}
	}
}
