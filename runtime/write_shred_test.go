package runtime

import (
	"bytes"
	"errors"
	"fmt"
	goruntime "runtime"
	"runtime/debug"
	"sync/atomic"
	"testing"
	"time"
)

const shredSchema = `message m {
  required int64 a;
  required int64 b;
  optional binary c (STRING);
  optional int32 d;
}`

// shredWriter is a hand-written generated writer of shredSchema: one part
// per column, filled from the rows (ints) of the Run, as generated code's
// per-field methods are; fail, when set, makes part i fail on the batch
// whose first row is its key.
type shredWriter struct {
	fw         *FileWriter
	a, b       *Int64Buffer
	c          *ByteArrayBuffer
	d          *Int32Buffer
	rows       []int
	parts      *ShredParts
	fail       map[int]map[int]error // first row -> part -> error
	panicAt    map[int]int           // first row -> part that panics
	panicked   func()                // called by the part before it panics
	active     atomic.Int32          // parts running
	overlapped atomic.Bool           // two parts ran at once
}

func newShredWriter(t *testing.T, out *bytes.Buffer, opts ...WriterOption) *shredWriter {
	t.Helper()
	fw, err := NewFileWriter(out, mustSchema(t, shredSchema), opts...)
	if err != nil {
		t.Fatal(err)
	}
	w := &shredWriter{fw: fw}
	if err := OpenBuffers(fw, Buffer(&w.a, 0), Buffer(&w.b, 1), Buffer(&w.c, 2), Buffer(&w.d, 3)); err != nil {
		t.Fatal(err)
	}
	part := func(i int, fill func(rows []int)) func() error {
		return func() error {
			if w.active.Add(1) > 1 {
				w.overlapped.Store(true)
			}
			defer w.active.Add(-1)
			fill(w.rows)
			if p, ok := w.panicAt[w.rows[0]]; ok && p == i {
				w.panicked()
				panic(fmt.Sprintf("part %d panics", i))
			}
			return w.fail[w.rows[0]][i]
		}
	}
	w.parts = fw.ShredParts(
		part(0, func(rows []int) {
			for _, x := range rows {
				w.a.Values = append(w.a.Values, int64(x)*7919)
			}
		}),
		part(1, func(rows []int) {
			for _, x := range rows {
				w.b.Values = append(w.b.Values, int64(x*x%100003))
			}
		}),
		part(2, func(rows []int) {
			for _, x := range rows {
				if x%5 == 0 {
					w.c.Def = append(w.c.Def, 0)
					continue
				}
				w.c.Def = append(w.c.Def, 1)
				w.c.Values.AppendString(fmt.Sprintf("v%d", x%977))
			}
		}),
		part(3, func(rows []int) {
			for _, x := range rows {
				if x%3 == 0 {
					w.d.Def = append(w.d.Def, 0)
					continue
				}
				w.d.Def = append(w.d.Def, 1)
				w.d.Values = append(w.d.Values, int32(x%1000))
			}
		}),
	)
	return w
}

// write shreds total rows in Runs of run rows and ends a batch every
// batch rows, as generated Write does, and returns the first error.
func (w *shredWriter) write(total, run, batch int) error {
	rows := make([]int, run)
	pending := 0
	for start := 0; start < total; start += run {
		k := min(run, total-start)
		for i := range k {
			rows[i] = start + i
		}
		w.rows = rows[:k]
		err := w.parts.Run(k)
		w.rows = nil
		if err != nil {
			return w.fw.Fail(err)
		}
		if pending += k; pending >= batch {
			if err := w.fw.EndRows(pending); err != nil {
				return err
			}
			pending = 0
		}
	}
	if err := w.fw.EndRows(pending); err != nil {
		return err
	}
	return w.fw.Close()
}

