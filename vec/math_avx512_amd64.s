//go:build !purego

#include "textflag.h"
#include "go_asm.h"
#include "avx512_amd64.h"

// Exp, Log and Tanh in AVX-512 (F, DQ, BW, VL): math_go.go's functions,
// operation for operation (Exp joins two, exactly: EXP32), 16 float32 or 8
// float64 lanes at a time. The elements up to dst's first 64-byte boundary
// and the last n mod 16 (or 8) go under a mask, so that every element takes
// the same operations and every full store is aligned (one that straddles two
// cache lines costs a tenth of the speed). Two vectors go through each turn
// of the loop; Tanh's, whose chains of dependent operations are the longest,
// interleaved instruction by instruction (13% faster for float64, 5% for
// float32). Each function's constants and tables wait in the upper registers;
// VSCALEFPS/PD multiply by 2**floor(n) rounding once, as scale32 and scale64
// do; VFIXUPIMMPS/PD set Log's and Tanh's results of NaN and of the other
// special inputs by the class of x (Exp keeps a NaN through its steps). The
// masks are made with SHLX (BMI2, which every AVX-512 CPU has).

// func NAME(dst, x *T, n int, ...) with the arguments' bytes ARGS: F(x, y) of each element, x in Z0 and
// y in Z1, or in XB and YB for the second vector of a turn (F's temporaries are the same registers for
// both: renamed, they hold two chains at once); elements of 1<<LOG2SIZE bytes, LANES to a vector. The
// head's results wait in the frame for STORE_HEAD (their mask in R11, dst in R10).
#define MAP(NAME, ARGS, SETUP, F, F2, XB, YB, LANES, LOG2SIZE, MOV, MOVZ) \
TEXT NAME(SB), NOSPLIT, $64-ARGS; \
	MOVQ dst+0(FP), DI; \
	MOVQ x+8(FP), SI; \
	MOVQ n+16(FP), CX; \
	SETUP; \
	MOVQ DI, R10; \
	XORQ R11, R11; \
	MOVQ DI, AX; \
	NEGQ AX; \
	ANDQ $63, AX; \
	SHRQ $LOG2SIZE, AX; \
	CMPQ AX, CX; \
	CMOVQGT CX, AX; \
	TESTQ AX, AX; \
	JZ   loop2; \
	LANES_MASK(AX, DX, K1); \
	MOVQ DX, R11; \
	MOVZ (SI), K1, Z0; \
	F(Z0, Z1); \
	MOV Z1, head-64(SP); \
	SUBQ AX, CX; \
	SHLQ $LOG2SIZE, AX; \
	ADDQ AX, SI; \
	ADDQ AX, DI; \
loop2:; \
	CMPQ CX, $2*LANES; \
	JB   loop1; \
	MOV (SI), Z0; \
	MOV 64(SI), XB; \
	F2(Z0, Z1, XB, YB); \
	MOV Z1, (DI); \
	MOV YB, 64(DI); \
	ADDQ $128, SI; \
	ADDQ $128, DI; \
	SUBQ $2*LANES, CX; \
	JMP  loop2; \
loop1:; \
	CMPQ CX, $LANES; \
	JB   tail; \
	MOV (SI), Z0; \
	F(Z0, Z1); \
	MOV Z1, (DI); \
	ADDQ $64, SI; \
	ADDQ $64, DI; \
	SUBQ $LANES, CX; \
	JMP  loop1; \
tail:; \
	MOVQ CX, AX; \
	TESTQ AX, AX; \
	JZ   last; \
	LANES_MASK(AX, DX, K1); \
	MOVZ (SI), K1, Z0; \
	F(Z0, Z1); \
	MOV Z1, K1, (DI); \
last:; \
	STORE_HEAD(R11, R10, MOV, Z1); \
	VZEROUPPER; \
	RET

// A table of 32 float32s (16 float64s) in the registers LO and HI, looked up by the low five (four)
// bits of each lane of IDX into D.
#define LOOKUP(PERM, LO, HI, IDX, D) VMOVAPS LO, D; PERM HI, IDX, D

// ---- Exp, float32

#define EXP32_SETUP \
	VBROADCASTSS ·exp32+exp32Consts_lo(SB), Z19; \
	VBROADCASTSS ·exp32+exp32Consts_hi(SB), Z20; \
	VBROADCASTSS ·exp32+exp32Consts_invC(SB), Z21; \
	VBROADCASTSS ·exp32+exp32Consts_shift(SB), Z22; \
	VBROADCASTSS ·exp32+exp32Consts_invN(SB), Z25; \
	VBROADCASTSS ·exp32+exp32Consts_negCHi(SB), Z23; \
	VDIVPS Z25, Z23, Z23; \
	VBROADCASTSS ·exp32+exp32Consts_negCLo(SB), Z24; \
	VDIVPS Z25, Z24, Z24; \
	VMULPS Z25, Z22, Z31; \
	VBROADCASTSS ·exp32+exp32Consts_q+0(SB), Z26; \
	VBROADCASTSS ·exp32+exp32Consts_q+4(SB), Z27; \
	VBROADCASTSS ·exp32+exp32Consts_q+8(SB), Z28; \
	VMOVUPS ·exp32+exp32Consts_tHi(SB), Z29; \
	VMOVUPS ·exp32+exp32Consts_tLo(SB), Z30

