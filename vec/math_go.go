package vec

import "math"

// The element-wise math of one element, in plain Go: the definition that
// every path's assembly follows operation for operation, in the same order,
// with the same constants (math_tables.go, which the assembly reads through
// go_asm.h), so that every path gives the same bits. Each product that an
// addition takes is converted to its type, which keeps the compiler from
// fusing the two: a fused multiply-add is written as one, math.FMA for
// float64 and fmaf for float32.
//
// Float32 functions compute in float32 (16 lanes to a vector where float64
// gives 8); fmaf makes a float32 fused multiply-add exactly in plain Go.
//
// Exp: x = n ln2/N + r, |r| <= ln2/2N, with N = 8 (float32) or 16
// (float64); e**x = 2**(n/N) e**r, where 2**(j/N), j = n mod N, comes from a
// table in two parts and e**r - 1 = r + r**2 Q(r). x - n ln2/N is exact with
// the high part of ln2/N and rounded once with the low part: r is within a
// unit of its last place, which costs e**x a thirtieth of a unit, where r
// and the rest of it carried apart would cost a product of the two, r times
// n ln2's low part, which grows with n to 3.7 units at x = 700. The error is
// about half a unit: the last addition's rounding, and little else.
//
// Log: x = m 2**k with m in [0.75, 1.5) and k = floor(log2 x); m's top
// five mantissa bits pick one of 32 intervals and its c, whose inverse has
// so few bits that r = m/c - 1 is exact; log x = k ln2 + log c + log1p r,
// log1p r = r + r**2 P(r), with k ln2 + log c exact in its high part and
// added to r without a rounding error (Fast2Sum).
//
// Tanh, float32: |x| is clamped to 10, beyond which tanh rounds to 1; the
// exponent and top two mantissa bits of |x| pick one of 32 intervals, on
// which tanh(b + y) = c0 + c1 y + y**2 R(y), c0 in two parts, a polynomial
// fitted to the interval (math_gen_test.go). Float64: tanh a = em / (em +
// 2), em = e**2a - 1 kept as a sum of two floats, and the quotient corrected
// by its exact remainder.

// exp32Consts are exp32Go's constants and tables.
type exp32Consts struct {
	lo, hi         float32     // x is clamped to [lo, hi]: e**x rounds to +0 below, to +Inf above
	invC           float32     // 8/ln2
	shift          float32     // 1.5 * 2**23: adding it rounds to an integer, in the low mantissa bits
	negCHi, negCLo float32     // -ln2/8 rounded, and the rest of it
	invN           float32     // 1/8
	q              [3]float32  // Q(r) ~ (e**r - 1 - r)/r**2
	tHi, tLo       [16]float32 // 2**(j/8) for j = i mod 8 (16 for a 16-lane permutation), rounded, and the rest
}

// exp64Consts are exp64Go's, and tHi and tLo tanh64Go's too.
type exp64Consts struct {
	lo, hi         float64
	invC           float64 // 16/ln2
	shift          float64 // 1.5 * 2**52
	negCHi, negCLo float64 // -ln2/16
	invN           float64
	q              [6]float64
	tHi, tLo       [16]float64 // 2**(j/16)
}

// tanh64Consts: e**2a = 2**(n/16) e**2rho, rho = a - n ln2/32.
type tanh64Consts struct {
	clamp           float64 // |x| is clamped to it: tanh rounds to 1 from 19.07 on
	invC            float64 // 32/ln2
	shift           float64
	negCHi, negCLo2 float64    // -ln2/32 rounded, and twice the rest of it
	q               [6]float64 // e**2rho - 1 ~ 2 rho + rho**2 Q(rho)
}

type log32Consts struct {
	ln2Hi, ln2Lo   float32 // ln2Hi a multiple of 2**-16, so that k ln2Hi + logCHi is exact
	p              [4]float32
	invC           [32]float32 // 1/c of each interval: a multiple of 1/64 (m >= 1) or 1/32
	logCHi, logCLo [32]float32 // -log(invC), plus ln2 where m < 1; logCHi a multiple of 2**-16
}

type log64Consts struct {
	ln2Hi, ln2Lo   float64 // multiples of 2**-42
	p              [8]float64
	invC           [32]float64
	logCHi, logCLo [32]float64
}

// tanh32Base is the exponent and two mantissa bits (the float's bits >> 21) where Tanh's float32
// interval 1 starts, 1.75 * 2**-5, less one.
const tanh32Base = 0x1ea

type tanh32Consts struct {
	clamp             float32
	b, c0Hi, c0Lo, c1 [32]float32 // by interval: its midpoint, tanh's value there in two parts, its slope
	r                 [4][32]float32
}

