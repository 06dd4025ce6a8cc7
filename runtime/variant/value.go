// Variant values: validation and read-only views.
//
// Layout (VariantEncoding.md, "Value encoding"): one value_metadata byte
// holding basic_type (bits 0-1) and a 6-bit value_header, then the
// value_data:
//
//	primitive (0)     header = type id; data per the primitive table
//	short string (1)  header = length 0-63; data = UTF-8 bytes
//	object (2)        header = is_large<<4 | field_id_size-1<<2 |
//	                  field_offset_size-1; data = num_elements (1 or 4
//	                  bytes), field ids, num_elements+1 offsets, values
//	array (3)         header = is_large<<2 | field_offset_size-1; data =
//	                  num_elements, num_elements+1 offsets, values

package variant

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"slices"
	"unicode/utf8"
)

// MaxDepth bounds the nesting of objects and arrays that Parse accepts.
const MaxDepth = 512

// Kind is the type of a Variant value. Primitive kinds carry the Variant
// physical type id of the specification's primitive table; short strings
// are KindString.
type Kind uint8

// The kinds of Variant values.
const (
	KindNull              Kind = 0
	KindTrue              Kind = 1
	KindFalse             Kind = 2
	KindInt8              Kind = 3
	KindInt16             Kind = 4
	KindInt32             Kind = 5
	KindInt64             Kind = 6
	KindDouble            Kind = 7
	KindDecimal4          Kind = 8
	KindDecimal8          Kind = 9
	KindDecimal16         Kind = 10
	KindDate              Kind = 11
	KindTimestamp         Kind = 12 // microseconds, adjusted to UTC
	KindTimestampNTZ      Kind = 13 // microseconds, no time zone
	KindFloat             Kind = 14
	KindBinary            Kind = 15
	KindString            Kind = 16
	KindTime              Kind = 17 // microseconds since midnight, no time zone
	KindTimestampNanos    Kind = 18 // nanoseconds, adjusted to UTC
	KindTimestampNTZNanos Kind = 19 // nanoseconds, no time zone
	KindUUID              Kind = 20
	KindObject            Kind = 64
	KindArray             Kind = 65
)

var kindNames = map[Kind]string{
	KindNull: "null", KindTrue: "boolean", KindFalse: "boolean", KindInt8: "int8", KindInt16: "int16",
	KindInt32: "int32", KindInt64: "int64", KindDouble: "double", KindDecimal4: "decimal4",
	KindDecimal8: "decimal8", KindDecimal16: "decimal16", KindDate: "date", KindTimestamp: "timestamp",
	KindTimestampNTZ: "timestamp_ntz", KindFloat: "float", KindBinary: "binary", KindString: "string",
	KindTime: "time", KindTimestampNanos: "timestamp_nanos", KindTimestampNTZNanos: "timestamp_ntz_nanos",
	KindUUID: "uuid", KindObject: "object", KindArray: "array",
}

