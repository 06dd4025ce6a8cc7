package bench

import (
	"bytes"
	"flag"
	"reflect"
	goruntime "runtime"
	"runtime/metrics"
	"sync"
	"testing"
	"time"

	"github.com/pqgen/pqgen/runtime"
)

var (
	benchRows   = flag.Int("rows", 1_000_000, "rows per benchmark file (Wide: a tenth)")
	benchRounds = flag.Int("rounds", 1, "times every benchmark runs, in turn with the others (see BenchmarkPeers)")
	queryRuns   = flag.Int("query-runs", 7, "runs of each query in BenchmarkQueryDuckDB, of which the best counts")
)

// suite is the benchmarks and round-trip checks of one row type.
type suite interface {
	name() string
	bench(b *testing.B, rows int)
	check(t *testing.T, rows int)
}

type typedSuite[T any] struct {
	typ   string
	scale int // rows are divided by scale
	gen   func(n int) []T
	size  func([]T) int64
	// mem, when set, is the bytes of the rows in memory (the structs and
	// what they point to), the "structs" side of the x-memmove metric.
	mem  func([]T) int64
	norm func([]T)
	libs []lib[T]

	mu    sync.Mutex
	cache map[int][]T
}

func (s *typedSuite[T]) name() string { return s.typ }

// rows returns the n rows of the suite, generated once.
func (s *typedSuite[T]) rows(n int) []T {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cache == nil {
		s.cache = map[int][]T{}
	}
	if r, ok := s.cache[n]; ok {
		return r
	}
	clear(s.cache) // keep one size alive at a time
	r := s.gen(n)
	s.cache[n] = r
	return r
}

// suites are the row types, each with its regular data (sequences: ids
// that count up, few distinct strings, regular times) and its
// high-entropy data (the -he variants, data_he_test.go).
var suites = []suite{
	&typedSuite[Flat]{typ: "flat", scale: 1, gen: flatRows, size: flatBytes, mem: flatMemBytes, norm: normFlat, libs: flatLibs()},
	&typedSuite[Flat]{typ: "flat-he", scale: 1, gen: flatRowsHE, size: flatBytes, mem: flatMemBytes, norm: normFlat, libs: flatLibs()},
	&typedSuite[Contact]{typ: "nested", scale: 1, gen: contactRows, size: contactBytes, norm: normContact, libs: contactLibs()},
	&typedSuite[Contact]{typ: "nested-he", scale: 1, gen: contactRowsHE, size: contactBytes, norm: normContact, libs: contactLibs()},
	&typedSuite[Wide]{typ: "wide", scale: 10, gen: wideRows, size: wideBytes, norm: normWide, libs: wideLibs()},
	&typedSuite[Wide]{typ: "wide-he", scale: 10, gen: wideRowsHE, size: wideBytes, norm: normWide, libs: wideLibs()},
}

func flatLibs() []lib[Flat] {
	return []lib[Flat]{
		pqgenLib[Flat](pqgenName, NewFlatWriter, NewFlatReader, pqgenOpts{}),
		pqgenLib[Flat](pqgenName+"-par", NewFlatWriter, NewFlatReader, parallelOpts),
		parquetGoLib[Flat](),
		arrowLib(flatArrowSchema, appendFlat, flatFromArrow),
	}
}

func contactLibs() []lib[Contact] {
	return []lib[Contact]{
		pqgenLib[Contact](pqgenName, NewContactWriter, NewContactReader, pqgenOpts{}),
		pqgenLib[Contact](pqgenName+"-par", NewContactWriter, NewContactReader, parallelOpts),
		parquetGoLib[Contact](),
		arrowLib(contactArrowSchema, appendContact, contactFromArrow),
	}
}

func wideLibs() []lib[Wide] {
	return []lib[Wide]{
		pqgenLib[Wide](pqgenName, NewWideWriter, NewWideReader, pqgenOpts{}),
		pqgenLib[Wide](pqgenName+"-par", NewWideWriter, NewWideReader, parallelOpts),
		parquetGoLib[Wide](),
		arrowLib(wideArrowSchema, appendWide, wideFromArrow),
	}
}

const pqgenName = "pqgen"

