package genconf

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/pqgen/pqgen/gen"
	"github.com/pqgen/pqgen/peers/internal/nodejs"
	"github.com/pqgen/pqgen/runtime"
)

// Stages of the world-writer round trip beyond the corpus ones.
const (
	stageWriter = "writer"  // the JavaScript writer failed to write the file
	stageJSRows = "js-rows" // DuckDB cannot read the original, and parquetjs, hyparquet or parquet-wasm finds the copy differs
)

// worldExpected are the files of peers/js/writers.mjs that cannot pass
// yet, by file name: the stage each stops at and why. A listed file that
// passes, or fails at another stage, fails the test.
var worldExpected = map[string]struct{ stage, reason string }{
	"hyparquet_variant_shredded.parquet": {stageJSRows, "hyparquet-writer shreds Variant object fields as optional groups " +
		"(docs/DEVIATIONS.md), which DuckDB refuses; the copy has the required groups of the Variant shredding specification " +
		"(gen.FileSchema), with a missing field as a group whose value and typed_value are both null, which the specification " +
		"says is missing and DuckDB reads so ({'a': 2, 'b': b2} in row 2), but hyparquet reads as present and null"},
	"hyparquet_enum.parquet": {stageTypes, "the original has LogicalType ENUM without ConvertedType, which DuckDB reads as BLOB; the copy " +
		"writes both, as the format asks of writers, and DuckDB reads it as VARCHAR (the same strings)"},
}

// writtenFile is one line of writers.mjs.
type writtenFile struct {
	File      string `json:"file"`
	Writer    string `json:"writer"`
	Features  string `json:"features"`
	FooterKey string `json:"footerKey"`
	Error     string `json:"error"`
}

