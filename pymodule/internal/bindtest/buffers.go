package main

import (
	"math"

	"github.com/godlpack/godlpack/cpython"
	"github.com/godlpack/godlpack/pymodule"
)

// An Index keeps float32 rows of one width in C memory that its instance
// owns, and hands them to Python as views: the class the tests of Buffer and
// its views bind.
type Index struct {
	dim  int
	rows pymodule.Buffer[float32]
}

func newIndex(dim int) (*Index, error) {
	if dim < 1 || dim > 1<<20 {
		return nil, pymodule.ArgErrorAt(cpython.ValueError, 0, "must be in [1, 2**20], not %d", dim)
	}
	return &Index{dim: dim}, nil
}

// Add appends the rows of x.
func (ix *Index) Add(x pymodule.Tensor) error {
	if int(x.Shape[1]) != ix.dim {
		return pymodule.ArgErrorAt(cpython.ValueError, 0, "must have %d columns, not %d", ix.dim, x.Shape[1])
	}
	return ix.rows.AppendSlice(pymodule.Slice[float32](x))
}

// Vectors is a view of the rows.
func (ix *Index) Vectors() (pymodule.Array, error) {
	return ix.rows.View(int64(ix.rows.Len()/ix.dim), int64(ix.dim))
}

// Reserve makes room for n more rows.
func (ix *Index) Reserve(n int) error {
	if n > math.MaxInt/ix.dim {
		return pymodule.ArgErrorAt(cpython.MemoryError, 0, "is past any memory: %d rows of %d", n, ix.dim)
	}
	return ix.rows.Reserve(n * ix.dim)
}

func (ix *Index) Len() int      { return ix.rows.Len() / ix.dim }
func (ix *Index) Capacity() int { return ix.rows.Cap() / ix.dim }
func (ix *Index) Truncate(n int) error {
	if n < 0 || n > ix.Len() {
		return pymodule.ArgErrorAt(cpython.IndexError, 0, "must be in [0, %d], not %d", ix.Len(), n)
	}
	return ix.rows.Truncate(n * ix.dim)
}

var bufferItems = []pymodule.Item{
	pymodule.NewClass[Index]("Index", "Float32 rows of one width, in C memory the instance owns.",
		pymodule.Init("dim: int", pymodule.F1RE(newIndex)),
		pymodule.Method("add", "x: tensor[float32, (*, *), C, convert], /", pymodule.F2E((*Index).Add), "Append the rows of x."),
		pymodule.Method("reserve", "n: int, /", pymodule.F2E((*Index).Reserve), "Make room for n more rows."),
		pymodule.Method("reserve_elements", "n: int, /", pymodule.F2E(func(ix *Index, n int) error { return ix.rows.Reserve(n) }),
			"Make room for n more elements: Buffer.Reserve as it is."),
		pymodule.Method("truncate", "n: int, /", pymodule.F2E((*Index).Truncate), "Keep the first n rows."),
		pymodule.Method("clear", "", pymodule.F1E(func(ix *Index) error { return ix.rows.Reset() }), "Remove every row, keeping the memory."),
		pymodule.Method("free", "", pymodule.F1E(func(ix *Index) error { return ix.rows.Free() }), "Remove every row and free the memory."),
		pymodule.Property("vectors", pymodule.F1RE((*Index).Vectors), pymodule.Fn{}, "The rows: a view of their memory."),
		pymodule.Method("vectors_np", "", pymodule.F1RE((*Index).Vectors), "The rows as a NumPy view.").Returning(pymodule.AsNumPy),
		pymodule.Method("vectors_torch", "", pymodule.F1RE((*Index).Vectors), "The rows as a PyTorch view.").Returning(pymodule.AsTorch),
		pymodule.Method("vectors_free", "", pymodule.F1RE((*Index).Vectors), "vectors, with the GIL released.").WithoutGIL(),
		pymodule.Method("row_and_view", "i: int, /", pymodule.F2R2E(func(ix *Index, i int) (float32, pymodule.Array, error) {
			a, err := ix.Vectors()
			return ix.rows.Slice()[i*ix.dim], a, err
		}), "The first element of row i, and a view: a view among other results."),
		pymodule.Method("view_and_fail", "", pymodule.F1RE(func(ix *Index) (pymodule.Array, error) {
			a, err := ix.Vectors()
			if err != nil {
				return a, err
			}
			return a, cpython.Errorf(cpython.ValueError, "a view beside an error is let go of")
		}), "A view and an error: the view is let go of."),
		pymodule.Getter("capacity", (*Index).Capacity, "The rows there is room for."),
		pymodule.Getter("views", func(ix *Index) int { return ix.rows.Views() }, "The views of the rows alive."),
		pymodule.Getter("dim", func(ix *Index) int { return ix.dim }, "The width of a row."),
		pymodule.Getter("ntotal", (*Index).Len, "The rows."),
	),
	pymodule.Def("view_of", "ix, /", pymodule.F1RE((*Index).Vectors), "A view of ix's rows, from a function: it keeps ix alive."),
	pymodule.Def("view_beside", "dim: int, ix, /", pymodule.F2RE(func(dim int, ix *Index) (pymodule.Array, error) {
		return ix.Vectors()
	}), "A view of ix's rows from a function whose first parameter is no instance: it keeps the memory, not ix."),
	pymodule.Def("loose_view", "", pymodule.F0RE(func() (pymodule.Array, error) { return looseRows.View() }),
		"A view of a Buffer no instance holds (a global), which the view keeps from resizing."),
	pymodule.Def("loose_append", "v: int, /", pymodule.F1E(looseRows.Append), "Append v to the global Buffer."),
	pymodule.Def("loose_free", "", pymodule.F0E(looseRows.Free), "Free the global Buffer."),
}

// looseRows is a Buffer of no instance's: its views keep its memory, and nothing else.
var looseRows pymodule.Buffer[int64]
