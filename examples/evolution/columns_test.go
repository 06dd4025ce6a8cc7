package evolution

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	pqrt "github.com/pqgen/pqgen/runtime"
)

// TestWithColumnsOfTheType: WithColumns takes the paths of the reader's
// type: a field renamed under its field id selects the file's column of
// that id, a field the file lacks reads as null, and a path of neither
// fails at open. The file's own paths still select. Read and the parallel
// ReadFlatV2File give the same rows.
func TestWithColumnsOfTheType(t *testing.T) {
	var v1 []FlatV1
	for i := range 9000 { // ReadFlatV2File reads in parallel from 8,192 rows
		v1 = append(v1, flatV1(i%rows))
	}
	data := writeRows(t, NewFlatV1Writer, v1, pqrt.WithPageRowLimit(1000), pqrt.WithRowGroupSize(256<<10))
	path := filepath.Join(t.TempDir(), "v1.parquet")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		cols []string
		keep func(full FlatV2) FlatV2
	}{
		{[]string{"new_name", "added", "int_f"}, func(f FlatV2) FlatV2 { return FlatV2{NewName: f.NewName, IntF: f.IntF} }},
		{[]string{"old_name", "i8"}, func(f FlatV2) FlatV2 { return FlatV2{NewName: f.NewName, I8: f.I8} }},
	} {
		var want []FlatV2
		for i, v := range v1 {
			want = append(want, c.keep(flatV2(v, i%rows)))
		}
		r, err := NewFlatV2Reader(bytes.NewReader(data), int64(len(data)), pqrt.WithColumns(c.cols...))
		if err != nil {
			t.Fatalf("%v: %v", c.cols, err)
		}
		sameRows(t, fmt.Sprint(c.cols, " Read"), want, readAll[FlatV2](t, r))
		got, err := ReadFlatV2File(path, pqrt.WithColumns(c.cols...), pqrt.WithReadParallelism(2))
		if err != nil {
			t.Fatalf("%v: %v", c.cols, err)
		}
		sameRows(t, fmt.Sprint(c.cols, " ReadFlatV2File"), want, got)
	}
	_, err := NewFlatV2Reader(bytes.NewReader(data), int64(len(data)), pqrt.WithColumns("i8", "nope"))
	_, err2 := ReadFlatV2File(path, pqrt.WithColumns("nope"), pqrt.WithReadParallelism(2))
	for _, err := range []error{err, err2} {
		if !errors.Is(err, pqrt.ErrColumn) || !strings.Contains(err.Error(), `no column "nope" in the file or in the requested schema`) {
			t.Errorf("a path of no column: %v", err)
		}
	}
}

// sameRows fails t at the first row of got that is not want's.
func sameRows(t *testing.T, what string, want, got []FlatV2) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d rows, want %d", what, len(got), len(want))
	}
	for i := range want {
		if !reflect.DeepEqual(want[i], got[i]) {
			t.Fatalf("%s: row %d (-want +got):\n%s", what, i, cmp.Diff(want[i], got[i], cmpDec))
		}
	}
}
