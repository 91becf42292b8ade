//go:build !purego

#include "textflag.h"
#include "go_asm.h"

// Exp, Log and Tanh in NEON: math_go.go's functions, operation for
// operation, 4 float32 or 2 float64 lanes at a time, the last n mod 4 (or
// 2) elements loaded and stored lane by lane. As in math_avx2_amd64.s, the
// scaling by 2**k is two products by powers of two, Log's m and k come from
// the bits, and special inputs are compared and selected (BIT, BIF, BSL).
// Tables are looked up with TBL and TBX, 64 bytes (16 float32s, 8
// float64s) at a time, from byte indices: i*4 + {0,1,2,3} (or i*8 +
// {0..7}) in each lane; an index past the first 64 bytes gives 0 in TBL and
// the next 64 bytes' TBX, less 64, fills it in. x is V0, the result V1,
// temporaries V2-V7, constants V8 up.
//
// Go's assembler names few NEON float instructions (go.mod asks for Go
// 1.24): those are encoded as WORDs, as in reductions_neon_arm64.s, each macro's
// operands the register numbers in the order of Go's vector instructions
// (m, n, d: Vd = Vn op Vm).

#define FADD4S(m, n, d) WORD $(0x4E20D400 | ((m)<<16) | ((n)<<5) | (d))
#define FADD2D(m, n, d) WORD $(0x4E60D400 | ((m)<<16) | ((n)<<5) | (d))
#define FSUB4S(m, n, d) WORD $(0x4EA0D400 | ((m)<<16) | ((n)<<5) | (d))
#define FSUB2D(m, n, d) WORD $(0x4EE0D400 | ((m)<<16) | ((n)<<5) | (d))
#define FMUL4S(m, n, d) WORD $(0x6E20DC00 | ((m)<<16) | ((n)<<5) | (d))
#define FMUL2D(m, n, d) WORD $(0x6E60DC00 | ((m)<<16) | ((n)<<5) | (d))
#define FDIV2D(m, n, d) WORD $(0x6E60FC00 | ((m)<<16) | ((n)<<5) | (d))
#define FMAX4S(m, n, d) WORD $(0x4E20F400 | ((m)<<16) | ((n)<<5) | (d))
#define FMAX2D(m, n, d) WORD $(0x4E60F400 | ((m)<<16) | ((n)<<5) | (d))
#define FMIN4S(m, n, d) WORD $(0x4EA0F400 | ((m)<<16) | ((n)<<5) | (d))
#define FMIN2D(m, n, d) WORD $(0x4EE0F400 | ((m)<<16) | ((n)<<5) | (d))
#define FCMEQ4S(m, n, d) WORD $(0x4E20E400 | ((m)<<16) | ((n)<<5) | (d)) // all ones where Vn == Vm
#define FCMEQ2D(m, n, d) WORD $(0x4E60E400 | ((m)<<16) | ((n)<<5) | (d))
#define FCMGT4S(m, n, d) WORD $(0x6EA0E400 | ((m)<<16) | ((n)<<5) | (d)) // where Vn > Vm
#define FCMGT2D(m, n, d) WORD $(0x6EE0E400 | ((m)<<16) | ((n)<<5) | (d))
#define FABS4S(n, d) WORD $(0x4EA0F800 | ((n)<<5) | (d))
#define FABS2D(n, d) WORD $(0x4EE0F800 | ((n)<<5) | (d))
#define SCVTF4S(n, d) WORD $(0x4E21D800 | ((n)<<5) | (d))
#define SCVTF2D(n, d) WORD $(0x4E61D800 | ((n)<<5) | (d))
#define SSHR4S(shift, n, d) WORD $(0x4F000400 | ((64-(shift))<<16) | ((n)<<5) | (d)) // arithmetic
#define SSHR2D(shift, n, d) WORD $(0x4F000400 | ((128-(shift))<<16) | ((n)<<5) | (d))
#define MUL4S(m, n, d) WORD $(0x4EA09C00 | ((m)<<16) | ((n)<<5) | (d))
#define SMAX4S(m, n, d) WORD $(0x4EA06400 | ((m)<<16) | ((n)<<5) | (d))

