//go:build !purego

#include "textflag.h"
#include "neon_arm64.h"

// The element-wise arithmetic's NEON kernels (arith.go), as arith_amd64.h's
// with two 16-byte vectors a step; SqDistConst's; and Scale's and Axpy's.

// func NAME(dst, x, y, z *T, n int, a, b T): dst = OP of x, y, z, a and b, n
// elements of ESIZE bytes (a multiple of 32 bytes). BCAST broadcasts a into
// V30 and b into V31; OP(I1, I2) makes dst's vectors in V0 and V1 from x's
// there with I1 and I2 (NEON instructions of neon_arm64.h: I1(m, n, d) is
// Vd = Vn op Vm), loading the vectors of y and z (into V2-V5) that it reads.
// Each step loads what it reads before it stores: dst may be x, y or z.
#define MAP(NAME, ARGS, BCAST, OP, I1, I2, ESIZE) \
TEXT NAME(SB), NOSPLIT, ARGS; \
	MOVD dst+0(FP), R0; \
	MOVD x+8(FP), R1; \
	MOVD y+16(FP), R2; \
	MOVD z+24(FP), R3; \
	MOVD n+32(FP), R4; \
	MOVD $ESIZE, R5; \
	MUL  R5, R4; \
	BCAST; \
loop:; \
	CBZ  R4, done; \
	VLD1.P 32(R1), [V0.B16, V1.B16]; \
	OP(I1, I2); \
	VST1.P [V0.B16, V1.B16], 32(R0); \
	SUB  $32, R4; \
	B    loop; \
done:; \
	RET

#define BCAST_AB_S MOVD $a+40(FP), R6; VLD1R (R6), [V30.S4]; MOVD $b+44(FP), R6; VLD1R (R6), [V31.S4]
#define BCAST_AB_D MOVD $a+40(FP), R6; VLD1R (R6), [V30.D2]; MOVD $b+48(FP), R6; VLD1R (R6), [V31.D2]
#define MAP_S(NAME, OP, I1, I2) MAP(NAME, $0-48, BCAST_AB_S, OP, I1, I2, 4)
#define MAP_D(NAME, OP, I1, I2) MAP(NAME, $0-56, BCAST_AB_D, OP, I1, I2, 8)

// The operations: x I1 y; x I1 a; (x I1 a) I2 b; (x I1 y) I2 z, the first
// operand of each x or what x became.
#define LOAD_Y VLD1.P 32(R2), [V2.B16, V3.B16]
#define LOAD_Z VLD1.P 32(R3), [V4.B16, V5.B16]
#define WITH_Y(I1, I2) LOAD_Y; I1(2, 0, 0); I1(3, 1, 1)
#define WITH_A(I1, I2) I1(30, 0, 0); I1(30, 1, 1)
#define WITH_AB(I1, I2) I1(30, 0, 0); I1(30, 1, 1); I2(31, 0, 0); I2(31, 1, 1)
#define WITH_YZ(I1, I2) LOAD_Y; LOAD_Z; I1(2, 0, 0); I1(3, 1, 1); I2(4, 0, 0); I2(5, 1, 1)

