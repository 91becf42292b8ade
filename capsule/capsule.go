// Package capsule is the CPython side of the DLPack exchange protocol, for
// Go authors of Python extensions: it wraps managed tensors in "dltensor" /
// "dltensor_versioned" capsules whose destructor deletes an unconsumed
// tensor, takes tensors out of capsules (renaming them "used_…"), calls a
// producer's __dlpack__ with the version, device and copy keywords and the
// legacy fallback, and makes Exporter objects that numpy.from_dlpack and
// torch.from_dlpack accept.
//
// Python objects cross this API as Object, an unsafe.Pointer to a PyObject,
// so that an extension converts its own cgo type with a plain conversion:
//
//	//export normalize
//	func normalize(self, arg *C.PyObject) *C.PyObject {
//		t, err := capsule.Import(capsule.Object(arg), capsule.Request{Writable: true})
//		if err != nil {
//			return (*C.PyObject)(capsule.RaiseError(err))
//		}
//		defer t.Release()
//		… // work on t with package consumer; export results with package producer and NewExporter
//	}
//
// Every function must be called with the GIL held. A Go function that
// returns an Object to Python returns nil with a Python exception set to
// raise it: when a function of this package fails with an error wrapping
// ErrPython, the exception is already set; RaiseError sets one for any other
// error.
//
// The extension must link against no libpython (the interpreter provides
// the symbols): build it with go build -buildmode=c-shared and
// `#cgo pkg-config: python3`. For that reason this package has no Go tests of
// its own; the example extension in the repository's examples directory
// exercises it from Python.
package capsule

/*
#cgo pkg-config: python3
#cgo CFLAGS: -I${SRCDIR}/../dlpack -I${SRCDIR}/../producer -O2
#include <stdlib.h>
#include "exporter.h"
*/
import "C"

import (
	"errors"
	"fmt"
	"unsafe"

	"github.com/godlpack/godlpack/consumer"
	"github.com/godlpack/godlpack/dlpack"
	"github.com/godlpack/godlpack/producer"
)

// Object is a PyObject pointer. A cgo *C.PyObject of any package converts
// to and from it directly.
type Object unsafe.Pointer

// ErrPython is wrapped by the errors of this package that stand for a
// Python exception already set, such as a TypeError from __dlpack__.
var ErrPython = errors.New("capsule: a Python exception is set")

// pyErr returns an error wrapping ErrPython that names what failed.
func pyErr(what string) error { return fmt.Errorf("%w: %s failed", ErrPython, what) }

// An Exception is a kind of Python exception that Raise sets.
type Exception int

// Python exceptions a Go extension raises for DLPack errors. Their values
// are those of the GDL_EXC_* kinds of exporter.h.
const (
	TypeError Exception = iota + 1
	ValueError
	// BufferError is the protocol's exception for data that cannot be
	// exchanged as asked.
	BufferError
	MemoryError
	RuntimeError
)

// The constants above must follow exporter.h: this fails to compile if not.
const _ = uint(RuntimeError-C.GDL_EXC_RUNTIME) + uint(C.GDL_EXC_RUNTIME-RuntimeError) +
	uint(TypeError-C.GDL_EXC_TYPE) + uint(C.GDL_EXC_TYPE-TypeError)

// Raise sets a Python exception of kind exc with a formatted message and
// returns nil, for a Go extension function to return.
func Raise(exc Exception, format string, args ...any) Object {
	msg := C.CString(fmt.Sprintf(format, args...))
	C.gdl_capsule_raise(C.int(exc), msg)
	C.free(unsafe.Pointer(msg))
	return nil
}

// An Error is an error that names the Python exception to raise for it.
type Error struct {
	Exception Exception
	Msg       string
}

func (e *Error) Error() string { return e.Msg }

// Errorf returns an *Error of kind exc with a formatted message, for a Func
// to return.
func Errorf(exc Exception, format string, args ...any) error {
	return &Error{Exception: exc, Msg: fmt.Sprintf(format, args...)}
}

// ExceptionOf returns the Python exception the DLPack protocol names for
// err: the Exception of an *Error in err's chain, MemoryError for producer.ErrNoMemory, TypeError for a data type that
// does not fit (consumer.ErrDType, dlpack.ErrUnknownDataType), ValueError for
// mismatched shapes (consumer.ErrLayout), BufferError for everything else.
func ExceptionOf(err error) Exception {
	var e *Error
	switch {
	case errors.As(err, &e):
		return e.Exception
	case errors.Is(err, producer.ErrNoMemory):
		return MemoryError
	case errors.Is(err, consumer.ErrDType):
		return TypeError
	case errors.Is(err, consumer.ErrLayout):
		return ValueError
	}
	return BufferError
}

