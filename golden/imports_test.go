package golden

import (
	"go/parser"
	"go/token"
	"strconv"
	"strings"
	"testing"
)

// TestImportsAliased: generated files import the standard library and
// pqgen's runtime under pq-prefixed aliases only, so that a package
// declaring runtime, io, time... compiles with them (testdata/go/clash
// declares every such name and is compiled by TestGolden).
func TestImportsAliased(t *testing.T) {
	var outs []output
	outs = append(outs, goCases(t)...)
	outs = append(outs, schemaCases(t)...)
	outs = append(outs, corpusCases(t)...)
	clash := false
	for _, o := range outs {
		clash = clash || strings.Contains(o.virtual, "clash")
		f, err := parser.ParseFile(token.NewFileSet(), o.virtual, o.code, parser.ImportsOnly)
		if err != nil {
			t.Fatalf("%s: %v", o.virtual, err)
		}
		for _, im := range f.Imports {
			path, _ := strconv.Unquote(im.Path.Value)
			std := !strings.Contains(strings.Split(path, "/")[0], ".")
			if !std && !strings.HasPrefix(path, "github.com/pqgen/pqgen/runtime") {
				continue // a package of the user's types, named as they name it
			}
			if im.Name == nil || !strings.HasPrefix(im.Name.Name, "pq") {
				t.Errorf("%s imports %q without a pq alias", o.virtual, path)
			}
		}
	}
	if !clash {
		t.Fatal("no generated code for testdata/go/clash")
	}
}
