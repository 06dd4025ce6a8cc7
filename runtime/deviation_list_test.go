package runtime

import (
	"fmt"
	"slices"
	"testing"
)

// arrayNullLevels is what a reader of duckdb_array_null.parquet must hand
// out for one leaf: the levels of the rows as the specification lays them
// out (one slot for a null list) and the values, as text.
type arrayNullLevels struct {
	rep, def []uint8
	vals     []string
}

// wantArrayNull derives the levels of the three array leaves of
// duckdb_array_null.parquet from the SQL of peers/js/deviations.mjs (the
// rows DuckDB reads back, printed there), by the Dremel rules.
func wantArrayNull() map[string]*arrayNullLevels {
	a, n, x := &arrayNullLevels{}, &arrayNullLevels{}, &arrayNullLevels{}
	add := func(l *arrayNullLevels, rep, def uint8, val ...string) {
		l.rep, l.def, l.vals = append(l.rep, rep), append(l.def, def), append(l.vals, val...)
	}
	for i := range 12 {
		// a INTEGER[3]: a (optional, 1), list (repeated, 2), element (3).
		if i%4 == 3 {
			add(a, 0, 0)
		} else {
			add(a, 0, 3, fmt.Sprint(i))
			if i%2 == 0 {
				add(a, 1, 2)
			} else {
				add(a, 1, 3, fmt.Sprint(-i))
			}
			add(a, 1, 3, "7")
		}
		// n INTEGER[2][2]: n 1, list 2, element 3, inner list 4, element 5.
		switch i % 5 {
		case 4:
			add(n, 0, 0)
		case 2:
			add(n, 0, 2) // a null inner array
			add(n, 1, 5, fmt.Sprint(i))
			add(n, 2, 5, fmt.Sprint(i+1))
		default:
			add(n, 0, 5, fmt.Sprint(i))
			add(n, 2, 4)
			add(n, 1, 5, "1")
			add(n, 2, 5, "2")
		}
		// st STRUCT(x VARCHAR[2], y): st 1, x 2, list 3, element 4.
		switch {
		case i%3 == 2:
			add(x, 0, 0)
		case i%2 == 1:
			add(x, 0, 1)
		default:
			add(x, 0, 4, fmt.Sprintf("s%d", i))
			add(x, 1, 3)
		}
	}
	return map[string]*arrayNullLevels{"a.list.element": a, "n.list.element.list.element": n, "st.x.list.element": x}
}

// readArrayNull reads every row of leaf col of duckdb_array_null.parquet
// (INT32 or BYTE_ARRAY).
func readArrayNull(t *testing.T, fr *FileReader, col int) (*arrayNullLevels, error) {
	t.Helper()
	got := &arrayNullLevels{}
	n := int(fr.NumRows()) + 1
	if fr.File().Schema.Leaves[col].Type.String() == "INT32" {
		r, err := fr.Int32Reader(col)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := r.ReadRows(n); err != nil {
			return nil, err
		}
		got.rep, got.def = slices.Clone(r.Rep), slices.Clone(r.Def)
		for _, v := range r.Values {
			got.vals = append(got.vals, fmt.Sprint(v))
		}
		return got, nil
	}
	r, err := fr.ByteArrayReader(col)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.ReadRows(n); err != nil {
		return nil, err
	}
	got.rep, got.def = slices.Clone(r.Rep), slices.Clone(r.Def)
	for i := range r.Values.Len() {
		got.vals = append(got.vals, r.String(i))
	}
	return got, nil
}

