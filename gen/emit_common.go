package gen

import (
	"fmt"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/pqgen/pqgen/runtime/meta"
	"github.com/pqgen/pqgen/runtime/schema"
)

// Import paths of generated code.
const (
	pathRuntime  = "github.com/pqgen/pqgen/runtime"
	pathSchema   = "github.com/pqgen/pqgen/runtime/schema"
	pathEncode   = "github.com/pqgen/pqgen/runtime/encode"
	pathMeta     = "github.com/pqgen/pqgen/runtime/meta"
	pathCompress = "github.com/pqgen/pqgen/runtime/compress"
	pathVariant  = "github.com/pqgen/pqgen/runtime/variant"
)

// place yields, on each call, a fresh expression of an addressable
// location (a struct field, a slice element, a variable).
type place func() *jen.Statement

func id(name string) place { return func() *jen.Statement { return jen.Id(name) } }

// dot selects a field path ("A" or "Base.A") of the struct at p.
func (p place) dot(path string) place {
	return func() *jen.Statement {
		s := p()
		start := 0
		for i := 0; i <= len(path); i++ {
			if i == len(path) || path[i] == '.' {
				s = s.Dot(path[start:i])
				start = i + 1
			}
		}
		return s
	}
}

// deref is *p, parenthesized so it can be sliced or indexed.
func (p place) deref() place {
	return func() *jen.Statement { return jen.Parens(jen.Op("*").Add(p())) }
}

// physName names the runtime's buffer and reader types of a physical type.
func physName(t meta.Type) string {
	switch t {
	case meta.Boolean:
		return "Bool"
	case meta.Int32:
		return "Int32"
	case meta.Int64:
		return "Int64"
	case meta.Int96:
		return "Int96"
	case meta.Float:
		return "Float"
	case meta.Double:
		return "Double"
	case meta.ByteArray:
		return "ByteArray"
	case meta.FixedLenByteArray:
		return "Fixed"
	}
	panic(fmt.Sprintf("gen: physical type %d", t))
}

// namer hands out the local variable names of one field's code: a
// prefix telling the variable's role ("l" a list, "s" a struct, "j" a
// loop index...) numbered per prefix, so that adding a list renumbers
// no struct, and no other field's code changes.
type namer struct {
	n     map[string]int
	names *Names
	// shredding is true in a writer's shredding loop, where the row is
	// rows[i] and the file's row w.tileRow+i: errors name it (valueFail).
	shredding bool
}

func (n *namer) next(prefix string) string {
	if n.n == nil {
		n.n = map[string]int{}
	}
	n.n[prefix]++
	return fmt.Sprintf("%s%d", prefix, n.n[prefix])
}

// leafIndexes returns the column indexes of the leaves under n.
func leafIndexes(n *schema.Node) []int {
	ls := leaves(n)
	out := make([]int, len(ls))
	for i, l := range ls {
		out[i] = l.Column
	}
	return out
}

// zeroCheck returns a condition true when the scalar at p is its zero
// value (the null of a NullZero value).
func zeroCheck(v *Value, p place) *jen.Statement {
	switch v.Conv {
	case ConvString:
		return jen.Len(p()).Op("==").Lit(0)
	case ConvBytes:
		return jen.Len(p()).Op("==").Lit(0)
	case ConvFixed:
		return p().Op("==").Add(v.Base.Code()).Values()
	case ConvDecimal, ConvInterval:
		return p().Op("==").Parens(v.Base.Code().Values())
	case ConvTimestamp, ConvDate:
		return p().Dot("IsZero").Call()
	}
	if v.Node.Type == meta.Boolean {
		return jen.Op("!").Add(p())
	}
	return p().Op("==").Lit(0)
}

// docf adds a // comment of one or more lines to f.
func docf(f *jen.File, format string, args ...any) {
	for _, line := range strings.Split(fmt.Sprintf(format, args...), "\n") {
		f.Comment(line)
	}
}

// variantFields returns the row type's Variant fields.
func variantFields(t *Type) []*Field {
	var out []*Field
	for _, fl := range t.Root.Struct.Fields {
		if fl.Value.Kind == KindVariant {
			out = append(out, fl)
		}
	}
	return out
}

// variantColumns returns the leaf columns of the row type's Variant fields:
// the runtime's VariantReader and VariantWriter handle them.
func variantColumns(t *Type) map[int]bool {
	out := map[int]bool{}
	for _, fl := range variantFields(t) {
		for _, c := range leafIndexes(fl.Value.Node) {
			out[c] = true
		}
	}
	return out
}

// variantVar names the reader or writer field of a Variant value.
func (n *Names) variantVar(v *Value) string { return "variant" + n.Values[v] }

// emitColumns declares a constant per leaf holding its column index,
// which the writer and reader index by rather than by a bare number.
func emitColumns(f *jen.File, t *Type) {
	if len(t.Schema.Leaves) == 0 {
		return
	}
	defs := make([]jen.Code, len(t.Schema.Leaves))
	for i, l := range t.Schema.Leaves {
		defs[i] = jen.Id(t.Names.colIndex(l.Column))
	}
	defs[0] = jen.Id(t.Names.colIndex(t.Schema.Leaves[0].Column)).Op("=").Iota()
	defs = append(defs, jen.Id(t.Names.LeafCount).Comment("the number of leaves"))
	docf(f, "The column indexes of the leaves of %s, in schema order.", t.Name)
	f.Const().Defs(defs...)
	f.Line()
}
