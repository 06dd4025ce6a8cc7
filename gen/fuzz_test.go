package gen

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pqgen/pqgen/runtime/schema"
)

// FuzzSchemaText checks that any schema text the parser accepts either
// generates gofmt'd code or fails with a positioned error, never panics.
func FuzzSchemaText(f *testing.F) {
	seeds, _ := filepath.Glob("../golden/testdata/schema/*.schema")
	for _, s := range seeds {
		b, err := os.ReadFile(s)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(b))
	}
	f.Add("message m { optional group a (LIST) { repeated group b { optional int32 c; } } }")
	f.Add("message m { repeated group a (MAP) { repeated group kv { required binary k; } } }")
	f.Fuzz(func(t *testing.T, text string) {
		if _, err := schema.Parse(text); err != nil {
			return
		}
		p, err := FromSchemaText("f.schema", text, "p", "Row")
		if err != nil {
			if !strings.HasPrefix(err.Error(), "f.schema") {
				t.Fatalf("error without position: %v", err)
			}
			return
		}
		if _, err := Generate(p, ""); err != nil {
			t.Fatalf("Generate: %v", err)
		}
	})
}
