//go:build !purego

#include "textflag.h"
#include "products_amd64.h"

// The matrix products' AVX-512 kernels (products_amd64.h): the micro-kernels of 16 rows, the transposes
// that pack their panels, and SqDists's tile kernel.

// AVX-512: 16 rows in Z0-Z15, B's vector in Z16.
#define ZERO16 \
	VPXORD Z0, Z0, Z0; \
	VPXORD Z1, Z1, Z1; \
	VPXORD Z2, Z2, Z2; \
	VPXORD Z3, Z3, Z3; \
	VPXORD Z4, Z4, Z4; \
	VPXORD Z5, Z5, Z5; \
	VPXORD Z6, Z6, Z6; \
	VPXORD Z7, Z7, Z7; \
	VPXORD Z8, Z8, Z8; \
	VPXORD Z9, Z9, Z9; \
	VPXORD Z10, Z10, Z10; \
	VPXORD Z11, Z11, Z11; \
	VPXORD Z12, Z12, Z12; \
	VPXORD Z13, Z13, Z13; \
	VPXORD Z14, Z14, Z14; \
	VPXORD Z15, Z15, Z15

#define ROWS16(OP) \
	OP(Z0, (R8)); \
	ADDQ BX, R8; \
	OP(Z1, (R8)); \
	ADDQ BX, R8; \
	OP(Z2, (R8)); \
	ADDQ BX, R8; \
	OP(Z3, (R8)); \
	ADDQ BX, R8; \
	OP(Z4, (R8)); \
	ADDQ BX, R8; \
	OP(Z5, (R8)); \
	ADDQ BX, R8; \
	OP(Z6, (R8)); \
	ADDQ BX, R8; \
	OP(Z7, (R8)); \
	ADDQ BX, R8; \
	OP(Z8, (R8)); \
	ADDQ BX, R8; \
	OP(Z9, (R8)); \
	ADDQ BX, R8; \
	OP(Z10, (R8)); \
	ADDQ BX, R8; \
	OP(Z11, (R8)); \
	ADDQ BX, R8; \
	OP(Z12, (R8)); \
	ADDQ BX, R8; \
	OP(Z13, (R8)); \
	ADDQ BX, R8; \
	OP(Z14, (R8)); \
	ADDQ BX, R8; \
	OP(Z15, (R8)); \
	ADDQ BX, R8

#define STEP16(FMA, E, BOFF, AOFF) \
	VMOVUPS BOFF(DI), Z16; \
	FMA (AOFF+0*E)(SI), Z16, Z0; \
	FMA (AOFF+1*E)(SI), Z16, Z1; \
	FMA (AOFF+2*E)(SI), Z16, Z2; \
	FMA (AOFF+3*E)(SI), Z16, Z3; \
	FMA (AOFF+4*E)(SI), Z16, Z4; \
	FMA (AOFF+5*E)(SI), Z16, Z5; \
	FMA (AOFF+6*E)(SI), Z16, Z6; \
	FMA (AOFF+7*E)(SI), Z16, Z7; \
	FMA (AOFF+8*E)(SI), Z16, Z8; \
	FMA (AOFF+9*E)(SI), Z16, Z9; \
	FMA (AOFF+10*E)(SI), Z16, Z10; \
	FMA (AOFF+11*E)(SI), Z16, Z11; \
	FMA (AOFF+12*E)(SI), Z16, Z12; \
	FMA (AOFF+13*E)(SI), Z16, Z13; \
	FMA (AOFF+14*E)(SI), Z16, Z14; \
	FMA (AOFF+15*E)(SI), Z16, Z15

#define STEP16_F32(BOFF, AOFF) STEP16(VFMADD231PS.BCST, 4, BOFF, AOFF)
#define STEP16_F64(BOFF, AOFF) STEP16(VFMADD231PD.BCST, 8, BOFF, AOFF)

GEMM(·gemmF32AVX512, 16, 4, ZERO16, ROWS16, STEP16_F32)
GEMM(·gemmF64AVX512, 16, 8, ZERO16, ROWS16, STEP16_F64)

// Four rows of the transposes' source, at BASE, BASE+ld, +2ld and +3ld (BX
// is ld in bytes, AX 3ld), into R0-R3.
#define ROWS4(BASE, R0, R1, R2, R3) \
	VMOVUPS (BASE), R0; \
	VMOVUPS (BASE)(BX*1), R1; \
	VMOVUPS (BASE)(BX*2), R2; \
	VMOVUPS (BASE)(AX*1), R3

