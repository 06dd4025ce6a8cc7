package evolution

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	pqrt "github.com/pqgen/pqgen/runtime"
)

// readAheadRows is enough rows for Reads of readAheadBatches rows to be
// read ahead (runtime.WithReadParallelism) for many batches; the Reads
// of other sizes than the one before them split and extend the batch
// read ahead.
const readAheadRows = 12_000

var readAheadBatches = []int{2048, 2048, 700, 3000}

// readBatches reads every row of r in Reads of batches[i] rows, i
// cycling.
func readBatches[T any](t *testing.T, r interface {
	Read([]T) (int, error)
	Close() error
}, batches ...int) []T {
	t.Helper()
	var out []T
	buf := make([]T, slices.Max(batches))
	for i := 0; ; i++ {
		n, err := r.Read(buf[:batches[i%len(batches)]])
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
// runtime.WithReadParallelism(2) as without it, their batches and pages
// read ahead: FlatV2 and NestedV2 change levels (nullable fields, legacy
// layouts), in Reads of several sizes; SparkV2's pages convert (INT96
// into TIMESTAMP), in the order read.
func TestEvolvedReadAhead(t *testing.T) {
	ts := sparkTimes(40_000, false)
	spark := sparkFile(t, ts, pqrt.WithPageRowLimit(500))
	var sparkSeq []SparkV2
	for _, par := range []int{1, 2} {
		r, err := NewSparkV2Reader(bytes.NewReader(spark), int64(len(spark)), pqrt.WithReadParallelism(par))
		if err != nil {
			t.Fatal(err)
		}
		got := readBatches[SparkV2](t, r, 8192)
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
			gotFlat := readBatches[FlatV2](t, r, readAheadBatches...)
			n, err := NewNestedV2Reader(bytes.NewReader(nest), int64(len(nest)), pqrt.WithReadParallelism(par))
			if err != nil {
				t.Fatal(err)
			}
			gotNest := readBatches[NestedV2](t, n, readAheadBatches...)
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

// TestEvolvedReadAheadNull: a null read into a required field
// (runtime.WithOptionalAsRequired) fails the same Read, with the same
// error naming the row, with runtime.WithReadParallelism(2) as without,
// for a top-level field and a list element, with Reads of 8,192 rows
// (each read ahead: OptV2 has three columns) and with Reads alternating
// 8,192 and 700 rows, where a Read of 700 rows takes its rows from the
// batch read ahead by the one before, and the nulls at rows 36,000 and
// 37,000 lie past them: that Read returns its rows, the next the error.
func TestEvolvedReadAheadNull(t *testing.T) {
	var v1 []OptV1
	for i := range 40_000 {
		a, s, e := int32(i), strings.Repeat("s", i%5), int32(-i)
		v1 = append(v1, OptV1{A: &a, S: &s, L: []*int32{&e, &e}[:i%3]})
	}
	for _, sizes := range [][]int{{8192}, {8192, 700}} {
		for _, c := range append(optNulls(29123, 33208), optNulls(36000, 37001)...) {
			rs := append([]OptV1(nil), v1...)
			rs[c.row].L = append([]*int32(nil), rs[c.row].L...)
			c.mutate(&rs[c.row])
			data := writeRows(t, NewOptV1Writer, rs, pqrt.WithPageRowLimit(50))
			var seq string
			for _, par := range []int{1, 2} {
				r, err := NewOptV2Reader(bytes.NewReader(data), int64(len(data)), pqrt.WithOptionalAsRequired(true), pqrt.WithReadParallelism(par))
				if err != nil {
					t.Fatal(err)
				}
				rows := 0
				for i := 0; ; i++ {
					n, err := r.Read(make([]OptV2, sizes[i%len(sizes)]))
					rows += n
					if err != nil {
						if !errors.Is(err, pqrt.ErrValue) || !strings.Contains(err.Error(), c.msg) {
							t.Fatalf("Reads of %v rows, parallelism %d: %v, want an error containing %s", sizes, par, err, c.msg)
						}
						got := fmt.Sprintf("%d rows in %d Reads, then %v", rows, i, err)
						if par == 1 {
							seq = got
						} else if got != seq {
							t.Fatalf("Reads of %v rows read ahead: %s; sequentially: %s", sizes, got, seq)
						}
						break
					}
				}
			}
		}
	}
}
