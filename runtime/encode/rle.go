// RLE / bit-packing hybrid encoding (RLE = 3), with and without the 4-byte
// length prefix, for levels ([]uint8), dictionary indices ([]int32) and
// booleans:
// https://parquet.apache.org/docs/file-format/data-pages/encodings/#run-length-encoding--bit-packing-hybrid-rle--3

package encode

import (
	"encoding/binary"
	"fmt"
	"math/bits"
)

// MaxRunLength is the largest run (RLE or bit-packed) the format allows.
const MaxRunLength = 1<<31 - 1

// AppendRLELevels appends the RLE / bit-packed hybrid encoding (no length
// prefix) of src at bitWidth. Preconditions: 0 <= bitWidth <= 8 and every
// value fits in bitWidth bits.
func AppendRLELevels(dst []byte, src []uint8, bitWidth int) []byte {
	if bitWidth < 0 || bitWidth > 8 {
		panic("encode: AppendRLELevels: bit width out of range")
	}
	return appendRLELevels(dst, src, bitWidth)
}

// appendRLELevels is appendRLE32 specialised for bytes: a group of 8 is one
// 64-bit load compared with the broadcast of its first byte, and runs
// extend 8 bytes at a time.
//
// A group is uniform when it equals itself rotated by one byte, and the
// scan tests four groups per step while none is uniform: testing one group
// per step against a broadcast of the first byte dominated the encoder.
func appendRLELevels(dst []byte, src []uint8, w int) []byte {
	lit, i, n := 0, 0, len(src)
	for i+8 <= n {
		if n-i >= 32 {
			s := (*[32]byte)(src[i:])
			x0 := binary.LittleEndian.Uint64(s[0:])
			x1 := binary.LittleEndian.Uint64(s[8:])
			x2 := binary.LittleEndian.Uint64(s[16:])
			x3 := binary.LittleEndian.Uint64(s[24:])
			if x0 != bits.RotateLeft64(x0, 8) && x1 != bits.RotateLeft64(x1, 8) &&
				x2 != bits.RotateLeft64(x2, 8) && x3 != bits.RotateLeft64(x3, 8) {
				i += 32
				continue
			}
		}
		x := binary.LittleEndian.Uint64(src[i:])
		if x != bits.RotateLeft64(x, 8) {
			i += 8
			continue
		}
		v := uint8(x)
		// The run ends at the first byte differing from v: the lowest
		// set byte of the XOR with the group.
		j := i + 8
		for j+8 <= n {
			if d := binary.LittleEndian.Uint64(src[j:]) ^ x; d != 0 {
				j += bits.TrailingZeros64(d) >> 3
				break
			}
			j += 8
		}
		if j+8 > n {
			for j < n && src[j] == v {
				j++
			}
		}
		dst = appendLiteralLevels(dst, src[lit:i], w)
		for r := j - i; r > 0; {
			c := min(r, MaxRunLength)
			dst = appendUvarint(dst, uint64(c)<<1)
			if w > 0 {
				dst = append(dst, v)
			}
			r -= c
		}
		i, lit = j, j
	}
	return appendLiteralLevels(dst, src[lit:], w)
}

// appendLiteralLevels is appendLiteral32 with a direct call of
// appendPackLevels (a short literal between runs of levels is common).
func appendLiteralLevels(dst []byte, src []uint8, w int) []byte {
	for len(src) > 0 {
		c := min(len(src), maxLiteralGroups*8)
		groups := (c + 7) / 8
		dst = appendUvarint(dst, uint64(groups)<<1|1)
		dst = appendPackLevels(dst, src[:c], w)
		for pad := groups*w - packedLen(c, w); pad > 0; pad-- {
			dst = append(dst, 0)
		}
		src = src[c:]
	}
	return dst
}

// AppendRLELevelsPrefixed is AppendRLELevels preceded by the 4-byte little
// endian length of the encoded data (data page v1 levels).
func AppendRLELevelsPrefixed(dst []byte, src []uint8, bitWidth int) []byte {
	start := len(dst)
	dst = append(dst, 0, 0, 0, 0)
	dst = AppendRLELevels(dst, src, bitWidth)
	binary.LittleEndian.PutUint32(dst[start:], uint32(len(dst)-start-4))
	return dst
}

