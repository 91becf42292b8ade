package dlpack

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"
)

var (
	float4   = DataType{Float4E2M1FN, 4, 1}
	float4x2 = DataType{Float4E2M1FN, 4, 2} // PyTorch's float4_e2m1fn_x2
	float6x4 = DataType{Float6E2M3FN, 6, 4} // 3-byte elements
	f32x4    = DataType{Float, 32, 4}
)

func TestCheckLayout(t *testing.T) {
	tests := []struct {
		name    string
		shape   []int64
		strides []int64
		dt      DataType
		padded  bool
		want    Extent
	}{
		{"0-d", nil, nil, Float64, false,
			Extent{Elements: 1, Low: 0, High: 8, CContiguous: true, FContiguous: true}},
		{"0-d empty slices", []int64{}, []int64{}, Int16, false,
			Extent{Elements: 1, High: 2, CContiguous: true, FContiguous: true}},
		{"vector", []int64{5}, []int64{1}, Float32, false,
			Extent{Elements: 5, High: 20, CContiguous: true, FContiguous: true}},
		{"matrix C order", []int64{2, 3}, []int64{3, 1}, Float32, false,
			Extent{Elements: 6, High: 24, CContiguous: true}},
		{"matrix F order", []int64{2, 3}, []int64{1, 2}, Float32, false,
			Extent{Elements: 6, High: 24, FContiguous: true}},
		{"transposed 3-d", []int64{4, 3, 2}, []int64{1, 4, 12}, Int8, false,
			Extent{Elements: 24, High: 24, FContiguous: true}},
		{"size 0", []int64{3, 0, 4}, []int64{0, 0, 0}, Float32, false,
			Extent{CContiguous: true, FContiguous: true}},
		{"size 0 wild strides", []int64{0, 1 << 62}, []int64{math.MinInt64, math.MaxInt64}, Float64, false,
			Extent{CContiguous: true, FContiguous: true}},
		{"size 1 dims, odd strides", []int64{1, 4, 1}, []int64{-999, 1, 12345}, Float64, false,
			Extent{Elements: 4, High: 32, CContiguous: true, FContiguous: true}},
		{"size 1 dim, extreme stride", []int64{1, 3}, []int64{math.MinInt64, 1}, Uint8, false,
			Extent{Elements: 3, High: 3, CContiguous: true, FContiguous: true}},
		{"all ones", []int64{1, 1, 1}, []int64{7, 0, -3}, Complex128, false,
			Extent{Elements: 1, High: 16, CContiguous: true, FContiguous: true}},
		{"negative stride", []int64{4}, []int64{-1}, Float32, false,
			Extent{Elements: 4, Low: -12, High: 4}},
		{"negative and positive", []int64{3, 4}, []int64{-8, 2}, Int16, false,
			Extent{Elements: 12, Low: -32, High: 14}},
		{"sliced rows", []int64{3, 2}, []int64{10, 1}, Float64, false,
			Extent{Elements: 6, High: 176}},
		{"sliced step 2", []int64{5}, []int64{2}, Int32, false,
			Extent{Elements: 5, High: 36}},
		{"broadcast stride 0", []int64{3, 4}, []int64{0, 1}, Float32, false,
			Extent{Elements: 12, High: 16}},
		{"ndim 64", ones(64), ones(64), Uint8, false,
			Extent{Elements: 1, High: 1, CContiguous: true, FContiguous: true}},
		{"packed float4 even", []int64{2, 4}, []int64{4, 1}, float4, false,
			Extent{Elements: 8, High: 4, CContiguous: true}},
		{"packed float4 odd", []int64{3, 3}, []int64{3, 1}, float4, false,
			Extent{Elements: 9, High: 5, CContiguous: true}},
		{"packed float6", []int64{5}, []int64{1}, DataType{Float6E2M3FN, 6, 1}, false,
			Extent{Elements: 5, High: 4, CContiguous: true, FContiguous: true}},
		{"packed float4 0-d", nil, nil, float4, false,
			Extent{Elements: 1, High: 1, CContiguous: true, FContiguous: true}},
		{"packed float4 empty", []int64{0, 3}, []int64{5, 7}, float4, false,
			Extent{CContiguous: true, FContiguous: true}},
		{"padded float4 strided", []int64{2, 3}, []int64{1, 2}, float4, true,
			Extent{Elements: 6, High: 6, FContiguous: true}},
		{"padded float4 negative", []int64{3}, []int64{-2}, float4, true,
			Extent{Elements: 3, Low: -4, High: 1}},
		{"padded flag ignored for whole bytes", []int64{2}, []int64{1}, Float32, true,
			Extent{Elements: 2, High: 8, CContiguous: true, FContiguous: true}},
		{"largest byte extent", []int64{1<<60 - 1}, []int64{1}, Float64, false,
			Extent{Elements: 1<<60 - 1, High: math.MaxInt64 - 7, CContiguous: true, FContiguous: true}},
		{"lowest byte extent", []int64{1<<60 - 1}, []int64{-1}, Float64, false,
			Extent{Elements: 1<<60 - 1, Low: -(math.MaxInt64 - 15), High: 8}},
		{"packed huge", []int64{math.MaxInt64}, []int64{1}, float4, false,
			Extent{Elements: math.MaxInt64, High: 1 << 62, CContiguous: true, FContiguous: true}},
		// A vector element of whole bytes is no sub-byte type: any strides,
		// padded or not.
		{"float4x2 contiguous", []int64{2, 3}, []int64{3, 1}, float4x2, false,
			Extent{Elements: 6, High: 6, CContiguous: true}},
		{"float4x2 strided, not padded", []int64{3}, []int64{2}, float4x2, false,
			Extent{Elements: 3, High: 5}},
		{"float4x2 padded flag ignored", []int64{3}, []int64{-1}, float4x2, true,
			Extent{Elements: 3, Low: -2, High: 1}},
		{"float6x4 reversed", []int64{4}, []int64{-1}, float6x4, false,
			Extent{Elements: 4, Low: -9, High: 3}},
		{"float32x4 transposed", []int64{2, 3}, []int64{1, 2}, f32x4, false,
			Extent{Elements: 6, High: 96, FContiguous: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := CheckLayout(tt.shape, tt.strides, tt.dt, tt.padded)
			if err != nil {
				t.Fatalf("CheckLayout(%v, %v, %v, %v) = %v", tt.shape, tt.strides, tt.dt, tt.padded, err)
			}
			if got != tt.want {
				t.Errorf("CheckLayout(%v, %v, %v, %v) = %+v, want %+v", tt.shape, tt.strides, tt.dt, tt.padded, got, tt.want)
			}
			if b := got.Bytes(); b != tt.want.High-tt.want.Low {
				t.Errorf("Bytes() = %d", b)
			}
			if c := isCContiguous(tt.shape, tt.strides); c != tt.want.CContiguous {
				t.Errorf("isCContiguous = %v, want %v", c, tt.want.CContiguous)
			}
			if n, ok := ElementCount(tt.shape); !ok || n != tt.want.Elements {
				t.Errorf("ElementCount = %d, %v", n, ok)
			}
		})
	}
}

