package gen

import "github.com/pqgen/pqgen/runtime/schema"

// Package is the IR of one generation run: the package the code goes into
// and its row types.
type Package struct {
	// Name is the Go package name of the generated files.
	Name string
	// Path is the package's import path, or "" when unknown (a new package
	// generated from schema text or a file).
	Path string
	// Types are the row types, in the order they were asked for.
	Types []*Type
	// Args are the generator's arguments, recorded in the header of every
	// generated file.
	Args string
}

// Type is one row type T: its Parquet schema, its Go representation and the
// names of everything generated for it.
type Type struct {
	// Name is the Go name of T.
	Name string
	// Schema is the Parquet schema rows of T are written with and bound to.
	Schema *schema.Schema
	// Root is T's value: a KindStruct Value occupying Schema.Root.
	Root *Value
	// Structs are the struct types reached from T (T first), each once.
	Structs []*Struct
	// Names are the generated identifiers.
	Names Names
	// File is the name of the generated file ("order_parquet.go").
	File string
	// Columns are per-column writer settings taken from struct tags
	// (encoding, compression, dictionary, bloom filter...), by leaf index.
	Columns map[int]*ColumnOptions
	// Named are the named non-struct types the code reads and writes
	// values of (type Level int16), each once, with their underlying types
	// when generated: the stale-code guard checks they still are.
	Named []NamedType
}

// NamedType is a named type and its underlying type.
type NamedType struct {
	Go, Underlying *TypeRef
}

// Names are the identifiers generated for one row type.
type Names struct {
	Writer, NewWriter, Reader, NewReader string
	WriteFile, ReadFile                  string
	// SchemaText is the unexported constant holding the schema text;
	// Schema the unexported function returning the parsed schema.
	SchemaText, Schema string
	// Batch is the unexported constant: rows shredded between EndRows calls.
	// BatchCheck and BatchBytes, emitted for a writer that checks its
	// batch's bytes (writePlan.Check): the rows between checks and the
	// bytes that end a batch.
	Batch, BatchCheck, BatchBytes string
	// WriterFor wraps a runtime.FileWriter into a TWriter.
	WriterFor string
	// Drivers is the unexported table of the leaves deciding each nested
	// value's presence and length, in order of preference.
	Drivers string
	// Options holds the writer options from struct tags.
	Options string
	// Where is the package-level value of predicate builders (TWhere).
	Where string
	// Column prefixes the package-level constant naming each leaf's
	// column index ("pqgenOrderCol" + "LinesSKU").
	Column string
	// LeafCount is the constant holding the number of leaves.
	LeafCount string
	// Slabs is the unexported struct type of the reader's slabs, one per
	// part of a batch assembled at once (runtime.Leaves.Split).
	Slabs string
	// Driver prefixes the constant naming each nested value's entry in
	// the Drivers table ("pqgenOrderDrv" + "LinesOptions").
	Driver string
	// Values are the CamelCase names of the values of the row type (see
	// nameValues), which the generated identifiers about them extend:
	// "LinesSKU" names colLinesSKU, the leaf's buffer or reader.
	Values map[*Value]string
	// Leaves are the names of the leaves by column index.
	Leaves map[int]string
}

// Kind is the Go shape of a value.
type Kind int

// The kinds of Values.
const (
	// KindScalar is a leaf column value.
	KindScalar Kind = iota
	// KindStruct is a group as a Go struct.
	KindStruct
	// KindList is a repeated field (LIST-annotated or bare) as a Go slice.
	KindList
	// KindMap is a MAP as a Go map.
	KindMap
	// KindVariant is a VARIANT group as a variant.Encoded, read and
	// written whole by the runtime's VariantReader and VariantWriter
	// (which rebuild and apply the group's shredding). Generated code
	// supports it as a field of the row type itself, not deeper.
	KindVariant
)

// Null says how a value represents a Parquet null.
type Null int

// The null representations.
const (
	// NotNull: the node is required (or the list element is the repeated
	// node itself).
	NotNull Null = iota
	// NullPointer: a nil pointer (*T scalars and structs).
	NullPointer
	// NullNil: a nil slice or map ([]byte, lists, maps); an empty non-nil
	// one is a present empty value.
	NullNil
	// NullZero: the zero value (the `optional` tag on a non-pointer scalar).
	NullZero
)

