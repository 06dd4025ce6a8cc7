package runtime

import "math"

// FLOAT16 columns (FIXED_LEN_BYTE_ARRAY(2) holding IEEE 754 binary16 values,
// little endian) are float32 fields in generated code. Every binary16 value
// is exactly a float32, so reading is exact; writing rounds as IEEE 754
// does by default:
//
//   - to the nearest binary16 value, ties to the one with an even
//     significand;
//   - magnitudes of 65520 and above (the midpoint between the largest finite
//     binary16, 65504, and 65536) become ±Inf (no clamping to ±65504);
//   - magnitudes below 2⁻²⁵ (half the smallest subnormal) become a zero
//     of the same sign, and values between go to the subnormals;
//   - ±Inf stay ±Inf, and a NaN stays a NaN of the same sign: quiet, with
//     the top 9 bits of the float32 payload.
//
// A [2]byte field with the float16 tag reads and writes the raw bits.

// Float16ToFloat32 returns the value of the binary16 bits h as a float32,
// exactly (signed zeros, subnormals, ±Inf; a NaN keeps its sign and
// payload, shifted into the float32's top payload bits).
func Float16ToFloat32(h uint16) float32 {
	sign := uint32(h&0x8000) << 16
	exp := uint32(h>>10) & 0x1f
	mant := uint32(h & 0x3ff)
	switch {
	case exp == 0x1f:
		// ±Inf or NaN.
		return math.Float32frombits(sign | 0x7f800000 | mant<<13)
	case exp == 0 && mant == 0:
		return math.Float32frombits(sign)
	case exp == 0:
		// A subnormal: mant × 2⁻²⁴. Normalise it for float32.
		e := uint32(127 - 15 + 1)
		for mant&0x400 == 0 {
			mant <<= 1
			e--
		}
		return math.Float32frombits(sign | e<<23 | (mant&0x3ff)<<13)
	}
	return math.Float32frombits(sign | (exp+127-15)<<23 | mant<<13)
}

// Float32ToFloat16 rounds f to the nearest binary16 value, ties to even,
// and returns its bits; see the rules above (overflow to ±Inf, NaN kept).
func Float32ToFloat16(f float32) uint16 {
	b := math.Float32bits(f)
	sign := uint16(b>>16) & 0x8000
	exp := int(b>>23) & 0xff
	mant := b & 0x7fffff
	if exp == 0xff {
		if mant != 0 {
			// NaN: quiet, with the payload's top bits.
			return sign | 0x7e00 | uint16(mant>>13)
		}
		return sign | 0x7c00
	}
	e := exp - 127 + 15 // the binary16 biased exponent
	if e >= 0x1f {
		return sign | 0x7c00
	}
	if e >= 1 {
		// Normal: keep 10 of the 23 significand bits and round on the
		// 13 dropped ones; a carry moves into the exponent (up to Inf).
		h := uint16(e)<<10 | uint16(mant>>13)
		rest := mant & 0x1fff
		if rest > 0x1000 || rest == 0x1000 && h&1 == 1 {
			h++
		}
		return sign | h
	}
	if exp == 0 {
		// float32 subnormals are far below binary16's smallest subnormal.
		return sign
	}
	// A binary16 subnormal (or zero): the value in units of 2⁻²⁴ is the
	// full significand shifted right by 126-exp (at least 14).
	full := mant | 0x800000
	shift := uint(126 - exp)
	if shift > 24 {
		return sign // below half the smallest subnormal
	}
	h := uint16(full >> shift)
	rest := full & (1<<shift - 1)
	half := uint32(1) << (shift - 1)
	if rest > half || rest == half && h&1 == 1 {
		h++ // may carry into the smallest normal, which is right
	}
	return sign | h
}

// AppendFloat16 appends f rounded to binary16 (Float32ToFloat16) to dst as
// the two little-endian bytes of a FLOAT16 value.
func AppendFloat16(dst []byte, f float32) []byte {
	h := Float32ToFloat16(f)
	return append(dst, byte(h), byte(h>>8))
}

// Float16At returns the FLOAT16 value i of vals, the little-endian values
// of a FIXED_LEN_BYTE_ARRAY(2) column, as a float32 (exact).
func Float16At(vals []byte, i int) float32 {
	return Float16ToFloat32(uint16(vals[2*i]) | uint16(vals[2*i+1])<<8)
}