func ones(n int) []int64 {
	s := make([]int64, n)
	for i := range s {
		s[i] = 1
	}
	return s
}

func TestCheckLayoutErrors(t *testing.T) {
	tests := []struct {
		name    string
		shape   []int64
		strides []int64
		dt      DataType
		padded  bool
		kind    error
		detail  string // must appear in the message
	}{
		{"ndim 65", ones(65), ones(65), Uint8, false, ErrTooManyDims, "ndim 65 exceeds 64"},
		{"ndim 65 nil strides", ones(65), nil, Uint8, false, ErrTooManyDims, "65"},
		{"nil strides", []int64{2}, nil, Float32, false, ErrStridesLength, "nil"},
		{"short strides", []int64{2, 3}, []int64{1}, Float32, false, ErrStridesLength, "len(strides) = 1, len(shape) = 2"},
		{"strides for 0-d", nil, []int64{1}, Float32, false, ErrStridesLength, "len(strides) = 1"},
		{"unknown dtype", []int64{2}, []int64{1}, DataType{Float, 24, 1}, false, ErrUnknownDataType, "code=2, bits=24, lanes=1"},
		{"vector of 12 bits", []int64{2}, []int64{1}, DataType{Float6E2M3FN, 6, 2}, true, ErrUnknownDataType, "code=15, bits=6, lanes=2"},
		{"vector of unknown lanes", []int64{2}, []int64{1}, DataType{Float, 24, 2}, false, ErrUnknownDataType, "code=2, bits=24, lanes=2"},
		{"zero lanes", []int64{2}, []int64{1}, DataType{Float, 32, 0}, false, ErrUnknownDataType, "code=2, bits=32, lanes=0"},
		{"float32x4 byte overflow", []int64{1 << 59}, []int64{1}, f32x4, false, ErrOverflow, "byte extent"},
		{"zero dtype", []int64{2}, []int64{1}, DataType{}, false, ErrUnknownDataType, "code=0, bits=0, lanes=0"},
		{"negative dim", []int64{2, -1}, []int64{1, 1}, Float32, false, ErrNegativeDim, "shape[1] = -1"},
		{"negative dim beside 0", []int64{0, -3}, []int64{1, 1}, Float32, false, ErrNegativeDim, "shape[1] = -3"},
		{"element count overflow", []int64{1 << 32, 1 << 32}, []int64{1 << 32, 1}, Uint8, false, ErrOverflow, "element count"},
		{"element count overflow 3-d", []int64{1 << 21, 1 << 21, 1 << 21}, []int64{1, 1, 1}, Uint8, false, ErrOverflow, "element count"},
		{"byte overflow", []int64{1 << 61}, []int64{1}, Float64, false, ErrOverflow, "byte extent"},
		{"byte overflow by one item", []int64{1 << 60}, []int64{1}, Complex128, false, ErrOverflow, "byte extent"},
		{"stride times extent", []int64{3}, []int64{1 << 62}, Uint8, false, ErrOverflow, "stride 4611686018427387904 times dimension 3"},
		{"negative stride times extent", []int64{3}, []int64{-(1 << 62) - 1}, Uint8, false, ErrOverflow, "stride"},
		{"min stride", []int64{2}, []int64{math.MinInt64}, Uint8, false, ErrOverflow, "byte extent"},
		{"offset sum", []int64{2, 2}, []int64{1 << 62, 1 << 62}, Uint8, false, ErrOverflow, "element offsets"},
		{"negative offset sum", []int64{2, 2, 2}, []int64{-(1 << 62), -(1 << 62), -1}, Uint8, false, ErrOverflow, "element offsets"},
		{"bytes span", []int64{2, 2}, []int64{1 << 61, -(1 << 61)}, Float32, false, ErrOverflow, "byte extent"},
		{"reversed span just over", []int64{1 << 60}, []int64{-1}, Float64, false, ErrOverflow, "byte extent"},
		{"span just over", []int64{2, 2}, []int64{1 << 62, -(1 << 62)}, Uint8, false, ErrOverflow, "byte extent"},
		{"packed float4 strided", []int64{4}, []int64{2}, float4, false, ErrPackedLayout, "float4_e2m1fn with shape [4] and strides [2]"},
		{"packed float4 transposed", []int64{2, 3}, []int64{1, 2}, float4, false, ErrPackedLayout, "strides [1 2]"},
		{"packed float6 reversed", []int64{3}, []int64{-1}, DataType{Float6E3M2FN, 6, 1}, false, ErrPackedLayout, "float6_e3m2fn"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := CheckLayout(tt.shape, tt.strides, tt.dt, tt.padded)
			if err == nil {
				t.Fatalf("CheckLayout(%v, %v, %v, %v) = %+v, want an error", tt.shape, tt.strides, tt.dt, tt.padded, got)
			}
			if got != (Extent{}) {
				t.Errorf("extent %+v returned with error", got)
			}
			var le *LayoutError
			if !errors.As(err, &le) {
				t.Fatalf("error %v (%T) is not a *LayoutError", err, err)
			}
			if !errors.Is(err, tt.kind) || le.Err != tt.kind {
				t.Errorf("error %q is not %v", err, tt.kind)
			}
			if !strings.HasPrefix(err.Error(), "dlpack: ") || !strings.Contains(err.Error(), tt.detail) {
				t.Errorf("error %q does not mention %q", err, tt.detail)
			}
		})
	}
}

