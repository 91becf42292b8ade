// Command bindtest is an extension module of bound Go functions that
// covers every conversion of package pymodule, for test_bindtest.py (run
// in a process of its own: it carries its own Go runtime).
package main

// #include <Python.h>
// #include <stdint.h>
// int64_t gdl_owner_live(void); /* package producer's count of the owners of result memory alive */
import "C"

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"time"

	"github.com/godlpack/godlpack/capsule"
	"github.com/godlpack/godlpack/consumer"
	"github.com/godlpack/godlpack/cpython"
	"github.com/godlpack/godlpack/dlpack"
	"github.com/godlpack/godlpack/pymodule"
	"github.com/godlpack/godlpack/scalar"
)

func main() { module.Main() }

//export PyInit_bindtest
func PyInit_bindtest() *C.PyObject { return (*C.PyObject)(module.Init()) }

var module = pymodule.Module{Name: "bindtest", Doc: "Bound Go functions for the binder's tests.",
	Items: slices.Concat(functionItems, classItems, errorItems, convertItems, bufferItems, specialItems, sharedItems)}

var functionItems = []pymodule.Item{
	pymodule.Def("ints", "a, b, c, d, e, f, g, h, /", pymodule.F8R(ints), "The sum of ints of every width, as a float."),
	pymodule.Def("int_defaults", "a=-128, b=-0x8000, c=2_147_483_647, d=-9223372036854775808, e=255, f=0xffff, "+
		"g=4294967295, h=18446744073709551615", pymodule.F8R(func(a int8, b int16, c int32, d int64, e uint8, f uint16, g uint32, h uint64) string {
		return fmt.Sprint(a, b, c, d, e, f, g, h)
	}), "Integer defaults at the ends of every width, back as text."),
	pymodule.Def("echo_int8", "x", pymodule.F1R(func(x int8) int8 { return x }), "x back."),
	pymodule.Def("echo_uint64", "x", pymodule.F1R(func(x uint64) uint64 { return x }), "x back."),
	pymodule.Def("echo_int", "x", pymodule.F1R(func(x int) int { return x }), "x back."),
	pymodule.Def("floats", "x: float, y=0.5, *, z=-inf", pymodule.F3R3(floats), "x, y and z back, y as a float32."),
	pymodule.Def("cplx", "z, w=1j", pymodule.F2R2(func(z complex128, w complex64) (complex128, complex64) { return z * 2, w }), "2z and w."),
	pymodule.Def("flag", "b=False", pymodule.F1R(func(b bool) bool { return !b }), "not b."),
	pymodule.Def("text", "s, b=b'', /, *, sep='-'", pymodule.F3R2(text), "s + sep + b, as str and bytes."),
	pymodule.Def("maybe", "x=None", pymodule.F1R(maybe), "x doubled, or -1 for None."),
	pymodule.Def("none", "", pymodule.F0(func() {}), "Nothing."),
	pymodule.Def("fail", "kind: str", pymodule.F1E(fail), "Return an error of a kind."),
	pymodule.Def("panics", "", pymodule.F0(func() { panic("deliberately") }), "Panic."),
	pymodule.Def("shape", "x", pymodule.F1R2(shape), "ndim and element count of any tensor."),
	pymodule.Def("matrix", "x: tensor[float32|float64, (*, *)], /", pymodule.F1R(func(x pymodule.Tensor) int64 { return x.Shape[0] }), "Rows."),
	pymodule.Def("triple", "x: tensor[int32, (*, 3), C]", pymodule.F1R(func(x pymodule.Tensor) int64 { return x.Shape[0] }), "Rows."),
	pymodule.Def("row_layout", "x, i: int, /", pymodule.F2R(func(x pymodule.Tensor, i int64) string {
		r := x.Index(i)
		return fmt.Sprint(r.Shape, r.Extent.Elements, r.Extent.Low, r.Extent.High, r.Extent.DenseBytes, r.Extent.CContiguous, r.Extent.FContiguous)
	}), "The layout of x[i] as Tensor.Index makes it: shape, elements, low, high, dense bytes, C and F contiguity."),
	pymodule.Def("row_offset", "x, i: int, /", pymodule.F2R2(func(x pymodule.Tensor, i int64) (int64, int64) {
		r := x.Index(i)
		return int64(uintptr(r.Data) - uintptr(x.Data)), r.Extent.Elements
	}), "x.Index(i): where its data starts, in bytes from x's, and its elements."),
	pymodule.Def("take", "o, /", pymodule.F1RE(take), "The ndim of o's tensor, taken with capsule.Take."),
	pymodule.Def("import_", "o, /", pymodule.F1RE(importTensor), "The ndim of o's tensor, imported with capsule.Import."),
	pymodule.Def("take_regained", "o, /", pymodule.F1RE(takeRegained),
		"take(o) from a call without the GIL, whose Go code takes it back for capsule.Take.").WithoutGIL(),
	pymodule.Def("hold", "o, /", pymodule.F1(hold), "Keep a reference to o, dropping the one kept before."),
	pymodule.Def("take_held", "", pymodule.F0RE(takeHeld),
		"The ndim of the tensor of the object hold kept, taken with capsule.Take."),
	pymodule.Def("python_error", "kind: str, /", pymodule.F1E(pythonError),
		"Return cpython.PythonError, with a ValueError set ('value') or none ('unset')."),
	pymodule.Def("fortran", "x: tensor[F]", pymodule.F1(func(pymodule.Tensor) {}), "Accept F-contiguous tensors."),
	pymodule.Def("fill", "x: tensor[float64, writable], /, v=1.0", pymodule.F2(fill), "Fill x with v."),
	pymodule.Def("opt_tensor", "x: tensor[float64]=None", pymodule.F1R(optTensor), "Elements, or -1 for None."),
	pymodule.Def("arange", "n: int, /", pymodule.F1RE(arange), "0 … n-1 as float32, in C memory."),
	pymodule.Def("slice", "n", pymodule.F1R(func(n int) []int64 {
		s := make([]int64, n)
		for i := range s {
			s[i] = int64(i) * 10
		}
		return s
	}), "A Go slice result."),
	pymodule.Def("arange_np", "n", pymodule.F1RE(arange), "arange as a NumPy array.").Returning(pymodule.AsNumPy),
	pymodule.Def("typed_np", "dtype: str, rows: int, cols: int, /", pymodule.F3RE(typedArray),
		"A rows x cols array of the dtype named holding 0, 1, 2, … in C order (odd ones True for bool; 0-d for rows -1), as a NumPy array.").Returning(pymodule.AsNumPy),
	pymodule.Def("typed_torch", "dtype: str, rows: int, cols: int, /", pymodule.F3RE(typedArray),
		"typed_np's array as a PyTorch tensor.").Returning(pymodule.AsTorch),
	pymodule.Def("declared", "dtype: str, rows: int, cols: int, / -> tensor[float32|int32, (*, 3)]", pymodule.F3RE(typedArray),
		"typed_np's array, declared a float32 or int32 tensor of 3 columns: another is an error.").Returning(pymodule.AsNumPy),
	pymodule.Def("declared_slice", "n: int, / -> tuple[tensor[int64, (3)], int]", pymodule.F1R2(func(n int) ([]int64, int) {
		return make([]int64, n), n
	}), "n zeros and n, the zeros declared a tensor of 3: another length is an error."),
	pymodule.Def("live_owners", "", pymodule.F0R(func() int64 { return int64(C.gdl_owner_live()) }),
		"How many owners of result memory are alive."),
	pymodule.Def("arange_torch", "n", pymodule.F1RE(arange), "arange as a PyTorch tensor.").Returning(pymodule.AsTorch),
	pymodule.Def("arange_gd", "n", pymodule.F1RE(arange), "arange as a godlpack.Tensor.").Returning(pymodule.AsGodlpack),
	pymodule.Def("two_arrays", "n", pymodule.F1R2E(func(n int) (pymodule.Array, pymodule.Array, error) {
		a, _, err := pymodule.NewArray[float32](int64(n))
		if err != nil {
			return a, a, err
		}
		b, err := pymodule.FromSlice([]int8{1, 2, 3})
		return a, b, err
	}), "Two tensor results."),
	pymodule.Def("number", "kind: str, /", pymodule.F1RE(number), "A number of the scalar.Kind named, whose Python type it chooses."),
	pymodule.Def("same_number", "x=0.5, /", pymodule.F1R(func(s scalar.Scalar) scalar.Scalar { return s }), "x, as a scalar.Scalar and back."),
	pymodule.Def("numbers", "f", pymodule.F1E(func(f func(scalar.Scalar, scalar.Scalar) error) error {
		return f(scalar.Scalar{Kind: scalar.Uint, Uint: 1 << 63}, scalar.Scalar{Kind: scalar.Complex, Real: 1, Imag: -2})
	}), "Call f with two numbers of kinds a callback's parameters choose."),
	pymodule.Def("spent_array", "how: str, /", pymodule.F1R2E(spentArray), "Return an Array released first, or one Array twice."),
	pymodule.Def("identity", "o", pymodule.F1R(func(o cpython.Object) cpython.Object { cpython.IncRef(o); return o }), "o back."),
	pymodule.Def("sleep", "seconds", pymodule.F1(func(s float64) { time.Sleep(time.Duration(s * float64(time.Second))) }), "Sleep with the GIL released.").WithoutGIL(),
	pymodule.Def("sleep_gil", "seconds", pymodule.F1(func(s float64) { time.Sleep(time.Duration(s * float64(time.Second))) }), "Sleep holding the GIL."),
	pymodule.Def("nop8", "a, b, c, d, e, f, g, h, /, x=0.0", pymodule.F9(func(a, b, c, d, e, f, g, h pymodule.Tensor, x float64) {}), "Eight tensors, nothing done."),
	pymodule.Def("nop1", "a, /, x=0.0", pymodule.F2(func(pymodule.Tensor, float64) {}), "One tensor and a float."),
	pymodule.Def("getpid", "", pymodule.F0R(os.Getpid), "The process id, from Go."),
	pymodule.Def("describe", "x, /", pymodule.F1R(describe), "What the function sees of x."),
	pymodule.Def("conv_sum", "x: tensor[float64, C, convert]", pymodule.F1R2(convSum), "Sum and contiguity, converted."),
	pymodule.Def("conv_f", "x: tensor[float32, (*, *), F, convert]", pymodule.F1R3(convF), "Strides and sum, in F order."),
	pymodule.Def("array_and_error", "n", pymodule.F1RE(func(n int) (pymodule.Array, error) {
		a, _, err := pymodule.NewArray[float32](int64(n))
		if err != nil {
			return a, err
		}
		return a, cpython.Errorf(cpython.ValueError, "an error beside an Array of %d elements", n)
	}), "Return an Array and an error: the Array is released."),
}

