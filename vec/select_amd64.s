//go:build !purego

#include "textflag.h"

// Selection kernels: the first element past a threshold, and the first
// extreme of a slice, in AVX-512 (F, BW, DQ, VL) and AVX2. Each works on
// whole vectors only (n a multiple of a vector's elements, below 2^31) and
// leaves the rest to the Go side. A compare's predicate reads "t PRED x"
// (or "best PRED x"): LT_OQ (0x11) finds x > t, LE_OQ (0x12) x >= t, GT_OQ
// (0x1e) x < t, GE_OQ (0x1d) x <= t; every ordered predicate is false for a
// NaN, which is thereby never found. Every function ends with VZEROUPPER.

// The lane numbers 0, 1, 2… as int32 and as int64.
DATA iota32<>+0(SB)/8, $0x0000000100000000
DATA iota32<>+8(SB)/8, $0x0000000300000002
DATA iota32<>+16(SB)/8, $0x0000000500000004
DATA iota32<>+24(SB)/8, $0x0000000700000006
DATA iota32<>+32(SB)/8, $0x0000000900000008
DATA iota32<>+40(SB)/8, $0x0000000b0000000a
DATA iota32<>+48(SB)/8, $0x0000000d0000000c
DATA iota32<>+56(SB)/8, $0x0000000f0000000e
GLOBL iota32<>(SB), RODATA|NOPTR, $64
DATA iota64<>+0(SB)/8, $0
DATA iota64<>+8(SB)/8, $1
DATA iota64<>+16(SB)/8, $2
DATA iota64<>+24(SB)/8, $3
DATA iota64<>+32(SB)/8, $4
DATA iota64<>+40(SB)/8, $5
DATA iota64<>+48(SB)/8, $6
DATA iota64<>+56(SB)/8, $7
GLOBL iota64<>(SB), RODATA|NOPTR, $64

// ---- the first element past a threshold: func(p *T, n int, t T) int,
// the index of the first x[i] with t PRED x[i], or n. Four vectors a step
// (V1, V2, V3 bytes after the first), their masks M0-M3 tested at once by
// ANY4; the vector that has a hit is found after, MSK taking its mask to a
// general register. LOG is log2 of the element's size.

#define SCAN(NAME, PRED, BCAST, T, CMP, M0, M1, M2, M3, ANY4, MSK, V1, V2, V3, LOG) \
TEXT NAME(SB), NOSPLIT, $0-32; \
	MOVQ p+0(FP), SI; \
	MOVQ n+8(FP), CX; \
	BCAST t+16(FP), T; \
	SHLQ $LOG, CX; \
	XORQ BX, BX; \
loop4:; \
	LEAQ (V1+V3)(BX), DX; \
	CMPQ DX, CX; \
	JA   loop1; \
	CMP  $PRED, (SI)(BX*1), T, M0; \
	CMP  $PRED, V1(SI)(BX*1), T, M1; \
	CMP  $PRED, V2(SI)(BX*1), T, M2; \
	CMP  $PRED, V3(SI)(BX*1), T, M3; \
	ANY4; \
	JNZ  found4; \
	MOVQ DX, BX; \
	JMP  loop4; \
found4:; \
	MSK  M0, AX; \
	TESTL AX, AX; \
	JNZ  hit; \
	ADDQ $V1, BX; \
	MSK  M1, AX; \
	TESTL AX, AX; \
	JNZ  hit; \
	ADDQ $V1, BX; \
	MSK  M2, AX; \
	TESTL AX, AX; \
	JNZ  hit; \
	ADDQ $V1, BX; \
	MSK  M3, AX; \
	JMP  hit; \
loop1:; \
	CMPQ BX, CX; \
	JAE  none; \
	CMP  $PRED, (SI)(BX*1), T, M0; \
	MSK  M0, AX; \
	TESTL AX, AX; \
	JNZ  hit; \
	ADDQ $V1, BX; \
	JMP  loop1; \
hit:; \
	BSFL AX, AX; \
	SHRQ $LOG, BX; \
	ADDQ BX, AX; \
	MOVQ AX, ret+24(FP); \
	VZEROUPPER; \
	RET; \
none:; \
	SHRQ $LOG, CX; \
	MOVQ CX, ret+24(FP); \
	VZEROUPPER; \
	RET

