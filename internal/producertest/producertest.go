package producer

/*
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
)

// cChain builds a chain of depth re-exports in C (each link an upstream
// owner of the previous link's export, exported again) and returns the last
// export, whose deleter frees the whole chain, or false when out of memory.
// Only the tests call it.
func cChain(depth int) (dlpack.Managed, bool) {
	m := C.chain(C.int(depth))
	return dlpack.Managed{Pointer: unsafe.Pointer(m), Versioned: true}, m != nil
}

// cChainRootDeletes counts the calls of the deleters at the roots of cChain's chains.
func cChainRootDeletes() int { return int(C.root_deletes()) }

// cLiveOwners is gdl_owner_live, for the tests of this package (which cannot import internal/ownertest).
func cLiveOwners() int64 { return int64(C.gdl_owner_live()) }