// Four columns of the transposes' destination, from R12 on, r elements
// apart (DX is r in bytes, R11 3r); R12 moves on 4 columns.
#define COLUMNS4(R0, R1, R2, R3) \
	VMOVUPS R0, (R12); \
	VMOVUPS R1, (R12)(DX*1); \
	VMOVUPS R2, (R12)(DX*2); \
	VMOVUPS R3, (R12)(R11*1); \
	LEAQ (R12)(DX*4), R12

// Fetches the same 64 bytes of the four rows from BASE on into the cache
// ahead of their use, and moves BASE on four rows.
#define PREFETCH4(BASE) \
	PREFETCHT0 (BASE); \
	PREFETCHT0 (BASE)(BX*1); \
	PREFETCHT0 (BASE)(BX*2); \
	PREFETCHT0 (BASE)(AX*1); \
	LEAQ (BASE)(BX*4), BASE

// The arguments of the transposes, in bytes: DI dst, DX r, SI src, BX ld,
// AX 3ld, R11 3r, CX blocks.
#define TRANSPOSE_ARGS(E) \
	MOVQ dst+0(FP), DI; \
	MOVQ r+8(FP), DX; \
	IMULQ $E, DX; \
	MOVQ src+16(FP), SI; \
	MOVQ ld+24(FP), BX; \
	IMULQ $E, BX; \
	MOVQ blocks+32(FP), CX; \
	LEAQ (BX)(BX*2), AX; \
	LEAQ (DX)(DX*2), R11

// func transposeF32AVX512(dst *float32, r int, src *float32, ld, blocks int)
//
// 16 rows of src (ld elements apart) by blocks of 16 columns, packed column
// after column into dst, columns r elements apart: dst[c*r + i] is src[i*ld
// + c]. Each block of 16 by 16 is transposed in registers: rows interleaved
// by 32 bits, then by 64, then by 128 twice. The next 16 rows, which the
// next panel packs, are fetched into the cache meanwhile: the source comes
// from memory one panel at a time (a Dots's rows of b), and the kernel's
// time between two panels hides the fetch.
TEXT ·transposeF32AVX512(SB), NOSPLIT, $0-40
	TRANSPOSE_ARGS(4)
	LEAQ (SI)(BX*4), R8         // rows 4, 8 and 12
	LEAQ (R8)(BX*4), R9
	LEAQ (R9)(BX*4), R10
	LEAQ (R10)(BX*4), R13       // row 16
