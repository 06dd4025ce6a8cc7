package genconf

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/pqgen/pqgen/peers/internal/nodejs"
)

// duckFuzzInt reads an integer setting of the writer fuzz tests from the
// environment, or gives def.
func duckFuzzInt(t *testing.T, name string, def int) int {
	t.Helper()
	s := os.Getenv(name)
	if s == "" {
		return def
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		t.Fatalf("%s=%q: want a non-negative integer", name, s)
	}
	return n
}

// TestDuckFuzz runs the world writers' round trip over files of random
// schemas and rows that DuckDB writes under random COPY options
// (peers/js/duckfuzz.mjs): code `pqgen -from` generates for each file
// reads it, reads it again in parallel in odd batches, and writes the
// rows back; DuckDB must find the original's rows and column types in
// the copy, and count the same rows of the copy with and without filter
// pushdown; runtime's TestFilterDir reads each file with random
// predicates. Every file must pass. PQGEN_DUCKFUZZ_SEED (default 1) and
// PQGEN_DUCKFUZZ_N (default 24) choose the files; `make fuzz` draws a
// fresh seed.
func TestDuckFuzz(t *testing.T) {
	node := nodejs.Need(t, "the random DuckDB files' round trip", "@duckdb/node-api")
	fuzzWriters(t, node, "duckfuzz.mjs", duckFuzzInt(t, "PQGEN_DUCKFUZZ_SEED", 1), duckFuzzInt(t, "PQGEN_DUCKFUZZ_N", 24), 1)
}

// TestArrowFuzz is TestDuckFuzz for files of random Arrow schemas and
// rows that arrow-rs (parquet-wasm) and Polars write under random writer
// properties (peers/js/arrowfuzz.mjs, two files a seed); DuckDB judges the
// copies. PQGEN_ARROWFUZZ_SEED (default 1) and PQGEN_ARROWFUZZ_N (default
// 12) choose the seeds; `make fuzz` draws a fresh seed.
func TestArrowFuzz(t *testing.T) {
	node := nodejs.Need(t, "the random arrow-rs and Polars files' round trip", "@duckdb/node-api", "parquet-wasm", "apache-arrow",
		"nodejs-polars", "nodejs-polars-linux-x64-gnu")
	fuzzWriters(t, node, "arrowfuzz.mjs", duckFuzzInt(t, "PQGEN_ARROWFUZZ_SEED", 1), duckFuzzInt(t, "PQGEN_ARROWFUZZ_N", 12), 2)
}

// TestHypFuzz is TestDuckFuzz for files of random Parquet schemas and
// rows that hyparquet-writer writes under random options
// (peers/js/hypfuzz.mjs). PQGEN_HYPFUZZ_SEED (default 1) and
// PQGEN_HYPFUZZ_N (default 16) choose the files; `make fuzz` draws a
// fresh seed.
func TestHypFuzz(t *testing.T) {
	node := nodejs.Need(t, "the random hyparquet-writer files' round trip", "@duckdb/node-api", "hyparquet-writer", "hyparquet", "parquet-wasm", "apache-arrow")
	fuzzWriters(t, node, "hypfuzz.mjs", duckFuzzInt(t, "PQGEN_HYPFUZZ_SEED", 1), duckFuzzInt(t, "PQGEN_HYPFUZZ_N", 16), 1)
}

// TestParquetjsFuzz is TestDuckFuzz for files of random schemas and rows
// that parquetjs writes under random options (peers/js/pjsfuzz.mjs).
// PQGEN_PJSFUZZ_SEED (default 1) and PQGEN_PJSFUZZ_N (default 16) choose
// the files; `make fuzz` draws a fresh seed.
func TestParquetjsFuzz(t *testing.T) {
	node := nodejs.Need(t, "the random parquetjs files' round trip", "@duckdb/node-api", "@dsnp/parquetjs", "hyparquet", "parquet-wasm", "apache-arrow")
	fuzzWriters(t, node, "pjsfuzz.mjs", duckFuzzInt(t, "PQGEN_PJSFUZZ_SEED", 1), duckFuzzInt(t, "PQGEN_PJSFUZZ_N", 16), 1)
}

