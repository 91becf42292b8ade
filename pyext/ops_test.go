package main

import (
	"errors"
	"fmt"
	"testing"
	"unsafe"

	"github.com/godlpack/godlpack/consumer"
	"github.com/godlpack/godlpack/cpython"
	"github.com/godlpack/godlpack/dlpack"
	"github.com/godlpack/godlpack/ops"
	"github.com/godlpack/godlpack/pymodule"
	"github.com/godlpack/godlpack/scalar"
)

// TestOpError checks the Python exception each kernel error of godlpack.ops raises.
func TestOpError(t *testing.T) {
	tests := []struct {
		err  error
		want cpython.Exception
	}{
		{fmt.Errorf("scale: %w", scalar.ErrRange), cpython.OverflowError},
		{fmt.Errorf("copy: %w", ops.ErrOverlap), cpython.ValueError},
		{consumer.ErrReadOnly, cpython.BufferError},
		{consumer.ErrDType, cpython.TypeError},
		{errors.New("anything else"), cpython.BufferError},
	}
	for _, tt := range tests {
		if got := cpython.ExceptionOf(opError(tt.err)); got != tt.want {
			t.Errorf("opError(%v) raises %d, want %d", tt.err, got, tt.want)
		}
	}
	if opError(nil) != nil {
		t.Error("opError(nil) is not nil")
	}
}

// argument is a writable float32 argument over data, as the binder hands one to a bound function.
func argument(t *testing.T, data []float32, shape, strides []int64) pymodule.Tensor {
	t.Helper()
	e, err := dlpack.CheckLayout(shape, strides, dlpack.Float32, false)
	if err != nil {
		t.Fatal(err)
	}
	return pymodule.Tensor{View: consumer.View{Data: unsafe.Pointer(&data[0]), Shape: shape, Strides: strides,
		DType: dlpack.Float32, Device: dlpack.Device{Type: dlpack.CPU}, Extent: e, Version: dlpack.Current,
		Versioned: true}}
}

// TestOpsAllocateNothing: a call of godlpack.ops on a small tensor, contiguous or
// strided, allocates nothing in Go. A kernel whose goroutines captured the
// caller's view made the argument move to the heap at every call (scale_ of 4
// float32 took 2.0x nanobind's time, from 1.3x).
func TestOpsAllocateNothing(t *testing.T) {
	data, other := make([]float32, 8), make([]float32, 8)
	one := scalar.Scalar{Kind: scalar.Float, Real: 1}
	for _, layout := range []struct{ shape, strides []int64 }{{[]int64{8}, []int64{1}}, {[]int64{2, 2}, []int64{4, 2}}} {
		x, y := argument(t, data, layout.shape, layout.strides), argument(t, other, layout.shape, layout.strides)
		for name, call := range map[string]func(){
			"sum":    func() { _, _ = opsSum(x) },
			"scale_": func() { _ = opsScale(x, one) },
			"dot":    func() { _, _ = opsDot(x, y) },
			"min":    func() { _, _ = opsMin(x) },
			"max":    func() { _, _ = opsMax(x) },
			"copy_":  func() { _ = opsCopy(x, y) },
		} {
			if n := testing.AllocsPerRun(100, call); n != 0 {
				t.Errorf("%s of shape %v, strides %v: %v allocations a call, want 0", name, layout.shape, layout.strides, n)
			}
		}
	}
}