// AppendRLEInt32 appends the RLE / bit-packed hybrid encoding (no length
// prefix) of src at bitWidth, as used for dictionary indices.
// Preconditions: 0 <= bitWidth <= 32 and every value, taken as uint32,
// fits in bitWidth bits.
func AppendRLEInt32(dst []byte, src []int32, bitWidth int) []byte {
	if bitWidth < 0 || bitWidth > 32 {
		panic("encode: AppendRLEInt32: bit width out of range")
	}
	return appendRLE32(dst, as32[uint32](src), bitWidth)
}

// AppendRLEInt32Prefixed is AppendRLEInt32 preceded by the 4-byte length.
func AppendRLEInt32Prefixed(dst []byte, src []int32, bitWidth int) []byte {
	start := len(dst)
	dst = append(dst, 0, 0, 0, 0)
	dst = AppendRLEInt32(dst, src, bitWidth)
	binary.LittleEndian.PutUint32(dst[start:], uint32(len(dst)-start-4))
	return dst
}

// AppendRLEBool appends src as RLE-encoded BOOLEAN values: the 4-byte
// length prefix (present in both data page versions) followed by the
// hybrid encoding at bit width 1.
func AppendRLEBool(dst []byte, src []bool) []byte {
	return AppendRLELevelsPrefixed(dst, boolsAsBytes(src), 1)
}

// DecodeRLELevels decodes n values of the RLE / bit-packed hybrid encoding
// (no length prefix) at bitWidth (0..8) from src into dst and returns them
// with the number of bytes consumed. dst's backing array is reused when
// its capacity reaches n; otherwise it is grown as runs are decoded, so a
// large n with short input fails with ErrTruncated before allocating for
// n. Bit width 0 with the input exhausted yields zeros (writers may omit
// the runs). Runs must not extend past n values (bit-packed runs may pad
// the last group of 8).
func DecodeRLELevels(dst []uint8, src []byte, bitWidth, n int) ([]uint8, int, error) {
	if bitWidth < 0 || bitWidth > 8 {
		return dst[:0], 0, fmt.Errorf("rle levels: bit width %d not in [0,8]: %w", bitWidth, ErrBitWidth)
	}
	return decodeRLE8(dst[:0], src, bitWidth, n)
}

// DecodeRLELevelsPrefixed decodes a 4-byte length prefix and then the
// hybrid data it delimits, as DecodeRLELevels. The bytes consumed include
// the prefix and the whole delimited data.
func DecodeRLELevelsPrefixed(dst []uint8, src []byte, bitWidth, n int) ([]uint8, int, error) {
	body, err := prefixed(src)
	if err != nil {
		return dst[:0], 0, err
	}
	out, _, err := DecodeRLELevels(dst, body, bitWidth, n)
	return out, 4 + len(body), err
}

// DecodeRLEInt32 decodes n values of the hybrid encoding (no length
// prefix) at bitWidth (0..32), as DecodeRLELevels. Values of bit width 32
// above MaxInt32 come out negative (their two's complement).
func DecodeRLEInt32(dst []int32, src []byte, bitWidth, n int) ([]int32, int, error) {
	if bitWidth < 0 || bitWidth > 32 {
		return dst[:0], 0, fmt.Errorf("rle int32: bit width %d not in [0,32]: %w", bitWidth, ErrBitWidth)
	}
	u, k, err := decodeRLE32(as32[uint32](dst[:0]), src, bitWidth, n)
	return as32[int32](u), k, err
}

// DecodeRLEInt32Prefixed is DecodeRLEInt32 for length-prefixed data.
func DecodeRLEInt32Prefixed(dst []int32, src []byte, bitWidth, n int) ([]int32, int, error) {
	body, err := prefixed(src)
	if err != nil {
		return dst[:0], 0, err
	}
	out, _, err := DecodeRLEInt32(dst, body, bitWidth, n)
	return out, 4 + len(body), err
}

// DecodeRLEBool decodes n RLE-encoded BOOLEAN values (4-byte length prefix
// then hybrid data at bit width 1) into dst, as DecodeRLELevels.
func DecodeRLEBool(dst []bool, src []byte, n int) ([]bool, int, error) {
	u, k, err := DecodeRLELevelsPrefixed(boolsAsBytes(dst), src, 1, n)
	// Width 1 guarantees every decoded byte is 0 or 1.
	return bytesAsBools(u), k, err
}

