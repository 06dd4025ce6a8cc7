package interop

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/pqgen/pqgen/peers/internal/nodejs"
	"github.com/pqgen/pqgen/runtime"
	"github.com/pqgen/pqgen/runtime/meta"
)

// rangeLog is an io.ReaderAt recording where each read starts.
type rangeLog struct {
	r      io.ReaderAt
	starts []int64
}

func (l *rangeLog) ReadAt(p []byte, off int64) (int, error) {
	l.starts = append(l.starts, off)
	return l.r.ReadAt(p, off)
}

// TestWasmListPageFilter reads a list column of a file arrow-rs wrote
// (parquet-wasm, js/listpages.mjs), with pages of the id column kept by a
// page filter: the elements of the kept rows come back exactly, and the
// list column's pages holding none of them are passed over by the offset
// index and arrow-rs's repetition level histograms, without a read in
// them. Its pages break at other rows than the id column's.
func TestWasmListPageFilter(t *testing.T) {
	node := nodejs.Need(t, "the page filter over an arrow-rs list column", "parquet-wasm", "apache-arrow")
	path := filepath.Join(t.TempDir(), "listpages.parquet")
	nodejs.Run(t, node, "listpages.mjs", path)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	fr, err := runtime.NewFileReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	if fr.File().Schema.Leaves[1].MaxRep != 1 || len(fr.File().Meta.RowGroups) != 1 {
		t.Fatalf("unexpected layout: %d row groups, tags repetition %d", len(fr.File().Meta.RowGroups), fr.File().Schema.Leaves[1].MaxRep)
	}
	ids, err := fr.OffsetIndex(0, 0)
	if err != nil || ids == nil {
		t.Fatal("id offset index:", ids, err)
	}
	tags, err := fr.OffsetIndex(0, 1)
	if err != nil || tags == nil {
		t.Fatal("tags offset index:", tags, err)
	}
	ci, err := fr.ColumnIndex(0, 1)
	if err != nil || ci == nil || len(ci.RepetitionLevelHistograms) != 2*len(tags.PageLocations) {
		t.Fatalf("%s: tags column index without one repetition level histogram per page: %v", fr.File().Meta.CreatedBy.Val, err)
	}
	rows := fr.File().Meta.RowGroups[0].NumRows
	pageRows := func(locs []meta.PageLocation, p int) (int64, int64) {
		if p+1 < len(locs) {
			return locs[p].FirstRowIndex, locs[p+1].FirstRowIndex
		}
		return locs[p].FirstRowIndex, rows
	}
	n := len(ids.PageLocations)
	if n < 10 || len(tags.PageLocations) < 10 || slices.EqualFunc(ids.PageLocations, tags.PageLocations, func(a, b meta.PageLocation) bool { return a.FirstRowIndex == b.FirstRowIndex }) {
		t.Fatalf("pages: %d of id, %d of tags; want at least 10 each, breaking at other rows", n, len(tags.PageLocations))
	}
	for _, kept := range [][]int{{3, 7}, {0, n - 1}, {n / 2}, {1, 2}} {
		keep := func(_ *runtime.File, _ int, _ *meta.ColumnIndex, p int) bool { return slices.Contains(kept, p) }
		log := &rangeLog{r: bytes.NewReader(data)}
		fr, err := runtime.NewFileReader(log, int64(len(data)), runtime.WithColumnPageFilter("id", keep))
		if err != nil {
			t.Fatal(err)
		}
		c, err := fr.ByteArrayReader(1)
		if err != nil {
			t.Fatal(err)
		}
		var got, want []string
		for {
			_, err := c.ReadRows(500)
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			for i := range c.Values.Len() {
				got = append(got, c.String(i))
			}
		}
		var selected []int64 // the kept rows' ranges, as [from, to) pairs
		for _, p := range kept {
			from, to := pageRows(ids.PageLocations, p)
			selected = append(selected, from, to)
			for i := from; i < to; i++ {
				if i%7 != 0 {
					for j := range i % 4 {
						want = append(want, fmt.Sprintf("%d.%d", i, j))
					}
				}
			}
		}
		if !slices.Equal(got, want) {
			t.Fatalf("id pages %v kept: %d elements, want %d", kept, len(got), len(want))
		}
		// No read may start in a page of tags that holds no kept row.
		for p, pl := range tags.PageLocations {
			from, to := pageRows(tags.PageLocations, p)
			hit := false
			for k := 0; k < len(selected); k += 2 {
				hit = hit || from < selected[k+1] && selected[k] < to
			}
			if hit {
				continue
			}
			for _, s := range log.starts {
				if s >= pl.Offset && s < pl.Offset+int64(pl.CompressedPageSize) {
					t.Errorf("id pages %v kept: a read at %d, in page %d of tags (rows %d to %d), which holds none", kept, s, p, from, to)
				}
			}
		}
	}
}
