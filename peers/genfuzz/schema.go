package genfuzz

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
)

// MaxNesting is how deeply groups, lists and maps nest in a random schema.
const MaxNesting = 4

// RandomSchema returns the text of a random schema drawn from seed: one to
// six top-level fields; required, optional and repeated leaves and groups;
// LISTs (three-level, and the legacy layouts of list) and MAPs (optional
// or required, with optional or
// required elements and values, nested up to MaxNesting deep); every
// physical type with the logical annotations it admits; names that
// collide once turned into Go identifiers, Go keywords and names that need
// quoting.
func RandomSchema(seed uint64) string {
	g := &schemaGen{r: rand.New(rand.NewPCG(seed, 0x5eed))}
	g.b.WriteString("message m {\n")
	g.fields(1, 0)
	g.b.WriteString("}\n")
	return g.b.String()
}

type schemaGen struct {
	r *rand.Rand
	b strings.Builder
}

// awkward are field names that stress the mapping to Go: keywords,
// predeclared identifiers, names colliding after CamelCase, names needing
// quotes, leading digits, non-ASCII letters and the generated identifiers'
// suffixes.
var awkward = []string{
	"type", "func", "map", "range", "go", "select", "default", "string", "int", "nil",
	"a_b", "aB", "a-b", "A_B", "ab", "AB", "a b", "1st", "_", "__x",
	"ü", "名前", "writer", "reader", "Schema", "list", "element", "key", "value",
	"key_value", "x.y", "m", "M", "Field", "f\"q", "tab\tname",
}

// fields writes one to six (one to three below the top level) uniquely
// named fields at the given indentation and nesting.
func (g *schemaGen) fields(indent, nesting int) {
	n := 1 + g.r.IntN(6)
	if nesting > 0 {
		n = 1 + g.r.IntN(3)
	}
	g.fieldsN(indent, nesting, n)
}

// fieldsN writes n uniquely named fields.
func (g *schemaGen) fieldsN(indent, nesting, n int) {
	used := map[string]bool{}
	for i := range n {
		name := fmt.Sprintf("f%d", i)
		if g.r.IntN(3) == 0 {
			name = awkward[g.r.IntN(len(awkward))]
		}
		if used[name] {
			name = fmt.Sprintf("f%d", i)
		}
		used[name] = true
		g.field(indent, nesting, name)
	}
}

// quote spells a name for schema text.
func quote(name string) string {
	for _, r := range name {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return fmt.Sprintf("%q", name)
		}
	}
	return name
}

func (g *schemaGen) line(indent int, format string, args ...any) {
	g.b.WriteString(strings.Repeat("  ", indent))
	fmt.Fprintf(&g.b, format, args...)
	g.b.WriteByte('\n')
}

// field writes one field of any kind; repeated fields are bare repeated
// leaves or groups.
func (g *schemaGen) field(indent, nesting int, name string) {
	rep := [...]string{"required", "optional", "repeated"}[g.r.IntN(3)]
	kind := g.r.IntN(10)
	if nesting >= MaxNesting {
		kind = 0
	}
	switch {
	case kind < 5:
		g.line(indent, "%s %s%s;", rep, g.leaf(quote(name)), g.fieldID())
	case kind < 7:
		g.group(indent, nesting, rep, name)
	case kind < 9:
		g.list(indent, nesting, g.nonRepeated(), name)
	default:
		g.mapField(indent, nesting, g.nonRepeated(), name)
	}
}

func (g *schemaGen) group(indent, nesting int, rep, name string) {
	g.line(indent, "%s group %s%s {", rep, quote(name), g.fieldID())
	g.fields(indent+1, nesting+1)
	g.line(indent, "}")
}

// fieldID returns " = id" for one field in six, "" otherwise.
func (g *schemaGen) fieldID() string {
	if g.r.IntN(6) != 0 {
		return ""
	}
	return fmt.Sprintf(" = %d", g.r.IntN(1000))
}

// nonRepeated returns "required" or "optional".
func (g *schemaGen) nonRepeated() string {
	return [...]string{"required", "optional"}[g.r.IntN(2)]
}

