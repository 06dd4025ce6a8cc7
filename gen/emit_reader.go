package gen

import (
	"fmt"

	"github.com/dave/jennifer/jen"

	"github.com/pqgen/pqgen/runtime/meta"
	"github.com/pqgen/pqgen/runtime/schema"
)

// drivers numbers the values of row-by-row fields whose presence or
// length is read from the levels of a leaf below them (nullable structs,
// lists, maps).
type drivers struct {
	values []*Value
	lists  [][]int // per value: its leaves
}

func newDrivers(t *Type) *drivers {
	d := &drivers{}
	for _, fl := range t.Root.Struct.Fields {
		if columnWise(fl.Value) {
			continue
		}
		fl.Value.walk(func(v *Value) {
			if v.Kind == KindList || v.Kind == KindMap || v.Kind == KindStruct && v.Null != NotNull {
				d.values = append(d.values, v)
				d.lists = append(d.lists, leafIndexes(v.Node))
			}
		})
	}
	return d
}

// emitReader emits TReader, NewTReader and the assembler.
func emitReader(f *jen.File, t *Type) {
	n := t.Names
	rt := func(name string) *jen.Statement { return jen.Qual(pathRuntime, name) }
	tref := t.Root.Go
	drv := newDrivers(t)

	fields := []jen.Code{
		jen.Id("fr").Op("*").Add(rt("FileReader")),
		jen.Id("read").Int64(),
		jen.Id("closed").Bool(),
	}
	if len(drv.lists) > 0 {
		fields = append(fields,
			jen.Id("drv").Index(jen.Len(jen.Id(n.Drivers))).Int().Comment("per nested value: the leaf deciding it, or -1"),
			jen.Id("lv").Index(jen.Id(n.LeafCount)).Op("*").Add(rt("Levels")).Comment("per leaf: its levels, nil when not read"),
		)
	}
	vcols := variantColumns(t)
	vfields := variantFields(t)
	for _, l := range t.Schema.Leaves {
		if vcols[l.Column] {
			continue
		}
		fields = append(fields, jen.Id(n.col(l.Column)).Op("*").Add(rt(physName(l.Type)+"Reader")).Comment(l.PathString()+"; nil when not read"))
	}
	for _, fl := range vfields {
		fields = append(fields, jen.Id(t.Names.variantVar(fl.Value)).Op("*").Add(rt("VariantReader")).Comment(fl.Value.Node.PathString()+" (Variant); nil when not read"))
	}
	dfields := defaultFields(t)
	for _, fl := range dfields {
		fields = append(fields, jen.Id(n.defaultVar(fl.Value)).Bool().Comment(fl.Value.Node.PathString()+": the file lacks it, it reads as its default"))
	}
	slabs := newReaderSlabs(t)
	for _, v := range slabs.order {
		if v.Kind == KindList {
			fields = append(fields, jen.Id(slabs.names[v]).Add(rt("Slab")).Types(v.Elem.Go.Code()).Comment("the elements of the "+v.Node.PathString()+" lists"))
		} else {
			fields = append(fields, jen.Id(slabs.names[v]).Add(rt("Slab")).Types(v.Base.Code()).Comment("the "+v.Node.PathString()+" structs"))
		}
	}
	docf(f, "%s reads rows of %s from a Parquet file. Create one with %s.", n.Reader, t.Name, n.NewReader)
	f.Type().Id(n.Reader).Struct(fields...)
	f.Line()

	if len(drv.lists) > 0 {
		consts := make([]jen.Code, len(drv.values))
		vals := make([]jen.Code, 0, len(drv.lists)+1)
		for i, ls := range drv.lists {
			items := make([]jen.Code, len(ls))
			for j, c := range ls {
				items[j] = jen.Id(n.colIndex(c))
			}
			k := n.driver(drv.values[i])
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

	// A row type of Variants alone reads no leaf by index.
	idxVar, idxOp := "_", "="
	if len(vcols) < len(t.Schema.Leaves) {
		idxVar, idxOp = "idx", ":="
	}
	body := []jen.Code{
		jen.List(jen.Id("fr"), jen.Err()).Op(":=").Add(rt("NewFileReader")).Call(jen.Id("r"), jen.Id("size"), jen.Id("opts").Op("...")),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err())),
		jen.List(jen.Id(idxVar), jen.Err()).Op(idxOp).Add(bindCall(n.Schema, vfields, dfields)),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err())),
		jen.Id("tr").Op(":=").Op("&").Id(n.Reader).Values(jen.Dict{jen.Id("fr"): jen.Id("fr")}),
	}
	for _, fl := range dfields {
		body = append(body, jen.Id("tr").Dot(n.defaultVar(fl.Value)).Op("=").Id("idx").Index(jen.Id(n.colIndex(fl.Value.Node.Column))).Op("<").Lit(0))
	}
	for _, fl := range vfields {
		body = append(body, jen.If(
			jen.List(jen.Id("tr").Dot(t.Names.variantVar(fl.Value)), jen.Err()).Op("=").Id("fr").Dot("VariantColumn").Call(jen.Lit(fl.Value.Node.PathString()), jen.Lit(fl.Value.Node.Repetition == meta.Required)),
			jen.Err().Op("!=").Nil(),
		).Block(jen.Return(jen.Nil(), jen.Err())))
	}
	for _, l := range t.Schema.Leaves {
		i := l.Column
		if vcols[i] {
			continue
		}
		stmts := []jen.Code{
			jen.If(
				jen.List(jen.Id("tr").Dot(n.col(i)), jen.Err()).Op("=").Id("fr").Dot(physName(l.Type)+"Reader").Call(jen.Id("idx").Index(jen.Id(n.colIndex(i)))),
				jen.Err().Op("!=").Nil(),
			).Block(jen.Return(jen.Nil(), jen.Err())),
		}
		if len(drv.lists) > 0 {
			stmts = append(stmts, jen.Id("tr").Dot("lv").Index(jen.Id(n.colIndex(i))).Op("=").Op("&").Id("tr").Dot(n.col(i)).Dot("Levels"))
		}
		body = append(body, jen.If(jen.Id("fr").Dot("Projected").Call(jen.Id("idx").Index(jen.Id(n.colIndex(i))))).Block(stmts...))
	}
	if len(drv.lists) > 0 {
		body = append(body,
			jen.For(jen.List(jen.Id("k"), jen.Id("ls")).Op(":=").Range().Id(n.Drivers)).Block(
				jen.Id("tr").Dot("drv").Index(jen.Id("k")).Op("=").Lit(-1),
				jen.For(jen.List(jen.Id("_"), jen.Id("l")).Op(":=").Range().Id("ls")).Block(
					jen.If(jen.Id("tr").Dot("lv").Index(jen.Id("l")).Op("!=").Nil()).Block(
						jen.Id("tr").Dot("drv").Index(jen.Id("k")).Op("=").Id("l"),
						jen.Break(),
					),
				),
			))
	}
	body = append(body, jen.Return(jen.Id("tr"), jen.Nil()))
	docf(f, "%s opens the Parquet file of size bytes behind r for reading %s rows.\nThe file's schema is bound to %s's by the schema evolution rules (see\npqgen's gen/doc.go): fields match by field id, else by name; columns the\nfile lacks read as null (zero) when they may be null; columns the type\nlacks are never read; values widen exactly (integers, floats, dates, time\nunits, decimals); a narrowing, another type or a missing required column\nis an error naming the column. Variants read with any shredding.\nWithColumns reads only some columns: the fields of the others stay zero.", n.NewReader, t.Name, t.Name)
	f.Func().Id(n.NewReader).Params(jen.Id("r").Qual("io", "ReaderAt"), jen.Id("size").Int64(), jen.Id("opts").Op("...").Add(rt("ReaderOption"))).
		Params(jen.Op("*").Id(n.Reader), jen.Error()).Block(body...)
	f.Line()

	docf(f, "NumRows returns the number of rows in the selected row groups (with a filter,\nan upper bound that falls to the exact count as reading proceeds).")
	f.Func().Params(jen.Id("r").Op("*").Id(n.Reader)).Id("NumRows").Params().Int64().Block(jen.Return(jen.Id("r").Dot("fr").Dot("NumRows").Call()))
	f.Line()
	docf(f, "Close releases the reader. It does not close the underlying io.ReaderAt.")
	f.Func().Params(jen.Id("r").Op("*").Id(n.Reader)).Id("Close").Params().Error().Block(
		jen.Id("r").Dot("closed").Op("=").True(),
		jen.Return(jen.Nil()))
	f.Line()

	// Read.
	read := []jen.Code{
		jen.If(jen.Id("r").Dot("closed")).Block(jen.Return(jen.Lit(0), jen.Qual("fmt", "Errorf").Call(jen.Lit("%w: "+n.Reader+".Read"), jen.Qual(pathRuntime, "ErrClosed")))),
		// Available selects the rows of a filter (WithFilter) ahead of reading.
		jen.List(jen.Id("avail"), jen.Err()).Op(":=").Id("r").Dot("fr").Dot("Available").Call(jen.Id("r").Dot("read"), jen.Len(jen.Id("rows"))),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Lit(0), jen.Err())),
		jen.Id("want").Op(":=").Int64().Call(jen.Id("avail")),
		jen.If(jen.Id("want").Op("<=").Lit(0)).Block(
			jen.If(jen.Len(jen.Id("rows")).Op("==").Lit(0)).Block(jen.Return(jen.Lit(0), jen.Nil())),
			jen.Return(jen.Lit(0), jen.Qual("io", "EOF"))),
		jen.Id("k").Op(":=").Int().Call(jen.Id("want")),
	}
	// Every column's next k rows, concurrently under WithReadParallelism.
	jobs := []jen.Code{jen.Id("k")}
	for _, fl := range vfields {
		jobs = append(jobs, jen.Line().Qual(pathRuntime, "Col").Call(jen.Id("r").Dot(t.Names.variantVar(fl.Value)), jen.Lit(fl.Value.Node.PathString())))
	}
	for _, l := range t.Schema.Leaves {
		if !vcols[l.Column] {
			jobs = append(jobs, jen.Line().Qual(pathRuntime, "Col").Call(jen.Id("r").Dot(n.col(l.Column)), jen.Lit(l.PathString())))
		}
	}
	read = append(read, jen.If(jen.Err().Op(":=").Id("r").Dot("fr").Dot("ReadColumns").Call(append(jobs, jen.Line())...), jen.Err().Op("!=").Nil()).Block(
		jen.Return(jen.Lit(0), jen.Err())))
	read = append(read,
		jen.Id("rows").Op("=").Id("rows").Index(jen.Empty(), jen.Id("k")),
		jen.Clear(jen.Id("rows")),
		jen.If(jen.Err().Op(":=").Id("r").Dot("assemble").Call(jen.Id("rows")), jen.Err().Op("!=").Nil()).Block(
			jen.Clear(jen.Id("rows")),
			jen.Return(jen.Lit(0), jen.Err())),
		jen.Id("r").Dot("read").Op("+=").Id("want"),
		jen.Return(jen.Id("k"), jen.Nil()),
	)
	docf(f, "Read fills rows with the next rows of the file and returns how many it\nread; after the last row it returns 0, io.EOF.")
	f.Func().Params(jen.Id("r").Op("*").Id(n.Reader)).Id("Read").Params(jen.Id("rows").Index().Add(tref.Code())).Params(jen.Int(), jen.Error()).Block(read...)
	f.Line()

	// The assembler: one loop over the rows per top-level field.
	asm := []jen.Code{}
	usesPos := false
	scalarSlabs := &slabDecls{names: &t.Names}
	for _, fl := range t.Root.Struct.Fields {
		if fl.Value.Kind == KindVariant {
			// The Variants, copied out of the reader's buffer (one
			// allocation per batch).
			c := jen.Id("r").Dot(t.Names.variantVar(fl.Value))
			asm = append(asm, jen.Comment(fl.Value.Node.Name+" (Variant)"), jen.If(c.Clone().Op("!=").Nil()).Block(
				jen.Id("vs").Op(":=").Add(c.Clone()).Dot("Detach").Call(),
				jen.If(jen.Len(jen.Id("vs")).Op("!=").Len(jen.Id("rows"))).Block(
					jen.Return(jen.Qual("fmt", "Errorf").Call(jen.Lit("%w: Variant "+fl.Value.Node.PathString()+": %d values for %d rows"), jen.Qual(pathRuntime, "ErrChunk"), jen.Len(jen.Id("vs")), jen.Len(jen.Id("rows"))))),
				jen.For(jen.Id("i").Op(":=").Range().Id("rows")).Block(
					jen.Id("rows").Index(jen.Id("i")).Dot(fl.Name).Op("=").Id("vs").Index(jen.Id("i"))),
			))
			continue
		}
		nm := &namer{names: &t.Names}
		a := &assembler{nm: nm, slabs: scalarSlabs, lists: slabs}
		if columnWise(fl.Value) {
			// One loop per leaf over its level slots.
			for _, l := range leaves(fl.Value.Node) {
				asm = append(asm, jen.Comment(l.PathString()), jen.Block(a.leafLoop(fl, l)...))
			}
			usesPos = true
			continue
		}
		if v := fl.Value; v.Kind == KindScalar && v.Node.MaxRep == 0 && v.Node.MaxDef <= 1 {
			asm = append(asm, jen.Comment(v.Node.Name), jen.Block(a.flatScalar(fl)...))
			usesPos = usesPos || a.usesPos
			continue
		}
		var block []jen.Code
		for _, c := range leafIndexes(fl.Value.Node) {
			block = append(block, jen.Id(n.col(c)).Op(":=").Id("r").Dot(n.col(c)))
		}
		inner := a.value(fl.Value, id("x").dot(fl.Name))
		usesPos = usesPos || a.usesPos
		block = append(block, jen.For(jen.Id("i").Op(":=").Range().Id("rows")).Block(
			append([]jen.Code{jen.Id("x").Op(":=").Op("&").Id("rows").Index(jen.Id("i"))}, inner...)...))
		why := fl.Value.Node.Name + " (row by row)"
		if holdsMap(fl.Value) {
			why = fl.Value.Node.Name + " (row by row: a map needs its keys and values together)"
		}
		asm = append(asm, jen.Comment(why), jen.Block(block...))
	}
	decl := []jen.Code{
		jen.Defer().Func().Params().Block(
			jen.If(jen.Id("e").Op(":=").Recover(), jen.Id("e").Op("!=").Nil()).Block(
				jen.Id("err").Op("=").Qual("fmt", "Errorf").Call(jen.Lit("%w: the levels of the columns of "+t.Name+" disagree (%v)"), jen.Qual(pathRuntime, "ErrChunk"), jen.Id("e")),
			),
		).Call(),
	}
	if len(vcols) < len(t.Schema.Leaves) {
		decl = append(decl, jen.Var().Id("q").Index(jen.Id(t.Names.LeafCount)).Int().Comment("per leaf: the next value"))
	}
	if usesPos {
		decl = append(decl, jen.Var().Id("p").Index(jen.Id(t.Names.LeafCount)).Int().Comment("per leaf: the next level slot"))
	}
	decl = append(decl, scalarSlabs.code...)
	asm = append(decl, asm...)
	// Every slot and value read must have been used.
	for _, l := range t.Schema.Leaves {
		if vcols[l.Column] {
			continue
		}
		c := jen.Id("r").Dot(n.col(l.Column))
		var count *jen.Statement
		switch l.Type {
		case meta.ByteArray:
			count = c.Clone().Dot("Values").Dot("Len").Call()
		case meta.FixedLenByteArray:
			count = jen.Len(c.Clone().Dot("Values")).Op("/").Lit(int(l.TypeLength))
		default:
			count = jen.Len(c.Clone().Dot("Values"))
		}
		cond := jen.Id("q").Index(jen.Id(n.colIndex(l.Column))).Op("!=").Add(count)
		if l.MaxDef > 0 || l.MaxRep > 0 {
			levels := "Def"
			if l.MaxDef == 0 {
				levels = "Rep"
			}
			cond = cond.Op("||").Id("p").Index(jen.Id(n.colIndex(l.Column))).Op("!=").Len(c.Clone().Dot(levels))
		}
		asm = append(asm, jen.If(c.Clone().Op("!=").Nil().Op("&&").Parens(cond)).Block(
			jen.Return(jen.Qual("fmt", "Errorf").Call(jen.Lit("%w: column "+l.PathString()+": the levels and values do not match the other columns of "+t.Name), jen.Qual(pathRuntime, "ErrChunk")))))
	}
	asm = append(asm, jen.Return(jen.Nil()))
	docf(f, "assemble fills rows from the levels and values the column readers hold.\nCorrupt levels (columns that disagree on the rows' shape) are an error.")
	f.Func().Params(jen.Id("r").Op("*").Id(n.Reader)).Id("assemble").Params(jen.Id("rows").Index().Add(tref.Code())).Params(jen.Err().Error()).Block(asm...)
	f.Line()
}

