package consumer_test

import (
	"github.com/godlpack/godlpack/consumer"
	"github.com/godlpack/godlpack/internal/inspecttest"
	"runtime"
	"testing"
	"unsafe"

	"github.com/godlpack/godlpack/dlpack"
)

// TestInspectFastServesCommonTensors checks that the C hot path takes the
// tensors NumPy and PyTorch hand over, with the view Inspect gives, and
// leaves the rest to Inspect: a fast path that accepted nothing would pass
// FuzzInspect too.
func TestInspectFastServesCommonTensors(t *testing.T) {
	data := make([]float64, 64)
	f8 := dlpack.DataType{Code: dlpack.Float8E4M3FN, Bits: 8, Lanes: 1}
	f4 := dlpack.DataType{Code: dlpack.Float4E2M1FN, Bits: 4, Lanes: 1}
	cpu, cuda := dlpack.Device{Type: dlpack.CPU}, dlpack.Device{Type: dlpack.CUDA}
	tests := []struct {
		name      string
		versioned bool
		version   dlpack.Version
		flags     dlpack.Flags
		dt        dlpack.DataType
		dev       dlpack.Device
		shape     []int64
		strides   []int64 // nil: NULL
		offset    uint64
		fast      bool
	}{
		{"1 element", true, dlpack.Current, 0, dlpack.Float32, cpu, []int64{1}, []int64{1}, 0, true},
		{"0-d", true, dlpack.Current, 0, dlpack.Int64, cpu, nil, nil, 0, true},
		{"matrix", true, dlpack.Current, 0, dlpack.Float64, cpu, []int64{4, 8}, []int64{8, 1}, 0, true},
		{"transposed", true, dlpack.Current, dlpack.ReadOnly, dlpack.Float64, cpu, []int64{8, 4}, []int64{1, 8}, 0, true},
		{"reversed", true, dlpack.Current, 0, dlpack.Float64, cpu, []int64{4}, []int64{-1}, 24, true},
		{"broadcast", true, dlpack.Current, 0, dlpack.Float64, cpu, []int64{3, 4}, []int64{0, 1}, 0, true},
		{"empty", true, dlpack.Current, 0, dlpack.Float64, cpu, []int64{0, 4}, []int64{4, 1}, 0, true},
		{"legacy NULL strides", false, dlpack.Version{}, 0, dlpack.Uint8, cpu, []int64{2, 3}, nil, 0, true},
		{"1.1 NULL strides", true, dlpack.Version{Major: 1, Minor: 1}, 0, dlpack.Bool, cpu, []int64{6}, nil, 0, true},
		{"float8", true, dlpack.Current, 0, f8, cpu, []int64{5}, []int64{1}, 0, true},
		{"copied", true, dlpack.Current, dlpack.IsCopied, dlpack.Complex128, cpu, []int64{2}, []int64{1}, 0, true},
		{"CUDA host", true, dlpack.Current, 0, dlpack.Float32, dlpack.Device{Type: dlpack.CUDAHost}, []int64{2}, []int64{1}, 0, true},
		// Left to Inspect.
		{"CUDA", true, dlpack.Current, 0, dlpack.Float32, cuda, []int64{2}, []int64{1}, 0, false},
		{"float4", true, dlpack.Current, 0, f4, cpu, []int64{4}, []int64{1}, 0, false},
		{"newer minor", true, dlpack.Version{Major: 1, Minor: 9}, 0, dlpack.Float32, cpu, []int64{2}, []int64{1}, 0, false},
		{"1.2 NULL strides", true, dlpack.Version{Major: 1, Minor: 2}, 0, dlpack.Float32, cpu, []int64{2}, nil, 0, false},
		{"unknown flag", true, dlpack.Current, 1 << 5, dlpack.Float32, cpu, []int64{2}, []int64{1}, 0, false},
		{"negative dim", true, dlpack.Current, 0, dlpack.Float32, cpu, []int64{-2}, []int64{1}, 0, false},
		{"vector", true, dlpack.Current, 0, dlpack.DataType{Code: dlpack.Float, Bits: 32, Lanes: 4}, cpu, []int64{2}, []int64{1}, 0, true},
		{"float4 x2", true, dlpack.Current, 0, dlpack.DataType{Code: dlpack.Float4E2M1FN, Bits: 4, Lanes: 2}, cpu, []int64{2}, []int64{1}, 0, true},
		{"float6 x2", true, dlpack.Current, 0, dlpack.DataType{Code: dlpack.Float6E2M3FN, Bits: 6, Lanes: 2}, cpu, []int64{2}, []int64{1}, 0, false},
	}
	// cgo lets C read Go memory holding Go pointers only while it is pinned.
	var pin runtime.Pinner
	defer pin.Unpin()
	pin.Pin(&data[0])
	for _, tt := range tests {
		if len(tt.shape) > 0 {
			pin.Pin(&tt.shape[0])
		}
		if len(tt.strides) > 0 {
			pin.Pin(&tt.strides[0])
		}
		tensor := dlpack.Tensor{Data: unsafe.Pointer(&data[0]), Device: tt.dev, NDim: int32(len(tt.shape)), DType: tt.dt,
			ByteOffset: tt.offset}
		if len(tt.shape) > 0 {
			tensor.Shape = &tt.shape[0]
			if tt.strides != nil {
				tensor.Strides = &tt.strides[0]
			}
		}
		var m dlpack.Managed
		if tt.versioned {
			mv := &dlpack.ManagedTensorVersioned{Version: tt.version, Flags: tt.flags, DLTensor: tensor}
			pin.Pin(mv)
			m = dlpack.Managed{Pointer: unsafe.Pointer(mv), Versioned: true}
		} else {
			ml := &dlpack.ManagedTensor{DLTensor: tensor}
			pin.Pin(ml)
			m = dlpack.Managed{Pointer: unsafe.Pointer(ml)}
		}
		var buf [dlpack.MaxNDim]int64
		want, err := consumer.Inspect(m, buf[:])
		var fastBuf [dlpack.MaxNDim]int64
		if _, ok := inspecttest.Inspect(m, &fastBuf); ok != tt.fast {
			t.Errorf("%s: gdl_inspect accepted = %v, want %v (Inspect: %v)", tt.name, ok, tt.fast, err)
		}
		if tt.fast && err != nil {
			t.Errorf("%s: consumer.Inspect refuses a tensor the table says is fine: %v", tt.name, err)
		}
		checkFastPath(t, m, want, err)
	}
}
