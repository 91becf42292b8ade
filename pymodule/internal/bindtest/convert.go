package main

import (
	"fmt"

	"github.com/godlpack/godlpack/cpython"
	"github.com/godlpack/godlpack/dlpack"
	"github.com/godlpack/godlpack/pymodule"
)

// convertItems show what convert hands a function: each returns a copy of the tensor it was given, or, for a
// writable tensor, writes the copy it was given.
var convertItems = []pymodule.Item{
	pymodule.Def("as_float32", "x: tensor[float32, (*, *), C, convert], /", pymodule.F1RE(copyOf[float32]),
		"A copy of x as the function got it: C-contiguous float32, converted.").Returning(pymodule.AsNumPy),
	pymodule.Def("as_float64", "x: tensor[float64, convert], /", pymodule.F1RE(copyOf[float64]),
		"A copy of x as the function got it: float64 of any layout, converted.").Returning(pymodule.AsNumPy),
	pymodule.Def("vector_of", "x: tensor[float32|float64, (*), convert], /", pymodule.F1RE(func(x pymodule.Tensor) (pymodule.Array, error) {
		if x.DType == dlpack.Float64 {
			return copyOf[float64](x)
		}
		return copyOf[float32](x)
	}), "A copy of x as the function got it: float32 (what other dtypes convert to) or float64.").Returning(pymodule.AsNumPy),
	pymodule.Def("half_sum", "x, /", pymodule.F1R(func(x []float32) float64 {
		var s float64
		for _, v := range x {
			s += float64(v)
		}
		return s
	}), "The sum of x, a []float32, in float64."),
	pymodule.Def("double_", "x: tensor[float32, (*, *), C, writable, convert], /, fail=False", pymodule.F2E(double),
		"Double x in place, which the function gets C-contiguous (a copy, written back); fail after writing: nothing is written back."),
}

// double doubles a C-contiguous x in place, and then fails where asked.
func double(x pymodule.Tensor, fail bool) error {
	if !x.Extent.CContiguous {
		return fmt.Errorf("x is not C-contiguous: strides %v", x.Strides)
	}
	s := pymodule.Slice[float32](x)
	for i := range s {
		s[i] *= 2
	}
	if fail {
		return cpython.Errorf(cpython.ValueError, "failed after doubling %d elements", len(s))
	}
	return nil
}

// copyOf returns the elements of x, a tensor of T, in a new C-contiguous Array of its shape.
func copyOf[T dlpack.Element](x pymodule.Tensor) (pymodule.Array, error) {
	out, s, err := pymodule.NewArray[T](x.Shape...)
	if err != nil {
		return out, err
	}
	i := 0
	for p := range pymodule.Elements[T](x) {
		s[i] = *p
		i++
	}
	return out, err
}
