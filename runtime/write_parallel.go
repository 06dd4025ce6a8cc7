// Column-parallel writing (WithParallelism): the columns of a row group
// are independent until their chunks are written, so moving rows into
// pages, encoding and compressing them can run on several goroutines.
// Chunks are still written one after the other, in column order, so the
// file does not depend on the parallelism.
//
// Generated writers end rows in batches of 1,024 rows (fewer of large
// values), too small to share out and wait for within EndRows. So a
// parallel writer pipelines them: every column has two buffers, the front
// one generated code fills and the back one its pages are filled from.
// EndRows copies the front one's rows into the back one (passBatch) and
// hands the batch to worker goroutines, which move it into pages while the
// caller shreds the next batch; the next EndRows
// (or Flush, or Close) first helps with the columns left and waits for
// the batch, then makes the row group decision the sequential writer made
// at the end of the batch (its size at or above WithRowGroupSize: flush).
// One batch is in flight at most, so the pipeline's memory is one more set
// of column buffers. Workers exit when idle for a moment, at Close and on
// an error, so none outlive the writer's use.

package runtime

import (
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/pqgen/pqgen/runtime/encode"
)

// parallelMinSlots is the least rows × columns an EndRows call must move
// for its columns to be worked on in parallel: below it the goroutines'
// start and wait cost more than they save (on two cores, batches of a few
// thousand slots ran slower in parallel, 200-column batches faster).
const parallelMinSlots = 16 << 10

// colOp is the work forColumns does on each column.
type colOp int

const (
	opConsume colOp = iota // consume(rows)
	opCutPage              // cutPage(true): a row group's flush
)

func (c *leafWriter) run(op colOp, rows int) error {
	if op == opConsume {
		return c.consume(rows)
	}
	return c.cutPage(true)
}

// pageScratch returns the page scratch of worker k (0: the caller's),
// creating the workers' scratch on first use.
func (fw *FileWriter) pageScratch(k int) *pageScratch {
	if k >= len(fw.pageSc) {
		n := len(fw.pageSc)
		fw.pageSc = append(fw.pageSc, make([]pageScratch, k+1-n)...)
		for i := n; i <= k; i++ {
			fw.pageSc[i].move(true) // pooled buffers (write_pool.go)
		}
	}
	return &fw.pageSc[k]
}

// forColumns runs op on every column and returns the error of the first
// column (in column order) that failed. With Parallelism above 1, up to
// that many goroutines (the caller's included) take columns in turn;
// otherwise, for encrypted files, or for an EndRows moving fewer than
// parallelMinSlots rows × columns, the caller runs them in order and
// stops at the first error, allocating nothing.
func (fw *FileWriter) forColumns(op colOp, rows int) error {
	n := min(fw.cfg.Parallelism, len(fw.cols))
	if n <= 1 || fw.crypto != nil || op == opConsume && rows*len(fw.cols) < parallelMinSlots {
		sc := fw.pageScratch(0)
		for _, c := range fw.cols {
			c.sc = sc
			if err := c.run(op, rows); err != nil {
				return err
			}
		}
		return nil
	}
	if len(fw.colErrs) != len(fw.cols) {
		fw.colErrs = make([]error, len(fw.cols))
	}
	errs := fw.colErrs
	fw.pageScratch(n - 1)
	var next atomic.Int64
	work := func(sc *pageScratch) {
		for {
			i := int(next.Add(1) - 1)
			if i >= len(fw.cols) {
				return
			}
			fw.cols[i].sc = sc
			errs[i] = fw.cols[i].run(op, rows)
		}
	}
	var wg sync.WaitGroup
	for k := 1; k < n; k++ {
		wg.Go(func() { work(&fw.pageSc[k]) })
	}
	work(&fw.pageSc[0])
	wg.Wait()
	return takeFirstErr(errs)
}

