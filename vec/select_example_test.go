package vec_test

import (
	"fmt"
	"math"

	"github.com/godlpack/godlpack/vec"
)

// The three largest elements of a slice, best first: ties go to the lower
// index, and NaN is never kept.
func ExampleTopK() {
	x := []float32{0.5, 2, float32(math.NaN()), 7, 2, -1}
	var top vec.TopK[float32]
	top.Largest(3)
	top.Push(x, 0)
	fmt.Println(top.Sorted())
	// Output: [7 2 2] [3 1 4]
}

func ExampleArgMax() {
	x := []float64{3, math.NaN(), 9, 1, 9}
	fmt.Println(vec.ArgMax(x), vec.ArgMin(x), vec.ArgMax([]float64{math.NaN()}))
	// Output: 2 3 -1
}
