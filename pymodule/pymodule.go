// Package pymodule makes ordinary Go functions and types the functions and
// classes of a Python extension module, with no C to write: the binder of a
// Go extension built with go build -buildmode=c-shared. godlpack's
// docs/binder.md states its rules, item by item.
//
// A [Module] describes the extension: its name, its docstring and its items
// ([Item]): functions ([Def]), classes ([NewClass]), enums ([NewEnum]),
// exception classes ([NewException]) and constants ([Const]).
// [Module.Init] makes the module object that the extension's PyInit_<name>
// returns, and [Module.Main] writes the module's type stub when the package
// runs as a program ([New] makes the module without a stub):
//
//	func clip(x pymodule.Tensor, lo, hi float64) (raised, lowered int64) { … }
//
//	var module = pymodule.Module{Name: "rowstats", Doc: "Row statistics.", Items: []pymodule.Item{
//		pymodule.Def("clip_", "x: tensor[float32|float64, writable], /, lo=-inf, hi=inf", pymodule.F3R2(clip),
//			"Clip x in place to [lo, hi]; return the counts raised and lowered."),
//	}}
//
//	//export PyInit_rowstats
//	func PyInit_rowstats() *C.PyObject { return (*C.PyObject)(module.Init()) } // nil with the exception set
//
//	func main() { module.Main() } // go run . -pyi rowstats.pyi writes the stub
//
// A function is registered with its Python parameters, written as Python
// writes them, defaults, positional-only "/" and keyword-only "*" included.
// The adapter (F3R2 here: three parameters, two results; [F0] … [F10R3E])
// carries the Go types; [Def] reads them once, at registration, and plans
// each conversion. A call parses its arguments in C (vectorcall, keywords
// included), converts numbers in C, takes every tensor argument through
// package [capsule]'s import path, and crosses into Go once with one C
// struct; results come back the same way. No reflection and no Go heap
// allocation happen per call (a function's own allocations aside, string
// arguments, which are copied, and callbacks, each a Go func value made for
// its call).
//
// Parameters and results map Go types to Python values:
//
//	bool                        bool (and NumPy's bool)
//	int8 … int64, uint8 … uint64 int, or any object with __index__; OverflowError when out of range
//	float32, float64            float, int (OverflowError beyond float64), anything with __float__
//	complex64, complex128       complex, float, int
//	string, []byte              str, bytes (copied into Go)
//	Tensor                      any DLPack producer: NumPy, PyTorch, JAX, godlpack, a capsule (parameters)
//	[]T of numbers              a 1-D C-contiguous tensor of T's dtype, converted for the call (parameters);
//	                            a tensor over the slice, zero-copy (results)
//	Array                       a tensor over its memory, zero-copy (results)
//	Optional[T]                 T or None (parameters)
//	capsule.Object              any object (borrowed as a parameter, a new reference as a result)
//	*T of a Class               an instance of the class: one Python object per pointer
//	E of an Enum                a member of the enum (or, as a parameter, an int one of its members has)
//	a Go func type              any callable, which the Go function calls back (parameters)
//
// A tensor result is the module's Tensor by default: the module holds
// Tensor, DType and Device ([capsule.AddTensorTypes]; rowstats.Tensor in a
// module rowstats), the same object as godlpack.Tensor, over the Go or C
// memory without a copy and keeping it alive. [Function.Returning] makes it
// a NumPy array, a PyTorch tensor or a godlpack.Tensor instead.
//
// A last result of type error becomes the Python exception of the
// [ExceptionClass] it selects, or else of [capsule.ExceptionOf] (a
// RuntimeError for an error that names none); several results come back as
// a tuple.
//
// A tensor parameter's annotation says what it accepts, as nanobind's
// nb::ndarray<…> does: "x: tensor[float32|float64, (*, 3), C, writable]".
// Its items, in any order: dtypes joined by '|' (any dtype when none); a
// shape, with "*" for any size ("()" for 0-d; any number of dimensions when
// none); "C" or "F" for a contiguous layout; "writable" for a tensor the
// function writes in place (read-only, legacy, copied and self-overlapping
// tensors are refused); "device=name" (the default, "cpu", takes any memory
// the CPU reads; "any" takes every device); "convert" to accept a tensor of
// another layout, or a bool, integer or float tensor where float32 or
// float64 is asked, by a copy for the call (never with "writable").
// Mistakes name the function and the argument: "row_norms(): argument 'x'
// must be a 2-D float32 or float64 tensor, got a 3-D int64 one". Errors
// never name Go packages.
//
// A [Class] is a Go type T bound by [NewClass]: its instances hold a *T,
// which lives as long as the Python object. [Init] is its constructor,
// [Method] and [StaticMethod] its methods, [Property] its properties,
// [Const] its class attributes, [Repr] its repr (a String method
// otherwise), [Equality] its == and hash (identity otherwise) and [Pickle]
// its pickling. A call that releases the GIL holds the instances it takes:
// another call that takes one of them meanwhile raises RuntimeError.
//
// A parameter of a Go function type takes a Python callable: the Go function
// gets a func value that calls it, taking the GIL for each call, with its
// arguments converted as a bound function's results are and its results as
// a bound function's arguments are. An exception the callable raises is the
// one the bound call raises, with its traceback. The func value is the
// call's: once the call returns it calls nothing ([ErrCallbackExpired]).
//
// [NewEnum] binds a Go named integer type as an enum.IntEnum of the module,
// [NewException] makes an exception class that Go errors select, and
// [Const] a module attribute of a bool, a number, a string or bytes.
//
// Functions are built-in functions of their module: __module__, __qualname__,
// pickling by name, __text_signature__ (inspect.signature) and __doc__ are
// CPython's own. A call in a process forked after the module was imported
// raises RuntimeError (the Go runtime does not survive fork); a panic
// becomes a RuntimeError. [Function.WithoutGIL] releases the GIL around the
// Go work, which then must not touch Python objects; the tensors it received
// stay valid until it returns.
//
// Every Go extension carries its own Go runtime: [New] joins it to the
// process's others through [capsule.ClaimProcess] (on Linux with glibc they
// share the process; elsewhere the second one is an ImportError).
//
// The Go runtime preempts long-running Go code by sending SIGURG to its
// thread. A Python program that installs a SIGURG handler of its own
// replaces the runtime's and then sees those signals too. Only the
// environment the process starts with can turn them off
// (GODEBUG=asyncpreemptoff=1): //go:debug and go.mod refuse that setting,
// and the runtime has read the environment before any code of the
// extension runs. Turning them off lets the garbage collector wait for
// loops it can no longer interrupt (godlpack's bench/preemption.py measures it).
package pymodule

