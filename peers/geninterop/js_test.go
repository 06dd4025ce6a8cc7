package geninterop

// Running peers/js/geninterop.mjs: one node process per peer and
// direction, over every file of a test.

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// jsDir is peers/js, relative to this package.
const jsDir = "../js"

var (
	nodeOnce sync.Once
	nodePath string
	nodeErr  error
)

// needNode returns the node binary, or skips the test (fails it under
// CI=true) when node or peers/js/node_modules is missing.
func needNode(t *testing.T) string {
	t.Helper()
	nodeOnce.Do(func() {
		nodePath, nodeErr = exec.LookPath("node")
		if nodeErr != nil {
			return
		}
		for _, m := range []string{"@duckdb/node-api", "parquet-wasm", "apache-arrow"} {
			if _, err := os.Stat(filepath.Join(jsDir, "node_modules", m)); err != nil {
				nodeErr = fmt.Errorf("peers/js/node_modules is missing %s: run (cd peers/js && npm install --no-audit --no-fund): %v", m, err)
				return
			}
		}
	})
	if nodeErr != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("JavaScript peers unavailable: %v", nodeErr)
		}
		t.Skipf("SKIPPING JavaScript peer interop of generated code (DuckDB, parquet-wasm): %v", nodeErr)
	}
	return nodePath
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
	cmd := exec.Command(node, "geninterop.mjs", mode, peer, jobsPath)
	cmd.Dir = jsDir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	res, perr := parseJS(out)
	_, _ = io.Copy(io.Discard, out)
	if err := cmd.Wait(); err != nil {
		t.Fatalf("node geninterop.mjs %s %s: %v\n%s", mode, peer, err, stderr.String())
	}
	if perr != nil {
		t.Fatalf("node geninterop.mjs %s %s: %v", mode, peer, perr)
	}
	return res
}

func parseJS(r io.Reader) (map[string]*jsFile, error) {
	res := map[string]*jsFile{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 256<<20)
	var cur *jsFile
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "#FILE "):
			cur = &jsFile{}
			res[strings.TrimPrefix(line, "#FILE ")] = cur
		case line == "#END":
			cur = nil
		case cur == nil:
			if line != "" {
				return nil, fmt.Errorf("line outside a #FILE section: %.200s", line)
			}
		case strings.HasPrefix(line, "#ERROR "):
			cur.err = strings.TrimPrefix(line, "#ERROR ")
		default:
			var row []any
			if err := json.Unmarshal([]byte(line), &row); err != nil {
				return nil, fmt.Errorf("%v: %.200s", err, line)
			}
			cur.rows = append(cur.rows, row)
		}
	}
	return res, sc.Err()
}
