package minifloat

import (
	"math"
	"math/bits"
)

// EncodeFloat16 returns the IEEE 754 binary16 code nearest to f, ties to
// the code with an even last bit. It rounds once, from float64: rounding
// through float32 first would round some values twice and land on the
// wrong side of a tie. A finite value that rounds past the largest
// finite float16 (65504) becomes infinity of its sign; a zero or a value
// too small for the smallest subnormal keeps its sign; a NaN becomes a
// quiet NaN of the same sign.
func EncodeFloat16(f float64) uint16 { return narrow(f, 5, 10) }

// EncodeBfloat16 is [EncodeFloat16] for bfloat16, the upper half of an IEEE
// binary32: 8 exponent and 7 mantissa bits.
func EncodeBfloat16(f float64) uint16 { return narrow(f, 8, 7) }

// DecodeFloat16 returns the value of the IEEE 754 binary16 code h. Every
// code but a NaN has an exact float64; a NaN decodes to a quiet NaN of the
// same sign.
func DecodeFloat16(h uint16) float64 {
	sign := uint64(h>>15) << 63
	e := uint64(h>>10) & 0x1f
	m := uint64(h) & 0x3ff
	switch {
	case e == 0x1f && m == 0:
		return math.Float64frombits(sign | 0x7ff<<52)
	case e == 0x1f:
		return math.Float64frombits(sign | 0x7ff<<52 | 1<<51 | m<<42)
	case e == 0 && m == 0:
		return math.Float64frombits(sign)
	case e == 0:
		// A subnormal m*2**-24 is normal in float64: its leading one
		// becomes the implicit bit.
		k := bits.Len64(m)
		return math.Float64frombits(sign | uint64(k-25+1023)<<52 | m<<(53-k)&(1<<52-1))
	}
	return math.Float64frombits(sign | (e-15+1023)<<52 | m<<42)
}

// DecodeBfloat16 returns the value of the bfloat16 code b. Every code but
// a NaN has an exact float64; a NaN decodes to a quiet NaN of the same
// sign.
func DecodeBfloat16(b uint16) float64 {
	v := math.Float32frombits(uint32(b) << 16)
	if v != v {
		// Make the NaN quiet explicitly rather than rely on the
		// conversion instruction doing it.
		return math.Float64frombits(uint64(b>>15)<<63 | 0x7ff<<52 | 1<<51 | uint64(b&0x7f)<<45)
	}
	return float64(v)
}

// narrow rounds f to the nearest value of the IEEE-style binary format
// with expBits exponent and manBits mantissa bits (at most 15 in all),
// ties to even, and returns its code.
func narrow(f float64, expBits, manBits uint) uint16 {
	b := math.Float64bits(f)
	sign := uint16(b>>63) << (expBits + manBits)
	exp := int(b >> 52 & 0x7ff)
	man := b & (1<<52 - 1)
	inf := uint16(1<<expBits-1) << manBits
	switch {
	case exp == 0x7ff && man != 0:
		// Keep what fits of the payload; the quiet bit makes it a NaN
		// even when nothing does.
		return sign | inf | 1<<(manBits-1) | uint16(man>>(52-manBits))
	case exp == 0x7ff:
		return sign | inf
	case exp == 0:
		// A float64 subnormal is below 2**-1022, far under half the
		// smallest subnormal of any format narrower than float64.
		return sign
	}
	// e is the biased exponent f would have in the narrow format, if it
	// were normal there.
	e := exp - 1023 + (1<<(expBits-1) - 1)
	sig := man | 1<<52
	shift := uint(52 - manBits)
	if e <= 0 {
		// A subnormal result keeps 1-e fewer bits of the significand.
		shift += uint(1 - e)
	}
	if shift > 53 {
		// sig < 2**53 <= half of the rounding unit: rounds to zero.
		return sign
	}
	r := sig >> shift
	rem, half := sig&(1<<shift-1), uint64(1)<<(shift-1)
	if rem > half || rem == half && r&1 == 1 {
		// A carry out of the mantissa lands in the exponent field,
		// which is the correctly rounded result (up to infinity).
		r++
	}
	if e <= 0 {
		// r < 2**manBits is a subnormal mantissa, or r == 2**manBits is
		// the smallest normal: both are the code itself.
		return sign | uint16(r)
	}
	// r carries the implicit bit at 2**manBits, which adds one to the
	// exponent field: hence e-1.
	code := uint64(e-1)<<manBits + r
	return sign | uint16(min(code, uint64(inf)))
}
