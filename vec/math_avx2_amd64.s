//go:build !purego

#include "textflag.h"
#include "go_asm.h"

// Exp, Log and Tanh in AVX2 with FMA: math_go.go's functions, operation for
// operation, 8 float32 or 4 float64 lanes at a time, the last n mod 8 (or
// 4) under a mask (VMASKMOV), which keeps Y15. Without AVX-512's
// instructions: the scaling by 2**k is two products by powers of two, the
// first exact, the second rounding once (as VSCALEF and scale32/scale64
// round); Log's m and k come from the bits, a subnormal x scaled by 2**23
// (2**52) first; tables of 8 float32s are a VPERMPS, larger ones a gather;
// special inputs are compared and blended. The fitted constants are read
// from math_tables.go's variables (go_asm.h); integer constants of the
// formats are below.

// Offsets of the formats' integer constants, at the end.
#define I32_IOTA 0
#define I32_BIAS 32
#define I32_MINNORM 64
#define I32_TWO23 96
#define I32_MINUS23 128
#define I32_MANT 160
#define I32_HALFMANT 192
#define I32_ONE 224
#define I32_31 256
#define I32_INF 288
#define I32_NEGINF 320
#define I32_INVALID 352
#define I32_ABS 384
#define I32_TANHBASE 416
#define I32_SIGN 448

#define I64_IOTA 0
#define I64_BIAS 32
#define I64_MINNORM 64
#define I64_TWO52 96
#define I64_MINUS52 128
#define I64_MANT 160
#define I64_HALFMANT 192
#define I64_ONE 224
#define I64_31 256
#define I64_INF 288
#define I64_NEGINF 320
#define I64_INVALID 352
#define I64_ABS 384
#define I64_15 416
#define I64_SHIFT 448
#define I64_EXP 480
#define I64_SIGN 512


// func NAME(dst, x *T, n int, ...) with a frame of ARGS: F of each element, x in Y0 and the result in
// Y1, LANES to a vector of 32 bytes; the tail's mask compares IOTA, the lanes' numbers, with the count
// (CMPGT and BCAST of T's integer size).
#define MAP(NAME, ARGS, SETUP, F, LANES, MOV, BCAST, CMPGT, IOTA) \
TEXT NAME(SB), NOSPLIT, ARGS; \
	MOVQ dst+0(FP), DI; \
	MOVQ x+8(FP), SI; \
	MOVQ n+16(FP), CX; \
	SETUP; \
loop:; \
	CMPQ CX, $LANES; \
	JB   tail; \
	VMOVUPS (SI), Y0; \
	F; \
	VMOVUPS Y1, (DI); \
	ADDQ $32, SI; \
	ADDQ $32, DI; \
	SUBQ $LANES, CX; \
	JMP  loop; \
tail:; \
	TESTQ CX, CX; \
	JZ   done; \
	VMOVQ CX, X15; \
	BCAST X15, Y15; \
	CMPGT IOTA(SB), Y15, Y15; \
	MOV (SI), Y15, Y0; \
	F; \
	MOV Y1, Y15, (DI); \
done:; \
	VZEROUPPER; \
	RET

// A quiet NaN for a NaN x in Y0, into the result Y1 (uses Y2 and Y3).
#define NAN_PS VCMPPS $3, Y0, Y0, Y2; VADDPS Y0, Y0, Y3; VBLENDVPS Y2, Y3, Y1, Y1
#define NAN_PD VCMPPD $3, Y0, Y0, Y2; VADDPD Y0, Y0, Y3; VBLENDVPD Y2, Y3, Y1, Y1

// A gather of T's entries at the indices IDX into D, with the mask M (set to all ones first; the
// gather clears it). The table's address is in R.
#define GATHER_PS(T, R, IDX, D, M) LEAQ T(SB), R; VPCMPEQD M, M, M; VGATHERDPS M, (R)(IDX*4), D
#define GATHER_PD(T, R, IDX, D, M) LEAQ T(SB), R; VPCMPEQD M, M, M; VGATHERQPD M, (R)(IDX*8), D

// ---- Exp, float32

