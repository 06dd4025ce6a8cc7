package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pqgen/pqgen/examples/evolution"
)

// TestCheck: pqgen check prints per column how a FlatV1 file reads into
// FlatV2 (and exits 0), and into Narrow16 (exit 1, the column named).
func TestCheck(t *testing.T) {
	var buf bytes.Buffer
	w, err := evolution.NewFlatV1Writer(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write([]evolution.FlatV1{{JSON: "{}"}}); err != nil { // "" is not JSON
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "v1.parquet")
	if err := os.WriteFile(file, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join("..", "..", "examples", "evolution")
	var out, errOut bytes.Buffer
	if code := run([]string{"check", "-type", "FlatV2", "-dir", dir, file}, &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s%s", code, out.String(), errOut.String())
	}
	fields := map[string][]string{}
	for _, line := range strings.Split(out.String(), "\n")[1:] {
		if f := strings.Fields(line); len(f) > 2 {
			fields[f[1]] = f
		}
	}
	if !strings.HasPrefix(out.String(), file+": reads into FlatV2\n") {
		t.Errorf("first line: %q", strings.SplitN(out.String(), "\n", 2)[0])
	}
	for path, want := range map[string]string{
		"i8":       "converted i8 int32 (INT(8,true)) int32 (INT(16,true))",
		"i32":      "converted i32 int32 int64",
		"enum":     "converted enum binary (ENUM) binary (JSON)",
		"json":     "converted json binary (JSON) binary (STRING)",
		"f32":      "converted f32 float double",
		"req":      "converted req int64 int64 req is required in the file, optional in the type",
		"new_name": "match new_name int32 int32 (file column old_name)",
		"added":    "missing added - int32",
		"dropped":  "skipped dropped binary (STRING) -",
	} {
		if got := strings.Join(fields[path], " "); got != want {
			t.Errorf("%s: %q, want %q", path, got, want)
		}
	}
	out.Reset()
	if code := run([]string{"check", "-type", "Narrow16", "-dir", dir, file}, &out, &errOut); code != 1 {
		t.Fatalf("Narrow16: exit %d, want 1: %s", code, out.String())
	}
	if s := out.String(); !strings.Contains(s, "does not read into Narrow16") ||
		!strings.Contains(s, `schema mismatch: column "i32": int32 in the file, int32 (INT(16,true)) requested`) ||
		!strings.Contains(strings.Join(strings.Fields(s), " "), "incompatible i32 int32 int32 (INT(16,true))") {
		t.Errorf("Narrow16:\n%s", s)
	}
}
