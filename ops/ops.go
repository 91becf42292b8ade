// Package ops holds kernels on tensors of any strides and any producer,
// described by a [consumer.View] whose memory the caller keeps valid for the
// call (a bound function's tensor argument, or a [consumer.Tensor]'s View
// while it is not released): the Go half of godlpack.ops, built on package
// [vec]'s vector kernels.
//
// Elements that fill their memory without gaps (C or Fortran order, or any
// order of the strides where a kernel's result does not depend on the order)
// go to vec's kernels as one slice, on up to [vec.Threads] goroutines when
// they are many ([vec.Workers]); tensors whose last dimension is contiguous,
// one row at a time, on one goroutine for reductions and on several for
// [Scale]; any other strides, one element at a time ([Copy]: as
// [consumer.View.CopyFrom] does).
//
// Numbers cross as [scalar.Scalar]. Errors wrap the consumer package's:
// [consumer.ErrDType] for a dtype a kernel does not support or a factor of the
// wrong kind, [consumer.ErrLayout] for shapes that do not match,
// [consumer.ErrReadOnly] (or [consumer.ErrDevice]) for a tensor that may not
// be written or read; [scalar.ErrRange] wraps a factor that does not fit the
// dtype, [ErrOverlap] an output whose elements share memory, [ErrEmpty] a
// minimum or maximum of nothing.
package ops

import (
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/godlpack/godlpack/consumer"
	"github.com/godlpack/godlpack/dlpack"
	"github.com/godlpack/godlpack/internal/preempt"
	"github.com/godlpack/godlpack/minifloat"
	"github.com/godlpack/godlpack/scalar"
	"github.com/godlpack/godlpack/vec"
)

// ErrOverlap is wrapped by the error of an in-place kernel asked to write a
// tensor whose elements share memory (a stride of 0, or strides that fold
// the tensor onto itself), where each write would land on an element more
// than once: PyTorch refuses such outputs too.
var ErrOverlap = errors.New("ops: elements of the output share memory")

// ErrEmpty is wrapped by the error of [Min] or [Max] of a tensor without
// elements, which have no identity to return.
var ErrEmpty = errors.New("ops: a reduction of no elements without an identity")

// Work returns the bytes a kernel touches in v: every element, as many times
// as a stride of 0 repeats it, times the item size. A caller decides by it
// whether the work is worth releasing a lock for.
func Work(v *consumer.View) int64 {
	return v.Extent.DenseBytes
}

// Sum returns the sum of v's elements: a [scalar.Int] (wrapping int64, as
// NumPy's sum wraps) for signed integers and bool (the count of true
// elements), a [scalar.Uint] (wrapping) for unsigned integers, a
// [scalar.Float] for float16, bfloat16, float32 and float64, summed in
// float64 as [vec.Sum] does (its result does not depend on the thread
// count). The data must be CPU-accessible ([consumer.ErrDevice]).
func Sum(v *consumer.View) (scalar.Scalar, error) {
	if err := v.CheckReadable(); err != nil {
		return scalar.Scalar{}, err
	}
	switch dt := v.DType; dt {
	case dlpack.Bool:
		return signed(int64(countTrue(v))), nil
	case dlpack.Int8:
		return signed(sumIntegers(v, vec.SumInt[int8])), nil
	case dlpack.Int16:
		return signed(sumIntegers(v, vec.SumInt[int16])), nil
	case dlpack.Int32:
		return signed(sumIntegers(v, vec.SumInt[int32])), nil
	case dlpack.Int64:
		return signed(sumIntegers(v, vec.SumInt[int64])), nil
	case dlpack.Uint8:
		return unsigned(sumIntegers(v, vec.SumUint[uint8])), nil
	case dlpack.Uint16:
		return unsigned(sumIntegers(v, vec.SumUint[uint16])), nil
	case dlpack.Uint32:
		return unsigned(sumIntegers(v, vec.SumUint[uint32])), nil
	case dlpack.Uint64:
		return unsigned(sumIntegers(v, vec.SumUint[uint64])), nil
	case dlpack.Float16:
		return floating(sumHalves(v, minifloat.DecodeFloat16)), nil
	case dlpack.Bfloat16:
		return floating(sumHalves(v, minifloat.DecodeBfloat16)), nil
	case dlpack.Float32:
		return floating(sumFloats[float32](v)), nil
	case dlpack.Float64:
		return floating(sumFloats[float64](v)), nil
	default:
		return scalar.Scalar{}, fmt.Errorf("%w: sum supports bool, integer and real float dtypes, not %v", consumer.ErrDType, dt)
	}
}

