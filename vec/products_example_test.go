package vec_test

import (
	"fmt"

	"github.com/godlpack/godlpack/vec"
)

// Scores of queries against a corpus, rows of 3 elements: dst[i*m+j] is
// query i's dot product with row j of the corpus.
func ExampleDots() {
	queries := []float32{1, 0, 0, 0, 1, 1}          // two rows
	corpus := []float32{2, 3, 4, 1, 1, 1, 0, -1, 5} // three rows
	scores := make([]float32, 2*3)
	vec.Dots(scores, queries, corpus, 3)
	fmt.Println(scores)
	// Output: [2 1 0 7 2 4]
}

// A 2×3 matrix times a 3×2 one: k is a's columns and b's rows.
func ExampleMatMul() {
	a := []float64{
		1, 2, 3,
		4, 5, 6,
	}
	b := []float64{
		1, 0,
		0, 1,
		1, 1,
	}
	c := make([]float64, 2*2)
	vec.MatMul(c, a, b, 3)
	fmt.Println(c)
	// Output: [4 5 10 11]
}

// A large product on every core: the same bits as MatMul's, whatever the
// count of goroutines.
func ExampleParallelMatMul() {
	const n = 300
	a, b := make([]float32, n*n), make([]float32, n*n)
	for i := range a {
		a[i], b[i] = float32(i%7), float32(i%5)
	}
	one, all := make([]float32, n*n), make([]float32, n*n)
	vec.MatMul(one, a, b, n)
	vec.ParallelMatMul(all, a, b, n)
	fmt.Println(one[n*n-1], all[n*n-1] == one[n*n-1])
	// Output: 3608 true
}

// All the pairwise squared distances of two sets of rows, by the tile kernel.
func ExampleSqDists() {
	a := []float32{0, 0, 1, 1, 2, 2} // three rows of two
	b := []float32{1, 0, 3, 4}       // two rows of two
	d := make([]float32, 3*2)
	vec.SqDists(d, a, b, 2)
	fmt.Println(d)
	// Output: [1 25 1 13 5 5]
}
