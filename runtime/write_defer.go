// Deferred page compression (pipelined writers, see write_parallel.go).
// A page is cut within a batch: its levels and values are encoded there,
// but compressing it (ZSTD takes about a millisecond for a page of 1 MiB)
// held up the whole batch, and so the next EndRows, while the caller had
// nothing to do. A pipelined writer instead encodes the page into a
// pendingPage of its own (page.Builder.PrepareDataPage) and leaves its
// compression, header and copy into the chunk
// (page.Builder.FinishDataPageParts) to an idle worker, or to whoever
// needs the page first.
//
// The bytes stay those of the sequential writer:
//   - a column has at most one pending page: its next cut first awaits it
//     (the next page's store decision, storeRuns, follows from its size);
//   - the row group decision takes a pending page at a bound of its size
//     and awaits the pages when the bounds reach the row group size
//     (FileWriter.rowGroupFull);
//   - a chunk is written once its page is done (writeChunk).
//
// Only pages of deferMinBytes or more are left pending, at most one per
// worker and deferBudget bytes of bodies at a time; other cuts compress
// their pages at once, as the sequential writer does. An awaited
// pendingPage keeps its buffers for the writer's next (pageQueue.free).

package runtime

import (
	goruntime "runtime"
	"sync"
	"sync/atomic"

	"github.com/pqgen/pqgen/runtime/compress"
	"github.com/pqgen/pqgen/runtime/meta"
	"github.com/pqgen/pqgen/runtime/page"
)

// deferBudget is the most bytes of page bodies that pending pages hold.
const deferBudget = 8 << 20

// The states of a pendingPage.
const (
	pageQueued  int32 = iota // no one runs it yet
	pageRunning              // taken (pendingPage.take)
	pageDone                 // finished: its column's chunk has it
)

// pendingPage is a data page cut and encoded but not yet compressed.
type pendingPage struct {
	c     *leafWriter
	b     page.Builder // its own buffers: the prepared page
	info  int          // the page's entry in c.chunk.pages
	rg    int          // the row group it belongs to (for errors)
	base  int64        // c.chunk.store.n when cut
	bound int64        // the most bytes the page can take in the chunk
	held  int64        // body bytes counted in the writer's budget
	out   []byte       // the finished page's header
	state atomic.Int32
	err   error // set before the state turns pageDone
}

// pageQueue holds the pending pages of a writer for the workers to take,
// oldest first.
type pageQueue struct {
	mu      sync.Mutex
	q       []*pendingPage
	n       atomic.Int32   // len(q), read without the lock
	held    atomic.Int64   // body bytes the pending pages hold
	pending atomic.Int32   // pages prepared and not finished
	total   atomic.Int64   // pages ever left pending (for tests)
	free    []*pendingPage // awaited pages, their buffers kept for the next
}

// get returns a pendingPage to fill: an awaited one, with the buffers its
// last page grew, or a new one without buffers (prepare takes pooled ones
// of the page's size). A goroutine may still hold an old queue entry of a
// reused page: its take fails unless the page is queued again, then
// finishing it is right.
func (q *pageQueue) get() *pendingPage {
	q.mu.Lock()
	defer q.mu.Unlock()
	if n := len(q.free); n > 0 {
		pp := q.free[n-1]
		q.free = q.free[:n-1]
		return pp
	}
	return &pendingPage{}
}

// put keeps pp, awaited, for get.
func (q *pageQueue) put(pp *pendingPage) {
	pp.c, pp.err = nil, nil
	q.mu.Lock()
	q.free = append(q.free, pp)
	q.mu.Unlock()
}

// release gives the kept pages' buffers to the pools (a closed writer's).
func (q *pageQueue) release() {
	for _, pp := range q.free {
		moveBuilder(&pp.b, false)
		scratchBytes[scratchHdr].move(&pp.out, false) // headers: FinishDataPageParts
	}
	q.free = nil
}

func (q *pageQueue) push(pp *pendingPage) {
	q.mu.Lock()
	q.q = append(q.q, pp)
	q.n.Store(int32(len(q.q)))
	q.mu.Unlock()
}

