package dlpack

import (
	"errors"
	"fmt"
	"math"
	"math/bits"
	"slices"
)

// Kinds of layout error. A *LayoutError wraps exactly one of them.
var (
	ErrTooManyDims   = errors.New("too many dimensions")
	ErrStridesLength = errors.New("strides do not match shape")
	ErrNegativeDim   = errors.New("negative dimension")
	ErrOverflow      = errors.New("size overflows int64")
	ErrPackedLayout  = errors.New("packed sub-byte data is not C-contiguous")
)

// A LayoutError reports why CheckLayout rejected a layout. Err is one of
// ErrTooManyDims, ErrStridesLength, ErrNegativeDim, ErrOverflow,
// ErrUnknownDataType or ErrPackedLayout; Detail names the offending values.
type LayoutError struct {
	Err    error
	Detail string
}

func (e *LayoutError) Error() string {
	if e.Detail == "" {
		return "dlpack: " + e.Err.Error()
	}
	return "dlpack: " + e.Err.Error() + ": " + e.Detail
}

// Unwrap returns e.Err, so that errors.Is(err, ErrOverflow) and the like
// work on a *LayoutError.
func (e *LayoutError) Unwrap() error { return e.Err }

func layoutErr(kind error, format string, args ...any) *LayoutError {
	return &LayoutError{Err: kind, Detail: fmt.Sprintf(format, args...)}
}

// Extent describes the memory a valid layout touches.
type Extent struct {
	// Elements is the product of the shape: 0 if any dimension is 0, and
	// 1 for a 0-d tensor.
	Elements int64
	// Low and High are the lowest byte touched and one past the highest,
	// relative to the address of the element at index (0, ..., 0).
	// Negative strides make Low negative. Both are 0 when Elements is 0.
	Low, High int64
	// CContiguous reports whether the elements lie in row-major order
	// with no gaps. Strides of dimensions of size 1 do not matter, and an
	// empty tensor counts as contiguous.
	CContiguous bool
	// FContiguous is like CContiguous for column-major order.
	FContiguous bool
}

// Bytes returns the size of the memory the layout touches, High - Low.
// CheckLayout guarantees it does not overflow.
func (e Extent) Bytes() int64 { return e.High - e.Low }

// DenseBytes returns the number of bytes the layout's elements take when
// laid out C-contiguously, as in a copy of them: Elements times the size of
// an item of dt, or ceil(Elements*Bits/8) for packed sub-byte data. It
// exceeds Bytes for a layout that repeats elements with stride 0. It
// returns 0 and false when the size does not fit in an int64; no copy of
// such a layout can exist. e must come from CheckLayout with the same dt
// and padded.
func (e Extent) DenseBytes(dt DataType, padded bool) (int64, bool) {
	if dt.SubByte() && !padded {
		return e.Bytes(), true // packed data is always C-contiguous
	}
	size := int64(dt.StorageSize(true))
	if size != 0 && e.Elements > math.MaxInt64/size {
		return 0, false
	}
	return e.Elements * size, true
}

// mul64 returns a*b and whether the product fits in an int64.
func mul64(a, b int64) (int64, bool) {
	if a == 0 || b == 0 {
		return 0, true
	}
	neg := (a < 0) != (b < 0)
	hi, lo := bits.Mul64(absU(a), absU(b))
	if hi != 0 {
		return 0, false
	}
	if neg {
		if lo > 1<<63 {
			return 0, false
		}
		return -int64(lo), true // for lo == 1<<63 this wraps to MinInt64, as wanted
	}
	if lo > math.MaxInt64 {
		return 0, false
	}
	return int64(lo), true
}

// add64 returns a+b and whether the sum fits in an int64.
func add64(a, b int64) (int64, bool) {
	s := a + b
	// Overflow happened iff a and b have the same sign and s has the other.
	return s, (a >= 0) != (b >= 0) || (s >= 0) == (a >= 0)
}

func absU(a int64) uint64 {
	if a < 0 {
		return -uint64(a)
	}
	return uint64(a)
}

// ElementCount returns the product of shape, 1 for an empty shape. It
// returns false if a dimension is negative or, when no dimension is 0, the
// product overflows int64.
func ElementCount(shape []int64) (int64, bool) {
	n, err := elementCount(shape)
	return n, err == nil
}

func elementCount(shape []int64) (int64, error) {
	zero := false
	for i, d := range shape {
		if d < 0 {
			return 0, layoutErr(ErrNegativeDim, "shape[%d] = %d", i, d)
		}
		if d == 0 {
			zero = true
		}
	}
	// A zero dimension makes the tensor empty however large the others
	// are, so it must not be reported as an overflow.
	if zero {
		return 0, nil
	}
	n := int64(1)
	for _, d := range shape {
		var ok bool
		if n, ok = mul64(n, d); !ok {
			return 0, layoutErr(ErrOverflow, "element count of shape %v", shape)
		}
	}
	return n, nil
}

