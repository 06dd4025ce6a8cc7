// Variant metadata: the dictionary of object field names.
//
// Layout (VariantEncoding.md, "Metadata encoding"):
//
//	header           1 byte: version (bits 0-3, must be 1), sorted_strings
//	                 (bit 4), offset_size_minus_one (bits 6-7)
//	dictionary_size  offset_size bytes, unsigned little-endian
//	offsets          dictionary_size+1 values of offset_size bytes; the
//	                 first is 0, the last is the length of bytes
//	bytes            the UTF-8 field names, back to back

package variant

import (
	"bytes"
	"errors"
	"fmt"
	"unicode/utf8"
)

// Errors returned when decoding; they are wrapped with the byte offset
// and what was being read.
var (
	// ErrMalformed reports bytes that are not a valid Variant encoding.
	ErrMalformed = errors.New("variant: malformed")
	// ErrVersion reports a metadata version other than 1.
	ErrVersion = errors.New("variant: unsupported metadata version")
	// ErrTooDeep reports values nested more than MaxDepth levels.
	ErrTooDeep = errors.New("variant: nesting too deep")
)

// metadataVersion is the only metadata version the specification defines.
const metadataVersion = 1

// Metadata is a validated view of a Variant metadata component. The zero
// Metadata is an empty dictionary.
type Metadata struct {
	raw     []byte // the whole component, exactly
	offSize int    // bytes per size/offset field
	n       int    // dictionary_size
	sorted  bool
	offs    int // index of the first offset in raw
	strs    int // index of the first name byte in raw
}

// emptyMetadata is the smallest metadata: version 1, no names.
var emptyMetadata = []byte{0x01, 0x00, 0x00}

// EmptyMetadata returns the 3-byte encoding of an empty dictionary
// (version 1, 1-byte offsets, no names).
func EmptyMetadata() []byte { return bytes.Clone(emptyMetadata) }

// MetadataLen returns the length of the metadata component that starts b,
// reading only its header, size and last offset. It lets a reader split a
// concatenation of metadata and value.
func MetadataLen(b []byte) (int, error) {
	if len(b) < 1 {
		return 0, fmt.Errorf("%w: metadata: empty", ErrMalformed)
	}
	os := int(b[0]>>6) + 1
	if len(b) < 1+os {
		return 0, fmt.Errorf("%w: metadata: truncated dictionary size", ErrMalformed)
	}
	n := readUint(b[1:], os)
	if n > uint64(len(b)) { // every offset takes at least one byte
		return 0, fmt.Errorf("%w: metadata: dictionary size %d exceeds %d bytes", ErrMalformed, n, len(b))
	}
	end := 1 + os + (int(n)+1)*os
	if end > len(b) {
		return 0, fmt.Errorf("%w: metadata: truncated offsets", ErrMalformed)
	}
	last := readUint(b[end-os:], os)
	if last > uint64(len(b)-end) {
		return 0, fmt.Errorf("%w: metadata: names run past the end (%d bytes, %d left)", ErrMalformed, last, len(b)-end)
	}
	return end + int(last), nil
}

// ParseMetadata validates b, which must be exactly one metadata component:
// version 1, offsets starting at 0, non-decreasing and ending at the length
// of the name bytes, names in UTF-8, and when the sorted flag is set,
// names strictly increasing in byte order.
func ParseMetadata(b []byte) (Metadata, error) {
	if len(b) < 1 {
		return Metadata{}, fmt.Errorf("%w: metadata: empty", ErrMalformed)
	}
	h := b[0]
	if h&0x0f != metadataVersion {
		return Metadata{}, fmt.Errorf("%w %d", ErrVersion, h&0x0f)
	}
	if h&0x20 != 0 {
		return Metadata{}, fmt.Errorf("%w: metadata: reserved header bit 5 set", ErrMalformed)
	}
	size, err := MetadataLen(b)
	if err != nil {
		return Metadata{}, err
	}
	if size != len(b) {
		return Metadata{}, fmt.Errorf("%w: metadata: %d trailing bytes", ErrMalformed, len(b)-size)
	}
	m := Metadata{raw: b, offSize: int(h>>6) + 1, sorted: h&0x10 != 0}
	m.n = int(readUint(b[1:], m.offSize))
	m.offs = 1 + m.offSize
	m.strs = m.offs + (m.n+1)*m.offSize
	if readUint(b[m.offs:], m.offSize) != 0 {
		return Metadata{}, fmt.Errorf("%w: metadata: first offset is not 0", ErrMalformed)
	}
	prev := 0
	var prevName []byte
	for i := range m.n {
		end := int(readUint(b[m.offs+(i+1)*m.offSize:], m.offSize))
		if end < prev || m.strs+end > len(b) {
			return Metadata{}, fmt.Errorf("%w: metadata: offset %d of name %d out of order or range", ErrMalformed, end, i)
		}
		name := b[m.strs+prev : m.strs+end]
		if !utf8.Valid(name) {
			return Metadata{}, fmt.Errorf("%w: metadata: name %d is not UTF-8", ErrMalformed, i)
		}
		if m.sorted && i > 0 && bytes.Compare(prevName, name) >= 0 {
			return Metadata{}, fmt.Errorf("%w: metadata: sorted flag set but name %d (%q) does not follow %q", ErrMalformed, i, name, prevName)
		}
		prevName, prev = name, end
	}
	return m, nil
}

// Bytes returns the encoded component (nil for the zero Metadata).
func (m Metadata) Bytes() []byte { return m.raw }

// Len returns the number of names in the dictionary.
func (m Metadata) Len() int { return m.n }

// Sorted reports whether the writer declared the names unique and sorted.
func (m Metadata) Sorted() bool { return m.sorted }

// nameBytes returns name i. Precondition: 0 <= i < m.n.
func (m Metadata) nameBytes(i int) []byte {
	s := int(readUint(m.raw[m.offs+i*m.offSize:], m.offSize))
	e := int(readUint(m.raw[m.offs+(i+1)*m.offSize:], m.offSize))
	return m.raw[m.strs+s : m.strs+e]
}

// Name returns name i of the dictionary. Precondition: 0 <= i < Len().
func (m Metadata) Name(i int) string { return string(m.nameBytes(i)) }

// Lookup returns the id of name in the dictionary: a binary search when
// the names are sorted, a scan otherwise.
func (m Metadata) Lookup(name string) (int, bool) {
	if m.sorted {
		lo, hi := 0, m.n
		for lo < hi {
			mid := int(uint(lo+hi) >> 1)
			if string(m.nameBytes(mid)) < name {
				lo = mid + 1
			} else {
				hi = mid
			}
		}
		if lo < m.n && string(m.nameBytes(lo)) == name {
			return lo, true
		}
		return 0, false
	}
	for i := range m.n {
		if string(m.nameBytes(i)) == name {
			return i, true
		}
	}
	return 0, false
}

// readUint reads an unsigned little-endian integer of size bytes (1-4).
// Precondition: len(b) >= size.
func readUint(b []byte, size int) uint64 {
	_ = b[size-1]
	var v uint64
	for i := size - 1; i >= 0; i-- {
		v = v<<8 | uint64(b[i])
	}
	return v
}

// appendUint appends v as size little-endian bytes.
func appendUint(dst []byte, v uint64, size int) []byte {
	for range size {
		dst = append(dst, byte(v))
		v >>= 8
	}
	return dst
}

// sizeFor returns the number of bytes (1-4) needed to store v.
func sizeFor(v uint64) int {
	switch {
	case v <= 0xff:
		return 1
	case v <= 0xffff:
		return 2
	case v <= 0xffffff:
		return 3
	}
	return 4
}
