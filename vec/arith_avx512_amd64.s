//go:build !purego

#include "textflag.h"
#include "avx512_amd64.h"

// The element-wise arithmetic's AVX-512 kernels (arith.go), made by
// arith_amd64.h's MAP: any length at any address, the elements before dst's
// first 64-byte boundary and after its last whole vector under a mask (12
// and 4 of a NumPy row, 16 bytes off a boundary, which plain Go took in 20
// ns); and SqDistConst's, whole vectors only.

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
