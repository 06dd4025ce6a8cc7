// Read pipelining (WithReadParallelism of 2 or more): while the caller
// assembles the rows of one batch from its column readers, goroutines
// decode the columns of the next batch into a second set of column
// buffers, the back readers, which the next ReadColumns swaps in. The
// caller, once it asks for that batch, decodes the columns no goroutine
// has started yet, so the decoding of a batch is shared when the
// assembly is the shorter stage. The goroutine that decodes the last
// column of a Variant also rebuilds the batch's Variants from them
// (rebuildAhead), which a ReadColumns of the whole batch swaps in.

package runtime

import (
	"fmt"
	"io"
	"sync/atomic"
)

// pipeReader is a typed column reader whose next batch can be decoded
// ahead into another reader of the same type and column (its back
// reader), then swapped in.
type pipeReader interface {
	leafReader
	sink
	cur() *cursor
	// shadow returns an empty reader of the same type and settings, to
	// be the back reader.
	shadow() pipeReader
	// swapBatch exchanges the levels and values of the reader's batch
	// with those of b, its back reader.
	swapBatch(b pipeReader)
	// moveValues moves the values from value v on to the end of b's,
	// which are empty.
	moveValues(b pipeReader, v int)
}

// readPipe is the read-ahead state of a FileReader.
//
// Its goroutines are workers that wait for the next batch spinning
// (yielding their processor now and then) rather than parked, as the
// writer's do (spin_wait.go): on a virtual machine a goroutine started
// for each batch got a processor 60-70 µs later, half the time the
// caller takes to assemble 4,096 flat rows, and the caller then decoded
// most columns itself. A worker idle for workerWait of its batches'
// period exits, and one that found no column left of the batch it woke
// for exits at once (the caller was faster without it); the next batch
// starts it again. Release stops them.
type readPipe struct {
	jobs []ColumnJob // the generated reader's jobs (compared by identity)
	// The units are the typed column readers read ahead: a job's reader,
	// or the readers of the leaves of a job's VariantReader (variants),
	// whose values takeAhead rebuilds from them. Job i's units are
	// front[first[i]:first[i+1]] (none when the column is not read).
	front    []pipeReader
	back     []pipeReader // per unit: the back reader, made on the first read-ahead
	first    []int
	variants []*VariantReader // per job: its VariantReader, else nil
	off      bool             // some unit has read no batch yet, or there is none
	// Per Variant job, vback is a second VariantReader, over the back
	// readers of the job's units: the goroutine that decodes the job's
	// last unit of a batch (vleft counts them down) rebuilds the batch's
	// Variants into it (rebuildAhead), and vgot holds the rows it rebuilt,
	// -1 when it did not or failed. A Read of the whole batch swaps them
	// in; any other Read rebuilds its Variants itself, as without
	// read-ahead, and meets the error there. unitJob is, per unit, the
	// Variant job it belongs to, else -1.
	vback   []*VariantReader
	vleft   []atomic.Int32
	vgot    []int
	unitJob []int32

	k     int  // rows of the batch in the back readers
	ahead bool // the back readers hold, or are being filled with, the next k rows
	// batch is the batch being decoded ahead and its next unit:
	// seq<<32 | unit. A goroutine takes unit i of batch seq with a
	// compare-and-swap, so that one late for a batch never takes a unit
	// of the next.
	batch atomic.Uint64
	done  doneCount // units of the batch decoded (or given up)
	// errs and good are, per unit, the error its read-ahead met (nil when
	// none: good < k then says the column's rows ended) and the rows of
	// the batch left that a sequential read could return before it
	// (cursor.moreRowsKeep): a Read of fewer rows than the batch gets
	// its rows, and the error comes with the Read that reaches it, as it
	// would without reading ahead.
	errs    []error
	good    []int
	workers workerSet
	read    int64 // rows ReadColumns has handed out
	// prefetched counts the pages the workers decoded ahead
	// (read_prefetch.go), and wasted those of them passed over, for
	// tests; rebuilt the Variant jobs' batches a Read took rebuilt.
	prefetched, wasted, rebuilt atomic.Int64
}