// parallelOpts are pqgen-par's: WithParallelism(2), which shreds, encodes
// and compresses the columns of a row group on two goroutines, and
// WithReadParallelism(2), which decodes columns and assembles rows on two.
// Its speed-up is the ratio of wall-time rows/s to pqgen's (its CPU time
// is the sequential one's plus the coordination).
var parallelOpts = pqgenOpts{
	write: []runtime.WriterOption{runtime.WithParallelism(2)},
	read:  []runtime.ReaderOption{runtime.WithReadParallelism(2)},
}

// TestRoundTrip writes a few thousand rows of each type with each library
// and codec, and checks that each library's file reads back, through the
// same library, to the rows written. It asserts nothing about speed.
func TestRoundTrip(t *testing.T) {
	for _, s := range suites {
		t.Run(s.name(), func(t *testing.T) { s.check(t, 10_000) })
	}
}

func (s *typedSuite[T]) check(t *testing.T, n int) {
	rows := s.rows(max(n/s.scale, 1))
	for _, c := range codecs {
		for _, l := range s.libs {
			t.Run(c.name+"/"+l.name, func(t *testing.T) {
				var buf bytes.Buffer
				if err := l.write(&buf, rows, c); err != nil {
					t.Fatal("write:", err)
				}
				var got []T
				batch := make([]T, ReadBatch)
				if err := l.read(buf.Bytes(), batch, func(b []T) { got = append(got, b...) }); err != nil {
					t.Fatal("read:", err)
				}
				s.norm(got)
				if len(got) != len(rows) {
					t.Fatalf("read %d rows, wrote %d", len(got), len(rows))
				}
				for i := range rows {
					if !reflect.DeepEqual(got[i], rows[i]) {
						t.Fatalf("row %d:\n got %+v\nwant %+v", i, got[i], rows[i])
					}
				}
			})
		}
	}
}

// BenchmarkPeers writes and reads every row type with every library and
// codec. Names are type=/codec=/op=/impl= so that benchstat can put the
// libraries side by side (-col /impl); benchratio prints the ratios.
//
// With -rounds=N every benchmark runs N times, each round running all of
// them in turn, so that each library's runs are spread over the same
// stretch of time as the others' (-count=N runs one benchmark N times
// before the next, and a shared machine that slows for a minute then
// slows one library only). The testing package names the repeats
// type=flat#01 and so on; `make bench-peers` strips the suffix.
func BenchmarkPeers(b *testing.B) {
	for range max(*benchRounds, 1) {
		for _, s := range suites {
			b.Run("type="+s.name(), func(b *testing.B) { s.bench(b, *benchRows) })
		}
	}
}

func (s *typedSuite[T]) bench(b *testing.B, n int) {
	rows := s.rows(max(n/s.scale, 1))
	logical := s.size(rows)
	var memmove float64 // ns per byte copied, when s.mem is set
	if s.mem != nil {
		memmove = memmoveBaseline()
	}
	for _, c := range codecs {
		b.Run("codec="+c.name, func(b *testing.B) {
			files := make([][]byte, len(s.libs))
			for i, l := range s.libs {
				var buf bytes.Buffer
				if err := l.write(&buf, rows, c); err != nil {
					b.Fatal(l.name, err)
				}
				files[i] = buf.Bytes()
			}
			b.Run("op=write", func(b *testing.B) {
				for i, l := range s.libs {
					b.Run("impl="+l.name, func(b *testing.B) {
						out := bytes.NewBuffer(make([]byte, 0, len(files[i])+len(files[i])/4))
						measure(b, len(rows), logical, len(files[i]), s.limit(memmove, rows, len(files[i])), func() {
							out.Reset()
							if err := l.write(out, rows, c); err != nil {
								b.Fatal(err)
							}
						})
					})
				}
			})
			b.Run("op=read", func(b *testing.B) {
				for i, l := range s.libs {
					b.Run("impl="+l.name, func(b *testing.B) {
						batch := make([]T, ReadBatch)
						measure(b, len(rows), logical, len(files[i]), s.limit(memmove, rows, len(files[i])), func() {
							if err := l.read(files[i], batch, nil); err != nil {
								b.Fatal(err)
							}
						})
					})
				}
			})
		})
	}
}

