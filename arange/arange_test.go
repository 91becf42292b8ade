package dlpack

import (
	"encoding/binary"
	"errors"
	"math"
	"slices"
	"testing"
)

func si(v int64) Scalar   { return Scalar{Kind: IntScalar, Int: v} }
func sf(v float64) Scalar { return Scalar{Kind: FloatScalar, Real: v} }

func TestArangeLen(t *testing.T) {
	u := func(v uint64) Scalar { return Scalar{Kind: UintScalar, Uint: v} }
	b := func(v bool) Scalar {
		if v {
			return Scalar{Kind: BoolScalar, Int: 1}
		}
		return Scalar{Kind: BoolScalar}
	}
	tests := []struct {
		start, stop, step Scalar
		want              int64
		err               error
	}{
		// The lengths NumPy 2.4 gives for the same calls.
		{si(0), si(5), si(1), 5, nil},
		{si(2), si(5), si(1), 3, nil},
		{si(1), si(0), si(1), 0, nil},
		{si(5), si(1), si(-1), 4, nil},
		{si(5), si(1), si(-2), 2, nil},
		{si(0), si(-3), si(1), 0, nil},
		{si(0), si(7), si(2), 4, nil},
		{si(0), si(-7), si(-2), 4, nil},
		{si(0), si(5), si(-1), 0, nil},
		{b(true), b(false), si(-1), 1, nil},
		{si(0), si(5), b(true), 5, nil},
		{sf(0), sf(1), sf(0.1), 10, nil},
		{sf(0.1), si(1), sf(0.3), 3, nil},
		{si(1), si(2), sf(0.3), 4, nil},
		{si(5), si(1), sf(0.5), 0, nil},
		{si(0), si(10), sf(math.Inf(1)), 1, nil},
		{si(0), si(10), sf(math.Inf(-1)), 0, nil},
		{si(0), u(math.MaxUint64), si(1 << 62), 4, nil},
		{si(math.MinInt64), si(math.MaxInt64), si(1), 0, ErrArangeLength},
		{si(0), si(5), si(0), 0, ErrZeroStep},
		{si(0), si(5), sf(0), 0, ErrZeroStep},
		{si(0), si(5), b(false), 0, ErrZeroStep},
		{si(0), sf(math.NaN()), si(1), 0, ErrArangeLength},
		{si(0), sf(math.Inf(1)), si(1), 0, ErrArangeLength},
		{si(0), sf(math.Inf(-1)), si(1), 0, ErrArangeLength}, // NumPy refuses a length below int64 too
		{si(0), sf(1), sf(1e-20), 0, ErrArangeLength},
		{si(0), Scalar{Kind: BigIntScalar, Real: 0x1p70}, si(1), 0, ErrArangeLength},
		{si(0), si(3), Scalar{Kind: ComplexScalar, Real: 1}, 0, ErrComplex},
	}
	for _, tt := range tests {
		got, err := ArangeLen(tt.start, tt.stop, tt.step)
		if got != tt.want || !errors.Is(err, tt.err) || (err == nil) != (tt.err == nil) {
			t.Errorf("ArangeLen(%v, %v, %v) = %d, %v; want %d, %v", tt.start, tt.stop, tt.step, got, err, tt.want, tt.err)
		}
	}
}

func TestArangeDType(t *testing.T) {
	if got := ArangeDType(si(0), si(5), Scalar{Kind: BoolScalar, Int: 1}); got != Int64 {
		t.Errorf("ints: %v, want int64", got)
	}
	if got := ArangeDType(si(0), sf(5), si(1)); got != Float64 {
		t.Errorf("a float among them: %v, want float64", got)
	}
	if got := ArangeDType(si(0), Scalar{Kind: UintScalar, Uint: 1 << 63}); got != Float64 {
		t.Errorf("an int beyond int64: %v, want float64 (as NumPy picks)", got)
	}
}

// arange runs ArangeRange for n elements of dt.
func arange(t *testing.T, dt DataType, start, step Scalar, n int) []byte {
	t.Helper()
	dst := make([]byte, n*dt.ItemSize())
	if err := dt.ArangeRange(dst, start, step); err != nil {
		t.Fatalf("%v from %v by %v: %v", dt, start, step, err)
	}
	return dst
}

