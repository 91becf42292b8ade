package vec

import (
	"fmt"
	"math"
	"math/big"
	"slices"
	"testing"
)

// A term is a sum's term: finite, exactly (big), or special (an infinity or NaN, as IEEE arithmetic gives
// it from its non-finite operands).
type term struct {
	special float64
	exact   *big.Float
}

func termOf(x float64) term {
	if math.IsInf(x, 0) || math.IsNaN(x) {
		return term{special: x}
	}
	return term{exact: new(big.Float).SetPrec(2200).SetFloat64(x)}
}

// productTerm is x·y, exactly where both are finite.
func productTerm(x, y float64) term {
	if tx, ty := termOf(x), termOf(y); tx.exact != nil && ty.exact != nil {
		return term{exact: tx.exact.Mul(tx.exact, ty.exact)}
	}
	return term{special: x * y}
}

// squareTerm is (x-y)², exactly where both are finite.
func squareTerm(x, y float64) term {
	if tx, ty := termOf(x), termOf(y); tx.exact != nil && ty.exact != nil {
		d := tx.exact.Sub(tx.exact, ty.exact)
		return term{exact: new(big.Float).SetPrec(2200).Mul(d, d)}
	}
	d := x - y
	return term{special: d * d}
}

// ruled returns the sum of terms by the rule for special values, and
// whether a finite term or partial sum overflows float64 though the exact
// sum does not: then an infinity may stand for the exact sum too.
func ruled(terms []term) (sum float64, overflows bool) {
	var nan, plus, minus bool
	exact := new(big.Float).SetPrec(2200)
	for _, t := range terms {
		switch {
		case t.exact != nil:
			exact.Add(exact, t.exact)
			if f, _ := exact.Float64(); math.IsInf(f, 0) {
				overflows = true
			}
			if f, _ := t.exact.Float64(); math.IsInf(f, 0) {
				overflows = true
			}
		case math.IsNaN(t.special):
			nan = true
		case t.special > 0:
			plus = true
		default:
			minus = true
		}
	}
	switch {
	case nan || plus && minus:
		return math.NaN(), false
	case plus:
		return math.Inf(1), false
	case minus:
		return math.Inf(-1), false
	}
	sum, _ = exact.Float64() // ±Inf where the exact sum overflows
	return sum, overflows && !math.IsInf(sum, 0)
}

// holds fails the test unless got keeps the rule for terms: the same NaN or
// infinity, or the exact finite sum within a few units of its last place
// times the terms' magnitude (an infinity too where a term or a partial sum
// overflows).
func holds(t *testing.T, what string, got float64, terms []term) {
	t.Helper()
	want, overflows := ruled(terms)
	switch {
	case math.IsNaN(want):
		if !math.IsNaN(got) {
			t.Errorf("%s = %v, want NaN", what, got)
		}
	case math.IsInf(want, 0):
		if got != want {
			t.Errorf("%s = %v, want %v", what, got, want)
		}
	case math.IsInf(got, 0) && overflows:
	case math.IsNaN(got) || math.IsInf(got, 0):
		t.Errorf("%s = %v, want %v (a term or partial sum overflows: %v)", what, got, want, overflows)
	default:
		mag := new(big.Float)
		for _, x := range terms {
			mag.Add(mag, new(big.Float).Abs(x.exact))
		}
		err := new(big.Float).Sub(big.NewFloat(got), big.NewFloat(want))
		if bound := mag.Mul(mag, big.NewFloat(0x1p-40)); err.Abs(err).Cmp(bound) > 0 {
			t.Errorf("%s = %v, want %v", what, got, want)
		}
	}
}

// A sumSpecialCase puts special values into x (and y, for the products).
type sumSpecialCase struct {
	name   string
	big    bool // only float64 holds its values
	fill   func(x, y []float64)
	paired bool // the values are in y too: meaningful for products only
}

var inf, nan = math.Inf(1), math.NaN()

