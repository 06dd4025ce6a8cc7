// Building Variant values.
//
// Values are appended depth first into one buffer. An object or array is
// opened with StartObject/StartArray, its values appended (object fields
// each preceded by Key), and closed with End; End then knows the element
// count and the largest offset and id, picks the smallest sizes the
// encoding allows, and inserts the header in front of the values, which
// stay where they are. Objects' field ids and offsets are sorted by key as
// the specification requires; values stay in append order.

package variant

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"unicode/utf8"
)

// Builder errors.
var (
	// ErrBuild reports a misuse of a Builder: a value where none may go, a
	// missing or duplicate key, an unbalanced End, a key absent from a
	// fixed dictionary.
	ErrBuild = errors.New("variant: invalid build")
)

// Builder appends one Variant value and collects the dictionary of its
// object keys. The zero Builder is ready to use; Reset makes it reusable.
// A Builder made by NewBuilderFor encodes keys against an existing
// dictionary instead (needed when the value must share the metadata of
// other values, as in shredding).
type Builder struct {
	fixed     *Metadata // non-nil: keys must be in this dictionary
	fixedMeta Metadata
	ids       map[string]uint32 // dictionary being built
	names     []string
	buf       []byte
	frames    []frame
	elems     []elem
	key       uint32 // pending key id, when hasKey
	hasKey    bool
	hasValue  bool // the top-level value has been written
	err       error
}

type frame struct {
	start  int  // position of the first value of the container in buf
	object bool // object (keys) or array
	first  int  // index of the container's first entry in elems
}

type elem struct {
	id  uint32 // field id (objects)
	off int    // offset of the value from frame.start
}

// NewBuilderFor returns a Builder whose object keys are looked up in m, as
// needed to build values that share an existing metadata component.
func NewBuilderFor(m Metadata) *Builder {
	return &Builder{fixed: &m}
}

// Reset empties the Builder, keeping its buffers and its fixed dictionary.
func (b *Builder) Reset() {
	b.buf, b.frames, b.elems = b.buf[:0], b.frames[:0], b.elems[:0]
	clear(b.ids)
	b.names = b.names[:0]
	b.key, b.hasKey, b.hasValue, b.err = 0, false, false, nil
}

func (b *Builder) fail(format string, args ...any) {
	if b.err == nil {
		b.err = fmt.Errorf("%w: "+format, append([]any{ErrBuild}, args...)...)
	}
}

// Key sets the key of the next value appended into the current object.
func (b *Builder) Key(name string) {
	if len(b.frames) == 0 || !b.frames[len(b.frames)-1].object {
		b.fail("key %q outside an object", name)
		return
	}
	if b.hasKey {
		b.fail("key %q follows key %q without a value", name, b.keyName(b.key))
		return
	}
	if !utf8.ValidString(name) {
		b.fail("key %q is not UTF-8", name)
		return
	}
	if b.fixed != nil {
		id, ok := b.fixed.Lookup(name)
		if !ok {
			b.fail("key %q not in the metadata", name)
			return
		}
		b.key, b.hasKey = uint32(id), true
		return
	}
	if b.ids == nil {
		b.ids = make(map[string]uint32)
	}
	id, ok := b.ids[name]
	if !ok {
		id = uint32(len(b.names))
		b.ids[name] = id
		b.names = append(b.names, name)
	}
	b.key, b.hasKey = id, true
}

// compareKeys orders the keys of ids x and y by name, as object fields
// are stored, without converting the names to strings.
func (b *Builder) compareKeys(x, y uint32) int {
	if x == y {
		return 0
	}
	if b.fixed != nil {
		return bytes.Compare(b.fixed.nameBytes(int(x)), b.fixed.nameBytes(int(y)))
	}
	return strings.Compare(b.names[x], b.names[y])
}

func (b *Builder) keyName(id uint32) string {
	if b.fixed != nil {
		return b.fixed.Name(int(id))
	}
	return b.names[id]
}

// begin records where the next value goes; it reports false after an
// error.
func (b *Builder) begin() bool {
	if b.err != nil {
		return false
	}
	if len(b.frames) == 0 {
		if b.hasValue {
			b.fail("a second top-level value")
			return false
		}
		b.hasValue = true
		return b.err == nil
	}
	f := &b.frames[len(b.frames)-1]
	e := elem{off: len(b.buf) - f.start}
	if f.object {
		if !b.hasKey {
			b.fail("object value without a key")
			return false
		}
		e.id, b.hasKey = b.key, false
	}
	b.elems = append(b.elems, e)
	return b.err == nil
}

