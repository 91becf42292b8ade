// Package capsule is the CPython side of the DLPack exchange protocol, for
// Go authors of Python extensions, in one implementation that godlpack's own
// Tensor uses too:
//
//   - [Take] and [Import] get a tensor from any producer: a DLPack capsule,
//     an object whose type offers the C exchange API of DLPack 1.3
//     (__dlpack_c_exchange_api__), or any object with __dlpack__;
//   - [AddTensorTypes] gives an extension module the Tensor type that
//     godlpack.Tensor is too (named after the module: rowstats.Tensor), and
//     [NewTensor] makes one of Go memory (package [producer]) that every
//     consumer accepts: shape, dtype, device, the buffer protocol, tolist,
//     pickling, __dlpack__ with max_version, stream, dl_device and copy,
//     __dlpack_device__, and the C exchange API;
//   - [Wrap] puts a managed tensor into a capsule;
//   - [Errorf], [RaiseError] and the [Exception] kinds turn Go errors into
//     the Python exceptions the protocol names.
//
// The C half (capsule.h) offers the same to C code: gdl_export is the one
// __dlpack__ of every exporting object, gdl_take the one way to take a
// tensor, gdl_validate the one check of what was taken.
//
// Python objects cross this API as [Object], an [unsafe.Pointer] to a
// PyObject, so that an extension converts its own cgo type with a plain
// conversion:
//
//	func normalize(args []capsule.Object) (capsule.Object, error) {
//		t, err := capsule.Import(args[0], capsule.Request{Writable: true})
//		if err != nil {
//			return nil, err
//		}
//		defer t.Release()
//		… // work on t with package consumer; export results with package producer and NewTensor
//	}
//
// Every function must be called with the GIL held. A function that fails
// with an error wrapping [ErrPython] has set the Python exception already;
// [RaiseError] sets one for any other error.
//
// The extension must link against no libpython (the interpreter provides
// the symbols): build it with go build -buildmode=c-shared. So this
// package's Go tests cover only what runs without an interpreter (its
// errors, the requests it sends, the rooms of its C files); godlpack's
// Python tests and the example extensions in the repository's examples
// directory exercise the rest from Python.
//
// Python's headers come from CGO_CFLAGS alone, which must name the include
// directories of the interpreter the extension is for (python -m
// godlpack.build --cflags prints them): Go's build cache keys a package on
// CGO_CFLAGS, and pkg-config, which this package no longer asks, would answer
// with another Python's headers for a relocated interpreter.
//
// The extension exports only its PyInit_ function: this package links it
// with exports.so, a linker script that keeps every other symbol (the Go
// runtime's, cgo's, its own) local to the library. It also links it with
// --unresolved-symbols=ignore-in-object-files, so that go build ./... and
// go vet ./..., which link a package main as a program too, accept the
// Python symbols the interpreter will provide; the shared library is as it
// would be without (a shared library may leave symbols undefined).
package capsule

/*
#cgo CFLAGS: -I${SRCDIR}/../dlpack -I${SRCDIR}/../producer -I${SRCDIR}/../consumer -O2 -Wall -Wextra -Wno-unused-parameter
#cgo LDFLAGS: ${SRCDIR}/exports.so -Wl,--unresolved-symbols=ignore-in-object-files
#include "capsule.h"
#include "runtime.h"
*/
import "C"

import (
	"unsafe"

	"github.com/godlpack/godlpack/consumer"
	"github.com/godlpack/godlpack/dlpack"
	"github.com/godlpack/godlpack/internal/preempt"
)

// Object is a PyObject pointer. A cgo *C.PyObject of any package converts
// to and from it directly.
type Object unsafe.Pointer

// IncRef adds a reference to o, which may be nil.
func IncRef(o Object) { C.Py_IncRef((*C.PyObject)(o)) }

// DecRef drops a reference to o, which may be nil. Freeing o may run
// Python code (a __del__), which may fork: in the child, DecRef does not
// return, as [Take] does not.
func DecRef(o Object) { C.gdl_go_decref((*C.PyObject)(o)) }

// Wrap returns a new capsule owning the managed tensor m, named
// "dltensor_versioned" or "dltensor"; its destructor deletes the tensor if
// no consumer took it. If the capsule cannot be made, Wrap has deleted the
// tensor and returns an error wrapping [ErrPython].
func Wrap(m dlpack.Managed) (Object, error) {
	c := C.gdl_capsule_wrap(m.Pointer, C.bool(m.Versioned))
	if c == nil {
		return nil, pyErr("PyCapsule_New")
	}
	return Object(c), nil
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
// The error wraps [ErrPython]: TypeError for an object that speaks no DLPack
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
func Take(obj Object, req Request) (dlpack.Managed, error) {
	r := req.c(takeName)
	var t C.gdl_taken
	if C.gdl_go_take((*C.PyObject)(obj), &r, &t) != 0 {
		return dlpack.Managed{}, pyErr("taking a DLPack tensor")
	}
	return dlpack.Managed{Pointer: t.managed, Versioned: bool(t.versioned)}, nil
}

// Import takes obj's tensor and holds it to req by the rules godlpack's own
// from_dlpack follows (one implementation serves both): with [CopyAlways]
// the result is a private, writable copy (the producer's when it made one
// that may be written, else one made here); with [CopyNever] a tensor the
// producer copied is refused; [Request.Writable] refuses what may not be
// written. The caller must [consumer.Tensor.Release] the result. Every error wraps [ErrPython], the Python
// exception set: BufferError for a refused tensor, MemoryError when a copy
// cannot be allocated, and [Take]'s. In a child that the producer's code
// forked, Import does not return, as [Take] does not.
func Import(obj Object, req Request) (*consumer.Tensor, error) {
	r := req.c(importName)
	var m unsafe.Pointer
	var versioned C.bool
	if C.gdl_go_import_managed((*C.PyObject)(obj), &r, &m, &versioned) != 0 {
		return nil, pyErr("importing a DLPack tensor")
	}
	return consumer.Import(dlpack.Managed{Pointer: m, Versioned: bool(versioned)})
}

// gilThreshold is the work, in bytes, from which [WithoutGIL] releases the
// GIL: below it, releasing and taking it back costs more than it frees.
const gilThreshold = 1 << 20

// WithoutGIL runs f with the GIL released when it works on nbytes or more
// (1 MiB), so that other Python threads run meanwhile. f must not touch
// Python objects.
func WithoutGIL(nbytes int64, f func()) {
	if nbytes < gilThreshold {
		f()
		return
	}
	ts := C.PyEval_SaveThread()
	defer C.PyEval_RestoreThread(ts)
	if C.gdl_preemption_suspect() != 0 {
		// Long work on a thread that may have lost a preemption signal: the runtime must be able to preempt it.
		// Only there, as bound calls do (a repair's signal costs 3 us, 6% of scaling 4 MB of float32 in cache).
		preempt.Restore()
	}
	f()
}
