package bench

import (
	"bytes"
	"strconv"
	"testing"

	"github.com/pqgen/pqgen/runtime"
)

// BenchmarkWriteRowGroups writes rows in small row groups
// (WithRowGroupRowLimit): flat rows in groups of 1,000 and 20,000, nested
// in groups of 1,000, wide in groups of 250, snappy, with pqgen's
// sequential writer. What a writer does once a chunk (judging its
// dictionary, picking its encoding, writing its indexes) weighs here,
// where the suite's single row groups hide it.
func BenchmarkWriteRowGroups(b *testing.B) {
	flat, nested, wide := flatRows(200_000), contactRows(100_000), wideRows(10_000)
	run := func(name string, write func(*bytes.Buffer) error) {
		b.Run(name, func(b *testing.B) {
			var out bytes.Buffer
			b.ReportAllocs()
			for range b.N {
				out.Reset()
				if err := write(&out); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(out.Len()), "file-B")
		})
	}
	for _, rows := range []int{1000, 20_000} {
		run("type=flat/rows="+strconv.Itoa(rows), func(out *bytes.Buffer) error {
			return writeAll(NewFlatWriter(out, runtime.WithRowGroupRowLimit(rows)))(flat)
		})
	}
	run("type=nested/rows=1000", func(out *bytes.Buffer) error {
		return writeAll(NewContactWriter(out, runtime.WithRowGroupRowLimit(1000)))(nested)
	})
	run("type=wide/rows=250", func(out *bytes.Buffer) error {
		return writeAll(NewWideWriter(out, runtime.WithRowGroupRowLimit(250)))(wide)
	})
}

// writeAll returns a function that writes rows with w and closes it.
func writeAll[T any, W interface {
	Write([]T) (int, error)
	Close() error
}](w W, err error) func([]T) error {
	return func(rows []T) error {
		if err != nil {
			return err
		}
		if _, err := w.Write(rows); err != nil {
			return err
		}
		return w.Close()
	}
}
