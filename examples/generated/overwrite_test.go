package generated

import (
	"bytes"
	"io"
	"testing"

	"github.com/pqgen/pqgen/runtime"
)

// TestReadOverwritesRows reads into rows that hold values already, as a
// caller reusing its batch does: Read must leave exactly the file's rows,
// nulls included, with every column read and with a projection (whose
// other fields must come back zero), sequentially and with two-part
// assembly.
func TestReadOverwritesRows(t *testing.T) {
	rows := logicals(3000)
	file := writeAll(t, rows, nil, NewLogicalWriter)
	// dirty has every field set, the optional ones non-null.
	dirty := rows[0]
	dirty.OptBytes = []byte{9}
	dirty.Str, dirty.Bin, dirty.I32 = "dirty", []byte("dirty"), 7
	projected := make([]Logical, len(rows))
	for i, r := range rows {
		projected[i] = Logical{I32: r.I32, OptTime: r.OptTime}
	}
	for _, c := range []struct {
		name string
		opts []runtime.ReaderOption
		want []Logical
	}{
		{"all", nil, rows},
		{"all/parallel", []runtime.ReaderOption{runtime.WithReadParallelism(2)}, rows},
		{"projected", []runtime.ReaderOption{runtime.WithColumns("i32", "opt_time")}, projected},
		{"projected/parallel", []runtime.ReaderOption{runtime.WithColumns("i32", "opt_time"), runtime.WithReadParallelism(2)}, projected},
	} {
		t.Run(c.name, func(t *testing.T) {
			r, err := NewLogicalReader(bytes.NewReader(file), int64(len(file)), c.opts...)
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			batch := make([]Logical, 1024)
			var got []Logical
			for {
				for i := range batch {
					batch[i] = dirty
				}
				n, err := r.Read(batch)
				got = append(got, batch[:n]...)
				if err == io.EOF {
					break
				}
				if err != nil {
					t.Fatal(err)
				}
			}
			sameLogicals(t, c.want, got)
		})
	}
}
