//go:build !purego

#include "textflag.h"
#include "select_amd64.h"

// The selection kernels in AVX-512 (select_amd64.h): the first element past a threshold, and the first
// extreme.

// Masks in K1-K4, four vectors at 64, 128, 192 bytes. ANY4 clears ZF where any of the four has a hit.
#define ANY4_W KORW K1, K2, K5; KORW K3, K4, K6; KORTESTW K5, K6
#define ANY4_B KORB K1, K2, K5; KORB K3, K4, K6; KORTESTB K5, K6
#define SCAN_F32AVX512(NAME, PRED) SCAN(NAME, PRED, VBROADCASTSS, Z15, VCMPPS, K1, K2, K3, K4, ANY4_W, KMOVW, 64, 128, 192, 2)
#define SCAN_F64AVX512(NAME, PRED) SCAN(NAME, PRED, VBROADCASTSD, Z15, VCMPPD, K1, K2, K3, K4, ANY4_B, KMOVB, 64, 128, 192, 3)

SCAN_F32AVX512(·aboveF32AVX512, 0x11)
SCAN_F32AVX512(·atLeastF32AVX512, 0x12)
SCAN_F32AVX512(·belowF32AVX512, 0x1e)
SCAN_F32AVX512(·atMostF32AVX512, 0x1d)
SCAN_F64AVX512(·aboveF64AVX512, 0x11)
SCAN_F64AVX512(·atLeastF64AVX512, 0x12)
SCAN_F64AVX512(·belowF64AVX512, 0x1e)
SCAN_F64AVX512(·atMostF64AVX512, 0x1d)

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