// AppendNull appends a Variant null.
func (b *Builder) AppendNull() {
	if b.begin() {
		b.buf = append(b.buf, primitive(KindNull))
	}
}

// AppendBool appends a boolean.
func (b *Builder) AppendBool(v bool) {
	if b.begin() {
		k := KindFalse
		if v {
			k = KindTrue
		}
		b.buf = append(b.buf, primitive(k))
	}
}

// AppendInt appends an integer with the smallest of int8, int16, int32
// and int64 that holds it.
func (b *Builder) AppendInt(v int64) {
	switch {
	case v == int64(int8(v)):
		b.AppendInt8(int8(v))
	case v == int64(int16(v)):
		b.AppendInt16(int16(v))
	case v == int64(int32(v)):
		b.AppendInt32(int32(v))
	default:
		b.AppendInt64(v)
	}
}

// AppendInt8 appends an int8.
func (b *Builder) AppendInt8(v int8) {
	if b.begin() {
		b.buf = append(b.buf, primitive(KindInt8), byte(v))
	}
}

// AppendInt16 appends an int16.
func (b *Builder) AppendInt16(v int16) {
	if b.begin() {
		b.buf = binary.LittleEndian.AppendUint16(append(b.buf, primitive(KindInt16)), uint16(v))
	}
}

// AppendInt32 appends an int32.
func (b *Builder) AppendInt32(v int32) {
	if b.begin() {
		b.buf = binary.LittleEndian.AppendUint32(append(b.buf, primitive(KindInt32)), uint32(v))
	}
}

// AppendInt64 appends an int64.
func (b *Builder) AppendInt64(v int64) {
	if b.begin() {
		b.buf = binary.LittleEndian.AppendUint64(append(b.buf, primitive(KindInt64)), uint64(v))
	}
}

// AppendDouble appends a double.
func (b *Builder) AppendDouble(v float64) {
	if b.begin() {
		b.buf = binary.LittleEndian.AppendUint64(append(b.buf, primitive(KindDouble)), math.Float64bits(v))
	}
}

// AppendFloat appends a float.
func (b *Builder) AppendFloat(v float32) {
	if b.begin() {
		b.buf = binary.LittleEndian.AppendUint32(append(b.buf, primitive(KindFloat)), math.Float32bits(v))
	}
}

// AppendDecimal appends a decimal as the smallest of decimal4, decimal8
// and decimal16 whose precision (9, 18, 38 digits) holds d; a scale above
// 38 is an error.
func (b *Builder) AppendDecimal(d Decimal) {
	if d.Scale > 38 {
		b.fail("decimal scale %d above 38", d.Scale)
		return
	}
	if !b.begin() {
		return
	}
	small := d.Hi == int64(d.Lo)>>63
	x := int64(d.Lo)
	switch {
	case small && x >= -999_999_999 && x <= 999_999_999:
		b.buf = binary.LittleEndian.AppendUint32(append(b.buf, primitive(KindDecimal4), d.Scale), uint32(int32(x)))
	case small && x >= -999_999_999_999_999_999 && x <= 999_999_999_999_999_999:
		b.buf = binary.LittleEndian.AppendUint64(append(b.buf, primitive(KindDecimal8), d.Scale), uint64(x))
	default:
		b.buf = append(b.buf, primitive(KindDecimal16), d.Scale)
		b.buf = binary.LittleEndian.AppendUint64(b.buf, d.Lo)
		b.buf = binary.LittleEndian.AppendUint64(b.buf, uint64(d.Hi))
	}
}

// AppendDecimalKind appends a decimal with an explicit kind (KindDecimal4,
// 8 or 16), keeping the width of a shredded column.
func (b *Builder) AppendDecimalKind(k Kind, d Decimal) {
	if d.Scale > 38 {
		b.fail("decimal scale %d above 38", d.Scale)
		return
	}
	if !b.begin() {
		return
	}
	switch k {
	case KindDecimal4:
		b.buf = binary.LittleEndian.AppendUint32(append(b.buf, primitive(k), d.Scale), uint32(d.Lo))
	case KindDecimal8:
		b.buf = binary.LittleEndian.AppendUint64(append(b.buf, primitive(k), d.Scale), d.Lo)
	default:
		b.buf = append(b.buf, primitive(KindDecimal16), d.Scale)
		b.buf = binary.LittleEndian.AppendUint64(b.buf, d.Lo)
		b.buf = binary.LittleEndian.AppendUint64(b.buf, uint64(d.Hi))
	}
}

