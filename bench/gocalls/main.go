// Command gocalls is the Go side of bench/calls.py: bound functions that
// take 1, 3 or 8 float32 C-contiguous tensors and a float and do nothing
// else, and functions that do the work users bind (a reduction, an
// in-place kernel, new tensors as the module's Tensor, NumPy arrays and
// PyTorch tensors, a tuple of a tensor and a float), each also releasing
// the GIL (the same name with _nogil), as the nanobind module the bench
// builds beside it.
package main

// #include <Python.h>
import "C"

import (
	"runtime"

	"github.com/godlpack/godlpack/pymodule"
)

type T = pymodule.Tensor

//export PyInit_gocalls
func PyInit_gocalls() *C.PyObject {
	items := []pymodule.Item{
		pymodule.Def("nop1", "a: tensor[float32, C], x: float", pymodule.F2(func(T, float64) {}), "One tensor."),
		pymodule.Def("nop3", "a: tensor[float32, C], b: tensor[float32, C], c: tensor[float32, C], x: float",
			pymodule.F4(func(T, T, T, float64) {}), "Three tensors."),
		pymodule.Def("nop8", "a: tensor[float32, C], b: tensor[float32, C], c: tensor[float32, C], d: tensor[float32, C], "+
			"e: tensor[float32, C], f: tensor[float32, C], g: tensor[float32, C], h: tensor[float32, C], x: float",
			pymodule.F9(func(T, T, T, T, T, T, T, T, float64) {}), "Eight tensors."),
		pymodule.Def("mallocs", "", pymodule.F0R(mallocs), "The Go heap allocations of the process so far."),
	}
	for _, suffix := range []string{"", "_nogil"} {
		for _, f := range []pymodule.Function{
			pymodule.Def("sum"+suffix, "x: tensor[float32, C], /", pymodule.F1R(sum), "The sum of x."),
			pymodule.Def("scale_"+suffix, "x: tensor[float32, C, writable], a: float, /", pymodule.F2(scale), "x *= a."),
			pymodule.Def("new_tensor"+suffix, "n: int, /", pymodule.F1RE(ones), "n ones, as a Tensor."),
			pymodule.Def("new_numpy"+suffix, "n: int, /", pymodule.F1RE(ones), "n ones, as a NumPy array.").Returning(pymodule.AsNumPy),
			pymodule.Def("new_torch"+suffix, "n: int, /", pymodule.F1RE(ones), "n ones, as a PyTorch tensor.").Returning(pymodule.AsTorch),
			pymodule.Def("halves"+suffix, "x: tensor[float32, C], /", pymodule.F1R2E(halves), "x / 2 as a NumPy array, and the sum of x.").
				Returning(pymodule.AsNumPy),
		} {
			if suffix != "" {
				f = f.WithoutGIL()
			}
			items = append(items, f)
		}
	}
	m, _ := pymodule.New("gocalls", "Bound Go functions for bench/calls.py.", items...)
	return (*C.PyObject)(m)
}

func sum(x T) float64 {
	s := pymodule.Slice[float32](x)
	var total float32
	for _, v := range s {
		total += v
	}
	return float64(total)
}

func scale(x T, a float64) {
	s := pymodule.Slice[float32](x)
	for i := range s {
		s[i] *= float32(a)
	}
}

func ones(n int64) (pymodule.Array, error) {
	out, v, err := pymodule.NewArray[float32](n)
	for i := range v {
		v[i] = 1
	}
	return out, err
}

func halves(x T) (pymodule.Array, float64, error) {
	s := pymodule.Slice[float32](x)
	out, v, err := pymodule.NewArray[float32](int64(len(s)))
	var total float32
	for i := range v {
		v[i] = s[i] / 2
		total += s[i]
	}
	return out, float64(total), err
}

func mallocs() uint64 {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.Mallocs
}
