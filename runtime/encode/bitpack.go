// Bit packing, least-significant-bit first, as used by the RLE /
// bit-packing hybrid and DELTA_BINARY_PACKED encodings:
// https://parquet.apache.org/docs/file-format/data-pages/encodings/#run-length-encoding--bit-packing-hybrid-rle--3
//
// The fast paths call the width-specialised kernels generated into
// bitpack_kernels.go; refUnpack and refPack are the plain reference
// implementations the kernels are tested against (bitpack_test.go).

package encode

import "encoding/binary"

// refUnpack unpacks len(dst) values of bit width w (0..64), packed LSB
// first starting at bit 0 of src, one bit at a time.
// Precondition: len(src)*8 >= len(dst)*w.
func refUnpack(dst []uint64, src []byte, w int) {
	bit := 0
	for i := range dst {
		var v uint64
		for j := 0; j < w; j++ {
			if src[bit>>3]>>(bit&7)&1 != 0 {
				v |= 1 << j
			}
			bit++
		}
		dst[i] = v
	}
}

// refPack appends the low w bits (0..64) of each value of src to dst,
// packed LSB first, padding the last byte with zero bits.
func refPack(dst []byte, src []uint64, w int) []byte {
	nbytes := (len(src)*w + 7) / 8
	start := len(dst)
	for i := 0; i < nbytes; i++ {
		dst = append(dst, 0)
	}
	out := dst[start:]
	bit := 0
	for _, v := range src {
		for j := 0; j < w; j++ {
			if v>>j&1 != 0 {
				out[bit>>3] |= 1 << (bit & 7)
			}
			bit++
		}
	}
	return dst
}

// packedLen returns the number of bytes holding n values of width w.
func packedLen(n, w int) int { return (n*w + 7) / 8 }

// unpack8 unpacks len(dst) values of bit width w (0..8) from src.
// Preconditions: 0 <= w <= 8 and len(src) >= packedLen(len(dst), w).
func unpack8(dst []uint8, src []byte, w int) {
	if w == 0 {
		clear(dst)
		return
	}
	done := unpack8Kernels(w, dst, src)
	dst, src = dst[done:], src[done*w/8:]
	// Remaining groups of 8 values (w bytes each) while 8 bytes can be
	// loaded, with the same spreading as the kernels: short bit-packed runs
	// between RLE runs of levels are common, and the padded copy below
	// costs two 64-byte copies per run.
	u := uint(w) & 7
	m1 := uint64(1)<<(4*u) - 1
	m2 := (uint64(1)<<(2*u) - 1) * (1 | 1<<32)
	m3 := (uint64(1)<<u - 1) * 0x0001000100010001
	for len(dst) >= 8 && len(src) >= 8 {
		x := binary.LittleEndian.Uint64(src)
		if w < 8 {
			x = x&m1 | (x>>(4*u&63)&m1)<<32
			x = x&m2 | (x>>(2*u&63)&m2)<<16
			x = x&m3 | (x>>(u&63)&m3)<<8
		}
		binary.LittleEndian.PutUint64(dst, x)
		dst, src = dst[8:], src[w:]
	}
	if len(dst) == 0 {
		return
	}
	// The end of the input: run the kernel on a zero-padded copy.
	var in [72]byte
	var out [64]uint8
	copy(in[:], src)
	unpack8Kernels(w, out[:], in[:])
	copy(dst, out[:])
}

// unpack32 unpacks len(dst) values of bit width w (0..32) from src.
// Preconditions: 0 <= w <= 32 and len(src) >= packedLen(len(dst), w).
//
// Lookup tables for widths 1, 2 and 4 and plain byte loads for 8 and 16
// were tried instead of the kernels and were slower at most widths, so
// only the kernels remain.
func unpack32(dst []uint32, src []byte, w int) {
	if w == 0 {
		clear(dst)
		return
	}
	done := unpack32Kernels(w, dst, src)
	if done == len(dst) {
		return
	}
	var in [128]byte
	var out [32]uint32
	copy(in[:], src[done*w/8:])
	unpack32Kernels(w, out[:], in[:])
	copy(dst[done:], out[:])
}

