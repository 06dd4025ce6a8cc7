package generated

import (
	"bytes"
	"io"
	"testing"
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
	var buf bytes.Buffer
	w, _ := NewEventWriter(&buf)
	w.Write(rows) //nolint:errcheck
	w.Close()     //nolint:errcheck
	data := buf.Bytes()
	out := make([]Event, 1024)
	b.ReportAllocs()
	for b.Loop() {
		r, err := NewEventReader(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			b.Fatal(err)
		}
		for {
			if _, err := r.Read(out); err != nil {
				break
			}
		}
	}
	b.ReportMetric(float64(len(rows))*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}

func BenchmarkWriteOrders(b *testing.B) {
	rows := orders(5000)
	benchWrite(b, rows, func(w io.Writer) (interface {
		Write([]Order) (int, error)
		Close() error
	}, error) {
		return NewOrderWriter(w)
	})
}

func BenchmarkReadOrders(b *testing.B) {
	rows := orders(5000)
	var buf bytes.Buffer
	w, _ := NewOrderWriter(&buf)
	w.Write(rows) //nolint:errcheck
	w.Close()     //nolint:errcheck
	data := buf.Bytes()
	out := make([]Order, 1024)
	b.ReportAllocs()
	for b.Loop() {
		r, err := NewOrderReader(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			b.Fatal(err)
		}
		for {
			if _, err := r.Read(out); err != nil {
				break
			}
		}
	}
	b.ReportMetric(float64(len(rows))*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}
