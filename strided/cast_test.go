package strided_test

import (
	"fmt"
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
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := make([]float64, len(tt.want)+1) // one more, which must stay untouched
			got[len(tt.want)] = 42
			strided.Cast(unsafe.Pointer(&got[0]), dlpack.Float64, tt.src, tt.strides, tt.shape, tt.from)
			if fmt.Sprint(got[:len(tt.want)]) != fmt.Sprint(tt.want) || got[len(tt.want)] != 42 {
				t.Errorf("Cast = %v, want %v and 42 after", got, tt.want)
			}
		})
	}
}

func TestCastRefuses(t *testing.T) {
	src := []float32{1}
	for _, c := range []struct{ to, from dlpack.DataType }{
		{dlpack.Int32, dlpack.Float32},     // only floats are written
		{dlpack.Float32, dlpack.Complex64}, // a complex has no one float
		{dlpack.Float64, dlpack.Float16},
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
