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
// sequential read (run with -race). The batches make at least 16,384 rows
// × columns (the runtime's readParallelMinSlots; Event has 12 columns,
// Order 23, Logical 48, Deep 10), so that Reads do go parallel.
func TestReadParallelism(t *testing.T) {
	ev := writeAll(t, sortedEvents(20000), []runtime.WriterOption{runtime.WithRowGroupSize(256 << 10)}, NewEventWriter)
	or := writeAll(t, orders(6000), []runtime.WriterOption{runtime.WithRowGroupSize(64 << 10)}, NewOrderWriter)
	lg := writeAll(t, logicals(2000), nil, NewLogicalWriter)
	dp := writeAll(t, deeps(6000), nil, NewDeepWriter)
	t0, t1 := eventWindow(20000)
	for _, p := range []int{2, 5} {
		par := runtime.WithReadParallelism(p)
		check := func(name string, seq, got any) {
			t.Helper()
			if !reflect.DeepEqual(seq, got) {
				t.Fatalf("parallelism %d: %s rows differ", p, name)
			}
		}
		check("events", readAllWith(t, ev, 2000, NewEventReader), readAllWith(t, ev, 2000, NewEventReader, par))
		filter := runtime.WithFilter(runtime.Or(EventWhere.At.Between(t0, t1), EventWhere.Kind.Eq("refund")))
		check("filtered events", readAllWith(t, ev, 1700, NewEventReader, filter), readAllWith(t, ev, 1700, NewEventReader, filter, par))
		check("orders", readAllWith(t, or, 1000, NewOrderReader), readAllWith(t, or, 1000, NewOrderReader, par))
		check("logical", readAllWith(t, lg, 500, NewLogicalReader), readAllWith(t, lg, 500, NewLogicalReader, par))
		check("deep", readAllWith(t, dp, 1700, NewDeepReader), readAllWith(t, dp, 1700, NewDeepReader, par))
	}
	if _, err := NewEventReader(bytes.NewReader(ev), int64(len(ev)), runtime.WithReadParallelism(0)); err == nil {
		t.Fatal("WithReadParallelism(0) accepted")
	}
}

// TestReadParallelismSmallBatches: a Read of few rows × columns decodes
// its columns one after the other, without the goroutine and allocations
// of a parallel one, which cost more than they save there.
func TestReadParallelismSmallBatches(t *testing.T) {
	data := writeAll(t, sortedEvents(20000), nil, NewEventWriter)
	allocs := func(p, batch, runs int) float64 {
		r, err := NewEventReader(bytes.NewReader(data), int64(len(data)), runtime.WithReadParallelism(p))
		if err != nil {
			t.Fatal(err)
		}
		buf := make([]Event, batch)
		return testing.AllocsPerRun(runs, func() {
			if n, err := r.Read(buf); n != batch || err != nil {
				t.Fatalf("%d rows, %v", n, err)
			}
		})
	}
	if seq, par := allocs(1, 16, 100), allocs(2, 16, 100); par != seq {
		t.Fatalf("16-row reads: %v allocations per Read with 2 columns at once, %v one after the other", par, seq)
	}
	// Reads large enough go parallel (this guards the test above).
	if seq, par := allocs(1, 1400, 10), allocs(2, 1400, 10); par <= seq {
		t.Fatalf("1400-row reads: %v allocations per Read with 2 columns at once, %v one after the other", par, seq)
	}
}

// BenchmarkReadParallelism reads 200,000 flat events (zstd) and 40,000
// nested orders (snappy) in batches of 8192 rows into one reused slice,
// with 1 and 2 columns decoded at once; run it with -cpu=2. It measures
// Read alone: the rows are not kept (readAllWith's growing result would
// take as long as the reads).
func BenchmarkReadParallelism(b *testing.B) {
	ev := writeAll(b, sortedEvents(200_000), []runtime.WriterOption{runtime.WithCompression(meta.Zstd, 0)}, NewEventWriter)
	or := writeAll(b, orders(40_000), []runtime.WriterOption{runtime.WithCompression(meta.Snappy, 0)}, NewOrderWriter)
	for _, p := range []int{1, 2} {
		b.Run(fmt.Sprintf("type=events/p=%d", p), func(b *testing.B) {
			benchReadBatches(b, ev, 200_000, make([]Event, 8192), NewEventReader, runtime.WithReadParallelism(p))
		})
		b.Run(fmt.Sprintf("type=orders/p=%d", p), func(b *testing.B) {
			benchReadBatches(b, or, 40_000, make([]Order, 8192), NewOrderReader, runtime.WithReadParallelism(p))
		})
	}
}

// benchReadBatches reads the rows rows of data with NewTReader and opts
// into buf, again and again, failing on a short read.
func benchReadBatches[T any, R interface {
	Read([]T) (int, error)
}](b *testing.B, data []byte, rows int, buf []T, open func(io.ReaderAt, int64, ...runtime.ReaderOption) (R, error), opts ...runtime.ReaderOption) {
	b.ReportAllocs()
	for b.Loop() {
		r, err := open(bytes.NewReader(data), int64(len(data)), opts...)
		if err != nil {
			b.Fatal(err)
		}
		got := 0
		for {
			n, err := r.Read(buf)
			got += n
			if err == io.EOF {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
		}
		if got != rows {
			b.Fatalf("%d rows read, %d written", got, rows)
		}
	}
	b.ReportMetric(float64(rows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}
