package consumer

// The C half of this package: gdl_inspect (inspect.c), the hot path of
// Inspect for C callers (package capsule) that import a tensor without
// entering Go; and the allocator of CopyFrom's temporary buffer.

/*
#cgo CFLAGS: -I${SRCDIR}/../dlpack -O2 -Wall -Wextra -Wno-unused-parameter
#include <stdlib.h>

// gdl_scratch_alloc is malloc, which returns NULL when memory runs out where
// cgo's C.malloc aborts the process.
static void *gdl_scratch_alloc(size_t n) { return malloc(n); }
*/
import "C"

import "unsafe"

// scratch returns n bytes of C memory, which free must release, or nil when
// memory runs out: sizes a caller picks never come from the Go heap, whose
// exhaustion aborts the process.
func scratch(n int64) []byte {
	p := C.gdl_scratch_alloc(C.size_t(n))
	if p == nil {
		return nil
	}
	return unsafe.Slice((*byte)(p), n)
}

// free releases memory scratch returned.
func free(b []byte) { C.free(unsafe.Pointer(unsafe.SliceData(b))) }
