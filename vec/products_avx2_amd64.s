//go:build !purego

#include "textflag.h"
#include "products_amd64.h"

// The matrix products' AVX2 kernels (products_amd64.h): the micro-kernels of 6 rows, and SqDists's tile
// kernel.

// AVX2: 6 rows of two vectors (row i in Y2i and Y2i+1), B's vectors in Y12
// and Y13, A's elements broadcast alternately into Y14 and Y15.
#define ZERO6 \
	VXORPS Y0, Y0, Y0; \
	VXORPS Y1, Y1, Y1; \
	VXORPS Y2, Y2, Y2; \
	VXORPS Y3, Y3, Y3; \
	VXORPS Y4, Y4, Y4; \
	VXORPS Y5, Y5, Y5; \
	VXORPS Y6, Y6, Y6; \
	VXORPS Y7, Y7, Y7; \
	VXORPS Y8, Y8, Y8; \
	VXORPS Y9, Y9, Y9; \
	VXORPS Y10, Y10, Y10; \
	VXORPS Y11, Y11, Y11

#define ROWS6(OP) \
	OP(Y0, (R8)); \
	OP(Y1, 32(R8)); \
	ADDQ BX, R8; \
	OP(Y2, (R8)); \
	OP(Y3, 32(R8)); \
	ADDQ BX, R8; \
	OP(Y4, (R8)); \
	OP(Y5, 32(R8)); \
	ADDQ BX, R8; \
	OP(Y6, (R8)); \
	OP(Y7, 32(R8)); \
	ADDQ BX, R8; \
	OP(Y8, (R8)); \
	OP(Y9, 32(R8)); \
	ADDQ BX, R8; \
	OP(Y10, (R8)); \
	OP(Y11, 32(R8)); \
	ADDQ BX, R8

#define STEP6(BCAST, FMA, E, BOFF, AOFF) \
	VMOVUPS BOFF(DI), Y12; \
	VMOVUPS (BOFF+32)(DI), Y13; \
	BCAST (AOFF+0*E)(SI), Y14; \
	BCAST (AOFF+1*E)(SI), Y15; \
	FMA Y12, Y14, Y0; \
	FMA Y13, Y14, Y1; \
	BCAST (AOFF+2*E)(SI), Y14; \
	FMA Y12, Y15, Y2; \
	FMA Y13, Y15, Y3; \
	BCAST (AOFF+3*E)(SI), Y15; \
	FMA Y12, Y14, Y4; \
	FMA Y13, Y14, Y5; \
	BCAST (AOFF+4*E)(SI), Y14; \
	FMA Y12, Y15, Y6; \
	FMA Y13, Y15, Y7; \
	BCAST (AOFF+5*E)(SI), Y15; \
	FMA Y12, Y14, Y8; \
	FMA Y13, Y14, Y9; \
	FMA Y12, Y15, Y10; \
	FMA Y13, Y15, Y11

#define STEP6_F32(BOFF, AOFF) STEP6(VBROADCASTSS, VFMADD231PS, 4, BOFF, AOFF)
#define STEP6_F64(BOFF, AOFF) STEP6(VBROADCASTSD, VFMADD231PD, 8, BOFF, AOFF)

GEMM(·gemmF32AVX2, 6, 4, ZERO6, ROWS6, STEP6_F32)
GEMM(·gemmF64AVX2, 6, 8, ZERO6, ROWS6, STEP6_F64)

// ---- all pairwise squared distances of rows

// Lanes 0..r-1 of a mask of 8 read at tailMask + 32 - 4r.
DATA ·tailMask<>+0(SB)/8, $-1
DATA ·tailMask<>+8(SB)/8, $-1
DATA ·tailMask<>+16(SB)/8, $-1
DATA ·tailMask<>+24(SB)/8, $-1
DATA ·tailMask<>+32(SB)/8, $0
DATA ·tailMask<>+40(SB)/8, $0
DATA ·tailMask<>+48(SB)/8, $0
DATA ·tailMask<>+56(SB)/8, $0
GLOBL ·tailMask<>(SB), RODATA|NOPTR, $64

