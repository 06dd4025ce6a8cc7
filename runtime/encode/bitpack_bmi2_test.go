package encode

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// withBMI2 runs f with the amd64 kernels of bitpack_amd64.s all off
// ("go"), with the BMI2 kernels only ("bmi2") and with the AVX2 kernel
// too ("avx2"), as far as the CPU has them, so that every kernel and its
// pure-Go twin are exercised.
func withBMI2(t *testing.T, f func(t *testing.T)) {
	t.Helper()
	savedB, savedA := useBMI2, useAVX2
	defer func() { useBMI2, useAVX2 = savedB, savedA }()
	for _, m := range []struct {
		name       string
		bmi2, avx2 bool
	}{{"go", false, false}, {"bmi2", true, false}, {"avx2", true, true}} {
		if (m.bmi2 && !savedB) || (m.avx2 && !savedA) {
			t.Logf("%s kernels not available on this machine or build", m.name)
			continue
		}
		useBMI2, useAVX2 = m.bmi2, m.avx2
		t.Run(m.name, f)
	}
}

// TestFastKernelsDifferential checks the BMI2 kernels against refUnpack
// and refPack for every width they take, lengths around the group and
// unroll boundaries, misaligned starts and inputs that end exactly where
// the values do (so the kernels must stop early), and that they never
// write outside the values they report.
func TestFastKernelsDifferential(t *testing.T) {
	if !useBMI2 {
		t.Skip("BMI2 kernels not available on this machine or build")
	}
	withBMI2(t, func(t *testing.T) {
		if useBMI2 {
			fastKernelsDifferential(t)
		}
	})
}

func fastKernelsDifferential(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	lens := []int{0, 1, 7, 8, 9, 15, 16, 17, 24, 31, 32, 33, 40, 63, 64, 65, 100, 255, 256, 1000}
	for w := 1; w <= 32; w++ {
		for _, n := range lens {
			for _, off := range []int{0, 1, 3, 7} {
				for _, slack := range []int{0, 1, 7, 16} {
					vals := randVals(r, n, w)
					packed := append(make([]byte, off), refPack(nil, vals, w)...)
					packed = append(packed, make([]byte, slack)...)
					src := packed[off:]
					// The values occupy packedLen(n, w) bytes; slack bytes
					// after them are random so a kernel that read them into
					// a value would be caught.
					for i := packedLen(n, w); i < len(src); i++ {
						src[i] = byte(r.Uint32())
					}
					want32 := make([]uint32, n)
					for i, v := range vals {
						want32[i] = uint32(v)
					}
					g32 := make([]uint32, n+3)
					for i := range g32 {
						g32[i] = 0xdeadbeef
					}
					k := unpackIndicesFast(g32[:n], src, w)
					if k%8 != 0 || k > n || (k > 0 && (k/8-1)*w+16 > len(src) && k/8*w+8 > len(src)) ||
						(k == 0 && w <= 29 && n >= 8 && len(src) >= 8*w+16) {
						t.Fatalf("unpackIndicesFast w=%d n=%d off=%d slack=%d: %d values", w, n, off, slack, k)
					}
					if !slices.Equal(g32[:k], want32[:k]) {
						t.Fatalf("unpackIndicesFast w=%d n=%d off=%d slack=%d: values differ", w, n, off, slack)
					}
					for i := k; i < len(g32); i++ {
						if g32[i] != 0xdeadbeef {
							t.Fatalf("unpackIndicesFast w=%d n=%d: wrote past value %d", w, n, k)
						}
					}
					g := make([]uint32, n)
					unpackIndices(g, src, w)
					if !slices.Equal(g, want32) {
						t.Fatalf("unpackIndices w=%d n=%d off=%d slack=%d", w, n, off, slack)
					}
					if w > 7 {
						continue
					}
					want8 := make([]uint8, n)
					for i, v := range vals {
						want8[i] = uint8(v)
					}
					g8 := make([]uint8, n+3)
					for i := range g8 {
						g8[i] = 0xee
					}
					k = unpackLevelsFast(g8[:n], src, w)
					if k%8 != 0 || k > n || (k > 0 && (k/8-1)*w+8 > len(src)) {
						t.Fatalf("unpackLevelsFast w=%d n=%d off=%d slack=%d: %d values", w, n, off, slack, k)
					}
					if !slices.Equal(g8[:k], want8[:k]) {
						t.Fatalf("unpackLevelsFast w=%d n=%d off=%d slack=%d: values differ", w, n, off, slack)
					}
					for i := k; i < len(g8); i++ {
						if g8[i] != 0xee {
							t.Fatalf("unpackLevelsFast w=%d n=%d: wrote past value %d", w, n, k)
						}
					}
					l8 := make([]uint8, n)
					unpackLevels(l8, src, w)
					if !slices.Equal(l8, want8) {
						t.Fatalf("unpackLevels w=%d n=%d off=%d slack=%d", w, n, off, slack)
					}
					// Packing: from a misaligned source, into an output
					// with exactly the room the kernel may use.
					in := append(make([]uint8, off), want8...)[off:]
					out := make([]byte, packedLen(n, w)+slack)
					for i := range out {
						out[i] = 0xaa
					}
					k = packLevelsFast(out, in, w)
					if k%8 != 0 || k > n || (k > 0 && (k/8-1)*w+8 > len(out)) {
						t.Fatalf("packLevelsFast w=%d n=%d slack=%d: %d values", w, n, slack, k)
					}
					if !slices.Equal(out[:k/8*w], src[:k/8*w]) {
						t.Fatalf("packLevelsFast w=%d n=%d slack=%d: bytes differ", w, n, slack)
					}
					if p := appendPackLevels(make([]byte, off), want8, w)[off:]; !slices.Equal(p, src[:packedLen(n, w)]) {
						t.Fatalf("appendPackLevels w=%d n=%d off=%d", w, n, off)
					}
				}
			}
		}
	}
}

