// The schema text grammar printed by parquet-java's MessageType.toString and
// by pqgen inspect, and parsed by the generator:
//
//	schema     = "message" name "{" field* "}"
//	field      = repetition ( primitive | group )
//	primitive  = ptype name [annotation] ["=" id] ";"
//	group      = "group" name [annotation] ["=" id] "{" field* "}" [";"]
//	ptype      = boolean | int32 | int64 | int96 | float | double | binary
//	           | fixed_len_byte_array "(" n ")"
//	annotation = "(" NAME [ "(" param ("," param)* ")" ] ")"
//
// The annotation and the field id may come in either order. Annotation
// names are the LogicalType names (STRING, DECIMAL(9,2),
// TIMESTAMP(MICROS,true), INT(8,false) or INTEGER(8,false), UUID, FLOAT16,
// VARIANT, GEOMETRY("crs"), GEOGRAPHY("crs",SPHERICAL), ...) or the legacy
// ConvertedType names (UTF8, TIMESTAMP_MILLIS, INT_8, MAP_KEY_VALUE,
// INTERVAL, ...). Parameters may also be written key=value as Arrow prints
// them (isAdjustedToUTC=true, timeUnit=microseconds).

package schema

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/pqgen/pqgen/runtime/meta"
)

// String prints the schema in the message grammar.
func (s *Schema) String() string {
	var b strings.Builder
	b.WriteString("message ")
	b.WriteString(quoteName(s.Root.Name))
	b.WriteString(" {\n")
	for _, c := range s.Root.Children {
		writeNode(&b, c, 1)
	}
	b.WriteString("}\n")
	return b.String()
}

func writeNode(b *strings.Builder, n *Node, depth int) {
	ind := strings.Repeat("  ", depth)
	b.WriteString(ind)
	b.WriteString(strings.ToLower(n.Repetition.String()))
	b.WriteByte(' ')
	if n.Group {
		b.WriteString("group ")
	} else {
		b.WriteString(TypeName(n.Type, n.TypeLength))
		b.WriteByte(' ')
	}
	b.WriteString(quoteName(n.Name))
	if a := Annotation(n); a != "" {
		b.WriteString(" (")
		b.WriteString(a)
		b.WriteByte(')')
	}
	if n.FieldID.Set {
		fmt.Fprintf(b, " = %d", n.FieldID.Val)
	}
	if !n.Group {
		b.WriteString(";\n")
		return
	}
	b.WriteString(" {\n")
	for _, c := range n.Children {
		writeNode(b, c, depth+1)
	}
	b.WriteString(ind)
	b.WriteString("}\n")
}

// quoteName returns name as is when it is a plain identifier of the grammar,
// and Go-quoted otherwise (names with spaces, punctuation or empty names).
func quoteName(name string) string {
	if name == "" {
		return `""`
	}
	for _, r := range name {
		if !isIdentRune(r) {
			return strconv.Quote(name)
		}
	}
	return name
}

// TypeName returns the grammar's name of a physical type: "int32",
// "binary", "fixed_len_byte_array(16)".
func TypeName(t meta.Type, length int32) string {
	switch t {
	case meta.Boolean:
		return "boolean"
	case meta.Int32:
		return "int32"
	case meta.Int64:
		return "int64"
	case meta.Int96:
		return "int96"
	case meta.Float:
		return "float"
	case meta.Double:
		return "double"
	case meta.ByteArray:
		return "binary"
	case meta.FixedLenByteArray:
		return fmt.Sprintf("fixed_len_byte_array(%d)", length)
	}
	return fmt.Sprintf("type(%d)", int32(t))
}

// Annotation returns the annotation of a node as the grammar writes it
// (without the parentheses around it), or "" when it has none.
func Annotation(n *Node) string {
	if n.ConvertedOnly && n.Converted.Set && legacyTime(n.Converted.Val) {
		return n.Converted.Val.String()
	}
	if s := LogicalString(n.Logical); s != "" {
		return s
	}
	if n.Converted.Set {
		switch n.Converted.Val {
		case meta.ConvertedMapKeyValue:
			return "MAP_KEY_VALUE"
		case meta.ConvertedInterval:
			return "INTERVAL"
		}
	}
	return ""
}

// LogicalString formats a logical type as the grammar writes it: "STRING",
// "DECIMAL(9,2)", "TIMESTAMP(MICROS,true)", "INT(8,false)"; "" for
// LogicalNone.
func LogicalString(l meta.LogicalType) string {
	switch l.Kind {
	case meta.LogicalNone:
		return ""
	case meta.LogicalString:
		return "STRING"
	case meta.LogicalMap:
		return "MAP"
	case meta.LogicalList:
		return "LIST"
	case meta.LogicalEnum:
		return "ENUM"
	case meta.LogicalDecimal:
		return fmt.Sprintf("DECIMAL(%d,%d)", l.Decimal.Precision, l.Decimal.Scale)
	case meta.LogicalDate:
		return "DATE"
	case meta.LogicalTime:
		return fmt.Sprintf("TIME(%s,%t)", l.Time.Unit.String(), l.Time.IsAdjustedToUTC)
	case meta.LogicalTimestamp:
		return fmt.Sprintf("TIMESTAMP(%s,%t)", l.Time.Unit.String(), l.Time.IsAdjustedToUTC)
	case meta.LogicalInteger:
		return fmt.Sprintf("INT(%d,%t)", l.Integer.BitWidth, l.Integer.IsSigned)
	case meta.LogicalUnknown:
		return "UNKNOWN"
	case meta.LogicalJSON:
		return "JSON"
	case meta.LogicalBSON:
		return "BSON"
	case meta.LogicalUUID:
		return "UUID"
	case meta.LogicalFloat16:
		return "FLOAT16"
	case meta.LogicalVariant:
		if v, ok := l.Variant.SpecificationVersion.Get(); ok {
			return fmt.Sprintf("VARIANT(%d)", v)
		}
		return "VARIANT"
	case meta.LogicalGeometry:
		if c, ok := l.Geometry.CRS.Get(); ok {
			return fmt.Sprintf("GEOMETRY(%s)", strconv.Quote(c))
		}
		return "GEOMETRY"
	case meta.LogicalGeography:
		var ps []string
		if c, ok := l.Geography.CRS.Get(); ok {
			ps = append(ps, strconv.Quote(c))
		}
		if a, ok := l.Geography.Algorithm.Get(); ok {
			ps = append(ps, a.String())
		}
		if len(ps) == 0 {
			return "GEOGRAPHY"
		}
		return "GEOGRAPHY(" + strings.Join(ps, ",") + ")"
	case meta.LogicalFile:
		return "FILE"
	}
	return fmt.Sprintf("LOGICAL_%d", int16(l.Kind))
}