// One step of 8 columns: two rows of a against four of b, the pair (i, j) in
// Y(2j+i). LOAD(M, R) loads from M into R, masked or not.
#define TILE_STEP(LOAD) \
	LOAD((SI)(AX*1), Y8); \
	LOAD((R8)(AX*1), Y9); \
	LOAD((DI)(AX*1), Y10); \
	TILE_COLUMN(Y0, Y1); \
	LOAD((R11)(AX*1), Y10); \
	TILE_COLUMN(Y2, Y3); \
	LOAD((R12)(AX*1), Y10); \
	TILE_COLUMN(Y4, Y5); \
	LOAD((R13)(AX*1), Y10); \
	TILE_COLUMN(Y6, Y7)

#define TILE_COLUMN(A0, A1) \
	VSUBPS Y10, Y8, Y11; \
	VSUBPS Y10, Y9, Y12; \
	VFMADD231PS Y11, Y11, A0; \
	VFMADD231PS Y12, Y12, A1

#define LOAD_ALL(M, R) VMOVUPS M, R
#define LOAD_MASKED(M, R) VMASKMOVPS M, Y15, R

#define TILE_FOLD(SHUF, LO, HI, X, Y, D) \
	SHUF $LO, Y, X, Y12; \
	SHUF $HI, Y, X, Y13; \
	VADDPS Y13, Y12, D

// func sqDistsF32AVX2(dst *float32, ldd int, a *float32, lda int, b *float32, ldb int, m, k int)
//
// products_avx512_amd64.s's tile kernel for 2 rows of a at a time.
TEXT ·sqDistsF32AVX2(SB), NOSPLIT, $0-64
	MOVQ k+56(FP), CX
	ANDQ $7, CX
	SHLQ $2, CX
	NEGQ CX
	LEAQ ·tailMask<>+32(SB), AX
	VMOVDQU (AX)(CX*1), Y15      // the last step's columns, none if k is a multiple of 8
	MOVQ dst+0(FP), DX
	MOVQ ldd+8(FP), BX
	SHLQ $2, BX
	MOVQ k+56(FP), R14
	SHLQ $2, R14                // the bytes of a row
	MOVQ R14, R10
	ANDQ $-32, R10              // the bytes of its whole vectors
	MOVQ lda+24(FP), AX
	SHLQ $2, AX
	MOVQ a+16(FP), SI
	LEAQ (SI)(AX*1), R8
	MOVQ ldb+40(FP), R9
	SHLQ $2, R9                 // from a row of b to the next
	MOVQ b+32(FP), DI
	MOVQ m+48(FP), CX
block:
	CMPQ CX, $4
	JB   done
	LEAQ (DI)(R9*1), R11
	LEAQ (R11)(R9*1), R12
	LEAQ (R12)(R9*1), R13
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	VXORPS Y4, Y4, Y4
	VXORPS Y5, Y5, Y5
	VXORPS Y6, Y6, Y6
	VXORPS Y7, Y7, Y7
	XORQ AX, AX
inner:
	CMPQ AX, R10
	JAE  tail
	TILE_STEP(LOAD_ALL)
	ADDQ $32, AX
	JMP  inner
tail:
	CMPQ AX, R14
	JAE  reduce
	TILE_STEP(LOAD_MASKED)
reduce:
	TILE_FOLD(VPERM2F128, 0x20, 0x31, Y0, Y1, Y8)
	TILE_FOLD(VPERM2F128, 0x20, 0x31, Y2, Y3, Y9)
	TILE_FOLD(VPERM2F128, 0x20, 0x31, Y4, Y5, Y10)
	TILE_FOLD(VPERM2F128, 0x20, 0x31, Y6, Y7, Y11)
	TILE_FOLD(VSHUFPS, 0x44, 0xee, Y8, Y9, Y0)
	TILE_FOLD(VSHUFPS, 0x44, 0xee, Y10, Y11, Y1)
	TILE_FOLD(VSHUFPS, 0x88, 0xdd, Y0, Y1, Y2)
	VMOVUPS X2, (DX)
	VEXTRACTF128 $1, Y2, (DX)(BX*1)
	ADDQ $16, DX
	LEAQ (DI)(R9*4), DI
	SUBQ $4, CX
	JMP  block
done:
	VZEROUPPER
	RET
