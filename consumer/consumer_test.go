package consumer_test

import (
	"errors"
	"github.com/godlpack/godlpack/consumer"
	"math"
	"runtime"
	"strings"
	"testing"
	"unsafe"

	"github.com/godlpack/godlpack/dlpack"
)

// spec describes a managed tensor for a table test. Shape and strides are
// given as slices; nilShape and nilStrides leave the pointers NULL while
// ndim still claims len(shape) (or ndim when set).
type spec struct {
	legacy     bool
	version    dlpack.Version
	flags      dlpack.Flags
	ndim       *int32
	shape      []int64
	strides    []int64
	nilShape   bool
	nilStrides bool
	dt         dlpack.DataType
	dev        dlpack.Device
	data       unsafe.Pointer
	offset     uint64
}

// managed builds the tensor s describes in Go memory, pinned until the test
// ends (Inspect hands it to C, which may read only pinned Go memory).
func (s spec) managed(t testing.TB) (unsafe.Pointer, bool) {
	var pin runtime.Pinner
	t.Cleanup(pin.Unpin)
	m, versioned := s.build()
	pin.Pin(m)
	if len(s.shape) > 0 {
		pin.Pin(&s.shape[0])
	}
	if len(s.strides) > 0 {
		pin.Pin(&s.strides[0])
	}
	return m, versioned
}

func (s spec) build() (unsafe.Pointer, bool) {
	var t dlpack.Tensor
	t.Data = s.data
	t.Device = s.dev
	t.DType = s.dt
	t.ByteOffset = s.offset
	t.NDim = int32(len(s.shape))
	if s.ndim != nil {
		t.NDim = *s.ndim
	}
	if len(s.shape) > 0 && !s.nilShape {
		t.Shape = &s.shape[0]
	}
	if len(s.strides) > 0 && !s.nilStrides {
		t.Strides = &s.strides[0]
	}
	if s.legacy {
		return unsafe.Pointer(&dlpack.ManagedTensor{DLTensor: t}), false
	}
	return unsafe.Pointer(&dlpack.ManagedTensorVersioned{Version: s.version, Flags: s.flags, DLTensor: t}), true
}

func ndim(n int32) *int32 { return &n }

var (
	buffer [256]byte
	data   = unsafe.Pointer(&buffer[0])
	v13    = dlpack.Current
	cpu    = dlpack.Device{Type: dlpack.CPU}
	cuda   = dlpack.Device{Type: dlpack.CUDA, ID: 1}
	float4 = dlpack.DataType{Code: dlpack.Float4E2M1FN, Bits: 4, Lanes: 1}
	// float4x2 is PyTorch's float4_e2m1fn_x2: two float4 values a byte.
	float4x2 = dlpack.DataType{Code: dlpack.Float4E2M1FN, Bits: 4, Lanes: 2}
	top      = unsafe.Add(nil, -(1 << 20)) // 1 MiB below the top of the address space, never read
	lowAddr  = unsafe.Add(nil, 1<<20)      // 1 MiB above 0, never read
)

