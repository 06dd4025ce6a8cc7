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
// each list of scalars a runtime.ListField, other lists a runtime.ListOf
// and maps of scalar keys a runtime.MapField (MapKeyField when their
// values have no builders), at any depth (whereInner), whose
// methods build the runtime.Predicate values given to WithFilter. Each
// builder converts its Go values to the column's physical values with the
// writer's own conversion (appendValue), so predicates compare exactly the
// values the writer stores.
func emitWhere(f *jen.File, t *Type) {
	var inits []jen.Code
	fields := whereFields(t.Root.Struct, jen.Id(t.Names.Where), &inits, &namer{names: &t.Names})
	if len(fields) > 0 {
		docf(f, "%s holds the predicate builders of %s's fields, for runtime.WithFilter:\n\n\tr, err := %s(f, size, pqrt.WithFilter(pqrt.And(%s.F.Eq(x), ...)))\n\nA builder exists for each field outside lists and maps: Eq, NotEq, In; Lt,\nLe, Gt, Ge and Between for ordered types; Intersects for GEOMETRY and\nGEOGRAPHY; IsNull and NotNull for fields that may be null. A list of\nscalars has Any(), whose predicates are true where some element satisfies\nthem, and a list of structs, lists or maps Any() with the builders of its\nelements; a map of scalar keys AnyKey(), and AnyValue() when its values\nhave builders.", t.Names.Where, t.Name, t.Names.NewReader, t.Names.Where)
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
			// A list of scalars (not GEOMETRY or GEOGRAPHY): Any() gives
			// the element's comparisons, true where some element
			// satisfies them; no IsNull or NotNull on elements.
			if e := v.Elem; e != nil && e.Kind == KindScalar {
				if !whereElem(e) {
					continue
				}
				typ, init := whereElemBuilder(e, nm)
				out = append(out, jen.Id(name).Qual(pathRuntime, "ListField").Types(typ))
				*inits = append(*inits, sel.Clone().Dot(name).Op("=").Qual(pathRuntime, "NewListField").Call(init))
				continue
			}
			fallthrough
		case KindMap:
			// Lists of structs, lists and maps (ListOf), and maps
			// (MapField, MapKeyField): builders of the values under them.
			typ, init := whereInner(v, nm)
			if typ == nil {
				continue
			}
			out = append(out, jen.Id(name).Add(typ))
			*inits = append(*inits, sel.Clone().Dot(name).Op("=").Add(init))
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

// whereElem reports whether e, a scalar under one or more levels of
// repetition (in a list element, a map key or value), gets a predicate
// builder: not GEOMETRY or GEOGRAPHY. The filter evaluates its column as
// "some value of the row satisfies".
func whereElem(e *Value) bool {
	return e != nil && e.Kind == KindScalar && e.Node.MaxRep >= 1 &&
		e.Node.Logical.Kind != meta.LogicalGeometry && e.Node.Logical.Kind != meta.LogicalGeography
}

// whereInner returns the builder type of v, a value under one or more
// levels of repetition or a list or map holding such values, and the
// expression that makes it; nil, nil when v has no builder. Scalars get
// Field or OrderedField made through runtime.AnyElement (whereElem),
// structs a struct of their fields' builders (those that have one), lists
// runtime.ListOf of their element's, and maps with scalar keys
// runtime.MapField of their keys' and values' (runtime.MapKeyField when
// the values have none).
func whereInner(v *Value, nm *namer) (typ, init *jen.Statement) {
	if v == nil {
		return nil, nil
	}
	switch v.Kind {
	case KindScalar:
		if !whereElem(v) {
			return nil, nil
		}
		bt, bi := whereElemBuilder(v, nm)
		return bt, jen.Qual(pathRuntime, "AnyElement").Call(bi)
	case KindStruct:
		var fields []jen.Code
		vals := jen.Dict{}
		for _, fl := range v.Struct.Fields {
			ft, fi := whereInner(fl.Value, nm)
			if ft == nil {
				continue
			}
			name := fl.Name[strings.LastIndexByte(fl.Name, '.')+1:]
			fields = append(fields, jen.Id(name).Add(ft))
			vals[jen.Id(name)] = fi
		}
		if len(fields) == 0 {
			return nil, nil
		}
		return jen.Struct(fields...), jen.Struct(fields...).Values(vals)
	case KindList:
		et, ei := whereInner(v.Elem, nm)
		if et == nil {
			return nil, nil
		}
		return jen.Qual(pathRuntime, "ListOf").Types(et), jen.Qual(pathRuntime, "NewListOf").Call(ei)
	case KindMap:
		if v.Key == nil || v.Key.Kind != KindScalar {
			return nil, nil
		}
		kt, ki := whereInner(v.Key, nm)
		if kt == nil {
			return nil, nil
		}
		vt, vi := whereInner(v.Elem, nm)
		if vt == nil {
			return jen.Qual(pathRuntime, "MapKeyField").Types(kt), jen.Qual(pathRuntime, "NewMapKeyOf").Call(ki)
		}
		return jen.Qual(pathRuntime, "MapField").Types(kt, vt), jen.Qual(pathRuntime, "NewMapOf").Call(ki, vi)
	}
	return nil, nil
}

// whereElemBuilder returns the builder type of element e (whereElem) and
// its construction.
func whereElemBuilder(e *Value, nm *namer) (typ, init *jen.Statement) {
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