// CheckLayout validates a tensor layout and returns the memory it touches.
// shape and strides are counted in elements and must have the same length
// of at most MaxNDim; strides must not be nil when len(shape) > 0, so a
// caller holding a tensor without strides computes ContiguousStrides
// first. dt must pass Check, which admits vector types with whole-byte
// elements. padded says whether elements of a sub-byte data type take one
// byte each (the IsSubbyteTypePadded flag); packed sub-byte data is
// meaningful only C-contiguous, and its extent is ceil(Elements*Bits/8)
// bytes.
//
// Strides may be zero or negative, and elements may overlap; CheckLayout
// says what memory is touched, not whether writing it is safe (see
// SelfOverlapping). Every
// intermediate quantity is checked for int64 overflow, so that Bytes and
// the offsets of all elements are representable. Any error is a
// *LayoutError.
func CheckLayout(shape, strides []int64, dt DataType, padded bool) (Extent, error) {
	if len(shape) > MaxNDim {
		return Extent{}, layoutErr(ErrTooManyDims, "ndim %d exceeds %d", len(shape), MaxNDim)
	}
	if len(strides) != len(shape) {
		if strides == nil {
			return Extent{}, layoutErr(ErrStridesLength, "strides are nil for ndim %d", len(shape))
		}
		return Extent{}, layoutErr(ErrStridesLength, "len(strides) = %d, len(shape) = %d", len(strides), len(shape))
	}
	if dt.Check() != nil {
		return Extent{}, layoutErr(ErrUnknownDataType, "code=%d, bits=%d, lanes=%d", dt.Code, dt.Bits, dt.Lanes)
	}
	n, err := elementCount(shape)
	if err != nil {
		return Extent{}, err
	}
	if n == 0 {
		return Extent{CContiguous: true, FContiguous: true}, nil
	}
	e := Extent{
		Elements:    n,
		CContiguous: contiguous(shape, strides, false),
		FContiguous: contiguous(shape, strides, true),
	}

	if dt.SubByte() && !padded {
		if !e.CContiguous {
			return Extent{}, layoutErr(ErrPackedLayout, "%v with shape %v and strides %v", dt, shape, strides)
		}
		hi, lo := bits.Mul64(uint64(n), uint64(dt.Bits)*uint64(dt.Lanes))
		lo, carry := bits.Add64(lo, 7, 0)
		hi += carry
		nbytes := hi<<61 | lo>>3 // the 128-bit product divided by 8
		if hi>>3 != 0 || nbytes > math.MaxInt64 {
			return Extent{}, layoutErr(ErrOverflow, "%d packed %v elements", n, dt)
		}
		e.High = int64(nbytes)
		return e, nil
	}

	// Sum the offsets of the farthest element in each direction, in
	// elements, then scale once to bytes.
	var low, high int64
	for i, d := range shape {
		if d == 1 {
			continue // its stride is never multiplied by a nonzero index
		}
		off, ok := mul64(strides[i], d-1)
		if !ok {
			return Extent{}, layoutErr(ErrOverflow, "stride %d times dimension %d (index %d)", strides[i], d, i)
		}
		if off < 0 {
			low, ok = add64(low, off)
		} else {
			high, ok = add64(high, off)
		}
		if !ok {
			return Extent{}, layoutErr(ErrOverflow, "element offsets of shape %v with strides %v", shape, strides)
		}
	}
	size := int64(dt.StorageSize(true))
	lowB, ok1 := mul64(low, size)
	highB, ok2 := mul64(high, size)
	highB, ok3 := add64(highB, size)
	_, ok4 := add64(highB, -lowB) // Bytes must be representable too
	if !ok1 || !ok2 || !ok3 || !ok4 || lowB == math.MinInt64 {
		return Extent{}, layoutErr(ErrOverflow, "byte extent of shape %v with strides %v and %d-byte items", shape, strides, size)
	}
	e.Low, e.High = lowB, highB
	return e, nil
}

// contiguous reports whether a non-empty layout is C-contiguous or, if
// fortran is true, F-contiguous. Dimensions of size 1 are skipped because
// their strides never reach memory.
func contiguous(shape, strides []int64, fortran bool) bool {
	want := int64(1)
	for k := range shape {
		i := len(shape) - 1 - k
		if fortran {
			i = k
		}
		d := shape[i]
		if d == 1 {
			continue
		}
		if strides[i] != want {
			return false
		}
		var ok bool
		if want, ok = mul64(want, d); !ok {
			return false
		}
	}
	return true
}

// isCContiguous reports whether shape and strides describe elements in
// row-major order with no gaps, by the rules of Extent.CContiguous. Nil
// strides count as contiguous, as they do in a DLTensor; strides of
// another length, or a negative dimension, do not.
func isCContiguous(shape, strides []int64) bool {
	if strides == nil {
		return true
	}
	if len(strides) != len(shape) {
		return false
	}
	for _, d := range shape {
		if d < 0 {
			return false
		}
		if d == 0 {
			return true
		}
	}
	return contiguous(shape, strides, false)
}

// ContiguousStrides writes the row-major strides of shape, in elements,
// into dst[:len(shape)] and returns that slice. If dst is too short, a new
// slice is allocated, so dst may be nil. A dimension of 0 is treated as 1
// when computing the strides of outer dimensions, as NumPy and PyTorch do,
// so the strides stay distinct. The result for a shape CheckLayout would
// reject for overflow or a negative dimension is unspecified but the call
// does not panic.
func ContiguousStrides(shape []int64, dst []int64) []int64 {
	if cap(dst) < len(shape) {
		dst = make([]int64, len(shape))
	}
	dst = dst[:len(shape)]
	s := int64(1)
	for i := len(shape) - 1; i >= 0; i-- {
		dst[i] = s
		s *= max(shape[i], 1)
	}
	return dst
}

// SelfOverlapping reports whether two different indices of the layout may
// address the same element, so that writing through the layout could
// write one element twice. shape and strides are counted in elements, as
// in CheckLayout, and nil strides mean C-contiguous.
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
// shape, a negative dimension) is reported as overlapping.
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
			span = math.MaxUint64 // beyond any stride: what follows overlaps
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
