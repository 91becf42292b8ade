package pymodule

// #include <stdlib.h>
// #include "pymodule.h"
import "C"

import (
	"unsafe"

	"github.com/godlpack/godlpack/cpython"
)

// An Item is what a module holds: a [Function], a [Class], a [Constant], an
// [Enum] or an [ExceptionClass]. [New] and [Module] take them.
//
// Its method is each kind's part of making a module and its stub. Go's
// linker keeps a method of a type that a program converts to an interface,
// and no other: through it, an extension links the code of the kinds of
// items its module holds (an extension without a class carries none of the
// code that makes classes, 40 KB of rowstats' shared library). One method
// for all the steps, where one each would take 5 times the functions.
type Item interface {
	// in does the item's part of step s (a step's words say which) in b:
	// a name, a stub or "tensors"; an error.
	in(s step, b *builder) (string, error)
}

// A step is one of the binder's passes over a module's items.
type step uint8

const (
	// stepDeclare adds the item to b.sc, the scope of the module being
	// planned, and returns the name it takes in the module.
	stepDeclare step = iota
	// stepPrepare makes what the module's functions may name, before any of
	// them is made: an enum, an exception class, a class's id.
	stepPrepare
	// stepMake makes the item in b's module.
	stepMake
	// stepStub returns the item's stub in b.st's module.
	stepStub
	// stepTensors returns "tensors" when a function of the item hands
	// tensors to Python as the module's Tensor (needsTensorTypes).
	stepTensors
)

// A builder is what the steps of a module's items work on.
type builder struct {
	m      *C.PyObject // the module being made
	module string      // its name
	sc     *scope
	st     *stubber // stepStub's
}

// add adds o to the module as name, and drops the reference to o it is given.
func (b *builder) add(name string, o *C.PyObject) error {
	cname := C.CString(name)
	rc := C.PyModule_AddObjectRef(b.m, cname, o)
	C.free(unsafe.Pointer(cname))
	C.Py_DecRef(o)
	if rc != 0 {
		return cpython.PythonError("adding " + name)
	}
	return nil
}

// handing is stepTensors' answer: "tensors", or "".
func handing(tensors bool) (string, error) {
	if tensors {
		return "tensors", nil
	}
	return "", nil
}
