// The matrix products' macros, which products_avx512_amd64.s and products_avx2_amd64.s share.
//
// The matrix products' kernels for AVX-512 and AVX2 with FMA: micro-kernels
// of MR rows by 64 bytes of columns (16 float32 or 8 float64), and the
// transposes that pack rows of a (and Dots' rows of b) into AVX-512's
// panels. A tile's rows accumulate in registers; a step of k loads B's
// 64 bytes once and multiplies them by each row's element of A, broadcast
// (by AVX-512's fused multiply-add itself, from memory). Every element is
// one chain of fused multiply-adds in the order of k, as the other paths
// have it.

// func gemmF32AVX512(dst *float32, ldc int, a, b *float32, kc, panels, flags int)
// func gemmF64AVX512(dst *float64, ldc int, a, b *float64, kc, panels, flags int)
// func gemmF32AVX2(dst *float32, ldc int, a, b *float32, kc, panels, flags int)
// func gemmF64AVX2(dst *float64, ldc int, a, b *float64, kc, panels, flags int)
//
// Tiles of MR rows one under the other, for panels of A (kc steps of MR
// elements of E bytes) one after the other, times one panel of B (kc steps
// of 64 bytes): see microKernel. kc is at least 1. ZERO clears the
// accumulators, ROWS(OP) applies OP to each row's accumulators and memory
// (R8 the first row, BX the bytes from one row to the next; R8 ends past the
// tile), STEP(BOFF, AOFF) is one step of k from B's BOFF(DI) and A's
// AOFF(SI).
#define GEMM(NAME, MR, E, ZERO, ROWS, STEP) \
TEXT NAME(SB), NOSPLIT, $0-56; \
	MOVQ dst+0(FP), DX; \
	MOVQ ldc+8(FP), BX; \
	IMULQ $E, BX; \
	MOVQ a+16(FP), SI; \
	MOVQ panels+40(FP), R10; \
	MOVQ flags+48(FP), R11; \
panel:; \
	TESTQ $1, R11; \
	JNZ  load; \
	ZERO; \
	JMP  steps; \
load:; \
	MOVQ DX, R8; \
	ROWS(LOAD); \
steps:; \
	MOVQ b+24(FP), DI; \
	MOVQ kc+32(FP), CX; \
loop4:; \
	CMPQ CX, $4; \
	JB   loop1; \
	STEP(0, 0); \
	STEP(64, MR*E); \
	STEP(128, 2*MR*E); \
	STEP(192, 3*MR*E); \
	ADDQ $256, DI; \
	ADDQ $(4*MR*E), SI; \
	SUBQ $4, CX; \
	JMP  loop4; \
loop1:; \
	TESTQ CX, CX; \
	JZ   store; \
	STEP(0, 0); \
	ADDQ $64, DI; \
	ADDQ $(MR*E), SI; \
	DECQ CX; \
	JMP  loop1; \
store:; \
	MOVQ DX, R8; \
	TESTQ $2, R11; \
	JNZ  stream; \
	ROWS(STORE); \
	JMP  next; \
stream:; \
	ROWS(STREAM); \
next:; \
	MOVQ R8, DX; \
	DECQ R10; \
	JNZ  panel; \
	TESTQ $2, R11; \
	JZ   done; \
	SFENCE; \
done:; \
	VZEROUPPER; \
	RET

#define LOAD(R, M) VMOVUPS M, R
#define STORE(R, M) VMOVUPS R, M
#define STREAM(R, M) VMOVNTPS R, M
