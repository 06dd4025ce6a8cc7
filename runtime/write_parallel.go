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

// forColumns runs f on every column and returns the error of the first
// column (in column order) that failed. With Parallelism above 1, up to
// that many goroutines (the caller's included) take columns in turn;
// otherwise, or for encrypted files, the caller runs them in order and
// stops at the first error.
func (fw *FileWriter) forColumns(f func(*leafWriter) error) error {
	n := min(fw.cfg.Parallelism, len(fw.cols))
	if n <= 1 || fw.crypto != nil {
		for _, c := range fw.cols {
			if err := f(c); err != nil {
				return err
			}
		}
		return nil
	}
	if len(fw.colErrs) != len(fw.cols) {
		fw.colErrs = make([]error, len(fw.cols))
	}
	errs := fw.colErrs
	var next atomic.Int64
	work := func() {
		for {
			i := int(next.Add(1) - 1)
			if i >= len(fw.cols) {
				return
			}
			errs[i] = f(fw.cols[i])
		}
	}
	var wg sync.WaitGroup
	for range n - 1 {
		wg.Go(work)
	}
	work()
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			clear(errs[i:])
			return err
		}
	}
	return nil
}
