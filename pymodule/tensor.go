package pymodule

// #include "pymodule.h"
import "C"

import (
	"iter"
	"unsafe"

	"github.com/godlpack/godlpack/consumer"
	"github.com/godlpack/godlpack/dlpack"
	"github.com/godlpack/godlpack/internal/fmt"
)

// A Tensor is a tensor argument: a view of the producer's memory, checked
// against the parameter's annotation, valid until the function returns
// (copy what must outlive the call). Its Shape and Strides (in elements)
// are the producer's own arrays or the call's copies: read them, never
// write them. Only a writable parameter's data may be written. A NumPy
// array or a PyTorch tensor is usually read in place, without a managed
// tensor (docs/protocol.md, "One import"); a view lent by an exchange
// table has no flags of its own and is flagged [dlpack.ReadOnly].
type Tensor struct {
	consumer.View
	// 136 bytes of View padded to 144: every call copies a Tensor a few times,
	// and a size that is not a multiple of 16 is copied with an overlapping
	// last move, which stalls on the previous copy's stores.
	_ [8]byte
}

// tensorArg is the Tensor of an argument of the call: the Go view C wrote (gdl_arg_view).
func tensorArg(a *C.gdl_arg_tensor) Tensor { return *(*Tensor)(unsafe.Pointer(&a.view)) }

// The C view is a Tensor field for field: each line fails to compile if an
// offset or the size differs (an index of [1] other than 0 is out of range).
var (
	goView  C.gdl_go_view
	tensorV Tensor
	_       = [1]int{}[unsafe.Sizeof(goView)-unsafe.Sizeof(tensorV)]
	_       = [1]int{}[unsafe.Offsetof(goView.data)-unsafe.Offsetof(tensorV.Data)]
	_       = [1]int{}[unsafe.Offsetof(goView.shape)-unsafe.Offsetof(tensorV.Shape)]
	_       = [1]int{}[unsafe.Offsetof(goView.strides)-unsafe.Offsetof(tensorV.Strides)]
	_       = [1]int{}[unsafe.Offsetof(goView.dtype)-unsafe.Offsetof(tensorV.DType)]
	_       = [1]int{}[unsafe.Offsetof(goView.device)-unsafe.Offsetof(tensorV.Device)]
	_       = [1]int{}[unsafe.Offsetof(goView.flags)-unsafe.Offsetof(tensorV.Flags)]
	_       = [1]int{}[unsafe.Offsetof(goView.version)-unsafe.Offsetof(tensorV.Version)]
	_       = [1]int{}[unsafe.Offsetof(goView.versioned)-unsafe.Offsetof(tensorV.Versioned)]
	_       = [1]int{}[unsafe.Offsetof(goView.elements)-unsafe.Offsetof(tensorV.Extent.Elements)-unsafe.Offsetof(tensorV.Extent)]
	_       = [1]int{}[unsafe.Offsetof(goView.low)-unsafe.Offsetof(tensorV.Extent.Low)-unsafe.Offsetof(tensorV.Extent)]
	_       = [1]int{}[unsafe.Offsetof(goView.high)-unsafe.Offsetof(tensorV.Extent.High)-unsafe.Offsetof(tensorV.Extent)]
	_       = [1]int{}[unsafe.Offsetof(goView.dense_bytes)-unsafe.Offsetof(tensorV.Extent.DenseBytes)-unsafe.Offsetof(tensorV.Extent)]
	_       = [1]int{}[unsafe.Offsetof(goView.c_contiguous)-unsafe.Offsetof(tensorV.Extent.CContiguous)-unsafe.Offsetof(tensorV.Extent)]
	_       = [1]int{}[unsafe.Offsetof(goView.f_contiguous)-unsafe.Offsetof(tensorV.Extent.FContiguous)-unsafe.Offsetof(tensorV.Extent)]
)

