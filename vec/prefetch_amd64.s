//go:build !purego

#include "textflag.h"

// func prefetch(p unsafe.Pointer, n uintptr): PREFETCHT0 (into every level of the caches) of each
// 64-byte line that holds one of the n > 0 bytes at p.
TEXT ·prefetch(SB), NOSPLIT, $0-16
	MOVQ p+0(FP), SI
	MOVQ n+8(FP), CX
	ADDQ SI, CX
	ANDQ $-64, SI
loop:
	PREFETCHT0 (SI)
	ADDQ $64, SI
	CMPQ SI, CX
	JB   loop
	RET