// newPipe returns the read-ahead state for jobs, off when one of their
// typed column readers has read no batch, or when they have none.
func newPipe(jobs []ColumnJob) *readPipe {
	p := &readPipe{jobs: jobs, first: make([]int, len(jobs)+1), variants: make([]*VariantReader, len(jobs))}
	p.done.init()
	p.off = true
	unit := func(r ColumnRows, job int) bool {
		f, ok := r.(pipeReader)
		if !ok || f.cur().lv == nil {
			return false
		}
		p.front = append(p.front, f)
		p.unitJob = append(p.unitJob, int32(job))
		return true
	}
	for i, j := range jobs {
		p.first[i] = len(p.front)
		switch c := j.c.(type) {
		case nil:
		case *VariantReader:
			p.variants[i] = c
			for _, l := range c.leaves {
				if !unit(l.r, i) {
					return p
				}
			}
		default:
			if !unit(c, -1) {
				return p
			}
		}
	}
	p.first[len(jobs)] = len(p.front)
	p.errs, p.good = make([]error, len(p.front)), make([]int, len(p.front))
	p.vback, p.vleft, p.vgot = make([]*VariantReader, len(jobs)), make([]atomic.Int32, len(jobs)), make([]int, len(jobs))
	p.off = len(p.front) == 0
	return p
}

// same reports whether jobs is the slice p was made for.
func (p *readPipe) same(jobs []ColumnJob) bool {
	return len(jobs) == len(p.jobs) && len(jobs) > 0 && &jobs[0] == &p.jobs[0]
}

// readAheadMinSlots is the least rows × columns a batch must have to be
// read ahead: readParallelMinSlots, for the same reason (tests lower it).
var readAheadMinSlots = readParallelMinSlots

// readAhead starts decoding the batch after the k rows ReadColumns has
// just read, when the rows left (Available) make a batch worth it.
func (r *FileReader) readAhead(k int, jobs []ColumnJob) {
	p := r.pipe
	if p == nil {
		p = newPipe(jobs)
		r.pipe = p
	}
	p.read += int64(k)
	if p.off || !p.same(jobs) {
		return
	}
	next, err := r.Available(p.read, k)
	if err != nil || next*len(p.front) < readAheadMinSlots {
		return // the next Read meets the error, or reads its rows itself
	}
	if p.back == nil {
		p.back = make([]pipeReader, len(p.front))
		for i, f := range p.front {
			b := f.shadow()
			fc, bc := f.cur(), b.cur()
			bc.init(fc.fr, fc.col)
			bc.adopt(b.levels(), b)
			p.back[i] = b
			fc.prefetchOK = true // read before the batch is published
		}
		for i, v := range p.variants {
			if v != nil {
				p.vback[i] = v.over(p.back[p.first[i]:p.first[i+1]])
			}
		}
	}
	p.k, p.ahead = next, true
	clear(p.errs)
	clear(p.good)
	for i, v := range p.variants {
		if v != nil {
			p.vleft[i].Store(int32(p.first[i+1] - p.first[i]))
			p.vgot[i] = -1
		}
	}
	p.done.reset()
	seq := uint32(p.batch.Load()>>32) + 1
	p.batch.Store(uint64(seq) << 32) // publishes k, errs and done
	if p.workers.size() == 0 {
		p.workers.init(min(r.cfg.ReadParallelism, len(p.front))-1, p.worker)
	}
	p.workers.start(uint64(seq - 1))
}

// take returns the next unit of batch seq not taken yet, false when
// there is none (or the batch is another).
func (p *readPipe) take(seq uint32) (int, bool) {
	for {
		b := p.batch.Load()
		i := int(uint32(b))
		if uint32(b>>32) != seq || i >= len(p.front) {
			return 0, false
		}
		if p.batch.CompareAndSwap(b, b+1) {
			return i, true
		}
	}
}

// worker is goroutine k of the read-ahead, started for the batch after
// seen (a batch number, uint64 for workerSet): it decodes columns of each
// new batch, waiting for the next as the type comment says.
func (p *readPipe) worker(k int, after uint64) {
	seen := uint32(after)
	w := newSpinWait()
	for {
		if p.workers.quitting(k) {
			return
		}
		if b := p.batch.Load(); uint32(b>>32) != seen {
			seen = uint32(b >> 32)
			took := p.work(seen)
			p.prefetch(seen)
			w.batchDone(took > 0)
			continue
		}
		if w.spin() {
			if p.workers.leave(k, func() bool { return uint32(p.batch.Load()>>32) != seen }) {
				return
			}
			w.worked(false)
		}
	}
}

