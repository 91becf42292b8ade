package dlpack

import (
	"encoding/binary"
	"errors"
	"math"
	"slices"
	"testing"
)

func TestEncode(t *testing.T) {
	i := func(v int64) Scalar { return Scalar{Kind: IntScalar, Int: v} }
	f := func(v float64) Scalar { return Scalar{Kind: FloatScalar, Real: v} }
	le := func(n int, v uint64) []byte { b := make([]byte, 8); binary.LittleEndian.PutUint64(b, v); return b[:n] }
	f4, _ := ParseDataType("float4_e2m1fn")
	f8, _ := ParseDataType("float8_e4m3fn")
	tests := []struct {
		dt   DataType
		s    Scalar
		want []byte
		err  error
	}{
		{Bool, i(2), []byte{1}, nil},
		// bcomplex32: bfloat16 1.5 (0x3fc0) then -2 (0xc000), as two bfloat16 are laid out.
		{Bcomplex32, Scalar{Kind: ComplexScalar, Real: 1.5, Imag: -2}, []byte{0xc0, 0x3f, 0x00, 0xc0}, nil},
		{Bcomplex32, f(1), []byte{0x80, 0x3f, 0, 0}, nil},
		{Bool, f(0), []byte{0}, nil},
		{Bool, f(-0.5), []byte{1}, nil},
		{Bool, Scalar{Kind: UintScalar, Uint: 1 << 63}, []byte{1}, nil},
		{Int8, i(-128), []byte{0x80}, nil},
		{Int8, i(127), []byte{0x7f}, nil},
		{Int8, i(128), nil, ErrRange},
		{Int8, i(-129), nil, ErrRange},
		{Int64, i(math.MinInt64), le(8, 1<<63), nil},
		{Int64, Scalar{Kind: UintScalar, Uint: 1 << 63}, nil, ErrRange},
		{Uint8, i(255), []byte{255}, nil},
		{Uint8, i(256), nil, ErrRange},
		{Uint8, i(-1), nil, ErrRange},
		{Uint64, Scalar{Kind: UintScalar, Uint: math.MaxUint64}, le(8, math.MaxUint64), nil},
		{Int32, f(-2.9), le(4, uint64(0xfffffffe)), nil}, // truncated toward zero
		{Int64, f(-9223372036854775808), le(8, 1<<63), nil},
		{Int64, f(1e300), nil, ErrRange},
		{Uint16, f(-1), nil, ErrRange},
		{Uint16, f(-0.5), []byte{0, 0}, nil},
		{Int32, f(math.NaN()), nil, ErrNotFinite},
		{Uint16, f(math.Inf(1)), nil, ErrNotFinite},
		{Float16, f(1.5), le(2, 0x3e00), nil},
		{Float32, f(1e300), le(4, uint64(math.Float32bits(float32(math.Inf(1))))), nil},
		{Float64, i(3), le(8, math.Float64bits(3)), nil},
		{Bfloat16, f(1), le(2, 0x3f80), nil},
		{Complex64, Scalar{Kind: ComplexScalar, Real: 1, Imag: -2}, append(le(4, uint64(math.Float32bits(1))), le(4, uint64(math.Float32bits(-2)))...), nil},
		{Float32, Scalar{Kind: ComplexScalar, Real: 2}, le(4, uint64(math.Float32bits(2))), nil},
		{Complex32, Scalar{Kind: ComplexScalar, Real: 1.5, Imag: -2}, []byte{0x00, 0x3e, 0x00, 0xc0}, nil},
		{Float32, Scalar{Kind: ComplexScalar, Imag: 1}, nil, ErrComplex},
		{Int64, Scalar{Kind: ComplexScalar, Real: 1, Imag: 1}, nil, ErrComplex},
		{Bool, Scalar{Kind: ComplexScalar, Imag: 1}, []byte{1}, nil}, // NumPy: bool(1j) is True
		{Bool, Scalar{Kind: ComplexScalar}, []byte{0}, nil},
		{f4, f(1e300), []byte{0x7}, nil}, // saturates at 6
		{f8, f(1), []byte{0x38}, nil},
	}
	for _, tt := range tests {
		got, err := tt.dt.Encode(tt.s)
		if !errors.Is(err, tt.err) || (err == nil) != (tt.err == nil) {
			t.Errorf("%v.Encode(%+v): error %v, want %v", tt.dt, tt.s, err, tt.err)
			continue
		}
		if err == nil && !slices.Equal(got, tt.want) {
			t.Errorf("%v.Encode(%+v) = %x, want %x", tt.dt, tt.s, got, tt.want)
		}
	}
}