func TestArangeRangeIntegers(t *testing.T) {
	le := func(dt DataType, vs ...int64) []byte {
		out := make([]byte, 0, len(vs)*dt.ItemSize())
		for _, v := range vs {
			var b [8]byte
			binary.LittleEndian.PutUint64(b[:], uint64(v))
			out = append(out, b[:dt.ItemSize()]...)
		}
		return out
	}
	tests := []struct {
		dt          DataType
		start, step Scalar
		n           int
		want        []byte
	}{
		{Int64, si(2), si(1), 3, le(Int64, 2, 3, 4)},
		{Int64, si(5), si(-2), 2, le(Int64, 5, 3)},
		{Int8, si(-3), si(1), 6, le(Int8, -3, -2, -1, 0, 1, 2)},
		{Uint8, si(3), si(-1), 3, le(Uint8, 3, 2, 1)},
		// NumPy stores 0 and int(1.5) = 1, then steps by their difference: 0, 1, 2.
		{Uint8, si(0), sf(1.5), 3, le(Uint8, 0, 1, 2)},
		{Int64, sf(0.5), si(1), 5, le(Int64, 0, 1, 2, 3, 4)},
		{Int32, si(-2147483648), si(1 << 30), 4, le(Int32, -2147483648, -1073741824, 0, 1073741824)},
		{Uint64, Scalar{Kind: UintScalar, Uint: math.MaxUint64}, si(-1 << 62), 3,
			le(Uint64, -1, -1-1<<62, math.MaxInt64)},
	}
	for _, tt := range tests {
		if got := arange(t, tt.dt, tt.start, tt.step, tt.n); !slices.Equal(got, tt.want) {
			t.Errorf("%v from %v by %v: %x, want %x", tt.dt, tt.start, tt.step, got, tt.want)
		}
	}
	for _, bad := range []struct {
		dt          DataType
		start, step Scalar
		n           int
		err         error
	}{
		{Int8, si(0), si(1), 129, ErrRange}, // NumPy wraps around to -128
		{Uint8, si(3), si(-1), 5, ErrRange}, // NumPy wraps around to 255
		{Uint8, si(-1), si(1), 1, ErrRange}, // as NumPy refuses -1 for uint8
		{Int64, si(math.MaxInt64), si(1), 2, ErrRange},
		{Int64, si(0), si(1 << 62), 3, ErrRange},
		{Bool, si(0), si(1), 3, ErrArangeBool}, // NumPy: at most two bools
		{Int32, sf(math.NaN()), si(1), 1, ErrNotFinite},
	} {
		err := bad.dt.ArangeRange(make([]byte, bad.n*bad.dt.ItemSize()), bad.start, bad.step)
		if !errors.Is(err, bad.err) {
			t.Errorf("%v from %v by %v, %d elements: %v, want %v", bad.dt, bad.start, bad.step, bad.n, err, bad.err)
		}
		if err2 := bad.dt.CheckArangeRange(bad.start, bad.step, int64(bad.n)); !errors.Is(err2, bad.err) {
			t.Errorf("CheckArangeRange disagrees: %v", err2)
		}
	}
	if got := arange(t, Bool, si(1), si(1), 2); !slices.Equal(got, []byte{1, 1}) {
		t.Errorf("bool from 1 by 1: %v, want [1 1] (NumPy's [True, True])", got)
	}
}

