//go:build !purego

#include "textflag.h"
#include "avx512_amd64.h"

// AVX-512 kernels (F, BW, DQ, VL). Each works on whole vectors only: n is a
// multiple of the elements of one vector, and the Go side does the rest.
// Loops run four vectors at a time into four accumulators, then one at a
// time. Every function ends with VZEROUPPER, as Go's own SSE code expects.

// Horizontal sum of the 8 quadwords of Z0 into AX (uses Z1).
#define HSUM_Q \
	VEXTRACTI64X4 $1, Z0, Y1; \
	VPADDQ Y1, Y0, Y0; \
	VEXTRACTI128 $1, Y0, X1; \
	VPADDQ X1, X0, X0; \
	VPSHUFD $0x4e, X0, X1; \
	VPADDQ X1, X0, X0; \
	MOVQ X0, AX

// ---- float sums: float32 converted to float64 lanes; float64 compensated:
// each lane keeps its sum and the exact rounding errors of its additions
// (TwoSum), whose total is taken at the end.

// func sumF32AVX512(p *float32, n int) float64: any n at any address. The floats up to p's first
// 64-byte boundary and the last n mod 8 go under a mask (masked-off lanes are neither read nor
// added), so that the whole vectors between are read aligned and no plain-Go loop takes the edges.
TEXT ·sumF32AVX512(SB), NOSPLIT, $0-24
	MOVQ p+0(FP), SI
	MOVQ n+8(FP), CX
	ZERO4
	MOVQ SI, AX
	NEGQ AX
	ANDQ $63, AX
	SHRQ $2, AX
	CMPQ AX, CX
	CMOVQGT CX, AX
	TESTQ AX, AX
	JZ   loop4
	LANES_MASK(AX, DX, K1)
	VMOVUPS.Z (SI), K1, Z4
	VCVTPS2PD Y4, Z5
	VEXTRACTF32X8 $1, Z4, Y6
	VCVTPS2PD Y6, Z6
	VADDPD Z5, Z0, Z0
	VADDPD Z6, Z1, Z1
	SUBQ AX, CX
	SHLQ $2, AX
	ADDQ AX, SI
loop4:
	CMPQ CX, $32
	JB   loop1
	VCVTPS2PD (SI), Z4
	VCVTPS2PD 32(SI), Z5
	VCVTPS2PD 64(SI), Z6
	VCVTPS2PD 96(SI), Z7
	VADDPD Z4, Z0, Z0
	VADDPD Z5, Z1, Z1
	VADDPD Z6, Z2, Z2
	VADDPD Z7, Z3, Z3
	ADDQ $128, SI
	SUBQ $32, CX
	JMP  loop4
loop1:
	CMPQ CX, $8
	JB   tail
	VCVTPS2PD (SI), Z4
	VADDPD Z4, Z0, Z0
	ADDQ $32, SI
	SUBQ $8, CX
	JMP  loop1
tail:
	TESTQ CX, CX
	JZ   done
	LANES_MASK(CX, DX, K1)
	VMOVUPS.Z (SI), K1, Y4
	VCVTPS2PD Y4, Z5
	VADDPD Z5, Z2, Z2
done:
	FOLD4(VADDPD)
	HSUM_PD
	MOVSD X0, ret+16(FP)
	VZEROUPPER
	RET

// func sumF64AVX512(p *float64, n int) (hi, lo float64)
TEXT ·sumF64AVX512(SB), NOSPLIT, $0-32
	MOVQ p+0(FP), SI
	MOVQ n+8(FP), CX
	TWOSUM_START
loop4:
	CMPQ CX, $32
	JB   loop1
	VMOVUPD (SI), Z8
	VMOVUPD 64(SI), Z9
	VMOVUPD 128(SI), Z10
	VMOVUPD 192(SI), Z11
	TWOSUM4
	ADDQ $256, SI
	SUBQ $32, CX
	JMP  loop4
loop1:
	CMPQ CX, $8
	JB   done
	VMOVUPD (SI), Z8
	TWOSUM1
	ADDQ $64, SI
	SUBQ $8, CX
	JMP  loop1