// AVX-512: masks in K1-K4, four vectors at 64, 128, 192 bytes; AVX2: masks
// in Y0-Y3, at 32, 64, 96. ANY4 clears ZF where any of the four has a hit.
#define ANY4_W KORW K1, K2, K5; KORW K3, K4, K6; KORTESTW K5, K6
#define ANY4_B KORB K1, K2, K5; KORB K3, K4, K6; KORTESTB K5, K6
#define ANY4_Y VORPS Y1, Y0, Y4; VORPS Y3, Y2, Y5; VORPS Y5, Y4, Y4; VPTEST Y4, Y4
#define SCAN_F32AVX512(NAME, PRED) SCAN(NAME, PRED, VBROADCASTSS, Z15, VCMPPS, K1, K2, K3, K4, ANY4_W, KMOVW, 64, 128, 192, 2)
#define SCAN_F64AVX512(NAME, PRED) SCAN(NAME, PRED, VBROADCASTSD, Z15, VCMPPD, K1, K2, K3, K4, ANY4_B, KMOVB, 64, 128, 192, 3)
#define SCAN_F32AVX2(NAME, PRED) SCAN(NAME, PRED, VBROADCASTSS, Y15, VCMPPS, Y0, Y1, Y2, Y3, ANY4_Y, VMOVMSKPS, 32, 64, 96, 2)
#define SCAN_F64AVX2(NAME, PRED) SCAN(NAME, PRED, VBROADCASTSD, Y15, VCMPPD, Y0, Y1, Y2, Y3, ANY4_Y, VMOVMSKPD, 32, 64, 96, 3)

SCAN_F32AVX512(·aboveF32AVX512, 0x11)
SCAN_F32AVX512(·atLeastF32AVX512, 0x12)
SCAN_F32AVX512(·belowF32AVX512, 0x1e)
SCAN_F32AVX512(·atMostF32AVX512, 0x1d)
SCAN_F64AVX512(·aboveF64AVX512, 0x11)
SCAN_F64AVX512(·atLeastF64AVX512, 0x12)
SCAN_F64AVX512(·belowF64AVX512, 0x1e)
SCAN_F64AVX512(·atMostF64AVX512, 0x1d)
SCAN_F32AVX2(·aboveF32AVX2, 0x11)
SCAN_F32AVX2(·atLeastF32AVX2, 0x12)
SCAN_F32AVX2(·belowF32AVX2, 0x1e)
SCAN_F32AVX2(·atMostF32AVX2, 0x1d)
SCAN_F64AVX2(·aboveF64AVX2, 0x11)
SCAN_F64AVX2(·atLeastF64AVX2, 0x12)
SCAN_F64AVX2(·belowF64AVX2, 0x1e)
SCAN_F64AVX2(·atMostF64AVX2, 0x1d)

// ---- the first extreme: func(p *T, n int) int, the index of the first
// element x with "best PRED x" false for every later element: PRED LT_OQ
// for the largest (best starts at -inf), GT_OQ for the smallest (at +inf).
// Each lane keeps the best value it saw and its index, the first of equal
// ones (a later equal value does not pass "best < x"); the lanes are then
// combined, a lane taking the other's pair where that is better or equal
// at a lower index. It returns -1 where no element passed the start value
// (every element NaN or that infinity): the Go side decides those.

// A, AI = B, BI in the lanes where B PRED-beats A, or equals it at a lower
// index. CMP compares the elements, PCMP the indexes (signed), MOVV and
// MOVI move them under a mask, KOR ors masks of the element's width.
#define BEST_AVX512(PRED, CMP, PCMP, MOVV, MOVI, KOR, A, AI, B, BI) \
	CMP  $PRED, B, A, K1; \
	CMP  $0, B, A, K2; \
	PCMP $1, AI, BI, K2, K3; \
	KOR  K3, K1, K1; \
	MOVV B, K1, A; \
	MOVI BI, K1, AI
#define BEST_PS(PRED, A, AI, B, BI) BEST_AVX512(PRED, VCMPPS, VPCMPD, VMOVUPS, VMOVDQA32, KORW, A, AI, B, BI)
#define BEST_PD(PRED, A, AI, B, BI) BEST_AVX512(PRED, VCMPPD, VPCMPQ, VMOVUPD, VMOVDQA64, KORB, A, AI, B, BI)

// Z0-Z3 the best values, Z4-Z7 their indexes, Z8-Z11 the indexes of the
// current four vectors, Z12 four vectors' elements, Z13 one's. BEST is
// BEST_PS or BEST_PD; LAST takes the fold from two lanes (float64: one) to
// the result. BCAST broadcasts a general register; ADD adds indexes.
#define ARG_AVX512(NAME, PRED, START, BEST, LAST, CMP, MOVV, MOVI, BCAST, ADD, IOTA, LANES) \
TEXT NAME(SB), NOSPLIT, $0-24; \
	MOVQ p+0(FP), SI; \
	MOVQ n+8(FP), CX; \
	MOVQ $START, AX; \
	BCAST AX, Z0; \
	VMOVDQA64 Z0, Z1; \
	VMOVDQA64 Z0, Z2; \
	VMOVDQA64 Z0, Z3; \
	VPTERNLOGD $0xff, Z4, Z4, Z4; \
	VMOVDQA64 Z4, Z5; \
	VMOVDQA64 Z4, Z6; \
	VMOVDQA64 Z4, Z7; \
	VMOVDQU64 IOTA<>(SB), Z8; \
	MOVQ $LANES, AX; \
	BCAST AX, Z13; \
	ADD  Z13, Z8, Z9; \
	ADD  Z13, Z9, Z10; \
	ADD  Z13, Z10, Z11; \
	MOVQ $(4*LANES), AX; \
	BCAST AX, Z12; \
