package dlpack

import "math"

// minifloat describes one of the float8, float6 and float4 formats: widths
// of its fields, its exponent bias and how it spells infinity and NaN.
type minifloat struct {
	exp, man uint
	bias     int
	signed   bool
	special  int
}

// How a format spells its special values.
const (
	ieeeSpecials = iota // exponent all ones: infinity (mantissa 0) or NaN
	fnSpecials          // no infinity; all ones in exponent and mantissa is NaN
	fnuzSpecials        // no infinity, no negative zero; the sign bit alone is NaN
	noSpecials          // every code is a finite number
	e8m0Specials        // unsigned powers of two; all ones is NaN
)

var minifloats = map[Code]minifloat{
	Float8E3M4:        {3, 4, 3, true, ieeeSpecials},
	Float8E4M3:        {4, 3, 7, true, ieeeSpecials},
	Float8E4M3B11FNUZ: {4, 3, 11, true, fnuzSpecials},
	Float8E4M3FN:      {4, 3, 7, true, fnSpecials},
	Float8E4M3FNUZ:    {4, 3, 8, true, fnuzSpecials},
	Float8E5M2:        {5, 2, 15, true, ieeeSpecials},
	Float8E5M2FNUZ:    {5, 2, 16, true, fnuzSpecials},
	Float8E8M0FNU:     {8, 0, 127, false, e8m0Specials},
	Float6E2M3FN:      {2, 3, 1, true, noSpecials},
	Float6E3M2FN:      {3, 2, 3, true, noSpecials},
	Float4E2M1FN:      {2, 1, 1, true, noSpecials},
}

func (f minifloat) width() uint {
	if f.signed {
		return 1 + f.exp + f.man
	}
	return f.exp + f.man
}

func (f minifloat) decode(b uint8) float64 {
	b &= uint8(1<<f.width() - 1)
	if f.special == e8m0Specials {
		if b == 0xff {
			return math.NaN()
		}
		return math.Ldexp(1, int(b)-f.bias)
	}
	neg := f.signed && b>>(f.exp+f.man) != 0
	e := uint(b>>f.man) & (1<<f.exp - 1)
	m := uint(b) & (1<<f.man - 1)
	allOnes := uint(1)<<f.exp - 1
	switch f.special {
	case ieeeSpecials:
		if e == allOnes {
			if m != 0 {
				return math.NaN()
			}
			return math.Copysign(math.Inf(1), sign(neg))
		}
	case fnSpecials:
		if e == allOnes && m == 1<<f.man-1 {
			return math.NaN()
		}
	case fnuzSpecials:
		if neg && e == 0 && m == 0 {
			return math.NaN()
		}
	}
	var v float64
	if e == 0 {
		v = math.Ldexp(float64(m), 1-f.bias-int(f.man))
	} else {
		v = math.Ldexp(float64(m|1<<f.man), int(e)-f.bias-int(f.man))
	}
	return math.Copysign(v, sign(neg))
}

func sign(neg bool) float64 {
	if neg {
		return -1
	}
	return 1
}

// DecodeMinifloat returns the value of the float8, float6 or float4 element
// b (in its low bits) of type code c, and false for any other code.
func DecodeMinifloat(c Code, b uint8) (float64, bool) {
	f, ok := minifloats[c]
	if !ok {
		return 0, false
	}
	return f.decode(b), true
}

// EncodeMinifloat returns the code of type c nearest to x, ties to the code
// with an even last bit, as NumPy's ml_dtypes rounds; a zero result keeps
// the sign of x where the format has a negative zero. A value beyond the
// largest finite one becomes infinity where the format has one, else NaN
// where it has one, else the largest finite value of its sign; a negative
// value is NaN in the unsigned float8_e8m0fnu. These two rules are where
// PyTorch differs: it saturates float8_e4m3fn at ±448, and for e8m0fnu it
// drops the sign and rounds ties up. It returns false for a code that is
// not a float8, float6 or float4 type.
func EncodeMinifloat(c Code, x float64) (uint8, bool) {
	f, ok := minifloats[c]
	if !ok {
		return 0, false
	}
	codes := 1 << f.width()
	nan, hasNaN := -1, false
	best, bestErr := -1, math.Inf(1)
	maxFinite := 0.0
	for i := 0; i < codes; i++ {
		v := f.decode(uint8(i))
		switch {
		case math.IsNaN(v):
			if !hasNaN {
				nan, hasNaN = i, true
			}
			continue
		case math.IsInf(v, 0):
			if math.IsInf(x, 0) && math.Signbit(v) == math.Signbit(x) {
				return uint8(i), true
			}
			continue
		}
		maxFinite = math.Max(maxFinite, math.Abs(v))
		if math.IsNaN(x) {
			continue
		}
		d := math.Abs(v - x)
		better := d < bestErr
		if d == bestErr {
			if v == f.decode(uint8(best)) {
				// +0 and -0: keep the sign of x, as IEEE rounding does.
				better = math.Signbit(v) == math.Signbit(x)
			} else {
				better = i&1 == 0 && best&1 == 1
			}
		}
		if better {
			best, bestErr = i, d
		}
	}
	if !f.signed && x < 0 && hasNaN {
		// An unsigned format has no negative numbers to round to.
		return uint8(nan), true
	}
	if math.IsNaN(x) {
		if hasNaN {
			return uint8(nan), true
		}
		return 0, true
	}
	if math.Abs(x) > maxFinite && bestErr > 0 {
		// Past the largest finite value: round as if the next binade existed.
		ulp := maxFinite - math.Abs(f.decode(uint8(prevCode(f, best))))
		// A tie goes up only from an odd code, as ties to even would.
		if over := math.Abs(x) - maxFinite; over > ulp/2 || over == ulp/2 && best&1 == 1 {
			if inf, ok := f.infinity(math.Signbit(x)); ok {
				return inf, true
			}
			if hasNaN {
				return uint8(nan), true
			}
		}
	}
	return uint8(best), true
}

// prevCode is the code one step toward zero from code i (same sign).
func prevCode(f minifloat, i int) int {
	if i&(1<<(f.exp+f.man)-1) == 0 {
		return i
	}
	return i - 1
}

func (f minifloat) infinity(neg bool) (uint8, bool) {
	if f.special != ieeeSpecials {
		return 0, false
	}
	b := uint8((1<<f.exp - 1) << f.man)
	if neg {
		b |= 1 << (f.exp + f.man)
	}
	return b, true
}
