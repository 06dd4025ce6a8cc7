package golden

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
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
	return corpusPackagesWith(t, pkg, first, gen.Options{})
}

// corpusPackagesWith is corpusPackages with the generator's options.
func corpusPackagesWith(t *testing.T, pkg string, first int, opts gen.Options) (rels []string, pkgs []*gen.Package, encrypted int) {
	t.Helper()
	for _, rel := range corpus.ParquetFiles(t) {
		if !strings.HasPrefix(rel, "data/") {
			continue
		}
		p, err := gen.FromFileWith(corpus.Path(t, rel), pkg, fmt.Sprintf("F%d", first+len(pkgs)), opts)
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
	corpusRoundTrip(t, gen.Options{}, "", nil)
}

// TestCorpusFromDecimalType is TestCorpusFrom with -decimal=type and
// -initialisms=false, over the corpus files with DECIMAL columns that
// become runtime.Decimal fields: every decimal value read, written back
// and read again.
func TestCorpusFromDecimalType(t *testing.T) {
	opts := gen.Options{Decimal: gen.DecimalType, PlainNames: true}
	cases := corpusRoundTrip(t, opts, " -decimal type -initialisms=false", func(p *gen.Package) bool {
		src, err := gen.Generate(p, "x.go")
		return err == nil && strings.Contains(string(src["x.go"]), "pqrt.Decimal")
	})
	// The corpus's INT32, INT64 and FIXED_LEN_BYTE_ARRAY decimals
	// (byte_array_decimal.parquet stays []byte).
	want := []string{"data/fixed_length_decimal.parquet", "data/fixed_length_decimal_legacy.parquet",
		"data/int32_decimal.parquet", "data/int64_decimal.parquet"}
	if !slices.Equal(cases, want) {
		t.Errorf("files with runtime.Decimal fields: %q, want %q", cases, want)
	}
}

// corpusRoundTrip generates code for the corpus files (those keep accepts,
// all when nil) with opts, and reads, writes back and reads again every
// file through it; args are the flags recorded for opts. It returns the
// files.
func corpusRoundTrip(t *testing.T, opts gen.Options, args string, keep func(*gen.Package) bool) []string {
	const dir = "testdata/corpusall"
	var outs []output
	var cases, types []string
	rels, pkgs, encrypted := corpusPackagesWith(t, "corpusall", 0, opts)
	for i, rel := range rels {
		p, typ := pkgs[i], pkgs[i].Types[0].Name
		if keep != nil && !keep(p) {
			continue
		}
		p.Args = "-from " + rel + " -package corpusall -type " + typ + args
		gen, err := gen.Generate(p, strings.ToLower(typ)+"_parquet.go")
		if err != nil {
			t.Errorf("pqgen -from %s: %v", rel, err)
			continue
		}
		for name, code := range gen {
			outs = append(outs, output{virtual: filepath.Join(dir, name), code: code})
		}
		cases, types = append(cases, rel), append(types, typ)
	}
	t.Logf("%d corpus files generated, %d with encrypted footers left out", len(cases), encrypted)
	outs = append(outs, output{virtual: filepath.Join(dir, "read_test.go"), code: corpusReadTest(cases, types)})
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
		return cases
	}
	t.Logf("%s", lastLines(string(out), 3))
	return cases
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
	"data/encrypt_columns_plaintext_footer.parquet.encrypted": "the footer is plaintext and the columns are encrypted with keys ReadTFile is not given",
	"data/large_string_map.brotli.parquet":                    "a 1 GiB page, over the default WithMaxPageSize",
}

// corpusDeviations are corpus files whose reading meets a deviation from
// the specification: the kind the generated reader's Deviations must list
// first.
var corpusDeviations = map[string]string{
	"data/dict-page-offset-zero.parquet": string(runtime.DeviationDictionaryOffsetZero),
}

// corpusReadTest is the test file of the corpus package: a subtest per
// file cases[i], read with the generated code of type types[i].
func corpusReadTest(cases, types []string) []byte {
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
		fmt.Fprintf(&b, `		rows, err := Read%[1]sFile(path)
		if err != nil {
			t.Fatalf("read: %%v", err)
		}
		if n := numRows(t, path); int64(len(rows)) != n {
			t.Fatalf("read %%d rows, the footer says %%d", len(rows), n)
		}
		out := filepath.Join(t.TempDir(), "back.parquet")
		if err := Write%[1]sFile(out, rows); err != nil {
			t.Fatalf("write back: %%v", err)
		}
		back, err := Read%[1]sFile(out)
		if err != nil {
			t.Fatalf("read back: %%v", err)
		}
		if d := cmp.Diff(rows, back, opts); d != "" {
			t.Fatalf("rows written back differ (-read +read back):\n%%s", d)
		}
`, types[i], rel)
		if kind, ok := corpusDeviations[rel]; ok {
			fmt.Fprintf(&b, `		in, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		defer in.Close()
		st, err := in.Stat()
		if err != nil {
			t.Fatal(err)
		}
		r, err := New%[1]sReader(in, st.Size())
		if err != nil {
			t.Fatal(err)
		}
		for _, err := range r.All() {
			if err != nil {
				t.Fatal(err)
			}
		}
		if devs := r.Deviations(); len(devs) == 0 || string(devs[0].Kind) != %[2]q {
			t.Fatalf("Deviations() = %%v, want %[2]s first", devs)
		}
`, types[i], kind)
		}
		b.WriteString("\t})\n")
	}
	b.WriteString("}\n")
	return []byte(b.String())
}
