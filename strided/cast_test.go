package strided_test

import (
	"fmt"
	"math"
	"testing"
	"unsafe"

	"github.com/godlpack/godlpack/dlpack"
	"github.com/godlpack/godlpack/strided"
)

func TestCast(t *testing.T) {
	ints := []int16{1, -2, 3, -4, 5, -6}
	bools := []bool{true, false, true, true}
	floats := []float32{0.5, 1.5, 2.5, 3.5}
	bigs := []uint64{1 << 63, 1, 1<<53 + 1}
	// 1, -2, 0.5, 65504 (the largest), 2**-24 (the smallest subnormal), -0, inf, -inf as float16 codes
	halves := []uint16{0x3c00, 0xc000, 0x3800, 0x7bff, 0x0001, 0x8000, 0x7c00, 0xfc00}
	// 1, -2, 0.5, 3.3895314e38 (the largest), 2**-133 (the smallest subnormal), -0, inf, -inf as bfloat16 codes
	brains := []uint16{0x3f80, 0xc000, 0x3f00, 0x7f7f, 0x0001, 0x8000, 0x7f80, 0xff80}
	inf := math.Inf(1)
	tests := []struct {
		name    string
		src     unsafe.Pointer
		from    dlpack.DataType
		strides []int64
		shape   []int64
		want    []float64
	}{
		{"contiguous int16", unsafe.Pointer(&ints[0]), dlpack.Int16, nil, []int64{2, 3}, []float64{1, -2, 3, -4, 5, -6}},
		{"transposed int16", unsafe.Pointer(&ints[0]), dlpack.Int16, []int64{1, 3}, []int64{3, 2}, []float64{1, -4, -2, 5, 3, -6}},
		{"reversed, every other", unsafe.Pointer(&ints[5]), dlpack.Int16, []int64{-2}, []int64{3}, []float64{-6, -4, -2}},
		{"broadcast", unsafe.Pointer(&ints[2]), dlpack.Int16, []int64{0, 0}, []int64{2, 2}, []float64{3, 3, 3, 3}},
		{"bool", unsafe.Pointer(&bools[0]), dlpack.Bool, nil, []int64{4}, []float64{1, 0, 1, 1}},
		{"float32", unsafe.Pointer(&floats[0]), dlpack.Float32, []int64{2}, []int64{2}, []float64{0.5, 2.5}},
		{"0-d", unsafe.Pointer(&floats[3]), dlpack.Float32, nil, nil, []float64{3.5}},
		{"no elements", unsafe.Pointer(&floats[0]), dlpack.Float32, nil, []int64{3, 0}, []float64{}},
		{"uint64 rounds", unsafe.Pointer(&bigs[0]), dlpack.Uint64, nil, []int64{3}, []float64{1 << 63, 1, 1 << 53}},
		{"float16", unsafe.Pointer(&halves[0]), dlpack.Float16, nil, []int64{2, 4},
			[]float64{1, -2, 0.5, 65504, 0x1p-24, math.Copysign(0, -1), inf, -inf}},
		{"float16 transposed", unsafe.Pointer(&halves[0]), dlpack.Float16, []int64{1, 4}, []int64{4, 2},
			[]float64{1, 0x1p-24, -2, math.Copysign(0, -1), 0.5, inf, 65504, -inf}},
		{"float16 reversed", unsafe.Pointer(&halves[3]), dlpack.Float16, []int64{-1}, []int64{4}, []float64{65504, 0.5, -2, 1}},
		{"bfloat16", unsafe.Pointer(&brains[0]), dlpack.Bfloat16, nil, []int64{8},
			[]float64{1, -2, 0.5, 0x1.fep127, 0x1p-133, math.Copysign(0, -1), inf, -inf}},
		{"bfloat16 every other, reversed", unsafe.Pointer(&brains[6]), dlpack.Bfloat16, []int64{-2}, []int64{4},
			[]float64{inf, 0x1p-133, 0.5, 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := make([]float64, len(tt.want)+1) // one more, which must stay untouched
			got[len(tt.want)] = 42
			strided.Cast(unsafe.Pointer(&got[0]), dlpack.Float64, tt.src, tt.strides, tt.shape, tt.from)
			if !sameBits(got[:len(tt.want)], tt.want) || got[len(tt.want)] != 42 {
				t.Errorf("Cast = %v, want %v and 42 after", got, tt.want)
			}
			// To float32, each value as float32 rounds it (every one here is exact in float32 but 0x1p-133, a subnormal).
			got32 := make([]float32, len(tt.want))
			strided.Cast(unsafe.Pointer(unsafe.SliceData(got32)), dlpack.Float32, tt.src, tt.strides, tt.shape, tt.from)
			for i, w := range tt.want {
				if math.Float32bits(got32[i]) != math.Float32bits(float32(w)) {
					t.Errorf("Cast to float32: [%d] = %v, want %v", i, got32[i], float32(w))
				}
			}
		})
	}
}

func TestCastRefuses(t *testing.T) {
	src := []float32{1}
	for _, c := range []struct{ to, from dlpack.DataType }{
		{dlpack.Int32, dlpack.Float32},     // only floats are written
		{dlpack.Float32, dlpack.Complex64}, // a complex has no one float
		{dlpack.Float64, dlpack.Complex32},
		{dlpack.Float64, dlpack.DataType{Code: dlpack.Float, Bits: 8, Lanes: 1}}, // the float8s are not read
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Cast(%v from %v) did not panic", c.to, c.from)
				}
			}()
			var dst [2]float64
			strided.Cast(unsafe.Pointer(&dst[0]), c.to, unsafe.Pointer(&src[0]), nil, []int64{1}, c.from)
		}()
		if strided.Castable(c.from) && c.from != dlpack.Float32 {
			t.Errorf("Castable(%v) = true", c.from)
		}
	}
}

// A column of int32 values, every third element of a buffer, as float32.
func ExampleCast() {
	src := []int32{1, 0, 0, 2, 0, 0, 3, 0, 0}
	dst := make([]float32, 3)
	strided.Cast(unsafe.Pointer(&dst[0]), dlpack.Float32, unsafe.Pointer(&src[0]), []int64{3}, []int64{3}, dlpack.Int32)
	fmt.Println(dst)
	// Output: [1 2 3]
}

// TestCastNaNs: a NaN of float16 or bfloat16 is a NaN of its sign in either float.
func TestCastNaNs(t *testing.T) {
	for _, c := range []struct {
		from dlpack.DataType
		code uint16
		neg  bool
	}{
		{dlpack.Float16, 0x7e00, false}, {dlpack.Float16, 0xfc01, true},
		{dlpack.Bfloat16, 0x7fc0, false}, {dlpack.Bfloat16, 0xff81, true},
	} {
		var d64 [1]float64
		var d32 [1]float32
		strided.Cast(unsafe.Pointer(&d64[0]), dlpack.Float64, unsafe.Pointer(&c.code), nil, []int64{1}, c.from)
		strided.Cast(unsafe.Pointer(&d32[0]), dlpack.Float32, unsafe.Pointer(&c.code), nil, []int64{1}, c.from)
		if !math.IsNaN(d64[0]) || math.Signbit(d64[0]) != c.neg || d32[0] == d32[0] || math.Signbit(float64(d32[0])) != c.neg {
			t.Errorf("%v %#04x: %v, %v; want NaNs, negative %v", c.from, c.code, d64[0], d32[0], c.neg)
		}
	}
}

// sameBits compares floats bit for bit: -0 is not 0.
func sameBits(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
			return false
		}
	}
	return true
}
