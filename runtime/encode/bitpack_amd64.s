//go:build amd64 && !purego

// BMI2 kernels of the RLE / bit-packing hybrid; see bitpack_amd64.go for
// their contracts and measurements. A group of 8 values of width w is w
// bytes, so one 64-bit load and one PDEP (or PEXT) convert a whole group.

#include "textflag.h"

// func cpuFeatures() (bmi2, sse41 bool)
TEXT ·cpuFeatures(SB), NOSPLIT, $0-2
	MOVB $0, bmi2+0(FP)
	MOVB $0, sse41+1(FP)
	XORL AX, AX
	XORL CX, CX
	CPUID
	MOVL AX, R8
	MOVL $1, AX
	XORL CX, CX
	CPUID
	SHRL $19, CX
	ANDL $1, CX
	MOVB CX, sse41+1(FP)
	CMPL R8, $7
	JB   done
	MOVL $7, AX
	XORL CX, CX
	CPUID
	SHRL $8, BX
	ANDL $1, BX
	MOVB BX, bmi2+0(FP)

done:
	RET

// func unpack8BMI2(dst, src *byte, groups, w int, mask uint64)
TEXT ·unpack8BMI2(SB), NOSPLIT, $0-40
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ groups+16(FP), CX
	MOVQ w+24(FP), DX
	MOVQ mask+32(FP), R8
	LEAQ (DX)(DX*2), R9
	CMPQ CX, $4
	JB   tail

loop4:
	MOVQ  (SI), AX
	MOVQ  (SI)(DX*1), BX
	MOVQ  (SI)(DX*2), R10
	MOVQ  (SI)(R9*1), R11
	PDEPQ R8, AX, AX
	PDEPQ R8, BX, BX
	PDEPQ R8, R10, R10
	PDEPQ R8, R11, R11
	MOVQ  AX, (DI)
	MOVQ  BX, 8(DI)
	MOVQ  R10, 16(DI)
	MOVQ  R11, 24(DI)
	LEAQ  (SI)(DX*4), SI
	ADDQ  $32, DI
	SUBQ  $4, CX
	CMPQ  CX, $4
	JAE   loop4

tail:
	TESTQ CX, CX
	JZ    done

loop1:
	MOVQ  (SI), AX
	PDEPQ R8, AX, AX
	MOVQ  AX, (DI)
	ADDQ  DX, SI
	ADDQ  $8, DI
	DECQ  CX
	JNZ   loop1

done:
	RET

// func pack8BMI2(dst, src *byte, groups, w int, mask uint64)
TEXT ·pack8BMI2(SB), NOSPLIT, $0-40
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ groups+16(FP), CX
	MOVQ w+24(FP), DX
	MOVQ mask+32(FP), R8
	LEAQ (DX)(DX*2), R9
	CMPQ CX, $4
	JB   tail

loop4:
	MOVQ  (SI), AX
	MOVQ  8(SI), BX
	MOVQ  16(SI), R10
	MOVQ  24(SI), R11
	PEXTQ R8, AX, AX
	PEXTQ R8, BX, BX
	PEXTQ R8, R10, R10
	PEXTQ R8, R11, R11

	// In order: each store's zero upper bytes are overwritten by the next.
	MOVQ AX, (DI)
	MOVQ BX, (DI)(DX*1)
	MOVQ R10, (DI)(DX*2)
	MOVQ R11, (DI)(R9*1)
	LEAQ (DI)(DX*4), DI
	ADDQ $32, SI
	SUBQ $4, CX
	CMPQ CX, $4
	JAE  loop4

tail:
	TESTQ CX, CX
	JZ    done

loop1:
	MOVQ  (SI), AX
	PEXTQ R8, AX, AX
	MOVQ  AX, (DI)
	ADDQ  DX, DI
	ADDQ  $8, SI
	DECQ  CX
	JNZ   loop1

done:
	RET

// func unpack32x8BMI2(dst *uint32, src *byte, groups, w int, mask uint64)
TEXT ·unpack32x8BMI2(SB), NOSPLIT, $0-40
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ groups+16(FP), CX
	MOVQ w+24(FP), DX
	MOVQ mask+32(FP), R8
	CMPQ CX, $2
	JB   tail

