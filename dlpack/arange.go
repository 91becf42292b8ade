package dlpack

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"unsafe"
)

// Errors of arange: ArangeLen, CheckArangeRange and ArangeRange.
var (
	// ErrZeroStep: a step of zero (NumPy: ZeroDivisionError).
	ErrZeroStep = errors.New("arange step is zero")
	// ErrArangeLength: a length that is NaN or beyond int64 (NumPy: ValueError).
	ErrArangeLength = errors.New("arange length out of range")
	// ErrArangeBool: more than two bool elements (NumPy: TypeError).
	ErrArangeBool = errors.New("arange of bool makes at most two elements")
)

// String returns s as Python prints a number: 3, 2.5, (1+2j), True.
func (s Scalar) String() string {
	switch s.Kind {
	case BoolScalar:
		if s.Int != 0 {
			return "True"
		}
		return "False"
	case IntScalar:
		return fmt.Sprint(s.Int)
	case UintScalar:
		return fmt.Sprint(s.Uint)
	case ComplexScalar:
		// Python drops ".0" from the parts of a complex: (1-2j).
		re, im := strings.TrimSuffix(pyFloat(s.Real), ".0"), strings.TrimSuffix(pyFloat(s.Imag), ".0")
		if !strings.HasPrefix(im, "-") {
			im = "+" + im
		}
		return "(" + re + im + "j)"
	}
	return pyFloat(s.Real)
}

// pyFloat formats f as Python's repr does: nan, inf, 2.0, 0.1, 1e+20.
func pyFloat(f float64) string {
	switch {
	case math.IsNaN(f):
		return "nan"
	case math.IsInf(f, 0):
		if f < 0 {
			return "-inf"
		}
		return "inf"
	}
	out := strconv.FormatFloat(f, 'g', -1, 64)
	if !strings.ContainsAny(out, ".en") {
		out += ".0"
	}
	return out
}

// exact reports whether s is an integer held exactly (a bool, an int64 or
// a uint64), which arange counts and adds without rounding.
func (s Scalar) exact() bool {
	return s.Kind == BoolScalar || s.Kind == IntScalar || s.Kind == UintScalar
}

// bigInt returns an exact s as a big.Int.
func (s Scalar) bigInt() *big.Int {
	if s.Kind == UintScalar {
		return new(big.Int).SetUint64(s.Uint)
	}
	return big.NewInt(s.Int)
}

// scalarOfBig returns b as the narrowest Scalar that holds it.
func scalarOfBig(b *big.Int) Scalar {
	switch {
	case b.IsInt64():
		return Scalar{Kind: IntScalar, Int: b.Int64()}
	case b.IsUint64():
		return Scalar{Kind: UintScalar, Uint: b.Uint64()}
	}
	f, _ := new(big.Float).SetInt(b).Float64()
	return Scalar{Kind: BigIntScalar, Real: f}
}

// add returns s + t as Python adds numbers: exactly for integers, else in
// float64.
func (s Scalar) add(t Scalar) Scalar {
	if s.exact() && t.exact() {
		return scalarOfBig(new(big.Int).Add(s.bigInt(), t.bigInt()))
	}
	return Scalar{Kind: FloatScalar, Real: s.Float() + t.Float()}
}

// ArangeDType is the data type of arange(start, stop, step) when none is
// asked for, as NumPy picks it for Python numbers: int64 when every
// argument is a bool or an int that int64 holds, else float64.
func ArangeDType(args ...Scalar) DataType {
	for _, a := range args {
		if a.Kind != BoolScalar && a.Kind != IntScalar {
			return Float64
		}
	}
	return Int64
}

