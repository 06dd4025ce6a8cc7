package generated

import (
	"bytes"
	"io"
	"iter"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/pqgen/pqgen/runtime"
)

// The query of issue 16 on events sorted by time: a 0.1% time window and
// an equality on the low-cardinality kind, and a point lookup on a random
// id with a bloom filter.

// sortedEvents returns n events one second apart with random ids.
func sortedEvents(n int) []Event { return SortedEvents(n) }

// writeEvents writes rows in 1 MiB row groups of 64 KiB pages with a bloom
// filter on id.
func writeEvents(t testing.TB, rows []Event) []byte {
	t.Helper()
	return writeAll(t, rows, EventQueryWriterOptions(), NewEventWriter)
}

// countingReaderAt counts the bytes and calls of ReadAt.
type countingReaderAt struct {
	r            io.ReaderAt
	bytes, calls int64
}

func (c *countingReaderAt) ReadAt(p []byte, off int64) (int, error) {
	c.bytes += int64(len(p))
	c.calls++
	return c.r.ReadAt(p, off)
}

// readEvents reads every row r returns, through All.
func readEvents(t testing.TB, data []byte, opts ...runtime.ReaderOption) ([]Event, *countingReaderAt) {
	t.Helper()
	cr := &countingReaderAt{r: bytes.NewReader(data)}
	r, err := NewEventReader(cr, int64(len(data)), opts...)
	if err != nil {
		t.Fatal(err)
	}
	return allRows(t, r.All()), cr
}

// allRows collects the rows of a reader's All, failing t at an error.
func allRows[T any](t testing.TB, rows iter.Seq2[T, error]) []T {
	t.Helper()
	var out []T
	for row, err := range rows {
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, row)
	}
	return out
}

// readAllAndFilter is the baseline: every row read, then kept by keep.
func readAllAndFilter(t testing.TB, data []byte, keep func(*Event) bool) []Event {
	t.Helper()
	r, err := NewEventReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]Event, 4096)
	var out []Event
	for {
		n, err := r.Read(buf)
		for i := range buf[:n] {
			if keep(&buf[i]) {
				out = append(out, buf[i])
			}
		}
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
	}
}

func eventWindow(n int) (t0, t1 time.Time) { return EventWindow(n) }

