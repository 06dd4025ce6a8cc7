// Reading a whole file into one slice (the generated ReadTFile): the
// footer read once, and under WithReadParallelism(n ≥ 2) the row groups
// (https://parquet.apache.org/docs/file-format/) read by n goroutines at
// once, each with a reader of its own that decodes and assembles its rows
// straight into their place in the result.

package runtime

import (
	"fmt"
	"io"
	"slices"
	"sync"
	"sync/atomic"
	"unsafe"
)

// ReadFileWith opens the Parquet file at path and reads every row with
// readers made by open (a generated NewTReader) from opts: the generated
// ReadTFile from generated-code version 8 on (ReadFileRows before). The
// footer is read once, whatever the number of readers. The result is
// allocated as ReadFileRows says (presizeRows), so a lying footer cannot
// make it allocate out of proportion to the file.
//
// Under WithReadParallelism(n ≥ 2), a file whose row groups to read (after
// WithRowGroups, WithRowGroupFilter and WithColumnPageFilter) are two or
// more and hold at least fileParallelMinRows rows is read by n goroutines
// at once, the caller one of them. Its row groups are cut into runs of
// consecutive ones with about the same rows (tasks, up to fileTasksPer for
// each goroutine, so that a goroutine done early takes another). A
// goroutine reads a task with a reader of its own (WithRowGroups, without
// read-ahead) and assembles its rows straight into their place in the
// result, so each row group is decoded and assembled on one core: nothing
// decoded moves between cores, which costs a 2-core virtual machine more
// than the work it would spread (read_parallel.go). Without WithFilter the
// footer's row counts (or the page filter's ranges) place every task's
// rows and the result is allocated once; with it, each task collects its
// rows apart and they are copied together in file order. A file of one
// row group is read by one reader with the read-ahead of
// WithReadParallelism. Either way the rows returned and the error are
// those of one reader: the error is the first failing row group's in file
// order (the tasks after it are not started), and the column buffers of n
// readers are held at once.
//
// For generated code (see "For generated code" in the package doc).
func ReadFileWith[T any, R RowReader[T]](path string, opts []ReaderOption, open func(r io.ReaderAt, size int64, opts ...ReaderOption) (R, error)) ([]T, error) {
	fh, size, err := openSized(path)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	f, err := OpenFile(fh, size, opts...)
	if err != nil {
		return nil, err
	}
	rowSize := int64(unsafe.Sizeof(*new(T)))
	// with returns opts reading from f, then more.
	with := func(more ...ReaderOption) []ReaderOption {
		return append(append(opts[:len(opts):len(opts)], withOpened(f)), more...)
	}
	if n := f.cfg.ReadParallelism; n >= 2 {
		plan, err := planFileTasks(f, n, rowSize)
		if err != nil {
			return nil, err
		}
		if len(plan.tasks) >= 2 {
			return readFileTasks(plan, n, func(t *fileTask) (R, error) {
				return open(fh, size, with(WithRowGroups(t.rowGroups...), WithReadParallelism(1))...)
			})
		}
	}
	r, err := open(fh, size, with()...)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return readAllRows(r, make([]T, 0, presizeRows(r.NumRows(), size, rowSize)))
}

// withOpened makes NewFileReader read the open File f (shared, see
// File.share) instead of opening its io.ReaderAt again.
func withOpened(f *File) ReaderOption {
	return func(c *readerConfig) { c.opened = f }
}

// readAllRows reads the rows r has left into out, grown past its capacity
// as rows arrive, and returns it clipped.
func readAllRows[T any, R RowReader[T]](r R, out []T) ([]T, error) {
	var one [1]T // reads past a full out: the end, or rows the footer did not count
	for {
		dst := out[len(out):min(cap(out), len(out)+readFileBatch)]
		if len(dst) == 0 {
			dst = one[:]
		}
		n, err := r.Read(dst)
		if len(out) == cap(out) && n > 0 {
			out = append(slices.Grow(out, min(len(out), 1<<20)), one[0])
		} else {
			out = out[:len(out)+n]
		}
		if err == io.EOF {
			return slices.Clip(out), nil
		}
		if err != nil {
			return nil, err
		}
	}
}

// fileParallelMinRows is the fewest rows ReadFileWith reads in parallel:
// below two batches of readFileBatch, a second reader's set-up (its column
// readers and their first pages) is a large part of its share.
const fileParallelMinRows = 2 * readFileBatch