// unpack64 unpacks len(dst) values of bit width w (0..64) from src.
// Preconditions: 0 <= w <= 64 and len(src) >= packedLen(len(dst), w).
func unpack64(dst []uint64, src []byte, w int) {
	if w == 0 {
		clear(dst)
		return
	}
	done := unpack64Kernels(w, dst, src)
	if done == len(dst) {
		return
	}
	var in [256]byte
	var out [32]uint64
	copy(in[:], src[done*w/8:])
	unpack64Kernels(w, out[:], in[:])
	copy(dst[done:], out[:])
}

// appendPack32 appends the w bits (0..32) of each value of src, packed LSB
// first, padding the last byte with zeros, with the packSub32 kernels (min
// 0). Precondition: every value fits in w bits (it is not masked).
func appendPack32(dst []byte, src []uint32, w int) []byte {
	if w == 0 {
		return dst
	}
	n := packedLen(len(src), w)
	dst = grow(dst, n)
	out := dst[len(dst) : len(dst)+n]
	for len(src) >= 32 {
		packSub32Kernels(w, out, src, 0)
		out = out[4*w:]
		src = src[32:]
	}
	if len(src) > 0 {
		var in [32]uint32
		var tmp [128]byte
		copy(in[:], src)
		packSub32Kernels(w, tmp[:], in[:], 0)
		copy(out, tmp[:])
	}
	return dst[:len(dst)+n]
}

// appendPack64 appends the w bits (0..64) of each value of src, packed LSB
// first, padding the last byte with zeros, with the packSub64 kernels (min
// 0). Precondition: every value fits in w bits (it is not masked).
func appendPack64(dst []byte, src []uint64, w int) []byte {
	if w == 0 {
		return dst
	}
	n := packedLen(len(src), w)
	dst = grow(dst, n)
	out := dst[len(dst) : len(dst)+n]
	for len(src) >= 32 {
		packSub64Kernels(w, out, src, 0)
		out = out[4*w:]
		src = src[32:]
	}
	if len(src) > 0 {
		var in [32]uint64
		var tmp [256]byte
		copy(in[:], src)
		packSub64Kernels(w, tmp[:], in[:], 0)
		copy(out, tmp[:])
	}
	return dst[:len(dst)+n]
}

// grow returns dst with capacity for at least n more bytes.
func grow(dst []byte, n int) []byte {
	if cap(dst)-len(dst) >= n {
		return dst
	}
	return append(dst[:cap(dst)], make([]byte, n+len(dst)-cap(dst))...)[:len(dst)]
}

// growSlice returns s with capacity for at least n more elements.
func growSlice[T any](s []T, n int) []T {
	if cap(s)-len(s) >= n {
		return s
	}
	ns := make([]T, len(s), max(len(s)+n, 2*cap(s)))
	copy(ns, s)
	return ns
}

// unpackLevels is unpack8 for the RLE / bit-packed hybrid of levels: the
// BMI2 kernel (bitpack_amd64.s) takes the whole groups it can, unpack8 the
// rest. Preconditions as unpack8.
func unpackLevels(dst []uint8, src []byte, w int) {
	if k := unpackLevelsFast(dst, src, w); k > 0 {
		dst, src = dst[k:], src[k/8*w:]
		if len(dst) == 0 {
			return
		}
	}
	unpack8(dst, src, w)
}

// unpackIndices is unpack32 for the RLE / bit-packed hybrid of dictionary
// indices, with the BMI2 kernels for widths up to 16.
func unpackIndices(dst []uint32, src []byte, w int) {
	if k := unpackIndicesFast(dst, src, w); k > 0 {
		dst, src = dst[k:], src[k/8*w:]
		if len(dst) == 0 {
			return
		}
	}
	unpack32(dst, src, w)
}