// sumSpecialCases place their values first, last, in the middle, and far apart
// (in different blocks of leaf and different halves of a split).
var sumSpecialCases = []sumSpecialCase{
	{name: "+inf first", fill: func(x, _ []float64) { x[0] = inf }},
	{name: "-inf last", fill: func(x, _ []float64) { x[len(x)-1] = -inf }},
	{name: "+inf middle", fill: func(x, _ []float64) { x[len(x)/2] = inf }},
	{name: "both infinities", fill: func(x, _ []float64) { x[0], x[len(x)-1] = inf, -inf }},
	{name: "nan middle", fill: func(x, _ []float64) { x[len(x)/2] = nan }},
	{name: "nan and +inf", fill: func(x, _ []float64) { x[0], x[len(x)/2] = inf, nan }},
	{name: "all +inf", fill: func(x, _ []float64) {
		for i := range x {
			x[i] = inf
		}
	}},
	{name: "inf times zero", paired: true, fill: func(x, y []float64) { x[len(x)/3], y[len(x)/3] = inf, 0 }},
	{name: "inf times -2", paired: true, fill: func(x, y []float64) { x[len(x)-1], y[len(x)-1] = inf, -2 }},
	{name: "overflow", big: true, fill: func(x, _ []float64) {
		for i := range x {
			x[i] = 1e308
		}
	}},
	{name: "partial overflow", big: true, fill: func(x, _ []float64) {
		for i := range x {
			x[i] = 1.5e308 * float64(1-2*(i*2/len(x))) // the first half +, the second -
		}
	}},
	{name: "partial overflow in lanes", big: true, fill: func(x, _ []float64) {
		for i := range x {
			x[i] = 1.5e308 * float64(1-2*(i%2)) // +, -, +, -: lanes of each sign
		}
	}},
	{name: "overflow and -inf", big: true, fill: func(x, _ []float64) {
		for i := range x {
			x[i] = 1e308
		}
		x[len(x)-1] = -inf
	}},
	{name: "products overflow", big: true, paired: true, fill: func(x, y []float64) {
		x[0], y[0], x[len(x)-1], y[len(x)-1] = 1e200, 1e200, 1e200, -1e200
	}},
}

var specialLengths = []int{1, 2, 7, 64, 65, leaf - 1, leaf + 1, 3*leaf + 77}

// testSpecialSums holds Sum, ParallelSum, Dot, ParallelDot and SqDist of T to the rule.
func testSpecialSums[T Float](t *testing.T, lengths []int) {
	for _, c := range sumSpecialCases {
		if c.big && isFloat32[T]() {
			continue
		}
		for _, n := range lengths {
			if n < 2 && c.name == "both infinities" {
				continue
			}
			x64, y64 := make([]float64, n), make([]float64, n)
			for i := range n {
				x64[i], y64[i] = float64(i%7)-2.5, float64(i%5)+0.5
			}
			c.fill(x64, y64)
			x, y := make([]T, n), make([]T, n)
			sums, products, squares := make([]term, n), make([]term, n), make([]term, n)
			for i := range n {
				x[i], y[i] = T(x64[i]), T(y64[i])
				sums[i] = termOf(float64(x[i]))
				products[i] = productTerm(float64(x[i]), float64(y[i]))
				squares[i] = squareTerm(float64(x[i]), float64(y[i]))
			}
			what := fmt.Sprintf("%s of %d", c.name, n)
			if !c.paired {
				holds(t, "Sum: "+what, Sum(x), sums)
				holds(t, "ParallelSum: "+what, ParallelSum(x), sums)
				holds(t, "SqDist: "+what, SqDist(x, y), squares)
			}
			holds(t, "Dot: "+what, Dot(x, y), products)
			holds(t, "ParallelDot: "+what, ParallelDot(x, y), products)
		}
	}
}

func TestSpecialValuesInSums(t *testing.T) {
	defer SetThreads(SetThreads(4))
	eachPath(t, func(t *testing.T) {
		t.Run("float32", func(t *testing.T) { testSpecialSums[float32](t, specialLengths) })
		t.Run("float64", func(t *testing.T) { testSpecialSums[float64](t, specialLengths) })
	})
}

// TestSpecialValuesInSplitSums takes lengths that ParallelSum and
// ParallelDot split across goroutines, on the active path: their results
// are Sum's and Dot's, to the bit, and of the class the rule gives (the
// exact sums of millions of terms are the shorter tests' job).
func TestSpecialValuesInSplitSums(t *testing.T) {
	defer SetThreads(SetThreads(4))
	n32, n64 := 2*ParallelGrain/4+5, 2*ParallelGrain/8+5
	if Workers(n32, 4) < 2 || Workers(n64, 8) < 2 {
		t.Fatalf("lengths %d and %d are not split", n32, n64)
	}
	t.Run("float32", func(t *testing.T) { testSplitSpecialSums[float32](t, n32) })
	t.Run("float64", func(t *testing.T) { testSplitSpecialSums[float64](t, n64) })
}