type assembler struct {
	nm      *namer
	usesPos bool
	slabs   *slabDecls
	lists   *readerSlabs
}

// readerSlabs names the reader's runtime.Slab of each list (its
// elements) and nullable struct (the structs pointed to) of the row type,
// Variants aside: the assembler takes them from there rather than
// allocating each.
type readerSlabs struct {
	order []*Value
	names map[*Value]string
}

func newReaderSlabs(t *Type) *readerSlabs {
	s := &readerSlabs{names: map[*Value]string{}}
	for _, fl := range t.Root.Struct.Fields {
		if fl.Value.Kind == KindVariant {
			continue
		}
		fl.Value.walk(func(v *Value) {
			if v.Kind == KindList || v.Kind == KindStruct && v.Null != NotNull {
				s.names[v] = "slab" + t.Names.Values[v]
				s.order = append(s.order, v)
			}
		})
	}
	return s
}

// of returns the statement r.slN naming v's slab.
func (s *readerSlabs) of(v *Value) *jen.Statement {
	return jen.Id("r").Dot(s.names[v])
}

// slabDecls declares, once per assemble call, the slab of each pointer
// scalar leaf: one slice holding every value the batch read for it, which
// the pointers of the rows point into (one allocation per leaf and batch
// instead of one per value).
type slabDecls struct {
	names *Names
	done  map[int]bool
	code  []jen.Code
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
	count := jen.Len(c.Clone().Dot("Values"))
	switch l.Type {
	case meta.ByteArray:
		count = c.Clone().Dot("Values").Dot("Len").Call()
	case meta.FixedLenByteArray:
		count = jen.Len(c.Clone().Dot("Values")).Op("/").Lit(int(l.TypeLength))
	}
	s.code = append(s.code,
		jen.Var().Id(name).Index().Add(v.Base.Code()).Comment("pointer targets of "+l.PathString()),
		jen.If(c.Clone().Op("!=").Nil()).Block(jen.Id(name).Op("=").Make(jen.Index().Add(v.Base.Code()), count)))
	return name
}

