package pymodule

// #include <pthread.h>
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
	"github.com/godlpack/godlpack/producer"
)

// ErrCallbackExpired is the error of a callback called after the call it
// came with returned (a Go function kept it): the Python callable is no
// longer the call's to use, and nothing is called. A callback whose Go
// function type has no error result returns only zero values then. A call
// of the callback under way when the call returns gets it too: one that
// waited for the GIL calls nothing, and what a callable that was running
// returned or raised is dropped.
var ErrCallbackExpired = errors.New("pymodule: a callback was called after the call it came with returned")

// ErrCallbackThread is the error of a callback called from another
// goroutine than its call's while the call holds the GIL: it could run only
// once the call returned, and a call that waits for that goroutine would
// wait forever. Bind such a function [Function.WithoutGIL], or call the
// callback from the function's own goroutine.
var ErrCallbackThread = errors.New("pymodule: a callback of a call that holds the GIL was called from another goroutine")

// errCallbackRaised is the error a callback returns when its Python code
// raised: the bound call raises that exception when it returns, whatever its
// Go function returns.
var errCallbackRaised = cpython.PythonError("calling a Python callback")

// forkedInCallback is what a callback panics with should Go call one in a
// forked child: the bound call's recovery makes it the fork guard's
// RuntimeError. C keeps Go from getting there: a callback whose Python code
// forked never returns to Go in the child (gdl_callback_invoke).
var forkedInCallback = new(int)

// A callbackPlan is how a parameter of a Go function type calls the Python
// callable it takes: the function's parameters go to Python as a bound
// function's results do (args), its results come back as a bound function's
// parameters do (results), and a last error result says a call failed.
type callbackPlan struct {
	typ      reflect.Type
	args     *binding // whose results are the callback's parameters
	results  *binding // whose parameters are the callback's results
	err      bool
	copies   []bool // a Tensor parameter, which Python gets a copy of
	cargs    *C.gdl_bound
	cresults *C.gdl_bound
}

// planCallback plans a callback of Go function type t.
func planCallback(t reflect.Type, sc *scope) (*callbackPlan, error) {
	if t.IsVariadic() {
		return nil, fmt.Errorf("a callback of type %v: a variadic callback is not supported", t)
	}
	cb := &callbackPlan{typ: t, args: &binding{}, results: &binding{}}
	if t.NumIn() > C.GDL_BIND_MAX_RESULTS*4 || t.NumIn() > C.GDL_BIND_MAX_PARAMS {
		return nil, fmt.Errorf("a callback of type %v: at most %d parameters are supported", t, C.GDL_BIND_MAX_PARAMS)
	}
	for i := range t.NumIn() {
		in := t.In(i)
		var o outPlan
		var err error
		if in == tensorType {
			o = outPlan{kind: kindTensor} // a copy, made as Python calls: the view is the call's only
		} else if o, err = resultOf(in, sc); err != nil {
			return nil, fmt.Errorf("a callback of type %v: parameter %d: %v", t, i, err)
		}
		if o.kind == kindObject {
			return nil, fmt.Errorf("a callback of type %v: a cpython.Object parameter is not supported", t)
		}
		cb.args.results = append(cb.args.results, o.kind)
		cb.args.outs = append(cb.args.outs, o)
		cb.copies = append(cb.copies, in == tensorType)
	}
	if len(cb.args.results) > C.GDL_BIND_MAX_RESULTS {
		return nil, fmt.Errorf("a callback of type %v: at most %d parameters are supported", t, C.GDL_BIND_MAX_RESULTS)
	}
	n := t.NumOut()
	if n > 0 && t.Out(n-1) == errorType {
		cb.err, n = true, n-1
	}
	for i := range n {
		p, err := paramOf(t.Out(i), sc)
		if err == nil && (p.kind == kindTensor || p.kind == kindObject || p.kind == kindCallback) {
			err = fmt.Errorf("a %v result is not supported", t.Out(i))
		}
		if err != nil {
			return nil, fmt.Errorf("a callback of type %v: result %d: %v", t, i, err)
		}
		p.name = "result"
		if n > 1 {
			p.name = fmt.Sprintf("result %d", i)
		}
		p.place = p.placeOf()
		cb.results.params = append(cb.results.params, p)
		cb.results.signature = append(cb.results.signature, pysig.Param{Name: p.name, Kind: pysig.PositionalOnly})
	}
	return cb, nil
}

