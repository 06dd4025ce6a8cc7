package gen

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/dave/jennifer/jen"
)

// emitSchema emits the schema text constant, the function returning the
// parsed schema, and the batch size.
func emitSchema(f *jen.File, t *Type) {
	n := t.Names
	docf(f, "%s is the Parquet schema of %s.", n.SchemaText, t.Name)
	text := t.Schema.String()
	if rawOK(text) {
		f.Const().Id(n.SchemaText).Op("=").Op("`" + text + "`")
	} else {
		f.Const().Id(n.SchemaText).Op("=").Lit(text)
	}
	f.Line()
	docf(f, "%s is how many rows %s shreds between EndRows calls.", n.Batch, n.Writer)
	f.Const().Id(n.Batch).Op("=").Lit(batchRows)
	f.Line()
	docf(f, "%s returns the parsed %s, parsed once.", n.Schema, n.SchemaText)
	f.Var().Id(n.Schema).Op("=").Qual("sync", "OnceValue").Call(jen.Func().Params().Op("*").Qual(pathSchema, "Schema").Block(
		jen.List(jen.Id("s"), jen.Err()).Op(":=").Qual(pathSchema, "Parse").Call(jen.Id(n.SchemaText)),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Panic(jen.Lit(fmt.Sprintf("pqgen: the generated schema of %s does not parse: ", t.Name)).Op("+").Err().Dot("Error").Call())),
		jen.Return(jen.Id("s")),
	))
	f.Line()
}

// emitFileHelpers emits WriteTFile and ReadTFile.
func emitFileHelpers(f *jen.File, t *Type) {
	n := t.Names
	rows := jen.Index().Add(t.Root.Go.Code())
	docf(f, "%s writes rows to a new Parquet file at path: the file is written\nunder a temporary name in the same directory, synced, and renamed over\npath, so path never holds a partial file.", n.WriteFile)
	f.Func().Id(n.WriteFile).Params(jen.Id("path").String(), jen.Id("rows").Add(rows.Clone()), jen.Id("opts").Op("...").Qual(pathRuntime, "WriterOption")).Error().Block(
		jen.Return(jen.Qual(pathRuntime, "WriteFile").Call(jen.Id("path"), jen.Id(n.Schema).Call(),
			jen.Func().Params(jen.Id("fw").Op("*").Qual(pathRuntime, "FileWriter")).Error().Block(
				jen.List(jen.Id("w"), jen.Err()).Op(":=").Id(n.WriterFor).Call(jen.Id("fw")),
				jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
				jen.If(jen.List(jen.Id("_"), jen.Err()).Op("=").Id("w").Dot("Write").Call(jen.Id("rows")), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
				jen.Return(jen.Id("w").Dot("endRows").Call()),
			), withTagOptions(t))),
	)
	f.Line()
	docf(f, "%s reads every row of the Parquet file at path.", n.ReadFile)
	f.Func().Id(n.ReadFile).Params(jen.Id("path").String(), jen.Id("opts").Op("...").Qual(pathRuntime, "ReaderOption")).Params(rows.Clone(), jen.Error()).Block(
		jen.Return(jen.Qual(pathRuntime, "ReadFileRows").Types(t.Root.Go.Code()).Call(jen.Id("path"),
			jen.Func().Params(jen.Id("r").Qual("io", "ReaderAt"), jen.Id("size").Int64()).Params(jen.Op("*").Id(n.Reader), jen.Error()).Block(
				jen.Return(jen.Id(n.NewReader).Call(jen.Id("r"), jen.Id("size"), jen.Id("opts").Op("..."))),
			))),
	)
	f.Line()
}

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