// takeFirstErr returns the first error of errs, the one the work done in
// order would have stopped at, and clears errs for the next round.
func takeFirstErr(errs []error) error {
	for i, err := range errs {
		if err != nil {
			clear(errs[i:])
			return err
		}
	}
	return nil
}

// pipeline is a parallel writer's batch in flight and its workers (see
// the file comment).
//
// A worker waits for the next batch spinning (yielding its processor), not
// parked: waking a parked goroutine costs about as much as a batch's work.
// A worker idle for workerWait exits, so a writer that is not used (or
// abandoned without Close) keeps no goroutine; the next batch starts it
// again. Close and errors stop the workers at once.
type pipeline struct {
	on   bool // the writer pipelines (WithParallelism above 1, not encrypted)
	busy bool // a batch is in flight
	// deferPages: the batch in flight leaves its pages' compression to
	// idle workers (write_defer.go); not in stretches without workers,
	// nor at a flush.
	deferPages bool
	check      bool // the row group size is still to be checked after the batch
	rows       int  // of the batch in flight
	errs       []error
	workers    workerSet // worker k uses scratch k+1
	// Phases: the writer alternates between stretches of batches with
	// workers and stretches without (alone: the caller consumes each batch
	// at the next EndRows), and times both; a stretch lasts its length in
	// batches and at least minTime. At the end of each stretch the rates
	// per row of the last stretch of each kind are compared. While the
	// workers pay (their stretch was at least 5% faster), the stretches
	// with them double in length and those without stay probes of
	// pipeProbe batches, so that on an idle machine almost every batch
	// has workers. While they do not (the machine's cores are busy:
	// workers get a core late and cost the caller the processor time they
	// spin and are started in), the stretches without double and those
	// with stay short. One verdict against workers alone changes nothing:
	// the first stretch with workers holds the burst of every chunk's
	// first page cuts, and a stretch of an idle machine can be slowed by
	// something else once; the pipeline backs off at the second verdict
	// in a row.
	//
	// A stretch with workers whose workers were on time for its batches
	// (onTime) needs no probe while no verdict went against them: the
	// next stretch with workers follows at twice the length, up to
	// pipePhaseMax, and only a stretch of that length is followed by a
	// probe. Probes are costly on an idle machine: their batches run at
	// the sequential rate, and stretches of a few batches are timed with
	// the noise of the page cuts that fall in them (in writes of 200,000
	// rows, typically 11-18% of the batches ran without workers, and up to
	// 7 of a write's verdicts went against workers that were on time).
	// late counts the batches of the stretch with workers that the
	// workers were late for (see batchLate).
	late                 int
	workerWork           atomic.Uint64 // pieces of work workers finished
	workerBusy           atomic.Int32  // workers compressing a deferred page (runQueued)
	seenWork             uint64        // workerWork at the last batch's end
	alone                bool
	phaseLeft, phaseRows int // batches left in the stretch; rows so far
	phaseStart           time.Time
	aloneRate, pipedRate float64 // per row, of the last stretch of each kind
	pipedLen, aloneLen   int
	misses               int // verdicts against workers in a row
	minTime              time.Duration

	seq    atomic.Uint64   // batches started
	claims []atomic.Uint64 // per column: the last batch that took it
	// Per column, its time per row moving rows into pages (a moving
	// average, written by whoever took the column); and the columns
	// from the costliest, as of the last reordering (see
	// consumeColumns). The order is replaced, not written over: a
	// worker late for a batch may still be reading the old one.
	cost      []float64
	order     atomic.Pointer[[]int32]
	reorderIn int       // batches to the next reordering
	done      doneCount // columns of the batch finished
}

// The lengths of the pipeline's stretches (see pipeline), in batches, and
// the least time a stretch lasts: stretches of small batches are timed
// over more than the clock's and the scheduler's noise.
const (
	pipeFirst    = 32   // the first stretch with workers
	pipeProbe    = 8    // a stretch without workers while they pay
	pipeRetry    = 16   // a stretch with workers while they do not
	pipePhaseMax = 4096 // the longest stretch of either kind
	pipeMinTime  = 500 * time.Microsecond
)

