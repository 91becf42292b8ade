// The NEON instructions and macros that reductions_neon_arm64.s and arith_neon_arm64.s share.
//
// Go's assembler names few float and widening NEON instructions before Go
// 1.27, and go.mod asks only for Go 1.24: those are encoded here as WORDs,
// each macro's operands the register numbers in the order of Go's vector
// instructions (m, n, d: Vd = Vn op Vm). The kernels' tests, cross-built
// and run under qemu-aarch64 (make arm64-test), check every one.

#define FADD4S(m, n, d) WORD $(0x4E20D400 | ((m)<<16) | ((n)<<5) | (d))
#define FADD2D(m, n, d) WORD $(0x4E60D400 | ((m)<<16) | ((n)<<5) | (d))
#define FSUB4S(m, n, d) WORD $(0x4EA0D400 | ((m)<<16) | ((n)<<5) | (d))
#define FSUB2D(m, n, d) WORD $(0x4EE0D400 | ((m)<<16) | ((n)<<5) | (d))
#define FMUL4S(m, n, d) WORD $(0x6E20DC00 | ((m)<<16) | ((n)<<5) | (d))
#define FMUL2D(m, n, d) WORD $(0x6E60DC00 | ((m)<<16) | ((n)<<5) | (d))
#define FDIV4S(m, n, d) WORD $(0x6E20FC00 | ((m)<<16) | ((n)<<5) | (d))
#define FDIV2D(m, n, d) WORD $(0x6E60FC00 | ((m)<<16) | ((n)<<5) | (d))
#define FMLA2D(m, n, d) WORD $(0x4E60CC00 | ((m)<<16) | ((n)<<5) | (d)) // Vd += Vn*Vm, fused
#define FMIN4S(m, n, d) WORD $(0x4EA0F400 | ((m)<<16) | ((n)<<5) | (d)) // NaN if either is
#define FMIN2D(m, n, d) WORD $(0x4EE0F400 | ((m)<<16) | ((n)<<5) | (d))
#define FMAX4S(m, n, d) WORD $(0x4E20F400 | ((m)<<16) | ((n)<<5) | (d))
#define FMAX2D(m, n, d) WORD $(0x4E60F400 | ((m)<<16) | ((n)<<5) | (d))
#define ORR16B(m, n, d) WORD $(0x4EA01C00 | ((m)<<16) | ((n)<<5) | (d))
#define ADD2D(m, n, d) WORD $(0x4EE08400 | ((m)<<16) | ((n)<<5) | (d))
#define SADDW(m, n, d) WORD $(0x0EA01000 | ((m)<<16) | ((n)<<5) | (d))  // Vd.2D = Vn.2D + Vm.2S sign-extended
#define SADDW2(m, n, d) WORD $(0x4EA01000 | ((m)<<16) | ((n)<<5) | (d)) // the same from Vm's upper two
#define UADDW(m, n, d) WORD $(0x2EA01000 | ((m)<<16) | ((n)<<5) | (d))  // zero-extended
#define UADDW2(m, n, d) WORD $(0x6EA01000 | ((m)<<16) | ((n)<<5) | (d))
#define MUL16B(m, n, d) WORD $(0x4E209C00 | ((m)<<16) | ((n)<<5) | (d))
#define MUL8H(m, n, d) WORD $(0x4E609C00 | ((m)<<16) | ((n)<<5) | (d))
#define MUL4S(m, n, d) WORD $(0x4EA09C00 | ((m)<<16) | ((n)<<5) | (d))
#define FCVTL(n, d) WORD $(0x0E617800 | ((n)<<5) | (d))                  // Vd.2D = Vn.2S widened
#define FCVTL2(n, d) WORD $(0x4E617800 | ((n)<<5) | (d))                 // from Vn's upper two
#define FADDP2D(n, d) WORD $(0x7E70D800 | ((n)<<5) | (d))                // Dd = Vn.D[0] + Vn.D[1]
#define ADDP2D(n, d) WORD $(0x5EF1B800 | ((n)<<5) | (d))
// Integer minima and maxima of SIZE (0 bytes, 1 halfwords, 2 words), and across a vector.
#define SMIN(size, m, n, d) WORD $(0x4E206C00 | ((size)<<22) | ((m)<<16) | ((n)<<5) | (d))
#define SMAX(size, m, n, d) WORD $(0x4E206400 | ((size)<<22) | ((m)<<16) | ((n)<<5) | (d))
#define UMIN(size, m, n, d) WORD $(0x6E206C00 | ((size)<<22) | ((m)<<16) | ((n)<<5) | (d))
#define UMAX(size, m, n, d) WORD $(0x6E206400 | ((size)<<22) | ((m)<<16) | ((n)<<5) | (d))
#define SMINV(size, n, d) WORD $(0x4E31A800 | ((size)<<22) | ((n)<<5) | (d))
#define SMAXV(size, n, d) WORD $(0x4E30A800 | ((size)<<22) | ((n)<<5) | (d))
#define UMINV(size, n, d) WORD $(0x6E31A800 | ((size)<<22) | ((n)<<5) | (d))
#define UMAXV(size, n, d) WORD $(0x6E30A800 | ((size)<<22) | ((n)<<5) | (d))
#define FMINV4S(n, d) WORD $(0x6EB0F800 | ((n)<<5) | (d))
#define FMAXV4S(n, d) WORD $(0x6E30F800 | ((n)<<5) | (d))
#define FMINP2D(n, d) WORD $(0x7EF0F800 | ((n)<<5) | (d))
#define FMAXP2D(n, d) WORD $(0x7E70F800 | ((n)<<5) | (d))

// Zeroes V16-V19: four accumulators, or a compensated sum's two and what their rounding errors take away.
#define ZERO4 \
	VEOR V16.B16, V16.B16, V16.B16; \
	VEOR V17.B16, V17.B16, V17.B16; \
	VEOR V18.B16, V18.B16, V18.B16; \
	VEOR V19.B16, V19.B16, V19.B16

// A = A + B and its exact rounding error taken from C (TwoSum, as in avx512_amd64.h); E, T, U temporaries.
#define TWOSUM(A, B, E, T, U, C) \
	FADD2D(B, A, T); \
	FSUB2D(A, T, E); \
	FSUB2D(E, T, U); \
	FSUB2D(U, A, U); \
	FSUB2D(E, B, E); \
	FADD2D(U, E, E); \
	FSUB2D(E, C, C); \
	ORR16B(T, T, A)

// The compensated lanes of a float64 sum: sums in V16 and V17, what their rounding errors take away in
// V18 and V19 (ZERO4 starts them). TWOSUM2 adds V0 and V1 into them, TWOSUM1 V0 into V16; TWOSUM_END
// leaves the sum in F16 and its rounding error in F18 (uses V20-V26).
#define TWOSUM2 \
	TWOSUM(16, 0, 24, 25, 26, 18); \
	TWOSUM(17, 1, 27, 28, 29, 19)

#define TWOSUM1 TWOSUM(16, 0, 24, 25, 26, 18)

#define TWOSUM_END \
	FADD2D(19, 18, 18); \
	TWOSUM(16, 17, 24, 25, 26, 18); \
	VEXT $8, V16.B16, V16.B16, V20.B16; \
	VEXT $8, V18.B16, V18.B16, V21.B16; \
	FADD2D(21, 18, 18); \
	TWOSUM(16, 20, 24, 25, 26, 18); \
	FNEGD F18, F18