// pointerSet emits the statements pointing p at a slab element holding
// value q of leaf v.Node (column variable c).
func (a *assembler) pointerSet(v *Value, p place, c string, qi func() *jen.Statement) []jen.Code {
	sl := a.slabs.slab(v)
	elem := func() *jen.Statement { return jen.Id(sl).Index(qi()) }
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
	if v.Kind == KindList || v.Kind == KindMap || v.Kind == KindStruct && v.Null != NotNull {
		a.usesPos = true
	}
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
			jen.Id(m).Op(":=").Make(v.Base.Code()),
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
		a.usesPos = true
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

// flatScalar emits the loop filling top-level scalar field fl, a leaf
// without repetition and at most one definition level, over the rows: the
// column is checked once, not per row, and its value (and level) index is
// the row index for a required leaf, a counter of the defined slots for
// an optional one.
func (a *assembler) flatScalar(fl *Field) []jen.Code {
	v := fl.Value
	l := v.Node
	c := a.nm.names.col(l.Column)
	p := id("x").dot(fl.Name)
	x := jen.Id("x").Op(":=").Op("&").Id("rows").Index(jen.Id("i"))
	var loop []jen.Code
	if l.MaxDef == 0 {
		qi := func() *jen.Statement { return jen.Id("i") }
		loop = []jen.Code{
			jen.For(jen.Id("i").Op(":=").Range().Id("rows")).Block(append([]jen.Code{x}, a.scalarSet(v, p, c, qi)...)...),
			jen.Id("q").Index(jen.Id(a.nm.names.colIndex(l.Column))).Op("=").Len(jen.Id("rows")),
		}
	} else {
		a.usesPos = true
		qi := func() *jen.Statement { return jen.Id("k") }
		set := append(a.scalarSet(v, p, c, qi), jen.Id("k").Op("++"))
		loop = []jen.Code{
			jen.Id("def").Op(":=").Id(c).Dot("Def").Index(jen.Empty(), jen.Len(jen.Id("rows"))),
			jen.Id("k").Op(":=").Lit(0),
			jen.For(jen.Id("i").Op(":=").Range().Id("rows")).Block(
				x,
				jen.If(jen.Id("def").Index(jen.Id("i")).Op("==").Lit(int(l.MaxDef))).Block(set...),
			),
			jen.Id("q").Index(jen.Id(a.nm.names.colIndex(l.Column))).Op("=").Id("k"),
			jen.Id("p").Index(jen.Id(a.nm.names.colIndex(l.Column))).Op("=").Len(jen.Id("rows")),
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
		return convert(sliceOf(named("", "byte")), v.Base, jen.Id(c).Dot("Bytes").Call(k))
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

// columnWise reports whether a top-level field is assembled one leaf at a
// time: it holds lists or nullable groups, and no maps (a map's keys and
// values must be read together, so fields with maps are assembled row by
// row, all their leaves at once).
func columnWise(v *Value) bool {
	nested, hasMap := false, false
	v.walk(func(x *Value) {
		switch {
		case x.Kind == KindMap:
			hasMap = true
		case x.Kind == KindList, x.Kind == KindStruct && x.Null != NotNull:
			nested = true
		}
	})
	return nested && !hasMap
}

// holdsMap reports whether v is or holds a map.
func holdsMap(v *Value) bool {
	found := false
	v.walk(func(x *Value) { found = found || x.Kind == KindMap })
	return found
}

// leafLoop emits the loop filling, from leaf l, its field in every row:
// it walks l's level slots; a repetition level of 0 starts the next row,
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
	count := jen.Len(jen.Id("rows"))
	switch {
	case l.MaxDef > 0:
		count = jen.Len(jen.Id(c).Dot("Def"))
	case l.MaxRep > 0:
		count = jen.Len(jen.Id(c).Dot("Rep"))
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
	loop = append(loop, jen.For(jen.Id("s").Op(":=").Lit(0), jen.Id("s").Op("<").Id("n"), jen.Id("s").Op("++")).Block(body...))
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

// defaultFields are the top-level fields tagged default(...).
func defaultFields(t *Type) []*Field {
	var out []*Field
	for _, fl := range t.Root.Struct.Fields {
		if fl.Default != nil {
			out = append(out, fl)
		}
	}
	return out
}

// defaultVar names the reader field telling that the file lacks the
// column of a field with a default.
func (n *Names) defaultVar(v *Value) string { return "absent" + n.Values[v] }
