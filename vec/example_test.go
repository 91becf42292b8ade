package vec_test

import (
	"fmt"

	"github.com/godlpack/godlpack/vec"
)

func Example() {
	x := []float32{1, 2, 3, 4, 5}
	y := []float32{5, 4, 3, 2, 1}
	fmt.Println(vec.Sum(x), vec.Dot(x, y), vec.SqDist(x, y), vec.Min(x), vec.Max(y))
	vec.Axpy(y, 2, x) // y += 2*x
	vec.Scale(x, -1)
	fmt.Println(x, y)
	counts := []uint8{200, 100, 7}
	fmt.Println(vec.SumUint(counts), vec.SumInt([]int16{-3, 1}))
	// Output:
	// 15 35 40 1 5
	// [-1 -2 -3 -4 -5] [7 8 9 10 11]
	// 307 -2
}

// A float32 sum in float64: the small terms survive the large one.
func ExampleSum() {
	x := []float32{1 << 24, 1, 1, 1, 1}
	var naive float32
	for _, v := range x {
		naive += v
	}
	fmt.Println(naive, vec.Sum(x))
	// Output: 1.6777216e+07 1.677722e+07
}
