// BYTE_STREAM_SPLIT encoding (BYTE_STREAM_SPLIT = 9) for FLOAT, DOUBLE,
// INT32, INT64 and FIXED_LEN_BYTE_ARRAY of any width:
// https://parquet.apache.org/docs/file-format/data-pages/encodings/#byte-stream-split-byte_stream_split--9

package encode

import (
	"encoding/binary"
	"fmt"
)

// AppendByteStreamSplitFloat appends the BYTE_STREAM_SPLIT encoding of src.
func AppendByteStreamSplitFloat(dst []byte, src []float32) []byte {
	if !nativeLittleEndian {
		return appendBSSRef(dst, AppendPlainFloat(nil, src), 4)
	}
	return appendBSS4(dst, asBytes(src))
}

// AppendByteStreamSplitInt32 appends the BYTE_STREAM_SPLIT encoding of src.
func AppendByteStreamSplitInt32(dst []byte, src []int32) []byte {
	if !nativeLittleEndian {
		return appendBSSRef(dst, AppendPlainInt32(nil, src), 4)
	}
	return appendBSS4(dst, asBytes(src))
}

// AppendByteStreamSplitDouble appends the BYTE_STREAM_SPLIT encoding of src.
func AppendByteStreamSplitDouble(dst []byte, src []float64) []byte {
	if !nativeLittleEndian {
		return appendBSSRef(dst, AppendPlainDouble(nil, src), 8)
	}
	return appendBSS8(dst, asBytes(src))
}

// AppendByteStreamSplitInt64 appends the BYTE_STREAM_SPLIT encoding of src.
func AppendByteStreamSplitInt64(dst []byte, src []int64) []byte {
	if !nativeLittleEndian {
		return appendBSSRef(dst, AppendPlainInt64(nil, src), 8)
	}
	return appendBSS8(dst, asBytes(src))
}

// AppendByteStreamSplitFixed appends the BYTE_STREAM_SPLIT encoding of the
// FIXED_LEN_BYTE_ARRAY values of size bytes held back to back in src.
// Preconditions: size > 0 and len(src) is a multiple of size.
func AppendByteStreamSplitFixed(dst []byte, src []byte, size int) []byte {
	if size <= 0 || len(src)%size != 0 {
		panic("encode: AppendByteStreamSplitFixed: bad size")
	}
	n := len(src) / size
	dst = grow(dst, len(src))
	out := dst[len(dst) : len(dst)+len(src)]
	for k := range size {
		s := out[k*n : (k+1)*n]
		for i := range s {
			s[i] = src[i*size+k]
		}
	}
	return dst[:len(dst)+len(src)]
}

// The fast paths below work on raw, the little-endian byte image of the
// values (asBytes, only on little-endian machines: see nativeLittleEndian;
// big-endian machines go through the PLAIN encoders and the reference).
// appendBSS4 uses the 8x8 byte transpose of bss8 on 8 values at a time
// (their zero upper halves give rows 4..7).
func appendBSS4(dst []byte, raw []byte) []byte {
	n := len(raw) / 4
	dst = grow(dst, len(raw))
	out := dst[len(dst) : len(dst)+len(raw)]
	s0, s1, s2, s3 := out[:n], out[n:2*n], out[2*n:3*n], out[3*n:4*n]
	le := binary.LittleEndian
	i := 0
	for ; i+8 <= n; i += 8 {
		r := raw[4*i : 4*i+32]
		v0, v1, v2, v3 := le.Uint64(r[0:])&0xFFFFFFFF, le.Uint64(r[0:])>>32, le.Uint64(r[8:])&0xFFFFFFFF, le.Uint64(r[8:])>>32
		v4, v5, v6, v7 := le.Uint64(r[16:])&0xFFFFFFFF, le.Uint64(r[16:])>>32, le.Uint64(r[24:])&0xFFFFFFFF, le.Uint64(r[24:])>>32
		// Rows 4..7 of the transpose are the (zero) upper bytes.
		v0, v1, v2, v3, _, _, _, _ = transpose8x8(v0, v1, v2, v3, v4, v5, v6, v7)
		le.PutUint64(s0[i:], v0)
		le.PutUint64(s1[i:], v1)
		le.PutUint64(s2[i:], v2)
		le.PutUint64(s3[i:], v3)
	}
	for ; i < n; i++ {
		v := le.Uint32(raw[4*i:])
		s0[i] = byte(v)
		s1[i] = byte(v >> 8)
		s2[i] = byte(v >> 16)
		s3[i] = byte(v >> 24)
	}
	return dst[:len(dst)+len(raw)]
}

