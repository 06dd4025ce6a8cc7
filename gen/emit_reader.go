package gen

import (
	"fmt"

	"github.com/dave/jennifer/jen"

	"github.com/pqgen/pqgen/runtime/meta"
	"github.com/pqgen/pqgen/runtime/schema"
)

// emitReader emits TReader, NewTReader, its methods and the assembler,
// one emitter per declaration, from the read plan of t.
func emitReader(f *jen.File, t *Type) {
	p := planRead(t)
	part, fills, whole := p.assembleBody()
	p.emitType(f)
	p.emitSlabs(f)
	p.emitDrivers(f)
	p.emitConstructor(f)
	p.emitMethods(f)
	p.emitRead(f)
	p.emitAssemble(f, part, fills, whole)
}

// runtimeID is the runtime identifier name.
func runtimeID(name string) *jen.Statement { return jen.Qual(pathRuntime, name) }

// emitType emits the reader's type: its file reader, leaf table, typed
// column readers (for monomorphic assembly), Variant readers, defaults
// and slabs.
func (p *readPlan) emitType(f *jen.File) {
	t, n := p.t, &p.t.Names
	fields := []jen.Code{
		jen.Id("fr").Op("*").Add(runtimeID("FileReader")),
		jen.Id("leaves").Op("*").Add(runtimeID("Leaves")).Comment("the leaf columns read"),
		jen.Id("read").Int64(),
		jen.Id("closed").Bool(),
		jen.Id("err").Error().Comment("the error Read failed with, which every later Read returns"),
		jen.Id("ahead").Index().Add(t.Root.Go.Code()).Comment("rows All read and did not yield, which Read returns first"),
	}
	if len(p.drivers) > 0 {
		fields = append(fields,
			jen.Id("drv").Index(jen.Len(jen.Id(n.Drivers))).Int().Comment("per nested value: the leaf deciding it, or -1"),
			jen.Id("lv").Index(jen.Id(n.LeafCount)).Op("*").Add(runtimeID("Levels")).Comment("per leaf: its levels, nil when not read"),
		)
	}
	for _, l := range p.leaves {
		fields = append(fields, jen.Id(n.col(l.Column)).Op("*").Add(runtimeID(physName(l.Type)+"Reader")).Comment(commentText(l.PathString())+"; nil when not read"))
	}
	for _, fl := range p.variants {
		fields = append(fields, jen.Id(n.variantVar(fl.Value)).Op("*").Add(runtimeID("VariantReader")).Comment(commentText(fl.Value.Node.PathString())+" (Variant); nil when not read"))
	}
	for _, fl := range p.defaults {
		fields = append(fields, jen.Id(n.defaultVar(fl.Value)).Bool().Comment(commentText(fl.Value.Node.PathString())+": the file lacks it, it reads as its default"))
	}
	if p.hasSlabs() {
		fields = append(fields, jen.Id("slabs").Index(jen.Lit(2)).Id(n.Slabs).Comment("per part of a batch assembled at once (Leaves.Split)"))
	}
	docf(f, "%s reads rows of %s from a Parquet file. Create one with %s.", n.Reader, t.Name, n.NewReader)
	f.Type().Id(n.Reader).Struct(fields...)
	f.Line()
}

// hasSlabs reports whether the reader takes lists, nullable structs or
// pointer targets from slabs.
func (p *readPlan) hasSlabs() bool { return len(p.slabs.order) > 0 || len(p.ptrSlabs.fields) > 0 }

// emitSlabs emits the type of the reader's slabs: the elements of each
// list, the structs of each nullable struct and the pointer targets of
// each pointer leaf. The reader holds one per part of a batch, so that
// the two parts assembled at once (Leaves.Split) take from their own.
func (p *readPlan) emitSlabs(f *jen.File) {
	if !p.hasSlabs() {
		return
	}
	t, n := p.t, &p.t.Names
	var fields []jen.Code
	for _, v := range p.slabs.order {
		if v.Kind == KindList {
			fields = append(fields, jen.Id(p.slabs.names[v]).Add(runtimeID("Slab")).Types(v.Elem.Go.Code()).Comment("the elements of the "+commentText(v.Node.PathString())+" lists"))
		} else {
			fields = append(fields, jen.Id(p.slabs.names[v]).Add(runtimeID("Slab")).Types(v.Base.Code()).Comment("the "+commentText(v.Node.PathString())+" structs"))
		}
	}
	fields = append(fields, p.ptrSlabs.fields...)
	docf(f, "%s are the slabs %s takes the values of the rows of %s from.", n.Slabs, n.Reader, t.Name)
	f.Type().Id(n.Slabs).Struct(fields...)
	f.Line()
}

// emitDrivers emits the table of the leaves that may decide each nested
// value of the row-by-row fields.
func (p *readPlan) emitDrivers(f *jen.File) {
	if len(p.drivers) == 0 {
		return
	}
	t, n := p.t, &p.t.Names
	consts := make([]jen.Code, len(p.drivers))
	vals := make([]jen.Code, 0, len(p.drivers)+1)
	for i, d := range p.drivers {
		items := make([]jen.Code, len(d.leaves))
		for j, c := range d.leaves {
			items[j] = jen.Id(n.colIndex(c))
		}
		k := n.driver(d.value)
		consts[i] = jen.Id(k)
		vals = append(vals, jen.Line().Id(k).Op(":").Values(items...))
	}
	consts[0] = consts[0].(*jen.Statement).Op("=").Iota()
	docf(f, "The entries of %s of the nested values of %s.", n.Drivers, t.Name)
	f.Const().Defs(consts...)
	f.Line()
	docf(f, "%s lists, per nested value of %s, the leaves whose levels tell\nwhether it is null and how long it is.", n.Drivers, t.Name)
	f.Var().Id(n.Drivers).Op("=").Index(jen.Op("...")).Index().Int().Values(append(vals, jen.Line())...)
	f.Line()
}