func TestFilterEvents(t *testing.T) {
	// A million events make 50 row groups of 1 MiB: one row group is 2% of
	// the file (the benchmark has 2 M).
	n := 1_000_000
	rows := sortedEvents(n)
	data := writeEvents(t, rows)
	f, err := runtime.OpenFile(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d events, %d bytes, %d row groups", n, len(data), len(f.Meta.RowGroups))
	t0, t1 := eventWindow(n)
	check := func(name string, p runtime.Predicate, keep func(*Event) bool, maxShare float64) {
		t.Helper()
		checkFilter(t, data, name, p, keep, maxShare)
	}
	check("window and kind", runtime.And(EventWhere.At.Between(t0, t1), EventWhere.Kind.Eq("buy")),
		func(e *Event) bool { return !e.At.Before(t0) && !e.At.After(t1) && e.Kind == "buy" }, 0.05)
	id := rows[n/3].ID
	check("point lookup", EventWhere.ID.Eq(id), func(e *Event) bool { return e.ID == id }, 0.15)
	check("window, null referrer", runtime.And(EventWhere.At.Lt(EventEpoch.Add(time.Duration(n/500)*time.Second)), EventWhere.Referrer.IsNull()),
		func(e *Event) bool {
			return e.At.Before(EventEpoch.Add(time.Duration(n/500)*time.Second)) && e.Referrer == nil
		}, 0.05)
	check("not", runtime.Not(runtime.Or(EventWhere.At.Ge(EventEpoch.Add(time.Duration(n/1000)*time.Second)), EventWhere.Kind.In("view", "click"))),
		func(e *Event) bool {
			return e.At.Before(EventEpoch.Add(time.Duration(n/1000)*time.Second)) && e.Kind != "view" && e.Kind != "click"
		}, 0.05)
	// A predicate nothing prunes still filters exactly (on a smaller file).
	small := writeEvents(t, rows[:50_000])
	checkFilter(t, small, "no pruning", runtime.Or(EventWhere.Retries.Eq(3), EventWhere.Country.NotEq("fr")),
		func(e *Event) bool {
			return e.Retries != nil && *e.Retries == 3 || e.Country != "" && e.Country != "fr"
		}, 1.1)

	// Projection and filter together: the predicate's columns need not be read.
	got, _ := readEvents(t, data, runtime.WithFilter(EventWhere.ID.Eq(id)), runtime.WithColumns("user"))
	if len(got) != 1 || got[0].User != rows[n/3].User || got[0].ID != 0 {
		t.Fatalf("projected lookup: %+v", got)
	}
}

// checkFilter checks that p selects from data exactly the rows keep
// selects from a full read, reading at most maxShare of the bytes.
func checkFilter(t *testing.T, data []byte, name string, p runtime.Predicate, keep func(*Event) bool, maxShare float64) {
	t.Helper()
	want := readAllAndFilter(t, data, keep)
	got, cr := readEvents(t, data, runtime.WithFilter(p))
	// DeepEqual first: cmp.Diff of many rows is slow.
	if !reflect.DeepEqual(want, got) {
		t.Fatalf("%s: %d rows, want %d (-want +got):\n%.2000s", name, len(got), len(want), cmp.Diff(want, got, cmpOpts))
	}
	share := float64(cr.bytes) / float64(len(data))
	t.Logf("%s: %d rows, read %d bytes (%.2f%%) in %d calls", name, len(got), cr.bytes, 100*share, cr.calls)
	if share > maxShare {
		t.Errorf("%s: read %.2f%% of the file, want at most %.0f%%", name, 100*share, 100*maxShare)
	}
}

// TestAllStopsEarly: breaking out of All ends the iteration; the reader
// then continues where it stopped.
func TestAllStopsEarly(t *testing.T) {
	rows := sortedEvents(1000)
	data := writeEvents(t, rows)
	r, err := NewEventReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	var ids []int64
	for row, err := range r.All() {
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, row.ID)
		if len(ids) == 10 {
			break
		}
	}
	if !slices.Equal(ids, []int64{rows[0].ID, rows[1].ID, rows[2].ID, rows[3].ID, rows[4].ID, rows[5].ID, rows[6].ID, rows[7].ID, rows[8].ID, rows[9].ID}) {
		t.Fatalf("ids %v", ids)
	}
	r.Close()
	for _, err := range r.All() {
		if err == nil {
			t.Fatal("a closed reader yields rows")
		}
	}
}

// BenchmarkFilterEvents: the window query, the point lookup and
// read-all-and-filter on 2 M events; the ratio to the baseline is
// reported as x-faster.
func BenchmarkFilterEvents(b *testing.B) {
	const n = 2_000_000
	rows := sortedEvents(n)
	data := writeEvents(b, rows)
	rows = nil
	t0, t1 := eventWindow(n)
	query := runtime.And(EventWhere.At.Between(t0, t1), EventWhere.Kind.Eq("buy"))
	var base time.Duration
	b.Run("read-all-and-filter", func(b *testing.B) {
		for b.Loop() {
			readAllAndFilter(b, data, func(e *Event) bool { return !e.At.Before(t0) && !e.At.After(t1) && e.Kind == "buy" })
		}
		base = b.Elapsed() / time.Duration(b.N)
	})
	b.Run("window-and-kind", func(b *testing.B) {
		var cr *countingReaderAt
		for b.Loop() {
			_, cr = readEvents(b, data, runtime.WithFilter(query))
		}
		b.ReportMetric(100*float64(cr.bytes)/float64(len(data)), "%bytes")
		if base > 0 {
			b.ReportMetric(float64(base)/float64(b.Elapsed()/time.Duration(b.N)), "x-faster")
		}
	})
	b.Run("point-lookup", func(b *testing.B) {
		id := sortedEvents(n / 3)[n/3-1].ID
		var cr *countingReaderAt
		for b.Loop() {
			_, cr = readEvents(b, data, runtime.WithFilter(EventWhere.ID.Eq(id)))
		}
		b.ReportMetric(100*float64(cr.bytes)/float64(len(data)), "%bytes")
		if base > 0 {
			b.ReportMetric(float64(base)/float64(b.Elapsed()/time.Duration(b.N)), "x-faster")
		}
	})
}