func TestArangeRangeFloats(t *testing.T) {
	f64s := func(b []byte) []float64 {
		out := make([]float64, len(b)/8)
		for i := range out {
			out[i] = math.Float64frombits(binary.LittleEndian.Uint64(b[8*i:]))
		}
		return out
	}
	f32s := func(b []byte) []float64 {
		out := make([]float64, len(b)/4)
		for i := range out {
			out[i] = float64(math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:])))
		}
		return out
	}
	// What NumPy 2.4 gives: np.arange(0, 1, 0.1), np.arange(1, 2, 0.1, dtype="float32")[:4].
	if got, want := f64s(arange(t, Float64, si(0), sf(0.1), 10)),
		[]float64{0, 0.1, 0.2, 0.30000000000000004, 0.4, 0.5, 0.6000000000000001, 0.7000000000000001, 0.8, 0.9}; !slices.Equal(got, want) {
		t.Errorf("float64 from 0 by 0.1: %v, want %v", got, want)
	}
	if got, want := f32s(arange(t, Float32, si(1), sf(0.1), 4)),
		[]float64{1, 1.100000023841858, 1.2000000476837158, 1.3000000715255737}; !slices.Equal(got, want) {
		t.Errorf("float32 from 1 by 0.1: %v, want %v", got, want)
	}
	if got, want := f64s(arange(t, Float64, sf(0.1), sf(0.3), 3)), []float64{0.1, 0.4, 0.7000000000000001}; !slices.Equal(got, want) {
		t.Errorf("float64 from 0.1 by 0.3: %v, want %v", got, want)
	}
	// float16 in float32 arithmetic: np.arange(0, 1, 0.1, dtype="float16")[[3, 9]].
	h := arange(t, Float16, si(0), sf(0.1), 10)
	for i, want := range map[int]float64{3: 0.2998046875, 9: 0.89990234375} {
		if got := DecodeFloat16(binary.LittleEndian.Uint16(h[2*i:])); got != want {
			t.Errorf("float16 from 0 by 0.1, element %d: %v, want %v", i, got, want)
		}
	}
	// complex128: the real part steps, the imaginary part stays 0.
	c := arange(t, Complex128, si(1), sf(0.5), 3)
	if got := f64s(c); !slices.Equal(got, []float64{1, 0, 1.5, 0, 2, 0}) {
		t.Errorf("complex128 from 1 by 0.5: %v", got)
	}
	// A vector type holds the value in every lane; sub-byte lanes are packed.
	f4x2 := DataType{Code: Float4E2M1FN, Bits: 4, Lanes: 2}
	if got := arange(t, f4x2, si(0), si(1), 4); !slices.Equal(got, []byte{0x00, 0x22, 0x44, 0x55}) {
		t.Errorf("float4_e2m1fn x2 from 0 by 1: %x, want 00 22 44 55", got)
	}
	i16x2 := DataType{Code: Int, Bits: 16, Lanes: 2}
	if got := arange(t, i16x2, si(1), si(-2), 2); !slices.Equal(got, []byte{1, 0, 1, 0, 0xff, 0xff, 0xff, 0xff}) {
		t.Errorf("int16 x2 from 1 by -2: %x", got)
	}
}

func TestEncodeBigInt(t *testing.T) {
	big := Scalar{Kind: BigIntScalar, Real: 0x1p64}
	for _, dt := range []DataType{Bool, Int64, Uint64, Int8} {
		if _, err := dt.Encode(big); !errors.Is(err, ErrRange) {
			t.Errorf("%v.Encode(2**64): %v, want ErrRange", dt, err)
		}
	}
	got, err := Float64.Encode(big)
	if err != nil || math.Float64frombits(binary.LittleEndian.Uint64(got)) != 0x1p64 {
		t.Errorf("float64.Encode(2**64) = %x, %v", got, err)
	}
	got, err = Complex64.Encode(Scalar{Kind: BigIntScalar, Real: -0x1p70})
	if err != nil || math.Float32frombits(binary.LittleEndian.Uint32(got)) != -0x1p70 {
		t.Errorf("complex64.Encode(-2**70) = %x, %v", got, err)
	}
}

func TestScalarString(t *testing.T) {
	for s, want := range map[Scalar]string{
		{Kind: BoolScalar, Int: 1}:                "True",
		{Kind: IntScalar, Int: -3}:                "-3",
		{Kind: UintScalar, Uint: math.MaxUint64}:  "18446744073709551615",
		{Kind: FloatScalar, Real: 2}:              "2.0",
		{Kind: FloatScalar, Real: 0.1}:            "0.1",
		{Kind: FloatScalar, Real: math.NaN()}:     "nan",
		{Kind: FloatScalar, Real: math.Inf(-1)}:   "-inf",
		{Kind: BigIntScalar, Real: 0x1p64}:        "1.8446744073709552e+19",
		{Kind: ComplexScalar, Real: 1, Imag: -2}:  "(1-2j)",
		{Kind: ComplexScalar, Real: 0.5, Imag: 1}: "(0.5+1j)",
	} {
		if got := s.String(); got != want {
			t.Errorf("%#v.String() = %q, want %q", s, got, want)
		}
	}
}
