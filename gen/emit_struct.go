package gen

import "github.com/dave/jennifer/jen"

// emitStructs declares the struct types of a type generated from schema
// text or a file: exported fields named by exportedName whose parquet tags
// hold the exact column names.
func emitStructs(f *jen.File, t *Type) {
	for _, s := range t.Structs {
		if !s.Declare {
			continue
		}
		if s == t.Root.Struct {
			docf(f, "%s is a row of the Parquet schema %q.", s.Name, t.Schema.Root.Name)
		} else {
			docf(f, "%s is a group of %s.", s.Name, t.Name)
		}
		f.Type().Id(s.Name).Struct(fieldsCode(s.Exact)...)
		f.Line()
	}
}
