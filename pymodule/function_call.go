package pymodule

// #include <stdlib.h>
// #include "pymodule.h"
import "C"

import (
	"errors"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/godlpack/godlpack/cpython"
	"github.com/godlpack/godlpack/internal/fmt"
	"github.com/godlpack/godlpack/internal/preempt"
	"github.com/godlpack/godlpack/producer"
)

// fail writes the error exc with its message, whole and byte for byte, into
// c: in the call's own room, or in C memory for a long one. Where the C
// allocator has none, the message is cut to the room, at a character
// boundary, with a mark that says so.
func fail(c *call, exc cpython.Exception, msg string) {
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
			fail(c, cpython.RuntimeError, fmt.Sprintf("%s(): internal error: %v", b.qualname(), p))
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

// The errors of a call that are no Python exception of the protocol's (pymodule.h).
const (
	pythonErrorKind = C.GDL_BIND_PYTHON_ERROR // the Python exception Go found set
	forkedKind      = C.GDL_BIND_FORKED       // cpython.ErrForked
	classErrorKind  = C.GDL_BIND_CLASS_ERROR  // an ExceptionClass of a module's (gdl_call.raise)
)

// failCall writes into c the error err of b's Go function: its message
// after the function's name (once, should the message name it already),
// and the exception to raise, or GDL_BIND_PYTHON_ERROR for an error that
// wraps cpython.ErrPython, whose Python exception is set already and is
// the one the caller must see. cpython.ErrForked is written as it is.
func (b *binding) failCall(c *call, err error) {
	if err == cpython.ErrForked { // nothing more may run: no message to make
		c.error = forkedKind
		return
	}
	msg := withoutGoPackages(b.named(err))
	if prefix := b.qualname() + "(): "; !strings.HasPrefix(msg, prefix) {
		msg = prefix + msg
	}
	exc := exceptionOf(err)
	if errors.Is(err, cpython.ErrPython) {
		exc = pythonErrorKind
	} else if class := exceptionClassOf(err); class != nil {
		exc = classErrorKind
		c.raise = class.object
	}
	fail(c, exc, msg)
}

// callAdmitted is the call of a function some of whose tensor arguments
// failed their spec in C: each is converted where its parameter allows, or
// the call fails with what is wrong; a writable argument's copy is written
// back into the producer's memory when the function succeeds, and
// conversions are released when the call is done. Apart, so that the
// common call keeps no room for them.
func (b *binding) callAdmitted(c *call) {
	var copies [C.GDL_BIND_MAX_TENSORS]*producer.Buffer
	var origins [C.GDL_BIND_MAX_TENSORS]origin
	defer func() {
		for _, buf := range copies {
			if buf != nil {
				buf.Release()
			}
		}
	}()
	if !b.admit(c, &copies, &origins) {
		return
	}
	if err := b.call(c); err != nil {
		b.failCall(c, err)
		return
	}
	for k, i := range b.tensors {
		if copies[k] != nil && b.params[i].tensor.writable {
			t := tensorArg(&c.tensors[*(*int32)(unsafe.Pointer(&c.args[i].v))])
			origins[k].writeBack(t.Data, t.Strides)
		}
	}
}

// admit takes the tensor arguments of c that failed their spec in C: each is
// converted where its parameter allows (a writable one's view kept in
// origins), or the call fails with what is wrong. It reports whether the
// call may go on.
func (b *binding) admit(c *call, copies *[C.GDL_BIND_MAX_TENSORS]*producer.Buffer,
	origins *[C.GDL_BIND_MAX_TENSORS]origin) bool {
	for k, i := range b.tensors {
		if c.unchecked&(1<<k) == 0 || !c.args[i].present {
			continue
		}
		spec := b.params[i].tensor
		a := &c.tensors[*(*int32)(unsafe.Pointer(&c.args[i].v))]
		exc, msg := spec.refuse(C.int(c.faults[k]), tensorArg(a))
		if exc != 0 && spec.convertible {
			var err error
			if spec.writable {
				origins[k].keep(tensorArg(a).View)
			}
			if copies[k], err = spec.convert(a); err != nil {
				fail(c, exceptionOf(err), fmt.Sprintf("%s(): argument '%s': %v", b.qualname(), b.params[i].name, withoutGoPackages(err.Error())))
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
