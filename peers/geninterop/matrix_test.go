package geninterop

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/parquet"
	acompress "github.com/apache/arrow-go/v18/parquet/compress"
	pgo "github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress/zstd"

	"github.com/pqgen/pqgen/runtime/schema"
)

// ourFile is a file written by a generated writer.
type ourFile struct {
	c     exampleCase
	typ   string // the type name exceptions use: c.Name(), or noBSON
	cfg   string
	path  string
	data  []byte
	s     *schema.Schema
	want  [][]any
	names []string
}

// writeOurFiles writes every example type in every configuration (or the
// first only) to dir.
func writeOurFiles(t *testing.T, dir string, all bool) []ourFile {
	t.Helper()
	var files []ourFile
	for _, c := range cases() {
		var want [][]any
		for k, cfg := range configs() {
			if k > 0 && !all {
				break
			}
			data, err := c.Write(cfg.opts...)
			if err != nil {
				t.Fatalf("%s/%s: %v", c.Name(), cfg.name, err)
			}
			s := fileSchema(t, data)
			if want == nil {
				want = canonRows(s, c.Rows())
			}
			var names []string
			for _, n := range s.Root.Children {
				names = append(names, n.Name)
			}
			p := filepath.Join(dir, c.Name()+"_"+cfg.name+".parquet")
			if err := os.WriteFile(p, data, 0o644); err != nil {
				t.Fatal(err)
			}
			files = append(files, ourFile{c, c.Name(), cfg.name, p, data, s, want, names})
		}
	}
	return files
}

// report records one cell of the matrix and fails the test with its
// complaints.
func report(t *testing.T, peer, dir, typ, cfg string, complaints []string, compared bool) {
	t.Helper()
	for _, m := range complaints {
		t.Errorf("%s, %s, %s/%s: %s", peer, dir, typ, cfg, m)
	}
	state := "pass"
	switch {
	case len(complaints) > 0:
		state = "FAIL"
	case !compared:
		state = "exception (whole file)"
	case len(fieldExceptions(peer, dir, typ)) > 0:
		state = "pass, with field exceptions"
	case findException(peer, dir, typ, "") != nil:
		state = "pass, with values adjusted"
	}
	t.Logf("%-8s %-16s %-8s %-8s %s", peer, dir, typ, cfg, state)
}

// TestPeersReadGeneratedFiles: files of the generated writers read by
// arrow-go, parquet-go, DuckDB and parquet-wasm give the rows written.
func TestPeersReadGeneratedFiles(t *testing.T) {
	dir := t.TempDir()
	files := writeOurFiles(t, dir, true)
	var jobs []map[string]any
	for _, f := range files {
		jobs = append(jobs, map[string]any{"path": f.path})
		rows, err := arrowRows(f.s, f.data, nil)
		check(t, "arrow-go", peerReads, f, rows, err)
		rows, err = pgoRows(f.s, f.data)
		check(t, "parquet-go", peerReads, f, rows, err)
	}
	stripped := noBSONFiles(t, files)
	for _, peer := range []string{"duckdb", "wasm"} {
		pfiles, pjobs := files, jobs
		if peer == "duckdb" {
			pfiles = append(pfiles[:len(pfiles):len(pfiles)], stripped...)
			for _, f := range stripped {
				pjobs = append(pjobs[:len(pjobs):len(pjobs)], map[string]any{"path": f.path})
			}
		}
		res := runJS(t, "read", peer, pjobs)
		for _, f := range pfiles {
			r := res[f.path]
			if r == nil {
				t.Errorf("%s: no output for %s", peer, f.path)
				continue
			}
			var err error
			if r.err != "" {
				err = errors.New(r.err)
			}
			check(t, peer, peerReads, f, r.rows, err)
		}
	}
}

// check compares a peer's rows (or error) for one of our files.
func check(t *testing.T, peer, dir string, f ourFile, rows [][]any, err error) {
	t.Helper()
	m, compare := checkFileError(peer, dir, f.typ, err)
	var complaints []string
	if m != "" {
		complaints = append(complaints, m)
	}
	if compare {
		complaints = append(complaints, compareRows(peer, dir, f.typ, f.want, rows, f.names)...)
	}
	report(t, peer, dir, f.typ, f.cfg, complaints, compare)
}