// emitConstructor emits NewTReader: bind the schema, open the Variant
// columns and the leaf table, pick the drivers.
func (p *readPlan) emitConstructor(f *jen.File) {
	t, n := p.t, &p.t.Names
	ret := jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err()))
	body := []jen.Code{
		jen.List(jen.Id("fr"), jen.Err()).Op(":=").Add(runtimeID("NewFileReader")).Call(jen.Id("r"), jen.Id("size"), jen.Id("opts").Op("...")),
		ret,
	}
	if len(p.defaults) > 0 {
		body = append(body, jen.List(jen.Id("idx"), jen.Err()).Op(":=").Add(bindCall(n.Schema, p.variants, p.defaults)), ret)
	} else {
		body = append(body, jen.If(jen.List(jen.Id("_"), jen.Err()).Op("=").Add(bindCall(n.Schema, p.variants, p.defaults)), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err())))
	}
	body = append(body, jen.Id("tr").Op(":=").Op("&").Id(n.Reader).Values(jen.Dict{jen.Id("fr"): jen.Id("fr")}))
	for _, fl := range p.defaults {
		body = append(body, jen.Id("tr").Dot(n.defaultVar(fl.Value)).Op("=").Id("idx").Index(jen.Id(n.colIndex(fl.Value.Node.Column))).Op("<").Lit(0))
	}
	for _, fl := range p.variants {
		body = append(body, jen.If(
			jen.List(jen.Id("tr").Dot(n.variantVar(fl.Value)), jen.Err()).Op("=").Id("fr").Dot("VariantColumn").Call(jen.Lit(fl.Value.Node.PathString()), jen.Lit(fl.Value.Node.Repetition == meta.Required)),
			jen.Err().Op("!=").Nil(),
		).Block(jen.Return(jen.Nil(), jen.Err())))
	}
	// The leaf table: one slot per leaf, its typed reader stored in the
	// field named after it.
	open := []jen.Code{jen.Lit(t.Name), jen.Nil()}
	if len(p.drivers) > 0 {
		open[1] = jen.Id("tr").Dot("lv").Index(jen.Empty(), jen.Empty())
	}
	asBytes := bytesLeaves(t)
	for _, l := range p.leaves {
		slot := "Leaf"
		if asBytes[l.Column] {
			slot = "LeafBytes"
		}
		open = append(open, jen.Line().Add(runtimeID(slot)).Call(jen.Op("&").Id("tr").Dot(n.col(l.Column)), jen.Id(n.colIndex(l.Column))))
	}
	if len(p.leaves) > 0 {
		open = append(open, jen.Line())
	}
	body = append(body, jen.If(jen.List(jen.Id("tr").Dot("leaves"), jen.Err()).Op("=").Id("fr").Dot("OpenLeaves").Call(open...), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err())))
	for _, fl := range p.variants {
		body = append(body, jen.Id("tr").Dot("leaves").Dot("Jobs").Op("=").Append(jen.Id("tr").Dot("leaves").Dot("Jobs"),
			runtimeID("Col").Call(jen.Id("tr").Dot(n.variantVar(fl.Value)), jen.Lit(fl.Value.Node.PathString()))))
	}
	if len(p.drivers) > 0 {
		body = append(body, jen.Id("tr").Dot("leaves").Dot("Drivers").Call(jen.Id("tr").Dot("drv").Index(jen.Empty(), jen.Empty()), jen.Id(n.Drivers).Index(jen.Empty(), jen.Empty())))
	}
	body = append(body, jen.Return(jen.Id("tr"), jen.Nil()))
	docf(f, "%s opens the Parquet file of size bytes behind r for reading %s rows.\nThe file's schema is bound to %s's by the schema evolution rules (see\npqgen's gen/doc.go): fields match by field id, else by name; columns the\nfile lacks read as null (zero) when they may be null; columns the type\nlacks are never read; values widen exactly (integers, floats, dates, time\nunits, decimals); a narrowing, another type or a missing required column\nis an error naming the column. Variants read with any shredding.\nWithColumns reads only some columns: the fields of the others stay zero.", n.NewReader, t.Name, t.Name)
	f.Func().Id(n.NewReader).Params(jen.Id("r").Qual("io", "ReaderAt"), jen.Id("size").Int64(), jen.Id("opts").Op("...").Add(runtimeID("ReaderOption"))).
		Params(jen.Op("*").Id(n.Reader), jen.Error()).Block(body...)
	f.Line()
}

// emitMethods emits NumRows and Close, fixed text (template
// reader_methods).
func (p *readPlan) emitMethods(f *jen.File) {
	fill(f, "reader_methods", struct{ Names *Names }{&p.t.Names})
}

