// Deprecated BIT_PACKED encoding (BIT_PACKED = 4) of repetition and
// definition levels: values packed back to back from the most significant
// bit of each byte, the last byte padded with zeros:
// https://parquet.apache.org/docs/file-format/data-pages/encodings/#bit-packed-deprecated-bit_packed--4

package encode

import "fmt"

// DecodeBitPackedLevels decodes n levels of bitWidth (0..8) bits from src
// into dst (reused, grown if too short) and returns them with the bytes
// consumed, ceil(n*bitWidth/8).
func DecodeBitPackedLevels(dst []uint8, src []byte, bitWidth, n int) ([]uint8, int, error) {
	if bitWidth < 0 || bitWidth > 8 {
		return dst[:0], 0, fmt.Errorf("bit-packed levels: bit width %d not in [0,8]: %w", bitWidth, ErrBitWidth)
	}
	if n < 0 {
		return dst[:0], 0, fmt.Errorf("bit-packed levels: negative count %d: %w", n, ErrLength)
	}
	nb := packedLen(n, bitWidth)
	if len(src) < nb {
		return dst[:0], 0, fmt.Errorf("bit-packed levels: %d values need %d bytes, have %d: %w", n, nb, len(src), ErrTruncated)
	}
	dst = growSlice(dst[:0], n)[:n]
	if bitWidth == 0 {
		clear(dst)
		return dst, 0, nil
	}
	w := uint(bitWidth)
	mask := uint16(1)<<w - 1
	bit := uint(0)
	for i := range dst {
		// The value spans at most two bytes; read them big endian.
		b := bit >> 3
		x := uint16(src[b]) << 8
		if b+1 < uint(len(src)) {
			x |= uint16(src[b+1])
		}
		dst[i] = uint8(x >> (16 - w - bit&7) & mask)
		bit += w
	}
	return dst, nb, nil
}

// AppendBitPackedLevels appends src in the deprecated BIT_PACKED encoding
// at bitWidth. Preconditions: 0 <= bitWidth <= 8 and each value fits.
func AppendBitPackedLevels(dst []byte, src []uint8, bitWidth int) []byte {
	var acc uint64
	var nbits uint
	w := uint(bitWidth)
	for _, v := range src {
		acc = acc<<w | uint64(v)&(1<<w-1)
		nbits += w
		for nbits >= 8 {
			dst = append(dst, byte(acc>>(nbits-8)))
			nbits -= 8
		}
	}
	if nbits > 0 {
		dst = append(dst, byte(acc<<(8-nbits)))
	}
	return dst
}
