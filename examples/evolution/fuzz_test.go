package evolution

import (
	"bytes"
	"testing"
	"time"

	pqrt "github.com/pqgen/pqgen/runtime"
)

// FuzzReadEvolved reads arbitrary bytes through the conversions of
// schema evolution (widened integers, integers as floats, FLOAT16, DATE
// and units to finer ones, rescaled DECIMALs of every physical type,
// strings as bytes, synthesized and checked definition levels, INT96 to
// timestamps, coarser units): whatever the file holds, reads end with an
// error (io.EOF or another), never a panic or a hang. Seeds: FlatV1, NestedV1,
// OptV1 and SparkV1 files.
func FuzzReadEvolved(f *testing.F) {
	opts := []pqrt.WriterOption{pqrt.WithPageRowLimit(7), pqrt.WithDictionary(false)}
	var flat []FlatV1
	var nested []NestedV1
	for i := range 20 {
		flat = append(flat, flatV1(i))
		nested = append(nested, nestedV1(i))
	}
	f.Add(byte(0), writeRows(f, NewFlatV1Writer, flat, opts...))
	f.Add(byte(1), writeRows(f, NewNestedV1Writer, nested, opts...))
	f.Add(byte(2), sparkFile(f, sparkTimes(20, true)))
	f.Add(byte(3), sparkFile(f, []time.Time{time.Unix(0, 0), time.Date(9999, 1, 1, 0, 0, 0, 0, time.UTC)}))
	f.Fuzz(func(t *testing.T, kind byte, file []byte) {
		r := bytes.NewReader(file)
		n := int64(len(file))
		limits := []pqrt.ReaderOption{pqrt.WithMaxPageSize(1 << 20), pqrt.WithMaxPageValues(1 << 16), pqrt.WithOptionalAsRequired(kind&4 != 0)}
		switch kind % 4 {
		case 0:
			rd, err := NewFlatV2Reader(r, n, limits...)
			readToEnd(t, rd, err, make([]FlatV2, 5))
		case 1:
			rd, err := NewNestedV2Reader(r, n, limits...)
			readToEnd(t, rd, err, make([]NestedV2, 5))
		case 2:
			rd, err := NewSparkV2Reader(r, n, limits...)
			readToEnd(t, rd, err, make([]SparkV2, 5))
		default:
			rd, err := NewSparkMicrosReader(r, n, append(limits, pqrt.WithCoarserTimeUnits(true))...)
			readToEnd(t, rd, err, make([]SparkMicros, 5))
		}
	})
}

// readToEnd reads r in batches of len(rows) until an error, or for at
// most 10,000 batches (a few bytes of levels can hold many rows).
func readToEnd[T any, R interface{ Read([]T) (int, error) }](t *testing.T, r R, err error, rows []T) {
	if err != nil {
		return
	}
	for range 10_000 {
		n, err := r.Read(rows)
		if n < 0 || n > len(rows) {
			t.Fatalf("Read returned %d rows into %d", n, len(rows))
		}
		if err != nil {
			return
		}
	}
}
