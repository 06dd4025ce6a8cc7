package generated

import (
	"bytes"
	"io"
	"testing"

	"github.com/pqgen/pqgen/runtime"
)

func benchWrite[T any](b *testing.B, rows []T, newW func(io.Writer) (interface {
	Write([]T) (int, error)
	Close() error
}, error)) []byte {
	var buf bytes.Buffer
	b.ReportAllocs()
	for b.Loop() {
		buf.Reset()
		w, err := newW(&buf)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := w.Write(rows); err != nil {
			b.Fatal(err)
		}
		if err := w.Close(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(rows))*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
	return buf.Bytes()
}

func BenchmarkWriteEvents(b *testing.B) {
	rows := events(10000)
	benchWrite(b, rows, func(w io.Writer) (interface {
		Write([]Event) (int, error)
		Close() error
	}, error) {
		return NewEventWriter(w)
	})
}

func BenchmarkReadEvents(b *testing.B) {
	rows := events(10000)
	benchReadBatches(b, writeAll(b, rows, nil, NewEventWriter), len(rows), make([]Event, 1024), NewEventReader)
}

// namedOrders is a set of orders of the benchmarks, by name.
type namedOrders struct {
	name string
	rows []Order
}

// orderSets returns the orders of BenchmarkWriteOrders and
// BenchmarkReadOrders: small, 5,000 orders with their own maps (0 to 3
// entries), and 64, the same with every order's attrs and every line's
// options up to 64 entries (bigMaps).
func orderSets() []namedOrders {
	small := orders(5000)
	big := orders(5000)
	bigMaps(big, nil)
	return []namedOrders{{"small", small}, {"64", big}}
}

// BenchmarkWriteOrders writes orders with their maps' entries sorted (the
// default) and in iteration order (WithSortedMaps(false)): maps/small has
// the orders' own maps (0 to 3 entries), maps/64 gives every order's
// attrs and every line's options up to 64 entries.
func BenchmarkWriteOrders(b *testing.B) {
	for _, rows := range orderSets() {
		for _, sorted := range []bool{true, false} {
			name := "maps=" + rows.name + "/sorted=true"
			if !sorted {
				name = "maps=" + rows.name + "/sorted=false"
			}
			b.Run(name, func(b *testing.B) {
				benchWrite(b, rows.rows, func(w io.Writer) (interface {
					Write([]Order) (int, error)
					Close() error
				}, error) {
					return NewOrderWriter(w, runtime.WithSortedMaps(sorted))
				})
			})
		}
	}
}

// BenchmarkReadOrders reads orders back: maps=small with the orders' own
// maps (0 to 3 entries), maps=64 with every order's attrs and every
// line's options up to 64 entries (as BenchmarkWriteOrders), which the
// reader makes at their size (runtime.MapSize).
func BenchmarkReadOrders(b *testing.B) {
	for _, rows := range orderSets() {
		b.Run("maps="+rows.name, func(b *testing.B) {
			data := writeAll(b, rows.rows, nil, NewOrderWriter)
			benchReadBatches(b, data, len(rows.rows), make([]Order, 1024), NewOrderReader)
		})
	}
}

// BenchmarkWriteParallel writes flat Events and nested Orders with
// WithParallelism 1 and 2 (issue 17: the pipelined writer); the files are
// the same bytes either way (TestSameBytes).
func BenchmarkWriteParallel(b *testing.B) {
	evs, ords := events(100000), orders(20000)
	for _, p := range []int{1, 2} {
		name := "/parallelism=1"
		if p == 2 {
			name = "/parallelism=2"
		}
		b.Run("type=events"+name, func(b *testing.B) {
			benchWrite(b, evs, func(w io.Writer) (interface {
				Write([]Event) (int, error)
				Close() error
			}, error) {
				return NewEventWriter(w, runtime.WithParallelism(p))
			})
		})
		b.Run("type=orders"+name, func(b *testing.B) {
			benchWrite(b, ords, func(w io.Writer) (interface {
				Write([]Order) (int, error)
				Close() error
			}, error) {
				return NewOrderWriter(w, runtime.WithParallelism(p))
			})
		})
	}
}