// String returns the kind's name as the specification spells it.
func (k Kind) String() string {
	if s, ok := kindNames[k]; ok {
		return s
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// Basic types of the value_metadata byte.
const (
	basicPrimitive   = 0
	basicShortString = 1
	basicObject      = 2
	basicArray       = 3
)

// primitiveSize is the value_data size of fixed-size primitive types, or
// -1 for variable-size (binary, string) and unknown ones.
var primitiveSize = [21]int8{0, 0, 0, 1, 2, 4, 8, 8, 5, 9, 17, 4, 8, 8, 4, -1, -1, 8, 8, 8, 16}

// Value is a validated view of one Variant value and the metadata its
// object keys refer to. Accessors do not fail: one that does not apply to
// the value's kind returns the zero value of its result.
type Value struct {
	m        Metadata
	b        []byte // exactly this value's bytes
	unsorted bool   // some object of the parsed value is out of key order
}

// Parse validates metadata and value, which must each be exactly one
// component, and returns a view of the value.
func Parse(metadata, value []byte) (Value, error) {
	m, err := ParseMetadata(metadata)
	if err != nil {
		return Value{}, err
	}
	return ParseValue(m, value)
}

// ParseValue validates value against the dictionary m.
func ParseValue(m Metadata, value []byte) (Value, error) {
	var unsorted bool
	n, err := validate(m, value, 0, 0, &unsorted)
	if err != nil {
		return Value{}, err
	}
	if n != len(value) {
		return Value{}, fmt.Errorf("%w: value: %d trailing bytes after offset %d", ErrMalformed, len(value)-n, n)
	}
	return Value{m: m, b: value, unsorted: unsorted}, nil
}

// ParseConcat validates a metadata component immediately followed by a
// value component, as the shredded-Variant test files store them.
func ParseConcat(b []byte) (Value, error) {
	n, err := MetadataLen(b)
	if err != nil {
		return Value{}, err
	}
	return Parse(b[:n], b[n:])
}

// validate checks the value at the start of b (pos is b's offset in the
// top-level value, for messages) and returns its size. An object whose
// keys are unique but not sorted sets *unsorted (DuckDB 1.5 writes such
// objects; the specification requires sorted keys).
func validate(m Metadata, b []byte, pos, depth int, unsorted *bool) (int, error) {
	if len(b) == 0 {
		return 0, fmt.Errorf("%w: value at %d: empty", ErrMalformed, pos)
	}
	h := b[0]
	switch h & 3 {
	case basicPrimitive:
		id := int(h >> 2)
		if id >= len(primitiveSize) {
			return 0, fmt.Errorf("%w: value at %d: unknown primitive type %d", ErrMalformed, pos, id)
		}
		if sz := int(primitiveSize[id]); sz >= 0 {
			if len(b) < 1+sz {
				return 0, fmt.Errorf("%w: value at %d: %s needs %d bytes, %d left", ErrMalformed, pos, Kind(id), sz, len(b)-1)
			}
			if (id == int(KindDecimal4) || id == int(KindDecimal8) || id == int(KindDecimal16)) && b[1] > 38 {
				return 0, fmt.Errorf("%w: value at %d: decimal scale %d above 38", ErrMalformed, pos, b[1])
			}
			return 1 + sz, nil
		}
		if len(b) < 5 {
			return 0, fmt.Errorf("%w: value at %d: truncated %s length", ErrMalformed, pos, Kind(id))
		}
		n := uint64(binary.LittleEndian.Uint32(b[1:]))
		if n > uint64(len(b)-5) {
			return 0, fmt.Errorf("%w: value at %d: %s of %d bytes, %d left", ErrMalformed, pos, Kind(id), n, len(b)-5)
		}
		if Kind(id) == KindString && !utf8.Valid(b[5:5+n]) {
			return 0, fmt.Errorf("%w: value at %d: string is not UTF-8", ErrMalformed, pos)
		}
		return 5 + int(n), nil
	case basicShortString:
		n := int(h >> 2)
		if len(b) < 1+n {
			return 0, fmt.Errorf("%w: value at %d: short string of %d bytes, %d left", ErrMalformed, pos, n, len(b)-1)
		}
		if !utf8.Valid(b[1 : 1+n]) {
			return 0, fmt.Errorf("%w: value at %d: string is not UTF-8", ErrMalformed, pos)
		}
		return 1 + n, nil
	}
	if depth >= MaxDepth {
		return 0, fmt.Errorf("%w: value at %d: more than %d levels", ErrTooDeep, pos, MaxDepth)
	}
	c, err := container(b)
	if err != nil {
		return 0, fmt.Errorf("%w at %d", err, pos)
	}
	data := b[c.data : c.data+c.size]
	// Values may come in any order but must not overlap: the sizes of the
	// values found so far never exceed the region, which also keeps the
	// work linear in the input (no value is validated twice).
	used := 0
	var prev []byte
	sorted := true
	for i := range c.n {
		if c.object {
			id := c.id(b, i)
			if id >= m.n {
				return 0, fmt.Errorf("%w: value at %d: field id %d outside a dictionary of %d names", ErrMalformed, pos, id, m.n)
			}
			name := m.nameBytes(id)
			if i > 0 && sorted && bytes.Compare(prev, name) >= 0 {
				if bytes.Equal(prev, name) {
					return 0, fmt.Errorf("%w: value at %d: object key %q twice", ErrMalformed, pos, name)
				}
				sorted = false
			}
			prev = name
		}
		off := c.offset(b, i)
		if off >= c.size {
			return 0, fmt.Errorf("%w: value at %d: element %d offset %d outside %d bytes", ErrMalformed, pos, i, off, c.size)
		}
		sz, err := validate(m, data[off:], pos+c.data+off, depth+1, unsorted)
		if err != nil {
			return 0, err
		}
		if used += sz; used > c.size {
			return 0, fmt.Errorf("%w: value at %d: elements overlap", ErrMalformed, pos)
		}
	}
	if !sorted {
		if err := uniqueKeys(m, b, &c, pos); err != nil {
			return 0, err
		}
		*unsorted = true
	}
	return c.data + c.size, nil
}

// uniqueKeys checks that the keys of an object whose field ids are not in
// key order are unique (sorting a copy of them).
func uniqueKeys(m Metadata, b []byte, c *header, pos int) error {
	names := make([][]byte, c.n)
	for i := range names {
		names[i] = m.nameBytes(c.id(b, i))
	}
	slices.SortFunc(names, bytes.Compare)
	for i := 1; i < len(names); i++ {
		if bytes.Equal(names[i-1], names[i]) {
			return fmt.Errorf("%w: value at %d: object key %q twice", ErrMalformed, pos, names[i])
		}
	}
	return nil
}

// header is the decoded layout of an object or array.
type header struct {
	object        bool
	n             int // num_elements
	idSize, offSz int
	ids, offs     int // positions of the field ids and offsets in the value
	data, size    int // position and length of the values region
}

// id returns field id i. Precondition: i < h.n, h.object.
func (h *header) id(b []byte, i int) int { return int(readUint(b[h.ids+i*h.idSize:], h.idSize)) }

// offset returns element offset i (i <= h.n).
func (h *header) offset(b []byte, i int) int {
	return int(readUint(b[h.offs+i*h.offSz:], h.offSz))
}

// container decodes and bounds the header of the object or array at b[0].
func container(b []byte) (header, error) {
	vh := b[0] >> 2
	var c header
	large := false
	if b[0]&3 == basicObject {
		c.object = true
		c.offSz = int(vh&3) + 1
		c.idSize = int(vh>>2&3) + 1
		large = vh&0x10 != 0
		if vh&0x20 != 0 {
			return c, fmt.Errorf("%w: object header reserved bit set", ErrMalformed)
		}
	} else {
		c.offSz = int(vh&3) + 1
		large = vh&0x04 != 0
		if vh&0x38 != 0 {
			return c, fmt.Errorf("%w: array header reserved bits set", ErrMalformed)
		}
	}
	p := 1
	if large {
		if len(b) < 5 {
			return c, fmt.Errorf("%w: truncated element count", ErrMalformed)
		}
		n := uint64(binary.LittleEndian.Uint32(b[1:]))
		if n > uint64(len(b)) { // each element needs at least one byte
			return c, fmt.Errorf("%w: %d elements in %d bytes", ErrMalformed, n, len(b))
		}
		c.n, p = int(n), 5
	} else {
		if len(b) < 2 {
			return c, fmt.Errorf("%w: truncated element count", ErrMalformed)
		}
		c.n, p = int(b[1]), 2
	}
	c.ids = p
	if c.object {
		p += c.n * c.idSize
	}
	c.offs = p
	p += (c.n + 1) * c.offSz
	if p > len(b) {
		return c, fmt.Errorf("%w: header of %d elements needs %d bytes, %d present", ErrMalformed, c.n, p, len(b))
	}
	c.data = p
	c.size = c.offset(b, c.n)
	if c.size > len(b)-p {
		return c, fmt.Errorf("%w: values region of %d bytes, %d present", ErrMalformed, c.size, len(b)-p)
	}
	return c, nil
}

// Metadata returns the dictionary the value's object keys refer to.
func (v Value) Metadata() Metadata { return v.m }

// Unsorted reports whether some object of the value, at any depth, lists
// its fields out of key order (DuckDB 1.5 writes such objects; the
// specification requires key order). Parse accepts them when their keys
// are unique: Get then scans the fields, Field returns them as stored,
// and Builder.AppendValue re-encodes them in key order. A value taken
// from such a value (Field, Index, Get) reports true too.
func (v Value) Unsorted() bool { return v.unsorted }

// Raw returns the value's encoding, exactly.
func (v Value) Raw() []byte { return v.b }

// Kind returns the value's type (KindNull for the zero Value).
func (v Value) Kind() Kind {
	if len(v.b) == 0 {
		return KindNull
	}
	switch v.b[0] & 3 {
	case basicPrimitive:
		return Kind(v.b[0] >> 2)
	case basicShortString:
		return KindString
	case basicObject:
		return KindObject
	}
	return KindArray
}

// Bool returns the value of a boolean.
func (v Value) Bool() bool { return v.Kind() == KindTrue }

// Int returns the value of an int8, int16, int32 or int64.
func (v Value) Int() int64 {
	switch v.Kind() {
	case KindInt8:
		return int64(int8(v.b[1]))
	case KindInt16:
		return int64(int16(binary.LittleEndian.Uint16(v.b[1:])))
	case KindInt32:
		return int64(int32(binary.LittleEndian.Uint32(v.b[1:])))
	case KindInt64:
		return int64(binary.LittleEndian.Uint64(v.b[1:]))
	}
	return 0
}

// Float returns the value of a double or float.
func (v Value) Float() float64 {
	switch v.Kind() {
	case KindDouble:
		return math.Float64frombits(binary.LittleEndian.Uint64(v.b[1:]))
	case KindFloat:
		return float64(math.Float32frombits(binary.LittleEndian.Uint32(v.b[1:])))
	}
	return 0
}

// Decimal is a decimal value: Hi:Lo is the unscaled two's-complement
// 128-bit integer, and the value is unscaled × 10^-Scale.
type Decimal struct {
	Hi    int64
	Lo    uint64
	Scale uint8
}

// Decimal returns the value of a decimal4, decimal8 or decimal16, sign
// extended to 128 bits.
func (v Value) Decimal() Decimal {
	switch k := v.Kind(); k {
	case KindDecimal4:
		x := int64(int32(binary.LittleEndian.Uint32(v.b[2:])))
		return Decimal{Hi: x >> 63, Lo: uint64(x), Scale: v.b[1]}
	case KindDecimal8:
		x := int64(binary.LittleEndian.Uint64(v.b[2:]))
		return Decimal{Hi: x >> 63, Lo: uint64(x), Scale: v.b[1]}
	case KindDecimal16:
		return Decimal{Lo: binary.LittleEndian.Uint64(v.b[2:]), Hi: int64(binary.LittleEndian.Uint64(v.b[10:])), Scale: v.b[1]}
	}
	return Decimal{}
}

// Date returns a date as days since 1970-01-01.
func (v Value) Date() int32 {
	if v.Kind() == KindDate {
		return int32(binary.LittleEndian.Uint32(v.b[1:]))
	}
	return 0
}

// Timestamp returns a timestamp, time or timestamp-nanos value as its
// stored integer: microseconds (KindTimestamp, KindTimestampNTZ, KindTime)
// or nanoseconds (KindTimestampNanos, KindTimestampNTZNanos).
func (v Value) Timestamp() int64 {
	switch v.Kind() {
	case KindTimestamp, KindTimestampNTZ, KindTime, KindTimestampNanos, KindTimestampNTZNanos:
		return int64(binary.LittleEndian.Uint64(v.b[1:]))
	}
	return 0
}

// Bytes returns the bytes of a string (short or long) or binary value,
// aliasing the value's encoding.
func (v Value) Bytes() []byte {
	switch v.b0() & 3 {
	case basicShortString:
		return v.b[1 : 1+int(v.b[0]>>2)]
	case basicPrimitive:
		if k := v.Kind(); k == KindString || k == KindBinary {
			n := binary.LittleEndian.Uint32(v.b[1:])
			return v.b[5 : 5+n]
		}
	}
	return nil
}

// Str returns the text of a string value.
func (v Value) Str() string {
	if v.Kind() != KindString {
		return ""
	}
	return string(v.Bytes())
}

// UUID returns the 16 big-endian bytes of a uuid.
func (v Value) UUID() (u [16]byte) {
	if v.Kind() == KindUUID {
		copy(u[:], v.b[1:17])
	}
	return u
}

func (v Value) b0() byte {
	if len(v.b) == 0 {
		return 0
	}
	return v.b[0]
}

// Len returns the number of fields of an object or elements of an array.
func (v Value) Len() int {
	if k := v.Kind(); k != KindObject && k != KindArray {
		return 0
	}
	c, _ := container(v.b) // validated by Parse
	return c.n
}

// Field returns field i of an object, in the order stored: key order,
// except in the values whose Unsorted reports true. Precondition:
// 0 <= i < Len().
func (v Value) Field(i int) (string, Value) {
	c, _ := container(v.b)
	return v.m.Name(c.id(v.b, i)), v.element(&c, i)
}

// FieldID returns the dictionary id of field i of an object.
// Precondition: 0 <= i < Len().
func (v Value) FieldID(i int) int {
	c, _ := container(v.b)
	return c.id(v.b, i)
}

// Get returns the field of an object named name (binary search on the
// sorted keys; a linear scan when Unsorted reports true).
func (v Value) Get(name string) (Value, bool) {
	if v.Kind() != KindObject {
		return Value{}, false
	}
	c, _ := container(v.b)
	if v.unsorted {
		for i := range c.n {
			if string(v.m.nameBytes(c.id(v.b, i))) == name {
				return v.element(&c, i), true
			}
		}
		return Value{}, false
	}
	lo, hi := 0, c.n
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if string(v.m.nameBytes(c.id(v.b, mid))) < name {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	if lo < c.n && string(v.m.nameBytes(c.id(v.b, lo))) == name {
		return v.element(&c, lo), true
	}
	return Value{}, false
}

// Index returns element i of an array. Precondition: 0 <= i < Len().
func (v Value) Index(i int) Value {
	c, _ := container(v.b)
	return v.element(&c, i)
}

// element returns the view of element i, cut to its size.
func (v Value) element(c *header, i int) Value {
	data := v.b[c.data : c.data+c.size]
	off := c.offset(v.b, i)
	n, _ := validateSize(data[off:])
	return Value{m: v.m, b: data[off : off+n], unsorted: v.unsorted}
}

// validateSize returns the size of an already validated value.
func validateSize(b []byte) (int, error) {
	switch b[0] & 3 {
	case basicPrimitive:
		id := int(b[0] >> 2)
		if sz := int(primitiveSize[id]); sz >= 0 {
			return 1 + sz, nil
		}
		return 5 + int(binary.LittleEndian.Uint32(b[1:])), nil
	case basicShortString:
		return 1 + int(b[0]>>2), nil
	}
	c, err := container(b)
	return c.data + c.size, err
}

// keyOrder returns, for an object read with Unsorted true, the positions
// of its fields in key order; nil otherwise (the stored order is key
// order). See fieldAt.
func (v Value) keyOrder() []int {
	if !v.unsorted || v.Kind() != KindObject {
		return nil
	}
	c, _ := container(v.b)
	order := make([]int, c.n)
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(x, y int) int {
		return bytes.Compare(v.m.nameBytes(c.id(v.b, x)), v.m.nameBytes(c.id(v.b, y)))
	})
	return order
}

// fieldAt returns the position of the i-th field in key order.
func fieldAt(order []int, i int) int {
	if order == nil {
		return i
	}
	return order[i]
}
