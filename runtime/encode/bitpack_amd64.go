//go:build amd64 && !purego

// The amd64 kernels of bitpack_amd64.s: BMI2 (PDEP/PEXT) packing and
// unpacking for the RLE / bit-packing hybrid of levels and dictionary
// indices and for DELTA_BINARY_PACKED miniblocks, AVX2 unpacking of
// dictionary indices, SSE4.1 deltas for DELTA_BINARY_PACKED and SSE2
// BYTE_STREAM_SPLIT decoding. Each has a plain twin (the generated
// kernels, refUnpack/refPack, decodeBSSRef and the *Go functions) and a
// differential test (bitpack_bmi2_test.go); bitpack_other.go holds the
// stubs used on other architectures and with the purego build tag.

package encode

// x86HasBMI2 and x86HasSSE41 report the CPU features the kernels need.
var x86HasBMI2, x86HasSSE41 = cpuFeatures()

// useBMI2 selects the BMI2 kernels; tests turn it off to exercise the
// pure-Go paths on machines that have BMI2. AMD processors before Zen 3
// (family 0x19) run PDEP and PEXT in microcode, tens of cycles each
// instead of one, which would make these kernels slower than the generated
// Go ones: they keep the Go kernels.
var useBMI2 = x86HasBMI2 && x86HasSSE41 && fastPDEP(cpuVendorFamily())

// cpuVendorFamily returns CPUID.0:EBX (the first four bytes of the vendor
// string) and CPUID.1:EAX (the processor signature).
func cpuVendorFamily() (vendor, sig uint32)

// fastPDEP reports whether PDEP/PEXT are single-cycle instructions on the
// processor of the given vendor word and signature: everywhere but on AMD
// families below 0x19.
func fastPDEP(vendor, sig uint32) bool {
	const amd = 0x68747541 // "Auth" of "AuthenticAMD"
	if vendor != amd {
		return true
	}
	family := sig >> 8 & 0xf
	if family == 0xf {
		family += sig >> 20 & 0xff
	}
	return family >= 0x19
}

// cpuFeatures reports BMI2 (CPUID.7.0:EBX bit 8) and SSE4.1 (CPUID.1:ECX
// bit 19).
func cpuFeatures() (bmi2, sse41 bool)

// unpack8BMI2 unpacks groups groups of 8 values of width w (1..7): group
// g is the 8 bytes at src+g*w deposited with mask into 8 bytes at
// dst+8g. It reads 8 bytes per group, so src must hold (groups-1)*w+8.
//
//go:noescape
func unpack8BMI2(dst, src *byte, groups, w int, mask uint64)

// pack8BMI2 is the inverse of unpack8BMI2: the 8 bytes at src+8g are
// extracted with mask and stored as 8 bytes at dst+g*w, so dst must hold
// (groups-1)*w+8 bytes.
//
//go:noescape
func pack8BMI2(dst, src *byte, groups, w int, mask uint64)

// unpack32x8BMI2 unpacks groups groups of 8 values of width w (1..8) into
// uint32s: the 8 bytes at src+g*w are deposited with mask into 8 bytes
// and widened. src must hold (groups-1)*w+8 bytes.
//
//go:noescape
func unpack32x8BMI2(dst *uint32, src *byte, groups, w int, mask uint64)

// unpack32x16BMI2 unpacks groups groups of 8 values of width w (9..16)
// into uint32s: each half of 4 values is deposited with mask into 16-bit
// lanes and widened. src must hold (groups-1)*w+16 bytes.
//
//go:noescape
func unpack32x16BMI2(dst *uint32, src *byte, groups, w int, mask uint64)

// unpackLevelsFast unpacks the leading whole groups of 8 values of width
// w from src into dst with the BMI2 kernel while 8 bytes can be loaded
// per group, and returns the number of values written (a multiple of 8;
// 0 when the kernel does not apply).
//
// It is two to three times as fast as the SWAR kernels of
// bitpack_kernels.go at widths 1-5 (BenchmarkDecodeRLELevels).
func unpackLevelsFast(dst []uint8, src []byte, w int) int {
	if !useBMI2 || w < 1 || w > 7 || len(src) < 8 {
		return 0
	}
	g := min(len(dst)/8, (len(src)-8)/w+1)
	if g == 0 {
		return 0
	}
	unpack8BMI2(&dst[0], &src[0], g, w, uint64(1<<w-1)*0x0101010101010101)
	return 8 * g
}

