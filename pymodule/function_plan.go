package pymodule

// #include <stdlib.h>
// #include "pymodule.h"
import "C"

import (
	"errors"
	"reflect"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/godlpack/godlpack/cpython"
	"github.com/godlpack/godlpack/dlpack"
	"github.com/godlpack/godlpack/internal/fmt"
	"github.com/godlpack/godlpack/internal/pysig"
	"github.com/godlpack/godlpack/scalar"
)

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
		return nil, cpython.PythonError("binding " + b.qualname())
	}
	if b.role == roleFunction || b.role == roleMethod || b.role == roleStatic { // a function object's __signature__
		cb.signature = C.CString(b.pythonSignature(&stubber{module: b.module, imports: map[string]bool{}}))
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
	module     string // the name of the module it is planned for
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
	params, returns, arrow := pysig.Split(f.params)
	ps, err := pysig.Parse(params)
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
	if err := f.checkShared(); err != nil {
		return nil, err
	}
	if err := planSpecial(&f, ps); err != nil {
		return nil, err
	}
	if f.role == roleInit && arrow {
		return nil, fmt.Errorf("-> %s: a constructor returns its instance, and declares no result", returns)
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
	if sc != nil {
		b.module = sc.module
	}
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
	if arrow {
		if err := b.declareResults(returns); err != nil {
			return nil, err
		}
	}
	if s := f.special(); s != nil {
		if err := s.checkResults(b); err != nil {
			return nil, err
		}
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
	objectType = reflect.TypeFor[cpython.Object]()
	arrayType  = reflect.TypeFor[Array]()
	numberType = reflect.TypeFor[scalar.Scalar]()
	errorType  = reflect.TypeFor[error]()
)

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
	// tensor is a tensor result's dtypes and shape, as its annotation
	// declares them or its slice type says; nil when nothing is known.
	tensor *tensorSpec
	// checked says whether each tensor the function returns is held to
	// tensor (declareResults): what its Go type does not guarantee.
	checked bool
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
		if e := elements[t.Elem().Kind()]; e.pin != nil {
			return outPlan{kind: kindTensor, pin: e.pin, tensor: &tensorSpec{dtypes: []dlpack.DataType{e.dtype}, shape: []int64{-1}}}, nil
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
	cb.operands = C.bool(b.special() != nil && b.special().operands)
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
		cp.shared = C.bool(b.holdsShared(i))
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
