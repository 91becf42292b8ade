package consumer

// #cgo CFLAGS: -I${SRCDIR}/../dlpack -O2
// #include "inspect.h"
import "C"

import (
	"unsafe"

	"github.com/godlpack/godlpack/dlpack"
)

// inspectFast runs gdl_inspect, the C hot path of Inspect that C callers
// use, and returns what it found as a View, with false when it leaves the
// tensor to Inspect. Only the tests call it: they hold it to Inspect.
func inspectFast(m dlpack.Managed, stridesBuf *[dlpack.MaxNDim]int64) (View, bool) {
	var out C.gdl_inspected
	if !C.gdl_inspect(m.Pointer, C.bool(m.Versioned), (*C.int64_t)(unsafe.Pointer(&stridesBuf[0])), &out) {
		return View{}, false
	}
	n := int(out.ndim)
	v := View{
		Data:      out.data,
		DType:     *(*dlpack.DataType)(unsafe.Pointer(&out.dtype)),
		Device:    *(*dlpack.Device)(unsafe.Pointer(&out.device)),
		Flags:     dlpack.Flags(out.flags),
		Version:   dlpack.Version{Major: uint32(out.version.major), Minor: uint32(out.version.minor)},
		Versioned: bool(out.versioned),
		Extent: dlpack.Extent{Elements: int64(out.elements), Low: int64(out.low), High: int64(out.high),
			CContiguous: bool(out.c_contiguous)},
	}
	if n > 0 {
		v.Shape = unsafe.Slice((*int64)(unsafe.Pointer(out.shape)), n)
		v.Strides = unsafe.Slice((*int64)(unsafe.Pointer(out.strides)), n)
	}
	return v, true
}
