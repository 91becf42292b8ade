// Command goshared is the Go side of bench/shared.py: an Index of float32
// rows whose search, a shared method that releases the GIL, scores a query
// against every row with package vec's Dot, from many threads at once on
// one instance; and the same search as a plain function of a module, the
// yardstick of what the machine's cores allow.
package main

// #include <Python.h>
import "C"

import (
	"math"

	"github.com/godlpack/godlpack/cpython"
	"github.com/godlpack/godlpack/pymodule"
	"github.com/godlpack/godlpack/vec"
)

// An Index holds rows of dim float32 values, one after another.
type Index struct {
	rows []float32
	dim  int
}

func newIndex(n, dim int) (*Index, error) {
	if n < 1 || dim < 1 || n > 1<<26/dim {
		return nil, cpython.Errorf(cpython.ValueError, "an index of %d rows of %d values: want 1 to 2**26 values", n, dim)
	}
	ix := &Index{rows: make([]float32, n*dim), dim: dim}
	x := uint32(1)
	for i := range ix.rows { // a fixed pseudo-random fill: xorshift
		x ^= x << 13
		x ^= x >> 17
		x ^= x << 5
		ix.rows[i] = float32(x)/float32(math.MaxUint32) - 0.5
	}
	return ix, nil
}

// Search scores q against every row, passes times over, and returns the
// best row: it only reads the index, so calls on one Index may run at once.
func (ix *Index) Search(q []float32, passes int) (int64, error) { return search(ix.rows, q, passes) }

// search is the best of the rows of len(q) values for q, scored passes times over.
func search(rows, q []float32, passes int) (int64, error) {
	if len(q) == 0 || len(rows)%len(q) != 0 {
		return 0, cpython.Errorf(cpython.ValueError, "a query of %d values for rows of %d values in all", len(q), len(rows))
	}
	best, at := math.Inf(-1), int64(-1)
	for range max(passes, 1) {
		for r := 0; r < len(rows); r += len(q) {
			if s := vec.Dot(rows[r:r+len(q)], q); s > best {
				best, at = s, int64(r/len(q))
			}
		}
	}
	return at, nil
}

var module = pymodule.Module{Name: "goshared", Doc: "A shared method's calls from many threads, for bench/shared.py.",
	Items: []pymodule.Item{
		pymodule.NewClass[Index]("Index", "Rows of float32 values to search.",
			pymodule.Init("n: int, dim: int", pymodule.F2RE(newIndex)),
			pymodule.Method("search", "q, passes: int, /", pymodule.F3RE((*Index).Search),
				"The best row for q, scored passes times over: shared, without the GIL.").Shared().WithoutGIL(),
		),
		pymodule.Def("search", "rows, q, passes: int, /", pymodule.F3RE(search),
			"Index.search as a function of rows of its own, which holds no instance: the yardstick.").WithoutGIL(),
		pymodule.Def("set_threads", "n: int, /", pymodule.F1R(vec.SetThreads),
			"Set the threads vec's kernels may use; return the last count."),
	}}

//export PyInit_goshared
func PyInit_goshared() *C.PyObject { return (*C.PyObject)(module.Init()) }