// TestWorldWritersRoundTrip is the "done when" of issue 13: the files
// DuckDB, Polars, parquet-wasm (arrow-rs), parquetjs and hyparquet-writer
// write with every feature they offer (peers/js/writers.mjs), and those
// arrow-go and parquet-go write (gowriters_test.go), are read by
// code `pqgen -from` generates for each, written back by it, and DuckDB
// finds each copy holds the original's rows and column types (parquetjs
// for its own files, else hyparquet, or else parquet-wasm, compares the
// rows where DuckDB cannot read the original). The files of one schema share one generated type; everything
// is built once and run once.
func TestWorldWritersRoundTrip(t *testing.T) {
	node := nodejs.Need(t, "the world-writer round trip (writes with DuckDB, Polars, parquet-wasm, parquetjs, hyparquet-writer)",
		"@duckdb/node-api", "nodejs-polars", "nodejs-polars-linux-x64-gnu", "parquet-wasm", "apache-arrow", "@dsnp/parquetjs", "hyparquet", "hyparquet-writer")
	start := time.Now()
	dir := t.TempDir()
	root := filepath.Join(dir, "in")
	written := append(runWriters(t, node, root), runGoWriters(t, root)...)
	writeTime := time.Since(start)

	// One generated type per distinct generated code.
	var entries []*entry
	files := map[string][]byte{}
	byCode := map[[32]byte]string{}
	var built []*entry
	writers := map[string]int{}
	writerOf := map[string]string{} // file → writer
	for _, w := range written {
		writerOf[w.File] = w.Writer
		e := &entry{rel: w.File, out: w.File}
		entries = append(entries, e)
		writers[w.Writer]++
		if w.Error != "" {
			e.stage, e.detail = stageWriter, w.Error
			continue
		}
		if w.FooterKey != "" {
			e.opts = []runtime.ReaderOption{runtime.WithFooterKey([]byte(w.FooterKey))}
			e.optsCode = fmt.Sprintf("runtime.WithFooterKey([]byte(%q))", w.FooterKey)
			e.duckKey = w.FooterKey
		}
		if e.stage, e.detail = generateShared(filepath.Join(root, w.File), e, byCode, files); e.stage != "" {
			continue
		}
		if w.Writer == "parquetjs" {
			// parquetjs, the judge of the files only it reads (below),
			// reads no DELTA_* or BYTE_STREAM_SPLIT pages, which pqgen
			// picks by trial for a chunk without a dictionary, whatever
			// its size: the copies of its files are written PLAIN.
			e.writeCode = plainColumns(t, filepath.Join(root, w.File))
		}
		built = append(built, e)
	}
	genTime := time.Since(start) - writeTime

	built, outDir, buildTime, runTime := buildAndRun(t, "world", dir, root, files, built)
	var jobs []nodejs.ExceptJob
	for _, e := range built {
		if e.stage == "" {
			jobs = append(jobs, nodejs.ExceptJob{Name: e.rel, A: filepath.Join(root, e.rel), B: filepath.Join(outDir, e.out), FooterKey: e.duckKey})
		}
	}
	// Controls: DuckDB, and below the JavaScript readers, see that a file
	// differs from the copy of the empty file of the same types (a
	// comparison that cannot fail fails the test).
	const control = "control: duckdb_snappy_v1.parquet vs the copy of duckdb_empty.parquet"
	full, empty := filepath.Join(root, "duckdb_snappy_v1.parquet"), filepath.Join(outDir, "duckdb_empty.parquet")
	jobs = append(jobs, nodejs.ExceptJob{Name: control, A: full, B: empty})
	duckStart := time.Now()
	duck := nodejs.Except(t, node, dir, jobs)
	if c := duck[control]; c.Error != "" || c.RowsA == 0 || c.RowsB != 0 || c.AMinusB != c.RowsA || c.BMinusA != 0 ||
		fmt.Sprint(c.TypesA) != fmt.Sprint(c.TypesB) {
		t.Errorf("%s: %+v, want the same types, rows in the first only", control, c)
	}
	delete(duck, control)
	duckVerdicts(t, built, duck)
	var hyp []*entry
	for _, e := range built {
		if e.stage == stageDuckA {
			hyp = append(hyp, e)
		}
	}
	duckTime := time.Since(duckStart)
	logSlowest(t, duck)
	// The files DuckDB cannot read are judged by parquetjs when it wrote
	// them (its reader is the one that knows its quirks, such as RLE
	// integers, which hyparquet misreads), else by hyparquet, or else by
	// parquet-wasm (arrow-rs): the original and the copy must give the
	// same canonical rows, as many as our reader read.
	for _, reader := range []string{"parquetjs", "hyparquet", "wasm"} {
		control := [2]string{"hyparquet_snappy.parquet", "hyparquet_empty.parquet"}
		judged, rest := hyp, []*entry(nil)
		if reader == "parquetjs" {
			control = [2]string{"parquetjs_rle.parquet", "parquetjs_bson.parquet"}
			judged = nil
			for _, e := range hyp {
				if writerOf[e.rel] == "parquetjs" {
					judged = append(judged, e)
				} else {
					rest = append(rest, e)
				}
			}
		}
		got := jsJudge(t, node, reader, root, outDir, judged, [2]string{filepath.Join(root, control[0]), filepath.Join(outDir, control[1])})
		if a, b := got[0], got[1]; a == nil || b == nil || a.Err != "" || len(a.Rows) == 0 || sameRows(a, b, len(a.Rows)) {
			t.Errorf("control: %s finds no difference between %s and the copy of %s", reader, control[0], control[1])
		}
		hyp = append(rest, unjudged(judged)...)
	}

	pass := verdicts(t, entries, worldExpected)
	names := map[string]bool{}
	for _, e := range entries {
		names[e.rel] = true
	}
	for f := range worldExpected {
		if !names[f] {
			t.Errorf("expected failure %s: writers.mjs wrote no such file", f)
		}
	}
	var ws []string
	for w, n := range writers {
		ws = append(ws, fmt.Sprintf("%s %d", w, n))
	}
	sort.Strings(ws)
	if len(writers) != 7 || len(entries) < 45 {
		t.Errorf("the writers wrote %d files (%s), want 7 writers and at least 45 files", len(entries), strings.Join(ws, ", "))
	}
	t.Logf("%d files (%s): %d pass, %d expected failures; %d generated types; write %v, generate %v, build %v, read+write %v, judge %v",
		len(entries), strings.Join(ws, ", "), pass, len(worldExpected), len(files), writeTime.Round(time.Millisecond), genTime.Round(time.Millisecond),
		buildTime.Round(time.Millisecond), runTime.Round(time.Millisecond), duckTime.Round(time.Millisecond))

	// Filtered reads of the same files: pruning on each writer's
	// statistics, page indexes and bloom filters must never drop a
	// matching row (runtime's TestFilterDir, random predicates checked
	// against the unfiltered rows).
	t.Run("filters", func(t *testing.T) { filterDir(t, root) })
}

// filterDir runs runtime's TestFilterDir on the files of root: random
// predicates, each read with filters and checked against the unfiltered
// rows that match.
func filterDir(t *testing.T, root string) {
	t.Helper()
	cmd := exec.Command("go", "test", "-count=1", "-v", "-run", "^TestFilterDir$", "github.com/pqgen/pqgen/runtime")
	cmd.Env = append(os.Environ(), "PQGEN_FILTER_DIR="+root)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("runtime's TestFilterDir on %s: %v\n%s", root, err, out)
	}
	for _, line := range strings.Split(string(out), "\n") {
		if strings.Contains(line, " predicates") {
			t.Log(strings.TrimSpace(line))
			return
		}
	}
	t.Fatalf("runtime's TestFilterDir reported no predicates:\n%s", out)
}

