package capsule

/*
#include <stdlib.h>
#include "module.h"
*/
import "C"

import (
	"runtime/cgo"
	"unsafe"
)

// A Func is a Python function written in Go: it receives the positional
// arguments (borrowed references) and returns a new reference, or an error
// that RaiseError turns into the Python exception. A panic becomes a
// RuntimeError.
type Func func(args []Object) (Object, error)

// A Function is one entry of a module made by NewModule.
type Function struct {
	Name string
	Doc  string // the docstring; a first line "name(args)\n--\n\n" gives the signature
	Func Func
}

// NewModule returns a new extension module object with the given
// functions, for the extension's PyInit_<name> to return. It writes no
// CPython glue for the caller: each Python call goes through one C
// trampoline into fn. The error wraps ErrPython.
func NewModule(name, doc string, funcs ...Function) (Object, error) {
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
			DecRef(Object(m))
			return nil, pyErr("adding function " + f.Name)
		}
	}
	return Object(m), nil
}

// godlpackCapsuleCall runs the Go function of a module's function object.
//
//export godlpackCapsuleCall
func godlpackCapsuleCall(h C.uintptr_t, args unsafe.Pointer, nargs int) (result unsafe.Pointer) {
	defer func() {
		if p := recover(); p != nil {
			result = unsafe.Pointer(Raise(RuntimeError, "internal error in a Go function: %v", p))
		}
	}()
	fn := cgo.Handle(h).Value().(Func)
	var a []Object
	if nargs > 0 {
		a = unsafe.Slice((*Object)(args), nargs)
	}
	o, err := fn(a)
	if err != nil {
		if o != nil {
			DecRef(o)
		}
		return unsafe.Pointer(RaiseError(err))
	}
	if o == nil {
		return unsafe.Pointer(Raise(RuntimeError, "a Go function returned neither a result nor an error"))
	}
	return unsafe.Pointer(o)
}

// None returns a new reference to None, for a Func with no result.
func None() Object { return Object(C.gdl_none()) }
