// The schema tree rebuilt from the depth-first SchemaElement list of
// FileMetaData.schema. See
// https://parquet.apache.org/docs/file-format/metadata/ and
// https://parquet.apache.org/docs/file-format/nestedencoding/ for levels.

package schema

import (
	"errors"
	"fmt"
	"strings"

	"github.com/pqgen/pqgen/runtime/meta"
)

// MaxDepth bounds the nesting depth of a schema (the root is depth 0). It
// keeps definition and repetition levels within a byte.
const MaxDepth = 100

// ErrInvalid reports a schema that breaks the format's rules.
var ErrInvalid = errors.New("invalid schema")

// Node is one field of the schema tree: a group (Children set, or an empty
// group) or a primitive leaf column.
type Node struct {
	// Name is the field name.
	Name string
	// Repetition is REQUIRED, OPTIONAL or REPEATED (REQUIRED for the root).
	Repetition meta.FieldRepetitionType
	// Group is true for groups, including the root.
	Group bool
	// Type is the physical type of a leaf.
	Type meta.Type
	// TypeLength is the byte width of a FIXED_LEN_BYTE_ARRAY leaf.
	TypeLength int32
	// IntTypeLength is the type_length stored on an INT32 or INT64 leaf
	// (0 when absent, or not in 1..64). The format gives it no meaning
	// there; parquetjs stores in it the bit width of the values it
	// writes in the RLE encoding (page.Column.RLEBitWidth).
	IntTypeLength int32
	// Logical is the resolved logical type: the LogicalType annotation, or
	// the one implied by ConvertedType when no known LogicalType is present.
	Logical meta.LogicalType
	// Converted is the ConvertedType annotation as stored (or as implied by
	// Logical for a schema built from text), when any.
	Converted meta.Opt[meta.ConvertedType]
	// ConvertedOnly is true for a TIME_MILLIS, TIME_MICROS,
	// TIMESTAMP_MILLIS or TIMESTAMP_MICROS column whose element stores
	// that ConvertedType and no LogicalType (files of writers that predate
	// LogicalType, and parquetjs and hyparquet-writer today). Logical is
	// then the type the ConvertedType stands for (isAdjustedToUTC true),
	// but readers such as DuckDB and Arrow take such a column as local
	// time: the schema text names it by its legacy name and Elements
	// writes the ConvertedType alone, so that a copy is read as the
	// original is.
	ConvertedOnly bool
	// Scale and Precision are the legacy DECIMAL fields of SchemaElement.
	Scale, Precision meta.Opt[int32]
	// FieldID is the field id, when any.
	FieldID meta.Opt[int32]
	// Children are the fields of a group, in order.
	Children []*Node
	// Parent is the enclosing group (nil for the root).
	Parent *Node

	// MaxDef and MaxRep are the maximum definition and repetition levels of
	// this node: the number of non-required and of repeated nodes on the path
	// from the root (excluded) to this node (included).
	MaxDef, MaxRep uint8
	// Column is the index of a leaf among all leaves (-1 for groups).
	Column int
	// Path is the path from the root's child to this node (nil for the root).
	Path []string
	// Pos is where the node is declared in the schema text it was parsed
	// from (Parse); the zero Position for schemas from elements.
	Pos Position
}

// Position is a line and column (both 1-based) in a schema text.
type Position struct {
	Line, Col int
}

// IsValid reports whether the position was recorded.
func (p Position) IsValid() bool { return p.Line > 0 }

// String returns "line:col".
func (p Position) String() string { return fmt.Sprintf("%d:%d", p.Line, p.Col) }

// IsLeaf reports whether the node is a primitive column.
func (n *Node) IsLeaf() bool { return !n.Group }

// IsTwoLevelElement reports whether n, the repeated child of a LIST group,
// is itself the list's element by the LIST type's backward-compatibility
// rules (LogicalTypes.md): a primitive, a group of several fields, a group
// whose one field is repeated, or a group of one field named "array" or
// the list's name with "_tuple" appended (parquet-avro's and
// parquet-thrift's layouts). Otherwise, in the three-level layout, its one
// field is the element.
func (n *Node) IsTwoLevelElement() bool {
	if !n.Group || len(n.Children) != 1 || n.Children[0].Repetition == meta.Repeated {
		return true
	}
	return n.Name == "array" || n.Parent != nil && n.Name == n.Parent.Name+"_tuple"
}

