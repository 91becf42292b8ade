package dlpack

import (
	"errors"
	"math/bits"
	"slices"
)

// Kinds of layout error. A [*LayoutError] wraps exactly one of them.
var (
	ErrTooManyDims   = errors.New("too many dimensions")
	ErrStridesLength = errors.New("strides do not match shape")
	ErrNegativeDim   = errors.New("negative dimension")
	ErrOverflow      = errors.New("size overflows int64")
	ErrPackedLayout  = errors.New("packed sub-byte data is not C-contiguous")
)

// A LayoutError reports why [CheckLayout] rejected a layout.
// [LayoutError.Err] is one of [ErrTooManyDims], [ErrStridesLength],
// [ErrNegativeDim], [ErrOverflow], [ErrUnknownDataType] or [ErrPackedLayout];
// [LayoutError.Detail] names the offending values.
type LayoutError struct {
	Err    error  // the kind of fault
	Detail string // the offending values; empty when there is nothing to name
}

// Error returns "dlpack: ", the text of [LayoutError.Err] and, when there is
// one, [LayoutError.Detail].
func (e *LayoutError) Error() string {
	if e.Detail == "" {
		return "dlpack: " + e.Err.Error()
	}
	return "dlpack: " + e.Err.Error() + ": " + e.Detail
}

// Unwrap returns e.Err, so that [errors.Is](err, [ErrOverflow]) and the like
// work on a [*LayoutError].
func (e *LayoutError) Unwrap() error { return e.Err }

// Extent describes the memory a valid layout touches, as [CheckLayout]
// finds it.
type Extent struct {
	// Elements is the product of the shape: 0 if any dimension is 0, and
	// 1 for a 0-d tensor.
	Elements int64
	// Low and High are the lowest byte touched and one past the highest,
	// relative to the address of the element at index (0, ..., 0).
	// Negative strides make Low negative. Both are 0 when [Extent.Elements]
	// is 0.
	Low, High int64
	// DenseBytes is the number of bytes the elements take when laid out
	// C-contiguously, as in a copy of them: [Extent.Elements] times the size
	// of an item, or ceil(Elements*Bits*Lanes/8) for packed sub-byte data. It
	// exceeds [Extent.Bytes] for a layout that repeats elements with stride
	// 0; a layout whose copy would not fit in an int64 is not valid.
	DenseBytes int64
	// CContiguous reports whether the elements lie in row-major order
	// with no gaps. Strides of dimensions of size 1 do not matter, and an
	// empty tensor counts as contiguous.
	CContiguous bool
	// FContiguous is like [Extent.CContiguous] for column-major order.
	FContiguous bool
}

// Bytes returns the size of the memory the layout touches, High - Low.
// [CheckLayout] guarantees it does not overflow.
func (e Extent) Bytes() int64 { return e.High - e.Low }

func absU(a int64) uint64 {
	if a < 0 {
		return -uint64(a)
	}
	return uint64(a)
}

// SelfOverlapping reports whether two different indices of the layout may
// address the same element, so that writing through the layout could
// write one element twice. shape and strides are counted in elements, as
// in [CheckLayout], and nil strides mean C-contiguous.
//
// The answer is exact for a stride of 0 (on a dimension of size > 1, it
// always overlaps) and for a single dimension. Otherwise it is
// conservative: it reports false only when, with the dimensions of size
// > 1 sorted by |stride|, each |stride| exceeds the span of all faster
// dimensions together, which proves that every index has an offset of its
// own. A layout that fails that test but does not overlap, such as shape
// (3, 2) with strides (2, 3), is reported as overlapping. Empty tensors,
// 0-d tensors and dimensions of size 1 (whatever their stride) never
// overlap. A layout that is not valid (strides of another length than
// shape, a negative dimension) is reported as overlapping, and so is one
// whose offsets span 2**64 elements or more (which [CheckLayout] refuses):
// they wrap.
func SelfOverlapping(shape, strides []int64) bool {
	if strides == nil {
		return !validShape(shape)
	}
	if len(strides) != len(shape) || !validShape(shape) {
		return true
	}
	if slices.Contains(shape, 0) {
		return false
	}
	// |stride| and size of each dimension of size > 1, kept sorted by
	// |stride| with an insertion sort: at most MaxNDim entries, on the
	// stack.
	type dim struct{ stride, size uint64 }
	var buf [MaxNDim]dim
	dims := buf[:0]
	for i, n := range shape {
		if n == 1 {
			continue
		}
		s := absU(strides[i])
		if s == 0 {
			return true
		}
		dims = append(dims, dim{s, uint64(n)})
		for j := len(dims) - 1; j > 0 && dims[j].stride < dims[j-1].stride; j-- {
			dims[j], dims[j-1] = dims[j-1], dims[j]
		}
	}
	var span uint64 // the largest offset the faster dimensions reach
	for _, d := range dims {
		if d.stride <= span {
			return true
		}
		hi, reach := bits.Mul64(d.stride, d.size-1)
		var carry uint64
		span, carry = bits.Add64(span, reach, 0)
		if hi != 0 || carry != 0 {
			// Offsets 2**64 apart or more: distinct as integers, but the
			// same address once they wrap, as pointer arithmetic does.
			return true
		}
	}
	return false
}

func validShape(shape []int64) bool {
	for _, n := range shape {
		if n < 0 {
			return false
		}
	}
	return true
}
