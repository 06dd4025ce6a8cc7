// Wire-level primitives of the Thrift compact protocol used by the generated
// metadata codec (codec_gen.go): varints, zigzag, field and list headers,
// bounded reads, skipping of unknown values, limits and decode errors.
//
// Compact protocol: https://github.com/apache/thrift/blob/master/doc/specs/thrift-compact-protocol.md
// Parquet metadata: https://parquet.apache.org/docs/file-format/metadata/

package meta

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Compact protocol wire types (the low nibble of a field or list header).
const (
	tStop   = 0x00
	tTrue   = 0x01 // bool field true; bool element type
	tFalse  = 0x02 // bool field false
	tI8     = 0x03
	tI16    = 0x04
	tI32    = 0x05
	tI64    = 0x06
	tDouble = 0x07
	tBinary = 0x08
	tList   = 0x09
	tSet    = 0x0A
	tMap    = 0x0B
	tStruct = 0x0C
	tUUID   = 0x0D
)

// Limits bound what a decoder accepts from untrusted input. Every limit is
// checked before the corresponding allocation. A zero field means the
// default of DefaultLimits.
type Limits struct {
	// MaxStringLen bounds the length of a string or binary value (bytes).
	MaxStringLen int
	// MaxContainerLen bounds the element count of a list, set or map.
	MaxContainerLen int
	// MaxDepth bounds the nesting of structs and containers, also while
	// skipping unknown fields. Values above maxDepthCap (10,000) are
	// lowered to it, to keep the recursion within the goroutine stack.
	MaxDepth int
}

const maxDepthCap = 10_000

// DefaultLimits are the limits used when a decoder is given nil Limits.
var DefaultLimits = Limits{
	MaxStringLen:    100 << 20,
	MaxContainerLen: 1_000_000,
	MaxDepth:        64,
}

func (l *Limits) resolve() Limits {
	r := DefaultLimits
	if l != nil {
		if l.MaxStringLen > 0 {
			r.MaxStringLen = l.MaxStringLen
		}
		if l.MaxContainerLen > 0 {
			r.MaxContainerLen = l.MaxContainerLen
		}
		if l.MaxDepth > 0 {
			r.MaxDepth = min(l.MaxDepth, maxDepthCap)
		}
	}
	return r
}

// Sentinel errors; a decode error wraps exactly one of them (test with
// errors.Is).
var (
	// ErrTruncated: the input ends inside a value.
	ErrTruncated = errors.New("meta: truncated thrift input")
	// ErrLimit: a length or count exceeds a Limits bound or what the
	// remaining input can hold.
	ErrLimit = errors.New("meta: thrift limit exceeded")
	// ErrDepth: nesting exceeds Limits.MaxDepth.
	ErrDepth = errors.New("meta: thrift nesting too deep")
	// ErrMissingField: a required field is absent.
	ErrMissingField = errors.New("meta: missing required thrift field")
	// ErrInvalid: malformed encoding (bad varint, overflowing integer,
	// negative length, unknown wire type).
	ErrInvalid = errors.New("meta: invalid thrift encoding")
)

// DecodeError is the error returned by the decoders. Path names the struct
// and the field path ("FileMetaData.row_groups[3].columns[7].meta_data"),
// Offset is the byte offset in the input where the problem was found, and
// Err is one of the sentinel errors.
type DecodeError struct {
	Path   string
	Offset int
	Msg    string
	Err    error

	segs []string // path segments, innermost first, while unwinding
}

func (e *DecodeError) Error() string {
	return e.Path + ": " + e.Msg + " at offset " + strconv.Itoa(e.Offset) + ": " + e.Err.Error()
}

// Unwrap returns the sentinel error.
func (e *DecodeError) Unwrap() error { return e.Err }

// wrapField prepends ".name" to the path of err (a *DecodeError).
func wrapField(err error, name string) error {
	if e, ok := err.(*DecodeError); ok {
		e.segs = append(e.segs, "."+name)
	}
	return err
}

// wrapIndex prepends "[i]" to the path of err.
func wrapIndex(err error, i int) error {
	if e, ok := err.(*DecodeError); ok {
		e.segs = append(e.segs, "["+strconv.Itoa(i)+"]")
	}
	return err
}

// finish sets the final path of err, rooted at the struct name root.
func finish(err error, root string) error {
	e, ok := err.(*DecodeError)
	if !ok {
		return err
	}
	var sb strings.Builder
	sb.WriteString(root)
	for i := len(e.segs) - 1; i >= 0; i-- {
		sb.WriteString(e.segs[i])
	}
	e.Path = sb.String()
	e.segs = nil
	return e
}