block16:
	MOVQ R13, R14
	PREFETCH4(R14)
	PREFETCH4(R14)
	PREFETCH4(R14)
	PREFETCH4(R14)
	ROWS4(SI, Z0, Z1, Z2, Z3)
	ROWS4(R8, Z4, Z5, Z6, Z7)
	ROWS4(R9, Z8, Z9, Z10, Z11)
	ROWS4(R10, Z12, Z13, Z14, Z15)
	// rows 2g and 2g+1, interleaved: Z(16+2g) from the low halves of each 128 bits, Z(17+2g) the high
	VUNPCKLPS Z1, Z0, Z16
	VUNPCKHPS Z1, Z0, Z17
	VUNPCKLPS Z3, Z2, Z18
	VUNPCKHPS Z3, Z2, Z19
	VUNPCKLPS Z5, Z4, Z20
	VUNPCKHPS Z5, Z4, Z21
	VUNPCKLPS Z7, Z6, Z22
	VUNPCKHPS Z7, Z6, Z23
	VUNPCKLPS Z9, Z8, Z24
	VUNPCKHPS Z9, Z8, Z25
	VUNPCKLPS Z11, Z10, Z26
	VUNPCKHPS Z11, Z10, Z27
	VUNPCKLPS Z13, Z12, Z28
	VUNPCKHPS Z13, Z12, Z29
	VUNPCKLPS Z15, Z14, Z30
	VUNPCKHPS Z15, Z14, Z31
	// by pairs: Z(4h+c) holds rows 4h to 4h+3 of column 4L+c in its 128 bits L
	VUNPCKLPD Z18, Z16, Z0
	VUNPCKHPD Z18, Z16, Z1
	VUNPCKLPD Z19, Z17, Z2
	VUNPCKHPD Z19, Z17, Z3
	VUNPCKLPD Z22, Z20, Z4
	VUNPCKHPD Z22, Z20, Z5
	VUNPCKLPD Z23, Z21, Z6
	VUNPCKHPD Z23, Z21, Z7
	VUNPCKLPD Z26, Z24, Z8
	VUNPCKHPD Z26, Z24, Z9
	VUNPCKLPD Z27, Z25, Z10
	VUNPCKHPD Z27, Z25, Z11
	VUNPCKLPD Z30, Z28, Z12
	VUNPCKHPD Z30, Z28, Z13
	VUNPCKLPD Z31, Z29, Z14
	VUNPCKHPD Z31, Z29, Z15
	// by 128 bits: rows 0-7 (Z16+4c: columns c and 4+c; Z17+4c: 8+c and 12+c), rows 8-15 (Z18+4c, Z19+4c)
	VSHUFF32X4 $0x44, Z4, Z0, Z16
	VSHUFF32X4 $0xee, Z4, Z0, Z17
	VSHUFF32X4 $0x44, Z12, Z8, Z18
	VSHUFF32X4 $0xee, Z12, Z8, Z19
	VSHUFF32X4 $0x44, Z5, Z1, Z20
	VSHUFF32X4 $0xee, Z5, Z1, Z21
	VSHUFF32X4 $0x44, Z13, Z9, Z22
	VSHUFF32X4 $0xee, Z13, Z9, Z23
	VSHUFF32X4 $0x44, Z6, Z2, Z24
	VSHUFF32X4 $0xee, Z6, Z2, Z25
	VSHUFF32X4 $0x44, Z14, Z10, Z26
	VSHUFF32X4 $0xee, Z14, Z10, Z27
	VSHUFF32X4 $0x44, Z7, Z3, Z28
	VSHUFF32X4 $0xee, Z7, Z3, Z29
	VSHUFF32X4 $0x44, Z15, Z11, Z30
	VSHUFF32X4 $0xee, Z15, Z11, Z31
	// and the columns whole: column p in Z(p)
	VSHUFF32X4 $0x88, Z18, Z16, Z0
	VSHUFF32X4 $0xdd, Z18, Z16, Z4
	VSHUFF32X4 $0x88, Z19, Z17, Z8
	VSHUFF32X4 $0xdd, Z19, Z17, Z12
	VSHUFF32X4 $0x88, Z22, Z20, Z1
	VSHUFF32X4 $0xdd, Z22, Z20, Z5
	VSHUFF32X4 $0x88, Z23, Z21, Z9
	VSHUFF32X4 $0xdd, Z23, Z21, Z13
	VSHUFF32X4 $0x88, Z26, Z24, Z2
	VSHUFF32X4 $0xdd, Z26, Z24, Z6
	VSHUFF32X4 $0x88, Z27, Z25, Z10
	VSHUFF32X4 $0xdd, Z27, Z25, Z14
	VSHUFF32X4 $0x88, Z30, Z28, Z3
	VSHUFF32X4 $0xdd, Z30, Z28, Z7
	VSHUFF32X4 $0x88, Z31, Z29, Z11
	VSHUFF32X4 $0xdd, Z31, Z29, Z15
	MOVQ DI, R12
	COLUMNS4(Z0, Z1, Z2, Z3)
	COLUMNS4(Z4, Z5, Z6, Z7)
	COLUMNS4(Z8, Z9, Z10, Z11)
	COLUMNS4(Z12, Z13, Z14, Z15)
	MOVQ R12, DI
	ADDQ $64, SI
	ADDQ $64, R8
	ADDQ $64, R9
	ADDQ $64, R10
	ADDQ $64, R13
	DECQ CX
	JNZ  block16
	VZEROUPPER
	RET

// func transposeF64AVX512(dst *float64, r int, src *float64, ld, blocks int)
//
// transposeF32AVX512 for 8 rows of float64 by blocks of 8 columns:
// dst[c*r + i] is src[i*ld + c], the next 8 rows fetched meanwhile.
TEXT ·transposeF64AVX512(SB), NOSPLIT, $0-40
	TRANSPOSE_ARGS(8)
	LEAQ (SI)(BX*4), R8
	LEAQ (R8)(BX*4), R13        // row 8