/*
#cgo CFLAGS: -I${SRCDIR}/../dlpack -I${SRCDIR}/../producer -I${SRCDIR}/../consumer -I${SRCDIR}/../capsule -O2 -Wall -Wextra -Wno-unused-parameter
#include <stdlib.h>
#include "module.h"
*/
import "C"

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"
	"unsafe"

	"github.com/godlpack/godlpack/capsule"
	"github.com/godlpack/godlpack/consumer"
	"github.com/godlpack/godlpack/internal/preempt"
	"github.com/godlpack/godlpack/internal/pysig"
	"github.com/godlpack/godlpack/producer"
	"github.com/godlpack/godlpack/scalar"
)

// call is the C struct of one call (module.h's gdl_call).
type call = C.gdl_call

// Optional is a parameter (or a callback's result) that may be None: Valid
// is false for None (or an argument not passed whose default is None). A
// function's result cannot be an Optional.
type Optional[T any] struct {
	Value T
	Valid bool
}

func (Optional[T]) optional() {}

// Some returns an [Optional] holding v.
func Some[T any](v T) Optional[T] { return Optional[T]{Value: v, Valid: true} }

type optionalType interface{ optional() }

// A Fn is a Go function with its types, made by one of the adapters [F0] …
// [F10R3E]: F and the number of parameters, then R and the number of
// results (R alone for one), then E when a last, extra result is an error.
// [Def], [Method], [StaticMethod] and a [Class]'s members bind it.
type Fn struct {
	in, out []reflect.Type
	err     bool
	bind    func(b *binding) func(*call) error
}

