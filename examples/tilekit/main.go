// Command tilekit is a Python extension module written in Go on the public
// godlpack packages, with a class, a callback, an enum and an exception of
// its own: Stats keeps running column statistics of float32 rows (mean,
// variance), Rows keeps float32 rows in C memory its instance owns and
// hands them out as a view, histogram counts bytes, sqdist gives pairwise squared
// distances (package vec's tile kernel, rows of a on every core), norms the
// norm of each row, and map_ applies a Python function to each element in
// place. Build it as a shared library named like any
// extension module, with the interpreter's header directories in
// CGO_CFLAGS:
//
//	export CGO_CFLAGS="$(python3 -m godlpack.build --cflags) -O2 -g"
//	cd examples/tilekit && go build -buildmode=c-shared -o tilekit$(python3-config --extension-suffix) .
package main

// #include <Python.h>
import "C"

import (
	"fmt"
	"math"
	"slices"

	"github.com/godlpack/godlpack/cpython"
	"github.com/godlpack/godlpack/pymodule"
	"github.com/godlpack/godlpack/vec"
)

// Norm is how norms measures a row.
type Norm int

const (
	L1 Norm = iota
	L2
	Max
)

// TilekitError is raised for tensors of the wrong shape.
var TilekitError = pymodule.NewException("TilekitError", cpython.ValueError, "A tensor of the wrong shape.")

var module = pymodule.Module{Name: "tilekit", Doc: "Running statistics, histograms and distances, in Go.", Items: []pymodule.Item{
	pymodule.NewClass[Stats]("Stats", "Running mean and variance of each column of float32 rows.",
		pymodule.Init("width: int", pymodule.F1RE(newStats)),
		pymodule.Method("update", "x: tensor[float32, (*, *)], /", pymodule.F2E((*Stats).Update), "Add the rows of x.").WithoutGIL(),
		pymodule.Method("merge", "other, /", pymodule.F2E((*Stats).Merge), "Add the rows other has seen."),
		pymodule.Method("mean", "", pymodule.F1R((*Stats).Mean), "The mean of each column.").Returning(pymodule.AsNumPy).Shared(),
		pymodule.Method("variance", "", pymodule.F1R((*Stats).Variance), "The variance of each column.").Returning(pymodule.AsNumPy).Shared(),
		pymodule.Method("__len__", "", pymodule.F1R(func(s *Stats) int64 { return s.count }), "The rows seen.").Shared(),
		pymodule.Method("__add__", "other", pymodule.F2RE((*Stats).Add), "The statistics of the rows both have seen."),
		pymodule.Method("__iadd__", "other", pymodule.F2E((*Stats).Merge), "Add the rows other has seen, in place."),
		pymodule.Field("count", func(s *Stats) *int64 { return &s.count }, "The rows seen."),
		pymodule.Property("width", pymodule.F1R(func(s *Stats) int { return len(s.mean) }), pymodule.Fn{}, "The columns."),
		pymodule.Pickle(pymodule.F1R3(state), pymodule.F3RE(restore))),
	pymodule.NewClass[Rows]("Rows", "Float32 rows of one width, kept in C memory as they are added.",
		pymodule.Init("width: int", pymodule.F1RE(newRows)),
		pymodule.Method("add", "x: tensor[float32, (*, *), C, convert], /", pymodule.F2E((*Rows).Add), "Append the rows of x."),
		pymodule.Property("data", pymodule.F1RE(func(r *Rows) (pymodule.Array, error) { return r.data.View(int64(r.data.Len()/r.width), int64(r.width)) }), pymodule.Fn{}, "The rows: a tensor over their memory (zero-copy), which keeps them from growing while it lives."),
		pymodule.Method("clear", "", pymodule.F1E(func(r *Rows) error { return r.data.Reset() }), "Remove every row, keeping the memory.")),
	TilekitError,
	pymodule.NewEnum[Norm]("Norm", "How norms measures a row.", pymodule.Value("L1", L1), pymodule.Value("L2", L2), pymodule.Value("MAX", Max)),
	pymodule.Def("histogram", "x: tensor[uint8], / -> tensor[int64, (256)]", pymodule.F1R(histogram), "How many of each byte value x holds.").Returning(pymodule.AsNumPy),
	pymodule.Def("sqdist", "a: tensor[float32, (*, *), C, convert], b: tensor[float32, (*, *), C, convert], / -> tensor[float32, (*, *)]", pymodule.F2RE(sqdist), "The squared distance of each row of a to each row of b.").Returning(pymodule.AsNumPy).WithoutGIL(),
	pymodule.Def("norms", "x: tensor[float32, (*, *)], /, norm=Norm.L2 -> tensor[float32, (*)]", pymodule.F2RE(norms), "The norm of each row of x.").Returning(pymodule.AsNumPy),
	pymodule.Def("map_", "x: tensor[float32, writable], f, /", pymodule.F2E(mapInPlace), "Replace each element v of x by f(v)."),
	pymodule.Def("set_num_threads", "n: int, /", pymodule.F1R(vec.SetThreads), "Set the threads sqdist may use (below 1: the default); return the last count."),
}}

//export PyInit_tilekit
func PyInit_tilekit() *C.PyObject { return (*C.PyObject)(module.Init()) } // nil with the exception set on failure

func main() { module.Main() } // go run . -pyi tilekit.pyi writes the type stub

// Stats holds the running mean and sum of squared differences of each column (Welford's).
type Stats struct {
	count    int64
	mean, m2 []float64
}

func newStats(width int) (*Stats, error) {
	if width <= 0 || width > 1<<24 { // a width past any row's is refused before Go allocates it
		return nil, TilekitError.Errorf("width must be in [1, 2**24], not %d", width)
	}
	return &Stats{mean: make([]float64, width), m2: make([]float64, width)}, nil
}

func (s *Stats) String() string {
	return fmt.Sprintf("Stats(width=%d, count=%d)", len(s.mean), s.count)
}

func (s *Stats) Update(x pymodule.Tensor) error {
	if int(x.Shape[1]) != len(s.mean) { // "Stats.update(): argument 'x' must have 4 columns, not 3"
		return TilekitError.ArgErrorAt(0, "must have %d columns, not %d", len(s.mean), x.Shape[1])
	}
	for i := range x.Shape[0] {
		s.count++
		j := 0
		for p := range pymodule.Elements[float32](x.Index(i)) {
			d := float64(*p) - s.mean[j]
			s.mean[j] += d / float64(s.count)
			s.m2[j] += d * (float64(*p) - s.mean[j])
			j++
		}
	}
	return nil
}

func (s *Stats) Merge(o *Stats) error {
	if len(o.mean) != len(s.mean) {
		return TilekitError.Errorf("a Stats of %d columns, not %d", len(s.mean), len(o.mean))
	}
	n := s.count + o.count
	for j := 0; j < len(s.mean) && n > 0; j++ {
		d := o.mean[j] - s.mean[j]
		s.m2[j] += o.m2[j] + d*d*float64(s.count)*float64(o.count)/float64(n)
		s.mean[j] += d * float64(o.count) / float64(n)
	}
	s.count = n
	return nil
}

// Add returns the statistics of the rows s and o have seen, a new Stats.
func (s *Stats) Add(o *Stats) (*Stats, error) {
	sum := &Stats{s.count, slices.Clone(s.mean), slices.Clone(s.m2)}
	return sum, sum.Merge(o)
}

func (s *Stats) Mean() []float64 { return slices.Clone(s.mean) }

func (s *Stats) Variance() []float64 {
	v := make([]float64, len(s.m2))
	for j := range v {
		v[j] = s.m2[j] / float64(max(s.count, 1))
	}
	return v
}

func state(s *Stats) (int64, []float64, []float64) { return s.count, s.Mean(), slices.Clone(s.m2) }

func restore(count int64, mean, m2 []float64) (*Stats, error) {
	if len(mean) != len(m2) || count < 0 {
		return nil, TilekitError.Errorf("a state of %d rows, %d means and %d sums", count, len(mean), len(m2))
	}
	return &Stats{count, slices.Clone(mean), slices.Clone(m2)}, nil
}

// Rows holds float32 rows in a pymodule.Buffer: C memory, freed when the instance dies.
type Rows struct {
	width int
	data  pymodule.Buffer[float32]
}

func newRows(width int) (*Rows, error) {
	if width <= 0 || width > 1<<24 {
		return nil, TilekitError.ArgErrorAt(0, "must be in [1, 2**24], not %d", width)
	}
	return &Rows{width: width}, nil
}

func (r *Rows) Add(x pymodule.Tensor) error {
	if int(x.Shape[1]) != r.width {
		return TilekitError.ArgErrorAt(0, "must have %d columns, not %d", r.width, x.Shape[1])
	}
	return r.data.AppendSlice(pymodule.Slice[float32](x)) // MemoryError past the allocator, BufferError while viewed
}

func histogram(x pymodule.Tensor) []int64 {
	counts := make([]int64, 256)
	for p := range pymodule.Elements[uint8](x) {
		counts[*p]++
	}
	return counts
}

func sqdist(a, b pymodule.Tensor) (pymodule.Array, error) {
	if a.Shape[1] != b.Shape[1] {
		return pymodule.Array{}, TilekitError.Errorf("rows of %d and %d columns", a.Shape[1], b.Shape[1])
	}
	av := pymodule.Slice[float32](a) // C-contiguous float32, as declared (converted if it was not)
	bv := pymodule.Slice[float32](b)
	n, m, k := int(a.Shape[0]), int(b.Shape[0]), int(a.Shape[1])
	out, d, err := pymodule.NewArray[float32](int64(n), int64(m))
	if err == nil { // rows of a on every core, each range by the tile kernel
		vec.Parallel(n, 4*m*k, func(lo, hi int) { vec.SqDists(d[lo*m:hi*m], av[lo*k:hi*k], bv, k) })
	}
	return out, err
}

func norms(x pymodule.Tensor, norm Norm) (pymodule.Array, error) {
	out, n, err := pymodule.NewArray[float32](x.Shape[0])
	for i := range n {
		var acc float64
		for p := range pymodule.Elements[float32](x.Index(int64(i))) {
			v := math.Abs(float64(*p))
			acc = [...]float64{L1: acc + v, L2: acc + v*v, Max: max(acc, v)}[norm]
		}
		n[i] = float32([...]float64{L1: acc, L2: math.Sqrt(acc), Max: acc}[norm])
	}
	return out, err
}

func mapInPlace(x pymodule.Tensor, f func(float32) (float32, error)) error {
	for p := range pymodule.Elements[float32](x) {
		v, err := f(*p)
		if err != nil {
			return err
		}
		*p = v
	}
	return nil
}