// TestRLEKernelsAgree decodes and encodes mixed runs and bit-packed
// groups with the BMI2 kernels on and off and compares both with the
// reference decoder and with each other.
func TestRLEKernelsAgree(t *testing.T) {
	withBMI2(t, func(t *testing.T) {
		r := rand.New(rand.NewPCG(9, 10))
		for w := 0; w <= 20; w++ {
			for _, n := range []int{1, 8, 9, 63, 64, 65, 500, 4099} {
				for _, maxRun := range []int{1, 3, 12, 40, 300} {
					vals := make([]int32, n)
					for i := 0; i < n; {
						v := int32(r.Uint64() & (1<<w - 1))
						for j := 1 + r.IntN(maxRun); j > 0 && i < n; j-- {
							vals[i] = v
							i++
						}
					}
					enc := AppendRLEInt32(nil, vals, w)
					ref, err := refDecodeRLE(enc, w, n)
					if err != nil {
						t.Fatal(err)
					}
					got, k, err := DecodeRLEInt32(nil, enc, w, n)
					if err != nil || k != len(enc) {
						t.Fatalf("int32 w=%d n=%d: %v %d/%d", w, n, err, k, len(enc))
					}
					for i := range got {
						if uint64(uint32(got[i])) != ref[i] || got[i] != vals[i] {
							t.Fatalf("int32 w=%d n=%d: value %d", w, n, i)
						}
					}
					if w > 8 {
						continue
					}
					lv := make([]uint8, n)
					for i := range lv {
						lv[i] = uint8(vals[i])
					}
					enc8 := AppendRLELevels(nil, lv, w)
					if !slices.Equal(enc8, enc) {
						t.Fatalf("levels w=%d n=%d: encoding differs from int32's", w, n)
					}
					g8, k, err := DecodeRLELevels(nil, enc8, w, n)
					if err != nil || k != len(enc8) || !slices.Equal(g8, lv) {
						t.Fatalf("levels w=%d n=%d: %v", w, n, err)
					}
				}
			}
		}
	})
}

