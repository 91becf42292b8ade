package main

// #include "ops.h"
import "C"

import (
	"errors"
	"math"

	"github.com/godlpack/godlpack/consumer"
	"github.com/godlpack/godlpack/dlpack"
)

// goOps runs one kernel of godlpack.ops on tensors C has taken out of their
// capsules, through the public consumer API: import, kernel (without the
// GIL when large), release. Ownership of every managed tensor passes to Go:
// each deleter has run once when it returns.
//
//export goOps
func goOps(a *C.gdl_ops_args) (rc C.int) {
	var ts [2]*consumer.Tensor
	n, imported := int(a.n), 0
	defer func() {
		if r := recover(); r != nil {
			rc = fail(&a.err, C.GDL_RUNTIME_ERROR, "godlpack: internal error in godlpack.ops: %v", r)
		}
		for i := imported; i < n; i++ {
			C.gdl_managed_delete(a.managed[i], a.versioned[i] != 0)
		}
		for _, t := range ts {
			if t != nil {
				t.Release()
			}
		}
	}()
	for i := 0; i < n; i++ {
		t, err := consumer.Import(dlpack.Managed{Pointer: a.managed[i], Versioned: a.versioned[i] != 0})
		imported = i + 1 // Import owns it now, and deleted it on error
		if err != nil {
			return fail(&a.err, C.GDL_BUFFER_ERROR, "cannot import the tensor: %v", err)
		}
		ts[i] = t
		if !t.CPUAccessible() {
			return fail(&a.err, C.GDL_BUFFER_ERROR, "godlpack.ops runs on the CPU, and the data is on %v", t.Device)
		}
	}
	x := ts[0]
	switch a.op {
	case C.GDL_OP_SUM:
		return opSum(a, x)
	case C.GDL_OP_SCALE:
		if kind := inPlace(&a.err, "scale_", x); kind != C.GDL_OK {
			return kind
		}
		return opScale(a, x)
	}
	dst, src := x, ts[1]
	if kind := inPlace(&a.err, "copy_", dst); kind != C.GDL_OK {
		return kind
	}
	var err error
	withoutGIL(max(dst.Extent.Bytes(), src.Extent.Bytes()), func() { err = dst.CopyFrom(src) })
	switch {
	case errors.Is(err, consumer.ErrDType):
		return fail(&a.err, C.GDL_TYPE_ERROR, "copy_(): %v", err)
	case errors.Is(err, consumer.ErrLayout):
		return fail(&a.err, C.GDL_VALUE_ERROR, "copy_(): %v", err)
	case err != nil:
		return fail(&a.err, C.GDL_BUFFER_ERROR, "copy_(): %v", err)
	}
	return C.GDL_OK
}

// inPlace refuses, with BufferError, a tensor an in-place kernel may not
// write, or whose writes nobody would see (a copy the producer made).
func inPlace(e *C.gdl_error, op string, t *consumer.Tensor) C.int {
	if err := t.CheckWritable(); err != nil {
		return fail(e, C.GDL_BUFFER_ERROR, "%s() writes in place, and the tensor may not be written: %v", op, err)
	}
	if t.Copied() {
		return fail(e, C.GDL_BUFFER_ERROR, "%s() writes in place, and the producer handed over a copy (IS_COPIED)", op)
	}
	return C.GDL_OK
}

// real is the set of element types the arithmetic kernels work on.
type real interface {
	int8 | int16 | int32 | int64 | uint8 | uint16 | uint32 | uint64 | float32 | float64
}

// reduce sums t's elements of type T into an accumulator of type A:
// int64 or uint64 for integers (wrapping, as NumPy's does), float64 for
// floats.
func reduce[T real, A int64 | uint64 | float64](t *consumer.Tensor) A {
	var acc A
	if s, err := consumer.Slice[T](t); err == nil {
		for _, v := range s {
			acc += A(v)
		}
		return acc
	}
	it, _ := consumer.Elements[T](t)
	for p := range it {
		acc += A(*p)
	}
	return acc
}

// reduceHalf sums 16-bit floats decoded by dec.
func reduceHalf(t *consumer.Tensor, dec func(uint16) float64) float64 {
	var acc float64
	it, _ := consumer.Raw[uint16](t)
	for p := range it {
		acc += dec(*p)
	}
	return acc
}

