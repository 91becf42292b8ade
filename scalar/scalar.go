// Package scalar stores numbers as elements of DLPack data types: a
// [Scalar] holds any of the values Python's bool, int, float and complex
// have, [Encode] and [Put] convert it to the bytes of one element as
// NumPy's full does, and [Fill] repeats an element over a buffer.
package scalar

import (
	"errors"
	"math"
	"strconv"
	"strings"

	"github.com/godlpack/godlpack/dlpack"
	"github.com/godlpack/godlpack/internal/fmt"
	"github.com/godlpack/godlpack/internal/preempt"
	"github.com/godlpack/godlpack/minifloat"
)

// Errors of [Encode] and [Put], each wrapped with the value and the data type.
var (
	// ErrRange: the value is beyond what the data type holds.
	ErrRange = errors.New("value out of range")
	// ErrNotFinite: a NaN or an infinity cannot be an integer.
	ErrNotFinite = errors.New("value is not finite")
	// ErrComplex: a complex value with an imaginary part cannot be real.
	ErrComplex = errors.New("complex value for a real data type")
)

// A Kind says which fields of a [Scalar] holds its value.
type Kind uint8

// The kinds of [Scalar].
const (
	Bool    Kind = iota // [Scalar.Int] is 0 or 1
	Int                 // [Scalar.Int]
	Uint                // [Scalar.Uint], a value above [math.MaxInt64]
	Float               // [Scalar.Real]
	Complex             // [Scalar.Real] and [Scalar.Imag]
	// BigInt is an integer beyond both int64 and uint64 (Python's
	// 2**64, say): [Scalar.Real] holds it rounded to float64. Float types
	// store that value, as NumPy's full does; integer and bool types cannot
	// hold it.
	BigInt
)

// A Scalar is one number to store as an element, of any of the kinds
// Python's bool, int (of any size), float and complex have.
type Scalar struct {
	Kind       Kind    // which of the fields below hold the value
	Int        int64   // the value of kinds [Bool] and [Int]
	Uint       uint64  // the value of kind [Uint]
	Real, Imag float64 // the value of kinds [Float] and [BigInt]; the parts of a [Complex]
}

// Float returns s as a float64 (its real part for a complex).
func (s Scalar) Float() float64 {
	switch s.Kind {
	case Uint:
		return float64(s.Uint)
	case Float, Complex, BigInt:
		return s.Real
	}
	return float64(s.Int)
}

// Encode returns the bytes of one element of dt holding s, in native
// (little-endian) order: [dlpack.DataType.ItemSize] bytes, one byte for a
// sub-byte type. It converts as NumPy's full does: a value out of an integer
// type's range is an error wrapping [ErrRange], a NaN or infinity one
// wrapping [ErrNotFinite], and a complex value with an imaginary part stored
// in a real type one wrapping [ErrComplex] (bool takes it: true unless both
// parts are 0); floats round to nearest, ties to even (the float8, float6 and
// float4 types as [minifloat.Encode] rounds). dt must be valid
// ([dlpack.DataType.Check]).
func Encode(dt dlpack.DataType, s Scalar) ([]byte, error) {
	out := make([]byte, dt.ItemSize())
	if err := Put(dt, out, s); err != nil {
		return nil, err
	}
	return out, nil
}

