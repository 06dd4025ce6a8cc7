//go:build !amd64 || purego

package encode

// useBMI2 is false where the BMI2 kernels of bitpack_amd64.s are not
// built; the stubs below then decline every call.
var useBMI2 = false

// useAVX2 is false where bitpack_amd64.s is not built.
var useAVX2 = false

func unpackLevelsFast(dst []uint8, src []byte, w int) int   { return 0 }
func packLevelsFast(out []byte, src []uint8, w int) int     { return 0 }
func unpackIndicesFast(dst []uint32, src []byte, w int) int { return 0 }

// useSSE2 is false where bitpack_amd64.s is not built.
var useSSE2 = false

func decodeBSS4Fast(raw, src []byte) int { return 0 }

// useSSE41 is false where bitpack_amd64.s is not built.
var useSSE41 = false

func deltaMinMax32Fast(dst, src []uint32, prev uint32) (lo, hi int32, ok bool) {
	return 0, 0, false
}

func deltaBlock32(d *[DeltaBlockSize]uint32, s *[DeltaBlockSize + 1]uint32, maxs *[DeltaMiniBlocks]int32) int32 {
	return deltaBlock32Go(d, s, maxs)
}

func delta2Block32(d *[DeltaBlockSize]uint32, s *[DeltaBlockSize + 2]uint32, maxs *[DeltaMiniBlocks]int32) int32 {
	return delta2Block32Go(d, s, maxs)
}

func packSub32Fast(dst []byte, src *[32]uint32, w int, m uint32) bool { return false }
