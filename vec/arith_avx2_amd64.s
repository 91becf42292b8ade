//go:build !purego

#include "textflag.h"
#include "avx2_amd64.h"

// The element-wise arithmetic's AVX2 kernels, as arith_avx512_amd64.s's with
// 32-byte vectors, whole vectors only: the Go side does the rest.

#define VBYTES 32
#define REG0 Y0
#define REG1 Y1
#define REG2 Y2
#define REG3 Y3
#define REG4 Y4
#define REG5 Y5
#define REG6 Y6
#define REG7 Y7
#define REG8 Y8
#define REG9 Y9
#define REG10 Y10
#define REG11 Y11
#define REGA Y12
#define REGB Y15
#define FRAME 0
#define HEAD(OP, I1, I2, LOG2SIZE, MOVZ)
#define TAIL(OP, I1, I2, LOG2SIZE, MOVZ, MOV)
#include "arith_amd64.h"

// func addF32AVX2(dst, x, y, z *float32, n int, a, b float32), and so on
MAP_PS(·addF32AVX2, WITH_Y, VADDPS, _)
MAP_PD(·addF64AVX2, WITH_Y, VADDPD, _)
MAP_PS(·subF32AVX2, WITH_Y, VSUBPS, _)
MAP_PD(·subF64AVX2, WITH_Y, VSUBPD, _)
MAP_PS(·mulF32AVX2, WITH_Y, VMULPS, _)
MAP_PD(·mulF64AVX2, WITH_Y, VMULPD, _)
MAP_PS(·divF32AVX2, WITH_Y, VDIVPS, _)
MAP_PD(·divF64AVX2, WITH_Y, VDIVPD, _)
MAP_PS(·addConstF32AVX2, WITH_A, VADDPS, _)
MAP_PD(·addConstF64AVX2, WITH_A, VADDPD, _)
MAP_PS(·mulConstF32AVX2, WITH_A, VMULPS, _)
MAP_PD(·mulConstF64AVX2, WITH_A, VMULPD, _)
MAP_PS(·divConstF32AVX2, WITH_A, VDIVPS, _)
MAP_PD(·divConstF64AVX2, WITH_A, VDIVPD, _)
MAP_PS(·mulAddConstF32AVX2, WITH_AB, VMULPS, VADDPS)
MAP_PD(·mulAddConstF64AVX2, WITH_AB, VMULPD, VADDPD)
MAP_PS(·addMulConstF32AVX2, WITH_AB, VADDPS, VMULPS)
MAP_PD(·addMulConstF64AVX2, WITH_AB, VADDPD, VMULPD)
MAP_PS(·mulAddF32AVX2, WITH_YZ, VMULPS, VADDPS)
MAP_PD(·mulAddF64AVX2, WITH_YZ, VMULPD, VADDPD)

// func sqDistConstF32AVX2(p *float32, n int, c float64) (hi, lo float64)
SQDIST_CONST_F32(·sqDistConstF32AVX2)
// func sqDistConstF64AVX2(p *float64, n int, c float64) (hi, lo float64)
SQDIST_CONST_F64(·sqDistConstF64AVX2)

// ---- in place: scale and axpy

#define MAP_INPLACE(NAME, ARGS, PREP, OP, ESIZE) \
TEXT NAME(SB), NOSPLIT, ARGS; \
	MOVQ p+0(FP), SI; \
	MOVQ n+8(FP), CX; \
	IMULQ $ESIZE, CX; \
	PREP; \
loop4:; \
	CMPQ CX, $128; \
	JB   loop1; \
	VMOVDQU (SI), Y0; \
	VMOVDQU 32(SI), Y1; \
	VMOVDQU 64(SI), Y2; \
	VMOVDQU 96(SI), Y3; \
	OP(Y0); \
	OP(Y1); \
	OP(Y2); \
	OP(Y3); \
	VMOVDQU Y0, (SI); \
	VMOVDQU Y1, 32(SI); \
	VMOVDQU Y2, 64(SI); \
	VMOVDQU Y3, 96(SI); \
	ADDQ $128, SI; \
	SUBQ $128, CX; \
	JMP  loop4; \
