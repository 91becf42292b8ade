package main

// #include "ext.h"
import "C"

import (
	"errors"
	"fmt"

	"github.com/godlpack/godlpack/consumer"
	"github.com/godlpack/godlpack/cpython"
	"github.com/godlpack/godlpack/internal/spare"
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
}

// lent keeps the [consumer.Tensor] values that copy_'s arguments are lent
// as, for reuse: a call allocates none. Calls on other threads (under free
// threading, or while one has the GIL released) take other values, or
// allocate when all are out.
var lent spare.Slots[consumer.Tensor]

// onCPU refuses data that package [ops], which runs on the CPU, cannot read.
func onCPU(x *pymodule.Tensor) error {
	if !x.CPUAccessible() {
		return cpython.Errorf(cpython.BufferError, "godlpack.ops runs on the CPU, and the data is on %v", x.Device)
	}
	return nil
}

// cpu lends an argument to package [ops] as a [consumer.Tensor]; give it back with done.
func cpu(x pymodule.Tensor) (*consumer.Tensor, error) {
	if err := onCPU(&x); err != nil {
		return nil, err
	}
	t := lent.Take()
	if t == nil {
		t = new(consumer.Tensor)
	}
	t.Reborrow(x.View)
	return t, nil
}

func done(t *consumer.Tensor) {
	t.Release()
	lent.Give(t)
}

// opsSum returns the sum as a [scalar.Scalar], an int or a float, which C makes into its Python number once Go
// returns: no call from Go into C for it. The argument's view is summed as the binder wrote it: it stays valid for
// the call, so nothing is lent.
func opsSum(x pymodule.Tensor) (s scalar.Scalar, err error) {
	if err := onCPU(&x); err != nil {
		return scalar.Scalar{}, err
	}
	cpython.WithoutGIL(ops.WorkView(&x.View), func() { s, err = ops.SumView(&x.View) })
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
	cpython.WithoutGIL(ops.WorkView(&x.View), func() { err = ops.ScaleView(&x.View, factor) })
	return opError(err)
}

func opsCopy(dst, src pymodule.Tensor) error {
	d, err := cpu(dst)
	if err != nil {
		return err
	}
	defer done(d)
	s, err := cpu(src)
	if err != nil {
		return err
	}
	defer done(s)
	cpython.WithoutGIL(max(ops.Work(d), ops.Work(s)), func() { err = ops.Copy(d, s) })
	return opError(err)
}

// opError names the Python exception of a kernel's error (the binder puts the function's name first).
func opError(err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, scalar.ErrRange):
		return cpython.Errorf(cpython.OverflowError, "%v", err)
	case errors.Is(err, ops.ErrOverlap):
		return cpython.Errorf(cpython.ValueError, "cannot write an output whose elements share memory: %v", err)
	case errors.Is(err, consumer.ErrReadOnly):
		return cpython.Errorf(cpython.BufferError, "writes in place, and the tensor may not be written: %v", err)
	}
	return fmt.Errorf("%w", err)
}