// emitRead emits Read: the rows available (a filter selects them ahead),
// then, tile by tile (runtime.ReadTile), every column's next rows
// (concurrently under WithReadParallelism), the levels checked across
// columns, and the rows assembled. At the end of the
// rows it releases the column readers' page buffers (FileReader.Release).
// Its first error is kept (the field err) and returned by every later
// Read: the columns that read their rows before the failing one have
// moved on, so a Read after an error would assemble rows from values of
// different rows, or end early with io.EOF.
func (p *readPlan) emitRead(f *jen.File) {
	n := &p.t.Names
	// fail records err as the reader's error and returns it, after
	// zeroing rows[:to] (the rows filled so far) when to is not empty.
	fail := func(to string) []jen.Code {
		var c []jen.Code
		if to != "" {
			c = append(c, jen.Clear(jen.Id("rows").Index(jen.Empty(), jen.Id(to))))
		}
		return append(c, jen.Id("r").Dot("err").Op("=").Err(), jen.Return(jen.Lit(0), jen.Err()))
	}
	read := []jen.Code{
		jen.If(jen.Id("r").Dot("closed")).Block(jen.Return(jen.Lit(0), jen.Qual("fmt", "Errorf").Call(jen.Lit("%w: "+n.Reader+".Read"), runtimeID("ErrClosed")))),
		jen.If(jen.Id("r").Dot("err").Op("!=").Nil()).Block(jen.Return(jen.Lit(0), jen.Id("r").Dot("err"))),
		jen.If(jen.Len(jen.Id("r").Dot("ahead")).Op(">").Lit(0)).Block(
			jen.Return(runtimeID("TakeAhead").Call(jen.Id("rows"), jen.Op("&").Id("r").Dot("ahead")), jen.Nil())),
		jen.List(jen.Id("avail"), jen.Err()).Op(":=").Id("r").Dot("fr").Dot("Available").Call(jen.Id("r").Dot("read"), jen.Len(jen.Id("rows"))),
		jen.If(jen.Err().Op("!=").Nil()).Block(fail("")...),
		jen.Id("want").Op(":=").Int64().Call(jen.Id("avail")),
		jen.If(jen.Id("want").Op("<=").Lit(0)).Block(
			jen.If(jen.Len(jen.Id("rows")).Op("==").Lit(0)).Block(jen.Return(jen.Lit(0), jen.Nil())),
			jen.Comment("The end of the rows: the page buffers go to the next reader."),
			jen.Id("r").Dot("fr").Dot("Release").Call(),
			jen.Return(jen.Lit(0), jen.Qual("io", "EOF"))),
		jen.Id("k").Op(":=").Int().Call(jen.Id("want")),
		jen.Id("rows").Op("=").Id("rows").Index(jen.Empty(), jen.Id("k")),
	}
	// Tile by tile (runtime.ReadTile): each tile's columns decoded, checked
	// and assembled while they are in cache. On an error, the rows filled
	// so far are zeroed again.
	part := jen.Id("rows").Index(jen.Id("off"), jen.Id("end"))
	tile := []jen.Code{
		jen.Id("end").Op(":=").Min(jen.Id("off").Op("+").Id("tile"), jen.Id("k")),
		jen.If(jen.Err().Op(":=").Id("r").Dot("fr").Dot("ReadColumns").Call(jen.Id("end").Op("-").Id("off"), jen.Id("r").Dot("leaves").Dot("Jobs").Op("...")), jen.Err().Op("!=").Nil()).Block(
			fail("off")...),
	}
	if p.hasLeaves() {
		tile = append(tile, jen.If(jen.Err().Op(":=").Id("r").Dot("leaves").Dot("Check").Call(), jen.Err().Op("!=").Nil()).Block(
			fail("off")...))
	}
	tile = append(tile,
		jen.Clear(part.Clone()),
		jen.If(jen.Err().Op(":=").Id("r").Dot("assemble").Call(part.Clone()), jen.Err().Op("!=").Nil()).Block(
			fail("end")...),
	)
	read = append(read,
		jen.For(
			jen.List(jen.Id("off"), jen.Id("tile")).Op(":=").List(jen.Lit(0), runtimeID("ReadTile").Types(p.t.Root.Go.Code()).Call(jen.Lit(len(p.leaves)), jen.Id("k"))),
			jen.Id("off").Op("<").Id("k"),
			jen.Id("off").Op("+=").Id("tile"),
		).Block(tile...),
		jen.Id("r").Dot("read").Op("+=").Id("want"),
		jen.Return(jen.Id("k"), jen.Nil()),
	)
	docf(f, "Read fills rows with the next rows of the file and returns how many it\nread (after an All loop that stopped early, the rows All read ahead\nand did not yield, first); after the last row it returns 0, io.EOF. Any\nother error is final: the columns may have moved on unevenly, so every\nlater Read returns it (open a new reader to read again).")
	f.Func().Params(jen.Id("r").Op("*").Id(n.Reader)).Id("Read").Params(jen.Id("rows").Index().Add(p.t.Root.Go.Code())).Params(jen.Int(), jen.Error()).Block(read...)
	f.Line()
}

// fillMethod is the method of generated readers that fills one
// top-level field of the rows of a part of a batch.
type fillMethod struct {
	name string     // "fill" and the field's value name
	plan fieldPlan  // the field and how it is assembled, for its doc
	body []jen.Code // its slabs of pointer targets, then its blocks
}

// assembleBody returns the body of assemblePart: a call of one fill
// method per top-level field but Variants, as the plan says, then the
// check that every level slot and value of the part was used; the fill
// methods themselves; and the blocks of the Variant fields, which
// assemble fills for the whole batch. A method per field keeps each
// generated function small: one assemblePart holding every field's
// loops took the compiler 19 s and 2.3 GB of a 24 s build for 1,000
// columns, and more than 2 minutes for 2,000. It records the reader's
// slabs of pointer targets in p.ptrSlabs, for emitSlabs.
func (p *readPlan) assembleBody() (part []jen.Code, fills []fillMethod, whole []jen.Code) {
	n := &p.t.Names
	stretch := false // some optional flat field needs the defined array
	scalarSlabs := &slabDecls{names: n}
	p.ptrSlabs = scalarSlabs
	for _, fp := range p.fields {
		fl := fp.field
		a := &assembler{nm: &namer{names: n}, slabs: scalarSlabs, lists: p.slabs}
		var body []jen.Code
		switch fp.how {
		case readVariant:
			whole = append(whole, jen.Comment(commentText(fp.comment())), jen.Block(variantBlock(fl, n)...))
			continue
		case readColumnWise:
			for _, l := range leaves(fl.Value.Node) {
				body = append(body, jen.Comment(commentText(l.PathString())), jen.Block(a.leafLoop(fl, l)...))
			}
		case readFlat:
			body = a.flatScalar(fl)
			stretch = stretch || fl.Value.Node.MaxDef > 0
		case readRowByRow:
			for _, c := range leafIndexes(fl.Value.Node) {
				body = append(body, jen.Id(n.col(c)).Op(":=").Id("r").Dot(n.col(c)))
			}
			inner := a.value(fl.Value, id("x").dot(fl.Name))
			body = append(body, jen.For(jen.Id("i").Op(":=").Range().Id("rows")).Block(
				append([]jen.Code{jen.Id("x").Op(":=").Op("&").Id("rows").Index(jen.Id("i"))}, inner...)...))
		}
		// The slabs this field's pointers take from, declared first.
		body = append(scalarSlabs.code, body...)
		scalarSlabs.code = nil
		fills = append(fills, fillMethod{name: "fill" + n.Values[fl.Value], plan: fp, body: body})
	}
	p.fillQ0, p.fillDefined = len(scalarSlabs.fields) > 0, stretch
	if p.fillQ0 {
		part = append(part, jen.Id("q0").Op(":=").Id("q").Comment("the part's first values"))
	}
	if stretch {
		part = append(part, jen.Var().Id("defined").Index(jen.Lit(definedRows)).Int32().Comment("rows that hold a value, a stretch at a time"))
	}
	for _, fm := range fills {
		args := []jen.Code{jen.Id("rows")}
		if p.hasSlabs() {
			args = append(args, jen.Id("sl"))
		}
		for _, x := range p.fillArrays() {
			args = append(args, jen.Op("&").Id(x))
		}
		part = append(part, jen.Id("r").Dot(fm.name).Call(args...))
	}
	part = append(part, jen.Return(jen.Id("r").Dot("leaves").Dot("UsedTo").Call(
		jen.Id("p").Index(jen.Empty(), jen.Empty()), jen.Id("q").Index(jen.Empty(), jen.Empty()),
		jen.Id("pe").Index(jen.Empty(), jen.Empty()), jen.Id("qe").Index(jen.Empty(), jen.Empty()))))
	return part, fills, whole
}

