package runtime

import (
	"errors"
	"strings"
	"testing"

	"github.com/pqgen/pqgen/runtime/encode"
	"github.com/pqgen/pqgen/runtime/meta"
	"github.com/pqgen/pqgen/runtime/schema"
)

// readLeavesSchema has two leaves under one list of structs (a required, b
// optional) and a flat one.
const readLeavesSchema = `message m {
  optional group g {
    repeated group r {
      required int32 a;
      optional int32 b;
    }
  }
  required int64 id;
}`

// leafPage is a page of levels with one int32 value per slot of the
// maximum definition level.
func leafPage(def, rep []uint8, maxDef uint8) synthPage {
	var vals []int32
	for _, d := range def {
		if d == maxDef {
			vals = append(vals, int32(len(vals)))
		}
	}
	return synthPage{def: def, rep: rep, enc: meta.EncodingPlain, values: encode.AppendPlainInt32(nil, vals)}
}

// openLeavesOf writes a file of k rows whose leaves hold the given levels,
// opens its leaves and reads the k rows.
func openLeavesOf(t *testing.T, k int, a, b synthPage, opts ...ReaderOption) (*Leaves, []*Levels, *Int32Reader, *Int32Reader) {
	t.Helper()
	ids := make([]int64, k)
	idPage := synthPage{n: k, enc: meta.EncodingPlain, values: encode.AppendPlainInt64(nil, ids)}
	file := synthFile(t, readLeavesSchema, []int64{int64(k)}, [][][]synthPage{{{a}, {b}, {idPage}}})
	fr := readerOf(t, file, opts...)
	if _, err := fr.Bind(mustParse(t, readLeavesSchema)); err != nil {
		t.Fatal(err)
	}
	lv := make([]*Levels, 3)
	var ra, rb *Int32Reader
	var rid *Int64Reader
	s, err := fr.OpenLeaves("M", lv, Leaf(&ra, 0), Leaf(&rb, 1), Leaf(&rid, 2))
	if err != nil {
		t.Fatal(err)
	}
	if err := fr.ReadColumns(k, s.Jobs...); err != nil {
		t.Fatal(err)
	}
	return s, lv, ra, rb
}

func TestLeavesCheck(t *testing.T) {
	// Rows: g null; g with no r; r of two elements, b null in the second.
	a := leafPage([]uint8{0, 1, 2, 2}, []uint8{0, 0, 0, 1}, 2)
	good := leafPage([]uint8{0, 1, 3, 2}, []uint8{0, 0, 0, 1}, 3)
	s, lv, ra, rb := openLeavesOf(t, 3, a, good)
	if lv[0] != &ra.Levels || lv[1] != &rb.Levels || lv[2] == nil {
		t.Fatalf("lv = %v, want the levels of a, b and id", lv)
	}
	if len(s.Jobs) != 3 {
		t.Fatalf("%d jobs, want 3", len(s.Jobs))
	}
	if err := s.Check(); err != nil {
		t.Fatalf("Check: %v", err)
	}
	if n := testing.AllocsPerRun(10, func() { _ = s.Check() }); n != 0 {
		t.Fatalf("Check allocates %v times", n)
	}
	drv := make([]int, 2)
	s.Drivers(drv, [][]int{{0, 1}, {1}})
	if drv[0] != 0 || drv[1] != 1 {
		t.Fatalf("drivers %v, want [0 1]", drv)
	}
	// Assembly that used all 4 slots and 2 values of a, 4 slots and 1
	// value of b and 3 values of id passes Used; one value short fails.
	p, q := []int{4, 4, 0}, []int{2, 1, 3}
	if err := s.Used(p, q); err != nil {
		t.Fatalf("Used: %v", err)
	}
	q[1] = 0
	if err := s.Used(p, q); !errors.Is(err, ErrChunk) || !strings.Contains(err.Error(), `column "g.r.b"`) {
		t.Fatalf("Used: %v, want ErrChunk naming g.r.b", err)
	}
}

