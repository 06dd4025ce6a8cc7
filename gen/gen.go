package gen

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/dave/jennifer/jen"
	"golang.org/x/tools/imports"

	"github.com/pqgen/pqgen/runtime"
	"github.com/pqgen/pqgen/runtime/meta"
	"github.com/pqgen/pqgen/runtime/schema"
	"github.com/pqgen/pqgen/runtime/variant"
)

// Generate emits the code of every type of p and returns the generated
// files by name: one file per type (Type.File), or every type in one file
// named output when output is not empty. The code is gofmt'd.
func Generate(p *Package, output string) (map[string][]byte, error) {
	if p.Name == "" {
		return nil, errors.New("no package name")
	}
	out := map[string][]byte{}
	if output != "" {
		b, err := render(p, p.Types)
		if err != nil {
			return nil, err
		}
		out[output] = b
		return out, nil
	}
	for _, t := range p.Types {
		if _, dup := out[t.File]; dup {
			return nil, fmt.Errorf("types share the output file %s; use -o", t.File)
		}
		b, err := render(p, []*Type{t})
		if err != nil {
			return nil, err
		}
		out[t.File] = b
	}
	return out, nil
}

// importAliases are the names generated files give their imports: none is
// a name a package is likely to declare.
var importAliases = map[string]string{
	pathRuntime:  "pqrt",
	pathSchema:   "pqschema",
	pathEncode:   "pqencode",
	pathMeta:     "pqmeta",
	pathCompress: "pqcompress",
	pathVariant:  "pqvariant",
	"bytes":      "pqbytes",
	"errors":     "pqerrors",
	"fmt":        "pqfmt",
	"io":         "pqio",
	"iter":       "pqiter",
	"slices":     "pqslices",
	"sync":       "pqsync",
	"time":       "pqtime",
}

func render(p *Package, types []*Type) ([]byte, error) {
	var f *jen.File
	if p.Path != "" {
		f = jen.NewFilePathName(p.Path, p.Name)
	} else {
		f = jen.NewFile(p.Name)
	}
	f.HeaderComment(fillText("header", struct{ Prefix, Version, Args string }{generatedPrefix, runtime.Version, strings.TrimSpace(p.Args)}))
	// Every import is aliased, so that a package declaring runtime, io,
	// time... still compiles with the generated file.
	for path, alias := range importAliases {
		f.ImportAlias(path, alias)
	}
	emitVersionGuard(f)
	for _, t := range types {
		t.Names.nameValues(t)
		// The writer's plan: the templates and emitters of the writer,
		// the schema and the file helpers print it.
		wp := planWrite(t)
		emitStructs(f, t)
		emitGuard(f, t)
		emitSchema(f, t, wp)
		emitColumns(f, t)
		emitWriter(f, wp)
		emitReader(f, t)
		emitFileHelpers(f, wp)
		emitWhere(f, t)
	}
	var buf bytes.Buffer
	if err := f.Render(&buf); err != nil {
		return nil, fmt.Errorf("rendering the generated code (a pqgen bug): %w", err)
	}
	// Group the imports as goimports does: the standard library, then the
	// rest (FormatOnly: nothing is added or removed).
	out, err := imports.Process("", buf.Bytes(), &imports.Options{FormatOnly: true, Comments: true, TabIndent: true, TabWidth: 8})
	if err != nil {
		return nil, fmt.Errorf("formatting the generated code (a pqgen bug): %w", err)
	}
	return out, nil
}

// FromSchemaText builds the IR of a type named typeName ("" for the
// CamelCase message name) from schema text in the message grammar, with
// the default Options. Errors carry line:column of the text, prefixed with
// file (the name of the text in messages).
func FromSchemaText(file, text, pkg, typeName string) (*Package, error) {
	return FromSchemaTextWith(file, text, pkg, typeName, Options{})
}

// FromSchemaTextWith is FromSchemaText with the choices of opts.
func FromSchemaTextWith(file, text, pkg, typeName string, opts Options) (*Package, error) {
	s, err := schema.Parse(text)
	if err == nil {
		// The generated writer would refuse the schema at New.
		err = schema.CheckAnnotations(s)
	}
	if err != nil {
		return nil, fmt.Errorf("%s:%w", file, err)
	}
	where := func(n *schema.Node) string {
		if n.Pos.IsValid() {
			return file + ":" + n.Pos.String()
		}
		return file
	}
	return fromParsed(s, pkg, typeName, opts, where)
}

// FromFile builds the IR of a type named typeName ("" for the CamelCase
// message name) from the footer of the Parquet file at path, with the
// default Options. ropts are passed to runtime.OpenPath: an encrypted
// footer needs its key (runtime.WithFooterKey, WithAADPrefix or
// WithKeyRetriever).
func FromFile(path, pkg, typeName string, ropts ...runtime.ReaderOption) (*Package, error) {
	return FromFileWith(path, pkg, typeName, Options{}, ropts...)
}