#define EXP32_SETUP \
	VBROADCASTSS ·exp32+exp32Consts_lo(SB), Y8; \
	VBROADCASTSS ·exp32+exp32Consts_hi(SB), Y9; \
	VBROADCASTSS ·exp32+exp32Consts_invC(SB), Y10; \
	VBROADCASTSS ·exp32+exp32Consts_shift(SB), Y11; \
	VBROADCASTSS ·exp32+exp32Consts_negCHi(SB), Y12; \
	VBROADCASTSS ·exp32+exp32Consts_q+4(SB), Y13; \
	VBROADCASTSS ·exp32+exp32Consts_q+0(SB), Y14

// Y2 a (then r), Y3 s, Y4 n (then k), Y5 (tLo, then 2**k1), Y6 q, Y7 r squared (then tHi).
#define EXP32 \
	VMAXPS Y8, Y0, Y2; \
	VMINPS Y9, Y2, Y2; \
	VMOVAPS Y11, Y3; \
	VFMADD231PS Y10, Y2, Y3; \
	VSUBPS Y11, Y3, Y4; \
	VFMADD231PS Y12, Y4, Y2; \
	VBROADCASTSS ·exp32+exp32Consts_negCLo(SB), Y5; \
	VFMADD231PS Y5, Y4, Y2; \
	VBROADCASTSS ·exp32+exp32Consts_q+8(SB), Y6; \
	VFMADD213PS Y13, Y2, Y6; \
	VFMADD213PS Y14, Y2, Y6; \
	VMULPS Y2, Y2, Y7; \
	VFMADD213PS Y2, Y7, Y6; \
	VPERMPS ·exp32+exp32Consts_tHi(SB), Y3, Y7; \
	VPERMPS ·exp32+exp32Consts_tLo(SB), Y3, Y5; \
	VFMADD213PS Y5, Y7, Y6; \
	VADDPS Y6, Y7, Y6; \
	VPSUBD Y11, Y3, Y4; \
	VPSRAD $3, Y4, Y4; \
	VPSRAD $1, Y4, Y5; \
	VPSUBD Y5, Y4, Y4; \
	VPADDD ·mathI32+I32_BIAS(SB), Y5, Y5; \
	VPSLLD $23, Y5, Y5; \
	VPADDD ·mathI32+I32_BIAS(SB), Y4, Y4; \
	VPSLLD $23, Y4, Y4; \
	VMULPS Y5, Y6, Y6; \
	VMULPS Y4, Y6, Y1; \
	NAN_PS

// func expF32AVX2(dst, x *float32, n int)
MAP(·expF32AVX2, $0-24, EXP32_SETUP, EXP32, 8, VMASKMOVPS, VPBROADCASTD, VPCMPGTD, ·mathI32+I32_IOTA)

// ---- Exp, float64: a table of 16, gathered.

#define EXP64_SETUP \
	VBROADCASTSD ·exp64+exp64Consts_lo(SB), Y8; \
	VBROADCASTSD ·exp64+exp64Consts_hi(SB), Y9; \
	VBROADCASTSD ·exp64+exp64Consts_invC(SB), Y10; \
	VBROADCASTSD ·exp64+exp64Consts_shift(SB), Y11; \
	VBROADCASTSD ·exp64+exp64Consts_negCHi(SB), Y12; \
	VBROADCASTSD ·exp64+exp64Consts_negCLo(SB), Y13