done:
	TWOSUM_END
	MOVSD X0, hi+16(FP)
	MOVSD X1, lo+24(FP)
	VZEROUPPER
	RET

// ---- integer sums into wrapping 64-bit lanes

// A sum of integers that LOAD widens to 8 quadwords, VBYTES bytes at a time.
#define SUM_WIDENED(NAME, LOAD, VBYTES) \
TEXT NAME(SB), NOSPLIT, $0-24; \
	MOVQ p+0(FP), SI; \
	MOVQ n+8(FP), CX; \
	IMULQ $VBYTES/8, CX; \
	ZERO4; \
loop4:; \
	CMPQ CX, $4*VBYTES; \
	JB   loop1; \
	LOAD (SI), Z4; \
	LOAD VBYTES(SI), Z5; \
	LOAD 2*VBYTES(SI), Z6; \
	LOAD 3*VBYTES(SI), Z7; \
	VPADDQ Z4, Z0, Z0; \
	VPADDQ Z5, Z1, Z1; \
	VPADDQ Z6, Z2, Z2; \
	VPADDQ Z7, Z3, Z3; \
	ADDQ $4*VBYTES, SI; \
	SUBQ $4*VBYTES, CX; \
	JMP  loop4; \
loop1:; \
	CMPQ CX, $VBYTES; \
	JB   done; \
	LOAD (SI), Z4; \
	VPADDQ Z4, Z0, Z0; \
	ADDQ $VBYTES, SI; \
	SUBQ $VBYTES, CX; \
	JMP  loop1; \
done:; \
	FOLD4(VPADDQ); \
	HSUM_Q; \
	MOVQ AX, ret+16(FP); \
	VZEROUPPER; \
	RET

// func sumI16AVX512(p unsafe.Pointer, n int) uint64
SUM_WIDENED(·sumI16AVX512, VPMOVSXWQ, 16)
// func sumU16AVX512(p unsafe.Pointer, n int) uint64
SUM_WIDENED(·sumU16AVX512, VPMOVZXWQ, 16)
// func sumI32AVX512(p unsafe.Pointer, n int) uint64
SUM_WIDENED(·sumI32AVX512, VPMOVSXDQ, 32)
// func sumU32AVX512(p unsafe.Pointer, n int) uint64
SUM_WIDENED(·sumU32AVX512, VPMOVZXDQ, 32)
// func sumI64AVX512(p unsafe.Pointer, n int) uint64
SUM_WIDENED(·sumI64AVX512, VMOVDQU64, 64)

// Bytes: VPSADBW against zero adds each 8 bytes into a quadword, 64 bytes an
// instruction. Signed bytes are offset by 128 first (XOR 0x80) and the offset
// taken back from the total. FLIP is that XOR, or nothing.
#define SUM_BYTES(NAME, PREP, FLIP, UNDO) \
TEXT NAME(SB), NOSPLIT, $0-24; \
	MOVQ p+0(FP), SI; \
	MOVQ n+8(FP), CX; \
	MOVQ CX, DX; \
	ZERO4; \
	VPXORQ Z31, Z31, Z31; \
	PREP; \
loop4:; \
	CMPQ CX, $256; \
	JB   loop1; \
	VMOVDQU64 (SI), Z4; \
	VMOVDQU64 64(SI), Z5; \
	VMOVDQU64 128(SI), Z6; \
	VMOVDQU64 192(SI), Z7; \
	FLIP(Z4); \
	FLIP(Z5); \
	FLIP(Z6); \
	FLIP(Z7); \
	VPSADBW Z31, Z4, Z4; \
	VPSADBW Z31, Z5, Z5; \
	VPSADBW Z31, Z6, Z6; \
	VPSADBW Z31, Z7, Z7; \
	VPADDQ Z4, Z0, Z0; \
	VPADDQ Z5, Z1, Z1; \
	VPADDQ Z6, Z2, Z2; \
	VPADDQ Z7, Z3, Z3; \
	ADDQ $256, SI; \
	SUBQ $256, CX; \
	JMP  loop4; \
