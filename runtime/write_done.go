// A round of tasks shared between goroutines (a batch's columns, a
// batch's shredding parts, the columns of a batch read ahead), whose
// starter waits for its end: doneCount counts the finished tasks and lets
// the waiter sleep, instead of spinning, once the last tasks take long (a
// page to compress, a large field to shred) — a goroutine that spins
// while the one it waits for has lost its core (a busy machine) only
// delays it.

package runtime

import (
	goruntime "runtime"
	"sync/atomic"
	"time"
)

// doneCount counts the tasks of the current round that finished. The zero
// value is not ready: call init first.
//
// The round is part of the count, so that the last task of a round, which
// counts itself and then wakes the waiter, cannot wake the waiter of the
// next round: the waiter may see the count complete and start the next
// round before that task gets to the wake-up (under the race detector,
// TestDoneCount saw a wait return with none of its round's tasks done).
type doneCount struct {
	// n holds the round (above doneTaskBits) and how many of its tasks
	// finished (the low doneTaskBits bits).
	n atomic.Int64
	// waiting holds the round whose waiter sleeps on wake for its end,
	// plus one; 0: none.
	waiting atomic.Int64
	wake    chan struct{}
}

// doneTaskBits is how many low bits of doneCount.n count the tasks of a
// round (the columns of a row group, at most).
const (
	doneTaskBits = 32
	doneTaskMask = 1<<doneTaskBits - 1
	doneRoundMax = 1<<(63-doneTaskBits) - 1 // rounds wrap past it
)

func (d *doneCount) init() { d.wake = make(chan struct{}, 1) }

// reset starts a round. Precondition: every task of the last round counted
// itself (the waiter of the last round returned).
func (d *doneCount) reset() {
	r := (d.n.Load()>>doneTaskBits + 1) & doneRoundMax
	d.n.Store(r << doneTaskBits)
}

// round returns the current round.
func (d *doneCount) round() int64 { return d.n.Load() >> doneTaskBits }

// finished returns how many tasks of the round finished.
func (d *doneCount) finished() int64 { return d.n.Load() & doneTaskMask }

// finish counts a task of a round of all finished, waking the waiter if it
// was the last.
func (d *doneCount) finish(all int64) { d.finishN(1, all) }

// finishN counts n tasks of a round of all finished, as n finish calls.
func (d *doneCount) finishN(n, all int64) { d.wakeAt(d.n.Add(n), all) }

// wakeAt wakes the waiter of the round of count v (as n holds them) if v
// counts all its tasks and the waiter sleeps.
func (d *doneCount) wakeAt(v, all int64) {
	if v&doneTaskMask == all && d.waiting.CompareAndSwap(v>>doneTaskBits+1, 0) {
		d.wake <- struct{}{}
	}
}

// waitSpinning returns once all tasks of the round finished: it spins for
// up to budget, yielding its processor every 64th spin, and only then
// sleeps until finish wakes it. A round's last task usually ends within
// microseconds of its waiter's own work (the costliest column of a batch,
// the last part of its shredding), and a sleeping waiter woke tens of
// microseconds late: the high-entropy flat rows' column of 50,000 names,
// which takes most of a batch's time on a worker, cost the caller a sleep
// in 60% of the batches of a WithParallelism(2) write, which then took as
// long as the sequential write (14.1 ms against 14.4 ms). Spinning up to
// workerIdle, it took 9.3-11.4 ms.
func (d *doneCount) waitSpinning(all int64, budget time.Duration) {
	t0 := time.Now()
	for spins := 1; d.finished() < all; spins++ {
		if spins%64 == 0 {
			if time.Since(t0) >= budget {
				d.sleep(all)
				return
			}
			goruntime.Gosched()
		}
	}
}

// sleep returns once all tasks of the round finished, sleeping until
// the last finish wakes it.
func (d *doneCount) sleep(all int64) {
	r := d.round() + 1
	d.waiting.Store(r)
	// The last finish either saw waiting and sends, or came first: then
	// the flag is still ours to take back.
	if d.finished() < all || !d.waiting.CompareAndSwap(r, 0) {
		<-d.wake
	}
}
