//go:build cgo

package dlpack

/*
#include "layout.h"

// gdl_check_layout is gdl_layout for a tensor whose strides may be NULL, C-contiguous: their values are
// written to strides_buf (gdl_contiguous_strides) and checked, in one call from Go.
static int gdl_check_layout(int32_t ndim, const int64_t *shape, const int64_t *strides, int64_t *strides_buf,
                            DLDataType dt, bool padded, gdl_extent *e) {
	if (strides == NULL) {
		gdl_contiguous_strides(ndim, shape, strides_buf);
		strides = strides_buf;
	}
	return gdl_layout(ndim, shape, strides, dt, padded, e);
}
*/
// #cgo noescape gdl_check_layout
// #cgo nocallback gdl_check_layout
// #cgo noescape gdl_contiguous_strides
// #cgo nocallback gdl_contiguous_strides
import "C"

import (
	"slices"
	"unsafe"

	"github.com/godlpack/godlpack/internal/fmt"
)

// CheckLayout validates a tensor layout and returns the memory it touches.
// shape and strides are counted in elements and must have the same length
// of at most [MaxNDim]; strides must not be nil when len(shape) > 0, so a
// caller holding a tensor without strides computes [ContiguousStrides]
// first. dt must pass [DataType.Check], which admits vector types with
// whole-byte elements. padded says whether elements of a sub-byte data
// type take one byte each (the [IsSubbyteTypePadded] flag); packed sub-byte
// data is meaningful only C-contiguous, and its extent is
// ceil(Elements*Bits*Lanes/8) bytes.
//
// Strides may be zero or negative, and elements may overlap; CheckLayout
// says what memory is touched, not whether writing it is safe (see
// [SelfOverlapping]). Every quantity is checked for int64 overflow: the
// offsets of all elements, [Extent.Bytes], and [Extent.DenseBytes], the
// size of a C-contiguous copy, which a stride of 0 lets exceed the memory
// touched. Any error is a *[LayoutError].
//
// The rule is gdl_layout, in C (layout.h), which C code on the hot paths
// runs too (package consumer's gdl_inspect, package producer's
// gdl_contiguous); CheckLayout checks what gdl_layout takes for granted
// (the lengths and the data type) and words its faults. It needs cgo.
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
	return checkLayout(shape, strides, nil, dt, padded)
}

// ContiguousLayout is [CheckLayout] for the C-contiguous layout of shape:
// it writes the strides into dst[:len(shape)] as [ContiguousStrides] does
// (allocating them when dst is too short), and returns them with the
// extent. It costs one call into C where [ContiguousStrides] and [CheckLayout]
// cost two.
func ContiguousLayout(shape []int64, dst []int64, dt DataType, padded bool) (Extent, []int64, error) {
	if len(shape) > MaxNDim {
		return Extent{}, nil, layoutErr(ErrTooManyDims, "ndim %d exceeds %d", len(shape), MaxNDim)
	}
	if cap(dst) < len(shape) {
		dst = make([]int64, len(shape))
	}
	dst = dst[:len(shape)]
	e, err := checkLayout(shape, nil, dst, dt, padded)
	if err != nil {
		return e, nil, err
	}
	return e, dst, nil
}

// checkLayout runs gdl_layout on a layout of at most MaxNDim dimensions, on
// strides, or when they are nil on the contiguous strides it writes into
// buf, of the same length as shape.
func checkLayout(shape, strides, buf []int64, dt DataType, padded bool) (Extent, error) {
	if dt.Check() != nil {
		return Extent{}, layoutErr(ErrUnknownDataType, "code=%d, bits=%d, lanes=%d", dt.Code, dt.Bits, dt.Lanes)
	}
	var e C.gdl_extent
	fault := C.gdl_check_layout(C.int32_t(len(shape)), firstOf(shape), firstOf(strides), firstOf(buf), cDataType(dt),
		C.bool(padded), &e)
	if fault != C.GDL_LAYOUT_OK {
		if strides == nil {
			strides = buf
		}
		// Copies, so that shape, strides and buf may stay on the caller's
		// stack: the error's words keep what they are given.
		return Extent{}, LayoutFaultError(int(fault), int(e.index), int64(e.elements), slices.Clone(shape),
			slices.Clone(strides), dt)
	}
	return Extent{Elements: int64(e.elements), Low: int64(e.low), High: int64(e.high), DenseBytes: int64(e.nbytes),
		CContiguous: bool(e.c_contiguous), FContiguous: bool(e.f_contiguous)}, nil
}