// fillArrays names the arrays assemblePart hands each fill method a
// pointer to: the level slots and values of each leaf (p, q: where the
// field's loops start and leave them; pe, qe: the part's ends), the
// part's first values when some leaf sets pointers (q0) and the scratch
// of the defined rows when some flat field is optional (defined).
func (p *readPlan) fillArrays() []string {
	x := []string{"p", "q", "pe", "qe"}
	if p.fillQ0 {
		x = append(x, "q0")
	}
	if p.fillDefined {
		x = append(x, "defined")
	}
	return x
}

// emitAssemble emits assemble, which fills the Variant fields (whole)
// and has assemblePart (body part) fill the others, in one part or in
// two at once (Leaves.Split).
func (p *readPlan) emitAssemble(f *jen.File, part []jen.Code, fills []fillMethod, whole []jen.Code) {
	t, n := p.t, &p.t.Names
	rowsT := jen.Index().Add(t.Root.Go.Code())
	body := whole
	if p.hasLeaves() {
		cur := jen.Index(jen.Id(n.LeafCount)).Int()
		all := func(x string) jen.Code { return jen.Id(x).Index(jen.Empty(), jen.Empty()) }
		call := func(rows *jen.Statement, slab int, from, to [2]string) *jen.Statement {
			args := []jen.Code{rows}
			if p.hasSlabs() {
				args = append(args, jen.Op("&").Id("r").Dot("slabs").Index(jen.Lit(slab)))
			}
			args = append(args, jen.Id(from[0]), jen.Id(from[1]), jen.Id(to[0]), jen.Id(to[1]))
			return jen.Id("r").Dot("assemblePart").Call(args...)
		}
		zero, end := [2]string{"zero", "zero"}, [2]string{"pe", "qe"}
		body = append(body,
			jen.Var().List(jen.Id("zero"), jen.Id("pm"), jen.Id("qm"), jen.Id("pe"), jen.Id("qe")).Add(cur).Comment("per leaf, level slots and values: the start, where the second half starts, the end"),
			jen.Id("m").Op(":=").Id("r").Dot("leaves").Dot("Split").Call(jen.Len(jen.Id("rows")), all("pm"), all("qm"), all("pe"), all("qe")),
			jen.If(jen.Id("m").Op("==").Lit(0)).Block(jen.Return(call(jen.Id("rows"), 0, zero, end))),
			// The goroutine reads the bounds from one heap copy, so that
			// the arrays above stay on the stack when the batch is not split.
			jen.Id("cut").Op(":=").Op("&").Index(jen.Lit(4)).Add(cur.Clone()).Values(jen.Id("pm"), jen.Id("qm"), jen.Id("pe"), jen.Id("qe")).Comment("the halves' bounds, for both goroutines"),
			jen.Return(runtimeID("Both").Call(
				jen.Line().Func().Params().Error().Block(jen.Return(call(jen.Id("rows").Index(jen.Empty(), jen.Id("m")), 0, zero, [2]string{"cut[0]", "cut[1]"}))),
				jen.Line().Func().Params().Error().Block(jen.Return(call(jen.Id("rows").Index(jen.Id("m"), jen.Empty()), 1, [2]string{"cut[0]", "cut[1]"}, [2]string{"cut[2]", "cut[3]"}))),
				jen.Line(),
			)),
		)
	} else {
		body = append(body, jen.Return(jen.Nil()))
	}
	docf(f, "assemble fills rows from the levels and values the column readers hold,\nwhich Read has checked (%s.Check): under WithReadParallelism(n ≥ 2), a\nlarge batch in two parts at once (%s.Split).", "Leaves", "Leaves")
	f.Func().Params(jen.Id("r").Op("*").Id(n.Reader)).Id("assemble").Params(jen.Id("rows").Add(rowsT.Clone())).Error().Block(body...)
	f.Line()
	if !p.hasLeaves() {
		return
	}
	params := []jen.Code{jen.Id("rows").Add(rowsT)}
	if p.hasSlabs() {
		params = append(params, jen.Id("sl").Op("*").Id(n.Slabs))
	}
	params = append(params, jen.List(jen.Id("p"), jen.Id("q"), jen.Id("pe"), jen.Id("qe")).Index(jen.Id(n.LeafCount)).Int())
	docf(f, "assemblePart fills rows, a part of the batch, from each leaf's level\nslots p[c] to pe[c] and values q[c] to qe[c], taking lists, structs and\npointer targets from sl. Every index below is in range: Read has checked\nthe levels (%s.Check) and Split found the parts' bounds.", "Leaves")
	f.Func().Params(jen.Id("r").Op("*").Id(n.Reader)).Id("assemblePart").Params(params...).Error().Block(part...)
	f.Line()
	p.emitFills(f, fills)
}

// emitFills emits the fill method of each top-level field, in field
// order. Each takes pointers to assemblePart's arrays (fillArrays) and
// moves p and q past the level slots and values its leaves used.
func (p *readPlan) emitFills(f *jen.File, fills []fillMethod) {
	t, n := p.t, &p.t.Names
	params := []jen.Code{jen.Id("rows").Index().Add(t.Root.Go.Code())}
	if p.hasSlabs() {
		params = append(params, jen.Id("sl").Op("*").Id(n.Slabs))
	}
	var arrays []jen.Code
	for _, x := range p.fillArrays() {
		if x != "defined" {
			arrays = append(arrays, jen.Id(x))
		}
	}
	params = append(params, jen.List(arrays...).Op("*").Index(jen.Id(n.LeafCount)).Int())
	if p.fillDefined {
		params = append(params, jen.Id("defined").Op("*").Index(jen.Lit(definedRows)).Int32())
	}
	for _, fm := range fills {
		how := fm.plan.note
		if how != "" {
			how = ", " + how
		}
		docf(f, "%s fills %s in rows, a part of the batch%s.", fm.name, commentText(fm.plan.field.Value.Node.Name), commentText(how))
		f.Func().Params(jen.Id("r").Op("*").Id(n.Reader)).Id(fm.name).Params(params...).Block(fm.body...)
		f.Line()
	}
}