func appendBSS8(dst []byte, raw []byte) []byte {
	n := len(raw) / 8
	dst = grow(dst, len(raw))
	out := dst[len(dst) : len(dst)+len(raw)]
	bss8(out, raw, n, false)
	return dst[:len(dst)+len(raw)]
}

// appendBSSRef is the plain reference: byte k of value i goes to stream k.
func appendBSSRef(dst []byte, raw []byte, size int) []byte {
	n := len(raw) / size
	for k := range size {
		for i := range n {
			dst = append(dst, raw[i*size+k])
		}
	}
	return dst
}

func bssCheck(src []byte, size int, what string) error {
	if len(src)%size != 0 {
		return fmt.Errorf("byte stream split %s: %d bytes is not a multiple of %d: %w", what, len(src), size, ErrCorrupt)
	}
	return nil
}

// DecodeByteStreamSplitFloat decodes all of src (a multiple of 4 bytes)
// into dst (reused, grown if too short) and returns the values and len(src).
func DecodeByteStreamSplitFloat(dst []float32, src []byte) ([]float32, int, error) {
	if err := bssCheck(src, 4, "float"); err != nil {
		return dst[:0], 0, err
	}
	if !nativeLittleEndian {
		raw := make([]byte, len(src))
		decodeBSSRef(raw, src, 4)
		return DecodePlainFloat(dst, raw)
	}
	n := len(src) / 4
	dst = growSlice(dst[:0], n)[:n]
	decodeBSS4(asBytes(dst), src)
	return dst, len(src), nil
}

// DecodeByteStreamSplitInt32 decodes all of src (a multiple of 4 bytes),
// as DecodeByteStreamSplitFloat.
func DecodeByteStreamSplitInt32(dst []int32, src []byte) ([]int32, int, error) {
	if err := bssCheck(src, 4, "int32"); err != nil {
		return dst[:0], 0, err
	}
	if !nativeLittleEndian {
		raw := make([]byte, len(src))
		decodeBSSRef(raw, src, 4)
		return DecodePlainInt32(dst, raw)
	}
	n := len(src) / 4
	dst = growSlice(dst[:0], n)[:n]
	decodeBSS4(asBytes(dst), src)
	return dst, len(src), nil
}

// DecodeByteStreamSplitDouble decodes all of src (a multiple of 8 bytes),
// as DecodeByteStreamSplitFloat.
func DecodeByteStreamSplitDouble(dst []float64, src []byte) ([]float64, int, error) {
	if err := bssCheck(src, 8, "double"); err != nil {
		return dst[:0], 0, err
	}
	if !nativeLittleEndian {
		raw := make([]byte, len(src))
		decodeBSSRef(raw, src, 8)
		return DecodePlainDouble(dst, raw)
	}
	n := len(src) / 8
	dst = growSlice(dst[:0], n)[:n]
	decodeBSS8(asBytes(dst), src)
	return dst, len(src), nil
}

// DecodeByteStreamSplitInt64 decodes all of src (a multiple of 8 bytes),
// as DecodeByteStreamSplitFloat.
func DecodeByteStreamSplitInt64(dst []int64, src []byte) ([]int64, int, error) {
	if err := bssCheck(src, 8, "int64"); err != nil {
		return dst[:0], 0, err
	}
	if !nativeLittleEndian {
		raw := make([]byte, len(src))
		decodeBSSRef(raw, src, 8)
		return DecodePlainInt64(dst, raw)
	}
	n := len(src) / 8
	dst = growSlice(dst[:0], n)[:n]
	decodeBSS8(asBytes(dst), src)
	return dst, len(src), nil
}

// DecodeByteStreamSplitFixed decodes all of src as FIXED_LEN_BYTE_ARRAY
// values of size bytes (size > 0, len(src) a multiple of size), appending
// them back to back to dst[:0] (reused, grown if too short).
func DecodeByteStreamSplitFixed(dst []byte, src []byte, size int) ([]byte, int, error) {
	if size <= 0 {
		return dst[:0], 0, fmt.Errorf("byte stream split fixed: size %d: %w", size, ErrLength)
	}
	if err := bssCheck(src, size, "fixed"); err != nil {
		return dst[:0], 0, err
	}
	dst = growSlice(dst[:0], len(src))[:len(src)]
	decodeBSSRef(dst, src, size)
	return dst, len(src), nil
}