loop1:; \
	CMPQ CX, $32; \
	JB   done; \
	VMOVDQU (SI), Y0; \
	OP(Y0); \
	VMOVDQU Y0, (SI); \
	ADDQ $32, SI; \
	SUBQ $32, CX; \
	JMP  loop1; \
done:; \
	VZEROUPPER; \
	RET

#define BCAST_F32 VBROADCASTSS a+16(FP), Y15
#define BCAST_F64 VBROADCASTSD a+16(FP), Y15
#define BCAST_W VPBROADCASTW a+16(FP), Y15
#define BCAST_D VPBROADCASTD a+16(FP), Y15
#define MUL_PS(Y) VMULPS Y15, Y, Y
#define MUL_PD(Y) VMULPD Y15, Y, Y
#define MUL_W(Y) VPMULLW Y15, Y, Y
#define MUL_D(Y) VPMULLD Y15, Y, Y
#define BCAST_B BCAST_W; MOVL $0x00ff00ff, AX; MOVQ AX, X14; VPBROADCASTD X14, Y14
#define MUL_B(Y) \
	VPSRLW $8, Y, Y13; \
	VPMULLW Y15, Y, Y; \
	VPMULLW Y15, Y13, Y13; \
	VPSLLW $8, Y13, Y13; \
	VPAND Y14, Y, Y; \
	VPOR Y13, Y, Y

// func scaleF32AVX2(p *float32, n int, a float32)
MAP_INPLACE(·scaleF32AVX2, $0-20, BCAST_F32, MUL_PS, 4)
// func scaleF64AVX2(p *float64, n int, a float64)
MAP_INPLACE(·scaleF64AVX2, $0-24, BCAST_F64, MUL_PD, 8)
// func scaleI8AVX2(p unsafe.Pointer, n int, a uint64)
MAP_INPLACE(·scaleI8AVX2, $0-24, BCAST_B, MUL_B, 1)
// func scaleI16AVX2(p unsafe.Pointer, n int, a uint64)
MAP_INPLACE(·scaleI16AVX2, $0-24, BCAST_W, MUL_W, 2)
// func scaleI32AVX2(p unsafe.Pointer, n int, a uint64)
MAP_INPLACE(·scaleI32AVX2, $0-24, BCAST_D, MUL_D, 4)

#define AXPY(NAME, ARGS, BCAST, MUL, ADD, ESIZE) \
TEXT NAME(SB), NOSPLIT, ARGS; \
	MOVQ y+0(FP), SI; \
	MOVQ x+8(FP), DI; \
	MOVQ n+16(FP), CX; \
	IMULQ $ESIZE, CX; \
	BCAST a+24(FP), Y15; \
loop4:; \
	CMPQ CX, $128; \
	JB   loop1; \
	MUL (DI), Y15, Y0; \
	MUL 32(DI), Y15, Y1; \
	MUL 64(DI), Y15, Y2; \
	MUL 96(DI), Y15, Y3; \
	ADD (SI), Y0, Y0; \
	ADD 32(SI), Y1, Y1; \
	ADD 64(SI), Y2, Y2; \
	ADD 96(SI), Y3, Y3; \
	VMOVDQU Y0, (SI); \
	VMOVDQU Y1, 32(SI); \
	VMOVDQU Y2, 64(SI); \
	VMOVDQU Y3, 96(SI); \
	ADDQ $128, SI; \
	ADDQ $128, DI; \
	SUBQ $128, CX; \
	JMP  loop4; \
loop1:; \
	CMPQ CX, $32; \
	JB   done; \
	MUL (DI), Y15, Y0; \
	ADD (SI), Y0, Y0; \
	VMOVDQU Y0, (SI); \
	ADDQ $32, SI; \
	ADDQ $32, DI; \
	SUBQ $32, CX; \
	JMP  loop1; \
done:; \
	VZEROUPPER; \
	RET

// func axpyF32AVX2(y, x *float32, n int, a float32)
AXPY(·axpyF32AVX2, $0-28, VBROADCASTSS, VMULPS, VADDPS, 4)
// func axpyF64AVX2(y, x *float64, n int, a float64)
AXPY(·axpyF64AVX2, $0-32, VBROADCASTSD, VMULPD, VADDPD, 8)