// TestBSS4KernelDifferential checks decodeBSS4 (with the SSE2 kernel on
// and off) against decodeBSSRef for lengths around the 16-value blocks
// and misaligned input and output.
func TestBSS4KernelDifferential(t *testing.T) {
	saved := useSSE2
	defer func() { useSSE2 = saved }()
	r := rand.New(rand.NewPCG(11, 12))
	for _, on := range []bool{false, true} {
		if on && !saved {
			t.Log("SSE2 kernel not built")
			continue
		}
		useSSE2 = on
		for _, n := range []int{0, 1, 15, 16, 17, 31, 32, 33, 47, 48, 100, 1000, 1029} {
			for _, off := range []int{0, 1, 3} {
				src := make([]byte, off+4*n)
				for i := range src {
					src[i] = byte(r.Uint32())
				}
				want := make([]byte, 4*n)
				decodeBSSRef(want, src[off:], 4)
				got := make([]byte, off+4*n+4)
				for i := range got {
					got[i] = 0x5a
				}
				decodeBSS4(got[off:off+4*n], src[off:])
				if !slices.Equal(got[off:off+4*n], want) {
					t.Fatalf("sse2=%v n=%d off=%d: values differ", on, n, off)
				}
				for i := off + 4*n; i < len(got); i++ {
					if got[i] != 0x5a {
						t.Fatalf("sse2=%v n=%d off=%d: wrote past the values", on, n, off)
					}
				}
			}
		}
	}
}

// genDeltaValues returns n values of a kind: 0 random, 1 small signed, 2
// extremes (wrapping deltas), 3 rising like the offsets of short values.
func genDeltaValues(r *rand.Rand, n, kind int) []uint32 {
	v := make([]uint32, n)
	for i := range v {
		switch kind {
		case 0:
			v[i] = r.Uint32()
		case 1:
			v[i] = uint32(int32(r.IntN(200) - 100))
		case 2:
			v[i] = []uint32{0, 1, 0x7fffffff, 0x80000000, 0xffffffff}[r.IntN(5)]
		default:
			v[i] = uint32(i*17 + r.IntN(5))
		}
	}
	return v
}

// TestDeltaMinMaxKernel checks deltaMinMax32Fast against a plain loop
// (wrapping deltas, extreme values) and that AppendDeltaInt32 and
// AppendDeltaLengthByteArray write the same bytes with the kernel on and
// off.
func TestDeltaMinMaxKernel(t *testing.T) {
	saved := useSSE41
	defer func() { useSSE41 = saved }()
	if !saved {
		t.Skip("SSE4.1 kernel not available on this machine or build")
	}
	r := rand.New(rand.NewPCG(13, 14))
	gen := func(n, kind int) []uint32 { return genDeltaValues(r, n, kind) }
	for _, n := range []int{4, 8, 12, 32, 36, 128} {
		for kind := range 3 {
			src := gen(n+1, kind)
			prev, v := src[0], src[1:]
			got := make([]uint32, n+1)
			got[n] = 0xdeadbeef
			lo, hi, ok := deltaMinMax32Fast(got[:n], v, prev)
			if !ok {
				t.Fatalf("n=%d: kernel declined", n)
			}
			wlo, whi := int32(0x7fffffff), int32(-0x80000000)
			p := prev
			for i, x := range v {
				d := x - p
				p = x
				if got[i] != d {
					t.Fatalf("n=%d kind=%d: delta %d = %d, want %d", n, kind, i, got[i], d)
				}
				wlo, whi = min(wlo, int32(d)), max(whi, int32(d))
			}
			if lo != wlo || hi != whi || got[n] != 0xdeadbeef {
				t.Fatalf("n=%d kind=%d: min/max %d/%d, want %d/%d", n, kind, lo, hi, wlo, whi)
			}
		}
	}
	if _, _, ok := deltaMinMax32Fast(make([]uint32, 6), make([]uint32, 6), 0); ok {
		t.Fatal("kernel accepted a length that is not a multiple of 4")
	}
	for _, n := range []int{0, 1, 2, 33, 129, 1000, 4097} {
		for kind := range 3 {
			v := gen(n, kind)
			vals := as32[int32](v)
			useSSE41 = false
			want := AppendDeltaInt32(nil, vals)
			useSSE41 = true
			if got := AppendDeltaInt32(nil, vals); !slices.Equal(got, want) {
				t.Fatalf("AppendDeltaInt32 n=%d kind=%d: bytes differ with the kernel", n, kind)
			}
			var ba ByteArrays
			for i := range n {
				ba.AppendString(string(make([]byte, int(v[i]%40))))
			}
			useSSE41 = false
			want = AppendDeltaLengthByteArray(nil, ba)
			useSSE41 = true
			if got := AppendDeltaLengthByteArray(nil, ba); !slices.Equal(got, want) {
				t.Fatalf("AppendDeltaLengthByteArray n=%d kind=%d: bytes differ with the kernel", n, kind)
			}
		}
	}
}