// Value is the Go representation of one schema node.
type Value struct {
	// Kind is the Go shape.
	Kind Kind
	// Node is the schema node the value occupies: the leaf of a scalar, the
	// group of a struct, the LIST/MAP-annotated group of a list or map, or
	// the repeated field itself for a bare repeated field or a legacy
	// two-level list element.
	Node *schema.Node
	// Go is the Go type of the value as it appears in its struct field or
	// container (*int32, []Line, map[string]int64).
	Go *TypeRef
	// Base is Go without the pointer of a NullPointer value.
	Base *TypeRef
	// Null is how null is represented; NotNull unless Node is optional.
	Null Null
	// Conv is how a scalar converts between Go and the physical type.
	Conv Conv
	// Struct is the struct of a KindStruct value.
	Struct *Struct
	// Repeated is the repeated node of a list or map; it equals Node for a
	// bare repeated field.
	Repeated *schema.Node
	// Elem is the element of a list or the value of a map (nil for a map
	// without values is not supported).
	Elem *Value
	// Key is the key of a map.
	Key *Value
	// Col are the writer settings a struct tag gave the field (applied to
	// every leaf below it), or nil.
	Col *ColumnOptions
}

// Struct is a Go struct type holding a group's fields.
type Struct struct {
	// Name is the Go type name.
	Name string
	// Go refers to the type.
	Go *TypeRef
	// Fields are the fields mapped to columns, in schema order.
	Fields []*Field
	// Declare is set when the generated file declares the struct (schema
	// text and file sources).
	Declare bool
	// Exact are all the struct's fields as declared (including skipped and
	// unexported ones), for the stale-code guard; nil disables the guard
	// for this struct (it cannot be spelled from the generated file).
	Exact []RefField
	// Pos is where the struct is declared ("file.go:12"), for messages.
	Pos string
}

// Field is a struct field mapped to a column or group.
type Field struct {
	// Name is the selector path from the struct: "A", or "Base.A" for a
	// field promoted from an embedded struct.
	Name string
	// Tag is the struct tag of a declared field.
	Tag string
	// Value is the field's value.
	Value *Value
	// Default is the value (int64, uint64, float64, bool or string) of a
	// required top-level scalar tagged default(...), read from files that
	// lack its column; nil when none.
	Default any
}

// Conv is how a scalar converts between its Go type and the physical type.
type Conv int

// The conversions.
const (
	// ConvNative: a numeric or boolean conversion (int8 to INT32...).
	ConvNative Conv = iota
	// ConvString: a string (or named string) to BYTE_ARRAY.
	ConvString
	// ConvBytes: a []byte to BYTE_ARRAY.
	ConvBytes
	// ConvFixed: a [N]byte to FIXED_LEN_BYTE_ARRAY(N).
	ConvFixed
	// ConvTimestamp: a time.Time to an INT64 TIMESTAMP in the node's unit.
	ConvTimestamp
	// ConvDate: a time.Time to an INT32 DATE (days since the epoch).
	ConvDate
	// ConvDuration: a time.Duration to INT64 nanoseconds, or to a TIME in
	// the node's unit (INT32 for milliseconds).
	ConvDuration
	// ConvFloat16: a float32 to a FLOAT16 FIXED_LEN_BYTE_ARRAY(2), rounded
	// to nearest even (runtime.Float32ToFloat16); read exactly.
	ConvFloat16
	// ConvDecimal: a runtime.Decimal to an INT32, INT64 or
	// FIXED_LEN_BYTE_ARRAY(n ≤ 16) DECIMAL, rescaled exactly to the
	// column's scale (an error wrapping runtime.ErrValue when it cannot be,
	// or when the value has more digits than the precision).
	ConvDecimal
	// ConvInterval: a runtime.Interval to an INTERVAL
	// FIXED_LEN_BYTE_ARRAY(12).
	ConvInterval
)

// ColumnOptions are per-column writer settings from struct tags.
type ColumnOptions struct {
	// Path is the dotted column path.
	Path string
	// Dict is "on", "off" or "" (the writer's default).
	Dict string
	// Encoding is "plain", "delta", "split", "alp" or "".
	Encoding string
	// Compression is a codec name or "".
	Compression string
	// BloomNDV asks for a bloom filter sized for that many distinct values.
	BloomNDV uint64
}

// walk calls f for v and every value below it, depth first.
func (v *Value) walk(f func(*Value)) {
	f(v)
	switch v.Kind {
	case KindStruct:
		for _, fl := range v.Struct.Fields {
			fl.Value.walk(f)
		}
	case KindList:
		v.Elem.walk(f)
	case KindMap:
		v.Key.walk(f)
		v.Elem.walk(f)
	}
}

// leaves returns the schema leaves under n in column order.
func leaves(n *schema.Node) []*schema.Node {
	if !n.Group {
		return []*schema.Node{n}
	}
	var out []*schema.Node
	for _, c := range n.Children {
		out = append(out, leaves(c)...)
	}
	return out
}
