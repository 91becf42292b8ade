package main

import (
	"github.com/godlpack/godlpack/pymodule"
	"github.com/godlpack/godlpack/vec"
)

// The tensor parameters of the arithmetic: float32 or float64, C-contiguous, of one dtype and length (vec
// panics otherwise, a RuntimeError), dst written.
const (
	arithDst = "dst: tensor[float32|float64, C, writable], "
	arithX   = "x: tensor[float32|float64, C]"
)

// arithItems are bench/toolbox.py's functions of this job: package vec's element-wise arithmetic, dst
// first as in Go, and SqDistConst.
var arithItems = []pymodule.Item{
	pymodule.Def("add", arithDst+arithX+", y: tensor[float32|float64, C], /", pymodule.F3(arithSlices(vec.Add[float32], vec.Add[float64])), "vec.Add: dst = x + y."),
	pymodule.Def("sub", arithDst+arithX+", y: tensor[float32|float64, C], /", pymodule.F3(arithSlices(vec.Sub[float32], vec.Sub[float64])), "vec.Sub: dst = x - y."),
	pymodule.Def("mul", arithDst+arithX+", y: tensor[float32|float64, C], /", pymodule.F3(arithSlices(vec.Mul[float32], vec.Mul[float64])), "vec.Mul: dst = x * y."),
	pymodule.Def("div", arithDst+arithX+", y: tensor[float32|float64, C], /", pymodule.F3(arithSlices(vec.Div[float32], vec.Div[float64])), "vec.Div: dst = x / y."),
	pymodule.Def("add_const", arithDst+arithX+", c: float, /", pymodule.F3(arithConst(vec.AddConst[float32], vec.AddConst[float64])), "vec.AddConst: dst = x + c."),
	pymodule.Def("sub_const", arithDst+arithX+", c: float, /", pymodule.F3(arithConst(vec.SubConst[float32], vec.SubConst[float64])), "vec.SubConst: dst = x - c."),
	pymodule.Def("mul_const", arithDst+arithX+", c: float, /", pymodule.F3(arithConst(vec.MulConst[float32], vec.MulConst[float64])), "vec.MulConst: dst = x * c."),
	pymodule.Def("div_const", arithDst+arithX+", c: float, /", pymodule.F3(arithConst(vec.DivConst[float32], vec.DivConst[float64])), "vec.DivConst: dst = x / c."),
	pymodule.Def("mul_add_const", arithDst+arithX+", a: float, b: float, /", pymodule.F4(arithConst2(vec.MulAddConst[float32], vec.MulAddConst[float64])), "vec.MulAddConst: dst = x*a + b."),
	pymodule.Def("sub_mul_const", arithDst+arithX+", b: float, a: float, /", pymodule.F4(arithConst2(vec.SubMulConst[float32], vec.SubMulConst[float64])), "vec.SubMulConst: dst = (x - b) * a."),
	pymodule.Def("mul_add", arithDst+arithX+", a: tensor[float32|float64, C], b: tensor[float32|float64, C], /", pymodule.F4(mulAdd), "vec.MulAdd: dst = x*a + b."),
	pymodule.Def("sq_dist_const", arithX+", c: float, /", pymodule.F2R(sqDistConst), "vec.SqDistConst: the sum of (x - c)**2."),
}

func arithSlices(f32 func(dst, x, y []float32), f64 func(dst, x, y []float64)) func(dst, x, y pymodule.Tensor) {
	return func(dst, x, y pymodule.Tensor) {
		if dst.DType.Bits == 32 {
			f32(pymodule.Slice[float32](dst), pymodule.Slice[float32](x), pymodule.Slice[float32](y))
		} else {
			f64(pymodule.Slice[float64](dst), pymodule.Slice[float64](x), pymodule.Slice[float64](y))
		}
	}
}

func arithConst(f32 func(dst, x []float32, c float32), f64 func(dst, x []float64, c float64)) func(dst, x pymodule.Tensor, c float64) {
	return func(dst, x pymodule.Tensor, c float64) {
		if dst.DType.Bits == 32 {
			f32(pymodule.Slice[float32](dst), pymodule.Slice[float32](x), float32(c))
		} else {
			f64(pymodule.Slice[float64](dst), pymodule.Slice[float64](x), c)
		}
	}
}

func arithConst2(f32 func(dst, x []float32, a, b float32), f64 func(dst, x []float64, a, b float64)) func(dst, x pymodule.Tensor, a, b float64) {
	return func(dst, x pymodule.Tensor, a, b float64) {
		if dst.DType.Bits == 32 {
			f32(pymodule.Slice[float32](dst), pymodule.Slice[float32](x), float32(a), float32(b))
		} else {
			f64(pymodule.Slice[float64](dst), pymodule.Slice[float64](x), a, b)
		}
	}
}

func mulAdd(dst, x, a, b pymodule.Tensor) {
	if dst.DType.Bits == 32 {
		vec.MulAdd(pymodule.Slice[float32](dst), pymodule.Slice[float32](x), pymodule.Slice[float32](a), pymodule.Slice[float32](b))
	} else {
		vec.MulAdd(pymodule.Slice[float64](dst), pymodule.Slice[float64](x), pymodule.Slice[float64](a), pymodule.Slice[float64](b))
	}
}

func sqDistConst(x pymodule.Tensor, c float64) float64 {
	if x.DType.Bits == 32 {
		return vec.SqDistConst(pymodule.Slice[float32](x), c)
	}
	return vec.SqDistConst(pymodule.Slice[float64](x), c)
}
