package runtime

import (
	"fmt"
	"io"
	goruntime "runtime"
	"slices"
	"testing"
	"time"

	"github.com/pqgen/pqgen/internal/corpus"
	"github.com/pqgen/pqgen/runtime/meta"
	"github.com/pqgen/pqgen/runtime/schema"
)

// pipeFiles are corpus files with columns of every physical type, flat
// and nested, dictionary-encoded and plain, of one and several pages and
// row groups.
var pipeFiles = append([]string{
	"data/alltypes_plain.parquet",
	"data/int96_from_spark.parquet",
	"data/fixed_length_byte_array.parquet",
	"data/rle_boolean_encoding.parquet",
	"data/byte_stream_split.zstd.parquet",
	"data/delta_byte_array.parquet",
	"data/repeated_primitive_no_list.parquet",
	"data/null_list.parquet",
	"data/map_no_value.parquet",
	"data/int32_with_null_pages.parquet",
}, releaseFiles...)

// pipeRead reads every column of the file at path through ReadColumns in
// batches whose sizes cycle through sizes (a Variant's columns through its
// VariantReader), and returns per batch the text of each column's levels
// and values (a Variant's rows), and the strings of the batches.
// lazy sets the byte-array readers' mode of generated readers (see
// ByteArrayReader.lazy), whose strings share the pages' bytes.
func pipeRead(t *testing.T, path string, sizes []int, lazy bool, opts ...ReaderOption) (batches, strs []string, fr *FileReader) {
	t.Helper()
	batches, strs, fr, err := tryPipeRead(t, path, sizes, lazy, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return batches, strs, fr
}

// tryPipeRead is pipeRead returning the error that ends the read (nil at
// the end of the rows) with the batches read before; fr is nil when the
// file does not open.
func tryPipeRead(t *testing.T, path string, sizes []int, lazy bool, opts ...ReaderOption) (batches, strs []string, fr *FileReader, err error) {
	t.Helper()
	fh, size := openTestFile(t, path)
	return pipeReadAt(t, fh, size, path, sizes, lazy, opts...)
}

// pipeReadAt is tryPipeRead of the file of size bytes in r, named name
// in errors.
func pipeReadAt(t *testing.T, r io.ReaderAt, size int64, name string, sizes []int, lazy bool, opts ...ReaderOption) (batches, strs []string, fr *FileReader, err error) {
	t.Helper()
	if fr, err = NewFileReader(r, size, opts...); err != nil {
		return nil, nil, nil, fmt.Errorf("%s: %w", name, err)
	}
	var (
		jobs []ColumnJob
		lvs  []*Levels
		vals []func() string
	)
	variants := map[*schema.Node]bool{}
	for _, l := range fr.File().Schema.Leaves {
		var (
			c   ColumnRows
			lv  *Levels
			val func() string
			err error
		)
		if g := variantGroup(l); g != nil {
			// A Variant's leaves are read through its VariantReader.
			if variants[g] {
				continue
			}
			variants[g] = true
			vr, err := fr.VariantReader(g.PathString())
			if err != nil {
				return batches, strs, fr, err
			}
			jobs = append(jobs, ColumnJob{c: vr, path: g.PathString()})
			lvs = append(lvs, &Levels{})
			vals = append(vals, func() string { return fmt.Sprintf("%v %v %x", vr.Def, vr.Rep, vr.Rows) })
			continue
		}
		switch l.Type {
		case meta.Boolean:
			var r *BoolReader
			if r, err = fr.BoolReader(l.Column); err == nil {
				c, lv, val = r, &r.Levels, func() string { return fmt.Sprint(r.Values) }
			}
		case meta.Int32:
			var r *Int32Reader
			if r, err = fr.Int32Reader(l.Column); err == nil {
				c, lv, val = r, &r.Levels, func() string { return fmt.Sprint(r.Values) }
			}
		case meta.Int64:
			var r *Int64Reader
			if r, err = fr.Int64Reader(l.Column); err == nil {
				c, lv, val = r, &r.Levels, func() string { return fmt.Sprint(r.Values) }
			}
		case meta.Int96:
			var r *Int96Reader
			if r, err = fr.Int96Reader(l.Column); err == nil {
				c, lv, val = r, &r.Levels, func() string { return fmt.Sprint(r.Values) }
			}
		case meta.Float:
			var r *FloatReader
			if r, err = fr.FloatReader(l.Column); err == nil {
				c, lv, val = r, &r.Levels, func() string { return fmt.Sprint(r.Values) }
			}
		case meta.Double:
			var r *DoubleReader
			if r, err = fr.DoubleReader(l.Column); err == nil {
				c, lv, val = r, &r.Levels, func() string { return fmt.Sprint(r.Values) }
			}
		case meta.FixedLenByteArray:
			var r *FixedReader
			if r, err = fr.FixedReader(l.Column); err == nil {
				c, lv, val = r, &r.Levels, func() string { return fmt.Sprint(r.Values) }
			}
		case meta.ByteArray:
			var r *ByteArrayReader
			if r, err = fr.ByteArrayReader(l.Column); err == nil {
				r.lazy = lazy
				c, lv = r, &r.Levels
				val = func() string {
					var s []string
					for i := range r.Values.Len() {
						s = append(s, r.String(i))
					}
					strs = append(strs, s...)
					return fmt.Sprintf("%q", s)
				}
			}
		}
		if err != nil {
			return batches, strs, fr, err
		}
		jobs = append(jobs, ColumnJob{c: c, path: l.PathString()})
		lvs, vals = append(lvs, lv), append(vals, val)
	}
	batches, err = columnBatches(fr, name+", ", jobs, sizes, func() (out []string) {
		for j, lv := range lvs {
			// Whether a column lacks a kind of levels is told by nil.
			out = append(out, fmt.Sprint(lv.Def == nil, lv.Rep == nil, lv.Def, lv.Rep, vals[j]()))
		}
		return out
	})
	return batches, strs, fr, err
}

// columnBatches reads jobs through fr.ReadColumns in batches whose sizes
// cycle through sizes (fewer at the end, as Available says) until the
// rows end, and returns what record gives after each batch; an error of
// ReadColumns comes wrapped as prefix+"rows from N: ...", one of
// Available as it is.
func columnBatches(fr *FileReader, prefix string, jobs []ColumnJob, sizes []int, record func() []string) (out []string, err error) {
	var read int64
	for i := 0; ; i++ {
		k, err := fr.Available(read, sizes[i%len(sizes)])
		if err != nil || k == 0 {
			return out, err
		}
		if err := fr.ReadColumns(k, jobs...); err != nil {
			return out, fmt.Errorf("%srows from %d: %w", prefix, read, err)
		}
		out = append(out, record()...)
		read += int64(k)
	}
}

// TestReadAheadCorpus: with every batch read ahead (the threshold
// lowered to one slot), ReadColumns hands out the levels and values of
// the sequential reads, batch by batch, for columns of every type, also
// when the next batch is smaller (the read ahead is split) or larger
// (extended) than the one read ahead; strings of earlier batches keep
// their values; Release stops the reading ahead. It does so with the
// byte-array readers of generated readers too (lazy), whose front and
// back readers share the bytes of the pages they both read from.
func TestReadAheadCorpus(t *testing.T) {
	defer func(m int) { readAheadMinSlots = m }(readAheadMinSlots)
	readAheadMinSlots = 1
	for _, f := range pipeFiles {
		path := corpus.Path(t, f)
		for _, sizes := range [][]int{{3}, {5, 5, 2, 9, 1, 5}, {1000}} {
			for _, lazy := range []bool{false, true} {
				seq, _, fr := pipeRead(t, path, sizes, lazy)
				fr.Release()
				if fr.pipe != nil {
					t.Fatalf("%s: read ahead without WithReadParallelism", f)
				}
				got, strs, fr := pipeRead(t, path, sizes, lazy, WithReadParallelism(2))
				want := cloneStrings(strs)
				if fr.NumRows() > int64(sizes[0]) && (fr.pipe == nil || fr.pipe.off || fr.pipe.back == nil) {
					t.Fatalf("%s, batches %v: nothing was read ahead", f, sizes)
				}
				fr.Release()
				if fr.pipe.ahead {
					t.Fatalf("%s: Release left a batch read ahead", f)
				}
				if fr.pipe.workers.running() {
					t.Fatalf("%s: Release left a worker running", f)
				}
				sameBatches(t, fmt.Sprintf("%s, batches %v, lazy %v", f, sizes, lazy), got, seq)
				// Read another file with parallelism: its buffers are the
				// released ones.
				pipeRead(t, path, sizes, lazy, WithReadParallelism(2))
				if !slices.Equal(strs, want) {
					t.Fatalf("%s, lazy %v: strings of released batches changed", f, lazy)
				}
			}
		}
	}
}

// sameBatches fails t, naming what with the first difference, unless
// the column batches got are those read sequentially, seq.
func sameBatches(t *testing.T, what string, got, seq []string) {
	t.Helper()
	if slices.Equal(got, seq) {
		return
	}
	for i := range min(len(got), len(seq)) {
		if got[i] != seq[i] {
			t.Fatalf("%s: column batch %d\n%s\nsequentially\n%s", what, i, got[i], seq[i])
		}
	}
	t.Fatalf("%s: %d column batches, sequentially %d", what, len(got), len(seq))
}

// TestReadAheadWorkersExit: the read-ahead's workers of a reader read to
// its end and abandoned without Release exit by themselves once idle,
// and Release stops those still waiting at once.
func TestReadAheadWorkersExit(t *testing.T) {
	defer func(m int) { readAheadMinSlots = m }(readAheadMinSlots)
	readAheadMinSlots = 1
	path := corpus.Path(t, "data/alltypes_plain.parquet")
	base := goruntime.NumGoroutine()
	_, _, fr := pipeRead(t, path, []int{1}, true, WithReadParallelism(3))
	if fr.pipe == nil || fr.pipe.workers.size() != 2 {
		t.Fatalf("no read-ahead with two workers: %+v", fr.pipe)
	}
	// Both must come: the goroutines gone and every slot free. The count
	// alone can reach base early, when a goroutine of an earlier test
	// counted in base ends first (seen under the race detector), so the
	// slots are polled too; a worker gone without freeing its slot keeps
	// one held past the deadline.
	deadline := time.Now().Add(5 * time.Second)
	for goruntime.NumGoroutine() > base || fr.pipe.workers.running() {
		if time.Now().After(deadline) {
			if fr.pipe.workers.running() {
				t.Fatalf("a worker's slot still held 5 s after the last read (%d goroutines, %d before it)", goruntime.NumGoroutine(), base)
			}
			t.Fatalf("%d goroutines 5 s after the last read, %d before it", goruntime.NumGoroutine(), base)
		}
		time.Sleep(time.Millisecond)
	}
	fr.Release()

	// Release right after a batch: the workers are still waiting for
	// the next.
	fr = openReader(t, path, WithReadParallelism(3))
	r, err := fr.Int32Reader(0)
	if err != nil {
		t.Fatal(err)
	}
	if err := fr.ReadColumns(2, Col(r, "id")); err != nil {
		t.Fatal(err)
	}
	if fr.pipe == nil || !fr.pipe.ahead {
		t.Fatal("nothing read ahead")
	}
	fr.Release()
	if fr.pipe.workers.running() {
		t.Fatal("Release left a worker running")
	}
}

// TestReadPipeTake: a worker takes each unit (column) of the batch it
// synchronised with once, and none of another batch (one late for a
// batch must not decode a column of the next with the last one's row
// count).
func TestReadPipeTake(t *testing.T) {
	p := &readPipe{front: make([]pipeReader, 3)}
	p.batch.Store(7 << 32)
	if i, ok := p.take(6); ok {
		t.Fatalf("a worker of batch 6 took unit %d of batch 7", i)
	}
	for want := range 3 {
		if i, ok := p.take(7); !ok || i != want {
			t.Fatalf("take = %d, %v; want unit %d", i, ok, want)
		}
	}
	if i, ok := p.take(7); ok {
		t.Fatalf("took unit %d of 3", i)
	}
}

// TestSpinWait: a worker that came too late for its batch exits at its
// first idle spin; one that stays waits workerWait of its batches'
// period, checking the clock every 64th spin.
func TestSpinWait(t *testing.T) {
	w := newSpinWait()
	w.batchDone(false)
	if !w.spin() {
		t.Fatal("a worker that does not stay did not expire at once")
	}
	w.batchDone(true) // the first batch timed: period 0, workerIdle
	if w.idle != workerIdle {
		t.Fatalf("idle %v after one batch, want %v", w.idle, workerIdle)
	}
	for i := range 63 {
		if w.spin() {
			t.Fatalf("expired at spin %d, before checking the clock", i+1)
		}
	}
	time.Sleep(2 * workerIdle)
	if !w.spin() {
		t.Fatal("not expired at the 64th spin, 2 × workerIdle later")
	}
	w.worked(true)
	if w.spin() {
		t.Fatal("expired right after work")
	}
}

// TestReadPipeWait: the caller's wait for the columns left returns when
// the last is done, also when they outlast its spinning (workerIdleMax)
// and it sleeps until the last wakes it.
func TestReadPipeWait(t *testing.T) {
	for _, late := range []time.Duration{0, 10 * time.Microsecond, 3 * workerIdleMax} {
		p := &readPipe{front: make([]pipeReader, 2)}
		p.done.init()
		p.done.reset()
		p.done.finish(2)
		t0 := time.Now() // before the goroutine starts its sleep
		go func() {
			time.Sleep(late)
			p.done.finish(2)
		}()
		p.wait()
		if got := p.done.finished(); got != 2 || time.Since(t0) < late {
			t.Fatalf("column done after %v: wait returned after %v with %d of 2 done", late, time.Since(t0), got)
		}
	}
}

// TestWorkerSet: start starts a goroutine only for the slots none holds;
// a worker whose wait expired leaves (freeing its slot) unless work came
// meanwhile, when it keeps the slot, or the set is stopping; stop waits
// for the workers and lets start start them again.
func TestWorkerSet(t *testing.T) {
	var s workerSet
	ran := make(chan [2]int, 2)
	s.init(2, func(k int, seen uint64) { ran <- [2]int{k, int(seen)}; s.slots[k].Store(false) })
	s.slots[1].Store(true) // a worker holds slot 1
	s.start(7)
	s.wg.Wait()
	if len(ran) != 1 || <-ran != [2]int{0, 7} {
		t.Fatal("start did not start exactly the free slot 0, after batch 7")
	}
	if !s.leave(1, func() bool { return false }) || s.running() {
		t.Fatal("an idle worker did not leave, or kept its slot")
	}
	s.slots[1].Store(true)
	if s.leave(1, func() bool { return true }) || !s.slots[1].Load() {
		t.Fatal("a worker left with work waiting, or lost its slot")
	}
	s.quit.Store(true)
	if !s.leave(1, func() bool { return true }) || !s.quitting(1) || s.running() {
		t.Fatal("a stopping worker stayed or kept its slot")
	}
	s.quit.Store(false)
	if s.quitting(0) {
		t.Fatal("quitting while not stopping")
	}
	s.run = func(k int, _ uint64) {
		for !s.quitting(k) {
			goruntime.Gosched()
		}
	}
	s.start(8)
	s.stop()
	if s.running() || s.quit.Load() {
		t.Fatal("stop left a worker running or the set stopping")
	}
}

// variantGroup returns the VARIANT group that holds leaf l, or nil.
func variantGroup(l *schema.Node) *schema.Node {
	for n := l.Parent; n != nil; n = n.Parent {
		if n.Logical.Kind == meta.LogicalVariant {
			return n
		}
	}
	return nil
}
