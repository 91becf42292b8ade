package dlpack

import (
	"errors"
	"fmt"
	"math"
)

// Errors of DataType.Encode, each wrapped with the value and the data type.
var (
	// ErrRange: the value is beyond what the data type holds.
	ErrRange = errors.New("value out of range")
	// ErrNotFinite: a NaN or an infinity cannot be an integer.
	ErrNotFinite = errors.New("value is not finite")
	// ErrComplex: a complex value with an imaginary part cannot be real.
	ErrComplex = errors.New("complex value for a real data type")
)

// A ScalarKind says which fields of a Scalar hold its value.
type ScalarKind uint8

// The kinds of Scalar.
const (
	BoolScalar    ScalarKind = iota // Int is 0 or 1
	IntScalar                       // Int
	UintScalar                      // Uint, a value above math.MaxInt64
	FloatScalar                     // Real
	ComplexScalar                   // Real and Imag
	// BigIntScalar is an integer beyond both int64 and uint64 (Python's
	// 2**64, say): Real holds it rounded to float64. Float types store that
	// value, as NumPy's full does; integer and bool types cannot hold it.
	BigIntScalar
)

// A Scalar is one number to store as an element, of any of the kinds
// Python's bool, int (of any size), float and complex have.
type Scalar struct {
	Kind       ScalarKind
	Int        int64
	Uint       uint64
	Real, Imag float64
}

// Float returns s as a float64 (its real part for a complex).
func (s Scalar) Float() float64 {
	switch s.Kind {
	case UintScalar:
		return float64(s.Uint)
	case FloatScalar, ComplexScalar, BigIntScalar:
		return s.Real
	}
	return float64(s.Int)
}

// Encode returns the bytes of one element of dt holding s, in native
// (little-endian) order: ItemSize() bytes, one byte for a sub-byte type.
// It converts as NumPy's full does: a value out of an integer type's range
// is an error wrapping ErrRange, a NaN or infinity one wrapping
// ErrNotFinite, and a complex value with an imaginary part stored in a real
// type one wrapping ErrComplex (bool takes it: true unless both parts are 0); floats round to nearest, ties to even (the
// float8, float6 and float4 types as EncodeMinifloat rounds). dt must be in
// the table.
func (dt DataType) Encode(s Scalar) ([]byte, error) {
	if dt.Lanes > 1 {
		return dt.encodeLanes(s)
	}
	out := make([]byte, dt.ItemSize())
	if s.Kind == ComplexScalar && dt.Code == CodeBool {
		// A complex is true when either part is not zero, as NumPy casts it: nothing is lost.
		truth := s.Real != 0 || s.Imag != 0
		s = Scalar{Kind: BoolScalar}
		if truth {
			s.Int = 1
		}
	}
	if s.Kind == ComplexScalar && dt.Code != Complex && dt.Code != Bcomplex {
		if s.Imag != 0 {
			return nil, fmt.Errorf("dlpack: %w: cannot store (%g%+gj) in %v", ErrComplex, s.Real, s.Imag, dt)
		}
		s.Kind = FloatScalar
	}
	switch dt.Code {
	case CodeBool:
		if s.Kind == BigIntScalar {
			return nil, fmt.Errorf("dlpack: %w: %g is out of range for %v", ErrRange, s.Real, dt)
		}
		if s.Kind == FloatScalar && s.Real != 0 || s.Kind == UintScalar || s.Kind != FloatScalar && s.Int != 0 {
			out[0] = 1
		}
	case Int, UInt:
		v, err := s.integer(dt)
		if err != nil {
			return nil, err
		}
		putUint(out, v)
	case Float:
		f := s.Float()
		switch dt.Bits {
		case 16:
			putUint(out, uint64(EncodeFloat16(f)))
		case 32:
			putUint(out, uint64(math.Float32bits(float32(f))))
		default:
			putUint(out, math.Float64bits(f))
		}
	case Bfloat:
		putUint(out, uint64(EncodeBfloat16(s.Float())))
	case Complex, Bcomplex:
		// Each part as the real type of half the width: complex32 as float16, bcomplex32 as bfloat16, …
		re, im := s.Float(), 0.0
		if s.Kind == ComplexScalar {
			im = s.Imag
		}
		part := dt.complexPart()
		size := part.ItemSize()
		for i, v := range []float64{re, im} {
			b, err := part.Encode(Scalar{Kind: FloatScalar, Real: v})
			if err != nil {
				return nil, err
			}
			copy(out[i*size:], b)
		}
	default:
		b, ok := EncodeMinifloat(dt.Code, s.Float())
		if !ok {
			return nil, fmt.Errorf("dlpack: %w %v", ErrUnknownDataType, dt)
		}
		out[0] = b
	}
	return out, nil
}