loop2:
	MOVQ     (SI), AX
	MOVQ     (SI)(DX*1), BX
	PDEPQ    R8, AX, AX
	PDEPQ    R8, BX, BX
	MOVQ     AX, X0
	MOVQ     BX, X2
	PMOVZXBD X0, X1
	PSRLQ    $32, X0
	PMOVZXBD X0, X0
	PMOVZXBD X2, X3
	PSRLQ    $32, X2
	PMOVZXBD X2, X2
	MOVOU    X1, (DI)
	MOVOU    X0, 16(DI)
	MOVOU    X3, 32(DI)
	MOVOU    X2, 48(DI)
	LEAQ     (SI)(DX*2), SI
	ADDQ     $64, DI
	SUBQ     $2, CX
	CMPQ     CX, $2
	JAE      loop2

tail:
	TESTQ CX, CX
	JZ    done
	MOVQ     (SI), AX
	PDEPQ    R8, AX, AX
	MOVQ     AX, X0
	PMOVZXBD X0, X1
	PSRLQ    $32, X0
	PMOVZXBD X0, X0
	MOVOU    X1, (DI)
	MOVOU    X0, 16(DI)

done:
	RET

// func unpack32x16BMI2(dst *uint32, src *byte, groups, w int, mask uint64)
TEXT ·unpack32x16BMI2(SB), NOSPLIT, $0-40
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ groups+16(FP), CX
	MOVQ w+24(FP), DX
	MOVQ mask+32(FP), R8

	// The second half of a group starts at bit 4w: byte R10, bit R11.
	LEAQ  (DX*4), R10
	MOVQ  R10, R11
	SHRQ  $3, R10
	ANDQ  $7, R11
	TESTQ CX, CX
	JZ    done

loop:
	MOVQ     (SI), AX
	MOVQ     (SI)(R10*1), BX
	SHRXQ    R11, BX, BX
	PDEPQ    R8, AX, AX
	PDEPQ    R8, BX, BX
	MOVQ     AX, X0
	MOVQ     BX, X1
	PMOVZXWD X0, X0
	PMOVZXWD X1, X1
	MOVOU    X0, (DI)
	MOVOU    X1, 16(DI)
	ADDQ     DX, SI
	ADDQ     $32, DI
	DECQ     CX
	JNZ      loop

done:
	RET

// func decodeBSS4SSE2(raw, src *byte, n, blocks int)
//
// blocks blocks of 16 values: 16 bytes from each of the 4 streams (at
// src, src+n, src+2n, src+3n) interleaved bytewise (streams 0/1 and 2/3)
// and then by 16-bit words into 64 bytes of raw.
TEXT ·decodeBSS4SSE2(SB), NOSPLIT, $0-32
	MOVQ  raw+0(FP), DI
	MOVQ  src+8(FP), SI
	MOVQ  n+16(FP), DX
	MOVQ  blocks+24(FP), CX
	LEAQ  (SI)(DX*1), R8
	LEAQ  (R8)(DX*1), R9
	LEAQ  (R9)(DX*1), R10
	TESTQ CX, CX
	JZ    done

loop:
	MOVOU     (SI), X0
	MOVOU     (R8), X1
	MOVOU     (R9), X2
	MOVOU     (R10), X3
	MOVO      X0, X4
	PUNPCKLBW X1, X0
	PUNPCKHBW X1, X4
	MOVO      X2, X5
	PUNPCKLBW X3, X2
	PUNPCKHBW X3, X5
	MOVO      X0, X6
	PUNPCKLWL X2, X0
	PUNPCKHWL X2, X6
	MOVO      X4, X7
	PUNPCKLWL X5, X4
	PUNPCKHWL X5, X7
	MOVOU     X0, (DI)
	MOVOU     X6, 16(DI)
	MOVOU     X4, 32(DI)
	MOVOU     X7, 48(DI)
	ADDQ      $16, SI
	ADDQ      $16, R8
	ADDQ      $16, R9
	ADDQ      $16, R10
	ADDQ      $64, DI
	DECQ      CX
	JNZ       loop

done:
	RET

