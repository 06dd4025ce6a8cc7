package gen

import (
	"fmt"

	"github.com/dave/jennifer/jen"
)

// declaredStruct is a struct type the generated file declares.
type declaredStruct struct {
	Name, Doc string
	Body      jen.Code
}

// emitStructs declares the struct types of a type generated from schema
// text or a file (template structs): exported fields named by
// exportedName whose parquet tags hold the exact column names.
func emitStructs(f *jen.File, t *Type) {
	var decls []declaredStruct
	for _, s := range t.Structs {
		if !s.Declare {
			continue
		}
		doc := fmt.Sprintf("%s is a group of %s.", s.Name, t.Name)
		if s == t.Root.Struct {
			doc = fmt.Sprintf("%s is a row of the Parquet schema %q.", s.Name, t.Schema.Root.Name)
		}
		decls = append(decls, declaredStruct{Name: s.Name, Doc: commentText(doc), Body: jen.Struct(fieldsCode(s.Exact)...)})
	}
	if len(decls) > 0 {
		fill(f, "structs", decls)
	}
}
