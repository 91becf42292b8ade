package ops

import (
	"unsafe"

	"github.com/godlpack/godlpack/consumer"
	"github.com/godlpack/godlpack/dlpack"
)

// How the kernels walk a view: as one span of memory, as rows, or one
// element at a time (consumer.Walk).

// span returns the address of the lowest element of v and the count of its
// elements when they fill their memory without gaps or repeats, in C order,
// Fortran order or any other order of the strides: for kernels whose result
// does not depend on the order of the elements, and for pairs of views with
// the same strides.
func span(v *consumer.View) (unsafe.Pointer, int64, bool) {
	e := &v.Extent
	switch {
	case e.Elements == 0:
		return v.Data, 0, true
	case e.CContiguous || e.FContiguous:
	case e.Bytes() != e.DenseBytes || dlpack.SelfOverlapping(v.Shape, v.Strides):
		return nil, 0, false
	}
	return unsafe.Add(v.Data, e.Low), e.Elements, true
}

// minRow is the fewest elements of a row that a vector kernel takes: shorter
// rows go element by element, which costs less than a call per row.
const minRow = 16

// rows returns the length of v's rows when its last dimension is contiguous
// (a stride of 1) and long enough for a vector kernel.
func rows(v *consumer.View) (int64, bool) {
	nd := len(v.Shape)
	if nd < 2 || v.Extent.Elements == 0 || v.Strides[nd-1] != 1 || v.Shape[nd-1] < minRow {
		return 0, false
	}
	return v.Shape[nd-1], true
}

// forRows calls f with the address of each row of v, in C order.
func forRows(v *consumer.View, size int64, f func(p unsafe.Pointer)) {
	forRowRange(v, size, 0, v.Extent.Elements/v.Shape[len(v.Shape)-1], f)
}

// forRowRange calls f with the address of rows [lo, hi) of v, in C order:
// the rows are v's last dimension, numbered by the indexes of the others.
func forRowRange(v *consumer.View, size int64, lo, hi int64, f func(p unsafe.Pointer)) {
	outer := len(v.Shape) - 1
	var idx [dlpack.MaxNDim]int64
	var off int64
	for k, r := outer-1, lo; k >= 0; k-- {
		idx[k] = r % v.Shape[k]
		r /= v.Shape[k]
		off += idx[k] * v.Strides[k] * size
	}
	for range hi - lo {
		f(unsafe.Add(v.Data, off))
		off = step(v.Shape[:outer], v.Strides, &idx, off, size)
	}
}

// step advances the odometer idx over the dimensions of shape by one, and
// the byte offset off with it.
func step(shape, strides []int64, idx *[dlpack.MaxNDim]int64, off, size int64) int64 {
	for k := len(shape) - 1; k >= 0; k-- {
		idx[k]++
		off += strides[k] * size
		if idx[k] < shape[k] {
			return off
		}
		off -= strides[k] * size * shape[k]
		idx[k] = 0
	}
	return off
}

// forPairedRows calls f for each row of x and y, views of the same shape,
// with the address of the row in each, its length and each one's stride in
// elements: the last dimension's, or one row of one element for a 0-d view.
func forPairedRows(x, y *consumer.View, size int64, f func(px, py unsafe.Pointer, n, sx, sy int64)) {
	if x.Extent.Elements == 0 {
		return
	}
	nd := len(x.Shape)
	if nd == 0 {
		f(x.Data, y.Data, 1, 1, 1)
		return
	}
	var ix, iy [dlpack.MaxNDim]int64
	var ox, oy int64
	n, sx, sy := x.Shape[nd-1], x.Strides[nd-1], y.Strides[nd-1]
	for range x.Extent.Elements / n {
		f(unsafe.Add(x.Data, ox), unsafe.Add(y.Data, oy), n, sx, sy)
		ox = step(x.Shape[:nd-1], x.Strides, &ix, ox, size)
		oy = step(y.Shape[:nd-1], y.Strides, &iy, oy, size)
	}
}
