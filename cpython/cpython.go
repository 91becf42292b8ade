// Package cpython is the plumbing that every Go extension built on
// godlpack's packages needs in CPython, below the DLPack protocol (package
// [github.com/godlpack/godlpack/capsule]) and the Python types (package
// [github.com/godlpack/godlpack/pytensor]):
//
//   - [Object], a PyObject pointer, and its references ([IncRef], [DecRef]);
//   - Go errors as the Python exceptions the protocol names: [Errorf],
//     [RaiseError], [ExceptionOf] and the [Exception] kinds, with messages
//     of any bytes;
//   - [WithoutGIL], which releases the GIL around long Go work;
//   - the fork guard ([Forked], [ErrForked]): Go cannot run in a process
//     forked after the runtime started;
//   - [ClaimProcess], which makes the extension's Go runtime one of the
//     process's, sharing one SIGURG dispatcher with every other.
//
// The C half (cpython.h, args.h, runtime.h, pyprivate.h) offers the same to
// the C of godlpack's other packages: the one argument parser (gdl_parse),
// numbers read as NumPy reads them (gdl_parse_scalar), a pending exception
// kept while Python code runs, other libraries' objects by name, and the
// jump that takes a forked child back over Go's frames.
//
// Python objects cross this API as [Object], an [unsafe.Pointer] to a
// PyObject, so that an extension converts its own cgo type with a plain
// conversion. Every function must be called with the GIL held unless it
// says otherwise. A function that fails with an error wrapping [ErrPython]
// has set the Python exception already; [RaiseError] sets one for any
// other error.
//
// The extension must link against no libpython (the interpreter provides
// the symbols): build it with go build -buildmode=c-shared. So this
// package's Go tests cover only what runs without an interpreter; godlpack's
// Python tests and the example extensions exercise the rest from Python.
//
// Python's headers come from CGO_CFLAGS alone, which must name the include
// directories of the interpreter the extension is for (python -m
// godlpack.build --cflags prints them): Go's build cache keys a package on
// CGO_CFLAGS, and pkg-config, which this package does not ask, would answer
// with another Python's headers for a relocated interpreter.
//
// The extension exports only its PyInit_ function: this package links it
// with exports.so, a linker script that keeps every other symbol (the Go
// runtime's, cgo's, godlpack's own) local to the library. It also links it
// with --unresolved-symbols=ignore-in-object-files, so that go build ./...
// and go vet ./..., which link a package main as a program too, accept the
// Python symbols the interpreter will provide; the shared library is as it
// would be without (a shared library may leave symbols undefined).
package cpython

/*
#cgo CFLAGS: -I${SRCDIR}/../dlpack -I${SRCDIR}/../producer -O2 -Wall -Wextra -Wno-unused-parameter
#cgo LDFLAGS: ${SRCDIR}/exports.so -Wl,--unresolved-symbols=ignore-in-object-files
#include "cpython.h"
#include "fork.h"
#include "runtime.h"
*/
import "C"

import (
	"unsafe"

	"github.com/godlpack/godlpack/internal/preempt"
)

// Object is a PyObject pointer. A cgo *C.PyObject of any package converts
// to and from it directly.
type Object unsafe.Pointer

// IncRef adds a reference to o, which may be nil.
func IncRef(o Object) { C.Py_IncRef((*C.PyObject)(o)) }

// DecRef drops a reference to o, which may be nil. Freeing o may run
// Python code (a __del__), which may fork: in the child, DecRef does not
// return, as capsule.Take does not.
func DecRef(o Object) { C.gdl_go_decref((*C.PyObject)(o)) }

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