// exp32Go's steps, with one joined and none added for a NaN. The clamp's operands are in the order
// that keeps a NaN (VMAXPS and VMINPS give their first operand, as Go writes them, where either is
// a NaN), and every later step keeps it, quiet: e**x is x + x. n/N is made at once, s/N - shift/N,
// exact (s is shift + n, and N a power of 2), and reduces a with N times ln2/N's parts, which are
// exact: the same products, the same roundings, one operation fewer than n and then n/N.
// Z19 lo, Z20 hi, Z21 invC, Z22 shift, Z23 and Z24 N (-ln2/N)'s parts, Z25 1/N, Z31 shift/N.
// Z2 a (then r, tHi), Z3 s, Z4 n/N, Z5 r squared, Z6 tLo, Z7 q.
#define EXP32(X, Y) EXP32_(X, Y, Z2, Z3, Z4, Z5, Z6, Z7)
#define EXP32_(X, Y, A, S, N, R, L, Q) \
	VMAXPS X, Z19, A; \
	VMINPS A, Z20, A; \
	VMOVAPS Z22, S; \
	VFMADD231PS Z21, A, S; \
	VMOVAPS Z31, N; \
	VFMSUB231PS Z25, S, N; \
	VFMADD231PS Z23, N, A; \
	VFMADD231PS Z24, N, A; \
	VMOVAPS Z27, Q; \
	VFMADD231PS Z28, A, Q; \
	VFMADD213PS Z26, A, Q; \
	VMULPS A, A, R; \
	VFMADD213PS A, R, Q; \
	VPERMPS Z29, S, A; \
	VPERMPS Z30, S, L; \
	VFMADD213PS L, A, Q; \
	VADDPS Q, A, Q; \
	VSCALEFPS N, Q, Y

// func expF32AVX512(dst, x *float32, n int)
#define EXP32x2(X, Y, XB, YB) EXP32(X, Y); EXP32(XB, YB)
MAP(·expF32AVX512, 24, EXP32_SETUP, EXP32, EXP32x2, Z8, Z9, 16, 2, VMOVUPS, VMOVUPS.Z)

// ---- Exp, float64

#define EXP64_SETUP \
	VBROADCASTSD ·exp64+exp64Consts_lo(SB), Z14; \
	VBROADCASTSD ·exp64+exp64Consts_hi(SB), Z15; \
	VBROADCASTSD ·exp64+exp64Consts_invC(SB), Z16; \
	VBROADCASTSD ·exp64+exp64Consts_shift(SB), Z17; \
	VBROADCASTSD ·exp64+exp64Consts_invN(SB), Z20; \
	VBROADCASTSD ·exp64+exp64Consts_negCHi(SB), Z18; \
	VDIVPD Z20, Z18, Z18; \
	VBROADCASTSD ·exp64+exp64Consts_negCLo(SB), Z19; \
	VDIVPD Z20, Z19, Z19; \
	VMULPD Z20, Z17, Z31; \
	VBROADCASTSD ·exp64+exp64Consts_q+0(SB), Z21; \
	VBROADCASTSD ·exp64+exp64Consts_q+8(SB), Z22; \
	VBROADCASTSD ·exp64+exp64Consts_q+16(SB), Z23; \
	VBROADCASTSD ·exp64+exp64Consts_q+24(SB), Z24; \
	VBROADCASTSD ·exp64+exp64Consts_q+32(SB), Z25; \
	VBROADCASTSD ·exp64+exp64Consts_q+40(SB), Z26; \
	VMOVUPD ·exp64+exp64Consts_tHi(SB), Z27; \
	VMOVUPD ·exp64+exp64Consts_tHi+64(SB), Z28; \
	VMOVUPD ·exp64+exp64Consts_tLo(SB), Z29; \
	VMOVUPD ·exp64+exp64Consts_tLo+64(SB), Z30