// A Function is one function of a module made by [New] or [Module.Init]:
// make it with [Def]. [Method] and [StaticMethod] make a [Class]'s.
type Function struct {
	name, params, doc string
	fn                Fn
	releaseGIL        bool
	returnAs          ReturnKind
	role              funcRole
	class             *classDef // a class's function: its class
}

// A funcRole is what a bound function is to Python.
type funcRole uint8

const (
	roleFunction funcRole = iota // a module's function
	roleInit                     // a class's constructor: returns a *T
	roleMethod                   // a method: takes the instance first
	roleStatic                   // a static method of a class
	roleGetter                   // a property's getter: the instance alone
	roleSetter                   // a property's setter: the instance and the value
)

// takesSelf says whether the Go function's first parameter is the instance.
func (r funcRole) takesSelf() bool { return r == roleMethod || r == roleGetter || r == roleSetter }

// qualname is the function's name as Python qualifies it, and as its errors name it.
func (f *Function) qualname() string {
	switch {
	case f.class == nil:
		return f.name
	case f.role == roleInit:
		return f.class.name
	}
	return f.class.name + "." + f.name
}

// ReturnKind says what a bound function's tensor results are.
type ReturnKind int

const (
	// AsTensor returns tensor results as the module's Tensor objects
	// ([capsule.AddTensorTypes]; rowstats.Tensor in a module rowstats, the
	// same object as godlpack.Tensor): shape, dtype, device, repr, the
	// buffer protocol, tolist, pickling, the DLPack methods and the exchange
	// table, over the result's memory without a copy.
	AsTensor ReturnKind = C.GDL_RETURN_TENSOR
	// AsNumPy returns them as NumPy arrays over the same memory, whose base is
	// the module's Tensor: made by NumPy's C API, or for a dtype the buffer
	// protocol lacks (bfloat16, the float8s) by numpy.from_dlpack.
	AsNumPy ReturnKind = C.GDL_RETURN_NUMPY
	// AsTorch returns them as PyTorch tensors over the same memory: made by
	// torch's C exchange API (torch.Tensor.__dlpack_c_exchange_api__), or for
	// a dtype torch may refuse (uint16, uint32, uint64) by torch.from_dlpack.
	AsTorch ReturnKind = C.GDL_RETURN_TORCH
	// AsGodlpack returns them as godlpack.Tensor objects over the same memory
	// (godlpack.from_dlpack): shape, dtype, device, repr, the buffer
	// protocol, tolist, pickling. The godlpack package must be installed;
	// its Go runtime shares the process with the extension's.
	AsGodlpack ReturnKind = C.GDL_RETURN_GODLPACK
)

// Def describes a function named name whose Python parameters are params, a
// parameter list as Python writes it ("x, /, lo=-inf, hi=inf", see
// package documentation), one per parameter of fn in order, and whose
// docstring is doc. Defaults are Python literals of the parameter's type:
// numbers (inf, -inf and nan for floats), True and False, quoted strings,
// bytes (b'…'), an [Enum]'s member by name (Mode.FAST), None for an
// [Optional] or a [capsule.Object]. Def checks nothing; [New] reports what
// is wrong.
func Def(name, params string, fn Fn, doc string) Function {
	return Function{name: name, params: params, doc: doc, fn: fn}
}

// WithoutGIL returns f set to release the GIL while its Go code runs, as
// nanobind's gil_scoped_release: other Python threads run meanwhile. The
// function must not touch Python objects ([capsule.Object] arguments among
// them); it may call its callbacks, which take the GIL back for each call.
// It holds the instances of classes it takes until it returns ([Class]).
func (f Function) WithoutGIL() Function { f.releaseGIL = true; return f }

// Returning returns f set to return its tensor results as k: [AsTensor]
// (the default), [AsNumPy], [AsTorch] or [AsGodlpack].
func (f Function) Returning(k ReturnKind) Function { f.returnAs = k; return f }

