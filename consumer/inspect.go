package consumer

// #include "inspect.h"
// #cgo noescape gdl_inspect
// #cgo nocallback gdl_inspect
import "C"

import (
	"unsafe"

	"github.com/godlpack/godlpack/dlpack"
	"github.com/godlpack/godlpack/internal/fmt"
)

// Inspect validates the managed tensor m and describes it. stridesBuf, of
// length at least the tensor's ndim, receives the C-contiguous strides of a
// tensor whose strides are NULL; when it is too short they are allocated.
//
// Inspect reads the struct and its shape and strides, never the data. It does
// not call the deleter: on error the caller still owns the tensor. The
// struct and its arrays must be C memory or pinned Go memory, as for any
// pointer handed to C.
//
// Every error names the bad value. A bad shape, strides or dtype gives
// dlpack's error (a [*dlpack.LayoutError], or one wrapping
// [dlpack.ErrUnknownDataType]), so [errors.Is] tells its kind; every other
// fault is an [*Error], whose [Error.Version] field says the tensor's major
// version is not one this package reads.
//
// The rule is gdl_inspect, in C (inspect.c), which C callers that import a
// tensor without entering Go use too; Inspect only words its faults.
func Inspect(m dlpack.Managed, stridesBuf []int64) (View, error) {
	var out C.gdl_inspected
	var local [dlpack.MaxNDim]int64
	buf := local[:]
	if len(stridesBuf) >= dlpack.MaxNDim {
		buf = stridesBuf
	}
	fault := C.gdl_inspect(m.Pointer, C.bool(m.Versioned), (*C.int64_t)(unsafe.Pointer(&buf[0])), &out)
	v := View{
		DType:     *(*dlpack.DataType)(unsafe.Pointer(&out.dtype)),
		Device:    *(*dlpack.Device)(unsafe.Pointer(&out.device)),
		Flags:     dlpack.Flags(out.flags),
		Version:   dlpack.Version{Major: uint32(out.version.major), Minor: uint32(out.version.minor)},
		Versioned: m.Versioned,
	}
	if n := int(out.ndim); out.shape != nil {
		v.Shape = unsafe.Slice((*int64)(unsafe.Pointer(out.shape)), n)
		v.Strides = unsafe.Slice((*int64)(unsafe.Pointer(out.strides)), n)
		if unsafe.Pointer(out.strides) == unsafe.Pointer(&local[0]) {
			// Computed in the buffer on the stack: move them to the caller's.
			if len(stridesBuf) < n {
				stridesBuf = make([]int64, n)
			}
			v.Strides = stridesBuf[:n]
			copy(v.Strides, local[:n])
		}
	}
	if fault != C.GDL_INSPECT_OK {
		return v, inspectError(m, fault, &out, &v)
	}
	v.Data = out.data
	v.Extent = dlpack.Extent{Elements: int64(out.elements), Low: int64(out.low), High: int64(out.high),
		DenseBytes: int64(out.nbytes), CContiguous: bool(out.c_contiguous), FContiguous: bool(out.f_contiguous)}
	return v, nil
}

// inspectError words gdl_inspect's fault about the tensor v describes so far.
func inspectError(m dlpack.Managed, fault C.int, out *C.gdl_inspected, v *View) error {
	if fault < C.GDL_INSPECT_NULL {
		return layoutError(fault, int(out.index), int64(out.elements), v.Shape, v.Strides, v.DType)
	}
	switch fault {
	case C.GDL_INSPECT_NULL:
		return refuse("managed tensor is NULL")
	case C.GDL_INSPECT_VERSION:
		return &Error{Version: true, Msg: fmt.Sprintf("DLPack version %s is not supported (this build speaks %s)", v.Version, dlpack.Current)}
	case C.GDL_INSPECT_FLAGS:
		return refuse("unknown flag bits %#x (producer version %s)", uint64(v.Flags&^dlpack.KnownFlags), v.Version)
	case C.GDL_INSPECT_NEWER_DEVICE:
		return refuse("device type %d is not one DLPack %s defines (producer version %s)", v.Device.Type, dlpack.Current, v.Version)
	case C.GDL_INSPECT_NEWER_CODE:
		return refuse("type code %d is not one DLPack %s defines (producer version %s)", v.DType.Code, dlpack.Current, v.Version)
	case C.GDL_INSPECT_NDIM:
		return refuse("ndim %d is out of range [0, %d]", int32(out.ndim), dlpack.MaxNDim)
	case C.GDL_INSPECT_NULL_SHAPE:
		return refuse("shape is NULL with ndim %d", int32(out.ndim))
	case C.GDL_INSPECT_NULL_STRIDES:
		return refuse("strides are NULL, which DLPack %s does not allow", v.Version)
	case C.GDL_INSPECT_DTYPE:
		return v.DType.Check()
	case C.GDL_INSPECT_COUNT:
		return refuse("shape %v has a negative dimension or too many elements", v.Shape)
	case C.GDL_INSPECT_NULL_DATA:
		return refuse("data is NULL for %d elements", int64(out.elements))
	case C.GDL_INSPECT_OFFSET_WRAPS:
		t := dltensor(m)
		return refuse("byte_offset %d overflows the address space from data %#x", t.ByteOffset, uintptr(t.Data))
	case C.GDL_INSPECT_EXTENT_WRAPS:
		t := dltensor(m)
		return refuse("the data's extent [%d, %d) around %#x overflows the address space", int64(out.low), int64(out.high),
			uintptr(t.Data)+uintptr(t.ByteOffset))
	}
	return refuse("fault %d of gdl_inspect has no words", int(fault))
}

// layoutError words a fault of gdl_layout, the layout rule (dlpack/layout.h),
// about a layout of elements elements (as far as it counted them) as
// dlpack.CheckLayout does, except that a copy too large to exist is the
// producer's fault, not the layout's.
func layoutError(fault C.int, i int, elements int64, shape, strides []int64, dt dlpack.DataType) error {
	if fault == C.GDL_LAYOUT_DENSE_OVERFLOW {
		return refuse("%d elements of %v take more than 2**63 bytes", elements, dt)
	}
	return dlpack.LayoutFaultError(int(fault), i, elements, shape, strides, dt)
}

// dltensor returns the DLTensor of a managed tensor that is not NULL.
func dltensor(m dlpack.Managed) *dlpack.Tensor {
	if m.Versioned {
		return &(*dlpack.ManagedTensorVersioned)(m.Pointer).DLTensor
	}
	return &(*dlpack.ManagedTensor)(m.Pointer).DLTensor
}
