//go:build !purego

#include "textflag.h"
#include "avx512_amd64.h"

// The element-wise arithmetic's AVX-512 kernels (arith.go), made by
// arith_amd64.h's MAP: any length at any address, the elements before dst's
// first 64-byte boundary and after its last whole vector under a mask (12
// and 4 of a NumPy row, 16 bytes off a boundary, which plain Go took in 20
// ns); SqDistConst's, whole vectors only; and after them Scale's and
// Axpy's, whole vectors only.

#define VBYTES 64
#define REG0 Z0
#define REG1 Z1
#define REG2 Z2
#define REG3 Z3
#define REG4 Z4
#define REG5 Z5
#define REG6 Z6
#define REG7 Z7
#define REG8 Z8
#define REG9 Z9
#define REG10 Z10
#define REG11 Z11
#define REGA Z12
#define REGB Z15
#define FRAME 64

// MAP's elements before dst's first 64-byte boundary (BX is 0): x, y and z loaded under their mask,
// which R12 keeps (0 where there are none), and the result kept in the frame for TAIL's STORE_HEAD.
#define HEAD(OP, I1, I2, LOG2SIZE, MOVZ) \
	XORQ R12, R12; \
	HEAD_BYTES(DI, LOG2SIZE); \
	TESTQ AX, AX; \
	JZ   loop4; \
	EDGE(OP, I1, I2, LOG2SIZE, MOVZ); \
	MOVQ R11, R12; \
	VMOVUPS REG0, head-64(SP); \
	MOVQ AX, BX

// The elements after the last whole vector, under a mask, then the head's.
#define TAIL(OP, I1, I2, LOG2SIZE, MOVZ, MOV) \
	MOVQ CX, AX; \
	SUBQ BX, AX; \
	JZ   last; \
	EDGE(OP, I1, I2, LOG2SIZE, MOVZ); \
	MOV REG0, K1, (DI)(BX*1); \
last:; \
	STORE_HEAD(R12, DI, MOV, REG0)

// OP of the AX bytes' elements at BX (fewer than a vector's) into REG0, their mask in R11 and K1 (y and
// z in REG4 and REG5; the other lanes are zeros, whatever OP makes of them).
#define EDGE(OP, I1, I2, LOG2SIZE, MOVZ) \
	MOVQ AX, R9; \
	SHRQ $LOG2SIZE, R9; \
	LANES_MASK(R9, R11, K1); \
	MOVZ (SI)(BX*1), K1, REG0; \
	MOVZ (DX)(BX*1), K1, REG4; \
	MOVZ (R8)(BX*1), K1, REG5; \
	OP(REG0, REG4, REG5, I1, I2)

#include "arith_amd64.h"

// func addF32AVX512(dst, x, y, z *float32, n int, a, b float32), and so on
MAP_PS(·addF32AVX512, WITH_Y, VADDPS, _)
MAP_PD(·addF64AVX512, WITH_Y, VADDPD, _)
MAP_PS(·subF32AVX512, WITH_Y, VSUBPS, _)
MAP_PD(·subF64AVX512, WITH_Y, VSUBPD, _)
MAP_PS(·mulF32AVX512, WITH_Y, VMULPS, _)
MAP_PD(·mulF64AVX512, WITH_Y, VMULPD, _)
MAP_PS(·divF32AVX512, WITH_Y, VDIVPS, _)
MAP_PD(·divF64AVX512, WITH_Y, VDIVPD, _)
MAP_PS(·addConstF32AVX512, WITH_A, VADDPS, _)
MAP_PD(·addConstF64AVX512, WITH_A, VADDPD, _)
MAP_PS(·mulConstF32AVX512, WITH_A, VMULPS, _)
MAP_PD(·mulConstF64AVX512, WITH_A, VMULPD, _)
MAP_PS(·divConstF32AVX512, WITH_A, VDIVPS, _)
MAP_PD(·divConstF64AVX512, WITH_A, VDIVPD, _)
MAP_PS(·mulAddConstF32AVX512, WITH_AB, VMULPS, VADDPS)
MAP_PD(·mulAddConstF64AVX512, WITH_AB, VMULPD, VADDPD)
MAP_PS(·addMulConstF32AVX512, WITH_AB, VADDPS, VMULPS)
MAP_PD(·addMulConstF64AVX512, WITH_AB, VADDPD, VMULPD)
MAP_PS(·mulAddF32AVX512, WITH_YZ, VMULPS, VADDPS)
MAP_PD(·mulAddF64AVX512, WITH_YZ, VMULPD, VADDPD)

// func sqDistConstF32AVX512(p *float32, n int, c float64) (hi, lo float64)
SQDIST_CONST_F32(·sqDistConstF32AVX512)
// func sqDistConstF64AVX512(p *float64, n int, c float64) (hi, lo float64)
SQDIST_CONST_F64(·sqDistConstF64AVX512)

// ---- in place: scale and axpy

// An in-place map of 64-byte vectors: OP(Z) rewrites the vector in register Z,
// with whatever PREP set up. n counts elements of ESIZE bytes.
#define MAP_INPLACE(NAME, ARGS, PREP, OP, ESIZE) \
TEXT NAME(SB), NOSPLIT, ARGS; \
	MOVQ p+0(FP), SI; \
	MOVQ n+8(FP), CX; \
	IMULQ $ESIZE, CX; \
	PREP; \
