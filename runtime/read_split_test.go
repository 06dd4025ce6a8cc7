package runtime

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/pqgen/pqgen/runtime/encode"
)

// splitLevels returns random levels of rows rows of a leaf with the given
// maxima: each row starts with repetition level 0 and, when the leaf
// repeats, continues with up to 3 more slots at levels 1..maxRep.
func splitLevels(rng *rand.Rand, rows int, maxDef, maxRep uint8) Levels {
	var lv Levels
	for range rows {
		slots := 1
		if maxRep > 0 {
			slots += rng.IntN(4)
		}
		for s := range slots {
			if maxRep > 0 {
				r := uint8(0)
				if s > 0 {
					r = 1 + uint8(rng.IntN(int(maxRep)))
				}
				lv.Rep = append(lv.Rep, r)
			}
			if maxDef > 0 {
				lv.Def = append(lv.Def, uint8(rng.IntN(int(maxDef)+1)))
			}
		}
	}
	return lv
}

// splitBrute returns the level slot and value where row m starts, by
// walking the slots one by one.
func splitBrute(lv Levels, maxDef, maxRep uint8, m int) (slot, val int) {
	if maxDef == 0 && maxRep == 0 {
		return 0, m
	}
	slots := max(len(lv.Def), len(lv.Rep))
	row := -1
	for s := range slots {
		if maxRep == 0 || lv.Rep[s] == 0 {
			row++
		}
		if row == m {
			return s, val
		}
		if maxDef == 0 || lv.Def[s] == maxDef {
			val++
		}
	}
	return slots, val
}

// TestSplit checks the cursors Split finds against a slot-by-slot walk,
// for leaves of every shape, and when it declines to split: small
// batches, parallelism 1, and while the next batch is read ahead.
func TestSplit(t *testing.T) {
	defer func(n int) { splitMinSlots = n }(splitMinSlots)
	splitMinSlots = 1
	rng := rand.New(rand.NewPCG(1, 2))
	shapes := []struct{ def, rep uint8 }{{0, 0}, {1, 0}, {3, 0}, {1, 1}, {2, 1}, {3, 2}, {5, 3}}
	for _, rows := range []int{1, 255, 256, 257, 1000, 4096} {
		s := &Leaves{typ: "T", fr: &FileReader{cfg: readerConfig{ReadParallelism: 2}}}
		for i, sh := range shapes {
			lv := splitLevels(rng, rows, sh.def, sh.rep)
			c := &Int64Reader{Levels: lv}
			n := rows
			if sh.def > 0 {
				n = 0
				for _, d := range lv.Def {
					if d == sh.def {
						n++
					}
				}
			}
			c.Values = make([]int64, n)
			// Columns 2i: the slices below hold a gap between leaves.
			s.leaves = append(s.leaves, openLeaf{col: 2 * i, path: fmt.Sprintf("c%d", i), r: c, maxDef: sh.def, maxRep: sh.rep})
		}
		cols := 2 * len(shapes)
		mp, mq, ep, eq := make([]int, cols), make([]int, cols), make([]int, cols), make([]int, cols)
		m := s.Split(rows, mp, mq, ep, eq)
		want := rows / 2
		if rows < splitMinRows {
			want = 0
		}
		if m != want {
			t.Fatalf("%d rows: Split returned %d, want %d", rows, m, want)
		}
		for i, sh := range shapes {
			l := &s.leaves[i]
			lv := l.r.levels()
			slot, val := splitBrute(*lv, sh.def, sh.rep, m)
			if m > 0 && (mp[l.col] != slot || mq[l.col] != val) {
				t.Errorf("%d rows, leaf def %d rep %d: Split found slot %d value %d, the walk %d and %d", rows, sh.def, sh.rep, mp[l.col], mq[l.col], slot, val)
			}
			wantSlots := max(len(lv.Def), len(lv.Rep))
			if ep[l.col] != wantSlots || eq[l.col] != l.r.numValues() {
				t.Errorf("%d rows, leaf def %d rep %d: ends %d/%d, want %d/%d", rows, sh.def, sh.rep, ep[l.col], eq[l.col], wantSlots, l.r.numValues())
			}
			// The parts' bounds pass UsedTo; one slot or value off fails.
			if err := s.UsedTo(ep, eq, ep, eq); err != nil {
				t.Fatal(err)
			}
		}
		if m > 0 {
			p := append([]int(nil), ep...)
			p[s.leaves[3].col]--
			if err := s.UsedTo(p, eq, ep, eq); !errors.Is(err, ErrChunk) {
				t.Errorf("UsedTo of a part that stopped one slot short: %v", err)
			}
		}
		s.fr.pipe = &readPipe{ahead: true}
		if m := s.Split(rows, mp, mq, ep, eq); m != 0 {
			t.Errorf("%d rows while the next batch is read ahead: Split returned %d", rows, m)
		}
		s.fr.pipe.ahead = false
		if m := s.Split(rows, mp, mq, ep, eq); m != want {
			t.Errorf("%d rows after the read-ahead: Split returned %d, want %d", rows, m, want)
		}
		s.fr.cfg.ReadParallelism = 1
		if m := s.Split(rows, mp, mq, ep, eq); m != 0 {
			t.Errorf("parallelism 1: Split returned %d", m)
		}
	}
}

