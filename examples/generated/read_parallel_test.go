package generated

import (
	"bytes"
	"fmt"
	"io"
	"reflect"
	"testing"

	"github.com/pqgen/pqgen/runtime"
	"github.com/pqgen/pqgen/runtime/meta"
)

// readAllWith reads every row of data with NewTReader and opts, in batches
// of batch rows.
func readAllWith[T any, R interface {
	Read([]T) (int, error)
}](t testing.TB, data []byte, batch int, open func(io.ReaderAt, int64, ...runtime.ReaderOption) (R, error), opts ...runtime.ReaderOption) []T {
	t.Helper()
	r, err := open(bytes.NewReader(data), int64(len(data)), opts...)
	if err != nil {
		t.Fatal(err)
	}
	var out []T
	buf := make([]T, batch)
	for {
		n, err := r.Read(buf)
		out = append(out, buf[:n]...)
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
	}
}

// TestReadParallelism reads flat, nested and every-type rows, filtered or
// not, with columns decoded concurrently and checks they equal the
// sequential read (run with -race).
func TestReadParallelism(t *testing.T) {
	ev := writeAll(t, sortedEvents(20000), []runtime.WriterOption{runtime.WithRowGroupSize(256 << 10)}, NewEventWriter)
	or := writeAll(t, orders(3000), []runtime.WriterOption{runtime.WithRowGroupSize(64 << 10)}, NewOrderWriter)
	lg := writeAll(t, logicals(2000), nil, NewLogicalWriter)
	dp := writeAll(t, deeps(2000), nil, NewDeepWriter)
	t0, t1 := eventWindow(20000)
	for _, p := range []int{2, 5} {
		par := runtime.WithReadParallelism(p)
		check := func(name string, seq, got any) {
			t.Helper()
			if !reflect.DeepEqual(seq, got) {
				t.Fatalf("parallelism %d: %s rows differ", p, name)
			}
		}
		check("events", readAllWith(t, ev, 1000, NewEventReader), readAllWith(t, ev, 1000, NewEventReader, par))
		filter := runtime.WithFilter(runtime.Or(EventWhere.At.Between(t0, t1), EventWhere.Kind.Eq("refund")))
		check("filtered events", readAllWith(t, ev, 700, NewEventReader, filter), readAllWith(t, ev, 700, NewEventReader, filter, par))
		check("orders", readAllWith(t, or, 333, NewOrderReader), readAllWith(t, or, 333, NewOrderReader, par))
		check("logical", readAllWith(t, lg, 500, NewLogicalReader), readAllWith(t, lg, 500, NewLogicalReader, par))
		check("deep", readAllWith(t, dp, 256, NewDeepReader), readAllWith(t, dp, 256, NewDeepReader, par))
	}
	if _, err := NewEventReader(bytes.NewReader(ev), int64(len(ev)), runtime.WithReadParallelism(0)); err == nil {
		t.Fatal("WithReadParallelism(0) accepted")
	}
}

// BenchmarkReadParallelism reads 200,000 events in batches of 8192 rows
// with 1 and 2 columns decoded at once.
func BenchmarkReadParallelism(b *testing.B) {
	data := writeAll(b, sortedEvents(200_000), []runtime.WriterOption{runtime.WithCompression(meta.Zstd, 0)}, NewEventWriter)
	for _, p := range []int{1, 2} {
		b.Run(fmt.Sprintf("p=%d", p), func(b *testing.B) {
			for b.Loop() {
				readAllWith(b, data, 8192, NewEventReader, runtime.WithReadParallelism(p))
			}
			b.ReportMetric(200_000*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
		})
	}
}
