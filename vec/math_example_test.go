package vec_test

import (
	"fmt"
	"math"

	"github.com/godlpack/godlpack/vec"
)

// A softmax in place: e**(x - max x), scaled to sum to 1.
func ExampleExp() {
	x := []float32{1, 2, 3, 4}
	m := vec.Max(x)
	for i := range x {
		x[i] -= m
	}
	vec.Exp(x, x)
	vec.Scale(x, float32(1/vec.Sum(x)))
	fmt.Printf("%.4f\n", x)
	// Output: [0.0321 0.0871 0.2369 0.6439]
}

// A softmax in one pass after the maximum, and the log-sum-exp of x.
func ExampleExpSum() {
	x := []float32{1, 2, 3, 4}
	m := vec.Max(x)
	p := make([]float32, len(x))
	s := vec.ExpSum(p, x, m)
	vec.MulConst(p, p, float32(1/s))
	fmt.Printf("%.4f\n", p)
	fmt.Printf("%.4f\n", float64(m)+math.Log(s))
	// Output:
	// [0.0321 0.0871 0.2369 0.6439]
	// 4.4402
}

// A softmax of each row of a matrix in place, the next row's memory
// prefetched while this one's exponentials are made.
func ExamplePrefetch() {
	const d = 4
	x := []float32{1, 2, 3, 4, 0, 0, 0, 0, -1, 1, -1, 1}
	for i := 0; i < len(x); i += d {
		vec.Prefetch(x[i+d : min(i+2*d, len(x))])
		row := x[i : i+d]
		vec.MulConst(row, row, float32(1/vec.ExpSum(row, row, vec.Max(row))))
	}
	fmt.Printf("%.4f\n", x)
	// Output: [0.0321 0.0871 0.2369 0.6439 0.2500 0.2500 0.2500 0.2500 0.0596 0.4404 0.0596 0.4404]
}

// Log and Tanh take a destination of their own, or the input itself.
func ExampleTanh() {
	x := []float64{-20, -1, 0, 0.5, 1e-9}
	y := make([]float64, len(x))
	vec.Tanh(y, x)
	fmt.Println(y)
	vec.Log(x[3:], x[3:])
	fmt.Println(x[3:])
	// Output:
	// [-1 -0.7615941559557649 0 0.46211715726000974 1e-09]
	// [-0.6931471805599453 -20.72326583694641]
}
