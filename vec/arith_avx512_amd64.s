//go:build !purego

#include "textflag.h"
#include "avx512_amd64.h"

// The element-wise arithmetic's AVX-512 kernels (arith.go), whole 64-byte
// vectors only, made by arith_amd64.h's MAP; and SqDistConst's.

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
