package gen

import (
	"fmt"
	"strconv"

	"github.com/dave/jennifer/jen"

	"github.com/pqgen/pqgen/runtime"
	"github.com/pqgen/pqgen/runtime/meta"
	"github.com/pqgen/pqgen/runtime/schema"
)

// writerMethods are the templates of TWriter's constructors and methods
// (gen/templates/writer.tmpl), in the order of the file.
var writerMethods = []string{"writer_new", "writer_for", "writer_write", "writer_batchbytes", "writer_endrows", "writer_flush", "writer_close"}

// emitWriter emits TWriter, its constructors and methods, and the
// shredder, from the writer's plan: one template or emitter per
// declaration.
func emitWriter(f *jen.File, p *writePlan) {
	fill(f, "writer_type", p)
	emitOptions(f, p)
	for _, name := range writerMethods {
		if name == "writer_batchbytes" && p.Check == 0 {
			continue // no byte check
		}
		fill(f, name, p)
	}
	emitShred(f, p)
}

// emitOptions emits TOptions, the writer options from struct tags, if any.
func emitOptions(f *jen.File, p *writePlan) {
	if !p.HasOptions {
		return
	}
	docf(f, "%s are the writer options of %s's struct tags; the options given to\n%s follow them, and win.", p.Names.Options, p.Type, p.Names.NewWriter)
	items := make([]jen.Code, 0, len(p.Options)+1)
	for _, o := range p.Options {
		items = append(items, jen.Line().Add(o.code()))
	}
	items = append(items, jen.Line())
	f.Var().Id(p.Names.Options).Op("=").Index().Qual(pathRuntime, "WriterOption").Values(items...)
	f.Line()
}

// emitShred emits shred, the method appending the levels and values of
// rows to the column buffers, and the methods it runs as its parts
// (runtime.ShredParts): one per top-level field, each a loop over the rows
// appending to the field's own columns only.
func emitShred(f *jen.File, p *writePlan) {
	docf(f, "shred appends the levels and values of rows to the column buffers, one\ntop-level field at a time, or several at once under WithParallelism\n(runtime.ShredParts), a tile of rows at a time (runtime.ShredTile: rows\nof a wide type are still in cache for the next field); the parts read\nrows from w.rows.")
	recv := jen.Params(jen.Id("w").Op("*").Id(p.Names.Writer))
	var first, next jen.Code // the file's index of each tile's first row, for valueFail
	if p.ShredFails {
		tileRow := jen.Id("w").Dot("tileRow")
		first = tileRow.Clone().Op("=").Id("w").Dot("fw").Dot("NumRows").Call().Op("+").Int64().Call(jen.Id("w").Dot("pending"))
		next = tileRow.Clone().Op("+=").Int64().Call(jen.Id("k"))
	}
	f.Func().Add(recv, jen.Id("shred"), jen.Params(jen.Id("rows").Index().Add(p.Row.Code()))).Error().Block(
		first,
		jen.For(
			jen.Id("tile").Op(":=").Qual(pathRuntime, "ShredTile").Types(p.Row.Code()).Call(jen.Id("w").Dot("parts"), jen.Len(jen.Id("rows"))),
			jen.Len(jen.Id("rows")).Op(">").Lit(0),
			jen.Empty(),
		).Block(
			jen.Id("k").Op(":=").Min(jen.Id("tile"), jen.Len(jen.Id("rows"))),
			jen.Id("w").Dot("rows").Op("=").Id("rows").Index(jen.Empty(), jen.Id("k")),
			jen.Err().Op(":=").Id("w").Dot("parts").Dot("Run").Call(jen.Id("k")),
			jen.Id("w").Dot("rows").Op("=").Nil(),
			jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
			jen.Id("rows").Op("=").Id("rows").Index(jen.Id("k"), jen.Empty()),
			next,
		),
		jen.Return(jen.Nil()))
	f.Line()
	for _, fl := range p.Fields {
		emitShredField(f, p, fl)
	}
}