// work decodes the next k rows of the units of batch seq it takes into
// their back readers until none is left, and returns how many it took.
// It counts them done once, at the end: only the last unit done matters
// to wait, and an atomic add per unit on the counter the waiter spins on
// cost a cache line's round trip between the cores each.
func (p *readPipe) work(seq uint32) (took int) {
	for {
		i, ok := p.take(seq)
		if !ok {
			if took > 0 {
				p.done.finishN(int64(took), int64(len(p.front)))
			}
			return took
		}
		b := p.back[i]
		p.good[i], p.errs[i] = p.front[i].cur().readRowsAhead(p.k, b.levels(), b)
		if j := p.unitJob[i]; j >= 0 && p.vleft[j].Add(-1) == 0 {
			p.rebuildAhead(int(j))
		}
		took++
	}
}

// rebuildAhead rebuilds the Variants of job j's batch, whose units are
// all decoded, into p.vback[j], as takeAhead would for a Read of the whole
// batch, and records its rows in p.vgot[j]. A unit that met an error or
// ended early, or a rebuild that fails, leaves the Variants to the Read,
// which meets the error itself.
func (p *readPipe) rebuildAhead(j int) {
	v := p.vback[j]
	v.reset()
	for u := p.first[j]; u < p.first[j+1]; u++ {
		if p.errs[u] != nil || p.good[u] != p.k {
			return
		}
		v.leafRows(v.leaves[u-p.first[j]], -1, p.k, nil) // cannot fail: it starts the leaf
	}
	if _, err := v.rebuild(p.k); err == nil {
		p.vgot[j] = p.k
	}
}

// wait returns when every job of the batch is decoded. The columns left
// to the workers take them microseconds: it spins, yielding its
// processor now and then, for up to workerIdleMax, and only then sleeps
// until the last column wakes it (doneCount), as a caller woken from
// sleep gets its processor back 60-70 µs late on a virtual machine. Of
// the waits of 20 reads of 200,000 flat zstd rows, 161 of 1,008 outlasted
// the 100 yields of doneCount.wait, which then sleeps (flat-he 59,
// nested 28).
func (p *readPipe) wait() { p.done.waitSpinning(int64(len(p.front)), workerIdleMax) }

// takeAhead is ReadColumns of k rows when a batch was read ahead: it
// decodes the units no goroutine has taken, waits for the others and
// swaps the batch in, keeping the rows past k for the next call or
// reading the rows missing up to k, and rebuilds the Variants of the
// jobs that have some (or, for a k of the whole batch, swaps in those
// rebuilt ahead). An error is the one readColumns would have
// returned for the same k (see errs and good).
func (r *FileReader) takeAhead(k int, jobs []ColumnJob) error {
	p := r.pipe
	p.work(uint32(p.batch.Load() >> 32))
	p.wait()
	p.ahead = false
	if !p.same(jobs) {
		return fmt.Errorf("%w: ReadColumns of other columns than those whose next rows were read ahead", ErrColumn)
	}
	for i, f := range p.front {
		f.swapBatch(p.back[i])
		if k < p.k && k <= p.good[i] {
			// Fewer rows than read ahead: the rest wait in the back
			// reader. (A unit that holds fewer fails below.)
			splitBatch(f, p.back[i], k)
		}
	}
	// Job by job, as readColumns: the first to fail gives the error, the
	// one a sequential read would have met.
	for i, j := range jobs {
		if v := p.variants[i]; v != nil {
			// Rebuilt ahead, and the Read takes the whole batch (once a
			// Read took part of it, p.k is below the rows rebuilt).
			if k == p.k && p.vgot[i] == k {
				v.swapRows(p.vback[i])
				p.rebuilt.Add(1)
				continue
			}
			// VariantReader.ReadRows, from its leaves' batches.
			v.reset()
			got := -1
			for u := p.first[i]; u < p.first[i+1]; u++ {
				n, err := p.unitRows(u, k)
				if got, err = v.leafRows(v.leaves[u-p.first[i]], got, n, err); err != nil {
					return err
				}
			}
			got, err := v.rebuild(got)
			if err := exactRows(got, k, err, j.path); err != nil {
				return err
			}
			continue
		}
		for u := p.first[i]; u < p.first[i+1]; u++ {
			n, err := p.unitRows(u, k)
			if err := exactRows(n, k, err, j.path); err != nil {
				return err
			}
		}
	}
	if k < p.k {
		for i := range p.good {
			p.good[i] -= k
		}
		p.k -= k
		p.ahead = true // p.next is past the units: nothing to decode
		p.read += int64(k)
		return nil
	}
	r.readAhead(k, jobs)
	return nil
}

