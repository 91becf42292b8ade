package arange

import (
	"encoding/binary"
	"errors"
	"math"
	"slices"
	"testing"

	"github.com/godlpack/godlpack/dlpack"
	"github.com/godlpack/godlpack/minifloat"
	"github.com/godlpack/godlpack/scalar"
)

func si(v int64) scalar.Scalar   { return scalar.Scalar{Kind: scalar.Int, Int: v} }
func sf(v float64) scalar.Scalar { return scalar.Scalar{Kind: scalar.Float, Real: v} }

func TestLen(t *testing.T) {
	u := func(v uint64) scalar.Scalar { return scalar.Scalar{Kind: scalar.Uint, Uint: v} }
	b := func(v bool) scalar.Scalar {
		if v {
			return scalar.Scalar{Kind: scalar.Bool, Int: 1}
		}
		return scalar.Scalar{Kind: scalar.Bool}
	}
	tests := []struct {
		start, stop, step scalar.Scalar
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
		{si(math.MinInt64), si(math.MaxInt64), si(1), 0, ErrLength},
		{si(0), si(5), si(0), 0, ErrZeroStep},
		{si(0), si(5), sf(0), 0, ErrZeroStep},
		{si(0), si(5), b(false), 0, ErrZeroStep},
		{si(0), sf(math.NaN()), si(1), 0, ErrLength},
		{si(0), sf(math.Inf(1)), si(1), 0, ErrLength},
		{si(0), sf(math.Inf(-1)), si(1), 0, ErrLength}, // NumPy refuses a length below int64 too
		{si(0), sf(1), sf(1e-20), 0, ErrLength},
		{si(0), scalar.Scalar{Kind: scalar.BigInt, Real: 0x1p70}, si(1), 0, ErrLength},
		{si(0), si(3), scalar.Scalar{Kind: scalar.Complex, Real: 1}, 0, scalar.ErrComplex},
	}
	for _, tt := range tests {
		got, err := Len(tt.start, tt.stop, tt.step)
		if got != tt.want || !errors.Is(err, tt.err) || (err == nil) != (tt.err == nil) {
			t.Errorf("Len(%v, %v, %v) = %d, %v; want %d, %v", tt.start, tt.stop, tt.step, got, err, tt.want, tt.err)
		}
	}
}

func TestDType(t *testing.T) {
	if got := DType(si(0), si(5), scalar.Scalar{Kind: scalar.Bool, Int: 1}); got != dlpack.Int64 {
		t.Errorf("ints: %v, want int64", got)
	}
	if got := DType(si(0), sf(5), si(1)); got != dlpack.Float64 {
		t.Errorf("a float among them: %v, want float64", got)
	}
	if got := DType(si(0), scalar.Scalar{Kind: scalar.Uint, Uint: 1 << 63}); got != dlpack.Float64 {
		t.Errorf("an int beyond int64: %v, want float64 (as NumPy picks)", got)
	}
}

// arange runs Write for n elements of dt.
func arange(t *testing.T, dt dlpack.DataType, start, step scalar.Scalar, n int) []byte {
	t.Helper()
	dst := make([]byte, n*dt.ItemSize())
	if err := Write(dt, dst, start, step); err != nil {
		t.Fatalf("%v from %v by %v: %v", dt, start, step, err)
	}
	return dst
}

