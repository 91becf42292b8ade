//go:build !purego

#include "textflag.h"
#include "neon_arm64.h"

// NEON kernels (Advanced SIMD, which every arm64 CPU has), as avx2_amd64.s's
// with 16-byte vectors. n is a multiple of the elements of one vector. The
// instructions Go's assembler does not name are encoded in neon_arm64.h.

// ---- float sums

// func sumF32NEON(p *float32, n int) float64
TEXT ·sumF32NEON(SB), NOSPLIT, $0-24
	MOVD p+0(FP), R0
	MOVD n+8(FP), R1
	ZERO4
loop2:
	CMP  $8, R1
	BLT  loop1
	VLD1.P 32(R0), [V0.S4, V1.S4]
	FCVTL(0, 2)
	FCVTL2(0, 3)
	FCVTL(1, 4)
	FCVTL2(1, 5)
	FADD2D(2, 16, 16)
	FADD2D(3, 17, 17)
	FADD2D(4, 18, 18)
	FADD2D(5, 19, 19)
	SUB  $8, R1
	B    loop2
loop1:
	CBZ  R1, done
	VLD1.P 16(R0), [V0.S4]
	FCVTL(0, 2)
	FCVTL2(0, 3)
	FADD2D(2, 16, 16)
	FADD2D(3, 17, 17)
	SUB  $4, R1
	B    loop1
done:
	FADD2D(17, 16, 16)
	FADD2D(19, 18, 18)
	FADD2D(18, 16, 16)
	FADDP2D(16, 0)
	FMOVD F0, ret+16(FP)
	RET

// func sumF64NEON(p *float64, n int) (hi, lo float64)
TEXT ·sumF64NEON(SB), NOSPLIT, $0-32
	MOVD p+0(FP), R0
	MOVD n+8(FP), R1
	ZERO4
loop2:
	CMP  $4, R1
	BLT  loop1
	VLD1.P 32(R0), [V0.D2, V1.D2]
	TWOSUM2
	SUB  $4, R1
	B    loop2
loop1:
	CBZ  R1, done
	VLD1.P 16(R0), [V0.D2]
	TWOSUM1
	SUB  $2, R1
	B    loop1
done:
	TWOSUM_END
	FMOVD F16, hi+16(FP)
	FMOVD F18, lo+24(FP)
	RET

// ---- integer sums into wrapping 64-bit lanes

// Words widened by ADDW (SADDW or UADDW) and ADDW2 into 64-bit lanes.
#define SUM_WORDS(NAME, ADDW, ADDW2) \
TEXT NAME(SB), NOSPLIT, $0-24; \
	MOVD p+0(FP), R0; \
	MOVD n+8(FP), R1; \
	ZERO4; \
loop2:; \
	CMP  $8, R1; \
	BLT  loop1; \
	VLD1.P 32(R0), [V0.S4, V1.S4]; \
	ADDW(0, 16, 16); \
	ADDW2(0, 17, 17); \
	ADDW(1, 18, 18); \
	ADDW2(1, 19, 19); \
	SUB  $8, R1; \
	B    loop2; \
loop1:; \
	CBZ  R1, done; \
	VLD1.P 16(R0), [V0.S4]; \
	ADDW(0, 16, 16); \
	ADDW2(0, 17, 17); \
	SUB  $4, R1; \
	B    loop1; \
done:; \
	ADD2D(17, 16, 16); \
	ADD2D(19, 18, 18); \
	ADD2D(18, 16, 16); \
	ADDP2D(16, 0); \
	FMOVD F0, ret+16(FP); \
	RET

// func sumI32NEON(p unsafe.Pointer, n int) uint64
SUM_WORDS(·sumI32NEON, SADDW, SADDW2)
// func sumU32NEON(p unsafe.Pointer, n int) uint64
SUM_WORDS(·sumU32NEON, UADDW, UADDW2)

// func sumI64NEON(p unsafe.Pointer, n int) uint64
TEXT ·sumI64NEON(SB), NOSPLIT, $0-24
	MOVD p+0(FP), R0
	MOVD n+8(FP), R1
	ZERO4