loop4:; \
	CMPQ CX, $(4*LANES); \
	JB   loop1; \
	MOVV (SI), Z16; \
	MOVV 64(SI), Z17; \
	MOVV 128(SI), Z18; \
	MOVV 192(SI), Z19; \
	CMP  $PRED, Z16, Z0, K1; \
	CMP  $PRED, Z17, Z1, K2; \
	CMP  $PRED, Z18, Z2, K3; \
	CMP  $PRED, Z19, Z3, K4; \
	MOVV Z16, K1, Z0; \
	MOVV Z17, K2, Z1; \
	MOVV Z18, K3, Z2; \
	MOVV Z19, K4, Z3; \
	MOVI Z8, K1, Z4; \
	MOVI Z9, K2, Z5; \
	MOVI Z10, K3, Z6; \
	MOVI Z11, K4, Z7; \
	ADD  Z12, Z8, Z8; \
	ADD  Z12, Z9, Z9; \
	ADD  Z12, Z10, Z10; \
	ADD  Z12, Z11, Z11; \
	ADDQ $256, SI; \
	SUBQ $(4*LANES), CX; \
	JMP  loop4; \
loop1:; \
	CMPQ CX, $LANES; \
	JB   fold; \
	CMP  $PRED, (SI), Z0, K1; \
	MOVV (SI), K1, Z0; \
	MOVI Z8, K1, Z4; \
	ADD  Z13, Z8, Z8; \
	ADDQ $64, SI; \
	SUBQ $LANES, CX; \
	JMP  loop1; \
fold:; \
	BEST(PRED, Z0, Z4, Z1, Z5); \
	BEST(PRED, Z2, Z6, Z3, Z7); \
	BEST(PRED, Z0, Z4, Z2, Z6); \
	VEXTRACTI64X4 $1, Z0, Y1; \
	VEXTRACTI64X4 $1, Z4, Y5; \
	BEST(PRED, Z0, Z4, Z1, Z5); \
	VEXTRACTI128 $1, Y0, X1; \
	VEXTRACTI128 $1, Y4, X5; \
	BEST(PRED, Z0, Z4, Z1, Z5); \
	VPSHUFD $0x4e, X0, X1; \
	VPSHUFD $0x4e, X4, X5; \
	BEST(PRED, Z0, Z4, Z1, Z5); \
	LAST(PRED); \
	VZEROUPPER; \
	RET

#define LAST512_F32(PRED) \
	VPSHUFD $0xb1, X0, X1; \
	VPSHUFD $0xb1, X4, X5; \
	BEST_PS(PRED, Z0, Z4, Z1, Z5); \
	VMOVD X4, AX; \
	MOVLQSX AX, AX; \
	MOVQ AX, ret+16(FP)
#define LAST512_F64(PRED) \
	VMOVQ X4, AX; \
	MOVQ AX, ret+16(FP)

ARG_AVX512(·argMaxF32AVX512, 0x11, 0xff800000, BEST_PS, LAST512_F32, VCMPPS, VMOVUPS, VMOVDQA32, VPBROADCASTD, VPADDD, iota32, 16)
ARG_AVX512(·argMinF32AVX512, 0x1e, 0x7f800000, BEST_PS, LAST512_F32, VCMPPS, VMOVUPS, VMOVDQA32, VPBROADCASTD, VPADDD, iota32, 16)
ARG_AVX512(·argMaxF64AVX512, 0x11, 0xfff0000000000000, BEST_PD, LAST512_F64, VCMPPD, VMOVUPD, VMOVDQA64, VPBROADCASTQ, VPADDQ, iota64, 8)
ARG_AVX512(·argMinF64AVX512, 0x1e, 0x7ff0000000000000, BEST_PD, LAST512_F64, VCMPPD, VMOVUPD, VMOVDQA64, VPBROADCASTQ, VPADDQ, iota64, 8)

// AVX2: two accumulators (sixteen registers); the masks are vectors, and
// blends take the better lanes. GT is the signed integer compare of the
// index's width, BLEND the float blend of the element's.
#define BEST_AVX2(PRED, CMP, GT, BLEND, A, AI, B, BI) \
	CMP  $PRED, B, A, Y12; \
	CMP  $0, B, A, Y13; \
	GT   BI, AI, Y14; \
	VPAND Y14, Y13, Y13; \
	VPOR Y13, Y12, Y12; \
	BLEND Y12, B, A, A; \
	BLEND Y12, BI, AI, AI
