package interop

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/pqgen/pqgen/runtime/schema"
)

// matrixFile is one file of the writer matrix (write_test.go) on disk.
type matrixFile struct {
	c    config
	path string
	data []byte
	ds   *dataset
	want [][]any // canonical rows
}

var (
	matrixOnce  sync.Once
	matrixFiles []matrixFile
	matrixDir   string
	matrixErr   error
)

// writeMatrixFiles writes every configuration of matrix() once per test
// binary to a temporary folder (removed by TestMain) and assembles the
// rows each holds.
func writeMatrixFiles(t *testing.T) []matrixFile {
	t.Helper()
	matrixOnce.Do(func() {
		matrixDir, matrixErr = os.MkdirTemp("", "pqgen-interop-")
		if matrixErr != nil {
			return
		}
		s, err := schema.Parse(testSchema)
		if err != nil {
			matrixErr = err
			return
		}
		for _, c := range matrix() {
			data, ds := writeDataset(t, c)
			path := filepath.Join(matrixDir, strings.ReplaceAll(c.name, "/", "_")+".parquet")
			if err := os.WriteFile(path, data, 0o644); err != nil {
				matrixErr = err
				return
			}
			cols := make([]got, numCols)
			for i := range cols {
				cols[i] = got{def: ds.cols[i].def, rep: ds.cols[i].rep, vals: ds.cols[i].vals}
			}
			want, err := assemble(s, cols)
			if err != nil {
				matrixErr = err
				return
			}
			matrixFiles = append(matrixFiles, matrixFile{c: c, path: path, data: data, ds: ds, want: want})
		}
	})
	if matrixErr != nil {
		t.Fatal(matrixErr)
	}
	return matrixFiles
}

func TestMain(m *testing.M) {
	code := m.Run()
	if matrixDir != "" {
		os.RemoveAll(matrixDir)
	}
	os.Exit(code)
}

// checkJSReader has one JavaScript reader read every file of the matrix
// in one node process and compares each row with what was written.
// exclude, when set, names the top-level columns the reader cannot read
// in a file (a known peer limitation; the other columns are compared).
func checkJSReader(t *testing.T, reader string, o cmpOpts, exclude func(f matrixFile) []string) {
	needNode(t)
	files := writeMatrixFiles(t)
	s, _ := schema.Parse(testSchema)
	names := topNames(s)
	args := []string{reader}
	excl := make([][]string, len(files))
	for i, f := range files {
		if exclude != nil {
			excl[i] = exclude(f)
			args = append(args, "--exclude="+strings.Join(excl[i], ","))
		}
		args = append(args, f.path)
	}
	out := runJS(t, "read.mjs", args...)
	o.used = &relaxed{}
	same, partial := 0, 0
	for i, f := range files {
		t.Run(f.c.name, func(t *testing.T) {
			want, cols := f.want, names
			if len(excl[i]) > 0 {
				want, cols = project(f.want, names, excl[i])
				partial++
			}
			if compareRows(t, reader, filepath.Base(f.path), out[f.path], want, cols, o) == 0 {
				same++
			}
		})
	}
	o.checkUsed(t, reader)
	t.Logf("%s: %d of %d configurations read identically (%d rows each; %d without the columns it cannot read)",
		reader, same, len(files), len(files[0].want), partial)
}

// project leaves the columns named in drop out of rows.
func project(rows [][]any, names, drop []string) ([][]any, []string) {
	var keep []int
	var kept []string
	for i, n := range names {
		if !slices.Contains(drop, n) {
			keep = append(keep, i)
			kept = append(kept, n)
		}
	}
	out := make([][]any, len(rows))
	for r, row := range rows {
		for _, i := range keep {
			out[r] = append(out[r], row[i])
		}
	}
	return out, kept
}

// TestWasmReadsOurFiles: parquet-wasm (arrow-rs) reads every file of the
// writer matrix with the values written.
func TestWasmReadsOurFiles(t *testing.T) {
	checkJSReader(t, "wasm", cmpOpts{}, nil)
}

// TestHyparquetReadsOurFiles: hyparquet reads every file of the writer
// matrix with the values written (decimals within float64 precision:
// hyparquet returns them as JS numbers).
func TestHyparquetReadsOurFiles(t *testing.T) {
	checkJSReader(t, "hyparquet", cmpOpts{lossyDecimal: true}, nil)
}

// TestAssembleMatrixSelf: the row assembly used by the JavaScript checks
// agrees with our own reader on a matrix file (a check of the harness).
func TestAssembleMatrixSelf(t *testing.T) {
	c := matrix()[5]
	data, ds := writeDataset(t, c)
	r := openOwn(t, data)
	cols, err := readAllPlain(r)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := assemble(r.File().Schema, cols)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != ds.rows {
		t.Fatalf("%d rows, want %d", len(rows), ds.rows)
	}
	// Row 3 has a null name; some row has an empty or null tag list.
	if rows[3][cName] != nil {
		t.Errorf("row 3 name %v, want null", rows[3][cName])
	}
	var empty, null bool
	for _, row := range rows {
		switch v := row[cTags].(type) {
		case nil:
			null = true
		case []any:
			empty = empty || len(v) == 0
		}
	}
	if !empty || !null {
		t.Errorf("no empty (%v) or null (%v) tag list", empty, null)
	}
}
