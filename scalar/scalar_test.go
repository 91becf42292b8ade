package scalar

import (
	"encoding/binary"
	"errors"
	"math"
	"slices"
	"testing"

	"github.com/godlpack/godlpack/dlpack"
)

func TestEncode(t *testing.T) {
	i := func(v int64) Scalar { return Scalar{Kind: Int, Int: v} }
	f := func(v float64) Scalar { return Scalar{Kind: Float, Real: v} }
	le := func(n int, v uint64) []byte { b := make([]byte, 8); binary.LittleEndian.PutUint64(b, v); return b[:n] }
	f4, _ := dlpack.ParseDataType("float4_e2m1fn")
	f8, _ := dlpack.ParseDataType("float8_e4m3fn")
	tests := []struct {
		dt   dlpack.DataType
		s    Scalar
		want []byte
		err  error
	}{
		{dlpack.Bool, i(2), []byte{1}, nil},
		// bcomplex32: bfloat16 1.5 (0x3fc0) then -2 (0xc000), as two bfloat16 are laid out.
		{dlpack.Bcomplex32, Scalar{Kind: Complex, Real: 1.5, Imag: -2}, []byte{0xc0, 0x3f, 0x00, 0xc0}, nil},
		{dlpack.Bcomplex32, f(1), []byte{0x80, 0x3f, 0, 0}, nil},
		{dlpack.Bool, f(0), []byte{0}, nil},
		{dlpack.Bool, f(-0.5), []byte{1}, nil},
		{dlpack.Bool, Scalar{Kind: Uint, Uint: 1 << 63}, []byte{1}, nil},
		{dlpack.Int8, i(-128), []byte{0x80}, nil},
		{dlpack.Int8, i(127), []byte{0x7f}, nil},
		{dlpack.Int8, i(128), nil, ErrRange},
		{dlpack.Int8, i(-129), nil, ErrRange},
		{dlpack.Int64, i(math.MinInt64), le(8, 1<<63), nil},
		{dlpack.Int64, Scalar{Kind: Uint, Uint: 1 << 63}, nil, ErrRange},
		{dlpack.Uint8, i(255), []byte{255}, nil},
		{dlpack.Uint8, i(256), nil, ErrRange},
		{dlpack.Uint8, i(-1), nil, ErrRange},
		{dlpack.Uint64, Scalar{Kind: Uint, Uint: math.MaxUint64}, le(8, math.MaxUint64), nil},
		{dlpack.Int32, f(-2.9), le(4, uint64(0xfffffffe)), nil}, // truncated toward zero
		{dlpack.Int64, f(-9223372036854775808), le(8, 1<<63), nil},
		{dlpack.Int64, f(1e300), nil, ErrRange},
		{dlpack.Uint16, f(-1), nil, ErrRange},
		{dlpack.Uint16, f(-0.5), []byte{0, 0}, nil},
		{dlpack.Int32, f(math.NaN()), nil, ErrNotFinite},
		{dlpack.Uint16, f(math.Inf(1)), nil, ErrNotFinite},
		{dlpack.Float16, f(1.5), le(2, 0x3e00), nil},
		{dlpack.Float32, f(1e300), le(4, uint64(math.Float32bits(float32(math.Inf(1))))), nil},
		{dlpack.Float64, i(3), le(8, math.Float64bits(3)), nil},
		{dlpack.Bfloat16, f(1), le(2, 0x3f80), nil},
		{dlpack.Complex64, Scalar{Kind: Complex, Real: 1, Imag: -2}, append(le(4, uint64(math.Float32bits(1))), le(4, uint64(math.Float32bits(-2)))...), nil},
		{dlpack.Float32, Scalar{Kind: Complex, Real: 2}, le(4, uint64(math.Float32bits(2))), nil},
		{dlpack.Complex32, Scalar{Kind: Complex, Real: 1.5, Imag: -2}, []byte{0x00, 0x3e, 0x00, 0xc0}, nil},
		{dlpack.Float32, Scalar{Kind: Complex, Imag: 1}, nil, ErrComplex},
		{dlpack.Int64, Scalar{Kind: Complex, Real: 1, Imag: 1}, nil, ErrComplex},
		{dlpack.Bool, Scalar{Kind: Complex, Imag: 1}, []byte{1}, nil}, // NumPy: bool(1j) is True
		{dlpack.Bool, Scalar{Kind: Complex}, []byte{0}, nil},
		{f4, f(1e300), []byte{0x7}, nil}, // saturates at 6
		{f8, f(1), []byte{0x38}, nil},
	}
	for _, tt := range tests {
		got, err := Encode(tt.dt, tt.s)
		if !errors.Is(err, tt.err) || (err == nil) != (tt.err == nil) {
			t.Errorf("Encode(%v, %+v): error %v, want %v", tt.dt, tt.s, err, tt.err)
			continue
		}
		if err == nil && !slices.Equal(got, tt.want) {
			t.Errorf("Encode(%v, %+v) = %x, want %x", tt.dt, tt.s, got, tt.want)
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

func TestEncodeVector(t *testing.T) {
	f4x2 := dlpack.DataType{Code: dlpack.Float4E2M1FN, Bits: 4, Lanes: 2}
	got, err := Encode(f4x2, Scalar{Kind: Float, Real: 1}) // float4_e2m1fn 1.0 is code 2
	if err != nil || !slices.Equal(got, []byte{0x22}) {
		t.Errorf("float4_e2m1fn x2 of 1.0 = %x, %v; want 22", got, err)
	}
	i16x3 := dlpack.DataType{Code: dlpack.Int, Bits: 16, Lanes: 3}
	got, err = Encode(i16x3, Scalar{Kind: Int, Int: -2})
	if err != nil || !slices.Equal(got, []byte{0xfe, 0xff, 0xfe, 0xff, 0xfe, 0xff}) {
		t.Errorf("int16 x3 of -2 = %x, %v", got, err)
	}
	if _, err := Encode(i16x3, Scalar{Kind: Int, Int: 1 << 20}); !errors.Is(err, ErrRange) {
		t.Errorf("int16 x3 of 2**20: %v, want ErrRange", err)
	}
}

func TestEncodeBigInt(t *testing.T) {
	big := Scalar{Kind: BigInt, Real: 0x1p64}
	for _, dt := range []dlpack.DataType{dlpack.Bool, dlpack.Int64, dlpack.Uint64, dlpack.Int8} {
		if _, err := Encode(dt, big); !errors.Is(err, ErrRange) {
			t.Errorf("Encode(%v, 2**64): %v, want ErrRange", dt, err)
		}
	}
	got, err := Encode(dlpack.Float64, big)
	if err != nil || math.Float64frombits(binary.LittleEndian.Uint64(got)) != 0x1p64 {
		t.Errorf("Encode(float64, 2**64) = %x, %v", got, err)
	}
	got, err = Encode(dlpack.Complex64, Scalar{Kind: BigInt, Real: -0x1p70})
	if err != nil || math.Float32frombits(binary.LittleEndian.Uint32(got)) != -0x1p70 {
		t.Errorf("Encode(complex64, -2**70) = %x, %v", got, err)
	}
}

func TestScalarString(t *testing.T) {
	for s, want := range map[Scalar]string{
		{Kind: Bool, Int: 1}:                "True",
		{Kind: Int, Int: -3}:                "-3",
		{Kind: Uint, Uint: math.MaxUint64}:  "18446744073709551615",
		{Kind: Float, Real: 2}:              "2.0",
		{Kind: Float, Real: 0.1}:            "0.1",
		{Kind: Float, Real: math.NaN()}:     "nan",
		{Kind: Float, Real: math.Inf(-1)}:   "-inf",
		{Kind: BigInt, Real: 0x1p64}:        "1.8446744073709552e+19",
		{Kind: Complex, Real: 1, Imag: -2}:  "(1-2j)",
		{Kind: Complex, Real: 0.5, Imag: 1}: "(0.5+1j)",
	} {
		if got := s.String(); got != want {
			t.Errorf("%#v.String() = %q, want %q", s, got, want)
		}
	}
}
