package main

import (
	"fmt"
	"strings"

	"github.com/dave/jennifer/jen"
)

// genTypes emits the Go declarations of the metadata structures and enums
// (types_gen.go) from the same table as their codec: every struct of the
// table with one field per Thrift field, every union as a Kind plus the
// parameter fields of its members, every enum as a named integer type
// with its constants.
func genTypes() *jen.File {
	f := newFile("",
		"This file declares the Parquet metadata structures of parquet.thrift",
		"(https://github.com/apache/parquet-format/blob/master/src/main/thrift/parquet.thrift,",
		"https://parquet.apache.org/docs/file-format/metadata/). Field ids and",
		"requiredness are in the comments.",
		"",
		"Representation choices, decided once for the whole runtime:",
		"  - a required field is a plain value;",
		"  - an optional scalar or string is an Opt[T] (Set reports presence);",
		"  - an optional binary is a []byte that is nil when absent (a present empty",
		"    value decodes as a non-nil empty slice);",
		"  - an optional list is a slice that is nil when absent (a present empty",
		"    list decodes as a non-nil empty slice);",
		"  - an optional struct is a pointer, nil when absent;",
		"  - a union is a struct whose Kind names the member that is set (the Thrift",
		"    field id); members with parameters keep them in value fields. Kind 0",
		"    means that no member this package knows was set.")
	for _, e := range enums {
		emitEnum(f, e.Go, enumTypes[e.Go], e.Values)
	}
	emitEnum(f, "BloomMembers", enumTypes["BloomMembers"], nil)
	for _, s := range structs {
		doc(f, s.Name)
		if s.Members != nil {
			emitUnion(f, s)
			continue
		}
		var fields []jen.Code
		for _, fl := range s.Fields {
			c := fmt.Sprintf("%d required", fl.ID)
			if !fl.Req {
				c = fmt.Sprintf("%d optional", fl.ID)
			}
			fields = append(fields, jen.Id(fl.Go).Add(fieldType(fl)).Comment(c+fieldNotes[s.Name+"."+fl.Go]))
		}
		f.Type().Id(s.Name).Struct(fields...)
		f.Line()
	}
	return f
}

// doc emits the doc comment of the type name; a type without one is a
// table error.
func doc(f *jen.File, name string) {
	d, ok := typeDocs[name]
	if !ok {
		panic("metagen: no doc comment for " + name)
	}
	for _, l := range strings.Split(d, "\n") {
		f.Comment(l)
	}
}

// fieldType is the Go type of a struct field, following the
// representation choices of the file comment.
func fieldType(fl F) *jen.Statement {
	if fl.Req {
		return goType(fl.T)
	}
	switch fl.T.K {
	case Binary, List:
		return goType(fl.T)
	case Struct:
		return jen.Op("*").Add(goType(fl.T))
	}
	return jen.Id("Opt").Types(goType(fl.T))
}

// emitUnion emits a union: its Kind, Unrecognized when the table says
// the union records unknown members, and one value field per parameter
// struct, commented with the kinds that use it.
func emitUnion(f *jen.File, s S) {
	kind := s.Name + "Kind"
	switch s.Name {
	case "LogicalType":
		kind = "LogicalKind"
	case "ColumnOrder":
		kind = "ColumnOrderKind"
	case "ColumnCryptoMetaData":
		kind = "ColumnCryptoKind"
	case "EncryptionAlgorithm":
		kind = "EncryptionKind"
	}
	if _, ok := enumTypes[kind]; !ok {
		panic("metagen: union " + s.Name + " has no kind enum " + kind)
	}
	fields := []jen.Code{jen.Id("Kind").Id(kind)}
	if s.Unrec {
		fields = append(fields, jen.Id("Unrecognized").Int16())
	}
	var params []string
	kinds := map[string][]string{}
	ptype := map[string]string{}
	for _, m := range s.Members {
		if m.Param == "" {
			continue
		}
		if _, seen := ptype[m.Param]; !seen {
			params = append(params, m.Param)
			ptype[m.Param] = m.PType
		}
		kinds[m.Param] = append(kinds[m.Param], m.Kind)
	}
	for _, p := range params {
		fields = append(fields, jen.Id(p).Id(ptype[p]).Comment("Kind == "+strings.Join(kinds[p], " or ")))
	}
	f.Type().Id(s.Name).Struct(fields...)
	f.Line()
}

// emitEnum emits the type of an enum and its constants; every value the
// enums table names must have a constant.
func emitEnum(f *jen.File, name string, et enumType, values []EV) {
	if et.Under == "" {
		panic("metagen: no Go declaration for enum " + name)
	}
	have := map[int]bool{}
	for _, c := range et.Consts {
		have[c.Val] = true
	}
	for _, v := range values {
		if !have[v.Val] {
			panic(fmt.Sprintf("metagen: enum %s has no constant for %s = %d", name, v.Name, v.Val))
		}
	}
	typ := jen.Id(name)
	if et.Untyped {
		typ = jen.Id(et.Under)
	} else {
		doc(f, name)
		f.Type().Id(name).Id(et.Under)
		f.Line()
	}
	var defs []jen.Code
	for _, c := range et.Consts {
		var d jen.Code = jen.Id(c.Go).Add(typ.Clone()).Op("=").Lit(c.Val)
		if c.Note != "" {
			d = jen.Id(c.Go).Add(typ.Clone()).Op("=").Lit(c.Val).Comment(c.Note)
		}
		if c.Doc != "" {
			lines := strings.Split(c.Doc, "\n")
			d = documented(d, lines...)
		}
		defs = append(defs, d)
	}
	for _, l := range strings.Split(et.GroupDoc, "\n") {
		f.Comment(l)
	}
	f.Const().Defs(defs...)
	f.Line()
}
