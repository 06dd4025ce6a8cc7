package generated

import (
	"bytes"
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