// setupPipeline turns the pipeline on for a parallel plaintext writer and
// gives every column its front buffer.
func (fw *FileWriter) setupPipeline() {
	p := &fw.pipe
	if fw.cfg.Parallelism <= 1 || fw.crypto != nil {
		return
	}
	p.on = true
	workers := max(min(fw.cfg.Parallelism, len(fw.cols))-1, 1)
	p.workers.init(workers, fw.worker)
	p.errs = make([]error, len(fw.cols))
	p.claims = make([]atomic.Uint64, len(fw.cols))
	p.cost = make([]float64, len(fw.cols))
	order := make([]int32, len(fw.cols))
	for i := range order {
		order[i] = int32(i)
	}
	p.order.Store(&order)
	p.reorderIn = pipeReorder
	p.pipedLen, p.aloneLen, p.minTime = pipeFirst, pipeProbe, pipeMinTime
	p.done.init()
	fw.pageScratch(workers)
	for _, c := range fw.cols {
		c.pipelineBuffers()
	}
}

// bufferOf returns the typed buffer the column's value writer reads.
func (c *leafWriter) bufferOf() any {
	switch v := c.vals.(type) {
	case *boolValues:
		return v.buf
	case *byteArrayValues:
		return v.buf
	case *fixedValues:
		if v.i96 != nil {
			return v.i96
		}
		return v.buf
	}
	switch {
	case c.i32 != nil:
		return c.i32
	case c.i64 != nil:
		return c.i64
	case c.f32 != nil:
		return c.f32
	}
	return c.f64
}

// pipelineBuffers gives the column its front buffer, empty, of the back
// buffer's type, with slices from the batch pools as the back buffer's
// (newLeafWriter; a closed writer gives both buffers' slices back), and
// the function that hands the front buffer's batch to the back one
// (passBatch).
func (c *leafWriter) pipelineBuffers() {
	switch b := c.back.(type) {
	case *BoolBuffer:
		c.front, c.pass = passBatch(b, &BoolBuffer{}, swapValues(func(b *BoolBuffer) *[]bool { return &b.Values }))
	case *Int32Buffer:
		c.front, c.pass = passBatch(b, &Int32Buffer{}, swapValues(func(b *Int32Buffer) *[]int32 { return &b.Values }))
	case *Int64Buffer:
		c.front, c.pass = passBatch(b, &Int64Buffer{}, swapValues(func(b *Int64Buffer) *[]int64 { return &b.Values }))
	case *Int96Buffer:
		c.front, c.pass = passBatch(b, &Int96Buffer{}, swapValues(func(b *Int96Buffer) *[]encode.Int96 { return &b.Values }))
	case *FloatBuffer:
		c.front, c.pass = passBatch(b, &FloatBuffer{}, swapValues(func(b *FloatBuffer) *[]float32 { return &b.Values }))
	case *DoubleBuffer:
		c.front, c.pass = passBatch(b, &DoubleBuffer{}, swapValues(func(b *DoubleBuffer) *[]float64 { return &b.Values }))
	case *ByteArrayBuffer:
		c.front, c.pass = passBatch(b, &ByteArrayBuffer{}, func(dst, src *ByteArrayBuffer) { src.Values.MoveTo(&dst.Values) })
	case *FixedBuffer:
		c.front, c.pass = passBatch(b, &FixedBuffer{Size: b.Size}, func(dst, src *FixedBuffer) { copyOver(&dst.Values, &src.Values) })
	}
	moveBatch(c.front, true, c.maxDef > 0, c.maxRep > 0)
}

