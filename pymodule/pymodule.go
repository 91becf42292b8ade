// Package pymodule builds a Python extension module whose functions are Go
// functions, with no C to write: for the PyInit_<name> function of a Go
// extension built with go build -buildmode=c-shared.
//
//	//export PyInit_normalize
//	func PyInit_normalize() *C.PyObject {
//		m, _ := pymodule.New("normalize", "…", pymodule.Function{Name: "normalize", Doc: "…", Func: normalize})
//		return (*C.PyObject)(m) // nil with the exception set when New failed
//	}
//
// Each Python call crosses into Go once, through one C trampoline. Errors a
// function returns become Python exceptions through capsule.RaiseError, and
// a panic becomes a RuntimeError. Every Go extension carries its own Go
// runtime: New joins it to the process's others through
// capsule.ClaimProcess (on Linux with glibc they share the process; elsewhere
// the second one is an ImportError).
//
// The Go runtime preempts long-running Go code by sending SIGURG to its
// thread. A Python program that installs a SIGURG handler of its own
// replaces the runtime's and then sees those signals too. Only the
// environment the process starts with can turn them off
// (GODEBUG=asyncpreemptoff=1): //go:debug and go.mod refuse that setting,
// and the runtime has read the environment before any code of the
// extension runs. Turning them off lets the garbage collector wait for
// loops it can no longer interrupt (godlpack's README measures it).
package pymodule

/*
#cgo pkg-config: python3
#cgo CFLAGS: -I${SRCDIR}/../dlpack -I${SRCDIR}/../producer -O2
#include <stdlib.h>
#include "module.h"
*/
import "C"

import (
	"runtime/cgo"
	"unsafe"

	"github.com/godlpack/godlpack/capsule"
)

// A Func is a Python function written in Go: it receives the positional
// arguments (borrowed references) and returns a new reference, or an error
// that capsule.RaiseError turns into the Python exception.
type Func func(args []capsule.Object) (capsule.Object, error)

// A Function is one function of a module made by New.
type Function struct {
	Name string
	Doc  string // the docstring; a first line "name(args)\n--\n\n" gives the signature
	Func Func
}

// New returns a new extension module object with the given functions, for
// the extension's PyInit_<name> to return. The error wraps
// capsule.ErrPython: the ImportError of capsule.ClaimProcess, or what
// CPython raised.
func New(name, doc string, funcs ...Function) (capsule.Object, error) {
	if err := capsule.ClaimProcess(name); err != nil {
		return nil, err
	}
	cname, cdoc := C.CString(name), C.CString(doc)
	m := C.gdl_module_new(cname, cdoc)
	C.free(unsafe.Pointer(cname))
	C.free(unsafe.Pointer(cdoc))
	if m == nil {
		return nil, pyErr("creating module " + name)
	}
	for _, f := range funcs {
		h := cgo.NewHandle(f.Func) // kept for the life of the process, like the module
		fn, fd := C.CString(f.Name), C.CString(f.Doc)
		rc := C.gdl_module_add(m, fn, fd, C.uintptr_t(h))
		C.free(unsafe.Pointer(fn))
		C.free(unsafe.Pointer(fd))
		if rc != 0 {
			h.Delete()
			capsule.DecRef(capsule.Object(m))
			return nil, pyErr("adding function " + f.Name)
		}
	}
	return capsule.Object(m), nil
}

func pyErr(what string) error { return capsule.PythonError(what) }

// godlpackModuleCall runs the Go function of a module's function object.
//
//export godlpackModuleCall
func godlpackModuleCall(h C.uintptr_t, args unsafe.Pointer, nargs int) (result unsafe.Pointer) {
	defer func() {
		if p := recover(); p != nil {
			result = unsafe.Pointer(capsule.Raise(capsule.RuntimeError, "internal error in a Go function: %v", p))
		}
	}()
	fn := cgo.Handle(h).Value().(Func)
	var a []capsule.Object
	if nargs > 0 {
		a = unsafe.Slice((*capsule.Object)(args), nargs)
	}
	o, err := fn(a)
	if err != nil {
		capsule.DecRef(o) // nil is fine; an error wins over a result
		return unsafe.Pointer(capsule.RaiseError(err))
	}
	if o == nil {
		return unsafe.Pointer(capsule.Raise(capsule.RuntimeError, "a Go function returned neither a result nor an error"))
	}
	return unsafe.Pointer(o)
}

// None returns a new reference to None, for a Func with no result.
func None() capsule.Object { return capsule.Object(C.gdl_none()) }