func TestLeavesCheckDisagree(t *testing.T) {
	a := leafPage([]uint8{0, 1, 2, 2}, []uint8{0, 0, 0, 1}, 2)
	for _, c := range []struct {
		name   string
		a, b   synthPage
		k      int
		column string
		want   string
	}{
		// b has one element in row 2, a two.
		{"fewer elements", a, leafPage([]uint8{0, 1, 3}, []uint8{0, 0, 0}, 3), 3, "g.r.b", `disagrees with column "g.r.a" on the shape of g.r (level slot 3)`},
		// b has an element in row 1, where a's list is empty.
		{"empty against present", a, leafPage([]uint8{0, 2, 3, 2}, []uint8{0, 0, 0, 1}, 3), 3, "g.r.b", `disagrees with column "g.r.a" on the shape of g.r (level slot 1)`},
		// b says g is present in row 0, a null.
		{"null against present", a, leafPage([]uint8{1, 1, 3, 2}, []uint8{0, 0, 0, 1}, 3), 3, "g.r.b", `on the shape of g.r (level slot 0)`},
		// a continues, in slot 1, a list that slot 0 left empty.
		{"continues an empty list", leafPage([]uint8{1, 2}, []uint8{0, 1}, 2), leafPage([]uint8{1, 2}, []uint8{0, 1}, 3), 1, "g.r.a",
			"level slot 1 continues a list at repetition level 1 that is empty or null"},
		// a continues a list with a null element (definition level 1).
		{"continues with nothing", leafPage([]uint8{2, 1}, []uint8{0, 1}, 2), leafPage([]uint8{2, 1}, []uint8{0, 1}, 3), 1, "g.r.a",
			"level slot 1 continues a list at repetition level 1 that is empty or null"},
	} {
		t.Run(c.name, func(t *testing.T) {
			s, _, _, _ := openLeavesOf(t, c.k, c.a, c.b)
			err := s.Check()
			if !errors.Is(err, ErrChunk) {
				t.Fatalf("Check: %v, want ErrChunk", err)
			}
			if want := `M: column "` + c.column + `"`; !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("Check: %v, want %q and %q", err, want, c.want)
			}
		})
	}
}

func TestLeavesProjected(t *testing.T) {
	// With g.r.a alone projected, b's levels (which disagree) are not read.
	a := leafPage([]uint8{0, 1, 2, 2}, []uint8{0, 0, 0, 1}, 2)
	b := leafPage([]uint8{0, 1, 3}, []uint8{0, 0, 0}, 3)
	s, lv, ra, rb := openLeavesOf(t, 3, a, b, WithColumns("g.r.a", "id"))
	if rb != nil || lv[1] != nil || ra == nil {
		t.Fatalf("b opened (%v) or a not (%v)", rb, ra)
	}
	if err := s.Check(); err != nil {
		t.Fatalf("Check: %v", err)
	}
	drv := make([]int, 1)
	s.Drivers(drv, [][]int{{1}})
	if drv[0] != -1 {
		t.Fatalf("driver %d of an unread leaf, want -1", drv[0])
	}
}

func TestOpenLeavesErrors(t *testing.T) {
	file := synthFile(t, readLeavesSchema, []int64{1}, [][][]synthPage{{
		{leafPage([]uint8{0}, []uint8{0}, 2)}, {leafPage([]uint8{0}, []uint8{0}, 3)},
		{{n: 1, enc: meta.EncodingPlain, values: encode.AppendPlainInt64(nil, []int64{7})}}}})
	var ra *Int32Reader
	var wrong *Int64Reader
	fr := readerOf(t, file)
	if _, err := fr.OpenLeaves("M", nil, Leaf(&ra, 0)); !errors.Is(err, ErrColumn) {
		t.Fatalf("OpenLeaves before Bind: %v, want ErrColumn", err)
	}
	if _, err := fr.Bind(mustParse(t, readLeavesSchema)); err != nil {
		t.Fatal(err)
	}
	if _, err := fr.OpenLeaves("M", nil, Leaf(&ra, 3)); !errors.Is(err, ErrColumn) {
		t.Fatalf("leaf 3 of 3: %v, want ErrColumn", err)
	}
	if _, err := fr.OpenLeaves("M", nil, Leaf(&wrong, 0)); !errors.Is(err, ErrColumn) || wrong != nil {
		t.Fatalf("an INT32 leaf as INT64: %v, want ErrColumn", err)
	}
}

