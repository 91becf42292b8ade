package pymodule

// #include <stdlib.h>
// #include "pymodule.h"
import "C"

import (
	"errors"
	"unsafe"

	"github.com/godlpack/godlpack/cpython"
	"github.com/godlpack/godlpack/internal/fmt"
)

// An ExceptionClass is a Python exception class of a module, made by
// [NewException] and made a class when its module is (an [Item] of one
// module only). A Go error selects it: an error whose chain holds an error
// of a type with a method PythonException() *ExceptionClass that returns it
// ([errors.As]; [ExceptionClass.Errorf] makes one), or the class itself
// ([errors.Is]: return fmt.Errorf("…: %w", class)), raises it, with the
// error's message. It wins over a [cpython.Errorf] kind in the same chain.
type ExceptionClass struct {
	name, doc string
	base      cpython.Exception
	object    *C.PyObject // the class, once made
	module    string
}

// NewException returns the exception class name of its module, derived
// from base (any kind of [cpython.Exception]: TypeError … StopIteration; 0
// for Exception).
func NewException(name string, base cpython.Exception, doc string) *ExceptionClass {
	return &ExceptionClass{name: name, base: base, doc: doc}
}

// Error returns the class's name: an ExceptionClass is itself an error,
// which a Go error wraps to select it.
func (e *ExceptionClass) Error() string { return e.name }

// Errorf returns an error that raises e with the formatted message.
func (e *ExceptionClass) Errorf(format string, args ...any) error {
	return &classError{class: e, msg: fmt.Sprintf(format, args...)}
}

type classError struct {
	class *ExceptionClass
	msg   string
}

func (e *classError) Error() string                    { return e.msg }
func (e *classError) PythonException() *ExceptionClass { return e.class }

// pythonException is what an error's own type says of its exception class.
type pythonException interface{ PythonException() *ExceptionClass }

// exceptionClassOf returns the made exception class err selects, or nil.
func exceptionClassOf(err error) *ExceptionClass {
	var pe pythonException
	if errors.As(err, &pe) {
		if c := pe.PythonException(); c != nil && c.object != nil {
			return c
		}
	}
	var c *ExceptionClass
	if errors.As(err, &c) && c.object != nil {
		return c
	}
	return nil
}

// check says what is wrong with the class's description: a base that is no
// kind of cpython.Exception.
func (e *ExceptionClass) check() error {
	if C.gdl_exception_name(C.int(e.base)) == nil {
		return fmt.Errorf("exception %s: its base, %v, is no kind of cpython.Exception", e.name, e.base)
	}
	return nil
}

// make makes the class, of the module named module.
func (e *ExceptionClass) make(module string) error {
	if e.object != nil {
		return fmt.Errorf("exception %s: already a class of module %s", e.name, e.module)
	}
	if !identifier(e.name) {
		return fmt.Errorf("exception %q: not a Python name", e.name)
	}
	qualified, doc := C.CString(module+"."+e.name), C.CString(e.doc)
	defer C.free(unsafe.Pointer(qualified))
	defer C.free(unsafe.Pointer(doc))
	o := C.PyErr_NewExceptionWithDoc(qualified, doc, C.gdl_exception_type(C.int(e.base)), nil)
	if o == nil {
		return cpython.PythonError("making exception " + e.name)
	}
	e.object, e.module = o, module
	return nil
}

// stub is the class in a stub.
func (e *ExceptionClass) stub() string {
	s := fmt.Sprintf("class %s(%s):", e.name, e.base)
	if e.doc != "" {
		return s + "\n" + docstring(e.doc, "    ") + "\n"
	}
	return s + " ...\n"
}

func (e *ExceptionClass) in(s step, b *builder) (string, error) {
	switch s {
	case stepDeclare:
		return e.name, e.check()
	case stepPrepare:
		if err := e.make(b.module); err != nil {
			return "", err
		}
		C.Py_IncRef(e.object) // the class's own, which errors raise
		return "", b.add(e.name, e.object)
	case stepStub:
		return e.stub(), nil
	}
	return "", nil
}