// emitShredField emits the method shredding top-level field fl of rows:
// its loop, then the clearing of the entry slices of the maps within it.
func emitShredField(f *jen.File, p *writePlan, fl writeField) {
	var stmts []jen.Code
	switch fl.Strategy {
	case shredVariant:
		stmts = []jen.Code{
			jen.Id("vw").Op(":=").Id("w").Dot(fl.Variant),
			jen.For(jen.Id("i").Op(":=").Range().Id("rows")).Block(
				jen.If(jen.Err().Op(":=").Id("vw").Dot("Append").Call(jen.Id("rows").Index(jen.Id("i")).Dot(fl.Name), jen.Lit(0)), jen.Err().Op("!=").Nil()).Block(
					valueFail(fl.Value.Node, true))),
		}
	case shredFill:
		stmts = shredFillCode(fl, p.Names)
	default:
		nm := &namer{names: p.Names, shredding: true}
		for _, b := range fl.Buffers {
			stmts = append(stmts, jen.Id(b).Op(":=").Id("w").Dot(b))
		}
		env := wenv{def: 0, repLit: true}
		inner := shred(fl.Value, id("x").dot(fl.Name), env, nm)
		stmts = append(stmts, jen.For(jen.Id("i").Op(":=").Range().Id("rows")).Block(
			append([]jen.Code{jen.Id("x").Op(":=").Op("&").Id("rows").Index(jen.Id("i"))}, inner...)...))
	}
	if len(fl.Maps) > 0 {
		// The entry slices keep no reference to the rows once shredded.
		stmts = append(stmts, jen.Comment("drop the rows' keys and values from the entry slices"))
		for _, m := range fl.Maps {
			b := jen.Id("w").Dot(m)
			stmts = append(stmts, jen.Clear(b.Clone().Index(jen.Empty(), jen.Cap(b.Clone()))))
		}
	}
	what := commentText(fl.Column)
	if fl.Strategy == shredVariant {
		what += " (Variant)"
	}
	docf(f, "%s appends the levels and values of %s to its columns' buffers.", fl.Method, what)
	recv := jen.Params(jen.Id("w").Op("*").Id(p.Names.Writer))
	params := jen.Params(jen.Id("rows").Index().Add(p.Row.Code()))
	if p.ShredFails {
		stmts = append(stmts, jen.Return(jen.Nil()))
		f.Func().Add(recv, jen.Id(fl.Method), params).Error().Block(stmts...)
	} else {
		f.Func().Add(recv, jen.Id(fl.Method), params).Block(stmts...)
	}
	f.Line()
}

// shredVar names the writer's method shredding top-level field v.
func (n *Names) shredVar(v *Value) string { return "shred" + n.Values[v] }

// mixedVar names the writer's field telling whether the last batch's
// rows of nullable top-level field v were mixed (writeField.Mixed).
func (n *Names) mixedVar(v *Value) string { return "mixed" + n.Values[v] }

// shredFillCode is the block shredding field fl by shredFill: its leaf's
// Values (and Def, when the field may be null) are grown by len(rows) with
// slices.Grow, and the loop assigns each row's level by index and appends
// its value to a local, in room already made.
func shredFillCode(fl writeField, n *Names) []jen.Code {
	v := fl.Value
	c := n.col(v.Node.Column)
	col := func(f string) *jen.Statement { return jen.Id(c).Dot(f) }
	x := id("x").dot(fl.Name)
	grow := func(s jen.Code) *jen.Statement {
		return jen.Qual("slices", "Grow").Call(s, jen.Len(jen.Id("rows")))
	}
	// all := grow(col.f)[:len(col.f)+len(rows)]; tail := all[len(col.f):][:len(rows)],
	// the tail sliced to len(rows) so that the loop indexes it unchecked.
	fill := func(f, all, tail string) []jen.Code {
		return []jen.Code{
			jen.Id(all).Op(":=").Add(grow(col(f))).Index(jen.Empty(), jen.Len(col(f)).Op("+").Len(jen.Id("rows"))),
			jen.Id(tail).Op(":=").Id(all).Index(jen.Len(col(f)), jen.Empty()).Index(jen.Empty(), jen.Len(jen.Id("rows"))),
		}
	}
	out := []jen.Code{jen.Id(c).Op(":=").Id("w").Dot(c)}
	row := jen.Id("x").Op(":=").Op("&").Id("rows").Index(jen.Id("i"))
	if v.Null == NotNull {
		val, _ := plainValue(v, x)
		out = append(out, fill("Values", "vals", "dst")...)
		out = append(out,
			jen.For(jen.Id("i").Op(":=").Range().Id("rows")).Block(nonNil(row, valueGuard(v, x, true), jen.Id("dst").Index(jen.Id("i")).Op("=").Add(val))...),
			col("Values").Op("=").Id("vals"))
		return out
	}
	present, null := x, func() jen.Code { return jen.Add(x()).Op("==").Nil() }
	if v.Null == NullPointer {
		present = x.deref()
	} else {
		null = func() jen.Code { return zeroCheck(v, x) }
	}
	value := func() jen.Code { val, _ := plainValue(v, present); return val }
	appendValue := func(levels ...jen.Code) []jen.Code {
		return nonNil(append(append([]jen.Code{valueGuard(v, present, true)}, levels...), jen.Id("vals").Op("=").Append(jen.Id("vals"), value()))...)
	}
	// Rows with and without a value mixed in the last batch: the levels
	// first, then the values of the rows runtime.Defined finds, without a
	// branch per row; else a test of each row, which mispredicts rarely
	// (see runtime.Mixed).
	from := jen.Id("from")
	byLevels := []jen.Code{
		jen.For(jen.Id("i").Op(":=").Range().Id("rows")).Block(row,
			jen.Id("d").Op(":=").Uint8().Parens(jen.Lit(1)),
			jen.If(null()).Block(jen.Id("d").Op("=").Lit(0)),
			jen.Id("def").Index(jen.Id("i")).Op("=").Id("d")),
		jen.Var().Id("defined").Index(jen.Lit(definedRows)).Int32().Comment("rows that hold a value, a stretch at a time"),
		jen.For(from.Clone().Op(":=").Lit(0), from.Clone().Op("<").Len(jen.Id("def")), from.Clone().Op("+=").Len(jen.Id("defined"))).Block(
			jen.For(jen.List(jen.Id("_"), jen.Id("i")).Op(":=").Range().Add(runtimeID("Defined")).Call(jen.Id("defined").Index(jen.Empty(), jen.Empty()), jen.Id("def"), from.Clone(), jen.Lit(1))).Block(
				append([]jen.Code{row}, appendValue()...)...)),
	}
	byRow := jen.For(jen.Id("i").Op(":=").Range().Id("rows")).Block(row,
		jen.If(null()).Block(jen.Id("def").Index(jen.Id("i")).Op("=").Lit(0)).Else().Block(
			appendValue(jen.Id("def").Index(jen.Id("i")).Op("=").Lit(1))...))
	mixed := jen.Id("w").Dot(fl.Mixed)
	out = append(out, fill("Def", "defs", "def")...)
	out = append(out,
		jen.Id("vals").Op(":=").Add(grow(col("Values"))),
		jen.If(mixed.Clone()).Block(byLevels...).Else().Block(byRow),
		mixed.Clone().Op("=").Add(runtimeID("Mixed")).Call(jen.Len(jen.Id("vals")).Op("-").Len(col("Values")), jen.Len(jen.Id("rows"))),
		col("Def").Op("=").Id("defs"),
		col("Values").Op("=").Id("vals"))
	return out
}

