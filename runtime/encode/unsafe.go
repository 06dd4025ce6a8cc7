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

// as32 reinterprets s as a slice of another 32-bit number type, the
// values' bit patterns unchanged (same size and alignment), keeping its
// capacity; as64 does the same for 64-bit types.
func as32[U, T int32 | uint32 | float32](s []T) []U {
	return unsafe.Slice((*U)(unsafe.Pointer(unsafe.SliceData(s))), cap(s))[:len(s)]
}

func as64[U, T int64 | uint64 | float64](s []T) []U {
	return unsafe.Slice((*U)(unsafe.Pointer(unsafe.SliceData(s))), cap(s))[:len(s)]
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