// AppendDate appends a date (days since 1970-01-01).
func (b *Builder) AppendDate(days int32) {
	if b.begin() {
		b.buf = binary.LittleEndian.AppendUint32(append(b.buf, primitive(KindDate)), uint32(days))
	}
}

// AppendTimestamp appends a value of one of the 8-byte temporal kinds
// (KindTimestamp, KindTimestampNTZ, KindTime, KindTimestampNanos,
// KindTimestampNTZNanos) holding v in that kind's unit.
func (b *Builder) AppendTimestamp(k Kind, v int64) {
	switch k {
	case KindTimestamp, KindTimestampNTZ, KindTime, KindTimestampNanos, KindTimestampNTZNanos:
	default:
		b.fail("%s is not a timestamp or time kind", k)
		return
	}
	if b.begin() {
		b.buf = binary.LittleEndian.AppendUint64(append(b.buf, primitive(k)), uint64(v))
	}
}

// AppendString appends a string: a short string when under 64 bytes.
// Invalid UTF-8 is an error.
func (b *Builder) AppendString(s string) {
	if !utf8.ValidString(s) {
		b.fail("string is not UTF-8")
		return
	}
	if !b.begin() {
		return
	}
	if len(s) < 64 {
		b.buf = append(append(b.buf, byte(len(s))<<2|basicShortString), s...)
		return
	}
	b.appendLong(KindString, len(s))
	b.buf = append(b.buf, s...)
}

// AppendBinary appends a binary value.
func (b *Builder) AppendBinary(p []byte) {
	if b.begin() {
		b.appendLong(KindBinary, len(p))
		b.buf = append(b.buf, p...)
	}
}

func (b *Builder) appendLong(k Kind, n int) {
	if uint64(n) > math.MaxUint32 {
		b.fail("%s of %d bytes exceeds 4 GiB", k, n)
		return
	}
	b.buf = binary.LittleEndian.AppendUint32(append(b.buf, primitive(k)), uint32(n))
}

// AppendUUID appends a uuid (16 big-endian bytes).
func (b *Builder) AppendUUID(u [16]byte) {
	if b.begin() {
		b.buf = append(append(b.buf, primitive(KindUUID)), u[:]...)
	}
}

// AppendValue appends a copy of v. When the Builder encodes against v's
// own dictionary (NewBuilderFor with the same metadata) and v has no
// object out of key order (Value.Unsorted), the bytes are copied as they
// are; otherwise objects are re-encoded with this Builder's keys, in key
// order.
func (b *Builder) AppendValue(v Value) {
	if b.fixed != nil && !v.unsorted && sameMetadata(b.fixed, &v.m) {
		if b.begin() {
			b.buf = append(b.buf, v.b...)
		}
		return
	}
	switch v.Kind() {
	case KindObject:
		b.StartObject()
		for i := range v.Len() {
			k, f := v.Field(i)
			b.Key(k)
			b.AppendValue(f)
		}
		b.End()
	case KindArray:
		b.StartArray()
		for i := range v.Len() {
			b.AppendValue(v.Index(i))
		}
		b.End()
	default:
		if b.begin() {
			b.buf = append(b.buf, v.b...)
		}
	}
}

func sameMetadata(a, c *Metadata) bool {
	return len(a.raw) == len(c.raw) && (len(a.raw) == 0 || &a.raw[0] == &c.raw[0] || string(a.raw) == string(c.raw))
}

// StartObject opens an object; its fields follow, each after Key.
func (b *Builder) StartObject() { b.start(true) }

// StartArray opens an array; its elements follow.
func (b *Builder) StartArray() { b.start(false) }

func (b *Builder) start(object bool) {
	if !b.begin() {
		return
	}
	b.frames = append(b.frames, frame{start: len(b.buf), object: object, first: len(b.elems)})
}

