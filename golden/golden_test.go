package golden

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/pqgen/pqgen/gen"
	"github.com/pqgen/pqgen/internal/corpus"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// output is generated code: where it is compiled (an overlay path inside
// the module) and its golden file.
type output struct {
	virtual string // path the go command sees it at (overlay)
	golden  string // path of the golden file ("" for none)
	code    []byte
}

// goCases generates the code of every Go package under testdata/go, with
// the arguments of its //go:generate pqgen line.
func goCases(t *testing.T) []output {
	dirs, err := filepath.Glob("testdata/go/*")
	if err != nil {
		t.Fatal(err)
	}
	var outs []output
	for _, dir := range dirs {
		args := generateArgs(t, dir)
		types, out := "", ""
		for i := 0; i+1 < len(args); i += 2 {
			switch args[i] {
			case "-type":
				types = args[i+1]
			case "-o":
				out = args[i+1]
			}
		}
		p, err := gen.LoadGo(dir, strings.Split(types, ","))
		if err != nil {
			t.Fatalf("%s: %v", dir, err)
		}
		p.Args = strings.Join(args, " ")
		files, err := gen.Generate(p, out)
		if err != nil {
			t.Fatalf("%s: %v", dir, err)
		}
		for name, code := range files {
			outs = append(outs, output{virtual: filepath.Join(dir, name), golden: filepath.Join(dir, name+".golden"), code: code})
		}
	}
	return outs
}

var generateLine = regexp.MustCompile(`(?m)^//go:generate pqgen (.*)$`)

func generateArgs(t *testing.T, dir string) []string {
	files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if m := generateLine.FindSubmatch(b); m != nil {
			return strings.Fields(string(m[1]))
		}
	}
	t.Fatalf("%s: no //go:generate pqgen line", dir)
	return nil
}

// schemaCases generates a package from every testdata/schema/*.schema.
func schemaCases(t *testing.T) []output {
	files, err := filepath.Glob("testdata/schema/*.schema")
	if err != nil {
		t.Fatal(err)
	}
	var outs []output
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".schema")
		text, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		pkg := "s" + strings.ReplaceAll(name, "-", "_")
		// decimal_type*.schema are generated with -decimal=type.
		var opts gen.Options
		args := ""
		if strings.HasPrefix(name, "decimal_type") {
			opts.Decimal, args = gen.DecimalType, " -decimal type"
		}
		p, err := gen.FromSchemaTextWith(filepath.Base(f), string(text), pkg, "", opts)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		p.Args = "-schema " + filepath.Base(f) + " -package " + pkg + " -o " + name + ".go" + args
		files, err := gen.Generate(p, name+".go")
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		outs = append(outs, output{virtual: filepath.Join("testdata/schema", pkg, name+".go"), golden: filepath.Join("testdata/schema", name+".go.golden"), code: files[name+".go"]})
	}
	return outs
}

// goldenCorpus are the corpus files whose generated code is kept as golden
// files: flat, nested, legacy-layout and logical-type schemas.
var goldenCorpus = []string{
	"data/alltypes_plain.parquet",
	"data/nested_lists.snappy.parquet",
	"data/repeated_primitive_no_list.parquet",
	"data/null_list.parquet",
	"data/large_string_map.brotli.parquet",
	"data/old_list_structure.parquet",
	"data/map_no_value.parquet",
	"data/nullable.impala.parquet",
	"data/list_columns.parquet",
	"data/int96_from_spark.parquet",
	"data/fixed_length_decimal_legacy.parquet",
}

func corpusCases(t *testing.T) []output {
	if _, ok := corpus.Optional(t); !ok {
		return nil
	}
	var outs []output
	for _, rel := range goldenCorpus {
		path := corpus.Path(t, rel)
		if _, err := os.Stat(path); err != nil {
			// The corpus is there but a file of goldenCorpus is not: its
			// golden file would go unchecked.
			t.Errorf("%s: %v", rel, err)
			continue
		}
		name := strings.TrimSuffix(filepath.Base(rel), ".parquet")
		name = strings.TrimSuffix(strings.TrimSuffix(name, ".snappy"), ".brotli")
		pkg := "c" + strings.NewReplacer("-", "_", ".", "_").Replace(name)
		p, err := gen.FromFile(path, pkg, "")
		if err != nil {
			t.Fatalf("%s: %v", rel, err)
		}
		p.Args = "-from " + rel + " -package " + pkg + " -o " + name + ".go"
		files, err := gen.Generate(p, name+".go")
		if err != nil {
			t.Fatalf("%s: %v", rel, err)
		}
		outs = append(outs, output{virtual: filepath.Join("testdata/corpus", pkg, name+".go"), golden: filepath.Join("testdata/corpus", name+".go.golden"), code: files[name+".go"]})
	}
	return outs
}

