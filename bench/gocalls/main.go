// Command gocalls is the Go side of bench/calls.py: bound functions that
// take 1, 3 or 8 float32 C-contiguous tensors and a float and do nothing
// else, as the nanobind module the bench builds beside it.
package main

// #include <Python.h>
import "C"

import "github.com/godlpack/godlpack/pymodule"

type T = pymodule.Tensor

//export PyInit_gocalls
func PyInit_gocalls() *C.PyObject {
	m, _ := pymodule.New("gocalls", "Bound Go functions that do nothing, for bench/calls.py.",
		pymodule.Def("nop1", "a: tensor[float32, C], x: float", pymodule.F2(func(T, float64) {}), "One tensor."),
		pymodule.Def("nop3", "a: tensor[float32, C], b: tensor[float32, C], c: tensor[float32, C], x: float",
			pymodule.F4(func(T, T, T, float64) {}), "Three tensors."),
		pymodule.Def("nop8", "a: tensor[float32, C], b: tensor[float32, C], c: tensor[float32, C], d: tensor[float32, C], "+
			"e: tensor[float32, C], f: tensor[float32, C], g: tensor[float32, C], h: tensor[float32, C], x: float",
			pymodule.F9(func(T, T, T, T, T, T, T, T, float64) {}), "Eight tensors."))
	return (*C.PyObject)(m)
}