// TestDeltaBlockKernel checks deltaBlock32 and delta2Block32 (the SSE4.1
// kernels when available) against their Go twins on wrapping and extreme
// values, and that the full-block path of appendDelta32 and
// AppendDeltaLengthByteArray writes the bytes of the general block path
// (appendDeltaBlock32) with the kernels (SSE4.1 and the BMI2 packing) on
// and off.
func TestDeltaBlockKernel(t *testing.T) {
	saved, savedB := useSSE41, useBMI2
	defer func() { useSSE41, useBMI2 = saved, savedB }()
	r := rand.New(rand.NewPCG(17, 18))
	gen := func(n, kind int) []uint32 { return genDeltaValues(r, n, kind) }
	for _, sse := range []bool{false, saved} {
		useSSE41, useBMI2 = sse, sse && savedB
		for kind := range 4 {
			for range 20 {
				s := gen(DeltaBlockSize+2, kind)
				var d, wd [DeltaBlockSize]uint32
				var maxs, wmaxs [DeltaMiniBlocks]int32
				lo := deltaBlock32(&d, (*[DeltaBlockSize + 1]uint32)(s), &maxs)
				wlo := deltaBlock32Go(&wd, (*[DeltaBlockSize + 1]uint32)(s), &wmaxs)
				if lo != wlo || maxs != wmaxs || d != wd {
					t.Fatalf("sse=%v kind=%d: deltaBlock32 differs from its Go twin", sse, kind)
				}
				checkDeltaBlock(t, "deltaBlock32Go", &wd, &wmaxs, wlo, func(j int) uint32 { return s[j+1] - s[j] })
				lo = delta2Block32(&d, (*[DeltaBlockSize + 2]uint32)(s), &maxs)
				wlo = delta2Block32Go(&wd, (*[DeltaBlockSize + 2]uint32)(s), &wmaxs)
				if lo != wlo || maxs != wmaxs || d != wd {
					t.Fatalf("sse=%v kind=%d: delta2Block32 differs from its Go twin", sse, kind)
				}
				checkDeltaBlock(t, "delta2Block32Go", &wd, &wmaxs, wlo, func(j int) uint32 { return s[j+2] - s[j+1] - (s[j+1] - s[j]) })
			}
			for _, n := range []int{0, 1, 128, 129, 130, 257, 1000, 4097} {
				v := gen(n, kind)
				got := AppendDeltaInt32(nil, as32[int32](v))
				if want := refDeltaBlocks32(v); !slices.Equal(got, want) {
					t.Fatalf("sse=%v kind=%d n=%d: AppendDeltaInt32 differs from the general block path", sse, kind, n)
				}
				var ba ByteArrays
				lens := make([]uint32, n)
				for i := range n {
					lens[i] = v[i] % 40
					ba.AppendString(string(make([]byte, lens[i])))
				}
				want := append(refDeltaBlocks32(lens), ba.Data...)
				if got := AppendDeltaLengthByteArray(nil, ba); !slices.Equal(got, want) {
					t.Fatalf("sse=%v kind=%d n=%d: AppendDeltaLengthByteArray differs from the general block path", sse, kind, n)
				}
			}
		}
	}
}

// checkDeltaBlock checks a Go twin's block against plain loops: d[j] is
// want(j), maxs[g] the maximum of miniblock g and lo the minimum of d,
// both as int32.
func checkDeltaBlock(t *testing.T, name string, d *[DeltaBlockSize]uint32, maxs *[DeltaMiniBlocks]int32, lo int32, want func(int) uint32) {
	t.Helper()
	wlo := int32(math.MaxInt32)
	for g := range maxs {
		m := int32(math.MinInt32)
		for j := 32 * g; j < 32*g+32; j++ {
			if d[j] != want(j) {
				t.Fatalf("%s: delta %d = %d, want %d", name, j, d[j], want(j))
			}
			m, wlo = max(m, int32(d[j])), min(wlo, int32(d[j]))
		}
		if m != maxs[g] {
			t.Fatalf("%s: miniblock %d max %d, want %d", name, g, maxs[g], m)
		}
	}
	if lo != wlo {
		t.Fatalf("%s: min %d, want %d", name, lo, wlo)
	}
}