// ArangeLen returns the number of elements of arange(start, stop, step),
// as NumPy counts them: ceil((stop - start) / step), or 0 when that is
// negative. Integers are counted exactly; when any argument is a float (or
// an integer beyond uint64), in float64 arithmetic. Errors wrap ErrZeroStep,
// ErrArangeLength (a NaN, or a count beyond int64 either way, as NumPy
// refuses it) or ErrComplex.
func ArangeLen(start, stop, step Scalar) (int64, error) {
	for _, a := range []Scalar{start, stop, step} {
		if a.Kind == ComplexScalar {
			return 0, fmt.Errorf("dlpack: %w: arange takes real numbers, not %v", ErrComplex, a)
		}
	}
	if step.exact() && step.bigInt().Sign() == 0 || !step.exact() && step.Float() == 0 {
		return 0, fmt.Errorf("dlpack: %w: arange(%v, %v, %v)", ErrZeroStep, start, stop, step)
	}
	if start.exact() && stop.exact() && step.exact() {
		d, st := new(big.Int).Sub(stop.bigInt(), start.bigInt()), step.bigInt()
		q, r := new(big.Int).QuoRem(d, st, new(big.Int))
		if r.Sign() != 0 && r.Sign() == st.Sign() {
			q.Add(q, big.NewInt(1)) // the quotient is positive and truncated: round it up
		}
		if !q.IsInt64() {
			return 0, fmt.Errorf("dlpack: %w: arange(%v, %v, %v) would have %v elements", ErrArangeLength, start, stop,
				step, q)
		}
		return max(q.Int64(), 0), nil
	}
	d := stop.Float() - start.Float()
	q := d / step.Float()
	if q == 0 && d != 0 {
		// The quotient underflowed, or the step is infinite: one element when it is positive.
		if math.Signbit(q) {
			return 0, nil
		}
		return 1, nil
	}
	q = math.Ceil(q)
	if math.IsNaN(q) {
		return 0, fmt.Errorf("dlpack: %w: arange(%v, %v, %v) has no length", ErrArangeLength, start, stop, step)
	}
	if q < math.MinInt64 || q >= math.MaxInt64 {
		return 0, fmt.Errorf("dlpack: %w: arange(%v, %v, %v) would have %v elements", ErrArangeLength, start, stop,
			step, pyFloat(q))
	}
	return max(int64(q), 0), nil
}

// CheckArangeRange returns the error ArangeRange would give for n
// elements of dt from start by step, without writing them: an error of
// Encode for the first two, one wrapping ErrRange when an integer type
// cannot hold the last, or ErrArangeBool for more than two bools.
func (dt DataType) CheckArangeRange(start, step Scalar, n int64) error {
	if n <= 0 {
		return nil
	}
	first, err := dt.Encode(start)
	if err != nil || n == 1 {
		return err
	}
	next := start.add(step)
	second, err := dt.Encode(next)
	if err != nil || n == 2 {
		return err
	}
	lane := dt.Lane()
	switch lane.Code {
	case CodeBool:
		return fmt.Errorf("dlpack: %w, not %d", ErrArangeBool, n)
	case Int, UInt:
		size := lane.ItemSize()
		f, s := lane.intOf(first[:size]), lane.intOf(second[:size])
		last := new(big.Int).Mul(new(big.Int).Sub(s, f), big.NewInt(n-1))
		last.Add(last, f)
		if _, err := scalarOfBig(last).integer(lane); err != nil {
			return fmt.Errorf("dlpack: %w: the last value of arange, %v, does not fit in %v", ErrRange, last, dt)
		}
	}
	return nil
}

// intOf reads an element of the integer type dt.
func (dt DataType) intOf(b []byte) *big.Int {
	var buf [8]byte
	copy(buf[:], b)
	u := binary.LittleEndian.Uint64(buf[:])
	if dt.Code == UInt {
		return new(big.Int).SetUint64(u)
	}
	shift := 64 - uint(dt.Bits) // sign-extend
	return big.NewInt(int64(u<<shift) >> shift)
}

