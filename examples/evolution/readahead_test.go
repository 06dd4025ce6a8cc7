package evolution

import (
	"bytes"
	"errors"
	"io"
	"reflect"
	"testing"

	"github.com/google/go-cmp/cmp"

	pqrt "github.com/pqgen/pqgen/runtime"
)

// readAheadRows is enough rows for reads of readAheadBatch rows to be
// read ahead (runtime.WithReadParallelism) for many batches.
const (
	readAheadRows  = 12_000
	readAheadBatch = 2048
)

// readBatches reads every row of r in Reads of batch rows.
func readBatches[T any](t *testing.T, batch int, r interface {
	Read([]T) (int, error)
	Close() error
}) []T {
	t.Helper()
	var out []T
	buf := make([]T, batch)
	for {
		n, err := r.Read(buf)
		out = append(out, buf[:n]...)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestEvolvedReadAhead: files of small pages read into the evolved types
// through Bind's conversions (widening, rescaling, integers as floats,
// renamed and added fields, legacy layouts) give the same rows with
// runtime.WithReadParallelism(2) as without it. FlatV2 and NestedV2 have
// columns whose levels change (nullable fields, added ones), which are
// not read ahead; SparkV2's columns convert only (INT96 into TIMESTAMP),
// so its batches and pages are read ahead, and its pages convert in the
// order read.
func TestEvolvedReadAhead(t *testing.T) {
	ts := sparkTimes(40_000, false)
	spark := sparkFile(t, ts, pqrt.WithPageRowLimit(500))
	var sparkSeq []SparkV2
	for _, par := range []int{1, 2} {
		r, err := NewSparkV2Reader(bytes.NewReader(spark), int64(len(spark)), pqrt.WithReadParallelism(par))
		if err != nil {
			t.Fatal(err)
		}
		got := readBatches[SparkV2](t, 8192, r)
		if len(got) != len(ts) {
			t.Fatalf("parallelism %d: %d Spark rows, want %d", par, len(got), len(ts))
		}
		for i, x := range got {
			if !x.At.Equal(ts[i]) || (i%3 == 0) != (x.Opt == nil) || x.Opt != nil && !x.Opt.Equal(ts[i]) {
				t.Fatalf("parallelism %d: Spark row %d: %v, want %v", par, i, x, ts[i])
			}
		}
		if par == 1 {
			sparkSeq = got
		} else if !reflect.DeepEqual(got, sparkSeq) {
			t.Fatal("Spark rows read ahead differ from the sequential ones")
		}
	}

	var flat1 []FlatV1
	var flatWant []FlatV2
	var nest1 []NestedV1
	var nestWant []NestedV2
	for i := range readAheadRows {
		// The rows of the other tests, repeated: their values fit
		// their columns.
		flat1 = append(flat1, flatV1(i%rows))
		flatWant = append(flatWant, flatV2(flat1[i], i%rows))
		nest1 = append(nest1, nestedV1(i))
		nestWant = append(nestWant, nestedV2(nest1[i]))
	}
	for name, opts := range writerOptions {
		flat := writeRows(t, NewFlatV1Writer, flat1, opts...)
		nest := writeRows(t, NewNestedV1Writer, nest1, opts...)
		var flatSeq []FlatV2
		var nestSeq []NestedV2
		for _, par := range []int{1, 2} {
			r, err := NewFlatV2Reader(bytes.NewReader(flat), int64(len(flat)), pqrt.WithReadParallelism(par))
			if err != nil {
				t.Fatal(err)
			}
			gotFlat := readBatches[FlatV2](t, readAheadBatch, r)
			n, err := NewNestedV2Reader(bytes.NewReader(nest), int64(len(nest)), pqrt.WithReadParallelism(par))
			if err != nil {
				t.Fatal(err)
			}
			gotNest := readBatches[NestedV2](t, readAheadBatch, n)
			if par == 1 {
				// The sequential reads give the rows of the other tests.
				if len(gotFlat) != readAheadRows || len(gotNest) != readAheadRows {
					t.Fatalf("%s: %d and %d rows", name, len(gotFlat), len(gotNest))
				}
				if d := cmp.Diff(flatWant[:rows], gotFlat[:rows], cmpDec); d != "" {
					t.Fatalf("%s: flat rows (-want +got):\n%s", name, d)
				}
				if d := cmp.Diff(nestWant[:rows], gotNest[:rows]); d != "" {
					t.Fatalf("%s: nested rows (-want +got):\n%s", name, d)
				}
				flatSeq, nestSeq = gotFlat, gotNest
				continue
			}
			// Read ahead: the very values of the sequential reads.
			if !reflect.DeepEqual(gotFlat, flatSeq) {
				t.Fatalf("%s: flat rows read ahead differ: %s", name, cmp.Diff(flatSeq, gotFlat))
			}
			if !reflect.DeepEqual(gotNest, nestSeq) {
				t.Fatalf("%s: nested rows read ahead differ: %s", name, cmp.Diff(nestSeq, gotNest))
			}
		}
	}
}
