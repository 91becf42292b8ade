// Package arange makes the sequences of NumPy's arange(start, stop, step)
// in any DLPack data type: [DType] picks the data type NumPy would, [Len]
// counts the elements, [Check] says whether a data type holds them all,
// and [Write] writes them, in the data type's own arithmetic as NumPy and
// ml_dtypes compute them.
package arange

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/big"
	"unsafe"

	"github.com/godlpack/godlpack/dlpack"
	"github.com/godlpack/godlpack/minifloat"
	"github.com/godlpack/godlpack/scalar"
)

// Errors of [Len], [Check] and [Write].
var (
	// ErrZeroStep: a step of zero (NumPy: ZeroDivisionError).
	ErrZeroStep = errors.New("arange step is zero")
	// ErrLength: a length that is NaN or beyond int64 (NumPy: ValueError).
	ErrLength = errors.New("arange length out of range")
	// ErrBool: more than two bool elements (NumPy: TypeError).
	ErrBool = errors.New("arange of bool makes at most two elements")
)

// exact reports whether s is an integer held exactly (a bool, an int64 or
// a uint64), which arange counts and adds without rounding.
func exact(s scalar.Scalar) bool {
	return s.Kind == scalar.Bool || s.Kind == scalar.Int || s.Kind == scalar.Uint
}

// bigInt returns an exact s as a big.Int.
func bigInt(s scalar.Scalar) *big.Int {
	if s.Kind == scalar.Uint {
		return new(big.Int).SetUint64(s.Uint)
	}
	return big.NewInt(s.Int)
}

// scalarOfBig returns b as the narrowest Scalar that holds it.
func scalarOfBig(b *big.Int) scalar.Scalar {
	switch {
	case b.IsInt64():
		return scalar.Scalar{Kind: scalar.Int, Int: b.Int64()}
	case b.IsUint64():
		return scalar.Scalar{Kind: scalar.Uint, Uint: b.Uint64()}
	}
	f, _ := new(big.Float).SetInt(b).Float64()
	return scalar.Scalar{Kind: scalar.BigInt, Real: f}
}

// add returns s + t as Python adds numbers: exactly for integers, else in
// float64.
func add(s, t scalar.Scalar) scalar.Scalar {
	if exact(s) && exact(t) {
		return scalarOfBig(new(big.Int).Add(bigInt(s), bigInt(t)))
	}
	return scalar.Scalar{Kind: scalar.Float, Real: s.Float() + t.Float()}
}

// DType is the data type of arange(start, stop, step) when none is
// asked for, as NumPy picks it for Python numbers: int64 when every
// argument is a bool or an int that int64 holds, else float64.
func DType(args ...scalar.Scalar) dlpack.DataType {
	for _, a := range args {
		if a.Kind != scalar.Bool && a.Kind != scalar.Int {
			return dlpack.Float64
		}
	}
	return dlpack.Int64
}

