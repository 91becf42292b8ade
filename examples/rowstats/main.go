// Command rowstats is a Python extension module written in Go on the public
// godlpack packages: row_norms(x, /) returns the L2 norm of each row of a
// 2-D float32 or float64 tensor of any strides (rows on every core, each
// contiguous one by package vec's vector kernel), and clip_(x, /, lo=-inf,
// hi=inf) clips a writable tensor in place and returns how many elements it
// raised and lowered. Build it as a shared library named like any extension
// module, with the interpreter's header directories in CGO_CFLAGS:
//
//	export CGO_CFLAGS="$(python3 -m godlpack.build --cflags) -O2 -g"
//	cd examples/rowstats && go build -buildmode=c-shared -o rowstats$(python3-config --extension-suffix) .
//
// or make a wheel of it with `python -m build` in its folder (godlpack.build does the Go part).
package main

// #include <Python.h>
import "C"

import (
	"math"

	"github.com/godlpack/godlpack/pymodule"
	"github.com/godlpack/godlpack/vec"
)

var module = pymodule.Module{Name: "rowstats", Doc: "Row statistics of float tensors, in Go.", Items: []pymodule.Item{
	pymodule.Def("row_norms", "x: tensor[float32|float64, (*, *)], / -> tensor[float32|float64, (*)]", pymodule.F1RE(rowNorms), "The L2 norm of each row of x, in x's dtype.").WithoutGIL(),
	pymodule.Def("clip_", "x: tensor[float32|float64, writable], /, lo=-inf, hi=inf", pymodule.F3R2(clip), "Clip x in place to [lo, hi]; return (raised, lowered): the counts moved up and down."),
}}

//export PyInit_rowstats
func PyInit_rowstats() *C.PyObject { return (*C.PyObject)(module.Init()) } // nil with the exception set on failure

func main() { module.Main() } // go run . -pyi rowstats.pyi writes the type stub

func rowNorms(x pymodule.Tensor) (pymodule.Array, error) {
	if x.DType.Bits == 32 {
		return norms[float32](x)
	}
	return norms[float64](x)
}

func norms[T float32 | float64](x pymodule.Tensor) (pymodule.Array, error) {
	out, norms, err := pymodule.NewArray[T](x.Shape[0]) // C memory: a row count never aborts the process
	// Rows on every core (the GIL released), each range on a goroutine of its own.
	vec.Parallel(len(norms), int(x.Shape[1])*x.DType.ItemSize(), func(lo, hi int) {
		for i := lo; i < hi; i++ {
			row := x.Index(int64(i))
			if row.Extent.CContiguous { // a contiguous row: package vec's kernel, in float64
				s := pymodule.Slice[T](row)
				norms[i] = T(math.Sqrt(vec.Dot(s, s)))
				continue
			}
			var sum float64
			for p := range pymodule.Elements[T](row) {
				sum += float64(*p) * float64(*p)
			}
			norms[i] = T(math.Sqrt(sum))
		}
	})
	return out, err
}

func clip(x pymodule.Tensor, lo, hi float64) (raised, lowered int64) {
	if x.DType.Bits == 32 {
		return clipAs[float32](x, lo, hi)
	}
	return clipAs[float64](x, lo, hi)
}

func clipAs[T float32 | float64](x pymodule.Tensor, lo, hi float64) (raised, lowered int64) {
	for p := range pymodule.Elements[T](x) {
		if v := float64(*p); v < lo {
			*p, raised = T(lo), raised+1
		} else if v > hi {
			*p, lowered = T(hi), lowered+1
		}
	}
	return raised, lowered
}