// decoder reads compact-protocol values from buf. In share mode (used for
// whole footers and indexes) strings are substrings of a few large strings
// built with strings.Builder (which hands out its bytes without copying and
// never modifies them), binary values are carved from byte chunks (bin), and
// repeated small objects are carved from slabs; so a footer costs a few
// dozen allocations and copies only its string and binary bytes. Otherwise (page headers,
// standalone statistics) each value is allocated or reuses the storage of
// the value being overwritten.
type decoder struct {
	buf   []byte
	pos   int
	depth int
	lim   Limits
	share bool
	sb    *strings.Builder
	bin   []byte
	slabs *slabs // noSlabs (never written) outside share mode
	// widened lists the fields read from another integer wire type than
	// their own (readIntAs), each once.
	widened []WidthNote
}

// WidthNote records an integer field that was written with another
// Thrift integer type than the one the format gives it, and read because
// its value fits (hyparquet-writer 0.17 writes the i8
// IntType.bitWidth as an i32). Field is "Struct.field", Want the type of
// the format and Got the wire type found (i8, i16, i32 or i64).
type WidthNote struct {
	Field     string
	Want, Got string
}

// maxWidthNotes bounds the distinct fields noted by one decoder.
const maxWidthNotes = 32

// isIntWire reports whether wt is one of the compact protocol's integer
// wire types.
func isIntWire(wt byte) bool { return wt == tI8 || wt == tI16 || wt == tI32 || wt == tI64 }

// wireIntName names an integer wire type.
func wireIntName(wt byte) string {
	switch wt {
	case tI8:
		return "i8"
	case tI16:
		return "i16"
	case tI32:
		return "i32"
	}
	return "i64"
}

// readIntAs reads an integer written with wire type wt for the field
// named field of bits bits (8, 16, 32 or 64), which the format gives
// another integer type: the value must fit the field's type (else
// ErrInvalid), and the field is noted once in d.widened.
func (d *decoder) readIntAs(wt byte, bits int, field string) (int64, error) {
	// The wire type's own reader: a value out of its range is malformed.
	var v int64
	switch wt {
	case tI8:
		b, err := d.readI8()
		if err != nil {
			return 0, err
		}
		v = int64(b)
	case tI16:
		x, err := d.readI16()
		if err != nil {
			return 0, err
		}
		v = int64(x)
	case tI32:
		x, err := d.readI32()
		if err != nil {
			return 0, err
		}
		v = int64(x)
	default:
		u, err := d.uvarint()
		if err != nil {
			return 0, err
		}
		v = unzigzag(u)
	}
	if bits < 64 && (v < -1<<(bits-1) || v > 1<<(bits-1)-1) {
		return 0, d.fail(ErrInvalid, "an %s value %d for a %d-bit integer field", wireIntName(wt), v, bits)
	}
	for _, n := range d.widened {
		if n.Field == field {
			return v, nil
		}
	}
	if len(d.widened) < maxWidthNotes {
		d.widened = append(d.widened, WidthNote{Field: field, Want: "i" + strconv.Itoa(bits), Got: wireIntName(wt)})
	}
	return v, nil
}

// DecodeThriftNotes is DecodeThrift that also returns the integer fields
// written with another Thrift integer type than their own (see
// WidthNote); nil when there is none.
func (x *PageHeader) DecodeThriftNotes(src []byte, lim *Limits) (int, []WidthNote, error) {
	d := newDecoder(src, lim, false)
	if err := d.readPageHeader(x, false); err != nil {
		return d.pos, d.widened, finish(err, "PageHeader")
	}
	return d.pos, d.widened, nil
}

// DecodeFileMetaDataNotes is DecodeFileMetaData that also returns the
// integer fields that were written with another Thrift integer type than
// their own and read because their values fit (see WidthNote), once per
// field. DecodeFileMetaData reads such fields the same way without
// telling.
func DecodeFileMetaDataNotes(src []byte, lim *Limits) (*FileMetaData, int, []WidthNote, error) {
	x := new(FileMetaData)
	d := newDecoder(src, lim, true)
	if err := d.readFileMetaData(x, false); err != nil {
		return nil, d.pos, d.widened, finish(err, "FileMetaData")
	}
	return x, d.pos, d.widened, nil
}