// FromFileWith is FromFile with the choices of opts.
func FromFileWith(path, pkg, typeName string, opts Options, ropts ...runtime.ReaderOption) (*Package, error) {
	f, fh, err := runtime.OpenPath(path, ropts...)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	fh.Close()
	where := func(n *schema.Node) string { return path }
	s, err := FileSchema(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return fromParsed(s, pkg, typeName, opts, where)
}

// FileSchema returns the schema of the code FromFile generates from the
// open file f, which the generated writer writes: f's schema, but with
// the object field groups of shredded Variants required where f has them
// optional (see requireShreddedFields), and with the GEOMETRY or
// GEOGRAPHY logical type on the WKB columns that f's GeoParquet metadata
// describes (see geoParquetColumns).
func FileSchema(f *runtime.File) (*schema.Schema, error) {
	s, err := requireShreddedFields(f.Schema)
	if err != nil {
		return nil, err
	}
	return geoParquetColumns(s, f.Meta.KeyValueMetadata)
}

func fromParsed(s *schema.Schema, pkg, typeName string, opts Options, where func(*schema.Node) string) (*Package, error) {
	if pkg == "" {
		return nil, errors.New("no package name (-package P)")
	}
	if typeName == "" {
		typeName = exportedName(s.Root.Name, opts.PlainNames)
		if s.Root.Name == "" || typeName == "Field" {
			typeName = "Row"
		}
	}
	if !isExportedIdent(typeName) {
		return nil, fmt.Errorf("type name %q is not an exported Go identifier", typeName)
	}
	if a, b := samePath(s); a != nil {
		return nil, fmt.Errorf("%s: %q is also the path of the %s at %s: %s", where(b), b.PathString(), nodeKind(a), where(a), samePathWhy)
	}
	t, err := fromSchema(s, typeName, opts, where)
	if err != nil {
		return nil, err
	}
	if len(s.Leaves) == 0 {
		return nil, fmt.Errorf("%s: the schema has no columns", where(s.Root))
	}
	// The schema is embedded as text: it must print and parse back to itself.
	if back, err := schema.Parse(s.String()); err != nil || back.String() != s.String() {
		return nil, fmt.Errorf("%s: the schema does not survive printing and parsing (%v); please report it", where(s.Root), err)
	}
	return &Package{Name: pkg, Types: []*Type{t}}, nil
}

// samePathWhy says why two nodes may not share a dotted path.
const samePathWhy = "a name with a dot makes the dotted paths that options, filters and WithColumns name columns by ambiguous; rename one"

// samePath returns two nodes of s with the same dotted path (a field
// named "a.b" beside a group a with a field b), in schema order; nil when
// every path is unique.
func samePath(s *schema.Schema) (first, second *schema.Node) {
	seen := map[string]*schema.Node{}
	var walk func(n *schema.Node) bool
	walk = func(n *schema.Node) bool {
		if n.Parent != nil {
			p := n.PathString()
			if prev, ok := seen[p]; ok {
				first, second = prev, n
				return false
			}
			seen[p] = n
		}
		for _, c := range n.Children {
			if !walk(c) {
				return false
			}
		}
		return true
	}
	walk(s.Root)
	return first, second
}

// nodeKind is "column" for a leaf, "group" for a group.
func nodeKind(n *schema.Node) string {
	if n.Group {
		return "group"
	}
	return "column"
}

var identRE = regexp.MustCompile(`^[A-Z][A-Za-z0-9_]*$`)

func isExportedIdent(s string) bool { return identRE.MatchString(s) }

// requireShreddedFields returns s with every optional shredded Variant
// object field group made required, as the Variant shredding
// specification has them; s itself when it has none. Some writers
// (hyparquet-writer 0.17, docs/DEVIATIONS.md) write those groups optional;
// the runtime reads them, but writes only the specified layout, so code
// generated from such a file writes its copies in that layout.
func requireShreddedFields(s *schema.Schema) (*schema.Schema, error) {
	optional := map[*schema.Node]bool{}
	var walk func(n *schema.Node)
	walk = func(n *schema.Node) {
		if n.Group && n.Logical.Kind == meta.LogicalVariant {
			if sh, err := variant.ShapeOf(n); err == nil {
				for _, f := range sh.OptionalFields() {
					optional[f] = true
				}
			}
			return
		}
		for _, c := range n.Children {
			walk(c)
		}
	}
	walk(s.Root)
	if len(optional) == 0 {
		return s, nil
	}
	return editElements(s, func(n *schema.Node, e *meta.SchemaElement) {
		if optional[n] {
			e.RepetitionType = meta.Some(meta.Required)
		}
	})
}

// editElements returns the schema of s's elements as edit leaves them:
// edit is called with every node of s and its element, in depth-first
// order.
func editElements(s *schema.Schema, edit func(n *schema.Node, e *meta.SchemaElement)) (*schema.Schema, error) {
	els := s.Elements()
	i := 0
	var walk func(n *schema.Node)
	walk = func(n *schema.Node) {
		edit(n, &els[i])
		i++
		for _, c := range n.Children {
			walk(c)
		}
	}
	walk(s.Root)
	return schema.FromElements(els)
}
