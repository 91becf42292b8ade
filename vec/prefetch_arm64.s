//go:build !purego

#include "textflag.h"

// func prefetch(p unsafe.Pointer, n uintptr): PRFM PLDL1KEEP (for a load, into the first level of the
// caches) of each 64-byte line that holds one of the n > 0 bytes at p.
TEXT ·prefetch(SB), NOSPLIT, $0-16
	MOVD p+0(FP), R0
	MOVD n+8(FP), R1
	ADD  R0, R1, R1
	AND  $~63, R0, R0
loop:
	PRFM (R0), PLDL1KEEP
	ADD  $64, R0
	CMP  R1, R0
	BLO  loop
	RET