// Len returns the number of elements of arange(start, stop, step),
// as NumPy counts them: ceil((stop - start) / step), or 0 when that is
// negative. Integers are counted exactly; when any argument is a float (or
// an integer beyond uint64), in float64 arithmetic. Errors wrap [ErrZeroStep],
// [ErrLength] (a NaN, or a count beyond int64 either way, as NumPy
// refuses it) or [scalar.ErrComplex].
func Len(start, stop, step scalar.Scalar) (int64, error) {
	for _, a := range []scalar.Scalar{start, stop, step} {
		if a.Kind == scalar.Complex {
			return 0, fmt.Errorf("arange: %w: arange takes real numbers, not %v", scalar.ErrComplex, a)
		}
	}
	if exact(step) && bigInt(step).Sign() == 0 || !exact(step) && step.Float() == 0 {
		return 0, fmt.Errorf("arange: %w: arange(%v, %v, %v)", ErrZeroStep, start, stop, step)
	}
	if exact(start) && exact(stop) && exact(step) {
		d, st := new(big.Int).Sub(bigInt(stop), bigInt(start)), bigInt(step)
		q, r := new(big.Int).QuoRem(d, st, new(big.Int))
		if r.Sign() != 0 && r.Sign() == st.Sign() {
			q.Add(q, big.NewInt(1)) // the quotient is positive and truncated: round it up
		}
		if !q.IsInt64() {
			return 0, fmt.Errorf("arange: %w: arange(%v, %v, %v) would have %v elements", ErrLength, start, stop,
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
		return 0, fmt.Errorf("arange: %w: arange(%v, %v, %v) has no length", ErrLength, start, stop, step)
	}
	if q < math.MinInt64 || q >= math.MaxInt64 {
		return 0, fmt.Errorf("arange: %w: arange(%v, %v, %v) would have %v elements", ErrLength, start, stop,
			step, scalar.Scalar{Kind: scalar.Float, Real: q})
	}
	return max(int64(q), 0), nil
}

// Check returns the error [Write] would give for n elements of dt from
// start by step, without writing them: an error of [scalar.Encode] for the
// first two, one wrapping [scalar.ErrRange] when an integer type cannot
// hold the last, or [ErrBool] for more than two bools.
func Check(dt dlpack.DataType, start, step scalar.Scalar, n int64) error {
	if n <= 0 {
		return nil
	}
	first, err := scalar.Encode(dt, start)
	if err != nil || n == 1 {
		return err
	}
	next := add(start, step)
	second, err := scalar.Encode(dt, next)
	if err != nil || n == 2 {
		return err
	}
	lane := dt.Lane()
	switch lane.Code {
	case dlpack.CodeBool:
		return fmt.Errorf("arange: %w, not %d", ErrBool, n)
	case dlpack.Int, dlpack.UInt:
		size := lane.ItemSize()
		f, s := intOf(lane, first[:size]), intOf(lane, second[:size])
		last := new(big.Int).Mul(new(big.Int).Sub(s, f), big.NewInt(n-1))
		last.Add(last, f)
		if _, err := scalar.Encode(lane, scalarOfBig(last)); err != nil {
			return fmt.Errorf("arange: %w: the last value of arange, %v, does not fit in %v", scalar.ErrRange, last, dt)
		}
	}
	return nil
}

// intOf reads an element of the integer type dt.
func intOf(dt dlpack.DataType, b []byte) *big.Int {
	var buf [8]byte
	copy(buf[:], b)
	u := binary.LittleEndian.Uint64(buf[:])
	if dt.Code == dlpack.UInt {
		return new(big.Int).SetUint64(u)
	}
	shift := 64 - uint(dt.Bits) // sign-extend
	return big.NewInt(int64(u<<shift) >> shift)
}

// Write writes the elements of arange from start by step over dst,
// len(dst)/dt.ItemSize() of them, as NumPy's arange makes them: the first
// two are start and start+step stored as elements of dt ([scalar.Encode]), and element i
// is first + i*(second - first) in dt's own arithmetic (float32 arithmetic
// for float16, bfloat16 and the float8, float6 and float4 types, as NumPy and
// ml_dtypes compute them), rounded to dt. Integer types are filled exactly,
// never wrapping: a last value out of range is an error wrapping
// [scalar.ErrRange] (NumPy wraps around). A vector type holds the value in
// every lane. The errors are [Check]'s.
func Write(dt dlpack.DataType, dst []byte, start, step scalar.Scalar) error {
	size := dt.ItemSize()
	n := len(dst) / max(size, 1)
	if err := Check(dt, start, step, int64(n)); err != nil {
		return err
	}
	if n == 0 {
		return nil
	}
	lane := dt.Lane()
	first, _ := scalar.Encode(lane, start)
	var second []byte
	if n > 1 {
		second, _ = scalar.Encode(lane, add(start, step))
	}
	// The sequence of the lane type, one value at the start of each element;
	// a vector's value is then copied into its other lanes in place. Nothing
	// is allocated whose size depends on n: dst is the only buffer.
	copy(dst, first)
	if n > 1 {
		copy(dst[size:], second)
		fill(lane, dst[:n*size], n, size)
	}
	if dt.Lanes > 1 {
		for k := 0; k < n; k++ {
			scalar.FillLanes(dt, dst[k*size:(k+1)*size])
		}
	}
	return nil
}

// fill writes elements 2 … n-1 of a one-lane dt over dst, element k at byte
// k*stride, from its first two elements, as Write says. Explicit
// conversions round every product to the type, so that the compiler never
// fuses it with the sum.
func fill(dt dlpack.DataType, dst []byte, n, stride int) {
	if n <= 2 {
		return
	}
	size := dt.ItemSize()
	p := unsafe.Pointer(unsafe.SliceData(dst))
	dense := stride == size
	switch {
	case dt == dlpack.Float64 && dense:
		s := unsafe.Slice((*float64)(p), n)
		start, delta := s[0], s[1]-s[0]
		for k := 2; k < n; k++ {
			s[k] = start + float64(float64(k)*delta)
		}
	case dt == dlpack.Float32 && dense:
		s := unsafe.Slice((*float32)(p), n)
		start, delta := s[0], s[1]-s[0]
		for k := 2; k < n; k++ {
			s[k] = start + float32(float32(k)*delta)
		}
	case dt == dlpack.Int64 && dense:
		s := unsafe.Slice((*int64)(p), n)
		start, delta := s[0], s[1]-s[0] // Check proved every value fits
		for k := 2; k < n; k++ {
			s[k] = start + int64(k)*delta
		}
	case dt == dlpack.Float64: // the parts of a complex128, or the lanes of a vector
		start := math.Float64frombits(binary.LittleEndian.Uint64(dst))
		delta := math.Float64frombits(binary.LittleEndian.Uint64(dst[stride:])) - start
		for k := 2; k < n; k++ {
			binary.LittleEndian.PutUint64(dst[k*stride:], math.Float64bits(start+float64(float64(k)*delta)))
		}
	case dt == dlpack.Float32:
		start := math.Float32frombits(binary.LittleEndian.Uint32(dst))
		delta := math.Float32frombits(binary.LittleEndian.Uint32(dst[stride:])) - start
		for k := 2; k < n; k++ {
			binary.LittleEndian.PutUint32(dst[k*stride:], math.Float32bits(start+float32(float32(k)*delta)))
		}
	case dt.Code == dlpack.Int || dt.Code == dlpack.UInt:
		// Modulo 2**64, whose low bytes are right modulo 2**bits; no value wraps (Check).
		var a, b [8]byte
		copy(a[:], dst[:size])
		copy(b[:], dst[stride:stride+size])
		start := binary.LittleEndian.Uint64(a[:])
		delta := binary.LittleEndian.Uint64(b[:]) - start
		for k := 2; k < n; k++ {
			binary.LittleEndian.PutUint64(a[:], start+uint64(k)*delta)
			copy(dst[k*stride:k*stride+size], a[:])
		}
	case dt.Code == dlpack.Complex || dt.Code == dlpack.Bcomplex:
		// Each part as a real type of half the width: complex32 as float16, bcomplex32 as bfloat16, …
		part := dt.ComplexPart()
		fill(part, dst, n, stride)
		fill(part, dst[part.ItemSize():], n, stride)
	default:
		// float16 as NumPy fills it, bfloat16 and the minifloats as ml_dtypes does: in float32.
		start := float32(realOf(dt, dst[:size]))
		delta := float32(realOf(dt, dst[stride:stride+size])) - start
		for k := 2; k < n; k++ {
			v := start + float32(float32(k)*delta)
			scalar.Put(dt, dst[k*stride:k*stride+size], scalar.Scalar{Kind: scalar.Float, Real: float64(v)})
		}
	}
}

// realOf reads an element of a 16-bit or narrower float type.
func realOf(dt dlpack.DataType, b []byte) float64 {
	switch dt.Code {
	case dlpack.Float:
		return minifloat.DecodeFloat16(binary.LittleEndian.Uint16(b))
	case dlpack.Bfloat:
		return minifloat.DecodeBfloat16(binary.LittleEndian.Uint16(b))
	}
	v, _ := minifloat.Decode(dt.Code, b[0])
	return v
}
