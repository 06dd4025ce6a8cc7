package runtime

import (
	"testing"
	"time"
)

// TestDoneCount: wait returns only once every task of the round finished,
// whether the last finish comes while the waiter still yields, just as it
// goes to sleep, or long after; and no wake-up is left over to end a later
// round's wait early.
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
		d.wait(all)
		if got := d.finished(); got != all {
			t.Fatalf("round %d (tasks %v late): wait returned after %d of %d tasks", round, delay, got, all)
		}
		if len(d.wake) != 0 {
			t.Fatalf("round %d (tasks %v late): a wake-up is left for the next round", round, delay)
		}
	}
}
