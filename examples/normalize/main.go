// Command normalize is a Python extension module written in Go with the
// public godlpack packages only: normalize.normalize(x) rescales a float32
// array of any strides, in place, to mean 0 and standard deviation 1, and
// returns its former (mean, std) as a new float64 tensor that
// numpy.from_dlpack and torch.from_dlpack read without a copy.
//
// It is a Go module and a Python project of its own (go.mod, pyproject.toml,
// setup.py): `python -m build` in its directory makes an sdist and a wheel
// with godlpack's build helper (godlpack.build). By hand, in its directory:
//
//	go build -buildmode=c-shared -o normalize$(python3-config --extension-suffix) .
package main

// #cgo pkg-config: python3
// #cgo CFLAGS: -Wall -Wextra -Wno-unused-parameter
// #include <Python.h>
import "C"

import (
	"math"

	"github.com/godlpack/godlpack/capsule"
	"github.com/godlpack/godlpack/consumer"
	"github.com/godlpack/godlpack/dlpack"
	"github.com/godlpack/godlpack/producer"
	"github.com/godlpack/godlpack/pymodule"
)

func main() {}

//export PyInit_normalize
func PyInit_normalize() *C.PyObject {
	m, _ := pymodule.New("normalize", "A Go extension built on godlpack.", pymodule.Function{
		Name: "normalize",
		Doc:  "normalize(x)\n--\n\nRescale the float32 array x in place to mean 0 and std 1; return (mean, std) as a tensor.",
		Func: normalize,
	})
	return (*C.PyObject)(m) // nil with the exception set when New failed
}

func normalize(args []capsule.Object) (capsule.Object, error) {
	if len(args) != 1 {
		return nil, capsule.Errorf(capsule.TypeError, "normalize() takes exactly 1 argument (%d given)", len(args))
	}
	// Any DLPack producer: NumPy, PyTorch, godlpack. Writable refuses read-only data.
	t, err := capsule.Import(args[0], capsule.Request{Writable: true})
	if err != nil {
		return nil, err
	}
	defer t.Release()
	elems, err := consumer.Elements[float32](t) // any strides; ErrDType (TypeError) for other dtypes
	if err != nil {
		return nil, err
	}
	var sum, sq float64
	for p := range elems {
		sum += float64(*p)
	}
	n := float64(t.Extent.Elements)
	mean := sum / max(n, 1)
	for p := range elems {
		sq += (float64(*p) - mean) * (float64(*p) - mean)
	}
	std := math.Sqrt(sq / max(n, 1))
	for p := range elems {
		if std > 0 {
			*p = float32((float64(*p) - mean) / std)
		} else {
			*p = 0
		}
	}
	// Export Go memory without a copy: Pin keeps it until the consumer is done.
	b, err := producer.Pin([]float64{mean, std})
	if err != nil {
		return nil, err
	}
	defer b.Release()
	return capsule.NewExporter(b, producer.Layout{Shape: []int64{2}, DType: dlpack.Float64})
}