// Y2 a (then r), Y3 s, Y4 n (then j, k), Y5 (tLo, then 2**k1), Y6 q, Y7 r squared (then tHi), Y14 the
// gathers' mask.
#define EXP64 \
	VMAXPD Y8, Y0, Y2; \
	VMINPD Y9, Y2, Y2; \
	VMOVAPD Y11, Y3; \
	VFMADD231PD Y10, Y2, Y3; \
	VSUBPD Y11, Y3, Y4; \
	VFMADD231PD Y12, Y4, Y2; \
	VFMADD231PD Y13, Y4, Y2; \
	VBROADCASTSD ·exp64+exp64Consts_q+40(SB), Y6; \
	VBROADCASTSD ·exp64+exp64Consts_q+32(SB), Y7; \
	VFMADD213PD Y7, Y2, Y6; \
	VBROADCASTSD ·exp64+exp64Consts_q+24(SB), Y7; \
	VFMADD213PD Y7, Y2, Y6; \
	VBROADCASTSD ·exp64+exp64Consts_q+16(SB), Y7; \
	VFMADD213PD Y7, Y2, Y6; \
	VBROADCASTSD ·exp64+exp64Consts_q+8(SB), Y7; \
	VFMADD213PD Y7, Y2, Y6; \
	VBROADCASTSD ·exp64+exp64Consts_q+0(SB), Y7; \
	VFMADD213PD Y7, Y2, Y6; \
	VMULPD Y2, Y2, Y7; \
	VFMADD213PD Y2, Y7, Y6; \
	VPAND ·mathI64+I64_15(SB), Y3, Y4; \
	GATHER_PD(·exp64+exp64Consts_tHi, R8, Y4, Y7, Y14); \
	GATHER_PD(·exp64+exp64Consts_tLo, R8, Y4, Y5, Y14); \
	VFMADD213PD Y5, Y7, Y6; \
	VADDPD Y6, Y7, Y6; \
	VPSUBQ Y11, Y3, Y4; \
	VPSRAD $4, Y4, Y4; \
	VPSRAD $1, Y4, Y5; \
	VPSUBD Y5, Y4, Y4; \
	VPADDD ·mathI64+I64_BIAS(SB), Y5, Y5; \
	VPSLLQ $52, Y5, Y5; \
	VPADDD ·mathI64+I64_BIAS(SB), Y4, Y4; \
	VPSLLQ $52, Y4, Y4; \
	VMULPD Y5, Y6, Y6; \
	VMULPD Y4, Y6, Y1; \
	NAN_PD

// func expF64AVX2(dst, x *float64, n int)
MAP(·expF64AVX2, $0-24, EXP64_SETUP, EXP64, 4, VMASKMOVPD, VPBROADCASTQ, VPCMPGTQ, ·mathI64+I64_IOTA)

// ---- Exp of x + a (ExpSum's), a broadcast from the frame into Y2, which EXP32 and EXP64 set later.

#define EXPSHIFT32 VBROADCASTSS a+24(FP), Y2; VADDPS Y2, Y0, Y0; EXP32
#define EXPSHIFT64 VBROADCASTSD a+24(FP), Y2; VADDPD Y2, Y0, Y0; EXP64

// func expShiftF32AVX2(dst, x *float32, n int, a float32)
MAP(·expShiftF32AVX2, $0-28, EXP32_SETUP, EXPSHIFT32, 8, VMASKMOVPS, VPBROADCASTD, VPCMPGTD, ·mathI32+I32_IOTA)

// func expShiftF64AVX2(dst, x *float64, n int, a float64)
MAP(·expShiftF64AVX2, $0-32, EXP64_SETUP, EXPSHIFT64, 4, VMASKMOVPD, VPBROADCASTQ, VPCMPGTQ, ·mathI64+I64_IOTA)

// ---- Log, float32: m and k from the bits, tables of 32 gathered; then the special inputs blended:
// +Inf itself, ±0 -Inf, below 0 the default NaN, NaN itself made quiet.

#define LOG32_SETUP \
	VBROADCASTSS ·log32+log32Consts_ln2Hi(SB), Y8; \
	VBROADCASTSS ·log32+log32Consts_ln2Lo(SB), Y9; \
	VBROADCASTSS ·log32+log32Consts_p+12(SB), Y10; \
	VBROADCASTSS ·log32+log32Consts_p+8(SB), Y11; \
	VBROADCASTSS ·log32+log32Consts_p+4(SB), Y12; \
	VBROADCASTSS ·log32+log32Consts_p+0(SB), Y13