// packLevelsFast packs the leading whole groups of 8 levels of src into
// out with the BMI2 kernel while 8 bytes can be stored per group, and
// returns the number of values consumed (a multiple of 8; 0 when the
// kernel does not apply).
func packLevelsFast(out []byte, src []uint8, w int) int {
	if !useBMI2 || w < 1 || w > 7 || len(out) < 8 {
		return 0
	}
	g := min(len(src)/8, (len(out)-8)/w+1)
	if g == 0 {
		return 0
	}
	pack8BMI2(&out[0], &src[0], g, w, uint64(1<<w-1)*0x0101010101010101)
	return 8 * g
}

// unpack32x32BMI2 unpacks groups groups of 8 values of width w (17..29)
// into uint32s, two values per PDEP. src must hold groups*w+8 bytes.
//
//go:noescape
func unpack32x32BMI2(dst *uint32, src *byte, groups, w int, mask uint64)

// unpackIndicesFast is unpackLevelsFast for uint32 values of width 1..29.
//
// The BMI2 kernels are faster than the generated ones at widths 1-16,
// and the PDEP pairs at widths above (BenchmarkDecodeRLEInt32).
func unpackIndicesFast(dst []uint32, src []byte, w int) int {
	if useAVX2 && w >= 1 && w <= 25 && len(src) >= 32 {
		// AVX2 beats BMI2 where both apply, most at widths 9-24.
		if g := min(len(dst)/8, (len(src)-32)/w+1); g > 0 {
			unpack32AVX2(&dst[0], &src[0], g, w, &avx2Tables[w])
			return 8 * g
		}
	}
	if !useBMI2 || w < 1 || w > 29 || len(src) < 16 {
		return 0
	}
	if w > 16 {
		g := min(len(dst)/8, (len(src)-8)/w)
		if g == 0 {
			return 0
		}
		m := uint64(1)<<w - 1
		unpack32x32BMI2(&dst[0], &src[0], g, w, m|m<<32)
		return 8 * g
	}
	g := min(len(dst)/8, (len(src)-16)/w+1)
	if g == 0 {
		return 0
	}
	if w <= 8 {
		unpack32x8BMI2(&dst[0], &src[0], g, w, uint64(1<<w-1)*0x0101010101010101)
	} else {
		unpack32x16BMI2(&dst[0], &src[0], g, w, uint64(1<<w-1)*0x0001000100010001)
	}
	return 8 * g
}

// useSSE2 selects the SSE2 kernel of BYTE_STREAM_SPLIT (SSE2 is part of
// every amd64 CPU); tests turn it off to exercise the pure-Go path.
var useSSE2 = true

// decodeBSS4SSE2 interleaves blocks blocks of 16 values from the 4 byte
// streams of n values each at src into raw.
//
//go:noescape
func decodeBSS4SSE2(raw, src *byte, n, blocks int)

// decodeBSS4Fast decodes the leading whole blocks of 16 4-byte values of
// the BYTE_STREAM_SPLIT data src (4 streams of len(src)/4 bytes) into raw
// and returns the number of values written.
//
// The 8x8 transpose of decodeBSS4 in Go was several times slower
// (BenchmarkDecodeByteStreamSplitFloat).
func decodeBSS4Fast(raw, src []byte) int {
	n := len(src) / 4
	if !useSSE2 || n < 16 || len(raw) < 4*n {
		return 0
	}
	decodeBSS4SSE2(&raw[0], &src[0], n, n/16)
	return n / 16 * 16
}

// useSSE41 selects deltaMinMax32SSE41 and deltaBlock32SSE41; tests turn
// it off to exercise their pure-Go twins (in appendDeltaBlock32,
// deltaBlock32Go and delta2Block32Go).
var useSSE41 = x86HasSSE41

// deltaMinMax32SSE41 computes n (a positive multiple of 4) wrapping deltas
// of src from prev into dst and returns their minimum and maximum as
// int32.
//
//go:noescape
func deltaMinMax32SSE41(dst, src *uint32, n int, prev uint32) (lo, hi int32)

// deltaMinMax32Fast computes the deltas of src from prev into dst (same
// length) with their minimum and maximum as int32, and reports false
// (doing nothing) when the kernel does not apply.
//
// The 4-chain Go loop of appendDeltaBlock32 was most of the encoder's
// time (BenchmarkEncodeDeltaInt32).
func deltaMinMax32Fast(dst, src []uint32, prev uint32) (lo, hi int32, ok bool) {
	if !useSSE41 || len(src) < 4 || len(src)%4 != 0 || len(dst) < len(src) {
		return 0, 0, false
	}
	lo, hi = deltaMinMax32SSE41(&dst[0], &src[0], len(src), prev)
	return lo, hi, true
}