// passBatch returns front and the function handing its batch to back:
// the levels, and byte-array values (values), are copied into back's
// slices, which grow as needed, and front's are emptied, keeping their
// memory; fixed-width values (swapValues) swap slices. values moves the
// values of its second buffer into its first.
//
// Copying keeps the memory of levels and byte arrays with the goroutine
// that writes it: front's with the caller shredding rows into it, back's
// with the workers moving it into pages. Generated shredders append those
// a few bytes at a time, and into memory another core had written last
// (swapped, it changed cores every batch) took 40-50% more CPU time than
// in a sequential write, even with the caller shredding alone: nested
// rows, two cores, 3.4 s of shredding against 2.3 s in 60 writes; 2.6 s
// copied. Fixed-width values are mostly filled by index in one pass
// (shredFill), where the copy cost more than it saved (200-column rows).
func passBatch[B interface{ levels() *Levels }](back, front B, values func(dst, src B)) (any, func()) {
	return front, func() {
		bl, fl := back.levels(), front.levels()
		copyOver(&bl.Def, &fl.Def)
		copyOver(&bl.Rep, &fl.Rep)
		values(back, front)
	}
}

// copyOver replaces *dst's elements with *src's, in *dst's memory, which
// grows as needed, and empties *src, keeping its memory.
func copyOver[V any](dst, src *[]V) {
	*dst = append((*dst)[:0], *src...)
	*src = (*src)[:0]
}

// swapValues returns the values function of passBatch for buffers whose
// values are the slice vals returns: the two buffers' slices swap.
func swapValues[B, V any](vals func(B) *[]V) func(dst, src B) {
	return func(dst, src B) {
		d, s := vals(dst), vals(src)
		*d, *s = *s, (*d)[:0]
	}
}

// passBatches hands the front buffers of every column of a pipelined
// writer to the back ones (passBatch): the back buffers, which no batch
// uses, get the rows generated code appended; the front ones are emptied,
// to fill again.
func (fw *FileWriter) passBatches() {
	if !fw.pipe.on {
		return
	}
	for _, c := range fw.cols {
		c.pass()
	}
}

// startConsume hands the n checked rows of the back buffers to the
// workers, starting those not running. Precondition: no batch is in flight.
func (fw *FileWriter) startConsume(n int) {
	p := &fw.pipe
	p.busy, p.check, p.rows = true, true, n
	p.done.reset()
	if p.reorderIn--; p.reorderIn <= 0 {
		p.reorder()
	}
	alone := p.advance(n, time.Now)
	p.deferPages = !alone // read by the batch's cuts, after seq
	seq := p.seq.Add(1)
	if alone {
		return
	}
	p.workers.start(seq - 1)
}

// advance counts a batch of n rows into the stretch of batches the
// pipeline is in, starting the next stretch first when this one is over,
// and reports whether the batch goes without workers. now is the clock.
func (p *pipeline) advance(n int, now func() time.Time) (alone bool) {
	if p.phaseLeft <= 0 {
		if t := now(); t.Sub(p.phaseStart) >= p.minTime {
			p.nextPhase(t)
		}
	}
	p.phaseLeft--
	p.phaseRows += n
	return p.alone
}

// nextPhase ends the stretch of batches the pipeline was in, timing it,
// and starts the next (see pipeline) at now.
func (p *pipeline) nextPhase(now time.Time) {
	if p.phaseRows > 0 {
		rate := float64(now.Sub(p.phaseStart)) / float64(p.phaseRows)
		if p.alone {
			p.aloneRate = rate
		} else {
			p.pipedRate = rate
		}
	}
	known := p.aloneRate > 0 && p.pipedRate > 0
	pays := known && p.pipedRate < 0.95*p.aloneRate
	switch {
	case pays:
		p.misses = 0
	case known:
		p.misses++
	}
	backOff := p.misses >= 2
	if p.alone || p.pipedRate == 0 {
		switch {
		case pays:
			p.pipedLen = min(2*p.pipedLen, pipePhaseMax)
		case backOff:
			p.pipedLen = pipeRetry
		}
		p.alone, p.phaseLeft = false, p.pipedLen
	} else if p.onTime() {
		p.pipedLen = min(2*p.pipedLen, pipePhaseMax)
		p.phaseLeft = p.pipedLen
	} else {
		switch {
		case pays:
			p.aloneLen = pipeProbe
		case backOff:
			p.aloneLen = min(2*p.aloneLen, pipePhaseMax)
		}
		p.alone, p.phaseLeft = true, p.aloneLen
	}
	p.phaseStart, p.phaseRows = now, 0
	p.late = 0
}