// func addF32NEON(dst, x, y, z *float32, n int, a, b float32), and so on
MAP_S(·addF32NEON, WITH_Y, FADD4S, _)
MAP_D(·addF64NEON, WITH_Y, FADD2D, _)
MAP_S(·subF32NEON, WITH_Y, FSUB4S, _)
MAP_D(·subF64NEON, WITH_Y, FSUB2D, _)
MAP_S(·mulF32NEON, WITH_Y, FMUL4S, _)
MAP_D(·mulF64NEON, WITH_Y, FMUL2D, _)
MAP_S(·divF32NEON, WITH_Y, FDIV4S, _)
MAP_D(·divF64NEON, WITH_Y, FDIV2D, _)
MAP_S(·addConstF32NEON, WITH_A, FADD4S, _)
MAP_D(·addConstF64NEON, WITH_A, FADD2D, _)
MAP_S(·mulConstF32NEON, WITH_A, FMUL4S, _)
MAP_D(·mulConstF64NEON, WITH_A, FMUL2D, _)
MAP_S(·divConstF32NEON, WITH_A, FDIV4S, _)
MAP_D(·divConstF64NEON, WITH_A, FDIV2D, _)
MAP_S(·mulAddConstF32NEON, WITH_AB, FMUL4S, FADD4S)
MAP_D(·mulAddConstF64NEON, WITH_AB, FMUL2D, FADD2D)
MAP_S(·addMulConstF32NEON, WITH_AB, FADD4S, FMUL4S)
MAP_D(·addMulConstF64NEON, WITH_AB, FADD2D, FMUL2D)
MAP_S(·mulAddF32NEON, WITH_YZ, FMUL4S, FADD4S)
MAP_D(·mulAddF64NEON, WITH_YZ, FMUL2D, FADD2D)

// ---- SqDistConst: the sum of (x - c)², c in V30

// x's float32 widened into V2-V5 less c, squared into the accumulators V16-V19.
#define SQUARES_S \
	FCVTL(0, 2); \
	FCVTL2(0, 3); \
	FCVTL(1, 4); \
	FCVTL2(1, 5); \
	FSUB2D(30, 2, 2); \
	FSUB2D(30, 3, 3); \
	FSUB2D(30, 4, 4); \
	FSUB2D(30, 5, 5); \
	FMLA2D(2, 2, 16); \
	FMLA2D(3, 3, 17); \
	FMLA2D(4, 4, 18); \
	FMLA2D(5, 5, 19)

// func sqDistConstF32NEON(p *float32, n int, c float64) (hi, lo float64)
TEXT ·sqDistConstF32NEON(SB), NOSPLIT, $0-40
	MOVD p+0(FP), R0
	MOVD n+8(FP), R1
	MOVD $c+16(FP), R2
	VLD1R (R2), [V30.D2]
	ZERO4
loop2:
	CMP  $8, R1
	BLT  loop1
	VLD1.P 32(R0), [V0.S4, V1.S4]
	SQUARES_S
	SUB  $8, R1
	B    loop2
loop1:
	CBZ  R1, done
	VLD1.P 16(R0), [V0.S4]
	FCVTL(0, 2)
	FCVTL2(0, 3)
	FSUB2D(30, 2, 2)
	FSUB2D(30, 3, 3)
	FMLA2D(2, 2, 16)
	FMLA2D(3, 3, 17)
	SUB  $4, R1
	B    loop1
done:
	FADD2D(17, 16, 16)
	FADD2D(19, 18, 18)
	FADD2D(18, 16, 16)
	FADDP2D(16, 0)
	FMOVD F0, hi+24(FP)
	MOVD ZR, lo+32(FP)
	RET

// The squares of float64 differences, rounded, in compensated lanes as sumF64NEON's.
#define SQUARE(v) FSUB2D(30, v, v); FMUL2D(v, v, v)

// func sqDistConstF64NEON(p *float64, n int, c float64) (hi, lo float64)
TEXT ·sqDistConstF64NEON(SB), NOSPLIT, $0-40
	MOVD p+0(FP), R0
	MOVD n+8(FP), R1
	MOVD $c+16(FP), R2
	VLD1R (R2), [V30.D2]
	ZERO4
loop2:
	CMP  $4, R1
	BLT  loop1
	VLD1.P 32(R0), [V0.D2, V1.D2]
	SQUARE(0)
	SQUARE(1)
	TWOSUM2
	SUB  $4, R1
	B    loop2
loop1:
	CBZ  R1, done
	VLD1.P 16(R0), [V0.D2]
	SQUARE(0)
	TWOSUM1
	SUB  $2, R1
	B    loop1
