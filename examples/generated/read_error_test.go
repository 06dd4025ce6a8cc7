package generated

import (
	"bytes"
	"errors"
	"io"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/pqgen/pqgen/runtime"
)

// errReset is the error of flakyReaderAt's failing read.
var errReset = errors.New("connection reset by peer")

// flakyReaderAt reads data, except that the first read covering byte at
// fails with errReset: a network file whose read fails once.
type flakyReaderAt struct {
	data   []byte
	at     int64
	failed bool
}

func (f *flakyReaderAt) ReadAt(p []byte, off int64) (int, error) {
	if !f.failed && off <= f.at && f.at < off+int64(len(p)) {
		f.failed = true
		return 0, errReset
	}
	return bytes.NewReader(f.data).ReadAt(p, off)
}

// TestReadErrorIsFinal: once Read fails, every later Read returns the
// same error, even when the io.ReaderAt would now succeed. The columns
// read before the failing one had moved on: the reader used to give
// io.EOF after as many failed Reads as rows were left (12,000 rows of
// 20,000 lost without an error), and could assemble rows from values of
// different rows. The rows before the error are the written ones, All
// yields the error once, and a new reader reads every row. Sequential
// and with WithReadParallelism(2).
func TestReadErrorIsFinal(t *testing.T) {
	rows := events(20_000)
	data := writeAll(t, rows, []runtime.WriterOption{runtime.WithPageSize(4096), runtime.WithRowGroupSize(64 << 10)}, NewEventWriter)
	for _, par := range []int{1, 2} {
		f := &flakyReaderAt{data: data, at: int64(len(data) / 2)}
		r, err := NewEventReader(f, int64(len(data)), runtime.WithReadParallelism(par))
		if err != nil {
			t.Fatal(err)
		}
		batch := make([]Event, 1000)
		var got []Event
		var rerr error
		for rerr == nil {
			var n int
			n, rerr = r.Read(batch)
			got = append(got, batch[:n]...)
		}
		if !errors.Is(rerr, errReset) {
			t.Fatalf("parallelism %d: Read: %v after %d rows, want the ReaderAt's error", par, rerr, len(got))
		}
		if len(got) == 0 || len(got) >= len(rows) {
			t.Fatalf("parallelism %d: the error came after %d rows", par, len(got))
		}
		if d := cmp.Diff(rows[:len(got)], got, cmp.Comparer(func(a, b Event) bool { return a.ID == b.ID && a.User == b.User && a.At.Equal(b.At) })); d != "" {
			t.Errorf("parallelism %d: the rows before the error (-want +got):\n%s", par, d)
		}
		for range 20 {
			if n, err := r.Read(batch); n != 0 || err != rerr {
				t.Fatalf("parallelism %d: Read after the error: %d rows, %v; want 0 and %v", par, n, err, rerr)
			}
		}
		yields := 0
		for _, err := range r.All() {
			yields++
			if err != rerr {
				t.Errorf("parallelism %d: All after the error yielded %v", par, err)
			}
		}
		if yields != 1 {
			t.Errorf("parallelism %d: All after the error yielded %d times, want once", par, yields)
		}
		if err := r.Close(); err != nil {
			t.Fatal(err)
		}
		// A new reader (the ReaderAt works again) reads every row.
		r, err = NewEventReader(f, int64(len(data)), runtime.WithReadParallelism(par))
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for {
			k, err := r.Read(batch)
			for i := range k {
				if batch[i].ID != rows[n+i].ID || batch[i].User != rows[n+i].User {
					t.Fatalf("parallelism %d: row %d read again: id %d, want %d", par, n+i, batch[i].ID, rows[n+i].ID)
				}
			}
			n += k
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
		}
		if n != len(rows) {
			t.Errorf("parallelism %d: a new reader read %d rows, want %d", par, n, len(rows))
		}
	}
}
