// PLAIN encoding (PLAIN = 0) for every physical type:
// https://parquet.apache.org/docs/file-format/data-pages/encodings/#plain-plain--0
//
// Fixed-width values are little endian; on little-endian machines they are
// moved with one copy (unsafe reinterpretation, see unsafe.go) and the
// portable loops below (the *Ref functions) are their twins, compared in
// TestPlainRoundTrip (roundtrip_test.go).

package encode

import (
	"encoding/binary"
	"fmt"
	"math"
)

// Int96 is a PLAIN-encoded INT96 value: 12 bytes, little endian.
type Int96 [12]byte

// AppendPlainBool appends src bit-packed LSB first, padded to whole bytes.
func AppendPlainBool(dst []byte, src []bool) []byte {
	return appendPackLevels(dst, boolsAsBytes(src), 1)
}

// DecodePlainBool decodes n bit-packed booleans from src into dst (reused,
// grown if its capacity is below n); it consumes ceil(n/8) bytes.
func DecodePlainBool(dst []bool, src []byte, n int) ([]bool, int, error) {
	if n < 0 {
		return dst[:0], 0, fmt.Errorf("plain boolean: negative count %d: %w", n, ErrLength)
	}
	nb := (n + 7) / 8
	if len(src) < nb {
		return dst[:0], 0, fmt.Errorf("plain boolean: %d values need %d bytes, have %d: %w", n, nb, len(src), ErrTruncated)
	}
	out := boolsAsBytes(growSlice(dst[:0], n)[:n])
	unpack8(out, src, 1) // width 1: every byte is 0 or 1
	return bytesAsBools(out), nb, nil
}

// AppendPlainInt32 appends src as 4-byte little-endian values.
func AppendPlainInt32(dst []byte, src []int32) []byte {
	if nativeLittleEndian {
		return append(dst, asBytes(src)...)
	}
	return appendPlainInt32Ref(dst, src)
}

// AppendPlainInt64 appends src as 8-byte little-endian values.
func AppendPlainInt64(dst []byte, src []int64) []byte {
	if nativeLittleEndian {
		return append(dst, asBytes(src)...)
	}
	return appendPlainInt64Ref(dst, src)
}

// AppendPlainFloat appends src as 4-byte IEEE 754 little-endian values.
func AppendPlainFloat(dst []byte, src []float32) []byte {
	if nativeLittleEndian {
		return append(dst, asBytes(src)...)
	}
	for _, v := range src {
		dst = binary.LittleEndian.AppendUint32(dst, math.Float32bits(v))
	}
	return dst
}

// AppendPlainDouble appends src as 8-byte IEEE 754 little-endian values.
func AppendPlainDouble(dst []byte, src []float64) []byte {
	if nativeLittleEndian {
		return append(dst, asBytes(src)...)
	}
	for _, v := range src {
		dst = binary.LittleEndian.AppendUint64(dst, math.Float64bits(v))
	}
	return dst
}

// AppendPlainInt96 appends src (12 bytes per value).
func AppendPlainInt96(dst []byte, src []Int96) []byte {
	for i := range src {
		dst = append(dst, src[i][:]...)
	}
	return dst
}

// AppendPlainByteArray appends each value of src as a 4-byte little-endian
// length followed by its bytes.
func AppendPlainByteArray(dst []byte, src ByteArrays) []byte {
	n, total := src.Len(), src.PlainLen()
	dst = grow(dst, total)
	// Writing into the pre-sized tail instead of appending per value:
	// EncodePlainByteArray went from 0.52x parquet-go (wall-clock, loaded
	// machine) to 1.01x (thread CPU time), peers/encode.
	out := dst[len(dst) : len(dst)+total]
	o := 0
	for i := 0; i < n; i++ {
		v := src.Data[src.Offsets[i]:src.Offsets[i+1]]
		binary.LittleEndian.PutUint32(out[o:], uint32(len(v)))
		o += 4 + copy(out[o+4:], v)
	}
	return dst[:len(dst)+total]
}

// AppendPlainFixed appends FIXED_LEN_BYTE_ARRAY values held back to back
// in src (len(src) a multiple of the value size): they are copied as is.
func AppendPlainFixed(dst []byte, src []byte) []byte {
	return append(dst, src...)
}

func plainFixed[T int32 | int64 | float32 | float64](dst []T, src []byte, size int, what string) ([]T, int, error) {
	if len(src)%size != 0 {
		return dst[:0], 0, fmt.Errorf("plain %s: %d bytes is not a multiple of %d: %w", what, len(src), size, ErrCorrupt)
	}
	n := len(src) / size
	dst = growSlice(dst[:0], n)[:n]
	copy(asBytes(dst), src)
	return dst, len(src), nil
}

// DecodePlainInt32 decodes all of src (a multiple of 4 bytes) into dst
// (reused, grown if too short) and returns the values and len(src).
func DecodePlainInt32(dst []int32, src []byte) ([]int32, int, error) {
	if !nativeLittleEndian {
		return decodePlainInt32Ref(dst, src)
	}
	return plainFixed(dst, src, 4, "int32")
}

// DecodePlainInt64 decodes all of src (a multiple of 8 bytes), as
// DecodePlainInt32.
func DecodePlainInt64(dst []int64, src []byte) ([]int64, int, error) {
	if !nativeLittleEndian {
		return decodePlainInt64Ref(dst, src)
	}
	return plainFixed(dst, src, 8, "int64")
}

