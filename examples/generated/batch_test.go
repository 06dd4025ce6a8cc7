package generated

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/pqgen/pqgen/runtime"
)

// TestWriteBatchBytes: a generated writer hands rows to the FileWriter
// in batches of pqgenEventBatch rows, except that a batch ends at the
// first multiple of pqgenEventBatchCheck rows whose byte-array values
// hold pqgenEventBatchBytes. With a row group size of 1 byte every
// EndRows ends a row group, so the row groups show the batches: 1,024
// rows of short values, 256 of 64 KiB payloads (16 MiB at the first
// check), and the same bytes whether the rows come in one Write or one
// by one, and with WithParallelism(2) (whose EndRows swaps the buffers
// generated code fills).
func TestWriteBatchBytes(t *testing.T) {
	for _, c := range []struct {
		name    string
		payload int
		want    int64
	}{
		{"short", 10, pqgenEventBatch},
		{"64KiB", 64 << 10, pqgenEventBatchCheck},
	} {
		rows := events(3000)
		for i := range rows {
			rows[i].Payload = []byte(strings.Repeat("x", c.payload))
		}
		var files [3][]byte
		for k, split := range []bool{false, true, false} {
			opts := []runtime.WriterOption{runtime.WithRowGroupSize(1)}
			if k == 2 {
				opts = append(opts, runtime.WithParallelism(2))
			}
			var buf bytes.Buffer
			w, err := NewEventWriter(&buf, opts...)
			if err != nil {
				t.Fatal(err)
			}
			if split {
				for i := range rows {
					if _, err := w.Write(rows[i : i+1]); err != nil {
						t.Fatal(err)
					}
				}
			} else if _, err := w.Write(rows); err != nil {
				t.Fatal(err)
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			files[k] = buf.Bytes()
		}
		if !bytes.Equal(files[0], files[1]) {
			t.Errorf("%s: rows written one by one give other bytes than in one Write", c.name)
		}
		if !bytes.Equal(files[0], files[2]) {
			t.Errorf("%s: WithParallelism(2) gives other bytes than the sequential writer", c.name)
		}
		f, err := runtime.OpenFile(bytes.NewReader(files[0]), int64(len(files[0])))
		if err != nil {
			t.Fatal(err)
		}
		rgs := f.Meta.RowGroups
		for i, rg := range rgs {
			want := min(c.want, 3000-int64(i)*c.want)
			if rg.NumRows != want {
				t.Fatalf("%s: row group %d of %d holds %d rows, want %d", c.name, i, len(rgs), rg.NumRows, want)
			}
		}
	}
}

// diskFull is an io.Writer that takes limit bytes, then fails with
// errDiskFull.
type diskFull struct{ limit int }

var errDiskFull = errors.New("disk full")

func (d *diskFull) Write(p []byte) (int, error) {
	if len(p) > d.limit {
		n := d.limit
		d.limit = 0
		return n, errDiskFull
	}
	d.limit -= len(p)
	return len(p), nil
}

// TestWriteRefusedOnceFailedOrClosed: a writer that was closed, or that
// failed (its io.Writer full, a value its column cannot hold), refuses
// rows at once: Write returns 0 rows and the writer's error, also for
// fewer rows than a group, which it used to hold and report as written,
// and for none; Flush and Close return the same error. Sequential and
// with WithParallelism(2).
func TestWriteRefusedOnceFailedOrClosed(t *testing.T) {
	rows := events(3000)
	badUser := events(3)
	badUser[1].User = "a\xffb"
	for _, par := range []int{0, 2} {
		opt := runtime.WithParallelism(par)
		cases := []struct {
			name string
			// fail makes the writer fail or closes it, and returns the
			// error it holds then.
			fail func(t *testing.T) (*EventWriter, error)
			want error
		}{
			{"closed", func(t *testing.T) (*EventWriter, error) {
				w, err := NewEventWriter(&bytes.Buffer{}, opt)
				if err != nil {
					t.Fatal(err)
				}
				if _, err := w.Write(rows[:10]); err != nil {
					t.Fatal(err)
				}
				if err := w.Close(); err != nil {
					t.Fatal(err)
				}
				return w, nil
			}, runtime.ErrClosed},
			{"disk full", func(t *testing.T) (*EventWriter, error) {
				w, err := NewEventWriter(&diskFull{limit: 20_000}, opt, runtime.WithRowGroupSize(1))
				if err != nil {
					t.Fatal(err)
				}
				_, err = w.Write(rows)
				if err == nil {
					err = w.Close()
				}
				return w, err
			}, errDiskFull},
			{"invalid UTF-8", func(t *testing.T) (*EventWriter, error) {
				w, err := NewEventWriter(&bytes.Buffer{}, opt)
				if err != nil {
					t.Fatal(err)
				}
				if _, err := w.Write(badUser); err != nil {
					t.Fatalf("Write of 3 rows (a group held): %v", err)
				}
				return w, w.Flush()
			}, runtime.ErrValue},
		}
		for _, c := range cases {
			t.Run(fmt.Sprintf("parallelism=%d/%s", par, c.name), func(t *testing.T) {
				w, err := c.fail(t)
				if c.want != runtime.ErrClosed && !errors.Is(err, c.want) {
					t.Fatalf("the writer failed with %v, want %v", err, c.want)
				}
				for _, batch := range [][]Event{rows[:1], rows[:2000], nil} {
					n, err := w.Write(batch)
					if n != 0 || !errors.Is(err, c.want) {
						t.Errorf("Write of %d rows: %d, %v; want 0, an error wrapping %v", len(batch), n, err, c.want)
					}
				}
				if err := w.Flush(); !errors.Is(err, c.want) {
					t.Errorf("Flush: %v, want an error wrapping %v", err, c.want)
				}
				if err := w.Close(); !errors.Is(err, c.want) {
					t.Errorf("Close: %v, want an error wrapping %v", err, c.want)
				}
			})
		}
	}
}