// TestGeneratedReadersReadPeerFiles: the peers read our file and write
// its rows with their own writers (arrow-go: pqarrow with the Arrow
// schema stored; parquet-go: its Writer with the file's schema; DuckDB:
// COPY ... TO; parquet-wasm: writeParquet), in two configurations each;
// the generated readers read those files as exactly the original rows.
func TestGeneratedReadersReadPeerFiles(t *testing.T) {
	dir := t.TempDir()
	files := writeOurFiles(t, dir, false)
	arrowProps := map[string]*parquet.WriterProperties{
		"default": parquet.NewWriterProperties(),
		"v2zstd": parquet.NewWriterProperties(parquet.WithDataPageVersion(parquet.DataPageV2),
			parquet.WithCompression(acompress.Codecs.Zstd), parquet.WithDictionaryDefault(false), parquet.WithMaxRowGroupLength(1000)),
	}
	pgoOpts := map[string][]pgo.WriterOption{
		"default": nil,
		"v2zstd":  {pgo.DataPageVersion(2), pgo.Compression(&zstd.Codec{}), pgo.PageBufferSize(4 << 10), pgo.MaxRowsPerRowGroup(1000)},
	}
	type peerFile struct {
		f   ourFile
		cfg string
	}
	byPath := map[string]peerFile{}
	var duckJobs, wasmJobs []map[string]any
	stripped := noBSONFiles(t, files)
	for _, f := range append(files, stripped...) {
		for _, cfg := range []string{"default", "v2zstd"} {
			d := filepath.Join(dir, fmt.Sprintf("%s_duckdb_%s.parquet", f.typ, cfg))
			byPath[d] = peerFile{f, cfg}
			dj := map[string]any{"src": f.path, "dst": d, "options": "COMPRESSION snappy"}
			if cfg == "v2zstd" {
				dj["options"] = "COMPRESSION zstd, ROW_GROUP_SIZE 1000, PARQUET_VERSION v2"
			}
			duckJobs = append(duckJobs, dj)
			if f.typ == noBSON {
				continue // a copy for DuckDB only
			}
			out, err := arrowRewrite(f.s, f.data, arrowProps[cfg])
			checkOurs(t, "arrow-go", f, cfg, out, err)
			out, err = pgoRewrite(f.data, pgoOpts[cfg]...)
			checkOurs(t, "parquet-go", f, cfg, out, err)

			w := filepath.Join(dir, fmt.Sprintf("%s_wasm_%s.parquet", f.typ, cfg))
			byPath[w] = peerFile{f, cfg}
			wj := map[string]any{"src": f.path, "dst": w}
			if cfg == "v2zstd" {
				wj["compression"], wj["version"], wj["dictionary"], wj["rowGroupSize"] = "ZSTD", 2, false, 1000
			}
			wasmJobs = append(wasmJobs, wj)
		}
	}
	for _, pj := range []struct {
		peer string
		jobs []map[string]any
	}{{"duckdb", duckJobs}, {"wasm", wasmJobs}} {
		res := runJS(t, "write", pj.peer, pj.jobs)
		for _, j := range pj.jobs {
			p := j["dst"].(string)
			pf, r := byPath[p], res[p]
			if r == nil {
				t.Errorf("%s: no output for %s", pj.peer, p)
				continue
			}
			if r.err != "" {
				checkOurs(t, pj.peer, pf.f, pf.cfg, nil, errors.New(r.err))
				continue
			}
			data, err := os.ReadFile(p)
			checkOurs(t, pj.peer, pf.f, pf.cfg, data, err)
		}
	}
}

// checkOurs reads a peer's file (or its error writing it) with the
// generated reader and compares the rows with the original ones.
func checkOurs(t *testing.T, peer string, f ourFile, cfg string, data []byte, err error) {
	t.Helper()
	var complaints []string
	e := findException(peer, peerWrites, f.typ, "")
	if e != nil && e.adjust != nil {
		// The peer changes some values: they must differ as documented,
		// and the rest must match.
		var diff string
		if err == nil {
			diff, err = f.c.Diff(data, nil)
		}
		if err == nil && diff == "" {
			complaints = append(complaints, "the peer keeps the values now: remove the exception ("+e.why+")")
		}
		if err == nil {
			diff, err = f.c.Diff(data, e.adjust)
		}
		if err != nil {
			complaints = append(complaints, err.Error())
		} else if diff != "" {
			complaints = append(complaints, diff)
		}
		report(t, peer, peerWrites, f.typ, cfg, complaints, true)
		return
	}
	var diff string
	if err == nil {
		diff, err = f.c.Diff(data, nil)
	}
	m, compare := checkFileError(peer, peerWrites, f.typ, err)
	if m != "" {
		complaints = append(complaints, m)
	}
	if diff != "" {
		complaints = append(complaints, diff)
	}
	report(t, peer, peerWrites, f.typ, cfg, complaints, compare)
}

// noBSONFiles returns copies of the Logical files without the BSON
// annotation (typ noBSON), written beside them.
func noBSONFiles(t *testing.T, files []ourFile) []ourFile {
	t.Helper()
	var out []ourFile
	for _, f := range files {
		if f.typ != "Logical" {
			continue
		}
		data, err := stripAnnotation(f.data, "bson")
		if err != nil {
			t.Fatal(err)
		}
		g := f
		g.typ, g.data, g.path = noBSON, data, strings.TrimSuffix(f.path, ".parquet")+"_nobson.parquet"
		if err := os.WriteFile(g.path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		out = append(out, g)
	}
	return out
}