// noSlabs stands for the slabs of a decoder outside share mode, where
// newOne and makeN allocate directly and never touch it.
var noSlabs slabs

func newDecoder(src []byte, lim *Limits, share bool) decoder {
	d := decoder{buf: src, lim: lim.resolve(), share: share, slabs: &noSlabs}
	if share {
		d.slabs = new(slabs)
	}
	return d
}

func (d *decoder) fail(sentinel error, format string, args ...any) error {
	return &DecodeError{Offset: d.pos, Msg: fmt.Sprintf(format, args...), Err: sentinel}
}

func (d *decoder) truncated(what string) error {
	return d.fail(ErrTruncated, "input ends inside %s", what)
}

func (d *decoder) remaining() int { return len(d.buf) - d.pos }

// enter counts one level of nesting.
func (d *decoder) enter() error {
	d.depth++
	if d.depth > d.lim.MaxDepth {
		return d.fail(ErrDepth, "nesting depth exceeds %d", d.lim.MaxDepth)
	}
	return nil
}

func (d *decoder) leave() { d.depth-- }

// uvarint reads an unsigned LEB128 varint of at most 10 bytes.
func (d *decoder) uvarint() (uint64, error) {
	i := d.pos
	if i+10 <= len(d.buf) {
		// Unrolled: ten bytes are available, no per-byte bounds checks.
		b := d.buf[i : i+10 : i+10]
		x := uint64(b[0])
		if x < 0x80 {
			d.pos = i + 1
			return x, nil
		}
		x &= 0x7f
		for k := 1; k < 10; k++ {
			c := uint64(b[k])
			x |= (c & 0x7f) << (7 * k)
			if c < 0x80 {
				if k == 9 && c > 1 {
					return 0, d.fail(ErrInvalid, "varint overflows 64 bits")
				}
				d.pos = i + k + 1
				return x, nil
			}
		}
		return 0, d.fail(ErrInvalid, "varint longer than 10 bytes")
	}
	return d.uvarintSlow()
}

// uvarintSlow reads a varint near the end of the input.
func (d *decoder) uvarintSlow() (uint64, error) {
	buf := d.buf
	i := d.pos
	var x uint64
	var s uint
	for n := 0; n < 10; n++ {
		if i >= len(buf) {
			return 0, d.truncated("a varint")
		}
		b := buf[i]
		i++
		if b < 0x80 {
			if n == 9 && b > 1 {
				return 0, d.fail(ErrInvalid, "varint overflows 64 bits")
			}
			d.pos = i
			return x | uint64(b)<<s, nil
		}
		x |= uint64(b&0x7f) << s
		s += 7
	}
	return 0, d.fail(ErrInvalid, "varint longer than 10 bytes")
}

func unzigzag(u uint64) int64 { return int64(u>>1) ^ -int64(u&1) }

func (d *decoder) readI32() (int32, error) {
	u, err := d.uvarint()
	if err != nil {
		return 0, err
	}
	if u > math.MaxUint32 {
		return 0, d.fail(ErrInvalid, "i32 value out of range")
	}
	return int32(unzigzag(u)), nil
}

func (d *decoder) readI16() (int16, error) {
	u, err := d.uvarint()
	if err != nil {
		return 0, err
	}
	if u > math.MaxUint16 {
		return 0, d.fail(ErrInvalid, "i16 value out of range")
	}
	return int16(unzigzag(u)), nil
}

func (d *decoder) readI8() (int8, error) {
	if d.pos >= len(d.buf) {
		return 0, d.truncated("an i8")
	}
	v := int8(d.buf[d.pos])
	d.pos++
	return v, nil
}

func (d *decoder) readDouble() (float64, error) {
	if d.remaining() < 8 {
		return 0, d.truncated("a double")
	}
	v := math.Float64frombits(binary.LittleEndian.Uint64(d.buf[d.pos:]))
	d.pos += 8
	return v, nil
}

// readBoolElem reads a bool list element (1 = true, anything else false).
func (d *decoder) readBoolElem() (bool, error) {
	if d.pos >= len(d.buf) {
		return false, d.truncated("a bool")
	}
	v := d.buf[d.pos] == tTrue
	d.pos++
	return v, nil
}