loop2:
	CMP  $4, R1
	BLT  loop1
	VLD1.P 32(R0), [V0.D2, V1.D2]
	ADD2D(0, 16, 16)
	ADD2D(1, 17, 17)
	SUB  $4, R1
	B    loop2
loop1:
	CBZ  R1, done
	VLD1.P 16(R0), [V0.D2]
	ADD2D(0, 16, 16)
	SUB  $2, R1
	B    loop1
done:
	ADD2D(17, 16, 16)
	ADDP2D(16, 0)
	FMOVD F0, ret+16(FP)
	RET

// ---- dot products and squared distances, in float64 lanes

// LOAD fetches two vectors of x (R0) and of y (R1) as four of doubles each:
// x in V2-V5, y in V6-V9. STEP elements a time.
#define LOAD_F32 \
	VLD1.P 32(R0), [V0.S4, V1.S4]; \
	FCVTL(0, 2); \
	FCVTL2(0, 3); \
	FCVTL(1, 4); \
	FCVTL2(1, 5); \
	VLD1.P 32(R1), [V0.S4, V1.S4]; \
	FCVTL(0, 6); \
	FCVTL2(0, 7); \
	FCVTL(1, 8); \
	FCVTL2(1, 9)
#define LOAD_F64 \
	VLD1.P 32(R0), [V2.D2, V3.D2]; \
	VLD1.P 32(R0), [V4.D2, V5.D2]; \
	VLD1.P 32(R1), [V6.D2, V7.D2]; \
	VLD1.P 32(R1), [V8.D2, V9.D2]

#define DOT_TERM(X, Y, ACC) FMLA2D(Y, X, ACC)
#define SQ_TERM(X, Y, ACC) FSUB2D(Y, X, X); FMLA2D(X, X, ACC)

// A reduction of two float arrays, 8 elements a time (n a multiple of 8; the
// Go side leaves the rest).
#define PAIR(NAME, LOAD, TERM) \
TEXT NAME(SB), NOSPLIT, $0-32; \
	MOVD x+0(FP), R0; \
	MOVD y+8(FP), R1; \
	MOVD n+16(FP), R2; \
	ZERO4; \
loop:; \
	CBZ  R2, done; \
	LOAD; \
	TERM(2, 6, 16); \
	TERM(3, 7, 17); \
	TERM(4, 8, 18); \
	TERM(5, 9, 19); \
	SUB  $8, R2; \
	B    loop; \
done:; \
	FADD2D(17, 16, 16); \
	FADD2D(19, 18, 18); \
	FADD2D(18, 16, 16); \
	FADDP2D(16, 0); \
	FMOVD F0, ret+24(FP); \
	RET

// func dotF32NEON(x, y *float32, n int) float64
PAIR(·dotF32NEON, LOAD_F32, DOT_TERM)
// func dotF64NEON(x, y *float64, n int) float64
PAIR(·dotF64NEON, LOAD_F64, DOT_TERM)
// func sqDistF32NEON(x, y *float32, n int) float64
PAIR(·sqDistF32NEON, LOAD_F32, SQ_TERM)
// func sqDistF64NEON(x, y *float64, n int) float64
PAIR(·sqDistF64NEON, LOAD_F64, SQ_TERM)

// ---- minima and maxima, 32 bytes a time: the accumulators start as the first element

// OP(m, n, d) combines two vectors, ACROSS(n, d) a vector's lanes into its
// first; MOVE moves that lane's bits to R2.
#define EXTREME(NAME, ARRANGEMENT, OP, ACROSS, MOVE, ESIZE) \
TEXT NAME(SB), NOSPLIT, $0-25; \
	MOVD p+0(FP), R0; \
	MOVD n+8(FP), R1; \
	MOVD $ESIZE, R3; \
	MUL  R3, R1; \
	VLD1R (R0), [V16.ARRANGEMENT]; \
	VORR V16.B16, V16.B16, V17.B16; \
loop:; \
	CBZ  R1, done; \
	VLD1.P 32(R0), [V0.B16, V1.B16]; \
	OP(0, 16, 16); \
	OP(1, 17, 17); \
	SUB  $32, R1; \
	B    loop; \