// func deltaMinMax32SSE41(dst, src *uint32, n int, prev uint32) (lo, hi int32)
//
// dst[i] = src[i] - src[i-1] (src[-1] = prev) for n values (n a positive
// multiple of 4), 4 per step, with the minimum and maximum of the deltas
// as int32 (PMINSD/PMAXSD, SSE4.1).
TEXT ·deltaMinMax32SSE41(SB), NOSPLIT, $0-40
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
	MOVL prev+24(FP), AX

	// The first 4 deltas subtract [prev, s0, s1, s2].
	MOVOU  (SI), X0
	MOVQ   AX, X1
	MOVO   X0, X2
	PSLLDQ $4, X2
	POR    X1, X2
	PSUBL  X2, X0
	MOVOU  X0, (DI)
	MOVO   X0, X4
	MOVO   X0, X5
	ADDQ   $16, SI
	ADDQ   $16, DI
	SUBQ   $4, CX
	JZ     reduce

loop:
	MOVOU  (SI), X0
	MOVOU  -4(SI), X2
	PSUBL  X2, X0
	MOVOU  X0, (DI)
	PMINSD X0, X4
	PMAXSD X0, X5
	ADDQ   $16, SI
	ADDQ   $16, DI
	SUBQ   $4, CX
	JNZ    loop

reduce:
	PSHUFD $0x4e, X4, X0
	PMINSD X0, X4
	PSHUFD $0xb1, X4, X0
	PMINSD X0, X4
	MOVQ   X4, AX
	MOVL   AX, lo+32(FP)
	PSHUFD $0x4e, X5, X0
	PMAXSD X0, X5
	PSHUFD $0xb1, X5, X0
	PMAXSD X0, X5
	MOVQ   X5, AX
	MOVL   AX, hi+36(FP)
	RET

// func unpack32x32BMI2(dst *uint32, src *byte, groups, w int, mask uint64)
//
// Widths 17..29: each pair of values (2w bits at bit 2pw of the group,
// p = 0..3) is loaded from its byte, shifted by its bit (even, so at most
// 6 and 2w+6 <= 64) and deposited into two 32-bit lanes.
TEXT ·unpack32x32BMI2(SB), NOSPLIT, $0-40
	MOVQ  dst+0(FP), DI
	MOVQ  src+8(FP), SI
	MOVQ  groups+16(FP), CX
	MOVQ  w+24(FP), DX
	MOVQ  mask+32(FP), R8
	LEAQ  (DX)(DX*1), R12
	MOVQ  R12, R9
	SHRQ  $3, R12
	ANDQ  $7, R9
	LEAQ  (DX*4), R13
	MOVQ  R13, R10
	SHRQ  $3, R13
	ANDQ  $7, R10
	LEAQ  (DX)(DX*2), BX
	ADDQ  BX, BX
	MOVQ  BX, R11
	SHRQ  $3, BX
	ANDQ  $7, R11
	TESTQ CX, CX
	JZ    done

loop:
	MOVQ  (SI), AX
	PDEPQ R8, AX, AX
	MOVQ  AX, (DI)
	MOVQ  (SI)(R12*1), AX
	SHRXQ R9, AX, AX
	PDEPQ R8, AX, AX
	MOVQ  AX, 8(DI)
	MOVQ  (SI)(R13*1), AX
	SHRXQ R10, AX, AX
	PDEPQ R8, AX, AX
	MOVQ  AX, 16(DI)
	MOVQ  (SI)(BX*1), AX
	SHRXQ R11, AX, AX
	PDEPQ R8, AX, AX
	MOVQ  AX, 24(DI)
	ADDQ  DX, SI
	ADDQ  $32, DI
	DECQ  CX
	JNZ   loop

done:
	RET

// func cpuAVX2() bool
//
// AVX2 (CPUID.7.0:EBX bit 5) with the OS saving the YMM state (CPUID.1:ECX
// OSXSAVE bit 27 and AVX bit 28, XCR0 bits 1 and 2).
TEXT ·cpuAVX2(SB), NOSPLIT, $0-1
	MOVB $0, ret+0(FP)
	XORL AX, AX
	XORL CX, CX
	CPUID
	CMPL AX, $7
	JB   no
	MOVL $1, AX
	XORL CX, CX
	CPUID
	ANDL $0x18000000, CX
	CMPL CX, $0x18000000
	JNE  no
	XORL CX, CX
	XGETBV
	ANDL $6, AX
	CMPL AX, $6
	JNE  no
	MOVL $7, AX
	XORL CX, CX
	CPUID
	SHRL $5, BX
	ANDL $1, BX
	MOVB BX, ret+0(FP)