// jsJudge has reader (read.mjs) compare the original of each entry of
// judged (under root) with its copy (under outDir): they must give the
// same rows, as many as our reader read. An entry passes, or gets the
// js-rows verdict; one whose original the reader cannot read keeps its
// stage, the reader's error added to its detail (unjudged lists them). The
// files of control, read too, are returned.
func jsJudge(t *testing.T, node, reader, root, outDir string, judged []*entry, control [2]string) [2]*nodejs.File {
	t.Helper()
	args := []string{"read.mjs", reader}
	if control[0] != "" {
		args = append(args, control[0], control[1])
	}
	for _, e := range judged {
		args = append(args, filepath.Join(root, e.rel), filepath.Join(outDir, e.out))
	}
	got := nodejs.Run(t, node, args...)
	for _, e := range judged {
		a, b := got[filepath.Join(root, e.rel)], got[filepath.Join(outDir, e.out)]
		switch {
		case a == nil || b == nil:
			t.Fatalf("read.mjs %s printed nothing for %s", reader, e.rel)
		case a.Err != "":
			e.detail += fmt.Sprintf("; %s cannot read the original: %s", reader, a.Err)
		case !sameRows(a, b, e.rows):
			e.stage, e.detail = stageJSRows, fmt.Sprintf("DuckDB: %s; %s reads %d rows from the original, %d from the copy (our reader %d; error %q): %s",
				e.detail, reader, len(a.Rows), len(b.Rows), e.rows, b.Err, firstDiff(a.Rows, b.Rows))
		default:
			t.Logf("%s: DuckDB cannot read it (%s); %s finds the copy's %d rows equal", e.rel, firstLine(e.detail), reader, e.rows)
			e.stage, e.detail = stagePass, ""
		}
	}
	return [2]*nodejs.File{got[control[0]], got[control[1]]}
}

// unjudged returns the entries of judged still at the duckdb-read stage:
// those jsJudge's reader could not read.
func unjudged(judged []*entry) []*entry {
	var out []*entry
	for _, e := range judged {
		if e.stage == stageDuckA {
			out = append(out, e)
		}
	}
	return out
}

// plainColumns returns, as Go source for the driver, the writer options
// that write every leaf column of the file at path PLAIN when it falls
// back from its dictionary.
func plainColumns(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f, err := runtime.OpenFile(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	var code strings.Builder
	for _, l := range f.Schema.Leaves {
		fmt.Fprintf(&code, ", runtime.WithColumnEncoding(%q, meta.EncodingPlain)", l.PathString())
	}
	return code.String()
}

// generateShared gives entry e the generated type of the file at path:
// the type of an earlier file when the code generated for both is the
// same (byCode, by the hash of the code generated under a fixed name),
// or a new type named after the file, whose code goes into files. It
// returns the generate stage and the error when the generator fails.
func generateShared(path string, e *entry, byCode map[[32]byte]string, files map[string][]byte) (string, string) {
	p, err := gen.FromFile(path, "main", "Shape", e.opts...)
	if err != nil {
		return stageGenerate, err.Error()
	}
	out, err := gen.Generate(p, "shape.go")
	if err != nil {
		return stageGenerate, err.Error()
	}
	key := sha256.Sum256(out["shape.go"])
	if typ, ok := byCode[key]; ok {
		e.typ, e.file = typ, typ+".go"
		return "", ""
	}
	e.typ = typeName(strings.TrimSuffix(filepath.Base(path), ".parquet"))
	e.file = e.typ + ".go"
	if p, err = gen.FromFile(path, "main", e.typ, e.opts...); err != nil {
		return stageGenerate, err.Error()
	}
	if out, err = gen.Generate(p, e.file); err != nil {
		return stageGenerate, err.Error()
	}
	if _, dup := files[e.file]; dup {
		return stageGenerate, "a second type named " + e.typ
	}
	files[e.file] = out[e.file]
	byCode[key] = e.typ
	return "", ""
}

// runWriters runs writers.mjs into dir and returns the files it reports.
func runWriters(t *testing.T, node, dir string) []writtenFile {
	t.Helper()
	return parseWritten(t, "writers.mjs", nodejs.Output(t, node, "writers.mjs", dir))
}

// parseWritten parses the lines a writer script (script) printed.
func parseWritten(t *testing.T, script string, out []byte) []writtenFile {
	t.Helper()
	var res []writtenFile
	seen := map[string]bool{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		var w writtenFile
		if err := json.Unmarshal(sc.Bytes(), &w); err != nil {
			t.Fatalf("%s output %q: %v", script, sc.Text(), err)
		}
		if w.File == "" || seen[w.File] {
			t.Fatalf("%s: %s failed outside a file, or wrote a file twice: %s", script, w.Writer, sc.Text())
		}
		seen[w.File] = true
		res = append(res, w)
	}
	return res
}

// sameRows reports whether a reader read the same rows, as many as
// rows, from an original (a) and its copy (b).
func sameRows(a, b *nodejs.File, rows int) bool {
	return a.Err == "" && b.Err == "" && len(a.Rows) == rows && reflect.DeepEqual(a.Rows, b.Rows)
}

// firstDiff describes the first row where two row lists differ.
func firstDiff(a, b []json.RawMessage) string {
	for i := range min(len(a), len(b)) {
		if !bytes.Equal(a[i], b[i]) {
			return fmt.Sprintf("row %d: original %.300s, copy %.300s", i, a[i], b[i])
		}
	}
	return "one is a prefix of the other"
}