func TestFill(t *testing.T) {
	for _, n := range []int{0, 1, 3, 7, 64} {
		dst := make([]byte, 3*n)
		Fill(dst, []byte{1, 2, 3})
		for k := 0; k < n; k++ {
			if !slices.Equal(dst[3*k:3*k+3], []byte{1, 2, 3}) {
				t.Fatalf("Fill of %d elements: element %d is %v", n, k, dst[3*k:3*k+3])
			}
		}
	}
}

func TestArange(t *testing.T) {
	f8, _ := ParseDataType("float8_e4m3fn")
	for _, dt := range []DataType{Int8, Uint16, Int32, Int64, Float16, Float32, Float64, Bfloat16, Complex128, Bcomplex32, f8} {
		const n = 9
		dst := make([]byte, n*dt.ItemSize())
		if err := dt.Arange(dst); err != nil {
			t.Fatalf("%v: %v", dt, err)
		}
		for k := 0; k < n; k++ {
			want, _ := dt.Encode(Scalar{Kind: IntScalar, Int: int64(k)})
			if got := dst[k*dt.ItemSize() : (k+1)*dt.ItemSize()]; !slices.Equal(got, want) {
				t.Errorf("%v element %d: %x, want %x", dt, k, got, want)
			}
		}
	}
	tests := []struct {
		dt  DataType
		n   int64
		err error
	}{
		{Bool, 2, nil}, {Bool, 3, ErrArangeBool}, {Int8, 128, nil}, {Int8, 129, ErrRange}, {Uint8, 256, nil},
		{Uint8, 257, ErrRange}, {Int64, math.MaxInt64, nil}, {Float16, 1 << 40, nil}, {Int8, 0, nil},
	}
	for _, tt := range tests {
		if err := tt.dt.CheckArange(tt.n); (err != nil) != (tt.err != nil) || !errors.Is(err, tt.err) {
			t.Errorf("%v.CheckArange(%d) = %v, want %v", tt.dt, tt.n, err, tt.err)
		}
	}
	if err := Int8.Arange(make([]byte, 200)); !errors.Is(err, ErrRange) {
		t.Errorf("int8 Arange of 200 elements: %v, want ErrRange", err)
	}
}

func TestEncodeVector(t *testing.T) {
	f4x2 := DataType{Code: Float4E2M1FN, Bits: 4, Lanes: 2}
	got, err := f4x2.Encode(Scalar{Kind: FloatScalar, Real: 1}) // float4_e2m1fn 1.0 is code 2
	if err != nil || !slices.Equal(got, []byte{0x22}) {
		t.Errorf("float4_e2m1fn x2 of 1.0 = %x, %v; want 22", got, err)
	}
	i16x3 := DataType{Code: Int, Bits: 16, Lanes: 3}
	got, err = i16x3.Encode(Scalar{Kind: IntScalar, Int: -2})
	if err != nil || !slices.Equal(got, []byte{0xfe, 0xff, 0xfe, 0xff, 0xfe, 0xff}) {
		t.Errorf("int16 x3 of -2 = %x, %v", got, err)
	}
	if _, err := i16x3.Encode(Scalar{Kind: IntScalar, Int: 1 << 20}); !errors.Is(err, ErrRange) {
		t.Errorf("int16 x3 of 2**20: %v, want ErrRange", err)
	}
}
