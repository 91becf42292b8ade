// Package capsule is the CPython side of the DLPack exchange protocol, for
// Go authors of Python extensions, in one implementation that godlpack's own
// Tensor uses too:
//
//   - Take and Import get a tensor from any producer: a DLPack capsule, an
//     object whose type offers the C exchange API of DLPack 1.3
//     (__dlpack_c_exchange_api__), or any object with __dlpack__;
//   - NewExporter makes a Python object of Go memory (package producer)
//     that every consumer accepts: __dlpack__ with max_version, stream,
//     dl_device and copy, __dlpack_device__, and the C exchange API;
//   - Wrap puts a managed tensor into a capsule;
//   - Errorf, RaiseError and the Exception kinds turn Go errors into the
//     Python exceptions the protocol names.
//
// The C half (capsule.h) offers the same to C code: gdl_export is the one
// __dlpack__ of every exporting object, gdl_take the one way to take a
// tensor, gdl_validate the one check of what was taken.
//
// Python objects cross this API as Object, an unsafe.Pointer to a PyObject,
// so that an extension converts its own cgo type with a plain conversion:
//
//	func normalize(args []capsule.Object) (capsule.Object, error) {
//		t, err := capsule.Import(args[0], capsule.Request{Writable: true})
//		if err != nil {
//			return nil, err
//		}
//		defer t.Release()
//		… // work on t with package consumer; export results with package producer and NewExporter
//	}
//
// Every function must be called with the GIL held. A function that fails
// with an error wrapping ErrPython has set the Python exception already;
// RaiseError sets one for any other error.
//
// The extension must link against no libpython (the interpreter provides
// the symbols): build it with go build -buildmode=c-shared and
// `#cgo pkg-config: python3`. For that reason this package has no Go tests of
// its own; godlpack's Python tests and the example extension in the
// repository's examples directory exercise it from Python.
//
// The extension exports only its PyInit_ function: this package links it
// with exports.so, a linker script that keeps every other symbol (the Go
// runtime's, cgo's, its own) local to the library.
package capsule

/*
#cgo pkg-config: python3
#cgo CFLAGS: -I${SRCDIR}/../dlpack -I${SRCDIR}/../producer -I${SRCDIR}/../consumer -O2 -Wall -Wextra -Wno-unused-parameter
#cgo LDFLAGS: ${SRCDIR}/exports.so
#include "capsule.h"
*/
import "C"

import (
	"fmt"
	"unsafe"

	"github.com/godlpack/godlpack/consumer"
	"github.com/godlpack/godlpack/dlpack"
	"github.com/godlpack/godlpack/producer"
)

// Object is a PyObject pointer. A cgo *C.PyObject of any package converts
// to and from it directly.
type Object unsafe.Pointer

// IncRef adds a reference to o, which may be nil.
func IncRef(o Object) { C.Py_IncRef((*C.PyObject)(o)) }

// DecRef drops a reference to o, which may be nil.
func DecRef(o Object) { C.Py_DecRef((*C.PyObject)(o)) }

// Wrap returns a new capsule owning the managed tensor m, named
// "dltensor_versioned" or "dltensor"; its destructor deletes the tensor if
// no consumer took it. If the capsule cannot be made, Wrap has deleted the
// tensor and returns an error wrapping ErrPython.
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

// A Request is what Take and Import ask of a producer.
type Request struct {
	Copy Copy
	// Writable makes Import refuse a tensor it may not write (read-only,
	// legacy, or copied by the producer, whose writes nobody would see)
	// with an error wrapping consumer.ErrReadOnly.
	Writable bool
}

func (r Request) c() C.gdl_request {
	req := C.gdl_request{copy: -1}
	switch r.Copy {
	case CopyAlways:
		req.copy = 1
	case CopyNever:
		req.copy = 0
	}
	return req
}

var takeName = C.CString("capsule.Take") // named in the TypeError of an object that is no producer

// Take returns the managed tensor of obj, which the caller owns from then
// on (pass it to consumer.Import): a DLPack capsule's, taken out and renamed
// "used_…"; else one asked of obj through the C exchange API of its type, or
// through obj.__dlpack__(max_version=(1, 3), copy=…). A bare capsule, or a
// producer from before DLPack 1.0, cannot be asked for req.Copy: Import
// checks what it got. The error wraps ErrPython: TypeError for an object
// that speaks no DLPack or a capsule of another kind, ValueError for a
// consumed one, or what the producer raised.
func Take(obj Object, req Request) (dlpack.Managed, error) {
	r := req.c()
	r._func = takeName
	var t C.gdl_taken
	if C.gdl_take((*C.PyObject)(obj), &r, &t) != 0 {
		return dlpack.Managed{}, pyErr("taking a DLPack tensor")
	}
	return dlpack.Managed{Pointer: t.managed, Versioned: bool(t.versioned)}, nil
}

// Import takes obj's tensor as Take does and takes ownership of it with
// consumer.Import; the caller must Release it. It holds the producer to
// req.Copy: for CopyAlways, a tensor the producer did not copy (it could not
// be asked, or ignored the request) is copied here and released at once;
// for CopyNever, a tensor the producer copied is refused. Errors that set a Python exception wrap ErrPython; the
// others come from consumer.Import or the copy, or wrap consumer.ErrReadOnly
// for Request.Writable; pass any of them to RaiseError.
func Import(obj Object, req Request) (*consumer.Tensor, error) {
	m, err := Take(obj, req)
	if err != nil {
		return nil, err
	}
	t, err := consumer.Import(m)
	if err != nil {
		return nil, err
	}
	switch {
	case req.Copy == CopyNever && t.Copied():
		err = fmt.Errorf("capsule: copy=False, but the producer copied the data (IS_COPIED is set)")
	case req.Copy == CopyAlways && !t.Copied():
		var c *consumer.Tensor
		if c, err = copyOf(t); err == nil {
			t.Release()
			t = c
		}
	case req.Writable:
		if err = t.CheckWritable(); err == nil && t.Copied() {
			err = fmt.Errorf("%w: the producer handed over a copy, so writing it would change nothing", consumer.ErrReadOnly)
		}
	}
	if err != nil {
		t.Release()
		return nil, err
	}
	return t, nil
}

// copyOf returns a C-contiguous copy of t of its own, flagged IS_COPIED.
func copyOf(t *consumer.Tensor) (*consumer.Tensor, error) {
	if err := t.CheckReadable(); err != nil {
		return nil, err
	}
	l := producer.Layout{Shape: t.Shape, Strides: t.Strides, DType: t.DType, Flags: t.Flags & dlpack.IsSubbyteTypePadded}
	var b *producer.Buffer
	var err error
	WithoutGIL(t.NBytes(), func() { b, err = producer.CopyOf(t.Data, l) })
	if err != nil {
		return nil, err
	}
	defer b.Release()
	m, err := b.Export(l.Contiguous(), dlpack.Current)
	if err != nil {
		return nil, err
	}
	return consumer.Import(m)
}

// gilThreshold is the work, in bytes, from which WithoutGIL releases the
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
	f()
}