// unitRows returns what ReadRows(k) of unit u would have returned
// without the read-ahead, its batch swapped in (and cut at k when k is
// below p.k): k rows when it holds them, else the error it met, or the
// rows it holds when its column ended, or, for a Read of more rows than
// read ahead, those it reads now after them.
func (p *readPipe) unitRows(u, k int) (int, error) {
	f := p.front[u]
	switch {
	case k <= p.good[u]:
		return k, nil
	case p.errs[u] != nil:
		return 0, p.errs[u]
	case p.good[u] < p.k && p.good[u] > 0:
		return p.good[u], nil // the column's rows ended
	case p.good[u] < p.k:
		return f.cur().moreRows(k, f.levels(), f)
	}
	got, err := f.cur().moreRows(k-p.k, f.levels(), f)
	switch {
	case got == 0 && err == io.EOF:
		return p.k, nil // the rows end with those read ahead
	case err != nil:
		return 0, err
	}
	return p.k + got, nil
}

// stopPipe waits for the goroutines decoding ahead, which take no more
// columns, drops the batch read ahead and stops the workers.
func (r *FileReader) stopPipe() {
	p := r.pipe
	if p == nil {
		return
	}
	if p.ahead {
		for {
			b := p.batch.Load()
			left := len(p.front) - int(uint32(b))
			if left <= 0 {
				break
			}
			if p.batch.CompareAndSwap(b, b+uint64(left)) {
				p.done.finishN(int64(left), int64(len(p.front)))
				break
			}
		}
		p.wait()
		p.ahead = false
	}
	p.workers.stop()
}

// exactRows returns err, or an error naming the column at path when got
// rows were read where k were asked for (see ReadRowsExact).
func exactRows(got, k int, err error, path string) error {
	if err != nil {
		return err
	}
	if got != k {
		return fmt.Errorf("%w: column %s: %d rows where %d were expected", ErrChunk, path, got, k)
	}
	return nil
}

// splitBatch leaves the first rows rows of f's batch in f and moves the
// others to b, whose batch f's replaced (and is not needed any more).
// The levels are the bound leaf's: a layout adapter's (Bind) maximum
// definition level may differ from the file's.
func splitBatch(f, b pipeReader, rows int) {
	c := f.cur()
	lv, tl := f.levels(), b.levels()
	maxDef := c.leaf.MaxDef
	if a := c.adapt; a != nil && a.defMap != nil {
		maxDef = a.wantMaxDef
	}
	s, v := rowCut(lv, maxDef, c.leaf.MaxRep, rows)
	if c.leaf.MaxRep > 0 {
		tl.Rep = append(tl.Rep[:0], lv.Rep[s:]...)
		lv.Rep = lv.Rep[:s]
	}
	if maxDef > 0 {
		tl.Def = append(tl.Def[:0], lv.Def[s:]...)
		lv.Def = lv.Def[:s]
	}
	b.resetValues()
	f.moveValues(b, v)
}

// moveTail moves (*from)[v:] to the empty *to.
func moveTail[T any](from, to *[]T, v int) {
	*to = append((*to)[:0], (*from)[v:]...)
	*from = (*from)[:v]
}

func (c *BoolReader) cur() *cursor      { return &c.c }
func (c *Int32Reader) cur() *cursor     { return &c.c }
func (c *Int64Reader) cur() *cursor     { return &c.c }
func (c *Int96Reader) cur() *cursor     { return &c.c }
func (c *FloatReader) cur() *cursor     { return &c.c }
func (c *DoubleReader) cur() *cursor    { return &c.c }
func (c *ByteArrayReader) cur() *cursor { return &c.c }
func (c *FixedReader) cur() *cursor     { return &c.c }

func (c *BoolReader) shadow() pipeReader      { return &BoolReader{} }
func (c *Int32Reader) shadow() pipeReader     { return &Int32Reader{} }
func (c *Int64Reader) shadow() pipeReader     { return &Int64Reader{} }
func (c *Int96Reader) shadow() pipeReader     { return &Int96Reader{} }
func (c *FloatReader) shadow() pipeReader     { return &FloatReader{} }
func (c *DoubleReader) shadow() pipeReader    { return &DoubleReader{} }
func (c *ByteArrayReader) shadow() pipeReader { return &ByteArrayReader{lazy: c.lazy} }
func (c *FixedReader) shadow() pipeReader     { return &FixedReader{Size: c.Size} }

// swapBatches exchanges levels la and lb and values va and vb.
func swapBatches[T any](la, lb *Levels, va, vb *[]T) {
	*la, *lb = *lb, *la
	*va, *vb = *vb, *va
}