// nonNil returns the statements of s that are not nil.
func nonNil(s ...jen.Code) []jen.Code {
	out := s[:0]
	for _, c := range s {
		if c != nil {
			out = append(out, c)
		}
	}
	return out
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
	if x, ok := plainValue(v, p); ok {
		if g := valueGuard(v, p, nm.shredding); g != nil {
			return jen.Add(g, jen.Line(), app(x))
		}
		return app(x)
	}
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
		fail := valueFail(l, nm.shredding)
		if l.Type == meta.FixedLenByteArray {
			return jen.If(jen.List(jen.Id("b"), jen.Err()).Op(":=").Add(call), jen.Err().Op("!=").Nil()).Block(fail).Else().Block(vals.Clone().Op("=").Id("b"))
		}
		return jen.If(jen.List(jen.Id("u"), jen.Err()).Op(":=").Add(call), jen.Err().Op("!=").Nil()).Block(fail).Else().Block(app(jen.Id("u")))
	}
	// plainValue covers ConvNative of every physical type the front ends
	// give it (fromgo.go, fromschema.go: numbers and booleans, never byte
	// arrays), and the cases above every other conversion.
	panic(fmt.Sprintf("gen: column %s: conversion %d of physical type %v has no append (a pqgen bug)", l.PathString(), v.Conv, l.Type))
}

// plainValue returns the value a scalar at p stores as one element of its
// leaf's Values, when it is one (numbers, booleans, times and INT96),
// valid when valueGuard's statement, if any, ran before it; ok is false
// for the values appended otherwise (strings, byte slices, fixed arrays,
// FLOAT16, INTERVAL, runtime.Decimal).
func plainValue(v *Value, p place) (x jen.Code, ok bool) {
	l := v.Node
	tm := func(name string) *jen.Statement { return jen.Qual("time", name) }
	unit := l.Logical.Time.Unit
	switch v.Conv {
	case ConvTimestamp:
		switch unit {
		case meta.Millis:
			return p().Dot("UnixMilli").Call(), true
		case meta.Micros:
			return p().Dot("UnixMicro").Call(), true
		}
		return p().Dot("UnixNano").Call(), true
	case ConvDate:
		return jen.Qual(pathRuntime, "DateDays").Call(p()), true
	case ConvDuration:
		d := convert(v.Base, timeDuration, p())
		if l.Logical.Kind != meta.LogicalTime {
			return jen.Int64().Call(d), true
		}
		switch unit {
		case meta.Millis:
			return jen.Int32().Call(d.Op("/").Add(tm("Millisecond"))), true
		case meta.Micros:
			return jen.Int64().Call(d.Op("/").Add(tm("Microsecond"))), true
		}
		return jen.Int64().Call(d), true
	case ConvNative:
		switch l.Type {
		case meta.Boolean:
			return convert(v.Base, named("", "bool"), p()), true
		case meta.Int32:
			return convert(v.Base, named("", "int32"), p()), true
		case meta.Int64:
			return convert(v.Base, named("", "int64"), p()), true
		case meta.Int96:
			return convert(v.Base, int96Type, p()), true
		case meta.Float:
			return convert(v.Base, named("", "float32"), p()), true
		case meta.Double:
			return convert(v.Base, named("", "float64"), p()), true
		}
	}
	return nil, false
}