// exp64Go's steps as EXP32 takes exp32Go's. Z14 lo, Z15 hi, Z16 invC, Z17 shift, Z18 and Z19 N
// (-ln2/N)'s parts, Z20 1/N, Z21 to Z26 Q's coefficients, Z27 to Z30 the tables, Z31 shift/N.
#define EXP64(X, Y) EXP64_(X, Y, Z2, Z3, Z4, Z5, Z6, Z7)
#define EXP64_(X, Y, A, S, N, R, L, Q) \
	VMAXPD X, Z14, A; \
	VMINPD A, Z15, A; \
	VMOVAPD Z17, S; \
	VFMADD231PD Z16, A, S; \
	VMOVAPD Z31, N; \
	VFMSUB231PD Z20, S, N; \
	VFMADD231PD Z18, N, A; \
	VFMADD231PD Z19, N, A; \
	VMOVAPD Z25, Q; \
	VFMADD231PD Z26, A, Q; \
	VFMADD213PD Z24, A, Q; \
	VFMADD213PD Z23, A, Q; \
	VFMADD213PD Z22, A, Q; \
	VFMADD213PD Z21, A, Q; \
	VMULPD A, A, R; \
	VFMADD213PD A, R, Q; \
	LOOKUP(VPERMT2PD, Z27, Z28, S, A); \
	LOOKUP(VPERMT2PD, Z29, Z30, S, L); \
	VFMADD213PD L, A, Q; \
	VADDPD Q, A, Q; \
	VSCALEFPD N, Q, Y

// func expF64AVX512(dst, x *float64, n int)
#define EXP64x2(X, Y, XB, YB) EXP64(X, Y); EXP64(XB, YB)
MAP(·expF64AVX512, 24, EXP64_SETUP, EXP64, EXP64x2, Z8, Z9, 8, 3, VMOVUPD, VMOVUPD.Z)

// ---- Exp of x + a (ExpSum's), a broadcast into Z10.

#define EXPSHIFT32(X, Y) VADDPS Z10, X, X; EXP32(X, Y)
#define EXPSHIFT32x2(X, Y, XB, YB) VADDPS Z10, X, X; VADDPS Z10, XB, XB; EXP32(X, Y); EXP32(XB, YB)
#define EXPSHIFT32_SETUP EXP32_SETUP; VBROADCASTSS a+24(FP), Z10

// func expShiftF32AVX512(dst, x *float32, n int, a float32)
MAP(·expShiftF32AVX512, 28, EXPSHIFT32_SETUP, EXPSHIFT32, EXPSHIFT32x2, Z8, Z9, 16, 2, VMOVUPS, VMOVUPS.Z)

#define EXPSHIFT64(X, Y) VADDPD Z10, X, X; EXP64(X, Y)
#define EXPSHIFT64x2(X, Y, XB, YB) VADDPD Z10, X, X; VADDPD Z10, XB, XB; EXP64(X, Y); EXP64(XB, YB)
#define EXPSHIFT64_SETUP EXP64_SETUP; VBROADCASTSD a+24(FP), Z10

// func expShiftF64AVX512(dst, x *float64, n int, a float64)
MAP(·expShiftF64AVX512, 32, EXPSHIFT64_SETUP, EXPSHIFT64, EXPSHIFT64x2, Z8, Z9, 8, 3, VMOVUPD, VMOVUPD.Z)

// ---- Log, float32: m = getmant(x) in [0.75, 1.5), k = getexp(x) = floor(log2 x), the interval by
// m's bits >> 18.

#define LOG32_SETUP \
	VBROADCASTSS ·log32+log32Consts_ln2Hi(SB), Z18; \
	VBROADCASTSS ·log32+log32Consts_ln2Lo(SB), Z19; \
	VBROADCASTSS ·log32+log32Consts_p+0(SB), Z20; \
	VBROADCASTSS ·log32+log32Consts_p+4(SB), Z21; \
	VBROADCASTSS ·log32+log32Consts_p+8(SB), Z22; \
	VBROADCASTSS ·log32+log32Consts_p+12(SB), Z23; \
	MOVL $0x3f800000, AX; \
	VPBROADCASTD AX, Z24; \
	MOVL $0x03530422, AX; \
	VPBROADCASTD AX, Z25; \
	VMOVUPS ·log32+log32Consts_invC(SB), Z26; \
	VMOVUPS ·log32+log32Consts_invC+64(SB), Z27; \
	VMOVUPS ·log32+log32Consts_logCHi(SB), Z28; \
	VMOVUPS ·log32+log32Consts_logCHi+64(SB), Z29; \
	VMOVUPS ·log32+log32Consts_logCLo(SB), Z30; \
	VMOVUPS ·log32+log32Consts_logCLo+64(SB), Z31