loop1:; \
	CMPQ CX, $64; \
	JB   done; \
	VMOVDQU64 (SI), Z4; \
	FLIP(Z4); \
	VPSADBW Z31, Z4, Z4; \
	VPADDQ Z4, Z0, Z0; \
	ADDQ $64, SI; \
	SUBQ $64, CX; \
	JMP  loop1; \
done:; \
	FOLD4(VPADDQ); \
	HSUM_Q; \
	UNDO; \
	MOVQ AX, ret+16(FP); \
	VZEROUPPER; \
	RET

#define NOTHING
#define NO_FLIP(Z)
#define BROADCAST_80 MOVL $0x80808080, AX; VPBROADCASTD AX, Z30
#define FLIP_80(Z) VPXORQ Z30, Z, Z
#define TAKE_128N SHLQ $7, DX; SUBQ DX, AX

// func sumU8AVX512(p unsafe.Pointer, n int) uint64
SUM_BYTES(·sumU8AVX512, NOTHING, NO_FLIP, NOTHING)
// func sumI8AVX512(p unsafe.Pointer, n int) uint64
SUM_BYTES(·sumI8AVX512, BROADCAST_80, FLIP_80, TAKE_128N)

// ---- dot products and squared distances, in float64 lanes

// func dotF32AVX512(x, y *float32, n int) float64
TEXT ·dotF32AVX512(SB), NOSPLIT, $0-32
	MOVQ x+0(FP), SI
	MOVQ y+8(FP), DI
	MOVQ n+16(FP), CX
	ZERO4
loop4:
	CMPQ CX, $32
	JB   loop1
	VCVTPS2PD (SI), Z4
	VCVTPS2PD 32(SI), Z5
	VCVTPS2PD 64(SI), Z6
	VCVTPS2PD 96(SI), Z7
	VCVTPS2PD (DI), Z8
	VCVTPS2PD 32(DI), Z9
	VCVTPS2PD 64(DI), Z10
	VCVTPS2PD 96(DI), Z11
	VFMADD231PD Z8, Z4, Z0
	VFMADD231PD Z9, Z5, Z1
	VFMADD231PD Z10, Z6, Z2
	VFMADD231PD Z11, Z7, Z3
	ADDQ $128, SI
	ADDQ $128, DI
	SUBQ $32, CX
	JMP  loop4
loop1:
	CMPQ CX, $8
	JB   done
	VCVTPS2PD (SI), Z4
	VCVTPS2PD (DI), Z8
	VFMADD231PD Z8, Z4, Z0
	ADDQ $32, SI
	ADDQ $32, DI
	SUBQ $8, CX
	JMP  loop1
done:
	FOLD4(VADDPD)
	HSUM_PD
	MOVSD X0, ret+24(FP)
	VZEROUPPER
	RET

// func dotF64AVX512(x, y *float64, n int) float64
TEXT ·dotF64AVX512(SB), NOSPLIT, $0-32
	MOVQ x+0(FP), SI
	MOVQ y+8(FP), DI
	MOVQ n+16(FP), CX
	ZERO4
loop4:
	CMPQ CX, $32
	JB   loop1
	VMOVUPD (SI), Z4
	VMOVUPD 64(SI), Z5
	VMOVUPD 128(SI), Z6
	VMOVUPD 192(SI), Z7
	VFMADD231PD (DI), Z4, Z0
	VFMADD231PD 64(DI), Z5, Z1
	VFMADD231PD 128(DI), Z6, Z2
	VFMADD231PD 192(DI), Z7, Z3
	ADDQ $256, SI
	ADDQ $256, DI
	SUBQ $32, CX
	JMP  loop4
loop1:
	CMPQ CX, $8
	JB   done
	VMOVUPD (SI), Z4
	VFMADD231PD (DI), Z4, Z0
	ADDQ $64, SI
	ADDQ $64, DI
	SUBQ $8, CX
	JMP  loop1