// Index returns the sub-tensor x[i] along the first dimension (ndim - 1
// dimensions), with no copy. It panics when x is 0-d, when i is out of
// range, and when x holds packed sub-byte elements (a float4 tensor without
// [dlpack.IsSubbyteTypePadded]) and row i does not start on a byte: Data
// cannot point into the middle of a byte.
func (t Tensor) Index(i int64) Tensor {
	if len(t.Shape) == 0 || i < 0 || i >= t.Shape[0] {
		panic(fmt.Sprintf("index %d out of range for shape %v", i, t.Shape))
	}
	s := t
	s.Shape, s.Strides = t.Shape[1:], t.Strides[1:]
	if t.DType.SubByte() && t.Flags&dlpack.IsSubbyteTypePadded == 0 {
		bits := int64(t.DType.Bits) * int64(t.DType.Lanes)
		if bit := i * t.Strides[0] * bits; bit%8 != 0 {
			panic(fmt.Sprintf("row %d of a packed %v tensor of shape %v starts at bit %d, inside a byte: Index "+
				"cannot address it", i, t.DType, t.Shape, bit))
		}
		s.Data = unsafe.Add(t.Data, i*t.Strides[0]*bits/8)
	} else {
		s.Data = unsafe.Add(t.Data, i*t.Strides[0]*int64(t.DType.ItemSize()))
		if t.Extent.CContiguous && len(s.Shape) <= 1 && t.Extent.Elements > 0 {
			// The row of a C-contiguous matrix of byte-addressable items is dense from its first element: a
			// loop over rows calls nothing per row, and divides nothing (a 64-bit division costs a row of
			// a few elements more than its loop).
			elements := int64(1)
			if len(s.Shape) == 1 {
				elements = s.Shape[0]
			}
			n := elements * int64(t.DType.ItemSize())
			s.Extent = dlpack.Extent{Elements: elements, High: n, DenseBytes: n, CContiguous: true, FContiguous: true}
			return s
		}
	}
	e, err := dlpack.CheckLayout(s.Shape, s.Strides, s.DType, s.Flags&dlpack.IsSubbyteTypePadded != 0)
	if err != nil {
		panic(err) // a part of a valid layout is valid
	}
	s.Extent = e
	return s
}

// Slice returns the elements of t as a []T over its memory, without a copy,
// for an argument whose declaration guarantees a C-contiguous tensor of T in
// memory the CPU reads ("tensor[float32, C]", "tensor[float32, (*, *), C,
// convert]"): valid while t is (until the function returns); only a
// writable parameter's elements may be written. Where the declaration does
// not guarantee it, Slice panics (the call raises RuntimeError with what t
// is instead): read such a tensor with [consumer.Slice], which returns the
// error (a TypeError, ValueError or BufferError from a bound function), or
// with [Elements].
func Slice[T dlpack.Element](t Tensor) []T {
	// consumer.Slice's rule, through the View's method: an interface of &t would move t to the heap each call.
	if err := t.CheckContiguous(dlpack.DataTypeOf[T]()); err != nil {
		panic(fmt.Sprintf("pymodule.Slice[%v]: %v", dlpack.DataTypeOf[T](), err))
	}
	if t.Extent.Elements == 0 {
		return []T{}
	}
	return unsafe.Slice((*T)(t.Data), t.Extent.Elements)
}

// Elements returns an iterator over pointers to every element of t, of any
// strides, in C (row-major) order: for reading, or for writing a tensor whose
// parameter is writable. It is [consumer.Elements] for an argument whose
// declaration holds it to T: T must be the Go type of t's dtype (Elements
// panics otherwise, which the caller sees as a RuntimeError). A loop over it
// allocates nothing, and over a C-contiguous tensor the compiler inlines it
// into the caller's with its body.
func Elements[T dlpack.Element](t Tensor) iter.Seq[*T] {
	return func(yield func(*T) bool) {
		if t.Extent.CContiguous && t.DType == dlpack.DataTypeOf[T]() {
			// A dense tensor's loop is a plain one, which the compiler inlines into the caller's with its body.
			for i := range t.Extent.Elements {
				if !yield((*T)(unsafe.Add(t.Data, uintptr(i)*unsafe.Sizeof(*new(T))))) {
					return
				}
			}
			return
		}
		walk(&t, yield)
	}
}

// walk is Elements' loop, apart so that Elements inlines (and its closure stays on the stack).
func walk[T dlpack.Element](t *Tensor, yield func(*T) bool) {
	if want := dlpack.DataTypeOf[T](); t.DType != want {
		panic(fmt.Sprintf("Elements[%v] of a %v tensor", want, t.DType))
	}
	consumer.Walk(&t.View, yield)
}
