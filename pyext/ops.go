package main

// #include "ext.h"
import "C"

import (
	"errors"
	"fmt"
	"github.com/godlpack/godlpack/cpython"

	"github.com/godlpack/godlpack/consumer"
	"github.com/godlpack/godlpack/ops"
	"github.com/godlpack/godlpack/pymodule"
	"github.com/godlpack/godlpack/scalar"
)

// The functions of godlpack.ops: package [ops]'s kernels bound with [pymodule]
// like any Go author's, into the module godlpack.ops re-exports (so that
// they pickle by that name). Each releases the GIL when its work is large.
var opsFunctions = []pymodule.Item{
	pymodule.Def("sum", "x: tensor[device=any], /", pymodule.F1RE(opsSum), `Return the sum of the elements of x.

Integers are summed into an int64 (uint64 for unsigned dtypes) that wraps
around as NumPy's does, and the result is an int; bools count the True
elements; floats are summed in float64 and the result is a float. Raises
TypeError for other dtypes and BufferError for data the CPU cannot read.`),
	pymodule.Def("scale_", "x: tensor[device=any, writable], a, /", pymodule.F2E(opsScale), `Multiply the elements of x by a in place, in x's own memory.

Float dtypes round a to the dtype and multiply in it, as x *= x.dtype.type(a)
does in NumPy. Integer dtypes need an integer a (an int, a bool, NumPy's
integers and np.True_) that fits the dtype (TypeError for a float,
OverflowError otherwise) and wrap around on overflow.

Raises BufferError when x may not be written: its producer marked it
read-only (READ_ONLY), it spoke only the legacy DLPack protocol, which cannot
say that writing is allowed, or it handed over a copy; ValueError when its
elements share memory.`),
	pymodule.Def("copy_", "dst: tensor[device=any, writable], src: tensor[device=any], /", pymodule.F2E(opsCopy),
		`Copy the elements of src into dst in place, whatever their strides.

Both must have the same shape (ValueError otherwise; there is no
broadcasting) and the same dtype (TypeError otherwise). src may overlap dst:
the result is as if src were read first. Raises BufferError when dst may not
be written, as scale_ does.`),
	pymodule.Def("dot", "x: tensor[device=any], y: tensor[device=any], /", pymodule.F2RE(opsDot),
		`Return the dot product of x and y: the sum of the products of their elements at the same index.

Both must have the same shape (ValueError otherwise; there is no
broadcasting) and the same dtype (TypeError otherwise). Floats are
multiplied and summed in float64 and the result is a float; integers in
int64 (uint64 for unsigned dtypes), wrapping around as a sum does, and the
result is an int. Raises TypeError for bool and complex dtypes.`),
	pymodule.Def("min", "x: tensor[device=any], /", pymodule.F1RE(opsMin), `Return the smallest element of x.

An int for integer dtypes, a float for float dtypes (NaN if x holds a NaN),
a bool for bool (whether every element is True). Raises ValueError when x
has no elements.`),
	pymodule.Def("max", "x: tensor[device=any], /", pymodule.F1RE(opsMax), `Return the largest element of x.

An int for integer dtypes, a float for float dtypes (NaN if x holds a NaN),
a bool for bool (whether any element is True). Raises ValueError when x has
no elements.`),
}

// onCPU refuses data that package [ops], which runs on the CPU, cannot read.
func onCPU(x *pymodule.Tensor) error {
	if !x.CPUAccessible() {
		return cpython.Errorf(cpython.BufferError, "godlpack.ops runs on the CPU, and the data is on %v", x.Device)
	}
	return nil
}

// The arguments' views are handed to package ops as the binder wrote them: they stay valid for the call, so
// nothing is lent. Each call releases the GIL when its work is large (cpython.WithoutGIL), and package ops then
// spreads it over vec.Threads goroutines.

// opsSum returns the sum as a [scalar.Scalar], an int or a float, which C makes into its Python number once Go
// returns: no call from Go into C for it.
func opsSum(x pymodule.Tensor) (s scalar.Scalar, err error) {
	if err := onCPU(&x); err != nil {
		return scalar.Scalar{}, err
	}
	cpython.WithoutGIL(ops.Work(&x.View), func() { s, err = ops.Sum(&x.View) })
	return s, opError(err)
}

func opsDot(x, y pymodule.Tensor) (s scalar.Scalar, err error) {
	if err := errors.Join(onCPU(&x), onCPU(&y)); err != nil {
		return scalar.Scalar{}, err
	}
	cpython.WithoutGIL(ops.Work(&x.View)+ops.Work(&y.View), func() { s, err = ops.Dot(&x.View, &y.View) })
	return s, opError(err)
}

func opsMin(x pymodule.Tensor) (s scalar.Scalar, err error) {
	if err := onCPU(&x); err != nil {
		return scalar.Scalar{}, err
	}
	cpython.WithoutGIL(ops.Work(&x.View), func() { s, err = ops.Min(&x.View) })
	return s, opError(err)
}

func opsMax(x pymodule.Tensor) (s scalar.Scalar, err error) {
	if err := onCPU(&x); err != nil {
		return scalar.Scalar{}, err
	}
	cpython.WithoutGIL(ops.Work(&x.View), func() { s, err = ops.Max(&x.View) })
	return s, opError(err)
}

// opsScale takes the factor as NumPy's in-place multiply does, as the binder reads a scalar.Scalar (in C, with
// gdl_parse_scalar): a bool (np.True_ among them), any integer, or any real. A complex factor, whose imaginary part
// a real tensor cannot hold, is a TypeError; an int beyond uint64 an OverflowError.
func opsScale(x pymodule.Tensor, factor scalar.Scalar) error {
	switch factor.Kind {
	case scalar.Complex:
		return cpython.Errorf(cpython.TypeError, "the factor must be an int or a float, got a complex")
	case scalar.BigInt:
		return cpython.Errorf(cpython.OverflowError, "the factor does not fit in int64 or uint64")
	}
	if err := onCPU(&x); err != nil {
		return err
	}
	var err error
	cpython.WithoutGIL(ops.Work(&x.View), func() { err = ops.Scale(&x.View, factor) })
	return opError(err)
}

func opsCopy(dst, src pymodule.Tensor) error {
	if err := errors.Join(onCPU(&dst), onCPU(&src)); err != nil {
		return err
	}
	var err error
	cpython.WithoutGIL(max(ops.Work(&dst.View), ops.Work(&src.View)), func() { err = ops.Copy(&dst.View, &src.View) })
	return opError(err)
}

// opError names the Python exception of a kernel's error (the binder puts the function's name first).
func opError(err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, scalar.ErrRange):
		return cpython.Errorf(cpython.OverflowError, "%v", err)
	case errors.Is(err, ops.ErrEmpty):
		return cpython.Errorf(cpython.ValueError, "x has no elements, and the reduction has no identity")
	case errors.Is(err, ops.ErrOverlap):
		return cpython.Errorf(cpython.ValueError, "cannot write an output whose elements share memory: %v", err)
	case errors.Is(err, consumer.ErrReadOnly):
		return cpython.Errorf(cpython.BufferError, "writes in place, and the tensor may not be written: %v", err)
	}
	return fmt.Errorf("%w", err)
}
