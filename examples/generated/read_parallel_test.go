package generated

import (
	"bytes"
	"fmt"
	"io"
	"reflect"
	goruntime "runtime"
	"strings"
	"testing"
	"time"

	"github.com/pqgen/pqgen/runtime"
	"github.com/pqgen/pqgen/runtime/meta"
)

// readAllWith reads every row of data with NewTReader and opts, in batches
// of batch rows.
func readAllWith[T any, R interface {
	Read([]T) (int, error)
}](t testing.TB, data []byte, batch int, open func(io.ReaderAt, int64, ...runtime.ReaderOption) (R, error), opts ...runtime.ReaderOption) []T {
	t.Helper()
	r, err := open(bytes.NewReader(data), int64(len(data)), opts...)
	if err != nil {
		t.Fatal(err)
	}
	var out []T
	buf := make([]T, batch)
	for {
		n, err := r.Read(buf)
		out = append(out, buf[:n]...)
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
	}
}

// TestReadParallelism reads flat, nested and every-type rows, filtered or
// not, with columns decoded concurrently and checks they equal the
// sequential read (run with -race). The batches make at least 16,384 rows
// × columns (the runtime's readParallelMinSlots; Event has 12 columns,
// Order 23, Logical 48, Deep 10), so that Reads do go parallel.
func TestReadParallelism(t *testing.T) {
	ev := writeAll(t, sortedEvents(20000), []runtime.WriterOption{runtime.WithRowGroupSize(256 << 10)}, NewEventWriter)
	or := writeAll(t, orders(6000), []runtime.WriterOption{runtime.WithRowGroupSize(64 << 10)}, NewOrderWriter)
	lg := writeAll(t, logicals(2000), nil, NewLogicalWriter)
	dp := writeAll(t, deeps(6000), nil, NewDeepWriter)
	t0, t1 := eventWindow(20000)
	for _, p := range []int{2, 5} {
		par := runtime.WithReadParallelism(p)
		check := func(name string, seq, got any) {
			t.Helper()
			if !reflect.DeepEqual(seq, got) {
				t.Fatalf("parallelism %d: %s rows differ", p, name)
			}
		}
		check("events", readAllWith(t, ev, 2000, NewEventReader), readAllWith(t, ev, 2000, NewEventReader, par))
		filter := runtime.WithFilter(runtime.Or(EventWhere.At.Between(t0, t1), EventWhere.Kind.Eq("refund")))
		check("filtered events", readAllWith(t, ev, 1700, NewEventReader, filter), readAllWith(t, ev, 1700, NewEventReader, filter, par))
		check("orders", readAllWith(t, or, 1000, NewOrderReader), readAllWith(t, or, 1000, NewOrderReader, par))
		check("logical", readAllWith(t, lg, 500, NewLogicalReader), readAllWith(t, lg, 500, NewLogicalReader, par))
		check("deep", readAllWith(t, dp, 1700, NewDeepReader), readAllWith(t, dp, 1700, NewDeepReader, par))
	}
	if _, err := NewEventReader(bytes.NewReader(ev), int64(len(ev)), runtime.WithReadParallelism(0)); err == nil {
		t.Fatal("WithReadParallelism(0) accepted")
	}
}

// TestReadParallelismSmallBatches: a Read of few rows × columns decodes
// its columns one after the other, without the goroutine and allocations
// of a parallel one, which cost more than they save there.
func TestReadParallelismSmallBatches(t *testing.T) {
	data := writeAll(t, sortedEvents(20000), nil, NewEventWriter)
	allocs := func(p, batch, runs int) float64 {
		r, err := NewEventReader(bytes.NewReader(data), int64(len(data)), runtime.WithReadParallelism(p))
		if err != nil {
			t.Fatal(err)
		}
		buf := make([]Event, batch)
		return testing.AllocsPerRun(runs, func() {
			if n, err := r.Read(buf); n != batch || err != nil {
				t.Fatalf("%d rows, %v", n, err)
			}
		})
	}
	if seq, par := allocs(1, 16, 100), allocs(2, 16, 100); par != seq {
		t.Fatalf("16-row reads: %v allocations per Read with 2 columns at once, %v one after the other", par, seq)
	}
	// Reads large enough go parallel (this guards the test above). What
	// they allocate beyond the sequential reads depends on the timing of
	// the read-ahead (a batch read ahead is not split in halves, a worker
	// still waiting is not started again): under the race detector one
	// measurement of 10 reads once came out equal, so one of five must
	// show it.
	var tries []string
	for range 5 {
		seq, par := allocs(1, 1400, 10), allocs(2, 1400, 10)
		if par > seq {
			return
		}
		tries = append(tries, fmt.Sprintf("%v with 2 columns at once, %v one after the other", par, seq))
	}
	t.Fatalf("1400-row reads, allocations per Read: %s", strings.Join(tries, "; "))
}