// length reads a string/binary length and checks it against the limits and
// the remaining input.
func (d *decoder) length() (int, error) {
	// Fast path: a one-byte length within the limits and the input.
	if p := d.pos; p < len(d.buf) {
		if n := int(d.buf[p]); n < 0x80 && n < len(d.buf)-p && n <= d.lim.MaxStringLen {
			d.pos = p + 1
			return n, nil
		}
	}
	start := d.pos
	u, err := d.uvarint()
	if err != nil {
		return 0, err
	}
	if u > math.MaxInt32 {
		d.pos = start
		return 0, d.fail(ErrInvalid, "negative string length %d", int32(u))
	}
	n := int(u)
	if n > d.lim.MaxStringLen {
		d.pos = start
		return 0, d.fail(ErrLimit, "string length %d exceeds limit %d", n, d.lim.MaxStringLen)
	}
	if n > d.remaining() {
		d.pos = start
		return 0, d.fail(ErrTruncated, "string length %d exceeds remaining %d bytes", n, d.remaining())
	}
	return n, nil
}

func (d *decoder) readString() (string, error) {
	n, err := d.length()
	if err != nil {
		return "", err
	}
	var s string
	if d.share {
		if n > 0 {
			if d.sb == nil || d.sb.Cap()-d.sb.Len() < n {
				d.sb = new(strings.Builder)
				d.sb.Grow(max(n, min(64<<10, d.remaining())))
			}
			start := d.sb.Len()
			d.sb.Write(d.buf[d.pos : d.pos+n])
			s = d.sb.String()[start:]
		}
	} else {
		s = string(d.buf[d.pos : d.pos+n])
	}
	d.pos += n
	return s, nil
}

// readBinary reads a binary value. Outside share mode it reuses the
// storage of old. A present empty value is a non-nil empty slice.
func (d *decoder) readBinary(old []byte) ([]byte, error) {
	n, err := d.length()
	if err != nil {
		return nil, err
	}
	var b []byte
	if d.share {
		if n == 0 {
			return []byte{}, nil
		}
		if n > len(d.bin) {
			// A new chunk: up to 16 KB, at most what the rest of the
			// input could still need.
			d.bin = make([]byte, max(n, min(16<<10, d.remaining())))
		}
		b = d.bin[:n:n]
		copy(b, d.buf[d.pos:])
		d.bin = d.bin[n:]
	} else {
		b = append(old[:0], d.buf[d.pos:d.pos+n]...)
		if b == nil {
			b = []byte{}
		}
	}
	d.pos += n
	return b, nil
}

// fieldHeader reads a field header. It returns wire type tStop at the end
// of the struct; last is the previous field id of this struct. The short
// form is inlined.
func (d *decoder) fieldHeader(last int16) (id int16, wt byte, err error) {
	if d.pos < len(d.buf) {
		if b := d.buf[d.pos]; b>>4 != 0 {
			d.pos++
			return last + int16(b>>4), b & 0x0f, nil
		}
	}
	return d.fieldHeaderSlow()
}

func (d *decoder) fieldHeaderSlow() (id int16, wt byte, err error) {
	if d.pos >= len(d.buf) {
		return 0, 0, d.truncated("a struct")
	}
	b := d.buf[d.pos]
	d.pos++
	wt = b & 0x0f
	if wt == tStop {
		return 0, tStop, nil
	}
	id, err = d.readI16()
	return id, wt, err
}

// minSize is the smallest encoding of a value of wire type t in a
// container, or 0 for an invalid type.
func minSize(t byte) int {
	switch t {
	case tTrue, tFalse, tI8, tI16, tI32, tI64, tBinary, tList, tSet, tMap, tStruct:
		return 1
	case tDouble:
		return 8
	case tUUID:
		return 16
	}
	return 0
}

// containerLen checks an element count against the limits and the
// remaining input (each element needs at least minSize(elem) bytes).
func (d *decoder) containerLen(u uint64, elem byte, start int) (int, error) {
	if u > math.MaxInt32 {
		d.pos = start
		return 0, d.fail(ErrInvalid, "negative container size %d", int32(u))
	}
	n := int(u)
	if n > d.lim.MaxContainerLen {
		d.pos = start
		return 0, d.fail(ErrLimit, "container size %d exceeds limit %d", n, d.lim.MaxContainerLen)
	}
	ms := minSize(elem)
	if ms == 0 {
		if n == 0 {
			return 0, nil
		}
		d.pos = start
		return 0, d.fail(ErrInvalid, "invalid element type %d", elem)
	}
	if n > d.remaining()/ms {
		d.pos = start
		return 0, d.fail(ErrTruncated, "container size %d exceeds remaining %d bytes", n, d.remaining())
	}
	return n, nil
}

