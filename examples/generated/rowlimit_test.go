package generated

import (
	"bytes"
	"fmt"
	"io"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/pqgen/pqgen/runtime"
)

// TestRowGroupRowLimit: under runtime.WithRowGroupRowLimit, generated
// writers end row groups at exactly the limit, whatever the split of the
// rows between Write calls and under WithParallelism, with the same bytes
// each way, and the rows read back are the rows written. Limits below,
// at, between and above the batch size (1,024 rows, or 256 under Event's
// byte check) are tried, with Event (flat) and Order (nested lists and
// maps) rows.
func TestRowGroupRowLimit(t *testing.T) {
	events, ords := SortedEvents(5000), orders(3000)
	for _, limit := range []int{1, 100, 256, 1000, 1024, 1500, 4096} {
		t.Run(fmt.Sprint(limit), func(t *testing.T) {
			opts := []runtime.WriterOption{runtime.WithRowGroupRowLimit(limit)}
			checkRowLimit(t, events, limit, opts, NewEventWriter, NewEventReader)
			if limit >= 100 { // a row group per Order row takes long
				checkRowLimit(t, ords, limit, opts, NewOrderWriter, NewOrderReader)
			}
		})
	}
}

func checkRowLimit[T any, W interface {
	Write([]T) (int, error)
	Close() error
}, R interface {
	Read([]T) (int, error)
}](t *testing.T, rows []T, limit int, opts []runtime.WriterOption, newW func(io.Writer, ...runtime.WriterOption) (W, error), newR func(io.ReaderAt, int64, ...runtime.ReaderOption) (R, error)) {
	t.Helper()
	want := writeSplit(t, rows, []int{len(rows)}, opts, newW)
	for _, sizes := range [][]int{{1, 999}, {7, 300, 1, 255}, {1024}, {1025}} {
		if got := writeSplit(t, rows, sizes, opts, newW); !bytes.Equal(got, want) {
			t.Fatalf("limit %d, Write calls of %v rows: other bytes", limit, sizes)
		}
	}
	if got := writeSplit(t, rows, []int{333}, append(opts, runtime.WithParallelism(2)), newW); !bytes.Equal(got, want) {
		t.Fatalf("limit %d, WithParallelism(2): other bytes", limit)
	}
	f, err := runtime.OpenFile(bytes.NewReader(want), int64(len(want)))
	if err != nil {
		t.Fatal(err)
	}
	for i, rg := range f.Meta.RowGroups {
		if n := min(limit, len(rows)-i*limit); rg.NumRows != int64(n) {
			t.Fatalf("limit %d: row group %d holds %d rows, want %d", limit, i, rg.NumRows, n)
		}
	}
	if n := (len(rows) + limit - 1) / limit; len(f.Meta.RowGroups) != n {
		t.Fatalf("limit %d: %d row groups, want %d", limit, len(f.Meta.RowGroups), n)
	}
	r, err := newR(runtime.MemoryFile(want), int64(len(want)))
	if err != nil {
		t.Fatal(err)
	}
	back := make([]T, len(rows)+1)
	k := 0
	for k < len(back) {
		n, err := r.Read(back[k:])
		k += n
		if err != nil {
			break
		}
	}
	if diff := cmp.Diff(rows, back[:k], cmpOpts); diff != "" {
		t.Fatalf("limit %d: rows read back differ (-want +got):\n%s", limit, diff)
	}
}