// list writes a LIST; rep is "required" or "optional". Most are
// three-level (one in twelve under other names than list and element);
// one in three has a layout of the backward-compatibility
// rules, whose repeated field is the (required) element itself: a
// primitive (rule 1), a group of several fields (rule 2), a group of one
// repeated field (rule 3), a group of one field named "array" or
// "<list>_tuple" (rule 4), as older parquet-java, parquet-avro and
// parquet-thrift wrote them.
func (g *schemaGen) list(indent, nesting int, rep, name string) {
	g.line(indent, "%s group %s (LIST)%s {", rep, quote(name), g.fieldID())
	pick := func(s ...string) string { return s[g.r.IntN(len(s))] }
	switch k := g.r.IntN(12); {
	case k == 0 || nesting+1 >= MaxNesting && k < 4:
		g.line(indent+1, "repeated %s;", g.leaf(pick("element", "array", "item")))
	case k == 1:
		g.line(indent+1, "repeated group %s {", pick("element", "bag", "array"))
		g.fieldsN(indent+2, nesting+1, 2+g.r.IntN(2))
		g.line(indent+1, "}")
	case k == 2:
		g.line(indent+1, "repeated group %s {", pick("element", "bag", "list"))
		if g.r.IntN(2) == 0 {
			g.line(indent+2, "repeated %s;", g.leaf("item"))
		} else {
			g.group(indent+2, nesting+1, "repeated", "item")
		}
		g.line(indent+1, "}")
	case k == 3:
		g.line(indent+1, "repeated group %s {", quote(pick("array", name+"_tuple")))
		g.fieldsN(indent+2, nesting+1, 1)
		g.line(indent+1, "}")
	case k == 4:
		// Three levels under other names (Spark's legacy format, Hive).
		g.line(indent+1, "repeated group %s {", pick("bag", "items"))
		g.element(indent+2, nesting+1, g.nonRepeated(), pick("item", "array_element", "array"))
		g.line(indent+1, "}")
	default:
		g.line(indent+1, "repeated group list {")
		g.element(indent+2, nesting+1, g.nonRepeated(), "element")
		g.line(indent+1, "}")
	}
	g.line(indent, "}")
}

// mapField writes a MAP with a required key and a value of any kind.
// One in three has a legacy layout: MAP_KEY_VALUE in place of MAP, or on
// the repeated group under MAP, with other names for that group.
func (g *schemaGen) mapField(indent, nesting int, rep, name string) {
	switch g.r.IntN(6) {
	case 0:
		g.line(indent, "%s group %s (MAP_KEY_VALUE)%s {", rep, quote(name), g.fieldID())
		g.line(indent+1, "repeated group map {")
	case 1:
		g.line(indent, "%s group %s (MAP)%s {", rep, quote(name), g.fieldID())
		g.line(indent+1, "repeated group %s (MAP_KEY_VALUE) {", [...]string{"map", "key_value", "entries"}[g.r.IntN(3)])
	default:
		g.line(indent, "%s group %s (MAP)%s {", rep, quote(name), g.fieldID())
		g.line(indent+1, "repeated group key_value {")
	}
	g.line(indent+2, "required %s;", mapKeys[g.r.IntN(len(mapKeys))])
	g.element(indent+2, nesting+1, g.nonRepeated(), "value")
	g.line(indent+1, "}")
	g.line(indent, "}")
}

// mapKeys are the key columns of maps. Keys map to comparable Go types;
// floating-point keys are left out (NaN is not equal to itself, so it
// cannot round-trip through a Go map), and so are DATE, TIME and
// TIMESTAMP keys (time.Time keys compare their location too).
var mapKeys = []string{
	"binary key (STRING)", "binary key", "binary key (ENUM)", "int32 key", "int64 key",
	"int32 key (INT(16,false))", "int32 key (INT(8,true))", "int64 key (INT(64,false))",
	"fixed_len_byte_array(4) key", "fixed_len_byte_array(16) key (UUID)", "int96 key", "boolean key",
	"int32 key (DECIMAL(9,3))",
}

