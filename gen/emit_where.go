package gen

import (
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/pqgen/pqgen/runtime/meta"
	"github.com/pqgen/pqgen/runtime/schema"
)

// emitWhere emits the TWhere value: a struct whose fields mirror T's
// (nested structs as nested fields), each scalar leaf outside lists and
// maps a runtime.Field, OrderedField or GeoField (GEOMETRY, GEOGRAPHY), or
// their Nullable variants, of the field's Go type (without its pointer),
// each list of scalars a runtime.ListField, each list of structs a
// runtime.ListOf and each map of scalar keys a runtime.MapField
// (MapKeyField when its values are not scalars), whose
// methods build the runtime.Predicate values given to WithFilter. Each
// builder converts its Go values to the column's physical values with the
// writer's own conversion (appendValue), so predicates compare exactly the
// values the writer stores.
func emitWhere(f *jen.File, t *Type) {
	var inits []jen.Code
	fields := whereFields(t.Root.Struct, jen.Id(t.Names.Where), &inits, &namer{names: &t.Names})
	if len(fields) > 0 {
		docf(f, "%s holds the predicate builders of %s's fields, for runtime.WithFilter:\n\n\tr, err := %s(f, size, pqrt.WithFilter(pqrt.And(%s.F.Eq(x), ...)))\n\nA builder exists for each field outside lists and maps: Eq, NotEq, In; Lt,\nLe, Gt, Ge and Between for ordered types; Intersects for GEOMETRY and\nGEOGRAPHY; IsNull and NotNull for fields that may be null. A list of\nscalars has Any(), whose predicates are true where some element satisfies\nthem, a list of structs Any() with the builders of its elements'\nfields; a map of scalar keys AnyKey(), and AnyValue() when its values are\nscalars too.", t.Names.Where, t.Name, t.Names.NewReader, t.Names.Where)
		f.Var().Id(t.Names.Where).Struct(fields...)
		f.Line()
		f.Func().Id("init").Params().Block(inits...)
		f.Line()
	}

	fill(f, "reader_all", struct {
		Names *Names
		Row   *TypeRef
	}{&t.Names, t.Root.Go})
}

// whereFields returns the TWhere fields of struct s, whose builders live
// at sel, and appends their initialization to inits.
func whereFields(s *Struct, sel *jen.Statement, inits *[]jen.Code, nm *namer) []jen.Code {
	var out []jen.Code
	for _, fl := range s.Fields {
		name := fl.Name[strings.LastIndexByte(fl.Name, '.')+1:]
		v := fl.Value
		switch v.Kind {
		case KindStruct:
			sub := whereFields(v.Struct, sel.Clone().Dot(name), inits, nm)
			if len(sub) > 0 {
				out = append(out, jen.Id(name).Struct(sub...))
			}
		case KindList:
			// A list of structs: Any() gives the builders of the
			// elements' scalar fields (ListOf).
			e := v.Elem
			if e != nil && e.Kind == KindStruct {
				typ, _ := whereElemStruct(e.Struct, nm)
				if typ == nil {
					continue
				}
				_, lit := whereElemStruct(e.Struct, nm)
				out = append(out, jen.Id(name).Qual(pathRuntime, "ListOf").Types(typ))
				*inits = append(*inits, sel.Clone().Dot(name).Op("=").Qual(pathRuntime, "NewListOf").Call(lit))
				continue
			}
			// A list of scalars (not GEOMETRY or GEOGRAPHY): Any() gives
			// the element's comparisons, true where some element
			// satisfies them; no IsNull or NotNull on elements.
			if !whereElem(e) {
				continue
			}
			typ, init := whereElemBuilder(e, nm)
			out = append(out, jen.Id(name).Qual(pathRuntime, "ListField").Types(typ))
			*inits = append(*inits, sel.Clone().Dot(name).Op("=").Qual(pathRuntime, "NewListField").Call(init))
		case KindMap:
			// A map with scalar keys: AnyKey() gives the keys'
			// comparisons, and AnyValue() the values' where they are
			// scalars too (MapField; MapKeyField otherwise).
			if !whereElem(v.Key) {
				continue
			}
			kt, ki := whereElemBuilder(v.Key, nm)
			if whereElem(v.Elem) {
				vt, vi := whereElemBuilder(v.Elem, nm)
				out = append(out, jen.Id(name).Qual(pathRuntime, "MapField").Types(kt, vt))
				*inits = append(*inits, sel.Clone().Dot(name).Op("=").Qual(pathRuntime, "NewMapField").Call(ki, vi))
			} else {
				out = append(out, jen.Id(name).Qual(pathRuntime, "MapKeyField").Types(kt))
				*inits = append(*inits, sel.Clone().Dot(name).Op("=").Qual(pathRuntime, "NewMapKeyField").Call(ki))
			}
		case KindScalar:
			l := v.Node
			kind := "Field"
			switch {
			case l.Logical.Kind == meta.LogicalGeometry || l.Logical.Kind == meta.LogicalGeography:
				kind = "GeoField"
			case whereOrdered(l):
				kind = "OrderedField"
			}
			if l.MaxDef > 0 {
				kind = "Nullable" + kind
			}
			out = append(out, jen.Id(name).Qual(pathRuntime, kind).Types(v.Base.Code()))
			*inits = append(*inits, sel.Clone().Dot(name).Op("=").Qual(pathRuntime, "New"+kind).Call(jen.Lit(l.PathString()), wherePut(v, nm)))
		}
	}
	return out
}