// BenchmarkReadParallelism reads 200,000 flat events (zstd) and 40,000
// nested orders (snappy) in batches of 8192 rows into one reused slice,
// with WithReadParallelism 1 and 2 (columns decoded at once, and the next
// batch decoded while a Read builds its rows); run it with -cpu=2 on an
// idle machine: it reports wall time. It measures Read alone: the rows
// are not kept (readAllWith's growing result would take as long as the
// reads). BenchmarkReadStages gives the bound of the speedup.
func BenchmarkReadParallelism(b *testing.B) {
	ev := writeAll(b, sortedEvents(200_000), []runtime.WriterOption{runtime.WithCompression(meta.Zstd, 0)}, NewEventWriter)
	or := writeAll(b, orders(40_000), []runtime.WriterOption{runtime.WithCompression(meta.Snappy, 0)}, NewOrderWriter)
	for _, p := range []int{1, 2} {
		b.Run(fmt.Sprintf("type=events/p=%d", p), func(b *testing.B) {
			benchReadBatches(b, ev, 200_000, make([]Event, 8192), NewEventReader, runtime.WithReadParallelism(p))
		})
		b.Run(fmt.Sprintf("type=orders/p=%d", p), func(b *testing.B) {
			benchReadBatches(b, or, 40_000, make([]Order, 8192), NewOrderReader, runtime.WithReadParallelism(p))
		})
	}
}

