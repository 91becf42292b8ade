package pymodule_test

import (
	"fmt"
	"slices"
	"testing"
	"unsafe"

	"github.com/godlpack/godlpack/consumer"
	"github.com/godlpack/godlpack/dlpack"
	"github.com/godlpack/godlpack/pymodule"
)

// tensorOver views data as a float32 tensor of the given shape and strides (in elements).
func tensorOver(t *testing.T, data []float32, shape, strides []int64) pymodule.Tensor {
	t.Helper()
	e, err := dlpack.CheckLayout(shape, strides, dlpack.Float32, false)
	if err != nil {
		t.Fatalf("CheckLayout(%v, %v): %v", shape, strides, err)
	}
	return pymodule.Tensor{View: consumer.View{Data: unsafe.Pointer(&data[0]), Shape: shape, Strides: strides,
		DType: dlpack.Float32, Device: dlpack.Device{Type: dlpack.CPU}, Extent: e}}
}

// collect reads the values Elements yields, stopping after limit of them (all when limit < 0).
func collect(x pymodule.Tensor, limit int) []float32 {
	var got []float32
	for p := range pymodule.Elements[float32](x) {
		if len(got) == limit {
			break
		}
		got = append(got, *p)
	}
	return got
}

func TestElements(t *testing.T) {
	data := []float32{0, 1, 2, 3, 4, 5}
	tests := []struct {
		name           string
		shape, strides []int64
		want           []float32
		limit          int
	}{
		{"C-contiguous", []int64{2, 3}, []int64{3, 1}, []float32{0, 1, 2, 3, 4, 5}, -1},
		{"C-contiguous, stopped", []int64{2, 3}, []int64{3, 1}, []float32{0, 1}, 2},
		{"C-contiguous, a size-1 dimension of any stride", []int64{1, 6}, []int64{99, 1}, []float32{0, 1, 2, 3, 4, 5}, -1},
		{"transposed", []int64{3, 2}, []int64{1, 3}, []float32{0, 3, 1, 4, 2, 5}, -1},
		{"transposed, stopped", []int64{3, 2}, []int64{1, 3}, []float32{0, 3, 1}, 3},
		{"every other", []int64{3}, []int64{2}, []float32{0, 2, 4}, -1},
		{"0-d", []int64{}, []int64{}, []float32{0}, -1},
		{"empty", []int64{2, 0}, []int64{0, 1}, nil, -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := collect(tensorOver(t, data, tt.shape, tt.strides), tt.limit); !slices.Equal(got, tt.want) {
				t.Errorf("Elements of shape %v strides %v gave %v, want %v", tt.shape, tt.strides, got, tt.want)
			}
		})
	}
}

// Elements of another Go type than the dtype's panics, on a dense tensor as on a strided one.
func TestElementsWrongType(t *testing.T) {
	data := []float32{0, 1, 2, 3}
	for _, strides := range [][]int64{{1}, {2}} {
		x := tensorOver(t, data, []int64{2}, strides)
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Elements[float64] of a float32 tensor of strides %v did not panic", strides)
				}
			}()
			for range pymodule.Elements[float64](x) {
			}
		}()
	}
}

// A row of a matrix has the layout CheckLayout gives its shape and strides, and starts at its first element.
func TestIndex(t *testing.T) {
	data := make([]float32, 12)
	tests := []struct {
		shape, strides []int64
		row            int64
	}{
		{[]int64{3, 4}, []int64{4, 1}, 2},
		{[]int64{3, 1}, []int64{1, 7}, 1},
		{[]int64{4}, []int64{1}, 3},
		{[]int64{2, 2, 3}, []int64{6, 3, 1}, 1},
		{[]int64{4, 3}, []int64{1, 4}, 3},
		{[]int64{3, 2}, []int64{4, 2}, 1},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.shape, tt.strides), func(t *testing.T) {
			x := tensorOver(t, data, tt.shape, tt.strides)
			r := x.Index(tt.row)
			want, err := dlpack.CheckLayout(tt.shape[1:], tt.strides[1:], dlpack.Float32, false)
			if err != nil {
				t.Fatal(err)
			}
			if r.Extent != want {
				t.Errorf("row %d has extent %+v, want %+v", tt.row, r.Extent, want)
			}
			if off := uintptr(r.Data) - uintptr(x.Data); off != uintptr(tt.row*tt.strides[0]*4) {
				t.Errorf("row %d starts %d bytes in, want %d", tt.row, off, tt.row*tt.strides[0]*4)
			}
		})
	}
}

// TestSlice: a tensor whose declaration guarantees its dtype and order is
// its elements, read through consumer.Slice with no allocation; any other
// panics, saying what it is.
func TestSlice(t *testing.T) {
	data := []float32{0, 1, 2, 3, 4, 5}
	x := tensorOver(t, data, []int64{2, 3}, []int64{3, 1})
	if s := pymodule.Slice[float32](x); len(s) != 6 || &s[0] != &data[0] {
		t.Errorf("Slice = %v at %p, want the 6 elements at %p", s, s, &data[0])
	}
	if n := testing.AllocsPerRun(100, func() { _ = pymodule.Slice[float32](x) }); n != 0 {
		t.Errorf("Slice allocates %v times a call, want 0", n)
	}
	for _, tt := range []struct {
		name string
		x    pymodule.Tensor
		call func(pymodule.Tensor)
		want string
	}{
		{"dtype", x, func(x pymodule.Tensor) { pymodule.Slice[int32](x) },
			"pymodule.Slice[int32]: consumer: data type mismatch: the tensor holds float32, not int32"},
		{"order", tensorOver(t, data, []int64{3, 2}, []int64{1, 3}), func(x pymodule.Tensor) { pymodule.Slice[float32](x) },
			"pymodule.Slice[float32]: consumer: layout mismatch: shape [3 2] with strides [1 3] is not C-contiguous"},
	} {
		func() {
			defer func() {
				if got := fmt.Sprint(recover()); got != tt.want {
					t.Errorf("%s: Slice panicked with %q, want %q", tt.name, got, tt.want)
				}
			}()
			tt.call(tt.x)
		}()
	}
}
