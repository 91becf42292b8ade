package main

import (
	"errors"

	"github.com/godlpack/godlpack/pymodule"
	"github.com/godlpack/godlpack/vec"
)

// mathItems are bench/toolbox_math.py's functions: vec.Exp, vec.Log and
// vec.Tanh as NumPy's ufuncs with out=, for float32 and float64.
var mathItems = []pymodule.Item{
	mathDef("exp", vec.Exp[float32], vec.Exp[float64]),
	mathDef("log", vec.Log[float32], vec.Log[float64]),
	mathDef("tanh", vec.Tanh[float32], vec.Tanh[float64]),
}

func mathDef(name string, f32 func(dst, x []float32), f64 func(dst, x []float64)) pymodule.Function {
	return pymodule.Def(name, "x: tensor[float32 | float64, C], out: tensor[float32 | float64, C, writable], /",
		pymodule.F2E(func(x, out pymodule.Tensor) error {
			if x.DType != out.DType {
				return errors.New(name + ": x and out differ in dtype")
			}
			if x.DType.Bits == 32 {
				f32(pymodule.Slice[float32](out), pymodule.Slice[float32](x))
			} else {
				f64(pymodule.Slice[float64](out), pymodule.Slice[float64](x))
			}
			return nil
		}), "out[...] = "+name+"(x), element-wise, by vec."+name).WithoutGIL()
}