// fmaf returns a*b + c rounded once to float32, as a fused multiply-add
// instruction does. The float64 product of two float32s is exact, and its
// sum with c rounds once to float64; rounding that again to float32 errs
// only where the float64 lies halfway between two float32s and the exact sum
// does not, which the sum's rounding error (TwoSum) decides: nudged by a
// unit toward it, the float64 rounds as the exact sum does.
func fmaf(a, b, c float32) float32 {
	p := float64(a) * float64(b)
	s := p + float64(c)
	bits := math.Float64bits(s)
	// Not halfway at float32's 24 bits, and within the normal float32 range (lower, fewer bits are kept).
	if bits&(1<<29-1) != 1<<28 && bits&(0x7ff<<52) >= (1023-126)<<52 {
		return float32(s)
	}
	_, e := twoSum(p, float64(c))
	if e != 0 && bits&1 == 0 {
		if (e > 0) == (s > 0) {
			bits++
		} else {
			bits--
		}
	}
	return float32(math.Float64frombits(bits))
}

// scale32 returns r * 2**k rounded once, subnormal or infinite as the exact
// product rounds: float64 holds it exactly.
func scale32(r float32, k int32) float32 {
	return float32(float64(r) * math.Float64frombits(uint64(k+1023)<<52))
}

// scale64 returns r * 2**k rounded once, r in [0.5, 2) and k in [-1100,
// 1100]: the first product is exact, the second rounds.
func scale64(r float64, k int64) float64 {
	k1 := k >> 1
	return r * math.Float64frombits(uint64(k1+1023)<<52) * math.Float64frombits(uint64(k-k1+1023)<<52)
}

func exp32Go(x float32) float32 {
	if x != x {
		return x + x
	}
	c := &exp32
	a := min(max(x, c.lo), c.hi)
	s := fmaf(a, c.invC, c.shift)
	n := s - c.shift
	r := fmaf(n, c.negCLo, fmaf(n, c.negCHi, a)) // the inner product exact, r rounded once
	j := math.Float32bits(s) & 15
	q := fmaf(fmaf(c.q[2], r, c.q[1]), r, c.q[0])
	em1 := fmaf(float32(r*r), q, r)
	m := fmaf(c.tHi[j], em1, c.tLo[j])
	return scale32(c.tHi[j]+m, int32(math.Float32bits(s)-math.Float32bits(c.shift))>>3)
}

func exp64Go(x float64) float64 {
	if x != x {
		return x + x
	}
	c := &exp64
	a := min(max(x, c.lo), c.hi)
	s := math.FMA(a, c.invC, c.shift)
	n := s - c.shift
	r := math.FMA(n, c.negCLo, math.FMA(n, c.negCHi, a))
	j := math.Float64bits(s) & 15
	q := c.q[5]
	for i := 4; i >= 0; i-- {
		q = math.FMA(q, r, c.q[i])
	}
	em1 := math.FMA(float64(r*r), q, r)
	m := math.FMA(c.tHi[j], em1, c.tLo[j])
	return scale64(c.tHi[j]+m, int64(math.Float64bits(s)-math.Float64bits(c.shift))>>4)
}

// fma is a fused multiply-add of T: math.FMA, or fmaf for float32.
func fma[T Float](a, b, c T) T {
	if isFloat32[T]() {
		return T(fmaf(float32(a), float32(b), float32(c)))
	}
	return T(math.FMA(float64(a), float64(b), float64(c)))
}

// floatBits returns the bits of x; fromBits makes a T of them.
func floatBits[T Float](x T) uint64 {
	if isFloat32[T]() {
		return uint64(math.Float32bits(float32(x)))
	}
	return math.Float64bits(float64(x))
}

func fromBits[T Float](b uint64) T {
	if isFloat32[T]() {
		return T(math.Float32frombits(uint32(b)))
	}
	return T(math.Float64frombits(b))
}

// splitLog returns m in [0.75, 1.5) and k = floor(log2 x) of a finite x > 0
// (x = m 2**k, or m 2**(k+1) where m < 1), as VGETMANTPS with the interval
// [0.75, 1.5) and VGETEXPPS give them, and m's bits.
func splitLog[T Float](x T) (m T, k int, bits uint64) {
	mantBits, bias := 52, 1023
	if isFloat32[T]() {
		mantBits, bias = 23, 127
	}
	b := floatBits(x)
	if b < 1<<mantBits { // subnormal
		b = floatBits(x * T(uint64(1)<<mantBits))
		k = -mantBits
	}
	k += int(b>>mantBits) - bias
	bits = b&(1<<mantBits-1) | uint64(bias)<<mantBits
	if bits&(1<<(mantBits-1)) != 0 { // m >= 1.5: halved
		bits -= 1 << mantBits
	}
	return fromBits[T](bits), k, bits
}

