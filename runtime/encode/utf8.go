// UTF-8 validation of BYTE_ARRAY values: the STRING, ENUM and JSON
// logical types hold UTF-8 text
// (https://github.com/apache/parquet-format/blob/master/LogicalTypes.md#string-types),
// and readers such as DuckDB, Polars and arrow-rs refuse a whole file in
// which one such value is not.

package encode

import (
	"encoding/binary"
	"unicode/utf8"
)

// FirstInvalidUTF8 returns the index of the first value of b that is not
// valid UTF-8 (as utf8.Valid decides), or -1 when every value is.
//
// Text that is all ASCII is checked eight bytes at a time, with no
// per-value work. Otherwise all the values' bytes are validated at once,
// and each value must then begin on a rune boundary: a sequence of valid
// UTF-8 cut only at rune boundaries gives valid pieces. Only when that
// fails are the values validated one by one, to find the first bad one.
func FirstInvalidUTF8(b ByteArrays) int {
	n := b.Len()
	if n == 0 {
		return -1
	}
	offs := b.Offsets[:n+1]
	lo, hi := offs[0], offs[n]
	data := b.Data[lo:hi]
	if isASCII(data) {
		return -1
	}
	if utf8.Valid(data) {
		ok := true
		for _, o := range offs[:n] {
			if o < hi && !utf8.RuneStart(b.Data[o]) {
				ok = false
				break
			}
		}
		if ok {
			return -1
		}
	}
	for i := range n {
		if !utf8.Valid(b.Data[offs[i]:offs[i+1]]) {
			return i
		}
	}
	return -1 // unreachable: the checks above found a bad value
}

// isASCII reports whether every byte of p is below 0x80.
func isASCII(p []byte) bool {
	var acc uint64
	for len(p) >= 32 {
		acc |= binary.LittleEndian.Uint64(p) | binary.LittleEndian.Uint64(p[8:]) |
			binary.LittleEndian.Uint64(p[16:]) | binary.LittleEndian.Uint64(p[24:])
		p = p[32:]
	}
	for len(p) >= 8 {
		acc |= binary.LittleEndian.Uint64(p)
		p = p[8:]
	}
	for _, c := range p {
		acc |= uint64(c)
	}
	return acc&0x8080808080808080 == 0
}
