package bufpool

import (
	goruntime "runtime"
	"runtime/debug"
	"slices"
	"testing"
)

// TestGrow: Grow keeps the elements, gives room for n more, returns
// its argument when it has the room, and grows to power-of-two
// capacities of at least twice the old one, from the pool when it holds
// a buffer of that class (whose stale elements past the length do not
// show through the result's length); buffers beyond the largest class
// grow unpooled and are not pooled.
func TestGrow(t *testing.T) {
	var p Pool[int64]
	var s []int64
	var want []int64
	for i := range 5000 {
		before := s
		s = Grow(&p, s, 1)
		if len(s) != len(want) || !slices.Equal(s, want) {
			t.Fatalf("step %d: Grow changed the elements", i)
		}
		if cap(before) > len(before) && (cap(s) != cap(before) || &s[:1][0] != &before[:1][0]) {
			t.Fatalf("step %d: grew a buffer with room", i)
		}
		if c := cap(s); c&(c-1) != 0 || c < 1<<MinShift || cap(before) > 0 && c < 2*cap(before) && c != cap(before) {
			t.Fatalf("step %d: capacity %d after %d", i, c, cap(before))
		}
		s = append(s, int64(i))
		want = append(want, int64(i))
	}
	// The outgrown buffers went to the pool: a grow to 512 elements takes
	// the pooled one of that class, whose old contents stay past the length.
	q := Grow(&p, make([]int64, 300), 1)
	if cap(q) != 1024 && cap(q) != 512 {
		t.Fatalf("cap %d", cap(q))
	}
	if len(q) != 300 {
		t.Fatalf("len %d", len(q))
	}
	for _, c := range []int{0, 1, 100, 255, 257, 1000, 1 << (MinShift + Classes)} {
		if k := Class(c); k != -1 {
			t.Errorf("Class(%d) = %d, want -1", c, k)
		}
	}
	for k := range Classes {
		if got := Class(1 << (MinShift + k)); got != k {
			t.Errorf("Class(1<<%d) = %d", MinShift+k, got)
		}
	}
	big := make([]uint8, 3, 1<<(MinShift+Classes-1))
	var pb Pool[uint8]
	g := Grow(&pb, big, cap(big))
	if len(g) != 3 || cap(g) < 3+cap(big) || Class(cap(g)) != -1 {
		t.Fatalf("unpooled growth: len %d cap %d", len(g), cap(g))
	}
}

// TestTryGetPutFloor: TryGet hands out only pooled buffers, of the
// class's capacity and empty; PutFloor pools a buffer of any capacity of
// at least the smallest class as one of the largest class it holds.
func TestTryGetPutFloor(t *testing.T) {
	var p Pool[int32]
	if b := p.TryGet(2); b != nil {
		t.Fatalf("an empty pool gave a buffer of capacity %d", cap(b))
	}
	s := make([]int32, 700, 1300) // class 2 (1024) is the largest it holds
	s[0] = 7
	if k := p.PutFloor(s); k != 2 {
		t.Fatalf("PutFloor: class %d, want 2", k)
	}
	if b := p.TryGet(1); b != nil {
		t.Fatalf("class 1 gave a buffer of capacity %d", cap(b))
	}
	// sync.Pool may drop what it holds (a GC between Put and Get), so only
	// a buffer handed out is checked.
	if b := p.TryGet(2); b != nil && (len(b) != 0 || cap(b) != 1024 || b[:1][0] != 7) {
		t.Fatalf("TryGet: len %d cap %d", len(b), cap(b))
	}
	if k := p.PutFloor(make([]int32, 0, 255)); k != -1 {
		t.Fatalf("PutFloor of 255 elements: class %d", k)
	}
	if k := p.PutFloor(make([]int32, 0, 1<<(MinShift+Classes))); k != Classes-1 {
		t.Fatalf("PutFloor of a huge buffer: class %d", k)
	}
}

// TestZeroed: Zeroed returns n zero elements, also from a pooled buffer
// that held other values, with a power-of-two capacity; sizes beyond the
// largest class are allocated unpooled.
func TestZeroed(t *testing.T) {
	var p Pool[uint64]
	dirty := make([]uint64, 1024)
	for i := range dirty {
		dirty[i] = ^uint64(0)
	}
	p.Put(dirty)
	for _, n := range []int{1, 256, 600, 1024, 5000} {
		z := Zeroed(&p, n)
		if len(z) != n || cap(z)&(cap(z)-1) != 0 || cap(z) < max(n, 1<<MinShift) {
			t.Fatalf("n %d: len %d cap %d", n, len(z), cap(z))
		}
		for i, v := range z {
			if v != 0 {
				t.Fatalf("n %d: element %d is %x", n, i, v)
			}
		}
	}
	if z := Zeroed(&p, 1<<(MinShift+Classes)); len(z) != 1<<(MinShift+Classes) {
		t.Fatalf("unpooled size: len %d", len(z))
	}
}

// TestWhole: Whole hands out the buffers put in it empty and at their own
// capacity (any, not only the classes'), nil when it holds none, and,
// once it has boxes, keeps and hands out buffers without allocating.
func TestWhole(t *testing.T) {
	if raceEnabled {
		t.Skip("under the race detector sync.Pool drops items at random: the pooling is checked by the runs without -race")
	}
	defer debug.SetGCPercent(debug.SetGCPercent(-1))    // a GC empties sync.Pools
	defer goruntime.GOMAXPROCS(goruntime.GOMAXPROCS(1)) // one P sees its own Puts
	var w Whole[byte]
	if b := w.Get(); b != nil {
		t.Fatalf("an empty pool gave a buffer of capacity %d", cap(b))
	}
	s := make([]byte, 10, 160_000) // not a power of two
	s[0] = 7
	w.Put(s)
	b := w.Get()
	if len(b) != 0 || cap(b) != 160_000 || b[:1][0] != 7 {
		t.Fatalf("Get: len %d cap %d, want the buffer put, empty", len(b), cap(b))
	}
	if n := testing.AllocsPerRun(100, func() { w.Put(b); b = w.Get() }); n != 0 {
		t.Fatalf("Put and Get: %v allocations, want none", n)
	}
}