// Broadcast a float of Go's constants, at SYM, into V; an integer into V.
#define BCAST4S(SYM, V) MOVD $SYM(SB), R9; VLD1R (R9), [V.S4]
#define BCAST2D(SYM, V) MOVD $SYM(SB), R9; VLD1R (R9), [V.D2]
#define DUP4S(C, V) MOVW $C, R9; VDUP R9, V.S4
#define DUP2D(C, V) MOVD $C, R9; VDUP R9, V.D2

// func NAME(dst, x *T, n int, ...) with a frame of ARGS: F of each element. TAIL loads the last R2 (1 to
// LANES-1) elements at R1 into V0's lanes, UNTAIL stores V1's at R0.
#define MAP(NAME, ARGS, SETUP, F, LANES, ARR, TAIL, UNTAIL) \
TEXT NAME(SB), NOSPLIT, ARGS; \
	MOVD dst+0(FP), R0; \
	MOVD x+8(FP), R1; \
	MOVD n+16(FP), R2; \
	SETUP; \
loop:; \
	CMP  $LANES, R2; \
	BLT  tail; \
	VLD1.P 16(R1), [V0.ARR]; \
	F; \
	VST1.P [V1.ARR], 16(R0); \
	SUB  $LANES, R2; \
	B    loop; \
tail:; \
	CBZ  R2, done; \
	VEOR V0.B16, V0.B16, V0.B16; \
	TAIL; \
	F; \
	UNTAIL; \
done:; \
	RET

#define TAIL4S \
	VLD1 (R1), V0.S[0]; \
	CMP  $2, R2; \
	BLT  loaded; \
	ADD  $4, R1, R3; \
	VLD1 (R3), V0.S[1]; \
	CMP  $3, R2; \
	BLT  loaded; \
	ADD  $8, R1, R3; \
	VLD1 (R3), V0.S[2]; \
loaded:

#define UNTAIL4S \
	VST1 V1.S[0], (R0); \
	CMP  $2, R2; \
	BLT  done; \
	ADD  $4, R0, R3; \
	VST1 V1.S[1], (R3); \
	CMP  $3, R2; \
	BLT  done; \
	ADD  $8, R0, R3; \
	VST1 V1.S[2], (R3)

#define TAIL2D VLD1 (R1), V0.D[0]
#define UNTAIL2D VST1 V1.D[0], (R0)

// A quiet NaN for a NaN x (uses V2, V3).
#define NAN4S FCMEQ4S(0, 0, 2); FADD4S(0, 0, 3); VBIF V2.B16, V3.B16, V1.B16
#define NAN2D FCMEQ2D(0, 0, 2); FADD2D(0, 0, 3); VBIF V2.B16, V3.B16, V1.B16

// The entry of a table of 32 float32s or 16 float64s (128 bytes at PTR, which moves past them) at the
// byte indices IDX, and IDX64 = IDX - 64, into D (uses V24-V27).
#define LOOKUP(PTR, IDX, IDX64, D) \
	VLD1.P 64(PTR), [V24.B16, V25.B16, V26.B16, V27.B16]; \
	VTBL IDX.B16, [V24.B16, V25.B16, V26.B16, V27.B16], D.B16; \
	VLD1.P 64(PTR), [V24.B16, V25.B16, V26.B16, V27.B16]; \
	VTBX IDX64.B16, [V24.B16, V25.B16, V26.B16, V27.B16], D.B16

// Byte indices of 32-bit lanes from the indices in V, register number N: i * 0x04040404 (in register
// number M) + 0x03020100 (in O); of 64-bit lanes in V, i*8 spread over the lane's bytes by TBL with S
// (made by SPREAD), plus O (0x0706050403020100).
#define BYTES4S(N, V, M, O) MUL4S(M, N, N); VADD O.S4, V.S4, V.S4
#define BYTES2D(V, S, O) VSHL $3, V.D2, V.D2; VTBL S.B16, [V.B16], V.B16; VADD O.B16, V.B16, V.B16
#define SPREAD(S) VEOR S.B16, S.B16, S.B16; MOVD $0x0808080808080808, R9; VMOV R9, S.D[1]