func prefixed(src []byte) ([]byte, error) {
	if len(src) < 4 {
		return nil, fmt.Errorf("rle length prefix: %d bytes: %w", len(src), ErrTruncated)
	}
	l := binary.LittleEndian.Uint32(src)
	if uint64(l) > uint64(len(src)-4) {
		return nil, fmt.Errorf("rle length prefix %d exceeds %d remaining bytes: %w", l, len(src)-4, ErrTruncated)
	}
	return src[4 : 4+int(l)], nil
}

func fillBytes(s []uint8, v uint8) {
	if len(s) < 16 {
		for i := range s {
			s[i] = v
		}
		return
	}
	// Doubling copies run at memmove speed for long runs.
	s[0] = v
	for k := 1; k < len(s); k *= 2 {
		copy(s[k:], s[:k])
	}
}

// decodeRLE32 appends n decoded values of width w (0..32) to dst
// (len(dst) == 0 on entry).
func decodeRLE32(dst []uint32, src []byte, w, n int) ([]uint32, int, error) {
	if n < 0 {
		return dst, 0, fmt.Errorf("rle: negative value count %d: %w", n, ErrLength)
	}
	maxV := uint64(1)<<uint(w) - 1
	vb := (w + 7) / 8
	pos := 0
	i := 0
	for i < n {
		if pos >= len(src) {
			if w == 0 {
				// Nothing but zeros can be encoded at width 0; writers may
				// omit the runs entirely.
				dst = growSlice(dst, n-i)[:n]
				clear(dst[i:])
				return dst, pos, nil
			}
			return dst, pos, fmt.Errorf("rle: input ends after %d of %d values: %w", i, n, ErrTruncated)
		}
		var h uint64
		k := 1
		if b := src[pos]; b < 0x80 {
			h = uint64(b) // one-byte header: the common case
		} else {
			var err error
			h, k, err = readUvarint(src[pos:])
			if err != nil {
				return dst, pos, fmt.Errorf("rle run header at byte %d: %w", pos, err)
			}
		}
		pos += k
		if h&1 == 0 {
			cnt := h >> 1
			if cnt == 0 || cnt > MaxRunLength {
				return dst, pos, fmt.Errorf("rle run of %d values at byte %d: %w", cnt, pos-k, ErrRunLength)
			}
			if cnt > uint64(n-i) {
				return dst, pos, fmt.Errorf("rle run of %d values at byte %d exceeds the %d values left: %w", cnt, pos-k, n-i, ErrRunLength)
			}
			if len(src)-pos < vb {
				return dst, pos, fmt.Errorf("rle run value at byte %d: %w", pos, ErrTruncated)
			}
			var v uint64
			if vb == 1 {
				v = uint64(src[pos])
			} else {
				for j := 0; j < vb; j++ {
					v |= uint64(src[pos+j]) << (8 * j)
				}
			}
			if v > maxV {
				return dst, pos, fmt.Errorf("rle run value %d does not fit bit width %d: %w", v, w, ErrCorrupt)
			}
			pos += vb
			c := int(cnt)
			if cap(dst) < i+c {
				dst = growSlice(dst[:i], c)
			}
			dst = dst[:i+c]
			run := dst[i:]
			for j := range run {
				run[j] = uint32(v)
			}
			i += c
			continue
		}
		groups := h >> 1
		if groups > MaxRunLength/8 {
			return dst, pos, fmt.Errorf("bit-packed run of %d groups at byte %d: %w", groups, pos-k, ErrRunLength)
		}
		cnt := int(groups) * 8
		// A final bit-packed run may declare more values than remain: DuckDB
		// 1.5 always declares 256, and arrow-cpp, parquet-mr, arrow-go and
		// parquet-go all read the values needed and skip the padding. Only
		// the bytes of the needed values must be present.
		need := min(cnt, n-i)
		if len(src)-pos < packedLen(need, w) {
			return dst, pos, fmt.Errorf("bit-packed run of %d values at byte %d needs %d bytes, %d left: %w", need, pos-k, packedLen(need, w), len(src)-pos, ErrTruncated)
		}
		if cap(dst) < i+need {
			dst = growSlice(dst[:i], need)
		}
		dst = dst[:i+need]
		unpackIndices(dst[i:], src[pos:], w)
		i += need
		pos += min(int(groups)*w, len(src)-pos)
	}
	return dst, pos, nil
}