block8:
	MOVQ R13, R14
	PREFETCH4(R14)
	PREFETCH4(R14)
	ROWS4(SI, Z0, Z1, Z2, Z3)
	ROWS4(R8, Z4, Z5, Z6, Z7)
	// rows 2g and 2g+1 interleaved: Z(8+2g+c) holds them for column 2L+c in its 128 bits L
	VUNPCKLPD Z1, Z0, Z8
	VUNPCKHPD Z1, Z0, Z9
	VUNPCKLPD Z3, Z2, Z10
	VUNPCKHPD Z3, Z2, Z11
	VUNPCKLPD Z5, Z4, Z12
	VUNPCKHPD Z5, Z4, Z13
	VUNPCKLPD Z7, Z6, Z14
	VUNPCKHPD Z7, Z6, Z15
	// by 128 bits: rows 0-3 (Z16+4c: columns c and 2+c; Z17+4c: 4+c and 6+c), rows 4-7 (Z18+4c, Z19+4c)
	VSHUFF64X2 $0x44, Z10, Z8, Z16
	VSHUFF64X2 $0xee, Z10, Z8, Z17
	VSHUFF64X2 $0x44, Z14, Z12, Z18
	VSHUFF64X2 $0xee, Z14, Z12, Z19
	VSHUFF64X2 $0x44, Z11, Z9, Z20
	VSHUFF64X2 $0xee, Z11, Z9, Z21
	VSHUFF64X2 $0x44, Z15, Z13, Z22
	VSHUFF64X2 $0xee, Z15, Z13, Z23
	// and the columns whole: column p in Z(p)
	VSHUFF64X2 $0x88, Z18, Z16, Z0
	VSHUFF64X2 $0xdd, Z18, Z16, Z2
	VSHUFF64X2 $0x88, Z19, Z17, Z4
	VSHUFF64X2 $0xdd, Z19, Z17, Z6
	VSHUFF64X2 $0x88, Z22, Z20, Z1
	VSHUFF64X2 $0xdd, Z22, Z20, Z3
	VSHUFF64X2 $0x88, Z23, Z21, Z5
	VSHUFF64X2 $0xdd, Z23, Z21, Z7
	MOVQ DI, R12
	COLUMNS4(Z0, Z1, Z2, Z3)
	COLUMNS4(Z4, Z5, Z6, Z7)
	MOVQ R12, DI
	ADDQ $64, SI
	ADDQ $64, R8
	ADDQ $64, R13
	DECQ CX
	JNZ  block8
	VZEROUPPER
	RET

// ---- all pairwise squared distances of rows

// One step of 16 columns (c) of the tile kernel, loads masked by K: four rows
// of a against four of b, the pair (i, j) accumulated in Z(4j+i).
#define TILE_STEP(K) \
	VMOVUPS.Z (SI)(AX*1), K, Z16; \
	VMOVUPS.Z (R8)(AX*1), K, Z17; \
	VMOVUPS.Z (R9)(AX*1), K, Z18; \
	VMOVUPS.Z (R10)(AX*1), K, Z19; \
	VMOVUPS.Z (DI)(AX*1), K, Z20; \
	VMOVUPS.Z (R11)(AX*1), K, Z25; \
	VMOVUPS.Z (R12)(AX*1), K, Z26; \
	VMOVUPS.Z (R13)(AX*1), K, Z27; \
	TILE_COLUMN(Z20, Z0, Z1, Z2, Z3); \
	TILE_COLUMN(Z25, Z4, Z5, Z6, Z7); \
	TILE_COLUMN(Z26, Z8, Z9, Z10, Z11); \
	TILE_COLUMN(Z27, Z12, Z13, Z14, Z15)

// The four rows of a (Z16-Z19) against one row B of b, into A0-A3.
#define TILE_COLUMN(B, A0, A1, A2, A3) \
	VSUBPS B, Z16, Z21; \
	VSUBPS B, Z17, Z22; \
	VSUBPS B, Z18, Z23; \
	VSUBPS B, Z19, Z24; \
	VFMADD231PS Z21, Z21, A0; \
	VFMADD231PS Z22, Z22, A1; \
	VFMADD231PS Z23, Z23, A2; \
	VFMADD231PS Z24, Z24, A3

// Adds the halves of X and Y's blocks selected by the shuffles LO and HI into D.
#define TILE_FOLD(SHUF, LO, HI, X, Y, D) \
	SHUF $LO, Y, X, Z24; \
	SHUF $HI, Y, X, Z25; \
	VADDPS Z25, Z24, D

