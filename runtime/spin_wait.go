// Spinning workers: the goroutines of a parallel writer (write_parallel.go)
// and of a reader's read-ahead (read_pipe.go) wait for their next batch
// spinning, yielding their processor now and then, rather than parked:
// waking a parked goroutine costs about as much as a batch's work (a
// goroutine started for a batch got a processor 60-70 µs later on a
// 2-vCPU virtual machine). A worker idle for long exits, so that one not
// used keeps no goroutine; the next batch starts it again.

package runtime

import (
	goruntime "runtime"
	"sync"
	"sync/atomic"
	"time"
)

// How long a worker spins for the next batch before it exits: twice the
// time between its last two batches when that is at most half
// workerIdleMax, else workerIdle (see workerWait).
const (
	workerIdle    = 100 * time.Microsecond
	workerIdleMax = time.Millisecond
)

// workerWait returns how long a worker whose last two batches came period
// apart (0: unknown) waits for the next. Batches whose rows take the
// caller longer to fill than workerIdle (nested rows: maps, lists and
// strings) came after the worker had exited, and each was taken up by a
// goroutine started again, late, or by the caller alone; batches seldom
// enough to leave a core idle anyway are not spun for.
func workerWait(period time.Duration) time.Duration {
	if period > 0 && period <= workerIdleMax/2 {
		return max(workerIdle, 2*period)
	}
	return workerIdle
}

// spinWait is a spinning worker's clock: since when it has had nothing
// to do, how long it stays so, and the period of its batches.
type spinWait struct {
	since  time.Time     // the end of its last work
	idle   time.Duration // how long it stays without work (0: it exits at once)
	last   time.Time     // when its last batch was done
	period time.Duration // between its last two batches (0: unknown)
	spins  int           // spins since its last work
}

// newSpinWait returns the clock of a worker starting now.
func newSpinWait() spinWait { return spinWait{since: time.Now()} }

// batchDone records a batch done now. With stay the worker waits for the
// next for workerWait of the batches' period; without, it exits once
// idle (it came too late for the batch to be worth waiting for).
func (w *spinWait) batchDone(stay bool) {
	now := time.Now()
	if !w.last.IsZero() {
		w.period = now.Sub(w.last)
	}
	w.last, w.idle = now, 0
	if stay {
		w.idle = workerWait(w.period)
	}
	w.since, w.spins = now, 0
}

// worked records work other than a batch done now; with stay the worker
// waits at least a batch's workerWait from now.
func (w *spinWait) worked(stay bool) {
	if stay {
		w.idle = max(w.idle, workerWait(w.period))
	}
	w.since, w.spins = time.Now(), 0
}

// spin counts a spin that found nothing to do, yielding the processor
// every 256th, and reports whether the worker has been idle for as long
// as it stays (checking the clock only every 64th spin once it stays).
func (w *spinWait) spin() (expired bool) {
	w.spins++
	expired = (w.idle == 0 || w.spins%64 == 0) && time.Since(w.since) >= w.idle
	if w.spins%256 == 0 {
		goruntime.Gosched()
	}
	return expired
}

// workerSet is the goroutines of a pool of spinning workers: slot k is
// held while goroutine k runs, so that start starts only the missing
// ones. The zero value has no slot: call init first.
type workerSet struct {
	slots []atomic.Bool
	run   func(k int, seen uint64) // worker k, started after batch seen
	quit  atomic.Bool              // the workers exit (stop)
	wg    sync.WaitGroup
}

// init gives the set n slots and its workers' function.
func (s *workerSet) init(n int, run func(k int, seen uint64)) {
	s.slots, s.run = make([]atomic.Bool, n), run
}

// size returns the number of slots.
func (s *workerSet) size() int { return len(s.slots) }

// start starts a worker on a goroutine for every slot none holds, for the
// batches after seen.
func (s *workerSet) start(seen uint64) {
	for k := range s.slots {
		if s.slots[k].CompareAndSwap(false, true) {
			s.wg.Go(func() { s.run(k, seen) })
		}
	}
}

// running reports whether some worker runs.
func (s *workerSet) running() bool {
	for k := range s.slots {
		if s.slots[k].Load() {
			return true
		}
	}
	return false
}

// quitting reports whether worker k must exit at once (stop), freeing its
// slot if so.
func (s *workerSet) quitting(k int) bool {
	if !s.quit.Load() {
		return false
	}
	s.slots[k].Store(false)
	return true
}

// leave frees the slot of worker k, whose wait expired, and reports
// whether it exits: it stays when more reports work that came meanwhile,
// which start, finding the slot still held, gave to no goroutine.
func (s *workerSet) leave(k int, more func() bool) bool {
	s.slots[k].Store(false)
	return !more() || s.quit.Load() || !s.slots[k].CompareAndSwap(false, true)
}

// stop makes the workers exit and waits for them; start may start them
// again afterwards.
func (s *workerSet) stop() {
	s.quit.Store(true)
	s.wg.Wait()
	s.quit.Store(false)
}
