// The element-wise arithmetic's kernels and SqDistConst's, which arith_avx512_amd64.s and arith_avx2_amd64.s
// make of their vectors: the including file defines VBYTES (a vector's bytes) and the vector registers REG0-REG11,
// REGA and REGB (REGA the first temporary of its TWOSUM, REGB one that ZERO4, FOLD4 and HSUM_PD leave alone),
// FRAME (MAP's frame bytes), HEAD and TAIL (MAP's edges), and includes its header of reduction macros (those,
// and TWOSUM_START, TWOSUM4, TWOSUM1 and TWOSUM_END).

// func NAME(dst, x, y, z *T, n int, a, b T): dst = OP of x, y, z, a and b, n elements of 1<<LOG2SIZE
// bytes, four vectors a step, then one; the including file's HEAD and TAIL take the elements before
// dst's first vector boundary and after its last whole vector (under a mask), or nothing where the
// Go side does (whole vectors only). OP(R, Y, Z, I1, I2) makes dst's vector in R from x's there, with
// instructions I1 and I2 and the vectors of y and z, Y and Z (in memory at BX, the step's bytes into
// them, or in registers). Each step loads what it reads before it stores: dst may be x, y or z.
#define MAP(NAME, ARGS, BCAST, OP, I1, I2, LOG2SIZE, MOVZ, MOV) \
TEXT NAME(SB), NOSPLIT, ARGS; \
	MOVQ dst+0(FP), DI; \
	MOVQ x+8(FP), SI; \
	MOVQ y+16(FP), DX; \
	MOVQ z+24(FP), R8; \
	MOVQ n+32(FP), CX; \
	SHLQ $LOG2SIZE, CX; \
	BCAST; \
	XORQ BX, BX; \
	HEAD(OP, I1, I2, LOG2SIZE, MOVZ); \
loop4:; \
	LEAQ (4*VBYTES)(BX), AX; \
	CMPQ AX, CX; \
	JA   loop1; \
	VMOVUPS (SI)(BX*1), REG0; \
	VMOVUPS VBYTES(SI)(BX*1), REG1; \
	VMOVUPS (2*VBYTES)(SI)(BX*1), REG2; \
	VMOVUPS (3*VBYTES)(SI)(BX*1), REG3; \
	OP(REG0, (DX)(BX*1), (R8)(BX*1), I1, I2); \
	OP(REG1, VBYTES(DX)(BX*1), VBYTES(R8)(BX*1), I1, I2); \
	OP(REG2, (2*VBYTES)(DX)(BX*1), (2*VBYTES)(R8)(BX*1), I1, I2); \
	OP(REG3, (3*VBYTES)(DX)(BX*1), (3*VBYTES)(R8)(BX*1), I1, I2); \
	VMOVUPS REG0, (DI)(BX*1); \
	VMOVUPS REG1, VBYTES(DI)(BX*1); \
	VMOVUPS REG2, (2*VBYTES)(DI)(BX*1); \
	VMOVUPS REG3, (3*VBYTES)(DI)(BX*1); \
	MOVQ AX, BX; \
	JMP  loop4; \
loop1:; \
	LEAQ VBYTES(BX), AX; \
	CMPQ AX, CX; \
	JA   tail; \
	VMOVUPS (SI)(BX*1), REG0; \
	OP(REG0, (DX)(BX*1), (R8)(BX*1), I1, I2); \
	VMOVUPS REG0, (DI)(BX*1); \
	MOVQ AX, BX; \
	JMP  loop1; \
tail:; \
	TAIL(OP, I1, I2, LOG2SIZE, MOVZ, MOV); \
	VZEROUPPER; \
	RET

#define BCAST_PS VBROADCASTSS a+40(FP), REGA; VBROADCASTSS b+44(FP), REGB
#define BCAST_PD VBROADCASTSD a+40(FP), REGA; VBROADCASTSD b+48(FP), REGB
#define MAP_PS(NAME, OP, I1, I2) MAP(NAME, $FRAME-48, BCAST_PS, OP, I1, I2, 2, VMOVUPS.Z, VMOVUPS)
#define MAP_PD(NAME, OP, I1, I2) MAP(NAME, $FRAME-56, BCAST_PD, OP, I1, I2, 3, VMOVUPD.Z, VMOVUPD)