func TestGolden(t *testing.T) {
	var outs []output
	outs = append(outs, goCases(t)...)
	outs = append(outs, schemaCases(t)...)
	outs = append(outs, corpusCases(t)...)
	for _, o := range outs {
		if *update {
			if err := os.WriteFile(o.golden, o.code, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(o.golden)
		if err != nil {
			t.Errorf("%v (run go test ./golden -update)", err)
			continue
		}
		if !bytes.Equal(want, o.code) {
			t.Errorf("%s differs from the generated code (run go test ./golden -update and review the diff):\n%s", o.golden, firstDiff(want, o.code))
		}
	}
	// Packages of their own exist only in the overlay: go vet cannot run
	// in them, go build can.
	var real, virtual []output
	for _, o := range outs {
		if _, err := os.Stat(filepath.Dir(o.virtual)); err == nil {
			real = append(real, o)
		} else {
			virtual = append(virtual, o)
		}
	}
	compile(t, real, "vet")
	compile(t, virtual, "build")
}

// firstDiff shows the first differing line.
func firstDiff(a, b []byte) string {
	al, bl := strings.Split(string(a), "\n"), strings.Split(string(b), "\n")
	for i := 0; i < len(al) || i < len(bl); i++ {
		var x, y string
		if i < len(al) {
			x = al[i]
		}
		if i < len(bl) {
			y = bl[i]
		}
		if x != y {
			return "line " + itoa(i+1) + ":\n  golden:    " + x + "\n  generated: " + y
		}
	}
	return "(no line differs)"
}

func itoa(i int) string {
	var b [20]byte
	n := len(b)
	for {
		n--
		b[n] = byte('0' + i%10)
		i /= 10
		if i == 0 {
			break
		}
	}
	return string(b[n:])
}

// compile runs `go <verb>` (vet, or test) over the packages of outs, with
// the generated files laid over the tree.
func compile(t *testing.T, outs []output, verb string, extra ...string) string {
	t.Helper()
	if testing.Short() {
		t.Skip("compiling generated code: skipped in -short mode")
	}
	out, err := tryCompile(t, outs, verb, extra...)
	if err != nil {
		t.Fatalf("go %s of the generated code failed: %v\n%s", verb, err, head(out, 60))
	}
	return out
}

// tryCompile is compile returning the go command's failure.
func tryCompile(t *testing.T, outs []output, verb string, extra ...string) (string, error) {
	t.Helper()
	tmp := t.TempDir()
	overlay := map[string]map[string]string{"Replace": {}}
	pkgs := map[string]bool{}
	for i, o := range outs {
		abs, err := filepath.Abs(o.virtual)
		if err != nil {
			t.Fatal(err)
		}
		f := filepath.Join(tmp, itoa(i)+".go")
		if err := os.WriteFile(f, o.code, 0o644); err != nil {
			t.Fatal(err)
		}
		overlay["Replace"][abs] = f
		pkgs["./"+filepath.ToSlash(filepath.Dir(o.virtual))] = true
	}
	ov := filepath.Join(tmp, "overlay.json")
	b, _ := json.Marshal(overlay)
	if err := os.WriteFile(ov, b, 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{verb, "-overlay", ov}
	args = append(args, extra...)
	var list []string
	for p := range pkgs {
		list = append(list, p)
	}
	sort.Strings(list)
	args = append(args, list...)
	cmd := exec.Command("go", args...)
	out, err := cmd.CombinedOutput()
	// Map overlay temp names back to the virtual paths in messages.
	msg := string(out)
	for i, o := range outs {
		msg = strings.ReplaceAll(msg, filepath.Join(tmp, itoa(i)+".go"), o.virtual)
	}
	return msg, err
}

func head(s string, n int) string {
	var b strings.Builder
	sc := bufio.NewScanner(strings.NewReader(s))
	for i := 0; sc.Scan() && i < n; i++ {
		b.WriteString(sc.Text())
		b.WriteByte('\n')
	}
	return b.String()
}
