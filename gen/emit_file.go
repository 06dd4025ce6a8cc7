package gen

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/dave/jennifer/jen"
)

// emitSchema emits the schema text constant, the batch size of the
// writer, and the function returning the parsed schema.
func emitSchema(f *jen.File, t *Type, p *writePlan) {
	text := t.Schema.String()
	lit := fmt.Sprintf("%#v", text)
	if rawOK(text) {
		lit = "`" + text + "`"
	}
	fill(f, "schema", struct {
		*writePlan
		SchemaLit string
	}{p, lit})
}

// emitFileHelpers emits WriteTFile and ReadTFile.
func emitFileHelpers(f *jen.File, p *writePlan) { fill(f, "files", p) }

// rawOK reports whether s can be written as a raw string literal.
func rawOK(s string) bool {
	if !utf8.ValidString(s) || strings.ContainsAny(s, "`\r") {
		return false
	}
	for _, r := range s {
		if r < ' ' && r != '\n' && r != '\t' {
			return false
		}
	}
	return true
}
