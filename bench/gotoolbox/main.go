// Command gotoolbox is the Go side of bench/toolbox.py: package vec's
// toolbox (element-wise math and arithmetic, matrix products, selection)
// bound as plain functions on C-contiguous tensors, so that one process
// times each kernel beside NumPy's, PyTorch's and OpenBLAS's. Each job's
// functions are in a file of their own.
package main

// #include <Python.h>
import "C"

import (
	"slices"

	"github.com/godlpack/godlpack/pymodule"
	"github.com/godlpack/godlpack/vec"
)

var module = pymodule.Module{Name: "gotoolbox", Doc: "package vec's toolbox, for bench/toolbox.py.",
	Items: slices.Concat(mathItems, arithItems, productItems, selectionItems, []pymodule.Item{
		pymodule.Def("set_num_threads", "n: int, /", pymodule.F1R(vec.SetThreads),
			"Set the threads the kernels may use (below 1: the default); return the last count."),
	})}

//export PyInit_gotoolbox
func PyInit_gotoolbox() *C.PyObject { return (*C.PyObject)(module.Init()) }