func TestInspectRefuses(t *testing.T) {
	tests := []struct {
		name    string
		s       spec
		version bool  // a *Error with Version set
		is      error // wrapped by the error, when not nil
		msg     string
	}{
		{"major 0 in a versioned struct", spec{version: dlpack.Version{Major: 0, Minor: 9}, shape: []int64{2}, strides: []int64{1}, dt: dlpack.Float32, dev: cpu, data: data},
			true, nil, "version 0.9 is not supported"},
		{"major too new", spec{version: dlpack.Version{Major: 2}, shape: []int64{2}, strides: []int64{1}, dt: dlpack.Float32, dev: cpu, data: data},
			true, nil, "version 2.0"},
		{"unknown flag bit", spec{version: v13, flags: 1 << 3, shape: []int64{2}, strides: []int64{1}, dt: dlpack.Float32, dev: cpu, data: data},
			false, nil, "unknown flag bits 0x8"},
		{"negative ndim", spec{version: v13, ndim: ndim(-1), dt: dlpack.Float32, dev: cpu, data: data},
			false, nil, "ndim -1 is out of range"},
		{"ndim 65", spec{legacy: true, ndim: ndim(65), dt: dlpack.Float32, dev: cpu, data: data},
			false, nil, "ndim 65 is out of range"},
		{"ndim MinInt32", spec{version: v13, ndim: ndim(math.MinInt32), dt: dlpack.Float32, dev: cpu, data: data},
			false, nil, "out of range"},
		{"NULL shape", spec{version: v13, shape: []int64{2}, nilShape: true, strides: []int64{1}, dt: dlpack.Float32, dev: cpu, data: data},
			false, nil, "shape is NULL with ndim 1"},
		{"NULL strides in 1.2", spec{version: dlpack.Version{Major: 1, Minor: 2}, shape: []int64{2}, nilStrides: true, dt: dlpack.Float32, dev: cpu, data: data},
			false, nil, "strides are NULL"},
		{"NULL strides in 1.3", spec{version: v13, shape: []int64{2, 2}, nilStrides: true, dt: dlpack.Float32, dev: cpu, data: data},
			false, nil, "strides are NULL"},
		{"negative dimension", spec{version: v13, shape: []int64{2, -1}, strides: []int64{1, 1}, dt: dlpack.Float32, dev: cpu, data: data},
			false, dlpack.ErrNegativeDim, "shape[1] = -1"},
		{"element count overflow", spec{legacy: true, shape: []int64{1 << 32, 1 << 32}, strides: []int64{0, 0}, dt: dlpack.Uint8, dev: cpu, data: data},
			false, dlpack.ErrOverflow, "element count"},
		{"stride overflow", spec{version: v13, shape: []int64{3}, strides: []int64{math.MaxInt64 / 2}, dt: dlpack.Float64, dev: cpu, data: data},
			false, dlpack.ErrOverflow, ""},
		{"byte extent overflow", spec{version: v13, shape: []int64{2}, strides: []int64{math.MaxInt64 / 8}, dt: dlpack.Float64, dev: cpu, data: data},
			false, dlpack.ErrOverflow, "byte extent"},
		{"unknown dtype on the CPU", spec{version: v13, shape: []int64{2}, strides: []int64{1}, dt: dlpack.DataType{Code: 99, Bits: 8, Lanes: 1}, dev: cpu, data: data},
			false, dlpack.ErrUnknownDataType, "code=99, bits=8, lanes=1"},
		{"vector of 12-bit elements", spec{version: v13, shape: []int64{2}, strides: []int64{1}, dt: dlpack.DataType{Code: dlpack.Float6E2M3FN, Bits: 6, Lanes: 2}, dev: cpu, data: data},
			false, dlpack.ErrUnknownDataType, "code=15, bits=6, lanes=2"},
		{"vector of unknown lanes", spec{version: v13, shape: []int64{2}, strides: []int64{1}, dt: dlpack.DataType{Code: dlpack.Float, Bits: 24, Lanes: 4}, dev: cpu, data: data},
			false, dlpack.ErrUnknownDataType, "lanes=4"},
		{"zero lanes", spec{version: v13, shape: []int64{2}, strides: []int64{1}, dt: dlpack.DataType{Code: dlpack.Float, Bits: 32, Lanes: 0}, dev: cpu, data: data},
			false, dlpack.ErrUnknownDataType, "lanes=0"},
		{"float4 x2, known, on CUDA, bad layout", spec{version: v13, shape: []int64{-2}, strides: []int64{1}, dt: float4x2, dev: cuda, data: data},
			false, dlpack.ErrNegativeDim, ""},
		{"zero bits", spec{version: v13, shape: []int64{2}, strides: []int64{1}, dt: dlpack.DataType{Code: dlpack.Int, Bits: 0, Lanes: 1}, dev: cpu, data: data},
			false, dlpack.ErrUnknownDataType, "bits=0"},
		{"unknown dtype, known, on CUDA host", spec{version: v13, shape: []int64{2}, strides: []int64{1}, dt: dlpack.DataType{Code: 3, Bits: 64, Lanes: 1}, dev: dlpack.Device{Type: dlpack.CUDAHost}, data: data},
			false, dlpack.ErrUnknownDataType, ""},
		{"known dtype on CUDA, bad layout", spec{version: v13, shape: []int64{2, -3}, strides: []int64{1, 1}, dt: dlpack.Float32, dev: cuda, data: data},
			false, dlpack.ErrNegativeDim, ""},
		{"unknown dtype on CUDA, count overflow", spec{version: v13, shape: []int64{1 << 40, 1 << 40}, strides: []int64{1, 1}, dt: dlpack.DataType{Code: 99, Bits: 12, Lanes: 3}, dev: cuda, data: data},
			false, nil, "too many elements"},
		{"broadcast beyond 2**63 bytes", spec{version: v13, shape: []int64{1<<62 + 1}, strides: []int64{0}, dt: dlpack.Float32, dev: cpu, data: data},
			false, nil, "4611686018427387905 elements of float32 take more than 2**63 bytes"},
		{"unknown dtype on CUDA beyond 2**63 bytes", spec{version: v13, shape: []int64{1 << 62}, strides: []int64{1}, dt: dlpack.DataType{Code: 99, Bits: 64, Lanes: 1}, dev: cuda, data: data},
			false, nil, "4611686018427387904 elements of dtype(code=99, bits=64, lanes=1) take more than 2**63 bytes"},
		{"packed float4, strided", spec{version: v13, shape: []int64{4}, strides: []int64{2}, dt: float4, dev: cpu, data: data},
			false, dlpack.ErrPackedLayout, ""},
		{"NULL data", spec{version: v13, shape: []int64{3}, strides: []int64{1}, dt: dlpack.Float32, dev: cpu},
			false, nil, "data is NULL for 3 elements"},
		{"NULL data, 0-d", spec{legacy: true, dt: dlpack.Int8, dev: cpu},
			false, nil, "data is NULL for 1 elements"},
		{"byte_offset wraps the address space", spec{version: v13, shape: []int64{1}, strides: []int64{1}, dt: dlpack.Uint8, dev: cpu, data: top, offset: 1 << 20},
			false, nil, "overflows the address space"},
		{"byte_offset max", spec{version: v13, shape: []int64{0}, strides: []int64{1}, dt: dlpack.Uint8, dev: cpu, data: data, offset: math.MaxUint64},
			false, nil, "byte_offset"},
		{"extent past the top", spec{version: v13, shape: []int64{1 << 20}, strides: []int64{1}, dt: dlpack.Uint8, dev: cpu, data: top},
			false, nil, "overflows the address space"},
		{"extent below 0", spec{version: v13, shape: []int64{3}, strides: []int64{-(1 << 20)}, dt: dlpack.Uint8, dev: cpu, data: lowAddr},
			false, nil, "overflows the address space"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m, versioned := tc.s.managed(t)
			v, err := consumer.Inspect(dlpack.Managed{Pointer: m, Versioned: versioned}, nil)
			if err == nil {
				t.Fatalf("accepted: %+v", v)
			}
			if v.Data != nil {
				t.Errorf("refused view has Data %p", v.Data)
			}
			var ce *consumer.Error
			if gotVersion := errors.As(err, &ce) && ce.Version; gotVersion != tc.version {
				t.Errorf("error %v: Version = %v, want %v", err, gotVersion, tc.version)
			}
			if tc.is != nil && !errors.Is(err, tc.is) {
				t.Errorf("error %v does not wrap %v", err, tc.is)
			}
			if !hasPackagePrefix(err) || !strings.Contains(err.Error(), tc.msg) {
				t.Errorf("error %q, want one starting with \"consumer: \" or \"dlpack: \" and containing %q", err, tc.msg)
			}
		})
	}
}

