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