done:; \
	OP(17, 16, 16); \
	ACROSS(16, 0); \
	MOVE; \
	MOVD R2, bits+16(FP); \
	MOVB ZR, nan+24(FP); \
	RET

#define SMIN_B(m, n, d) SMIN(0, m, n, d)
#define SMAX_B(m, n, d) SMAX(0, m, n, d)
#define UMIN_B(m, n, d) UMIN(0, m, n, d)
#define UMAX_B(m, n, d) UMAX(0, m, n, d)
#define SMIN_H(m, n, d) SMIN(1, m, n, d)
#define SMAX_H(m, n, d) SMAX(1, m, n, d)
#define UMIN_H(m, n, d) UMIN(1, m, n, d)
#define UMAX_H(m, n, d) UMAX(1, m, n, d)
#define SMIN_S(m, n, d) SMIN(2, m, n, d)
#define SMAX_S(m, n, d) SMAX(2, m, n, d)
#define UMIN_S(m, n, d) UMIN(2, m, n, d)
#define UMAX_S(m, n, d) UMAX(2, m, n, d)
#define SMINV_B(n, d) SMINV(0, n, d)
#define SMAXV_B(n, d) SMAXV(0, n, d)
#define UMINV_B(n, d) UMINV(0, n, d)
#define UMAXV_B(n, d) UMAXV(0, n, d)
#define SMINV_H(n, d) SMINV(1, n, d)
#define SMAXV_H(n, d) SMAXV(1, n, d)
#define UMINV_H(n, d) UMINV(1, n, d)
#define UMAXV_H(n, d) UMAXV(1, n, d)
#define SMINV_S(n, d) SMINV(2, n, d)
#define SMAXV_S(n, d) SMAXV(2, n, d)
#define UMINV_S(n, d) UMINV(2, n, d)
#define UMAXV_S(n, d) UMAXV(2, n, d)
#define MOVE_B VMOV V0.B[0], R2
#define MOVE_H VMOV V0.H[0], R2
#define MOVE_S VMOV V0.S[0], R2
#define MOVE_D VMOV V0.D[0], R2

EXTREME(·minI8NEON, B16, SMIN_B, SMINV_B, MOVE_B, 1)
EXTREME(·maxI8NEON, B16, SMAX_B, SMAXV_B, MOVE_B, 1)
EXTREME(·minU8NEON, B16, UMIN_B, UMINV_B, MOVE_B, 1)
EXTREME(·maxU8NEON, B16, UMAX_B, UMAXV_B, MOVE_B, 1)
EXTREME(·minI16NEON, H8, SMIN_H, SMINV_H, MOVE_H, 2)
EXTREME(·maxI16NEON, H8, SMAX_H, SMAXV_H, MOVE_H, 2)
EXTREME(·minU16NEON, H8, UMIN_H, UMINV_H, MOVE_H, 2)
EXTREME(·maxU16NEON, H8, UMAX_H, UMAXV_H, MOVE_H, 2)
EXTREME(·minI32NEON, S4, SMIN_S, SMINV_S, MOVE_S, 4)
EXTREME(·maxI32NEON, S4, SMAX_S, SMAXV_S, MOVE_S, 4)
EXTREME(·minU32NEON, S4, UMIN_S, UMINV_S, MOVE_S, 4)
EXTREME(·maxU32NEON, S4, UMAX_S, UMAXV_S, MOVE_S, 4)
// Floats: NEON's FMIN and FMAX give NaN when either operand is, so a NaN
// reaches the result with no lane of its own to track.
EXTREME(·minF32NEON, S4, FMIN4S, FMINV4S, MOVE_S, 4)
EXTREME(·maxF32NEON, S4, FMAX4S, FMAXV4S, MOVE_S, 4)
EXTREME(·minF64NEON, D2, FMIN2D, FMINP2D, MOVE_D, 8)
EXTREME(·maxF64NEON, D2, FMAX2D, FMAXP2D, MOVE_D, 8)