// TestShredPartsSameBytes: shredding in parts shared with the workers
// writes the sequential writer's bytes, and the parts did run at once
// (with more than one processor).
func TestShredPartsSameBytes(t *testing.T) {
	opts := []WriterOption{WithPageSize(16 << 10), WithRowGroupSize(512 << 10)}
	var seq bytes.Buffer
	if err := newShredWriter(t, &seq, opts...).write(300_000, 256, 1024); err != nil {
		t.Fatal(err)
	}
	for _, par := range []int{2, 4} {
		var got bytes.Buffer
		w := newShredWriter(t, &got, append(opts, WithParallelism(par))...)
		if err := w.write(300_000, 256, 1024); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(seq.Bytes(), got.Bytes()) {
			t.Fatalf("parallelism %d: files differ (%d and %d bytes)", par, seq.Len(), got.Len())
		}
		switch {
		case goruntime.GOMAXPROCS(0) > 1 && !w.overlapped.Load():
			t.Errorf("parallelism %d: no two parts ran at once", par)
		case goruntime.GOMAXPROCS(0) == 1:
			t.Logf("parallelism %d: one processor, overlap not checked (overlapped: %t)", par, w.overlapped.Load())
		}
	}
	// Sequential writers and Runs of few rows run the parts in order.
	for _, c := range []struct {
		par, run int
	}{{1, 256}, {2, shredMinRows - 1}} {
		var out bytes.Buffer
		w := newShredWriter(t, &out, append(opts, WithParallelism(c.par))...)
		if err := w.write(100_000, c.run, 1024); err != nil {
			t.Fatal(err)
		}
		if w.overlapped.Load() {
			t.Errorf("parallelism %d, Runs of %d rows: parts ran at once", c.par, c.run)
		}
	}
}

// TestShredPartsErrors: Run returns the error of the first failing part
// in order, sequential or shared, after every part it shared is done, and
// the writer is failed.
func TestShredPartsErrors(t *testing.T) {
	errB, errD := errors.New("b failed"), errors.New("d failed")
	for _, par := range []int{1, 2} {
		for _, at := range []int{0, 256 * 300} {
			var out bytes.Buffer
			w := newShredWriter(t, &out, WithParallelism(par))
			w.fail = map[int]map[int]error{at: {1: errB, 3: errD}}
			err := w.write(256*400, 256, 1024)
			if !errors.Is(err, errB) || errors.Is(err, errD) {
				t.Fatalf("parallelism %d, failing at row %d: %v, want %v", par, at, err, errB)
			}
			if n := w.active.Load(); n != 0 {
				t.Fatalf("parallelism %d: %d parts still running after Run", par, n)
			}
			if err := w.fw.EndRows(0); !errors.Is(err, errB) {
				t.Fatalf("parallelism %d: the writer after the error: %v", par, err)
			}
		}
	}
}

// TestShredPartsPanics: a part that panics makes Run panic on the
// caller's goroutine with the same value, whoever ran the part (a worker
// at least once in the attempts, with more than one processor), after
// every part it shared is done.
func TestShredPartsPanics(t *testing.T) {
	// A busy machine may leave the worker no share for many attempts:
	// keep trying for up to 20 s before calling the sharing broken.
	onWorker := false
	start := time.Now()
	for attempt := 0; !onWorker && (attempt < 50 || time.Since(start) < 20*time.Second); attempt++ {
		for _, par := range []int{1, 2} {
			var out bytes.Buffer
			w := newShredWriter(t, &out, WithParallelism(par))
			at := 256 * (20 + attempt%7)
			w.panicAt = map[int]int{at: 3}
			w.panicked = func() { onWorker = onWorker || bytes.Contains(debug.Stack(), []byte(").worker(")) }
			got := func() (v any) {
				defer func() { v = recover() }()
				_ = w.write(256*400, 256, 1024)
				return nil
			}()
			if got != "part 3 panics" {
				t.Fatalf("parallelism %d, panic at row %d: recovered %v", par, at, got)
			}
			if n := w.active.Load(); n != 0 {
				t.Fatalf("parallelism %d: %d parts still running after the panic", par, n)
			}
			w.fw.Fail(errors.New("abandoned")) // stops the workers
		}
	}
	if !onWorker && goruntime.GOMAXPROCS(0) > 1 {
		t.Error("no part panicked on a worker")
	}
}

