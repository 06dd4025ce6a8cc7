package golden

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pqgen/pqgen/gen"
	"github.com/pqgen/pqgen/runtime"
)

// TestStaleGuard changes the struct a file was generated from (a tag, a
// field type, a new field) and checks that the generated file then fails
// to compile, at its guard.
func TestStaleGuard(t *testing.T) {
	if testing.Short() {
		t.Skip("compiling generated code: skipped in -short mode")
	}
	const dir = "testdata/go/flat"
	p, err := gen.LoadGo(dir, []string{"Event"})
	if err != nil {
		t.Fatal(err)
	}
	files, err := gen.Generate(p, "")
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile(filepath.Join(dir, "flat.go"))
	if err != nil {
		t.Fatal(err)
	}
	generated := output{virtual: filepath.Join(dir, "event_parquet.go"), code: files["event_parquet.go"]}
	for name, edit := range map[string][3]string{
		"tag":   {"`parquet:\"score\"`", "`parquet:\"score2\"`", "cannot use Event{}"},
		"type":  {"Ratio    float32", "Ratio    float64", "cannot use Event{}"},
		"field": {"internal int", "internal int\n\tAdded    int", "cannot use Event{}"},
		// A named type keeps its name in the struct guard: its own guard
		// catches a change of its underlying type, which the generated
		// conversions (int16(x), Level(v)) would otherwise follow silently.
		"underlying":       {"type Level int16", "type Level int32", "cannot convert (*Level)(nil)"},
		"underlying slice": {"type Blob []byte", "type Blob string", "cannot convert (*Blob)(nil)"},
	} {
		changed := strings.Replace(string(src), edit[0], edit[1], 1)
		if changed == string(src) {
			t.Fatalf("%s: the edit %q does not apply to flat.go", name, edit[0])
		}
		out, err := tryCompile(t, []output{generated, {virtual: filepath.Join(dir, "flat.go"), code: []byte(changed)}}, "build")
		if err == nil {
			t.Errorf("%s: the generated code still compiles after the struct changed", name)
			continue
		}
		if !strings.Contains(out, "event_parquet.go") || !strings.Contains(out, edit[2]) {
			t.Errorf("%s: the build failed elsewhere than at the guard:\n%s", name, out)
		}
	}
}

// TestStaleGuardEmbedded changes a struct embedded into the row type.
func TestStaleGuardEmbedded(t *testing.T) {
	if testing.Short() {
		t.Skip("compiling generated code: skipped in -short mode")
	}
	const dir = "testdata/go/embedded"
	p, err := gen.LoadGo(dir, []string{"Row"})
	if err != nil {
		t.Fatal(err)
	}
	files, err := gen.Generate(p, "row_gen.go")
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile(filepath.Join(dir, "embedded.go"))
	if err != nil {
		t.Fatal(err)
	}
	changed := strings.Replace(string(src), "Version int32", "Version int64", 1)
	if changed == string(src) {
		t.Fatal("the edit does not apply to embedded.go")
	}
	out, err := tryCompile(t, []output{{virtual: filepath.Join(dir, "row_gen.go"), code: files["row_gen.go"]}, {virtual: filepath.Join(dir, "embedded.go"), code: []byte(changed)}}, "build")
	if err == nil {
		t.Fatal("the generated code still compiles after the embedded struct changed")
	}
	if !strings.Contains(out, "cannot use Base{}") {
		t.Errorf("the build failed elsewhere than at the guard:\n%s", out)
	}
}

// TestVersionGuard: a generated file whose generated-code version the
// runtime does not support (too old or too new) fails to compile at its
// version guard.
func TestVersionGuard(t *testing.T) {
	if testing.Short() {
		t.Skip("compiling generated code: skipped in -short mode")
	}
	const dir = "testdata/go/flat"
	p, err := gen.LoadGo(dir, []string{"Event"})
	if err != nil {
		t.Fatal(err)
	}
	files, err := gen.Generate(p, "")
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile(filepath.Join(dir, "flat.go"))
	if err != nil {
		t.Fatal(err)
	}
	code := string(files["event_parquet.go"])
	if _, err := tryCompile(t, []output{{virtual: filepath.Join(dir, "event_parquet.go"), code: []byte(code)}, {virtual: filepath.Join(dir, "flat.go"), code: src}}, "build"); err != nil {
		t.Fatalf("the generated code does not compile as generated: %v", err)
	}
	v := runtime.GenVersion
	for name, edit := range map[string][2]string{
		"older than the runtime supports": {fmt.Sprintf("EnforceVersion(%d - pqrt.MinGenVersion)", v), fmt.Sprintf("EnforceVersion(%d - pqrt.MinGenVersion)", runtime.MinGenVersion-1)},
		"newer than the runtime":          {fmt.Sprintf("EnforceVersion(pqrt.GenVersion - %d)", v), fmt.Sprintf("EnforceVersion(pqrt.GenVersion - %d)", v+1)},
	} {
		changed := strings.Replace(code, edit[0], edit[1], 1)
		if changed == code {
			t.Fatalf("%s: the edit %q does not apply to the generated code", name, edit[0])
		}
		out, err := tryCompile(t, []output{{virtual: filepath.Join(dir, "event_parquet.go"), code: []byte(changed)}, {virtual: filepath.Join(dir, "flat.go"), code: src}}, "build")
		if err == nil {
			t.Errorf("%s: the generated code compiles", name)
			continue
		}
		if !strings.Contains(out, "event_parquet.go") || !strings.Contains(out, "overflows") {
			t.Errorf("%s: the build failed elsewhere than at the version guard:\n%s", name, out)
		}
	}
}
