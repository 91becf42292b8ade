package vec

import "math"

// The rule for special values in a float sum, the same for [Sum],
// [ParallelSum], [Dot], [ParallelDot], [SqDist], [ExpSum] and an
// [Accumulator]: the result is NaN only where IEEE arithmetic on the exact
// terms gives NaN (a NaN element, a product inf·0, a difference inf - inf,
// or terms of both infinities); otherwise an infinite term makes the result
// that infinity, and a sum of finite terms is their exact sum rounded once,
// or an infinity where that overflows float64. Where only a partial sum (or
// a product, or a difference) overflows, as in 1e308 + 1e308 - 1e308, the
// result is an infinity or the exact value, never NaN.
//
// The vector kernels cannot keep the rule on their own: once a running sum
// of float64 terms is infinite, the rounding error of the next compensated
// addition is inf - inf, and an infinity that a partial sum overflowed to
// stays, whatever its sign and whatever comes after. A sum of float64
// elements that is not finite is therefore computed again by resum. (A sum
// of float32 elements, products or squared differences, in float64, cannot
// overflow: its infinities and NaNs are its terms'.)

// The special values an Accumulator's terms held.
const (
	sawNaN uint8 = 1 << iota
	sawPlusInf
	sawMinusInf
)

// scaleBits is the step by which an Accumulator scales its sum down when it
// would overflow: 2⁶⁴ of the largest float64s sum to a finite value once
// scaled by it.
const scaleBits = 64

// An Accumulator adds float64 terms one at a time into a compensated sum:
// the exact rounding error of each addition is kept (TwoSum) and added at
// the end, so that the result is about as accurate as one rounding of the
// exact sum. It keeps the rule of package vec's float sums for NaN and the
// infinities: a NaN term, or an infinity of each sign, makes the sum NaN;
// else an infinite term makes it that infinity; else the exact sum of the
// finite terms is rounded once, to an infinity where it overflows, and a
// partial sum (or a product, [Accumulator.AddProduct]) that overflows on
// the way never turns the result into NaN. The zero value is an empty sum,
// whose [Accumulator.Value] is 0.
//
// Use it to combine the results of [Sum] or [Dot] over rows, or elements
// that are not in one slice.
type Accumulator struct {
	hi, lo  float64 // the finite terms' sum is (hi + lo)·2^(scaleBits·scale)
	scale   int
	special uint8 // the sawNaN, sawPlusInf and sawMinusInf bits
}

// Add adds x to the sum.
func (a *Accumulator) Add(x float64) {
	if !finite(x) {
		switch {
		case x > 0:
			a.special |= sawPlusInf
		case x < 0:
			a.special |= sawMinusInf
		default:
			a.special |= sawNaN
		}
		return
	}
	a.addScaled(x, 0)
}

// AddProduct adds x·y to the sum, the product rounded to float64 once: a
// product of finite x and y that overflows float64 is a finite term too,
// which the sum keeps at its magnitude.
func (a *Accumulator) AddProduct(x, y float64) {
	p := x * y
	if finite(p) || !finite(x) || !finite(y) {
		a.Add(p)
		return
	}
	mx, ex := math.Frexp(x)
	my, ey := math.Frexp(y)
	a.addScaled(mx*my, ex+ey)
}

// addSquare adds (x-y)², which overflows where x-y does for finite x and y.
func (a *Accumulator) addSquare(x, y float64) {
	d := x - y
	if finite(d) || !finite(x) || !finite(y) {
		a.AddProduct(d, d)
		return
	}
	m, e := math.Frexp(x*0.5 - y*0.5) // exact: halves of numbers this large are
	a.addScaled(m*m, 2*e+2)
}

// addScaled adds the finite m·2^e, scaling the sum down while it would
// overflow (exactly, but for the lowest bits of lo and of small terms).
func (a *Accumulator) addScaled(m float64, e int) {
	for {
		t := m
		if e != 0 || a.scale != 0 {
			t = math.Ldexp(m, e-scaleBits*a.scale)
		}
		if s, err := twoSum(a.hi, t); finite(s) {
			a.hi, a.lo = s, a.lo+err
			return
		}
		a.hi, a.lo, a.scale = math.Ldexp(a.hi, -scaleBits), math.Ldexp(a.lo, -scaleBits), a.scale+1
	}
}

// add adds a finite sum not yet rounded.
func (a *Accumulator) add(d dd) {
	a.Add(d.hi)
	a.addScaled(d.lo, 0)
}

// NaN reports whether the sum is NaN whatever is added next.
func (a *Accumulator) NaN() bool {
	return a.special&sawNaN != 0 || a.special&(sawPlusInf|sawMinusInf) == sawPlusInf|sawMinusInf
}

// Value returns the sum of the terms added so far.
func (a *Accumulator) Value() float64 {
	switch {
	case a.NaN():
		return math.NaN()
	case a.special&sawPlusInf != 0:
		return math.Inf(1)
	case a.special&sawMinusInf != 0:
		return math.Inf(-1)
	}
	return math.Ldexp(a.hi+a.lo, scaleBits*a.scale)
}

// resum returns the sum of n terms whose pairwise sum by blocks is not
// finite, by the rule above: block(lo, hi) is the vector kernels' sum of the
// terms [lo, hi), and term(a, i) adds the i-th term to a. Only blocks whose
// sum is not finite are added term by term, and only until the result is
// known to be NaN; a block's sum of +inf holds no NaN and no -inf (either
// would have made the block's sum NaN), so it adds nothing to an
// Accumulator that has seen +inf already. The blocks are [leaf] long, as the
// pairwise tree's are, and are added in order: the same result whatever the
// thread count.
func resum(n int, block func(lo, hi int) dd, term func(a *Accumulator, i int)) float64 {
	var a Accumulator
	for lo := 0; lo < n && !a.NaN(); lo += leaf {
		hi := min(lo+leaf, n)
		b := block(lo, hi)
		switch v := b.value(); {
		case finite(v):
			a.add(b)
		case v > 0 && a.special&sawPlusInf != 0, v < 0 && a.special&sawMinusInf != 0:
		default:
			for i := lo; i < hi && !a.NaN(); i++ {
				term(&a, i)
			}
		}
	}
	return a.Value()
}
