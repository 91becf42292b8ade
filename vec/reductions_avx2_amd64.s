//go:build !purego

#include "textflag.h"
#include "avx2_amd64.h"

// AVX2 kernels (with FMA), as avx512_amd64.s's with 32-byte vectors and 16
// registers; 64-bit integer products and extremes have no AVX2 instruction
// and stay in Go. n is a multiple of the elements of one vector.

// Horizontal sum of the 4 quadwords of Y0 into AX (uses Y1).
#define HSUM_Q \
	VEXTRACTI128 $1, Y0, X1; \
	VPADDQ X1, X0, X0; \
	VPSHUFD $0x4e, X0, X1; \
	VPADDQ X1, X0, X0; \
	MOVQ X0, AX

// ---- float sums

// func sumF32AVX2(p *float32, n int) float64
TEXT ·sumF32AVX2(SB), NOSPLIT, $0-24
	MOVQ p+0(FP), SI
	MOVQ n+8(FP), CX
	ZERO4
loop4:
	CMPQ CX, $16
	JB   loop1
	VCVTPS2PD (SI), Y4
	VCVTPS2PD 16(SI), Y5
	VCVTPS2PD 32(SI), Y6
	VCVTPS2PD 48(SI), Y7
	VADDPD Y4, Y0, Y0
	VADDPD Y5, Y1, Y1
	VADDPD Y6, Y2, Y2
	VADDPD Y7, Y3, Y3
	ADDQ $64, SI
	SUBQ $16, CX
	JMP  loop4
loop1:
	CMPQ CX, $4
	JB   done
	VCVTPS2PD (SI), Y4
	VADDPD Y4, Y0, Y0
	ADDQ $16, SI
	SUBQ $4, CX
	JMP  loop1
done:
	FOLD4(VADDPD)
	HSUM_PD
	MOVSD X0, ret+16(FP)
	VZEROUPPER
	RET

// func sumF64AVX2(p *float64, n int) (hi, lo float64)
TEXT ·sumF64AVX2(SB), NOSPLIT, $0-32
	MOVQ p+0(FP), SI
	MOVQ n+8(FP), CX
	TWOSUM_START
loop4:
	CMPQ CX, $16
	JB   loop1
	VMOVUPD (SI), Y8
	VMOVUPD 32(SI), Y9
	VMOVUPD 64(SI), Y10
	VMOVUPD 96(SI), Y11
	TWOSUM4
	ADDQ $128, SI
	SUBQ $16, CX
	JMP  loop4
loop1:
	CMPQ CX, $4
	JB   done
	VMOVUPD (SI), Y8
	TWOSUM1
	ADDQ $32, SI
	SUBQ $4, CX
	JMP  loop1
done:
	TWOSUM_END
	MOVSD X0, hi+16(FP)
	MOVSD X1, lo+24(FP)
	VZEROUPPER
	RET

// ---- integer sums into wrapping 64-bit lanes

// A sum of integers that LOAD widens to 4 quadwords, VBYTES bytes at a time.
#define SUM_WIDENED(NAME, LOAD, VBYTES) \
TEXT NAME(SB), NOSPLIT, $0-24; \
	MOVQ p+0(FP), SI; \
	MOVQ n+8(FP), CX; \
	IMULQ $VBYTES/4, CX; \
	ZERO4; \
loop4:; \
	CMPQ CX, $4*VBYTES; \
	JB   loop1; \
	LOAD (SI), Y4; \
	LOAD VBYTES(SI), Y5; \
	LOAD 2*VBYTES(SI), Y6; \
	LOAD 3*VBYTES(SI), Y7; \
	VPADDQ Y4, Y0, Y0; \
	VPADDQ Y5, Y1, Y1; \
	VPADDQ Y6, Y2, Y2; \
	VPADDQ Y7, Y3, Y3; \
	ADDQ $4*VBYTES, SI; \
	SUBQ $4*VBYTES, CX; \
	JMP  loop4; \