func (c *BoolReader) swapBatch(o pipeReader) {
	b := o.(*BoolReader)
	swapBatches(&c.Levels, &b.Levels, &c.Values, &b.Values)
}
func (c *Int32Reader) swapBatch(o pipeReader) {
	b := o.(*Int32Reader)
	swapBatches(&c.Levels, &b.Levels, &c.Values, &b.Values)
}
func (c *Int64Reader) swapBatch(o pipeReader) {
	b := o.(*Int64Reader)
	swapBatches(&c.Levels, &b.Levels, &c.Values, &b.Values)
}
func (c *Int96Reader) swapBatch(o pipeReader) {
	b := o.(*Int96Reader)
	swapBatches(&c.Levels, &b.Levels, &c.Values, &b.Values)
}
func (c *FloatReader) swapBatch(o pipeReader) {
	b := o.(*FloatReader)
	swapBatches(&c.Levels, &b.Levels, &c.Values, &b.Values)
}
func (c *DoubleReader) swapBatch(o pipeReader) {
	b := o.(*DoubleReader)
	swapBatches(&c.Levels, &b.Levels, &c.Values, &b.Values)
}
func (c *FixedReader) swapBatch(o pipeReader) {
	b := o.(*FixedReader)
	swapBatches(&c.Levels, &b.Levels, &c.Values, &b.Values)
}

// swapBatch also exchanges the batches' dictionary references and Bytes
// copies; the back reader then starts from the dictionary the swapped-in
// batch ended with, so a dictionary met by one batch is not copied again
// by the next.
func (c *ByteArrayReader) swapBatch(o pipeReader) {
	b := o.(*ByteArrayReader)
	c.Levels, b.Levels = b.Levels, c.Levels
	c.Values, b.Values = b.Values, c.Values
	c.strs, b.strs = b.strs, c.strs
	c.copied, b.copied = b.copied, c.copied
	b.strs.dictID, b.strs.dict = c.strs.dictID, c.strs.dict
}

func (c *BoolReader) moveValues(o pipeReader, v int) { moveTail(&c.Values, &o.(*BoolReader).Values, v) }
func (c *Int32Reader) moveValues(o pipeReader, v int) {
	moveTail(&c.Values, &o.(*Int32Reader).Values, v)
}
func (c *Int64Reader) moveValues(o pipeReader, v int) {
	moveTail(&c.Values, &o.(*Int64Reader).Values, v)
}
func (c *Int96Reader) moveValues(o pipeReader, v int) {
	moveTail(&c.Values, &o.(*Int96Reader).Values, v)
}
func (c *FloatReader) moveValues(o pipeReader, v int) {
	moveTail(&c.Values, &o.(*FloatReader).Values, v)
}
func (c *DoubleReader) moveValues(o pipeReader, v int) {
	moveTail(&c.Values, &o.(*DoubleReader).Values, v)
}
func (c *FixedReader) moveValues(o pipeReader, v int) {
	moveTail(&c.Values, &o.(*FixedReader).Values, v*c.Size)
}

// moveValues moves values, offsets and dictionary references; the bytes
// of a lazy batch (see ByteArrayReader.lazy) are not there to move.
func (c *ByteArrayReader) moveValues(o pipeReader, v int) {
	t := o.(*ByteArrayReader)
	offs := c.Values.Offsets
	n, base := c.Values.Len(), offs[v]
	if len(c.Values.Data) == int(offs[n]) {
		moveTail(&c.Values.Data, &t.Values.Data, int(base))
	}
	t.Values.Offsets = t.Values.Offsets[:0]
	for _, x := range offs[v:] {
		t.Values.Offsets = append(t.Values.Offsets, x-base)
	}
	c.Values.Offsets = offs[:v+1]
	s, ts := &c.strs, &t.strs
	if len(s.refs) > v {
		ts.refs = append(ts.refs[:0], s.refs[v:]...)
		// The span holding value v and those after it go to t; those
		// starting before v stay.
		for _, sp := range s.spans[max(s.span(v), 0):] {
			sp.start = max(sp.start-v, 0)
			ts.spans = append(ts.spans, sp)
		}
		s.refs = s.refs[:v]
		keep := s.span(v-1) + 1
		clear(s.spans[keep:])
		s.spans = s.spans[:keep]
	}
	s.one, ts.one = strDict{}, strDict{}
	if len(s.spans) == 1 {
		s.one = s.spans[0].dict
	}
	if len(ts.spans) == 1 {
		ts.one = ts.spans[0].dict
	}
}
