// Command pyext is the CPython extension module godlpack._core, built with
// go build -buildmode=c-shared. It holds godlpack's own Python surface:
// from_dlpack, the creation functions and godlpack.ops, and it names package
// [capsule]'s Tensor, DType and Device types godlpack's
// ([pytensor.AddTensorTypes]).
// The protocol and the tensor object are package capsule's, shared with every
// Go extension built on it; C (the .c files beside this one) does the CPython
// object work, and each Python call crosses into Go at most once, through
// one of the exported functions of this package, carrying one C struct.
package main

/*
#cgo CFLAGS: -I${SRCDIR}/../dlpack -I${SRCDIR}/../producer -I${SRCDIR}/../consumer -I${SRCDIR}/../cpython -I${SRCDIR}/../capsule -I${SRCDIR}/../pytensor -O2 -Wall -Wextra -Wno-unused-parameter
#include "ext.h"
#include <stdlib.h>
*/
import "C"

import (
	"unsafe"

	"github.com/godlpack/godlpack/cpython"
	"github.com/godlpack/godlpack/pymodule"
	"github.com/godlpack/godlpack/pytensor"
)

var (
	opsAttr                    = C.CString("_ops")
	threadsAttr                = C.CString("_threads")
	plainModule, plainFunction = C.CString("godlpack._format"), C.CString("tensor_str")
)

func main() {}

// core is the module PyInit__core made, kept for the calls that follow.
var core *C.PyObject

// PyInit__core is the module's entry point. Being a Go function, it returns
// only once the Go runtime has finished starting, so that a fork right after
// import never catches the runtime half-started.
//
//export PyInit__core
func PyInit__core() (m *C.PyObject) {
	defer func() {
		if r := recover(); r != nil {
			cpython.Raise(cpython.RuntimeError, "godlpack: internal error during import: %v", r)
			m = nil
		}
	}()
	if cpython.ClaimProcess("godlpack._core") != nil {
		return nil
	}
	// An import after the module left sys.modules calls PyInit again (pymodule.Module.Init says why): the module
	// made first is the module.
	if core != nil {
		C.Py_IncRef(core)
		return core
	}
	m = C.gdl_module_create()
	if m == nil {
		return nil
	}
	// The tensor types are named godlpack.Tensor, godlpack.DType and godlpack.Device before godlpack.ops is
	// made, whose module would otherwise name them.
	if pytensor.AddTensorTypes(cpython.Object(m), "godlpack") != nil {
		C.Py_DecRef(m)
		return nil
	}
	// Without NumPy, godlpack's Tensors print through godlpack's own plain printer.
	C.gdl_tensor_set_plain_printer(plainModule, plainFunction)
	if addModule(m, opsAttr, "godlpack.ops", "Kernels written in Go (re-exported by godlpack.ops).", opsFunctions) != nil ||
		addModule(m, threadsAttr, "godlpack", "godlpack's thread count (re-exported by godlpack).", threadFunctions) != nil {
		C.Py_DecRef(m)
		return nil
	}
	C.Py_IncRef(m)
	core = m
	return m
}

// addModule adds a module of bound functions named name to m as its attribute attr, with the Python exception
// set on failure.
func addModule(m *C.PyObject, attr *C.char, name, doc string, items []pymodule.Item) error {
	sub, err := pymodule.New(name, doc, items...)
	if err == nil && C.PyModule_AddObjectRef(m, attr, (*C.PyObject)(sub)) != 0 {
		err = cpython.ErrPython
	}
	cpython.DecRef(sub)
	return err
}

// fail raises err as the Python exception [cpython.ExceptionOf] names and returns -1,
// for the functions C calls.
func fail(err error) C.int {
	cpython.RaiseError(err)
	return -1
}

// recovered turns a panic into a RuntimeError: no Go panic crosses into C.
func recovered(rc *C.int) {
	if r := recover(); r != nil {
		*rc = fail(cpython.Errorf(cpython.RuntimeError, "godlpack: internal error: %v", r))
	}
}

// int64s views n elements of a C int64_t array as a Go slice.
func int64s(p *C.int64_t, n int) []int64 {
	if n == 0 {
		return nil
	}
	return unsafe.Slice((*int64)(unsafe.Pointer(p)), n)
}
