package nodejs

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// ExceptJob is one pair of files for duckdb_except.mjs: DuckDB compares
// the rows of A and B (see the script's comment for FooterKey and Skip).
type ExceptJob struct {
	Name      string   `json:"name"`
	A         string   `json:"a"`
	B         string   `json:"b"`
	FooterKey string   `json:"footerKey,omitempty"`
	Skip      []string `json:"skip,omitempty"`
}

// ExceptResult is what duckdb_except.mjs printed for one ExceptJob: the
// stage it failed at ("read-a", "read-b" or "except") and the error, or
// both files' DuckDB types and row counts and the rows of each file
// missing from the other (EXCEPT ALL, with their row numbers).
type ExceptResult struct {
	Name         string      `json:"name"`
	Stage        string      `json:"stage"`
	Error        string      `json:"error"`
	TypesA       [][2]string `json:"typesA"`
	TypesB       [][2]string `json:"typesB"`
	RowsA        int         `json:"rowsA"`
	RowsB        int         `json:"rowsB"`
	AMinusB      int         `json:"aMinusB"`
	BMinusA      int         `json:"bMinusA"`
	Normalized   []string    `json:"normalized"`
	SkipReadable []string    `json:"skipReadable"`
	// Pushdown lists the predicates on which DuckDB counts other rows
	// of b with its filter pushdown (row groups pruned by b's statistics
	// and bloom filters) than without.
	Pushdown []string `json:"pushdown"`
	Ms       int      `json:"ms"`
}

// Except runs duckdb_except.mjs once over jobs, writing the job list into
// dir, and returns its results by job name.
func Except(t testing.TB, node, dir string, jobs []ExceptJob) map[string]ExceptResult {
	t.Helper()
	res := map[string]ExceptResult{}
	if len(jobs) == 0 {
		return res
	}
	b, err := json.Marshal(jobs)
	if err != nil {
		t.Fatal(err)
	}
	jobFile := filepath.Join(dir, "jobs.json")
	if err := os.WriteFile(jobFile, b, 0o644); err != nil {
		t.Fatal(err)
	}
	out := Output(t, node, "duckdb_except.mjs", jobFile)
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		var r ExceptResult
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("duckdb_except.mjs output %q: %v", sc.Text(), err)
		}
		res[r.Name] = r
	}
	return res
}

// Output runs node ARGS... in Dir and returns its standard output; it
// fails the test when node fails.
func Output(t testing.TB, node string, args ...string) []byte {
	t.Helper()
	cmd, stderr := command(node, args...)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node %s: %v\n%s", strings.Join(args, " "), err, stderr.Bytes())
	}
	return out
}