// ---- Exp, float32: the table of 8 in V17-V20, looked up from two registers.

#define EXP32_SETUP \
	BCAST4S(·exp32+exp32Consts_lo, V8); \
	BCAST4S(·exp32+exp32Consts_hi, V9); \
	BCAST4S(·exp32+exp32Consts_invC, V10); \
	BCAST4S(·exp32+exp32Consts_shift, V11); \
	BCAST4S(·exp32+exp32Consts_negCHi, V12); \
	BCAST4S(·exp32+exp32Consts_negCLo, V13); \
	BCAST4S(·exp32+exp32Consts_q+0, V14); \
	BCAST4S(·exp32+exp32Consts_q+4, V15); \
	BCAST4S(·exp32+exp32Consts_q+8, V16); \
	MOVD $·exp32+exp32Consts_tHi(SB), R9; \
	VLD1 (R9), [V17.B16, V18.B16]; \
	MOVD $·exp32+exp32Consts_tLo(SB), R9; \
	VLD1 (R9), [V19.B16, V20.B16]; \
	DUP4S(127, V21); \
	DUP4S(7, V22); \
	DUP4S(0x04040404, V23); \
	DUP4S(0x03020100, V28)

// V2 a (then r, tLo, m), V3 s, V4 n (then k), V5 em1 (then 2**k1), V6 q (then byte indices), V7 (q, then
// tHi).
#define EXP32 \
	FMAX4S(8, 0, 2); \
	FMIN4S(9, 2, 2); \
	VMOV V11.B16, V3.B16; \
	VFMLA V10.S4, V2.S4, V3.S4; \
	FSUB4S(11, 3, 4); \
	VFMLA V12.S4, V4.S4, V2.S4; \
	VFMLA V13.S4, V4.S4, V2.S4; \
	VMOV V15.B16, V6.B16; \
	VFMLA V16.S4, V2.S4, V6.S4; \
	VMOV V14.B16, V7.B16; \
	VFMLA V6.S4, V2.S4, V7.S4; \
	FMUL4S(2, 2, 6); \
	VMOV V2.B16, V5.B16; \
	VFMLA V7.S4, V6.S4, V5.S4; \
	VAND V22.B16, V3.B16, V6.B16; \
	BYTES4S(6, V6, 23, V28); \
	VTBL V6.B16, [V17.B16, V18.B16], V7.B16; \
	VTBL V6.B16, [V19.B16, V20.B16], V2.B16; \
	VFMLA V5.S4, V7.S4, V2.S4; \
	FADD4S(2, 7, 2); \
	VSUB V11.S4, V3.S4, V4.S4; \
	SSHR4S(3, 4, 4); \
	SSHR4S(1, 4, 5); \
	VSUB V5.S4, V4.S4, V4.S4; \
	VADD V21.S4, V5.S4, V5.S4; \
	VSHL $23, V5.S4, V5.S4; \
	VADD V21.S4, V4.S4, V4.S4; \
	VSHL $23, V4.S4, V4.S4; \
	FMUL4S(5, 2, 2); \
	FMUL4S(4, 2, 1); \
	NAN4S

// func expF32NEON(dst, x *float32, n int)
MAP(·expF32NEON, $0-24, EXP32_SETUP, EXP32, 4, S4, TAIL4S, UNTAIL4S)

// ---- Exp, float64

#define EXP64_SETUP \
	BCAST2D(·exp64+exp64Consts_lo, V8); \
	BCAST2D(·exp64+exp64Consts_hi, V9); \
	BCAST2D(·exp64+exp64Consts_invC, V10); \
	BCAST2D(·exp64+exp64Consts_shift, V11); \
	BCAST2D(·exp64+exp64Consts_negCHi, V12); \
	BCAST2D(·exp64+exp64Consts_negCLo, V13); \
	BCAST2D(·exp64+exp64Consts_q+0, V14); \
	BCAST2D(·exp64+exp64Consts_q+8, V15); \
	BCAST2D(·exp64+exp64Consts_q+16, V16); \
	BCAST2D(·exp64+exp64Consts_q+24, V17); \
	BCAST2D(·exp64+exp64Consts_q+32, V18); \
	BCAST2D(·exp64+exp64Consts_q+40, V19); \
	DUP2D(1023, V20); \
	DUP2D(15, V21); \
	SPREAD(V22); \
	DUP2D(0x0706050403020100, V23); \
	VMOVI $64, V28.B16