// variantBlock copies the Variants of top-level field fl out of the
// reader's buffer (one allocation per batch).
func variantBlock(fl *Field, n *Names) []jen.Code {
	c := jen.Id("r").Dot(n.variantVar(fl.Value))
	return []jen.Code{jen.If(c.Clone().Op("!=").Nil()).Block(
		jen.Id("vs").Op(":=").Add(c.Clone()).Dot("Detach").Call(),
		jen.If(jen.Len(jen.Id("vs")).Op("!=").Len(jen.Id("rows"))).Block(
			jen.Return(jen.Qual("fmt", "Errorf").Call(jen.Lit("%w: Variant %s: %d values for %d rows"), runtimeID("ErrChunk"), jen.Lit(fl.Value.Node.PathString()), jen.Len(jen.Id("vs")), jen.Len(jen.Id("rows"))))),
		jen.For(jen.Id("i").Op(":=").Range().Id("rows")).Block(
			jen.Id("rows").Index(jen.Id("i")).Dot(fl.Name).Op("=").Id("vs").Index(jen.Id("i"))),
	)}
}

type assembler struct {
	nm    *namer
	slabs *slabDecls
	lists *readerSlabs
}

// of returns the statement sl.slabN naming v's slab in the slabs of the
// part being assembled.
func (s *readerSlabs) of(v *Value) *jen.Statement {
	return jen.Id("sl").Dot(s.names[v])
}

// slabDecls declares, once per assemble call, the slab of each pointer
// scalar leaf: one slice holding every value the batch read for it, which
// the pointers of the rows point into, taken from the reader's Slab of
// that leaf (runtime.Slab.Take: one allocation per leaf and batch, or per
// several small batches, instead of one per value).
type slabDecls struct {
	names  *Names
	done   map[int]bool
	code   []jen.Code
	fields []jen.Code // the reader's Slab fields
}

// slab returns the name of leaf v.Node's slab, declaring it on first use.
func (s *slabDecls) slab(v *Value) string {
	l := v.Node
	name := "slab" + s.names.Values[v]
	if s.done[l.Column] {
		return name
	}
	if s.done == nil {
		s.done = map[int]bool{}
	}
	s.done[l.Column] = true
	c := jen.Id("r").Dot(s.names.col(l.Column))
	k := jen.Index(jen.Id(s.names.colIndex(l.Column)))
	count := jen.Id("qe").Add(k).Op("-").Id("q").Add(k)
	s.code = append(s.code,
		jen.Var().Id(name).Index().Add(v.Base.Code()).Comment("pointer targets of "+commentText(l.PathString())+", from value q0 on"),
		jen.If(c.Clone().Op("!=").Nil()).Block(jen.Id(name).Op("=").Id("sl").Dot(name).Dot("Take").Call(count)))
	s.fields = append(s.fields, jen.Id(name).Add(runtimeID("Slab")).Types(v.Base.Code()).Comment("the pointer targets of "+commentText(l.PathString())))
	return name
}

// pointerSet emits the statements pointing p at a slab element holding
// value q of leaf v.Node (column variable c).
func (a *assembler) pointerSet(v *Value, p place, c string, qi func() *jen.Statement) []jen.Code {
	sl := a.slabs.slab(v)
	q0 := jen.Id("q0").Index(jen.Id(a.nm.names.colIndex(v.Node.Column)))
	elem := func() *jen.Statement { return jen.Id(sl).Index(qi().Op("-").Add(q0.Clone())) }
	return []jen.Code{a.store(v, elem, c, qi), p().Op("=").Op("&").Add(elem())}
}

// skip steps every leaf under v past one null or empty slot.
func (a *assembler) skip(v *Value) []jen.Code {
	var out []jen.Code
	for _, c := range leafIndexes(v.Node) {
		out = append(out, jen.Id("p").Index(jen.Id(a.nm.names.colIndex(c))).Op("++"))
	}
	return out
}

