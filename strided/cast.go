package strided

import (
	"unsafe"

	"github.com/godlpack/godlpack/dlpack"
	"github.com/godlpack/godlpack/internal/fmt"
	"github.com/godlpack/godlpack/minifloat"
)

// Castable reports whether [Cast] reads elements of dt: bool, the integers
// of every width and the floats of 16 (float16 and bfloat16), 32 and 64
// bits.
func Castable(dt dlpack.DataType) bool {
	switch dt {
	case dlpack.Bool, dlpack.Int8, dlpack.Int16, dlpack.Int32, dlpack.Int64, dlpack.Uint8, dlpack.Uint16,
		dlpack.Uint32, dlpack.Uint64, dlpack.Float16, dlpack.Bfloat16, dlpack.Float32, dlpack.Float64:
		return true
	}
	return false
}

// Cast writes the elements of a strided source of dtype from, in C order,
// into dst as dtype to, float32 or float64, as NumPy's astype converts
// them: a bool is 0 or 1, an integer its nearest float, a float16 or
// bfloat16 its value (exact in both; a NaN stays a NaN of its sign, by
// package minifloat's decoding). srcStrides are
// counted in elements; nil means C-contiguous. dst must hold the product
// of shape elements of to, and the layout must be valid (see
// [dlpack.CheckLayout]). Cast panics when from is not [Castable] or to is
// not a float of 32 or 64 bits.
func Cast(dst unsafe.Pointer, to dlpack.DataType, src unsafe.Pointer, srcStrides, shape []int64, from dlpack.DataType) {
	n := int64(1)
	for _, d := range shape {
		n *= max(d, 0)
	}
	switch to {
	case dlpack.Float32:
		castTo(unsafe.Slice((*float32)(dst), n), src, srcStrides, shape, from)
	case dlpack.Float64:
		castTo(unsafe.Slice((*float64)(dst), n), src, srcStrides, shape, from)
	default:
		panic(fmt.Sprintf("strided: Cast to %v: only float32 and float64 are written", to))
	}
}

func castTo[D float32 | float64](dst []D, src unsafe.Pointer, strides, shape []int64, from dlpack.DataType) {
	var row func(dst []D, p unsafe.Pointer, step int64)
	switch from {
	case dlpack.Bool:
		row = castBools[D]
	case dlpack.Int8:
		row = castRow[int8, D]
	case dlpack.Int16:
		row = castRow[int16, D]
	case dlpack.Int32:
		row = castRow[int32, D]
	case dlpack.Int64:
		row = castRow[int64, D]
	case dlpack.Uint8:
		row = castRow[uint8, D]
	case dlpack.Uint16:
		row = castRow[uint16, D]
	case dlpack.Uint32:
		row = castRow[uint32, D]
	case dlpack.Uint64:
		row = castRow[uint64, D]
	case dlpack.Float16:
		row = castHalves[D](minifloat.DecodeFloat16)
	case dlpack.Bfloat16:
		row = castHalves[D](minifloat.DecodeBfloat16)
	case dlpack.Float32:
		row = castRow[float32, D]
	case dlpack.Float64:
		row = castRow[float64, D]
	default:
		panic(fmt.Sprintf("strided: Cast from %v: not a dtype Cast reads", from))
	}
	walkRows(len(dst), src, strides, shape, int64(from.ItemSize()), func(i int, p unsafe.Pointer, n, step int64) {
		row(dst[i:i+int(n)], p, step)
	})
}

// castRow converts the elements of a row of S, step bytes apart from p, into dst.
func castRow[S int8 | int16 | int32 | int64 | uint8 | uint16 | uint32 | uint64 | float32 | float64, D float32 | float64](dst []D, p unsafe.Pointer, step int64) {
	for k := range dst {
		dst[k] = D(*(*S)(unsafe.Add(p, int64(k)*step)))
	}
}

// castHalves is castRow of 16-bit floats, which decode reads.
func castHalves[D float32 | float64](decode func(uint16) float64) func(dst []D, p unsafe.Pointer, step int64) {
	return func(dst []D, p unsafe.Pointer, step int64) {
		for k := range dst {
			dst[k] = D(decode(*(*uint16)(unsafe.Add(p, int64(k)*step))))
		}
	}
}

// castBools is castRow of bools: 1 for true, 0 for false.
func castBools[D float32 | float64](dst []D, p unsafe.Pointer, step int64) {
	for k := range dst {
		if *(*bool)(unsafe.Add(p, int64(k)*step)) {
			dst[k] = 1
		} else {
			dst[k] = 0
		}
	}
}

// walkRows walks the n elements of a source of size-byte elements in C
// order, odometer fashion, a row of its last dimension at a time: row gets
// the index of the row's first element, its address, its length and the
// bytes between its elements. One walk for every pair of dtypes, each of
// whose row loops is its own (castRow).
func walkRows(n int, src unsafe.Pointer, strides, shape []int64, size int64, row func(i int, p unsafe.Pointer, n, step int64)) {
	if n == 0 {
		return
	}
	nd := len(shape)
	if nd == 0 {
		row(0, src, 1, size)
		return
	}
	var step [dlpack.MaxNDim]int64 // each dimension's stride in bytes
	contiguous := size
	for i := nd - 1; i >= 0; i-- {
		step[i] = contiguous
		if strides != nil {
			step[i] = strides[i] * size
		}
		contiguous *= shape[i]
	}
	var idx [dlpack.MaxNDim]int64
	var off int64
	inner, innerStep := shape[nd-1], step[nd-1]
	for i := 0; i < n; i += int(inner) {
		row(i, unsafe.Add(src, off), inner, innerStep)
		for d := nd - 2; d >= 0; d-- {
			idx[d]++
			off += step[d]
			if idx[d] < shape[d] {
				break
			}
			off -= step[d] * shape[d]
			idx[d] = 0
		}
	}
}
