// Command normalize is a Python extension module written in Go with the
// public godlpack packages only: normalize.normalize(x) rescales a float32
// array of any strides, in place, to mean 0 and standard deviation 1, and
// returns its former (mean, std) as a new float64 tensor that
// numpy.from_dlpack and torch.from_dlpack read without a copy.
//
// It is a Go module and a Python project of its own (go.mod, pyproject.toml,
// setup.py): `python -m build` in its directory makes an sdist and a wheel
// with godlpack's build helper (godlpack.build). By hand, in its directory,
// with the interpreter's header directories in CGO_CFLAGS:
//
//	export CGO_CFLAGS="$(python3 -m godlpack.build --cflags) -O2 -g"
//	go build -buildmode=c-shared -o normalize$(python3-config --extension-suffix) .
package main

// #cgo CFLAGS: -Wall -Wextra -Wno-unused-parameter
// #include <Python.h>
import "C"

import (
	"math"

	"github.com/godlpack/godlpack/pymodule"
)

var module = pymodule.Module{Name: "normalize", Doc: "A Go extension built on godlpack.", Items: []pymodule.Item{
	pymodule.Def("normalize", "x: tensor[float32, writable] -> tensor[float64, (2)]", pymodule.F1RE(normalize),
		"Rescale the float32 array x in place to mean 0 and std 1; return (mean, std) as a tensor."),
}}

//export PyInit_normalize
func PyInit_normalize() *C.PyObject {
	return (*C.PyObject)(module.Init()) // nil with the exception set when the module cannot be made
}

// main writes the type stub when the package runs as a program: go run ./examples/normalize -pyi normalize.pyi.
func main() { module.Main() }

// normalize works on any DLPack producer's memory (NumPy, PyTorch,
// godlpack), of any strides; the binder refused read-only data.
func normalize(x pymodule.Tensor) (pymodule.Array, error) {
	var sum, sq float64
	for p := range pymodule.Elements[float32](x) {
		sum += float64(*p)
	}
	n := float64(x.Extent.Elements)
	mean := sum / max(n, 1)
	for p := range pymodule.Elements[float32](x) {
		sq += (float64(*p) - mean) * (float64(*p) - mean)
	}
	std := math.Sqrt(sq / max(n, 1))
	for p := range pymodule.Elements[float32](x) {
		if std > 0 {
			*p = float32((float64(*p) - mean) / std)
		} else {
			*p = 0
		}
	}
	// Export Go memory without a copy: the Array keeps it pinned until the consumer is done.
	return pymodule.FromSlice([]float64{mean, std})
}
