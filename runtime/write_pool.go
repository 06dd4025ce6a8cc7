// Buffer pools of the writer: the open pages' value, index and level
// buffers and the page stores' blocks are the bulk of what a writer
// allocates (a 200-column file of 20,000 rows grows some 200 page buffers
// to a page each, by doubling). They come from pools shared by every
// writer of the process, size-classed by capacity, and go back when a
// writer outgrows them or closes: the buffers a column outgrows serve the
// next columns, and a closed writer's serve the next writer. The pools are
// sync.Pools, so the garbage collector empties what stays unused.

package runtime

import (
	"math/bits"
	"slices"
	"sync"
)

const (
	// poolMinShift: the smallest pooled buffer holds 1<<poolMinShift
	// elements; poolClasses: the classes double from there, so the
	// largest holds 1<<(poolMinShift+poolClasses-1). Larger buffers are
	// allocated and dropped as without pools.
	poolMinShift = 8
	poolClasses  = 17
)

// bufPool holds buffers of T of power-of-two capacities, class k holding
// those of capacity exactly 1<<(poolMinShift+k).
type bufPool[T any] struct {
	classes [poolClasses]sync.Pool // of *[]T
	boxes   sync.Pool              // empty *[]T, so that put allocates nothing
}

// The pools of the page buffers, by element type.
var (
	poolI32  bufPool[int32]
	poolU32  bufPool[uint32]
	poolI64  bufPool[int64]
	poolF32  bufPool[float32]
	poolF64  bufPool[float64]
	poolBool bufPool[bool]
	poolU8   bufPool[uint8]
)

// poolClass returns the class of buffers of capacity c, or -1 when c is
// not a pooled capacity.
func poolClass(c int) int {
	if c < 1<<poolMinShift || c&(c-1) != 0 {
		return -1
	}
	k := bits.Len(uint(c)) - 1 - poolMinShift
	if k >= poolClasses {
		return -1
	}
	return k
}

// growBuf returns s with room for n more elements after its length: s
// itself when it has the room; else a buffer of the next power-of-two
// capacity at least twice s's (from p when it has one) holding s's
// elements, s's buffer going back to p. The elements past the length are
// unspecified (a pooled buffer holds old data there).
func growBuf[T any](p *bufPool[T], s []T, n int) []T {
	need := len(s) + n
	if need <= cap(s) {
		return s
	}
	want := max(need, 2*cap(s), 1<<poolMinShift)
	c := 1 << bits.Len(uint(want-1))
	k := poolClass(c)
	if k < 0 {
		return slices.Grow(s, n) // beyond the largest class: unpooled
	}
	var b []T
	if x, _ := p.classes[k].Get().(*[]T); x != nil {
		b = (*x)[:len(s)]
		*x = nil
		p.boxes.Put(x)
	} else {
		b = make([]T, len(s), c)
	}
	copy(b, s)
	p.put(s)
	return b
}

// put gives s's buffer to p, if its capacity is pooled. The caller must
// not use s afterwards.
func (p *bufPool[T]) put(s []T) {
	if k := poolClass(cap(s)); k >= 0 {
		x, _ := p.boxes.Get().(*[]T)
		if x == nil {
			x = new([]T)
		}
		*x = s[:0]
		p.classes[k].Put(x)
	}
}

// storeBlocks holds the page stores' blocks (storeBlock bytes each) of
// closed writers.
var storeBlocks sync.Pool // of *[]byte

// newStoreBlock returns an empty block of storeBlock bytes' capacity.
func newStoreBlock() []byte {
	if x, _ := storeBlocks.Get().(*[]byte); x != nil {
		return (*x)[:0]
	}
	return make([]byte, 0, storeBlock)
}

// releaser is a valueWriter that gives its page buffers back to the pools
// (a closed writer's, which uses them no more).
type releaser interface {
	release()
}

// releaseBuffers gives the buffers of a closed writer back to the pools:
// the page stores' blocks and each column's page buffers. The writer must
// not use them afterwards (it is closed).
func (fw *FileWriter) releaseBuffers() {
	for _, c := range fw.cols {
		c.chunk.store.reset(&fw.free)
		poolU8.put(c.pg.def)
		poolU8.put(c.pg.rep)
		c.pg.def, c.pg.rep = nil, nil
		if r, ok := c.vals.(releaser); ok {
			r.release()
		}
	}
	for i, b := range fw.free {
		if cap(b) == storeBlock {
			b = b[:0]
			storeBlocks.Put(&b)
		}
		fw.free[i] = nil
	}
	fw.free = fw.free[:0]
}