// PathString returns the dotted path of the node ("a.list.element").
func (n *Node) PathString() string { return strings.Join(n.Path, ".") }

// Schema is a whole schema tree.
type Schema struct {
	// Root is the message node; its Name is the message name.
	Root *Node
	// Leaves are the primitive columns in depth-first order; Leaves[i].Column == i.
	Leaves []*Node
}

// Leaf returns the leaf whose dotted path is path, or nil.
func (s *Schema) Leaf(path string) *Node {
	for _, l := range s.Leaves {
		if l.PathString() == path {
			return l
		}
	}
	return nil
}

// FromElements rebuilds the tree from the depth-first list of a footer.
// It validates what the list claims before trusting it: num_children never
// exceeds the elements left, nesting stays within MaxDepth, leaves have a
// valid physical type, FIXED_LEN_BYTE_ARRAY a positive length.
func FromElements(els []meta.SchemaElement) (*Schema, error) {
	if len(els) == 0 {
		return nil, fmt.Errorf("%w: no schema elements", ErrInvalid)
	}
	s := &Schema{}
	b := builder{els: els, s: s}
	root, err := b.node(nil, 0)
	if err != nil {
		return nil, err
	}
	if b.pos != len(els) {
		return nil, fmt.Errorf("%w: element %d (%q) is outside the root's %d children", ErrInvalid, b.pos, els[b.pos].Name, len(root.Children))
	}
	root.Group = true
	root.Repetition = meta.Required
	s.Root = root
	return s, nil
}

type builder struct {
	els []meta.SchemaElement
	pos int
	s   *Schema
}

func (b *builder) node(parent *Node, depth int) (*Node, error) {
	idx := b.pos
	if idx >= len(b.els) {
		// An ancestor's num_children was checked against the elements left,
		// but its descendants may have consumed them.
		return nil, fmt.Errorf("%w: %s claims more children than the %d schema elements hold", ErrInvalid, parentName(parent), len(b.els))
	}
	e := &b.els[idx]
	b.pos++
	if depth > MaxDepth {
		return nil, fmt.Errorf("%w: element %d (%q) nests deeper than %d levels", ErrInvalid, idx, e.Name, MaxDepth)
	}
	n := &Node{Name: e.Name, Parent: parent, Column: -1, FieldID: e.FieldID,
		Scale: e.Scale, Precision: e.Precision, Converted: e.ConvertedType}
	if parent != nil {
		n.Path = append(append(make([]string, 0, len(parent.Path)+1), parent.Path...), e.Name)
		n.Repetition = e.RepetitionType.Or(meta.Required)
		if n.Repetition < meta.Required || n.Repetition > meta.Repeated {
			return nil, fmt.Errorf("%w: element %d (%s): repetition type %d", ErrInvalid, idx, n.PathString(), n.Repetition)
		}
		n.MaxDef, n.MaxRep = parent.MaxDef, parent.MaxRep
		if n.Repetition != meta.Required {
			n.MaxDef++
		}
		if n.Repetition == meta.Repeated {
			n.MaxRep++
		}
	}
	nc := e.NumChildren.Val
	isGroup := parent == nil || !e.Type.Set || nc > 0
	if isGroup {
		n.Group = true
		if e.Type.Set && nc > 0 && parent != nil {
			return nil, fmt.Errorf("%w: element %d (%s) has a physical type and %d children", ErrInvalid, idx, n.PathString(), nc)
		}
		if nc < 0 {
			return nil, fmt.Errorf("%w: element %d (%s): num_children %d", ErrInvalid, idx, n.PathString(), nc)
		}
		if left := len(b.els) - b.pos; int64(nc) > int64(left) {
			return nil, fmt.Errorf("%w: element %d (%s) claims %d children but only %d elements follow", ErrInvalid, idx, n.PathString(), nc, left)
		}
		n.Children = make([]*Node, 0, nc)
		for i := int32(0); i < nc; i++ {
			c, err := b.node(n, depth+1)
			if err != nil {
				return nil, err
			}
			n.Children = append(n.Children, c)
		}
	} else {
		n.Type = e.Type.Val
		if n.Type < meta.Boolean || n.Type > meta.FixedLenByteArray {
			return nil, fmt.Errorf("%w: element %d (%s): physical type %d", ErrInvalid, idx, n.PathString(), n.Type)
		}
		if n.Type == meta.FixedLenByteArray {
			if !e.TypeLength.Set || e.TypeLength.Val <= 0 {
				return nil, fmt.Errorf("%w: element %d (%s): FIXED_LEN_BYTE_ARRAY without a positive type_length", ErrInvalid, idx, n.PathString())
			}
			n.TypeLength = e.TypeLength.Val
		}
		if (n.Type == meta.Int32 || n.Type == meta.Int64) && e.TypeLength.Set && e.TypeLength.Val > 0 && e.TypeLength.Val <= 64 {
			n.IntTypeLength = e.TypeLength.Val
		}
		n.Column = len(b.s.Leaves)
		b.s.Leaves = append(b.s.Leaves, n)
	}
	if e.LogicalType != nil && e.LogicalType.Kind != meta.LogicalNone {
		n.Logical = *e.LogicalType
	} else if e.ConvertedType.Set {
		n.Logical = LogicalFromConverted(e.ConvertedType.Val, e.Scale.Val, e.Precision.Val)
		n.ConvertedOnly = legacyTime(e.ConvertedType.Val)
	}
	return n, nil
}