no:
	RET

// func unpack32AVX2(dst *uint32, src *byte, groups, w int, tab *avx2Table)
//
// Widths 1..25, one group of 8 values per step: the 16 bytes at the group
// and the 16 at its second half (byte 4w/8) form the two 128-bit lanes;
// VPSHUFB gathers the 4 bytes holding each value into its 32-bit lane,
// VPSRLVD shifts it down and VPAND masks it. src must hold
// (groups-1)*w+32 bytes.
TEXT ·unpack32AVX2(SB), NOSPLIT, $0-40
	MOVQ    dst+0(FP), DI
	MOVQ    src+8(FP), SI
	MOVQ    groups+16(FP), CX
	MOVQ    w+24(FP), DX
	MOVQ    tab+32(FP), AX
	VMOVDQU (AX), Y1
	VMOVDQU 32(AX), Y2
	VMOVDQU 64(AX), Y3
	LEAQ    (DX*4), R8
	SHRQ    $3, R8
	TESTQ   CX, CX
	JZ      done

loop:
	VMOVDQU    (SI), X0
	VINSERTI128 $1, (SI)(R8*1), Y0, Y0
	VPSHUFB    Y1, Y0, Y0
	VPSRLVD    Y2, Y0, Y0
	VPAND      Y3, Y0, Y0
	VMOVDQU    Y0, (DI)
	ADDQ       DX, SI
	ADDQ       $32, DI
	DECQ       CX
	JNZ        loop

done:
	VZEROUPPER
	RET

// func cpuVendorFamily() (vendor, sig uint32)
// vendor is CPUID.0:EBX ("Auth" for AMD, "Genu" for Intel), sig is
// CPUID.1:EAX (stepping, model, family and their extensions).
TEXT ·cpuVendorFamily(SB), NOSPLIT, $0-8
	XORL AX, AX
	XORL CX, CX
	CPUID
	MOVL BX, vendor+0(FP)
	MOVL $1, AX
	XORL CX, CX
	CPUID
	MOVL AX, sig+4(FP)
	RET

// func deltaBlock32SSE41(d *[128]uint32, s *uint32, maxs *[4]int32, second bool) (lo int32)
//
// d[j] = s[j+1] - s[j] for j < 128 (s holds 129 values), or with second
// the second differences d[j] = s[j+2] - 2*s[j+1] + s[j] (s holds 130
// values: the deltas of the lengths of the byte arrays whose offsets are
// s), 4 per step; maxs[g] is the maximum of d[32g:32g+32] as int32 (X5
// per group), lo the minimum of d (X4). PMINSD/PMAXSD are SSE4.1.
TEXT ·deltaBlock32SSE41(SB), NOSPLIT, $0-36
	MOVQ    d+0(FP), DI
	MOVQ    s+8(FP), SI
	MOVQ    maxs+16(FP), DX
	MOVBLZX second+24(FP), R8
	PCMPEQL X4, X4
	PSRLL   $1, X4
	MOVQ    $4, BX

group:
	PCMPEQL X5, X5
	PSLLL   $31, X5
	MOVQ    $8, CX
	TESTQ   R8, R8
	JNZ     step2

step1:
	MOVOU  4(SI), X0
	MOVOU  (SI), X1
	PSUBL  X1, X0
	MOVOU  X0, (DI)
	PMINSD X0, X4
	PMAXSD X0, X5
	ADDQ   $16, SI
	ADDQ   $16, DI
	DECQ   CX
	JNZ    step1
	JMP    groupdone

step2:
	MOVOU  8(SI), X0
	MOVOU  4(SI), X1
	MOVOU  (SI), X2
	PADDL  X2, X0
	PSUBL  X1, X0
	PSUBL  X1, X0
	MOVOU  X0, (DI)
	PMINSD X0, X4
	PMAXSD X0, X5
	ADDQ   $16, SI
	ADDQ   $16, DI
	DECQ   CX
	JNZ    step2