// typedArray is the result of typed_np.
func typedArray(dtype string, rows, cols int) (pymodule.Array, error) {
	switch dtype {
	case "bool":
		return counting(rows, cols, func(i int) bool { return i%2 == 1 })
	case "int8":
		return counting(rows, cols, func(i int) int8 { return int8(i) })
	case "int16":
		return counting(rows, cols, func(i int) int16 { return int16(i) })
	case "int32":
		return counting(rows, cols, func(i int) int32 { return int32(i) })
	case "int64":
		return counting(rows, cols, func(i int) int64 { return int64(i) })
	case "uint8":
		return counting(rows, cols, func(i int) uint8 { return uint8(i) })
	case "uint16":
		return counting(rows, cols, func(i int) uint16 { return uint16(i) })
	case "uint32":
		return counting(rows, cols, func(i int) uint32 { return uint32(i) })
	case "uint64":
		return counting(rows, cols, func(i int) uint64 { return uint64(i) })
	case "float32":
		return counting(rows, cols, func(i int) float32 { return float32(i) })
	case "float64":
		return counting(rows, cols, func(i int) float64 { return float64(i) })
	case "complex64":
		return counting(rows, cols, func(i int) complex64 { return complex(float32(i), 0) })
	case "complex128":
		return counting(rows, cols, func(i int) complex128 { return complex(float64(i), 0) })
	}
	return pymodule.Array{}, cpython.Errorf(cpython.ValueError, "no dtype %q", dtype)
}