done:
	FOLD4(VADDPD)
	HSUM_PD
	MOVSD X0, ret+24(FP)
	VZEROUPPER
	RET

// func sqDistF32AVX512(x, y *float32, n int) float64
TEXT ·sqDistF32AVX512(SB), NOSPLIT, $0-32
	MOVQ x+0(FP), SI
	MOVQ y+8(FP), DI
	MOVQ n+16(FP), CX
	ZERO4
loop4:
	CMPQ CX, $32
	JB   loop1
	VCVTPS2PD (SI), Z4
	VCVTPS2PD 32(SI), Z5
	VCVTPS2PD 64(SI), Z6
	VCVTPS2PD 96(SI), Z7
	VCVTPS2PD (DI), Z8
	VCVTPS2PD 32(DI), Z9
	VCVTPS2PD 64(DI), Z10
	VCVTPS2PD 96(DI), Z11
	VSUBPD Z8, Z4, Z4
	VSUBPD Z9, Z5, Z5
	VSUBPD Z10, Z6, Z6
	VSUBPD Z11, Z7, Z7
	VFMADD231PD Z4, Z4, Z0
	VFMADD231PD Z5, Z5, Z1
	VFMADD231PD Z6, Z6, Z2
	VFMADD231PD Z7, Z7, Z3
	ADDQ $128, SI
	ADDQ $128, DI
	SUBQ $32, CX
	JMP  loop4
loop1:
	CMPQ CX, $8
	JB   done
	VCVTPS2PD (SI), Z4
	VCVTPS2PD (DI), Z8
	VSUBPD Z8, Z4, Z4
	VFMADD231PD Z4, Z4, Z0
	ADDQ $32, SI
	ADDQ $32, DI
	SUBQ $8, CX
	JMP  loop1
done:
	FOLD4(VADDPD)
	HSUM_PD
	MOVSD X0, ret+24(FP)
	VZEROUPPER
	RET

// func sqDistF64AVX512(x, y *float64, n int) float64
TEXT ·sqDistF64AVX512(SB), NOSPLIT, $0-32
	MOVQ x+0(FP), SI
	MOVQ y+8(FP), DI
	MOVQ n+16(FP), CX
	ZERO4
loop4:
	CMPQ CX, $32
	JB   loop1
	VMOVUPD (SI), Z4
	VMOVUPD 64(SI), Z5
	VMOVUPD 128(SI), Z6
	VMOVUPD 192(SI), Z7
	VSUBPD (DI), Z4, Z4
	VSUBPD 64(DI), Z5, Z5
	VSUBPD 128(DI), Z6, Z6
	VSUBPD 192(DI), Z7, Z7
	VFMADD231PD Z4, Z4, Z0
	VFMADD231PD Z5, Z5, Z1
	VFMADD231PD Z6, Z6, Z2
	VFMADD231PD Z7, Z7, Z3
	ADDQ $256, SI
	ADDQ $256, DI
	SUBQ $32, CX
	JMP  loop4
loop1:
	CMPQ CX, $8
	JB   done
	VMOVUPD (SI), Z4
	VSUBPD (DI), Z4, Z4
	VFMADD231PD Z4, Z4, Z0
	ADDQ $64, SI
	ADDQ $64, DI
	SUBQ $8, CX
	JMP  loop1
done:
	FOLD4(VADDPD)
	HSUM_PD
	MOVSD X0, ret+24(FP)
	VZEROUPPER
	RET

// ---- minima and maxima: the accumulators start as the first element

// The extreme of Z0's lanes into its first lane, halving with OP: the 64-bit
// steps, then those of narrower elements.
#define HALVE_64(OP) \
	VEXTRACTI64X4 $1, Z0, Y1; \
	OP Y1, Y0, Y0; \
	VEXTRACTI128 $1, Y0, X1; \
	OP X1, X0, X0; \
	VPSHUFD $0x4e, X0, X1; \
	OP X1, X0, X0