// decodeBSS4 writes the little-endian image of the values into raw.
// Precondition: len(raw) == len(src), a multiple of 4.
func decodeBSS4(raw, src []byte) {
	n := len(src) / 4
	s0, s1, s2, s3 := src[:n], src[n:2*n], src[2*n:3*n], src[3*n:4*n]
	le := binary.LittleEndian
	i := decodeBSS4Fast(raw, src)
	// 16 values per step: the 8 words s0..s3[i:i+8], s0..s3[i+8:i+16] form
	// an 8x8 byte matrix whose transpose holds value j in the low and value
	// j+8 in the high half of row j; faster than spreading 8 values per
	// step or a byte loop.
	for ; i+16 <= n; i += 16 {
		r0, r1, r2, r3, r4, r5, r6, r7 := transpose8x8(le.Uint64(s0[i:]), le.Uint64(s1[i:]), le.Uint64(s2[i:]), le.Uint64(s3[i:]),
			le.Uint64(s0[i+8:]), le.Uint64(s1[i+8:]), le.Uint64(s2[i+8:]), le.Uint64(s3[i+8:]))
		o := raw[4*i : 4*i+64]
		le.PutUint32(o[0:], uint32(r0))
		le.PutUint32(o[4:], uint32(r1))
		le.PutUint32(o[8:], uint32(r2))
		le.PutUint32(o[12:], uint32(r3))
		le.PutUint32(o[16:], uint32(r4))
		le.PutUint32(o[20:], uint32(r5))
		le.PutUint32(o[24:], uint32(r6))
		le.PutUint32(o[28:], uint32(r7))
		le.PutUint32(o[32:], uint32(r0>>32))
		le.PutUint32(o[36:], uint32(r1>>32))
		le.PutUint32(o[40:], uint32(r2>>32))
		le.PutUint32(o[44:], uint32(r3>>32))
		le.PutUint32(o[48:], uint32(r4>>32))
		le.PutUint32(o[52:], uint32(r5>>32))
		le.PutUint32(o[56:], uint32(r6>>32))
		le.PutUint32(o[60:], uint32(r7>>32))
	}
	for ; i+8 <= n; i += 8 {
		a, b, c, d := le.Uint64(s0[i:]), le.Uint64(s1[i:]), le.Uint64(s2[i:]), le.Uint64(s3[i:])
		abLo := spread8(a) | spread8(b)<<8
		abHi := spread8(a>>32) | spread8(b>>32)<<8
		cdLo := spread8(c) | spread8(d)<<8
		cdHi := spread8(c>>32) | spread8(d>>32)<<8
		o := raw[4*i : 4*i+32]
		le.PutUint64(o[0:], spread16(abLo)|spread16(cdLo)<<16)
		le.PutUint64(o[8:], spread16(abLo>>32)|spread16(cdLo>>32)<<16)
		le.PutUint64(o[16:], spread16(abHi)|spread16(cdHi)<<16)
		le.PutUint64(o[24:], spread16(abHi>>32)|spread16(cdHi>>32)<<16)
	}
	for ; i < n; i++ {
		v := uint32(s0[i]) | uint32(s1[i])<<8 | uint32(s2[i])<<16 | uint32(s3[i])<<24
		le.PutUint32(raw[4*i:], v)
	}
}

// spread8 moves the 4 low bytes of x into the low bytes of four 16-bit
// lanes.
func spread8(x uint64) uint64 {
	x &= 0xFFFFFFFF
	x = (x | x<<16) & 0x0000FFFF0000FFFF
	return (x | x<<8) & 0x00FF00FF00FF00FF
}

// spread16 moves the 2 low 16-bit halves of x into two 32-bit lanes.
func spread16(x uint64) uint64 {
	x &= 0xFFFFFFFF
	return (x | x<<16) & 0x0000FFFF0000FFFF
}