func signed(n int64) scalar.Scalar     { return scalar.Scalar{Kind: scalar.Int, Int: n} }
func unsigned(n uint64) scalar.Scalar  { return scalar.Scalar{Kind: scalar.Uint, Uint: n} }
func floating(x float64) scalar.Scalar { return scalar.Scalar{Kind: scalar.Float, Real: x} }
func boolean(b bool) scalar.Scalar {
	if b {
		return scalar.Scalar{Kind: scalar.Bool, Int: 1}
	}
	return scalar.Scalar{Kind: scalar.Bool}
}

func itemSize[T any]() int64                        { return int64(unsafe.Sizeof(*new(T))) }
func elements[T any](p unsafe.Pointer, n int64) []T { return unsafe.Slice((*T)(p), n) }

// sumIntegers sums v's integers with kernel (vec.SumInt or vec.SumUint of
// T), which wraps as the sum of R does.
func sumIntegers[T vec.Integer, R int64 | uint64](v *consumer.View, kernel func([]T) R) R {
	if p, n, ok := span(v); ok {
		s := elements[T](p, n)
		if vec.Workers(len(s), int(itemSize[T]())) > 1 {
			return parallelIntegers(s, kernel)
		}
		return kernel(s)
	}
	var total R
	if inner, ok := rows(v); ok {
		forRows(v, itemSize[T](), func(p unsafe.Pointer) { total += kernel(elements[T](p, inner)) })
		return total
	}
	consumer.Walk(v, func(p *T) bool {
		total += R(*p)
		return true
	})
	return total
}

// parallelIntegers is kernel(s) on vec.Workers goroutines: a wrapping sum is
// the same in any order.
func parallelIntegers[T vec.Integer, R int64 | uint64](s []T, kernel func([]T) R) R {
	var total atomic.Uint64
	vec.Parallel(len(s), int(itemSize[T]()), func(lo, hi int) { total.Add(uint64(kernel(s[lo:hi]))) })
	return R(total.Load())
}

// countTrue counts the nonzero bytes of a bool tensor (a producer's byte
// other than 0 or 1 counts as true, as NumPy's does).
func countTrue(v *consumer.View) uint64 {
	var n uint64
	consumer.Walk(v, func(p *uint8) bool {
		if *p != 0 {
			n++
		}
		return true
	})
	return n
}

func sumFloats[T vec.Float](v *consumer.View) float64 {
	if p, n, ok := span(v); ok {
		return vec.ParallelSum(elements[T](p, n))
	}
	if inner, ok := rows(v); ok {
		var total vec.Accumulator
		forRows(v, itemSize[T](), func(p unsafe.Pointer) { total.Add(vec.Sum(elements[T](p, inner))) })
		if s := total.Value(); exact[T](s) {
			return s
		}
	}
	var total vec.Accumulator
	consumer.Walk(v, func(p *T) bool {
		total.Add(float64(*p))
		return !total.NaN()
	})
	return total.Value()
}

// exact reports whether s, a sum of the sums of rows of T, is the sum of
// their elements by vec's rule for special values: a finite s is, and so is
// any s of float32 rows, which cannot overflow float64. An infinite float64
// row's sum may be a partial sum's overflow, which only the elements' own
// terms tell from an infinite element.
func exact[T vec.Float](s float64) bool {
	return s-s == 0 || unsafe.Sizeof(T(0)) == 4
}

// sumHalves sums 16-bit floats decoded by dec.
func sumHalves(v *consumer.View, dec func(uint16) float64) float64 {
	var total vec.Accumulator
	consumer.Walk(v, func(p *uint16) bool {
		total.Add(dec(*p))
		return !total.NaN()
	})
	return total.Value()
}

