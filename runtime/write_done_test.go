package runtime

import (
	"testing"
	"time"
)

// TestDoneCount: waitSpinning returns only once every task of the round
// finished, whether the last finish comes while the waiter still spins,
// just as it goes to sleep, or long after; and no wake-up is left over to
// end a later round's wait early.
func TestDoneCount(t *testing.T) {
	var d doneCount
	d.init()
	const all = 3
	for round := range 600 {
		d.reset()
		delay := time.Duration(round%6) * time.Duration(round%5) * 20 * time.Microsecond
		for range all {
			go func() {
				time.Sleep(delay)
				d.finish(all)
			}()
		}
		d.waitSpinning(all, 50*time.Microsecond)
		if got := d.finished(); got != all {
			t.Fatalf("round %d (tasks %v late): wait returned after %d of %d tasks", round, delay, got, all)
		}
		if len(d.wake) != 0 {
			t.Fatalf("round %d (tasks %v late): a wake-up is left for the next round", round, delay)
		}
	}
}

// TestDoneCountLateWake: the last task of a round counts itself and then
// wakes the waiter; the waiter may see the count complete without
// sleeping and start the next round before that task gets to its wake-up
// (a descheduled goroutine). The wake-up must not end the next round's
// wait, whose tasks have not finished.
func TestDoneCountLateWake(t *testing.T) {
	var d doneCount
	d.init()
	const all = 3
	d.reset()
	late := d.n.Add(all)   // the last task, counted, not yet at its wake-up
	d.waitSpinning(all, 0) // returns without sleeping
	d.reset()
	returned := make(chan int64)
	go func() {
		d.sleep(all)
		returned <- d.finished()
	}()
	for d.waiting.Load() == 0 {
		time.Sleep(10 * time.Microsecond) // until the waiter sleeps
	}
	d.wakeAt(late, all) // the last round's wake-up arrives
	select {
	case got := <-returned:
		t.Fatalf("the last round's wake-up ended the wait with %d of %d tasks done", got, all)
	case <-time.After(20 * time.Millisecond):
	}
	for range all {
		d.finish(all)
	}
	if got := <-returned; got != all {
		t.Fatalf("the wait returned with %d of %d tasks done", got, all)
	}
	if len(d.wake) != 0 {
		t.Fatal("a wake-up is left for the next round")
	}
}
