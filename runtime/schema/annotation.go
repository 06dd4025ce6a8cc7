// Which physical types each annotation may annotate, as the logical types
// specification states it
// (https://github.com/apache/parquet-format/blob/master/LogicalTypes.md):
// STRING, ENUM, JSON, BSON, GEOMETRY and GEOGRAPHY annotate BYTE_ARRAY;
// UUID a FIXED_LEN_BYTE_ARRAY(16), FLOAT16 one of 2 bytes, INTERVAL one of
// 12; INT(8/16/32) INT32 and INT(64) INT64; DATE INT32; TIME(MILLIS) INT32
// and TIME(MICROS/NANOS) INT64; TIMESTAMP INT64; DECIMAL INT32 up to 9
// digits, INT64 up to 18, FIXED_LEN_BYTE_ARRAY(n) up to
// floor(log10(2^(8n-1)-1)) and BYTE_ARRAY any, with 0 <= scale <=
// precision and precision >= 1 ("A precision too large for the underlying
// type is an error"); LIST, MAP, VARIANT and FILE annotate groups. UNKNOWN
// annotates any primitive.

package schema

import (
	"fmt"
	"math"
	"math/big"

	"github.com/pqgen/pqgen/runtime/meta"
)

// CheckAnnotations reports the first node of s whose annotation does not
// fit its type: an error wrapping ErrInvalid that names the column and,
// for a schema parsed from text, starts with where it is declared
// ("line:col: "). Readers accept such
// files from other writers (the annotation is what it is); writers must
// not make them, as other readers refuse them or misread their values.
func CheckAnnotations(s *Schema) error {
	var walk func(n *Node) error
	walk = func(n *Node) error {
		if n.Parent != nil {
			if why := annotationMisfit(n); why != "" {
				if n.Pos.IsValid() {
					return fmt.Errorf("%s: %w: column %q: %s", n.Pos, ErrInvalid, n.PathString(), why)
				}
				return fmt.Errorf("%w: column %q: %s", ErrInvalid, n.PathString(), why)
			}
		}
		for _, c := range n.Children {
			if err := walk(c); err != nil {
				return err
			}
		}
		return nil
	}
	return walk(s.Root)
}

// CheckAnnotation is CheckAnnotations for node n alone (its children
// unchecked), without its name: for callers that say where n comes from.
func CheckAnnotation(n *Node) error {
	if why := annotationMisfit(n); why != "" {
		return fmt.Errorf("%w: %s", ErrInvalid, why)
	}
	return nil
}

// annotationMisfit says why n's annotation does not fit its type, "" when
// it does.
func annotationMisfit(n *Node) string {
	l := n.Logical
	ann := Annotation(n)
	if n.Group {
		switch l.Kind {
		case meta.LogicalNone, meta.LogicalList, meta.LogicalMap, meta.LogicalVariant, meta.LogicalFile:
		default:
			return ann + " annotates primitive types, not groups"
		}
		if n.Converted.Set && n.Converted.Val == meta.ConvertedInterval {
			return ann + " annotates a fixed_len_byte_array(12), not a group"
		}
		return ""
	}
	typ := TypeName(n.Type, n.TypeLength)
	needs := func(want string) string { return fmt.Sprintf("%s annotates %s, not %s", ann, want, typ) }
	is := func(t meta.Type) bool { return n.Type == t }
	isFixed := func(size int32) bool { return n.Type == meta.FixedLenByteArray && n.TypeLength == size }
	if n.Converted.Set && n.Converted.Val == meta.ConvertedInterval && !isFixed(12) {
		return needs("fixed_len_byte_array(12)")
	}
	switch l.Kind {
	case meta.LogicalList, meta.LogicalMap, meta.LogicalVariant, meta.LogicalFile:
		return ann + " annotates groups, not " + typ
	case meta.LogicalString, meta.LogicalEnum, meta.LogicalJSON, meta.LogicalBSON, meta.LogicalGeometry, meta.LogicalGeography:
		if !is(meta.ByteArray) {
			return needs("binary")
		}
	case meta.LogicalUUID:
		if !isFixed(16) {
			return needs("fixed_len_byte_array(16)")
		}
	case meta.LogicalFloat16:
		if !isFixed(2) {
			return needs("fixed_len_byte_array(2)")
		}
	case meta.LogicalInteger:
		switch w := l.Integer.BitWidth; {
		case w != 8 && w != 16 && w != 32 && w != 64:
			return fmt.Sprintf("INT has a bit width of 8, 16, 32 or 64, not %d", w)
		case w == 64 && !is(meta.Int64):
			return needs("int64")
		case w < 64 && !is(meta.Int32):
			return needs("int32")
		}
	case meta.LogicalDate:
		if !is(meta.Int32) {
			return needs("int32")
		}
	case meta.LogicalTime:
		if l.Time.Unit == meta.Millis && !is(meta.Int32) {
			return needs("int32")
		}
		if l.Time.Unit != meta.Millis && !is(meta.Int64) {
			return needs("int64")
		}
	case meta.LogicalTimestamp:
		if !is(meta.Int64) {
			return needs("int64")
		}
	case meta.LogicalDecimal:
		p, s := l.Decimal.Precision, l.Decimal.Scale
		if p < 1 || s < 0 || s > p {
			return fmt.Sprintf("%s needs a precision of at least 1 and a scale from 0 to the precision", ann)
		}
		max := int32(-1) // digits the type holds; -1: any
		switch n.Type {
		case meta.Int32:
			max = 9
		case meta.Int64:
			max = 18
		case meta.FixedLenByteArray:
			max = DecimalDigits(int(n.TypeLength))
		case meta.ByteArray:
		default:
			return needs("int32, int64, fixed_len_byte_array or binary")
		}
		if max >= 0 && p > max {
			return fmt.Sprintf("%s: %s holds up to %d digits, not %d", ann, typ, max, p)
		}
	}
	return ""
}

// DecimalDigits returns the most decimal digits every value of which a
// FIXED_LEN_BYTE_ARRAY of n bytes holds in two's complement:
// floor(log10(2^(8n-1)-1)), exactly up to 4,096 bytes (9,864 digits),
// from the float64 logarithm beyond; 0 for n < 1.
func DecimalDigits(n int) int32 {
	switch {
	case n < 1:
		return 0
	case n > 4096:
		return int32(min(float64(8*n-1)*math.Log10(2), math.MaxInt32))
	}
	limit := new(big.Int).Lsh(big.NewInt(1), uint(8*n-1))
	limit.Sub(limit, big.NewInt(1))
	return int32(len(limit.String()) - 1)
}