// RaiseError sets the Python exception for err, of the kind ExceptionOf
// gives, unless err wraps ErrPython (the exception is already set), and
// returns nil.
func RaiseError(err error) Object {
	if errors.Is(err, ErrPython) {
		return nil
	}
	return Raise(ExceptionOf(err), "%v", err)
}

// IncRef adds a reference to o, which may be nil.
func IncRef(o Object) { C.Py_IncRef((*C.PyObject)(o)) }

// DecRef drops a reference to o, which may be nil.
func DecRef(o Object) { C.Py_DecRef((*C.PyObject)(o)) }

// Wrap returns a new capsule owning the managed tensor m, named
// "dltensor_versioned" or "dltensor"; its destructor deletes the tensor if
// no consumer took it. If the capsule cannot be made, Wrap has deleted the
// tensor and returns an error wrapping ErrPython.
func Wrap(m dlpack.Managed) (Object, error) {
	c := C.gdl_capsule_wrap(m.Pointer, boolInt(m.Versioned))
	if c == nil {
		return nil, pyErr("PyCapsule_New")
	}
	return Object(c), nil
}

// Take takes the managed tensor out of a DLPack capsule and renames the
// capsule "used_…": the caller owns the tensor from then on (pass it to
// consumer.Import). The error wraps ErrPython: TypeError for an object that
// is not a DLPack capsule, ValueError for one already consumed.
func Take(capsule Object) (managed unsafe.Pointer, versioned bool, err error) {
	var v C.int
	p := C.gdl_capsule_take((*C.PyObject)(capsule), &v)
	if p == nil {
		return nil, false, pyErr("taking the tensor out of the capsule")
	}
	return p, v != 0, nil
}

// A Copy says whether the producer must copy.
type Copy int

// The values of __dlpack__'s copy keyword.
const (
	CopyIfNeeded Copy = iota // copy=None: the producer copies only if it must
	CopyAlways               // copy=True
	CopyNever                // copy=False
)

// A Request is what Call asks of a producer.
type Request struct {
	// MaxVersion is passed as max_version; the zero value passes
	// dlpack.Current, the version this package speaks.
	MaxVersion dlpack.Version
	Copy       Copy
	// Writable makes Import refuse a tensor it may not write (read-only,
	// legacy, or copied by the producer, whose writes nobody would see)
	// with an error wrapping consumer.ErrReadOnly.
	Writable bool
}

// Call returns a new reference to a DLPack capsule of obj: obj itself if it
// is a capsule, else the result of obj.__dlpack__(max_version=…, copy=…).
// A producer that predates these keywords is called again without them. The
// error wraps ErrPython: TypeError when obj has no __dlpack__, or whatever
// __dlpack__ raised.
func Call(obj Object, req Request) (Object, error) {
	o := (*C.PyObject)(obj)
	if C.gdl_is_capsule(o) != 0 {
		IncRef(obj)
		return obj, nil
	}
	mv := req.MaxVersion
	if mv == (dlpack.Version{}) {
		mv = dlpack.Current
	}
	r := C.gdl_dlpack_request{max_major: C.int(mv.Major), max_minor: C.int(mv.Minor), copy: -1}
	switch req.Copy {
	case CopyAlways:
		r.copy = 1
	case CopyNever:
		r.copy = 0
	}
	var fallback C.int
	c := C.gdl_call_dlpack(o, &r, &fallback)
	if c == nil {
		C.gdl_no_dlpack(o)
		return nil, pyErr("__dlpack__")
	}
	return Object(c), nil
}

// Import asks obj (an object with __dlpack__, or a DLPack capsule) for its
// tensor as Call does and takes ownership of it with consumer.Import. The
// caller must Release the tensor. Errors that set a Python exception wrap
// ErrPython; the others come from consumer.Import, or are
// consumer.ErrReadOnly for Request.Writable; pass either to RaiseError.
func Import(obj Object, req Request) (*consumer.Tensor, error) {
	c, err := Call(obj, req)
	if err != nil {
		return nil, err
	}
	defer DecRef(c)
	p, versioned, err := Take(c)
	if err != nil {
		return nil, err
	}
	t, err := consumer.Import(dlpack.Managed{Pointer: p, Versioned: versioned})
	if err != nil {
		return nil, err
	}
	if req.Writable {
		err = t.CheckWritable()
		if err == nil && t.Copied() {
			err = fmt.Errorf("%w: the producer handed over a copy, so writing it would change nothing", consumer.ErrReadOnly)
		}
		if err != nil {
			t.Release()
			return nil, err
		}
	}
	return t, nil
}

func boolInt(b bool) C.int {
	if b {
		return 1
	}
	return 0
}
