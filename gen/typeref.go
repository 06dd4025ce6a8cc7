package gen

import (
	"fmt"
	"go/types"
	"strconv"

	"github.com/dave/jennifer/jen"
)

// RefKind is the shape of a TypeRef.
type RefKind int

// The shapes of TypeRefs.
const (
	// RefNamed is a predeclared or named type, possibly instantiated.
	RefNamed RefKind = iota
	// RefPointer is *Elem.
	RefPointer
	// RefSlice is []Elem.
	RefSlice
	// RefArray is [Len]Elem.
	RefArray
	// RefMap is map[Key]Elem.
	RefMap
	// RefStruct is an unnamed struct type.
	RefStruct
	// RefOther is a type the generator only spells, never reads or writes
	// (channels, functions, interfaces): Text holds it.
	RefOther
)

// TypeRef is a Go type as generated code spells it.
type TypeRef struct {
	Kind RefKind
	// Pkg is the import path of a named type ("" for predeclared types
	// and types of a package without a known path); Name its name.
	Pkg, Name string
	// Args are the type arguments of an instantiated generic type.
	Args []*TypeRef
	// Elem and Key are the element and key types.
	Elem, Key *TypeRef
	// Len is the length of an array.
	Len int64
	// Fields are the fields of an unnamed struct.
	Fields []RefField
	// Text is the spelling of a RefOther type.
	Text string
}

// RefField is one field of a struct type, exactly as declared.
type RefField struct {
	Name     string
	Type     *TypeRef
	Tag      string
	Embedded bool
}

func named(pkg, name string) *TypeRef { return &TypeRef{Kind: RefNamed, Pkg: pkg, Name: name} }
func pointerTo(t *TypeRef) *TypeRef   { return &TypeRef{Kind: RefPointer, Elem: t} }
func sliceOf(t *TypeRef) *TypeRef     { return &TypeRef{Kind: RefSlice, Elem: t} }
func mapOf(k, v *TypeRef) *TypeRef    { return &TypeRef{Kind: RefMap, Key: k, Elem: v} }
func arrayOf(n int64, t *TypeRef) *TypeRef {
	return &TypeRef{Kind: RefArray, Len: n, Elem: t}
}

// Code returns a fresh jennifer statement spelling the type.
func (t *TypeRef) Code() *jen.Statement {
	switch t.Kind {
	case RefNamed:
		var s *jen.Statement
		if t.Pkg == "" {
			s = jen.Id(t.Name)
		} else {
			s = jen.Qual(t.Pkg, t.Name)
		}
		if len(t.Args) > 0 {
			args := make([]jen.Code, len(t.Args))
			for i, a := range t.Args {
				args[i] = a.Code()
			}
			s = s.Types(args...)
		}
		return s
	case RefPointer:
		return jen.Op("*").Add(t.Elem.Code())
	case RefSlice:
		return jen.Index().Add(t.Elem.Code())
	case RefArray:
		return jen.Index(jen.Lit(int(t.Len))).Add(t.Elem.Code())
	case RefMap:
		return jen.Map(t.Key.Code()).Add(t.Elem.Code())
	case RefStruct:
		return jen.Struct(fieldsCode(t.Fields)...)
	}
	return jen.Id(t.Text)
}

func fieldsCode(fs []RefField) []jen.Code {
	out := make([]jen.Code, 0, len(fs))
	for _, f := range fs {
		var s *jen.Statement
		if f.Embedded {
			s = f.Type.Code()
		} else {
			s = jen.Id(f.Name).Add(f.Type.Code())
		}
		if f.Tag != "" {
			// A raw string literal keeps the tag readable; a tag holding a
			// backquote needs an interpreted literal.
			if strconv.CanBackquote(f.Tag) {
				s = s.Op("`" + f.Tag + "`")
			} else {
				s = s.Lit(f.Tag)
			}
		}
		out = append(out, s)
	}
	return out
}

// refOf converts a go/types type into a TypeRef. Types that cannot be
// spelled from the package at path (unexported types of other packages)
// make spellable false.
func refOf(t types.Type, path string) (ref *TypeRef, spellable bool) {
	spellable = true
	var conv func(t types.Type) *TypeRef
	conv = func(t types.Type) *TypeRef {
		switch t := t.(type) {
		case *types.Alias:
			obj := t.Obj()
			if obj.Pkg() == nil || obj.Pkg().Path() == path || obj.Exported() {
				r := &TypeRef{Kind: RefNamed, Name: obj.Name()}
				if obj.Pkg() != nil {
					r.Pkg = obj.Pkg().Path()
				}
				if ta := t.TypeArgs(); ta != nil {
					for i := 0; i < ta.Len(); i++ {
						r.Args = append(r.Args, conv(ta.At(i)))
					}
				}
				return r
			}
			return conv(types.Unalias(t))
		case *types.Basic:
			if t.Kind() == types.UnsafePointer {
				return named("unsafe", "Pointer")
			}
			return named("", t.Name())
		case *types.Named:
			obj := t.Obj()
			r := &TypeRef{Kind: RefNamed, Name: obj.Name()}
			if obj.Pkg() != nil {
				r.Pkg = obj.Pkg().Path()
				if r.Pkg != path && !obj.Exported() {
					spellable = false
				}
			}
			if ta := t.TypeArgs(); ta != nil {
				for i := 0; i < ta.Len(); i++ {
					r.Args = append(r.Args, conv(ta.At(i)))
				}
			}
			return r
		case *types.Pointer:
			return pointerTo(conv(t.Elem()))
		case *types.Slice:
			return sliceOf(conv(t.Elem()))
		case *types.Array:
			return arrayOf(t.Len(), conv(t.Elem()))
		case *types.Map:
			return mapOf(conv(t.Key()), conv(t.Elem()))
		case *types.Struct:
			r := &TypeRef{Kind: RefStruct}
			for i := 0; i < t.NumFields(); i++ {
				f := t.Field(i)
				if !f.Exported() && f.Pkg() != nil && f.Pkg().Path() != path {
					spellable = false
				}
				r.Fields = append(r.Fields, RefField{Name: f.Name(), Type: conv(f.Type()), Tag: t.Tag(i), Embedded: f.Embedded()})
			}
			return r
		}
		// Channels, functions, interfaces, type parameters: spelled by
		// their text, qualified relative to the package.
		return &TypeRef{Kind: RefOther, Text: types.TypeString(t, func(p *types.Package) string {
			if p.Path() == path {
				return ""
			}
			spellable = false
			return p.Name()
		})}
	}
	return conv(t), spellable
}

// String spells the type for messages.
func (t *TypeRef) String() string {
	switch t.Kind {
	case RefNamed:
		s := t.Name
		if t.Pkg != "" {
			s = t.Pkg + "." + s
		}
		return s
	case RefPointer:
		return "*" + t.Elem.String()
	case RefSlice:
		return "[]" + t.Elem.String()
	case RefArray:
		return fmt.Sprintf("[%d]%s", t.Len, t.Elem)
	case RefMap:
		return "map[" + t.Key.String() + "]" + t.Elem.String()
	case RefStruct:
		return "struct{...}"
	}
	return t.Text
}
