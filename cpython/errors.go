package cpython

// #include "cpython.h"
// #include "runtime.h"
import "C"

import (
	"errors"
	"unsafe"

	"github.com/godlpack/godlpack/consumer"
	"github.com/godlpack/godlpack/internal/fmt"
	"github.com/godlpack/godlpack/producer"
)

// ErrForked is the error of a Go function that called CPython through cgo
// of its own, found on return that the Python code had forked the process
// ([Forked]), and returned at once, allocating nothing: a bound function that
// returns it raises the RuntimeError every call in a forked child raises.
// The return from C into Go can itself wait for ever in such a child (for a
// processor that the parent had handed to a thread the child lacks), which
// is why [Take], [Import] and [DecRef] never return there.
var ErrForked = errors.New("cpython: the process forked while Python code ran, and Go cannot run in the child")

// Forked reports whether this process is a child forked after the Go
// runtime started. Check it after a call into CPython that may have run
// Python code, and return [ErrForked] when it is true.
func Forked() bool { return C.gdl_forked_child() != 0 }

// ErrPython is wrapped by the errors of this package that stand for a
// Python exception already set, such as a TypeError from __dlpack__.
var ErrPython = errors.New("cpython: a Python exception is set")

// pyErr returns an error wrapping [ErrPython] that names what failed.
func pyErr(what string) error { return fmt.Errorf("%w: %s failed", ErrPython, what) }

// An Exception is a kind of Python exception that [Raise] sets and an
// [*Error] names. The zero Exception names none ([Raise] sets RuntimeError
// for it); as the base of an exception class (pymodule.NewException) it is
// Exception.
type Exception int

// The Python exceptions a Go error may name, each the value of its kind in
// cpython.h, whose table in errors.c (gdl_exception_type) gives each its
// type and its name.
const (
	TypeError  Exception = C.GDL_TYPE_ERROR
	ValueError Exception = C.GDL_VALUE_ERROR
	// BufferError is the protocol's exception for data that cannot be
	// exchanged as asked.
	BufferError         Exception = C.GDL_BUFFER_ERROR
	MemoryError         Exception = C.GDL_MEMORY_ERROR
	OverflowError       Exception = C.GDL_OVERFLOW_ERROR
	RuntimeError        Exception = C.GDL_RUNTIME_ERROR
	IndexError          Exception = C.GDL_INDEX_ERROR
	KeyError            Exception = C.GDL_KEY_ERROR
	NotImplementedError Exception = C.GDL_NOT_IMPLEMENTED_ERROR
	AttributeError      Exception = C.GDL_ATTRIBUTE_ERROR
	// StopIteration ends an iteration: the error a bound __next__ returns
	// when its iterator has no more values.
	StopIteration Exception = C.GDL_STOP_ITERATION
)

// exceptionKinds is how many values of Exception there are, 0 included.
const exceptionKinds = int(C.GDL_EXCEPTION_KINDS)

// String returns the exception's Python name ("TypeError"; "Exception"
// for the zero Exception), or "Exception(n)" for a value that is no kind.
func (e Exception) String() string {
	if name := C.gdl_exception_name(C.int(e)); name != nil {
		return C.GoString(name)
	}
	return fmt.Sprintf("Exception(%d)", int(e))
}

// Raise sets a Python exception of kind exc with a formatted message and
// returns nil, for a Go extension function to return. The message is kept
// whole, whatever its bytes: a byte that is no UTF-8 shows as \xNN.
func Raise(exc Exception, format string, args ...any) Object {
	msg := fmt.Sprintf(format, args...)
	// The bytes of a Go string, which hold no pointers, are C's to read for the call; "" is NULL and 0 bytes.
	C.gdl_raise(C.int(exc), (*C.char)(unsafe.Pointer(unsafe.StringData(msg))), C.Py_ssize_t(len(msg)))
	return nil
}

// An Error is an error that names the Python exception to raise for it.
type Error struct {
	Exception Exception
	Msg       string
}

func (e *Error) Error() string { return e.Msg }

// Errorf returns an [*Error] of kind exc with a formatted message.
func Errorf(exc Exception, format string, args ...any) error {
	return &Error{Exception: exc, Msg: fmt.Sprintf(format, args...)}
}

// ExceptionOf returns the Python exception the DLPack protocol names for
// err: the [Exception] of an [*Error] in err's chain; MemoryError for
// [producer.ErrNoMemory] and [consumer.ErrNoMemory]; TypeError for a tensor
// of another dtype than the caller works on ([consumer.ErrDType]);
// ValueError for mismatched shapes ([consumer.ErrLayout]); BufferError for
// everything else, a tensor a producer handed over with an unknown dtype or
// a bad layout among them.
func ExceptionOf(err error) Exception {
	var e *Error
	switch {
	case errors.As(err, &e):
		return e.Exception
	case errors.Is(err, producer.ErrNoMemory), errors.Is(err, consumer.ErrNoMemory):
		return MemoryError
	case errors.Is(err, consumer.ErrDType):
		return TypeError
	case errors.Is(err, consumer.ErrLayout):
		return ValueError
	}
	return BufferError
}

// RaiseError sets the Python exception for err, of the kind [ExceptionOf]
// gives, unless err wraps [ErrPython] (the exception is already set), and
// returns nil. [ErrForked] is the RuntimeError of a call in a forked child.
func RaiseError(err error) Object {
	if errors.Is(err, ErrPython) {
		return nil
	}
	if err == ErrForked {
		C.gdl_fork_error()
		return nil
	}
	return Raise(ExceptionOf(err), "%v", err)
}

// PythonError returns an error wrapping [ErrPython] that says what failed, for
// a Go function that called CPython and found the exception set.
func PythonError(what string) error { return pyErr(what) }

// ClaimProcess makes this extension's Go runtime one of the process's, for
// the module named module. Call it first in the extension's PyInit function
// (pymodule.New does), which, being a Go function, runs once the runtime has
// started.
//
// Every c-shared Go library carries its own Go runtime. On Linux with glibc
// (x86-64, arm64) any number of them share the process: ClaimProcess joins
// the one SIGURG dispatcher that every extension built on this package
// shares, whatever godlpack version built it, so that each runtime keeps its
// async preemption. Elsewhere it fails with an ImportError (the error wraps
// [ErrPython]) when another extension built on this package claimed the
// process first.
func ClaimProcess(module string) error {
	name := C.CString(module)
	defer C.free(unsafe.Pointer(name))
	if C.gdl_join_process(name) != 0 {
		return pyErr("joining the Go runtimes of the process for " + module)
	}
	return nil
}
