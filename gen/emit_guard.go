package gen

import "github.com/dave/jennifer/jen"

// guardStruct is a struct type the guard checks: its type and the exact
// struct type it must be assignable from.
type guardStruct struct {
	Go   *TypeRef
	Body jen.Code
}

// emitGuard emits, per struct type the code reads and writes, an
// assignment of a zero T to an unnamed struct type spelling T's exact
// fields, types and tags. Assignability requires identical underlying
// types, tags included, so generated code stops compiling as soon as the
// struct it was generated from changes: regenerate it. Named field types
// (type Level int16) keep their names in those struct types, so each named
// non-struct type the code converts gets a guard of its own: a conversion
// of a *Level to a pointer to its underlying type (*int16), which compiles
// only while Level's underlying type is int16 (template guard).
func emitGuard(f *jen.File, t *Type) {
	var structs []guardStruct
	for _, s := range t.Structs {
		if s.Exact == nil || s.Name == "" || s.Go.Kind != RefNamed || s.Declare {
			continue
		}
		structs = append(structs, guardStruct{Go: s.Go, Body: jen.Struct(fieldsCode(s.Exact)...)})
	}
	if len(structs) == 0 && len(t.Named) == 0 {
		return
	}
	fill(f, "guard", struct {
		Type    string
		Structs []guardStruct
		Named   []NamedType
	}{t.Name, structs, t.Named})
}