// ArangeRange writes the elements of arange from start by step over dst,
// len(dst)/ItemSize() of them, as NumPy's arange makes them: the first two
// are start and start+step stored as elements of dt (Encode), and element i
// is first + i*(second - first) in dt's own arithmetic (float32 arithmetic
// for float16, bfloat16 and the float8, float6 and float4 types, as NumPy and
// ml_dtypes compute them), rounded to dt. Integer types are filled exactly,
// never wrapping: a last value out of range is an error wrapping ErrRange
// (NumPy wraps around). A vector type holds the value in every lane. The
// errors are CheckArangeRange's.
func (dt DataType) ArangeRange(dst []byte, start, step Scalar) error {
	size := dt.ItemSize()
	n := len(dst) / max(size, 1)
	if err := dt.CheckArangeRange(start, step, int64(n)); err != nil {
		return err
	}
	if n == 0 {
		return nil
	}
	lane := dt.Lane()
	first, _ := lane.Encode(start)
	if dt.Lanes == 1 {
		copy(dst, first)
		if n > 1 {
			second, _ := lane.Encode(start.add(step))
			copy(dst[size:], second)
			dt.fill(dst[:n*size], n)
		}
		return nil
	}
	// A vector: the sequence of its lane type, each value copied into every lane.
	ls := lane.ItemSize()
	seq := make([]byte, n*ls)
	copy(seq, first)
	if n > 1 {
		second, _ := lane.Encode(start.add(step))
		copy(seq[ls:], second)
		lane.fill(seq, n)
	}
	for k := 0; k < n; k++ {
		copy(dst[k*size:], dt.packLanes(seq[k*ls:(k+1)*ls]))
	}
	return nil
}

// fill writes elements 2 … n-1 of a one-lane dt over dst from its first two
// elements, as ArangeRange says. Explicit conversions round every product
// to the type, so that the compiler never fuses it with the sum.
func (dt DataType) fill(dst []byte, n int) {
	if n <= 2 {
		return
	}
	size := dt.ItemSize()
	p := unsafe.Pointer(unsafe.SliceData(dst))
	switch {
	case dt == Float64:
		s := unsafe.Slice((*float64)(p), n)
		start, delta := s[0], s[1]-s[0]
		for k := 2; k < n; k++ {
			s[k] = start + float64(float64(k)*delta)
		}
	case dt == Float32:
		s := unsafe.Slice((*float32)(p), n)
		start, delta := s[0], s[1]-s[0]
		for k := 2; k < n; k++ {
			s[k] = start + float32(float32(k)*delta)
		}
	case dt == Int64:
		s := unsafe.Slice((*int64)(p), n)
		start, delta := s[0], s[1]-s[0] // CheckArangeRange proved every value fits
		for k := 2; k < n; k++ {
			s[k] = start + int64(k)*delta
		}
	case dt.Code == Int || dt.Code == UInt:
		// Modulo 2**64, whose low bytes are right modulo 2**bits; no value wraps (CheckArangeRange).
		var a, b [8]byte
		copy(a[:], dst[:size])
		copy(b[:], dst[size:2*size])
		start := binary.LittleEndian.Uint64(a[:])
		delta := binary.LittleEndian.Uint64(b[:]) - start
		for k := 2; k < n; k++ {
			putUint(dst[k*size:(k+1)*size], start+uint64(k)*delta)
		}
	case dt.Code == Complex || dt.Code == Bcomplex:
		// Each part as a real type of half the width: complex32 as float16, complex64 as float32, …
		part := dt.complexPart()
		ps := part.ItemSize()
		for _, off := range []int{0, ps} {
			re := make([]byte, n*ps)
			copy(re, dst[off:off+ps])
			copy(re[ps:], dst[size+off:size+off+ps])
			part.fill(re, n)
			for k := 2; k < n; k++ {
				copy(dst[k*size+off:], re[k*ps:(k+1)*ps])
			}
		}
	default:
		// float16 as NumPy fills it, bfloat16 and the minifloats as ml_dtypes does: in float32.
		start := float32(dt.realOf(dst[:size]))
		delta := float32(dt.realOf(dst[size:2*size])) - start
		for k := 2; k < n; k++ {
			v := start + float32(float32(k)*delta)
			b, _ := dt.Encode(Scalar{Kind: FloatScalar, Real: float64(v)})
			copy(dst[k*size:], b)
		}
	}
}

// realOf reads an element of a 16-bit or narrower float type.
func (dt DataType) realOf(b []byte) float64 {
	switch dt.Code {
	case Float:
		return DecodeFloat16(binary.LittleEndian.Uint16(b))
	case Bfloat:
		return DecodeBfloat16(binary.LittleEndian.Uint16(b))
	}
	v, _ := DecodeMinifloat(dt.Code, b[0])
	return v
}
