package gen

import "github.com/dave/jennifer/jen"

// emitGuard emits, per struct type the code reads and writes, an
// assignment of a zero T to an unnamed struct type spelling T's exact
// fields, types and tags. Assignability requires identical underlying
// types, tags included, so generated code stops compiling as soon as the
// struct it was generated from changes: regenerate it. Named field types
// (type Level int16) keep their names in those struct types, so each named
// non-struct type the code converts gets a guard of its own: a conversion
// of a *Level to a pointer to its underlying type (*int16), which compiles
// only while Level's underlying type is int16.
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
	// A named type's underlying type: a conversion between pointer types
	// compiles only when their base types have identical underlying types
	// (a plain conversion would not notice int16 becoming int32).
	for _, nt := range t.Named {
		if first {
			docf(f, "Compile-time guard: if this fails to compile, %s (or a type it\ncontains) changed since this file was generated; run go generate.", t.Name)
			first = false
		}
		f.Var().Id("_").Op("=").Parens(jen.Op("*").Add(nt.Underlying.Code())).Call(jen.Parens(jen.Op("*").Add(nt.Go.Code())).Call(jen.Nil()))
	}
	if !first {
		f.Line()
	}
}
