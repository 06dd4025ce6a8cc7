package geninterop

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/apache/arrow-go/v18/parquet"
	pgo "github.com/parquet-go/parquet-go"

	"github.com/pqgen/pqgen/examples/generated"
	"github.com/pqgen/pqgen/runtime"
)

// TestParallelReadsOfPeerFiles: files DuckDB, parquet-wasm (arrow-rs),
// arrow-go and parquet-go write from ours, of tens of thousands of rows
// in row groups of a few thousand rows and in their writers' default row
// groups, read through the generated ReadTFile with WithReadParallelism(2
// and 3), which reads runs of row groups or parts of a row group (by its
// offset index) with several readers at once, and through Read with
// WithReadParallelism(2), which decodes the next batch ahead, give exactly
// the rows one reader gives (the rows written again by the generated
// writer, byte for byte; they hold NaNs), and one reader gives the rows
// written, so the peers judge the files too. The readers ReadTFile makes are
// counted: every file of several row groups must be read by several, so
// that the test cannot pass by reading everything with one. The examples
// are Event (flat, 40,000 rows) and Order (nested lists and a map, 20,000).
func TestParallelReadsOfPeerFiles(t *testing.T) {
	needNode(t)
	dir := t.TempDir()
	inParts := 0
	inParts += parallelPeerFiles(t, dir, &example[generated.Event]{"Event", eventRowsN(40_000),
		adaptW[generated.Event](generated.NewEventWriter), adaptR[generated.Event](generated.NewEventReader)})
	inParts += parallelPeerFiles(t, dir, &example[generated.Order]{"Order", orderRowsN(20_000),
		adaptW[generated.Order](generated.NewOrderWriter), adaptR[generated.Order](generated.NewOrderReader)})
	if inParts == 0 {
		t.Error("no file of one row group was read in parts: the test does not reach that path")
	}
}

// parallelPeerFiles writes the rows of x with the generated writer, has
// every peer write them again (in row groups of a few thousand rows, and
// as it does by default), checks each file (parallelCheck) and returns how
// many files of one row group ReadTFile read in parts.
func parallelPeerFiles[T any](t *testing.T, dir string, x *example[T]) int {
	t.Helper()
	ours, err := x.Write()
	if err != nil {
		t.Fatal(err)
	}
	src := filepath.Join(dir, x.name+".parquet")
	if err := os.WriteFile(src, ours, 0o644); err != nil {
		t.Fatal(err)
	}
	s := fileSchema(t, ours)
	files := map[string][]byte{"pqgen": ours}
	var errs []error
	rewrite := func(name string, data []byte, err error) {
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", name, err))
			return
		}
		files[name] = data
	}
	// arrow-go writes row groups of at most 1,000 rows (arrowRewrite).
	out, err := arrowRewrite(s, ours, parquet.NewWriterProperties())
	rewrite("arrow-go", out, err)
	out, err = pgoRewrite(ours)
	rewrite("parquet-go", out, err)
	out, err = pgoRewrite(ours, pgo.MaxRowsPerRowGroup(3000))
	rewrite("parquet-go-groups", out, err)
	jobs := map[string][]map[string]any{}
	for _, c := range []struct{ name, duck string }{{"default", "COMPRESSION zstd"}, {"groups", "COMPRESSION snappy, ROW_GROUP_SIZE 3000"}} {
		jobs["duckdb"] = append(jobs["duckdb"], map[string]any{"src": src, "dst": filepath.Join(dir, x.name+"_duckdb-"+c.name+".parquet"), "options": c.duck})
	}
	jobs["wasm"] = []map[string]any{
		{"src": src, "dst": filepath.Join(dir, x.name+"_wasm-default.parquet")},
		{"src": src, "dst": filepath.Join(dir, x.name+"_wasm-groups.parquet"), "compression": "ZSTD", "rowGroupSize": 3000},
	}
	for _, peer := range []string{"duckdb", "wasm"} {
		res := runJS(t, "write", peer, jobs[peer])
		for _, j := range jobs[peer] {
			p := j["dst"].(string)
			name := strings.TrimSuffix(strings.TrimPrefix(filepath.Base(p), x.name+"_"), ".parquet")
			if r := res[p]; r == nil {
				errs = append(errs, fmt.Errorf("%s: no output", name))
			} else if r.err != "" {
				errs = append(errs, fmt.Errorf("%s: %s", name, r.err))
			} else {
				data, err := os.ReadFile(p)
				rewrite(name, data, err)
			}
		}
	}
	for _, err := range errs {
		t.Errorf("%s: %v", x.name, err)
	}
	inParts := 0
	for name, data := range files {
		t.Run(x.name+"/"+name, func(t *testing.T) {
			if parallelCheck(t, filepath.Join(dir, x.name+"-"+name+".read.parquet"), data, ours, x) {
				inParts++
			}
		})
	}
	return inParts
}

// parallelCheck reads data (written to path) with one reader, whose rows
// must be those of written (our file of the rows written), then with
// ReadTFile under WithReadParallelism(2 and 3) and Read under
// WithReadParallelism(2), and compares the rows. It reports whether the
// file, of one row group, was read in parts.
func parallelCheck[T any](t *testing.T, path string, data, written []byte, x *example[T]) bool {
	t.Helper()
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	f := fileFooter(t, data)
	groups := len(f.Meta.RowGroups)
	readFile := func(n int) ([]T, int32) {
		var opened atomic.Int32
		rows, err := runtime.ReadFileWith[T](path, append(peerOpts, runtime.WithReadParallelism(n)),
			func(r io.ReaderAt, size int64, opts ...runtime.ReaderOption) (rowReader[T], error) {
				opened.Add(1)
				return x.newR(r, size, opts...)
			})
		if err != nil {
			t.Fatalf("ReadTFile with parallelism %d: %v", n, err)
		}
		return rows, opened.Load()
	}
	want, _ := readFile(1)
	encode := func(rows []T) []byte {
		t.Helper()
		b, err := x.writeRows(rows)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	wantBytes := encode(want)
	// The peer's file holds the rows written (as example.Diff checks on
	// the smaller files of the other tests): our file of them, written
	// again, byte for byte.
	if !bytes.Equal(wantBytes, written) {
		t.Fatalf("one reader, against the rows written: %s", diffRows(x.rows, want))
	}
	same := func(what string, got []T) {
		t.Helper()
		if bytes.Equal(encode(got), wantBytes) {
			return
		}
		if d := diffRows(want, got); d != "" {
			t.Errorf("%s, against one reader: %s", what, d)
			return
		}
		t.Errorf("%s: the rows are written to other bytes than one reader's", what)
	}
	parts := false
	for _, n := range []int{2, 3} {
		got, readers := readFile(n)
		same(fmt.Sprintf("ReadTFile, parallelism %d (%d readers)", n, readers), got)
		if groups > 1 && readers < 2 {
			t.Errorf("ReadTFile, parallelism %d: %d row groups of %d rows read by %d reader", n, groups, len(want), readers)
		}
		if groups == 1 && readers > 1 {
			parts = true
		}
		t.Logf("parallelism %d: %d row groups read by %d readers", n, groups, readers)
	}
	r, err := x.newR(bytes.NewReader(data), int64(len(data)), append(peerOpts, runtime.WithReadParallelism(2))...)
	if err != nil {
		t.Fatal(err)
	}
	got, err := readAll[T](r, 4096) // batches large enough to be read ahead
	if err != nil {
		t.Fatalf("Read with parallelism 2: %v", err)
	}
	same("Read, parallelism 2", got)
	return parts
}