// V2 a (then r, tHi), V3 s, V4 n (then tLo, m), V5 em1 (then k), V6 and V7 Q (then byte indices).
#define EXP64 \
	FMAX2D(8, 0, 2); \
	FMIN2D(9, 2, 2); \
	VMOV V11.B16, V3.B16; \
	VFMLA V10.D2, V2.D2, V3.D2; \
	FSUB2D(11, 3, 4); \
	VFMLA V12.D2, V4.D2, V2.D2; \
	VFMLA V13.D2, V4.D2, V2.D2; \
	VMOV V18.B16, V6.B16; \
	VFMLA V19.D2, V2.D2, V6.D2; \
	VMOV V17.B16, V7.B16; \
	VFMLA V6.D2, V2.D2, V7.D2; \
	VMOV V16.B16, V6.B16; \
	VFMLA V7.D2, V2.D2, V6.D2; \
	VMOV V15.B16, V7.B16; \
	VFMLA V6.D2, V2.D2, V7.D2; \
	VMOV V14.B16, V6.B16; \
	VFMLA V7.D2, V2.D2, V6.D2; \
	FMUL2D(2, 2, 7); \
	VMOV V2.B16, V5.B16; \
	VFMLA V6.D2, V7.D2, V5.D2; \
	VAND V21.B16, V3.B16, V6.B16; \
	BYTES2D(V6, V22, V23); \
	VSUB V28.B16, V6.B16, V7.B16; \
	MOVD $·exp64+exp64Consts_tHi(SB), R10; \
	LOOKUP(R10, V6, V7, V2); \
	LOOKUP(R10, V6, V7, V4); \
	VFMLA V5.D2, V2.D2, V4.D2; \
	FADD2D(4, 2, 4); \
	VSUB V11.D2, V3.D2, V5.D2; \
	SSHR2D(4, 5, 5); \
	SSHR2D(1, 5, 6); \
	VSUB V6.D2, V5.D2, V5.D2; \
	VADD V20.D2, V6.D2, V6.D2; \
	VSHL $52, V6.D2, V6.D2; \
	VADD V20.D2, V5.D2, V5.D2; \
	VSHL $52, V5.D2, V5.D2; \
	FMUL2D(6, 4, 4); \
	FMUL2D(5, 4, 1); \
	NAN2D

// func expF64NEON(dst, x *float64, n int)
MAP(·expF64NEON, $0-24, EXP64_SETUP, EXP64, 2, D2, TAIL2D, UNTAIL2D)

// ---- Exp of x + a (ExpSum's), a in V31.

#define EXPSHIFT32_SETUP EXP32_SETUP; FMOVS a+24(FP), F31; VDUP V31.S[0], V31.S4
#define EXPSHIFT64_SETUP EXP64_SETUP; FMOVD a+24(FP), F31; VDUP V31.D[0], V31.D2

// func expShiftF32NEON(dst, x *float32, n int, a float32)
MAP(·expShiftF32NEON, $0-28, EXPSHIFT32_SETUP, FADD4S(31, 0, 0); EXP32, 4, S4, TAIL4S, UNTAIL4S)

// func expShiftF64NEON(dst, x *float64, n int, a float64)
MAP(·expShiftF64NEON, $0-32, EXPSHIFT64_SETUP, FADD2D(31, 0, 0); EXP64, 2, D2, TAIL2D, UNTAIL2D)

// ---- Log, float32; then the special inputs: +Inf itself, ±0 -Inf, below 0 the default NaN, NaN
// itself made quiet.