loop1:; \
	CMPQ CX, $VBYTES; \
	JB   done; \
	LOAD (SI), Y4; \
	VPADDQ Y4, Y0, Y0; \
	ADDQ $VBYTES, SI; \
	SUBQ $VBYTES, CX; \
	JMP  loop1; \
done:; \
	FOLD4(VPADDQ); \
	HSUM_Q; \
	MOVQ AX, ret+16(FP); \
	VZEROUPPER; \
	RET

// func sumI16AVX2(p unsafe.Pointer, n int) uint64
SUM_WIDENED(·sumI16AVX2, VPMOVSXWQ, 8)
// func sumU16AVX2(p unsafe.Pointer, n int) uint64
SUM_WIDENED(·sumU16AVX2, VPMOVZXWQ, 8)
// func sumI32AVX2(p unsafe.Pointer, n int) uint64
SUM_WIDENED(·sumI32AVX2, VPMOVSXDQ, 16)
// func sumU32AVX2(p unsafe.Pointer, n int) uint64
SUM_WIDENED(·sumU32AVX2, VPMOVZXDQ, 16)
// func sumI64AVX2(p unsafe.Pointer, n int) uint64
SUM_WIDENED(·sumI64AVX2, VMOVDQU, 32)

// Bytes, with VPSADBW, as in avx512_amd64.s.
#define SUM_BYTES(NAME, PREP, FLIP, UNDO) \
TEXT NAME(SB), NOSPLIT, $0-24; \
	MOVQ p+0(FP), SI; \
	MOVQ n+8(FP), CX; \
	MOVQ CX, DX; \
	ZERO4; \
	VPXOR Y15, Y15, Y15; \
	PREP; \
loop4:; \
	CMPQ CX, $128; \
	JB   loop1; \
	VMOVDQU (SI), Y4; \
	VMOVDQU 32(SI), Y5; \
	VMOVDQU 64(SI), Y6; \
	VMOVDQU 96(SI), Y7; \
	FLIP(Y4); \
	FLIP(Y5); \
	FLIP(Y6); \
	FLIP(Y7); \
	VPSADBW Y15, Y4, Y4; \
	VPSADBW Y15, Y5, Y5; \
	VPSADBW Y15, Y6, Y6; \
	VPSADBW Y15, Y7, Y7; \
	VPADDQ Y4, Y0, Y0; \
	VPADDQ Y5, Y1, Y1; \
	VPADDQ Y6, Y2, Y2; \
	VPADDQ Y7, Y3, Y3; \
	ADDQ $128, SI; \
	SUBQ $128, CX; \
	JMP  loop4; \
loop1:; \
	CMPQ CX, $32; \
	JB   done; \
	VMOVDQU (SI), Y4; \
	FLIP(Y4); \
	VPSADBW Y15, Y4, Y4; \
	VPADDQ Y4, Y0, Y0; \
	ADDQ $32, SI; \
	SUBQ $32, CX; \
	JMP  loop1; \
done:; \
	FOLD4(VPADDQ); \
	HSUM_Q; \
	UNDO; \
	MOVQ AX, ret+16(FP); \
	VZEROUPPER; \
	RET

#define NOTHING
#define NO_FLIP(Y)
#define BROADCAST_80 MOVL $0x80808080, AX; MOVQ AX, X14; VPBROADCASTD X14, Y14
#define FLIP_80(Y) VPXOR Y14, Y, Y
#define TAKE_128N SHLQ $7, DX; SUBQ DX, AX

// func sumU8AVX2(p unsafe.Pointer, n int) uint64
SUM_BYTES(·sumU8AVX2, NOTHING, NO_FLIP, NOTHING)
// func sumI8AVX2(p unsafe.Pointer, n int) uint64
SUM_BYTES(·sumI8AVX2, BROADCAST_80, FLIP_80, TAKE_128N)

// ---- dot products and squared distances, in float64 lanes

