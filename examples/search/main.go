// Command search is a Python extension module written in Go on the public
// godlpack packages, with package vec's toolbox doing the numbers: softmax_
// replaces each row of a float32 matrix by its softmax in place (vec.Exp),
// layer_norm normalizes rows, scores is queries @ corpus.T (vec.Dots),
// cosine_topk finds each query's k most similar rows of a corpus (products
// by tiles, vec.TopK, queries on every core), and the class Index keeps
// normalized vectors in C memory to search them the same way. Build it as a shared
// library named like any extension module, with the interpreter's header
// directories in CGO_CFLAGS:
//
//	export CGO_CFLAGS="$(python3 -m godlpack.build --cflags) -O2 -g"
//	cd examples/search && go build -buildmode=c-shared -o search$(python3-config --extension-suffix) .
package main

// #include <Python.h>
import "C"

import (
	"errors"
	"math"
	"slices"

	"github.com/godlpack/godlpack/cpython"
	"github.com/godlpack/godlpack/pymodule"
	"github.com/godlpack/godlpack/vec"
)

type Tensor = pymodule.Tensor
type Array = pymodule.Array

const (
	rows = "tensor[float32, (*, *), C, convert]"
	topk = " -> tuple[tensor[float32, (*, *)], tensor[int64, (*, *)]]"
)

var module = pymodule.Module{Name: "search", Doc: "Softmax, layer norm, scores and cosine top-k over float32 rows, in Go.", Items: []pymodule.Item{
	pymodule.Def("softmax_", "x: tensor[float32, (*, *), C, writable, convert], /", pymodule.F1(softmax), "Replace each row of x by its softmax.").WithoutGIL(),
	pymodule.Def("layer_norm", "x: "+rows+", gamma: tensor[float32, (*), C, convert], beta: tensor[float32, (*), C, convert], eps=1e-5 -> tensor[float32, (*, *)]", pymodule.F4RE(layerNorm), "Normalize each row of x, then scale by gamma and shift by beta.").Returning(pymodule.AsNumPy).WithoutGIL(),
	pymodule.Def("scores", "queries: "+rows+", corpus: "+rows+" -> tensor[float32, (*, *)]", pymodule.F2RE(scores), "queries @ corpus.T.").Returning(pymodule.AsNumPy).WithoutGIL(),
	pymodule.Def("cosine_topk", "queries: "+rows+", corpus: "+rows+", k: int"+topk, pymodule.F3R2E(cosineTopK), "The k rows of corpus most like each query (cosine), best first: scores, indices.").Returning(pymodule.AsNumPy).WithoutGIL(),
	pymodule.NewClass[Index]("Index", "Vectors of one dimension, searched by cosine similarity.",
		pymodule.Init("dim: int", pymodule.F1RE(newIndex)),
		pymodule.Method("add", "x: "+rows, pymodule.F2E((*Index).Add), "Add the rows of x."),
		pymodule.Method("search", "q: "+rows+", k: int"+topk, pymodule.F3R2E((*Index).Search), "The k vectors most like each row of q: scores, indices.").Returning(pymodule.AsNumPy).WithoutGIL().Shared(),
		pymodule.Method("__len__", "", pymodule.F1R((*Index).Len), "The vectors added.").Shared(),
		pymodule.Property("ntotal", pymodule.F1R((*Index).Len), pymodule.Fn{}, "The vectors added.")),
	pymodule.Def("set_num_threads", "n: int, /", pymodule.F1R(vec.SetThreads), "Set the threads the functions use (below 1: the default); return the last count."),
}}

//export PyInit_search
func PyInit_search() *C.PyObject { return (*C.PyObject)(module.Init()) } // nil with the exception set on failure

func main() { module.Main() } // go run . -pyi search.pyi writes the type stub

// softmax works on x's rows in place: C-contiguous ones, as declared (a copy, written back, of any other layout).
func softmax(x Tensor) {
	d, elements := int(x.Shape[1]), pymodule.Slice[float32](x)
	vec.ParallelByCost(len(elements)/max(d, 1), float64(d), func(lo, hi int) {
		for i := lo * d; i < hi*d; i += d {
			row, m := elements[i:i+d], vec.Max(elements[i:i+d])
			vec.Prefetch(elements[min(i+2*d, hi*d):min(i+3*d, hi*d)]) // the row after next, by its turn from DRAM
			vec.MulConst(row, row, float32(1/vec.ExpSum(row, row, m)))
		}
	})
}

func layerNorm(x, gamma, beta Tensor, eps float64) (Array, error) {
	d := int(x.Shape[1])
	for i, v := range []Tensor{gamma, beta} {
		if int(v.Shape[0]) != d {
			return Array{}, pymodule.ArgErrorAt(cpython.ValueError, i+1, "must have %d elements, x's columns, not %d", d, v.Shape[0])
		}
	}
	out, o, err := pymodule.NewArray[float32](x.Shape...)
	in, g, b := pymodule.Slice[float32](x), pymodule.Slice[float32](gamma), pymodule.Slice[float32](beta)
	vec.ParallelByCost(len(o)/max(d, 1), float64(d), func(lo, hi int) {
		for i := lo * d; i < hi*d; i += d {
			mean := vec.Sum(in[i:i+d]) / float64(d)
			inverse := 1 / math.Sqrt(vec.SqDistConst(in[i:i+d], mean)/float64(d)+eps)
			vec.SubMulConst(o[i:i+d], in[i:i+d], float32(mean), float32(inverse))
			vec.MulAdd(o[i:i+d], o[i:i+d], g, b)
		}
	})
	return out, err
}

