package geninterop

// Running peers/js/geninterop.mjs: one node process per peer and
// direction, over every file of a test.

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/pqgen/pqgen/peers/internal/nodejs"
)

// needNode returns the node binary, or skips the test (fails it under
// CI=true) when node or a module of peers/js/node_modules is missing.
func needNode(t *testing.T) string {
	t.Helper()
	return nodejs.Need(t, "JavaScript peer interop of generated code (DuckDB, parquet-wasm)",
		"@duckdb/node-api", "parquet-wasm", "apache-arrow")
}

// jsFile is what the script printed for one file: canonical rows, or the
// peer's error.
type jsFile struct {
	rows [][]any
	err  string
}

// runJS runs node geninterop.mjs MODE PEER with jobs (marshalled to a
// JSON file) and returns its output per file path.
func runJS(t *testing.T, mode, peer string, jobs any) map[string]*jsFile {
	t.Helper()
	node := needNode(t)
	jb, err := json.Marshal(jobs)
	if err != nil {
		t.Fatal(err)
	}
	jobsPath := filepath.Join(t.TempDir(), "jobs.json")
	if err := os.WriteFile(jobsPath, jb, 0o644); err != nil {
		t.Fatal(err)
	}
	res := map[string]*jsFile{}
	for path, f := range nodejs.Run(t, node, "geninterop.mjs", mode, peer, jobsPath) {
		jf := &jsFile{err: f.Err}
		for _, line := range f.Rows {
			var row []any
			if err := json.Unmarshal(line, &row); err != nil {
				t.Fatalf("node geninterop.mjs %s %s: %v: %.200s", mode, peer, err, line)
			}
			jf.rows = append(jf.rows, row)
		}
		res[path] = jf
	}
	return res
}
