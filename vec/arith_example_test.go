package vec_test

import (
	"fmt"
	"math"

	"github.com/godlpack/godlpack/vec"
)

// The exponentials and hyperbolic tangents below are math.Exp and math.Tanh
// a float at a time, each marked "until vec.Exp" or "until vec.Tanh": the
// lines to replace by vec.Exp(x, x) and vec.Tanh(x, x) once package vec has
// them.

// Softmax of each row of a matrix, in place: the row's maximum taken away
// (no exponential overflows), the exponentials, and their sum divided out.
func Example_softmax() {
	const cols = 4
	m := []float32{1, 2, 3, 4, -1, 0, 0, 1000}
	for r := 0; r < len(m); r += cols {
		row := m[r : r+cols]
		vec.SubConst(row, row, vec.Max(row))
		for i, v := range row { // until vec.Exp: vec.Exp(row, row)
			row[i] = float32(math.Exp(float64(v)))
		}
		vec.DivConst(row, row, float32(vec.Sum(row)))
	}
	fmt.Printf("%.4f\n%.4f\n", m[:cols], m[cols:])
	// Output:
	// [0.0321 0.0871 0.2369 0.6439]
	// [0.0000 0.0000 0.0000 1.0000]
}

// Layer normalization of a row: its mean and variance (two passes, the
// second without cancellation), then (x - mean) / sqrt(variance + eps),
// scaled by gamma and shifted by beta column by column.
func Example_layerNorm() {
	x := []float32{1001, 1002, 1003, 1004}
	gamma := []float32{1, 1, 2, 2}
	beta := []float32{0, 0, 0, 1}
	const eps = 1e-5
	n := float64(len(x))
	mean := vec.Sum(x) / n
	variance := vec.SqDistConst(x, mean) / n
	y := make([]float32, len(x))
	vec.SubMulConst(y, x, float32(mean), float32(1/math.Sqrt(variance+eps)))
	vec.MulAdd(y, y, gamma, beta)
	fmt.Printf("mean %.2f, variance %.4f: %.4f\n", mean, variance, y)
	// Output: mean 1002.50, variance 1.2500: [-1.3416 -0.4472 0.8944 3.6833]
}

// GELU in its tanh form, x/2 · (1 + tanh(√(2/π)·(x + 0.044715·x³))), as
// BERT and GPT-2 have it: the polynomial as x·(c0 + c1·x²), then the
// tangent, then x·(t+1)/2.
func Example_gelu() {
	x := []float64{-3, -1, 0, 0.5, 2}
	c0 := math.Sqrt(2 / math.Pi)
	c1 := c0 * 0.044715
	u := make([]float64, len(x))
	vec.Mul(u, x, x)
	vec.MulAddConst(u, u, c1, c0)
	vec.Mul(u, u, x)
	for i, v := range u { // until vec.Tanh: vec.Tanh(u, u)
		u[i] = math.Tanh(v)
	}
	vec.MulAddConst(u, u, 0.5, 0.5)
	vec.Mul(u, u, x)
	fmt.Printf("%.4f\n", u)
	// Output: [-0.0036 -0.1588 0.0000 0.3457 1.9546]
}

// Log-sum-exp of a slice, log(Σ exp(x[i])), without overflow: the maximum
// taken out of the exponentials and added back to the logarithm.
func Example_logSumExp() {
	x := []float64{1000, 1001, 1002}
	m := vec.Max(x)
	t := make([]float64, len(x))
	vec.SubConst(t, x, m)
	for i, v := range t { // until vec.Exp: vec.Exp(t, t)
		t[i] = math.Exp(v)
	}
	fmt.Printf("%.4f\n", m+math.Log(vec.Sum(t)))
	// Output: 1002.4076
}
