package gen

import (
	"fmt"
	"strconv"
	"strings"
	"text/template"

	"github.com/dave/jennifer/jen"

	"github.com/pqgen/pqgen/gen/templates"
)

// The templates of gen/templates, parsed once. Their functions are bound
// per fill (see fill); these placeholders only let them parse.
var tmpls = template.Must(template.New("pqgen").Funcs(tmplFuncs(nil)).ParseFS(templates.FS, "*.tmpl"))

// tmplMark brackets the index of a piece of jennifer code in a filled
// template's text. No Go source pqgen prints holds the byte: strings and
// comments made of user text are escaped (lit) or cleaned (comment).
const tmplMark = "\x00"

// tmplFuncs are the templates' functions: rt, q and code put jennifer code
// (a qualified identifier, a type) into the text as a mark, which fill
// turns back into the code, so that jennifer keeps the file's imports.
func tmplFuncs(codes *[]jen.Code) template.FuncMap {
	mark := func(c jen.Code) string {
		*codes = append(*codes, c)
		return tmplMark + strconv.Itoa(len(*codes)-1) + tmplMark
	}
	return template.FuncMap{
		"rt": func(name string) string { return mark(jen.Qual(pathRuntime, name)) },
		"q":  func(path, name string) string { return mark(jen.Qual(path, name)) },
		"code": func(c any) (string, error) {
			switch c := c.(type) {
			case *TypeRef:
				return mark(c.Code()), nil
			case jen.Code:
				return mark(c), nil
			}
			return "", fmt.Errorf("code of a %T", c)
		},
		"lit":     func(v any) string { return fmt.Sprintf("%#v", v) },
		"comment": commentText,
	}
}

// commentText is s on one line of a // comment.
func commentText(s string) string {
	return strings.Map(func(r rune) rune {
		if r < ' ' || r == 0x7f {
			return ' '
		}
		return r
	}, s)
}

// fill executes template name with data and adds the text to f, followed
// by a blank line. A template that does not execute or marks code it was
// not given is a pqgen bug, and panics.
func fill(f *jen.File, name string, data any) {
	f.Add(fillCode(name, data))
	f.Line()
}

// fillCode is the text of template name executed with data, as jennifer
// code: the text verbatim, with the code the template marked in its place.
func fillCode(name string, data any) *jen.Statement {
	var codes []jen.Code
	t := template.Must(tmpls.Clone()).Funcs(tmplFuncs(&codes))
	var b strings.Builder
	if err := t.ExecuteTemplate(&b, name, data); err != nil {
		panic(fmt.Sprintf("gen: template %s (a pqgen bug): %v", name, err))
	}
	parts := strings.Split(strings.TrimRight(b.String(), "\n"), tmplMark)
	s := &jen.Statement{}
	for i, p := range parts {
		if i%2 == 0 {
			if p != "" {
				s.Op(p)
			}
			continue
		}
		k, err := strconv.Atoi(p)
		if err != nil || k < 0 || k >= len(codes) {
			panic(fmt.Sprintf("gen: template %s marks no code at %q (a pqgen bug)", name, p))
		}
		s.Add(codes[k])
	}
	return s
}

// fillText is template name executed with data, as text; it marks no code.
func fillText(name string, data any) string {
	var codes []jen.Code
	t := template.Must(tmpls.Clone()).Funcs(tmplFuncs(&codes))
	var b strings.Builder
	if err := t.ExecuteTemplate(&b, name, data); err != nil || len(codes) > 0 {
		panic(fmt.Sprintf("gen: template %s (a pqgen bug): %v", name, err))
	}
	return b.String()
}