#define LOG32_SETUP \
	BCAST4S(·log32+log32Consts_ln2Hi, V8); \
	BCAST4S(·log32+log32Consts_ln2Lo, V9); \
	BCAST4S(·log32+log32Consts_p+0, V10); \
	BCAST4S(·log32+log32Consts_p+4, V11); \
	BCAST4S(·log32+log32Consts_p+8, V12); \
	BCAST4S(·log32+log32Consts_p+12, V13); \
	DUP4S(0x3f800000, V14); \
	DUP4S(0xbf800000, V15); \
	DUP4S(0x00800000, V16); \
	DUP4S(0x4b000000, V17); \
	DUP4S(-23, V18); \
	DUP4S(127, V19); \
	DUP4S(0x007fffff, V20); \
	DUP4S(0x04040404, V21); \
	DUP4S(0x03020100, V22); \
	DUP4S(0x7f800000, V23); \
	DUP4S(0xff800000, V28); \
	DUP4S(0xffc00000, V29); \
	VMOVI $64, V30.B16

// V2 x scaled (then m bits, logCLo, lo), V3 k, V4 the subnormals' -23 (then byte indices, P's part, r
// squared), V5 bytes - 64, V6 1/c (then logCHi, hi), V7 r; V31 the subnormals' mask and the special
// inputs'.
#define LOG32 \
	FCMGT4S(0, 16, 31); \
	VAND V18.B16, V31.B16, V4.B16; \
	FMUL4S(17, 0, 3); \
	VMOV V31.B16, V2.B16; \
	VBSL V0.B16, V3.B16, V2.B16; \
	VUSHR $23, V2.S4, V3.S4; \
	VSUB V19.S4, V3.S4, V3.S4; \
	VADD V4.S4, V3.S4, V3.S4; \
	VAND V20.B16, V2.B16, V2.B16; \
	VUSHR $22, V2.S4, V4.S4; \
	VSHL $23, V4.S4, V4.S4; \
	VORR V14.B16, V2.B16, V2.B16; \
	VSUB V4.S4, V2.S4, V2.S4; \
	SCVTF4S(3, 3); \
	VSHL $9, V2.S4, V4.S4; \
	VUSHR $27, V4.S4, V4.S4; \
	BYTES4S(4, V4, 21, V22); \
	VSUB V30.B16, V4.B16, V5.B16; \
	MOVD $·log32+log32Consts_invC(SB), R10; \
	LOOKUP(R10, V4, V5, V6); \
	VMOV V15.B16, V7.B16; \
	VFMLA V6.S4, V2.S4, V7.S4; \
	LOOKUP(R10, V4, V5, V6); \
	LOOKUP(R10, V4, V5, V2); \
	VFMLA V8.S4, V3.S4, V6.S4; \
	VFMLA V9.S4, V3.S4, V2.S4; \
	VMOV V12.B16, V3.B16; \
	VFMLA V13.S4, V7.S4, V3.S4; \
	VMOV V11.B16, V4.B16; \
	VFMLA V3.S4, V7.S4, V4.S4; \
	VMOV V10.B16, V3.B16; \
	VFMLA V4.S4, V7.S4, V3.S4; \
	FMUL4S(7, 7, 4); \
	VFMLA V3.S4, V4.S4, V2.S4; \
	FADD4S(7, 6, 1); \
	FSUB4S(1, 6, 6); \
	FADD4S(7, 6, 6); \
	FADD4S(2, 6, 6); \
	FADD4S(6, 1, 1); \
	FCMEQ4S(23, 0, 31); \
	VBIT V31.B16, V0.B16, V1.B16; \
	VEOR V3.B16, V3.B16, V3.B16; \
	FCMEQ4S(3, 0, 31); \
	VBIT V31.B16, V28.B16, V1.B16; \
	FCMGT4S(0, 3, 31); \
	VBIT V31.B16, V29.B16, V1.B16; \
	NAN4S

// func logF32NEON(dst, x *float32, n int)
MAP(·logF32NEON, $0-24, LOG32_SETUP, LOG32, 4, S4, TAIL4S, UNTAIL4S)

// ---- Log, float64: tables of 32 float64s, four times 64 bytes; the polynomial's coefficients read
// broadcast at each use.

