// Package producertest reaches package producer's C half from Go for the
// tests: chains of re-exports built in C, and gdl_contiguous. Only tests
// import it.
package producertest

/*
#cgo CFLAGS: -I${SRCDIR}/../../dlpack -I${SRCDIR}/../../producer -Wall -Wextra -Wno-unused-parameter
#include <stdlib.h>
#include "producer.h"

// The root of a test chain: a managed tensor whose deleter counts its calls.
static int root_deleted;

static void root_delete(DLManagedTensorVersioned *self) {
	__atomic_add_fetch(&root_deleted, 1, __ATOMIC_SEQ_CST);
	free(self);
}

// chain builds depth re-exports over a root tensor, as round trips through
// consumers do: each link is an upstream owner of the previous link's
// managed tensor, exported again by gdl_pack. It returns the last export,
// the only holder of the chain, or NULL when out of memory.
static DLManagedTensorVersioned *chain(int depth) {
	DLManagedTensorVersioned *m = calloc(1, sizeof *m);
	if (m == NULL)
		return NULL;
	m->version.major = 1;
	m->deleter = root_delete;
	static int64_t shape[1] = {1}, strides[1] = {1};
	static float data[1];
	gdl_view v = {data, shape, strides, 0, {kDLCPU, 0}, {kDLFloat, 32, 1}, 1};
	for (int i = 0; i < depth; i++) {
		gdl_owner *o = gdl_owner_upstream(m, true);
		if (o == NULL) {
			gdl_managed_delete(m, true);
			return NULL;
		}
		m = gdl_pack(o, &v, true, 3);
		gdl_owner_drop(o); // the export holds it now
		if (m == NULL)
			return NULL;
	}
	return m;
}

static int root_deletes(void) { return __atomic_load_n(&root_deleted, __ATOMIC_SEQ_CST); }
*/
import "C"

import (
	"unsafe"

	"github.com/godlpack/godlpack/dlpack"
	_ "github.com/godlpack/godlpack/producer" // the C functions called here live in producer's C half
)

// Chain builds a chain of depth re-exports in C (each link an upstream
// owner of the previous link's export, exported again) and returns the last
// export, whose deleter frees the whole chain, or false when out of memory.
func Chain(depth int) (dlpack.Managed, bool) {
	m := C.chain(C.int(depth))
	return dlpack.Managed{Pointer: unsafe.Pointer(m), Versioned: true}, m != nil
}

// ChainRootDeletes counts the calls of the deleters at the roots of the
// chains [Chain] built, in the whole process.
func ChainRootDeletes() int { return int(C.root_deletes()) }

// Contiguous runs gdl_contiguous, which C code uses to lay out new tensors
// without calling Go: the C-contiguous strides of shape, its element count
// and its size in bytes, or false when the shape, the data type or the size
// is refused.
func Contiguous(shape []int64, dt dlpack.DataType, padded bool) (strides []int64, elements, nbytes int64, ok bool) {
	var cshape, cstrides [dlpack.MaxNDim + 1]C.int64_t
	for i, d := range shape {
		if i < len(cshape) {
			cshape[i] = C.int64_t(d)
		}
	}
	var n, b C.int64_t
	cdt := C.DLDataType{code: C.uint8_t(dt.Code), bits: C.uint8_t(dt.Bits), lanes: C.uint16_t(dt.Lanes)}
	if !C.gdl_contiguous(C.int32_t(len(shape)), &cshape[0], cdt, C.bool(padded), &cstrides[0], &n, &b) {
		return nil, 0, 0, false
	}
	strides = make([]int64, len(shape))
	copy(strides, unsafe.Slice((*int64)(unsafe.Pointer(&cstrides[0])), len(shape)))
	return strides, int64(n), int64(b), true
}