// End closes the innermost open object or array.
func (b *Builder) End() {
	if b.err != nil {
		return
	}
	if len(b.frames) == 0 {
		b.fail("End without an open object or array")
		return
	}
	if b.hasKey {
		b.fail("key %q without a value", b.keyName(b.key))
		return
	}
	f := b.frames[len(b.frames)-1]
	b.frames = b.frames[:len(b.frames)-1]
	es := b.elems[f.first:]
	size := len(b.buf) - f.start
	n := len(es)
	offSz := sizeFor(uint64(size))
	var hdr [5]byte
	hlen := 2
	large := n > 255
	if large {
		hlen = 5
	}
	var idSz int
	if f.object {
		slices.SortFunc(es, func(x, y elem) int { return b.compareKeys(x.id, y.id) })
		var maxID uint32
		for i, e := range es {
			if i > 0 && b.compareKeys(es[i-1].id, e.id) == 0 {
				b.fail("duplicate key %q", b.keyName(e.id))
				return
			}
			maxID = max(maxID, e.id)
		}
		idSz = sizeFor(uint64(maxID))
		vh := byte(offSz-1) | byte(idSz-1)<<2
		if large {
			vh |= 0x10
		}
		hdr[0] = vh<<2 | basicObject
	} else {
		vh := byte(offSz - 1)
		if large {
			vh |= 0x04
		}
		hdr[0] = vh<<2 | basicArray
	}
	if large {
		binary.LittleEndian.PutUint32(hdr[1:], uint32(n))
	} else {
		hdr[1] = byte(n)
	}
	total := hlen + n*idSz + (n+1)*offSz
	// Make room in front of the values and write the header there.
	b.buf = slices.Grow(b.buf, total)[:len(b.buf)+total]
	copy(b.buf[f.start+total:], b.buf[f.start:f.start+size])
	h := append(b.buf[f.start:f.start], hdr[:hlen]...)
	if f.object {
		for _, e := range es {
			h = appendUint(h, uint64(e.id), idSz)
		}
	}
	for _, e := range es {
		h = appendUint(h, uint64(e.off), offSz)
	}
	appendUint(h, uint64(size), offSz)
	b.elems = b.elems[:f.first]
}

// Finish returns the metadata and value components. The metadata is the
// Builder's fixed dictionary, or the keys in first-use order (flagged
// sorted when that order happens to be sorted). The returned slices are
// fresh copies.
func (b *Builder) Finish() (metadata, value []byte, err error) {
	if b.err != nil {
		return nil, nil, b.err
	}
	if len(b.frames) != 0 {
		return nil, nil, fmt.Errorf("%w: %d unclosed objects or arrays", ErrBuild, len(b.frames))
	}
	if !b.hasValue {
		return nil, nil, fmt.Errorf("%w: no value", ErrBuild)
	}
	value = slices.Clone(b.buf)
	if b.fixed != nil {
		return slices.Clone(b.fixed.raw), value, nil
	}
	return EncodeMetadata(b.names), value, nil
}

// EncodeMetadata returns the metadata component holding names in the given
// order, flagged sorted when they are unique and strictly increasing.
func EncodeMetadata(names []string) []byte {
	total := 0
	sorted := true
	for i, s := range names {
		total += len(s)
		if i > 0 && names[i-1] >= s {
			sorted = false
		}
	}
	offSz := sizeFor(uint64(max(total, len(names))))
	h := byte(metadataVersion) | byte(offSz-1)<<6
	if sorted {
		h |= 0x10
	}
	out := make([]byte, 0, 1+(len(names)+2)*offSz+total)
	out = appendUint(append(out, h), uint64(len(names)), offSz)
	off := 0
	out = appendUint(out, 0, offSz)
	for _, s := range names {
		off += len(s)
		out = appendUint(out, uint64(off), offSz)
	}
	for _, s := range names {
		out = append(out, s...)
	}
	return out
}

func primitive(k Kind) byte { return byte(k)<<2 | basicPrimitive }

// ResetFor empties the Builder and makes it encode keys against m.
func (b *Builder) ResetFor(m Metadata) {
	b.Reset()
	b.fixedMeta = m
	b.fixed = &b.fixedMeta
}

// Err returns the first error of the Builder.
func (b *Builder) Err() error { return b.err }

// AppendTo appends the finished value component (without metadata) to dst.
func (b *Builder) AppendTo(dst []byte) ([]byte, error) {
	if b.err != nil {
		return dst, b.err
	}
	if len(b.frames) != 0 || !b.hasValue {
		return dst, fmt.Errorf("%w: value not finished", ErrBuild)
	}
	return append(dst, b.buf...), nil
}

// Encoded is a Variant as stored: its metadata and value components. The
// zero Encoded stands for a null (absent) Variant.
type Encoded struct {
	Metadata []byte
	Value    []byte
}

// IsNull reports whether e is the zero Encoded.
func (e Encoded) IsNull() bool { return e.Metadata == nil && e.Value == nil }

// Parse validates e and returns a view of its value.
func (e Encoded) Parse() (Value, error) { return Parse(e.Metadata, e.Value) }
