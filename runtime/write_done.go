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

// doneSpins is how many times a waiter yields its processor before it
// sleeps until the round's last task wakes it.
const doneSpins = 100

// doneCount counts the tasks of the current round that finished. The zero
// value is not ready: call init first.
type doneCount struct {
	n       atomic.Int64
	waiting atomic.Bool // the waiter sleeps on wake for the round's end
	wake    chan struct{}
}

func (d *doneCount) init() { d.wake = make(chan struct{}, 1) }

// reset starts a round. Precondition: no task of the last round is left.
func (d *doneCount) reset() { d.n.Store(0) }

// finished returns how many tasks of the round finished.
func (d *doneCount) finished() int64 { return d.n.Load() }

// finish counts a task of a round of all finished, waking the waiter if it
// was the last.
func (d *doneCount) finish(all int64) { d.finishN(1, all) }

// finishN counts n tasks of a round of all finished, as n finish calls.
func (d *doneCount) finishN(n, all int64) {
	if d.n.Add(n) == all && d.waiting.CompareAndSwap(true, false) {
		d.wake <- struct{}{}
	}
}

// wait returns once all tasks of the round finished: it yields its
// processor up to doneSpins times, then sleeps until finish wakes it.
func (d *doneCount) wait(all int64) {
	for spins := 0; d.n.Load() < all; spins++ {
		if spins >= doneSpins {
			d.sleep(all)
			return
		}
		goruntime.Gosched()
	}
}

// waitSpinning is wait for tasks that take microseconds: it spins for up
// to budget, yielding its processor every 64th spin, and only then
// sleeps until finish wakes it.
func (d *doneCount) waitSpinning(all int64, budget time.Duration) {
	t0 := time.Now()
	for spins := 1; d.n.Load() < all; spins++ {
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
	d.waiting.Store(true)
	// The last finish either saw waiting and sends, or came first: then
	// the flag is still ours to take back.
	if d.n.Load() < all || !d.waiting.CompareAndSwap(true, false) {
		<-d.wake
	}
}
