package minifloat

import (
	"math"
	"sort"

	"github.com/godlpack/godlpack/dlpack"
)

// A format describes one of the float8, float6 and float4 formats: widths
// of its fields, its exponent bias and how it spells infinity and NaN.
type format struct {
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

var formats = map[dlpack.Code]format{
	dlpack.Float8E3M4:        {3, 4, 3, true, ieeeSpecials},
	dlpack.Float8E4M3:        {4, 3, 7, true, ieeeSpecials},
	dlpack.Float8E4M3B11FNUZ: {4, 3, 11, true, fnuzSpecials},
	dlpack.Float8E4M3FN:      {4, 3, 7, true, fnSpecials},
	dlpack.Float8E4M3FNUZ:    {4, 3, 8, true, fnuzSpecials},
	dlpack.Float8E5M2:        {5, 2, 15, true, ieeeSpecials},
	dlpack.Float8E5M2FNUZ:    {5, 2, 16, true, fnuzSpecials},
	dlpack.Float8E8M0FNU:     {8, 0, 127, false, e8m0Specials},
	dlpack.Float6E2M3FN:      {2, 3, 1, true, noSpecials},
	dlpack.Float6E3M2FN:      {3, 2, 3, true, noSpecials},
	dlpack.Float4E2M1FN:      {2, 1, 1, true, noSpecials},
}

func (f format) width() uint {
	if f.signed {
		return 1 + f.exp + f.man
	}
	return f.exp + f.man
}

func (f format) decode(b uint8) float64 {
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

// Decode returns the value of the float8, float6 or float4 element
// b (in its low bits) of type code c, and false for any other code.
func Decode(c dlpack.Code, b uint8) (float64, bool) {
	f, ok := formats[c]
	if !ok {
		return 0, false
	}
	return f.decode(b), true
}

// Encode returns the code of type c nearest to x, and false for a
// code that is not a float8, float6 or float4 type.
//
// Every type but float8_e8m0fnu rounds as NumPy's ml_dtypes does: to the
// nearest code, ties to the code with an even last bit. It rounds once,
// from float64, where ml_dtypes converts a float64 through float32 and so
// may round twice; the two agree on every float32 value. A zero result
// keeps the sign of x where the format has a negative zero. A value that rounds past the largest finite one becomes
// infinity where the format has one, else NaN where it has one, else the
// largest finite value of its sign (float6 and float4 saturate). A NaN
// becomes a NaN, or 0 in a format without one. PyTorch differs for
// float8_e4m3fn: it saturates there too, infinity included, at ±448.
//
// float8_e8m0fnu rounds as PyTorch does: x is first rounded to float32,
// whose exponent field then becomes the code, plus one if the mantissa is
// at least one half (a normal float32 rounds its ties up; of the
// subnormals only those above 2**-127 reach code 1). The sign is ignored,
// 0 gives code 0 (2**-127), and NaN, infinity or a value that rounds past
// 2**127 give the NaN code 0xff. ml_dtypes rounds positive values the same
// way but makes zero and negative values NaN.
func Encode(c dlpack.Code, x float64) (uint8, bool) {
	f, ok := formats[c]
	if !ok {
		return 0, false
	}
	if f.special == e8m0Specials {
		return encodeE8M0(x), true
	}
	return f.encode(x), true
}

// encodeE8M0 implements PyTorch's rounding of float8_e8m0fnu (c10's
// Float8_e8m0fnu): round to nearest even on the float32 exponent, whose
// last bit is the implicit bit of the mantissa, 1 for a normal float32 and
// 0 for a subnormal one.
func encodeE8M0(x float64) uint8 {
	b := math.Float32bits(float32(x))
	e := uint8(b >> 23) // the sign bit is shifted out of the byte
	if e == 0xff {
		return 0xff // NaN or infinity
	}
	half := b&(1<<22) != 0
	above := b&(1<<22-1) != 0
	if half && (above || e != 0) {
		e++ // 254 becomes 255, the NaN code
	}
	return e
}

// encode rounds x to the nearest code of f, a format with a sign bit, by
// the rules of Encode.
func (f format) encode(x float64) uint8 {
	nan, hasNaN := f.nan()
	if math.IsNaN(x) {
		if hasNaN {
			return nan
		}
		return 0
	}
	neg, a := math.Signbit(x), math.Abs(x)
	// The positive codes 0..top are the finite magnitudes in increasing
	// order, in every format.
	top := f.top()
	var m uint8
	if max := f.decode(top); a > max {
		// Round as if the next code past max existed, one step (ulp)
		// above it. Deciding this before any subtraction matters: for
		// a huge a, a-v rounds to the same float64 for every code v,
		// and a nearest search would see ties everywhere.
		ulp := max - f.decode(top-1)
		mid := max + ulp/2 // exact: both have few significant bits
		if a > mid || a == mid && top&1 == 1 {
			if inf, ok := f.infinity(neg); ok {
				return inf
			}
			if hasNaN {
				return nan
			}
		}
		m = top
	} else {
		// The smallest code not below a, then the nearer of it and the
		// code before. The midpoint of two neighbouring codes is exact
		// in float64, so the comparison with a is too.
		i := sort.Search(int(top), func(i int) bool { return f.decode(uint8(i)) >= a })
		m = uint8(i)
		if hi := f.decode(m); i > 0 && hi != a {
			lo := f.decode(m - 1)
			mid := lo + (hi-lo)/2
			if a < mid || a == mid && m&1 == 1 {
				m--
			}
		}
	}
	if !neg {
		return m
	}
	if m == 0 && f.special == fnuzSpecials {
		return 0 // no negative zero: the sign bit alone is NaN
	}
	return m | 1<<(f.exp+f.man)
}

// top returns the largest positive code that is a finite number.
func (f format) top() uint8 {
	b := uint8(1<<(f.exp+f.man) - 1)
	for v := f.decode(b); math.IsNaN(v) || math.IsInf(v, 0); v = f.decode(b) {
		b--
	}
	return b
}

// nan returns the lowest code that is a NaN, and false if the format has
// none.
func (f format) nan() (uint8, bool) {
	switch f.special {
	case ieeeSpecials:
		return uint8((1<<f.exp-1)<<f.man | 1), true
	case fnSpecials:
		return uint8(1<<(f.exp+f.man) - 1), true
	case fnuzSpecials:
		return uint8(1 << (f.exp + f.man)), true
	case e8m0Specials:
		return 0xff, true
	}
	return 0, false
}

func (f format) infinity(neg bool) (uint8, bool) {
	if f.special != ieeeSpecials {
		return 0, false
	}
	b := uint8((1<<f.exp - 1) << f.man)
	if neg {
		b |= 1 << (f.exp + f.man)
	}
	return b, true
}
