package pymodule

/*
#cgo CFLAGS: -I${SRCDIR}/../dlpack -I${SRCDIR}/../producer -I${SRCDIR}/../consumer -I${SRCDIR}/../cpython -I${SRCDIR}/../capsule -I${SRCDIR}/../pytensor -O2 -Wall -Wextra -Wno-unused-parameter
#include <stdlib.h>
#include "pymodule.h"
*/
import "C"

import (
	"slices"

	"github.com/godlpack/godlpack/cpython"
	"github.com/godlpack/godlpack/internal/fmt"
)

// call is the C struct of one call (pymodule.h's gdl_call).
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

// A Function is one function of a module made by [New] or [Module.Init]:
// make it with [Def]. [Method] and [StaticMethod] make a [Class]'s.
type Function struct {
	name, params, doc string
	fn                Fn
	releaseGIL        bool
	shared            bool // a method that only reads its instance ([Function.Shared])
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
	// ([pytensor.AddTensorTypes]; rowstats.Tensor in a module rowstats, the
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
// package documentation), one per parameter of fn in order, with what it
// returns after an arrow if the author says ("x, / -> tensor[float32,
// (*)]"), and whose docstring is doc. Defaults are Python literals of the parameter's type:
// numbers (inf, -inf and nan for floats), True and False, quoted strings,
// bytes (b'…'), an [Enum]'s member by name (Mode.FAST), None for an
// [Optional] or a [cpython.Object]. Def checks nothing; [New] reports what
// is wrong.
func Def(name, params string, fn Fn, doc string) Function {
	return Function{name: name, params: params, doc: doc, fn: fn}
}

// WithoutGIL returns f set to release the GIL while its Go code runs, as
// nanobind's gil_scoped_release: other Python threads run meanwhile. The
// function must not touch Python objects ([cpython.Object] arguments among
// them); it may call its callbacks, which take the GIL back for each call.
// It holds the instances of classes it takes until it returns ([Class]).
func (f Function) WithoutGIL() Function { f.releaseGIL = true; return f }

// Returning returns f set to return its tensor results as k: [AsTensor]
// (the default), [AsNumPy], [AsTorch] or [AsGodlpack].
func (f Function) Returning(k ReturnKind) Function { f.returnAs = k; return f }

func (f Function) in(s step, b *builder) (string, error) {
	switch s {
	case stepDeclare:
		if f.role != roleFunction {
			return "", fmt.Errorf("%s: a method or static method belongs to a class, not to a module", f.name)
		}
		return f.name, nil
	case stepMake:
		return "", addFunction(b.m, b.module, f, b.sc)
	case stepStub:
		bd, err := plan(f, b.sc)
		if err != nil {
			return "", fmt.Errorf("%s.%s: %v", b.st.module, f.name, err)
		}
		return b.st.def(bd, ""), nil
	case stepTensors:
		return handing(f.handsTensors(b.sc))
	}
	return "", nil
}

// handsTensors says whether f hands tensors to Python as the module's
// Tensor: a result, or an argument of a callback.
func (f Function) handsTensors(sc *scope) bool {
	b, err := plan(f, sc)
	if err != nil {
		return false
	}
	for j, k := range b.results {
		if k == kindTensor && b.returnAs == AsTensor && b.outs[j].kind == kindTensor {
			return true
		}
	}
	for _, p := range b.params {
		if p.callback != nil && slices.Contains(p.callback.args.results, kindTensor) {
			return true
		}
	}
	return false
}

// addFunction plans f, registers it and adds it to module m.
func addFunction(m *C.PyObject, module string, f Function, sc *scope) error {
	b, err := plan(f, sc)
	if err != nil {
		return fmt.Errorf("%s: %w", f.name, err)
	}
	cb, err := b.register()
	if err != nil {
		return err
	}
	if C.gdl_bound_add(m, cb) != 0 {
		C.gdl_bound_free(cb)
		return cpython.PythonError("adding function " + f.name)
	}
	return nil
}
