// Buffer pools of the writer: the open pages' value, index and level
// buffers and the page stores' blocks are the bulk of what a writer
// allocates (a 200-column file of 20,000 rows grows some 200 page buffers
// to a page each, by doubling). They come from pools shared by every
// writer of the process, size-classed by capacity, and go back when a
// writer outgrows them or closes: the buffers a column outgrows serve the
// next columns, and a closed writer's serve the next writer. The pools are
// sync.Pools (package bufpool), so the garbage collector empties what
// stays unused.

package runtime

import (
	"sync"

	"github.com/pqgen/pqgen/runtime/internal/bufpool"
)

// The pools of the page buffers, by element type.
var (
	poolI32  bufpool.Pool[int32]
	poolU32  bufpool.Pool[uint32]
	poolI64  bufpool.Pool[int64]
	poolF32  bufpool.Pool[float32]
	poolF64  bufpool.Pool[float64]
	poolBool bufpool.Pool[bool]
	poolU8   bufpool.Pool[uint8]
)

// growBuf is bufpool.Grow: s with room for n more elements, grown
// through p.
func growBuf[T any](p *bufpool.Pool[T], s []T, n int) []T {
	return bufpool.Grow(p, s, n)
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
		poolU8.Put(c.pg.def)
		poolU8.Put(c.pg.rep)
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