// Dot returns the dot product of x and y, the sum of the products of their
// elements at the same index: both must have the same shape
// ([consumer.ErrLayout]; there is no broadcasting) and dtype
// ([consumer.ErrDType]). Floats (float16, bfloat16, float32, float64) are
// multiplied and summed in float64, a [scalar.Float]; integers in wrapping
// 64-bit arithmetic, a [scalar.Int] or, for unsigned ones, a [scalar.Uint].
func Dot(x, y *consumer.View) (scalar.Scalar, error) {
	if err := x.CheckReadable(); err != nil {
		return scalar.Scalar{}, err
	}
	if err := y.CheckReadable(); err != nil {
		return scalar.Scalar{}, err
	}
	if x.DType != y.DType {
		return scalar.Scalar{}, fmt.Errorf("%w: dot of %v and %v", consumer.ErrDType, x.DType, y.DType)
	}
	if !slices.Equal(x.Shape, y.Shape) {
		return scalar.Scalar{}, fmt.Errorf("%w: dot of shapes %v and %v", consumer.ErrLayout, x.Shape, y.Shape)
	}
	switch dt := x.DType; dt {
	case dlpack.Int8:
		return signed(dotIntegers[int8, int64](x, y)), nil
	case dlpack.Int16:
		return signed(dotIntegers[int16, int64](x, y)), nil
	case dlpack.Int32:
		return signed(dotIntegers[int32, int64](x, y)), nil
	case dlpack.Int64:
		return signed(dotIntegers[int64, int64](x, y)), nil
	case dlpack.Uint8:
		return unsigned(dotIntegers[uint8, uint64](x, y)), nil
	case dlpack.Uint16:
		return unsigned(dotIntegers[uint16, uint64](x, y)), nil
	case dlpack.Uint32:
		return unsigned(dotIntegers[uint32, uint64](x, y)), nil
	case dlpack.Uint64:
		return unsigned(dotIntegers[uint64, uint64](x, y)), nil
	case dlpack.Float16:
		return floating(dotHalves(x, y, minifloat.DecodeFloat16)), nil
	case dlpack.Bfloat16:
		return floating(dotHalves(x, y, minifloat.DecodeBfloat16)), nil
	case dlpack.Float32:
		return floating(dotFloats[float32](x, y)), nil
	case dlpack.Float64:
		return floating(dotFloats[float64](x, y)), nil
	default:
		return scalar.Scalar{}, fmt.Errorf("%w: dot supports integer and real float dtypes, not %v", consumer.ErrDType, dt)
	}
}

// paired returns the memory spans of x and y when both fill it without gaps
// in the same order, so that the elements at an index are at the same
// position of each span.
func paired(x, y *consumer.View) (px, py unsafe.Pointer, n int64, ok bool) {
	px, n, ok = span(x)
	if !ok {
		return nil, nil, 0, false
	}
	py, _, ok = span(y)
	same := x.Extent.CContiguous && y.Extent.CContiguous || x.Extent.FContiguous && y.Extent.FContiguous ||
		slices.Equal(x.Strides, y.Strides)
	return px, py, n, ok && same
}

func dotFloats[T vec.Float](x, y *consumer.View) float64 {
	if px, py, n, ok := paired(x, y); ok {
		return vec.ParallelDot(elements[T](px, n), elements[T](py, n))
	}
	if s := dotRows[T](x, y, true); exact[T](s) {
		return s
	}
	return dotRows[T](x, y, false)
}

// dotRows returns the dot product of x and y, each pair of contiguous rows
// by vec.Dot where byRows is set, else product by product.
func dotRows[T vec.Float](x, y *consumer.View, byRows bool) float64 {
	var total vec.Accumulator
	size := itemSize[T]()
	forPairedRows(x, y, size, func(px, py unsafe.Pointer, n, sx, sy int64) {
		if byRows && sx == 1 && sy == 1 {
			total.Add(vec.Dot(elements[T](px, n), elements[T](py, n)))
			return
		}
		for i := range n {
			total.AddProduct(float64(*(*T)(unsafe.Add(px, i*sx*size))), float64(*(*T)(unsafe.Add(py, i*sy*size))))
		}
	})
	return total.Value()
}