// checkInt32Leaves writes a file of k rows whose int32 leaves hold the
// given pages, reads them through OpenLeaves and returns Check's verdict.
func checkInt32Leaves(t *testing.T, text string, k int, pages ...synthPage) error {
	t.Helper()
	var cols [][]synthPage
	for _, p := range pages {
		cols = append(cols, []synthPage{p})
	}
	fr := readerOf(t, synthFile(t, text, []int64{int64(k)}, [][][]synthPage{cols}))
	s := mustParse(t, text)
	if _, err := fr.Bind(s); err != nil {
		t.Fatal(err)
	}
	readers := make([]*Int32Reader, len(pages))
	var slots []LeafSlot
	for i := range pages {
		slots = append(slots, Leaf(&readers[i], i))
	}
	ls, err := fr.OpenLeaves("M", nil, slots...)
	if err != nil {
		t.Fatal(err)
	}
	if err := fr.ReadColumns(k, ls.Jobs...); err != nil {
		t.Fatal(err)
	}
	return ls.Check()
}

// TestLeavesCheckNested covers the comparisons of two required leaves
// (definition levels compared whole) and of a leaf with one that repeats
// below their group (slots of deeper repetition skipped).
func TestLeavesCheckNested(t *testing.T) {
	const text = `message m {
  optional group g {
    repeated group r { required int32 a; required int32 b; repeated int32 c; }
  }
}`
	// Rows: g null; r of two elements, the first with c [x, y], the
	// second with no c.
	a := leafPage([]uint8{0, 2, 2}, []uint8{0, 0, 1}, 2)
	c := leafPage([]uint8{0, 3, 3, 2}, []uint8{0, 0, 2, 1}, 3)
	if err := checkInt32Leaves(t, text, 2, a, a, c); err != nil {
		t.Fatalf("Check: %v", err)
	}
	for _, bad := range []struct {
		name    string
		b, c    synthPage
		message string
	}{
		{"required sibling", leafPage([]uint8{0, 2}, []uint8{0, 0}, 2), c, `column "g.r.b" disagrees with column "g.r.a" on the shape of g.r`},
		{"required sibling empty", leafPage([]uint8{0, 1}, []uint8{0, 0}, 2), c, `column "g.r.b" disagrees with column "g.r.a" on the shape of g.r`},
		// c puts both its elements in one element of r.
		{"deeper sibling", a, leafPage([]uint8{0, 3, 3, 3}, []uint8{0, 0, 2, 2}, 3), `column "g.r.c" disagrees with column "g.r.a" on the shape of g.r`},
		// c has a third element of r.
		{"deeper sibling longer", a, leafPage([]uint8{0, 3, 3, 2, 2}, []uint8{0, 0, 2, 1, 1}, 3), `column "g.r.c" disagrees`},
		{"nested list continued after an empty one", a, leafPage([]uint8{0, 2, 3, 2}, []uint8{0, 0, 2, 1}, 3), `column "g.r.c": level slot 2 continues a list at repetition level 2 that is empty or null`},
	} {
		t.Run(bad.name, func(t *testing.T) {
			err := checkInt32Leaves(t, text, 2, a, bad.b, bad.c)
			if !errors.Is(err, ErrChunk) || !strings.Contains(err.Error(), bad.message) {
				t.Fatalf("Check: %v, want ErrChunk with %q", err, bad.message)
			}
		})
	}
}