// decodeRLE8 is decodeRLE32 for levels (uint8), with short runs filled
// with 8-byte stores; it must be kept in step with decodeRLE32 (both are
// checked against refDecodeRLE by the tests and fuzz targets). It is
// monomorphic because the generic decoder it replaced was slower.
func decodeRLE8(dst []uint8, src []byte, w, n int) ([]uint8, int, error) {
	if n < 0 {
		return dst, 0, fmt.Errorf("rle: negative value count %d: %w", n, ErrLength)
	}
	maxV := uint64(1)<<uint(w) - 1
	vb := (w + 7) / 8
	pos := 0
	i := 0
	for i < n {
		if pos >= len(src) {
			if w == 0 {
				// Nothing but zeros can be encoded at width 0; writers may
				// omit the runs entirely.
				dst = growSlice(dst, n-i)[:n]
				clear(dst[i:])
				return dst, pos, nil
			}
			return dst, pos, fmt.Errorf("rle: input ends after %d of %d values: %w", i, n, ErrTruncated)
		}
		var h uint64
		k := 1
		if b := src[pos]; b < 0x80 {
			h = uint64(b) // one-byte header: the common case
		} else {
			var err error
			h, k, err = readUvarint(src[pos:])
			if err != nil {
				return dst, pos, fmt.Errorf("rle run header at byte %d: %w", pos, err)
			}
		}
		pos += k
		if h&1 == 0 {
			cnt := h >> 1
			if cnt == 0 || cnt > MaxRunLength {
				return dst, pos, fmt.Errorf("rle run of %d values at byte %d: %w", cnt, pos-k, ErrRunLength)
			}
			if cnt > uint64(n-i) {
				return dst, pos, fmt.Errorf("rle run of %d values at byte %d exceeds the %d values left: %w", cnt, pos-k, n-i, ErrRunLength)
			}
			if len(src)-pos < vb {
				return dst, pos, fmt.Errorf("rle run value at byte %d: %w", pos, ErrTruncated)
			}
			var v uint64
			if vb == 1 {
				v = uint64(src[pos])
			} else {
				for j := 0; j < vb; j++ {
					v |= uint64(src[pos+j]) << (8 * j)
				}
			}
			if v > maxV {
				return dst, pos, fmt.Errorf("rle run value %d does not fit bit width %d: %w", v, w, ErrCorrupt)
			}
			pos += vb
			c := int(cnt)
			if cap(dst) < i+c {
				dst = growSlice(dst[:i], c)
			}
			dst = dst[:i+c]
			// 8-byte stores for runs up to 128 values: fillBytes' doubling
			// copies dominated runs of 17-30 values.
			switch b := v * 0x0101010101010101; {
			case c <= 32 && n-i >= 32 && cap(dst)-i >= 32:
				// Four 8-byte stores cover the run; the bytes past it
				// (still below n) are overwritten by the following runs.
				t := dst[i : i+32 : i+32]
				binary.LittleEndian.PutUint64(t, b)
				binary.LittleEndian.PutUint64(t[8:], b)
				binary.LittleEndian.PutUint64(t[16:], b)
				binary.LittleEndian.PutUint64(t[24:], b)
			case c >= 8 && c <= 128:
				// 8-byte stores, the last one overlapping, within the run.
				t := dst[i : i+c : i+c]
				for len(t) >= 8 {
					binary.LittleEndian.PutUint64(t, b)
					t = t[8:]
				}
				binary.LittleEndian.PutUint64(dst[i+c-8:i+c], b)
			default:
				fillBytes(dst[i:], uint8(v))
			}
			i += c
			continue
		}
		groups := h >> 1
		if groups > MaxRunLength/8 {
			return dst, pos, fmt.Errorf("bit-packed run of %d groups at byte %d: %w", groups, pos-k, ErrRunLength)
		}
		cnt := int(groups) * 8
		// A final bit-packed run may declare more values than remain: DuckDB
		// 1.5 always declares 256, and arrow-cpp, parquet-mr, arrow-go and
		// parquet-go all read the values needed and skip the padding. Only
		// the bytes of the needed values must be present.
		need := min(cnt, n-i)
		if len(src)-pos < packedLen(need, w) {
			return dst, pos, fmt.Errorf("bit-packed run of %d values at byte %d needs %d bytes, %d left: %w", need, pos-k, packedLen(need, w), len(src)-pos, ErrTruncated)
		}
		if cap(dst) < i+need {
			dst = growSlice(dst[:i], need)
		}
		dst = dst[:i+need]
		if w == 8 {
			// Width 8 values are the bytes themselves.
			copy(dst[i:], src[pos:])
		} else {
			unpackLevels(dst[i:], src[pos:], w)
		}
		i += need
		pos += min(int(groups)*w, len(src)-pos)
	}
	return dst, pos, nil
}

