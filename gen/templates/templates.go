// Package templates holds the text/templates of the parts of pqgen's
// generated files that are fixed text with holes: the header and version
// guard, the declared struct types and the stale-code guard, the schema
// constants, the writer's type, constructor and Write/Flush/Close methods,
// the file helpers and the reader's iterator. The generator (package gen)
// fills them from its plans; jennifer builds the rest (the per-field
// shredding and assembly).
//
// A template writes a Go identifier of another package through a function
// the generator supplies, never as text, so that the file's imports stay
// exact: {{rt "FileWriter"}} (package runtime), {{q "io" "Writer"}} (any
// package), {{code .Row}} (a type or expression the generator built). The
// other functions are {{lit x}} (a Go literal) and {{comment s}} (text
// made safe for a // comment). Each template ends its declarations with a
// blank line; the generated file is gofmt'd after filling.
package templates

import "embed"

// FS holds the templates, *.tmpl, each file defining templates named after
// what they print.
//
//go:embed *.tmpl
var FS embed.FS