// value emits the statements filling the (zero) location p from the
// columns.
func (a *assembler) value(v *Value, p place) []jen.Code {
	switch v.Kind {
	case KindScalar:
		return a.scalar(v, p)
	case KindStruct:
		if v.Null == NotNull {
			return a.fields(v, p)
		}
		k := a.nm.names.driver(v)
		dk, s := a.nm.next("d"), a.nm.next("s")
		present := append([]jen.Code{
			jen.Id(s).Op(":=").Add(a.lists.of(v)).Dot("New").Call(),
			p().Op("=").Id(s),
		}, a.fields(v, id(s))...)
		return []jen.Code{jen.If(jen.Id(dk).Op(":=").Id("r").Dot("drv").Index(jen.Id(k)), jen.Id(dk).Op(">=").Lit(0)).Block(
			jen.If(jen.Id("r").Dot("lv").Index(jen.Id(dk)).Dot("Def").Index(jen.Id("p").Index(jen.Id(dk))).Op(">=").Lit(int(v.Node.MaxDef))).Block(present...).
				Else().Block(a.skip(v)...))}
	}
	// Lists and maps.
	k := a.nm.names.driver(v)
	r := v.Repeated
	dk, d := a.nm.next("d"), a.nm.next("def")
	lv := func() *jen.Statement { return jen.Id("r").Dot("lv").Index(jen.Id(dk)) }
	more := jen.If(jen.Id("p").Index(jen.Id(dk)).Op(">=").Len(lv().Dot("Rep")).Op("||").
		Add(lv()).Dot("Rep").Index(jen.Id("p").Index(jen.Id(dk))).Op("!=").Lit(int(r.MaxRep))).Block(jen.Break())
	var fill []jen.Code
	if v.Kind == KindList {
		s := a.nm.next("l")
		elem := func() *jen.Statement { return jen.Id(s).Index(jen.Len(jen.Id(s)).Op("-").Lit(1)) }
		loop := append([]jen.Code{jen.Id(s).Op("=").Add(a.lists.of(v)).Dot("Extend").Call(jen.Id(s))}, a.value(v.Elem, elem)...)
		loop = append(loop, more)
		fill = []jen.Code{
			jen.Var().Id(s).Add(v.Base.Code()),
			jen.For().Block(loop...),
			p().Op("=").Id(s),
		}
	} else {
		m, kv, vv := a.nm.next("m"), a.nm.next("k"), a.nm.next("v")
		loop := []jen.Code{
			jen.Var().Id(kv).Add(v.Key.Go.Code()),
			jen.Var().Id(vv).Add(v.Elem.Go.Code()),
		}
		loop = append(loop, a.value(v.Key, id(kv))...)
		loop = append(loop, a.value(v.Elem, id(vv))...)
		loop = append(loop, jen.Id(m).Index(jen.Id(kv)).Op("=").Id(vv), more)
		fill = []jen.Code{
			jen.Id(m).Op(":=").Make(v.Base.Code(), runtimeID("MapSize").Call(lv().Dot("Rep"), jen.Id("p").Index(jen.Id(dk)), jen.Lit(int(r.MaxRep)))),
			jen.For().Block(loop...),
			p().Op("=").Id(m),
		}
	}
	var decide *jen.Statement
	empty := a.skip(v)
	if v.Null != NotNull {
		empty = append(empty, p().Op("=").Add(v.Base.Code()).Values())
	}
	if v.Null != NotNull {
		decide = jen.If(jen.Id(d).Op("<").Lit(int(v.Node.MaxDef))).Block(a.skip(v)...).
			Else().If(jen.Id(d).Op("<").Lit(int(r.MaxDef))).Block(empty...).
			Else().Block(fill...)
	} else {
		decide = jen.If(jen.Id(d).Op("<").Lit(int(r.MaxDef))).Block(empty...).
			Else().Block(fill...)
	}
	return []jen.Code{jen.If(jen.Id(dk).Op(":=").Id("r").Dot("drv").Index(jen.Id(k)), jen.Id(dk).Op(">=").Lit(0)).Block(
		jen.Id(d).Op(":=").Add(lv()).Dot("Def").Index(jen.Id("p").Index(jen.Id(dk))),
		decide,
	)}
}

func (a *assembler) fields(v *Value, p place) []jen.Code {
	var out []jen.Code
	for _, fl := range v.Struct.Fields {
		out = append(out, a.value(fl.Value, p.dot(fl.Name))...)
	}
	return out
}

// scalar fills the location p from leaf v.Node.
func (a *assembler) scalar(v *Value, p place) []jen.Code {
	l := v.Node
	c := a.nm.names.col(l.Column)
	pi := jen.Id("p").Index(jen.Id(a.nm.names.colIndex(l.Column)))
	qi := func() *jen.Statement { return jen.Id("q").Index(jen.Id(a.nm.names.colIndex(l.Column))) }
	set := append(a.scalarSet(v, p, c, qi), qi().Op("++"))
	var body []jen.Code
	if v.Null != NotNull {
		body = []jen.Code{jen.If(jen.Id(c).Dot("Def").Index(pi.Clone()).Op("==").Lit(int(l.MaxDef))).Block(set...)}
	} else {
		body = set
	}
	if l.MaxDef > 0 || l.MaxRep > 0 {
		body = append(body, pi.Clone().Op("++"))
	}
	return []jen.Code{jen.If(jen.Id(c).Op("!=").Nil()).Block(body...)}
}

// scalarSet emits the statements storing value qi() of leaf v.Node
// (column variable c) at p.
func (a *assembler) scalarSet(v *Value, p place, c string, qi func() *jen.Statement) []jen.Code {
	if v.Null == NullPointer {
		return a.pointerSet(v, p, c, qi)
	}
	return []jen.Code{a.store(v, p, c, qi)}
}

// store emits the statement storing value qi() of leaf v.Node (column
// variable c) in the non-pointer place p: a copy for a fixed-size array,
// else an assignment of the converted value.
func (a *assembler) store(v *Value, p place, c string, qi func() *jen.Statement) jen.Code {
	if v.Conv == ConvFixed {
		return fixedCopy(p, c, v.Node.TypeLength, qi)
	}
	return p().Op("=").Add(readValue(v, c, qi(), a.nm))
}

// definedRows is the length of the stretches of rows in which generated
// readers look for the rows of an optional flat field that hold a value
// (runtime.Defined): their indexes take 1 KiB of the stack.
const definedRows = 256