func opSum(a *C.gdl_ops_args, t *consumer.Tensor) C.int {
	a.r_kind = C.GDL_NUM_INT
	var i int64
	var u uint64
	var f float64
	dt := t.DType
	withoutGIL(t.Extent.Bytes(), func() {
		switch dt {
		case dlpack.Bool:
			it, _ := consumer.Elements[bool](t)
			for p := range it {
				if *p {
					i++
				}
			}
		case dlpack.Int8:
			i = reduce[int8, int64](t)
		case dlpack.Int16:
			i = reduce[int16, int64](t)
		case dlpack.Int32:
			i = reduce[int32, int64](t)
		case dlpack.Int64:
			i = reduce[int64, int64](t)
		case dlpack.Uint8:
			u = reduce[uint8, uint64](t)
		case dlpack.Uint16:
			u = reduce[uint16, uint64](t)
		case dlpack.Uint32:
			u = reduce[uint32, uint64](t)
		case dlpack.Uint64:
			u = reduce[uint64, uint64](t)
		case dlpack.Float16:
			f = reduceHalf(t, float16Float)
		case dlpack.Bfloat16:
			f = reduceHalf(t, bfloat16Float)
		case dlpack.Float32:
			f = reduce[float32, float64](t)
		case dlpack.Float64:
			f = reduce[float64, float64](t)
		}
	})
	switch {
	case dt.Code == dlpack.UInt:
		a.r_kind, a.ru = C.GDL_NUM_UINT, C.ulonglong(u)
	case dt.Code == dlpack.Float || dt.Code == dlpack.Bfloat:
		a.r_kind, a.rf = C.GDL_NUM_FLOAT, C.double(f)
	case dt.Code == dlpack.Int || dt == dlpack.Bool:
		a.ri = C.longlong(i)
	default:
		return fail(&a.err, C.GDL_TYPE_ERROR, "sum() supports bool, integer and real float dtypes, not %v", dt)
	}
	return C.GDL_OK
}

// scale multiplies t's elements of type T by m in place, in T's arithmetic.
func scale[T real](t *consumer.Tensor, m T) {
	if s, err := consumer.Slice[T](t); err == nil {
		for i := range s {
			s[i] *= m
		}
		return
	}
	it, _ := consumer.Elements[T](t)
	for p := range it {
		*p *= m
	}
}

// scaleHalf multiplies 16-bit floats by f rounded to their format. The
// product of two such values is exact in float64, so one rounding gives
// the correctly rounded result.
func scaleHalf(t *consumer.Tensor, f float64, enc func(float64) uint16, dec func(uint16) float64) {
	m := dec(enc(f))
	it, _ := consumer.Raw[uint16](t)
	for p := range it {
		*p = enc(dec(*p) * m)
	}
}

// fits reports whether v is a value of the integer data type dt.
func fits(v int64, dt dlpack.DataType) bool {
	if dt.Code == dlpack.UInt {
		return v >= 0 && (dt.Bits == 64 || v < 1<<dt.Bits)
	}
	return dt.Bits == 64 || v >= -(1<<(dt.Bits-1)) && v < 1<<(dt.Bits-1)
}

func opScale(a *C.gdl_ops_args, t *consumer.Tensor) C.int {
	dt := t.DType
	integer := dt.Code == dlpack.Int || dt.Code == dlpack.UInt
	switch {
	case integer && a.a_kind != C.GDL_NUM_INT:
		return fail(&a.err, C.GDL_TYPE_ERROR, "scale_() of an %v tensor needs an int factor, got %v", dt, float64(a.af))
	case integer && !fits(int64(a.ai), dt):
		return fail(&a.err, C.GDL_OVERFLOW_ERROR, "scale_() factor %d does not fit in %v", int64(a.ai), dt)
	case !integer && dt.Code != dlpack.Float && dt.Code != dlpack.Bfloat || dt.Lanes != 1:
		return fail(&a.err, C.GDL_TYPE_ERROR, "scale_() supports integer and real float dtypes, not %v", dt)
	}
	i, f := int64(a.ai), float64(a.af)
	withoutGIL(t.Extent.Bytes(), func() {
		switch dt {
		case dlpack.Int8:
			scale(t, int8(i))
		case dlpack.Int16:
			scale(t, int16(i))
		case dlpack.Int32:
			scale(t, int32(i))
		case dlpack.Int64:
			scale(t, i)
		case dlpack.Uint8:
			scale(t, uint8(i))
		case dlpack.Uint16:
			scale(t, uint16(i))
		case dlpack.Uint32:
			scale(t, uint32(i))
		case dlpack.Uint64:
			scale(t, uint64(i))
		case dlpack.Float16:
			scaleHalf(t, f, float16Bits, float16Float)
		case dlpack.Bfloat16:
			scaleHalf(t, f, bfloat16Bits, bfloat16Float)
		case dlpack.Float32:
			scale(t, float32(f))
		case dlpack.Float64:
			scale(t, f)
		}
	})
	return C.GDL_OK
}

// float16Float decodes an IEEE binary16.
func float16Float(h uint16) float64 {
	sign := 1.0
	if h&0x8000 != 0 {
		sign = -1
	}
	exp, man := int(h>>10&0x1f), float64(h&0x3ff)
	switch exp {
	case 0:
		return sign * math.Ldexp(man, -24)
	case 0x1f:
		if man != 0 {
			return math.NaN()
		}
		return math.Inf(int(sign))
	}
	return sign * math.Ldexp(1024+man, exp-25)
}

// bfloat16Float decodes a bfloat16: the high half of a float32.
func bfloat16Float(b uint16) float64 { return float64(math.Float32frombits(uint32(b) << 16)) }
