// Buffer pools of the writer: the open pages' value, index and level
// buffers and the page stores' blocks are the bulk of what a writer
// allocates (a 200-column file of 20,000 rows grows some 200 page buffers
// to a page each, by doubling). They come from pools shared by every
// writer of the process, size-classed by capacity, and go back when a
// writer outgrows them or closes: the buffers a column outgrows serve the
// next columns, and a closed writer's serve the next writer, whose page
// buffers start at the size the closed writer's reached (hintPool); the
// page scratch's are kept whole, at their own capacity. The pools are
// sync.Pools (package bufpool), so the garbage collector empties what
// stays unused.

package runtime

import (
	"sync"
	"sync/atomic"

	"github.com/pqgen/pqgen/runtime/encode"
	"github.com/pqgen/pqgen/runtime/internal/bufpool"
	"github.com/pqgen/pqgen/runtime/page"
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
	// poolStore holds the small first blocks of page stores
	// (pageStore.first), apart from the byte buffers of poolU8, whose
	// hints expect their classes' buffers back.
	poolStore bufpool.Pool[uint8]
)

// growBuf is bufpool.Grow: s with room for n more elements, grown
// through p.
func growBuf[T any](p *bufpool.Pool[T], s []T, n int) []T {
	return bufpool.Grow(p, s, n)
}

// hintPool is a pool one kind of buffer takes its slices from, with a
// hint: the class of the last such slice a closed writer gave back. A new
// writer's buffer starts from a pooled slice of that class, when the pool
// holds one, so that the writers of a program, which shred batches and
// write pages of about the same sizes, reuse the buffers instead of
// growing new ones by doubling, copying what they hold at each step (for
// 200 columns, megabytes per writer). Hints above maxHint are not taken:
// a writer of long lists or large pages must not make every column of
// the next writers start large. The hint never allocates: a class the
// pool lacks starts empty, as without it.
type hintPool[T any] struct {
	p       *bufpool.Pool[T]
	maxHint int
	hint    atomic.Int32 // the class of the last slice given, plus 1 (0: none)
	// exact, when set, keeps the slices given back whole, whatever their
	// capacity, and hands them out before the hinted class: the page
	// scratch's buffers grow by append to a page's size, seldom a power
	// of two, and cut to the class below it (PutFloor) they were short
	// of the next writer's pages, which grew new ones (fresh memory, some
	// 0.5 MB per writer of the flat suite's pages of 20,000 values).
	exact    *bufpool.Whole[T]
	exactMax int          // the largest capacity exact keeps
	exactCap atomic.Int64 // the capacity of the last slice exact kept
}

// The batch buffer pools, for the column buffers generated code appends
// to (Int64Buffer.Values, Levels.Def, ...): values by element type,
// levels, byte-array data (whose size per batch varies more across
// columns) and offsets.
var (
	batchBool   = hintPool[bool]{p: &poolBool, maxHint: 4}
	batchI32    = hintPool[int32]{p: &poolI32, maxHint: 4}
	batchI64    = hintPool[int64]{p: &poolI64, maxHint: 4}
	batchF32    = hintPool[float32]{p: &poolF32, maxHint: 4}
	batchF64    = hintPool[float64]{p: &poolF64, maxHint: 4}
	batchLevels = hintPool[uint8]{p: &poolU8, maxHint: 4}
	batchData   = hintPool[uint8]{p: &poolU8, maxHint: 8}
	batchOffs   = hintPool[uint32]{p: &poolU32, maxHint: 4}
)

// The page scratch's buffers (a writer has one scratch per goroutine, and
// one set per deferred page): a page builder's four (page.Builder.Buffers:
// body, compressed body, encrypted body, encrypted header), the encoded
// values and the built page. Each has its own hint: they differ in size
// (a page's values against its header), and a buffer started from
// another's size regrew by doubling, copying and clearing what it had,
// several times per write.
const (
	scratchBody = iota
	scratchComp
	scratchSealed
	scratchHdr
	scratchValues
	scratchPage
	scratchBuffers
)

// scratchBytes holds the pools of the page scratch's buffers, by the
// indices above, of about a page each (hints up to 1 MiB, class 12).
var scratchBytes [scratchBuffers]hintPool[uint8]

func init() {
	for i := range scratchBytes {
		scratchBytes[i].p, scratchBytes[i].maxHint = &poolU8, 12
	}
	// The buffers every page cut uses (not the encrypted body and header,
	// which only encrypted files' pages and deferred pages do), up to
	// pages of the default page size (1 MiB), their bodies compressed and
	// levels included.
	for _, i := range []int{scratchBody, scratchComp, scratchValues, scratchPage} {
		scratchBytes[i].exact, scratchBytes[i].exactMax = new(bufpool.Whole[uint8]), 2<<20
	}
}

// moveBuilder moves the buffers of page builder b as pageScratch.move
// moves the scratch's.
func moveBuilder(b *page.Builder, take bool) {
	for i, buf := range b.Buffers() {
		scratchBytes[scratchBody+i].move(buf, take)
	}
}