// LayoutFaultError returns the error [CheckLayout] returns for a fault of
// gdl_layout, the layout rule in layout.h: fault is one of its GDL_LAYOUT_*
// values other than GDL_LAYOUT_OK, index and elements are the fields of the
// gdl_extent it filled, and shape, strides and dt are the layout it
// checked. It is for Go code whose C half runs gdl_layout itself (package
// consumer's gdl_inspect), so that every fault is worded once.
func LayoutFaultError(fault, index int, elements int64, shape, strides []int64, dt DataType) error {
	switch fault {
	case C.GDL_LAYOUT_NEGATIVE_DIM:
		return layoutErr(ErrNegativeDim, "shape[%d] = %d", index, shape[index])
	case C.GDL_LAYOUT_COUNT_OVERFLOW:
		return layoutErr(ErrOverflow, "element count of shape %v", shape)
	case C.GDL_LAYOUT_PACKED_STRIDED:
		return layoutErr(ErrPackedLayout, "%v with shape %v and strides %v", dt, shape, strides)
	case C.GDL_LAYOUT_PACKED_OVERFLOW:
		return layoutErr(ErrOverflow, "%d packed %v elements", elements, dt)
	case C.GDL_LAYOUT_STRIDE_OVERFLOW:
		return layoutErr(ErrOverflow, "stride %d times dimension %d (index %d)", strides[index], shape[index], index)
	case C.GDL_LAYOUT_OFFSETS_OVERFLOW:
		return layoutErr(ErrOverflow, "element offsets of shape %v with strides %v", shape, strides)
	case C.GDL_LAYOUT_BYTES_OVERFLOW:
		return layoutErr(ErrOverflow, "byte extent of shape %v with strides %v and %d-byte items", shape, strides, dt.StorageSize(true))
	case C.GDL_LAYOUT_DENSE_OVERFLOW:
		return layoutErr(ErrOverflow, "%d elements of %v take more than 2**63 bytes", elements, dt)
	}
	return fmt.Errorf("dlpack: fault %d of gdl_layout has no words", fault)
}

// ContiguousStrides writes the row-major strides of shape, in elements,
// into dst[:len(shape)] and returns that slice. If dst is too short, a new
// slice is allocated, so dst may be nil. A dimension of 0 is treated as 1
// when computing the strides of outer dimensions, as NumPy and PyTorch do,
// so the strides stay distinct. The result for a shape [CheckLayout] would
// reject for overflow or a negative dimension is unspecified but the call
// does not panic. The rule is gdl_contiguous_strides, in C (layout.h),
// which C code laying out new tensors runs too. It needs cgo.
func ContiguousStrides(shape []int64, dst []int64) []int64 {
	if cap(dst) < len(shape) {
		dst = make([]int64, len(shape))
	}
	dst = dst[:len(shape)]
	C.gdl_contiguous_strides(C.int32_t(len(shape)), firstOf(shape), firstOf(dst))
	return dst
}

func layoutErr(kind error, format string, args ...any) *LayoutError {
	return &LayoutError{Err: kind, Detail: fmt.Sprintf(format, args...)}
}

// firstOf returns the address of s[0] for C, or nil for an empty s.
func firstOf(s []int64) *C.int64_t {
	if len(s) == 0 {
		return nil
	}
	return (*C.int64_t)(unsafe.Pointer(&s[0]))
}

// cDataType converts dt, which has the layout of a DLDataType.
func cDataType(dt DataType) C.DLDataType { return *(*C.DLDataType)(unsafe.Pointer(&dt)) }
