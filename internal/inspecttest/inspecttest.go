// Package inspecttest runs gdl_inspect, the C half of package consumer that
// C callers use to import a tensor without entering Go, for the tests of
// package consumer. Only tests import it.
package inspecttest

// #cgo CFLAGS: -I${SRCDIR}/../../dlpack -I${SRCDIR}/../../consumer -Wall -Wextra -Wno-unused-parameter
// #include "inspect.h"
import "C"

import (
	"unsafe"

	"github.com/godlpack/godlpack/consumer"
	"github.com/godlpack/godlpack/dlpack"
)

// Inspect runs gdl_inspect on m and returns what it found, with false when
// it leaves the tensor to [consumer.Inspect]. Strides of a tensor without its
// own are written to stridesBuf.
func Inspect(m dlpack.Managed, stridesBuf *[dlpack.MaxNDim]int64) (consumer.View, bool) {
	var out C.gdl_inspected
	if !C.gdl_inspect(m.Pointer, C.bool(m.Versioned), (*C.int64_t)(unsafe.Pointer(&stridesBuf[0])), &out) {
		return consumer.View{}, false
	}
	n := int(out.ndim)
	v := consumer.View{
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
