// Zero-copy reinterpretations between slices of identical memory layout,
// used by the PLAIN, RLE / bit-packing hybrid and BYTE_STREAM_SPLIT paths
// (https://parquet.apache.org/docs/file-format/data-pages/encodings/).
// TestUnsafeCastsTwin (bitpack_test.go) checks the reinterpretations, and
// TestPlainRoundTrip and TestBSSRoundTrip (roundtrip_test.go) compare
// their users with the plain twins.

package encode

import (
	"encoding/binary"
	"unsafe"
)

// nativeLittleEndian reports whether the machine stores integers little
// endian, the byte order of every Parquet encoding; the zero-copy PLAIN
// paths are only taken when it holds.
var nativeLittleEndian = binary.NativeEndian.Uint16([]byte{1, 0}) == 1

// int32sAsUint32s reinterprets s (same size and alignment), keeping its
// capacity; the helpers below do the same.
func int32sAsUint32s(s []int32) []uint32 {
	return unsafe.Slice((*uint32)(unsafe.Pointer(unsafe.SliceData(s))), cap(s))[:len(s)]
}

// boolsAsBytes reinterprets s; Go stores false as 0 and true as 1.
func boolsAsBytes(s []bool) []uint8 {
	return unsafe.Slice((*uint8)(unsafe.Pointer(unsafe.SliceData(s))), cap(s))[:len(s)]
}

// bytesAsBools reinterprets s. Precondition: every byte of s is 0 or 1.
func bytesAsBools(s []uint8) []bool {
	return unsafe.Slice((*bool)(unsafe.Pointer(unsafe.SliceData(s))), cap(s))[:len(s)]
}

// asBytes reinterprets a slice of fixed-size numbers as its raw bytes.
func asBytes[T int32 | int64 | uint32 | uint64 | float32 | float64](s []T) []byte {
	var z T
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(s))), len(s)*int(unsafe.Sizeof(z)))
}

// uint32sAsInt32s reinterprets s (same size and alignment).
func uint32sAsInt32s(s []uint32) []int32 {
	return unsafe.Slice((*int32)(unsafe.Pointer(unsafe.SliceData(s))), cap(s))[:len(s)]
}

// uint64sAsInt64s reinterprets s (same size and alignment).
func uint64sAsInt64s(s []uint64) []int64 {
	return unsafe.Slice((*int64)(unsafe.Pointer(unsafe.SliceData(s))), cap(s))[:len(s)]
}

// float32sAsUint32s reinterprets s as the values' bit patterns.
func float32sAsUint32s(s []float32) []uint32 {
	return unsafe.Slice((*uint32)(unsafe.Pointer(unsafe.SliceData(s))), cap(s))[:len(s)]
}

// float64sAsUint64s reinterprets s as the values' bit patterns.
func float64sAsUint64s(s []float64) []uint64 {
	return unsafe.Slice((*uint64)(unsafe.Pointer(unsafe.SliceData(s))), cap(s))[:len(s)]
}

// int64sAsUint64s reinterprets s (same size and alignment).
func int64sAsUint64s(s []int64) []uint64 {
	return unsafe.Slice((*uint64)(unsafe.Pointer(unsafe.SliceData(s))), cap(s))[:len(s)]
}