// The fix-up table in Z25 gives NaN itself, ±0 -Inf, +Inf itself, below 0 the default NaN.
// Z2 m (then r squared), Z3 k, Z4 i, Z5 1/c (then r), Z6 log c's high part (then hi), Z7 the low, Z10 p.
#define LOG32(X, Y) LOG32_(X, Y, Z2, Z3, Z4, Z5, Z6, Z7, Z10)
#define LOG32_(X, Y, M, K, I, R, H, L, P) \
	VGETMANTPS $3, X, M; \
	VGETEXPPS X, K; \
	VPSRLD $18, M, I; \
	LOOKUP(VPERMT2PS, Z26, Z27, I, R); \
	LOOKUP(VPERMT2PS, Z28, Z29, I, H); \
	LOOKUP(VPERMT2PS, Z30, Z31, I, L); \
	VFMSUB213PS Z24, M, R; \
	VMOVAPS Z22, P; \
	VFMADD231PS Z23, R, P; \
	VFMADD213PS Z21, R, P; \
	VFMADD213PS Z20, R, P; \
	VFMADD231PS Z18, K, H; \
	VFMADD231PS Z19, K, L; \
	VMULPS R, R, M; \
	VFMADD213PS L, M, P; \
	VADDPS R, H, Y; \
	VSUBPS Y, H, H; \
	VADDPS R, H, H; \
	VADDPS P, H, H; \
	VADDPS H, Y, Y; \
	VFIXUPIMMPS $0, Z25, X, Y

// func logF32AVX512(dst, x *float32, n int)
#define LOG32x2(X, Y, XB, YB) LOG32(X, Y); LOG32(XB, YB)
MAP(·logF32AVX512, 24, LOG32_SETUP, LOG32, LOG32x2, Z8, Z9, 16, 2, VMOVUPS, VMOVUPS.Z)

// ---- Log, float64: the same with tables of 32 float64s: two permutations and a blend by bit 4. The
// polynomial's coefficients are read from memory, broadcast, to leave registers for the tables.

#define LOG64_SETUP \
	VBROADCASTSD ·log64+log64Consts_ln2Hi(SB), Z16; \
	VBROADCASTSD ·log64+log64Consts_ln2Lo(SB), Z17; \
	MOVQ $0x3ff0000000000000, AX; \
	VPBROADCASTQ AX, Z18; \
	MOVL $0x03530422, AX; \
	VPBROADCASTQ AX, Z19; \
	VMOVUPD ·log64+log64Consts_invC(SB), Z20; \
	VMOVUPD ·log64+log64Consts_invC+64(SB), Z21; \
	VMOVUPD ·log64+log64Consts_invC+128(SB), Z22; \
	VMOVUPD ·log64+log64Consts_invC+192(SB), Z23; \
	VMOVUPD ·log64+log64Consts_logCHi(SB), Z24; \
	VMOVUPD ·log64+log64Consts_logCHi+64(SB), Z25; \
	VMOVUPD ·log64+log64Consts_logCHi+128(SB), Z26; \
	VMOVUPD ·log64+log64Consts_logCHi+192(SB), Z27; \
	VMOVUPD ·log64+log64Consts_logCLo(SB), Z28; \
	VMOVUPD ·log64+log64Consts_logCLo+64(SB), Z29; \
	VMOVUPD ·log64+log64Consts_logCLo+128(SB), Z30; \
	VMOVUPD ·log64+log64Consts_logCLo+192(SB), Z31

// A table of 32 float64s in T0-T3 looked up by IDX, bit 4 of each lane in the mask KM, into D.
#define LOOKUP32D(T0, T1, T2, T3, IDX, KM, D, TMP) \
	LOOKUP(VPERMT2PD, T0, T1, IDX, D); \
	LOOKUP(VPERMT2PD, T2, T3, IDX, TMP); \
	VBLENDMPD TMP, D, KM, D

#define LOG64(X, Y) LOG64_(X, Y, Z2, Z3, Z4, Z5, Z6, Z7, Z10, K2)
#define LOG64_(X, Y, M, K, I, R, H, L, P, KM) \
	VGETMANTPD $3, X, M; \
	VGETEXPPD X, K; \
	VPSRLQ $47, M, I; \
	VPTESTMQ.BCST ·bit4(SB), I, KM; \
	LOOKUP32D(Z20, Z21, Z22, Z23, I, KM, R, P); \
	LOOKUP32D(Z24, Z25, Z26, Z27, I, KM, H, P); \
	LOOKUP32D(Z28, Z29, Z30, Z31, I, KM, L, P); \
	VFMSUB213PD Z18, M, R; \
	VBROADCASTSD ·log64+log64Consts_p+48(SB), P; \
	VFMADD231PD.BCST ·log64+log64Consts_p+56(SB), R, P; \
	VFMADD213PD.BCST ·log64+log64Consts_p+40(SB), R, P; \
	VFMADD213PD.BCST ·log64+log64Consts_p+32(SB), R, P; \
	VFMADD213PD.BCST ·log64+log64Consts_p+24(SB), R, P; \
	VFMADD213PD.BCST ·log64+log64Consts_p+16(SB), R, P; \
	VFMADD213PD.BCST ·log64+log64Consts_p+8(SB), R, P; \
	VFMADD213PD.BCST ·log64+log64Consts_p+0(SB), R, P; \
	VFMADD231PD Z16, K, H; \
	VFMADD231PD Z17, K, L; \
	VMULPD R, R, M; \
	VFMADD213PD L, M, P; \
	VADDPD R, H, Y; \
	VSUBPD Y, H, H; \
	VADDPD R, H, H; \
	VADDPD P, H, H; \
	VADDPD H, Y, Y; \
	VFIXUPIMMPD $0, Z19, X, Y

