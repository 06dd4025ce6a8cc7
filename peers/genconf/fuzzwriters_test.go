package genconf

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/pqgen/pqgen/peers/internal/nodejs"
)

// duckFuzzInt reads an integer setting of TestDuckFuzz from the
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
	seed := duckFuzzInt(t, "PQGEN_DUCKFUZZ_SEED", 1)
	n := duckFuzzInt(t, "PQGEN_DUCKFUZZ_N", 24)
	start := time.Now()
	dir := t.TempDir()
	root := filepath.Join(dir, "in")
	written := parseWritten(t, "duckfuzz.mjs", nodejs.Output(t, node, "duckfuzz.mjs", strconv.Itoa(seed), strconv.Itoa(n), root))
	if len(written) != n {
		t.Fatalf("duckfuzz.mjs reported %d files, want %d", len(written), n)
	}
	writeTime := time.Since(start)

	var entries, built []*entry
	files := map[string][]byte{}
	byCode := map[[32]byte]string{}
	features := map[string]string{}
	for _, w := range written {
		e := &entry{rel: w.File, out: w.File}
		entries = append(entries, e)
		features[w.File] = w.Features
		if w.Error != "" {
			e.stage, e.detail = stageWriter, w.Error
			continue
		}
		if e.stage, e.detail = generateShared(filepath.Join(root, w.File), e, byCode, files); e.stage != "" {
			continue
		}
		built = append(built, e)
	}
	built, outDir, buildTime, runTime := buildAndRun(t, "duckfuzz", dir, root, files, built)
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
	duckTime := time.Since(duckStart)
	pass := verdicts(t, entries, nil)
	for _, e := range entries {
		if e.stage != stagePass {
			t.Logf("%s (seed %s) was written as %s", e.rel, e.rel[len("duckfuzz_"):len(e.rel)-len(".parquet")], features[e.rel])
		}
	}
	t.Logf("seeds %d-%d: %d files, %d pass; %d generated types; write %v, build %v, read+write %v, DuckDB %v",
		seed, seed+n-1, len(entries), pass, len(files), writeTime.Round(time.Millisecond), buildTime.Round(time.Millisecond),
		runTime.Round(time.Millisecond), duckTime.Round(time.Millisecond))
	t.Run("filters", func(t *testing.T) { filterDir(t, root) })
}