// logGo is Log of one element, with T's constants; float32's NaN for an
// invalid operation is 0xffc00000, float64's 0xfff8000000000000.
func logGo[T Float](x T, ln2Hi, ln2Lo T, p []T, invC, logCHi, logCLo *[32]T, invalid uint64) T {
	switch {
	case x != x:
		return x + x
	case x < 0:
		return fromBits[T](invalid)
	case x == 0:
		return T(math.Inf(-1))
	case x-x != 0: // +Inf
		return x
	}
	m, k, bits := splitLog(x)
	i := bits >> 18 & 31
	if !isFloat32[T]() {
		i = bits >> 47 & 31
	}
	r := fma(m, invC[i], -1) // exact
	q := p[len(p)-1]
	for j := len(p) - 2; j >= 0; j-- {
		q = fma(q, r, p[j])
	}
	kf := T(k)
	hi := fma(kf, ln2Hi, logCHi[i]) // exact
	lo := fma(kf, ln2Lo, logCLo[i])
	t := fma(T(r*r), q, lo)
	s := hi + r
	e := (hi - s) + r // exact: |hi| >= |r| or hi = 0
	return s + (e + t)
}

func log32Go(x float32) float32 {
	c := &log32
	return logGo(x, c.ln2Hi, c.ln2Lo, c.p[:], &c.invC, &c.logCHi, &c.logCLo, 0xffc00000)
}

func log64Go(x float64) float64 {
	c := &log64
	return logGo(x, c.ln2Hi, c.ln2Lo, c.p[:], &c.invC, &c.logCHi, &c.logCLo, 0xfff8000000000000)
}

func tanh32Go(x float32) float32 {
	if x != x {
		return x + x
	}
	c := &tanh32
	a := min(math.Float32frombits(math.Float32bits(x)&^(1<<31)), c.clamp)
	i := 0
	if top := math.Float32bits(a) >> 21; top > tanh32Base {
		i = int(top - tanh32Base)
	}
	y := a - c.b[i] // exact
	y2 := float32(y * y)
	r := fmaf(y2, fmaf(c.r[3][i], y, c.r[2][i]), fmaf(c.r[1][i], y, c.r[0][i])) // Estrin's scheme: a shorter chain
	w := fmaf(y2, r, c.c0Lo[i])
	v := fmaf(c.c1[i], y, w)
	t := c.c0Hi[i] + v
	return math.Float32frombits(math.Float32bits(t) | math.Float32bits(x)&(1<<31))
}

func tanh64Go(x float64) float64 {
	if x != x {
		return x + x
	}
	c, e := &tanh64, &exp64
	a := min(math.Abs(x), c.clamp)
	s := math.FMA(a, c.invC, c.shift)
	n := s - c.shift
	rho := math.FMA(n, c.negCHi, a) // exact
	rho2Lo := float64(n * c.negCLo2)
	rr := float64(rho * rho)
	q45, q23, q01 := math.FMA(c.q[5], rho, c.q[4]), math.FMA(c.q[3], rho, c.q[2]), math.FMA(c.q[1], rho, c.q[0])
	q := math.FMA(rr, math.FMA(rr, q45, q23), q01) // Estrin's scheme
	// p = e**2rho - 1 = pHi + pLo
	w := math.FMA(rr, q, rho2Lo)
	rho2 := rho + rho
	pHi := rho2 + w
	pLo := (rho2 - pHi) + w
	// e**2a = X (1 + p) + XLo (1 + p), X = 2**k tHi[j]; XLo is 2**k tLo[j], or a tiny nothing where tLo[j] = 0.
	bits := math.Float64bits(s)
	j, pow := bits&15, (bits-math.Float64bits(c.shift))>>4<<52
	xHi := math.Float64frombits(math.Float64bits(e.tHi[j]) + pow)
	xLo := math.Float64frombits(math.Float64bits(e.tLo[j]) + pow)
	xp1 := xHi + 1
	xp1Lo := (xHi - xp1) + 1
	y := float64(xHi * pHi)
	yLo := math.FMA(xHi, pHi, -y)
	z := math.FMA(xHi, pLo, math.FMA(xLo, pHi, xLo))
	t := (yLo + z) + xp1Lo
	// d = e**2a + 1 and em = d - 2, each as hi + lo (Fast2Sum: xp1 >= |y|, dHi >= 2); em/d is corrected
	// by its remainder, which needs emHi/dHi within a unit or so of it.
	dHi := xp1 + y
	dLo := ((xp1 - dHi) + y) + t
	emHi := dHi - 2
	emLo := ((dHi - emHi) - 2) + dLo
	rcp := 1 / dHi
	q0 := float64((emHi + emLo) * rcp) // emHi holds only the bits of em that dHi does
	rem := math.FMA(-q0, dHi, emHi) + emLo
	rem = math.FMA(-q0, dLo, rem)
	return math.Copysign(math.FMA(rem, rcp, q0), x)
}
