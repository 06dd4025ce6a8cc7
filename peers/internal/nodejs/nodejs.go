// Package nodejs runs the JavaScript peers of peers/js (DuckDB,
// parquet-wasm, hyparquet) for the tests of the peers module: finding
// node and the installed modules, running a script and parsing the
// "#FILE path", rows, "#ERROR message", "#END" sections the scripts
// print (peers/js/canon.mjs).
package nodejs

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// Dir is the peers/js directory, where the scripts run.
var Dir = func() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "js")
}()

// Need returns the node binary, or skips the test (fails it under
// CI=true) when node or one of the modules of peers/js/node_modules is
// missing. what names the checks skipped, for the message.
func Need(t testing.TB, what string, modules ...string) string {
	t.Helper()
	node, err := exec.LookPath("node")
	if err == nil {
		for _, m := range modules {
			if _, serr := os.Stat(filepath.Join(Dir, "node_modules", filepath.FromSlash(m))); serr != nil {
				err = fmt.Errorf("peers/js/node_modules is missing %s: run (cd peers/js && npm install --no-audit --no-fund): %v", m, serr)
				break
			}
		}
	}
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("JavaScript peers unavailable (%s): %v", what, err)
		}
		t.Skipf("SKIPPING %s: %v", what, err)
	}
	return node
}

// File is what a script printed for one file: its rows (one JSON line
// each) or the reader's error.
type File struct {
	Rows []json.RawMessage
	Err  string
}

// Run runs node ARGS... in Dir and returns the sections it printed,
// keyed by path. It fails the test when node fails or prints a line
// outside a section.
func Run(t testing.TB, node string, args ...string) map[string]*File {
	t.Helper()
	cmd, stderr := command(node, args...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	res, perr := Parse(out)
	_, _ = io.Copy(io.Discard, out)
	name := "node " + strings.Join(args, " ")
	if err := cmd.Wait(); err != nil {
		t.Fatalf("%s: %v\n%s", name, err, stderr.String())
	}
	if perr != nil {
		t.Fatalf("%s: %v", name, perr)
	}
	return res
}

// command returns the command running node ARGS... in Dir, its standard
// error going to the buffer returned.
func command(node string, args ...string) (*exec.Cmd, *bytes.Buffer) {
	cmd := exec.Command(node, args...)
	cmd.Dir = Dir
	stderr := &bytes.Buffer{}
	cmd.Stderr = stderr
	return cmd, stderr
}

// Parse reads the "#FILE path", rows, "#ERROR message", "#END" sections
// of a script's output, keyed by path.
func Parse(r io.Reader) (map[string]*File, error) {
	res := map[string]*File{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 256<<20)
	var cur *File
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "#FILE "):
			cur = &File{}
			res[strings.TrimPrefix(line, "#FILE ")] = cur
		case line == "#END":
			cur = nil
		case cur == nil:
			if line != "" {
				return nil, fmt.Errorf("line outside a #FILE section: %.200s", line)
			}
		case strings.HasPrefix(line, "#ERROR "):
			cur.Err = strings.TrimPrefix(line, "#ERROR ")
		default:
			cur.Rows = append(cur.Rows, json.RawMessage(line))
		}
	}
	return res, sc.Err()
}
