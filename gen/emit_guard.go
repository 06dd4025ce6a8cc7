package gen

import "github.com/dave/jennifer/jen"

// emitGuard emits, per struct type the code reads and writes, an
// assignment of a zero T to an unnamed struct type spelling T's exact
// fields, types and tags. Assignability requires identical underlying
// types, tags included, so generated code stops compiling as soon as the
// struct it was generated from changes: regenerate it.
func emitGuard(f *jen.File, t *Type) {
	first := true
	for _, s := range t.Structs {
		if s.Exact == nil || s.Name == "" || s.Go.Kind != RefNamed || s.Declare {
			continue
		}
		if first {
			docf(f, "Compile-time guard: if this fails to compile, %s (or a struct it\ncontains) changed since this file was generated; run go generate.", t.Name)
			first = false
		}
		f.Var().Id("_").Struct(fieldsCode(s.Exact)...).Op("=").Add(s.Go.Code()).Values()
	}
	if !first {
		f.Line()
	}
}
