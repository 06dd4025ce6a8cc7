package golden

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/pqgen/pqgen/gen"
)

// tagExceptions are the sources whose schemas Go struct tags cannot
// express: generated code reads and writes them, but a struct declared
// from them rebuilds, through LoadGo, the standard layout of the same
// data. Each must still differ (the list cannot go stale).
var tagExceptions = map[string]string{
	"legacy.schema":                        "2-level lists: a slice is always a 3-level LIST or a bare repeated field",
	"types.schema":                         "UNKNOWN has no tag option; VARIANT gets specification_version 1 from Go",
	"decimal_type.schema":                  "a map key's DECIMAL has no tag option (a map's options apply to its values)",
	"file.schema":                          "a FILE group of fewer fields than runtime.FileRef's six binds to FileRef; from Go a FileRef defines all six",
	"data/geospatial/crs-projjson.parquet": "the tag geometry carries no CRS",
	"data/geospatial/crs-srid.parquet":     "the tag geometry carries no CRS",
	"data/list_columns.parquet":            "list elements named item: a LIST from Go names them element",
	"data/map_no_value.parquet":            "a MAP without values becomes a LIST of keys",
	"data/nested_lists.snappy.parquet":     "an optional inner LIST: a slice element is required",
	"data/null_list.parquet":               "an UNKNOWN element named item",
	"data/nullable.impala.parquet":         "optional inner LIST and MAP elements, MAP_KEY_VALUE groups named map",
	"data/old_list_structure.parquet":      "a 2-level LIST of LISTs, repeated groups named array",
}

// TestTagsRebuildSchema checks that the structs pqgen declares from schema
// text (testdata/schema) and from the footer of every readable corpus
// file carry tags that LoadGo turns back into the same schema: a type
// generated schema-first can be regenerated from Go with `pqgen -type`.
// The struct declarations alone (no generated reader or writer) are put
// in one package, loaded once.
func TestTagsRebuildSchema(t *testing.T) {
	var want []*gen.Type
	var source []string
	var decls []ast.Decl
	imports := map[string]string{} // path -> name used
	add := func(what string, p *gen.Package, err error) {
		t.Helper()
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		files, err := gen.Generate(p, "x.go")
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		f, err := parser.ParseFile(token.NewFileSet(), "x.go", files["x.go"], 0)
		if err != nil {
			t.Fatalf("%s: generated code: %v", what, err)
		}
		declared := map[string]bool{}
		for _, ty := range p.Types {
			for _, st := range ty.Structs {
				declared[st.Name] = st.Declare
			}
		}
		used := map[string]bool{}
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.TYPE || !declared[g.Specs[0].(*ast.TypeSpec).Name.Name] {
				continue // the generated reader and writer types
			}
			decls = append(decls, g)
			ast.Inspect(g, func(n ast.Node) bool {
				if s, ok := n.(*ast.SelectorExpr); ok {
					if id, ok := s.X.(*ast.Ident); ok {
						used[id.Name] = true
					}
				}
				return true
			})
		}
		for _, im := range f.Imports {
			path, _ := strconv.Unquote(im.Path.Value)
			name := filepath.Base(path)
			if im.Name != nil {
				name = im.Name.Name
			}
			if used[name] {
				imports[path] = name
			}
		}
		want = append(want, p.Types...)
		source = append(source, what)
	}

	schemas, err := filepath.Glob("testdata/schema/*.schema")
	if err != nil {
		t.Fatal(err)
	}
	for i, f := range schemas {
		text, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		p, err := gen.FromSchemaText(filepath.Base(f), string(text), "tagcheck", fmt.Sprintf("S%d", i))
		add(filepath.Base(f), p, err)
	}
	rels, pkgs, encrypted := corpusPackages(t, "tagcheck", len(want))
	for i, rel := range rels {
		add(rel, pkgs[i], nil)
	}
	if len(want) < 60 {
		t.Fatalf("%d types, want the schema cases and the corpus", len(want))
	}

	var src bytes.Buffer
	src.WriteString("package tagcheck\n\nimport (\n")
	for _, path := range slices.Sorted(maps.Keys(imports)) {
		fmt.Fprintf(&src, "\t%s %q\n", imports[path], path)
	}
	src.WriteString(")\n\n")
	fset := token.NewFileSet()
	for _, d := range decls {
		if err := format.Node(&src, fset, d); err != nil {
			t.Fatal(err)
		}
		src.WriteString("\n\n")
	}
	// Inside the module (testdata is outside ./..., *.tmp is ignored by
	// git) so that the structs may name pqgen's own types.
	dir := filepath.Join("testdata", "tagcheck.tmp")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.WriteFile(filepath.Join(dir, "x.go"), src.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	names := make([]string, len(want))
	for i, w := range want {
		names[i] = w.Name
	}
	got, err := gen.LoadGo(dir, names)
	if err != nil {
		t.Fatalf("LoadGo of the generated structs: %v", err)
	}
	// The message name is the Go type's; only the fields must agree.
	body := func(s string) string { _, b, _ := strings.Cut(s, "{"); return b }
	for i, w := range want {
		g, ws := body(got.Types[i].Schema.String()), body(w.Schema.String())
		why, excepted := tagExceptions[source[i]]
		switch {
		case g != ws && !excepted:
			t.Errorf("%s: the tags rebuild another schema:\n got %s\nwant %s", source[i], g, ws)
		case g == ws && excepted:
			t.Errorf("%s: listed in tagExceptions (%s) but its tags now rebuild the schema: remove it", source[i], why)
		}
		delete(tagExceptions, source[i])
	}
	for src := range tagExceptions {
		t.Errorf("tagExceptions names %s, which was not checked", src)
	}
	t.Logf("%d types checked (%d corpus files with encrypted footers left out)", len(want), encrypted)
}