// TestShredPartsLate: parts made after the first EndRows, or besides
// others, are never shared (workers read the parts set before they
// start).
func TestShredPartsLate(t *testing.T) {
	var out bytes.Buffer
	w := newShredWriter(t, &out, WithParallelism(2))
	if w.fw.shred != w.parts {
		t.Fatal("the first parts are not shared")
	}
	if again := w.fw.ShredParts(func() error { return nil }, func() error { return nil }); w.fw.shred == again {
		t.Fatal("second parts replaced the first")
	}
	if err := w.write(256*40, 256, 1024); err != nil {
		t.Fatal(err)
	}
	var out2 bytes.Buffer
	w2 := newShredWriter(t, &out2, WithParallelism(2))
	w2.fw.shred = nil
	for i := range 4 {
		w2.a.Values = append(w2.a.Values, int64(i))
		w2.b.Values = append(w2.b.Values, int64(i))
		w2.c.Def = append(w2.c.Def, 0)
		w2.d.Def = append(w2.d.Def, 0)
	}
	if err := w2.fw.EndRows(4); err != nil {
		t.Fatal(err)
	}
	if late := w2.fw.ShredParts(func() error { return nil }, func() error { return nil }); w2.fw.shred == late {
		t.Fatal("parts made after EndRows are shared")
	}
	w2.fw.Fail(errors.New("done"))
}

// TestShredTile: the tiles of a batch hold at most shredTileBytes of rows
// (minShredTile rows for larger rows), are as few as that allows and of
// equal size, and a Run shared with workers is not tiled.
func TestShredTile(t *testing.T) {
	var seq bytes.Buffer
	sw := newShredWriter(t, &seq)
	defer sw.fw.Close()
	s := sw.parts
	for _, c := range []struct {
		rows, got int
		tile      func(int) int
	}{
		{1024, 128, func(n int) int { return ShredTile[[1800]byte](s, n) }}, // peers/bench's Wide
		{1024, 1024, func(n int) int { return ShredTile[[80]byte](s, n) }},
		{1000, 63, func(n int) int { return ShredTile[[1 << 20]byte](s, n) }},
		{0, 1, func(n int) int { return ShredTile[[1800]byte](s, n) }},
		{5, 5, func(n int) int { return ShredTile[struct{}](s, n) }},
	} {
		if got := c.tile(c.rows); got != c.got {
			t.Errorf("%d rows: tile %d, want %d", c.rows, got, c.got)
		}
	}
	// The cut of any batch is equalTiles' (TestEqualTiles) by the budget.
	for rows := 0; rows <= 3000; rows++ {
		if got, want := ShredTile[[1800]byte](s, rows), equalTiles(rows, shredTileBytes/1800); got != want {
			t.Fatalf("%d rows of 1,800 bytes: tile %d, want %d", rows, got, want)
		}
		if got, want := ShredTile[[5000]byte](s, rows), equalTiles(rows, minShredTile); got != want {
			t.Fatalf("%d rows of 5,000 bytes: tile %d, want %d", rows, got, want)
		}
	}
	// Under WithParallelism, whenever a Run would be shared, the batch is
	// one tile.
	var par bytes.Buffer
	w := newShredWriter(t, &par, WithParallelism(2), WithPageSize(16<<10))
	shared := 0
	for start := 0; start < 200_000; start += 1024 {
		rows := make([]int, 1024)
		for i := range rows {
			rows[i] = start + i
		}
		if w.parts.shared(len(rows)) {
			shared++
			if got := ShredTile[[1800]byte](w.parts, len(rows)); got != len(rows) {
				t.Fatalf("a shared Run of %d rows tiled by %d", len(rows), got)
			}
		}
		w.rows = rows
		if err := w.parts.Run(len(rows)); err != nil {
			t.Fatal(err)
		}
		w.rows = nil
		if err := w.fw.EndRows(len(rows)); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.fw.Close(); err != nil {
		t.Fatal(err)
	}
	switch {
	case goruntime.GOMAXPROCS(0) > 1 && shared == 0:
		t.Error("no Run was shared with the workers")
	case goruntime.GOMAXPROCS(0) == 1:
		t.Logf("one processor: %d Runs shared", shared)
	}
}
