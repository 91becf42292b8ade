package pymodule

// #include <stdlib.h>
// #include "pymodule.h"
import "C"

import (
	"reflect"
	"unsafe"

	"github.com/godlpack/godlpack/cpython"
	"github.com/godlpack/godlpack/internal/fmt"
	"github.com/godlpack/godlpack/producer"
)

// Where an argument of a call is read: in place, or by its decoder.
const (
	decoded  = iota // a string, bytes, object or optional: the decoder makes it
	inPlace         // a number or bool: the gdl_value C wrote
	tensorAt        // a tensor: the Go view C wrote (gdl_arg_view)
)

// placeOf says where a call reads p's argument: decoded, inPlace or tensorAt.
func (p *param) placeOf() int8 {
	switch {
	case p.optional || p.kind == kindString || p.kind == kindBytes || p.kind == kindObject ||
		p.kind == kindInstance || p.kind == kindCallback || p.slice:
		return decoded
	case p.kind == kindTensor:
		return tensorAt
	}
	return inPlace
}

// argAt returns where argument i of a call is as a T: in C memory, or in
// room, where d makes it. It inlines into the adapters, which pass *argAt(…)
// to the bound function: a tensor or a number is copied once, from where C
// wrote it into the function's arguments (a T returned by value was
// copied twice).
func argAt[T any](c *call, place int8, i int, d func(*call) T, room *T) *T {
	switch place {
	case inPlace:
		return (*T)(unsafe.Pointer(&c.args[i].v))
	case tensorAt:
		return (*T)(unsafe.Pointer(&c.tensors[*(*int32)(unsafe.Pointer(&c.args[i].v))].view))
	}
	*room = d(c)
	return room
}

// decoder returns the function that reads parameter i of a call as a T. It
// is planned once; what it does per call is a copy from C memory (a string
// or bytes argument is copied into Go memory).
func decoder[T any](b *binding, i int) func(*call) T {
	p := b.params[i]
	k, opt, validOff, size := p.kind, p.optional, p.validOff, kinds[p.kind].size
	class, cb, slice := p.class, p.callback, p.slice
	var itemSize uintptr // a []T's T, for a test build's copy (checkSlices)
	writable := p.tensor != nil && p.tensor.writable
	if slice {
		itemSize = reflect.TypeFor[T]().Elem().Size()
	}
	return func(c *call) (t T) {
		a := &c.args[i]
		dst := unsafe.Pointer(&t)
		if a.present {
			src := unsafe.Pointer(&a.v)
			switch k {
			case kindString:
				s := (*cBytes)(src)
				*(*string)(dst) = C.GoStringN(s.p, C.int(s.n))
			case kindBytes:
				s := (*cBytes)(src)
				*(*[]byte)(dst) = C.GoBytes(unsafe.Pointer(s.p), C.int(s.n))
			case kindTensor:
				view := (*Tensor)(unsafe.Pointer(&c.tensors[*(*int32)(src)].view))
				if slice { // a []T: the elements of a C-contiguous 1-D tensor of T, as its spec made it
					data, n := view.Data, int(view.Extent.Elements)
					if data == nil {
						data = unsafe.Pointer(&emptySlice) // an empty []T, not a nil one
					}
					if checkSlices {
						data = lendSlice(c, data, uintptr(n)*itemSize, writable)
					}
					*(*sliceHeader)(dst) = sliceHeader{data, n, n}
				} else {
					*(*Tensor)(dst) = *view
				}
			case kindObject:
				*(*cpython.Object)(dst) = *(*cpython.Object)(src)
			case kindInstance:
				*(*unsafe.Pointer)(dst) = class.table.at(*(*int32)(src))
			case kindCallback:
				t = callbackArg[T](cb, c, *(*cpython.Object)(src))
			default:
				copyValue(dst, src, size)
			}
		}
		if opt {
			*(*bool)(unsafe.Add(dst, validOff)) = bool(a.present)
		}
		return t
	}
}

// callbackArg is the Go function of a callback argument o. Apart from
// decoder: reflect writing through the address of decoder's result would
// move that result to the heap at every call of every function.
func callbackArg[T any](cb *callbackPlan, c *call, o cpython.Object) (t T) {
	reflect.NewAt(cb.typ, unsafe.Pointer(&t)).Elem().Set(cb.callbackValue(c, o))
	return t
}

// copyValue copies a number's or a bool's size bytes (its kind's, in kinds)
// from src to dst, as they are: a gdl_value holds each Go type's bits.
func copyValue(dst, src unsafe.Pointer, size uintptr) {
	switch size {
	case 1:
		*(*uint8)(dst) = *(*uint8)(src)
	case 2:
		*(*uint16)(dst) = *(*uint16)(src)
	case 4:
		*(*uint32)(dst) = *(*uint32)(src)
	case 8:
		*(*uint64)(dst) = *(*uint64)(src)
	case 16:
		d, s := (*[2]uint64)(dst), (*[2]uint64)(src)
		d[0], d[1] = s[0], s[1]
	case 40:
		// Word by word: the result was just stored a word at a time, and a 16-byte load of two such words
		// waits for both stores to reach the cache (a failed store forward, about 15 cycles each).
		d, s := (*[5]uint64)(dst), (*[5]uint64)(src)
		d[0], d[1], d[2], d[3], d[4] = s[0], s[1], s[2], s[3], s[4]
	}
}