#define LOG64_SETUP \
	BCAST2D(·log64+log64Consts_ln2Hi, V8); \
	BCAST2D(·log64+log64Consts_ln2Lo, V9); \
	DUP2D(0x3ff0000000000000, V14); \
	DUP2D(0xbff0000000000000, V15); \
	DUP2D(0x0010000000000000, V16); \
	DUP2D(0x4330000000000000, V17); \
	DUP2D(-52, V18); \
	DUP2D(1023, V19); \
	DUP2D(0x000fffffffffffff, V20); \
	SPREAD(V21); \
	DUP2D(0x0706050403020100, V22); \
	DUP2D(0x7ff0000000000000, V23); \
	DUP2D(0xfff0000000000000, V28); \
	DUP2D(0xfff8000000000000, V29); \
	VMOVI $64, V30.B16

// A table of 32 float64s, 256 bytes at PTR, looked up at the byte indices IDX (uses IDX64 and V24-V27).
#define LOOKUP256(PTR, IDX, IDX64, D) \
	VSUB V30.B16, IDX.B16, IDX64.B16; \
	LOOKUP(PTR, IDX, IDX64, D); \
	VSUB V30.B16, IDX64.B16, IDX64.B16; \
	VLD1.P 64(PTR), [V24.B16, V25.B16, V26.B16, V27.B16]; \
	VTBX IDX64.B16, [V24.B16, V25.B16, V26.B16, V27.B16], D.B16; \
	VSUB V30.B16, IDX64.B16, IDX64.B16; \
	VLD1.P 64(PTR), [V24.B16, V25.B16, V26.B16, V27.B16]; \
	VTBX IDX64.B16, [V24.B16, V25.B16, V26.B16, V27.B16], D.B16

// Registers as LOG32's; V10-V13 the polynomial's coefficients as they are needed.
#define LOG64 \
	FCMGT2D(0, 16, 31); \
	VAND V18.B16, V31.B16, V4.B16; \
	FMUL2D(17, 0, 3); \
	VMOV V31.B16, V2.B16; \
	VBSL V0.B16, V3.B16, V2.B16; \
	VUSHR $52, V2.D2, V3.D2; \
	VSUB V19.D2, V3.D2, V3.D2; \
	VADD V4.D2, V3.D2, V3.D2; \
	VAND V20.B16, V2.B16, V2.B16; \
	VUSHR $51, V2.D2, V4.D2; \
	VSHL $52, V4.D2, V4.D2; \
	VORR V14.B16, V2.B16, V2.B16; \
	VSUB V4.D2, V2.D2, V2.D2; \
	SCVTF2D(3, 3); \
	VSHL $12, V2.D2, V4.D2; \
	VUSHR $59, V4.D2, V4.D2; \
	BYTES2D(V4, V21, V22); \
	MOVD $·log64+log64Consts_invC(SB), R10; \
	LOOKUP256(R10, V4, V5, V6); \
	VMOV V15.B16, V7.B16; \
	VFMLA V6.D2, V2.D2, V7.D2; \
	LOOKUP256(R10, V4, V5, V6); \
	LOOKUP256(R10, V4, V5, V2); \
	VFMLA V8.D2, V3.D2, V6.D2; \
	VFMLA V9.D2, V3.D2, V2.D2; \
	BCAST2D(·log64+log64Consts_p+48, V3); \
	BCAST2D(·log64+log64Consts_p+56, V10); \
	VFMLA V10.D2, V7.D2, V3.D2; \
	BCAST2D(·log64+log64Consts_p+40, V4); \
	VFMLA V3.D2, V7.D2, V4.D2; \
	BCAST2D(·log64+log64Consts_p+32, V3); \
	VFMLA V4.D2, V7.D2, V3.D2; \
	BCAST2D(·log64+log64Consts_p+24, V4); \
	VFMLA V3.D2, V7.D2, V4.D2; \
	BCAST2D(·log64+log64Consts_p+16, V3); \
	VFMLA V4.D2, V7.D2, V3.D2; \
	BCAST2D(·log64+log64Consts_p+8, V4); \
	VFMLA V3.D2, V7.D2, V4.D2; \
	BCAST2D(·log64+log64Consts_p+0, V3); \
	VFMLA V4.D2, V7.D2, V3.D2; \
	FMUL2D(7, 7, 4); \
	VFMLA V3.D2, V4.D2, V2.D2; \
	FADD2D(7, 6, 1); \
	FSUB2D(1, 6, 6); \
	FADD2D(7, 6, 6); \
	FADD2D(2, 6, 6); \
	FADD2D(6, 1, 1); \
	FCMEQ2D(23, 0, 31); \
	VBIT V31.B16, V0.B16, V1.B16; \
	VEOR V3.B16, V3.B16, V3.B16; \
	FCMEQ2D(3, 0, 31); \
	VBIT V31.B16, V28.B16, V1.B16; \
	FCMGT2D(0, 3, 31); \
	VBIT V31.B16, V29.B16, V1.B16; \
	NAN2D

