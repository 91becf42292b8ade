package pymodule

// #include <stdlib.h>
// #include "pymodule.h"
import "C"

import (
	"reflect"
	"unsafe"

	"github.com/godlpack/godlpack/cpython"
	"github.com/godlpack/godlpack/internal/fmt"
)

// A Constant is a module attribute of a fixed value: a bool, an integer, a
// float, a complex, a string or bytes, made by [Const]. Among a [Class]'s
// members, it is a class attribute.
type Constant struct {
	name  string
	value any
}

// Const returns the module attribute name of value v: a Go bool, integer,
// float, complex, string or []byte, which the module holds as the Python
// value of the same kind (a value of an [Enum]'s Go type is a plain int).
// Another type makes the import fail ([New]).
func Const(name string, v any) Constant { return Constant{name, v} }

// object returns the constant's Python value. nil with an exception.
func (c Constant) object() (*C.PyObject, error) {
	v := reflect.ValueOf(c.value)
	var o *C.PyObject
	switch k := scalarKind(v.Type()); {
	case k == kindBool:
		o = C.PyBool_FromLong(C.long(map[bool]int{false: 0, true: 1}[v.Bool()]))
	case k >= kindInt8 && k <= kindInt64:
		o = C.PyLong_FromLongLong(C.longlong(v.Int()))
	case k >= kindUint8 && k <= kindUint64:
		o = C.PyLong_FromUnsignedLongLong(C.ulonglong(v.Uint()))
	case k == kindFloat32 || k == kindFloat64:
		o = C.PyFloat_FromDouble(C.double(v.Float()))
	case k == kindComplex64 || k == kindComplex128:
		z := v.Complex()
		o = C.PyComplex_FromDoubles(C.double(real(z)), C.double(imag(z)))
	case k == kindString, k == kindBytes:
		b := []byte(v.String())
		if k == kindBytes {
			b = v.Bytes()
		}
		p := (*C.char)(C.CBytes(b))
		if k == kindString {
			o = C.PyUnicode_FromStringAndSize(p, C.Py_ssize_t(len(b)))
		} else {
			o = C.PyBytes_FromStringAndSize(p, C.Py_ssize_t(len(b)))
		}
		C.free(unsafe.Pointer(p))
	default:
		return nil, fmt.Errorf("constant %s: a Go %v cannot go to Python", c.name, v.Type())
	}
	if o == nil {
		return nil, cpython.PythonError("making constant " + c.name)
	}
	return o, nil
}

// stub is the constant's line in a stub.
func (c Constant) stub() string {
	t := kinds[scalarKind(reflect.TypeOf(c.value))].stubResult
	return fmt.Sprintf("%s: Final[%s]\n", c.name, t)
}

func (c Constant) in(s step, b *builder) (string, error) {
	switch s {
	case stepDeclare:
		return c.name, nil
	case stepMake:
		o, err := c.object()
		if err != nil {
			return "", err
		}
		return "", b.add(c.name, o)
	case stepStub:
		if c.value == nil || scalarKind(reflect.TypeOf(c.value)) == kindNone {
			return "", fmt.Errorf("%s: constant %s: a Go %T cannot go to Python", b.st.module, c.name, c.value)
		}
		return c.stub(), nil
	}
	return "", nil
}