// whereElem reports whether e, the element of a list or the key or value
// of a map, gets a predicate builder: a scalar (not GEOMETRY or
// GEOGRAPHY) under one level of repetition, whose column the filter
// evaluates as "some element satisfies".
func whereElem(e *Value) bool {
	return e != nil && e.Kind == KindScalar && e.Node.MaxRep == 1 &&
		e.Node.Logical.Kind != meta.LogicalGeometry && e.Node.Logical.Kind != meta.LogicalGeography
}

// whereElemStruct returns the struct type holding the builders of the
// scalar fields of s, the element of a list (whereElem; nested structs as
// nested fields, lists and maps left out), and the composite literal that
// makes them (each through runtime.AnyElement); nil, nil when s has no
// such field.
func whereElemStruct(s *Struct, nm *namer) (typ, lit *jen.Statement) {
	var fields []jen.Code
	vals := jen.Dict{}
	for _, fl := range s.Fields {
		name := fl.Name[strings.LastIndexByte(fl.Name, '.')+1:]
		v := fl.Value
		switch {
		case v.Kind == KindStruct:
			st, sl := whereElemStruct(v.Struct, nm)
			if st == nil {
				continue
			}
			fields = append(fields, jen.Id(name).Add(st))
			vals[jen.Id(name)] = sl
		case whereElem(v):
			bt, bi := whereElemBuilder(v, nm)
			fields = append(fields, jen.Id(name).Add(bt))
			vals[jen.Id(name)] = jen.Qual(pathRuntime, "AnyElement").Call(bi)
		}
	}
	if len(fields) == 0 {
		return nil, nil
	}
	return jen.Struct(fields...), jen.Struct(fields...).Values(vals)
}

// whereElemBuilder returns the builder type of element e (whereElem) and
// its construction.
func whereElemBuilder(e *Value, nm *namer) (typ, init jen.Code) {
	kind := "Field"
	if whereOrdered(e.Node) {
		kind = "OrderedField"
	}
	return jen.Qual(pathRuntime, kind).Types(e.Base.Code()),
		jen.Qual(pathRuntime, "New"+kind).Call(jen.Lit(e.Node.PathString()), wherePut(e, nm))
}

// wherePut returns the function that appends a value of scalar v (its
// Base type) to v's column buffer as the writer does. It fails where the
// writer would (a DECIMAL value that does not fit the column); the
// predicate then fails at open.
func wherePut(v *Value, nm *namer) jen.Code {
	l := v.Node
	buf := jen.Op("*").Qual(pathRuntime, physName(l.Type)+"Buffer")
	return jen.Func().Params(jen.Id(nm.names.col(l.Column)).Add(buf), jen.Id("v").Add(v.Base.Code())).Error().Block(appendValue(v, id("v"), nm), jen.Return(jen.Nil()))
}

// whereOrdered reports whether the values of leaf l have an order
// predicates may compare with (all but BOOLEAN, INTERVAL and geospatial
// values).
func whereOrdered(l *schema.Node) bool {
	switch {
	case l.Type == meta.Boolean:
		return false
	case l.Converted.Set && l.Converted.Val == meta.ConvertedInterval:
		return false
	case l.Logical.Kind == meta.LogicalGeometry || l.Logical.Kind == meta.LogicalGeography:
		return false
	}
	return true
}