// A reduction of two float arrays: LOADX and LOADY fetch 4 doubles of x and y
// from ESTEP-byte steps, TERM(X, Y, ACC) adds one term into ACC.
#define PAIR(NAME, LOADX, LOADY, ESTEP, TERM) \
TEXT NAME(SB), NOSPLIT, $0-32; \
	MOVQ x+0(FP), SI; \
	MOVQ y+8(FP), DI; \
	MOVQ n+16(FP), CX; \
	ZERO4; \
loop4:; \
	CMPQ CX, $16; \
	JB   loop1; \
	LOADX (SI), Y4; \
	LOADX ESTEP(SI), Y5; \
	LOADX 2*ESTEP(SI), Y6; \
	LOADX 3*ESTEP(SI), Y7; \
	LOADY (DI), Y8; \
	LOADY ESTEP(DI), Y9; \
	LOADY 2*ESTEP(DI), Y10; \
	LOADY 3*ESTEP(DI), Y11; \
	TERM(Y4, Y8, Y0); \
	TERM(Y5, Y9, Y1); \
	TERM(Y6, Y10, Y2); \
	TERM(Y7, Y11, Y3); \
	ADDQ $4*ESTEP, SI; \
	ADDQ $4*ESTEP, DI; \
	SUBQ $16, CX; \
	JMP  loop4; \
loop1:; \
	CMPQ CX, $4; \
	JB   done; \
	LOADX (SI), Y4; \
	LOADY (DI), Y8; \
	TERM(Y4, Y8, Y0); \
	ADDQ $ESTEP, SI; \
	ADDQ $ESTEP, DI; \
	SUBQ $4, CX; \
	JMP  loop1; \
done:; \
	FOLD4(VADDPD); \
	HSUM_PD; \
	MOVSD X0, ret+24(FP); \
	VZEROUPPER; \
	RET

#define DOT_TERM(X, Y, ACC) VFMADD231PD Y, X, ACC
#define SQ_TERM(X, Y, ACC) VSUBPD Y, X, X; VFMADD231PD X, X, ACC

// func dotF32AVX2(x, y *float32, n int) float64
PAIR(·dotF32AVX2, VCVTPS2PD, VCVTPS2PD, 16, DOT_TERM)
// func dotF64AVX2(x, y *float64, n int) float64
PAIR(·dotF64AVX2, VMOVUPD, VMOVUPD, 32, DOT_TERM)
// func sqDistF32AVX2(x, y *float32, n int) float64
PAIR(·sqDistF32AVX2, VCVTPS2PD, VCVTPS2PD, 16, SQ_TERM)
// func sqDistF64AVX2(x, y *float64, n int) float64
PAIR(·sqDistF64AVX2, VMOVUPD, VMOVUPD, 32, SQ_TERM)

// ---- minima and maxima

#define HALVE_64(OP) \
	VEXTRACTI128 $1, Y0, X1; \
	OP X1, X0, X0; \
	VPSHUFD $0x4e, X0, X1; \
	OP X1, X0, X0
#define HALVE_32(OP) HALVE_64(OP); VPSHUFD $0xb1, X0, X1; OP X1, X0, X0
#define HALVE_16(OP) HALVE_32(OP); VPSRLD $16, X0, X1; OP X1, X0, X0
#define HALVE_8(OP) HALVE_16(OP); VPSRLW $8, X0, X1; OP X1, X0, X0

// NAN(Y) ORs into Y11 the lanes of Y that are NaN (floats), or nothing;
// MASK moves Y11's sign bits to AX.
#define EXTREME(NAME, BCAST, OP, HALVE, ESIZE, NAN, MASK) \
TEXT NAME(SB), NOSPLIT, $0-25; \
	MOVQ p+0(FP), SI; \
	MOVQ n+8(FP), CX; \
	IMULQ $ESIZE, CX; \
	BCAST (SI), Y0; \
	VMOVDQA Y0, Y1; \
	VMOVDQA Y0, Y2; \
	VMOVDQA Y0, Y3; \
	VPXOR Y11, Y11, Y11; \