func dotHalves(x, y *consumer.View, dec func(uint16) float64) float64 {
	var total vec.Accumulator
	forPairedRows(x, y, 2, func(px, py unsafe.Pointer, n, sx, sy int64) {
		for i := range n {
			total.AddProduct(dec(*(*uint16)(unsafe.Add(px, 2*i*sx))), dec(*(*uint16)(unsafe.Add(py, 2*i*sy))))
		}
	})
	return total.Value()
}

// dotIntegers multiplies and sums integers in R's wrapping arithmetic: vec has
// no integer dot product, whose products overflow any vector lane of T's size.
func dotIntegers[T vec.Integer, R int64 | uint64](x, y *consumer.View) R {
	var total R
	forPairedRows(x, y, itemSize[T](), func(px, py unsafe.Pointer, n, sx, sy int64) {
		for i := range n {
			total += R(*(*T)(unsafe.Add(px, i*sx*itemSize[T]()))) * R(*(*T)(unsafe.Add(py, i*sy*itemSize[T]())))
		}
	})
	return total
}

// Min returns the smallest of v's elements as a [scalar.Scalar] of Sum's
// kinds (a [scalar.Bool] for bool, true when every element is), NaN if a
// float element is NaN. A tensor without elements has none ([ErrEmpty]).
func Min(v *consumer.View) (scalar.Scalar, error) { return extreme(v, true) }

// Max is [Min] for the largest element (for bool, whether any is true).
func Max(v *consumer.View) (scalar.Scalar, error) { return extreme(v, false) }

func extreme(v *consumer.View, isMin bool) (scalar.Scalar, error) {
	if err := v.CheckReadable(); err != nil {
		return scalar.Scalar{}, err
	}
	if v.Extent.Elements == 0 {
		return scalar.Scalar{}, fmt.Errorf("%w: the extreme of shape %v", ErrEmpty, v.Shape)
	}
	switch dt := v.DType; dt {
	case dlpack.Bool:
		return boolean(extremeOf[uint8](v, isMin) != 0), nil
	case dlpack.Int8:
		return signed(int64(extremeOf[int8](v, isMin))), nil
	case dlpack.Int16:
		return signed(int64(extremeOf[int16](v, isMin))), nil
	case dlpack.Int32:
		return signed(int64(extremeOf[int32](v, isMin))), nil
	case dlpack.Int64:
		return signed(extremeOf[int64](v, isMin)), nil
	case dlpack.Uint8:
		return unsigned(uint64(extremeOf[uint8](v, isMin))), nil
	case dlpack.Uint16:
		return unsigned(uint64(extremeOf[uint16](v, isMin))), nil
	case dlpack.Uint32:
		return unsigned(uint64(extremeOf[uint32](v, isMin))), nil
	case dlpack.Uint64:
		return unsigned(extremeOf[uint64](v, isMin)), nil
	case dlpack.Float16:
		return floating(extremeHalf(v, isMin, minifloat.DecodeFloat16)), nil
	case dlpack.Bfloat16:
		return floating(extremeHalf(v, isMin, minifloat.DecodeBfloat16)), nil
	case dlpack.Float32:
		return floating(float64(extremeOf[float32](v, isMin))), nil
	case dlpack.Float64:
		return floating(extremeOf[float64](v, isMin)), nil
	default:
		return scalar.Scalar{}, fmt.Errorf("%w: min and max support bool, integer and real float dtypes, not %v",
			consumer.ErrDType, dt)
	}
}

// pick returns the smaller (isMin) or larger of a and b, NaN if either is.
func pick[T vec.Number](a, b T, isMin bool) T {
	if isMin {
		return min(a, b)
	}
	return max(a, b)
}

// extremeOf returns the extreme of v's elements, which are not empty.
func extremeOf[T vec.Number](v *consumer.View, isMin bool) T {
	if p, n, ok := span(v); ok {
		s := elements[T](p, n)
		if vec.Workers(len(s), int(itemSize[T]())) > 1 {
			return parallelExtreme(s, isMin)
		}
		return extremeSlice(s, isMin)
	}
	m := *(*T)(v.Data)
	if inner, ok := rows(v); ok {
		forRows(v, itemSize[T](), func(p unsafe.Pointer) { m = pick(m, extremeSlice(elements[T](p, inner), isMin), isMin) })
		return m
	}
	consumer.Walk(v, func(p *T) bool {
		m = pick(m, *p, isMin)
		return true
	})
	return m
}