// complexPart is the real type of each part of an element of the complex
// type dt: complex32's float16, bcomplex32's bfloat16, complex64's float32.
func (dt DataType) complexPart() DataType {
	if dt.Code == Bcomplex {
		return DataType{Bfloat, dt.Bits / 2, 1}
	}
	return DataType{Float, dt.Bits / 2, 1}
}

// encodeLanes is Encode for a vector type: s in every lane, lanes narrower
// than a byte packed little bit-endian, as DLPack packs sub-byte values.
func (dt DataType) encodeLanes(s Scalar) ([]byte, error) {
	lane, err := dt.Lane().Encode(s)
	if err != nil {
		return nil, err
	}
	return dt.packLanes(lane), nil
}

// packLanes returns an element of the vector type dt with the element lane
// of its lane type in every lane.
func (dt DataType) packLanes(lane []byte) []byte {
	out := make([]byte, dt.ItemSize())
	if dt.Bits >= 8 {
		Fill(out, lane)
		return out
	}
	for i := 0; i < int(dt.Lanes); i++ {
		bit := i * int(dt.Bits)
		out[bit/8] |= lane[0] << (bit % 8)
	}
	return out
}

// integer returns the bits of s as an element of the integer type dt, or an
// error if dt does not hold it.
func (s Scalar) integer(dt DataType) (uint64, error) {
	neg, mag := false, uint64(0) // the value is -mag when neg, else mag
	switch s.Kind {
	case FloatScalar:
		if math.IsNaN(s.Real) || math.IsInf(s.Real, 0) {
			return 0, fmt.Errorf("dlpack: %w: cannot store %g in %v", ErrNotFinite, s.Real, dt)
		}
		t := math.Trunc(s.Real)
		if t < -(1<<63) || t >= 1<<64 {
			return 0, fmt.Errorf("dlpack: %w: %g is out of range for %v", ErrRange, s.Real, dt)
		}
		neg = t < 0
		mag = uint64(math.Abs(t))
	case UintScalar:
		mag = s.Uint
	case BigIntScalar:
		return 0, fmt.Errorf("dlpack: %w: %g is out of range for %v", ErrRange, s.Real, dt)
	default:
		neg = s.Int < 0
		mag = uint64(s.Int)
		if neg {
			mag = -mag
		}
	}
	var ok bool
	if dt.Code == Int {
		limit := uint64(1) << (dt.Bits - 1) // -limit <= v < limit
		ok = neg && mag <= limit || !neg && mag < limit
	} else {
		ok = !neg || mag == 0
		ok = ok && (dt.Bits == 64 || mag < 1<<dt.Bits)
	}
	if !ok {
		if neg {
			return 0, fmt.Errorf("dlpack: %w: -%d is out of range for %v", ErrRange, mag, dt)
		}
		return 0, fmt.Errorf("dlpack: %w: %d is out of range for %v", ErrRange, mag, dt)
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
		n += copy(dst[n:], dst[:n])
	}
}

// Arange writes the elements 0, 1, …, len(dst)/ItemSize()-1 of dt over dst,
// after checking with CheckArange that dt holds them: ArangeRange from 0 by 1.
func (dt DataType) Arange(dst []byte) error {
	zero, one := Scalar{Kind: IntScalar}, Scalar{Kind: IntScalar, Int: 1}
	if err := dt.CheckArangeRange(zero, one, int64(len(dst)/max(dt.ItemSize(), 1))); err != nil {
		return err
	}
	dt.ArangeRange(dst, zero, one)
	return nil
}

// CheckArange returns an error when dt cannot hold 0, 1, …, n-1: one
// wrapping ErrRange when an integer type cannot, ErrArangeBool when bool is
// asked for more than two; float types hold them all, rounded.
func (dt DataType) CheckArange(n int64) error {
	return dt.CheckArangeRange(Scalar{Kind: IntScalar}, Scalar{Kind: IntScalar, Int: 1}, n)
}
