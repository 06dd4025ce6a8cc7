package runtime

import (
	"bytes"
	"io"
	"math/bits"
	"math/rand/v2"
	goruntime "runtime"
	"runtime/debug"
	"strconv"
	"testing"

	"github.com/pqgen/pqgen/runtime/internal/bufpool"
	"github.com/pqgen/pqgen/runtime/meta"
	"github.com/pqgen/pqgen/runtime/schema"
)

// TestPooledBuffersSameBytes: writers that take the pooled buffers of
// closed writers (which hold other files' values past their lengths)
// write the same bytes as a writer on fresh buffers, for the columns of
// pipeSchema (every physical type, levels of lists and maps, dictionary
// fallback), sequentially and with WithParallelism(2).
func TestPooledBuffersSameBytes(t *testing.T) {
	s := mustSchema(t, pipeSchema)
	write := func(seed uint64, rows int, opts ...WriterOption) []byte {
		r := rand.New(rand.NewPCG(seed, 7))
		var buf bytes.Buffer
		w, err := NewFileWriter(&buf, s, append([]WriterOption{WithPageSize(16 << 10)}, opts...)...)
		if err != nil {
			t.Fatal(err)
		}
		for batch := 0; batch < rows; batch += 300 {
			n := min(300, rows-batch)
			shredPipeRows(t, w, r, n)
			if err := w.EndRows(n); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		return buf.Bytes()
	}
	for _, opts := range [][]WriterOption{nil, {WithParallelism(2)}} {
		// Two collections empty the sync.Pools: the first writer's buffers
		// are fresh.
		goruntime.GC()
		goruntime.GC()
		first := write(1, 5000, opts...)
		for i := range 3 {
			write(uint64(i+2), 9000+i*1000, opts...) // fills the pools with other values
			if again := write(1, 5000, opts...); !bytes.Equal(again, first) {
				t.Fatalf("%d options, round %d: a writer on pooled buffers wrote other bytes", len(opts), i)
			}
		}
		f := openBytes(t, first)
		if got := f.Meta.NumRows; got != 5000 {
			t.Fatalf("%d rows", got)
		}
	}
}

// holdPools empties the pools and makes them keep what the test puts in
// them, until it ends: the garbage collector, which empties sync.Pools,
// is held off, and one P runs the goroutines (sync.Pool keeps a P's last
// Put in a slot other Ps cannot take from: with one P the test's Gets see
// its Puts wherever the goroutine ran). Under the race detector, where sync.Pool
// drops items at random, it skips the test: the pooling is checked by the
// runs without -race.
func holdPools(t *testing.T) {
	t.Helper()
	if raceEnabled {
		t.Skip("under the race detector sync.Pool drops items at random: the pooling is checked by the runs without -race")
	}
	gc := debug.SetGCPercent(-1)
	// Start from empty pools: two collections (the first moves what the
	// pools hold to their victim caches, the second drops it). With the
	// slices earlier tests left, a writer's buffers could start from other
	// size classes: a closed writer's two score buffers, of capacities
	// 1,280 (grown by append) and 4,096 (left by an earlier test), went
	// back to classes 1024 and 4096, the pool's hint names one class, and
	// the next writer found no second buffer in it
	// (TestPipelineBuffersPooled failed 3 times in 120 runs of the
	// pipeline tests, and not in 200 runs since).
	goruntime.GC()
	goruntime.GC()
	procs := goruntime.GOMAXPROCS(1)
	t.Cleanup(func() {
		goruntime.GOMAXPROCS(procs)
		debug.SetGCPercent(gc)
	})
}

// discardWriter returns a writer of schema s to io.Discard with opts.
func discardWriter(t *testing.T, s *schema.Schema, opts ...WriterOption) *FileWriter {
	t.Helper()
	w, err := NewFileWriter(io.Discard, s, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// secondAlloc runs write twice, the first time to fill the pools, and
// returns the bytes the second run allocated (logged with its objects).
func secondAlloc(t *testing.T, write func()) uint64 {
	t.Helper()
	write()
	var m0, m1 goruntime.MemStats
	goruntime.ReadMemStats(&m0)
	write()
	goruntime.ReadMemStats(&m1)
	got := m1.TotalAlloc - m0.TotalAlloc
	t.Logf("the second writer allocated %d bytes, %d objects", got, m1.Mallocs-m0.Mallocs)
	return got
}

// TestBatchBuffersPooled: Close empties a writer's column buffers (their
// slices nil, so appends after Close cannot reach pooled memory), and a
// writer opened next starts its buffers from the pooled slices: no
// allocation grows them while it shreds a batch of the closed writer's
// size. The pools are held (holdPools).
func TestBatchBuffersPooled(t *testing.T) {
	holdPools(t)
	s := mustSchema(t, pipeSchema)
	const batch = 1000
	r := rand.New(rand.NewPCG(4, 4))
	open := func() *FileWriter { return discardWriter(t, s) }
	w := open()
	shredPipeRows(t, w, r, batch)
	if err := w.EndRows(batch); err != nil {
		t.Fatal(err)
	}
	id, _ := w.Int64Buffer(0)
	name, _ := w.ByteArrayBuffer(1)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if id.Values != nil || name.Values.Data != nil || name.Values.Offsets != nil || name.Def != nil {
		t.Fatal("Close left slices in the column buffers")
	}
	w2 := open()
	id2, _ := w2.Int64Buffer(0)
	score2, _ := w2.DoubleBuffer(2)
	if cap(id2.Values) < batch || cap(score2.Values) < batch {
		t.Fatalf("a new writer's buffers hold %d and %d values, want the closed writer's %d", cap(id2.Values), cap(score2.Values), batch)
	}
	idAt, scoreAt := &id2.Values[:1][0], &score2.Values[:1][0]
	for i := range batch {
		id2.Values = append(id2.Values, int64(i))
		score2.Values = append(score2.Values, float64(i))
	}
	if &id2.Values[0] != idAt || &score2.Values[0] != scoreAt {
		t.Fatal("a batch of the closed writer's size regrew the pooled buffers")
	}
}

// TestPipelineBuffersPooled: a parallel writer's front buffers, the
// second set of column buffers generated code fills while the pipeline
// moves the other set into pages, start from the slices a closed writer
// gave back, as its back buffers do: before, they started empty, and
// every parallel writer grew a second set by append (3.6 MB per write of
// 20,000 rows of 200 columns). The pools are held (holdPools).
func TestPipelineBuffersPooled(t *testing.T) {
	holdPools(t)
	s := mustSchema(t, pipeSchema)
	const batch = 1000
	r := rand.New(rand.NewPCG(6, 6))
	open := func() *FileWriter { return discardWriter(t, s, WithParallelism(2)) }
	w := open()
	for range 4 { // both buffers of every column hold a batch
		shredPipeRows(t, w, r, batch)
		if err := w.EndRows(batch); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	w2 := open()
	defer w2.Close()
	id, _ := w2.Int64Buffer(0)
	name, _ := w2.ByteArrayBuffer(1)
	score, _ := w2.DoubleBuffer(2)
	if cap(id.Values) < batch || cap(score.Values) < batch || cap(name.Def) < batch || cap(name.Values.Offsets) < batch/2 {
		t.Fatalf("a new parallel writer's front buffers hold %d ids, %d scores, %d levels and %d offsets, want the closed writer's batch of %d rows",
			cap(id.Values), cap(score.Values), cap(name.Def), cap(name.Values.Offsets), batch)
	}
	for _, c := range w2.cols {
		if c.front == c.back {
			t.Fatal("the writer does not pipeline")
		}
	}
}

// TestPageBuffersStartHinted: a writer opened after another closed
// starts its page buffers from pooled slices of the capacity the closed
// writer's grew to, instead of regrowing them by doubling from the
// smallest class: the boolean column's page values take the closed
// writer's capacity; the definition levels, whose hint is the last
// column's (a map's, which has more levels than rows), at least that;
// after a buffer above a page pool's maxHint (2 MiB of int64) came back,
// an empty buffer grows as without a hint. The pools are held
// (holdPools).
func TestPageBuffersStartHinted(t *testing.T) {
	holdPools(t)
	s := mustSchema(t, pipeSchema)
	r := rand.New(rand.NewPCG(5, 5))
	const batch = 1000
	open := func() *FileWriter { return discardWriter(t, s) }
	caps := func(w *FileWriter) (flag, def int) {
		return cap(w.cols[4].vals.(*boolValues).page), cap(w.cols[1].pg.def)
	}
	w := open()
	for range 20 {
		shredPipeRows(t, w, r, batch)
		if err := w.EndRows(batch); err != nil {
			t.Fatal(err)
		}
	}
	flag, def := caps(w)
	if flag < 20*batch || def < 20*batch {
		t.Fatalf("the first writer's open pages hold %d and %d values, want one page of all %d rows", flag, def, 20*batch)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	w2 := open()
	defer w2.Close()
	shredPipeRows(t, w2, r, batch)
	if err := w2.EndRows(batch); err != nil {
		t.Fatal(err)
	}
	if flag2, def2 := caps(w2); flag2 != flag || def2 < def {
		t.Fatalf("after a batch of %d rows the next writer's pages hold %d and %d values, want the closed writer's %d and at least %d",
			batch, flag2, def2, flag, def)
	}

	k := hintPool[int64]{p: new(bufpool.Pool[int64]), maxHint: pageI64.maxHint}
	k.put(make([]int64, 0, 1<<12))
	if got := cap(k.grow(nil, 1)); got != 1<<12 {
		t.Fatalf("after a 4096-value buffer came back, an empty buffer grew to %d values", got)
	}
	k.put(make([]int64, 0, 1<<18)) // 2 MiB, class 10
	k.p.Put(make([]int64, 0, 1<<12))
	if got := cap(k.grow(nil, 1)); got != 1<<bufpool.MinShift {
		t.Fatalf("after a 2 MiB buffer came back, an empty buffer grew to %d values, want %d as without a hint", got, 1<<bufpool.MinShift)
	}
}

// TestScratchBuffersStartHinted: a writer opened after another closed
// starts each buffer of its page scratch from the buffer the closed
// writer left, whole (here the encoded values' differs from the
// compressed page's, and neither is a power of two), instead of every
// buffer from the class of the last one given back, or from the class
// below its own.
func TestScratchBuffersStartHinted(t *testing.T) {
	holdPools(t)
	s := mustSchema(t, "message m { required binary s (STRING); }")
	open := func() *FileWriter {
		return discardWriter(t, s, WithCompression(meta.Snappy, 0), WithDictionary(false), WithColumnEncoding("s", meta.EncodingPlain))
	}
	w := open()
	col, err := w.ByteArrayBuffer(0)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 20000 { // values that Snappy shrinks some 10 times
		col.Values.AppendString("a value much like the one before it, number " + strconv.Itoa(i%10))
	}
	if err := w.EndRows(20000); err != nil {
		t.Fatal(err)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	values, built := cap(w.pageSc[0].values), cap(w.pageSc[0].page)
	if values == built || bits.OnesCount(uint(values)) == 1 || bits.OnesCount(uint(built)) == 1 {
		t.Fatalf("the scratch's values and page buffers hold %d and %d bytes: the test needs two sizes that are not powers of two", values, built)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	w2 := open()
	defer w2.Close()
	sc := w2.pageScratch(0)
	if cap(sc.values) != values || cap(sc.page) != built {
		t.Fatalf("the next writer's scratch starts with %d and %d bytes, want the closed writer's %d and %d", cap(sc.values), cap(sc.page), values, built)
	}
}

// TestScratchGrowsPooled: a writer opened after another closed builds its
// pages in the closed writer's scratch buffers, allocating none. Page
// bodies are seldom a power of two in size (here 20,000 doubles, 160,000
// bytes): given back to the size-classed pools, the encoded values, the
// body and its compression were cut to the class below their size, and
// every writer allocated the three again (fresh memory, page faults
// included); the scratch's pools keep them whole (hintPool.exact).
func TestScratchGrowsPooled(t *testing.T) {
	holdPools(t)
	s := mustSchema(t, "message m { required double d; }")
	write := func() {
		w := discardWriter(t, s, WithCompression(meta.Snappy, 0), WithDictionary(false), WithColumnEncoding("d", meta.EncodingPlain))
		col, _ := w.DoubleBuffer(0)
		closeAfterBatches(t, w, 20, func(_ *FileWriter, _ *rand.Rand, b int) {
			for i := range 1024 {
				col.Values = append(col.Values, float64((b*1024+i)%997)/8)
			}
		})
	}
	got := secondAlloc(t, write)
	if got >= 160000 {
		t.Fatalf("the second writer allocated %d bytes, at least a page's values (160,000 bytes): its scratch did not come from the pools", got)
	}
}

// TestFallbackPagePooled: a column that drops its dictionary gathers the
// open page's values back into page buffers taken from the pools, at
// their size, so that the writer after a closed one allocates none for
// them (gathered by append, they grew to sizes that went back a class
// below, and every writer grew new ones).
func TestFallbackPagePooled(t *testing.T) {
	holdPools(t)
	s := mustSchema(t, "message m { required binary s (STRING); }")
	vals := make([]string, 20*1024) // distinct: the dictionary is dropped
	for i := range vals {
		vals[i] = "a distinct value, number " + strconv.Itoa(i)
	}
	write := func() {
		w := discardWriter(t, s, WithCompression(meta.Snappy, 0))
		col, _ := w.ByteArrayBuffer(0)
		closeAfterBatches(t, w, 20, func(_ *FileWriter, _ *rand.Rand, b int) {
			for _, v := range vals[b*1024 : (b+1)*1024] {
				col.Values.AppendString(v)
			}
		})
	}
	got := secondAlloc(t, write)
	// Gathered by append, the page took some 33,500 bytes more.
	if got >= 16<<10 {
		t.Fatalf("the second writer allocated %d bytes: the page its dictionary fell back to did not come from the pools", got)
	}
}

// TestScratchColdAfterCollection: after the garbage collector emptied the
// pools that a writer of 1 MiB pages filled, a writer of one row sizes its
// page scratch for its own page (hintPool.warm), allocating well under one
// of those pages: before, every writer took four buffers of the last
// writer's page size at once (3,307,016 bytes for the one row).
func TestScratchColdAfterCollection(t *testing.T) {
	if raceEnabled {
		t.Skip("under the race detector sync.Pool drops items at random: the pooling is checked by the runs without -race")
	}
	s := mustSchema(t, "message m { required double d; }")
	w := discardWriter(t, s, WithCompression(meta.Snappy, 0), WithDictionary(false), WithColumnEncoding("d", meta.EncodingPlain), WithPageRowLimit(1<<20))
	col, _ := w.DoubleBuffer(0)
	closeAfterBatches(t, w, 200, func(_ *FileWriter, _ *rand.Rand, b int) {
		for i := range 1024 {
			col.Values = append(col.Values, float64((b*1024+i)%997)/8)
		}
	})
	// Two collections: the first moves pooled items to the victim
	// cache, the second drops them.
	goruntime.GC()
	goruntime.GC()
	var m0, m1 goruntime.MemStats
	goruntime.ReadMemStats(&m0)
	w = discardWriter(t, s, WithCompression(meta.Snappy, 0))
	col, _ = w.DoubleBuffer(0)
	col.Values = append(col.Values, 1)
	if err := w.EndRows(1); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	goruntime.ReadMemStats(&m1)
	got := m1.TotalAlloc - m0.TotalAlloc
	t.Logf("a writer of one row after a collection allocated %d bytes, %d objects", got, m1.Mallocs-m0.Mallocs)
	if got >= 1<<20 {
		t.Errorf("a writer of one row after a collection allocated %d bytes, at least one of the last writer's pages (1 MiB)", got)
	}
}