done:
	TWOSUM_END
	FMOVD F16, hi+24(FP)
	FMOVD F18, lo+32(FP)
	RET

// ---- in place: scale and axpy, 32 bytes a time (n elements of ESIZE bytes, a multiple of 32 bytes)

#define MAP_INPLACE(NAME, ARGS, PREP, OP, ESIZE) \
TEXT NAME(SB), NOSPLIT, ARGS; \
	MOVD p+0(FP), R0; \
	MOVD n+8(FP), R1; \
	MOVD $ESIZE, R3; \
	MUL  R3, R1; \
	PREP; \
loop:; \
	CBZ  R1, done; \
	VLD1 (R0), [V0.B16, V1.B16]; \
	OP(0); \
	OP(1); \
	VST1.P [V0.B16, V1.B16], 32(R0); \
	SUB  $32, R1; \
	B    loop; \
done:; \
	RET

#define BCAST_F32 MOVD $a+16(FP), R2; VLD1R (R2), [V31.S4]
#define BCAST_F64 MOVD $a+16(FP), R2; VLD1R (R2), [V31.D2]
#define BCAST_B MOVD a+16(FP), R2; VDUP R2, V31.B16
#define BCAST_H MOVD a+16(FP), R2; VDUP R2, V31.H8
#define BCAST_S MOVD a+16(FP), R2; VDUP R2, V31.S4
#define MUL_F32(v) FMUL4S(31, v, v)
#define MUL_F64(v) FMUL2D(31, v, v)
#define MUL_B(v) MUL16B(31, v, v)
#define MUL_H(v) MUL8H(31, v, v)
#define MUL_S(v) MUL4S(31, v, v)

// func scaleF32NEON(p *float32, n int, a float32)
MAP_INPLACE(·scaleF32NEON, $0-20, BCAST_F32, MUL_F32, 4)
// func scaleF64NEON(p *float64, n int, a float64)
MAP_INPLACE(·scaleF64NEON, $0-24, BCAST_F64, MUL_F64, 8)
// func scaleI8NEON(p unsafe.Pointer, n int, a uint64)
MAP_INPLACE(·scaleI8NEON, $0-24, BCAST_B, MUL_B, 1)
// func scaleI16NEON(p unsafe.Pointer, n int, a uint64)
MAP_INPLACE(·scaleI16NEON, $0-24, BCAST_H, MUL_H, 2)
// func scaleI32NEON(p unsafe.Pointer, n int, a uint64)
MAP_INPLACE(·scaleI32NEON, $0-24, BCAST_S, MUL_S, 4)

// y += a*x, the product rounded before the sum.
#define AXPY(NAME, ARGS, ARRANGEMENT, FMULT, FSUM, ESIZE) \
TEXT NAME(SB), NOSPLIT, ARGS; \
	MOVD y+0(FP), R0; \
	MOVD x+8(FP), R1; \
	MOVD n+16(FP), R2; \
	MOVD $ESIZE, R3; \
	MUL  R3, R2; \
	MOVD $a+24(FP), R4; \
	VLD1R (R4), [V31.ARRANGEMENT]; \
loop:; \
	CBZ  R2, done; \
	VLD1.P 32(R1), [V2.B16, V3.B16]; \
	VLD1 (R0), [V0.B16, V1.B16]; \
	FMULT(31, 2, 2); \
	FMULT(31, 3, 3); \
	FSUM(2, 0, 0); \
	FSUM(3, 1, 1); \
	VST1.P [V0.B16, V1.B16], 32(R0); \
	SUB  $32, R2; \
	B    loop; \
done:; \
	RET

// func axpyF32NEON(y, x *float32, n int, a float32)
AXPY(·axpyF32NEON, $0-28, S4, FMUL4S, FADD4S, 4)
// func axpyF64NEON(y, x *float64, n int, a float64)
AXPY(·axpyF64NEON, $0-32, D2, FMUL2D, FADD2D, 8)