// func sqDistsF32AVX512(dst *float32, ldd int, a *float32, lda int, b *float32, ldb int, m, k int)
//
// The distances of 4 rows of a (k float32 each, lda apart: 0 repeats one) to
// m rows of b (m a multiple of 4, ldb apart) into 4 rows of dst, ldd
// elements apart. Each pair's 16 lanes are summed by a transposing reduction
// of the 16 accumulators, whose result is the 4x4 block in row order.
TEXT ·sqDistsF32AVX512(SB), NOSPLIT, $0-64
	MOVQ k+56(FP), CX
	ANDQ $15, CX
	MOVL $1, AX
	SHLL CX, AX
	DECL AX
	KMOVW AX, K2                // the last step's columns, none if k is a multiple of 16
	KXNORW K1, K1, K1
	MOVQ dst+0(FP), DX
	MOVQ ldd+8(FP), BX
	SHLQ $2, BX
	MOVQ k+56(FP), R14
	SHLQ $2, R14
	ANDQ $-64, R14              // the bytes of a row's whole vectors
	MOVQ lda+24(FP), AX
	SHLQ $2, AX
	MOVQ a+16(FP), SI
	LEAQ (SI)(AX*1), R8
	LEAQ (R8)(AX*1), R9
	LEAQ (R9)(AX*1), R10
	MOVQ ldb+40(FP), R15
	SHLQ $2, R15                // from a row of b to the next
	MOVQ b+32(FP), DI
	MOVQ m+48(FP), CX
block:
	CMPQ CX, $4
	JB   done
	LEAQ (DI)(R15*1), R11
	LEAQ (R11)(R15*1), R12
	LEAQ (R12)(R15*1), R13
	VXORPS Z0, Z0, Z0
	VXORPS Z1, Z1, Z1
	VXORPS Z2, Z2, Z2
	VXORPS Z3, Z3, Z3
	VXORPS Z4, Z4, Z4
	VXORPS Z5, Z5, Z5
	VXORPS Z6, Z6, Z6
	VXORPS Z7, Z7, Z7
	VXORPS Z8, Z8, Z8
	VXORPS Z9, Z9, Z9
	VXORPS Z10, Z10, Z10
	VXORPS Z11, Z11, Z11
	VXORPS Z12, Z12, Z12
	VXORPS Z13, Z13, Z13
	VXORPS Z14, Z14, Z14
	VXORPS Z15, Z15, Z15
	XORQ AX, AX
inner:
	CMPQ AX, R14
	JAE  tail
	TILE_STEP(K1)
	ADDQ $64, AX
	JMP  inner
tail:
	KORTESTW K2, K2
	JZ   reduce
	TILE_STEP(K2)
reduce:
	// 16 vectors of 16 lanes to 16 sums: halves of 256, 128, 64 and 32 bits.
	TILE_FOLD(VSHUFF32X4, 0x44, 0xee, Z0, Z1, Z16)
	TILE_FOLD(VSHUFF32X4, 0x44, 0xee, Z2, Z3, Z17)
	TILE_FOLD(VSHUFF32X4, 0x44, 0xee, Z4, Z5, Z18)
	TILE_FOLD(VSHUFF32X4, 0x44, 0xee, Z6, Z7, Z19)
	TILE_FOLD(VSHUFF32X4, 0x44, 0xee, Z8, Z9, Z20)
	TILE_FOLD(VSHUFF32X4, 0x44, 0xee, Z10, Z11, Z21)
	TILE_FOLD(VSHUFF32X4, 0x44, 0xee, Z12, Z13, Z22)
	TILE_FOLD(VSHUFF32X4, 0x44, 0xee, Z14, Z15, Z23)
	TILE_FOLD(VSHUFF32X4, 0x88, 0xdd, Z16, Z17, Z0)
	TILE_FOLD(VSHUFF32X4, 0x88, 0xdd, Z18, Z19, Z1)
	TILE_FOLD(VSHUFF32X4, 0x88, 0xdd, Z20, Z21, Z2)
	TILE_FOLD(VSHUFF32X4, 0x88, 0xdd, Z22, Z23, Z3)
	TILE_FOLD(VSHUFPS, 0x44, 0xee, Z0, Z1, Z4)
	TILE_FOLD(VSHUFPS, 0x44, 0xee, Z2, Z3, Z5)
	TILE_FOLD(VSHUFPS, 0x88, 0xdd, Z4, Z5, Z16)
	VMOVUPS X16, (DX)
	VEXTRACTF32X4 $1, Z16, (DX)(BX*1)
	VEXTRACTF32X4 $2, Z16, (DX)(BX*2)
	LEAQ (DX)(BX*2), AX
	ADDQ BX, AX
	VEXTRACTF32X4 $3, Z16, (AX)
	ADDQ $16, DX
	LEAQ (DI)(R15*4), DI
	SUBQ $4, CX
	JMP  block
done:
	VZEROUPPER
	RET
