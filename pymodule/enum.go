package pymodule

// #include <stdlib.h>
// #include "pymodule.h"
import "C"

import (
	"reflect"
	"strconv"
	"unsafe"

	"github.com/godlpack/godlpack/cpython"
	"github.com/godlpack/godlpack/internal/fmt"
)

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

// has says whether v is the value of one of e's members.
func (e *enumDef) has(v int64) bool {
	for _, m := range e.members {
		if m.value == v {
			return true
		}
	}
	return false
}

// check says what is wrong with the enum's description.
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

func (e Enum) in(s step, b *builder) (string, error) {
	d := e.def
	switch s {
	case stepDeclare:
		if err := d.check(); err != nil {
			return "", err
		}
		if b.sc.enum(d.typ) != nil {
			return "", fmt.Errorf("enum %s: the Go type %v is bound already", d.name, d.typ)
		}
		d.module = b.sc.module
		b.sc.enums[d.typ] = d
		return d.name, nil
	case stepPrepare:
		if err := d.make(b.module); err != nil {
			return "", err
		}
		C.Py_IncRef(d.object) // the enum's own, for its functions' records
		return "", b.add(d.name, d.object)
	case stepStub:
		b.st.imports["enum"] = true
		return d.stub(), nil
	}
	return "", nil
}
