// Macros of the float reductions that reductions_avx512_amd64.s and arith_avx512_amd64.s share.

// Horizontal sum of the 8 doubles of Z0 into X0 (uses Z1).
#define HSUM_PD \
	VEXTRACTF64X4 $1, Z0, Y1; \
	VADDPD Y1, Y0, Y0; \
	VEXTRACTF128 $1, Y0, X1; \
	VADDPD X1, X0, X0; \
	VPERMILPD $1, X0, X1; \
	VADDSD X1, X0, X0

// Z0 += Z1 + Z2 + Z3, pairwise, for an add instruction ADD.
#define FOLD4(ADD) \
	ADD Z1, Z0, Z0; \
	ADD Z3, Z2, Z2; \
	ADD Z2, Z0, Z0

#define ZERO4 \
	VPXORQ Z0, Z0, Z0; \
	VPXORQ Z1, Z1, Z1; \
	VPXORQ Z2, Z2, Z2; \
	VPXORQ Z3, Z3, Z3

// A = A + B, rounded, and its rounding error (Knuth's TwoSum, exact whatever the magnitudes) taken from
// C, which holds what is to be subtracted; E, T and U are temporaries, ONE holds 1.0. Only the sum is on
// the chain of dependent additions: the error's five operations are not, and three of them run on the FMA
// units as x*1 + y (one rounding, as x + y), beside the adders: 90 GB/s in L2 where seven additions gave 63.
#define TWOSUM(A, B, E, T, U, C, ONE) \
	VADDPD B, A, T; \
	VSUBPD A, T, E; \
	VSUBPD E, T, U; \
	VFNMADD213PD A, ONE, U; \
	VFNMADD213PD B, ONE, E; \
	VFMADD213PD U, ONE, E; \
	VSUBPD E, C, C; \
	VMOVAPD T, A

// The compensated lanes of a float64 sum: TWOSUM_START zeroes the sums (Z0-Z3) and what their rounding
// errors take away (Z4-Z7), with 1.0 in Z31 (x*1 + y is x + y rounded once, on the FMA units);
// TWOSUM4 adds Z8-Z11 into them, TWOSUM1 adds Z8 into Z0; TWOSUM_END leaves the sum in X0 and its
// rounding error in X1 (uses Z1-Z10).
#define TWOSUM_START \
	MOVQ $0x3ff0000000000000, AX; \
	VPBROADCASTQ AX, Z31; \
	ZERO4; \
	VPXORQ Z4, Z4, Z4; \
	VPXORQ Z5, Z5, Z5; \
	VPXORQ Z6, Z6, Z6; \
	VPXORQ Z7, Z7, Z7

#define TWOSUM4 \
	TWOSUM(Z0, Z8, Z12, Z16, Z20, Z4, Z31); \
	TWOSUM(Z1, Z9, Z13, Z17, Z21, Z5, Z31); \
	TWOSUM(Z2, Z10, Z14, Z18, Z22, Z6, Z31); \
	TWOSUM(Z3, Z11, Z15, Z19, Z23, Z7, Z31)

#define TWOSUM1 TWOSUM(Z0, Z8, Z12, Z16, Z20, Z4, Z31)

// The compensations' total, then the lanes' sums added with their rounding errors (TwoSum) taken into
// it: the result is the lanes' sum less the compensations, rounded about once.
#define TWOSUM_END \
	VADDPD Z5, Z4, Z4; \
	VADDPD Z7, Z6, Z6; \
	VADDPD Z6, Z4, Z4; \
	TWOSUM(Z0, Z1, Z8, Z9, Z10, Z4, Z31); \
	TWOSUM(Z2, Z3, Z8, Z9, Z10, Z4, Z31); \
	TWOSUM(Z0, Z2, Z8, Z9, Z10, Z4, Z31); \
	VEXTRACTF64X4 $1, Z0, Y1; \
	VEXTRACTF64X4 $1, Z4, Y5; \
	VADDPD Y5, Y4, Y4; \
	TWOSUM(Y0, Y1, Y8, Y9, Y10, Y4, Y31); \
	VEXTRACTF128 $1, Y0, X1; \
	VEXTRACTF128 $1, Y4, X5; \
	VADDPD X5, X4, X4; \
	TWOSUM(X0, X1, X8, X9, X10, X4, X31); \
	VPERMILPD $1, X0, X1; \
	VPERMILPD $1, X4, X5; \
	VADDSD X5, X4, X4; \
	TWOSUM(X0, X1, X8, X9, X10, X4, X31); \
	VXORPD X1, X1, X1; \
	VSUBSD X4, X1, X1

// The mask of the first N lanes (N < 64, in a register) into the general register R and the mask
// register K.
#define LANES_MASK(N, R, K) \
	MOVL $1, R; \
	SHLXQ N, R, R; \
	DECQ R; \
	KMOVQ R, K

// AX = the bytes of the whole elements of 1<<LOG2SIZE bytes from PTR to its next 64-byte boundary, at
// most CX: the head that a kernel takes under a mask before its aligned vectors.
#define HEAD_BYTES(PTR, LOG2SIZE) \
	MOVQ PTR, AX; \
	NEGQ AX; \
	ANDQ $63, AX; \
	SHRQ $LOG2SIZE, AX; \
	SHLQ $LOG2SIZE, AX; \
	CMPQ AX, CX; \
	CMOVQGT CX, AX

// A kernel that takes the elements before its destination's first 64-byte boundary under a mask keeps
// their results in its frame, at head-64(SP), and stores them last, here: at PTR, under MASK (a
// general register, 0 where there is no head; through the vector register Z and K1). A load of the
// next elements, in place, would otherwise wait for that store, which spans their bytes and, masked,
// does not forward (Exp of 16 float32s in place, 16 bytes off a boundary: 32 ns with the head stored
// first, 21 with it stored last). It defines the label done.
#define STORE_HEAD(MASK, PTR, MOV, Z) \
	TESTQ MASK, MASK; \
	JZ   done; \
	KMOVQ MASK, K1; \
	MOV head-64(SP), Z; \
	MOV Z, K1, (PTR); \
done:
