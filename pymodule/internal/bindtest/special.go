package main

// #include <stdlib.h>
// #include <Python.h>
// static void set_index_error(const char *msg) { PyErr_SetString(PyExc_IndexError, msg); }
import "C"

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"unsafe"

	"github.com/godlpack/godlpack/cpython"
	"github.com/godlpack/godlpack/pymodule"
)

// A Vec is a vector of float64 whose special methods test_special.py holds
// against a Python class of the same methods (PyVec there).
type Vec struct{ v []float64 }

// newVec is the vector 0, 1, …, n-1.
func newVec(n int) (*Vec, error) {
	if n < 0 || n > 1<<20 {
		return nil, cpython.Errorf(cpython.ValueError, "n must be in [0, 2**20], not %d", n)
	}
	v := &Vec{v: make([]float64, n)}
	for i := range v.v {
		v.v[i] = float64(i)
	}
	return v, nil
}

// indexError raises IndexError, through the C API: the call holds the GIL.
func indexError(format string, args ...any) error {
	msg := C.CString(fmt.Sprintf(format, args...))
	defer C.free(unsafe.Pointer(msg))
	C.set_index_error(msg)
	return cpython.PythonError("indexing a Vec")
}

// at is the index of i in v, counted from the end when negative, as a list counts.
func (v *Vec) at(i int) (int, error) {
	j := i
	if j < 0 {
		j += len(v.v)
	}
	if j < 0 || j >= len(v.v) {
		return 0, indexError("index %d out of range", i)
	}
	return j, nil
}

func (v *Vec) Len() int { return len(v.v) }

func (v *Vec) Get(i int) (float64, error) {
	j, err := v.at(i)
	if err != nil {
		return 0, err
	}
	return v.v[j], nil
}

func (v *Vec) Set(i int, x float64) error {
	j, err := v.at(i)
	if err == nil {
		v.v[j] = x
	}
	return err
}

func (v *Vec) Delete(i int) error {
	j, err := v.at(i)
	if err == nil {
		v.v = slices.Delete(v.v, j, j+1)
	}
	return err
}

func (v *Vec) Contains(x float64) bool { return slices.Contains(v.v, x) }

func (v *Vec) format(sep string) string {
	parts := make([]string, len(v.v))
	for i, x := range v.v {
		parts[i] = fmt.Sprintf("%g", x)
	}
	return strings.Join(parts, sep)
}

func (v *Vec) Repr() string   { return "Vec(" + v.format(", ") + ")" }
func (v *Vec) String() string { return "<" + v.format(" ") + ">" }
func (v *Vec) Bool() bool     { return len(v.v) != 0 }

func (v *Vec) Sum() float64 {
	var s float64
	for _, x := range v.v {
		s += x
	}
	return s
}

// Call is the sum, scaled.
func (v *Vec) Call(scale float64) float64 { return v.Sum() * scale }

// Hash is the sum's integer part: equal vectors have equal sums.
func (v *Vec) Hash() int64 { return int64(v.Sum()) }

func (v *Vec) Equal(w *Vec) bool { return slices.Equal(v.v, w.v) }

// Less compares as Python compares lists.
func (v *Vec) Less(w *Vec) bool { return slices.Compare(v.v, w.v) < 0 }

// sameLength refuses w of another length than v, as a ValueError.
func (v *Vec) sameLength(w *Vec) error {
	if len(v.v) != len(w.v) {
		return cpython.Errorf(cpython.ValueError, "vectors of %d and %d elements", len(v.v), len(w.v))
	}
	return nil
}

func (v *Vec) map2(w *Vec, f func(a, b float64) float64) (*Vec, error) {
	if err := v.sameLength(w); err != nil {
		return nil, err
	}
	out := &Vec{v: make([]float64, len(v.v))}
	for i := range v.v {
		out.v[i] = f(v.v[i], w.v[i])
	}
	return out, nil
}

func (v *Vec) mapped(f func(float64) float64) *Vec {
	out := &Vec{v: make([]float64, len(v.v))}
	for i, x := range v.v {
		out.v[i] = f(x)
	}
	return out
}

func (v *Vec) Add(w *Vec) (*Vec, error) {
	return v.map2(w, func(a, b float64) float64 { return a + b })
}
func (v *Vec) Sub(w *Vec) (*Vec, error) {
	return v.map2(w, func(a, b float64) float64 { return a - b })
}
func (v *Vec) AddScalar(x float64) *Vec { return v.mapped(func(a float64) float64 { return a + x }) }
func (v *Vec) Scale(k float64) *Vec     { return v.mapped(func(a float64) float64 { return a * k }) }
func (v *Vec) Pow(e float64) *Vec       { return v.mapped(func(a float64) float64 { return math.Pow(a, e) }) }
func (v *Vec) Neg() *Vec                { return v.Scale(-1) }
func (v *Vec) Pos() *Vec                { return v.Scale(1) }
func (v *Vec) Invert() *Vec             { w := v.Scale(1); slices.Reverse(w.v); return w }

// IAdd adds w element by element, in place: += returns the vector itself.
func (v *Vec) IAdd(w *Vec) error {
	if err := v.sameLength(w); err != nil {
		return err
	}
	for i := range v.v {
		v.v[i] += w.v[i]
	}
	return nil
}

func (v *Vec) Dot(w *Vec) (float64, error) {
	p, err := v.map2(w, func(a, b float64) float64 { return a * b })
	if err != nil {
		return 0, err
	}
	return p.Sum(), nil
}

func (v *Vec) Norm() float64 { d, _ := v.Dot(v); return math.Sqrt(d) }

func (v *Vec) Iter() *VecIter { return &VecIter{vec: v} }

// A VecIter is an iterator over a Vec: a class of its own, whose __iter__ is itself.
type VecIter struct {
	vec  *Vec
	next int
}

func (it *VecIter) Self() *VecIter { return it }

func (it *VecIter) Next() (float64, error) {
	if it.next >= len(it.vec.v) {
		return 0, cpython.Errorf(cpython.StopIteration, "the end")
	}
	it.next++
	return it.vec.v[it.next-1], nil
}

// A Gain scales a Vec from the right: v * g, where Vec's __mul__ takes a
// float and declines a Gain, runs Gain's __rmul__.
type Gain struct{ k float64 }

func (g *Gain) RMul(v *Vec) *Vec   { return v.Scale(g.k) }
func (g *Gain) Equal(h *Gain) bool { return g.k == h.k }
func (sq *Squares) Get(i int) (int, error) {
	if i < 0 || i >= sq.n {
		return 0, indexError("index %d out of range", i)
	}
	return i * i, nil
}

// Squares has __getitem__ alone, which iteration and in fall back to, as for a Python class.
type Squares struct{ n int }

var specialItems = []pymodule.Item{
	pymodule.NewClass[Vec]("Vec", "A vector of floats with Python's protocols.",
		pymodule.Init("n: int", pymodule.F1RE(newVec)),
		pymodule.Method("__len__", "", pymodule.F1R((*Vec).Len), "The number of elements."),
		pymodule.Method("__getitem__", "i: int", pymodule.F2RE((*Vec).Get), "Element i, counted from the end when negative."),
		pymodule.Method("__setitem__", "i: int, x: float", pymodule.F3E((*Vec).Set), "Set element i."),
		pymodule.Method("__delitem__", "i: int", pymodule.F2E((*Vec).Delete), "Remove element i."),
		pymodule.Method("__contains__", "x: float", pymodule.F2R((*Vec).Contains), "Whether an element is x."),
		pymodule.Method("__iter__", "", pymodule.F1R((*Vec).Iter), "An iterator over the elements."),
		pymodule.Method("__call__", "scale=1.0", pymodule.F2R((*Vec).Call), "The sum of the elements, scaled."),
		pymodule.Method("__repr__", "", pymodule.F1R((*Vec).Repr), ""),
		pymodule.Method("__str__", "", pymodule.F1R((*Vec).String), ""),
		pymodule.Method("__bool__", "", pymodule.F1R((*Vec).Bool), ""),
		pymodule.Method("__hash__", "", pymodule.F1R((*Vec).Hash), ""),
		pymodule.Method("__eq__", "other", pymodule.F2R((*Vec).Equal), "The same elements."),
		pymodule.Method("__lt__", "other", pymodule.F2R((*Vec).Less), "Before other, as lists compare."),
		pymodule.Method("__add__", "other", pymodule.F2RE((*Vec).Add), "Element-wise sum."),
		pymodule.Method("__radd__", "x: float", pymodule.F2R((*Vec).AddScalar), "x plus each element."),
		pymodule.Method("__iadd__", "other", pymodule.F2E((*Vec).IAdd), "Add other's elements, in place."),
		pymodule.Method("__sub__", "other", pymodule.F2RE((*Vec).Sub), "Element-wise difference."),
		pymodule.Method("__mul__", "k: float", pymodule.F2R((*Vec).Scale), "Each element times k."),
		pymodule.Method("__rmul__", "k: float", pymodule.F2R((*Vec).Scale), "k times each element."),
		pymodule.Method("__pow__", "e: float", pymodule.F2R((*Vec).Pow), "Each element to the power e."),
		pymodule.Method("__matmul__", "other", pymodule.F2RE((*Vec).Dot), "The dot product."),
		pymodule.Method("__neg__", "", pymodule.F1R((*Vec).Neg), ""),
		pymodule.Method("__pos__", "", pymodule.F1R((*Vec).Pos), ""),
		pymodule.Method("__abs__", "", pymodule.F1R((*Vec).Norm), "The Euclidean norm."),
		pymodule.Method("__invert__", "", pymodule.F1R((*Vec).Invert), "The elements reversed."),
		pymodule.Method("__index__", "", pymodule.F1R((*Vec).Len), "The number of elements."),
		pymodule.Method("__int__", "", pymodule.F1R((*Vec).Hash), "The sum's integer part."),
		pymodule.Method("__float__", "", pymodule.F1R((*Vec).Sum), "The sum."),
		pymodule.Method("__format__", "spec: str, /", pymodule.F2R(func(v *Vec, spec string) string {
			return "Vec:" + spec
		}), "A method CPython looks up by name: format(v, spec)."),
	),
	pymodule.NewClass[VecIter]("VecIter", "An iterator over a Vec.",
		pymodule.Method("__iter__", "", pymodule.F1R((*VecIter).Self), "The iterator itself."),
		pymodule.Method("__next__", "", pymodule.F1RE((*VecIter).Next), "The next element."),
	),
	pymodule.NewClass[Gain]("Gain", "A factor that scales a Vec from the right.",
		pymodule.Init("k: float", pymodule.F1R(func(k float64) *Gain { return &Gain{k} })),
		pymodule.Method("__rmul__", "v", pymodule.F2R((*Gain).RMul), "v scaled."),
		pymodule.Method("__eq__", "other", pymodule.F2R((*Gain).Equal), "The same factor: no __hash__, unhashable."),
	),
	pymodule.NewClass[Squares]("Squares", "The squares of 0 … n-1, by index alone.",
		pymodule.Init("n: int", pymodule.F1R(func(n int) *Squares { return &Squares{n} })),
		pymodule.Method("__getitem__", "i: int", pymodule.F2RE((*Squares).Get), "i squared."),
	),
	pymodule.Def("refused_class", "kind: str, /", pymodule.F1E(refusedClass),
		"Make a module whose one class is refused as kind says: the ImportError its import raises."),
}

// refusedClass makes a module whose one class names a special method the
// binder refuses, and returns the error New returns (the ImportError is set).
func refusedClass(kind string) error {
	type bad struct{ x int }
	self := pymodule.F1R(func(*bad) int { return 0 })
	members := map[string][]pymodule.Member{
		"init":        {pymodule.Method("__init__", "", self, "")},
		"del":         {pymodule.Method("__del__", "", self, "")},
		"unsupported": {pymodule.Method("__getattr__", "", self, "")},
		"misspelt":    {pymodule.Method("__lenn__", "", self, "")},
		"twice":       {pymodule.Repr(pymodule.F1R(func(*bad) string { return "" })), pymodule.Method("__repr__", "", pymodule.F1R(func(*bad) string { return "" }), "")},
		"result":      {pymodule.Method("__len__", "", pymodule.F1R(func(*bad) string { return "" }), "")},
	}[kind]
	if members == nil {
		return errors.New("no such kind")
	}
	_, err := pymodule.New("refused_"+kind, "", pymodule.NewClass[bad]("Bad", "", members...))
	return err
}