// extremeSlice is vec.Min or vec.Max of s (called, not taken as a function
// value, which allocates in a generic function).
func extremeSlice[T vec.Number](s []T, isMin bool) T {
	if isMin {
		return vec.Min(s)
	}
	return vec.Max(s)
}

func parallelExtreme[T vec.Number](s []T, isMin bool) T {
	var mu sync.Mutex
	m := s[0]
	vec.Parallel(len(s), int(itemSize[T]()), func(lo, hi int) {
		part := extremeSlice(s[lo:hi], isMin)
		mu.Lock()
		m = pick(m, part, isMin)
		mu.Unlock()
	})
	return m
}

func extremeHalf(v *consumer.View, isMin bool, dec func(uint16) float64) float64 {
	m := dec(*(*uint16)(v.Data))
	consumer.Walk(v, func(p *uint16) bool {
		m = pick(m, dec(*p), isMin)
		return true
	})
	return m
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

// Scale multiplies v's elements by factor in place, in the dtype's own
// arithmetic: integers wrap, and need an integer factor that the dtype holds
// ([scalar.ErrRange] otherwise); float16, bfloat16, float32 and float64 round
// the factor to the dtype first and multiply with one rounding, as NumPy's
// x *= x.dtype.type(a) does. The data must be CPU-accessible
// ([consumer.ErrDevice]) and writable ([consumer.ErrReadOnly]).
func Scale(v *consumer.View, factor scalar.Scalar) error {
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
	case dlpack.Int8, dlpack.Uint8:
		scale(v, uint8(bits)) // a product's low bits do not depend on the signs
	case dlpack.Int16, dlpack.Uint16:
		scale(v, uint16(bits))
	case dlpack.Int32, dlpack.Uint32:
		scale(v, uint32(bits))
	case dlpack.Int64, dlpack.Uint64:
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
func scale[T vec.Number](v *consumer.View, m T) {
	if p, n, ok := span(v); ok {
		s := elements[T](p, n)
		if vec.Workers(len(s), 2*int(itemSize[T]())) > 1 {
			vec.Parallel(len(s), 2*int(itemSize[T]()), func(lo, hi int) { vec.Scale(s[lo:hi], m) })
			return
		}
		vec.Scale(s, m)
		return
	}
	if inner, ok := rows(v); ok {
		if count := v.Extent.Elements / inner; vec.Workers(int(count), 2*int(inner*itemSize[T]())) > 1 {
			// The goroutines' own copy of the view: were they to capture v, v would escape, and the caller's
			// view (a bound function's argument) would move to the heap at every call, small ones too.
			w := *v
			vec.Parallel(int(count), 2*int(inner*itemSize[T]()), func(lo, hi int) {
				forRowRange(&w, itemSize[T](), int64(lo), int64(hi), func(p unsafe.Pointer) { vec.Scale(elements[T](p, inner), m) })
			})
			return
		}
		forRows(v, itemSize[T](), func(p unsafe.Pointer) { vec.Scale(elements[T](p, inner), m) })
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
// either, as [consumer.View.CopyFrom] does: same shape ([consumer.ErrLayout]),
// same dtype ([consumer.ErrDType]), and src may overlap dst (the result is
// as if src were read first). Elements laid out alike without gaps and
// without overlap are copied on up to [vec.Threads] goroutines.
func Copy(dst, src *consumer.View) error {
	if err := writable(dst); err != nil {
		return err
	}
	pd, ps, n, ok := paired(dst, src)
	if !ok || dst.DType != src.DType || !slices.Equal(dst.Shape, src.Shape) || dst.DType.ItemSize() == 0 {
		return dst.CopyFrom(src) // checks and copies any layouts
	}
	bytes := int(n) * dst.DType.ItemSize()
	d, s := elements[byte](pd, int64(bytes)), elements[byte](ps, int64(bytes))
	if consumer.Overlap(dst, src) || vec.Workers(bytes, 2) == 1 {
		preempt.Copy(d, s) // a memmove: right for overlapping spans too
		return nil
	}
	vec.Parallel(bytes, 2, func(lo, hi int) { preempt.Copy(d[lo:hi], s[lo:hi]) })
	return nil
}