// onTime reports whether the stretch with workers that ends needs no
// probe: no verdict went against workers since the last for them, the
// stretch is shorter than pipePhaseMax, and the workers were late for at
// most a quarter of its batches (pipedLen-phaseLeft: advance counted
// them down from pipedLen, below 0 when pipeMinTime stretched it).
func (p *pipeline) onTime() bool {
	n := p.pipedLen - p.phaseLeft
	return p.misses == 0 && p.pipedLen < pipePhaseMax && n > 0 && 4*p.late <= n
}

// batchLate reports whether the workers were late for a batch with
// workers during which they finished work pieces of work (columns of the
// batch, parts of the next batch's shredding, deferred pages) and at whose
// end busy of them were compressing a deferred page (which can last many
// batches): they did nothing for it, as a worker without a core on a busy
// machine. The caller waiting for a worker's last column is no sign: a
// column can take most of a batch's time (the dictionary of 50,000 keys
// of the high-entropy flat rows) on an idle machine.
func batchLate(work uint64, busy int32) bool {
	return work == 0 && busy == 0
}

// worker is the goroutine of worker slot k: it consumes the columns it
// takes of every batch after batch seen, until it is idle for long or told
// to quit. After each batch it waits for the next (up to workerWait),
// whatever it took of this one. A worker that left after a batch where
// the caller took most of the work was started again for the next, and a
// goroutine started gets its processor late (60-70 µs on a 2-vCPU VM), so
// the caller took the costliest columns again: in writes of the suite's
// high-entropy flat rows, 73 starts a write of 196 batches, and the
// caller consumed the column of 50,000 names in 29% of the batches. A
// busy machine is the stretches' business (see pipeline): there, workers
// late for their batches bring the pipeline back to the caller alone.
func (fw *FileWriter) worker(k int, seen uint64) {
	p := &fw.pipe
	sc := &fw.pageSc[k+1]
	w := newSpinWait()
	for {
		if p.workers.quitting(k) {
			return
		}
		if s := p.seq.Load(); s != seen {
			seen = s
			if fw.consumeColumns(sc, s, k+1) > 0 {
				p.workerWork.Add(1)
			}
			w.batchDone(true)
			continue
		}
		if fw.runQueued() {
			p.workerWork.Add(1)
			w.worked(false)
			continue
		}
		if fw.shred != nil && fw.shred.help() {
			p.workerWork.Add(1)
			w.worked(true) // shredding the next batch: stay for it
			continue
		}
		if w.spin() {
			if p.workers.leave(k, func() bool { return p.seq.Load() != seen }) {
				return
			}
			w.worked(false)
		}
	}
}

// pipeReorder is how many batches the pipeline keeps an order of its
// columns by cost (see consumeColumns); the costs are timed on every
// pipeTimeEvery-th batch (the clock read twice per column would weigh on
// batches of many cheap columns).
const (
	pipeReorder   = 32
	pipeTimeEvery = 4
)

// reorder sorts the columns from the costliest per row, as measured so
// far. Precondition: no batch is in flight.
func (p *pipeline) reorder() {
	p.reorderIn = pipeReorder
	order := slices.Clone(*p.order.Load())
	slices.SortStableFunc(order, func(a, b int32) int {
		switch ca, cb := p.cost[a], p.cost[b]; {
		case ca > cb:
			return -1
		case ca < cb:
			return 1
		}
		return 0
	})
	p.order.Store(&order)
}

