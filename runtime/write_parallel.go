// Column-parallel writing (WithParallelism): the columns of a row group
// are independent until their chunks are written, so moving rows into
// pages, encoding and compressing them can run on several goroutines.
// Chunks are still written one after the other, in column order, so the
// file does not depend on the parallelism.

package runtime

import (
	"sync"
	"sync/atomic"
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
	opCutPage              // cutPage()
)

func (c *leafWriter) run(op colOp, rows int) error {
	if op == opConsume {
		return c.consume(rows)
	}
	return c.cutPage()
}

// pageScratch returns the page scratch of worker k (0: the caller's),
// creating the workers' scratch on first use.
func (fw *FileWriter) pageScratch(k int) *pageScratch {
	if k >= len(fw.pageSc) {
		fw.pageSc = append(fw.pageSc, make([]pageScratch, k+1-len(fw.pageSc))...)
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
	for i, err := range errs {
		if err != nil {
			clear(errs[i:])
			return err
		}
	}
	return nil
}
