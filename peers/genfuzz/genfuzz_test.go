package genfuzz

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/pqgen/pqgen/gen"
)

// casesPath is the import path of the package the generated code of
// every schema goes into. It exists only in the build overlay.
const casesPath = "github.com/pqgen/pqgen/peers/genfuzz/internal/cases"

func envUint(t *testing.T, name string, def uint64) uint64 {
	s := os.Getenv(name)
	if s == "" {
		return def
	}
	v, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		t.Fatalf("%s=%q: %v", name, s, err)
	}
	return v
}

// TestGenFuzz generates the code of PQGEN_GENFUZZ_N (default 40) random
// schemas drawn from seeds PQGEN_GENFUZZ_SEED (default 1) onwards into
// one package, builds it with a test that runs Check on every type, and
// runs it. A failure names the seed that replays it alone.
func TestGenFuzz(t *testing.T) {
	if testing.Short() {
		t.Skip("genfuzz builds generated code: skipped in -short mode")
	}
	n := envUint(t, "PQGEN_GENFUZZ_N", 40)
	seed := envUint(t, "PQGEN_GENFUZZ_SEED", 1)
	start := time.Now()
	files := map[string][]byte{}
	var list, evols strings.Builder
	for i := range n {
		s := seed + i
		name := fmt.Sprintf("G%d", i)
		text := RandomSchema(s)
		p, err := gen.FromSchemaText(name+".schema", text, "cases", name)
		if err != nil {
			t.Errorf("seed %d: the generator rejects the schema: %v\n%s", s, err, text)
			continue
		}
		p.Path = casesPath
		out, err := gen.Generate(p, strings.ToLower(name)+".go")
		if err != nil {
			t.Errorf("seed %d: Generate: %v\n%s", s, err, text)
			continue
		}
		for f, b := range out {
			files[f] = b
		}
		fmt.Fprintf(&list, "\tgenfuzz.NewCase[%[1]s](%[1]q, %[2]d, pqgen%[1]sSchemaText, New%[1]sWriter, New%[1]sReader),\n", name, s)
		if i%2 != 0 {
			continue
		}
		// Evolution mode: the schema after a random compatible edit;
		// rows written as the old type read as the new one.
		etext, edits := EvolveSchema(s, text)
		ename := name + "E"
		ep, err := gen.FromSchemaText(ename+".schema", etext, "cases", ename)
		if err != nil {
			t.Errorf("seed %d: the generator rejects the evolved schema (%s): %v\n%s", s, strings.Join(edits, ", "), err, etext)
			continue
		}
		ep.Path = casesPath
		eout, err := gen.Generate(ep, strings.ToLower(ename)+".go")
		if err != nil {
			t.Errorf("seed %d: Generate (evolved): %v\n%s", s, err, etext)
			continue
		}
		for f, b := range eout {
			files[f] = b
		}
		fmt.Fprintf(&evols, "\t{Old: genfuzz.NewCase[%[1]s](%[1]q, %[3]d, pqgen%[1]sSchemaText, New%[1]sWriter, New%[1]sReader),\n\t\tNew: genfuzz.NewCase[%[2]s](%[2]q, %[3]d, pqgen%[2]sSchemaText, New%[2]sWriter, New%[2]sReader), Edits: %#[4]v},\n",
			name, ename, s, edits)
	}
	if len(files) == 0 {
		t.Fatal("no schema generated code")
	}
	files["cases_test.go"] = []byte(`package cases

import (
	"os"
	"testing"

	"github.com/pqgen/pqgen/peers/genfuzz"
)

var cases = []genfuzz.Case{
` + list.String() + `}

var evolutions = []genfuzz.Evolution{
` + evols.String() + `}

func TestEvolutions(t *testing.T) {
	for _, e := range evolutions {
		if err := genfuzz.CheckEvolution(e, genfuzz.RowsFor(e.Old.Seed)); err != nil {
			t.Error(err)
		}
	}
	t.Logf("genfuzz: %d evolutions checked", len(evolutions))
}

func TestCases(t *testing.T) {
	genfuzz.PairDir = os.Getenv("PQGEN_GENFUZZ_PAIRS")
	rows, res, err := genfuzz.RunCases(cases, func(err error) { t.Error(err) })
	if err != nil {
		t.Log(err)
	}
	t.Logf("genfuzz: %d schemas, %d rows, %d files, %d row groups, %d level slots compared with arrow-go",
		len(cases), rows, res.Files, res.RowGroups, res.Slots)
	if res.ArrowRetries > 0 {
		t.Logf("genfuzz: %d files written again by arrow-go without DELTA encodings after its encoder panicked", res.ArrowRetries)
	}
}
`)
	bin := build(t, files)
	generated := time.Since(start)
	// The pairs DuckDB compares go to PQGEN_GENFUZZ_PAIRS when set (kept
	// for a look), else to a directory removed after the test.
	pairs := os.Getenv("PQGEN_GENFUZZ_PAIRS")
	if pairs == "" {
		pairs = t.TempDir()
	}
	cmd := exec.Command(bin, "-test.v", "-test.run", "^(TestCases|TestEvolutions)$")
	cmd.Env = append(os.Environ(), "PQGEN_GENFUZZ_PAIRS="+pairs)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("seeds %d to %d: %v\n%s", seed, seed+n-1, err, out)
	}
	summary := ""
	for _, l := range strings.Split(string(out), "\n") {
		if strings.Contains(l, "genfuzz:") {
			summary += strings.TrimSpace(l) + " "
		}
	}
	t.Logf("seeds %d to %d: %s; generated and built in %v, checked in %v", seed, seed+n-1, summary,
		generated.Round(time.Millisecond), (time.Since(start) - generated).Round(time.Millisecond))
	checkPairs(t, pairs, int(n))
}

// build compiles the test binary of the cases package from files (by
// name) through a build overlay and returns its path.
func build(t *testing.T, files map[string][]byte) string {
	t.Helper()
	tmp := t.TempDir()
	dir, err := filepath.Abs(filepath.Join("internal", "cases"))
	if err != nil {
		t.Fatal(err)
	}
	replace := map[string]string{}
	for name, b := range files {
		real := filepath.Join(tmp, name)
		if err := os.WriteFile(real, b, 0o644); err != nil {
			t.Fatal(err)
		}
		replace[filepath.Join(dir, name)] = real
	}
	ov, err := json.Marshal(map[string]any{"Replace": replace})
	if err != nil {
		t.Fatal(err)
	}
	ovPath := filepath.Join(tmp, "overlay.json")
	if err := os.WriteFile(ovPath, ov, 0o644); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(tmp, "cases.test")
	cmd := exec.Command("go", "test", "-c", "-vet=off", "-overlay", ovPath, "-o", bin, "./internal/cases")
	if out, err := cmd.CombinedOutput(); err != nil {
		msg := string(out)
		for name := range files {
			msg = strings.ReplaceAll(msg, filepath.Join(tmp, name), name)
		}
		t.Fatalf("building the generated code: %v\n%s", err, msg)
	}
	return bin
}
