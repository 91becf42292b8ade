package pymodule

// #include <stdlib.h>
// #include "pymodule.h"
import "C"

import (
	"errors"
	"reflect"
	"strconv"
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

// An Enum is a Go named integer type and its constants bound as a Python
// enum.IntEnum of the module, made by [NewEnum]. A parameter of the type
// takes a member of the enum, or an int one of its members has
// (ValueError for another); a result of the type is the member (the enum's
// own ValueError for a value no member has).
type Enum struct{ def *enumDef }

type enumDef struct {
	name, doc string
	module    string // the module's name, once the module is planned
	typ       reflect.Type
	members   []EnumValue
	object    *C.PyObject // the IntEnum, once made
}

// An EnumValue is one named value of an [Enum]: [Value] makes one.
type EnumValue struct {
	name  string
	value int64
}

// Value returns the member name of value v, for [NewEnum].
func Value[E ~int | ~int8 | ~int16 | ~int32 | ~int64 | ~uint8 | ~uint16 | ~uint32](name string, v E) EnumValue {
	return EnumValue{name, int64(v)}
}

// NewEnum binds the Go named integer type E as the Python IntEnum name, of
// the members given (Go cannot list a type's constants: each is named
// here, with [Value]).
//
//	type Mode int
//	const (Fast Mode = iota; Exact)
//	pymodule.NewEnum[Mode]("Mode", "How sums are taken.", pymodule.Value("FAST", Fast), pymodule.Value("EXACT", Exact))
func NewEnum[E ~int | ~int8 | ~int16 | ~int32 | ~int64 | ~uint8 | ~uint16 | ~uint32](name, doc string, members ...EnumValue) Enum {
	return Enum{&enumDef{name: name, doc: doc, typ: reflect.TypeFor[E](), members: members}}
}

// check says what is wrong with the enum's description.
// has says whether v is the value of one of e's members.
func (e *enumDef) has(v int64) bool {
	for _, m := range e.members {
		if m.value == v {
			return true
		}
	}
	return false
}

func (e *enumDef) check() error {
	if !identifier(e.name) {
		return fmt.Errorf("enum %q: not a Python name", e.name)
	}
	if len(e.members) == 0 {
		return fmt.Errorf("enum %s: no members", e.name)
	}
	for _, m := range e.members {
		if !identifier(m.name) {
			return fmt.Errorf("enum %s: member %q is not a Python name", e.name, m.name)
		}
	}
	return nil
}

// make makes the IntEnum, a class of module (named module), by calling
// enum.IntEnum(name, members, module=module, qualname=name).
func (e *enumDef) make(module string) error {
	var lines []byte
	for _, m := range e.members {
		lines = append(lines, fmt.Sprintf("(%q, %d), ", m.name, m.value)...)
	}
	code := fmt.Sprintf("__import__('enum').IntEnum(%q, [%s], module=%q, qualname=%q)", e.name, lines, module, e.name)
	o, err := evalPython(code)
	if err != nil {
		return err
	}
	if e.doc != "" {
		cdoc, attr := C.CString(e.doc), C.CString("__doc__")
		s := C.PyUnicode_FromString(cdoc)
		C.free(unsafe.Pointer(cdoc))
		rc := C.int(-1)
		if s != nil {
			rc = C.PyObject_SetAttrString(o, attr, s)
			C.Py_DecRef(s)
		}
		C.free(unsafe.Pointer(attr))
		if rc != 0 {
			C.Py_DecRef(o)
			return cpython.PythonError("setting the docstring of " + e.name)
		}
	}
	e.object = o
	return nil
}

// stub is the enum's class in a stub.
func (e *enumDef) stub() string {
	s := fmt.Sprintf("class %s(enum.IntEnum):\n", e.name)
	if e.doc != "" {
		s += docstring(e.doc, "    ") + "\n"
	}
	for _, m := range e.members {
		s += fmt.Sprintf("    %s = %s\n", m.name, strconv.FormatInt(m.value, 10))
	}
	return s
}

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

// evalPython returns the value of a Python expression, in the builtins'
// namespace. nil with the exception set.
func evalPython(expr string) (*C.PyObject, error) {
	code := C.CString(expr)
	defer C.free(unsafe.Pointer(code))
	globals := C.PyDict_New()
	if globals == nil {
		return nil, cpython.PythonError("evaluating " + expr)
	}
	defer C.Py_DecRef(globals)
	o := C.PyRun_String(code, C.Py_eval_input, globals, globals)
	if o == nil {
		return nil, cpython.PythonError("evaluating " + expr)
	}
	return o, nil
}