// appendPackLevels appends the low w bits (1..8) of each value of src,
// packed LSB first, padding the last byte with zeros. Precondition: every
// value fits in w bits.
//
// Each group of 8 levels is loaded as one 64-bit word and gathered into
// its 8w bits in three shift-and-mask steps (bytes into 16-bit lanes,
// those into 32-bit lanes, then the two halves), the inverse of the
// unpack8 kernels, instead of 8 variable shifts per group.
func appendPackLevels(dst []byte, src []uint8, w int) []byte {
	if w == 0 {
		return dst
	}
	n := packedLen(len(src), w)
	dst = grow(dst, n+8)
	out := dst[len(dst) : len(dst)+n+8]
	if w == 8 {
		copy(out, src)
		return dst[:len(dst)+n]
	}
	u := uint(w) & 7
	m1 := (uint64(1)<<u - 1) * 0x0001000100010001
	m2 := (uint64(1)<<(2*u) - 1) * (1 | 1<<32)
	m3 := uint64(1)<<(4*u) - 1
	o := 0
	// One PEXT per group (packLevelsFast) where BMI2 is available: faster
	// than the shift-and-mask steps below.
	if k := packLevelsFast(out, src, w); k > 0 {
		o, src = k/8*w, src[k:]
	}
	for len(src) >= 8 && len(out)-o >= 8 {
		x := binary.LittleEndian.Uint64(src)
		// "&63" lets the compiler drop its oversized-shift guards.
		x = x&m1 | (x>>8&m1)<<(u&63)
		x = x&m2 | (x>>16&m2)<<(2*u&63)
		x = x&m3 | (x>>32)<<(4*u&63)
		binary.LittleEndian.PutUint64(out[o:], x)
		o += w
		src = src[8:]
	}
	if len(src) > 0 {
		var x uint64
		for j, v := range src {
			x |= uint64(v) << (uint(j) * u)
		}
		binary.LittleEndian.PutUint64(out[o:], x)
	}
	return dst[:len(dst)+n]
}

// appendRLE32 encodes src at width w (0..32), choosing RLE runs for repeats that
// cover a whole group of 8 values (so at least 8 values: such a run costs
// at most one bit-packed group and decodes faster) and bit-packed groups
// for the rest.
//
// The input is scanned one aligned group of 8 at a time (aligned to the
// start of the pending literal, so that literals stay multiples of 8)
// rather than computing the run length at every position.
func appendRLE32(dst []byte, src []uint32, w int) []byte {
	vb := (w + 7) / 8
	lit := 0 // start of pending literal values
	i := 0
	n := len(src)
	for i+8 <= n {
		g := (*[8]uint32)(src[i:])
		v := g[0]
		// One branch on the OR of the differences rather than seven
		// short-circuit branches, which random data would mispredict.
		if (g[1]^v)|(g[2]^v)|(g[3]^v)|(g[4]^v)|(g[5]^v)|(g[6]^v)|(g[7]^v) != 0 {
			i += 8
			continue
		}
		j := i + 8
		for j < n && src[j] == v {
			j++
		}
		dst = appendLiteral32(dst, src[lit:i], w)
		for r := j - i; r > 0; {
			c := min(r, MaxRunLength)
			dst = appendUvarint(dst, uint64(c)<<1)
			for k := 0; k < vb; k++ {
				dst = append(dst, byte(uint64(v)>>(8*k)))
			}
			r -= c
		}
		i = j
		lit = j
	}
	return appendLiteral32(dst, src[lit:], w)
}

// maxLiteralGroups bounds a bit-packed run to MaxRunLength values.
const maxLiteralGroups = MaxRunLength / 8

// appendLiteral32 bit-packs src as one or more bit-packed runs, padding
// the last group to 8 values with zeros.
func appendLiteral32(dst []byte, src []uint32, w int) []byte {
	for len(src) > 0 {
		c := min(len(src), maxLiteralGroups*8)
		groups := (c + 7) / 8
		dst = appendUvarint(dst, uint64(groups)<<1|1)
		dst = appendPack32(dst, src[:c], w)
		for pad := groups*w - packedLen(c, w); pad > 0; pad-- {
			dst = append(dst, 0)
		}
		src = src[c:]
	}
	return dst
}