// func logF64AVX512(dst, x *float64, n int)
#define LOG64x2(X, Y, XB, YB) LOG64(X, Y); LOG64(XB, YB)
MAP(·logF64AVX512, 24, LOG64_SETUP, LOG64, LOG64x2, Z8, Z9, 8, 3, VMOVUPD, VMOVUPD.Z)

// ---- Tanh, float32: the interval is (|x| bits >> 21) - tanh32Base, saturating at 0 (VPSUBUSW on the
// low halfword, the high one being 0), eight tables of 32.

#define TANH32_SETUP \
	MOVL $0x7fffffff, AX; \
	VPBROADCASTD AX, Z14; \
	MOVL $const_tanh32Base, AX; \
	VPBROADCASTD AX, Z15; \
	VBROADCASTSS ·tanh32+tanh32Consts_clamp(SB), Z12; \
	MOVL $0x22, AX; \
	VPBROADCASTD AX, Z13; \
	VMOVUPS ·tanh32+tanh32Consts_b(SB), Z16; \
	VMOVUPS ·tanh32+tanh32Consts_b+64(SB), Z17; \
	VMOVUPS ·tanh32+tanh32Consts_r+384(SB), Z18; \
	VMOVUPS ·tanh32+tanh32Consts_r+448(SB), Z19; \
	VMOVUPS ·tanh32+tanh32Consts_r+256(SB), Z20; \
	VMOVUPS ·tanh32+tanh32Consts_r+320(SB), Z21; \
	VMOVUPS ·tanh32+tanh32Consts_r+128(SB), Z22; \
	VMOVUPS ·tanh32+tanh32Consts_r+192(SB), Z23; \
	VMOVUPS ·tanh32+tanh32Consts_r+0(SB), Z24; \
	VMOVUPS ·tanh32+tanh32Consts_r+64(SB), Z25; \
	VMOVUPS ·tanh32+tanh32Consts_c0Lo(SB), Z26; \
	VMOVUPS ·tanh32+tanh32Consts_c0Lo+64(SB), Z27; \
	VMOVUPS ·tanh32+tanh32Consts_c1(SB), Z28; \
	VMOVUPS ·tanh32+tanh32Consts_c1+64(SB), Z29; \
	VMOVUPS ·tanh32+tanh32Consts_c0Hi(SB), Z30; \
	VMOVUPS ·tanh32+tanh32Consts_c0Hi+64(SB), Z31

// Z2 a (then y of the polynomial), Z3 i, Z4 r, Z5 and Z6 tables' values.
#define TANH32(X, Y) TANH32_(X, Y, Z2, Z3, Z4, Z5, Z6)
#define TANH32_(X, Y, A, I, R, T, U) \
	VPANDD Z14, X, A; \
	VMINPS Z12, A, A; \
	VPSRLD $21, A, I; \
	VPSUBUSW Z15, I, I; \
	LOOKUP(VPERMT2PS, Z16, Z17, I, T); \
	VSUBPS T, A, A; \
	LOOKUP(VPERMT2PS, Z18, Z19, I, R); \
	LOOKUP(VPERMT2PS, Z20, Z21, I, T); \
	VFMADD213PS T, A, R; \
	LOOKUP(VPERMT2PS, Z22, Z23, I, U); \
	LOOKUP(VPERMT2PS, Z24, Z25, I, T); \
	VFMADD213PS T, A, U; \
	VMULPS A, A, Y; \
	VFMADD213PS U, Y, R; \
	LOOKUP(VPERMT2PS, Z26, Z27, I, T); \
	VFMADD213PS T, Y, R; \
	LOOKUP(VPERMT2PS, Z28, Z29, I, T); \
	VFMADD231PS T, A, R; \
	LOOKUP(VPERMT2PS, Z30, Z31, I, T); \
	VADDPS R, T, Y; \
	VPTERNLOGD $0xf4, Z14, X, Y; \
	VFIXUPIMMPS $0, Z13, X, Y