func parentName(n *Node) string {
	if n == nil || n.Parent == nil {
		return "the root"
	}
	return fmt.Sprintf("group %s", n.PathString())
}

// legacyTime reports whether c is one of the time ConvertedTypes that mean
// something else alone than beside their LogicalType (Node.ConvertedOnly).
func legacyTime(c meta.ConvertedType) bool {
	switch c {
	case meta.ConvertedTimeMillis, meta.ConvertedTimeMicros, meta.ConvertedTimestampMillis, meta.ConvertedTimestampMicros:
		return true
	}
	return false
}

// LogicalFromConverted returns the LogicalType a ConvertedType stands for,
// by the backward-compatibility rules of the logical types specification:
// TIME_* and TIMESTAMP_* are UTC-adjusted, INT_*/UINT_* are INTEGER with the
// width and sign they name, DECIMAL takes the element's scale and precision.
// MAP_KEY_VALUE and INTERVAL have no LogicalType: LogicalNone is returned.
func LogicalFromConverted(c meta.ConvertedType, scale, precision int32) meta.LogicalType {
	intType := func(bits int8, signed bool) meta.LogicalType {
		return meta.LogicalType{Kind: meta.LogicalInteger, Integer: meta.IntType{BitWidth: bits, IsSigned: signed}}
	}
	timeType := func(k meta.LogicalKind, u meta.TimeUnit) meta.LogicalType {
		return meta.LogicalType{Kind: k, Time: meta.TimeType{IsAdjustedToUTC: true, Unit: u}}
	}
	switch c {
	case meta.ConvertedUTF8:
		return meta.LogicalType{Kind: meta.LogicalString}
	case meta.ConvertedMap:
		return meta.LogicalType{Kind: meta.LogicalMap}
	case meta.ConvertedList:
		return meta.LogicalType{Kind: meta.LogicalList}
	case meta.ConvertedEnum:
		return meta.LogicalType{Kind: meta.LogicalEnum}
	case meta.ConvertedDecimal:
		return meta.LogicalType{Kind: meta.LogicalDecimal, Decimal: meta.DecimalType{Scale: scale, Precision: precision}}
	case meta.ConvertedDate:
		return meta.LogicalType{Kind: meta.LogicalDate}
	case meta.ConvertedTimeMillis:
		return timeType(meta.LogicalTime, meta.Millis)
	case meta.ConvertedTimeMicros:
		return timeType(meta.LogicalTime, meta.Micros)
	case meta.ConvertedTimestampMillis:
		return timeType(meta.LogicalTimestamp, meta.Millis)
	case meta.ConvertedTimestampMicros:
		return timeType(meta.LogicalTimestamp, meta.Micros)
	case meta.ConvertedUint8:
		return intType(8, false)
	case meta.ConvertedUint16:
		return intType(16, false)
	case meta.ConvertedUint32:
		return intType(32, false)
	case meta.ConvertedUint64:
		return intType(64, false)
	case meta.ConvertedInt8:
		return intType(8, true)
	case meta.ConvertedInt16:
		return intType(16, true)
	case meta.ConvertedInt32:
		return intType(32, true)
	case meta.ConvertedInt64:
		return intType(64, true)
	case meta.ConvertedJSON:
		return meta.LogicalType{Kind: meta.LogicalJSON}
	case meta.ConvertedBSON:
		return meta.LogicalType{Kind: meta.LogicalBSON}
	}
	return meta.LogicalType{}
}

