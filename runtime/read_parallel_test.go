package runtime

import (
	"errors"
	"sync/atomic"
	"testing"
	"time"
)

// meetColumn is a column reader that, when it reads, waits up to a fifth
// of a second for its partner to be reading too, and records whether it
// met it: two such columns meet only when read at the same time.
type meetColumn struct {
	rows    int
	reading atomic.Bool
	partner *meetColumn
	met     bool
	err     error
}

func (c *meetColumn) ReadRows(n int) (int, error) {
	c.reading.Store(true)
	defer c.reading.Store(false)
	for deadline := time.Now().Add(200 * time.Millisecond); time.Now().Before(deadline); {
		if c.partner.reading.Load() {
			c.met = true
			break
		}
		time.Sleep(50 * time.Microsecond)
	}
	return min(n, c.rows), c.err
}

// TestReadColumnsThreshold: ReadColumns decodes columns at the same time
// when the rows × columns it reads reach readParallelMinSlots, and one
// after the other below, or with WithReadParallelism(1); either way the
// error returned is the first failing column's, in column order.
func TestReadColumnsThreshold(t *testing.T) {
	run := func(par, k int, errA, errB error) (met bool, err error) {
		a, b := &meetColumn{rows: k, err: errA}, &meetColumn{rows: k, err: errB}
		a.partner, b.partner = b, a
		r := &FileReader{}
		r.cfg.ReadParallelism = par
		err = r.ReadColumns(k, Col(a, "a"), ColumnJob{path: "none"}, Col(b, "b"))
		return a.met || b.met, err
	}
	big := readParallelMinSlots/3 + 1 // three jobs, one without a reader
	for _, c := range []struct {
		par, k int
		met    bool
	}{{2, big, true}, {2, big - 1, false}, {1, 1 << 20, false}, {4, big, true}} {
		if met, err := run(c.par, c.k, nil, nil); met != c.met || err != nil {
			t.Errorf("parallelism %d, %d rows: read at the same time %t (want %t), %v", c.par, c.k, met, c.met, err)
		}
	}
	errA, errB := errors.New("a"), errors.New("b")
	for _, k := range []int{big, big - 1} {
		if _, err := run(2, k, errA, errB); err != errA {
			t.Errorf("%d rows: %v, want the first column's error", k, err)
		}
		if _, err := run(2, k, nil, errB); err != errB {
			t.Errorf("%d rows: %v, want the second column's error", k, err)
		}
	}
}
