// Package pytensor is the tensor object of godlpack's Python types: the
// Tensor, DType and Device types behind godlpack.Tensor and every result of
// a function bound with package [github.com/godlpack/godlpack/pymodule], one
// implementation compiled into every extension library, with its types named
// after the module that readies them (rowstats.Tensor in an extension
// rowstats):
//
//   - [AddTensorTypes] gives an extension module the types, and
//     [ReadyTensorTypes] makes them without adding them;
//   - [NewTensor] makes a Tensor of Go or C memory (package [producer]) that
//     every consumer accepts: shape, dtype, device, the buffer protocol,
//     tolist, pickling, __dlpack__ with max_version, stream, dl_device and
//     copy, __dlpack_device__, and the C exchange API on its type (package
//     [github.com/godlpack/godlpack/capsule]'s exporter).
//
// The C half (tensor.h) makes and reads Tensors for the C of other packages
// (gdl_tensor_from_source, the one constructor); the object's struct is
// private to this package's C (tensor_object.h). Every function must be
// called with the GIL held.
package pytensor

/*
#cgo CFLAGS: -I${SRCDIR}/../capsule -I${SRCDIR}/../cpython -I${SRCDIR}/../dlpack -I${SRCDIR}/../producer -I${SRCDIR}/../consumer -O2 -Wall -Wextra -Wno-unused-parameter
#include <stdlib.h>
#include "tensor.h"
*/
import "C"

import (
	"unsafe"

	// The Tensor type's C is an exporter of package capsule's (gdl_register_exporter, gdl_method_dlpack): the
	// import links capsule's C into every library that has a Tensor.
	_ "github.com/godlpack/godlpack/capsule"
	"github.com/godlpack/godlpack/cpython"
	"github.com/godlpack/godlpack/dlpack"
	"github.com/godlpack/godlpack/producer"
)

// NewTensor returns a new Tensor (the type [AddTensorTypes] added to the
// extension's module) that exports the buffer with layout l to any
// consumer, zero-copy: shape, dtype, device, the buffer protocol, tolist,
// pickling, __dlpack__ (a versioned or legacy capsule as the consumer's
// max_version asks, a fresh copy for copy=True), __dlpack_device__, and the
// C exchange API on its type. It holds a reference of its own to the
// buffer's memory, dropped when the object is freed, so the caller may
// [producer.Buffer.Release] b. Its errors are [producer.Layout.Check]'s,
// [producer.ErrReleased], and errors wrapping [cpython.ErrPython] (a RuntimeError
// before [AddTensorTypes] was called).
func NewTensor(b *producer.Buffer, l producer.Layout) (cpython.Object, error) {
	if len(l.Shape) > dlpack.MaxNDim {
		return nil, l.Check(b.Len()) // the layout error, before sizing the object by it
	}
	if !bool(C.gdl_tensor_types_readied) {
		return nil, cpython.Errorf(cpython.RuntimeError,
			"pytensor.NewTensor: the extension has no Tensor type yet (call AddTensorTypes first)")
	}
	// The source and its room live in C memory: C keeps no Go pointer, and Describe writes there.
	r := (*C.gdl_source_room)(C.calloc(1, C.sizeof_gdl_source_room))
	if r == nil {
		return nil, cpython.Errorf(cpython.MemoryError, "pytensor.NewTensor: out of memory")
	}
	defer C.free(unsafe.Pointer(r))
	C.gdl_source_room_init(r)
	if err := b.Describe(l, unsafe.Pointer(&r.src)); err != nil {
		return nil, err
	}
	t := C.gdl_tensor_from_source(&r.src)
	if t == nil {
		return nil, cpython.PythonError("creating a Tensor")
	}
	return cpython.Object(t), nil
}