// fuzzWriters has script write the files of n seeds from seed (perSeed
// files a seed) and runs the world writers' round trip over them, with
// DuckDB judging every copy (parquet-wasm or hyparquet those whose
// original DuckDB cannot read), then runtime's TestFilterDir over the
// files.
func fuzzWriters(t *testing.T, node, script string, seed, n, perSeed int) {
	t.Helper()
	start := time.Now()
	dir := t.TempDir()
	root := filepath.Join(dir, "in")
	written := parseWritten(t, script, nodejs.Output(t, node, script, strconv.Itoa(seed), strconv.Itoa(n), root))
	if len(written) != n*perSeed {
		t.Fatalf("%s reported %d files, want %d", script, len(written), n*perSeed)
	}
	judgeWritten(t, node, strings.TrimSuffix(script, ".mjs"), dir, root, written, seed, n, time.Since(start))
}

// fuzzGoWriter has write, a Go writer's generator, write the files of n
// seeds from seed into a directory, and judges them as fuzzWriters does.
// The seeds the writer fails to write are logged and left out (there is no
// file); more than one in ten fails the test: the generator then asks
// for what the writer cannot do.
func fuzzGoWriter(t *testing.T, node, what, writer string, seed, n int, write func(root string, seed uint64) writtenFile) {
	t.Helper()
	start := time.Now()
	dir := t.TempDir()
	root := filepath.Join(dir, "in")
	if err := os.MkdirAll(root, 0o755); err != nil {
		t.Fatal(err)
	}
	var written []writtenFile
	failed := 0
	for s := seed; s < seed+n; s++ {
		w := write(root, uint64(s))
		if w.Error != "" {
			t.Logf("%s could not write %s: %s; %s", writer, w.File, w.Error, w.Features)
			failed++
			continue
		}
		written = append(written, w)
	}
	if failed*10 > n {
		t.Errorf("%s could not write %d of %d files: the generator asks for what it cannot do", writer, failed, n)
	}
	judgeWritten(t, node, what, dir, root, written, seed, n, time.Since(start))
}

// judgeWritten runs the world writers' round trip over the files written
// into root (dir's "in"), which a writer (what) wrote for n seeds from
// seed in writeTime, and then runtime's TestFilterDir over them (see
// fuzzWriters).
func judgeWritten(t *testing.T, node, what, dir, root string, written []writtenFile, seed, n int, writeTime time.Duration) {
	t.Helper()

	var entries, built []*entry
	files := map[string][]byte{}
	byCode := map[[32]byte]string{}
	features := map[string]string{}
	for _, w := range written {
		e := &entry{rel: w.File, out: w.File}
		entries = append(entries, e)
		features[w.File] = w.Writer + ": " + w.Features
		if w.Error != "" {
			e.stage, e.detail = stageWriter, w.Error
			continue
		}
		if e.stage, e.detail = generateShared(filepath.Join(root, w.File), e, byCode, files); e.stage != "" {
			continue
		}
		built = append(built, e)
	}
	built, outDir, buildTime, runTime := buildAndRun(t, what, dir, root, files, built)
	var jobs []nodejs.ExceptJob
	for _, e := range built {
		if e.stage == "" {
			jobs = append(jobs, nodejs.ExceptJob{Name: e.rel, A: filepath.Join(root, e.rel), B: filepath.Join(outDir, e.out)})
		}
	}
	duckStart := time.Now()
	if len(jobs) > 0 {
		duckVerdicts(t, built, nodejs.Except(t, node, dir, jobs))
	}
	// The files DuckDB cannot read (it fails on some of its own with an
	// internal error, and on hyparquet-writer's INTEGER annotations) are
	// judged by parquet-wasm (arrow-rs), or else hyparquet: the original
	// and the copy must give the same rows, as many as our reader read.
	var unread []*entry
	for _, e := range built {
		if e.stage == stageDuckA {
			unread = append(unread, e)
		}
	}
	for _, reader := range []string{"wasm", "hyparquet"} {
		if len(unread) > 0 {
			jsJudge(t, node, reader, root, outDir, unread, [2]string{})
			unread = unjudged(unread)
		}
	}
	duckTime := time.Since(duckStart)
	pass := verdicts(t, entries, nil)
	for _, e := range entries {
		if e.stage != stagePass {
			t.Logf("%s was written by %s", e.rel, features[e.rel])
		}
	}
	t.Logf("%s, seeds %d-%d: %d files, %d pass; %d generated types; write %v, build %v, read+write %v, DuckDB %v",
		what, seed, seed+n-1, len(entries), pass, len(files), writeTime.Round(time.Millisecond), buildTime.Round(time.Millisecond),
		runTime.Round(time.Millisecond), duckTime.Round(time.Millisecond))
	t.Run("filters", func(t *testing.T) { filterDir(t, root) })
}