func TestInspectNil(t *testing.T) {
	for _, versioned := range []bool{false, true} {
		if _, err := consumer.Inspect(dlpack.Managed{Versioned: versioned}, nil); err == nil || !strings.Contains(err.Error(), "NULL") {
			t.Errorf("Inspect(nil, %v) = %v, want an error naming NULL", versioned, err)
		}
	}
}

func TestInspectAccepts(t *testing.T) {
	v11 := dlpack.Version{Major: 1, Minor: 1}
	tests := []struct {
		name        string
		s           spec
		wantStrides []int64
		wantExtent  dlpack.Extent
		readOnly    bool
		copied      bool
	}{
		{"legacy, NULL strides", spec{legacy: true, shape: []int64{2, 3}, nilStrides: true, dt: dlpack.Float32, dev: cpu, data: data},
			[]int64{3, 1}, dlpack.Extent{Elements: 6, High: 24, DenseBytes: 24, CContiguous: true}, true, false},
		{"1.1, NULL strides, a zero dimension", spec{version: v11, shape: []int64{2, 0, 3}, nilStrides: true, dt: dlpack.Float32, dev: cpu, data: data},
			[]int64{3, 3, 1}, dlpack.Extent{CContiguous: true, FContiguous: true}, false, false},
		{"read-only and copied", spec{version: v13, flags: dlpack.ReadOnly | dlpack.IsCopied, shape: []int64{4}, strides: []int64{1}, dt: dlpack.Int16, dev: cpu, data: data},
			[]int64{1}, dlpack.Extent{Elements: 4, High: 8, DenseBytes: 8, CContiguous: true, FContiguous: true}, true, true},
		{"negative strides with byte_offset", spec{version: v13, shape: []int64{3, 2}, strides: []int64{-2, 1}, dt: dlpack.Float64, dev: cpu, data: data, offset: 32},
			[]int64{-2, 1}, dlpack.Extent{Elements: 6, Low: -32, High: 16, DenseBytes: 48}, false, false},
		{"NULL data, size 0", spec{version: v13, shape: []int64{0, 5}, strides: []int64{5, 1}, dt: dlpack.Float32, dev: cpu},
			[]int64{5, 1}, dlpack.Extent{CContiguous: true, FContiguous: true}, false, false},
		// NULL + byte_offset is no address: Data stays nil rather than
		// becoming a pointer below 4096, which checkptr (-race) rejects.
		{"NULL data, size 0, byte_offset", spec{version: v13, shape: []int64{0}, strides: []int64{1}, dt: dlpack.Float32, dev: cpu, offset: 8},
			[]int64{1}, dlpack.Extent{CContiguous: true, FContiguous: true}, false, false},
		{"0-d, newer minor", spec{version: dlpack.Version{Major: 1, Minor: 99}, dt: dlpack.Complex128, dev: cpu, data: data},
			nil, dlpack.Extent{Elements: 1, High: 16, DenseBytes: 16, CContiguous: true, FContiguous: true}, false, false},
		{"packed float4", spec{version: v13, shape: []int64{3, 3}, strides: []int64{3, 1}, dt: float4, dev: cpu, data: data},
			[]int64{3, 1}, dlpack.Extent{Elements: 9, High: 5, DenseBytes: 5, CContiguous: true}, false, false},
		{"float4 x2, strided", spec{version: v13, shape: []int64{2, 3}, strides: []int64{1, 2}, dt: float4x2, dev: cpu, data: data},
			[]int64{1, 2}, dlpack.Extent{Elements: 6, High: 6, DenseBytes: 6, FContiguous: true}, false, false},
		{"float4 x2, packed flag irrelevant", spec{version: v13, flags: dlpack.IsSubbyteTypePadded, shape: []int64{4}, strides: []int64{-1}, dt: float4x2, dev: cpu, data: data, offset: 3},
			[]int64{-1}, dlpack.Extent{Elements: 4, Low: -3, High: 1, DenseBytes: 4}, false, false},
		{"float32 x4 on CUDA", spec{version: v13, shape: []int64{3}, strides: []int64{1}, dt: dlpack.DataType{Code: dlpack.Float, Bits: 32, Lanes: 4}, dev: cuda, data: data},
			[]int64{1}, dlpack.Extent{Elements: 3, High: 48, DenseBytes: 48, CContiguous: true, FContiguous: true}, false, false},
		{"12-bit vector passed through on CUDA", spec{version: v13, shape: []int64{5}, strides: []int64{1}, dt: dlpack.DataType{Code: dlpack.Float6E2M3FN, Bits: 6, Lanes: 2}, dev: cuda, data: data},
			[]int64{1}, dlpack.Extent{Elements: 5}, false, false},
		{"unknown dtype passed through on CUDA", spec{version: v13, shape: []int64{2, 2}, strides: []int64{99, -7}, dt: dlpack.DataType{Code: 99, Bits: 12, Lanes: 3}, dev: cuda, data: data},
			[]int64{99, -7}, dlpack.Extent{Elements: 4}, false, false},
		{"broadcast just within 2**63 bytes", spec{version: v13, shape: []int64{1<<60 - 1}, strides: []int64{0}, dt: dlpack.Float64, dev: cpu, data: data},
			[]int64{0}, dlpack.Extent{Elements: 1<<60 - 1, High: 8, DenseBytes: 1<<63 - 8}, false, false},
		{"extent just below the top", spec{version: v13, shape: []int64{1<<20 - 1}, strides: []int64{1}, dt: dlpack.Uint8, dev: cpu, data: top},
			[]int64{1}, dlpack.Extent{Elements: 1<<20 - 1, High: 1<<20 - 1, DenseBytes: 1<<20 - 1, CContiguous: true, FContiguous: true}, false, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m, versioned := tc.s.managed(t)
			var buf [dlpack.MaxNDim]int64
			v, err := consumer.Inspect(dlpack.Managed{Pointer: m, Versioned: versioned}, buf[:])
			if err != nil {
				t.Fatalf("refused: %v", err)
			}
			var want unsafe.Pointer
			if tc.s.data != nil {
				want = unsafe.Add(tc.s.data, tc.s.offset)
			}
			if v.Data != want {
				t.Errorf("Data = %p, want %p", v.Data, want)
			}
			if len(v.Strides) != len(tc.wantStrides) {
				t.Fatalf("strides %v, want %v", v.Strides, tc.wantStrides)
			}
			for i := range v.Strides {
				if v.Strides[i] != tc.wantStrides[i] {
					t.Fatalf("strides %v, want %v", v.Strides, tc.wantStrides)
				}
			}
			if v.Extent != tc.wantExtent {
				t.Errorf("extent %+v, want %+v", v.Extent, tc.wantExtent)
			}
			if v.ReadOnly() != tc.readOnly || v.Copied() != tc.copied {
				t.Errorf("ReadOnly %v Copied %v, want %v %v", v.ReadOnly(), v.Copied(), tc.readOnly, tc.copied)
			}
		})
	}
}