// func logF64NEON(dst, x *float64, n int)
MAP(·logF64NEON, $0-24, LOG64_SETUP, LOG64, 2, D2, TAIL2D, UNTAIL2D)

// ---- Tanh, float32: the eight tables looked up in their order in memory (b, c0Hi, c0Lo, c1, r[0..3])
// into V8-V15, then the polynomial.

#define TANH32_SETUP \
	BCAST4S(·tanh32+tanh32Consts_clamp, V16); \
	DUP4S(const_tanh32Base, V17); \
	DUP4S(0x04040404, V18); \
	DUP4S(0x03020100, V19); \
	DUP4S(0x80000000, V20); \
	VMOVI $64, V21.B16; \
	VEOR V22.B16, V22.B16, V22.B16

// V2 a (then y), V3 byte indices, V4 less 64, V5 y squared, V6 and V7 the polynomial.
#define TANH32 \
	FABS4S(0, 2); \
	FMIN4S(16, 2, 2); \
	VUSHR $21, V2.S4, V3.S4; \
	VSUB V17.S4, V3.S4, V3.S4; \
	SMAX4S(22, 3, 3); \
	BYTES4S(3, V3, 18, V19); \
	VSUB V21.B16, V3.B16, V4.B16; \
	MOVD $·tanh32+tanh32Consts_b(SB), R10; \
	LOOKUP(R10, V3, V4, V8); \
	LOOKUP(R10, V3, V4, V9); \
	LOOKUP(R10, V3, V4, V10); \
	LOOKUP(R10, V3, V4, V11); \
	LOOKUP(R10, V3, V4, V12); \
	LOOKUP(R10, V3, V4, V13); \
	LOOKUP(R10, V3, V4, V14); \
	LOOKUP(R10, V3, V4, V15); \
	FSUB4S(8, 2, 2); \
	VFMLA V15.S4, V2.S4, V14.S4; \
	VFMLA V13.S4, V2.S4, V12.S4; \
	FMUL4S(2, 2, 5); \
	VFMLA V14.S4, V5.S4, V12.S4; \
	VFMLA V12.S4, V5.S4, V10.S4; \
	VFMLA V11.S4, V2.S4, V10.S4; \
	FADD4S(10, 9, 1); \
	VAND V20.B16, V0.B16, V2.B16; \
	VORR V2.B16, V1.B16, V1.B16; \
	NAN4S

// func tanhF32NEON(dst, x *float32, n int)
MAP(·tanhF32NEON, $0-24, TANH32_SETUP, TANH32, 4, S4, TAIL4S, UNTAIL4S)

// ---- Tanh, float64: as AVX-512's, the exponentials' table of 16 by TBL and TBX.

#define TANH64_SETUP \
	BCAST2D(·tanh64+tanh64Consts_clamp, V8); \
	BCAST2D(·tanh64+tanh64Consts_invC, V9); \
	BCAST2D(·tanh64+tanh64Consts_shift, V10); \
	BCAST2D(·tanh64+tanh64Consts_negCHi, V11); \
	BCAST2D(·tanh64+tanh64Consts_negCLo2, V12); \
	BCAST2D(·tanh64+tanh64Consts_q+0, V13); \
	BCAST2D(·tanh64+tanh64Consts_q+8, V14); \
	BCAST2D(·tanh64+tanh64Consts_q+16, V15); \
	BCAST2D(·tanh64+tanh64Consts_q+24, V16); \
	BCAST2D(·tanh64+tanh64Consts_q+32, V17); \
	BCAST2D(·tanh64+tanh64Consts_q+40, V18); \
	DUP2D(0x3ff0000000000000, V19); \
	DUP2D(0x4000000000000000, V20); \
	DUP2D(0xfff0000000000000, V21); \
	DUP2D(15, V22); \
	SPREAD(V23); \
	DUP2D(0x0706050403020100, V28); \
	DUP2D(0x8000000000000000, V29); \
	VMOVI $64, V30.B16