loop4:; \
	CMPQ CX, $256; \
	JB   loop1; \
	VMOVDQU64 (SI), Z0; \
	VMOVDQU64 64(SI), Z1; \
	VMOVDQU64 128(SI), Z2; \
	VMOVDQU64 192(SI), Z3; \
	OP(Z0); \
	OP(Z1); \
	OP(Z2); \
	OP(Z3); \
	VMOVDQU64 Z0, (SI); \
	VMOVDQU64 Z1, 64(SI); \
	VMOVDQU64 Z2, 128(SI); \
	VMOVDQU64 Z3, 192(SI); \
	ADDQ $256, SI; \
	SUBQ $256, CX; \
	JMP  loop4; \
loop1:; \
	CMPQ CX, $64; \
	JB   done; \
	VMOVDQU64 (SI), Z0; \
	OP(Z0); \
	VMOVDQU64 Z0, (SI); \
	ADDQ $64, SI; \
	SUBQ $64, CX; \
	JMP  loop1; \
done:; \
	VZEROUPPER; \
	RET

#define BCAST_F32 VBROADCASTSS a+16(FP), Z15
#define BCAST_F64 VBROADCASTSD a+16(FP), Z15
#define BCAST_W MOVQ a+16(FP), AX; VPBROADCASTW AX, Z15
#define BCAST_D MOVQ a+16(FP), AX; VPBROADCASTD AX, Z15
#define BCAST_Q MOVQ a+16(FP), AX; VPBROADCASTQ AX, Z15
#define MUL_PS(Z) VMULPS Z15, Z, Z
#define MUL_PD(Z) VMULPD Z15, Z, Z
#define MUL_W(Z) VPMULLW Z15, Z, Z
#define MUL_D(Z) VPMULLD Z15, Z, Z
#define MUL_Q(Z) VPMULLQ Z15, Z, Z
// Bytes have no multiply: the even bytes are the low bytes of 16-bit
// products, the odd ones the low bytes of the products of the words shifted
// down; Z14 keeps the even bytes (0x00ff in each word).
#define BCAST_B BCAST_W; MOVL $0x00ff00ff, AX; VPBROADCASTD AX, Z14
#define MUL_B(Z) \
	VPSRLW $8, Z, Z13; \
	VPMULLW Z15, Z, Z; \
	VPMULLW Z15, Z13, Z13; \
	VPSLLW $8, Z13, Z13; \
	VPTERNLOGQ $0xec, Z14, Z13, Z

// func scaleF32AVX512(p *float32, n int, a float32)
MAP_INPLACE(·scaleF32AVX512, $0-20, BCAST_F32, MUL_PS, 4)
// func scaleF64AVX512(p *float64, n int, a float64)
MAP_INPLACE(·scaleF64AVX512, $0-24, BCAST_F64, MUL_PD, 8)
// func scaleI8AVX512(p unsafe.Pointer, n int, a uint64)
MAP_INPLACE(·scaleI8AVX512, $0-24, BCAST_B, MUL_B, 1)
// func scaleI16AVX512(p unsafe.Pointer, n int, a uint64)
MAP_INPLACE(·scaleI16AVX512, $0-24, BCAST_W, MUL_W, 2)
// func scaleI32AVX512(p unsafe.Pointer, n int, a uint64)
MAP_INPLACE(·scaleI32AVX512, $0-24, BCAST_D, MUL_D, 4)
// func scaleI64AVX512(p unsafe.Pointer, n int, a uint64)
MAP_INPLACE(·scaleI64AVX512, $0-24, BCAST_Q, MUL_Q, 8)

// y += a*x, the product rounded before the sum. ESIZE bytes an element.
#define AXPY(NAME, ARGS, BCAST, MUL, ADD, ESIZE) \
TEXT NAME(SB), NOSPLIT, ARGS; \
	MOVQ y+0(FP), SI; \
	MOVQ x+8(FP), DI; \
	MOVQ n+16(FP), CX; \
	IMULQ $ESIZE, CX; \
	BCAST a+24(FP), Z15; \
loop4:; \
	CMPQ CX, $256; \
	JB   loop1; \
	MUL (DI), Z15, Z0; \
	MUL 64(DI), Z15, Z1; \
	MUL 128(DI), Z15, Z2; \
	MUL 192(DI), Z15, Z3; \
	ADD (SI), Z0, Z0; \
	ADD 64(SI), Z1, Z1; \
	ADD 128(SI), Z2, Z2; \
	ADD 192(SI), Z3, Z3; \
	VMOVDQU64 Z0, (SI); \
	VMOVDQU64 Z1, 64(SI); \
	VMOVDQU64 Z2, 128(SI); \
	VMOVDQU64 Z3, 192(SI); \
	ADDQ $256, SI; \
	ADDQ $256, DI; \
	SUBQ $256, CX; \
	JMP  loop4; \
loop1:; \
	CMPQ CX, $64; \
	JB   done; \
	MUL (DI), Z15, Z0; \
	ADD (SI), Z0, Z0; \
	VMOVDQU64 Z0, (SI); \
	ADDQ $64, SI; \
	ADDQ $64, DI; \
	SUBQ $64, CX; \
	JMP  loop1; \
done:; \
	VZEROUPPER; \
	RET

// func axpyF32AVX512(y, x *float32, n int, a float32)
AXPY(·axpyF32AVX512, $0-28, VBROADCASTSS, VMULPS, VADDPS, 4)
// func axpyF64AVX512(y, x *float64, n int, a float64)
AXPY(·axpyF64AVX512, $0-32, VBROADCASTSD, VMULPD, VADDPD, 8)