#define TANH32x2(X, Y, XB, YB) \
	VPANDD Z14, X, Z2; VPANDD Z14, XB, Z7; \
	VMINPS Z12, Z2, Z2; VMINPS Z12, Z7, Z7; \
	VPSRLD $21, Z2, Z3; VPSRLD $21, Z7, Z10; \
	VPSUBUSW Z15, Z3, Z3; VPSUBUSW Z15, Z10, Z10; \
	LOOKUP(VPERMT2PS, Z16, Z17, Z3, Z5); LOOKUP(VPERMT2PS, Z16, Z17, Z10, Z11); \
	VSUBPS Z5, Z2, Z2; VSUBPS Z11, Z7, Z7; \
	LOOKUP(VPERMT2PS, Z18, Z19, Z3, Z4); LOOKUP(VPERMT2PS, Z18, Z19, Z10, YB); \
	LOOKUP(VPERMT2PS, Z20, Z21, Z3, Z5); LOOKUP(VPERMT2PS, Z20, Z21, Z10, Z11); \
	VFMADD213PS Z5, Z2, Z4; VFMADD213PS Z11, Z7, YB; \
	LOOKUP(VPERMT2PS, Z22, Z23, Z3, Z6); LOOKUP(VPERMT2PS, Z22, Z23, Z10, Y); \
	LOOKUP(VPERMT2PS, Z24, Z25, Z3, Z5); LOOKUP(VPERMT2PS, Z24, Z25, Z10, Z11); \
	VFMADD213PS Z5, Z2, Z6; VFMADD213PS Z11, Z7, Y; \
	VMULPS Z2, Z2, Z5; VMULPS Z7, Z7, Z11; \
	VFMADD213PS Z6, Z5, Z4; VFMADD213PS Y, Z11, YB; \
	LOOKUP(VPERMT2PS, Z26, Z27, Z3, Z6); LOOKUP(VPERMT2PS, Z26, Z27, Z10, Y); \
	VFMADD213PS Z6, Z5, Z4; VFMADD213PS Y, Z11, YB; \
	LOOKUP(VPERMT2PS, Z28, Z29, Z3, Z6); LOOKUP(VPERMT2PS, Z28, Z29, Z10, Y); \
	VFMADD231PS Z6, Z2, Z4; VFMADD231PS Y, Z7, YB; \
	LOOKUP(VPERMT2PS, Z30, Z31, Z3, Z6); LOOKUP(VPERMT2PS, Z30, Z31, Z10, Y); \
	VADDPS Z4, Z6, Z6; VADDPS YB, Y, YB; \
	VMOVAPS Z6, Y; \
	VPTERNLOGD $0xf4, Z14, X, Y; VPTERNLOGD $0xf4, Z14, XB, YB; \
	VFIXUPIMMPS $0, Z13, X, Y; VFIXUPIMMPS $0, Z13, XB, YB

// func tanhF32AVX512(dst, x *float32, n int)
MAP(·tanhF32AVX512, 24, TANH32_SETUP, TANH32, TANH32x2, Z8, Z9, 16, 2, VMOVUPS, VMOVUPS.Z)

// ---- Tanh, float64

#define TANH64_SETUP \
	MOVQ $0x7fffffffffffffff, AX; \
	VPBROADCASTQ AX, Z20; \
	VBROADCASTSD ·tanh64+tanh64Consts_shift(SB), Z21; \
	MOVQ $0x3ff0000000000000, AX; \
	VPBROADCASTQ AX, Z22; \
	VADDPD Z22, Z22, Z23; \
	VMOVUPD ·exp64+exp64Consts_tHi(SB), Z24; \
	VMOVUPD ·exp64+exp64Consts_tHi+64(SB), Z25; \
	VMOVUPD ·exp64+exp64Consts_tLo(SB), Z26; \
	VMOVUPD ·exp64+exp64Consts_tLo+64(SB), Z27; \
	VBROADCASTSD ·tanh64+tanh64Consts_clamp(SB), Z28; \
	VBROADCASTSD ·tanh64+tanh64Consts_invC(SB), Z29; \
	VBROADCASTSD ·tanh64+tanh64Consts_negCHi(SB), Z30; \
	MOVQ $0xfff0000000000000, AX; \
	VPBROADCASTQ AX, Z31

