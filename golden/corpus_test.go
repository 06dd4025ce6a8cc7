package golden

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pqgen/pqgen/gen"
	"github.com/pqgen/pqgen/internal/corpus"
	"github.com/pqgen/pqgen/runtime"
)

// corpusPackages runs gen.FromFile over every data/ file of the corpus,
// naming the types F<first>, F<first+1>, ... in package pkg. Files with
// an encrypted footer are counted and left out: -from without keys cannot
// read them (gen.TestFromFileEncryptedFooter covers the keyed path). Any
// other failure fails the test.
func corpusPackages(t *testing.T, pkg string, first int) (rels []string, pkgs []*gen.Package, encrypted int) {
	t.Helper()
	for _, rel := range corpus.ParquetFiles(t) {
		if !strings.HasPrefix(rel, "data/") {
			continue
		}
		p, err := gen.FromFile(corpus.Path(t, rel), pkg, fmt.Sprintf("F%d", first+len(pkgs)))
		if errors.Is(err, runtime.ErrEncryptedFooter) {
			encrypted++
			continue
		}
		if err != nil {
			t.Errorf("pqgen -from %s: %v", rel, err)
			continue
		}
		rels, pkgs = append(rels, rel), append(pkgs, p)
	}
	return rels, pkgs, encrypted
}

// TestCorpusFrom runs `pqgen -from` over every readable file of the corpus
// (every data/ file whose footer opens), compiles all the generated code
// as one package (type F<n> for the n-th file), and runs, in it, a test
// that reads every row of each file through the generated reader, writes
// the rows back with the generated writer, and reads them again: the two
// reads must be equal.
func TestCorpusFrom(t *testing.T) {
	const dir = "testdata/corpusall"
	var outs []output
	var cases []string
	rels, pkgs, encrypted := corpusPackages(t, "corpusall", 0)
	for i, rel := range rels {
		p, typ := pkgs[i], pkgs[i].Types[0].Name
		p.Args = "-from " + rel + " -package corpusall -type " + typ
		gen, err := gen.Generate(p, strings.ToLower(typ)+"_parquet.go")
		if err != nil {
			t.Errorf("pqgen -from %s: %v", rel, err)
			continue
		}
		for name, code := range gen {
			outs = append(outs, output{virtual: filepath.Join(dir, name), code: code})
		}
		cases = append(cases, rel)
	}
	t.Logf("%d corpus files generated, %d with encrypted footers left out", len(cases), encrypted)
	outs = append(outs, output{virtual: filepath.Join(dir, "read_test.go"), code: corpusReadTest(cases)})
	if testing.Short() {
		t.Skip("compiling generated code: skipped in -short mode")
	}
	bin := filepath.Join(t.TempDir(), "corpusall.test")
	compile(t, outs, "test", "-vet=off", "-c", "-o", bin)
	cmd := exec.Command(bin, "-test.v")
	cmd.Env = append(os.Environ(), "PARQUET_TEST_DATA="+corpusRoot(t))
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Errorf("reading the corpus through generated code failed: %v\n%s", err, out)
		return
	}
	t.Logf("%s", lastLines(string(out), 3))
}

func corpusRoot(t *testing.T) string {
	d, _ := corpus.Lookup()
	abs, err := filepath.Abs(d)
	if err != nil {
		t.Fatal(err)
	}
	return abs
}

func lastLines(s string, n int) string {
	ls := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(ls) > n {
		ls = ls[len(ls)-n:]
	}
	return strings.Join(ls, "\n")
}

// readFailures are corpus files whose rows the generated readers cannot
// read, with the reason (a runtime limitation or a deliberately broken
// file).
var readFailures = map[string]string{
	"data/encrypt_columns_plaintext_footer.parquet.encrypted": "the footer is plaintext but the columns are encrypted (runtime/crypt is not there yet)",
	"data/large_string_map.brotli.parquet":                    "a 1 GiB page, over the default WithMaxPageSize",
}

// corpusReadTest is the test file of the corpus package.
func corpusReadTest(cases []string) []byte {
	var b strings.Builder
	b.WriteString(`package corpusall

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/pqgen/pqgen/runtime"
)

func root() string { return os.Getenv("PARQUET_TEST_DATA") }

func numRows(t *testing.T, path string) int64 {
	f, fh, err := runtime.OpenPath(path)
	if err != nil {
		t.Fatal(err)
	}
	fh.Close()
	return f.Meta.NumRows
}

var opts = cmp.Options{cmpopts.EquateEmpty(), cmpopts.EquateNaNs()}
`)
	b.WriteString("\nfunc TestCorpus(t *testing.T) {\n")
	for i, rel := range cases {
		fmt.Fprintf(&b, `	t.Run(%[2]q, func(t *testing.T) {
		path := filepath.Join(root(), %[2]q)
`, i, rel)
		if why, ok := readFailures[rel]; ok {
			fmt.Fprintf(&b, "\t\tt.Skip(%q)\n", "known failure: "+why)
		}
		fmt.Fprintf(&b, `		rows, err := ReadF%[1]dFile(path)
		if err != nil {
			t.Fatalf("read: %%v", err)
		}
		if n := numRows(t, path); int64(len(rows)) != n {
			t.Fatalf("read %%d rows, the footer says %%d", len(rows), n)
		}
		out := filepath.Join(t.TempDir(), "back.parquet")
		if err := WriteF%[1]dFile(out, rows); err != nil {
			t.Fatalf("write back: %%v", err)
		}
		back, err := ReadF%[1]dFile(out)
		if err != nil {
			t.Fatalf("read back: %%v", err)
		}
		if d := cmp.Diff(rows, back, opts); d != "" {
			t.Fatalf("rows written back differ (-read +read back):\n%%s", d)
		}
	})
`, i, rel)
	}
	b.WriteString("}\n")
	return []byte(b.String())
}