// listHeader reads a list or set header.
func (d *decoder) listHeader() (elem byte, n int, err error) {
	start := d.pos
	if d.pos >= len(d.buf) {
		return 0, 0, d.truncated("a list header")
	}
	b := d.buf[d.pos]
	d.pos++
	elem = b & 0x0f
	u := uint64(b >> 4)
	if u == 15 {
		if u, err = d.uvarint(); err != nil {
			return 0, 0, err
		}
	}
	n, err = d.containerLen(u, elem, start)
	return elem, n, err
}

// listBegin reads the header of a list field whose elements should have
// wire type want and need at least minElem bytes each (more than one for
// structs with required fields). When the element type differs (and the
// list is not empty) the list is skipped and ok is false.
func (d *decoder) listBegin(want byte, minElem int) (n int, ok bool, err error) {
	// Fast path: short form of the wanted type whose elements surely fit.
	if p := d.pos; p < len(d.buf) {
		if h := d.buf[p]; h&0x0f == want && h>>4 != 15 {
			n = int(h >> 4)
			if n*max(8, minElem) < len(d.buf)-p && n <= d.lim.MaxContainerLen {
				d.pos = p + 1
				return n, true, nil
			}
		}
	}
	start := d.pos
	elem, n, err := d.listHeader()
	if err != nil {
		return 0, false, err
	}
	if elem == want || n == 0 || (want == tTrue && elem == tFalse) {
		if n > d.remaining()/minElem {
			d.pos = start
			return 0, false, d.fail(ErrTruncated, "list of %d elements of at least %d bytes exceeds remaining %d bytes", n, minElem, d.remaining())
		}
		return n, true, nil
	}
	if err := d.enter(); err != nil {
		return 0, false, err
	}
	for i := 0; i < n; i++ {
		if err := d.skipElem(elem); err != nil {
			return 0, false, err
		}
	}
	d.leave()
	return 0, false, nil
}

// skip skips a field value of wire type t (bool fields carry no bytes).
func (d *decoder) skip(t byte) error {
	if t == tTrue || t == tFalse {
		return nil
	}
	return d.skipElem(t)
}

// skipElem skips a container element of wire type t.
func (d *decoder) skipElem(t byte) error {
	switch t {
	case tTrue, tFalse, tI8:
		if d.pos >= len(d.buf) {
			return d.truncated("a byte")
		}
		d.pos++
	case tI16, tI32, tI64:
		_, err := d.uvarint()
		return err
	case tDouble:
		if d.remaining() < 8 {
			return d.truncated("a double")
		}
		d.pos += 8
	case tUUID:
		if d.remaining() < 16 {
			return d.truncated("a uuid")
		}
		d.pos += 16
	case tBinary:
		n, err := d.length()
		if err != nil {
			return err
		}
		d.pos += n
	case tList, tSet:
		elem, n, err := d.listHeader()
		if err != nil {
			return err
		}
		if err := d.enter(); err != nil {
			return err
		}
		for i := 0; i < n; i++ {
			if err := d.skipElem(elem); err != nil {
				return err
			}
		}
		d.leave()
	case tMap:
		start := d.pos
		u, err := d.uvarint()
		if err != nil {
			return err
		}
		if u == 0 {
			return nil
		}
		if d.pos >= len(d.buf) {
			return d.truncated("a map header")
		}
		kv := d.buf[d.pos]
		d.pos++
		kt, vt := kv>>4, kv&0x0f
		if minSize(kt) == 0 || minSize(vt) == 0 {
			d.pos = start
			return d.fail(ErrInvalid, "invalid map key/value types %d/%d", kt, vt)
		}
		n, err := d.containerLen(u, tI8, start)
		if err != nil {
			return err
		}
		if err := d.enter(); err != nil {
			return err
		}
		for i := 0; i < n; i++ {
			if err := d.skipElem(kt); err != nil {
				return err
			}
			if err := d.skipElem(vt); err != nil {
				return err
			}
		}
		d.leave()
	case tStruct:
		if err := d.enter(); err != nil {
			return err
		}
		var last int16
		for {
			id, wt, err := d.fieldHeader(last)
			if err != nil {
				return err
			}
			if wt == tStop {
				break
			}
			last = id
			if err := d.skip(wt); err != nil {
				return err
			}
		}
		d.leave()
	default:
		d.pos--
		if d.pos < 0 {
			d.pos = 0
		}
		return d.fail(ErrInvalid, "invalid wire type %d", t)
	}
	return nil
}