// ConvertedFromLogical returns the ConvertedType writers must store beside
// a LogicalType (the forward-compatibility rules): local and UTC-adjusted
// TIME/TIMESTAMP in MILLIS or MICROS map to the legacy annotations, NANOS and
// the types without a legacy form have none.
func ConvertedFromLogical(l meta.LogicalType) (meta.ConvertedType, bool) {
	switch l.Kind {
	case meta.LogicalString:
		return meta.ConvertedUTF8, true
	case meta.LogicalMap:
		return meta.ConvertedMap, true
	case meta.LogicalList:
		return meta.ConvertedList, true
	case meta.LogicalEnum:
		return meta.ConvertedEnum, true
	case meta.LogicalDecimal:
		return meta.ConvertedDecimal, true
	case meta.LogicalDate:
		return meta.ConvertedDate, true
	case meta.LogicalTime:
		switch l.Time.Unit {
		case meta.Millis:
			return meta.ConvertedTimeMillis, true
		case meta.Micros:
			return meta.ConvertedTimeMicros, true
		}
	case meta.LogicalTimestamp:
		switch l.Time.Unit {
		case meta.Millis:
			return meta.ConvertedTimestampMillis, true
		case meta.Micros:
			return meta.ConvertedTimestampMicros, true
		}
	case meta.LogicalInteger:
		i := l.Integer
		switch {
		case i.IsSigned && i.BitWidth == 8:
			return meta.ConvertedInt8, true
		case i.IsSigned && i.BitWidth == 16:
			return meta.ConvertedInt16, true
		case i.IsSigned && i.BitWidth == 32:
			return meta.ConvertedInt32, true
		case i.IsSigned && i.BitWidth == 64:
			return meta.ConvertedInt64, true
		case !i.IsSigned && i.BitWidth == 8:
			return meta.ConvertedUint8, true
		case !i.IsSigned && i.BitWidth == 16:
			return meta.ConvertedUint16, true
		case !i.IsSigned && i.BitWidth == 32:
			return meta.ConvertedUint32, true
		case !i.IsSigned && i.BitWidth == 64:
			return meta.ConvertedUint64, true
		}
	case meta.LogicalJSON:
		return meta.ConvertedJSON, true
	case meta.LogicalBSON:
		return meta.ConvertedBSON, true
	}
	return 0, false
}

// Elements flattens the tree into the depth-first SchemaElement list a
// footer stores, with LogicalType and the compatible ConvertedType (and the
// legacy DECIMAL scale and precision) both written; a ConvertedOnly node
// gets its ConvertedType alone.
func (s *Schema) Elements() []meta.SchemaElement {
	var out []meta.SchemaElement
	var walk func(n *Node)
	walk = func(n *Node) {
		e := meta.SchemaElement{Name: n.Name, FieldID: n.FieldID}
		if n != s.Root {
			e.RepetitionType = meta.Some(n.Repetition)
		}
		if n.Group {
			e.NumChildren = meta.Some(int32(len(n.Children)))
		} else {
			e.Type = meta.Some(n.Type)
			if n.Type == meta.FixedLenByteArray {
				e.TypeLength = meta.Some(n.TypeLength)
			}
		}
		if n.Logical.Kind != meta.LogicalNone && !(n.ConvertedOnly && n.Converted.Set) {
			l := n.Logical
			e.LogicalType = &l
		}
		e.ConvertedType = n.Converted
		if !e.ConvertedType.Set {
			if c, ok := ConvertedFromLogical(n.Logical); ok {
				e.ConvertedType = meta.Some(c)
			}
		}
		if e.ConvertedType.Set && e.ConvertedType.Val == meta.ConvertedDecimal {
			e.Scale, e.Precision = n.Scale, n.Precision
			if n.Logical.Kind == meta.LogicalDecimal {
				e.Scale = meta.Some(n.Logical.Decimal.Scale)
				e.Precision = meta.Some(n.Logical.Decimal.Precision)
			}
		}
		out = append(out, e)
		for _, c := range n.Children {
			walk(c)
		}
	}
	walk(s.Root)
	return out
}
