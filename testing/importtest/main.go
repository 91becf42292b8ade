// Command importtest is a Python extension for godlpack's tests only: it
// exposes [capsule.Import] to Python, so that
// tests/extensions/test_import_rules.py can hold a Go author's import to the
// rules of godlpack.from_dlpack. It is never shipped.
//
//	go build -buildmode=c-shared -o importtest$(python3-config --extension-suffix) ./testing/importtest
package main

/*
#cgo CFLAGS: -Wall -Wextra -Wno-unused-parameter
#include <Python.h>

PyObject *importtest_module(void);
*/
import "C"

import (
	"fmt"
	"unsafe"

	"github.com/godlpack/godlpack/capsule"
	"github.com/godlpack/godlpack/cpython"
)

func main() {}

//export PyInit_importtest
func PyInit_importtest() *C.PyObject {
	if err := cpython.ClaimProcess("importtest"); err != nil {
		return nil
	}
	return C.importtest_module()
}

// importtestImport imports x with [capsule.Import] and describes the tensor
// it got as a str: "copied=… readonly=… data=…", the data as an address.
// NULL with the exception set when Import fails.
//
//export importtestImport
func importtestImport(x *C.PyObject, copyArg C.int, writable C.int) *C.PyObject {
	req := capsule.Request{Copy: capsule.CopyIfNeeded, Writable: writable != 0}
	switch copyArg {
	case 0:
		req.Copy = capsule.CopyNever
	case 1:
		req.Copy = capsule.CopyAlways
	}
	t, err := capsule.Import(cpython.Object(x), req)
	if err != nil {
		cpython.RaiseError(err)
		return nil
	}
	s := C.CString(fmt.Sprintf("copied=%t readonly=%t data=%d", t.Copied(), t.ReadOnly(), uintptr(t.Data)))
	defer C.free(unsafe.Pointer(s))
	t.Release()
	return C.PyUnicode_FromString(s)
}