// pop removes and returns the oldest page, or nil.
func (q *pageQueue) pop() *pendingPage {
	if q.n.Load() == 0 {
		return nil
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	if len(q.q) == 0 {
		return nil
	}
	pp := q.q[0]
	q.q[0] = nil
	q.q = q.q[1:]
	q.n.Store(int32(len(q.q)))
	return pp
}

// runQueued finishes the oldest queued page no one took, if any, and
// reports whether it finished one. Only workers call it: it counts them
// busy meanwhile (pipeline.workerBusy).
func (fw *FileWriter) runQueued() bool {
	for {
		pp := fw.pages.pop()
		if pp == nil {
			return false
		}
		if pp.take() {
			fw.pipe.workerBusy.Add(1)
			pp.run()
			fw.pipe.workerBusy.Add(-1)
			return true
		}
	}
}

// take claims pp for the calling goroutine.
func (pp *pendingPage) take() bool { return pp.state.CompareAndSwap(pageQueued, pageRunning) }

// run compresses pp and appends it to its chunk; pp must be taken.
func (pp *pendingPage) run() {
	c := pp.c
	hdr, body, built, err := pp.b.FinishDataPageParts(pp.out[:0])
	pp.out = hdr
	if err != nil {
		pp.err = c.pageErr(pp.rg, err)
	} else {
		c.pageBuilt(hdr, body, built, &c.chunk.pages[pp.info])
	}
	c.fw.pages.held.Add(-pp.held)
	c.fw.pages.pending.Add(-1)
	pp.state.Store(pageDone)
}

// deferPage reports whether c's page of about n body bytes, being cut,
// is left pending: in a pipelined writer's batch (not at a flush, not in
// a stretch without workers), under a codec, when it is large
// (deferMinBytes) and fewer pages than workers are pending, within the
// budget. Only a page whose compression outlasts a batch held the caller
// up; the many small pages a wide schema cuts at once are shared out
// within the batch already, and compressing them later, out of cache,
// cost more than it saved.
func (c *leafWriter) deferPage(n int) bool {
	fw := c.fw
	return fw.pipe.on && fw.pipe.deferPages && c.crypto == nil && c.opt.codec != meta.Uncompressed && n >= deferMinBytes &&
		int(fw.pages.pending.Load()) < fw.pipe.workers.size() &&
		fw.pages.held.Load()+int64(n) <= deferBudget
}

// deferMinBytes is the least body of a page left pending.
const deferMinBytes = 64 << 10

// prepare makes p c's pending page, compressed at level, queued for the
// workers; info is the
// page's entry, appended to the chunk here, its offset and size filled
// when it is finished.
func (c *leafWriter) prepare(p *page.DataPageParams, level compress.Level, info pageInfo, held int) error {
	pp := c.fw.pages.get()
	pp.c, pp.rg, pp.base = c, len(c.fw.rowGroups), c.chunk.store.n
	pp.b.Codec, pp.b.Level, pp.b.CRC = c.opt.codec, level, c.opt.crc
	// The body and its compression take about held bytes each: room for
	// them at once, from the scratch's pools (where an awaited page's
	// buffers go back, moveBuilder), instead of growing by doubling.
	bufs := pp.b.Buffers()
	for i, b := range bufs[:2] {
		*b = scratchBytes[scratchBody+i].grow((*b)[:0], held)
	}
	if err := pp.b.PrepareDataPage(p); err != nil {
		c.fw.pages.put(pp)
		return c.pageErr(pp.rg, err)
	}
	c.chunk.pages = append(c.chunk.pages, info)
	pp.info = len(c.chunk.pages) - 1
	pp.bound = pageBound(p, held)
	pp.held = int64(held)
	c.fw.pages.held.Add(pp.held)
	c.fw.pages.pending.Add(1)
	c.fw.pages.total.Add(1)
	c.pend = pp
	pp.state.Store(pageQueued) // last: a reused page is taken only now
	c.fw.pages.push(pp)
	return nil
}

// pageBound returns the most bytes a data page of p, whose levels and
// values take at most body bytes, takes with its header: any codec's
// output is under twice its input plus 1 KiB, and a header under 512
// bytes besides its statistics' bounds (each written at most twice).
func pageBound(p *page.DataPageParams, body int) int64 {
	n := int64(2*body + 1024 + 512)
	if s := p.Statistics; s != nil {
		n += 2 * int64(len(s.Min)+len(s.Max)+len(s.MinValue)+len(s.MaxValue))
	}
	return n
}

// awaitPage waits until c has no pending page, finishing it on the
// calling goroutine when no one took it, and returns its error.
func (c *leafWriter) awaitPage() error {
	pp := c.pend
	if pp == nil {
		return nil
	}
	if pp.take() {
		pp.run()
	} else {
		for pp.state.Load() != pageDone {
			goruntime.Gosched()
		}
	}
	c.pend = nil
	err := pp.err
	c.fw.pages.put(pp)
	return err
}

// awaitPages awaits every column's pending page, returning the first
// error in column order.
func (fw *FileWriter) awaitPages() error {
	var first error
	for _, c := range fw.cols {
		if err := c.awaitPage(); err != nil && first == nil {
			first = err
		}
	}
	return first
}