// bindings holds every bound function of the extension, by id: C passes the id back, which is all
// godlpackBindCall gets (with the GIL perhaps released, hence the atomic pointer), so the table is the
// library's rather than a module's.
var (
	bindingsMu sync.Mutex
	bindings   atomic.Pointer[[]*binding]
)

// register makes b's C record, which calls read, and gives it its id.
func (b *binding) register() (*C.gdl_bound, error) {
	cb := b.cStruct()
	if cb == nil {
		return nil, capsule.PythonError("binding " + b.qualname())
	}
	bindingsMu.Lock()
	var list []*binding
	if p := bindings.Load(); p != nil {
		list = *p
	}
	cb.id = C.int32_t(len(list))
	list = append(list[:len(list):len(list)], b)
	bindings.Store(&list)
	bindingsMu.Unlock()
	C.gdl_bound_finish(cb)
	return cb, nil
}

// A binding is the plan of one bound function.
type binding struct {
	Function
	callbacks bool // a parameter takes a callback, which expires when the call returns
	// runsPython says whether a parameter takes a callback or a Python
	// object, whose code Go may run: C makes such a call a fork exit.
	runsPython bool
	params     []param
	tensors    []int // the indices of tensor parameters
	results    []kind
	outs       []outPlan
	call       func(*call) error
	signature  []pysig.Param
}

// A param is the plan of one parameter.
type param struct {
	name     string
	kind     kind
	optional bool
	validOff uintptr // Optional's Valid field
	dflt     string
	hasDflt  bool
	tensor   *tensorSpec
	class    *classDef     // an instance parameter's class
	enum     *enumDef      // an int parameter of an enum's Go type
	callback *callbackPlan // a callback parameter's
	slice    bool          // a []T: a 1-D tensor of T's dtype, decoded as its elements
	place    int8          // where a call reads the argument (arg)
}