// flatScalar emits the loop filling top-level scalar field fl, a leaf
// without repetition and at most one definition level, over the rows: the
// column is checked once, not per row; its value index k counts from the
// part's first value on, every row for a required leaf, the defined
// slots of an optional one, whose level slots are the part's rows: when
// rows with and without a value are mixed (runtime.Mixed), it fills the
// rows runtime.Defined finds, a stretch at a time, rather than test every
// row's level.
func (a *assembler) flatScalar(fl *Field) []jen.Code {
	v := fl.Value
	l := v.Node
	c := a.nm.names.col(l.Column)
	p := id("x").dot(fl.Name)
	x := jen.Id("x").Op(":=").Op("&").Id("rows").Index(jen.Id("i"))
	qi := func() *jen.Statement { return jen.Id("k") }
	set := func() []jen.Code { return append(a.scalarSet(v, p, c, qi), jen.Id("k").Op("++")) }
	pi := func() *jen.Statement { return jen.Id("p").Index(jen.Id(a.nm.names.colIndex(l.Column))) }
	qk := jen.Id("q").Index(jen.Id(a.nm.names.colIndex(l.Column)))
	qe := jen.Id("qe").Index(jen.Id(a.nm.names.colIndex(l.Column)))
	var loop []jen.Code
	if l.MaxDef == 0 {
		loop = []jen.Code{
			jen.Id("k").Op(":=").Add(qk.Clone()),
			jen.For(jen.Id("i").Op(":=").Range().Id("rows")).Block(append([]jen.Code{x}, set()...)...),
			qk.Clone().Op("=").Id("k"),
		}
	} else {
		// Rows with and without a value mixed (Mixed, given the part's
		// values): the rows that hold one, definedRows at a time
		// (Defined); else a test of each row's level, which mispredicts
		// rarely.
		from := jen.Id("from")
		rowsOf := runtimeID("Defined").Call(jen.Id("defined").Index(jen.Empty(), jen.Empty()), jen.Id("def"), from.Clone(), jen.Lit(int(l.MaxDef)))
		loop = []jen.Code{
			jen.Id("def").Op(":=").Id(c).Dot("Def").Index(pi(), pi().Op("+").Len(jen.Id("rows"))),
			jen.Id("k").Op(":=").Add(qk.Clone()),
			jen.If(runtimeID("Mixed").Call(qe.Clone().Op("-").Id("k"), jen.Len(jen.Id("rows")))).Block(
				jen.For(from.Clone().Op(":=").Lit(0), from.Clone().Op("<").Len(jen.Id("def")), from.Clone().Op("+=").Len(jen.Id("defined"))).Block(
					jen.For(jen.List(jen.Id("_"), jen.Id("i")).Op(":=").Range().Add(rowsOf)).Block(append([]jen.Code{x}, set()...)...),
				),
			).Else().Block(
				jen.For(jen.Id("i").Op(":=").Range().Id("rows")).Block(
					x,
					jen.If(jen.Id("def").Index(jen.Id("i")).Op("==").Lit(int(l.MaxDef))).Block(set()...),
				),
			),
			qk.Clone().Op("=").Id("k"),
			pi().Op("+=").Len(jen.Id("rows")),
		}
	}
	st := jen.If(jen.Id(c).Op(":=").Id("r").Dot(c), jen.Id(c).Op("!=").Nil()).Block(loop...)
	if fl.Default != nil {
		st = st.Else().If(jen.Id("r").Dot(a.nm.names.defaultVar(v))).Block(
			jen.For(jen.Id("i").Op(":=").Range().Id("rows")).Block(
				jen.Id("rows").Index(jen.Id("i")).Dot(fl.Name).Op("=").Add(v.Go.Code()).Parens(jen.Lit(fl.Default))))
	}
	return []jen.Code{st}
}

func fixedCopy(p place, c string, n int32, qi func() *jen.Statement) jen.Code {
	return jen.Copy(p().Index(jen.Empty(), jen.Empty()), jen.Id(c).Dot("Values").Index(qi().Op("*").Lit(int(n)), jen.Parens(qi().Op("+").Lit(1)).Op("*").Lit(int(n))))
}

// readValue converts value k of leaf column c to the scalar's Go type.
func readValue(v *Value, c string, k *jen.Statement, nm *namer) jen.Code {
	l := v.Node
	x := jen.Id(c).Dot("Values").Index(k)
	tm := func(name string) *jen.Statement { return jen.Qual("time", name) }
	switch v.Conv {
	case ConvString:
		return convert(named("", "string"), v.Base, jen.Id(c).Dot("String").Call(k))
	case ConvBytes:
		// An empty value is a non-nil empty slice only where nil is null
		// (the optional tag); elsewhere nil and empty are one value,
		// read as nil, the zero value.
		method := "BytesOrNil"
		if v.Null == NullNil {
			method = "Bytes"
		}
		return convert(sliceOf(named("", "byte")), v.Base, jen.Id(c).Dot(method).Call(k))
	case ConvTimestamp:
		switch l.Logical.Time.Unit {
		case meta.Millis:
			return tm("UnixMilli").Call(x).Dot("UTC").Call()
		case meta.Micros:
			return tm("UnixMicro").Call(x).Dot("UTC").Call()
		}
		return tm("Unix").Call(jen.Lit(0), x).Dot("UTC").Call()
	case ConvDate:
		return tm("Unix").Call(jen.Int64().Call(x).Op("*").Lit(86400), jen.Lit(0)).Dot("UTC").Call()
	case ConvFloat16:
		return convert(named("", "float32"), v.Base, jen.Qual(pathRuntime, "Float16At").Call(jen.Id(c).Dot("Values"), k))
	case ConvInterval:
		return convert(intervalType, v.Base, jen.Qual(pathRuntime, "IntervalAt").Call(jen.Id(c).Dot("Values"), k))
	case ConvDecimal:
		scale := jen.Lit(int(l.Logical.Decimal.Scale))
		if l.Type == meta.FixedLenByteArray {
			n := int(l.TypeLength)
			return convert(decimalType, v.Base, jen.Qual(pathRuntime, "DecimalFromFixed").Call(
				jen.Id(c).Dot("Values").Index(k.Clone().Op("*").Lit(n), jen.Parens(k.Clone().Op("+").Lit(1)).Op("*").Lit(n)), scale))
		}
		return convert(decimalType, v.Base, jen.Qual(pathRuntime, "NewDecimal").Call(jen.Int64().Call(x), scale))
	case ConvDuration:
		if l.Logical.Kind == meta.LogicalTime {
			switch l.Logical.Time.Unit {
			case meta.Millis:
				return convert(timeDuration, v.Base, tm("Duration").Call(x).Op("*").Add(tm("Millisecond")))
			case meta.Micros:
				return convert(timeDuration, v.Base, tm("Duration").Call(x).Op("*").Add(tm("Microsecond")))
			}
		}
		return v.Base.Code().Call(x)
	}
	return convert(physGo(l.Type), v.Base, x)
}

// physGo is the Go type of the values of a physical type.
func physGo(t meta.Type) *TypeRef {
	switch t {
	case meta.Boolean:
		return named("", "bool")
	case meta.Int32:
		return named("", "int32")
	case meta.Int64:
		return named("", "int64")
	case meta.Int96:
		return int96Type
	case meta.Float:
		return named("", "float32")
	case meta.Double:
		return named("", "float64")
	}
	return sliceOf(named("", "byte"))
}