// benchReadBatches reads the rows rows of data with NewTReader and opts
// into buf, again and again, failing on a short read.
func benchReadBatches[T any, R interface {
	Read([]T) (int, error)
}](b *testing.B, data []byte, rows int, buf []T, open func(io.ReaderAt, int64, ...runtime.ReaderOption) (R, error), opts ...runtime.ReaderOption) {
	b.ReportAllocs()
	for b.Loop() {
		r, err := open(bytes.NewReader(data), int64(len(data)), opts...)
		if err != nil {
			b.Fatal(err)
		}
		got := 0
		for {
			n, err := r.Read(buf)
			got += n
			if err == io.EOF {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
		}
		if got != rows {
			b.Fatalf("%d rows read, %d written", got, rows)
		}
	}
	b.ReportMetric(float64(rows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}

// readSizes reads data with NewTReader and opts in batches whose sizes
// cycle through sizes, until io.EOF or the first error, which it returns
// (nil at io.EOF) with the rows read before it. The reader is closed. A
// file that does not open fails the test (see readSizesOpen).
func readSizes[T any, R interface {
	Read([]T) (int, error)
	Close() error
}](t testing.TB, data []byte, sizes []int, open func(io.ReaderAt, int64, ...runtime.ReaderOption) (R, error), opts ...runtime.ReaderOption) ([]T, error) {
	t.Helper()
	rows, opened, err := readSizesOpen(t, data, sizes, open, opts...)
	if !opened {
		t.Fatal(err)
	}
	return rows, err
}

// readSizesOpen is readSizes for files that may not open: opened is false
// when open failed with err. A Read that returns no rows and no error
// fails the test.
func readSizesOpen[T any, R interface {
	Read([]T) (int, error)
	Close() error
}](t testing.TB, data []byte, sizes []int, open func(io.ReaderAt, int64, ...runtime.ReaderOption) (R, error), opts ...runtime.ReaderOption) (rows []T, opened bool, err error) {
	t.Helper()
	r, err := open(bytes.NewReader(data), int64(len(data)), opts...)
	if err != nil {
		return nil, false, err
	}
	defer r.Close()
	for i := 0; ; i++ {
		buf := make([]T, sizes[i%len(sizes)])
		n, err := r.Read(buf)
		rows = append(rows, buf[:n]...)
		if err == io.EOF {
			return rows, true, nil
		}
		if err != nil {
			return rows, true, err
		}
		if n == 0 {
			t.Fatal("Read returned 0 rows and no error")
		}
	}
}

// pipeSizes are batch sizes that make the reads ahead of
// WithReadParallelism(2) differ from the next Read: fewer rows (the rest
// wait for the Read after), more (the missing ones are read then), and
// batches too small to be read ahead.
var pipeSizes = []int{3000, 3000, 1700, 2500, 2500, 9000, 40, 4100, 4100, 4100, 1}

// TestReadPipeline: reading ahead (WithReadParallelism of 2 or more) gives
// the rows of the sequential reader, whatever the sizes of the Reads.
// Every row read is kept, so a string or []byte of an earlier batch that
// shared a buffer reused by a later one would differ at the end. Small
// dictionaries make batches that mix dictionary-encoded and plain pages,
// and row groups batches that span two dictionaries. The columns of
// Variants (Document, DocumentLog) are read ahead too. Run it with -race.
func TestReadPipeline(t *testing.T) {
	wopts := []runtime.WriterOption{runtime.WithRowGroupSize(128 << 10), runtime.WithMaxDictionarySize(2 << 10), runtime.WithPageSize(8 << 10)}
	ev := writeAll(t, events(30000), wopts, NewEventWriter)
	or := writeAll(t, orders(8000), wopts, NewOrderWriter)
	lg := writeAll(t, logicals(4000), wopts, NewLogicalWriter)
	dp := writeAll(t, deeps(8000), wopts, NewDeepWriter)
	docs := documents(t, 20000)
	dc := writeAll(t, docs, wopts, NewDocumentWriter)
	logs := make([]DocumentLog, len(docs))
	for i, d := range docs {
		logs[i] = DocumentLog(d)
	}
	dl := writeAll(t, logs, wopts, NewDocumentLogWriter)
	if rgs := len(mustEventReader(t, ev).fr.File().Meta.RowGroups); rgs < 3 {
		t.Fatalf("events: %d row groups", rgs)
	}
	t0, t1 := eventWindow(30000)
	filter := runtime.WithFilter(runtime.Or(EventWhere.At.Between(t0, t1), EventWhere.Kind.Eq("refund")))
	for _, p := range []int{2, 3} {
		par := runtime.WithReadParallelism(p)
		for _, sizes := range [][]int{pipeSizes, {8192}, {2047, 2049}} {
			name := fmt.Sprintf("parallelism %d, batches %v", p, sizes)
			pipeSame(t, name+", events", ev, sizes, NewEventReader, par)
			pipeSame(t, name+", filtered events", ev, sizes, NewEventReader, filter, par)
			pipeSame(t, name+", orders", or, sizes, NewOrderReader, par)
			pipeSame(t, name+", some orders columns", or, sizes, NewOrderReader, runtime.WithColumns("id", "lines.list.element.parts", "customer.email", "attrs"), par)
			pipeSame(t, name+", logical", lg, sizes, NewLogicalReader, par)
			pipeSame(t, name+", deep", dp, sizes, NewDeepReader, par)
			pipeSame(t, name+", documents", dc, sizes, NewDocumentReader, par)
			pipeSame(t, name+", shredded documents", dl, sizes, NewDocumentLogReader, par)
		}
	}
}

// pipeSame checks that reading data with opts (the last of them turning
// on reading ahead) returns the rows and error of reading it without the
// last option.
func pipeSame[T any, R interface {
	Read([]T) (int, error)
	Close() error
}](t *testing.T, name string, data []byte, sizes []int, open func(io.ReaderAt, int64, ...runtime.ReaderOption) (R, error), opts ...runtime.ReaderOption) {
	t.Helper()
	seq, seqErr := readSizes(t, data, sizes, open, opts[:len(opts)-1]...)
	got, err := readSizes(t, data, sizes, open, opts...)
	if fmt.Sprint(err) != fmt.Sprint(seqErr) {
		t.Fatalf("%s: error %v, sequentially %v", name, err, seqErr)
	}
	if len(got) != len(seq) {
		t.Fatalf("%s: %d rows, sequentially %d", name, len(got), len(seq))
	}
	for i := range seq {
		if !reflect.DeepEqual(seq[i], got[i]) {
			t.Fatalf("%s: row %d differs:\n%+v\nsequentially\n%+v", name, i, got[i], seq[i])
		}
	}
}

func mustEventReader(t testing.TB, data []byte) *EventReader {
	t.Helper()
	r, err := NewEventReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestReadPipelineErrors: a page spoilt in the middle of the file fails
// the Read of the batch holding it, naming its column, row group and page,
// after the same rows as the sequential reader, when the batch was read
// ahead too. Each column's chunk in the third row group gets its turn.
func TestReadPipelineErrors(t *testing.T) {
	data := writeAll(t, events(30000), []runtime.WriterOption{runtime.WithRowGroupSize(128 << 10), runtime.WithCRC(true)}, NewEventWriter)
	md := mustEventReader(t, data).fr.File().Meta
	if len(md.RowGroups) < 3 {
		t.Fatalf("%d row groups", len(md.RowGroups))
	}
	crc := runtime.WithCRCCheck(true)
	for col, cc := range md.RowGroups[2].Columns {
		bad := bytes.Clone(data)
		m := cc.MetaData
		at := m.DataPageOffset + m.TotalCompressedSize - 8 // in the last page's data
		if d, ok := m.DictionaryPageOffset.Get(); ok && d > 0 && d < m.DataPageOffset {
			at = m.DataPageOffset - 4 // in the dictionary page's data
		}
		bad[at] ^= 0x5a
		for _, sizes := range [][]int{{4096}, pipeSizes} {
			seq, seqErr := readSizes(t, bad, sizes, NewEventReader, crc)
			got, err := readSizes(t, bad, sizes, NewEventReader, crc, runtime.WithReadParallelism(2))
			path := strings.Join(m.PathInSchema, ".")
			if seqErr == nil || !strings.Contains(seqErr.Error(), path) || !strings.Contains(seqErr.Error(), "row group 2") || !strings.Contains(seqErr.Error(), " page ") {
				t.Fatalf("column %d (%s), byte %d spoilt: sequential error %v", col, path, at, seqErr)
			}
			if fmt.Sprint(err) != fmt.Sprint(seqErr) || len(got) != len(seq) || !reflect.DeepEqual(got, seq) {
				t.Fatalf("column %s, batches %v: %d rows and %v; sequentially %d rows and %v", path, sizes, len(got), err, len(seq), seqErr)
			}
			if len(seq) == 0 {
				t.Fatalf("column %s: no row before the error", path)
			}
		}
	}
}

// TestReadPipelineGoroutines: the goroutines reading ahead end with Close,
// after an error, at the end of the rows, and after the reader is
// abandoned (once their batch is decoded).
func TestReadPipelineGoroutines(t *testing.T) {
	data := writeAll(t, events(40000), []runtime.WriterOption{runtime.WithCRC(true)}, NewEventWriter)
	bad := bytes.Clone(data)
	cc := mustEventReader(t, data).fr.File().Meta.RowGroups[0].Columns[0].MetaData
	bad[cc.DataPageOffset+cc.TotalCompressedSize-8] ^= 0x5a
	base := goruntime.NumGoroutine()
	open := func(data []byte) *EventReader {
		r, err := NewEventReader(bytes.NewReader(data), int64(len(data)), runtime.WithReadParallelism(3), runtime.WithCRCCheck(true))
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	buf := make([]Event, 8192)
	settled := func(what string) {
		t.Helper()
		for end := time.Now().Add(5 * time.Second); goruntime.NumGoroutine() > base; {
			if time.Now().After(end) {
				t.Fatalf("%s: %d goroutines, %d before", what, goruntime.NumGoroutine(), base)
			}
			time.Sleep(time.Millisecond)
		}
	}
	for range 20 {
		r := open(data)
		if n, err := r.Read(buf); n != len(buf) || err != nil {
			t.Fatalf("%d rows, %v", n, err)
		}
		r.Close()
		settled("Close after one batch")
		if n, err := r.Read(buf); n != 0 || err == nil {
			t.Fatalf("Read after Close: %d rows, %v", n, err)
		}
	}
	r := open(data)
	for {
		if _, err := r.Read(buf); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
	}
	settled("io.EOF")
	r = open(bad)
	var err error
	for err == nil {
		_, err = r.Read(buf)
	}
	if err == io.EOF {
		t.Fatal("no error from the spoilt page")
	}
	settled("an error")
	if _, err := open(data).Read(buf); err != nil {
		t.Fatal(err)
	}
	settled("an abandoned reader")
}

// FuzzReadPipeline: on any file, reading ahead returns the rows and the
// error of the sequential reader, and neither panics. The batches of 1500
// and more Events (12 columns) are large enough to be read ahead and
// assembled in two halves (Leaves.Split).
func FuzzReadPipeline(f *testing.F) {
	opts := []runtime.WriterOption{runtime.WithPageSize(4 << 10), runtime.WithRowGroupSize(64 << 10), runtime.WithMaxDictionarySize(1 << 10)}
	f.Add(writeAll(f, events(4500), opts, NewEventWriter))
	f.Add(writeAll(f, events(4500), append(opts, runtime.WithCRC(true), runtime.WithCompression(meta.Uncompressed, 0)), NewEventWriter))
	f.Fuzz(func(t *testing.T, file []byte) {
		fuzzSameRows(t, file, []int{1500, 1500, 2100, 1400}, NewEventReader, NewEventWriter)
	})
}

// FuzzReadSplit is FuzzReadPipeline for nested rows: batches of 800 and
// more Orders (23 columns: lists, maps, optional groups and pointers) are
// assembled in two halves, each from its share of every leaf's levels and
// values, on any file whose levels pass Leaves.Check.
func FuzzReadSplit(f *testing.F) {
	opts := []runtime.WriterOption{runtime.WithPageSize(4 << 10), runtime.WithRowGroupSize(128 << 10), runtime.WithMaxDictionarySize(1 << 10)}
	f.Add(writeAll(f, orders(2400), opts, NewOrderWriter))
	f.Add(writeAll(f, orders(2400), append(opts, runtime.WithCRC(true), runtime.WithCompression(meta.Uncompressed, 0)), NewOrderWriter))
	f.Fuzz(func(t *testing.T, file []byte) {
		fuzzSameRows(t, file, []int{800, 1000, 900}, NewOrderReader, NewOrderWriter)
	})
}

// fuzzSameRows reads file in batches of sizes sequentially and with
// WithReadParallelism(2) and fails unless both give the same rows and
// error; the rows are compared as files written from them when they are
// not deeply equal, which NaN values do not upset.
func fuzzSameRows[T any, R interface {
	Read([]T) (int, error)
	Close() error
}, W interface {
	Write([]T) (int, error)
	Close() error
}](t *testing.T, file []byte, sizes []int, open func(io.ReaderAt, int64, ...runtime.ReaderOption) (R, error), create func(io.Writer, ...runtime.WriterOption) (W, error)) {
	read := func(opts ...runtime.ReaderOption) ([]T, error) {
		rows, _, err := readSizesOpen(t, file, sizes, open, opts...)
		return rows, err
	}
	seq, seqErr := read()
	got, err := read(runtime.WithReadParallelism(2))
	if fmt.Sprint(err) != fmt.Sprint(seqErr) || len(got) != len(seq) {
		t.Fatalf("%d rows and %v; sequentially %d rows and %v", len(got), err, len(seq), seqErr)
	}
	if !reflect.DeepEqual(got, seq) && !bytes.Equal(writeAll(t, got, nil, create), writeAll(t, seq, nil, create)) {
		t.Fatal("the rows differ from the sequential reader's")
	}
}
