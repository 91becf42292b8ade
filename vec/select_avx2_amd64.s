//go:build !purego

#include "textflag.h"
#include "select_amd64.h"

// The selection kernels in AVX2 (select_amd64.h): the first element past a threshold, and the first
// extreme.

// Masks in Y0-Y3, four vectors at 32, 64, 96 bytes. ANY4 clears ZF where any of the four has a hit.
#define ANY4_Y VORPS Y1, Y0, Y4; VORPS Y3, Y2, Y5; VORPS Y5, Y4, Y4; VPTEST Y4, Y4
#define SCAN_F32AVX2(NAME, PRED) SCAN(NAME, PRED, VBROADCASTSS, Y15, VCMPPS, Y0, Y1, Y2, Y3, ANY4_Y, VMOVMSKPS, 32, 64, 96, 2)
#define SCAN_F64AVX2(NAME, PRED) SCAN(NAME, PRED, VBROADCASTSD, Y15, VCMPPD, Y0, Y1, Y2, Y3, ANY4_Y, VMOVMSKPD, 32, 64, 96, 3)

SCAN_F32AVX2(·aboveF32AVX2, 0x11)
SCAN_F32AVX2(·atLeastF32AVX2, 0x12)
SCAN_F32AVX2(·belowF32AVX2, 0x1e)
SCAN_F32AVX2(·atMostF32AVX2, 0x1d)
SCAN_F64AVX2(·aboveF64AVX2, 0x11)
SCAN_F64AVX2(·atLeastF64AVX2, 0x12)
SCAN_F64AVX2(·belowF64AVX2, 0x1e)
SCAN_F64AVX2(·atMostF64AVX2, 0x1d)

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
