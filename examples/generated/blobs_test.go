package generated

import (
	"reflect"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/pqgen/pqgen/runtime"
)

// TestEmptyBytesReadBack: a []byte where nil and empty are one value
// (required, behind a pointer, list elements, map values) reads an empty
// value back as nil, the zero value, as empty lists and maps read; one
// tagged optional keeps null (nil) and empty ([]byte{}) apart. Checked
// with reflect.DeepEqual, which tells nil from empty, for Read and the
// parallel reads.
func TestEmptyBytesReadBack(t *testing.T) {
	empty := []byte{}
	in := []Blobs{
		{},
		{Req: []byte{}, Opt: []byte{}, Ptr: &empty, List: [][]byte{nil, {}, {1}}, Map: map[string][]byte{"a": {}, "b": {2}}},
		{Req: []byte{3}, Opt: []byte{4}, Ptr: &[]byte{5}, List: [][]byte{}, Map: map[string][]byte{}},
	}
	var nilBytes []byte
	want := []Blobs{
		{},
		{Opt: []byte{}, Ptr: &nilBytes, List: [][]byte{nil, nil, {1}}, Map: map[string][]byte{"a": nil, "b": {2}}},
		{Req: []byte{3}, Opt: []byte{4}, Ptr: &[]byte{5}},
	}
	var rows []Blobs
	for i := range 12000 { // several pages, and batches the parallel reader splits
		rows = append(rows, in[i%3])
	}
	file := writeAll(t, rows, []runtime.WriterOption{runtime.WithPageRowLimit(700)}, NewBlobsWriter)
	for _, opts := range [][]runtime.ReaderOption{nil, {runtime.WithReadParallelism(2)}} {
		got := readAllWith(t, file, 6000, NewBlobsReader, opts...)
		if len(got) != len(rows) {
			t.Fatalf("%d rows, want %d", len(got), len(rows))
		}
		for i := range got {
			if !reflect.DeepEqual(got[i], want[i%3]) {
				t.Fatalf("row %d (%d options): %#v\nwant %#v\n%s", i, len(opts), got[i], want[i%3], cmp.Diff(want[i%3], got[i]))
			}
		}
	}
}