// TestPackSub32Kernel checks packSub32Fast against packSub32Kernels at
// widths 1..15, with mins that make the values wrap, and that it writes
// nothing past 3w+16 bytes.
func TestPackSub32Kernel(t *testing.T) {
	if !useBMI2 {
		t.Skip("BMI2 kernels not available on this machine or build")
	}
	r := rand.New(rand.NewPCG(19, 20))
	for w := 1; w <= 15; w++ {
		for _, m := range []uint32{0, 1, 0x7fffffff, 0x80000000, 0xfffffffe, r.Uint32()} {
			var src [32]uint32
			for i := range src {
				src[i] = m + r.Uint32()&(1<<w-1)
			}
			src[r.IntN(32)] = m + 1<<w - 1
			want := make([]byte, 4*w)
			packSub32Kernels(w, want, src[:], m)
			got := slices.Repeat([]byte{0xcc}, 3*w+16+16)
			if !packSub32Fast(got[:3*w+16], &src, w, m) {
				t.Fatalf("w=%d: kernel declined", w)
			}
			if !slices.Equal(got[:4*w], want) {
				t.Fatalf("w=%d m=%#x: packed %x, want %x", w, m, got[:4*w], want)
			}
			for _, b := range got[3*w+16:] {
				if b != 0xcc {
					t.Fatalf("w=%d: wrote past 3w+16 bytes", w)
				}
			}
		}
	}
	if packSub32Fast(make([]byte, 18), new([32]uint32), 1, 0) {
		t.Fatal("kernel accepted a destination shorter than 3w+16 bytes")
	}
	if packSub32Fast(make([]byte, 128), new([32]uint32), 16, 0) {
		t.Fatal("kernel accepted width 16")
	}
}

// refDeltaBlocks32 is the default-layout DELTA_BINARY_PACKED encoding of
// v built with appendDeltaBlock32 alone.
func refDeltaBlocks32(v []uint32) []byte {
	var first int64
	if len(v) > 0 {
		first = int64(int32(v[0]))
	}
	dst := appendDeltaHeader(nil, DeltaBlockSize, DeltaMiniBlocks, len(v), first)
	var sc deltaScratch32
	for i := 1; i < len(v); i += DeltaBlockSize {
		k := min(len(v)-i, DeltaBlockSize)
		dst = appendDeltaBlock32(dst, v[i-1], v[i:i+k], DeltaMiniBlocks, DeltaBlockSize/DeltaMiniBlocks, &sc)
	}
	return dst
}

// TestDeltaByteArrayChunkedCopies decodes DELTA_BYTE_ARRAY data whose
// prefixes and suffixes fall on both sides of the 16- and 32-byte limits
// of the chunked copies (and whose last suffixes lack the 32 bytes of
// input slack), into buffers full of stale bytes, and compares with the
// values encoded.
func TestDeltaByteArrayChunkedCopies(t *testing.T) {
	r := rand.New(rand.NewPCG(15, 16))
	for _, maxSuf := range []int{0, 5, 16, 17, 33, 70} {
		for _, n := range []int{1, 2, 31, 300} {
			var in ByteArrays
			prev := []byte{}
			for range n {
				p := r.IntN(len(prev) + 1)
				v := slices.Clone(prev[:p])
				for range r.IntN(maxSuf + 1) {
					v = append(v, byte(r.Uint32()))
				}
				in.Append(v)
				prev = v
			}
			enc := AppendDeltaByteArray(nil, in)
			stale := ByteArrays{Data: slices.Repeat([]byte{0xcc}, 5000), Offsets: make([]uint32, 0, 3*n)}
			got, k, err := DecodeDeltaByteArray(stale, enc)
			if err != nil || k != len(enc) || !equalBA(got, in) {
				t.Fatalf("maxSuf=%d n=%d: %v", maxSuf, n, err)
			}
			got, _, err = DecodeDeltaByteArray(got, enc) // reuse its own buffers
			if err != nil || !equalBA(got, in) {
				t.Fatalf("maxSuf=%d n=%d reused: %v", maxSuf, n, err)
			}
		}
	}
}