// cStructs makes the callback's C records, named after the function whose
// parameter it is. false with an exception.
func (cb *callbackPlan) cStructs(owner *binding, param string) bool {
	who := owner.qualname() + "(): callback '" + param + "'"
	cb.args.Function = Function{name: who}
	cb.results.Function = Function{name: who}
	if cb.cargs = cb.args.cStruct(); cb.cargs == nil {
		return false
	}
	if cb.cresults = cb.results.cStruct(); cb.cresults == nil {
		return false
	}
	C.gdl_bound_finish(cb.cresults)
	return true
}

// A callbackState is one callback a call made: the callable it calls, until
// the call returns.
type callbackState struct {
	plan     *callbackPlan
	owner    *call
	callable cpython.Object
	expired  atomic.Int32 // C reads it too, with the GIL held (gdl_callback_call.expired)
	thread   C.pthread_t  // the call's thread
	holdsGIL bool         // the call holds the GIL while Go runs
}

// The callbacks of the calls running, by call, to expire when each returns:
// the library's, since a call (of any module's function) is all a callback
// and its expiry know.
var (
	activeMu sync.Mutex
	active   = map[*call][]*callbackState{}
)

// callbackValue makes the Go function value a callback parameter of call c
// gets for the Python callable o.
func (cb *callbackPlan) callbackValue(c *call, o cpython.Object) reflect.Value {
	st := &callbackState{plan: cb, owner: c, callable: o, thread: C.pthread_self(), holdsGIL: !bool(c.fn.release_gil)}
	activeMu.Lock()
	active[c] = append(active[c], st)
	activeMu.Unlock()
	return reflect.MakeFunc(cb.typ, st.invoke)
}

// expireCallbacks ends the callbacks of call c, which returns.
func expireCallbacks(c *call) {
	activeMu.Lock()
	states := active[c]
	delete(active, c)
	activeMu.Unlock()
	for _, st := range states {
		st.expired.Store(1)
	}
}

// invoke calls the Python callable with the Go arguments, and returns its
// results, or zero values and the error: ErrCallbackExpired, or
// errCallbackRaised when Python raised (the bound call raises it).
func (st *callbackState) invoke(args []reflect.Value) []reflect.Value {
	cb := st.plan
	out := make([]reflect.Value, cb.typ.NumOut())
	for i := range out {
		out[i] = reflect.Zero(cb.typ.Out(i))
	}
	fail := func(err error) []reflect.Value {
		if cb.err {
			out[len(out)-1] = reflect.ValueOf(&err).Elem()
		}
		return out
	}
	if st.expired.Load() != 0 {
		return fail(ErrCallbackExpired)
	}
	if cpython.Forked() {
		panic(forkedInCallback)
	}
	if st.holdsGIL && C.pthread_equal(C.pthread_self(), st.thread) == 0 {
		return fail(ErrCallbackThread)
	}
	cc := (*C.gdl_callback_call)(C.calloc(1, C.sizeof_gdl_callback_call))
	c := (*call)(C.malloc(C.sizeof_gdl_call)) // not from the call's spare list: this thread may not hold the GIL
	if cc == nil || c == nil {
		C.free(unsafe.Pointer(cc))
		C.free(unsafe.Pointer(c))
		return fail(producer.ErrNoMemory)
	}
	defer C.free(unsafe.Pointer(cc))
	defer C.free(unsafe.Pointer(c))
	*cc = C.gdl_callback_call{args: cb.cargs, results: cb.cresults, callable: (*C.PyObject)(st.callable),
		owner: st.owner, c: c, expired: (*C.int32_t)(unsafe.Pointer(&st.expired))}
	c.nout = 0
	for j := range args {
		c.results[j].present, c.results[j].by_slot = false, false
	}
	for j, a := range args {
		if err := cb.encode(c, j, a); err != nil {
			C.gdl_callback_drop(cc) // what the arguments before j hold
			return fail(err)
		}
	}
	switch C.gdl_callback_invoke(cc) {
	case -3:
		return fail(ErrCallbackExpired)
	case -1:
		return fail(errCallbackRaised)
	}
	defer C.gdl_callback_done(cc)
	for i, p := range cb.results.params {
		out[i] = cb.decode(c, i, p)
	}
	return out
}

