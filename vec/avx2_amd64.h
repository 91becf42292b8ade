// Macros of the float reductions that reductions_avx2_amd64.s and arith_avx2_amd64.s share.

// Horizontal sum of the 4 doubles of Y0 into X0 (uses Y1).
#define HSUM_PD \
	VEXTRACTF128 $1, Y0, X1; \
	VADDPD X1, X0, X0; \
	VPERMILPD $1, X0, X1; \
	VADDSD X1, X0, X0

// Y0 += Y1 + Y2 + Y3, pairwise, for an add instruction ADD.
#define FOLD4(ADD) \
	ADD Y1, Y0, Y0; \
	ADD Y3, Y2, Y2; \
	ADD Y2, Y0, Y0

#define ZERO4 \
	VPXOR Y0, Y0, Y0; \
	VPXOR Y1, Y1, Y1; \
	VPXOR Y2, Y2, Y2; \
	VPXOR Y3, Y3, Y3

// TWOSUM as in avx512_amd64.h, three of its additions on the FMA units (ONE holds 1.0).
#define TWOSUM(A, B, E, T, U, C, ONE) \
	VADDPD B, A, T; \
	VSUBPD A, T, E; \
	VSUBPD E, T, U; \
	VFNMADD213PD A, ONE, U; \
	VFNMADD213PD B, ONE, E; \
	VFMADD213PD U, ONE, E; \
	VSUBPD E, C, C; \
	VMOVAPD T, A

// The compensated lanes of a float64 sum, as avx512_amd64.h's: sums in Y0-Y3, what their rounding errors
// take away in Y4-Y7, 1.0 in Y15; TWOSUM4 adds Y8-Y11 into them, TWOSUM1 Y8 into Y0; TWOSUM_END leaves
// the sum in X0 and its rounding error in X1 (uses Y1-Y10).
#define TWOSUM_START \
	MOVQ $0x3ff0000000000000, AX; \
	MOVQ AX, X15; \
	VPBROADCASTQ X15, Y15; \
	ZERO4; \
	VPXOR Y4, Y4, Y4; \
	VPXOR Y5, Y5, Y5; \
	VPXOR Y6, Y6, Y6; \
	VPXOR Y7, Y7, Y7

#define TWOSUM4 \
	TWOSUM(Y0, Y8, Y12, Y13, Y14, Y4, Y15); \
	TWOSUM(Y1, Y9, Y12, Y13, Y14, Y5, Y15); \
	TWOSUM(Y2, Y10, Y12, Y13, Y14, Y6, Y15); \
	TWOSUM(Y3, Y11, Y12, Y13, Y14, Y7, Y15)

#define TWOSUM1 TWOSUM(Y0, Y8, Y12, Y13, Y14, Y4, Y15)

#define TWOSUM_END \
	VADDPD Y5, Y4, Y4; \
	VADDPD Y7, Y6, Y6; \
	VADDPD Y6, Y4, Y4; \
	TWOSUM(Y0, Y1, Y8, Y9, Y10, Y4, Y15); \
	TWOSUM(Y2, Y3, Y8, Y9, Y10, Y4, Y15); \
	TWOSUM(Y0, Y2, Y8, Y9, Y10, Y4, Y15); \
	VEXTRACTF128 $1, Y0, X1; \
	VEXTRACTF128 $1, Y4, X5; \
	VADDPD X5, X4, X4; \
	TWOSUM(X0, X1, X8, X9, X10, X4, X15); \
	VPERMILPD $1, X0, X1; \
	VPERMILPD $1, X4, X5; \
	VADDSD X5, X4, X4; \
	TWOSUM(X0, X1, X8, X9, X10, X4, X15); \
	VXORPD X1, X1, X1; \
	VSUBSD X4, X1, X1