// TestSplitShares checks that Split builds the byte-array readers' lazy
// state before the parts read it: the strings' buffer of a batch of
// plain values, or the copy of a leaf read with Bytes, and that String
// and Bytes return the same values after it.
func TestSplitShares(t *testing.T) {
	defer func(n int) { splitMinSlots = n }(splitMinSlots)
	splitMinSlots = 1
	for _, asBytes := range []bool{false, true} {
		c := &ByteArrayReader{lazy: true}
		var v encode.ByteArrays
		v.Offsets = append(v.Offsets, 0)
		for i := range 600 {
			v.Data = fmt.Appendf(v.Data, "v%d", i)
			v.Offsets = append(v.Offsets, uint32(len(v.Data)))
		}
		c.Values = v
		s := &Leaves{typ: "T", fr: &FileReader{cfg: readerConfig{ReadParallelism: 2}}, leaves: []openLeaf{{col: 0, path: "s", r: c, bytes: asBytes}}}
		var mp, mq, ep, eq [1]int
		if m := s.Split(600, mp[:], mq[:], ep[:], eq[:]); m != 300 || mq[0] != 300 {
			t.Fatalf("Split: %d rows, value %d", m, mq[0])
		}
		if asBytes != (c.copied != nil) || asBytes == c.strs.hasAll {
			t.Fatalf("asBytes %v: copied %v, strings' buffer %v", asBytes, c.copied != nil, c.strs.hasAll)
		}
		for _, i := range []int{0, 299, 300, 599} {
			want := fmt.Sprintf("v%d", i)
			if asBytes {
				if got := string(c.Bytes(i)); got != want {
					t.Errorf("Bytes(%d) = %q, want %q", i, got, want)
				}
			} else if got := c.String(i); got != want {
				t.Errorf("String(%d) = %q, want %q", i, got, want)
			}
		}
	}
}

// TestBoth checks that Both runs its functions at once and returns the
// first's error before the second's.
func TestBoth(t *testing.T) {
	errA, errB := errors.New("a"), errors.New("b")
	for _, c := range []struct{ a, b, want error }{{nil, nil, nil}, {errA, nil, errA}, {nil, errB, errB}, {errA, errB, errA}} {
		started := make(chan struct{})
		ran := false
		got := Both(func() error {
			// b must be running while a is: a waits for it.
			select {
			case <-started:
			case <-time.After(10 * time.Second):
				return errors.New("b did not start while a ran")
			}
			return c.a
		}, func() error {
			ran = true
			close(started)
			return c.b
		})
		if got != c.want || !ran {
			t.Errorf("Both(%v, %v) = %v (b ran: %v), want %v", c.a, c.b, got, ran, c.want)
		}
	}
}