// A scope is what a module's plans may name: the classes and enums of the
// module and those the library made before.
type scope struct {
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

// count is n things, in words: "1 parameter", "2 parameters".
func count(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return fmt.Sprintf("%d %ss", n, thing)
}

// plan checks f and plans its conversions, naming the classes and enums of
// sc: the only reflection there is.
func plan(f Function, sc *scope) (*binding, error) {
	ps, err := pysig.Parse(f.params)
	if err != nil {
		return nil, err
	}
	if f.role.takesSelf() {
		// The instance is the first parameter, by position only; a method's parameters are the others.
		self := pysig.Param{Name: "self", Kind: pysig.PositionalOnly}
		for _, p := range ps {
			if p.Name == "self" {
				return nil, fmt.Errorf("parameters %q name self, which a method's parameters leave out", f.params)
			}
		}
		ps = append([]pysig.Param{self}, ps...)
		if len(f.fn.in) == 0 || f.fn.in[0] != f.class.typ {
			return nil, fmt.Errorf("the Go function's first parameter must be the instance, a %v", f.class.typ)
		}
	}
	if f.role == roleInit && (len(f.fn.out) != 1 || f.fn.out[0] != f.class.typ) {
		return nil, fmt.Errorf("the constructor must return a %v (and an error, or not)", f.class.typ)
	}
	if len(ps) != len(f.fn.in) {
		if f.role.takesSelf() { // counted as the author wrote them: the instance is in neither
			return nil, fmt.Errorf("parameters %q name %s, and the Go function has %s besides its first, the instance",
				f.params, count(len(ps)-1, "parameter"), count(len(f.fn.in)-1, "parameter"))
		}
		return nil, fmt.Errorf("parameters %q name %s, and the Go function has %d", f.params, count(len(ps), "parameter"), len(f.fn.in))
	}
	if len(ps) > C.GDL_BIND_MAX_PARAMS {
		return nil, fmt.Errorf("%d parameters: at most %d are supported", len(ps), C.GDL_BIND_MAX_PARAMS)
	}
	if len(f.fn.out) > C.GDL_BIND_MAX_RESULTS {
		return nil, fmt.Errorf("%d results: at most %d are supported", len(f.fn.out), C.GDL_BIND_MAX_RESULTS)
	}
	if !identifier(f.name) {
		return nil, fmt.Errorf("%q is not a Python name", f.name)
	}
	b := &binding{Function: f, signature: ps}
	required := true
	for i, p := range ps {
		t := f.fn.in[i]
		bp, err := paramOf(t, sc)
		if err != nil {
			return nil, fmt.Errorf("parameter %s: %v", p.Name, err)
		}
		bp.name, bp.dflt, bp.hasDflt = p.Name, p.Default, p.HasDefault
		spec, isTensor, err := pysig.ParseTensor(p.Annotation)
		switch {
		case err != nil:
			return nil, fmt.Errorf("parameter %s: %v", p.Name, err)
		case isTensor && bp.kind != kindTensor:
			return nil, fmt.Errorf("parameter %s: a tensor annotation on a Go %v", p.Name, t)
		case bp.kind == kindTensor:
			if bp.slice {
				if spec, err = sliceSpec(t, spec, isTensor); err != nil {
					return nil, fmt.Errorf("parameter %s: %v", p.Name, err)
				}
			} else if !isTensor {
				spec = pysig.Tensor{Device: "cpu"}
			}
			if bp.tensor, err = resolveTensor(spec); err != nil {
				return nil, fmt.Errorf("parameter %s: %v", p.Name, err)
			}
			b.tensors = append(b.tensors, i)
		}
		if p.HasDefault {
			required = false
			if err := bp.checkDefault(); err != nil {
				return nil, fmt.Errorf("parameter %s: %v", p.Name, err)
			}
		} else if !required {
			return nil, fmt.Errorf("parameter %s: a required keyword-only parameter after one with a default is not supported", p.Name)
		}
		bp.place = bp.placeOf()
		b.params = append(b.params, bp)
		b.callbacks = b.callbacks || bp.kind == kindCallback
		b.runsPython = b.runsPython || bp.kind == kindCallback || bp.kind == kindObject
	}
	if len(b.tensors) > C.GDL_BIND_MAX_TENSORS {
		return nil, fmt.Errorf("%d tensor parameters: at most %d are supported", len(b.tensors), C.GDL_BIND_MAX_TENSORS)
	}
	for j, t := range f.fn.out {
		o, err := resultOf(t, sc)
		if err != nil {
			return nil, fmt.Errorf("result %d: %v", j, err)
		}
		b.results = append(b.results, o.kind)
		b.outs = append(b.outs, o)
	}
	b.call = f.fn.bind(b)
	return b, nil
}

func identifier(s string) bool {
	ps, err := pysig.Parse(s)
	return err == nil && len(ps) == 1 && ps[0].Name == s
}

var (
	tensorType = reflect.TypeFor[Tensor]()
	objectType = reflect.TypeFor[capsule.Object]()
	arrayType  = reflect.TypeFor[Array]()
	numberType = reflect.TypeFor[scalar.Scalar]()
	errorType  = reflect.TypeFor[error]()
)

// scalarKind is the kind of a Go number, bool or string type, or of []byte.
func scalarKind(t reflect.Type) kind {
	if t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.Uint8 {
		return kindBytes
	}
	return goKinds[t.Kind()] // kindNone for any other type
}

// paramOf plans a parameter of Go type t: its kind, and what it names.
func paramOf(t reflect.Type, sc *scope) (param, error) {
	if t.Implements(reflect.TypeFor[optionalType]()) {
		p, err := paramOf(t.Field(0).Type, sc)
		p.optional, p.validOff = true, t.Field(1).Offset
		return p, err
	}
	switch t {
	case tensorType:
		return param{kind: kindTensor}, nil
	case objectType:
		return param{kind: kindObject}, nil
	case numberType:
		return param{kind: kindNumber}, nil
	}
	if c := sc.class(t); c != nil {
		return param{kind: kindInstance, class: c}, nil
	}
	if t.Kind() == reflect.Func {
		cb, err := planCallback(t, sc)
		return param{kind: kindCallback, callback: cb}, err
	}
	if t.Kind() == reflect.Slice && t.Elem().Kind() != reflect.Uint8 && elements[t.Elem().Kind()].pin != nil {
		return param{kind: kindTensor, slice: true}, nil
	}
	k := scalarKind(t)
	if k == kindNone {
		return param{}, fmt.Errorf("a Go %v cannot come from Python", t)
	}
	return param{kind: k, enum: sc.enum(t)}, nil
}

// An outPlan says how a result is made: its kind, and for a tensor from an
// Array or by pinning a slice, for an instance its class, for an enum's Go
// type its enum.
type outPlan struct {
	kind  kind
	pin   func(data unsafe.Pointer, n int) (Array, error)
	class *classDef
	enum  *enumDef
}

// resultOf plans a result of Go type t.
func resultOf(t reflect.Type, sc *scope) (outPlan, error) {
	switch t {
	case arrayType:
		return outPlan{kind: kindTensor}, nil
	case objectType:
		return outPlan{kind: kindObject}, nil
	case numberType:
		return outPlan{kind: kindNumber}, nil
	case errorType:
		return outPlan{}, errors.New("an error result must be the last, alone of its type")
	}
	if c := sc.class(t); c != nil {
		return outPlan{kind: kindInstance, class: c}, nil
	}
	if t.Kind() == reflect.Slice && t.Elem().Kind() != reflect.Uint8 {
		if pin := elements[t.Elem().Kind()].pin; pin != nil {
			return outPlan{kind: kindTensor, pin: pin}, nil
		}
	}
	if k := scalarKind(t); k != kindNone {
		return outPlan{kind: k, enum: sc.enum(t)}, nil
	}
	return outPlan{}, fmt.Errorf("a Go %v cannot go to Python", t)
}

// typeName says what a parameter takes, in a TypeError.
func (p *param) typeName() string {
	s := kinds[p.kind].param
	switch {
	case p.class != nil:
		s = "a " + p.class.qualified()
	case p.enum != nil:
		s = "a " + p.enum.name
	}
	if p.optional {
		return s + " or None"
	}
	return s
}

// cStruct makes the C description of b that calls read. nil with an exception.
func (b *binding) cStruct() *C.gdl_bound {
	name, qualname := C.CString(b.name), C.CString(b.qualname())
	doc := C.CString(b.textSignature() + "\n--\n\n" + b.doc)
	cb := C.gdl_bound_new(name, qualname, doc)
	C.free(unsafe.Pointer(name))
	C.free(unsafe.Pointer(qualname))
	C.free(unsafe.Pointer(doc))
	if cb == nil {
		return nil
	}
	if b.class != nil && b.role != roleStatic && b.role != roleInit {
		cb.class_name = C.CString(b.class.qualified())
	}
	cb.nparams = C.int(len(b.params))
	cb.ntensors = C.int(len(b.tensors))
	cb.nresults = C.int(len(b.results))
	cb.release_gil = C.bool(b.releaseGIL)
	cb.callbacks = C.bool(b.callbacks)
	cb.runs_python = C.bool(b.runsPython)
	cb.return_as = C.int(b.returnAs)
	for j, k := range b.results {
		cb.results[j] = C.uint8_t(k)
		if e := b.outs[j].enum; e != nil {
			cb.result_enums[j] = e.object
		}
	}
	required, positional := 0, 0
	for i, p := range b.params {
		cp := &cb.params[i]
		cp.name = C.CString(p.name)
		cp.type_name = C.CString(p.typeName())
		cp.kind = C.uint8_t(p.kind)
		cp.optional = C.bool(p.optional)
		if p.tensor != nil {
			p.tensor.fill(cp)
		}
		if p.class != nil {
			cp.class_id = C.int32_t(p.class.table.id)
		}
		if p.enum != nil {
			cp.enum_type = p.enum.object
		}
		if p.callback != nil && !p.callback.cStructs(b, p.name) {
			cb.nparams = C.int(i + 1)
			C.gdl_bound_free(cb)
			return nil
		}
		if !p.hasDflt && required == i {
			required++
		}
		if b.signature[i].Kind == pysig.PositionalOnly {
			cb.sig.positional_only++
		}
		if b.signature[i].Kind != pysig.KeywordOnly {
			positional++
		}
		if p.hasDflt {
			if err := p.setDefault(cp, true); err != nil {
				raiseImportError(fmt.Sprintf("%s: parameter %s: %v", b.qualname(), p.name, err))
				cb.nparams = C.int(i + 1)
				C.gdl_bound_free(cb)
				return nil
			}
		}
	}
	cb.sig.required = C.int(required)
	cb.sig.max_positional = C.int(positional)
	return cb
}

// textSignature is the first line of the docstring that inspect.signature reads.
func (b *binding) textSignature() string {
	var parts []string
	star := false
	for i, p := range b.signature {
		if p.Kind == pysig.KeywordOnly && !star {
			parts = append(parts, "*")
			star = true
		}
		s := p.Name
		if p.HasDefault {
			s += "=" + pythonDefault(b.params[i].kind, p.Default)
		}
		if i == 0 && b.role.takesSelf() {
			s = "$self" // inspect leaves it out of a bound method's signature, as of a C method's
		}
		parts = append(parts, s)
		if p.Kind == pysig.PositionalOnly && (i+1 == len(b.signature) || b.signature[i+1].Kind != pysig.PositionalOnly) {
			parts = append(parts, "/")
		}
	}
	switch b.role {
	case roleFunction:
		parts = append([]string{"$module"}, parts...)
	case roleInit:
		return b.class.name + "(" + strings.Join(parts, ", ") + ")"
	}
	return b.name + "(" + strings.Join(parts, ", ") + ")"
}

// pythonDefault writes a default so that inspect's parser of text
// signatures evaluates it: inf has no literal, but 1e999 is one.
func pythonDefault(k kind, d string) string {
	if k != kindFloat32 && k != kindFloat64 {
		return d
	}
	switch strings.ToLower(strings.TrimPrefix(d, "+")) {
	case "inf", "infinity":
		return "1e999"
	case "-inf", "-infinity":
		return "-1e999"
	}
	return d
}

// fail writes the error exc with its message, whole and byte for byte, into
// c: in the call's own room, or in C memory for a long one. Where the C
// allocator has none, the message is cut to the room, at a character
// boundary, with a mark that says so.
func fail(c *call, exc capsule.Exception, msg string) {
	c.error = C.int(exc)
	if room := C.gdl_message_room(c, C.size_t(len(msg))); room != nil {
		copy(unsafe.Slice((*byte)(unsafe.Pointer(room)), len(msg)), msg)
		return
	}
	const mark = " [message cut: no memory for the rest]"
	n := C.GDL_BIND_ERROR_LEN - len(mark)
	for n > 0 && !utf8.RuneStart(msg[n]) {
		n--
	}
	room := C.gdl_message_room(c, C.size_t(n+len(mark)))
	copy(unsafe.Slice((*byte)(unsafe.Pointer(room)), n+len(mark)), msg[:n]+mark)
}

// goPackages are the prefixes Go packages put on their errors: a Python user never sees them.
var goPackages = strings.NewReplacer("consumer: ", "", "producer: ", "", "dlpack: ", "", "capsule: ", "", "ops: ", "",
	"pymodule: ", "")

// godlpackBindCall runs the Go function of a call: its tensor arguments that
// failed their parameter's spec in C (converted, or refused in words), the
// function, its results. It never touches Python objects (the GIL may be
// released) and never lets a panic through.
//
//export godlpackBindCall
func godlpackBindCall(c *call) {
	b := (*bindings.Load())[c.fn.id]
	defer func() {
		if p := recover(); p == forkedInCallback {
			c.error = forkedKind // a forked child: nothing more may run
		} else if p != nil {
			fail(c, capsule.RuntimeError, fmt.Sprintf("%s(): internal error: %v", b.qualname(), p))
		}
	}()
	if b.callbacks {
		defer expireCallbacks(c)
	}
	if checkSlices {
		defer revokeSlices(c)
	}
	if C.gdl_ndead != 0 && !b.releaseGIL { // the GIL is held: let go of the values of instances that died
		releaseDead()
	}
	if bool(c.repair) && b.releaseGIL {
		preempt.Restore() // the GIL is released for work the runtime must be able to preempt, on a suspect thread
	}
	if c.unchecked != 0 {
		b.callAdmitted(c)
		return
	}
	if err := b.call(c); err != nil {
		b.failCall(c, err)
	}
}

// The errors of a call that are no Python exception of the protocol's (module.h).
const (
	pythonErrorKind = C.GDL_BIND_PYTHON_ERROR // the Python exception Go found set
	forkedKind      = C.GDL_BIND_FORKED       // capsule.ErrForked
	classErrorKind  = C.GDL_BIND_CLASS_ERROR  // an ExceptionClass of a module's (gdl_call.raise)
)

// failCall writes into c the error err of b's Go function: its message
// after the function's name (once, should the message name it already),
// and the exception to raise, or GDL_BIND_PYTHON_ERROR for an error that
// wraps capsule.ErrPython, whose Python exception is set already and is
// the one the caller must see. capsule.ErrForked is written as it is.
func (b *binding) failCall(c *call, err error) {
	if err == capsule.ErrForked { // nothing more may run: no message to make
		c.error = forkedKind
		return
	}
	msg := goPackages.Replace(err.Error())
	if prefix := b.qualname() + "(): "; !strings.HasPrefix(msg, prefix) {
		msg = prefix + msg
	}
	exc := exceptionOf(err)
	if errors.Is(err, capsule.ErrPython) {
		exc = pythonErrorKind
	} else if class := exceptionClassOf(err); class != nil {
		exc = classErrorKind
		c.raise = class.object
	}
	fail(c, exc, msg)
}

// callAdmitted is the call of a function some of whose tensor arguments
// failed their spec in C: each is converted where its parameter allows, or
// the call fails with what is wrong; conversions are released when the call
// is done. Apart, so that the common call keeps no room for them.
func (b *binding) callAdmitted(c *call) {
	var copies [C.GDL_BIND_MAX_TENSORS]*producer.Buffer
	defer func() {
		for _, buf := range copies {
			if buf != nil {
				buf.Release()
			}
		}
	}()
	if !b.admit(c, &copies) {
		return
	}
	if err := b.call(c); err != nil {
		b.failCall(c, err)
	}
}

// admit takes the tensor arguments of c that failed their spec in C: each is
// converted where its parameter allows, or the call fails with what is
// wrong. It reports whether the call may go on.
func (b *binding) admit(c *call, copies *[C.GDL_BIND_MAX_TENSORS]*producer.Buffer) bool {
	for k, i := range b.tensors {
		if c.unchecked&(1<<k) == 0 || !c.args[i].present {
			continue
		}
		spec := b.params[i].tensor
		a := &c.tensors[*(*int32)(unsafe.Pointer(&c.args[i].v))]
		exc, msg := spec.refuse(C.int(c.faults[k]), tensorArg(a))
		if exc != 0 && spec.convertible {
			var err error
			if copies[k], err = spec.convert(a); err != nil {
				fail(c, exceptionOf(err), fmt.Sprintf("%s(): argument '%s': %v", b.qualname(), b.params[i].name, goPackages.Replace(err.Error())))
				return false
			}
			if copies[k] != nil {
				exc, msg = spec.refuse(C.gdl_spec_fault(&c.fn.params[i], &a.imp.v), tensorArg(a))
			}
		}
		if exc != 0 {
			fail(c, exc, fmt.Sprintf("%s(): argument '%s' %s", b.qualname(), b.params[i].name, msg))
			return false
		}
	}
	return true
}

// exceptionOf is capsule.ExceptionOf, but an error that names no Python
// exception and none of the tensor faults (read-only, device, released)
// is a RuntimeError, as nanobind makes of a C++ exception.
func exceptionOf(err error) capsule.Exception {
	var ce *consumer.Error
	exc := capsule.ExceptionOf(err)
	if exc != capsule.BufferError || errors.As(err, &ce) || errors.Is(err, consumer.ErrReadOnly) ||
		errors.Is(err, consumer.ErrDevice) || errors.Is(err, consumer.ErrReleased) {
		return exc
	}
	var e *capsule.Error
	if errors.As(err, &e) {
		return exc
	}
	return capsule.RuntimeError
}
