package pymodule

// #include "pymodule.h"
import "C"

import (
	"errors"
	"math/bits"
	"slices"
	"unsafe"

	"github.com/godlpack/godlpack/cpython"
	"github.com/godlpack/godlpack/dlpack"
	"github.com/godlpack/godlpack/internal/fmt"
	"github.com/godlpack/godlpack/producer"
)

// An Array is a tensor result: memory made by [NewArray] or [FromSlice] and
// its layout. Returning it hands it to the caller, zero-copy; an Array that
// is not returned should be released ([Array.Release]). Its copies share
// one reference: the first to be returned or released spends it, and the
// others are then refused as results, and their Release does nothing.
type Array struct {
	lease producer.Lease // NewArray's allocates nothing on the Go heap
	dtype dlpack.DataType
	shape []int64 // nil when dims holds the shape
	// dims holds a shape of up to len(dims) dimensions, so that NewArray's
	// shape, which the caller may build in its call, stays off the Go heap.
	dims [4]int64
	ndim int8
	view bool // a Buffer's view (Buffer.View), which keeps its call's first instance alive
}

// arrayOf returns a C-contiguous Array of b, of the given shape (which it
// copies) and dtype.
func arrayOf(l producer.Lease, shape []int64, dt dlpack.DataType) Array {
	a := Array{lease: l, dtype: dt}
	if len(shape) <= len(a.dims) {
		a.ndim = int8(copy(a.dims[:], shape))
	} else {
		a.shape = slices.Clone(shape)
	}
	return a
}

// Release lets go of memory that will not be returned.
func (a Array) Release() {
	a.lease.Release()
}

// NewArray returns a C-contiguous [Array] of the given shape and element type
// T in C memory (never the Go heap, so that a size the caller chooses never
// aborts the process), and its elements, all zero, as a slice to fill. Its error is a
// MemoryError when memory runs out, a ValueError for a negative or
// overflowing shape.
func NewArray[T dlpack.Element](shape ...int64) (Array, []T, error) {
	dt := dlpack.DataTypeOf[T]()
	n, ok := uint64(1), true
	for _, d := range shape {
		hi, lo := bits.Mul64(n, uint64(max(d, 0))) // a multiplication: a division per dimension cost up to 40 cycles
		ok = ok && d >= 0 && hi == 0 && lo <= 1<<62
		n = lo
	}
	size := uint64(unsafe.Sizeof(*new(T)))
	if !ok || n > (1<<62)/size {
		return Array{}, nil, cpython.Errorf(cpython.ValueError, "cannot make a tensor of shape %v", slices.Clone(shape)) // a copy: shape stays off the heap
	}
	b, err := producer.AllocLeaseZeroed(int(n * size)) // no clear: Go's cannot be preempted, and pages fill as written
	if err != nil {
		return Array{}, nil, err
	}
	return arrayOf(b, shape, dt), unsafe.Slice((*T)(b.Pointer()), n), nil
}

// FromSlice returns an [Array] over the elements of s, without copying them:
// the memory is pinned until the last consumer lets go. shape defaults to
// (len(s),).
func FromSlice[T dlpack.Element](s []T, shape ...int64) (Array, error) {
	b, err := producer.Pin(s)
	return pinnedArray(b, err, len(s), dlpack.DataTypeOf[T](), shape)
}

// pinnedArray is FromSlice's Array over b, pinned memory of n elements of
// dt, of shape (1-D for nil): one function for every element type.
func pinnedArray(b *producer.Buffer, err error, n int, dt dlpack.DataType, shape []int64) (Array, error) {
	if err != nil {
		return Array{}, err
	}
	if shape == nil {
		shape = []int64{int64(n)}
	}
	l := producer.Layout{Shape: shape, DType: dt}
	if err := l.Check(b.Len()); err != nil {
		b.Release()
		return Array{}, err
	}
	return arrayOf(producer.LeaseOf(b), l.Shape, l.DType), nil
}

// describe hands a into result v of c (the Array's reference passes to C).
func (a Array) describe(c *call, v *C.gdl_value) error {
	if a.lease.IsZero() {
		return fmt.Errorf("a zero Array was returned")
	}
	idx := int(c.nout)
	out := &c.out[idx]
	out.src.pending = nil
	out.src.view.shape = &out.dims[0]
	out.src.view.strides = &out.dims[dlpack.MaxNDim]
	// Laid out by convert_tensor in C, after the call: an Array is C-contiguous at the start of its memory.
	if err := a.lease.GiveContiguous(a.dimensions(), a.dtype, unsafe.Pointer(&out.src)); err != nil { // the Array's reference passes to C
		if errors.Is(err, producer.ErrReleased) {
			return errors.New("an Array was released, or returned already: an Array is returned once")
		}
		return err
	}
	c.nout++
	*(*int32)(unsafe.Pointer(&v.v)) = int32(idx)
	c.views = c.views&^(1<<idx) | C.uint32_t(boolBit(a.view))<<idx // gdl_view_keep's, in C once Go returns
	return nil
}

func boolBit(b bool) uint32 {
	if b {
		return 1
	}
	return 0
}

// dimensions is a's shape.
func (a *Array) dimensions() []int64 {
	if a.shape != nil {
		return a.shape
	}
	return a.dims[:a.ndim]
}
