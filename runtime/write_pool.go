// Buffer pools of the writer: the open pages' value, index and level
// buffers and the page stores' blocks are the bulk of what a writer
// allocates (a 200-column file of 20,000 rows grows some 200 page buffers
// to a page each, by doubling). They come from pools shared by every
// writer of the process, size-classed by capacity, and go back when a
// writer outgrows them or closes: the buffers a column outgrows serve the
// next columns, and a closed writer's serve the next writer, whose page
// buffers start at the size the closed writer's reached (pageKind). The
// pools are sync.Pools (package bufpool), so the garbage collector
// empties what stays unused.

package runtime

import (
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/pqgen/pqgen/runtime/encode"
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

// pageKind is one kind of page buffer (a numeric column's open page of
// values, a column's definition levels, ...), grown through pool p with
// a hint: the class of the last buffer of the kind a closing writer gave
// back. The first growth of an empty buffer takes a pooled slice of that
// class, when the pool holds one, so that a new writer's pages do not
// grow to their size by doubling again, copying what they hold at each
// step (the writers of a program write pages of about the same sizes).
// The hint is capped at maxPageHintBytes a buffer, so that one writer of
// large pages does not make every column of the next ones start large;
// it never allocates: a class the pool lacks starts empty, as without
// the hint.
type pageKind[T any] struct {
	p    *bufpool.Pool[T]
	hint atomic.Int32 // the class of the last buffer given back, plus 1 (0: none)
}

// maxPageHintBytes bounds the size of a buffer that pageKind.grow starts
// with: 1 MiB, the default page size.
const maxPageHintBytes = 1 << 20

// The page buffer kinds.
var (
	pageBool = pageKind[bool]{p: &poolBool}
	pageI32  = pageKind[int32]{p: &poolI32}
	pageI64  = pageKind[int64]{p: &poolI64}
	pageF32  = pageKind[float32]{p: &poolF32}
	pageF64  = pageKind[float64]{p: &poolF64}
	pageIdx  = pageKind[int32]{p: &poolI32}  // dictionary indices
	pageDef  = pageKind[uint8]{p: &poolU8}   // definition levels
	pageRep  = pageKind[uint8]{p: &poolU8}   // repetition levels
	pageData = pageKind[uint8]{p: &poolU8}   // byte-array values' bytes
	pageOffs = pageKind[uint32]{p: &poolU32} // and their offsets
)

// grow is growBuf for a buffer of kind k: s with room for n more
// elements, starting from a pooled slice of the hinted class when s has
// no capacity.
func (k *pageKind[T]) grow(s []T, n int) []T {
	if cap(s) == 0 && n > 0 {
		if c := int(k.hint.Load()) - 1; c >= 0 {
			if b := k.p.TryGet(c); b != nil {
				s = b
			}
		}
	}
	return bufpool.Grow(k.p, s, n)
}

// put gives s, a buffer of kind k that its writer is done with, back to
// the pool, and makes its class the hint when it is within
// maxPageHintBytes.
func (k *pageKind[T]) put(s []T) {
	c := bufpool.Class(cap(s))
	if c < 0 {
		return // not pooled
	}
	if cap(s)*int(unsafe.Sizeof(s[:1][0])) <= maxPageHintBytes {
		k.hint.Store(int32(c + 1))
	}
	k.p.Put(s)
}

// batchPool is a pool the column buffers generated code appends to (the
// batch buffers: Int64Buffer.Values, Levels.Def, ...) take their slices
// from, with a hint: the class of the last such slice a closed writer
// gave. A new writer's buffers start from a pooled slice of that class,
// when the pool holds one, so that the writers of a program, which
// shred batches of the same sizes, reuse the batch buffers instead of
// growing new ones by doubling in their first batch (for 200 columns,
// megabytes per writer). Hints above maxHint are not taken: a writer of
// long lists must not make the next writer's every column start large.
type batchPool[T any] struct {
	p       *bufpool.Pool[T]
	maxHint int
	hint    atomic.Int32 // the class of the last slice given, plus 1 (0: none)
}

// The batch buffer pools: values by element type, levels, byte-array
// data (whose size per batch varies more across columns) and offsets.
var (
	batchBool   = batchPool[bool]{p: &poolBool, maxHint: 4}
	batchI32    = batchPool[int32]{p: &poolI32, maxHint: 4}
	batchI64    = batchPool[int64]{p: &poolI64, maxHint: 4}
	batchF32    = batchPool[float32]{p: &poolF32, maxHint: 4}
	batchF64    = batchPool[float64]{p: &poolF64, maxHint: 4}
	batchLevels = batchPool[uint8]{p: &poolU8, maxHint: 4}
	batchData   = batchPool[uint8]{p: &poolU8, maxHint: 8}
	batchOffs   = batchPool[uint32]{p: &poolU32, maxHint: 4}
	// scratchBytes: the page scratch's buffers, of about a page each
	// (a writer has one scratch per goroutine).
	scratchBytes = batchPool[uint8]{p: &poolU8, maxHint: 12}
)

// move takes pooled buffers into the empty scratch sc (take), or gives
// its buffers to the pools, leaving them nil (see batchPool.move).
func (sc *pageScratch) move(take bool) {
	for _, b := range sc.b.Buffers() {
		scratchBytes.move(b, take)
	}
	scratchBytes.move(&sc.values, take)
	scratchBytes.move(&sc.page, take)
}

// move takes a pooled slice of the hinted class into *s, which must be
// empty (take), or gives *s's buffer to the pool, hinting its class, and
// sets *s to nil. A slice handed out is empty, or nil when the pool holds
// none of the class.
func (b *batchPool[T]) move(s *[]T, take bool) {
	if take {
		if k := int(b.hint.Load()) - 1; k >= 0 && k <= b.maxHint {
			*s = b.p.TryGet(k)
		}
		return
	}
	if k := b.p.PutFloor(*s); k >= 0 {
		b.hint.Store(int32(k + 1))
	}
	*s = nil
}

// moveBatch moves the slices of batch buffer buf (a column's, of type
// *BoolBuffer, ... as leafWriter.bufferOf returns): take gives an empty
// buffer of a new column pooled slices (levels only for a column that
// has them: def, rep); else a closed writer's buffer gives its slices to
// the pools and is left with nil slices, so that generated code that
// appends to it after Close (an error it reports) cannot reach pooled
// memory. The caller must not use the given slices afterwards.
func moveBatch(buf any, take, def, rep bool) {
	var lv *Levels
	switch b := buf.(type) {
	case *BoolBuffer:
		lv = &b.Levels
		batchBool.move(&b.Values, take)
	case *Int32Buffer:
		lv = &b.Levels
		batchI32.move(&b.Values, take)
	case *Int64Buffer:
		lv = &b.Levels
		batchI64.move(&b.Values, take)
	case *FloatBuffer:
		lv = &b.Levels
		batchF32.move(&b.Values, take)
	case *DoubleBuffer:
		lv = &b.Levels
		batchF64.move(&b.Values, take)
	case *ByteArrayBuffer:
		lv = &b.Levels
		batchData.move(&b.Values.Data, take)
		batchOffs.move(&b.Values.Offsets, take)
		if !take {
			b.Values = encode.ByteArrays{}
		}
	case *FixedBuffer:
		lv = &b.Levels
		batchData.move(&b.Values, take)
	case *Int96Buffer:
		lv = &b.Levels
		if !take {
			b.Values = nil
		}
	default:
		return
	}
	if !take || def {
		batchLevels.move(&lv.Def, take)
	}
	if !take || rep {
		batchLevels.move(&lv.Rep, take)
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
// the page stores' blocks, each column's page buffers and its batch
// buffers (those generated code appends to, emptied). The writer must
// not use them afterwards (it is closed).
func (fw *FileWriter) releaseBuffers() {
	for _, c := range fw.cols {
		c.chunk.store.reset(&fw.free)
		pageDef.put(c.pg.def)
		pageRep.put(c.pg.rep)
		c.pg.def, c.pg.rep = nil, nil
		if r, ok := c.vals.(releaser); ok {
			r.release()
		}
		if c.front != c.back {
			moveBatch(c.front, false, true, true)
		}
		moveBatch(c.back, false, true, true)
	}
	for i := range fw.pageSc {
		fw.pageSc[i].move(false)
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