// FuzzLeavesCheck gives Check levels of three leaves under one list
// (required, optional, and repeated below it) that meet what the column
// readers guarantee (levels within the maxima, k rows each, a batch
// starting a row), and compares its verdict with a direct one: every list
// continued only where it holds an element, and every two leaves with
// equal slots of repetition level at most 1, definition levels clipped
// to 2.
func FuzzLeavesCheck(f *testing.F) {
	const text = `message m {
  optional group g {
    repeated group r { required int32 a; optional int32 b; repeated int32 c; }
  }
}`
	a := leafPage([]uint8{0}, []uint8{0}, 2)
	b := leafPage([]uint8{0}, []uint8{0}, 3)
	file := synthFile(f, text, []int64{1}, [][][]synthPage{{{a}, {b}, {leafPage([]uint8{0}, []uint8{0}, 3)}}})
	fr := readerOf(f, file)
	want, err := schema.Parse(text)
	if err != nil {
		f.Fatal(err)
	}
	if _, err := fr.Bind(want); err != nil {
		f.Fatal(err)
	}
	rs := make([]*Int32Reader, 3)
	ls, err := fr.OpenLeaves("M", nil, Leaf(&rs[0], 0), Leaf(&rs[1], 1), Leaf(&rs[2], 2))
	if err != nil {
		f.Fatal(err)
	}
	maxDef, maxRep := []uint8{2, 3, 3}, []uint8{1, 1, 2}
	repDef := [][]uint8{{2}, {2}, {2, 3}}
	f.Add([]byte{2, 0x00, 0x12, 0x00, 0x00, 0x12, 0x00, 0x00, 0x13, 0x00})
	f.Add([]byte{1, 0x02, 0x12, 0x03, 0x13, 0x03, 0x23, 0x13})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) == 0 {
			return
		}
		k := 1 + int(data[0]%4)
		data = data[1:]
		for i, r := range rs {
			// Slots from the bytes (high nibble the repetition level,
			// low the definition level) until the k rows are complete.
			var def, rep []uint8
			rows := 0
			for rows < k || len(data) > 0 && data[0]>>4%(maxRep[i]+1) != 0 {
				var x byte
				if len(data) > 0 {
					x, data = data[0], data[1:]
				}
				rl, dl := x>>4%(maxRep[i]+1), x&15%(maxDef[i]+1)
				if len(rep) == 0 {
					rl = 0
				}
				if rl == 0 {
					rows++
				}
				rep, def = append(rep, rl), append(def, dl)
			}
			r.Def, r.Rep = def, rep
		}
		want := true
		for i, r := range rs {
			for s, rl := range r.Rep {
				if rl > 0 && (r.Def[s] < repDef[i][rl-1] || r.Def[s-1] < repDef[i][rl-1]) {
					want = false
				}
			}
		}
		proj := func(lv *Levels) string {
			var out []byte
			for s, rl := range lv.Rep {
				if rl <= 1 {
					out = append(out, rl, min(lv.Def[s], 2))
				}
			}
			return string(out)
		}
		if proj(&rs[0].Levels) != proj(&rs[1].Levels) || proj(&rs[1].Levels) != proj(&rs[2].Levels) || proj(&rs[0].Levels) != proj(&rs[2].Levels) {
			want = false
		}
		err := ls.Check()
		if (err == nil) != want {
			t.Fatalf("Check: %v, want ok %v; levels a %v %v, b %v %v, c %v %v", err, want,
				rs[0].Def, rs[0].Rep, rs[1].Def, rs[1].Rep, rs[2].Def, rs[2].Rep)
		}
		if err != nil && !errors.Is(err, ErrChunk) {
			t.Fatalf("Check: %v, not ErrChunk", err)
		}
	})
}
