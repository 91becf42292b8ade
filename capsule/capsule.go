// Package capsule is the CPython side of the DLPack exchange protocol, for
// Go authors of Python extensions, in one implementation that godlpack's own
// Tensor uses too:
//
//   - [Take] and [Import] get a tensor from any producer: a DLPack capsule,
//     an object whose type offers the C exchange API of DLPack 1.3
//     (__dlpack_c_exchange_api__), or any object with __dlpack__;
//   - [Wrap] puts a managed tensor into a capsule.
//
// Package [github.com/godlpack/godlpack/pytensor] gives an extension module
// the Tensor type that exports Go memory through this package (its
// __dlpack__, __dlpack_device__ and C exchange API), and package
// [github.com/godlpack/godlpack/cpython] the plumbing below both: Python
// objects ([cpython.Object]), errors as Python exceptions, the GIL, the fork
// guard.
//
// The C half (capsule.h) offers the same to C code: gdl_export is the one
// __dlpack__ of every exporting object, gdl_take the one way to take a
// tensor, gdl_validate the one check of what was taken, gdl_import the one
// import.
//
//	func normalize(args []cpython.Object) (cpython.Object, error) {
//		t, err := capsule.Import(args[0], capsule.Request{Writable: true})
//		if err != nil {
//			return nil, err
//		}
//		defer t.Release()
//		… // work on t with package consumer; export results with package producer and pytensor.NewTensor
//	}
//
// Every function must be called with the GIL held. A function that fails
// with an error wrapping [cpython.ErrPython] has set the Python exception
// already.
package capsule

/*
#cgo CFLAGS: -I${SRCDIR}/../cpython -I${SRCDIR}/../dlpack -I${SRCDIR}/../producer -I${SRCDIR}/../consumer -O2 -Wall -Wextra -Wno-unused-parameter
#include "capsule.h"
*/
import "C"

import (
	"unsafe"

	"github.com/godlpack/godlpack/consumer"
	"github.com/godlpack/godlpack/cpython"
	"github.com/godlpack/godlpack/dlpack"
)

// Wrap returns a new capsule owning the managed tensor m, named
// "dltensor_versioned" or "dltensor"; its destructor deletes the tensor if
// no consumer took it. If the capsule cannot be made, Wrap has deleted the
// tensor and returns an error wrapping [cpython.ErrPython].
func Wrap(m dlpack.Managed) (cpython.Object, error) {
	c := C.gdl_capsule_wrap(m.Pointer, C.bool(m.Versioned))
	if c == nil {
		return nil, cpython.PythonError("PyCapsule_New")
	}
	return cpython.Object(c), nil
}

// A Copy says whether the producer must copy.
type Copy int

// The values of __dlpack__'s copy keyword.
const (
	CopyIfNeeded Copy = iota // copy=None: the producer copies only if it must
	CopyAlways               // copy=True
	CopyNever                // copy=False
)

// A Request is what [Take] and [Import] ask of a producer.
type Request struct {
	Copy Copy
	// Writable makes [Import] refuse a tensor whose writes would not be
	// allowed or seen: one the producer marked read-only, a legacy one
	// (which cannot say that it may be written), and a copy the producer
	// made unasked ([CopyAlways] asks for a private copy to write).
	Writable bool
}

func (r Request) c(name *C.char) C.gdl_request {
	req := C.gdl_request{_func: name, copy: -1, writable: C.bool(r.Writable)}
	switch r.Copy {
	case CopyAlways:
		req.copy = 1
	case CopyNever:
		req.copy = 0
	}
	return req
}

// Named in the errors of [Take] and [Import], as the Python function a Go author binds would be.
var (
	takeName   = C.CString("capsule.Take")
	importName = C.CString("capsule.Import")
)

// Take returns the managed tensor of obj, which the caller owns from then
// on (pass it to [consumer.Import]): a DLPack capsule's, taken out and renamed
// "used_…"; else one asked of obj through the C exchange API of its type, or
// through obj.__dlpack__(max_version=(1, 3), copy=…). A bare capsule, or a
// producer from before DLPack 1.0, cannot be asked for req.Copy, and Take
// checks nothing of what it got: [Import] holds the producer to the request.
// The error wraps [cpython.ErrPython]: TypeError for an object that speaks no DLPack
// or a capsule of another kind, ValueError for a consumed one, or what the
// producer raised.
//
// When the producer's Python code forks, Take does not return in the child,
// where Go cannot go on (the return from C into Go can wait for ever for the
// parent's threads): the child goes back to the bound function's call, which
// raises the fork guard's RuntimeError there, over Go's frames. A call whose
// parameters take no Python object or callback, or a goroutine, has no
// such call to go back to: the child exits with status 1 and a line on
// stderr. The parent goes on as usual.
func Take(obj cpython.Object, req Request) (dlpack.Managed, error) {
	r := req.c(takeName)
	var t C.gdl_taken
	if C.gdl_go_take((*C.PyObject)(obj), &r, &t) != 0 {
		return dlpack.Managed{}, cpython.PythonError("taking a DLPack tensor")
	}
	return dlpack.Managed{Pointer: t.managed, Versioned: bool(t.versioned)}, nil
}

// Import takes obj's tensor and holds it to req by the rules godlpack's own
// from_dlpack follows (one implementation serves both): with [CopyAlways]
// the result is a private, writable copy (the producer's when it made one
// that may be written, else one made here); with [CopyNever] a tensor the
// producer copied is refused; [Request.Writable] refuses what may not be
// written. The caller must [consumer.Tensor.Release] the result. Every error wraps [cpython.ErrPython], the Python
// exception set: BufferError for a refused tensor, MemoryError when a copy
// cannot be allocated, and [Take]'s. In a child that the producer's code
// forked, Import does not return, as [Take] does not.
func Import(obj cpython.Object, req Request) (*consumer.Tensor, error) {
	r := req.c(importName)
	var m unsafe.Pointer
	var versioned C.bool
	if C.gdl_go_import_managed((*C.PyObject)(obj), &r, &m, &versioned) != 0 {
		return nil, cpython.PythonError("importing a DLPack tensor")
	}
	return consumer.Import(dlpack.Managed{Pointer: m, Versioned: bool(versioned)})
}