// Y2 the subnormals' mask (then m), Y3 x scaled (then k), Y4 bits (then i), Y5 1/c (then r), Y6 log c's
// high part (then hi), Y7 the low part, Y14 the gathers' mask (then p), Y2 r squared.
#define LOG32 \
	VCMPPS $1, ·mathI32+I32_MINNORM(SB), Y0, Y2; \
	VMULPS ·mathI32+I32_TWO23(SB), Y0, Y3; \
	VBLENDVPS Y2, Y3, Y0, Y3; \
	VANDPS ·mathI32+I32_MINUS23(SB), Y2, Y2; \
	VPSRLD $23, Y3, Y4; \
	VPSUBD ·mathI32+I32_BIAS(SB), Y4, Y4; \
	VPADDD Y2, Y4, Y4; \
	VANDPS ·mathI32+I32_MANT(SB), Y3, Y3; \
	VANDPS ·mathI32+I32_HALFMANT(SB), Y3, Y2; \
	VPSLLD $1, Y2, Y2; \
	VORPS ·mathI32+I32_ONE(SB), Y3, Y3; \
	VPSUBD Y2, Y3, Y2; \
	VCVTDQ2PS Y4, Y3; \
	VPSRLD $18, Y2, Y4; \
	VANDPS ·mathI32+I32_31(SB), Y4, Y4; \
	GATHER_PS(·log32+log32Consts_invC, R8, Y4, Y5, Y14); \
	GATHER_PS(·log32+log32Consts_logCHi, R8, Y4, Y6, Y14); \
	GATHER_PS(·log32+log32Consts_logCLo, R8, Y4, Y7, Y14); \
	VFMSUB213PS ·mathI32+I32_ONE(SB), Y2, Y5; \
	VMOVAPS Y11, Y14; \
	VFMADD231PS Y10, Y5, Y14; \
	VFMADD213PS Y12, Y5, Y14; \
	VFMADD213PS Y13, Y5, Y14; \
	VFMADD231PS Y8, Y3, Y6; \
	VFMADD231PS Y9, Y3, Y7; \
	VMULPS Y5, Y5, Y2; \
	VFMADD213PS Y7, Y2, Y14; \
	VADDPS Y5, Y6, Y1; \
	VSUBPS Y1, Y6, Y6; \
	VADDPS Y5, Y6, Y6; \
	VADDPS Y14, Y6, Y6; \
	VADDPS Y6, Y1, Y1; \
	VCMPPS $0, ·mathI32+I32_INF(SB), Y0, Y2; \
	VBLENDVPS Y2, Y0, Y1, Y1; \
	VXORPS Y3, Y3, Y3; \
	VCMPPS $0, Y3, Y0, Y2; \
	VBLENDVPS Y2, ·mathI32+I32_NEGINF(SB), Y1, Y1; \
	VCMPPS $1, Y3, Y0, Y2; \
	VBLENDVPS Y2, ·mathI32+I32_INVALID(SB), Y1, Y1; \
	NAN_PS

// func logF32AVX2(dst, x *float32, n int)
MAP(·logF32AVX2, $0-24, LOG32_SETUP, LOG32, 8, VMASKMOVPS, VPBROADCASTD, VPCMPGTD, ·mathI32+I32_IOTA)

// ---- Log, float64: the same in 64-bit lanes; k is made a float64 by adding it to the bits of
// 1.5 * 2**52 (AVX2 converts no 64-bit integers).

#define LOG64_SETUP \
	VBROADCASTSD ·log64+log64Consts_ln2Hi(SB), Y8; \
	VBROADCASTSD ·log64+log64Consts_ln2Lo(SB), Y9; \
	VBROADCASTSD ·log64+log64Consts_p+56(SB), Y10; \
	VBROADCASTSD ·log64+log64Consts_p+48(SB), Y11

