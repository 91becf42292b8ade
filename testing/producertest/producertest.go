// Package producertest reaches package producer's C half from Go for the
// tests: chains of re-exports built in C, gdl_contiguous, and
// gdl_source_lay_out. Only tests import it.
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

// A source and room for its shape and strides, as a bound function's result has.
typedef struct {
	gdl_source src;
	int64_t dims[2 * GDL_MAX_NDIM];
} source_room;
*/
import "C"

import (
	"errors"
	"slices"
	"unsafe"

	"github.com/godlpack/godlpack/dlpack"
	"github.com/godlpack/godlpack/producer" // the C functions called here live in producer's C half too
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

// LaidOut is what C holds of a source that [GiveLaidOut] laid out.
type LaidOut struct {
	Data    unsafe.Pointer
	Shape   []int64
	Strides []int64
	DType   dlpack.DataType
	Device  dlpack.Device
	Flags   uint64
	NBytes  int64          // the dense size
	Need    dlpack.Version // the DLPack version the tensor needs
}

// GiveLaidOut hands l over as [producer.Lease.GiveContiguous] does to a
// result in C, lays the source out with gdl_source_lay_out, and returns
// what C then holds, or false when gdl_source_lay_out refused it. The
// source is released either way.
func GiveLaidOut(l producer.Lease, shape []int64, dt dlpack.DataType) (LaidOut, bool, error) {
	room := (*C.source_room)(C.calloc(1, C.size_t(unsafe.Sizeof(C.source_room{}))))
	defer C.free(unsafe.Pointer(room))
	room.src.view.shape = &room.dims[0]
	room.src.view.strides = &room.dims[dlpack.MaxNDim]
	// What GiveContiguous must overwrite is garbage beforehand, as in a call's reused result.
	room.src.view.flags, room.src.view.device.device_id, room.src.view.ndim = ^C.uint64_t(0), -1, -1
	if err := l.GiveContiguous(shape, dt, unsafe.Pointer(&room.src)); err != nil {
		return LaidOut{}, false, err
	}
	defer C.gdl_source_release(&room.src)
	if !C.gdl_source_is_unlaid(&room.src) {
		return LaidOut{}, false, errors.New("GiveContiguous left a laid-out source")
	}
	if !C.gdl_source_lay_out(&room.src) {
		return LaidOut{}, false, nil
	}
	v := &room.src.view
	nd := int(v.ndim)
	return LaidOut{
		Data:    v.data,
		Shape:   slices.Clone(unsafe.Slice((*int64)(unsafe.Pointer(v.shape)), nd)),
		Strides: slices.Clone(unsafe.Slice((*int64)(unsafe.Pointer(v.strides)), nd)),
		DType:   dlpack.DataType{Code: dlpack.Code(v.dtype.code), Bits: uint8(v.dtype.bits), Lanes: uint16(v.dtype.lanes)},
		Device:  dlpack.Device{Type: dlpack.DeviceType(v.device.device_type), ID: int32(v.device.device_id)},
		Flags:   uint64(v.flags),
		NBytes:  int64(room.src.nbytes),
		Need:    dlpack.Version{Major: uint32(room.src.need.major), Minor: uint32(room.src.need.minor)},
	}, true, nil
}