#define HALVE_32(OP) HALVE_64(OP); VPSHUFD $0xb1, X0, X1; OP X1, X0, X0
#define HALVE_16(OP) HALVE_32(OP); VPSRLD $16, X0, X1; OP X1, X0, X0
#define HALVE_8(OP) HALVE_16(OP); VPSRLW $8, X0, X1; OP X1, X0, X0

// func NAME(p unsafe.Pointer, n int) (bits uint64, nan bool), n >= 1 elements of 1<<LOG2SIZE bytes at
// any address: those before p's first 64-byte boundary and the last n mod 64 bytes' under a mask
// (EDGE), which costs a tenth of what plain Go took for them (Max of 1024 float32s 16 bytes off a
// boundary: 85 ns with them in Go, 41 aligned). NAN4 ORs into K1 the lanes where one of four
// vectors is NaN (floats), comparing them in pairs (unordered: either is NaN), NAN1 those of one, or
// nothing; the pairs are ORed together first, so that K1's chain takes one step a turn.
#define EXTREME(NAME, BCAST, OP, HALVE, LOG2SIZE, MOVZ, NAN1, NAN4) \
TEXT NAME(SB), NOSPLIT, $0-25; \
	MOVQ p+0(FP), SI; \
	MOVQ n+8(FP), CX; \
	SHLQ $LOG2SIZE, CX; \
	BCAST (SI), Z0; \
	VMOVDQA64 Z0, Z1; \
	VMOVDQA64 Z0, Z2; \
	VMOVDQA64 Z0, Z3; \
	KXORQ K1, K1, K1; \
	HEAD_BYTES(SI, LOG2SIZE); \
	TESTQ AX, AX; \
	JZ   loop4; \
	EDGE(OP, LOG2SIZE, MOVZ, NAN1); \
loop4:; \
	CMPQ CX, $256; \
	JB   loop1; \
	VMOVDQU64 (SI), Z4; \
	VMOVDQU64 64(SI), Z5; \
	VMOVDQU64 128(SI), Z6; \
	VMOVDQU64 192(SI), Z7; \
	NAN4(Z4, Z5, Z6, Z7); \
	OP Z4, Z0, Z0; \
	OP Z5, Z1, Z1; \
	OP Z6, Z2, Z2; \
	OP Z7, Z3, Z3; \
	ADDQ $256, SI; \
	SUBQ $256, CX; \
	JMP  loop4; \
loop1:; \
	CMPQ CX, $64; \
	JB   tail; \
	VMOVDQU64 (SI), Z4; \
	NAN1(Z4); \
	OP Z4, Z0, Z0; \
	ADDQ $64, SI; \
	SUBQ $64, CX; \
	JMP  loop1; \
tail:; \
	MOVQ CX, AX; \
	TESTQ AX, AX; \
	JZ   done; \
	EDGE(OP, LOG2SIZE, MOVZ, NAN1); \
done:; \
	OP Z1, Z0, Z0; \
	OP Z3, Z2, Z2; \
	OP Z2, Z0, Z0; \
	HALVE(OP); \
	MOVQ X0, AX; \
	MOVQ AX, bits+16(FP); \
	KORTESTQ K1, K1; \
	SETNE nan+24(FP); \
	VZEROUPPER; \
	RET

// The AX bytes at SI (fewer than 64) under a mask, K3: loaded zeroed elsewhere (no NaN there), and
// OP into Z0's lanes that hold them alone; SI and CX move past them.
#define EDGE(OP, LOG2SIZE, MOVZ, NAN1) \
	MOVQ AX, BX; \
	SHRQ $LOG2SIZE, BX; \
	LANES_MASK(BX, DX, K3); \
	MOVZ (SI), K3, Z4; \
	NAN1(Z4); \
	OP Z4, Z0, K3, Z0; \
	ADDQ AX, SI; \
	SUBQ AX, CX

#define NO_NAN(Z)
#define NO_NAN4(A, B, C, D)
#define NAN_PS(Z) VCMPPS $3, Z, Z, K2; KORW K2, K1, K1
#define NAN_PD(Z) VCMPPD $3, Z, Z, K2; KORB K2, K1, K1
#define NAN4(CMP, KOR, A, B, C, D) \
	CMP $3, B, A, K2; \
	CMP $3, D, C, K3; \
	KOR K3, K2, K2; \
	KOR K2, K1, K1
