package vec_test

import (
	"fmt"
	"math"

	"github.com/godlpack/godlpack/vec"
)

// Rows on every core: the norm of each row of a row-major matrix, each
// goroutine taking a range of rows.
func ExampleParallel() {
	const rows, cols = 1000, 256
	m := make([]float64, rows*cols)
	for i := range m {
		m[i] = float64(i % cols)
	}
	norms := make([]float64, rows)
	vec.Parallel(rows, 8*cols, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			row := m[i*cols : (i+1)*cols]
			norms[i] = math.Sqrt(vec.Dot(row, row))
		}
	})
	fmt.Printf("%.2f %.2f\n", norms[0], norms[rows-1])
	// Output: 2357.90 2357.90
}

// The k nearest rows of a corpus to each query, the corpus in tiles of
// rows on every core: each tile's distances by the tile kernel, each
// query's best k of the tile in a TopK (indexes offset to the corpus's),
// the tiles' TopKs merged.
func ExampleTopK_tiles() {
	const dim, queries, rows, tile, k = 4, 2, 1000, 128, 3
	q := []float32{0, 0, 0, 0, 2.5, 2.5, 2.5, 2.5}
	corpus := make([]float32, rows*dim) // row j is the point (j%100, j%100, …)
	for i := range corpus {
		corpus[i] = float32(i / dim % 100)
	}
	type part struct { // a tile's k nearest to each query, and its distances
		nearest [queries]vec.TopK[float32]
		dists   []float32
	}
	rowNanos := queries * dim / 20.0 // the tile kernel: about 20 squared differences a nanosecond
	best := vec.Reduce(rows, tile, rowNanos, func(lo, hi int, p *part) *part {
		if p == nil {
			p = &part{dists: make([]float32, queries*tile)}
		}
		d := p.dists[:queries*(hi-lo)]
		vec.SqDists(d, q, corpus[lo*dim:hi*dim], dim)
		for i := range p.nearest {
			p.nearest[i].Smallest(k)
			p.nearest[i].Push(d[i*(hi-lo):(i+1)*(hi-lo)], lo)
		}
		return p
	}, func(a, b *part) *part {
		for i := range a.nearest {
			a.nearest[i].Merge(&b.nearest[i])
		}
		return a
	})
	for i := range best.nearest {
		dists, idx := best.nearest[i].Sorted()
		fmt.Println(idx, dists)
	}
	// Output:
	// [0 100 200] [0 0 0]
	// [2 3 102] [1 1 1]
}

// A weighted bincount on every core: each block of indexes counts into a
// histogram of its own, and the blocks' histograms are added in a fixed
// order, with no mutex and the same bits at every thread count.
func ExampleReduce() {
	const bins = 4
	values := make([]int, 100_000)
	weights := make([]float64, len(values))
	for i := range values {
		values[i], weights[i] = i%bins, 0.1
	}
	counts := vec.Reduce(len(values), 1<<14, 2, func(lo, hi int, h []float64) []float64 {
		if h == nil {
			h = make([]float64, bins)
		}
		clear(h)
		for i := lo; i < hi; i++ {
			h[values[i]] += weights[i]
		}
		return h
	}, func(a, b []float64) []float64 {
		vec.Axpy(a, 1, b)
		return a
	})
	fmt.Printf("%.9f\n", counts)
	// Output: [2500.000000000 2500.000000000 2500.000000000 2500.000000000]
}