// Put is [Encode] into out, which has dt.ItemSize() bytes.
func Put(dt dlpack.DataType, out []byte, s Scalar) error {
	if dt.Lanes > 1 {
		if err := Put(dt.Lane(), out[:dt.Lane().ItemSize()], s); err != nil {
			return err
		}
		FillLanes(dt, out)
		return nil
	}
	if s.Kind == Complex && dt.Code == dlpack.CodeBool {
		// A complex is true when either part is not zero, as NumPy casts it: nothing is lost.
		truth := s.Real != 0 || s.Imag != 0
		s = Scalar{Kind: Bool}
		if truth {
			s.Int = 1
		}
	}
	if s.Kind == Complex && dt.Code != dlpack.Complex && dt.Code != dlpack.Bcomplex {
		if s.Imag != 0 {
			return fmt.Errorf("scalar: %w: cannot store (%g%+gj) in %v", ErrComplex, s.Real, s.Imag, dt)
		}
		s.Kind = Float
	}
	switch dt.Code {
	case dlpack.CodeBool:
		if s.Kind == BigInt {
			return fmt.Errorf("scalar: %w: %g is out of range for %v", ErrRange, s.Real, dt)
		}
		if s.Kind == Float && s.Real != 0 || s.Kind == Uint || s.Kind != Float && s.Int != 0 {
			out[0] = 1
		}
	case dlpack.Int, dlpack.UInt:
		v, err := s.integer(dt)
		if err != nil {
			return err
		}
		putUint(out, v)
	case dlpack.Float:
		f := s.Float()
		switch dt.Bits {
		case 16:
			putUint(out, uint64(minifloat.EncodeFloat16(f)))
		case 32:
			putUint(out, uint64(math.Float32bits(float32(f))))
		default:
			putUint(out, math.Float64bits(f))
		}
	case dlpack.Bfloat:
		putUint(out, uint64(minifloat.EncodeBfloat16(s.Float())))
	case dlpack.Complex, dlpack.Bcomplex:
		// Each part as the real type of half the width: complex32 as float16, bcomplex32 as bfloat16, …
		re, im := s.Float(), 0.0
		if s.Kind == Complex {
			im = s.Imag
		}
		part := dt.ComplexPart()
		size := part.ItemSize()
		for i, v := range []float64{re, im} {
			if err := Put(part, out[i*size:(i+1)*size], Scalar{Kind: Float, Real: v}); err != nil {
				return err
			}
		}
	default:
		b, ok := minifloat.Encode(dt.Code, s.Float())
		if !ok {
			return fmt.Errorf("scalar: %w %v", dlpack.ErrUnknownDataType, dt)
		}
		out[0] = b
	}
	return nil
}

// FillLanes copies the value of dt's lane type at the start of e, an
// element of the vector type dt, into every lane of e, lanes narrower than a
// byte packed little bit-endian, as DLPack packs sub-byte values.
func FillLanes(dt dlpack.DataType, e []byte) {
	if dt.Bits >= 8 {
		Fill(e, e[:dt.Lane().ItemSize()])
		return
	}
	v := e[0]
	clear(e)
	for i := 0; i < int(dt.Lanes); i++ {
		bit := i * int(dt.Bits)
		e[bit/8] |= v << (bit % 8)
	}
}

// integer returns the bits of s as an element of the integer type dt, or an
// error if dt does not hold it.
func (s Scalar) integer(dt dlpack.DataType) (uint64, error) {
	neg, mag := false, uint64(0) // the value is -mag when neg, else mag
	switch s.Kind {
	case Float:
		if math.IsNaN(s.Real) || math.IsInf(s.Real, 0) {
			return 0, fmt.Errorf("scalar: %w: cannot store %g in %v", ErrNotFinite, s.Real, dt)
		}
		t := math.Trunc(s.Real)
		if t < -(1<<63) || t >= 1<<64 {
			return 0, fmt.Errorf("scalar: %w: %g is out of range for %v", ErrRange, s.Real, dt)
		}
		neg = t < 0
		mag = uint64(math.Abs(t))
	case Uint:
		mag = s.Uint
	case BigInt:
		return 0, fmt.Errorf("scalar: %w: %g is out of range for %v", ErrRange, s.Real, dt)
	default:
		neg = s.Int < 0
		mag = uint64(s.Int)
		if neg {
			mag = -mag
		}
	}
	var ok bool
	if dt.Code == dlpack.Int {
		limit := uint64(1) << (dt.Bits - 1) // -limit <= v < limit
		ok = neg && mag <= limit || !neg && mag < limit
	} else {
		ok = !neg || mag == 0
		ok = ok && (dt.Bits == 64 || mag < 1<<dt.Bits)
	}
	if !ok {
		if neg {
			return 0, fmt.Errorf("scalar: %w: -%d is out of range for %v", ErrRange, mag, dt)
		}
		return 0, fmt.Errorf("scalar: %w: %d is out of range for %v", ErrRange, mag, dt)
	}
	if neg {
		return -mag, nil
	}
	return mag, nil
}

// putUint stores the low len(b) bytes of v in little-endian order.
func putUint(b []byte, v uint64) {
	for k := range b {
		b[k] = byte(v >> (8 * k))
	}
}

// Fill writes copies of elem over dst, doubling what is written each time:
// the elements of full. len(dst) must be a multiple of len(elem).
func Fill(dst, elem []byte) {
	if len(dst) == 0 {
		return
	}
	n := copy(dst, elem)
	for n < len(dst) {
		n += preempt.Copy(dst[n:], dst[:n])
	}
}

// String returns s as Python prints a number: 3, 2.5, (1+2j), True.
func (s Scalar) String() string {
	switch s.Kind {
	case Bool:
		if s.Int != 0 {
			return "True"
		}
		return "False"
	case Int:
		return fmt.Sprint(s.Int)
	case Uint:
		return fmt.Sprint(s.Uint)
	case Complex:
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