func counting[T dlpack.Element](rows, cols int, of func(int) T) (pymodule.Array, error) {
	shape := []int64{int64(rows), int64(cols)}
	if rows < 0 {
		shape = nil
	}
	a, s, err := pymodule.NewArray[T](shape...)
	for i := range s {
		s[i] = of(i)
	}
	return a, err
}

func ints(a int8, b int16, c int32, d int64, e uint8, f uint16, g uint32, h uint64) float64 {
	return float64(a) + float64(b) + float64(c) + float64(d) + float64(e) + float64(f) + float64(g) + float64(h)
}

func floats(x float64, y float32, z float64) (float64, float32, float64) { return x, y, z }

func text(s string, b []byte, sep string) (string, []byte) {
	return s + sep + string(b), []byte(s + sep + string(b))
}

func maybe(x pymodule.Optional[int64]) int64 {
	if !x.Valid {
		return -1
	}
	return 2 * x.Value
}

func fail(kind string) error {
	switch kind {
	case "value":
		return cpython.Errorf(cpython.ValueError, "a bad value")
	case "overflow":
		return cpython.Errorf(cpython.OverflowError, "too big")
	case "wrapped":
		return fmt.Errorf("consumer: wrapped: %w", errors.New("plain"))
	case "named":
		return errors.New("fail(): names the function already")
	}
	return nil
}

