package runtime

import (
	"slices"
	"testing"
)

// TestSlabLists builds lists of many lengths through Extend, across
// chunk boundaries, and checks every list keeps its own elements, is
// capped at its length, and that appending to one never writes into the
// next.
func TestSlabLists(t *testing.T) {
	var s Slab[int]
	var lists [][]int
	var want [][]int
	v := 0
	for i := range 3000 {
		n := i % 7
		if i%500 == 499 {
			n = 1500 // longer than a chunk: moved whole into a larger one
		}
		var l []int
		var w []int
		for range n {
			l = s.Extend(l)
			l[len(l)-1] = v
			w = append(w, v)
			v++
		}
		lists = append(lists, l)
		want = append(want, w)
	}
	for i := range lists {
		if !slices.Equal(lists[i], want[i]) {
			t.Fatalf("list %d = %v, want %v", i, lists[i], want[i])
		}
		if cap(lists[i]) != len(lists[i]) {
			t.Fatalf("list %d: cap %d, len %d", i, cap(lists[i]), len(lists[i]))
		}
	}
	grown := append(lists[1], -1)
	if !slices.Equal(lists[2], want[2]) || grown[len(grown)-1] != -1 {
		t.Fatal("appending to a list wrote into the next")
	}
}

// TestSlabExtendOther: Extend of a slice that is not the open list (an
// earlier list, or one from elsewhere) appends a copy and leaves the open
// list alone.
func TestSlabExtendOther(t *testing.T) {
	var s Slab[string]
	a := s.Extend(nil)
	a[0] = "a0"
	b := s.Extend(nil)
	b[0] = "b0"
	a = s.Extend(a) // a is no longer open
	a[1] = "a1"
	b = s.Extend(b)
	b[1] = "b1"
	if !slices.Equal(a, []string{"a0", "a1"}) || !slices.Equal(b, []string{"b0", "b1"}) {
		t.Fatalf("a %q, b %q", a, b)
	}
	other := []string{"x"}
	other = s.Extend(other)
	if !slices.Equal(other, []string{"x", ""}) {
		t.Fatalf("other %q", other)
	}
	b = s.Extend(b)
	if !slices.Equal(b, []string{"b0", "b1", ""}) {
		t.Fatalf("b %q after extending another slice", b)
	}
}

// TestSlabNew: pointers from New are distinct zero values.
func TestSlabNew(t *testing.T) {
	var s Slab[[3]int64]
	seen := map[*[3]int64]bool{}
	for i := range 1000 {
		p := s.New()
		if *p != ([3]int64{}) || seen[p] {
			t.Fatalf("pointer %d: %v, seen %v", i, *p, seen[p])
		}
		seen[p] = true
		p[0] = int64(i)
	}
}

// TestSlabAllocs: lists of a few strings cost one allocation per chunk,
// not one or more per list.
func TestSlabAllocs(t *testing.T) {
	var s Slab[string]
	allocs := testing.AllocsPerRun(10, func() {
		for range 1000 {
			var l []string
			for range 3 {
				l = s.Extend(l)
			}
		}
	})
	// 3,000 strings of 16 bytes in chunks of slabChunkBytes.
	if want := float64(3000*16/slabChunkBytes + 1); allocs > want {
		t.Errorf("%v allocations for 1,000 lists, want at most %v", allocs, want)
	}
}