func TestWriteIntegers(t *testing.T) {
	le := func(dt dlpack.DataType, vs ...int64) []byte {
		out := make([]byte, 0, len(vs)*dt.ItemSize())
		for _, v := range vs {
			var b [8]byte
			binary.LittleEndian.PutUint64(b[:], uint64(v))
			out = append(out, b[:dt.ItemSize()]...)
		}
		return out
	}
	tests := []struct {
		dt          dlpack.DataType
		start, step scalar.Scalar
		n           int
		want        []byte
	}{
		{dlpack.Int64, si(2), si(1), 3, le(dlpack.Int64, 2, 3, 4)},
		{dlpack.Int64, si(5), si(-2), 2, le(dlpack.Int64, 5, 3)},
		{dlpack.Int8, si(-3), si(1), 6, le(dlpack.Int8, -3, -2, -1, 0, 1, 2)},
		{dlpack.Uint8, si(3), si(-1), 3, le(dlpack.Uint8, 3, 2, 1)},
		// NumPy stores 0 and int(1.5) = 1, then steps by their difference: 0, 1, 2.
		{dlpack.Uint8, si(0), sf(1.5), 3, le(dlpack.Uint8, 0, 1, 2)},
		{dlpack.Int64, sf(0.5), si(1), 5, le(dlpack.Int64, 0, 1, 2, 3, 4)},
		{dlpack.Int32, si(-2147483648), si(1 << 30), 4, le(dlpack.Int32, -2147483648, -1073741824, 0, 1073741824)},
		{dlpack.Uint64, scalar.Scalar{Kind: scalar.Uint, Uint: math.MaxUint64}, si(-1 << 62), 3,
			le(dlpack.Uint64, -1, -1-1<<62, math.MaxInt64)},
	}
	for _, tt := range tests {
		if got := arange(t, tt.dt, tt.start, tt.step, tt.n); !slices.Equal(got, tt.want) {
			t.Errorf("%v from %v by %v: %x, want %x", tt.dt, tt.start, tt.step, got, tt.want)
		}
	}
	for _, bad := range []struct {
		dt          dlpack.DataType
		start, step scalar.Scalar
		n           int
		err         error
	}{
		{dlpack.Int8, si(0), si(1), 129, scalar.ErrRange}, // NumPy wraps around to -128
		{dlpack.Uint8, si(3), si(-1), 5, scalar.ErrRange}, // NumPy wraps around to 255
		{dlpack.Uint8, si(-1), si(1), 1, scalar.ErrRange}, // as NumPy refuses -1 for uint8
		{dlpack.Int64, si(math.MaxInt64), si(1), 2, scalar.ErrRange},
		{dlpack.Int64, si(0), si(1 << 62), 3, scalar.ErrRange},
		{dlpack.Bool, si(0), si(1), 3, ErrBool}, // NumPy: at most two bools
		{dlpack.Int32, sf(math.NaN()), si(1), 1, scalar.ErrNotFinite},
	} {
		err := Write(bad.dt, make([]byte, bad.n*bad.dt.ItemSize()), bad.start, bad.step)
		if !errors.Is(err, bad.err) {
			t.Errorf("%v from %v by %v, %d elements: %v, want %v", bad.dt, bad.start, bad.step, bad.n, err, bad.err)
		}
		if err2 := Check(bad.dt, bad.start, bad.step, int64(bad.n)); !errors.Is(err2, bad.err) {
			t.Errorf("Check disagrees: %v", err2)
		}
	}
	if got := arange(t, dlpack.Bool, si(1), si(1), 2); !slices.Equal(got, []byte{1, 1}) {
		t.Errorf("bool from 1 by 1: %v, want [1 1] (NumPy's [True, True])", got)
	}
}