// fileTasksPer is how many tasks ReadFileWith cuts a file's row groups
// into per goroutine (when the row groups allow): enough that a goroutine
// whose row groups decode faster takes over work, few enough that each
// task's reader set-up stays small against its rows.
const fileTasksPer = 4

// fileTask is a run of consecutive row groups read by one reader.
type fileTask struct {
	rowGroups []int
	rows      int64 // by the footer (or the page filter's ranges)
	start     int64 // its first row's index in the result (exact plans)
}

// filePlan is how ReadFileWith reads a file in parallel.
type filePlan struct {
	tasks []fileTask
	// exact: the tasks' rows are the rows their readers return (no
	// WithFilter), so they go straight into a result of total rows.
	exact bool
	total int64
}

// planFileTasks cuts the row groups f's reader would read into tasks for
// n goroutines; no task (read with one reader) when there are fewer than
// two row groups or fileParallelMinRows rows, or when the footer's row
// counts are not plausible for the file's size (presizeRows: then the one
// reader grows its result as rows arrive).
func planFileTasks(f *File, n int, rowSize int64) (filePlan, error) {
	fr, err := newFileReader(f.share(f.cfg))
	if err != nil {
		return filePlan{}, err
	}
	plan := filePlan{exact: fr.filter == nil}
	rows := make([]int64, len(fr.rowGroups))
	for i, rg := range fr.rowGroups {
		if rr, ok := fr.ranges[rg]; ok {
			rows[i] = rangeRows(rr)
		} else {
			rows[i] = f.Meta.RowGroups[rg].NumRows
		}
		if rows[i] < 0 || rows[i] > int64(presizeRows(rows[i], f.Size, rowSize)) {
			return filePlan{}, nil
		}
		plan.total += rows[i]
	}
	if len(rows) < 2 || plan.total < fileParallelMinRows || plan.total > int64(presizeRows(plan.total, f.Size, rowSize)) {
		return filePlan{}, nil
	}
	target := max(plan.total/int64(fileTasksPer*n), 1)
	var t fileTask
	for i, rg := range fr.rowGroups {
		t.rowGroups = append(t.rowGroups, rg)
		t.rows += rows[i]
		if t.rows >= target || i == len(rows)-1 {
			plan.tasks = append(plan.tasks, t)
			t = fileTask{start: t.start + t.rows}
		}
	}
	return plan, nil
}

// readFileTasks reads the tasks of plan on n goroutines, each task with a
// reader from open, and returns their rows in file order.
func readFileTasks[T any, R RowReader[T]](plan filePlan, n int, open func(t *fileTask) (R, error)) ([]T, error) {
	var out []T
	parts := make([][]T, len(plan.tasks)) // inexact plans: each task's rows
	if plan.exact {
		out = make([]T, plan.total)
	}
	errs := make([]error, len(plan.tasks))
	var next atomic.Int64
	var failed atomic.Int64 // the first task that failed so far
	failed.Store(int64(len(plan.tasks)))
	run := func(i int) error {
		t := &plan.tasks[i]
		r, err := open(t)
		if err != nil {
			return err
		}
		defer r.Close()
		if !plan.exact {
			parts[i], err = readAllRows(r, make([]T, 0, min(t.rows, readFileBatch)))
			return err
		}
		dst := out[t.start : t.start+t.rows]
		got := 0
		for got < len(dst) {
			m, err := r.Read(dst[got:min(len(dst), got+readFileBatch)])
			got += m
			if err == io.EOF {
				break
			}
			if err != nil {
				return err
			}
			if m == 0 {
				return fmt.Errorf("%w: row groups %v: a read returned no rows and no error", ErrChunk, t.rowGroups)
			}
		}
		if got < len(dst) {
			return fmt.Errorf("%w: row groups %v: %d rows where the footer counts %d", ErrChunk, t.rowGroups, got, len(dst))
		}
		return nil
	}
	work := func() {
		for {
			i := next.Add(1) - 1
			if i >= int64(len(plan.tasks)) || i > failed.Load() {
				return // done, or after a failed task: its error is the read's
			}
			if errs[i] = run(int(i)); errs[i] != nil {
				for {
					f := failed.Load()
					if i >= f || failed.CompareAndSwap(f, i) {
						break
					}
				}
			}
		}
	}
	var wg sync.WaitGroup
	for range min(n, len(plan.tasks)) - 1 {
		wg.Go(work)
	}
	work()
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	if plan.exact {
		return out, nil
	}
	total := 0
	for _, p := range parts {
		total += len(p)
	}
	out = make([]T, 0, total)
	for _, p := range parts {
		out = append(out, p...)
	}
	return out, nil
}