func scores(queries, corpus Tensor) (Array, error) {
	out, dst, err := pymodule.NewArray[float32](queries.Shape[0], corpus.Shape[0])
	if err = errors.Join(err, sameWidth(queries, corpus.Shape[1])); err == nil {
		vec.ParallelDots(dst, pymodule.Slice[float32](queries), pymodule.Slice[float32](corpus), int(queries.Shape[1]))
	}
	return out, err
}

// sameWidth refuses queries (the first argument) whose rows are not as long as the corpus's, d.
func sameWidth(queries Tensor, d int64) error {
	if queries.Shape[1] != d {
		return pymodule.ArgErrorAt(cpython.ValueError, 0, "has %d columns, not the corpus's %d", queries.Shape[1], d)
	}
	return nil
}

func cosineTopK(queries, corpus Tensor, k int) (Array, Array, error) {
	return nearest(queries, pymodule.Slice[float32](corpus), int(corpus.Shape[1]), k, false)
}

// A worker multiplies blocks of 256 queries by tiles of 256 corpus rows: their products stay in the core's cache.
const block, tile = 256, 256

// nearest returns the k rows of corpus (rows of d) most like each query by cosine, best first, their norms
// computed a tile at a time unless they are normalized; the queries go to every core, each its own k best.
func nearest(queries Tensor, corpus []float32, d, k int, normalized bool) (Array, Array, error) {
	nq, nc := int(queries.Shape[0]), len(corpus)/d
	if k < 0 || k > nc {
		return Array{}, Array{}, pymodule.ArgError(cpython.ValueError, "k", "must be in [0, %d], the corpus's rows, not %d", nc, k)
	}
	scoreArray, scores, err := pymodule.NewArray[float32](int64(nq), int64(k))
	indexArray, indices, err2 := pymodule.NewArray[int64](int64(nq), int64(k))
	if err = errors.Join(err, err2, sameWidth(queries, int64(d))); err != nil {
		return scoreArray, indexArray, err // the binder releases results returned with an error
	}
	q := pymodule.Slice[float32](queries)
	vec.ParallelByCost(nq, float64(2*nc*d), func(lo, hi int) {
		best, products, inverse := make([]vec.TopK[float32], hi-lo), make([]float32, block*tile), make([]float32, tile)
		for i := range best {
			best[i].Largest(k)
		}
		for c := 0; c < nc; c += tile {
			rows := corpus[c*d : min(c+tile, nc)*d]
			for j := range len(rows) / d {
				inverse[j] = inverseNorm(rows[j*d : j*d+d])
			}
			for b := lo; b < hi; b += block {
				products := products[:min(block, hi-b)*len(rows)/d]
				vec.Dots(products, q[b*d:min(b+block, hi)*d], rows, d)
				for i, row := range slices.Collect(slices.Chunk(products, len(rows)/d)) {
					if !normalized {
						vec.Mul(row, row, inverse[:len(row)])
					}
					vec.MulConst(row, row, inverseNorm(q[(b+i)*d:(b+i+1)*d]))
					best[b+i-lo].Push(row, c)
				}
			}
		}
		for i := range best {
			s, at := best[i].Sorted()
			copy(scores[(lo+i)*k:], s)
			copy(indices[(lo+i)*k:], at)
		}
	})
	return scoreArray, indexArray, nil
}

func inverseNorm(row []float32) float32 { return float32(1 / max(math.Sqrt(vec.Dot(row, row)), 1e-12)) }

// An Index keeps normalized vectors of one dimension in C memory.
type Index struct {
	dim     int
	vectors pymodule.Buffer[float32]
}

func newIndex(dim int) (*Index, error) {
	if dim <= 0 {
		return nil, pymodule.ArgError(cpython.ValueError, "dim", "must be positive, not %d", dim)
	}
	return &Index{dim: dim}, nil
}

func (ix *Index) Add(x Tensor) error {
	if int(x.Shape[1]) != ix.dim {
		return pymodule.ArgError(cpython.ValueError, "x", "has %d columns, not the index's %d", x.Shape[1], ix.dim)
	}
	old := ix.vectors.Len()
	if err := ix.vectors.AppendSlice(pymodule.Slice[float32](x)); err != nil {
		return err // nothing added
	}
	for row := range slices.Chunk(ix.vectors.Slice()[old:], ix.dim) {
		vec.MulConst(row, row, inverseNorm(row))
	}
	return nil
}

func (ix *Index) Len() int { return ix.vectors.Len() / ix.dim }

func (ix *Index) Search(q Tensor, k int) (Array, Array, error) {
	return nearest(q, ix.vectors.Slice(), ix.dim, k, true)
}
