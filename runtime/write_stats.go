// Statistics rules of the writer: the sort order of each column (signed,
// unsigned, byte-wise, signed decimal, floats with the NaN and signed-zero
// rules of the newest format revision, IEEE 754 total order, INT96
// timestamp order) and the truncation of long byte-array bounds. See the
// Statistics and ColumnOrder comments of parquet.thrift,
// https://github.com/apache/parquet-format/blob/master/src/main/thrift/parquet.thrift,
// and https://parquet.apache.org/docs/file-format/pageindex/.

package runtime

import (
	"bytes"
	"encoding/binary"
	"math"
	"unicode/utf8"

	"github.com/pqgen/pqgen/runtime/meta"
	"github.com/pqgen/pqgen/runtime/schema"
)

// orderKind says how the bounds of a column compare.
type orderKind uint8

const (
	orderNone      orderKind = iota // no min/max (INTERVAL, INT96, GEOMETRY, ...)
	orderBool                       // false < true
	orderInt32                      // signed
	orderUint32                     // INT(8|16|32, false)
	orderInt64                      // signed
	orderUint64                     // INT(64, false)
	orderFloat                      // FLOAT, NaN excluded, -0 < +0 in bounds
	orderDouble                     // DOUBLE
	orderFloat16                    // FLOAT16 (FIXED_LEN_BYTE_ARRAY(2), little endian)
	orderBytes                      // unsigned byte-wise
	orderDecimal                    // big-endian two's complement, by value
	orderInt96Time                  // INT96 timestamp order
)

// columnOrderKind returns the order of the leaf n under the footer order
// co (TypeDefinedOrder, IEEE754TotalOrder or Int96TimestampOrder).
func columnOrderKind(n *schema.Node) orderKind {
	l := n.Logical
	switch l.Kind {
	case meta.LogicalGeometry, meta.LogicalGeography:
		return orderNone
	}
	if n.Converted.Set && n.Converted.Val == meta.ConvertedInterval {
		return orderNone
	}
	switch n.Type {
	case meta.Boolean:
		return orderBool
	case meta.Int32:
		if l.Kind == meta.LogicalInteger && !l.Integer.IsSigned {
			return orderUint32
		}
		return orderInt32
	case meta.Int64:
		if l.Kind == meta.LogicalInteger && !l.Integer.IsSigned {
			return orderUint64
		}
		return orderInt64
	case meta.Float:
		return orderFloat
	case meta.Double:
		return orderDouble
	case meta.Int96:
		return orderNone
	case meta.ByteArray, meta.FixedLenByteArray:
		if l.Kind == meta.LogicalDecimal {
			return orderDecimal
		}
		if l.Kind == meta.LogicalFloat16 && n.Type == meta.FixedLenByteArray && n.TypeLength == 2 {
			return orderFloat16
		}
		return orderBytes
	}
	return orderNone
}

// isFloatOrder reports whether the order has NaNs and signed zeros.
func (o orderKind) isFloat() bool {
	return o == orderFloat || o == orderDouble || o == orderFloat16
}

// compareBounds compares two bounds of order o in their PLAIN encoding
// (without length prefix). Floats compare by IEEE 754 total order, which
// agrees with the numeric order on the non-NaN bounds the type order
// keeps and orders -0 below +0.
func compareBounds(o orderKind, a, b []byte) int {
	switch o {
	case orderBool, orderBytes:
		return bytes.Compare(a, b)
	case orderInt32:
		return cmp3(int32(binary.LittleEndian.Uint32(a)), int32(binary.LittleEndian.Uint32(b)))
	case orderUint32:
		return cmp3(binary.LittleEndian.Uint32(a), binary.LittleEndian.Uint32(b))
	case orderInt64:
		return cmp3(int64(binary.LittleEndian.Uint64(a)), int64(binary.LittleEndian.Uint64(b)))
	case orderUint64:
		return cmp3(binary.LittleEndian.Uint64(a), binary.LittleEndian.Uint64(b))
	case orderFloat:
		return cmp3(totalKey32(binary.LittleEndian.Uint32(a)), totalKey32(binary.LittleEndian.Uint32(b)))
	case orderDouble:
		return cmp3(totalKey64(binary.LittleEndian.Uint64(a)), totalKey64(binary.LittleEndian.Uint64(b)))
	case orderFloat16:
		return cmp3(totalKey16(binary.LittleEndian.Uint16(a)), totalKey16(binary.LittleEndian.Uint16(b)))
	case orderDecimal:
		return compareDecimal(a, b)
	case orderInt96Time:
		return compareInt96Time(a, b)
	}
	return 0
}

func cmp3[T int32 | int64 | uint16 | uint32 | uint64](a, b T) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// totalKey32 maps the bits of a float32 to an unsigned key whose order is
// IEEE 754 totalOrder: -NaN < -Inf < ... < -0 < +0 < ... < +Inf < +NaN.
func totalKey32(u uint32) uint32 {
	if u&(1<<31) != 0 {
		return ^u
	}
	return u | 1<<31
}

