// Read-side parallelism (WithReadParallelism): the columns of a batch of
// rows decoded concurrently. Column readers are independent (each has its
// own cursor, page reader and buffers); what they share, the filter's
// selection and the coalescing buffer, is guarded.

package runtime

import (
	"sync"
	"sync/atomic"
)

// WithReadParallelism makes each Read of a generated reader decode up to n
// columns at the same time (default 1: one after the other), and, from 2
// on, read ahead: while the caller's Read builds the rows of one batch,
// n-1 goroutines decode the columns of the next batch of as many rows into
// a second set of column buffers, which the next Read takes over (it
// decodes the columns they have not started yet itself); the columns of
// a Variant (VariantReader) are read ahead too, and its values rebuilt
// from them, which the next Read takes when it asks for the whole batch
// (else it rebuilds them itself). A batch read without one ahead of it
// (the last) is assembled in two halves at once instead (Leaves.Split,
// Both). A goroutine left without columns to decode decodes
// the next page of each column ahead (read_prefetch.go), so that the batch
// that crosses a page boundary does not wait for the whole page (under
// a row selection, only the pages the offset index says hold selected
// rows: the others are passed over). It pays on files with several costly
// columns (compressed, dictionary-encoded or long byte arrays) and batches
// of thousands of rows (a Read of fewer than about 16,000 rows × columns
// decodes them one after the other and reads nothing ahead). The rows and
// errors returned are the same, each error from the Read that reaches the
// row it belongs to: a Read of fewer rows than the batch read ahead gets
// its rows when the batch failed past them, and the next Read gets the
// error (but for a batch whose values exceed 4 GiB, which fails as a
// whole); the column
// buffers take twice the memory, each column holds a second decoded page
// (1,000,000 flat rows read in batches of 4,096: peak heap 4.6 -> 5.9 MiB;
// 100,000 rows of 200 columns: 147 -> 166 MiB), and Deviations may already
// list those of the batch read ahead. The goroutines wait for the next
// Read spinning, up to twice the time between two Reads (at least 0.1 ms,
// at most 1 ms), then exit; Close (FileReader.Release) stops them at once.
//
// ReadTFile (ReadFileWith) uses it otherwise on a file of two or more row
// groups: n goroutines read runs of row groups at once, each with a
// reader of its own (without read-ahead) that assembles its rows straight
// into the result.
//
// Unlike WithParallelism it does not time itself: measure it on the
// machine that runs it. Where the work is memory-bound, moving a batch's
// data between cores costs part of what the split saves, and the
// garbage collector's workers take the other core when rows hold maps:
// on a 2-vCPU VM (the suite of peers/bench, whose pqgen-par reads with
// WithReadParallelism(2)), 200,000 flat rows of six columns read
// 1.4-1.5 times as fast, nested rows 1.3-1.7 times and 20,000 rows of 200
// columns 0.9-1.6 times (1.4-1.6 times at 100,000 rows) (snappy and zstd,
// regular and high-entropy data; best of three rounds).
func WithReadParallelism(n int) ReaderOption {
	return func(c *readerConfig) {
		if n < 1 {
			c.fail("WithReadParallelism(%d): must be at least 1", n)
			return
		}
		c.ReadParallelism = n
	}
}

// ColumnJob is one column reader of a generated Read and its dotted path.
//
// For generated code (see "For generated code" in the package doc).
type ColumnJob struct {
	c    ColumnRows
	path string
}

// Col returns the job of column reader c (nil when the column is not read)
// at the dotted path.
//
// For generated code (see "For generated code" in the package doc).
func Col[T any, P interface {
	*T
	ColumnRows
}](c P, path string) ColumnJob {
	if c == nil {
		return ColumnJob{path: path}
	}
	return ColumnJob{c: c, path: path}
}

// readParallelMinSlots is the least rows × columns a ReadColumns call
// must read for its columns to be decoded in parallel: below it, starting
// and waiting for a goroutine costs more than it saves (16-row reads of
// 12 columns took 1.6 to 1.9 times as long with two columns at once; at
// 128 rows, 1.0 to 1.35 times).
const readParallelMinSlots = 16 << 10

// ReadColumns reads the next k rows of the column of every job that has a
// reader (see ReadRowsExact), up to WithReadParallelism of them at once
// (the caller and n-1 goroutines taking columns in turn) when k rows ×
// the jobs make at least readParallelMinSlots, and returns the error of
// the first failing job in order.
//
// For generated code (see "For generated code" in the package doc).
//
// With WithReadParallelism of 2 or more, it then starts decoding the
// next batch of as many rows into a second set of buffers while the
// caller assembles this one (see read_pipe.go); the next call swaps them
// in, and returns the errors of that batch.
func (r *FileReader) ReadColumns(k int, jobs ...ColumnJob) error {
	if p := r.pipe; p != nil && p.ahead {
		return r.takeAhead(k, jobs)
	}
	if err := r.readColumns(k, jobs); err != nil {
		return err
	}
	if r.cfg.ReadParallelism > 1 {
		r.readAhead(k, jobs)
	}
	return nil
}

// readColumns is ReadColumns without reading ahead.
func (r *FileReader) readColumns(k int, jobs []ColumnJob) error {
	n := min(r.cfg.ReadParallelism, len(jobs))
	if n <= 1 || k*len(jobs) < readParallelMinSlots {
		for _, j := range jobs {
			if j.c != nil {
				if err := ReadRowsExact(j.c, k, j.path); err != nil {
					return err
				}
			}
		}
		return nil
	}
	errs := make([]error, len(jobs))
	var next atomic.Int64
	work := func() {
		for {
			i := int(next.Add(1) - 1)
			if i >= len(jobs) {
				return
			}
			if j := jobs[i]; j.c != nil {
				errs[i] = ReadRowsExact(j.c, k, j.path)
			}
		}
	}
	var wg sync.WaitGroup
	for range n - 1 {
		wg.Go(work)
	}
	work() // the caller takes columns too
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