#define LOG64 \
	VCMPPD $1, ·mathI64+I64_MINNORM(SB), Y0, Y2; \
	VMULPD ·mathI64+I64_TWO52(SB), Y0, Y3; \
	VBLENDVPD Y2, Y3, Y0, Y3; \
	VANDPD ·mathI64+I64_MINUS52(SB), Y2, Y2; \
	VPSRLQ $52, Y3, Y4; \
	VPSUBQ ·mathI64+I64_BIAS(SB), Y4, Y4; \
	VPADDQ Y2, Y4, Y4; \
	VANDPD ·mathI64+I64_MANT(SB), Y3, Y3; \
	VANDPD ·mathI64+I64_HALFMANT(SB), Y3, Y2; \
	VPSLLQ $1, Y2, Y2; \
	VORPD ·mathI64+I64_ONE(SB), Y3, Y3; \
	VPSUBQ Y2, Y3, Y2; \
	VPADDQ ·mathI64+I64_SHIFT(SB), Y4, Y4; \
	VSUBPD ·mathI64+I64_SHIFT(SB), Y4, Y3; \
	VPSRLQ $47, Y2, Y4; \
	VANDPD ·mathI64+I64_31(SB), Y4, Y4; \
	GATHER_PD(·log64+log64Consts_invC, R8, Y4, Y5, Y14); \
	GATHER_PD(·log64+log64Consts_logCHi, R8, Y4, Y6, Y14); \
	GATHER_PD(·log64+log64Consts_logCLo, R8, Y4, Y7, Y14); \
	VFMSUB213PD ·mathI64+I64_ONE(SB), Y2, Y5; \
	VMOVAPD Y11, Y14; \
	VFMADD231PD Y10, Y5, Y14; \
	VBROADCASTSD ·log64+log64Consts_p+40(SB), Y2; \
	VFMADD213PD Y2, Y5, Y14; \
	VBROADCASTSD ·log64+log64Consts_p+32(SB), Y2; \
	VFMADD213PD Y2, Y5, Y14; \
	VBROADCASTSD ·log64+log64Consts_p+24(SB), Y2; \
	VFMADD213PD Y2, Y5, Y14; \
	VBROADCASTSD ·log64+log64Consts_p+16(SB), Y2; \
	VFMADD213PD Y2, Y5, Y14; \
	VBROADCASTSD ·log64+log64Consts_p+8(SB), Y2; \
	VFMADD213PD Y2, Y5, Y14; \
	VBROADCASTSD ·log64+log64Consts_p+0(SB), Y2; \
	VFMADD213PD Y2, Y5, Y14; \
	VFMADD231PD Y8, Y3, Y6; \
	VFMADD231PD Y9, Y3, Y7; \
	VMULPD Y5, Y5, Y2; \
	VFMADD213PD Y7, Y2, Y14; \
	VADDPD Y5, Y6, Y1; \
	VSUBPD Y1, Y6, Y6; \
	VADDPD Y5, Y6, Y6; \
	VADDPD Y14, Y6, Y6; \
	VADDPD Y6, Y1, Y1; \
	VCMPPD $0, ·mathI64+I64_INF(SB), Y0, Y2; \
	VBLENDVPD Y2, Y0, Y1, Y1; \
	VXORPD Y3, Y3, Y3; \
	VCMPPD $0, Y3, Y0, Y2; \
	VBLENDVPD Y2, ·mathI64+I64_NEGINF(SB), Y1, Y1; \
	VCMPPD $1, Y3, Y0, Y2; \
	VBLENDVPD Y2, ·mathI64+I64_INVALID(SB), Y1, Y1; \
	NAN_PD

// func logF64AVX2(dst, x *float64, n int)
MAP(·logF64AVX2, $0-24, LOG64_SETUP, LOG64, 4, VMASKMOVPD, VPBROADCASTQ, VPCMPGTQ, ·mathI64+I64_IOTA)

// ---- Tanh, float32: eight tables of 32 gathered.

#define TANH32_SETUP \
	VBROADCASTSS ·tanh32+tanh32Consts_clamp(SB), Y8

// Y2 a (then y), Y3 i, Y4 r, Y5 and Y6 tables' values, Y7 y squared, Y14 the gathers' mask.
#define TANH32 \
	VANDPS ·mathI32+I32_ABS(SB), Y0, Y2; \
	VMINPS Y8, Y2, Y2; \
	VPSRLD $21, Y2, Y3; \
	VPSUBUSW ·mathI32+I32_TANHBASE(SB), Y3, Y3; \
	GATHER_PS(·tanh32+tanh32Consts_b, R8, Y3, Y5, Y14); \
	VSUBPS Y5, Y2, Y2; \
	GATHER_PS(·tanh32+tanh32Consts_r+384, R8, Y3, Y4, Y14); \
	GATHER_PS(·tanh32+tanh32Consts_r+256, R8, Y3, Y5, Y14); \
	VFMADD213PS Y5, Y2, Y4; \
	GATHER_PS(·tanh32+tanh32Consts_r+128, R8, Y3, Y6, Y14); \
	GATHER_PS(·tanh32+tanh32Consts_r+0, R8, Y3, Y5, Y14); \
	VFMADD213PS Y5, Y2, Y6; \
	VMULPS Y2, Y2, Y7; \
	VFMADD213PS Y6, Y7, Y4; \
	GATHER_PS(·tanh32+tanh32Consts_c0Lo, R8, Y3, Y5, Y14); \
	VFMADD213PS Y5, Y7, Y4; \
	GATHER_PS(·tanh32+tanh32Consts_c1, R8, Y3, Y5, Y14); \
	VFMADD231PS Y5, Y2, Y4; \
	GATHER_PS(·tanh32+tanh32Consts_c0Hi, R8, Y3, Y5, Y14); \
	VADDPS Y4, Y5, Y1; \
	VANDPS ·mathI32+I32_SIGN(SB), Y0, Y2; \
	VORPS Y2, Y1, Y1; \
	NAN_PS

