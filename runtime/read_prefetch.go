// Page prefetching (WithReadParallelism of 2 or more): the read-ahead of
// read_pipe.go decodes the next batch of every column while the caller
// assembles the current one, but a batch that crosses a page boundary
// pays for the whole next page: decompressing a page of 20,000 doubles
// (160 KB) took about three times as long as assembling a batch of 4,096
// flat rows, so every few batches the caller waited for that column
// while the goroutine had idled in the batches before. So once a column
// has taken a page, it asks for the next one (cursor.askPrefetch; under a
// row selection, only when the offset index places selected rows in it,
// as the others are passed over without being read), and a
// read-ahead goroutine left without columns to decode decodes that page
// then, into the chunk reader's second page (page.ChunkReader.Prefetch),
// over the batches the current page lasts. The column's read that needs
// the page finds it decoded, or waits for the rest of its decoding on
// the chunk reader's lock; reads within the current page take no lock.
// The pages, errors and deviations are the same, and met in the same
// order, as without it. (Asking only when the page had fewer slots left
// than two reads take started the decoding too late: reads waited 3 ms
// per 1,000,000 flat rows on the lock.)

package runtime

import (
	rt "runtime"
	"sync/atomic"
)

// spinLock is a lock held for at most a page's decoding: a waiter yields
// its processor between tries instead of parking, as a goroutine woken
// from sleep gets its processor back late on a virtual machine.
type spinLock struct{ v atomic.Int32 }

func (l *spinLock) lock() {
	for !l.v.CompareAndSwap(0, 1) {
		rt.Gosched()
	}
}

func (l *spinLock) tryLock() bool { return l.v.CompareAndSwap(0, 1) }

func (l *spinLock) unlock() { l.v.Store(0) }

// askPrefetch records, after a read, whether the column wants its next
// page decoded ahead: the chunk has pages after the current one, by its
// metadata, and the read will decode the next (nextPageWanted). It
// records which page that is, so that a goroutine late for the request,
// after the column's next read moved on to that page, decodes nothing.
func (c *cursor) askPrefetch() {
	var want int32
	if c.err == nil && c.inChunk && c.pg != nil && c.chunkSlots < c.wantSlots && c.nextPageWanted() {
		want = int32(c.pageOrd) + 1
	}
	if want != c.wantPage.Load() {
		c.wantPage.Store(want)
	}
}

// nextPageWanted reports whether the page after the current one will be
// decoded rather than passed over: always without row selection, or
// without an offset index (the rows of every page are decoded, those not
// kept dropped); with both, when the offset index places a kept row in
// it (nextPage passes over pages without one). It moves nothing: rows
// of the current page may still be kept by the ranges it looks past.
func (c *cursor) nextPageWanted() bool {
	if c.ranges == nil || c.oi == nil {
		return true
	}
	locs := c.oi.PageLocations
	i := c.pageOrd // pages loaded or passed over so far: the next one's index
	if i >= len(locs) {
		return false
	}
	start, end := locs[i].FirstRowIndex, c.wantRows
	if i+1 < len(locs) {
		end = locs[i+1].FirstRowIndex
	}
	for _, r := range c.ranges[c.rangeIdx:] {
		if r.end > start {
			return r.start < end
		}
	}
	return false
}

// prefetch decodes the next page of the columns that asked for it, for a
// read-ahead goroutine that found no column left to decode of batch seq;
// it returns as soon as another batch is offered, whose columns come
// first.
func (p *readPipe) prefetch(seq uint32) {
	for _, f := range p.front {
		if uint32(p.batch.Load()>>32) != seq {
			return
		}
		c := f.cur()
		want := c.wantPage.Load()
		if want == 0 || !c.crMu.tryLock() {
			continue
		}
		// Under the lock, the column's page is where the request left
		// it (pageOrd changes only under the lock), or it has moved on
		// and the chunk reader's next page is another.
		if c.wantPage.Load() == want && int32(c.pageOrd)+1 == want && c.cr != nil && c.cr.Prefetch() {
			p.prefetched.Add(1)
		}
		c.wantPage.CompareAndSwap(want, 0)
		c.crMu.unlock()
	}
}

// wastedPrefetch counts a page decoded ahead that its column then passed
// over (nextPageWanted should not ask for those), for tests; p may be nil.
func (p *readPipe) wastedPrefetch() {
	if p != nil {
		p.wasted.Add(1)
	}
}