// valueGuard returns the statement that fails the shredding of the scalar
// at p when plainValue's conversion cannot hold it, returning an error
// naming the column that wraps runtime.ErrValue, or nil when every value
// converts: a time.Time beyond the INT64 count of its TIMESTAMP unit (in
// nanoseconds, before 1677 or after 2262: the zero time.Time) or the
// INT32 days of a DATE, a time.Duration beyond the INT32 milliseconds of
// a TIME(MILLIS), an integer DECIMAL of more digits than its precision.
// Timestamps and dates compare the seconds inline with the runtime's
// SafeSeconds and DateSeconds constants and call it only beyond them.
func valueGuard(v *Value, p place, shredding bool) jen.Code {
	l := v.Node
	rt := func(name string) *jen.Statement { return jen.Qual(pathRuntime, name) }
	fail := valueFail(l, shredding)
	check := func(call *jen.Statement) *jen.Statement {
		return jen.If(jen.List(jen.Id("_"), jen.Err()).Op(":=").Add(call), jen.Err().Op("!=").Nil()).Block(fail)
	}
	beyond := func(lo, hi int64, call *jen.Statement) jen.Code {
		lit := func(x int64) jen.Code { return jen.Id(strconv.FormatInt(x, 10)) } // untyped
		return jen.If(jen.Id("s").Op(":=").Add(p()).Dot("Unix").Call(), jen.Id("s").Op("<=").Add(lit(lo)).Op("||").Id("s").Op(">=").Add(lit(hi))).Block(check(call))
	}
	switch v.Conv {
	case ConvTimestamp:
		switch l.Logical.Time.Unit {
		case meta.Millis:
			return beyond(-runtime.SafeSecondsMillis, runtime.SafeSecondsMillis, rt("UnixMillis").Call(p()))
		case meta.Micros:
			return beyond(-runtime.SafeSecondsMicros, runtime.SafeSecondsMicros, rt("UnixMicros").Call(p()))
		}
		return beyond(-runtime.SafeSecondsNanos, runtime.SafeSecondsNanos, rt("UnixNanos").Call(p()))
	case ConvDate:
		return beyond(runtime.DateSecondsMin, runtime.DateSecondsEnd, rt("UnixDays").Call(p()))
	case ConvDuration:
		if l.Logical.Kind == meta.LogicalTime && l.Logical.Time.Unit == meta.Millis {
			return check(rt("TimeMillis").Call(convert(v.Base, timeDuration, p())))
		}
	case ConvNative:
		if l.Logical.Kind != meta.LogicalDecimal {
			return nil
		}
		prec := jen.Lit(int(l.Logical.Decimal.Precision))
		switch l.Type {
		case meta.Int32:
			return check(rt("DecimalDigits32").Call(convert(v.Base, named("", "int32"), p()), prec))
		case meta.Int64:
			return check(rt("DecimalDigits64").Call(convert(v.Base, named("", "int64"), p()), prec))
		}
	}
	return nil
}

// valueFail returns err, the error of a value leaf l cannot hold, naming
// the column as the FileWriter's own checks of the values do and, in a
// writer's shredding loop (shredding), the row: the index in the file of
// rows[i] (w.tileRow is that of rows[0]). A predicate builder's value
// (TWhere) has no row.
func valueFail(l *schema.Node, shredding bool) jen.Code {
	if !shredding {
		return jen.Return(jen.Qual("fmt", "Errorf").Call(jen.Lit("column %q: %w"), jen.Lit(l.PathString()), jen.Err()))
	}
	return jen.Return(jen.Qual("fmt", "Errorf").Call(jen.Lit("column %q: row %d: %w"), jen.Lit(l.PathString()), jen.Id("w").Dot("tileRow").Op("+").Int64().Call(jen.Id("i")), jen.Err()))
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