// func tanhF32AVX2(dst, x *float32, n int)
MAP(·tanhF32AVX2, $0-24, TANH32_SETUP, TANH32, 8, VMASKMOVPS, VPBROADCASTD, VPCMPGTD, ·mathI32+I32_IOTA)

// ---- Tanh, float64

#define TANH64_SETUP \
	VBROADCASTSD ·tanh64+tanh64Consts_clamp(SB), Y8; \
	VBROADCASTSD ·tanh64+tanh64Consts_invC(SB), Y9; \
	VBROADCASTSD ·tanh64+tanh64Consts_shift(SB), Y10; \
	VBROADCASTSD ·tanh64+tanh64Consts_negCHi(SB), Y11; \
	VBROADCASTSD ·mathI64+I64_ONE(SB), Y12; \
	VADDPD Y12, Y12, Y13

// As AVX-512's: Y2 a (then rho, 2 rho, X + 1), Y3 s (then rho squared, p's low part, d), Y4 n (then 2
// rho's low part, pHi, d's low part), Y5 2**k's exponent (then a product of Q, X + 1's low part, 1/d),
// Y6 X (then em), Y7 XLo (then em's low part), Y14 and Y1 Q's parts (then y and its low part), Y14 the
// gathers' mask and the tables' index first.
#define TANH64 \
	VANDPD ·mathI64+I64_ABS(SB), Y0, Y2; \
	VMINPD Y8, Y2, Y2; \
	VMOVAPD Y10, Y3; \
	VFMADD231PD Y9, Y2, Y3; \
	VSUBPD Y10, Y3, Y4; \
	VFMADD231PD Y11, Y4, Y2; \
	VBROADCASTSD ·tanh64+tanh64Consts_negCLo2(SB), Y5; \
	VMULPD Y5, Y4, Y4; \
	VPSLLQ $48, Y3, Y5; \
	VANDPD ·mathI64+I64_EXP(SB), Y5, Y5; \
	VPAND ·mathI64+I64_15(SB), Y3, Y3; \
	GATHER_PD(·exp64+exp64Consts_tHi, R8, Y3, Y6, Y14); \
	GATHER_PD(·exp64+exp64Consts_tLo, R8, Y3, Y7, Y14); \
	VPADDQ Y5, Y6, Y6; \
	VPADDQ Y5, Y7, Y7; \
	VBROADCASTSD ·tanh64+tanh64Consts_q+0(SB), Y5; \
	VBROADCASTSD ·tanh64+tanh64Consts_q+8(SB), Y3; \
	VFMADD231PD Y3, Y2, Y5; \
	VBROADCASTSD ·tanh64+tanh64Consts_q+16(SB), Y14; \
	VBROADCASTSD ·tanh64+tanh64Consts_q+24(SB), Y3; \
	VFMADD231PD Y3, Y2, Y14; \
	VBROADCASTSD ·tanh64+tanh64Consts_q+32(SB), Y1; \
	VBROADCASTSD ·tanh64+tanh64Consts_q+40(SB), Y3; \
	VFMADD231PD Y3, Y2, Y1; \
	VMULPD Y2, Y2, Y3; \
	VFMADD213PD Y14, Y3, Y1; \
	VFMADD213PD Y5, Y3, Y1; \
	VFMADD213PD Y4, Y3, Y1; \
	VADDPD Y2, Y2, Y2; \
	VADDPD Y1, Y2, Y4; \
	VSUBPD Y4, Y2, Y2; \
	VADDPD Y1, Y2, Y3; \
	VADDPD Y12, Y6, Y2; \
	VSUBPD Y2, Y6, Y5; \
	VADDPD Y12, Y5, Y5; \
	VMULPD Y4, Y6, Y14; \
	VMOVAPD Y14, Y1; \
	VFMSUB231PD Y4, Y6, Y1; \
	VFMADD231PD Y4, Y7, Y7; \
	VFMADD231PD Y3, Y6, Y7; \
	VADDPD Y7, Y1, Y1; \
	VADDPD Y5, Y1, Y1; \
	VADDPD Y14, Y2, Y3; \
	VSUBPD Y3, Y2, Y2; \
	VADDPD Y14, Y2, Y2; \
	VADDPD Y1, Y2, Y4; \
	VDIVPD Y3, Y12, Y5; \
	VSUBPD Y13, Y3, Y6; \
	VSUBPD Y6, Y3, Y7; \
	VSUBPD Y13, Y7, Y7; \
	VADDPD Y4, Y7, Y7; \
	VADDPD Y7, Y6, Y1; \
	VMULPD Y5, Y1, Y1; \
	VFNMADD231PD Y3, Y1, Y6; \
	VADDPD Y7, Y6, Y6; \
	VFNMADD231PD Y4, Y1, Y6; \
	VFMADD231PD Y5, Y6, Y1; \
	VANDPD ·mathI64+I64_SIGN(SB), Y0, Y2; \
	VORPD Y2, Y1, Y1; \
	NAN_PD

