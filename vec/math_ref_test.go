package vec

import (
	"math"
	"math/big"
)

// The exact values that Exp, Log and Tanh are held to, and that
// math_gen_test.go fits their polynomials to: math/big at refPrec bits, far
// beyond float64's 53, so that a reference rounds to the same float as the
// exact value but in cases rarer than any test meets.

const refPrec = 320

func newBig() *big.Float { return new(big.Float).SetPrec(refPrec) }

func bigOf(v float64) *big.Float { return newBig().SetFloat64(v) }

// bigExp returns e**x: the Taylor series of x/2**s, squared s times.
func bigExp(x *big.Float) *big.Float {
	s := 0
	if x.Sign() != 0 {
		if e := x.MantExp(nil); e > -12 {
			s = e + 12
		}
	}
	y := newBig().SetMantExp(x, -s)
	sum, term := newBig().SetInt64(1), newBig().SetInt64(1)
	for k := int64(1); ; k++ {
		term.Mul(term, y)
		term.Quo(term, newBig().SetInt64(k))
		if term.Sign() == 0 || term.MantExp(nil) < -refPrec-8 {
			break
		}
		sum.Add(sum, term)
	}
	for range s {
		sum.Mul(sum, sum)
	}
	return sum
}

// bigLog returns the natural logarithm of x > 0, by Halley's iteration on
// e**y = x from float64's logarithm.
func bigLog(x *big.Float) *big.Float {
	if x.Cmp(bigOf(1)) == 0 {
		return newBig()
	}
	mant := newBig()
	exp := x.MantExp(mant) // x = mant * 2**exp, mant in [0.5, 1)
	m, _ := mant.Float64()
	y := bigOf(math.Log(m))
	two := bigOf(2)
	for range 4 { // cubic convergence: 53 bits, then 159, then all
		e := bigExp(y)
		num := newBig().Sub(mant, e)
		den := newBig().Add(mant, e)
		y.Add(y, num.Mul(num, two).Quo(num, den))
	}
	return y.Add(y, newBig().Mul(bigLn2(), bigOf(float64(exp))))
}

var ln2Big *big.Float

func bigLn2() *big.Float {
	if ln2Big == nil {
		y := bigOf(math.Ln2)
		two := bigOf(2)
		for range 4 {
			e := bigExp(y)
			num := newBig().Sub(two, e)
			den := newBig().Add(two, e)
			y.Add(y, num.Mul(num, two).Quo(num, den))
		}
		ln2Big = y
	}
	return ln2Big
}

// bigTanh returns tanh x: (e**2x - 1) / (e**2x + 1), or its series where
// |x| is so small that e**2x - 1 would cancel.
func bigTanh(x *big.Float) *big.Float {
	if x.Sign() == 0 {
		return newBig()
	}
	if x.MantExp(nil) < -40 { // x - x**3/3 + 2x**5/15, within 2**-280 of tanh x
		x2 := newBig().Mul(x, x)
		t := newBig().Mul(x2, bigOf(2))
		t.Quo(t, bigOf(15))
		t.Sub(t, newBig().Quo(bigOf(1), bigOf(3)))
		t.Mul(t, x2)
		t.Add(t, bigOf(1))
		return t.Mul(t, x)
	}
	e := bigExp(newBig().Add(x, x))
	num := newBig().Sub(e, bigOf(1))
	return num.Quo(num, e.Add(e, bigOf(1)))
}

// ulpsOff returns how many units in the last place of a float of the given
// mantissa bits (24 or 53) and least exponent got is from want: the units of
// want's binade, or the subnormals' where want is below the normal range. A
// want beyond the largest finite float is met by an infinity of its sign
// where it rounds to one.
func ulpsOff(got float64, want *big.Float, mantBits, minExp int, maxFloat float64) float64 {
	if want.Sign() == 0 {
		if got == 0 {
			return 0
		}
		return math.Inf(1)
	}
	e := want.MantExp(nil) - 1 // want in [2**e, 2**(e+1))
	ulp := math.Ldexp(1, max(e, minExp)-(mantBits-1))
	if math.IsInf(got, 0) {
		// want rounds to infinity at and beyond the largest float plus half its unit.
		edge := newBig().SetFloat64(maxFloat)
		edge.Add(edge, bigOf(math.Ldexp(1, int(math.Ilogb(maxFloat))-mantBits)))
		if (got > 0) == (want.Sign() > 0) && newBig().Abs(want).Cmp(edge) >= 0 {
			return 0
		}
		return math.Inf(1)
	}
	d := newBig().Sub(bigOf(got), want)
	off, _ := d.Quo(d.Abs(d), bigOf(ulp)).Float64() // in big: a subnormal difference would round
	return off
}

// ulps32 and ulps64 are ulpsOff for float32 and float64 results.
func ulps32(got float32, want *big.Float) float64 {
	return ulpsOff(float64(got), want, 24, -126, math.MaxFloat32)
}

func ulps64(got float64, want *big.Float) float64 {
	return ulpsOff(got, want, 53, -1022, math.MaxFloat64)
}