// The operations: x I1 y; x I1 a; (x I1 a) I2 b; (x I1 y) I2 z, the first operand of each x or what x
// became.
#define WITH_Y(R, Y, Z, I1, I2) I1 Y, R, R
#define WITH_A(R, Y, Z, I1, I2) I1 REGA, R, R
#define WITH_AB(R, Y, Z, I1, I2) I1 REGA, R, R; I2 REGB, R, R
#define WITH_YZ(R, Y, Z, I1, I2) I1 Y, R, R; I2 Z, R, R

// func NAME(p *float32, n int, c float64) (hi, lo float64): the sum of (x - c)² of n float32 (whole vectors
// of VBYTES/8), widened to float64 lanes: four accumulators (REG0-REG3), then one; c in REGB. lo is 0.
#define SQDIST_CONST_F32(NAME) \
TEXT NAME(SB), NOSPLIT, $0-40; \
	MOVQ p+0(FP), SI; \
	MOVQ n+8(FP), CX; \
	VBROADCASTSD c+16(FP), REGB; \
	ZERO4; \
loop4:; \
	CMPQ CX, $(VBYTES/2); \
	JB   loop1; \
	VCVTPS2PD (SI), REG4; \
	VCVTPS2PD (VBYTES/2)(SI), REG5; \
	VCVTPS2PD VBYTES(SI), REG6; \
	VCVTPS2PD (3*VBYTES/2)(SI), REG7; \
	VSUBPD REGB, REG4, REG4; \
	VSUBPD REGB, REG5, REG5; \
	VSUBPD REGB, REG6, REG6; \
	VSUBPD REGB, REG7, REG7; \
	VFMADD231PD REG4, REG4, REG0; \
	VFMADD231PD REG5, REG5, REG1; \
	VFMADD231PD REG6, REG6, REG2; \
	VFMADD231PD REG7, REG7, REG3; \
	ADDQ $(2*VBYTES), SI; \
	SUBQ $(VBYTES/2), CX; \
	JMP  loop4; \
loop1:; \
	CMPQ CX, $(VBYTES/8); \
	JB   done; \
	VCVTPS2PD (SI), REG4; \
	VSUBPD REGB, REG4, REG4; \
	VFMADD231PD REG4, REG4, REG0; \
	ADDQ $(VBYTES/2), SI; \
	SUBQ $(VBYTES/8), CX; \
	JMP  loop1; \
done:; \
	FOLD4(VADDPD); \
	HSUM_PD; \
	MOVSD X0, hi+24(FP); \
	MOVQ $0, lo+32(FP); \
	VZEROUPPER; \
	RET

// func NAME(p *float64, n int, c float64) (hi, lo float64): the sum of (x - c)² of n float64 (whole vectors
// of VBYTES/8), each square rounded and added in the compensated lanes of the ISA's TWOSUM macros (as its
// sumF64's), four vectors a step, then one. TWOSUM takes REGA as a temporary: c is broadcast into it again
// each step.
#define SQDIST_CONST_F64(NAME) \
TEXT NAME(SB), NOSPLIT, $0-40; \
	MOVQ p+0(FP), SI; \
	MOVQ n+8(FP), CX; \
	TWOSUM_START; \
loop4:; \
	CMPQ CX, $(VBYTES/2); \
	JB   loop1; \
	VBROADCASTSD c+16(FP), REGA; \
	VMOVUPD (SI), REG8; \
	VMOVUPD VBYTES(SI), REG9; \
	VMOVUPD (2*VBYTES)(SI), REG10; \
	VMOVUPD (3*VBYTES)(SI), REG11; \
	SQUARE(REG8); \
	SQUARE(REG9); \
	SQUARE(REG10); \
	SQUARE(REG11); \
	TWOSUM4; \
	ADDQ $(4*VBYTES), SI; \
	SUBQ $(VBYTES/2), CX; \
	JMP  loop4; \
loop1:; \
	CMPQ CX, $(VBYTES/8); \
	JB   done; \
	VBROADCASTSD c+16(FP), REGA; \
	VMOVUPD (SI), REG8; \
	SQUARE(REG8); \
	TWOSUM1; \
	ADDQ $VBYTES, SI; \
	SUBQ $(VBYTES/8), CX; \
	JMP  loop1; \
done:; \
	TWOSUM_END; \
	MOVSD X0, hi+24(FP); \
	MOVSD X1, lo+32(FP); \
	VZEROUPPER; \
	RET

#define SQUARE(R) VSUBPD REGA, R, R; VMULPD R, R, R