func totalKey64(u uint64) uint64 {
	if u&(1<<63) != 0 {
		return ^u
	}
	return u | 1<<63
}

func totalKey16(u uint16) uint16 {
	if u&(1<<15) != 0 {
		return ^u
	}
	return u | 1<<15
}

// isNaN16 reports whether the half-precision bits u are a NaN.
func isNaN16(u uint16) bool { return u&0x7c00 == 0x7c00 && u&0x03ff != 0 }

// compareDecimal compares big-endian two's complement integers of any
// lengths by value (an empty slice is 0).
func compareDecimal(a, b []byte) int {
	na, nb := len(a) > 0 && a[0]&0x80 != 0, len(b) > 0 && b[0]&0x80 != 0
	if na != nb {
		if na {
			return -1
		}
		return 1
	}
	// Same sign: sign-extend the shorter to the longer length, then the
	// bytes compare unsigned.
	ext := byte(0)
	if na {
		ext = 0xff
	}
	n := max(len(a), len(b))
	for i := 0; i < n; i++ {
		x, y := ext, ext
		if j := i - (n - len(a)); j >= 0 {
			x = a[j]
		}
		if j := i - (n - len(b)); j >= 0 {
			y = b[j]
		}
		if x != y {
			if x < y {
				return -1
			}
			return 1
		}
	}
	return 0
}

// compareInt96Time compares INT96 timestamps: the last 4 bytes (Julian
// day, signed), then the first 8 (nanoseconds of the day, signed).
func compareInt96Time(a, b []byte) int {
	if c := cmp3(int32(binary.LittleEndian.Uint32(a[8:])), int32(binary.LittleEndian.Uint32(b[8:]))); c != 0 {
		return c
	}
	return cmp3(int64(binary.LittleEndian.Uint64(a[:8])), int64(binary.LittleEndian.Uint64(b[:8])))
}

// truncateMin returns the bound to store for the minimum v: v itself when
// it is at most n bytes long (or n is 0), else its n-byte prefix (cut at a
// rune boundary when utf8 is set). exact reports whether v was kept.
func truncateMin(v []byte, n int, utf bool) (_ []byte, exact bool) {
	if n <= 0 || len(v) <= n {
		return v, true
	}
	cut := n
	if utf {
		for cut > 0 && !utf8.RuneStart(v[cut]) {
			cut--
		}
		if cut == 0 {
			return v, true
		}
	}
	return v[:cut], false
}

// truncateMax returns the bound to store for the maximum v: v itself when
// it is at most n bytes long, else the shortest prefix of at most n bytes
// that, incremented, is greater than v. Byte-wise, the last byte below
// 0xff is incremented and what follows it dropped; for UTF-8 the last code
// point that can be is incremented (skipping surrogates). When nothing can
// be incremented v is kept. The result is appended to dst.
func truncateMax(dst, v []byte, n int, utf bool) (_ []byte, exact bool) {
	if n <= 0 || len(v) <= n {
		return append(dst, v...), true
	}
	start := len(dst)
	if utf && utf8.Valid(v) {
		p := v[:n]
		for len(p) > 0 && !utf8.RuneStart(v[len(p)]) {
			p = p[:len(p)-1]
		}
		for len(p) > 0 {
			r, size := utf8.DecodeLastRune(p)
			p = p[:len(p)-size]
			next := r + 1
			if next >= 0xd800 && next <= 0xdfff {
				next = 0xe000
			}
			if next <= utf8.MaxRune && utf8.RuneLen(next) > 0 && len(p)+utf8.RuneLen(next) <= n {
				dst = append(dst, p...)
				return utf8.AppendRune(dst, next), false
			}
		}
		return append(dst[:start], v...), true
	}
	for i := n - 1; i >= 0; i-- {
		if v[i] != 0xff {
			dst = append(dst, v[:i]...)
			return append(dst, v[i]+1), false
		}
	}
	return append(dst, v...), true
}

// isUTF8 reports whether the leaf holds text whose bounds are truncated
// at code point boundaries.
func isUTF8(n *schema.Node) bool {
	switch n.Logical.Kind {
	case meta.LogicalString, meta.LogicalEnum, meta.LogicalJSON:
		return true
	}
	return false
}

// float bound helpers: the type order writes a zero minimum as -0 and a
// zero maximum as +0.

func minBoundFloat(v float32) float32 {
	if v == 0 {
		return float32(math.Copysign(0, -1))
	}
	return v
}

func maxBoundFloat(v float32) float32 {
	if v == 0 {
		return 0
	}
	return v
}

func minBoundDouble(v float64) float64 {
	if v == 0 {
		return math.Copysign(0, -1)
	}
	return v
}

func maxBoundDouble(v float64) float64 {
	if v == 0 {
		return 0
	}
	return v
}
