package gen

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDefaultTagErrors: default(...) applies to required top-level
// scalars of integer, float, bool and string types, with a value of the
// field's type; anything else is an error at the field's line.
func TestDefaultTagErrors(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"type T struct {\n\tA int8 `parquet:\"a,default(300)\"`\n}", "x.go:4: field A: default(300): strconv.ParseInt: parsing \"300\": value out of range"},
		{"type T struct {\n\tA uint16 `parquet:\"a,default(-1)\"`\n}", "x.go:4: field A: default(-1)"},
		{"type T struct {\n\tA bool `parquet:\"a,default(yes)\"`\n}", "x.go:4: field A: default(yes)"},
		{"type T struct {\n\tA *int32 `parquet:\"a,default(1)\"`\n}", "x.go:4: field A: default(...) is for required top-level scalar fields"},
		{"type T struct {\n\tA int32 `parquet:\"a,optional,default(1)\"`\n}", "x.go:4: field A: default(...) is for required top-level scalar fields"},
		{"type T struct {\n\tA []int32 `parquet:\"a,default(1)\"`\n}", "x.go:4: field A: default(...) is for required top-level scalar fields"},
		{"type T struct {\n\tS struct {\n\t\tA int32 `parquet:\"a,default(1)\"`\n\t}\n}", "x.go:5: field A: default(...) is for required top-level scalar fields"},
		{"type T struct {\n\tA [4]byte `parquet:\"a,default(1)\"`\n}", "x.go:4: field A: default(1): defaults are for integers, floats, bools and strings"},
		{"type T struct {\n\tA int32 `parquet:\"a,default\"`\n}", "x.go:4: field A: tag"},
	} {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module x\n\ngo 1.26\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "x.go"), []byte("package x\n\n"+c.src+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := LoadGo(dir, []string{"T"})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s:\nerror %v\nwant one containing %q", c.src, err, c.want)
		}
	}
}