// element writes a list element or map value: a leaf, a group, a list or
// a map.
func (g *schemaGen) element(indent, nesting int, rep, name string) {
	kind := g.r.IntN(10)
	if nesting >= MaxNesting {
		kind = 0
	}
	switch {
	case kind < 5:
		g.line(indent, "%s %s;", rep, g.leaf(name))
	case kind < 7:
		g.group(indent, nesting, rep, name)
	case kind < 9:
		g.list(indent, nesting, rep, name)
	default:
		g.mapField(indent, nesting, rep, name)
	}
}

// maxFixedPrecision is the largest DECIMAL precision a
// FIXED_LEN_BYTE_ARRAY(n) holds: floor(log10(2^(8n-1))).
func maxFixedPrecision(n int) int {
	return int(math.Floor(float64(8*n-1) * math.Log10(2)))
}

// leaf returns "type name (ANNOTATION)" for a random primitive.
func (g *schemaGen) leaf(name string) string {
	r := g.r
	pick := func(s ...string) string { return s[r.IntN(len(s))] }
	unit := func() string { return pick("MILLIS", "MICROS", "NANOS") }
	utc := func() string { return pick("true", "false") }
	switch r.IntN(9) {
	case 0:
		return "boolean " + name
	case 1:
		switch r.IntN(8) {
		case 0:
			return "int32 " + name
		case 1:
			return fmt.Sprintf("int32 %s (INT(%s,%s))", name, pick("8", "16", "32"), utc())
		case 2:
			return fmt.Sprintf("int32 %s (%s)", name, pick("INT_8", "INT_16", "INT_32", "UINT_8", "UINT_16", "UINT_32"))
		case 3:
			return "int32 " + name + " (DATE)"
		case 4:
			return fmt.Sprintf("int32 %s (TIME(MILLIS,%s))", name, utc())
		case 5:
			return "int32 " + name + " (TIME_MILLIS)"
		default:
			p := 1 + r.IntN(9)
			return fmt.Sprintf("int32 %s (DECIMAL(%d,%d))", name, p, r.IntN(p+1))
		}
	case 2:
		switch r.IntN(9) {
		case 0:
			return "int64 " + name
		case 1:
			return fmt.Sprintf("int64 %s (INT(64,%s))", name, utc())
		case 2:
			return fmt.Sprintf("int64 %s (%s)", name, pick("INT_64", "UINT_64"))
		case 3:
			return fmt.Sprintf("int64 %s (TIME(%s,%s))", name, pick("MICROS", "NANOS"), utc())
		case 4:
			return "int64 " + name + " (TIME_MICROS)"
		case 5, 6:
			return fmt.Sprintf("int64 %s (TIMESTAMP(%s,%s))", name, unit(), utc())
		case 7:
			return fmt.Sprintf("int64 %s (%s)", name, pick("TIMESTAMP_MILLIS", "TIMESTAMP_MICROS"))
		default:
			p := 1 + r.IntN(18)
			return fmt.Sprintf("int64 %s (DECIMAL(%d,%d))", name, p, r.IntN(p+1))
		}
	case 3:
		return "int96 " + name
	case 4:
		return "float " + name
	case 5:
		return "double " + name
	case 6:
		switch r.IntN(7) {
		case 0, 1:
			return "binary " + name
		case 2:
			return "binary " + name + " (" + pick("STRING", "UTF8") + ")"
		case 3:
			return "binary " + name + " (" + pick("ENUM", "JSON") + ")"
		case 4:
			return "binary " + name + " (BSON)"
		default:
			p := 1 + r.IntN(40)
			return fmt.Sprintf("binary %s (DECIMAL(%d,%d))", name, p, r.IntN(p+1))
		}
	default:
		switch r.IntN(6) {
		case 0, 1:
			return fmt.Sprintf("fixed_len_byte_array(%d) %s", 1+r.IntN(20), name)
		case 2:
			return "fixed_len_byte_array(16) " + name + " (UUID)"
		case 3:
			return "fixed_len_byte_array(2) " + name + " (FLOAT16)"
		case 4:
			return "fixed_len_byte_array(12) " + name + " (INTERVAL)"
		default:
			n := 1 + r.IntN(16)
			p := 1 + r.IntN(maxFixedPrecision(n))
			return fmt.Sprintf("fixed_len_byte_array(%d) %s (DECIMAL(%d,%d))", n, name, p, r.IntN(p+1))
		}
	}
}
