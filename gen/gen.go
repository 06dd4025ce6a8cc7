package gen

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/pqgen/pqgen/runtime"
	"github.com/pqgen/pqgen/runtime/schema"
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
	f.HeaderComment(strings.TrimRight(generatedPrefix+" "+p.Args, " ") + "; DO NOT EDIT.")
	// Every import is aliased, so that a package declaring runtime, io,
	// time... still compiles with the generated file.
	for path, alias := range importAliases {
		f.ImportAlias(path, alias)
	}
	for _, t := range types {
		emitStructs(f, t)
		emitGuard(f, t)
		emitSchema(f, t)
		emitWriter(f, t)
		emitReader(f, t)
		emitFileHelpers(f, t)
	}
	var buf bytes.Buffer
	if err := f.Render(&buf); err != nil {
		return nil, fmt.Errorf("rendering the generated code (a pqgen bug): %w", err)
	}
	return buf.Bytes(), nil
}

// FromSchemaText builds the IR of a type named typeName ("" for the
// CamelCase message name) from schema text in the message grammar. Errors
// carry line:column of the text, prefixed with file (the name of the text
// in messages).
func FromSchemaText(file, text, pkg, typeName string) (*Package, error) {
	s, err := schema.Parse(text)
	if err != nil {
		return nil, fmt.Errorf("%s:%w", file, err)
	}
	pos := nodePositions(text, s)
	where := func(n *schema.Node) string {
		if lc, ok := pos[n]; ok {
			return file + ":" + lc
		}
		return file
	}
	return fromParsed(s, pkg, typeName, where)
}

// FromFile builds the IR of a type named typeName ("" for the CamelCase
// message name) from the footer of the Parquet file at path. opts are
// passed to runtime.OpenPath: an encrypted footer needs its key
// (runtime.WithFooterKey, WithAADPrefix or WithKeyRetriever).
func FromFile(path, pkg, typeName string, opts ...runtime.ReaderOption) (*Package, error) {
	f, fh, err := runtime.OpenPath(path, opts...)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	fh.Close()
	where := func(n *schema.Node) string { return path }
	return fromParsed(f.Schema, pkg, typeName, where)
}

func fromParsed(s *schema.Schema, pkg, typeName string, where func(*schema.Node) string) (*Package, error) {
	if pkg == "" {
		return nil, errors.New("no package name (-package P)")
	}
	if typeName == "" {
		typeName = exportedName(s.Root.Name)
		if s.Root.Name == "" || typeName == "Field" {
			typeName = "Row"
		}
	}
	if !isExportedIdent(typeName) {
		return nil, fmt.Errorf("type name %q is not an exported Go identifier", typeName)
	}
	t, err := fromSchema(s, typeName, where)
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

var identRE = regexp.MustCompile(`^[A-Z][A-Za-z0-9_]*$`)

func isExportedIdent(s string) bool { return identRE.MatchString(s) }

// nodePositions finds, for each node of s, the line:column of its name in
// the schema text it was parsed from, by scanning the text for the field
// declarations in depth-first order (the parser keeps no positions).
func nodePositions(text string, s *schema.Schema) map[*schema.Node]string {
	out := map[*schema.Node]string{}
	var nodes []*schema.Node
	var walk func(n *schema.Node)
	walk = func(n *schema.Node) {
		nodes = append(nodes, n)
		for _, c := range n.Children {
			walk(c)
		}
	}
	walk(s.Root)
	// Each declaration starts with a repetition keyword or "message";
	// comments and quoted names are skipped.
	line, col := 1, 1
	k := 0
	advance := func(i int) {
		if text[i] == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	for i := 0; i < len(text) && k < len(nodes); i++ {
		switch {
		case text[i] == '#' || strings.HasPrefix(text[i:], "//"):
			for i < len(text) && text[i] != '\n' {
				advance(i)
				i++
			}
			if i < len(text) {
				advance(i)
			}
			continue
		case text[i] == '"':
			advance(i)
			for i++; i < len(text) && text[i] != '"'; i++ {
				if text[i] == '\\' && i+1 < len(text) {
					advance(i)
					i++
				}
				advance(i)
			}
			if i < len(text) {
				advance(i)
			}
			continue
		case (i == 0 || !isWordByte(text[i-1])) && startsWord(text[i:]):
			out[nodes[k]] = fmt.Sprintf("%d:%d", line, col)
			k++
		}
		advance(i)
	}
	return out
}

func isWordByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

func startsWord(s string) bool {
	for _, w := range []string{"message", "required", "optional", "repeated"} {
		if strings.HasPrefix(s, w) && (len(s) == len(w) || !isWordByte(s[len(w)])) {
			return true
		}
	}
	return false
}
