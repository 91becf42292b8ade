//go:build !purego

#include "textflag.h"

// The matrix products' NEON micro-kernel: 8 rows by two vectors of columns
// (8 float32 or 4 float64), its 16 accumulators V0-V15 (row i in V2i and
// V2i+1). A step of k loads B's two vectors (V16, V17) and A's 8 elements
// (V18 on), and multiplies each row's element, taken from its lane, into
// the row's accumulators. Every element is one chain of fused
// multiply-adds in the order of k, as the other paths have it.
//
// FMLA by element is encoded as a WORD (see reductions_neon_arm64.s): Vd += Vn times
// lane i of Vm, of 4 float32 (FMLAS) or 2 float64 (FMLAD).
#define FMLAS(m, i, n, d) WORD $(0x4F801000 | (((i)&1)<<21) | ((m)<<16) | (((i)>>1)<<11) | ((n)<<5) | (d))
#define FMLAD(m, i, n, d) WORD $(0x4FC01000 | ((m)<<16) | ((i)<<11) | ((n)<<5) | (d))

// The 8 rows of a tile, at R9 and ldc bytes (R1) apart, each OP with its two
// accumulators: R9 ends past the tile.
#define ROWS8(OP, ARR) \
	OP(V0.ARR, V1.ARR); \
	ADD R1, R9; \
	OP(V2.ARR, V3.ARR); \
	ADD R1, R9; \
	OP(V4.ARR, V5.ARR); \
	ADD R1, R9; \
	OP(V6.ARR, V7.ARR); \
	ADD R1, R9; \
	OP(V8.ARR, V9.ARR); \
	ADD R1, R9; \
	OP(V10.ARR, V11.ARR); \
	ADD R1, R9; \
	OP(V12.ARR, V13.ARR); \
	ADD R1, R9; \
	OP(V14.ARR, V15.ARR); \
	ADD R1, R9

#define LOAD(X, Y) VLD1 (R9), [X, Y]
#define STORE(X, Y) VST1 [X, Y], (R9)

// func gemmF32NEON(dst *float32, ldc int, a, b *float32, kc, panels, flags int)
// func gemmF64NEON(dst *float64, ldc int, a, b *float64, kc, panels, flags int)
//
// Tiles of 8 rows, one under the other, for panels of A (kc steps of 8
// elements of E bytes) one after the other, times one panel of B (kc steps
// of two vectors): see microKernel (streamStores is ignored). kc is at
// least 1.
#define GEMM8(NAME, ARR, LOGE, LOADA, FMLAS8) \
TEXT NAME(SB), NOSPLIT, $0-56; \
	MOVD dst+0(FP), R0; \
	MOVD ldc+8(FP), R1; \
	LSL  $LOGE, R1; \
	MOVD a+16(FP), R2; \
	MOVD b+24(FP), R3; \
	MOVD kc+32(FP), R4; \
	MOVD panels+40(FP), R5; \
	MOVD flags+48(FP), R6; \
panel:; \
	TBNZ $0, R6, load; \
	VEOR V0.B16, V0.B16, V0.B16; \
	VEOR V1.B16, V1.B16, V1.B16; \
	VEOR V2.B16, V2.B16, V2.B16; \
	VEOR V3.B16, V3.B16, V3.B16; \
	VEOR V4.B16, V4.B16, V4.B16; \
	VEOR V5.B16, V5.B16, V5.B16; \
	VEOR V6.B16, V6.B16, V6.B16; \
	VEOR V7.B16, V7.B16, V7.B16; \
	VEOR V8.B16, V8.B16, V8.B16; \
	VEOR V9.B16, V9.B16, V9.B16; \
	VEOR V10.B16, V10.B16, V10.B16; \
	VEOR V11.B16, V11.B16, V11.B16; \
	VEOR V12.B16, V12.B16, V12.B16; \
	VEOR V13.B16, V13.B16, V13.B16; \
	VEOR V14.B16, V14.B16, V14.B16; \
	VEOR V15.B16, V15.B16, V15.B16; \
	B    steps; \
load:; \
	MOVD R0, R9; \
	ROWS8(LOAD, ARR); \
steps:; \
	MOVD R3, R7; \
	MOVD R4, R8; \
loop:; \
	VLD1.P 32(R7), [V16.ARR, V17.ARR]; \
	LOADA; \
	FMLAS8; \
	SUBS $1, R8; \
	BNE  loop; \
	MOVD R0, R9; \
	ROWS8(STORE, ARR); \
	MOVD R9, R0; \
	SUBS $1, R5; \
	BNE  panel; \
	RET

// Each row's element of A (the rows' lanes in V18-V19) times B, for float32,
#define STEP_F32 \
	FMLAS(18, 0, 16, 0); \
	FMLAS(18, 0, 17, 1); \
	FMLAS(18, 1, 16, 2); \
	FMLAS(18, 1, 17, 3); \
	FMLAS(18, 2, 16, 4); \
	FMLAS(18, 2, 17, 5); \
	FMLAS(18, 3, 16, 6); \
	FMLAS(18, 3, 17, 7); \
	FMLAS(19, 0, 16, 8); \
	FMLAS(19, 0, 17, 9); \
	FMLAS(19, 1, 16, 10); \
	FMLAS(19, 1, 17, 11); \
	FMLAS(19, 2, 16, 12); \
	FMLAS(19, 2, 17, 13); \
	FMLAS(19, 3, 16, 14); \
	FMLAS(19, 3, 17, 15)

// and for float64, the rows' elements in V18-V21; and A's loads.
#define STEP_F64 \
	FMLAD(18, 0, 16, 0); \
	FMLAD(18, 0, 17, 1); \
	FMLAD(18, 1, 16, 2); \
	FMLAD(18, 1, 17, 3); \
	FMLAD(19, 0, 16, 4); \
	FMLAD(19, 0, 17, 5); \
	FMLAD(19, 1, 16, 6); \
	FMLAD(19, 1, 17, 7); \
	FMLAD(20, 0, 16, 8); \
	FMLAD(20, 0, 17, 9); \
	FMLAD(20, 1, 16, 10); \
	FMLAD(20, 1, 17, 11); \
	FMLAD(21, 0, 16, 12); \
	FMLAD(21, 0, 17, 13); \
	FMLAD(21, 1, 16, 14); \
	FMLAD(21, 1, 17, 15)

#define LOADA_F32 VLD1.P 32(R2), [V18.S4, V19.S4]
#define LOADA_F64 VLD1.P 64(R2), [V18.D2, V19.D2, V20.D2, V21.D2]

GEMM8(·gemmF32NEON, S4, 2, LOADA_F32, STEP_F32)
GEMM8(·gemmF64NEON, D2, 3, LOADA_F64, STEP_F64)