// useAVX2 selects unpack32AVX2 for dictionary indices; tests turn it off
// to exercise the BMI2 kernels and the pure-Go paths.
var useAVX2 = cpuAVX2()

// cpuAVX2 reports AVX2 with the OS saving the YMM registers.
func cpuAVX2() bool

// avx2Table is the per-width shuffle, shift and mask of unpack32AVX2.
type avx2Table struct {
	shuf  [32]byte
	shift [8]uint32
	mask  [8]uint32
}

// avx2Tables holds the tables of widths 1..25 (index w).
var avx2Tables = func() (t [26]avx2Table) {
	for w := 1; w <= 25; w++ {
		for lane := range 2 {
			base := lane * (4 * w) &^ 7 // the lane's first byte, as a bit
			for j := range 4 {
				bit := (4*lane+j)*w - base
				for b := range 4 {
					t[w].shuf[16*lane+4*j+b] = byte(bit/8 + b)
				}
				t[w].shift[4*lane+j] = uint32(bit % 8)
				t[w].mask[4*lane+j] = 1<<w - 1
			}
		}
	}
	return t
}()

// unpack32AVX2 unpacks groups groups of 8 values of width w (1..25) with
// the table tab. src must hold (groups-1)*w+32 bytes.
//
//go:noescape
func unpack32AVX2(dst *uint32, src *byte, groups, w int, tab *avx2Table)

// deltaBlock32SSE41 is deltaBlock32Go (second false; s points to 129
// values) or delta2Block32Go (second true; s points to 130 values) in
// SSE4.1.
//
//go:noescape
func deltaBlock32SSE41(d *[DeltaBlockSize]uint32, s *uint32, maxs *[DeltaMiniBlocks]int32, second bool) (lo int32)

// deltaBlock32 is deltaBlock32Go, with the SSE4.1 kernel when available.
func deltaBlock32(d *[DeltaBlockSize]uint32, s *[DeltaBlockSize + 1]uint32, maxs *[DeltaMiniBlocks]int32) int32 {
	if useSSE41 {
		return deltaBlock32SSE41(d, &s[0], maxs, false)
	}
	return deltaBlock32Go(d, s, maxs)
}

// delta2Block32 is delta2Block32Go, with the SSE4.1 kernel when
// available.
func delta2Block32(d *[DeltaBlockSize]uint32, s *[DeltaBlockSize + 2]uint32, maxs *[DeltaMiniBlocks]int32) int32 {
	if useSSE41 {
		return deltaBlock32SSE41(d, &s[0], maxs, true)
	}
	return delta2Block32Go(d, s, maxs)
}

// packSub32x8BMI2 packs the 32 values src[i]-m (each below 1<<w) at width
// w (1..8) into dst, writing 3w+8 bytes (4w of them the packed values).
//
//go:noescape
func packSub32x8BMI2(dst *byte, src *uint32, w int, m uint32, mask uint64)

// packSub32x16BMI2 packs the 32 values src[i]-m (each below 1<<w) at
// width w (9..15) into dst, writing 3w+16 bytes (4w of them the packed
// values).
//
//go:noescape
func packSub32x16BMI2(dst *byte, src *uint32, w int, m uint32, mask uint64)

// packSub32Fast is packSub32Kernels for one miniblock of 32 values with
// the BMI2 kernels (widths 1..15), and reports false (doing nothing) when
// they do not apply. Preconditions: src[i]-m < 1<<w for every i; bytes
// past the 4w packed ones, up to 3w+16, may be overwritten (the kernels
// are not used when len(dst) < 3w+16).
//
// The byte and 16-bit kernels speed up the narrow widths that lengths of
// strings and small deltas take (peers/encode's EncodeDeltaLengthByteArray
// and EncodeDeltaInt32).
func packSub32Fast(dst []byte, src *[32]uint32, w int, m uint32) bool {
	if !useBMI2 || w < 1 || w > 15 || len(dst) < 3*w+16 {
		return false
	}
	if w <= 8 {
		packSub32x8BMI2(&dst[0], &src[0], w, m, uint64(1<<w-1)*0x0101010101010101)
	} else {
		packSub32x16BMI2(&dst[0], &src[0], w, m, uint64(1<<w-1)*0x0001000100010001)
	}
	return true
}