// limit returns the time in ns to memmove the bytes of rows in memory and
// a file of fileSize bytes at nsPerByte, or 0 when s has no mem.
func (s *typedSuite[T]) limit(nsPerByte float64, rows []T, fileSize int) float64 {
	if s.mem == nil {
		return 0
	}
	return nsPerByte * float64(s.mem(rows)+int64(fileSize))
}

// memmoveBuf is the size of the buffers memmoveNsPerByte copies, well
// above any cache of the machines the suite runs on.
const memmoveBuf = 64 << 20

// memmoveBaseline is the x-memmove metric's time to memmove a byte,
// measured once per process, so that every round and type of the suite is
// divided by the same: the best of memmoveNsPerByte over three pairs of
// fresh buffers. Measured before each type, as it was, the best of seven
// copies of one pair still varied by 1.4× between the rounds of one run
// (a flat write's x-memmove 5.96 in the first round, 9.26 and 8.35 in the
// next two) while the writes' own CPU time varied by 10%.
var memmoveBaseline = sync.OnceValue(func() float64 {
	best := memmoveNsPerByte()
	for range 2 {
		best = min(best, memmoveNsPerByte())
	}
	return best
})

// memmoveNsPerByte returns the time this machine takes to memmove a byte
// between buffers that are not in any cache: the best of several copies of
// memmoveBuf bytes (interference from other processes only slows a copy
// down), after one that faults the pages in.
func memmoveNsPerByte() float64 {
	src, dst := make([]byte, memmoveBuf), make([]byte, memmoveBuf)
	for i := range src {
		src[i] = byte(i * 131)
	}
	copy(dst, src)
	best := time.Duration(1<<63 - 1)
	for range 7 {
		t0 := time.Now()
		copy(dst, src)
		best = min(best, time.Since(t0))
	}
	return float64(best.Nanoseconds()) / memmoveBuf
}

// measure runs op once untimed to sample its peak heap, then as the
// benchmark loop, and reports the metrics described in the package
// documentation. logical is the logical size of the rows (b.SetBytes);
// limit, when not 0, is the time in ns to memmove the rows' bytes and the
// file's (x-memmove).
func measure(b *testing.B, rows int, logical int64, fileSize int, limit float64, op func()) {
	peak := peakHeap(op)
	var m0, m1 goruntime.MemStats
	goruntime.GC()
	// After the collection, which peakHeap's run may have left working
	// on the other core; before m0, so that its goroutines' allocations
	// stay out of allocs/row.
	cores := twoCoreScaling()
	goruntime.ReadMemStats(&m0)
	b.SetBytes(logical)
	b.ReportAllocs()
	c0 := processCPU()
	for b.Loop() {
		op()
	}
	c1 := processCPU()
	goruntime.ReadMemStats(&m1)
	total := float64(b.N) * float64(rows)
	b.ReportMetric(total/b.Elapsed().Seconds(), "rows/s")
	if c0 >= 0 && c1 > c0 {
		b.ReportMetric(float64(logical)*float64(b.N)/float64(c1-c0)*1e3, "cpu-MB/s")
		if limit > 0 {
			b.ReportMetric(float64(c1-c0)/float64(b.N)/limit, "x-memmove")
		}
	}
	b.ReportMetric(float64(m1.Mallocs-m0.Mallocs)/total, "allocs/row")
	b.ReportMetric(float64(m1.TotalAlloc-m0.TotalAlloc)/total, "B/row")
	b.ReportMetric(peak, "peak-MiB")
	b.ReportMetric(float64(fileSize)/1e6, "file-MB")
	b.ReportMetric(cores, "cores")
}

// peakHeap runs op and returns the largest live-heap sample seen while it
// ran, above the heap in use before it (after a GC), in MiB.
func peakHeap(op func()) float64 {
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	goruntime.GC()
	metrics.Read(sample)
	base := sample[0].Value.Uint64()
	var (
		peak uint64
		done = make(chan struct{})
		wg   sync.WaitGroup
	)
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(time.Millisecond)
		defer t.Stop()
		s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
		for {
			metrics.Read(s)
			peak = max(peak, s[0].Value.Uint64())
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	}()
	op()
	close(done)
	wg.Wait()
	if peak < base {
		return 0
	}
	return float64(peak-base) / (1 << 20)
}