func TestWriteFloats(t *testing.T) {
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
	if got, want := f64s(arange(t, dlpack.Float64, si(0), sf(0.1), 10)),
		[]float64{0, 0.1, 0.2, 0.30000000000000004, 0.4, 0.5, 0.6000000000000001, 0.7000000000000001, 0.8, 0.9}; !slices.Equal(got, want) {
		t.Errorf("float64 from 0 by 0.1: %v, want %v", got, want)
	}
	if got, want := f32s(arange(t, dlpack.Float32, si(1), sf(0.1), 4)),
		[]float64{1, 1.100000023841858, 1.2000000476837158, 1.3000000715255737}; !slices.Equal(got, want) {
		t.Errorf("float32 from 1 by 0.1: %v, want %v", got, want)
	}
	if got, want := f64s(arange(t, dlpack.Float64, sf(0.1), sf(0.3), 3)), []float64{0.1, 0.4, 0.7000000000000001}; !slices.Equal(got, want) {
		t.Errorf("float64 from 0.1 by 0.3: %v, want %v", got, want)
	}
	// float16 in float32 arithmetic: np.arange(0, 1, 0.1, dtype="float16")[[3, 9]].
	h := arange(t, dlpack.Float16, si(0), sf(0.1), 10)
	for i, want := range map[int]float64{3: 0.2998046875, 9: 0.89990234375} {
		if got := minifloat.DecodeFloat16(binary.LittleEndian.Uint16(h[2*i:])); got != want {
			t.Errorf("float16 from 0 by 0.1, element %d: %v, want %v", i, got, want)
		}
	}
	// complex128: the real part steps, the imaginary part stays 0.
	c := arange(t, dlpack.Complex128, si(1), sf(0.5), 3)
	if got := f64s(c); !slices.Equal(got, []float64{1, 0, 1.5, 0, 2, 0}) {
		t.Errorf("complex128 from 1 by 0.5: %v", got)
	}
	// A vector type holds the value in every lane; sub-byte lanes are packed.
	f4x2 := dlpack.DataType{Code: dlpack.Float4E2M1FN, Bits: 4, Lanes: 2}
	if got := arange(t, f4x2, si(0), si(1), 4); !slices.Equal(got, []byte{0x00, 0x22, 0x44, 0x55}) {
		t.Errorf("float4_e2m1fn x2 from 0 by 1: %x, want 00 22 44 55", got)
	}
	i16x2 := dlpack.DataType{Code: dlpack.Int, Bits: 16, Lanes: 2}
	if got := arange(t, i16x2, si(1), si(-2), 2); !slices.Equal(got, []byte{1, 0, 1, 0, 0xff, 0xff, 0xff, 0xff}) {
		t.Errorf("int16 x2 from 1 by -2: %x", got)
	}
}

// TestFromZero writes 0, 1, 2, … in every kind of data type, and checks
// which counts of them each integer type and bool hold.
func TestFromZero(t *testing.T) {
	zero, one := si(0), si(1)
	f8, _ := dlpack.ParseDataType("float8_e4m3fn")
	for _, dt := range []dlpack.DataType{dlpack.Int8, dlpack.Uint16, dlpack.Int32, dlpack.Int64, dlpack.Float16, dlpack.Float32, dlpack.Float64, dlpack.Bfloat16, dlpack.Complex128, dlpack.Bcomplex32, f8} {
		const n = 9
		dst := make([]byte, n*dt.ItemSize())
		if err := Write(dt, dst, zero, one); err != nil {
			t.Fatalf("%v: %v", dt, err)
		}
		for k := 0; k < n; k++ {
			want, _ := scalar.Encode(dt, scalar.Scalar{Kind: scalar.Int, Int: int64(k)})
			if got := dst[k*dt.ItemSize() : (k+1)*dt.ItemSize()]; !slices.Equal(got, want) {
				t.Errorf("%v element %d: %x, want %x", dt, k, got, want)
			}
		}
	}
	tests := []struct {
		dt  dlpack.DataType
		n   int64
		err error
	}{
		{dlpack.Bool, 2, nil}, {dlpack.Bool, 3, ErrBool}, {dlpack.Int8, 128, nil}, {dlpack.Int8, 129, scalar.ErrRange}, {dlpack.Uint8, 256, nil},
		{dlpack.Uint8, 257, scalar.ErrRange}, {dlpack.Int64, math.MaxInt64, nil}, {dlpack.Float16, 1 << 40, nil}, {dlpack.Int8, 0, nil},
	}
	for _, tt := range tests {
		if err := Check(tt.dt, zero, one, tt.n); (err != nil) != (tt.err != nil) || !errors.Is(err, tt.err) {
			t.Errorf("Check(%v, 0, 1, %d) = %v, want %v", tt.dt, tt.n, err, tt.err)
		}
	}
	if err := Write(dlpack.Int8, make([]byte, 200), zero, one); !errors.Is(err, scalar.ErrRange) {
		t.Errorf("int8 from 0 by 1, 200 elements: %v, want ErrRange", err)
	}
}