func TestElementCount(t *testing.T) {
	tests := []struct {
		shape []int64
		n     int64
		ok    bool
	}{
		{nil, 1, true},
		{[]int64{0}, 0, true},
		{[]int64{7}, 7, true},
		{[]int64{2, 3, 4}, 24, true},
		{[]int64{math.MaxInt64}, math.MaxInt64, true},
		{[]int64{math.MaxInt64, 1}, math.MaxInt64, true},
		{[]int64{1 << 31, 1 << 31, 2}, 0, false},
		{[]int64{1 << 31, 1 << 31, 1}, 1 << 62, true},
		{[]int64{math.MaxInt64, 2}, 0, false},
		{[]int64{1 << 32, 1 << 32, 0}, 0, true},
		{[]int64{-1}, 0, false},
		{[]int64{0, -1}, 0, false},
	}
	for _, tt := range tests {
		n, ok := ElementCount(tt.shape)
		if ok != tt.ok || (ok && n != tt.n) {
			t.Errorf("ElementCount(%v) = %d, %v; want %d, %v", tt.shape, n, ok, tt.n, tt.ok)
		}
		if !ok && n != 0 {
			t.Errorf("ElementCount(%v) = %d with false", tt.shape, n)
		}
	}
}

func TestDenseBytes(t *testing.T) {
	tests := []struct {
		shape, strides []int64
		dt             DataType
		padded         bool
		n              int64
		ok             bool
	}{
		{nil, nil, Float64, false, 8, true},
		{[]int64{0, 5}, []int64{5, 1}, Complex128, false, 0, true},
		{[]int64{2, 3}, []int64{1, 2}, Float32, false, 24, true},
		{[]int64{3, 2}, []int64{-2, 1}, Int16, false, 12, true},
		{[]int64{5}, []int64{1}, float4, false, 3, true}, // packed: 20 bits
		{[]int64{5}, []int64{2}, float4, true, 5, true},  // padded: a byte each
		{[]int64{1 << 60}, []int64{0}, Float64, false, 0, false},
		{[]int64{1<<60 - 1}, []int64{0}, Float64, false, 1<<63 - 8, true},
		{[]int64{1 << 62}, []int64{0}, Float32, false, 0, false},
		{[]int64{1 << 62, 1}, []int64{0, 0}, Uint8, false, 1 << 62, true},
		{[]int64{5}, []int64{0}, float4x2, false, 5, true}, // a byte each, not packed
		{[]int64{5}, []int64{0}, float4x2, true, 5, true},
		{[]int64{2, 3}, []int64{3, 1}, float6x4, false, 18, true},
		{[]int64{3}, []int64{0}, f32x4, false, 48, true},
		{[]int64{1 << 59}, []int64{0}, f32x4, false, 0, false},
	}
	for _, tt := range tests {
		e, err := CheckLayout(tt.shape, tt.strides, tt.dt, tt.padded)
		if err != nil {
			t.Fatalf("CheckLayout(%v, %v, %v): %v", tt.shape, tt.strides, tt.dt, err)
		}
		n, ok := e.DenseBytes(tt.dt, tt.padded)
		if ok != tt.ok || ok && n != tt.n || !ok && n != 0 {
			t.Errorf("shape %v strides %v %v: DenseBytes = %d, %v; want %d, %v", tt.shape, tt.strides, tt.dt, n, ok, tt.n, tt.ok)
		}
	}
}

