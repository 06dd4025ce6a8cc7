package runtime

import (
	"bytes"
	"math/rand/v2"
	goruntime "runtime"
	"slices"
	"testing"
)

// TestGrowBuf: growBuf keeps the elements, gives room for n more, returns
// its argument when it has the room, and grows to power-of-two
// capacities of at least twice the old one, from the pool when it holds
// a buffer of that class (whose stale elements past the length do not
// show through the result's length); buffers beyond the largest class
// grow unpooled and are not pooled.
func TestGrowBuf(t *testing.T) {
	var p bufPool[int64]
	var s []int64
	var want []int64
	for i := range 5000 {
		before := s
		s = growBuf(&p, s, 1)
		if len(s) != len(want) || !slices.Equal(s, want) {
			t.Fatalf("step %d: growBuf changed the elements", i)
		}
		if cap(before) > len(before) && (cap(s) != cap(before) || &s[:1][0] != &before[:1][0]) {
			t.Fatalf("step %d: grew a buffer with room", i)
		}
		if c := cap(s); c&(c-1) != 0 || c < 1<<poolMinShift || cap(before) > 0 && c < 2*cap(before) && c != cap(before) {
			t.Fatalf("step %d: capacity %d after %d", i, c, cap(before))
		}
		s = append(s, int64(i))
		want = append(want, int64(i))
	}
	// The outgrown buffers went to the pool: a grow to 512 elements takes
	// the pooled one of that class, whose old contents stay past the length.
	q := growBuf(&p, make([]int64, 300), 1)
	if cap(q) != 1024 && cap(q) != 512 {
		t.Fatalf("cap %d", cap(q))
	}
	if len(q) != 300 {
		t.Fatalf("len %d", len(q))
	}
	for _, c := range []int{0, 1, 100, 255, 257, 1000, 1 << (poolMinShift + poolClasses)} {
		if k := poolClass(c); k != -1 {
			t.Errorf("poolClass(%d) = %d, want -1", c, k)
		}
	}
	for k := range poolClasses {
		if got := poolClass(1 << (poolMinShift + k)); got != k {
			t.Errorf("poolClass(1<<%d) = %d", poolMinShift+k, got)
		}
	}
	big := make([]uint8, 3, 1<<(poolMinShift+poolClasses-1))
	var pb bufPool[uint8]
	g := growBuf(&pb, big, cap(big))
	if len(g) != 3 || cap(g) < 3+cap(big) || poolClass(cap(g)) != -1 {
		t.Fatalf("unpooled growth: len %d cap %d", len(g), cap(g))
	}
}

// TestPooledBuffersSameBytes: writers that take the pooled buffers of
// closed writers (which hold other files' values past their lengths)
// write the same bytes as a writer on fresh buffers, for the columns of
// pipeSchema (every physical type, levels of lists and maps, dictionary
// fallback), sequentially and with WithParallelism(2).
func TestPooledBuffersSameBytes(t *testing.T) {
	s := mustSchema(t, pipeSchema)
	write := func(seed uint64, rows int, opts ...WriterOption) []byte {
		r := rand.New(rand.NewPCG(seed, 7))
		var buf bytes.Buffer
		w, err := NewFileWriter(&buf, s, append([]WriterOption{WithPageSize(16 << 10)}, opts...)...)
		if err != nil {
			t.Fatal(err)
		}
		for batch := 0; batch < rows; batch += 300 {
			n := min(300, rows-batch)
			shredPipeRows(t, w, r, n)
			if err := w.EndRows(n); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		return buf.Bytes()
	}
	for _, opts := range [][]WriterOption{nil, {WithParallelism(2)}} {
		// Two collections empty the sync.Pools: the first writer's buffers
		// are fresh.
		goruntime.GC()
		goruntime.GC()
		first := write(1, 5000, opts...)
		for i := range 3 {
			write(uint64(i+2), 9000+i*1000, opts...) // fills the pools with other values
			if again := write(1, 5000, opts...); !bytes.Equal(again, first) {
				t.Fatalf("%d options, round %d: a writer on pooled buffers wrote other bytes", len(opts), i)
			}
		}
		f := openBytes(t, first)
		if got := f.Meta.NumRows; got != 5000 {
			t.Fatalf("%d rows", got)
		}
	}
}
