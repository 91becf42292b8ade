// Package ops holds kernels that work in place on tensors imported with
// package [consumer], of any strides and any producer: the Go half of
// godlpack.ops, and an example of Go code on DLPack memory. [SumView] and
// [ScaleView] run the same kernels on a [consumer.View] whose memory the
// caller keeps valid, such as a bound function's tensor argument, with
// nothing to lend or release.
//
// Numbers cross as [scalar.Scalar]. Errors wrap the consumer package's:
// [consumer.ErrDType] for a dtype a kernel does not support or a factor of the
// wrong kind, [consumer.ErrLayout] for shapes that do not match,
// [consumer.ErrReadOnly] (or [consumer.ErrDevice], [consumer.ErrReleased])
// for a tensor that may not be written or read; [scalar.ErrRange] wraps a
// factor that does not fit the dtype, [ErrOverlap] an output whose elements
// share memory.
package ops

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/godlpack/godlpack/consumer"
	"github.com/godlpack/godlpack/dlpack"
	"github.com/godlpack/godlpack/minifloat"
	"github.com/godlpack/godlpack/scalar"
)

// ErrOverlap is wrapped by the error of an in-place kernel asked to write a
// tensor whose elements share memory (a stride of 0, or strides that fold
// the tensor onto itself), where each write would land on an element more
// than once: PyTorch refuses such outputs too.
var ErrOverlap = errors.New("ops: elements of the output share memory")

// Real is the set of element types the arithmetic kernels work on.
type Real interface {
	int8 | int16 | int32 | int64 | uint8 | uint16 | uint32 | uint64 | float32 | float64
}

// Work returns the bytes a kernel touches in t: every element, as many
// times as a stride of 0 repeats it, times the item size. A caller decides
// by it whether the work is worth releasing a lock for.
func Work(t *consumer.Tensor) int64 {
	return t.NBytes()
}

// WorkView is [Work] of a [consumer.View].
func WorkView(v *consumer.View) int64 {
	return v.Extent.DenseBytes
}

// Sum returns the sum of t's elements: a [scalar.Int] (wrapping int64, as
// NumPy's sum wraps) for signed integers and bool (the count of true
// elements), a [scalar.Uint] (wrapping) for unsigned integers, a [scalar.Float]
// (summed in float64) for float16, bfloat16, float32 and float64.
func Sum(t *consumer.Tensor) (scalar.Scalar, error) {
	if err := t.CheckReadable(); err != nil {
		return scalar.Scalar{}, err
	}
	return SumView(&t.View)
}

// SumView is [Sum] of a [consumer.View] whose memory the caller keeps valid
// for the call, such as package pymodule's tensor arguments: nothing is
// lent or released. The data must be CPU-accessible ([consumer.ErrDevice]).
func SumView(v *consumer.View) (scalar.Scalar, error) {
	if err := v.CheckReadable(); err != nil {
		return scalar.Scalar{}, err
	}
	switch dt := v.DType; dt {
	case dlpack.Bool:
		var n int64
		it, _ := consumer.ViewElements[bool](*v)
		for p := range it {
			if *p {
				n++
			}
		}
		return scalar.Scalar{Kind: scalar.Int, Int: n}, nil
	case dlpack.Int8:
		return scalar.Scalar{Kind: scalar.Int, Int: reduce[int8, int64](v)}, nil
	case dlpack.Int16:
		return scalar.Scalar{Kind: scalar.Int, Int: reduce[int16, int64](v)}, nil
	case dlpack.Int32:
		return scalar.Scalar{Kind: scalar.Int, Int: reduce[int32, int64](v)}, nil
	case dlpack.Int64:
		return scalar.Scalar{Kind: scalar.Int, Int: reduce[int64, int64](v)}, nil
	case dlpack.Uint8:
		return scalar.Scalar{Kind: scalar.Uint, Uint: reduce[uint8, uint64](v)}, nil
	case dlpack.Uint16:
		return scalar.Scalar{Kind: scalar.Uint, Uint: reduce[uint16, uint64](v)}, nil
	case dlpack.Uint32:
		return scalar.Scalar{Kind: scalar.Uint, Uint: reduce[uint32, uint64](v)}, nil
	case dlpack.Uint64:
		return scalar.Scalar{Kind: scalar.Uint, Uint: reduce[uint64, uint64](v)}, nil
	case dlpack.Float16:
		return scalar.Scalar{Kind: scalar.Float, Real: reduceHalf(v, minifloat.DecodeFloat16)}, nil
	case dlpack.Bfloat16:
		return scalar.Scalar{Kind: scalar.Float, Real: reduceHalf(v, minifloat.DecodeBfloat16)}, nil
	case dlpack.Float32:
		return scalar.Scalar{Kind: scalar.Float, Real: reduce[float32, float64](v)}, nil
	case dlpack.Float64:
		return scalar.Scalar{Kind: scalar.Float, Real: reduce[float64, float64](v)}, nil
	default:
		return scalar.Scalar{}, fmt.Errorf("%w: sum supports bool, integer and real float dtypes, not %v", consumer.ErrDType, dt)
	}
}

// reduce sums v's elements of type T into an accumulator of type A.
func reduce[T Real, A int64 | uint64 | float64](v *consumer.View) A {
	s, err := consumer.ViewSlice[T](v)
	if err != nil {
		return reduceStrided[T, A](v)
	}
	var acc A
	for _, x := range s {
		acc += A(x)
	}
	return acc
}

