package runtime

import (
	"math"
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

// TestSlabTake checks that Take hands out zero, capped runs that never
// share an element: small runs cut from shared chunks (one allocation for
// many runs), large ones allocated alone, and that an Extend after a Take
// starts a list of its own.
func TestSlabTake(t *testing.T) {
	var s Slab[int64]
	const per = takeChunkBytes / 8 // int64 elements in a chunk
	var runs [][]int64
	v := int64(1)
	for i := range 200 {
		n := i % 37
		if i%50 == 49 {
			n = per/8 + 1 // one past the largest run cut from a chunk
		}
		r := s.Take(n)
		if len(r) != n || cap(r) != n {
			t.Fatalf("run %d: len %d cap %d, want %d", i, len(r), cap(r), n)
		}
		for j := range r {
			if r[j] != 0 {
				t.Fatalf("run %d: element %d is %d, want 0", i, j, r[j])
			}
			r[j] = v
			v++
		}
		runs = append(runs, r)
	}
	l := s.Extend(nil)
	l[0] = -1
	v = 1
	for i, r := range runs {
		for j := range r {
			if r[j] != v {
				t.Fatalf("run %d element %d = %d, want %d: runs overlap", i, j, r[j], v)
			}
			v++
		}
	}
	small := testing.AllocsPerRun(100, func() {
		var s Slab[int64]
		for range 8 {
			takeSink = s.Take(per / 8)
		}
	})
	if small != 1 {
		t.Errorf("8 runs of an eighth of a chunk: %v allocations, want 1", small)
	}
	large := testing.AllocsPerRun(100, func() {
		var s Slab[int64]
		takeSink = s.Take(per/8 + 1)
		takeSink = s.Take(per/8 + 1)
	})
	if large != 2 {
		t.Errorf("2 runs above an eighth of a chunk: %v allocations, want 2", large)
	}
}

// TestReadTile checks the tile sizes of ReadTile: the minimum for wide
// types, the byte budget divided by the bytes per row otherwise, a Read
// split into tiles of equal size, and a Read of fewer rows in one tile.
func TestReadTile(t *testing.T) {
	type wide [200]int64 // 1,600 bytes, with 200 leaves 3,200 bytes a row
	type narrow struct {
		A, B int64
		S    string
	} // 32 bytes, with 3 leaves 56 a row
	const narrowMost = readTileBytes / 56 // 28,086 rows
	for _, c := range []struct {
		name      string
		got, want int
	}{
		{"wide, 4,096 rows", ReadTile[wide](200, 4096), minReadTile},
		{"wide, 1,000 rows", ReadTile[wide](200, 1000), 500},
		{"wide, 300 rows", ReadTile[wide](200, 300), 300},
		{"narrow, its most", ReadTile[narrow](3, narrowMost), narrowMost},
		{"narrow, one more", ReadTile[narrow](3, narrowMost+1), narrowMost/2 + 1},
		{"narrow, 3 tiles", ReadTile[narrow](3, 3*narrowMost-3), narrowMost - 1},
		{"narrow, 4,096 rows", ReadTile[narrow](3, 4096), 4096},
		{"empty type", ReadTile[struct{}](0, readTileBytes+1), readTileBytes/2 + 1},
		{"1 MiB type", ReadTile[[1 << 20]byte](1, 2*minReadTile+1), minReadTile - 170},
		{"no rows", ReadTile[narrow](3, 0), 1},
		{"MaxInt rows", ReadTile[wide](200, math.MaxInt), (math.MaxInt-1)/((math.MaxInt-1)/minReadTile+1) + 1},
	} {
		if c.got != c.want {
			t.Errorf("%s: ReadTile = %d, want %d", c.name, c.got, c.want)
		}
	}
}

// TestEqualTiles: rows are cut into as few tiles as the most rows a tile
// may hold allows, of equal size but for the last, which is smaller by
// less than the number of tiles (ReadTile, ShredTile).
func TestEqualTiles(t *testing.T) {
	for _, most := range []int{1, 7, 63, 64, 145, 512} {
		for rows := 0; rows <= 3000; rows++ {
			tile := equalTiles(rows, most)
			if rows == 0 {
				if tile != 1 {
					t.Fatalf("no rows, at most %d a tile: tiles of %d", most, tile)
				}
				continue
			}
			n := (rows + tile - 1) / tile
			if tile > most || n != (rows+most-1)/most || n*tile-rows >= n {
				t.Fatalf("%d rows, at most %d a tile: %d tiles of %d", rows, most, n, tile)
			}
		}
	}
}

// takeSink keeps TestSlabTake's runs on the heap.
var takeSink []int64
