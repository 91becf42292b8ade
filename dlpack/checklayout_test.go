//go:build cgo

package dlpack

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"
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
		{"one element, one dimension, extreme stride", []int64{1}, []int64{math.MinInt64}, Float32, false,
			Extent{Elements: 1, High: 4, CContiguous: true, FContiguous: true}},
		{"one element, one dimension, stride 0", []int64{1}, []int64{0}, Int64, false,
			Extent{Elements: 1, High: 8, CContiguous: true, FContiguous: true}},
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
			// A copy takes a byte per element for padded sub-byte data
			// and the packed bytes, which are the extent, for packed data.
			want := tt.want
			if want.DenseBytes = want.Elements * int64(tt.dt.StorageSize(true)); tt.dt.SubByte() && !tt.padded {
				want.DenseBytes = want.High
			}
			if got != want {
				t.Errorf("CheckLayout(%v, %v, %v, %v) = %+v, want %+v", tt.shape, tt.strides, tt.dt, tt.padded, got, want)
			}
			if b := got.Bytes(); b != tt.want.High-tt.want.Low {
				t.Errorf("Bytes() = %d", b)
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

// The element count is the product of the shape, 0 when a dimension is 0
// however large the others are, and refused when it overflows.
func TestElementCount(t *testing.T) {
	tests := []struct {
		shape []int64
		n     int64
		kind  error // nil when valid
	}{
		{nil, 1, nil},
		{[]int64{0}, 0, nil},
		{[]int64{7}, 7, nil},
		{[]int64{2, 3, 4}, 24, nil},
		{[]int64{math.MaxInt64}, math.MaxInt64, nil},
		{[]int64{math.MaxInt64, 1}, math.MaxInt64, nil},
		{[]int64{1 << 31, 1 << 31, 2}, 0, ErrOverflow},
		{[]int64{1 << 31, 1 << 31, 1}, 1 << 62, nil},
		{[]int64{math.MaxInt64, 2}, 0, ErrOverflow},
		{[]int64{1 << 32, 1 << 32, 0}, 0, nil},
		{[]int64{-1}, 0, ErrNegativeDim},
		{[]int64{0, -1}, 0, ErrNegativeDim},
	}
	for _, tt := range tests {
		e, err := CheckLayout(tt.shape, ContiguousStrides(tt.shape, nil), Uint8, false)
		if !errors.Is(err, tt.kind) || tt.kind == nil && err != nil || e.Elements != tt.n {
			t.Errorf("CheckLayout(%v) = %d elements, %v; want %d, %v", tt.shape, e.Elements, err, tt.n, tt.kind)
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
		if !tt.ok {
			// A stride of 0 keeps the extent small; the copy is what overflows.
			if !errors.Is(err, ErrOverflow) || !strings.Contains(err.Error(), "take more than 2**63 bytes") {
				t.Errorf("shape %v strides %v %v: CheckLayout = %+v, %v; want an overflow of the copy", tt.shape, tt.strides, tt.dt, e, err)
			}
			continue
		}
		if err != nil || e.DenseBytes != tt.n {
			t.Errorf("shape %v strides %v %v: DenseBytes = %d, %v; want %d", tt.shape, tt.strides, tt.dt, e.DenseBytes, err, tt.n)
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
		if e, err := CheckLayout(tt.shape, got, Uint8, false); err != nil || !e.CContiguous {
			t.Errorf("CheckLayout of contiguous strides %v = %+v, %v", got, e, err)
		}
	}
	// ContiguousLayout writes them too, and checks them.
	e, got, err := ContiguousLayout([]int64{2, 0, 4}, make([]int64, 0, 3), Float32, false)
	if err != nil || !slices.Equal(got, []int64{4, 4, 1}) || e != (Extent{CContiguous: true, FContiguous: true}) {
		t.Errorf("ContiguousLayout([2 0 4]) = %+v, %v, %v", e, got, err)
	}
	for _, tt := range []struct {
		shape []int64
		want  string
	}{
		{ones(65), "ndim 65 exceeds 64"},
		{[]int64{3, -2}, "shape[1] = -2"},
		{[]int64{1 << 61}, "byte extent of shape [2305843009213693952] with strides [1] and 8-byte items"},
	} {
		if e, s, err := ContiguousLayout(tt.shape, nil, Float64, false); err == nil || !strings.Contains(err.Error(), tt.want) || s != nil {
			t.Errorf("ContiguousLayout(%v) = %+v, %v, %v; want an error with %q", tt.shape, e, s, err, tt.want)
		}
	}
	// dst with room is reused.
	buf := make([]int64, 1, 8)
	got = ContiguousStrides([]int64{2, 3}, buf)
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

func TestCContiguous(t *testing.T) {
	tests := []struct {
		shape, strides []int64
		want           bool
	}{
		{nil, nil, true},
		{[]int64{2, 3}, []int64{3, 1}, true},
		{[]int64{2, 3}, []int64{1, 2}, false},
		{[]int64{2, 1, 3}, []int64{3, 99, 1}, true},
		{[]int64{2, 0}, []int64{5, 5}, true},
		{[]int64{4}, []int64{-1}, false},
		{[]int64{4}, []int64{0}, false},
		{[]int64{3, 1 << 61}, []int64{1 << 61, 1}, true},
		{[]int64{2, 2}, []int64{1 << 62, 1 << 62}, false}, // the rows' stride overflows the offsets
	}
	for _, tt := range tests {
		e, err := CheckLayout(tt.shape, tt.strides, Uint8, false)
		if tt.want && err != nil || e.CContiguous != tt.want {
			t.Errorf("CheckLayout(%v, %v) = %+v, %v; want CContiguous %v", tt.shape, tt.strides, e, err, tt.want)
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

func FuzzCheckLayout(f *testing.F) {
	f.Add(uint8(0), uint8(11), false, []byte{})
	f.Add(uint8(2), uint8(10), false, []byte{3, 4, 4, 1})
	f.Add(uint8(2), uint8(2), true, []byte{3, 1, 4, 3})
	f.Add(uint8(3), uint8(1), false, []byte{2, 0x7f, 1, 5, 3, 0x7e})
	f.Add(uint8(2), uint8(25), false, []byte{2, 2, 4, 1})
	f.Add(uint8(1), uint8(25), true, []byte{5, 0x7e})
	f.Add(uint8(2), uint8(0), false, []byte{0x80, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0x80, 0, 0, 0, 0, 1, 0, 0, 0, 1})
	f.Add(uint8(65), uint8(5), false, []byte{})
	f.Fuzz(func(t *testing.T, ndim, dtIndex uint8, padded bool, data []byte) {
		shape, strides := fuzzLayout(ndim, data)
		// The table, then vector types, then types Check refuses.
		types := append(DataTypes(), DataType{Float4E2M1FN, 4, 2}, DataType{Float, 32, 2}, DataType{Float6E2M3FN, 6, 4},
			DataType{Float6E2M3FN, 6, 2}, DataType{Float, 24, 2})
		dt := types[int(dtIndex)%len(types)]
		e, err := CheckLayout(shape, strides, dt, padded)
		if err == nil && dt.Check() != nil {
			t.Fatalf("CheckLayout accepted %v, which Check refuses", dt)
		}
		if _, _, cerr := ContiguousLayout(shape, nil, dt, padded); len(shape) > MaxNDim || dt.Check() != nil {
			if cerr == nil || err == nil || cerr.Error() != err.Error() {
				t.Fatalf("shape %v of %v: ContiguousLayout says %v, CheckLayout %v", shape, dt, cerr, err)
			}
		}
		if err != nil {
			if _, ok := err.(*LayoutError); !ok {
				t.Fatalf("error %v is a %T, not a *LayoutError", err, err)
			}
			if e != (Extent{}) {
				t.Fatalf("extent %+v returned with error %v", e, err)
			}
			return
		}
		if e.Elements == 0 {
			if e.Low != 0 || e.High != 0 || e.DenseBytes != 0 || !e.CContiguous || !e.FContiguous {
				t.Fatalf("empty layout has extent %+v", e)
			}
			return
		}
		packed := dt.SubByte() && !padded
		size := int64(dt.StorageSize(!packed))
		if !(e.Low <= 0 && 0 <= e.High) {
			t.Fatalf("extent %+v does not contain element 0", e)
		}
		if !packed && e.Bytes() < size {
			t.Fatalf("Bytes() = %d for %d-byte items", e.Bytes(), size)
		}
		if packed {
			// ceil(Elements*Bits/8) without overflow: split Elements.
			q, r := e.Elements/8, e.Elements%8
			want := q*int64(dt.Bits) + (r*int64(dt.Bits)+7)/8
			if !e.CContiguous || e.Low != 0 || e.High != want || e.DenseBytes != want {
				t.Fatalf("packed %v: extent %+v", dt, e)
			}
		}
		// The strides of a copy are C-contiguous, and the copy takes a byte
		// per element, or the packed bytes, which lie contiguously.
		c, cs, err := ContiguousLayout(shape, nil, dt, padded)
		if err != nil || !c.CContiguous || c.Elements != e.Elements || c.DenseBytes != e.DenseBytes || c.Bytes() != c.DenseBytes {
			t.Fatalf("shape %v of %v: the contiguous layout is %+v, %v, beside %+v", shape, dt, c, err, e)
		}
		if c2, err := CheckLayout(shape, ContiguousStrides(shape, nil), dt, padded); c2 != c || err != nil ||
			!slices.Equal(cs, ContiguousStrides(shape, nil)) {
			t.Fatalf("shape %v of %v: ContiguousLayout = %+v %v, CheckLayout of ContiguousStrides = %+v, %v", shape, dt, c, cs, c2, err)
		}
		if !packed && (e.DenseBytes/size != e.Elements || e.DenseBytes%size != 0) {
			t.Fatalf("%d elements of %d bytes: DenseBytes %d", e.Elements, size, e.DenseBytes)
		}
		if e.Elements > 4096 || packed {
			return
		}

		// Walk every index in row-major and column-major order. Row-major
		// C-contiguity means the k-th element visited is at offset k, and
		// likewise for F; the extent must be exactly the hull of the
		// elements.
		lo, hi := int64(math.MaxInt64), int64(math.MinInt64)
		cOrder, fOrder := true, true
		visit(shape, strides, e.Elements, false, func(k, off int64) {
			cOrder = cOrder && off == k
			lo = min(lo, off*size)
			hi = max(hi, off*size+size)
		})
		visit(shape, strides, e.Elements, true, func(k, off int64) { fOrder = fOrder && off == k })
		if lo != e.Low || hi != e.High {
			t.Fatalf("shape %v strides %v: walk spans [%d, %d), extent %+v", shape, strides, lo, hi, e)
		}
		if cOrder != e.CContiguous || fOrder != e.FContiguous {
			t.Fatalf("shape %v strides %v: walk finds C %v F %v, extent %+v", shape, strides, cOrder, fOrder, e)
		}
	})
}

// The Go entry points of the rule keep their arguments on the stack:
// producer checks every export with them.
func TestLayoutNoAlloc(t *testing.T) {
	allocs := testing.AllocsPerRun(100, func() {
		shape := [3]int64{4, 3, 2}
		var strides [MaxNDim]int64
		if _, _, err := ContiguousLayout(shape[:], strides[:0], Float32, false); err != nil {
			t.Fatal(err)
		}
		if _, err := CheckLayout(shape[:], strides[:3], Float32, false); err != nil {
			t.Fatal(err)
		}
		ContiguousStrides(shape[:], strides[:0])
	})
	if allocs != 0 {
		t.Errorf("%v allocations", allocs)
	}
}