// The page buffer pools, for a column's open page: values by element
// type, dictionary indices, levels, byte-array data and offsets. Their
// hints stop at 1 MiB a buffer, the default page size (class 12 of bytes,
// 10 of 4-byte values, 9 of 8-byte values).
var (
	pageBool = hintPool[bool]{p: &poolBool, maxHint: 12}
	pageI32  = hintPool[int32]{p: &poolI32, maxHint: 10}
	pageI64  = hintPool[int64]{p: &poolI64, maxHint: 9}
	pageF32  = hintPool[float32]{p: &poolF32, maxHint: 10}
	pageF64  = hintPool[float64]{p: &poolF64, maxHint: 9}
	pageIdx  = hintPool[int32]{p: &poolI32, maxHint: 10}
	pageDef  = hintPool[uint8]{p: &poolU8, maxHint: 12}
	pageRep  = hintPool[uint8]{p: &poolU8, maxHint: 12}
	pageData = hintPool[uint8]{p: &poolU8, maxHint: 12}
	pageOffs = hintPool[uint32]{p: &poolU32, maxHint: 10}
)

// move takes pooled buffers into the empty scratch sc (take), or gives
// its buffers to the pools, leaving them nil (see hintPool.move).
func (sc *pageScratch) move(take bool) {
	sc.cold = take
	moveBuilder(&sc.b, take)
	scratchBytes[scratchValues].move(&sc.values, take)
	scratchBytes[scratchPage].move(&sc.page, take)
}

// move takes a slice into *s, which must be empty (take), or gives *s's
// buffer to the pool and sets *s to nil. With exact, the slice taken is
// one kept whole, or nil when the garbage collector emptied exact (warm
// sizes it at the first page cut), and the slice given is kept whole up
// to exactMax. Otherwise the slice taken is a pooled one of the hinted
// class, or nil when the pool holds none (the hint never allocates), and
// the slice given goes to its class, hinted.
func (b *hintPool[T]) move(s *[]T, take bool) {
	if take {
		if b.exact != nil {
			*s = b.exact.Get()
			return
		}
		if k := int(b.hint.Load()) - 1; k >= 0 && k <= b.maxHint {
			*s = b.p.TryGet(k)
		}
		return
	}
	if b.exact != nil && cap(*s) > 0 && cap(*s) <= b.exactMax {
		b.exactCap.Store(int64(cap(*s)))
		b.exact.Put(*s)
		*s = nil
		return
	}
	if k := b.p.PutFloor(*s); k >= 0 {
		b.hint.Store(int32(k + 1))
	}
	*s = nil
}

// warm gives *s, a buffer of b with exact that move left without
// capacity (the garbage collector had emptied exact), one slice for the
// page about to be cut, of need bytes or so: the capacity exact kept
// last, for a page cut because it is full (the writer's pages are that
// large; one slice, not a series grown by doubling), or need when that is
// less, for a page cut at a flush (a writer of a few rows must not take a
// buffer of the last writer's page size, up to exactMax, for it), from
// the size-classed pool when it holds one (grow).
func (b *hintPool[T]) warm(s *[]T, need int, full bool) {
	if cap(*s) > 0 || b.exact == nil {
		return
	}
	c := int(b.exactCap.Load())
	if c <= 0 {
		return // nothing kept yet: the buffer grows as before
	}
	if full {
		*s = make([]T, 0, c) // exact keeps it whole, at this capacity
		return
	}
	*s = bufpool.Grow(b.p, *s, min(c, max(need+need/8, minWarm)))
}

// minWarm is the least capacity warm gives a buffer.
const minWarm = 4 << 10

// warm sizes the buffers of sc that move left without capacity for a
// page of about need bytes (see hintPool.warm), once per move.
func (sc *pageScratch) warm(need int, full bool) {
	sc.cold = false
	for i, buf := range sc.b.Buffers() {
		scratchBytes[scratchBody+i].warm(buf, need, full)
	}
	scratchBytes[scratchValues].warm(&sc.values, need, full)
	scratchBytes[scratchPage].warm(&sc.page, need, full)
}

// grow is growBuf for a buffer of b: s with room for n more elements,
// starting from a pooled slice of the hinted class when s has no
// capacity.
func (b *hintPool[T]) grow(s []T, n int) []T {
	if cap(s) == 0 && n > 0 {
		b.move(&s, true)
	}
	return bufpool.Grow(b.p, s, n)
}

// put gives s, a buffer of b its writer is done with, to the pool,
// hinting its class (move).
func (b *hintPool[T]) put(s []T) { b.move(&s, false) }

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
		c.chunk.store.release()
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
	fw.pages.release()
	for i, b := range fw.free {
		if cap(b) == storeBlock {
			b = b[:0]
			storeBlocks.Put(&b)
		}
		fw.free[i] = nil
	}
	fw.free = fw.free[:0]
}