loop4:; \
	CMPQ CX, $128; \
	JB   loop1; \
	VMOVDQU (SI), Y4; \
	VMOVDQU 32(SI), Y5; \
	VMOVDQU 64(SI), Y6; \
	VMOVDQU 96(SI), Y7; \
	NAN(Y4); \
	NAN(Y5); \
	NAN(Y6); \
	NAN(Y7); \
	OP Y4, Y0, Y0; \
	OP Y5, Y1, Y1; \
	OP Y6, Y2, Y2; \
	OP Y7, Y3, Y3; \
	ADDQ $128, SI; \
	SUBQ $128, CX; \
	JMP  loop4; \
loop1:; \
	CMPQ CX, $32; \
	JB   done; \
	VMOVDQU (SI), Y4; \
	NAN(Y4); \
	OP Y4, Y0, Y0; \
	ADDQ $32, SI; \
	SUBQ $32, CX; \
	JMP  loop1; \
done:; \
	OP Y1, Y0, Y0; \
	OP Y3, Y2, Y2; \
	OP Y2, Y0, Y0; \
	HALVE(OP); \
	MOVQ X0, AX; \
	MOVQ AX, bits+16(FP); \
	MASK; \
	TESTL AX, AX; \
	SETNE nan+24(FP); \
	VZEROUPPER; \
	RET

#define NO_NAN(Y)
#define NO_MASK XORL AX, AX
#define NAN_PS(Y) VCMPPS $3, Y, Y, Y12; VORPS Y12, Y11, Y11
#define NAN_PD(Y) VCMPPD $3, Y, Y, Y12; VORPD Y12, Y11, Y11
#define MASK_PS VMOVMSKPS Y11, AX
#define MASK_PD VMOVMSKPD Y11, AX

EXTREME(·minI8AVX2, VPBROADCASTB, VPMINSB, HALVE_8, 1, NO_NAN, NO_MASK)
EXTREME(·maxI8AVX2, VPBROADCASTB, VPMAXSB, HALVE_8, 1, NO_NAN, NO_MASK)
EXTREME(·minU8AVX2, VPBROADCASTB, VPMINUB, HALVE_8, 1, NO_NAN, NO_MASK)
EXTREME(·maxU8AVX2, VPBROADCASTB, VPMAXUB, HALVE_8, 1, NO_NAN, NO_MASK)
EXTREME(·minI16AVX2, VPBROADCASTW, VPMINSW, HALVE_16, 2, NO_NAN, NO_MASK)
EXTREME(·maxI16AVX2, VPBROADCASTW, VPMAXSW, HALVE_16, 2, NO_NAN, NO_MASK)
EXTREME(·minU16AVX2, VPBROADCASTW, VPMINUW, HALVE_16, 2, NO_NAN, NO_MASK)
EXTREME(·maxU16AVX2, VPBROADCASTW, VPMAXUW, HALVE_16, 2, NO_NAN, NO_MASK)
EXTREME(·minI32AVX2, VPBROADCASTD, VPMINSD, HALVE_32, 4, NO_NAN, NO_MASK)
EXTREME(·maxI32AVX2, VPBROADCASTD, VPMAXSD, HALVE_32, 4, NO_NAN, NO_MASK)
EXTREME(·minU32AVX2, VPBROADCASTD, VPMINUD, HALVE_32, 4, NO_NAN, NO_MASK)
EXTREME(·maxU32AVX2, VPBROADCASTD, VPMAXUD, HALVE_32, 4, NO_NAN, NO_MASK)
EXTREME(·minF32AVX2, VBROADCASTSS, VMINPS, HALVE_32, 4, NAN_PS, MASK_PS)
EXTREME(·maxF32AVX2, VBROADCASTSS, VMAXPS, HALVE_32, 4, NAN_PS, MASK_PS)
EXTREME(·minF64AVX2, VBROADCASTSD, VMINPD, HALVE_64, 8, NAN_PD, MASK_PD)
EXTREME(·maxF64AVX2, VBROADCASTSD, VMAXPD, HALVE_64, 8, NAN_PD, MASK_PD)