func testSplitSpecialSums[T Float](t *testing.T, n int) {
	for _, c := range []struct {
		name        string
		sum, dot    float64 // 0 for any result but NaN
		float64Only bool
	}{
		{name: "+inf middle", sum: inf, dot: inf},
		{name: "both infinities", sum: nan, dot: nan},
		{name: "nan middle", sum: nan, dot: nan},
		{name: "inf times zero", sum: inf, dot: nan},
		{name: "overflow and -inf", sum: -inf, dot: -inf, float64Only: true},
		{name: "partial overflow in lanes", float64Only: true},
	} {
		if c.float64Only && isFloat32[T]() {
			continue
		}
		i := slices.IndexFunc(sumSpecialCases, func(s sumSpecialCase) bool { return s.name == c.name })
		x64, y64 := make([]float64, n), make([]float64, n)
		for i := range n {
			x64[i], y64[i] = float64(i%7)-2.5, float64(i%5)+0.5
		}
		sumSpecialCases[i].fill(x64, y64)
		x, y := make([]T, n), make([]T, n)
		for i := range n {
			x[i], y[i] = T(x64[i]), T(y64[i])
		}
		for _, r := range []struct {
			name       string
			split, one float64
			want       float64
		}{
			{"Sum", ParallelSum(x), Sum(x), c.sum},
			{"Dot", ParallelDot(x, y), Dot(x, y), c.dot},
		} {
			same := r.split == r.one || math.IsNaN(r.split) && math.IsNaN(r.one)
			class := r.want == r.one || math.IsNaN(r.want) && math.IsNaN(r.one) || r.want == 0 && !math.IsNaN(r.one)
			if !same || !class {
				t.Errorf("%s of %s, %d: split %v, one goroutine %v, want %v", r.name, c.name, n, r.split, r.one, r.want)
			}
		}
	}
}

func TestAccumulator(t *testing.T) {
	for _, c := range []struct {
		name  string
		terms []float64
	}{
		{"empty", nil},
		{"cancels", []float64{1, 1e100, 1, -1e100}},
		{"+inf", []float64{1, inf, 2}},
		{"-inf", []float64{-inf, 1e308, 1e308}},
		{"both", []float64{inf, 3, -inf}},
		{"nan", []float64{1, nan}},
		{"overflow", []float64{1e308, 1e308}},
		{"negative overflow", []float64{-1e308, -1e308, -1e308}},
		{"back in range", []float64{1e308, 1e308, -1e308, -1e308, 3}},
		{"back in range, down", []float64{-1.7e308, -1.7e308, 1.7e308, 0.5e308}},
	} {
		var a Accumulator
		terms := make([]term, len(c.terms))
		for i, x := range c.terms {
			a.Add(x)
			terms[i] = termOf(x)
		}
		holds(t, "Accumulator: "+c.name, a.Value(), terms)
	}
	for _, c := range []struct {
		name string
		xy   [][2]float64
	}{
		{"products overflow and cancel", [][2]float64{{1e300, 1e300}, {3, 4}, {-1e300, 1e300}}},
		{"a product overflows", [][2]float64{{1e300, 1e300}, {3, 4}}},
		{"inf times zero", [][2]float64{{inf, 0}, {3, 4}}},
		{"inf times -2", [][2]float64{{inf, -2}, {3, 4}}},
	} {
		var a, squares Accumulator
		products, squared := make([]term, len(c.xy)), make([]term, len(c.xy))
		for i, xy := range c.xy {
			a.AddProduct(xy[0], xy[1])
			squares.addSquare(xy[0], xy[1])
			products[i], squared[i] = productTerm(xy[0], xy[1]), squareTerm(xy[0], xy[1])
		}
		holds(t, "Accumulator products: "+c.name, a.Value(), products)
		holds(t, "Accumulator squares: "+c.name, squares.Value(), squared)
	}
}

// TestSpecialValuesInSqDists holds the tile kernels to IEEE arithmetic on
// their terms: a NaN element or inf - inf makes a distance NaN, another
// infinity makes it +inf.
func TestSpecialValuesInSqDists(t *testing.T) {
	test := func(t *testing.T, n, m, k int) {
		a, b := make([]float32, n*k), make([]float32, m*k)
		for i := range a {
			a[i] = float32(i%9) - 4
		}
		for i := range b {
			b[i] = float32(i%7) - 3
		}
		a[1*k+3], a[2*k], b[4*k+3], b[6*k+k-1], a[(n-1)*k+k-1] = inf32, nan32, inf32, -inf32, -inf32
		dst := make([]float32, n*m)
		SqDists(dst, a, b, k)
		for i := range n {
			for j := range m {
				var want float64
				for c := range k {
					d := float64(a[i*k+c]) - float64(b[j*k+c])
					want += d * d
				}
				got := float64(dst[i*m+j])
				if finite(want) && !finite(got) || !finite(want) && got != want && !(math.IsNaN(want) && math.IsNaN(got)) {
					t.Errorf("SqDists %dx%d by %dx%d [%d,%d] = %v, want %v", n, k, m, k, i, j, got, want)
				}
			}
		}
	}
	eachPath(t, func(t *testing.T) {
		test(t, 5, 9, 17)
		test(t, 8, 40, 64)
	})
}