// encode writes the callback's argument j into c's result j, as a bound
// function's results are written.
func (cb *callbackPlan) encode(c *call, j int, a reflect.Value) error {
	o := cb.args.outs[j]
	v := &c.results[j]
	v.present = false
	dst := unsafe.Pointer(&v.v)
	switch o.kind {
	case kindString:
		s := a.String()
		d := C.gdl_result_bytes(unsafe.Pointer(unsafe.StringData(s)), C.size_t(len(s)))
		if d == nil {
			return producer.ErrNoMemory
		}
		*(*cBytes)(dst) = cBytes{d, C.Py_ssize_t(len(s))}
	case kindBytes:
		b := a.Bytes()
		d := C.gdl_result_bytes(unsafe.Pointer(unsafe.SliceData(b)), C.size_t(len(b)))
		if d == nil {
			return producer.ErrNoMemory
		}
		*(*cBytes)(dst) = cBytes{d, C.Py_ssize_t(len(b))}
	case kindTensor:
		var arr Array
		if cb.copies[j] {
			t := a.Interface().(Tensor)
			b, err := producer.CopyOf(t.Data, producer.Layout{Shape: t.Shape, Strides: t.Strides, DType: t.DType,
				Device: t.Device, Flags: t.Flags & dlpack.IsSubbyteTypePadded})
			if err != nil {
				return err
			}
			arr = arrayOf(producer.LeaseOf(b), t.Shape, t.DType)
		} else if o.pin != nil { // a slice, pinned: the callable sees the Go memory itself
			var err error
			if arr, err = o.pin(a.UnsafePointer(), a.Len()); err != nil {
				return err
			}
		} else {
			arr = a.Interface().(Array)
		}
		if err := arr.describe(c, v); err != nil {
			return err
		}
	case kindInstance:
		p := a.UnsafePointer()
		if p == nil {
			return nil // None
		}
		obj, err := o.class.table.instanceOf(p, true)
		if err != nil {
			return err
		}
		*(*cpython.Object)(dst) = obj
	default:
		tmp := reflect.New(a.Type()).Elem()
		tmp.Set(a)
		copyValue(dst, tmp.Addr().UnsafePointer(), kinds[o.kind].size)
	}
	v.present = true
	return nil
}

// decode reads the callback's result i from c's argument i, as a bound
// function's parameters are read.
func (cb *callbackPlan) decode(c *call, i int, p param) reflect.Value {
	t := cb.typ.Out(i)
	out := reflect.New(t).Elem()
	a := &c.args[i]
	if !a.present {
		return out
	}
	dst, src := out.Addr().UnsafePointer(), unsafe.Pointer(&a.v)
	if p.optional {
		dst = out.Field(0).Addr().UnsafePointer()
		out.Field(1).SetBool(true)
	}
	switch p.kind {
	case kindString:
		s := (*cBytes)(src)
		*(*string)(dst) = C.GoStringN(s.p, C.int(s.n))
	case kindBytes:
		s := (*cBytes)(src)
		*(*[]byte)(dst) = C.GoBytes(unsafe.Pointer(s.p), C.int(s.n))
	case kindInstance:
		*(*unsafe.Pointer)(dst) = p.class.table.at(*(*int32)(src))
	default:
		copyValue(dst, src, kinds[p.kind].size)
	}
	return out
}
