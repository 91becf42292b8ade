package producer

// #include "producer.h"
import "C"

import (
	"unsafe"

	"github.com/godlpack/godlpack/dlpack"
)

// cContiguous runs gdl_contiguous, which C code uses to lay out new tensors
// without calling Go. Only the tests call it: they hold it to
// dlpack.ContiguousStrides, dlpack.CheckLayout and Extent.DenseBytes.
func cContiguous(shape []int64, dt dlpack.DataType, padded bool) (strides []int64, elements, nbytes int64, ok bool) {
	var cshape, cstrides [dlpack.MaxNDim + 1]C.int64_t
	for i, d := range shape {
		if i < len(cshape) {
			cshape[i] = C.int64_t(d)
		}
	}
	var n, b C.int64_t
	cdt := C.DLDataType{code: C.uint8_t(dt.Code), bits: C.uint8_t(dt.Bits), lanes: C.uint16_t(dt.Lanes)}
	if !C.gdl_contiguous(C.int32_t(len(shape)), &cshape[0], cdt, C.bool(padded), &cstrides[0], &n, &b) {
		return nil, 0, 0, false
	}
	strides = make([]int64, len(shape))
	copy(strides, unsafe.Slice((*int64)(unsafe.Pointer(&cstrides[0])), len(shape)))
	return strides, int64(n), int64(b), true
}
