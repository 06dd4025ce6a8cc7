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
	"sort"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/pqgen/pqgen/runtime/meta"
)

// ReadFileWith opens the Parquet file at path and reads every row with
// readers made by open (a generated NewTReader) from opts: the generated
// ReadTFile from generated-code version 8 on (ReadFileRows before). The
// footer is read once, whatever the number of readers. The result is
// allocated as ReadFileRows says (presizeRows), so a lying footer cannot
// make it allocate out of proportion to the file.
//
// Under WithReadParallelism(n ≥ 2), a file whose rows to read (after
// WithRowGroups, WithRowGroupFilter and WithColumnPageFilter) are at least
// fileParallelMinRows is read by n goroutines at once, the caller one of
// them. Two or more row groups are cut into runs of consecutive ones with
// about the same rows (tasks, up to fileTasksPer for each goroutine, so
// that a goroutine done early takes another), a row group of twice a
// task's rows or more cut into parts of about a task's rows where its pages
// allow (partTasks); a lone row group of at least filePartMinRows rows
// whose columns all have an offset index is cut into n parts (or fewer,
// down to two, as its pages allow) at page boundaries (partTasks), each
// read from its first page on.
// A goroutine reads a task with a reader of its own (WithRowGroups, without
// read-ahead) and assembles its rows straight into their place in the
// result, so each row is decoded and assembled on one core: nothing
// decoded moves between cores, which costs a 2-core virtual machine more
// than the work it would spread (read_parallel.go). Without WithFilter the
// footer's row counts (or the page filter's ranges) place every task's
// rows and the result is allocated once; with it, each task collects its
// rows apart and they are copied together in file order. Other files (one
// row group without offset indexes, or too few rows) are read by one
// reader with the read-ahead of WithReadParallelism. Either way the rows
// returned and the error are those of one reader: the error is the first
// failing task's in file order (the tasks after it are not started), and
// a read in parts that fails is done again by one reader, which does not
// use the offset index that placed the parts. The column buffers of n
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
		// A plan that fails (an option the reader refuses, an offset
		// index that does not decode) leaves the file to one reader,
		// which meets the same error, or does not need that index.
		if plan, err := planFileTasks(f, n, rowSize); err == nil && len(plan.tasks) >= 2 {
			rows, err := readFileTasks(plan, n, func(t *fileTask) (R, error) {
				return open(fh, size, with(WithRowGroups(t.rowGroups...), WithReadParallelism(1), withPart(t.part))...)
			})
			// Parts are placed by the offset index, which one reader does
			// not use: one that does not match the pages fails a part the
			// reader of the whole would read, so a failed read in parts
			// is left to it.
			if err == nil || plan.tasks[0].part == nil {
				return rows, err
			}
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

// withPart restricts a reader to part of a row group (nil: no
// restriction).
func withPart(p *rowGroupPart) ReaderOption {
	return func(c *readerConfig) { c.part = p }
}

// rowGroupPart is a range of rows of one row group.
type rowGroupPart struct {
	rowGroup int
	rows     rowRange
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

// fileTask is a run of consecutive row groups, or part of one, read by
// one reader.
type fileTask struct {
	rowGroups []int
	part      *rowGroupPart // of rowGroups[0], its only row group; nil: whole
	rows      int64         // by the footer (or the page filter's ranges)
	start     int64         // its first row's index in the result (exact plans)
}

// filePartMinRows is the fewest rows a lone row group must hold for
// ReadFileWith to read it in parts.
const filePartMinRows = 4 * readFileBatch

// filePlan is how ReadFileWith reads a file in parallel.
type filePlan struct {
	tasks []fileTask
	// exact: the tasks' rows are the rows their readers return (no
	// WithFilter), so they go straight into a result of total rows.
	exact bool
	total int64
}

// planFileTasks cuts the row groups f's reader would read into tasks for
// n goroutines (a lone one into parts, and a large one among others too,
// partTasks); no task (read with one
// reader) when there are fewer than fileParallelMinRows rows, or when the
// footer's row counts are not plausible for the file's size (presizeRows:
// then the one reader grows its result as rows arrive).
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
	if plan.total < fileParallelMinRows || plan.total > int64(presizeRows(plan.total, f.Size, rowSize)) {
		return filePlan{}, nil
	}
	if len(rows) == 1 {
		plan.tasks, err = partTasks(fr, fr.rowGroups[0], n)
		return plan, err
	}
	target := max(plan.total/int64(fileTasksPer*n), 1)
	var t fileTask
	for i, rg := range fr.rowGroups {
		// A row group of at least twice a task's rows (the large one of
		// a file whose last row group is small, say) is cut into parts
		// of about a task's rows where its pages allow, so that it does
		// not leave one goroutine reading most of the file.
		if rows[i] >= 2*target {
			k := int(min((rows[i]+target/2)/target, int64(fileTasksPer*n)))
			parts, err := partTasks(fr, rg, k)
			if err != nil {
				return filePlan{}, err // as for a lone row group: one reader
			}
			if parts != nil {
				if len(t.rowGroups) > 0 {
					plan.tasks = append(plan.tasks, t)
					t = fileTask{start: t.start + t.rows}
				}
				for _, p := range parts {
					p.start += t.start
					plan.tasks = append(plan.tasks, p)
				}
				t.start += rows[i]
				continue
			}
		}
		t.rowGroups = append(t.rowGroups, rg)
		t.rows += rows[i]
		if t.rows >= target || i == len(rows)-1 {
			plan.tasks = append(plan.tasks, t)
			t = fileTask{start: t.start + t.rows}
		}
	}
	return plan, nil
}

// partTasks cuts row group rg of fr into n parts, one task each, when its
// rows are at least filePartMinRows and every column read has an offset
// index (which lets a part's reader leap the pages before its rows; without
// one it would decode them to skip them); no task otherwise. The cuts
// fall on page boundaries of the column with the most compressed bytes,
// the nearest to equal parts; when one is more than an eighth of a part's
// rows away (a column of few pages, as in 200 columns of 100,000 rows), or
// the pages of other columns straddled at the cuts (decoded by both parts,
// each keeping its side) exceed half a part's bytes, it tries n-1 parts,
// and so on (columns of two pages of equal rows are read in two parts
// under any n). When not even two parts qualify, the row group keeps one
// reader.
func partTasks(fr *FileReader, rg, n int) ([]fileTask, error) {
	f := fr.f
	total := f.Meta.RowGroups[rg].NumRows
	if total < filePartMinRows {
		return nil, nil
	}
	var pages [][]meta.PageLocation // per column read
	bytes, big, bigBytes := int64(0), 0, int64(-1)
	for col, cc := range f.Meta.RowGroups[rg].Columns {
		if fr.projected != nil && !fr.projected[col] {
			continue
		}
		if _, ok := cc.OffsetIndexOffset.Get(); !ok {
			return nil, nil
		}
		// Its pages come in strictly increasing rows, with sizes of 0
		// or more inside the file: OffsetIndex refuses an index that
		// does not (the plan then fails, and one reader reads the file).
		oi, err := fr.OffsetIndex(rg, col)
		if err != nil || oi == nil {
			return nil, err
		}
		// The column read with the most compressed bytes, whose page
		// boundaries the cuts fall on (see below).
		b := pageBytes(oi.PageLocations)
		if b > bigBytes {
			big, bigBytes = len(pages), b
		}
		bytes += b
		pages = append(pages, oi.PageLocations)
	}
	if len(pages) == 0 {
		return nil, nil
	}
	// straddled returns the compressed bytes of the pages row r falls
	// inside of (not at their first row).
	straddled := func(r int64) int64 {
		w := int64(0)
		for _, locs := range pages {
			// The last page starting at or before r.
			i := sort.Search(len(locs), func(i int) bool { return locs[i].FirstRowIndex > r }) - 1
			if i >= 0 && locs[i].FirstRowIndex < r {
				w += int64(locs[i].CompressedPageSize)
			}
		}
		return w
	}
	// The cuts fall on page boundaries of the column read with the most
	// compressed bytes, the nearest to equal parts: in interleaved runs
	// on 250,000 high-entropy nested rows, cuts at the boundary of any
	// column that the fewest bytes straddle, up to a sixteenth of the
	// rows away, read 0.88-1.04 times as fast as one reader (snappy)
	// where these read 1.02-1.16, as the parts came out unequal.
	var cuts []int64
	// No more parts than the largest column has pages (equalCuts would
	// find no cut for them, each try a pass over its pages).
	for n = min(n, len(pages[big])); n >= 2; n-- {
		if cuts = equalCuts(pages[big], total, n); cuts == nil {
			continue // parts too unequal: try fewer
		}
		waste := int64(0)
		for _, c := range cuts {
			waste += straddled(c)
		}
		if waste <= bytes/int64(2*n) {
			break
		}
	}
	if n < 2 {
		return nil, nil
	}
	base, ok := fr.ranges[rg]
	if !ok {
		base = []rowRange{{0, total}}
	}
	var tasks []fileTask
	at, from := int64(0), int64(0)
	for _, to := range append(cuts, total) {
		part := &rowGroupPart{rowGroup: rg, rows: rowRange{from, to}}
		rows := rangeRows(intersectRanges(base, []rowRange{part.rows}))
		if rows > 0 {
			tasks = append(tasks, fileTask{rowGroups: []int{rg}, part: part, rows: rows, start: at})
			at += rows
		}
		from = to
	}
	if len(tasks) < 2 {
		return nil, nil
	}
	return tasks, nil
}

// equalCuts returns the n-1 cuts of a row group of total rows into n
// parts: for each, the page boundary of locs nearest to equal parts, or
// nil when one is more than an eighth of a part's rows away.
func equalCuts(locs []meta.PageLocation, total int64, n int) []int64 {
	var cuts []int64 // increasing, inside (0, total)
	for k := 1; k < n; k++ {
		want := int64(k) * total / int64(n)
		best := int64(-1)
		for _, l := range locs {
			r := l.FirstRowIndex
			if r <= 0 || r >= total || len(cuts) > 0 && r <= cuts[len(cuts)-1] {
				continue
			}
			if best < 0 || abs64(r-want) < abs64(best-want) {
				best = r
			}
		}
		if best < 0 || abs64(best-want) > total/int64(8*n) {
			return nil
		}
		cuts = append(cuts, best)
	}
	return cuts
}

// abs64 returns |x|.
func abs64(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
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

// pageBytes returns the compressed bytes of the pages locs lists.
// Precondition: locs is of an index OffsetIndex returned (no negative
// size).
func pageBytes(locs []meta.PageLocation) int64 {
	n := int64(0)
	for _, l := range locs {
		n += int64(l.CompressedPageSize)
	}
	return n
}
