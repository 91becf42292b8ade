// The selection kernels' macros and constants, which select_avx512_amd64.s and select_avx2_amd64.s share
// (each of them has its own copy of the constants).
//
// Selection kernels: the first element past a threshold, and the first
// extreme of a slice, in AVX-512 (F, BW, DQ, VL) and AVX2. Each works on
// whole vectors only (n a multiple of a vector's elements, below 2^31) and
// leaves the rest to the Go side. A compare's predicate reads "t PRED x"
// (or "best PRED x"): LT_OQ (0x11) finds x > t, LE_OQ (0x12) x >= t, GT_OQ
// (0x1e) x < t, GE_OQ (0x1d) x <= t; every ordered predicate is false for a
// NaN, which is thereby never found. Every function ends with VZEROUPPER.

// The lane numbers 0, 1, 2… as int32 and as int64.
DATA iota32<>+0(SB)/8, $0x0000000100000000
DATA iota32<>+8(SB)/8, $0x0000000300000002
DATA iota32<>+16(SB)/8, $0x0000000500000004
DATA iota32<>+24(SB)/8, $0x0000000700000006
DATA iota32<>+32(SB)/8, $0x0000000900000008
DATA iota32<>+40(SB)/8, $0x0000000b0000000a
DATA iota32<>+48(SB)/8, $0x0000000d0000000c
DATA iota32<>+56(SB)/8, $0x0000000f0000000e
GLOBL iota32<>(SB), RODATA|NOPTR, $64
DATA iota64<>+0(SB)/8, $0
DATA iota64<>+8(SB)/8, $1
DATA iota64<>+16(SB)/8, $2
DATA iota64<>+24(SB)/8, $3
DATA iota64<>+32(SB)/8, $4
DATA iota64<>+40(SB)/8, $5
DATA iota64<>+48(SB)/8, $6
DATA iota64<>+56(SB)/8, $7
GLOBL iota64<>(SB), RODATA|NOPTR, $64

// ---- the first element past a threshold: func(p *T, n int, t T) int,
// the index of the first x[i] with t PRED x[i], or n. Four vectors a step
// (V1, V2, V3 bytes after the first), their masks M0-M3 tested at once by
// ANY4; the vector that has a hit is found after, MSK taking its mask to a
// general register. LOG is log2 of the element's size.

#define SCAN(NAME, PRED, BCAST, T, CMP, M0, M1, M2, M3, ANY4, MSK, V1, V2, V3, LOG) \
TEXT NAME(SB), NOSPLIT, $0-32; \
	MOVQ p+0(FP), SI; \
	MOVQ n+8(FP), CX; \
	BCAST t+16(FP), T; \
	SHLQ $LOG, CX; \
	XORQ BX, BX; \
loop4:; \
	LEAQ (V1+V3)(BX), DX; \
	CMPQ DX, CX; \
	JA   loop1; \
	CMP  $PRED, (SI)(BX*1), T, M0; \
	CMP  $PRED, V1(SI)(BX*1), T, M1; \
	CMP  $PRED, V2(SI)(BX*1), T, M2; \
	CMP  $PRED, V3(SI)(BX*1), T, M3; \
	ANY4; \
	JNZ  found4; \
	MOVQ DX, BX; \
	JMP  loop4; \
found4:; \
	MSK  M0, AX; \
	TESTL AX, AX; \
	JNZ  hit; \
	ADDQ $V1, BX; \
	MSK  M1, AX; \
	TESTL AX, AX; \
	JNZ  hit; \
	ADDQ $V1, BX; \
	MSK  M2, AX; \
	TESTL AX, AX; \
	JNZ  hit; \
	ADDQ $V1, BX; \
	MSK  M3, AX; \
	JMP  hit; \
loop1:; \
	CMPQ BX, CX; \
	JAE  none; \
	CMP  $PRED, (SI)(BX*1), T, M0; \
	MSK  M0, AX; \
	TESTL AX, AX; \
	JNZ  hit; \
	ADDQ $V1, BX; \
	JMP  loop1; \
hit:; \
	BSFL AX, AX; \
	SHRQ $LOG, BX; \
	ADDQ BX, AX; \
	MOVQ AX, ret+24(FP); \
	VZEROUPPER; \
	RET; \
none:; \
	SHRQ $LOG, CX; \
	MOVQ CX, ret+24(FP); \
	VZEROUPPER; \
	RET

// ---- the first extreme: func(p *T, n int) int, the index of the first
// element x with "best PRED x" false for every later element: PRED LT_OQ
// for the largest (best starts at -inf), GT_OQ for the smallest (at +inf).
// Each lane keeps the best value it saw and its index, the first of equal
// ones (a later equal value does not pass "best < x"); the lanes are then
// combined, a lane taking the other's pair where that is better or equal
// at a lower index. It returns -1 where no element passed the start value
// (every element NaN or that infinity): the Go side decides those.