// TestDeviationDuckDBArrayNull: DuckDB 1.5 writes a NULL fixed-size ARRAY
// as one level slot per element, the slots after the first continuing
// the null list. Read leniently, the padding slots are dropped: the
// column readers hand out the levels of the specification, with the
// values DuckDB reads back, and the deviation is recorded per column;
// under WithStrict the read fails naming it.
func TestDeviationDuckDBArrayNull(t *testing.T) {
	fr, err := openDeviation(t, "duckdb_array_null.parquet")
	if err != nil {
		t.Fatal(err)
	}
	want := wantArrayNull()
	var devs []Deviation
	for col, l := range fr.File().Schema.Leaves {
		w := want[l.PathString()]
		if w == nil {
			continue
		}
		got, err := readArrayNull(t, fr, col)
		if err != nil {
			t.Fatalf("%s: %v", l.PathString(), err)
		}
		if !slices.Equal(got.rep, w.rep) || !slices.Equal(got.def, w.def) || !slices.Equal(got.vals, w.vals) {
			t.Errorf("%s:\n rep %v\n def %v\n values %q\nwant\n rep %v\n def %v\n values %q", l.PathString(), got.rep, got.def, got.vals, w.rep, w.def, w.vals)
		}
		devs = append(devs, Deviation{Kind: DeviationListPadding, Column: l.PathString(), RowGroup: 0, Page: 0})
	}
	if len(devs) != 3 {
		t.Fatalf("%d array leaves, want 3", len(devs))
	}
	wantDeviations(t, fr.File(), devs...)

	fr, err = openDeviation(t, "duckdb_array_null.parquet", WithStrict(true))
	if err != nil {
		t.Fatal(err)
	}
	_, err = readArrayNull(t, fr, 1)
	wantStrict(t, err, DeviationListPadding, `column "a.list.element", row group 0, page 0`)
	if len(fr.File().Deviations()) != 0 {
		t.Fatal("deviations recorded under WithStrict")
	}
}

// TestDropListPadding checks firstListPadding and dropListPadding on
// levels made by hand: the padding DuckDB writes, at the start of a page
// after a page that ends in a null list, and the broken lists that are
// not padding, which stay for Leaves.Check to refuse.
func TestDropListPadding(t *testing.T) {
	// repDef of a list of lists: the outer repeated node at definition
	// level 2, the inner one at 4.
	repDef := []uint8{2, 4}
	for _, c := range []struct {
		name           string
		rep, def       []uint8
		prev           int
		first          int
		wantRep, wantD []uint8
	}{
		{"none", []uint8{0, 2, 1, 2, 0}, []uint8{5, 5, 4, 5, 0}, -1, -1, nil, nil},
		{"empty lists are not padding", []uint8{0, 0, 1, 0}, []uint8{1, 3, 3, 0}, -1, -1, nil, nil},
		{"null outer array", []uint8{0, 2, 2, 1, 2, 2, 0}, []uint8{0, 0, 0, 0, 0, 0, 5}, -1, 1, []uint8{0, 0}, []uint8{0, 5}},
		{"null inner array", []uint8{0, 2, 1, 2, 0}, []uint8{5, 5, 2, 2, 5}, -1, 3, []uint8{0, 2, 1, 0}, []uint8{5, 5, 2, 5}},
		{"two null inner arrays", []uint8{0, 2, 1, 2, 0}, []uint8{2, 2, 2, 2, 5}, -1, 1, []uint8{0, 1, 0}, []uint8{2, 2, 5}},
		{"padding opens the page", []uint8{1, 2, 0}, []uint8{0, 0, 5}, 0, 0, []uint8{0}, []uint8{5}},
		{"the page before unknown", []uint8{1, 0}, []uint8{0, 5}, -1, -1, nil, nil},
		{"the page before ends in an element", []uint8{1, 0}, []uint8{0, 5}, 5, -1, nil, nil},
		{"an element continues a null list", []uint8{0, 1}, []uint8{0, 5}, -1, -1, nil, nil},
		{"a null list continues an element", []uint8{0, 1}, []uint8{5, 0}, -1, -1, nil, nil},
		{"another marker", []uint8{0, 1}, []uint8{1, 0}, -1, -1, nil, nil},
		{"a level above the leaf's", []uint8{0, 3}, []uint8{0, 0}, -1, -1, nil, nil},
	} {
		rep, def := slices.Clone(c.rep), slices.Clone(c.def)
		if i := firstListPadding(rep, def, repDef, c.prev); i != c.first {
			t.Errorf("%s: firstListPadding %d, want %d", c.name, i, c.first)
			continue
		}
		if c.first < 0 {
			continue
		}
		n := dropListPadding(rep, def, repDef, c.prev, c.first)
		if !slices.Equal(rep[:n], c.wantRep) || !slices.Equal(def[:n], c.wantD) {
			t.Errorf("%s: rep %v def %v, want %v %v", c.name, rep[:n], def[:n], c.wantRep, c.wantD)
		}
	}
}