func shape(x pymodule.Tensor) (int, int64) { return len(x.Shape), x.Extent.Elements }

func take(o cpython.Object) (int, error) {
	m, err := capsule.Take(o, capsule.Request{})
	if err != nil {
		return 0, err
	}
	t, err := consumer.Import(m)
	if err != nil {
		return 0, err
	}
	defer t.Release()
	return len(t.Shape), nil
}

func importTensor(o cpython.Object) (int, error) {
	t, err := capsule.Import(o, capsule.Request{})
	if err != nil {
		return 0, err
	}
	defer t.Release()
	return len(t.Shape), nil
}

// heldObject is the object hold keeps, for a call whose own parameters take no
// Python object (take_held) to run Python code.
var heldObject cpython.Object

func hold(o cpython.Object) {
	old := heldObject
	cpython.IncRef(o)
	heldObject = o
	cpython.DecRef(old) // may run the old object's __del__
}

// takeRegained is a function bound without the GIL that takes it, as a Go
// author's own cgo may, to call capsule.Take.
func takeRegained(o cpython.Object) (int, error) {
	g := C.PyGILState_Ensure()
	defer C.PyGILState_Release(g)
	return take(o)
}

func takeHeld() (int, error) { return take(heldObject) }

func pythonError(kind string) error {
	if kind == "value" {
		cpython.Raise(cpython.ValueError, "set by Go")
	}
	return cpython.PythonError("raising " + kind)
}

func fill(x pymodule.Tensor, v float64) {
	for p := range pymodule.Elements[float64](x) {
		*p = v
	}
}

func optTensor(x pymodule.Optional[pymodule.Tensor]) int64 {
	if !x.Valid {
		return -1
	}
	return x.Value.Extent.Elements
}

func arange(n int) (pymodule.Array, error) {
	a, s, err := pymodule.NewArray[float32](int64(n))
	for i := range s {
		s[i] = float32(i)
	}
	return a, err
}

func convSum(x pymodule.Tensor) (float64, bool) {
	var s float64
	for p := range pymodule.Elements[float64](x) {
		s += *p
	}
	return s, x.Extent.CContiguous
}

func convF(x pymodule.Tensor) (int64, int64, float64) {
	var s float64
	for p := range pymodule.Elements[float32](x) {
		s += float64(*p)
	}
	return x.Strides[0], x.Strides[1], s
}

// describe says everything a bound function sees of x but its version, for
// the tests that compare the import's paths.
func describe(x pymodule.Tensor) string {
	e := x.Extent
	return fmt.Sprintf("%#x %v %v %v %v flags=%d versioned=%v elements=%d low=%d high=%d dense=%d c=%v f=%v",
		uintptr(x.Data), x.DType, x.Device, x.Shape, x.Strides, x.Flags, x.Versioned, e.Elements, e.Low, e.High,
		e.DenseBytes, e.CContiguous, e.FContiguous)
}

// number returns a scalar.Scalar of the kind named, to show each Python type it becomes.
func number(kind string) (scalar.Scalar, error) {
	switch kind {
	case "bool":
		return scalar.Scalar{Kind: scalar.Bool, Int: 1}, nil
	case "int":
		return scalar.Scalar{Kind: scalar.Int, Int: -1 << 63}, nil
	case "uint":
		return scalar.Scalar{Kind: scalar.Uint, Uint: 1<<64 - 1}, nil
	case "float":
		return scalar.Scalar{Kind: scalar.Float, Real: 0.5}, nil
	case "complex":
		return scalar.Scalar{Kind: scalar.Complex, Real: 1.5, Imag: -2}, nil
	case "bigint":
		return scalar.Scalar{Kind: scalar.BigInt, Real: 0x1p70}, nil
	}
	return scalar.Scalar{}, cpython.Errorf(cpython.ValueError, "no kind %q", kind)
}

// spentArray returns a released Array ("released"), or one Array as both results ("twice"): the spent one is
// refused, and neither leaks.
func spentArray(how string) (pymodule.Array, pymodule.Array, error) {
	a, _, err := pymodule.NewArray[float32](3)
	if err != nil {
		return a, a, err
	}
	if how == "released" {
		a.Release()
		b, _, err := pymodule.NewArray[float32](3) // reuses a's Buffer: a stays spent
		return b, a, err
	}
	return a, a, nil
}
