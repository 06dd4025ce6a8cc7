// Shredding in parts (WithParallelism): a generated writer's shred is one
// loop over the batch's rows per top-level field, and each loop appends to
// the buffers of that field's columns only, so the loops are independent.
// In a pipelined writer (write_parallel.go) the caller shreds a batch
// while the workers move the batch before it into pages; with nested rows
// (maps, lists, strings) the shredding is the larger part of a write, and
// a worker done with its columns waited for the caller. ShredParts lets it
// take loops of the batch being shredded instead: the caller takes parts
// from the first, idle workers from the last, each part once, and Run
// returns when all are done, before the rows are handed back to the
// caller of Write. The buffers filled are the same whoever fills them, so
// the file is the sequential writer's.

package runtime

import (
	"sync/atomic"
	"unsafe"
)

// shredMinRows is the least rows a Run offers to workers: a Write of a few
// rows shreds them in less time than a worker takes to notice.
const shredMinRows = 64

// ShredTile returns how many rows each Run of s shreds of a batch of rows
// rows of T, which generated code hands to Run a tile at a time: a tile
// holds at most as many rows as take shredTileBytes, or minShredTile
// rows when fewer, so that the rows, read once per top-level field, are
// still in cache when the next field's loop reads them. Only wide types
// tile: rows of 200 columns (1.8 KB each) go 128 at a time, rows of a
// dozen columns whole batches. Tiles are of equal size (the last one
// smaller by less than the number of tiles). A Run shared with workers
// (WithParallelism) is not tiled: it hands the workers the batch's fields
// once, not once per tile.
//
// For generated code (see "For generated code" in the package doc).
func ShredTile[T any](s *ShredParts, rows int) int {
	var zero T
	most := max(minShredTile, shredTileBytes/max(int(unsafe.Sizeof(zero)), 1))
	if rows > most && s.shared(rows) {
		return rows // one Run with the workers
	}
	return equalTiles(rows, most)
}

// shredTileBytes is the row memory a shred tile should take: 256 KiB,
// well within a core's L2 cache. On 200 columns (peers/bench, wide, 1.8
// KB a row, batches of 1,024 rows) tiles of 128 rows took 7% less time
// than whole batches with snappy and 4% with zstd, and tiles of 32 and 64
// rows about as long as 128.
const shredTileBytes = 256 << 10

// minShredTile is the fewest rows a tile holds, so that the per-call costs
// of a Run (one call per top-level field) stay small.
const minShredTile = 64

// ShredParts are the parts of a generated writer's shredding of a batch
// (see the file comment). Generated code creates them once per writer
// with FileWriter.ShredParts and calls Run for every batch; each part
// reads the batch's rows from the generated writer.
type ShredParts struct {
	fw    *FileWriter
	parts []func() error
	errs  []error
	// panics holds, per part of a shared Run, what it panicked with: Run
	// panics with the first once every part is done, on the caller's
	// goroutine, as the parts run in order would have.
	panics []any
	// claim holds, per part, the last Run that took it; seq counts the
	// Runs offered to workers, done the parts of the current one finished.
	claim []atomic.Uint64
	seq   atomic.Uint64
	done  doneCount
}

// ShredParts returns the shredding of fw's generated writer in the given
// parts, which must write to distinct column buffers and may run on any
// goroutine, one at a time each. For generated code; call it once, when
// the writer is created: parts made after the first EndRows, or for a
// FileWriter that has parts already, run on the caller only.
func (fw *FileWriter) ShredParts(parts ...func() error) *ShredParts {
	s := &ShredParts{
		fw:     fw,
		parts:  parts,
		errs:   make([]error, len(parts)),
		panics: make([]any, len(parts)),
		claim:  make([]atomic.Uint64, len(parts)),
	}
	s.done.init()
	// Workers read fw.shred: set before the first batch starts them.
	if fw.pipe.on && len(parts) > 1 && fw.shred == nil && fw.pipe.seq.Load() == 0 {
		fw.shred = s
	}
	return s
}

// Run runs every part once for a batch of rows rows and returns the error
// of the first part, in order, that failed. On a pipelined writer whose
// workers run, the parts are shared with them (see the file comment), and
// a part's panic, wherever it ran, is Run's on the caller's goroutine once
// every part is done; otherwise the caller runs them in order, stopping at
// the first error or panic.
func (s *ShredParts) Run(rows int) error {
	if !s.shared(rows) {
		for _, f := range s.parts {
			if err := f(); err != nil {
				return err
			}
		}
		return nil
	}
	n := int64(len(s.parts))
	s.done.reset()
	seq := s.seq.Add(1) // offers the parts: after done is reset
	for i := range s.parts {
		s.take(i, seq)
	}
	// While a worker finishes its parts, take columns of the batch in
	// flight (as the next EndRows would).
	if p := &s.fw.pipe; s.done.finished() < n && p.busy {
		s.fw.consumeColumns(&s.fw.pageSc[0], p.seq.Load(), 0)
	}
	s.done.waitSpinning(n, workerIdle)
	for _, v := range s.panics {
		if v != nil {
			clear(s.panics)
			clear(s.errs)
			panic(v)
		}
	}
	return takeFirstErr(s.errs)
}

// shared reports whether a Run of rows rows is offered to workers: the
// writer pipelines, is in a stretch with workers and a worker runs.
func (s *ShredParts) shared(rows int) bool {
	p := &s.fw.pipe
	if s.fw.shred != s || rows < shredMinRows || p.alone {
		return false
	}
	return p.workers.running()
}

// take runs part i of Run seq if no one took it yet, and reports whether
// it did.
func (s *ShredParts) take(i int, seq uint64) bool {
	if s.claim[i].Load() != seq-1 || !s.claim[i].CompareAndSwap(seq-1, seq) {
		return false
	}
	defer s.done.finish(int64(len(s.parts)))
	defer func() {
		if v := recover(); v != nil {
			s.panics[i] = v
		}
	}()
	s.errs[i] = s.parts[i]()
	return true
}

// help takes the parts of the current Run no one took yet, from the last,
// for a worker, and reports whether it took any.
func (s *ShredParts) help() bool {
	seq := s.seq.Load()
	if seq == 0 || s.done.finished() >= int64(len(s.parts)) {
		return false // no Run yet, or all its parts done
	}
	took := false
	for i := len(s.parts) - 1; i >= 0; i-- {
		if s.take(i, seq) {
			took = true
		}
	}
	return took
}