#define BEST256_PS(PRED, A, AI, B, BI) BEST_AVX2(PRED, VCMPPS, VPCMPGTD, VBLENDVPS, A, AI, B, BI)
#define BEST256_PD(PRED, A, AI, B, BI) BEST_AVX2(PRED, VCMPPD, VPCMPGTQ, VBLENDVPD, A, AI, B, BI)

// Y0, Y1 the best values, Y2, Y3 their indexes, Y4, Y5 the indexes of the
// current vectors; ADD adds Y6 (two vectors' elements) or Y7 (one's). BEST,
// LAST, BCAST (from an XMM register) as ARG_AVX512's.
#define ARG_AVX2(NAME, PRED, START, BEST, LAST, CMP, BLEND, BCAST, ADD, IOTA, LANES) \
TEXT NAME(SB), NOSPLIT, $0-24; \
	MOVQ p+0(FP), SI; \
	MOVQ n+8(FP), CX; \
	MOVQ $START, AX; \
	MOVQ AX, X0; \
	BCAST X0, Y0; \
	VMOVAPS Y0, Y1; \
	VPCMPEQD Y2, Y2, Y2; \
	VMOVDQA Y2, Y3; \
	VMOVDQU IOTA<>(SB), Y4; \
	MOVQ $LANES, AX; \
	MOVQ AX, X7; \
	BCAST X7, Y7; \
	ADD  Y7, Y4, Y5; \
	ADD  Y7, Y7, Y6; \
loop2:; \
	CMPQ CX, $(2*LANES); \
	JB   loop1; \
	VMOVUPS (SI), Y8; \
	VMOVUPS 32(SI), Y9; \
	CMP  $PRED, Y8, Y0, Y10; \
	CMP  $PRED, Y9, Y1, Y11; \
	BLEND Y10, Y8, Y0, Y0; \
	BLEND Y11, Y9, Y1, Y1; \
	BLEND Y10, Y4, Y2, Y2; \
	BLEND Y11, Y5, Y3, Y3; \
	ADD  Y6, Y4, Y4; \
	ADD  Y6, Y5, Y5; \
	ADDQ $64, SI; \
	SUBQ $(2*LANES), CX; \
	JMP  loop2; \
loop1:; \
	CMPQ CX, $LANES; \
	JB   fold; \
	VMOVUPS (SI), Y8; \
	CMP  $PRED, Y8, Y0, Y10; \
	BLEND Y10, Y8, Y0, Y0; \
	BLEND Y10, Y4, Y2, Y2; \
	ADD  Y7, Y4, Y4; \
	ADDQ $32, SI; \
	SUBQ $LANES, CX; \
	JMP  loop1; \
fold:; \
	BEST(PRED, Y0, Y2, Y1, Y3); \
	VEXTRACTF128 $1, Y0, X1; \
	VEXTRACTI128 $1, Y2, X3; \
	BEST(PRED, Y0, Y2, Y1, Y3); \
	VPSHUFD $0x4e, X0, X1; \
	VPSHUFD $0x4e, X2, X3; \
	BEST(PRED, Y0, Y2, Y1, Y3); \
	LAST(PRED); \
	VZEROUPPER; \
	RET

// The last step of a float32 fold (two lanes left), and the result.
#define LAST256_F32(PRED) \
	VPSHUFD $0xb1, X0, X1; \
	VPSHUFD $0xb1, X2, X3; \
	BEST256_PS(PRED, Y0, Y2, Y1, Y3); \
	VMOVD X2, AX; \
	MOVLQSX AX, AX; \
	MOVQ AX, ret+16(FP)
#define LAST256_F64(PRED) \
	VMOVQ X2, AX; \
	MOVQ AX, ret+16(FP)

ARG_AVX2(·argMaxF32AVX2, 0x11, 0xff800000, BEST256_PS, LAST256_F32, VCMPPS, VBLENDVPS, VPBROADCASTD, VPADDD, iota32, 8)
ARG_AVX2(·argMinF32AVX2, 0x1e, 0x7f800000, BEST256_PS, LAST256_F32, VCMPPS, VBLENDVPS, VPBROADCASTD, VPADDD, iota32, 8)
ARG_AVX2(·argMaxF64AVX2, 0x11, 0xfff0000000000000, BEST256_PD, LAST256_F64, VCMPPD, VBLENDVPD, VPBROADCASTQ, VPADDQ, iota64, 4)
ARG_AVX2(·argMinF64AVX2, 0x1e, 0x7ff0000000000000, BEST256_PD, LAST256_F64, VCMPPD, VBLENDVPD, VPBROADCASTQ, VPADDQ, iota64, 4)