func TestContiguousStrides(t *testing.T) {
	tests := []struct {
		shape, want []int64
	}{
		{nil, []int64{}},
		{[]int64{5}, []int64{1}},
		{[]int64{2, 3, 4}, []int64{12, 4, 1}},
		{[]int64{2, 0, 4}, []int64{4, 4, 1}},
		{[]int64{1, 1}, []int64{1, 1}},
	}
	for _, tt := range tests {
		got := ContiguousStrides(tt.shape, nil)
		if !slices.Equal(got, tt.want) {
			t.Errorf("ContiguousStrides(%v, nil) = %v, want %v", tt.shape, got, tt.want)
		}
		if !isCContiguous(tt.shape, got) {
			t.Errorf("isCContiguous(%v, %v) = false", tt.shape, got)
		}
		if _, err := CheckLayout(tt.shape, got, Uint8, false); err != nil {
			t.Errorf("CheckLayout of contiguous strides: %v", err)
		}
	}
	// dst with room is reused.
	buf := make([]int64, 1, 8)
	got := ContiguousStrides([]int64{2, 3}, buf)
	if &got[0] != &buf[0] || !slices.Equal(got, []int64{3, 1}) {
		t.Errorf("ContiguousStrides did not write into dst: %v", got)
	}
	// dst too short gets a new slice, leaving dst alone.
	short := []int64{-1}
	got = ContiguousStrides([]int64{2, 3}, short[:0:1])
	if short[0] != -1 || !slices.Equal(got, []int64{3, 1}) {
		t.Errorf("short dst: got %v, dst %v", got, short)
	}
	// Hostile shapes do not panic.
	ContiguousStrides([]int64{math.MaxInt64, math.MaxInt64, -5}, nil)
}

func TestIsCContiguous(t *testing.T) {
	tests := []struct {
		shape, strides []int64
		want           bool
	}{
		{nil, nil, true},
		{[]int64{2, 3}, nil, true},
		{[]int64{2, 3}, []int64{3, 1}, true},
		{[]int64{2, 3}, []int64{1, 2}, false},
		{[]int64{2, 1, 3}, []int64{3, 99, 1}, true},
		{[]int64{2, 3}, []int64{3}, false},
		{[]int64{2, -3}, []int64{3, 1}, false},
		{[]int64{2, 0}, []int64{5, 5}, true},
		{[]int64{4}, []int64{-1}, false},
		{[]int64{4}, []int64{0}, false},
	}
	for _, tt := range tests {
		if got := isCContiguous(tt.shape, tt.strides); got != tt.want {
			t.Errorf("isCContiguous(%v, %v) = %v, want %v", tt.shape, tt.strides, got, tt.want)
		}
	}
}

func TestLayoutErrorString(t *testing.T) {
	tests := []struct {
		err  *LayoutError
		want string
	}{
		{&LayoutError{Err: ErrOverflow}, "dlpack: size overflows int64"},
		{&LayoutError{Err: ErrNegativeDim, Detail: "shape[0] = -2"}, "dlpack: negative dimension: shape[0] = -2"},
	}
	for _, tt := range tests {
		if s := tt.err.Error(); s != tt.want {
			t.Errorf("Error() = %q, want %q", s, tt.want)
		}
	}
}
