package bench

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/pqgen/pqgen/examples/generated"
	"github.com/pqgen/pqgen/peers/internal/nodejs"
	"github.com/pqgen/pqgen/runtime"
)

// Issue 16's queries through pqgen's filtered reader and through DuckDB
// (peers/js/duckdb_query.mjs, one thread) on the same file: the events of
// examples/generated (SortedEvents, written with EventQueryWriterOptions,
// as BenchmarkFilterEvents writes them), a 0.1% time window with
// kind = "buy", and a point lookup on one id. Both materialize every column
// of the matching rows; pqgen reads the file from memory, DuckDB from a
// temporary file (in the page cache, and in its external file cache after
// the first run).

// queryResult is one query's best time of several runs in each engine.
type queryResult struct {
	name          string
	rows          int
	pqgen, duckdb time.Duration
}

// compareQueries writes SortedEvents(n), runs both queries runs times in
// pqgen and in DuckDB, and fails tb unless both return exactly the ids of
// the matching events, in file order.
func compareQueries(tb testing.TB, n, runs int) []queryResult {
	tb.Helper()
	node := nodejs.Need(tb, "the DuckDB query comparison", "@duckdb/node-api")
	events := generated.SortedEvents(n)
	var buf bytes.Buffer
	w, err := generated.NewEventWriter(&buf, generated.EventQueryWriterOptions()...)
	if err != nil {
		tb.Fatal(err)
	}
	if _, err := w.Write(events); err != nil {
		tb.Fatal(err)
	}
	if err := w.Close(); err != nil {
		tb.Fatal(err)
	}
	data := buf.Bytes()
	path := filepath.Join(tb.TempDir(), "events.parquet")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		tb.Fatal(err)
	}
	t0, t1 := generated.EventWindow(n)
	id := events[n/3].ID
	queries := []struct {
		name string
		p    runtime.Predicate
		keep func(*generated.Event) bool
	}{
		{"window-and-kind", runtime.And(generated.EventWhere.At.Between(t0, t1), generated.EventWhere.Kind.Eq("buy")),
			func(e *generated.Event) bool { return !e.At.Before(t0) && !e.At.After(t1) && e.Kind == "buy" }},
		{"point-lookup", generated.EventWhere.ID.Eq(id), func(e *generated.Event) bool { return e.ID == id }},
	}
	want := make([][]string, len(queries))
	for i, q := range queries {
		for j := range events {
			if q.keep(&events[j]) {
				want[i] = append(want[i], strconv.FormatInt(events[j].ID, 10))
			}
		}
		if len(want[i]) == 0 {
			tb.Fatalf("%s: no event matches", q.name)
		}
	}
	events = nil

	spec, _ := json.Marshal(map[string]any{"file": path, "runs": runs, "t0": t0.Format(time.RFC3339Nano),
		"t1": t1.Format(time.RFC3339Nano), "kind": "buy", "id": strconv.FormatInt(id, 10)})
	specPath := filepath.Join(tb.TempDir(), "spec.json")
	if err := os.WriteFile(specPath, spec, 0o644); err != nil {
		tb.Fatal(err)
	}
	out := nodejs.Run(tb, node, "duckdb_query.mjs", specPath)["queries"]
	if out == nil || out.Err != "" || len(out.Rows) != len(queries) {
		tb.Fatalf("duckdb: %+v", out)
	}

	res := make([]queryResult, len(queries))
	for i, q := range queries {
		var d struct {
			Query, SQL string
			BestNs     int64
			Ids        []string
		}
		if err := json.Unmarshal(out.Rows[i], &d); err != nil {
			tb.Fatal(err)
		}
		if d.Query != q.name {
			tb.Fatalf("duckdb: query %q, want %q", d.Query, q.name)
		}
		if !slices.Equal(d.Ids, want[i]) {
			tb.Fatalf("duckdb: %s (%s): %d rows, want %d: %.300v, want %.300v", q.name, d.SQL, len(d.Ids), len(want[i]), d.Ids, want[i])
		}
		best := time.Duration(1<<63 - 1)
		for range runs {
			start := time.Now()
			r, err := generated.NewEventReader(bytes.NewReader(data), int64(len(data)), runtime.WithFilter(q.p))
			if err != nil {
				tb.Fatal(err)
			}
			var got []generated.Event
			for row, err := range r.All() {
				if err != nil {
					tb.Fatal(err)
				}
				got = append(got, row)
			}
			best = min(best, time.Since(start))
			ids := make([]string, len(got))
			for j := range got {
				ids[j] = strconv.FormatInt(got[j].ID, 10)
			}
			if !slices.Equal(ids, want[i]) {
				tb.Fatalf("pqgen: %s: %d rows, want %d", q.name, len(ids), len(want[i]))
			}
		}
		res[i] = queryResult{name: q.name, rows: len(want[i]), pqgen: best, duckdb: time.Duration(d.BestNs)}
	}
	return res
}

// TestQueryDuckDB: on 200 000 events, DuckDB and pqgen's filtered reader
// return the same rows for both queries (BenchmarkQueryDuckDB times them).
func TestQueryDuckDB(t *testing.T) {
	for _, r := range compareQueries(t, 200_000, 1) {
		t.Logf("%s: %d rows, pqgen %v, DuckDB %v", r.name, r.rows, r.pqgen, r.duckdb)
	}
}

// BenchmarkQueryDuckDB times both queries on 2 M events, best of
// -query-runs runs in each engine, and reports the best times (pqgen-ms,
// duckdb-ms; ns/op is pqgen's) and their ratio duckdb/pqgen (above 1:
// pqgen is faster).
// `make bench-query` runs it once.
func BenchmarkQueryDuckDB(b *testing.B) {
	var res []queryResult
	for b.Loop() {
		res = compareQueries(b, 2_000_000, *queryRuns)
	}
	for _, r := range res {
		b.Run("query="+r.name, func(b *testing.B) {
			for b.Loop() {
			}
			b.ReportMetric(float64(r.pqgen), "ns/op") // not the empty loop's
			b.ReportMetric(float64(r.pqgen)/1e6, "pqgen-ms")
			b.ReportMetric(float64(r.duckdb)/1e6, "duckdb-ms")
			b.ReportMetric(float64(r.duckdb)/float64(r.pqgen), "duckdb/pqgen")
			fmt.Fprintf(os.Stderr, "%s: %d rows, pqgen %v, DuckDB %v (one thread): DuckDB/pqgen = %.2f\n",
				r.name, r.rows, r.pqgen, r.duckdb, float64(r.duckdb)/float64(r.pqgen))
		})
	}
}