// Eight temporaries a vector, Z2-Z9 (and Z12-Z19 for the second, its instructions interleaved with the
// first's: their chains of dependent operations are long, and side by side each waits less). T1 a (then
// rho, 2 rho, X + 1), T2 s (then rho squared, p's low part, d), T3 n (then 2 rho's low part, pHi, d's
// low part), T4 2**k's exponent (then a product of Q, X + 1's low part, 1/d), T5 X (then em), T6 XLo
// (then em's low part), T7 and T8 Q's parts (then y, and y's low part).
#define TANH64(X, Y) \
	VPANDQ Z20, X, Z2; \
	VMINPD Z28, Z2, Z2; \
	VMOVAPD Z21, Z3; \
	VFMADD231PD Z29, Z2, Z3; \
	VSUBPD Z21, Z3, Z4; \
	VFMADD231PD Z30, Z4, Z2; \
	VMULPD.BCST ·tanh64+tanh64Consts_negCLo2(SB), Z4, Z4; \
	VPSLLQ $48, Z3, Z5; \
	VPANDQ Z31, Z5, Z5; \
	LOOKUP(VPERMT2PD, Z24, Z25, Z3, Z6); \
	LOOKUP(VPERMT2PD, Z26, Z27, Z3, Z7); \
	VPADDQ Z5, Z6, Z6; \
	VPADDQ Z5, Z7, Z7; \
	VBROADCASTSD ·tanh64+tanh64Consts_q+0(SB), Z5; \
	VFMADD231PD.BCST ·tanh64+tanh64Consts_q+8(SB), Z2, Z5; \
	VBROADCASTSD ·tanh64+tanh64Consts_q+16(SB), Z8; \
	VFMADD231PD.BCST ·tanh64+tanh64Consts_q+24(SB), Z2, Z8; \
	VBROADCASTSD ·tanh64+tanh64Consts_q+32(SB), Z9; \
	VFMADD231PD.BCST ·tanh64+tanh64Consts_q+40(SB), Z2, Z9; \
	VMULPD Z2, Z2, Z3; \
	VFMADD213PD Z8, Z3, Z9; \
	VFMADD213PD Z5, Z3, Z9; \
	VFMADD213PD Z4, Z3, Z9; \
	VADDPD Z2, Z2, Z2; \
	VADDPD Z9, Z2, Z4; \
	VSUBPD Z4, Z2, Z2; \
	VADDPD Z9, Z2, Z3; \
	VADDPD Z22, Z6, Z2; \
	VSUBPD Z2, Z6, Z5; \
	VADDPD Z22, Z5, Z5; \
	VMULPD Z4, Z6, Z8; \
	VMOVAPD Z8, Z9; \
	VFMSUB231PD Z4, Z6, Z9; \
	VFMADD231PD Z4, Z7, Z7; \
	VFMADD231PD Z3, Z6, Z7; \
	VADDPD Z7, Z9, Z9; \
	VADDPD Z5, Z9, Z9; \
	VADDPD Z8, Z2, Z3; \
	VSUBPD Z3, Z2, Z2; \
	VADDPD Z8, Z2, Z2; \
	VADDPD Z9, Z2, Z4; \
	VDIVPD Z3, Z22, Z5; \
	VSUBPD Z23, Z3, Z6; \
	VSUBPD Z6, Z3, Z7; \
	VSUBPD Z23, Z7, Z7; \
	VADDPD Z4, Z7, Z7; \
	VADDPD Z7, Z6, Y; \
	VMULPD Z5, Y, Y; \
	VFNMADD231PD Z3, Y, Z6; \
	VADDPD Z7, Z6, Z6; \
	VFNMADD231PD Z4, Y, Z6; \
	VFMADD231PD Z5, Z6, Y; \
	VPTERNLOGQ $0xf4, Z20, X, Y; \
	VFIXUPIMMPD.BCST $0, ·fixNaN64(SB), X, Y

