package main

import (
	"github.com/godlpack/godlpack/pymodule"
	"github.com/godlpack/godlpack/vec"
)

// productShapeError is raised for operands whose shapes do not multiply.
var productShapeError = pymodule.NewException("ProductShapeError", 0, "Operands whose shapes do not multiply.")

// productItems are bench/toolbox_products.py's functions: dots_f32(a, b,
// out) writes a @ b.T into out and matmul_f32(a, b, out) a @ b, by
// vec.ParallelDots and vec.ParallelMatMul on vec.Threads() goroutines (one
// after set_num_threads(1)); _f64 for float64, and each also releasing the
// GIL (_nogil).
var productItems = append(productFunctions(), productShapeError)

func productFunctions() []pymodule.Item {
	var items []pymodule.Item
	for _, suffix := range []string{"", "_nogil"} {
		for _, f := range []pymodule.Function{
			pymodule.Def("dots_f32"+suffix, productParams("float32"), pymodule.F3E(dots[float32]), "out = a @ b.T."),
			pymodule.Def("dots_f64"+suffix, productParams("float64"), pymodule.F3E(dots[float64]), "out = a @ b.T."),
			pymodule.Def("matmul_f32"+suffix, productParams("float32"), pymodule.F3E(matmul[float32]), "out = a @ b."),
			pymodule.Def("matmul_f64"+suffix, productParams("float64"), pymodule.F3E(matmul[float64]), "out = a @ b."),
		} {
			if suffix != "" {
				f = f.WithoutGIL()
			}
			items = append(items, f)
		}
	}
	return items
}

func productParams(dtype string) string {
	return "a: tensor[" + dtype + ", (*, *), C], b: tensor[" + dtype + ", (*, *), C], out: tensor[" + dtype +
		", (*, *), C, writable], /"
}

func dots[T float32 | float64](a, b, out pymodule.Tensor) error {
	if a.Shape[1] != b.Shape[1] || out.Shape[0] != a.Shape[0] || out.Shape[1] != b.Shape[0] {
		return productShapeError.Errorf("a @ b.T of %v and %v into %v", a.Shape, b.Shape, out.Shape)
	}
	vec.ParallelDots(pymodule.Slice[T](out), pymodule.Slice[T](a), pymodule.Slice[T](b), int(a.Shape[1]))
	return nil
}

func matmul[T float32 | float64](a, b, out pymodule.Tensor) error {
	if a.Shape[1] != b.Shape[0] || out.Shape[0] != a.Shape[0] || out.Shape[1] != b.Shape[1] {
		return productShapeError.Errorf("a @ b of %v and %v into %v", a.Shape, b.Shape, out.Shape)
	}
	vec.ParallelMatMul(pymodule.Slice[T](out), pymodule.Slice[T](a), pymodule.Slice[T](b), int(a.Shape[1]))
	return nil
}