// leafLoop emits the loop filling, from leaf l, its field in every row
// of the part: it walks l's level slots from p to pe; a repetition level of 0 starts the next row,
// and level R starts the next element of the list at level R. The first
// leaf to reach an element adds it (from the list's Slab), later leaves
// fill it; every leaf allocates missing nullable groups (from theirs) and
// marks present empty lists, so any subset of leaves may be present in the
// file.
func (a *assembler) leafLoop(fl *Field, l *schema.Node) []jen.Code {
	c := a.nm.names.col(l.Column)
	pl := func() *jen.Statement { return jen.Id("p").Index(jen.Id(a.nm.names.colIndex(l.Column))) }
	var body []jen.Code
	hasLevels := l.MaxDef > 0 || l.MaxRep > 0
	if hasLevels {
		if l.MaxDef > 0 {
			body = append(body, jen.Id("d").Op(":=").Id(c).Dot("Def").Index(jen.Id("s")))
		}
		if l.MaxRep > 0 {
			body = append(body,
				jen.Id("rp").Op(":=").Id(c).Dot("Rep").Index(jen.Id("s")),
				jen.If(jen.Id("rp").Op("==").Lit(0)).Block(jen.Id("i").Op("++")))
			for r := 1; r <= int(l.MaxRep); r++ {
				e := fmt.Sprintf("e%d", r)
				body = append(body, jen.If(jen.Id("rp").Op("<").Lit(r)).Block(jen.Id(e).Op("=").Lit(0)).
					Else().If(jen.Id("rp").Op("==").Lit(r)).Block(jen.Id(e).Op("++")))
			}
		} else {
			body = append(body, jen.Id("i").Op("++"))
		}
		body = append(body, jen.Id("x").Op(":=").Op("&").Id("rows").Index(jen.Id("i")))
	} else {
		body = append(body, jen.Id("x").Op(":=").Op("&").Id("rows").Index(jen.Id("s")))
	}
	body = append(body, a.nav(fl.Value, id("x").dot(fl.Name), l)...)
	var loop []jen.Code
	count, first := jen.Len(jen.Id("rows")), jen.Lit(0)
	if hasLevels {
		count, first = jen.Id("pe").Index(jen.Id(a.nm.names.colIndex(l.Column))), pl()
	}
	if hasLevels {
		loop = append(loop, jen.Id("i").Op(":=").Lit(-1))
		var es []jen.Code
		for r := 1; r <= int(l.MaxRep); r++ {
			es = append(es, jen.Id(fmt.Sprintf("e%d", r)))
		}
		if len(es) > 0 {
			loop = append(loop, jen.Var().List(es...).Int())
		}
	}
	loop = append(loop, jen.Id("n").Op(":=").Add(count))
	loop = append(loop, jen.For(jen.Id("s").Op(":=").Add(first), jen.Id("s").Op("<").Id("n"), jen.Id("s").Op("++")).Block(body...))
	if hasLevels {
		loop = append(loop, pl().Op("=").Id("n"))
	}
	return []jen.Code{
		jen.Id(c).Op(":=").Id("r").Dot(c),
		jen.If(jen.Id(c).Op("!=").Nil()).Block(loop...),
	}
}

// nav emits the statements bringing slot s of leaf l into the value v at
// p: d is the slot's definition level, eR the element index at
// repetition level R.
func (a *assembler) nav(v *Value, p place, l *schema.Node) []jen.Code {
	switch v.Kind {
	case KindScalar:
		qi := func() *jen.Statement { return jen.Id("q").Index(jen.Id(a.nm.names.colIndex(l.Column))) }
		set := append(a.scalarSet(v, p, a.nm.names.col(l.Column), qi), qi().Op("++"))
		if v.Null != NotNull {
			return []jen.Code{jen.If(jen.Id("d").Op(">=").Lit(int(l.MaxDef))).Block(set...)}
		}
		return set
	case KindStruct:
		var fl *Field
		for _, f := range v.Struct.Fields {
			for _, c := range leafIndexes(f.Value.Node) {
				if c == l.Column {
					fl = f
				}
			}
		}
		if v.Null == NotNull {
			return a.nav(fl.Value, p.dot(fl.Name), l)
		}
		inner := append([]jen.Code{
			jen.If(p().Op("==").Nil()).Block(p().Op("=").Add(a.lists.of(v)).Dot("New").Call()),
		}, a.nav(fl.Value, p.dot(fl.Name), l)...)
		return []jen.Code{jen.If(jen.Id("d").Op(">=").Lit(int(v.Node.MaxDef))).Block(inner...)}
	case KindList:
		e := fmt.Sprintf("e%d", v.Repeated.MaxRep)
		elem := func() *jen.Statement { return p().Index(jen.Id(e)) }
		present := append([]jen.Code{
			jen.If(jen.Id(e).Op("==").Len(p())).Block(p().Op("=").Add(a.lists.of(v)).Dot("Extend").Call(p())),
		}, a.nav(v.Elem, elem, l)...)
		st := jen.If(jen.Id("d").Op(">=").Lit(int(v.Repeated.MaxDef))).Block(present...)
		if v.Null != NotNull {
			st = st.Else().If(jen.Id("d").Op(">=").Lit(int(v.Node.MaxDef)).Op("&&").Add(p()).Op("==").Nil()).Block(
				p().Op("=").Add(v.Base.Code()).Values())
		}
		return []jen.Code{st}
	}
	panic("gen: a map in a column-wise field")
}

// bindCall is the reader's Bind call: the schema, then the paths of the
// Variant groups, which are matched whole; BindDefaults, with the paths
// of the fields that have a default, when there are some.
func bindCall(schemaFunc string, vfields, dfields []*Field) *jen.Statement {
	args := []jen.Code{jen.Id(schemaFunc).Call()}
	method := "Bind"
	if len(dfields) > 0 {
		method = "BindDefaults"
		var paths []jen.Code
		for _, fl := range dfields {
			paths = append(paths, jen.Lit(fl.Value.Node.PathString()))
		}
		args = append(args, jen.Index().String().Values(paths...))
	}
	for _, fl := range vfields {
		args = append(args, jen.Lit(fl.Value.Node.PathString()))
	}
	return jen.Id("fr").Dot(method).Call(args...)
}

// defaultVar names the reader field telling that the file lacks the
// column of a field with a default.
func (n *Names) defaultVar(v *Value) string { return "absent" + n.Values[v] }