#define TANH64x2(X, Y, XB, YB) \
	VPANDQ Z20, X, Z2; \
	VPANDQ Z20, XB, Z12; \
	VMINPD Z28, Z2, Z2; \
	VMINPD Z28, Z12, Z12; \
	VMOVAPD Z21, Z3; \
	VMOVAPD Z21, Z13; \
	VFMADD231PD Z29, Z2, Z3; \
	VFMADD231PD Z29, Z12, Z13; \
	VSUBPD Z21, Z3, Z4; \
	VSUBPD Z21, Z13, Z14; \
	VFMADD231PD Z30, Z4, Z2; \
	VFMADD231PD Z30, Z14, Z12; \
	VMULPD.BCST ·tanh64+tanh64Consts_negCLo2(SB), Z4, Z4; \
	VMULPD.BCST ·tanh64+tanh64Consts_negCLo2(SB), Z14, Z14; \
	VPSLLQ $48, Z3, Z5; \
	VPSLLQ $48, Z13, Z15; \
	VPANDQ Z31, Z5, Z5; \
	VPANDQ Z31, Z15, Z15; \
	LOOKUP(VPERMT2PD, Z24, Z25, Z3, Z6); \
	LOOKUP(VPERMT2PD, Z24, Z25, Z13, Z16); \
	LOOKUP(VPERMT2PD, Z26, Z27, Z3, Z7); \
	LOOKUP(VPERMT2PD, Z26, Z27, Z13, Z17); \
	VPADDQ Z5, Z6, Z6; \
	VPADDQ Z15, Z16, Z16; \
	VPADDQ Z5, Z7, Z7; \
	VPADDQ Z15, Z17, Z17; \
	VBROADCASTSD ·tanh64+tanh64Consts_q+0(SB), Z5; \
	VBROADCASTSD ·tanh64+tanh64Consts_q+0(SB), Z15; \
	VFMADD231PD.BCST ·tanh64+tanh64Consts_q+8(SB), Z2, Z5; \
	VFMADD231PD.BCST ·tanh64+tanh64Consts_q+8(SB), Z12, Z15; \
	VBROADCASTSD ·tanh64+tanh64Consts_q+16(SB), Z8; \
	VBROADCASTSD ·tanh64+tanh64Consts_q+16(SB), Z18; \
	VFMADD231PD.BCST ·tanh64+tanh64Consts_q+24(SB), Z2, Z8; \
	VFMADD231PD.BCST ·tanh64+tanh64Consts_q+24(SB), Z12, Z18; \
	VBROADCASTSD ·tanh64+tanh64Consts_q+32(SB), Z9; \
	VBROADCASTSD ·tanh64+tanh64Consts_q+32(SB), Z19; \
	VFMADD231PD.BCST ·tanh64+tanh64Consts_q+40(SB), Z2, Z9; \
	VFMADD231PD.BCST ·tanh64+tanh64Consts_q+40(SB), Z12, Z19; \
	VMULPD Z2, Z2, Z3; \
	VMULPD Z12, Z12, Z13; \
	VFMADD213PD Z8, Z3, Z9; \
	VFMADD213PD Z18, Z13, Z19; \
	VFMADD213PD Z5, Z3, Z9; \
	VFMADD213PD Z15, Z13, Z19; \
	VFMADD213PD Z4, Z3, Z9; \
	VFMADD213PD Z14, Z13, Z19; \
	VADDPD Z2, Z2, Z2; \
	VADDPD Z12, Z12, Z12; \
	VADDPD Z9, Z2, Z4; \
	VADDPD Z19, Z12, Z14; \
	VSUBPD Z4, Z2, Z2; \
	VSUBPD Z14, Z12, Z12; \
	VADDPD Z9, Z2, Z3; \
	VADDPD Z19, Z12, Z13; \
	VADDPD Z22, Z6, Z2; \
	VADDPD Z22, Z16, Z12; \
	VSUBPD Z2, Z6, Z5; \
	VSUBPD Z12, Z16, Z15; \
	VADDPD Z22, Z5, Z5; \
	VADDPD Z22, Z15, Z15; \
	VMULPD Z4, Z6, Z8; \
	VMULPD Z14, Z16, Z18; \
	VMOVAPD Z8, Z9; \
	VMOVAPD Z18, Z19; \
	VFMSUB231PD Z4, Z6, Z9; \
	VFMSUB231PD Z14, Z16, Z19; \
	VFMADD231PD Z4, Z7, Z7; \
	VFMADD231PD Z14, Z17, Z17; \
	VFMADD231PD Z3, Z6, Z7; \
	VFMADD231PD Z13, Z16, Z17; \
	VADDPD Z7, Z9, Z9; \
	VADDPD Z17, Z19, Z19; \
	VADDPD Z5, Z9, Z9; \
	VADDPD Z15, Z19, Z19; \
	VADDPD Z8, Z2, Z3; \
	VADDPD Z18, Z12, Z13; \
	VSUBPD Z3, Z2, Z2; \
	VSUBPD Z13, Z12, Z12; \
	VADDPD Z8, Z2, Z2; \
	VADDPD Z18, Z12, Z12; \
	VADDPD Z9, Z2, Z4; \
	VADDPD Z19, Z12, Z14; \
	VDIVPD Z3, Z22, Z5; \
	VDIVPD Z13, Z22, Z15; \
	VSUBPD Z23, Z3, Z6; \
	VSUBPD Z23, Z13, Z16; \
	VSUBPD Z6, Z3, Z7; \
	VSUBPD Z16, Z13, Z17; \
	VSUBPD Z23, Z7, Z7; \
	VSUBPD Z23, Z17, Z17; \
	VADDPD Z4, Z7, Z7; \
	VADDPD Z14, Z17, Z17; \
	VADDPD Z7, Z6, Y; \
	VADDPD Z17, Z16, YB; \
	VMULPD Z5, Y, Y; \
	VMULPD Z15, YB, YB; \
	VFNMADD231PD Z3, Y, Z6; \
	VFNMADD231PD Z13, YB, Z16; \
	VADDPD Z7, Z6, Z6; \
	VADDPD Z17, Z16, Z16; \
	VFNMADD231PD Z4, Y, Z6; \
	VFNMADD231PD Z14, YB, Z16; \
	VFMADD231PD Z5, Z6, Y; \
	VFMADD231PD Z15, Z16, YB; \
	VPTERNLOGQ $0xf4, Z20, X, Y; \
	VPTERNLOGQ $0xf4, Z20, XB, YB; \
	VFIXUPIMMPD.BCST $0, ·fixNaN64(SB), X, Y; \
	VFIXUPIMMPD.BCST $0, ·fixNaN64(SB), XB, YB

// func tanhF64AVX512(dst, x *float64, n int)
MAP(·tanhF64AVX512, 24, TANH64_SETUP, TANH64, TANH64x2, Z10, Z11, 8, 3, VMOVUPD, VMOVUPD.Z)

// Constants that instructions read broadcast from memory.
DATA ·bit4+0(SB)/8, $16
GLOBL ·bit4(SB), RODATA, $8
DATA ·fixNaN64+0(SB)/8, $0x22
GLOBL ·fixNaN64(SB), RODATA, $8