#define NAN4_PS(A, B, C, D) NAN4(VCMPPS, KORW, A, B, C, D)
#define NAN4_PD(A, B, C, D) NAN4(VCMPPD, KORB, A, B, C, D)

EXTREME(·minI8AVX512, VPBROADCASTB, VPMINSB, HALVE_8, 0, VMOVDQU8.Z, NO_NAN, NO_NAN4)
EXTREME(·maxI8AVX512, VPBROADCASTB, VPMAXSB, HALVE_8, 0, VMOVDQU8.Z, NO_NAN, NO_NAN4)
EXTREME(·minU8AVX512, VPBROADCASTB, VPMINUB, HALVE_8, 0, VMOVDQU8.Z, NO_NAN, NO_NAN4)
EXTREME(·maxU8AVX512, VPBROADCASTB, VPMAXUB, HALVE_8, 0, VMOVDQU8.Z, NO_NAN, NO_NAN4)
EXTREME(·minI16AVX512, VPBROADCASTW, VPMINSW, HALVE_16, 1, VMOVDQU16.Z, NO_NAN, NO_NAN4)
EXTREME(·maxI16AVX512, VPBROADCASTW, VPMAXSW, HALVE_16, 1, VMOVDQU16.Z, NO_NAN, NO_NAN4)
EXTREME(·minU16AVX512, VPBROADCASTW, VPMINUW, HALVE_16, 1, VMOVDQU16.Z, NO_NAN, NO_NAN4)
EXTREME(·maxU16AVX512, VPBROADCASTW, VPMAXUW, HALVE_16, 1, VMOVDQU16.Z, NO_NAN, NO_NAN4)
EXTREME(·minI32AVX512, VPBROADCASTD, VPMINSD, HALVE_32, 2, VMOVDQU32.Z, NO_NAN, NO_NAN4)
EXTREME(·maxI32AVX512, VPBROADCASTD, VPMAXSD, HALVE_32, 2, VMOVDQU32.Z, NO_NAN, NO_NAN4)
EXTREME(·minU32AVX512, VPBROADCASTD, VPMINUD, HALVE_32, 2, VMOVDQU32.Z, NO_NAN, NO_NAN4)
EXTREME(·maxU32AVX512, VPBROADCASTD, VPMAXUD, HALVE_32, 2, VMOVDQU32.Z, NO_NAN, NO_NAN4)
EXTREME(·minI64AVX512, VPBROADCASTQ, VPMINSQ, HALVE_64, 3, VMOVDQU64.Z, NO_NAN, NO_NAN4)
EXTREME(·maxI64AVX512, VPBROADCASTQ, VPMAXSQ, HALVE_64, 3, VMOVDQU64.Z, NO_NAN, NO_NAN4)
EXTREME(·minU64AVX512, VPBROADCASTQ, VPMINUQ, HALVE_64, 3, VMOVDQU64.Z, NO_NAN, NO_NAN4)
EXTREME(·maxU64AVX512, VPBROADCASTQ, VPMAXUQ, HALVE_64, 3, VMOVDQU64.Z, NO_NAN, NO_NAN4)
EXTREME(·minF32AVX512, VBROADCASTSS, VMINPS, HALVE_32, 2, VMOVDQU32.Z, NAN_PS, NAN4_PS)
EXTREME(·maxF32AVX512, VBROADCASTSS, VMAXPS, HALVE_32, 2, VMOVDQU32.Z, NAN_PS, NAN4_PS)
EXTREME(·minF64AVX512, VBROADCASTSD, VMINPD, HALVE_64, 3, VMOVDQU64.Z, NAN_PD, NAN4_PD)
EXTREME(·maxF64AVX512, VBROADCASTSD, VMAXPD, HALVE_64, 3, VMOVDQU64.Z, NAN_PD, NAN4_PD)