// consumeColumns takes the columns of batch seq no one took yet and moves
// their rows into pages, using sc; it returns how many it took. Workers
// (who above 0), who start on a batch first, go through the columns from
// the costliest; the caller (who 0), who joins once it has filled the
// buffers again, from the cheapest: the columns left when the two meet
// are cheap ones, so neither waits long for the other's last column (the
// costliest columns first is the classic longest-processing-time rule),
// and a column mostly stays with one goroutine, its page buffers and
// dictionary in that core's cache.
func (fw *FileWriter) consumeColumns(sc *pageScratch, seq uint64, who int) (took int) {
	p := &fw.pipe
	order := *p.order.Load()
	n := len(order)
	for j := range n {
		i := pick(order, j, who)
		// Every column is taken once per batch: a worker late for a
		// batch that is over takes none.
		if !p.claims[i].CompareAndSwap(seq-1, seq) {
			continue
		}
		took++
		c := fw.cols[i]
		c.sc = sc
		if seq%pipeTimeEvery != 0 {
			p.errs[i] = c.consume(p.rows)
		} else {
			start := time.Now()
			p.errs[i] = c.consume(p.rows)
			p.cost[i] += (float64(time.Since(start))/float64(p.rows) - p.cost[i]) / 4
		}
		p.done.finish(int64(len(fw.cols)))
	}
	return took
}

// pick returns the column goroutine who takes j-th: workers go from the
// first of order, the caller from the last.
func pick(order []int32, j, who int) int32 {
	if who == 0 {
		return order[len(order)-1-j]
	}
	return order[j]
}

// join waits for the batch in flight, the caller taking the columns no
// worker took yet, and returns the error of its first failing column.
func (fw *FileWriter) join() error {
	p := &fw.pipe
	if !p.busy {
		return nil
	}
	fw.consumeColumns(&fw.pageSc[0], p.seq.Load(), 0)
	p.done.waitSpinning(int64(len(fw.cols)), workerIdle)
	p.busy = false
	if !p.alone { // the batch had workers (its stretch goes on)
		work := p.workerWork.Load()
		if batchLate(work-p.seenWork, p.workerBusy.Load()) {
			p.late++
		}
		p.seenWork = work
	}
	return takeFirstErr(p.errs)
}

// stopWorkers makes the workers exit and waits for them.
func (fw *FileWriter) stopWorkers() {
	if fw.pipe.on {
		fw.pipe.workers.stop()
	}
}

// settle completes the batch in flight: it waits for it, then flushes the
// row group if the batch made it full, as the sequential EndRows does.
func (fw *FileWriter) settle() error {
	if err := fw.join(); err != nil {
		return fw.poison(err)
	}
	if !fw.pipe.check {
		return nil
	}
	fw.pipe.check = false
	full, err := fw.rowGroupFull()
	if err != nil {
		return fw.poison(err)
	}
	if full {
		if err := fw.flushRowGroup(); err != nil {
			return fw.poison(err)
		}
	}
	return nil
}

// rowGroupFull reports whether the open row group reached its row limit
// or the row group size. Pending pages count at their bounds; when the bounds reach the
// size, the decision awaits them and counts their sizes, so that it is
// the sequential writer's.
func (fw *FileWriter) rowGroupFull() (bool, error) {
	if lim := fw.cfg.RowGroupRowLimit; lim > 0 && fw.rgRows >= int64(lim) {
		return true, nil
	}
	size, exact := fw.bufferedSize()
	if size < fw.cfg.RowGroupSize || exact {
		return size >= fw.cfg.RowGroupSize, nil
	}
	if err := fw.awaitPages(); err != nil {
		return false, err
	}
	size, _ = fw.bufferedSize()
	return size >= fw.cfg.RowGroupSize, nil
}

// bufferedSize sums the columns' bufferedSize.
func (fw *FileWriter) bufferedSize() (size int64, exact bool) {
	exact = true
	for _, c := range fw.cols {
		n, ok := c.bufferedSize()
		size += n
		exact = exact && ok
	}
	return size, exact
}