groupdone:
	PSHUFD $0x4e, X5, X0
	PMAXSD X0, X5
	PSHUFD $0xb1, X5, X0
	PMAXSD X0, X5
	MOVQ   X5, AX
	MOVL   AX, (DX)
	ADDQ   $4, DX
	DECQ   BX
	JNZ    group
	PSHUFD $0x4e, X4, X0
	PMINSD X0, X4
	PSHUFD $0xb1, X4, X0
	PMINSD X0, X4
	MOVQ   X4, AX
	MOVL   AX, lo+32(FP)
	RET

// func packSub32x8BMI2(dst *byte, src *uint32, w int, m uint32, mask uint64)
//
// Packs the 32 values src[i]-m (each below 1<<w, w in 1..8) at width w:
// they are narrowed to bytes (PACKUSDW, SSE4.1, and PACKUSWB; no value
// saturates) and each 8 of them extracted with PEXT into the w bytes at
// dst+g*w. The 8-byte stores, in order, write up to dst+3w+8.
TEXT ·packSub32x8BMI2(SB), NOSPLIT, $0-40
	MOVQ     dst+0(FP), DI
	MOVQ     src+8(FP), SI
	MOVQ     w+16(FP), DX
	MOVL     m+24(FP), AX
	MOVQ     mask+32(FP), R8
	MOVQ     AX, X7
	PSHUFD   $0, X7, X7
	MOVOU    (SI), X0
	MOVOU    16(SI), X1
	MOVOU    32(SI), X2
	MOVOU    48(SI), X3
	PSUBL    X7, X0
	PSUBL    X7, X1
	PSUBL    X7, X2
	PSUBL    X7, X3
	PACKUSDW X1, X0
	PACKUSDW X3, X2
	PACKUSWB X2, X0
	MOVOU    64(SI), X4
	MOVOU    80(SI), X1
	MOVOU    96(SI), X2
	MOVOU    112(SI), X3
	PSUBL    X7, X4
	PSUBL    X7, X1
	PSUBL    X7, X2
	PSUBL    X7, X3
	PACKUSDW X1, X4
	PACKUSDW X3, X2
	PACKUSWB X2, X4
	MOVQ     X0, AX
	PEXTRQ   $1, X0, BX
	MOVQ     X4, R10
	PEXTRQ   $1, X4, R11
	PEXTQ    R8, AX, AX
	PEXTQ    R8, BX, BX
	PEXTQ    R8, R10, R10
	PEXTQ    R8, R11, R11
	LEAQ     (DX)(DX*2), R9
	MOVQ     AX, (DI)
	MOVQ     BX, (DI)(DX*1)
	MOVQ     R10, (DI)(DX*2)
	MOVQ     R11, (DI)(R9*1)
	RET

// func packSub32x16BMI2(dst *byte, src *uint32, w int, m uint32, mask uint64)
//
// Packs the 32 values src[i]-m (each below 1<<w, w in 9..15) at width w:
// they are narrowed to 16 bits (PACKUSDW, SSE4.1; no value saturates),
// each 4 of them extracted with PEXT into 4w bits, and each two such
// pieces a, b joined into the w bytes a | b<<4w at dst+p*w: the low 8
// bytes, then the high ones (b >> (64-4w)) stored as 8 bytes at
// dst+p*w+8. The 8-byte stores, in order, write up to dst+3w+16.
TEXT ·packSub32x16BMI2(SB), NOSPLIT, $0-40
	MOVQ     dst+0(FP), DI
	MOVQ     src+8(FP), SI
	MOVQ     w+16(FP), DX
	MOVL     m+24(FP), AX
	MOVQ     mask+32(FP), R8
	MOVQ     AX, X7
	PSHUFD   $0, X7, X7
	LEAQ     (DX*4), R12   // 4w
	MOVQ     $64, R13
	SUBQ     R12, R13      // 64-4w
	MOVQ     $4, CX

pair:
	MOVOU    (SI), X0
	MOVOU    16(SI), X1
	PSUBL    X7, X0
	PSUBL    X7, X1
	PACKUSDW X1, X0
	MOVQ     X0, AX
	PEXTRQ   $1, X0, BX
	PEXTQ    R8, AX, AX
	PEXTQ    R8, BX, BX
	SHLXQ    R12, BX, R10
	ORQ      AX, R10
	SHRXQ    R13, BX, R11
	MOVQ     R10, (DI)
	MOVQ     R11, 8(DI)
	ADDQ     $32, SI
	ADDQ     DX, DI
	DECQ     CX
	JNZ      pair
	RET
