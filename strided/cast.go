package strided

import (
	"unsafe"

	"github.com/godlpack/godlpack/dlpack"
	"github.com/godlpack/godlpack/internal/fmt"
)

// Castable reports whether [Cast] reads elements of dt: bool, the integers
// of every width and the floats of 32 and 64 bits.
func Castable(dt dlpack.DataType) bool {
	switch dt {
	case dlpack.Bool, dlpack.Int8, dlpack.Int16, dlpack.Int32, dlpack.Int64, dlpack.Uint8, dlpack.Uint16,
		dlpack.Uint32, dlpack.Uint64, dlpack.Float32, dlpack.Float64:
		return true
	}
	return false
}

// Cast writes the elements of a strided source of dtype from, in C order,
// into dst as dtype to, float32 or float64, as NumPy's astype converts
// them: a bool is 0 or 1, an integer its nearest float. srcStrides are
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
	switch from {
	case dlpack.Bool:
		castFrom(dst, src, strides, shape, func(b bool) D {
			if b {
				return 1
			}
			return 0
		})
	case dlpack.Int8:
		castFrom(dst, src, strides, shape, func(v int8) D { return D(v) })
	case dlpack.Int16:
		castFrom(dst, src, strides, shape, func(v int16) D { return D(v) })
	case dlpack.Int32:
		castFrom(dst, src, strides, shape, func(v int32) D { return D(v) })
	case dlpack.Int64:
		castFrom(dst, src, strides, shape, func(v int64) D { return D(v) })
	case dlpack.Uint8:
		castFrom(dst, src, strides, shape, func(v uint8) D { return D(v) })
	case dlpack.Uint16:
		castFrom(dst, src, strides, shape, func(v uint16) D { return D(v) })
	case dlpack.Uint32:
		castFrom(dst, src, strides, shape, func(v uint32) D { return D(v) })
	case dlpack.Uint64:
		castFrom(dst, src, strides, shape, func(v uint64) D { return D(v) })
	case dlpack.Float32:
		castFrom(dst, src, strides, shape, func(v float32) D { return D(v) })
	case dlpack.Float64:
		castFrom(dst, src, strides, shape, func(v float64) D { return D(v) })
	default:
		panic(fmt.Sprintf("strided: Cast from %v: not a dtype Cast reads", from))
	}
}

// castFrom walks the source in C order, odometer fashion, converting each element with conv.
func castFrom[S any, D float32 | float64](dst []D, src unsafe.Pointer, strides, shape []int64, conv func(S) D) {
	if len(dst) == 0 {
		return
	}
	nd := len(shape)
	if nd == 0 {
		dst[0] = conv(*(*S)(src))
		return
	}
	size := int64(unsafe.Sizeof(*new(S)))
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
	for i := 0; i < len(dst); {
		p := unsafe.Add(src, off)
		for k := int64(0); k < inner; k++ {
			dst[i] = conv(*(*S)(unsafe.Add(p, k*innerStep)))
			i++
		}
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