// readEmptyUnion reads a union whose members are all empty structs and
// returns the id of the (last) member in 1..max, or 0 when none is known.
func (d *decoder) readEmptyUnion(max int16) (int16, error) {
	if err := d.enter(); err != nil {
		return 0, err
	}
	var last, v int16
	for {
		id, wt, err := d.fieldHeader(last)
		if err != nil {
			return 0, err
		}
		if wt == tStop {
			break
		}
		last = id
		if err := d.skip(wt); err != nil {
			return 0, err
		}
		if wt == tStruct && id >= 1 && id <= max {
			v = id
		}
	}
	d.leave()
	return v, nil
}

// missing reports absent required fields.
func (d *decoder) missing(strct, field string) error {
	return d.fail(ErrMissingField, "required field %s.%s is missing", strct, field)
}

// Encoding.

func appendUvarint(b []byte, u uint64) []byte {
	for u >= 0x80 {
		b = append(b, byte(u)|0x80)
		u >>= 7
	}
	return append(b, byte(u))
}

func appendI64(b []byte, v int64) []byte { return appendUvarint(b, uint64(v<<1)^uint64(v>>63)) }

func appendI32(b []byte, v int32) []byte {
	return appendUvarint(b, uint64(uint32(v<<1)^uint32(v>>31)))
}

func appendDouble(b []byte, v float64) []byte {
	return binary.LittleEndian.AppendUint64(b, math.Float64bits(v))
}

func appendString(b []byte, s string) []byte {
	b = appendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

func appendBinary(b []byte, s []byte) []byte {
	b = appendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

func appendBoolElem(b []byte, v bool) []byte {
	if v {
		return append(b, tTrue)
	}
	return append(b, tFalse)
}

// appendField appends a field header for id and wire type t after the
// field last and returns the new last field id.
func appendField(b []byte, last, id int16, t byte) ([]byte, int16) {
	if d := id - last; d > 0 && d <= 15 {
		return append(b, byte(d)<<4|t), id
	}
	b = append(b, t)
	return appendI32(b, int32(id)), id
}

func appendBoolField(b []byte, last, id int16, v bool) ([]byte, int16) {
	if v {
		return appendField(b, last, id, tTrue)
	}
	return appendField(b, last, id, tFalse)
}

func appendListHeader(b []byte, n int, elem byte) []byte {
	if n < 15 {
		return append(b, byte(n)<<4|elem)
	}
	b = append(b, 0xf0|elem)
	return appendUvarint(b, uint64(n))
}

// appendEmptyUnion appends a union of empty structs with member v (none
// when v is 0).
func appendEmptyUnion(b []byte, v int16) []byte {
	if v != 0 {
		b, _ = appendField(b, 0, v, tStruct)
		b = append(b, tStop)
	}
	return append(b, tStop)
}

// slab hands out elements of T from large chunks, so that many small
// objects cost few allocations. Chunks grow geometrically up to slabChunk
// elements and never hold more elements than the remaining input could
// describe (each element needs at least minSize bytes).
type slab[T any] struct {
	buf  []T
	next int
}

const slabChunk = 512

func (s *slab[T]) take(n, maxElems int) []T {
	if n == 0 {
		return []T{} // present but empty: non-nil
	}
	if n > len(s.buf) {
		c := max(s.next, 16)
		c = max(min(c, maxElems), n)
		s.buf = make([]T, c)
		s.next = min(2*c, slabChunk)
	}
	r := s.buf[:n:n]
	s.buf = s.buf[n:]
	return r
}

// newOne returns a pointer to a zero T: from the slab in share mode, else
// freshly allocated. minSize is the smallest encoding of a T.
func newOne[T any](d *decoder, s *slab[T], minSize int) *T {
	if !d.share {
		return new(T)
	}
	return &s.take(1, d.remaining()/minSize+1)[0]
}

// makeN returns a zeroed slice of n elements of T (n already checked
// against the remaining input). minSize is the smallest encoding of a T.
func makeN[T any](d *decoder, s *slab[T], n, minSize int) []T {
	if !d.share {
		return make([]T, n)
	}
	return s.take(n, d.remaining()/minSize+1)
}

func (d *decoder) tooDeep() error {
	return d.fail(ErrDepth, "nesting depth exceeds %d", d.lim.MaxDepth)
}