// transpose8x8 transposes the 8x8 byte matrix whose row k is the little
// endian word rk (byte j of rk is element (k, j)), by swapping 1-, 2- and
// then 4-byte blocks.
func transpose8x8(r0, r1, r2, r3, r4, r5, r6, r7 uint64) (uint64, uint64, uint64, uint64, uint64, uint64, uint64, uint64) {
	const m1, m2, m4 = 0x00FF00FF00FF00FF, 0x0000FFFF0000FFFF, 0x00000000FFFFFFFF
	t := (r0>>8 ^ r1) & m1
	r1, r0 = r1^t, r0^t<<8
	t = (r2>>8 ^ r3) & m1
	r3, r2 = r3^t, r2^t<<8
	t = (r4>>8 ^ r5) & m1
	r5, r4 = r5^t, r4^t<<8
	t = (r6>>8 ^ r7) & m1
	r7, r6 = r7^t, r6^t<<8
	t = (r0>>16 ^ r2) & m2
	r2, r0 = r2^t, r0^t<<16
	t = (r1>>16 ^ r3) & m2
	r3, r1 = r3^t, r1^t<<16
	t = (r4>>16 ^ r6) & m2
	r6, r4 = r6^t, r4^t<<16
	t = (r5>>16 ^ r7) & m2
	r7, r5 = r7^t, r5^t<<16
	t = (r0>>32 ^ r4) & m4
	r4, r0 = r4^t, r0^t<<32
	t = (r1>>32 ^ r5) & m4
	r5, r1 = r5^t, r1^t<<32
	t = (r2>>32 ^ r6) & m4
	r6, r2 = r6^t, r2^t<<32
	t = (r3>>32 ^ r7) & m4
	r7, r3 = r7^t, r3^t<<32
	return r0, r1, r2, r3, r4, r5, r6, r7
}

// bss8 converts between n 8-byte values (vals, little endian) and their 8
// byte streams (streams) in blocks of 8x8 bytes, which are transposes of
// each other; toVals selects the direction.
func bss8(streams, vals []byte, n int, toVals bool) {
	le := binary.LittleEndian
	s := [8][]byte{}
	for k := range s {
		s[k] = streams[k*n : (k+1)*n]
	}
	i := 0
	for ; i+8 <= n; i += 8 {
		v := vals[8*i : 8*i+64]
		if toVals {
			r0, r1, r2, r3, r4, r5, r6, r7 := transpose8x8(le.Uint64(s[0][i:]), le.Uint64(s[1][i:]), le.Uint64(s[2][i:]), le.Uint64(s[3][i:]),
				le.Uint64(s[4][i:]), le.Uint64(s[5][i:]), le.Uint64(s[6][i:]), le.Uint64(s[7][i:]))
			le.PutUint64(v[0:], r0)
			le.PutUint64(v[8:], r1)
			le.PutUint64(v[16:], r2)
			le.PutUint64(v[24:], r3)
			le.PutUint64(v[32:], r4)
			le.PutUint64(v[40:], r5)
			le.PutUint64(v[48:], r6)
			le.PutUint64(v[56:], r7)
			continue
		}
		r0, r1, r2, r3, r4, r5, r6, r7 := transpose8x8(le.Uint64(v[0:]), le.Uint64(v[8:]), le.Uint64(v[16:]), le.Uint64(v[24:]),
			le.Uint64(v[32:]), le.Uint64(v[40:]), le.Uint64(v[48:]), le.Uint64(v[56:]))
		le.PutUint64(s[0][i:], r0)
		le.PutUint64(s[1][i:], r1)
		le.PutUint64(s[2][i:], r2)
		le.PutUint64(s[3][i:], r3)
		le.PutUint64(s[4][i:], r4)
		le.PutUint64(s[5][i:], r5)
		le.PutUint64(s[6][i:], r6)
		le.PutUint64(s[7][i:], r7)
	}
	for ; i < n; i++ {
		for k := range 8 {
			if toVals {
				vals[8*i+k] = s[k][i]
			} else {
				s[k][i] = vals[8*i+k]
			}
		}
	}
}

// decodeBSS8 is decodeBSS4 for 8-byte values.
func decodeBSS8(raw, src []byte) {
	bss8(src, raw, len(src)/8, true)
}

// decodeBSSRef is the plain reference of decodeBSS4/decodeBSS8, and the
// decoder of FIXED_LEN_BYTE_ARRAY values.
func decodeBSSRef(raw, src []byte, size int) {
	n := len(src) / size
	for k := range size {
		for i := range n {
			raw[i*size+k] = src[k*n+i]
		}
	}
}
