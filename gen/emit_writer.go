package gen

import (
	"github.com/dave/jennifer/jen"

	"github.com/pqgen/pqgen/runtime/meta"
	"github.com/pqgen/pqgen/runtime/schema"
)

// batchRows is how many rows generated writers shred between EndRows calls.
const batchRows = 256

// emitWriter emits TWriter, NewTWriter and the shredder.
func emitWriter(f *jen.File, t *Type) {
	n := t.Names
	rt := func(name string) *jen.Statement { return jen.Qual(pathRuntime, name) }
	tref := t.Root.Go

	fields := []jen.Code{jen.Id("fw").Op("*").Add(rt("FileWriter"))}
	vcols := variantColumns(t)
	for _, l := range t.Schema.Leaves {
		if vcols[l.Column] {
			continue
		}
		fields = append(fields, jen.Id(t.Names.col(l.Column)).Op("*").Add(rt(physName(l.Type)+"Buffer")).Comment(l.PathString()))
	}
	vfields := variantFields(t)
	for _, fl := range vfields {
		fields = append(fields, jen.Id(t.Names.variantVar(fl.Value)).Op("*").Add(rt("VariantWriter")).Comment(fl.Value.Node.PathString()+" (Variant)"))
	}
	fields = append(fields, jen.Id("pending").Int().Comment("rows shredded since the last EndRows"))
	maps := mapFields(t)
	for _, m := range maps {
		fields = append(fields, jen.Id(t.Names.mapVar(m)).Index().Add(rt("MapEntry")).Types(m.Key.Go.Code(), m.Elem.Go.Code()).Comment(m.Node.PathString()+" (entries in key order)"))
	}
	docf(f, "%s writes rows of %s to a Parquet file. Write appends rows, Flush ends a\nrow group, Close writes the footer. Create one with %s.", n.Writer, t.Name, n.NewWriter)
	f.Type().Id(n.Writer).Struct(fields...)
	f.Line()

	emitOptions(f, t)
	docf(f, "%s starts a Parquet file of %s rows on w with the given writer options.\nClose writes the footer; it does not close w.", n.NewWriter, t.Name)
	f.Func().Id(n.NewWriter).Params(jen.Id("w").Qual("io", "Writer"), jen.Id("opts").Op("...").Add(rt("WriterOption"))).
		Params(jen.Op("*").Id(n.Writer), jen.Error()).Block(
		jen.List(jen.Id("fw"), jen.Err()).Op(":=").Add(rt("NewFileWriter")).Call(jen.Id("w"), jen.Id(n.Schema).Call(), withTagOptions(t)),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err())),
		jen.Return(jen.Id(n.WriterFor).Call(jen.Id("fw"))),
	)
	f.Line()

	// The wrapper around an existing FileWriter (shared with WriteTFile).
	body := []jen.Code{
		jen.Id("w").Op(":=").Op("&").Id(n.Writer).Values(jen.Dict{jen.Id("fw"): jen.Id("fw")}),
		jen.Var().Err().Error(),
	}
	for _, l := range t.Schema.Leaves {
		if vcols[l.Column] {
			continue
		}
		body = append(body,
			jen.If(
				jen.List(jen.Id("w").Dot(t.Names.col(l.Column)), jen.Err()).Op("=").Id("fw").Dot(physName(l.Type)+"Buffer").Call(jen.Id(t.Names.colIndex(l.Column))),
				jen.Err().Op("!=").Nil(),
			).Block(jen.Return(jen.Nil(), jen.Err())))
	}
	for _, fl := range vfields {
		body = append(body,
			jen.If(
				jen.List(jen.Id("w").Dot(t.Names.variantVar(fl.Value)), jen.Err()).Op("=").Id("fw").Dot("VariantWriter").Call(jen.Lit(fl.Value.Node.PathString())),
				jen.Err().Op("!=").Nil(),
			).Block(jen.Return(jen.Nil(), jen.Err())))
	}
	body = append(body, jen.Return(jen.Id("w"), jen.Nil()))
	f.Func().Id(n.WriterFor).Params(jen.Id("fw").Op("*").Add(rt("FileWriter"))).Params(jen.Op("*").Id(n.Writer), jen.Error()).Block(body...)
	f.Line()

	// Rows are handed to the FileWriter (EndRows) in groups of Batch rows
	// counted from the file's first row, whatever the split of the rows
	// between Write calls: the row groups, cut after EndRows, and so the
	// file's bytes do not depend on it.
	batch := []jen.Code{jen.Id("k").Op(":=").Min(jen.Len(jen.Id("rows")), jen.Id(n.Batch).Op("-").Id("w").Dot("pending"))}
	// Variants and runtime.Decimal values can fail to shred.
	shredFails := len(vfields) > 0 || hasConv(t, ConvDecimal)
	if len(vfields) > 0 {
		// Variants are checked first: one the group cannot store rejects
		// the batch before anything is appended.
		var checks []jen.Code
		for _, fl := range vfields {
			checks = append(checks, jen.If(jen.Err().Op(":=").Id("w").Dot(t.Names.variantVar(fl.Value)).Dot("Check").Call(jen.Id("rows").Index(jen.Id("i")).Dot(fl.Name)), jen.Err().Op("!=").Nil()).Block(
				jen.Return(jen.Id("n"), jen.Qual("fmt", "Errorf").Call(jen.Lit("row %d: %w"), jen.Id("n").Op("+").Id("i"), jen.Err()))))
		}
		batch = append(batch, jen.For(jen.Id("i").Op(":=").Range().Id("rows").Index(jen.Empty(), jen.Id("k"))).Block(checks...))
	}
	if shredFails {
		batch = append(batch,
			jen.If(jen.Err().Op(":=").Id("w").Dot("shred").Call(jen.Id("rows").Index(jen.Empty(), jen.Id("k"))), jen.Err().Op("!=").Nil()).Block(
				jen.Return(jen.Id("n"), jen.Id("w").Dot("fw").Dot("Fail").Call(jen.Err()))))
	} else {
		batch = append(batch, jen.Id("w").Dot("shred").Call(jen.Id("rows").Index(jen.Empty(), jen.Id("k"))))
	}
	docf(f, "Write appends rows to the file. It returns how many rows were written\nand the first error. Rows reach the file in groups of %d counted from its\nfirst row (the last group when Flush or Close is called), so that the\nfile's bytes do not depend on how the rows are split between Write calls;\nan error of a group is returned by the call that completes it.", batchRows)
	f.Func().Params(jen.Id("w").Op("*").Id(n.Writer)).Id("Write").Params(jen.Id("rows").Index().Add(tref.Code())).Params(jen.Int(), jen.Error()).Block(
		jen.Id("n").Op(":=").Lit(0),
		jen.For(jen.Len(jen.Id("rows")).Op(">").Lit(0)).Block(
			append(batch,
				jen.Id("w").Dot("pending").Op("+=").Id("k"),
				jen.Id("n").Op("+=").Id("k"),
				jen.Id("rows").Op("=").Id("rows").Index(jen.Id("k"), jen.Empty()),
				jen.If(jen.Id("w").Dot("pending").Op("==").Id(n.Batch)).Block(
					jen.If(jen.Err().Op(":=").Id("w").Dot("endRows").Call(), jen.Err().Op("!=").Nil()).Block(
						jen.Return(jen.Id("n"), jen.Err()))),
			)...,
		),
		jen.Return(jen.Id("n"), jen.Nil()),
	)
	f.Line()
	docf(f, "endRows hands the pending rows to the FileWriter.")
	f.Func().Params(jen.Id("w").Op("*").Id(n.Writer)).Id("endRows").Params().Error().Block(
		jen.Id("k").Op(":=").Id("w").Dot("pending"),
		jen.Id("w").Dot("pending").Op("=").Lit(0),
		jen.Return(jen.Id("w").Dot("fw").Dot("EndRows").Call(jen.Id("k"))),
	)
	f.Line()
	docf(f, "Flush ends the current row group.")
	f.Func().Params(jen.Id("w").Op("*").Id(n.Writer)).Id("Flush").Params().Error().Block(
		jen.If(jen.Err().Op(":=").Id("w").Dot("endRows").Call(), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
		jen.Return(jen.Id("w").Dot("fw").Dot("Flush").Call()))
	f.Line()
	docf(f, "Close ends the last row group and writes the footer. It does not close\nthe underlying writer.")
	f.Func().Params(jen.Id("w").Op("*").Id(n.Writer)).Id("Close").Params().Error().Block(
		jen.If(jen.Err().Op(":=").Id("w").Dot("endRows").Call(), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
		jen.Return(jen.Id("w").Dot("fw").Dot("Close").Call()))
	f.Line()

	// The shredder: one loop over the rows per top-level field.
	var stmts []jen.Code
	for _, fl := range t.Root.Struct.Fields {
		if fl.Value.Kind == KindVariant {
			stmts = append(stmts, jen.Comment(fl.Value.Node.Name+" (Variant)"), jen.Block(
				jen.Id("vw").Op(":=").Id("w").Dot(t.Names.variantVar(fl.Value)),
				jen.For(jen.Id("i").Op(":=").Range().Id("rows")).Block(
					jen.If(jen.Err().Op(":=").Id("vw").Dot("Append").Call(jen.Id("rows").Index(jen.Id("i")).Dot(fl.Name), jen.Lit(0)), jen.Err().Op("!=").Nil()).Block(
						jen.Return(jen.Err())))))
			continue
		}
		nm := &namer{names: &t.Names}
		var block []jen.Code
		for _, c := range leafIndexes(fl.Value.Node) {
			block = append(block, jen.Id(nm.names.col(c)).Op(":=").Id("w").Dot(nm.names.col(c)))
		}
		env := wenv{def: 0, repLit: true}
		inner := shred(fl.Value, id("x").dot(fl.Name), env, nm)
		block = append(block, jen.For(jen.Id("i").Op(":=").Range().Id("rows")).Block(
			append([]jen.Code{jen.Id("x").Op(":=").Op("&").Id("rows").Index(jen.Id("i"))}, inner...)...))
		stmts = append(stmts, jen.Comment(fl.Value.Node.Name), jen.Block(block...))
	}
	if len(maps) > 0 {
		// The entry slices keep no reference to the rows once shredded.
		stmts = append(stmts, jen.Comment("drop the rows' keys and values from the entry slices"))
		for _, m := range maps {
			b := jen.Id("w").Dot(t.Names.mapVar(m))
			stmts = append(stmts, jen.Clear(b.Clone().Index(jen.Empty(), jen.Cap(b.Clone()))))
		}
	}
	docf(f, "shred appends the levels and values of rows to the column buffers.")
	if shredFails {
		stmts = append(stmts, jen.Return(jen.Nil()))
		f.Func().Params(jen.Id("w").Op("*").Id(n.Writer)).Id("shred").Params(jen.Id("rows").Index().Add(tref.Code())).Error().Block(stmts...)
	} else {
		f.Func().Params(jen.Id("w").Op("*").Id(n.Writer)).Id("shred").Params(jen.Id("rows").Index().Add(tref.Code())).Block(stmts...)
	}
	f.Line()
}

// wenv is the shredding context: the definition level reached and the
// repetition level of the next slot (a literal 0 at the top, or a variable).
type wenv struct {
	def    int
	rep    string
	repLit bool
}

func (e wenv) repCode() jen.Code {
	if e.repLit {
		return jen.Lit(0)
	}
	return jen.Id(e.rep)
}

// levels appends one slot's levels to leaf l's buffer.
func levels(l *schema.Node, def int, e wenv, nm *namer) []jen.Code {
	c := nm.names.col(l.Column)
	var out []jen.Code
	if l.MaxDef > 0 {
		out = append(out, jen.Id(c).Dot("Def").Op("=").Append(jen.Id(c).Dot("Def"), jen.Lit(def)))
	}
	if l.MaxRep > 0 {
		out = append(out, jen.Id(c).Dot("Rep").Op("=").Append(jen.Id(c).Dot("Rep"), e.repCode()))
	}
	return out
}

// nulls appends a null (or empty list) slot at level def to every leaf
// under n.
func nulls(n *schema.Node, def int, e wenv, nm *namer) []jen.Code {
	var out []jen.Code
	for _, l := range leaves(n) {
		out = append(out, levels(l, def, e, nm)...)
	}
	return out
}

// shred emits the statements appending the value at p.
func shred(v *Value, p place, e wenv, nm *namer) []jen.Code {
	switch v.Null {
	case NullPointer:
		inner := p.deref()
		pre := []jen.Code{}
		if v.Kind == KindStruct && len(v.Struct.Fields) > 1 {
			// Fields are reached through a local copy of the pointer.
			s := nm.next("s")
			pre = append(pre, jen.Id(s).Op(":=").Add(p()))
			var out []jen.Code
			e2 := wenv{def: int(v.Node.MaxDef), rep: e.rep, repLit: e.repLit}
			for _, fl := range v.Struct.Fields {
				out = append(out, shred(fl.Value, id(s).dot(fl.Name), e2, nm)...)
			}
			return []jen.Code{jen.If(p().Op("==").Nil()).Block(nulls(v.Node, e.def, e, nm)...).Else().Block(append(pre, out...)...)}
		}
		return []jen.Code{jen.If(p().Op("==").Nil()).Block(nulls(v.Node, e.def, e, nm)...).Else().Block(
			shredPresent(v, inner, wenv{def: int(v.Node.MaxDef), rep: e.rep, repLit: e.repLit}, nm)...)}
	case NullNil:
		return []jen.Code{jen.If(p().Op("==").Nil()).Block(nulls(v.Node, e.def, e, nm)...).Else().Block(
			shredPresent(v, p, wenv{def: int(v.Node.MaxDef), rep: e.rep, repLit: e.repLit}, nm)...)}
	case NullZero:
		return []jen.Code{jen.If(zeroCheck(v, p)).Block(nulls(v.Node, e.def, e, nm)...).Else().Block(
			shredPresent(v, p, wenv{def: int(v.Node.MaxDef), rep: e.rep, repLit: e.repLit}, nm)...)}
	}
	return shredPresent(v, p, e, nm)
}

// shredPresent emits the statements for a non-null value at p.
func shredPresent(v *Value, p place, e wenv, nm *namer) []jen.Code {
	switch v.Kind {
	case KindScalar:
		l := v.Node
		return append(levels(l, e.def, e, nm), appendValue(v, p, nm))
	case KindStruct:
		var out []jen.Code
		sp := p
		if len(v.Struct.Fields) > 1 {
			s := nm.next("s")
			out = append(out, jen.Id(s).Op(":=").Op("&").Add(p()))
			sp = id(s)
		}
		for _, fl := range v.Struct.Fields {
			out = append(out, shred(fl.Value, sp.dot(fl.Name), e, nm)...)
		}
		return out
	case KindList, KindMap:
		r := v.Repeated
		empty := nulls(v.Node, int(r.MaxDef)-1, e, nm)
		rv, j := nm.next("r"), nm.next("j")
		inner := wenv{def: int(r.MaxDef), rep: rv}
		repSet := []jen.Code{
			jen.Id(rv).Op(":=").Id("uint8").Call(jen.Lit(int(r.MaxRep))),
			jen.If(jen.Id(j).Op("==").Lit(0)).Block(jen.Id(rv).Op("=").Add(e.repCode())),
		}
		if v.Kind == KindList {
			s := nm.next("l")
			body := append(repSet, shred(v.Elem, func() *jen.Statement { return jen.Id(s).Index(jen.Id(j)) }, inner, nm)...)
			return []jen.Code{
				jen.Id(s).Op(":=").Add(p()),
				jen.If(jen.Len(jen.Id(s)).Op("==").Lit(0)).Block(empty...).Else().Block(
					jen.For(jen.Id(j).Op(":=").Range().Id(s)).Block(body...)),
			}
		}
		// Entries are written in ascending key order (runtime.MapEntries)
		// unless WithSortedMaps(false), so that the same rows give the same
		// bytes.
		m, es := nm.next("m"), nm.next("e")
		entry := func(field string) place {
			return func() *jen.Statement { return jen.Id(es).Index(jen.Id(j)).Dot(field) }
		}
		body := append(repSet, shred(v.Key, entry("Key"), inner, nm)...)
		body = append(body, shred(v.Elem, entry("Value"), inner, nm)...)
		return []jen.Code{
			jen.Id(m).Op(":=").Add(p()),
			jen.If(jen.Len(jen.Id(m)).Op("==").Lit(0)).Block(empty...).Else().Block(
				jen.Id(es).Op(":=").Add(sortedEntries(v, jen.Id(m), nm.names)),
				jen.For(jen.Id(j).Op(":=").Range().Id(es)).Block(body...)),
		}
	}
	return nil
}

// mapVar names the writer's scratch slice of the entries of map v (see
// runtime.MapEntries): one per map in the schema, reused for every row.
func (n *Names) mapVar(v *Value) string { return "entries" + n.Values[v] }

// mapFields returns the maps of the row type the shredder sorts, outside
// Variants, depth first.
func mapFields(t *Type) []*Value {
	var out []*Value
	for _, fl := range t.Root.Struct.Fields {
		if fl.Value.Kind == KindVariant {
			continue
		}
		fl.Value.walk(func(v *Value) {
			if v.Kind == KindMap {
				out = append(out, v)
			}
		})
	}
	return out
}

// sortedEntries is the call listing the entries of the map m (of value
// v) into the writer's scratch slice, in ascending key order unless the
// FileWriter was made WithSortedMaps(false): numbers by
// value, strings by bytes, booleans false first, times by instant (the
// order of their encoded values), and byte arrays (FIXED_LEN_BYTE_ARRAY,
// INT96) by their bytes.
func sortedEntries(v *Value, m jen.Code, n *Names) jen.Code {
	k := v.Key
	buf := jen.Op("&").Id("w").Dot(n.mapVar(v))
	sorted := jen.Id("w").Dot("fw").Dot("SortedMaps").Call()
	kt := k.Go.Code()
	cmpFunc := func(body ...jen.Code) jen.Code {
		return jen.Func().Params(jen.List(jen.Id("a"), jen.Id("b")).Add(kt)).Int().Block(body...)
	}
	var compare jen.Code
	switch {
	case k.Conv == ConvTimestamp || k.Conv == ConvDate:
		compare = jen.Qual(pathRuntime, "CompareTime")
	case k.Conv == ConvDecimal:
		compare = jen.Qual(pathRuntime, "CompareDecimal")
	case k.Conv == ConvInterval:
		compare = jen.Qual(pathRuntime, "CompareInterval")
	case k.Conv == ConvFixed || k.Node.Type == meta.Int96:
		compare = cmpFunc(jen.Return(jen.Qual("bytes", "Compare").Call(jen.Id("a").Index(jen.Empty(), jen.Empty()), jen.Id("b").Index(jen.Empty(), jen.Empty()))))
	case k.Node.Type == meta.Boolean:
		compare = jen.Qual(pathRuntime, "CompareBool").Types(kt)
	default:
		return jen.Qual(pathRuntime, "MapEntries").Call(m, buf, sorted)
	}
	return jen.Qual(pathRuntime, "MapEntriesFunc").Call(m, buf, sorted, compare)
}

// appendValue appends the scalar at p to its leaf's buffer.
func appendValue(v *Value, p place, nm *namer) jen.Code {
	l := v.Node
	c := nm.names.col(l.Column)
	vals := jen.Id(c).Dot("Values")
	app := func(x jen.Code) jen.Code { return jen.Id(c).Dot("Values").Op("=").Append(jen.Id(c).Dot("Values"), x) }
	tm := func(name string) *jen.Statement { return jen.Qual("time", name) }
	unit := l.Logical.Time.Unit
	switch v.Conv {
	case ConvString:
		return vals.Dot("AppendString").Call(convert(v.Base, named("", "string"), p()))
	case ConvBytes:
		return vals.Dot("Append").Call(convert(v.Base, sliceOf(named("", "byte")), p()))
	case ConvFixed:
		return jen.Id(c).Dot("Values").Op("=").Append(jen.Id(c).Dot("Values"), p().Index(jen.Empty(), jen.Empty()).Op("..."))
	case ConvFloat16:
		return vals.Clone().Op("=").Qual(pathRuntime, "AppendFloat16").Call(vals.Clone(), convert(v.Base, named("", "float32"), p()))
	case ConvInterval:
		return vals.Clone().Op("=").Qual(pathRuntime, "AppendInterval").Call(vals.Clone(), convert(v.Base, intervalType, p()))
	case ConvDecimal:
		// Rescaled exactly to the column or an error (runtime.ErrValue).
		d := l.Logical.Decimal
		args := []jen.Code{convert(v.Base, decimalType, p()), jen.Lit(int(d.Scale)), jen.Lit(int(d.Precision))}
		var call *jen.Statement
		switch l.Type {
		case meta.Int32:
			call = jen.Qual(pathRuntime, "DecimalUnscaled32").Call(args...)
		case meta.Int64:
			call = jen.Qual(pathRuntime, "DecimalUnscaled64").Call(args...)
		default:
			call = jen.Qual(pathRuntime, "AppendDecimalFixed").Call(append([]jen.Code{vals.Clone()}, append(args, jen.Lit(int(l.TypeLength)))...)...)
		}
		fail := jen.Return(jen.Qual("fmt", "Errorf").Call(jen.Lit("column "+l.PathString()+": %w"), jen.Err()))
		if l.Type == meta.FixedLenByteArray {
			return jen.If(jen.List(jen.Id("b"), jen.Err()).Op(":=").Add(call), jen.Err().Op("!=").Nil()).Block(fail).Else().Block(vals.Clone().Op("=").Id("b"))
		}
		return jen.If(jen.List(jen.Id("u"), jen.Err()).Op(":=").Add(call), jen.Err().Op("!=").Nil()).Block(fail).Else().Block(app(jen.Id("u")))
	case ConvTimestamp:
		switch unit {
		case meta.Millis:
			return app(p().Dot("UnixMilli").Call())
		case meta.Micros:
			return app(p().Dot("UnixMicro").Call())
		}
		return app(p().Dot("UnixNano").Call())
	case ConvDate:
		return app(jen.Qual(pathRuntime, "DateDays").Call(p()))
	case ConvDuration:
		d := convert(v.Base, timeDuration, p())
		if l.Logical.Kind != meta.LogicalTime {
			return app(jen.Int64().Call(d))
		}
		switch unit {
		case meta.Millis:
			return app(jen.Int32().Call(d.Op("/").Add(tm("Millisecond"))))
		case meta.Micros:
			return app(jen.Int64().Call(d.Op("/").Add(tm("Microsecond"))))
		}
		return app(jen.Int64().Call(d))
	}
	switch l.Type {
	case meta.Boolean:
		return app(convert(v.Base, named("", "bool"), p()))
	case meta.Int32:
		return app(convert(v.Base, named("", "int32"), p()))
	case meta.Int64:
		return app(convert(v.Base, named("", "int64"), p()))
	case meta.Int96:
		return app(convert(v.Base, int96Type, p()))
	case meta.Float:
		return app(convert(v.Base, named("", "float32"), p()))
	case meta.Double:
		return app(convert(v.Base, named("", "float64"), p()))
	}
	return app(p())
}

// convert converts x, of type from, to type to, unless they are the same.
func convert(from, to *TypeRef, x jen.Code) *jen.Statement {
	if sameType(from, to) {
		return jen.Add(x)
	}
	return to.Code().Call(x)
}

func sameType(a, b *TypeRef) bool {
	if a.Kind != b.Kind {
		return false
	}
	switch a.Kind {
	case RefNamed:
		return a.Pkg == b.Pkg && a.Name == b.Name && len(a.Args) == 0 && len(b.Args) == 0 ||
			a.Pkg == "" && b.Pkg == "" && (a.Name == "byte" && b.Name == "uint8" || a.Name == "uint8" && b.Name == "byte")
	case RefSlice:
		return sameType(a.Elem, b.Elem)
	}
	return false
}

// withTagOptions is the option list of a writer: the options from struct
// tags first, then the caller's, which win.
func withTagOptions(t *Type) jen.Code {
	if len(t.Columns) == 0 {
		return jen.Id("opts").Op("...")
	}
	o := jen.Id(t.Names.Options)
	return jen.Append(o.Clone().Index(jen.Empty(), jen.Len(o.Clone()), jen.Len(o.Clone())), jen.Id("opts").Op("...")).Op("...")
}

var codecNames = map[string]string{
	"snappy": "Snappy", "gzip": "Gzip", "zstd": "Zstd", "brotli": "Brotli", "lz4": "LZ4", "lz4raw": "LZ4Raw", "uncompressed": "Uncompressed",
}

// emitOptions emits the writer options from struct tags, if any.
func emitOptions(f *jen.File, t *Type) {
	if len(t.Columns) == 0 {
		return
	}
	var opts []jen.Code
	for _, l := range t.Schema.Leaves {
		c := t.Columns[l.Column]
		if c == nil {
			continue
		}
		path := jen.Lit(c.Path)
		rt := func(name string) *jen.Statement { return jen.Qual(pathRuntime, name) }
		if c.Compression != "" {
			opts = append(opts, rt("WithColumnCompression").Call(path, jen.Qual(pathMeta, codecNames[c.Compression]), jen.Qual(pathCompress, "DefaultLevel")))
		}
		switch c.Dict {
		case "on":
			opts = append(opts, rt("WithColumnDictionary").Call(path, jen.True()))
		case "off":
			opts = append(opts, rt("WithColumnDictionary").Call(path, jen.False()))
		}
		if c.Encoding != "" {
			enc, _ := encodingFor(c.Encoding, l.Type)
			if c.Dict == "" {
				// An explicit encoding is the column's encoding, not a
				// fallback after the dictionary.
				opts = append(opts, rt("WithColumnDictionary").Call(path, jen.False()))
			}
			opts = append(opts, rt("WithColumnEncoding").Call(path, jen.Qual(pathMeta, enc)))
		}
		if c.BloomNDV > 0 {
			opts = append(opts, rt("WithColumnBloomFilter").Call(path, jen.Lit(int(c.BloomNDV)), jen.Lit(0)))
		}
	}
	docf(f, "%s are the writer options of %s's struct tags; the options given to\n%s follow them, and win.", t.Names.Options, t.Name, t.Names.NewWriter)
	items := make([]jen.Code, len(opts))
	for i, o := range opts {
		items[i] = jen.Line().Add(o)
	}
	items = append(items, jen.Line())
	f.Var().Id(t.Names.Options).Op("=").Index().Qual(pathRuntime, "WriterOption").Values(items...)
	f.Line()
}

// hasConv reports whether a scalar of t converts with c.
func hasConv(t *Type, c Conv) bool {
	found := false
	t.Root.walk(func(v *Value) { found = found || v.Kind == KindScalar && v.Conv == c })
	return found
}
