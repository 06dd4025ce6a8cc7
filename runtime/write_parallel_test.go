package runtime

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	goruntime "runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pqgen/pqgen/runtime/encode"
	"github.com/pqgen/pqgen/runtime/meta"
)

// TestParallelWideSameBytes: with enough columns for EndRows itself to go
// parallel (rows × columns at or above parallelMinSlots), the file is the
// sequential writer's, byte for byte; so it is below the threshold.
func TestParallelWideSameBytes(t *testing.T) {
	const cols = 80
	var sb strings.Builder
	sb.WriteString("message m {\n")
	for i := range cols {
		switch i % 3 {
		case 0:
			fmt.Fprintf(&sb, "  optional int64 i%d;\n", i)
		case 1:
			fmt.Fprintf(&sb, "  required double d%d;\n", i)
		default:
			fmt.Fprintf(&sb, "  optional binary s%d (STRING);\n", i)
		}
	}
	sb.WriteString("}")
	write := func(rows int, opts ...WriterOption) []byte {
		r := rand.New(rand.NewPCG(1, 2))
		var buf bytes.Buffer
		w, err := NewFileWriter(&buf, mustSchema(t, sb.String()), append([]WriterOption{WithPageSize(4 << 10), WithRowGroupSize(256 << 10)}, opts...)...)
		if err != nil {
			t.Fatal(err)
		}
		for range 12 {
			for c := range cols {
				switch c % 3 {
				case 0:
					b, _ := w.Int64Buffer(c)
					for range rows {
						if r.IntN(4) == 0 {
							b.Def = append(b.Def, 0)
							continue
						}
						b.Def = append(b.Def, 1)
						b.Values = append(b.Values, r.Int64N(1000))
					}
				case 1:
					b, _ := w.DoubleBuffer(c)
					for range rows {
						b.Values = append(b.Values, r.NormFloat64())
					}
				default:
					b, _ := w.ByteArrayBuffer(c)
					for range rows {
						b.Def = append(b.Def, 1)
						b.Values.AppendString(fmt.Sprintf("v%d", r.IntN(300)))
					}
				}
			}
			if err := w.EndRows(rows); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		return buf.Bytes()
	}
	for _, rows := range []int{(parallelMinSlots + cols - 1) / cols, 16} { // parallel EndRows; sequential EndRows
		seq := write(rows)
		for _, par := range []int{2, 7} {
			if got := write(rows, WithParallelism(par)); !bytes.Equal(seq, got) {
				t.Fatalf("%d rows per EndRows, parallelism %d: files differ (%d and %d bytes)", rows, par, len(seq), len(got))
			}
		}
	}
}

// pipeSchema has flat, nested (a list of optional strings) and map
// columns of most physical types.
const pipeSchema = `message m {
  required int64 id;
  optional binary name (STRING);
  required double score;
  optional int32 opt;
  required boolean flag;
  required fixed_len_byte_array(4) fx;
  optional int96 t96;
  optional group tags (LIST) {
    repeated group list {
      optional binary element (STRING);
    }
  }
  optional group attrs (MAP) {
    repeated group key_value {
      required binary key (STRING);
      optional int64 value;
    }
  }
}`

// shredPipeRows appends rows random rows (drawn from r) to the buffers of
// a writer of pipeSchema, the way generated code does.
func shredPipeRows(t testing.TB, w *FileWriter, r *rand.Rand, rows int) {
	id, _ := w.Int64Buffer(0)
	name, _ := w.ByteArrayBuffer(1)
	score, _ := w.DoubleBuffer(2)
	opt, _ := w.Int32Buffer(3)
	flag, _ := w.BoolBuffer(4)
	fx, _ := w.FixedBuffer(5)
	t96, _ := w.Int96Buffer(6)
	tags, _ := w.ByteArrayBuffer(7)
	keys, _ := w.ByteArrayBuffer(8)
	vals, err := w.Int64Buffer(9)
	if err != nil {
		t.Fatal(err)
	}
	for range rows {
		id.Values = append(id.Values, r.Int64())
		if r.IntN(5) == 0 {
			name.Def = append(name.Def, 0)
		} else {
			name.Def = append(name.Def, 1)
			// Zipf-like: a few names often, many rarely, so the
			// dictionary grows until it falls back under small limits.
			name.Values.AppendString(fmt.Sprintf("name-%d", r.IntN(1+r.IntN(20000))))
		}
		score.Values = append(score.Values, r.NormFloat64())
		if r.IntN(3) == 0 {
			opt.Def = append(opt.Def, 0)
		} else {
			opt.Def = append(opt.Def, 1)
			opt.Values = append(opt.Values, r.Int32N(100))
		}
		flag.Values = append(flag.Values, r.IntN(2) == 0)
		fx.Values = binary.LittleEndian.AppendUint32(fx.Values, r.Uint32N(5000))
		if r.IntN(4) == 0 {
			t96.Def = append(t96.Def, 0)
		} else {
			t96.Def = append(t96.Def, 1)
			var v encode.Int96
			binary.LittleEndian.PutUint64(v[:], r.Uint64())
			v[8] = byte(r.IntN(3))
			t96.Values = append(t96.Values, v)
		}
		switch n := r.IntN(6); n {
		case 0: // null list
			tags.Def, tags.Rep = append(tags.Def, 0), append(tags.Rep, 0)
		case 1: // empty list
			tags.Def, tags.Rep = append(tags.Def, 1), append(tags.Rep, 0)
		default:
			for j := range n {
				tags.Rep = append(tags.Rep, uint8(min(j, 1)))
				if r.IntN(7) == 0 {
					tags.Def = append(tags.Def, 2)
					continue
				}
				tags.Def = append(tags.Def, 3)
				tags.Values.AppendString(strings.Repeat("t", r.IntN(30)) + fmt.Sprint(r.IntN(1000)))
			}
		}
		switch n := r.IntN(5); n {
		case 0:
			keys.Def, keys.Rep = append(keys.Def, 0), append(keys.Rep, 0)
			vals.Def, vals.Rep = append(vals.Def, 0), append(vals.Rep, 0)
		case 1:
			keys.Def, keys.Rep = append(keys.Def, 1), append(keys.Rep, 0)
			vals.Def, vals.Rep = append(vals.Def, 1), append(vals.Rep, 0)
		default:
			for j := range n {
				rep := uint8(min(j, 1))
				keys.Def, keys.Rep = append(keys.Def, 2), append(keys.Rep, rep)
				keys.Values.AppendString(fmt.Sprintf("k%d", j))
				vals.Rep = append(vals.Rep, rep)
				if r.IntN(3) == 0 {
					vals.Def = append(vals.Def, 2)
				} else {
					vals.Def = append(vals.Def, 3)
					vals.Values = append(vals.Values, r.Int64N(1<<40))
				}
			}
		}
	}
}

// writePipe writes total rows of pipeSchema in EndRows batches of batch
// rows (Flush after every flushEvery batches when positive) and returns
// the file.
func writePipe(t testing.TB, total, batch, flushEvery int, opts ...WriterOption) []byte {
	return writePipeWith(t, nil, total, batch, flushEvery, opts...)
}

// writePipeWith is writePipe calling setup, when not nil, on the new
// writer.
func writePipeWith(t testing.TB, setup func(*FileWriter), total, batch, flushEvery int, opts ...WriterOption) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := NewFileWriter(&buf, mustSchema(t, pipeSchema), opts...)
	if err != nil {
		t.Fatal(err)
	}
	if setup != nil {
		setup(w)
	}
	r := rand.New(rand.NewPCG(7, uint64(batch)))
	for b := 0; total > 0; b++ {
		k := min(batch, total)
		shredPipeRows(t, w, r, k)
		if err := w.EndRows(k); err != nil {
			t.Fatal(err)
		}
		total -= k
		if flushEvery > 0 && b%flushEvery == flushEvery-1 {
			if err := w.Flush(); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestPipelineSameBytes: a pipelined writer (WithParallelism above 1,
// generated code's batches of 256 rows) writes the sequential writer's
// file byte for byte, for flat, nested and map columns under page size,
// page row, row group and dictionary size limits, bloom filters, page
// indexes, both data page versions and several codecs; and the file reads
// back.
func TestPipelineSameBytes(t *testing.T) {
	cases := []struct {
		name              string
		rows, batch, each int
		rowGroups         int // at least
		opts              []WriterOption
	}{
		{"defaults", 20000, 256, 0, 1, nil},
		{"small pages and row groups", 20000, 256, 0, 5, []WriterOption{WithPageSize(4 << 10), WithRowGroupSize(96 << 10)}},
		{"dictionary fallback, bloom, zstd", 12000, 256, 0, 3, []WriterOption{WithMaxDictionarySize(2 << 10),
			WithColumnBloomFilter("name", 5000, 0.01), WithColumnBloomFilter("attrs.key_value.key", 100, 0.01),
			WithCompression(meta.Zstd, 0), WithRowGroupSize(128 << 10)}},
		{"v2 pages, row limit, page index off, snappy, CRC", 9000, 256, 0, 1, []WriterOption{WithDataPageVersion(2), WithPageRowLimit(300),
			WithPageIndex(false), WithCompression(meta.Snappy, 0), WithCRC(true), WithSizeStatistics(true)}},
		{"odd batches and flushes", 9000, 97, 13, 7, []WriterOption{WithPageSize(8 << 10), WithCompression(meta.Gzip, 0)}},
		{"one-row batches", 1500, 1, 400, 4, []WriterOption{WithRowGroupSize(16 << 10)}},
		{"large batches", 30000, 5000, 0, 3, []WriterOption{WithRowGroupSize(200 << 10)}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			seq := writePipe(t, c.rows, c.batch, c.each, c.opts...)
			f, err := OpenFile(bytes.NewReader(seq), int64(len(seq)))
			if err != nil {
				t.Fatal(err)
			}
			if got := f.Meta.NumRows; got != int64(c.rows) {
				t.Fatalf("%d rows read back, %d written", got, c.rows)
			}
			if len(f.Meta.RowGroups) < c.rowGroups {
				t.Fatalf("%d row groups, want at least %d", len(f.Meta.RowGroups), c.rowGroups)
			}
			// Short stretches with and without workers, switching
			// often (as on a busy machine), change nothing either.
			backOff := func(w *FileWriter) {
				w.pipe.pipedLen, w.pipe.aloneLen, w.pipe.alone, w.pipe.phaseLeft, w.pipe.minTime = 3, 2, true, 2, 0
			}
			for _, par := range []int{2, 4} {
				for _, setup := range []func(*FileWriter){nil, backOff} {
					got := writePipeWith(t, setup, c.rows, c.batch, c.each, append(c.opts[:len(c.opts):len(c.opts)], WithParallelism(par))...)
					if !bytes.Equal(seq, got) {
						t.Fatalf("parallelism %d (backing off: %t): files differ (%d and %d bytes, %d row groups)", par, setup != nil, len(seq), len(got), len(f.Meta.RowGroups))
					}
				}
			}
		})
	}
}

// schedule runs the pipeline's stretches (pipeline.advance) over batches
// of 256 rows on a model machine whose batch with workers takes the time
// piped(i), without alone(i), for batch i, its workers late for it when
// late(i) (pipeline.batchLate), and returns how many went without
// workers.
func schedule(batches int, piped, alone func(i int) time.Duration, late func(i int) bool) (without int) {
	p := pipeline{pipedLen: pipeFirst, aloneLen: pipeProbe, minTime: pipeMinTime}
	now := time.Unix(1, 0)
	clock := func() time.Time { return now }
	for i := range batches {
		if p.advance(256, clock) {
			without++
			now = now.Add(alone(i))
			continue
		}
		now = now.Add(piped(i))
		if late(i) {
			p.late++
		}
	}
	return without
}

// TestPipelineSchedule: on an idle machine (workers on time, halving a
// batch's time) almost every batch has workers, short writes with none
// without; on a busy one (workers late, making a batch 25% slower) almost
// none has; the pipeline follows a machine that changes; and tiny batches
// are timed over pipeMinTime.
func TestPipelineSchedule(t *testing.T) {
	const us = time.Microsecond
	fixed := func(d time.Duration) func(int) time.Duration { return func(int) time.Duration { return d } }
	always := func(v bool) func(int) bool { return func(int) bool { return v } }
	// onTimeMax is the most batches with workers on time before the
	// first probe: stretches of 32, 64, ... pipePhaseMax batches.
	onTimeMax := 2*pipePhaseMax - pipeFirst
	cases := []struct {
		name         string
		batches      int
		piped, alone func(int) time.Duration
		late         func(int) bool
		lo, hi       int // batches without workers
	}{
		// 20,000 rows in batches of 256 (79 batches), and 100,000:
		// the workers on time, no probe.
		{"idle, short", 79, fixed(80 * us), fixed(160 * us), always(false), 0, 0},
		{"idle, 100k rows", 391, fixed(80 * us), fixed(160 * us), always(false), 0, 0},
		{"idle, long", 20000, fixed(80 * us), fixed(160 * us), always(false), 0, 20000 / 500},
		// Workers late for a third of the batches are probed as before
		// (the first stretch of 32 batches with, 8 without...).
		{"idle, workers late at times, 100k rows", 391, fixed(80 * us), fixed(160 * us), func(i int) bool { return i%3 == 0 }, 24, 24},
		// Workers on time but 4% faster do not pay for their spinning:
		// once probed, after the stretches that trust them (and the
		// one of pipePhaseMax a first verdict against them leaves).
		{"idle, workers barely faster", 20000, fixed(154 * us), fixed(160 * us), always(false), (20000 - onTimeMax - pipePhaseMax) * 90 / 100, 20000 - onTimeMax},
		{"busy", 20000, fixed(200 * us), fixed(160 * us), always(true), 20000 * 97 / 100, 20000},
		// Busy for the first half, idle after: each half mostly goes
		// its way (the pipeline probes workers again within at most
		// pipePhaseMax batches).
		{"busy, then idle", 20000, func(i int) time.Duration {
			if i < 10000 {
				return 200 * us
			}
			return 80 * us
		}, fixed(160 * us), func(i int) bool { return i < 10000 }, 10000 * 97 / 100, 10000*97/100 + pipePhaseMax},
		// Batches of 1 µs with late workers: a stretch lasts at least
		// pipeMinTime, so the first with workers has 500 batches, not
		// 32.
		{"tiny batches", 2000, fixed(us / 2), fixed(us), always(true), int(pipeMinTime / us), 2 * int(pipeMinTime/us)},
	}
	for _, c := range cases {
		if got := schedule(c.batches, c.piped, c.alone, c.late); got < c.lo || got > c.hi {
			t.Errorf("%s: %d of %d batches without workers, want %d to %d", c.name, got, c.batches, c.lo, c.hi)
		}
	}
}

// TestPipelineOneMiss: one verdict against workers keeps the stretches'
// lengths (the first stretch with workers holds the chunks' first page
// cuts; an idle machine is slowed once in a while); a second in a row
// backs off, and one for workers ends the backing off.
func TestPipelineOneMiss(t *testing.T) {
	p := pipeline{pipedLen: pipeFirst, aloneLen: pipeProbe}
	now := time.Unix(1, 0)
	p.nextPhase(now) // the first stretch: with workers
	// end ends the stretch after 1,000 rows at ns nanoseconds per row
	// and checks the next.
	end := func(ns int, alone bool, length int) {
		t.Helper()
		p.phaseRows = 1000
		now = now.Add(time.Duration(ns * 1000))
		p.nextPhase(now)
		if p.alone != alone || p.phaseLeft != length {
			t.Fatalf("after a stretch at %d ns per row: alone %t for %d batches, want %t for %d", ns, p.alone, p.phaseLeft, alone, length)
		}
	}
	end(200, true, pipeProbe)    // slow first stretch with workers
	end(100, false, pipeFirst)   // a miss: the same length again
	end(200, true, 2*pipeProbe)  // the second miss: backing off
	end(100, false, pipeRetry)   // the third
	end(50, true, pipeProbe)     // workers pay
	end(100, false, 2*pipeRetry) // and still do
	end(200, true, pipeProbe)    // one miss changes nothing
	end(100, false, pipeRetry)   // the second backs off
	end(200, true, 2*pipeProbe)
}

// TestPipelineOnTime: a stretch with workers on time for at least three
// quarters of its batches is followed by a longer one, without a probe,
// unless a verdict went against workers or it had pipePhaseMax batches;
// workers are late for a batch in which they did nothing and compressed
// no deferred page.
func TestPipelineOnTime(t *testing.T) {
	now := time.Unix(1, 0)
	cases := []struct {
		name         string
		length, late int
		misses       int
		alone        bool // a probe follows
		nextLen      int  // of the next stretch with workers, when no probe follows
	}{
		{"on time", 32, 0, 0, false, 64},
		{"late for a quarter", 32, 8, 0, false, 64},
		{"late for more", 32, 9, 0, true, 0},
		{"a verdict against workers", 32, 0, 1, true, 0},
		{"the longest stretch", pipePhaseMax, 0, 0, true, 0},
		{"near the longest", pipePhaseMax/2 + 1, 0, 0, false, pipePhaseMax},
	}
	for _, c := range cases {
		// The stretch's batches are over: advance counted phaseLeft
		// down from pipedLen to 0.
		p := pipeline{pipedLen: c.length, aloneLen: pipeProbe, misses: c.misses, late: c.late, pipedRate: 1, phaseRows: 1000, phaseStart: now}
		p.nextPhase(now.Add(time.Millisecond))
		if p.alone != c.alone || !c.alone && (p.pipedLen != c.nextLen || p.phaseLeft != c.nextLen) {
			t.Errorf("%s: next stretch alone %t for %d batches (pipedLen %d), want alone %t (pipedLen %d)", c.name, p.alone, p.phaseLeft, p.pipedLen, c.alone, c.nextLen)
		}
		if p.late != 0 {
			t.Errorf("%s: the next stretch starts with %d batches late", c.name, p.late)
		}
	}
	for _, c := range []struct {
		work uint64
		busy int32
		late bool
	}{{0, 0, true}, {1, 0, false}, {0, 1, false}, {3, 1, false}} {
		if got := batchLate(c.work, c.busy); got != c.late {
			t.Errorf("batchLate(%d pieces, %d busy) = %t, want %t", c.work, c.busy, got, c.late)
		}
	}
}

// settledGoroutines waits up to d for the goroutine count to fall to base
// and returns the count.
func settledGoroutines(base int, d time.Duration) int {
	deadline := time.Now().Add(d)
	for {
		n := goruntime.NumGoroutine()
		if n <= base || time.Now().After(deadline) {
			return n
		}
		time.Sleep(time.Millisecond)
	}
}

// TestPipelineErrors: a pipelined writer's failures surface from a later
// call (a row group write failing during a batch from the next EndRows,
// one batch after the sequential writer's), with the same bytes written,
// and stick; no goroutine outlives an error, Fail or Close, nor, for long,
// an abandoned writer.
func TestPipelineErrors(t *testing.T) {
	s := mustSchema(t, pipeSchema)
	base := goruntime.NumGoroutine()
	// failAt writes batches of 256 rows until EndRows fails, returning
	// the failing batch and the bytes written.
	failAt := func(par int) (int, []byte) {
		fw := &failWriter{limit: 150 << 10}
		w, err := NewFileWriter(fw, s, WithRowGroupSize(64<<10), WithParallelism(par))
		if err != nil {
			t.Fatal(err)
		}
		r := rand.New(rand.NewPCG(1, 1))
		for b := range 1000 {
			shredPipeRows(t, w, r, 256)
			if err := w.EndRows(256); err != nil {
				if !errors.Is(err, errDisk) {
					t.Fatalf("parallelism %d: %v", par, err)
				}
				for _, again := range []error{w.EndRows(0), w.Flush(), w.Close()} {
					if again != err {
						t.Fatalf("parallelism %d: after %v, %v", par, err, again)
					}
				}
				return b, fw.buf.Bytes()
			}
		}
		t.Fatalf("parallelism %d: no error", par)
		return 0, nil
	}
	seqAt, seqBytes := failAt(1)
	for _, par := range []int{2, 4} {
		at, got := failAt(par)
		if at != seqAt+1 || !bytes.Equal(got, seqBytes) {
			t.Fatalf("parallelism %d: failed at batch %d with %d bytes written; sequentially at %d with %d", par, at, len(got), seqAt, len(seqBytes))
		}
		if n := settledGoroutines(base, 100*time.Millisecond); n > base {
			t.Fatalf("parallelism %d: %d goroutines after the error, %d before", par, n, base)
		}
	}

	newW := func() *FileWriter {
		w, err := NewFileWriter(io.Discard, s, WithParallelism(3))
		if err != nil {
			t.Fatal(err)
		}
		r := rand.New(rand.NewPCG(2, 2))
		for range 20 {
			shredPipeRows(t, w, r, 256)
			if err := w.EndRows(256); err != nil {
				t.Fatal(err)
			}
		}
		shredPipeRows(t, w, r, 100) // shredded, not ended: a batch in flight behind it
		return w
	}
	// Rows shredded but not ended fail Close.
	w := newW()
	if err := w.Close(); !errors.Is(err, ErrRows) {
		t.Fatalf("Close with unended rows: %v", err)
	}
	if n := settledGoroutines(base, 100*time.Millisecond); n > base {
		t.Fatalf("%d goroutines after Close failed, %d before", n, base)
	}
	// Rows ending with a bad level count fail EndRows.
	w = newW()
	if err := w.EndRows(99); !errors.Is(err, ErrRows) {
		t.Fatalf("EndRows of a wrong count: %v", err)
	}
	if n := settledGoroutines(base, 100*time.Millisecond); n > base {
		t.Fatalf("%d goroutines after EndRows failed, %d before", n, base)
	}
	// Fail, with a batch in flight.
	w = newW()
	boom := errors.New("boom")
	if err := w.Fail(boom); err != boom {
		t.Fatalf("Fail: %v", err)
	}
	if err := w.Close(); err != boom {
		t.Fatalf("Close after Fail: %v", err)
	}
	if n := settledGoroutines(base, 100*time.Millisecond); n > base {
		t.Fatalf("%d goroutines after Fail, %d before", n, base)
	}
	// A closed writer keeps no goroutine.
	w = newW()
	if err := w.EndRows(100); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if n := settledGoroutines(base, 100*time.Millisecond); n > base {
		t.Fatalf("%d goroutines after Close, %d before", n, base)
	}
	// An abandoned writer's workers exit once idle.
	w = newW()
	if err := w.EndRows(100); err != nil {
		t.Fatal(err)
	}
	if n := settledGoroutines(base, 2*time.Second); n > base {
		t.Fatalf("%d goroutines 2 s after the writer was left, %d before", n, base)
	}
}

// TestPipelineOrder: the pipeline orders its columns from the costliest
// per row, keeping ties in column order, and replaces the order it
// published (a late worker may hold the old one); workers take columns
// in that order, the caller from its end, so that a batch's last columns
// are its cheapest.
func TestPipelineOrder(t *testing.T) {
	w, err := NewFileWriter(io.Discard, mustSchema(t, pipeSchema), WithParallelism(2))
	if err != nil {
		t.Fatal(err)
	}
	p := &w.pipe
	n := len(w.cols)
	for i := range n {
		p.cost[i] = float64(i % 4) // 0 1 2 3 0 1 2 3 0 ...
	}
	old := p.order.Load()
	p.reorder()
	cur := p.order.Load()
	got := *cur
	var want []int32
	for c := 3; c >= 0; c-- {
		for i := range n {
			if i%4 == c {
				want = append(want, int32(i))
			}
		}
	}
	if !slices.Equal(got, want) {
		t.Fatalf("order %v, want %v", got, want)
	}
	for i, c := range *old {
		if c != int32(i) {
			t.Fatalf("the old order was written over: %v", *old)
		}
	}
	// The caller goes from the cheapest column, workers from the
	// costliest.
	for j := range n {
		if c, w := pick(got, j, 0), pick(got, j, 1+j%2); c != want[n-1-j] || w != want[j] {
			t.Fatalf("column %d: the caller takes %d, a worker %d; want %d and %d", j, c, w, want[n-1-j], want[j])
		}
	}
	// The pipeline measures the columns' costs and reorders by them
	// every pipeReorder batches.
	r := rand.New(rand.NewPCG(3, 3))
	var cost []float64
	for b := range pipeReorder {
		if b == pipeReorder-1 {
			// The costs the last EndRows reorders by.
			if err := w.join(); err != nil {
				t.Fatal(err)
			}
			cost = slices.Clone(p.cost)
		}
		shredPipeRows(t, w, r, 100)
		if err := w.EndRows(100); err != nil {
			t.Fatal(err)
		}
	}
	now := *p.order.Load()
	if p.order.Load() == cur || !slices.IsSortedFunc(now, func(a, b int32) int { return cmp.Compare(cost[b], cost[a]) }) {
		t.Fatalf("order %v for costs %v", now, cost)
	}
	if slices.Min(cost) <= 0 {
		t.Fatalf("costs %v", cost)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestWorkerWait: a worker waits for the next batch twice the time
// between its last two batches, from workerIdle, when batches come at
// most half workerIdleMax apart; else (or before it knows) workerIdle.
func TestWorkerWait(t *testing.T) {
	const us = time.Microsecond
	for _, c := range []struct{ period, want time.Duration }{
		{0, workerIdle},
		{10 * us, workerIdle},
		{50 * us, workerIdle},
		{70 * us, 140 * us},
		{400 * us, 800 * us},
		{workerIdleMax / 2, workerIdleMax},
		{workerIdleMax/2 + us, workerIdle},
		{10 * time.Millisecond, workerIdle},
	} {
		if got := workerWait(c.period); got != c.want {
			t.Errorf("workerWait(%v) = %v, want %v", c.period, got, c.want)
		}
	}
}

// TestPassBatch: at EndRows a pipelined column's back buffer gets the
// front one's rows; the levels and byte arrays are copied, so the front
// buffer keeps its own memory (the caller's core writes it again), and the
// fixed-width values swap slices.
func TestPassBatch(t *testing.T) {
	back := &ByteArrayBuffer{}
	c := &leafWriter{back: back}
	c.pipelineBuffers()
	front := c.front.(*ByteArrayBuffer)
	front.Def = append(front.Def, 1, 0, 1)
	front.Rep = append(front.Rep, 0, 1, 0)
	front.Values.AppendString("ab")
	front.Values.AppendString("cde")
	def, data := &front.Def[0], &front.Values.Data[0]
	c.pass()
	if got := fmt.Sprintf("%v %v %d %s %s", back.Def, back.Rep, back.Values.Len(), back.Values.At(0), back.Values.At(1)); got != "[1 0 1] [0 1 0] 2 ab cde" {
		t.Fatalf("back buffer after the hand-over: %s", got)
	}
	if len(front.Def)+len(front.Rep)+front.Values.Len() != 0 {
		t.Fatalf("front buffer not emptied: %v %v %d", front.Def, front.Rep, front.Values.Len())
	}
	if &front.Def[:1][0] != def || &front.Values.Data[:1][0] != data {
		t.Fatal("the front buffer's levels or bytes moved to the back buffer: they change cores each batch")
	}

	backFixed := &FixedBuffer{Size: 2}
	c = &leafWriter{back: backFixed}
	c.pipelineBuffers()
	fixed := c.front.(*FixedBuffer)
	fixed.Values = append(fixed.Values, 1, 2, 3, 4)
	vals := &fixed.Values[0]
	c.pass()
	if fmt.Sprint(backFixed.Values) != "[1 2 3 4]" || len(fixed.Values) != 0 || &fixed.Values[:1][0] != vals || fixed.Size != 2 {
		t.Fatalf("fixed-length values after the hand-over: back %v, front %v (size %d)", backFixed.Values, fixed.Values, fixed.Size)
	}

	backInt := &Int64Buffer{}
	c = &leafWriter{back: backInt}
	c.pipelineBuffers()
	ints := c.front.(*Int64Buffer)
	ints.Def = append(ints.Def, 1, 1)
	ints.Values = append(ints.Values, 7, 8)
	c.pass()
	if fmt.Sprint(backInt.Def, backInt.Values, len(ints.Def), len(ints.Values)) != "[1 1] [7 8] 0 0" {
		t.Fatalf("int64 buffers after the hand-over: back %v %v, front %v %v", backInt.Def, backInt.Values, ints.Def, ints.Values)
	}
}

// TestWorkerStaysAfterEmptyBatch: a worker that took no column of a batch
// (the caller had taken them all) still waits workerIdle for the next
// before it exits, rather than exiting at once and being started again,
// late, for the next batch.
func TestWorkerStaysAfterEmptyBatch(t *testing.T) {
	w, err := NewFileWriter(io.Discard, mustSchema(t, pipeSchema), WithParallelism(2))
	if err != nil {
		t.Fatal(err)
	}
	p := &w.pipe
	p.seq.Store(1)
	for i := range p.claims {
		p.claims[i].Store(1) // batch 1's columns: all taken
	}
	p.workers.slots[0].Store(true)
	start := time.Now()
	w.worker(0, 0)
	if d := time.Since(start); d < workerIdle {
		t.Fatalf("the worker exited %v after a batch it took nothing of, want at least %v", d, workerIdle)
	}
	if p.workerWork.Load() != 0 || p.workers.running() {
		t.Fatalf("work counted %d, worker slot still held %t", p.workerWork.Load(), p.workers.running())
	}
}