// TestInspectNoAlloc checks that a valid tensor is described without
// allocating, even when its strides are computed.
func TestInspectNoAlloc(t *testing.T) {
	for _, s := range []spec{
		{legacy: true, shape: []int64{2, 3}, nilStrides: true, dt: dlpack.Float32, dev: cpu, data: data},
		{version: v13, shape: []int64{4}, strides: []int64{1}, dt: float4x2, dev: cpu, data: data},
		// dtypes that Check refuses, passed through on a device
		{version: v13, shape: []int64{4}, strides: []int64{1}, dt: dlpack.DataType{Code: dlpack.Float6E2M3FN, Bits: 6, Lanes: 2}, dev: cuda, data: data},
		{version: v13, shape: []int64{4}, strides: []int64{1}, dt: dlpack.DataType{Code: 99, Bits: 8, Lanes: 1}, dev: cuda, data: data},
	} {
		m, versioned := s.managed(t)
		var buf [dlpack.MaxNDim]int64
		allocs := testing.AllocsPerRun(100, func() {
			if _, err := consumer.Inspect(dlpack.Managed{Pointer: m, Versioned: versioned}, buf[:]); err != nil {
				t.Fatal(err)
			}
		})
		if allocs != 0 {
			t.Errorf("Inspect of %v on %v allocated %v times per call", s.dt, s.dev, allocs)
		}
	}
}