// reduceStrided is reduce over strided elements. It is a function of its
// own because the iterator's loop body captures the accumulator, which then
// moves to the Go heap: reduce's contiguous path allocates nothing.
func reduceStrided[T Real, A int64 | uint64 | float64](v *consumer.View) A {
	var acc A
	it, _ := consumer.ViewElements[T](*v)
	for p := range it {
		acc += A(*p)
	}
	return acc
}

// reduceHalf sums 16-bit floats decoded by dec.
func reduceHalf(v *consumer.View, dec func(uint16) float64) float64 {
	var acc float64
	consumer.Walk(v, func(p *uint16) bool {
		acc += dec(*p)
		return true
	})
	return acc
}

// writable checks that an in-place kernel may write v and that each
// element would be written once (dlpack.SelfOverlapping, which is
// conservative: it may refuse an exotic layout that does not overlap).
// Whether writes would be seen (a copy the producer made unasked) is the
// importer's rule: capsule.Import's Request.Writable.
func writable(v *consumer.View) error {
	if err := v.CheckWritable(); err != nil {
		return err
	}
	// A contiguous layout has one offset per element: only another is asked (the check zeroes an array of
	// dlpack.MaxNDim dimensions, a twentieth of a small scale_).
	if !v.Extent.CContiguous && !v.Extent.FContiguous && dlpack.SelfOverlapping(v.Shape, v.Strides) {
		return fmt.Errorf("%w: shape %v with strides %v reaches some elements more than once", ErrOverlap, v.Shape, v.Strides)
	}
	return nil
}

// Scale multiplies t's elements by factor in place, in the dtype's own
// arithmetic: integers wrap, and need an integer factor that the dtype holds
// ([scalar.ErrRange] otherwise); float16, bfloat16, float32 and float64 round
// the factor to the dtype first and multiply with one rounding, as NumPy's
// x *= x.dtype.type(a) does.
func Scale(t *consumer.Tensor, factor scalar.Scalar) error {
	if t.Released() {
		return consumer.ErrReleased
	}
	return ScaleView(&t.View, factor)
}

// ScaleView is [Scale] of a [consumer.View] whose memory the caller keeps
// valid for the call, such as package pymodule's tensor arguments: nothing
// is lent or released. The data must be CPU-accessible
// ([consumer.ErrDevice]) and writable ([consumer.ErrReadOnly]).
func ScaleView(v *consumer.View, factor scalar.Scalar) error {
	dt := v.DType
	integer := dt.Code == dlpack.Int || dt.Code == dlpack.UInt
	switch {
	case dt.Lanes != 1 || !integer && dt.Code != dlpack.Float && dt.Code != dlpack.Bfloat:
		return fmt.Errorf("%w: scale supports integer and real float dtypes, not %v", consumer.ErrDType, dt)
	case integer && factor.Kind != scalar.Int && factor.Kind != scalar.Uint && factor.Kind != scalar.Bool:
		return fmt.Errorf("%w: scaling an %v tensor needs an int factor, got %v", consumer.ErrDType, dt, factor.Float())
	}
	var bits uint64 // an integer factor as an element of dt, which also checks that dt holds it
	if integer {
		var b [8]byte // not scalar.Encode's new slice: a call allocates nothing
		if err := scalar.Put(dt, b[:dt.ItemSize()], factor); err != nil {
			return fmt.Errorf("ops: the factor does not fit in %v: %w", dt, err)
		}
		bits = binary.LittleEndian.Uint64(b[:])
	}
	if err := writable(v); err != nil {
		return err
	}
	f := factor.Float()
	switch dt {
	case dlpack.Int8:
		scale(v, int8(bits))
	case dlpack.Int16:
		scale(v, int16(bits))
	case dlpack.Int32:
		scale(v, int32(bits))
	case dlpack.Int64:
		scale(v, int64(bits))
	case dlpack.Uint8:
		scale(v, uint8(bits))
	case dlpack.Uint16:
		scale(v, uint16(bits))
	case dlpack.Uint32:
		scale(v, uint32(bits))
	case dlpack.Uint64:
		scale(v, bits)
	case dlpack.Float16:
		scaleHalf(v, f, minifloat.EncodeFloat16, minifloat.DecodeFloat16)
	case dlpack.Bfloat16:
		scaleHalf(v, f, minifloat.EncodeBfloat16, minifloat.DecodeBfloat16)
	case dlpack.Float32:
		scale(v, float32(f))
	case dlpack.Float64:
		scale(v, f)
	}
	return nil
}

// scale multiplies v's elements of type T by m in place, in T's arithmetic.
func scale[T Real](v *consumer.View, m T) {
	if s, err := consumer.ViewSlice[T](v); err == nil {
		for i := range s {
			s[i] *= m
		}
		return
	}
	consumer.Walk(v, func(p *T) bool {
		*p *= m
		return true
	})
}

// scaleHalf multiplies 16-bit floats by f rounded to their format. The
// product of two such values is exact in float64, so one rounding gives
// the correctly rounded result.
func scaleHalf(v *consumer.View, f float64, enc func(float64) uint16, dec func(uint16) float64) {
	m := dec(enc(f))
	consumer.Walk(v, func(p *uint16) bool {
		*p = enc(dec(*p) * m)
		return true
	})
}

// Copy copies src's elements into dst in place, whatever the strides of
// either, as [consumer.Tensor.CopyFrom] does: same shape
// ([consumer.ErrLayout]), same dtype ([consumer.ErrDType]), and src may
// overlap dst.
func Copy(dst, src *consumer.Tensor) error {
	if dst.Released() {
		return consumer.ErrReleased
	}
	if err := writable(&dst.View); err != nil {
		return err
	}
	return dst.CopyFrom(src)
}