// V2 a (then rho, 2 rho, X + 1), V3 s (then rho squared, p's low part, d), V4 n (then 2 rho's low part,
// pHi, d's low part), V5 2**k's exponent (then a product of Q, X + 1's low part, 1/d), V6 X (then em),
// V7 XLo (then em's low part), V31 and V1 Q's parts (then y and its low part), V31 and V1 the tables'
// byte indices first.
#define TANH64 \
	FABS2D(0, 2); \
	FMIN2D(8, 2, 2); \
	VMOV V10.B16, V3.B16; \
	VFMLA V9.D2, V2.D2, V3.D2; \
	FSUB2D(10, 3, 4); \
	VFMLA V11.D2, V4.D2, V2.D2; \
	FMUL2D(12, 4, 4); \
	VSHL $48, V3.D2, V5.D2; \
	VAND V21.B16, V5.B16, V5.B16; \
	VAND V22.B16, V3.B16, V31.B16; \
	BYTES2D(V31, V23, V28); \
	VSUB V30.B16, V31.B16, V1.B16; \
	MOVD $·exp64+exp64Consts_tHi(SB), R10; \
	LOOKUP(R10, V31, V1, V6); \
	LOOKUP(R10, V31, V1, V7); \
	VADD V5.D2, V6.D2, V6.D2; \
	VADD V5.D2, V7.D2, V7.D2; \
	VMOV V13.B16, V5.B16; \
	VFMLA V14.D2, V2.D2, V5.D2; \
	VMOV V15.B16, V31.B16; \
	VFMLA V16.D2, V2.D2, V31.D2; \
	VMOV V17.B16, V1.B16; \
	VFMLA V18.D2, V2.D2, V1.D2; \
	FMUL2D(2, 2, 3); \
	VFMLA V1.D2, V3.D2, V31.D2; \
	VFMLA V31.D2, V3.D2, V5.D2; \
	VFMLA V5.D2, V3.D2, V4.D2; \
	FADD2D(2, 2, 2); \
	FADD2D(4, 2, 1); \
	FSUB2D(1, 2, 2); \
	FADD2D(4, 2, 3); \
	VMOV V1.B16, V4.B16; \
	FADD2D(19, 6, 2); \
	FSUB2D(2, 6, 5); \
	FADD2D(19, 5, 5); \
	FMUL2D(4, 6, 31); \
	VMOV V31.B16, V1.B16; \
	VFMLS V4.D2, V6.D2, V1.D2; \
	VFMLA V4.D2, V7.D2, V7.D2; \
	VFMLA V3.D2, V6.D2, V7.D2; \
	FSUB2D(1, 7, 1); \
	FADD2D(5, 1, 1); \
	FADD2D(31, 2, 3); \
	FSUB2D(3, 2, 2); \
	FADD2D(31, 2, 2); \
	FADD2D(1, 2, 4); \
	FDIV2D(3, 19, 5); \
	FSUB2D(20, 3, 6); \
	FSUB2D(6, 3, 7); \
	FSUB2D(20, 7, 7); \
	FADD2D(4, 7, 7); \
	FADD2D(7, 6, 1); \
	FMUL2D(5, 1, 1); \
	VFMLS V3.D2, V1.D2, V6.D2; \
	FADD2D(7, 6, 6); \
	VFMLS V4.D2, V1.D2, V6.D2; \
	VFMLA V5.D2, V6.D2, V1.D2; \
	VAND V29.B16, V0.B16, V2.B16; \
	VORR V2.B16, V1.B16, V1.B16; \
	NAN2D

// func tanhF64NEON(dst, x *float64, n int)
MAP(·tanhF64NEON, $0-24, TANH64_SETUP, TANH64, 2, D2, TAIL2D, UNTAIL2D)
