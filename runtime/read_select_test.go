package runtime

import (
	"bytes"
	"io"
	"slices"
	"testing"
)

// TestSelectRowsRandomRanges: a row selection of random ranges (some
// within a page, some across pages, some whole pages) read in batches of
// random sizes returns exactly the selected rows of a flat and a list
// column (null, empty and multi-element lists), as cut from a read of
// every row: selectRows' runs (of kept and of dropped rows) and its stop
// at a full batch.
func TestSelectRowsRandomRanges(t *testing.T) {
	const rows = 5000
	file := listPagesFile(t, rows, 300, true)
	open := func() *FileReader {
		fr, err := NewFileReader(bytes.NewReader(file), int64(len(file)))
		if err != nil {
			t.Fatal(err)
		}
		return fr
	}
	// Every row: its id, and the level slots and values of its list.
	type listRow struct {
		def, rep []uint8
		vals     []string
	}
	fr := open()
	ir, _ := fr.Int64Reader(0)
	br, _ := fr.ByteArrayReader(1)
	if n, err := ir.ReadRows(rows); err != nil || n != rows {
		t.Fatal(n, err)
	}
	if n, err := br.ReadRows(rows); err != nil || n != rows {
		t.Fatal(n, err)
	}
	ids := slices.Clone(ir.Values)
	all := make([]listRow, 0, rows)
	v := 0
	for s := range br.Def {
		if br.Rep[s] == 0 {
			all = append(all, listRow{})
		}
		r := &all[len(all)-1]
		r.def, r.rep = append(r.def, br.Def[s]), append(r.rep, br.Rep[s])
		if br.Def[s] == 2 {
			r.vals = append(r.vals, string(br.Values.At(v)))
			v++
		}
	}
	if len(all) != rows {
		t.Fatalf("%d list rows", len(all))
	}
	rnd := newRand(7)
	for trial := range 60 {
		// Random disjoint ranges in order.
		var rr []rowRange
		at := int64(rnd.IntN(400))
		for at < rows && len(rr) < 1+trial%7 {
			var n int64
			switch rnd.IntN(3) {
			case 0:
				n = 1 + int64(rnd.IntN(5)) // a few rows
			case 1:
				n = 1 + int64(rnd.IntN(900)) // across pages
			default:
				n = 300 - at%300 // to the page's end
			}
			end := min(at+n, rows)
			rr = append(rr, rowRange{at, end})
			at = end + 1 + int64(rnd.IntN(700))
		}
		fr := open()
		fr.ranges = map[int][]rowRange{0: rr}
		want := rangeRows(rr)
		ir, _ := fr.Int64Reader(0)
		br, _ := fr.ByteArrayReader(1)
		var gotIDs []int64
		var got listRow
		for {
			k := 1 + rnd.IntN(400)
			n1, err1 := ir.ReadRows(k)
			n2, err2 := br.ReadRows(k)
			if err1 == io.EOF && err2 == io.EOF && n1 == 0 && n2 == 0 {
				break
			}
			if err1 != nil || err2 != nil || n1 != n2 {
				t.Fatalf("trial %d: %d and %d rows, %v, %v", trial, n1, n2, err1, err2)
			}
			if n1 == 0 {
				break
			}
			gotIDs = append(gotIDs, ir.Values...)
			got.def, got.rep = append(got.def, br.Def...), append(got.rep, br.Rep...)
			for i := range br.Values.Len() {
				got.vals = append(got.vals, string(br.Values.At(i)))
			}
		}
		var wantIDs []int64
		var exp listRow
		for _, r := range rr {
			wantIDs = append(wantIDs, ids[r.start:r.end]...)
			for _, lr := range all[r.start:r.end] {
				exp.def, exp.rep = append(exp.def, lr.def...), append(exp.rep, lr.rep...)
				exp.vals = append(exp.vals, lr.vals...)
			}
		}
		if int64(len(gotIDs)) != want || !slices.Equal(gotIDs, wantIDs) {
			t.Fatalf("trial %d, ranges %v: ids differ (%d rows, want %d)", trial, rr, len(gotIDs), want)
		}
		if !slices.Equal(got.def, exp.def) || !slices.Equal(got.rep, exp.rep) || !slices.Equal(got.vals, exp.vals) {
			t.Fatalf("trial %d, ranges %v: the list column differs: %d slots, %d values; want %d, %d", trial, rr, len(got.def), len(got.vals), len(exp.def), len(exp.vals))
		}
		fr.Release()
	}
}
