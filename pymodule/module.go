package pymodule

// #include <stdlib.h>
// #include "pymodule.h"
import "C"

import (
	"errors"
	"reflect"
	"sync"
	"unsafe"

	"github.com/godlpack/godlpack/cpython"
	"github.com/godlpack/godlpack/internal/fmt"
	"github.com/godlpack/godlpack/pytensor"
)

// A Module is an extension module's description: its name, docstring and
// items (functions, classes, constants, enums, exception classes), for an
// extension that wants both its module ([Module.Init], from PyInit_<name>)
// and its type stub ([Module.Stub], or [Module.Main] from the package's main
// function) from one description:
//
//	var module = pymodule.Module{Name: "rowstats", Doc: "…", Items: []pymodule.Item{…}}
//
//	//export PyInit_rowstats
//	func PyInit_rowstats() *C.PyObject { return (*C.PyObject)(module.Init()) }
//
//	func main() { module.Main() } // go run ./rowstats -pyi rowstats.pyi
type Module struct {
	Name, Doc string
	Items     []Item // what the module holds, as [New] takes them

	made cpython.Object // the module Init made first, which later calls return
}

// Init returns the module object ([New]), or nil with the Python exception
// set. It makes the module once: CPython calls an extension's PyInit again
// when the module is imported again after it left sys.modules (its
// definition does not let CPython copy it, so that a subinterpreter's import
// runs PyInit, which refuses it there), and Init then returns the same
// module.
func (m *Module) Init() cpython.Object {
	if m.made != nil {
		if cpython.ClaimProcess(m.Name) != nil { // a subinterpreter, after the main interpreter's import
			return nil
		}
		cpython.IncRef(m.made)
		return m.made
	}
	o, _ := New(m.Name, m.Doc, m.Items...)
	if o != nil {
		cpython.IncRef(o)
		m.made = o
	}
	return o
}

// A scope is what a module's plans may name: the classes and enums of the
// module and those the library made before.
type scope struct {
	module  string                     // the module's name
	classes map[reflect.Type]*classDef // by *T
	enums   map[reflect.Type]*enumDef
}

// The classes and enums of the modules made before, which later modules' functions may take and return.
var (
	libraryMu      sync.Mutex
	libraryClasses = map[reflect.Type]*classDef{}
	libraryEnums   = map[reflect.Type]*enumDef{}
)

func (sc *scope) class(t reflect.Type) *classDef {
	if sc != nil && sc.classes[t] != nil {
		return sc.classes[t]
	}
	libraryMu.Lock()
	defer libraryMu.Unlock()
	return libraryClasses[t]
}

func (sc *scope) enum(t reflect.Type) *enumDef {
	if sc != nil && sc.enums[t] != nil {
		return sc.enums[t]
	}
	libraryMu.Lock()
	defer libraryMu.Unlock()
	return libraryEnums[t]
}

// scopeOf checks a module's items and gathers the classes and enums its
// functions may name.
func scopeOf(module string, items []Item) (*scope, error) {
	sc := &scope{module: module, classes: map[reflect.Type]*classDef{}, enums: map[reflect.Type]*enumDef{}}
	names := map[string]bool{}
	b := &builder{module: module, sc: sc}
	for _, it := range items {
		name, err := it.in(stepDeclare, b)
		if err != nil {
			return nil, err
		}
		if names[name] {
			return nil, fmt.Errorf("%s: the module names two things so", name)
		}
		names[name] = true
	}
	return sc, nil
}

// New returns a new extension module object holding items (functions,
// classes, constants, enums and exception classes: [Item]), for the
// extension's PyInit_<name> to return; when its functions hand tensors to
// Python as the module's Tensor, it holds the types Tensor, DType and Device
// too ([pytensor.AddTensorTypes]). The error wraps [cpython.ErrPython]: an
// ImportError when an item's description is wrong (its message says what),
// the ImportError of [cpython.ClaimProcess], or what CPython raised.
func New(name, doc string, items ...Item) (mod cpython.Object, err error) {
	defer func() {
		if p := recover(); p != nil { // no Go panic crosses into C: an import that panics is a RuntimeError
			cpython.Raise(cpython.RuntimeError, "%s: internal error while importing: %v", name, p)
			mod, err = nil, cpython.PythonError("building module "+name)
		}
	}()
	if err := cpython.ClaimProcess(name); err != nil {
		return nil, err
	}
	cname, cdoc := C.CString(name), C.CString(doc)
	m := C.gdl_module_new(cname, cdoc)
	C.free(unsafe.Pointer(cname))
	C.free(unsafe.Pointer(cdoc))
	if m == nil {
		return nil, cpython.PythonError("creating module " + name)
	}
	if err := build(m, name, items); err != nil {
		cpython.DecRef(cpython.Object(m))
		return nil, err
	}
	return cpython.Object(m), nil
}

// build fills module m: its tensor types, then what the functions may name
// (enums, exception classes, the classes' ids), then the functions and the
// classes, then the constants. Every Python object it makes, m holds.
func build(m *C.PyObject, module string, items []Item) error {
	sc, err := scopeOf(module, items)
	if err != nil {
		return importError(module, err)
	}
	// The module holds Tensor, DType and Device when its functions hand Tensors to Python (its stub shows them then).
	tensorTypes := pytensor.ReadyTensorTypes
	if needsTensorTypes(items, sc) {
		tensorTypes = pytensor.AddTensorTypes
	}
	if err := tensorTypes(cpython.Object(m), module); err != nil {
		return err
	}
	b := &builder{m: m, module: module, sc: sc}
	for _, s := range []step{stepPrepare, stepMake} {
		for _, it := range items {
			if _, err := it.in(s, b); err != nil {
				return wrapImport(module, err)
			}
		}
	}
	libraryMu.Lock()
	for t, c := range sc.classes {
		libraryClasses[t] = c
	}
	for t, e := range sc.enums {
		libraryEnums[t] = e
	}
	libraryMu.Unlock()
	return nil
}

// wrapImport makes an error of a description an ImportError naming the
// module; an error wrapping cpython.ErrPython has its exception set already.
func wrapImport(module string, err error) error {
	if errors.Is(err, cpython.ErrPython) {
		return err
	}
	return importError(module, err)
}

// importError raises the ImportError of a module whose description is
// wrong, and returns an error wrapping cpython.ErrPython.
func importError(module string, err error) error {
	raiseImportError(fmt.Sprintf("%s: %v", module, err))
	return cpython.PythonError("building module " + module)
}

// raiseImportError sets ImportError with msg, kept whole whatever its bytes
// (the bytes of a Go string, which hold no pointers, are C's to read for the
// call).
func raiseImportError(msg string) {
	C.gdl_import_error((*C.char)(unsafe.Pointer(unsafe.StringData(msg))), C.Py_ssize_t(len(msg)))
}
