package pymodule

// #include "pymodule.h"
import "C"

import (
	"unsafe"

	"github.com/godlpack/godlpack/consumer"
	"github.com/godlpack/godlpack/dlpack"
	"github.com/godlpack/godlpack/producer"
	"github.com/godlpack/godlpack/strided"
)

// convert replaces argument tensor a, which s refused, by a copy of its own
// in what s asks, when s allows conversions and one is defined: another
// layout of the same dtype becomes the order asked (C unless F); a tensor
// of a dtype s does not take that strided.Cast reads (bool, integers,
// floats of 16, 32 and 64 bits) becomes s's castTarget, as NumPy's astype
// makes it. A writable parameter's tensor is copied into another layout
// only, and not where its elements overlap: the caller writes the copy back
// ([writeBack]). It returns the copy's buffer, for the caller to release
// after the call, or nil when no conversion applies (the refusal stands).
func (s *tensorSpec) convert(a *C.gdl_arg_tensor) (*producer.Buffer, error) {
	v := tensorArg(a).View
	if !s.convertible || !v.CPUAccessible() || s.shape != nil && len(s.shape) != len(v.Shape) ||
		s.writable && (!s.allows(v.DType) || dlpack.SelfOverlapping(v.Shape, v.Strides)) {
		return nil, nil
	}
	to := v.DType
	if !s.allows(to) {
		if to = s.castTarget(); to == (dlpack.DataType{}) || !strided.Castable(v.DType) {
			return nil, nil
		}
	}
	n := v.Extent.Elements
	size := int64(to.ItemSize())
	b, err := producer.Alloc(int(n * size))
	if err != nil {
		return nil, err
	}
	var cStrides [dlpack.MaxNDim]int64
	contiguous := dlpack.ContiguousStrides(v.Shape, cStrides[:0])
	src, srcStrides := v.Data, v.Strides
	var tmp *producer.Buffer
	if to != v.DType {
		// Cast into C order first; a Fortran order asked for is one more copy.
		dst := b
		if s.order == 'F' {
			if tmp, err = producer.Alloc(int(n * size)); err != nil {
				b.Release()
				return nil, err
			}
			defer tmp.Release()
			dst = tmp
		}
		strided.Cast(dst.Pointer(), to, v.Data, v.Strides, v.Shape, v.DType)
		src, srcStrides = dst.Pointer(), contiguous
	}
	strides := contiguous
	if s.order == 'F' {
		var f [dlpack.MaxNDim]int64
		strides = f[:len(v.Shape)]
		step := int64(1)
		for i := range v.Shape {
			strides[i] = step
			step *= max(v.Shape[i], 1)
		}
	}
	if src != b.Pointer() {
		strided.Copy(b.Pointer(), strides, src, srcStrides, v.Shape, int(size))
	}
	out := unsafe.Slice((*int64)(unsafe.Pointer(&a.strides[0])), dlpack.MaxNDim)
	copy(out, strides)
	t := &a.imp.v
	t.data = b.Pointer()
	t.dtype = *(*C.DLDataType)(unsafe.Pointer(&to))
	if len(v.Shape) > 0 {
		t.strides = &a.strides[0]
	}
	// The copy is described by the layout rule, as an import is.
	e, err := dlpack.CheckLayout(v.Shape, strides, to, false)
	if err != nil {
		b.Release()
		return nil, err
	}
	t.c_contiguous, t.f_contiguous = C.bool(e.CContiguous), C.bool(e.FContiguous)
	t.low, t.high = C.int64_t(e.Low), C.int64_t(e.High)
	t.nbytes, t.itemsize = C.int64_t(e.DenseBytes), C.int64_t(size)
	if !s.writable { // a writable copy is written back: the writes reach the producer's memory
		a.imp.flags = C.uint64_t(dlpack.IsCopied)
	}
	C.gdl_arg_view(a)
	return b, nil
}

// An origin is where a writable argument's copy goes back to after the call: the producer's own view, its
// strides kept apart from the call's, which the copy's replace.
type origin struct {
	view    consumer.View
	strides [dlpack.MaxNDim]int64
}

// keep makes o v, with strides of its own.
func (o *origin) keep(v consumer.View) {
	o.view = v
	o.view.Strides = o.strides[:copy(o.strides[:], v.Strides)]
}

// writeBack copies a writable argument's C- or F-contiguous copy, at data with strides, back into its origin.
func (o *origin) writeBack(data unsafe.Pointer, strides []int64) {
	v := &o.view
	strided.Copy(v.Data, v.Strides, data, strides, v.Shape, v.DType.ItemSize())
}

// castTarget is the dtype a tensor of another dtype is cast to: the first
// float32 or float64 s takes, or the zero DataType when it takes neither.
func (s *tensorSpec) castTarget() dlpack.DataType {
	for _, dt := range s.dtypes {
		if dt == dlpack.Float32 || dt == dlpack.Float64 {
			return dt
		}
	}
	return dlpack.DataType{}
}

func (s *tensorSpec) allows(dt dlpack.DataType) bool {
	for _, want := range s.dtypes {
		if want == dt {
			return true
		}
	}
	return s.dtypes == nil
}