// On a device the host cannot read, Inspect checks the layout of exactly
// the dtypes that Check accepts, and passes the others through.
func TestInspectChecksLayoutOfValidDTypes(t *testing.T) {
	for code := 0; code < 32; code++ {
		for bits := 0; bits < 256; bits++ {
			for _, lanes := range []uint16{0, 1, 2, 3, 4, 8} {
				dt := dlpack.DataType{Code: dlpack.Code(code), Bits: uint8(bits), Lanes: lanes}
				m, versioned := spec{version: v13, shape: []int64{-1}, strides: []int64{1}, dt: dt, dev: cuda, data: data}.managed(t)
				_, err := consumer.Inspect(dlpack.Managed{Pointer: m, Versioned: versioned}, nil)
				if checked := errors.Is(err, dlpack.ErrNegativeDim); checked != (dt.Check() == nil) {
					t.Errorf("%v on CUDA: consumer.Inspect = %v; Check = %v", dt, err, dt.Check())
				}
			}
		}
	}
}

// hasPackagePrefix reports whether err's message names the package that
// made it: "consumer: " for an *Error, "dlpack: " for dlpack's errors.
func hasPackagePrefix(err error) bool {
	var ce *consumer.Error
	if errors.As(err, &ce) {
		return strings.HasPrefix(err.Error(), "consumer: ")
	}
	return strings.HasPrefix(err.Error(), "dlpack: ")
}