// DecodePlainFloat decodes all of src (a multiple of 4 bytes), as
// DecodePlainInt32.
func DecodePlainFloat(dst []float32, src []byte) ([]float32, int, error) {
	if !nativeLittleEndian {
		if len(src)%4 != 0 {
			return dst[:0], 0, fmt.Errorf("plain float: %d bytes is not a multiple of 4: %w", len(src), ErrCorrupt)
		}
		dst = dst[:0]
		for i := 0; i < len(src); i += 4 {
			dst = append(dst, math.Float32frombits(binary.LittleEndian.Uint32(src[i:])))
		}
		return dst, len(src), nil
	}
	return plainFixed(dst, src, 4, "float")
}

// DecodePlainDouble decodes all of src (a multiple of 8 bytes), as
// DecodePlainInt32.
func DecodePlainDouble(dst []float64, src []byte) ([]float64, int, error) {
	if !nativeLittleEndian {
		if len(src)%8 != 0 {
			return dst[:0], 0, fmt.Errorf("plain double: %d bytes is not a multiple of 8: %w", len(src), ErrCorrupt)
		}
		dst = dst[:0]
		for i := 0; i < len(src); i += 8 {
			dst = append(dst, math.Float64frombits(binary.LittleEndian.Uint64(src[i:])))
		}
		return dst, len(src), nil
	}
	return plainFixed(dst, src, 8, "double")
}

// DecodePlainInt96 decodes all of src (a multiple of 12 bytes), as
// DecodePlainInt32.
func DecodePlainInt96(dst []Int96, src []byte) ([]Int96, int, error) {
	if len(src)%12 != 0 {
		return dst[:0], 0, fmt.Errorf("plain int96: %d bytes is not a multiple of 12: %w", len(src), ErrCorrupt)
	}
	n := len(src) / 12
	dst = growSlice(dst[:0], n)[:n]
	for i := range dst {
		dst[i] = Int96(src[12*i:])
	}
	return dst, len(src), nil
}

// DecodePlainFixed decodes all of src as FIXED_LEN_BYTE_ARRAY values of
// size bytes (size > 0, len(src) a multiple of size), appending them back
// to back to dst[:0] (reused, grown if too short).
func DecodePlainFixed(dst []byte, src []byte, size int) ([]byte, int, error) {
	if size <= 0 {
		return dst[:0], 0, fmt.Errorf("plain fixed: size %d: %w", size, ErrLength)
	}
	if len(src)%size != 0 {
		return dst[:0], 0, fmt.Errorf("plain fixed: %d bytes is not a multiple of size %d: %w", len(src), size, ErrCorrupt)
	}
	return append(dst[:0], src...), len(src), nil
}

// DecodePlainByteArray decodes all of src as length-prefixed byte arrays
// into dst (its buffers reused, grown if too short; the data is copied,
// dst never aliases src).
func DecodePlainByteArray(dst ByteArrays, src []byte) (ByteArrays, int, error) {
	dst = dst.reset0()
	dst.Data = grow(dst.Data, len(src))
	pos := 0
	for pos < len(src) {
		if len(src)-pos < 4 {
			return dst, pos, fmt.Errorf("plain byte array: length at byte %d: %w", pos, ErrTruncated)
		}
		l := binary.LittleEndian.Uint32(src[pos:])
		pos += 4
		if uint64(l) > uint64(len(src)-pos) {
			return dst, pos - 4, fmt.Errorf("plain byte array: length %d at byte %d exceeds the %d bytes left: %w", l, pos-4, len(src)-pos, ErrLength)
		}
		dst.Data = append(dst.Data, src[pos:pos+int(l)]...)
		dst.Offsets = append(dst.Offsets, uint32(len(dst.Data)))
		pos += int(l)
	}
	return dst, pos, nil
}

func appendPlainInt32Ref(dst []byte, src []int32) []byte {
	for _, v := range src {
		dst = binary.LittleEndian.AppendUint32(dst, uint32(v))
	}
	return dst
}

func appendPlainInt64Ref(dst []byte, src []int64) []byte {
	for _, v := range src {
		dst = binary.LittleEndian.AppendUint64(dst, uint64(v))
	}
	return dst
}

func decodePlainInt32Ref(dst []int32, src []byte) ([]int32, int, error) {
	if len(src)%4 != 0 {
		return dst[:0], 0, fmt.Errorf("plain int32: %d bytes is not a multiple of 4: %w", len(src), ErrCorrupt)
	}
	dst = dst[:0]
	for i := 0; i < len(src); i += 4 {
		dst = append(dst, int32(binary.LittleEndian.Uint32(src[i:])))
	}
	return dst, len(src), nil
}

func decodePlainInt64Ref(dst []int64, src []byte) ([]int64, int, error) {
	if len(src)%8 != 0 {
		return dst[:0], 0, fmt.Errorf("plain int64: %d bytes is not a multiple of 8: %w", len(src), ErrCorrupt)
	}
	dst = dst[:0]
	for i := 0; i < len(src); i += 8 {
		dst = append(dst, int64(binary.LittleEndian.Uint64(src[i:])))
	}
	return dst, len(src), nil
}