// func tanhF64AVX2(dst, x *float64, n int)
MAP(·tanhF64AVX2, $0-24, TANH64_SETUP, TANH64, 4, VMASKMOVPD, VPBROADCASTQ, VPCMPGTQ, ·mathI64+I64_IOTA)

// The formats' integer constants, a vector of 32 bytes each: ·mathI32's of 8 dwords, ·mathI64's of 4
// quadwords (offsets at the top).
#define ROW32(OFF, V) DATA ·mathI32+OFF+0(SB)/4, V; DATA ·mathI32+OFF+4(SB)/4, V; DATA ·mathI32+OFF+8(SB)/4, V; DATA ·mathI32+OFF+12(SB)/4, V; DATA ·mathI32+OFF+16(SB)/4, V; DATA ·mathI32+OFF+20(SB)/4, V; DATA ·mathI32+OFF+24(SB)/4, V; DATA ·mathI32+OFF+28(SB)/4, V

DATA ·mathI32+0(SB)/4, $0
DATA ·mathI32+4(SB)/4, $1
DATA ·mathI32+8(SB)/4, $2
DATA ·mathI32+12(SB)/4, $3
DATA ·mathI32+16(SB)/4, $4
DATA ·mathI32+20(SB)/4, $5
DATA ·mathI32+24(SB)/4, $6
DATA ·mathI32+28(SB)/4, $7
ROW32(I32_BIAS, $127)
ROW32(I32_MINNORM, $0x00800000)
ROW32(I32_TWO23, $0x4b000000)
ROW32(I32_MINUS23, $-23)
ROW32(I32_MANT, $0x007fffff)
ROW32(I32_HALFMANT, $0x00400000)
ROW32(I32_ONE, $0x3f800000)
ROW32(I32_31, $31)
ROW32(I32_INF, $0x7f800000)
ROW32(I32_NEGINF, $0xff800000)
ROW32(I32_INVALID, $0xffc00000)
ROW32(I32_ABS, $0x7fffffff)
ROW32(I32_TANHBASE, $const_tanh32Base)
ROW32(I32_SIGN, $0x80000000)
GLOBL ·mathI32(SB), RODATA, $480

#define ROW64(OFF, V) DATA ·mathI64+OFF+0(SB)/8, V; DATA ·mathI64+OFF+8(SB)/8, V; DATA ·mathI64+OFF+16(SB)/8, V; DATA ·mathI64+OFF+24(SB)/8, V

DATA ·mathI64+0(SB)/8, $0
DATA ·mathI64+8(SB)/8, $1
DATA ·mathI64+16(SB)/8, $2
DATA ·mathI64+24(SB)/8, $3
ROW64(I64_BIAS, $1023)
ROW64(I64_MINNORM, $0x0010000000000000)
ROW64(I64_TWO52, $0x4330000000000000)
ROW64(I64_MINUS52, $-52)
ROW64(I64_MANT, $0x000fffffffffffff)
ROW64(I64_HALFMANT, $0x0008000000000000)
ROW64(I64_ONE, $0x3ff0000000000000)
ROW64(I64_31, $31)
ROW64(I64_INF, $0x7ff0000000000000)
ROW64(I64_NEGINF, $0xfff0000000000000)
ROW64(I64_INVALID, $0xfff8000000000000)
ROW64(I64_ABS, $0x7fffffffffffffff)
ROW64(I64_15, $15)
ROW64(I64_SHIFT, $0x4338000000000000)
ROW64(I64_EXP, $0xfff0000000000000)
ROW64(I64_SIGN, $0x8000000000000000)
GLOBL ·mathI64(SB), RODATA, $544