// cBytes is the s member of gdl_value's union.
type cBytes struct {
	p *C.char
	n C.Py_ssize_t
}

// encoder returns the function that writes result j of a call from an R.
func encoder[R any](b *binding, j int) func(*call, R) error {
	k, pin, size, class, enum := b.results[j], b.outs[j].pin, kinds[b.results[j]].size, b.outs[j].class, b.outs[j].enum
	release := b.releaseGIL
	var declared *tensorSpec // what each tensor returned is held to
	if b.outs[j].checked {
		declared = b.outs[j].tensor
	}
	return func(c *call, r R) error {
		v := &c.results[j]
		src, dst := unsafe.Pointer(&r), unsafe.Pointer(&v.v)
		switch k {
		case kindString, kindBytes:
			var p unsafe.Pointer
			var n int
			if k == kindString {
				s := *(*string)(src)
				p, n = unsafe.Pointer(unsafe.StringData(s)), len(s)
			} else {
				s := *(*[]byte)(src)
				p, n = unsafe.Pointer(unsafe.SliceData(s)), len(s)
			}
			d := C.gdl_result_bytes(p, C.size_t(n))
			if d == nil {
				return fmt.Errorf("%w: a result of %d bytes", producer.ErrNoMemory, n)
			}
			*(*cBytes)(dst) = cBytes{d, C.Py_ssize_t(n)}
		case kindTensor:
			var a Array
			if pin == nil {
				a = *(*Array)(src)
			} else { // a slice: only its header is there to read
				h := *(*sliceHeader)(src)
				var err error
				if a, err = pin(h.data, h.len); err != nil {
					return err
				}
			}
			if declared != nil {
				if err := declared.holds(a.dtype, a.dimensions()); err != nil {
					a.Release()
					return err
				}
			}
			if err := a.describe(c, v); err != nil {
				return err
			}
		case kindObject:
			o := *(*cpython.Object)(src)
			if o == nil {
				return nil
			}
			*(*cpython.Object)(dst) = o
		case kindInstance:
			p := *(*unsafe.Pointer)(src)
			if p == nil {
				return nil // None
			}
			if !release { // the GIL is held: the value's slot is enough, and C makes the object once Go returns
				s, err := class.table.slotOf(p)
				if err != nil {
					return err
				}
				*(*C.gdl_instance_ref)(dst) = C.gdl_instance_ref{class_id: C.int32_t(class.table.id), slot: C.int32_t(s)}
				v.by_slot = true
				break
			}
			o, err := class.table.instanceOf(p, release)
			if err != nil {
				return err
			}
			*(*cpython.Object)(dst) = o
			v.by_slot = false
		default:
			if enum != nil && !enum.has(intOf(k, src)) {
				return cpython.Errorf(cpython.ValueError, "returned %d, which is no member of %s", intOf(k, src),
					enum.name)
			}
			copyValue(dst, src, size)
		}
		v.present = true
		return nil
	}
}

// intOf reads the integer of kind k at p, as an int64 (a uint64 past its range wraps, and matches no member).
func intOf(k kind, p unsafe.Pointer) int64 {
	switch k {
	case kindInt8:
		return int64(*(*int8)(p))
	case kindInt16:
		return int64(*(*int16)(p))
	case kindInt32:
		return int64(*(*int32)(p))
	case kindUint8:
		return int64(*(*uint8)(p))
	case kindUint16:
		return int64(*(*uint16)(p))
	case kindUint32:
		return int64(*(*uint32)(p))
	}
	return *(*int64)(p) // int64, uint64
}

// dropper returns what lets go of result j when it will not reach Python
// (the function also returned an error, or an earlier result failed): an
// Array's memory is released, an object's reference dropped (with the GIL
// held; a function without the GIL must not return objects).
func dropper[R any](b *binding, j int) func(R) {
	switch {
	case b.results[j] == kindTensor && b.outs[j].pin == nil:
		return func(r R) { (*(*Array)(unsafe.Pointer(&r))).Release() }
	case b.results[j] == kindObject && !b.releaseGIL:
		return func(r R) { cpython.DecRef(*(*cpython.Object)(unsafe.Pointer(&r))) }
	}
	// An instance result that does not reach Python is a *T its function keeps, or drops: nothing to let go.
	return func(R) {}
}

// emptySlice is where an empty []T argument points.
var emptySlice [0]uint64

type sliceHeader struct {
	data     unsafe.Pointer
	len, cap int
}
