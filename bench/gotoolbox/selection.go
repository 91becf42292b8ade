package main

import (
	"github.com/godlpack/godlpack/pymodule"
	"github.com/godlpack/godlpack/vec"
)

// selectionItems are bench/toolbox.py's functions of this job: vec's top-k
// and arg-max of a float32 vector, bound as a Go author binds them.
var selectionItems = []pymodule.Item{
	pymodule.Def("topk", "x: tensor[float32, (*), C], k: int, /", pymodule.F2R2E(topk),
		"The k largest elements of x and their indexes, best first (fewer where x holds fewer that are not NaN).").
		Returning(pymodule.AsNumPy),
	pymodule.Def("argmax", "x: tensor[float32, (*), C], /", pymodule.F1R(argmax),
		"The index of the largest element of x, NaNs passed over; -1 if none."),
}

// topk takes k as a uint32: the binder refuses a negative k (OverflowError).
func topk(x pymodule.Tensor, k uint32) (pymodule.Array, pymodule.Array, error) {
	var top vec.TopK[float32]
	top.Largest(int(k))
	top.Push(pymodule.Slice[float32](x), 0)
	vals, idx := top.Sorted()
	v, vs, err := pymodule.NewArray[float32](int64(len(vals)))
	if err != nil {
		return v, pymodule.Array{}, err
	}
	i, is, err := pymodule.NewArray[int64](int64(len(idx)))
	if err != nil {
		v.Release()
		return pymodule.Array{}, i, err
	}
	copy(vs, vals)
	copy(is, idx)
	return v, i, nil
}

func argmax(x pymodule.Tensor) int { return vec.ArgMax(pymodule.Slice[float32](x)) }
