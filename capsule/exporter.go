package capsule

// #include "capsule.h"
import "C"

import (
	"errors"
	"fmt"
	"unsafe"

	"github.com/godlpack/godlpack/consumer"
	"github.com/godlpack/godlpack/dlpack"
	"github.com/godlpack/godlpack/producer"
)

// NewExporter returns a new Python object that exports the buffer with
// layout l to any consumer, zero-copy: __dlpack__ (a versioned or legacy
// capsule as the consumer's max_version asks, a fresh copy for copy=True),
// __dlpack_device__, and the C exchange API on its type. It holds a
// reference of its own to the buffer's memory, dropped when the object is
// freed, so the caller may Release b. Its errors are l.Check's, ErrReleased,
// and errors wrapping ErrPython.
func NewExporter(b *producer.Buffer, l producer.Layout) (Object, error) {
	if len(l.Shape) > dlpack.MaxNDim {
		return nil, l.Check(b.Len()) // the layout error, before sizing the object by it
	}
	var s *C.gdl_source
	o := Object(C.gdl_exporter_new(C.int32_t(len(l.Shape)), &s))
	if o == nil {
		return nil, pyErr("creating an Exporter")
	}
	if err := b.Describe(l, unsafe.Pointer(s)); err != nil {
		DecRef(o)
		return nil, err
	}
	return o, nil
}

// layoutOf is the producer.Layout of a source's tensor. Its slices are the
// source's own memory.
func layoutOf(s *C.gdl_source) producer.Layout {
	v := &s.view
	l := producer.Layout{
		DType:  *(*dlpack.DataType)(unsafe.Pointer(&v.dtype)),
		Device: *(*dlpack.Device)(unsafe.Pointer(&v.device)),
		Flags:  dlpack.Flags(v.flags),
	}
	if n := int(v.ndim); n > 0 {
		l.Shape = unsafe.Slice((*int64)(unsafe.Pointer(v.shape)), n)
		l.Strides = unsafe.Slice((*int64)(unsafe.Pointer(v.strides)), n)
	}
	return l
}

// godlpackCapsuleCopy answers __dlpack__(copy=True) for gdl_export: a new
// C-contiguous copy of the source's elements, exported at version v into
// *out. It returns 0, or -1 with the exception set.
//
//export godlpackCapsuleCopy
func godlpackCapsuleCopy(s *C.gdl_source, v C.DLPackVersion, out *unsafe.Pointer) (rc C.int) {
	defer recoverInto(&rc)
	l := layoutOf(s)
	var b *producer.Buffer
	var err error
	WithoutGIL(int64(s.nbytes), func() { b, err = producer.CopyOf(s.view.data, l) })
	if err != nil {
		RaiseError(err)
		return -1
	}
	defer b.Release()
	copied := l.Contiguous()
	copied.Device = dlpack.Device{Type: dlpack.CPU} // our C memory, whatever CPU-readable memory it came from
	m, err := b.Export(copied, dlpack.Version{Major: uint32(v.major), Minor: uint32(v.minor)})
	if err != nil {
		RaiseError(err)
		return -1
	}
	*out = m.Pointer
	return 0
}

// godlpackCapsuleRefuse raises the BufferError of a __dlpack__ call whose
// max_version cannot describe the source's tensor.
//
//export godlpackCapsuleRefuse
func godlpackCapsuleRefuse(s *C.gdl_source, asked C.DLPackVersion) {
	defer recoverInto(nil)
	l := layoutOf(s)
	need := dlpack.Version{Major: uint32(s.need.major), Minor: uint32(s.need.minor)}
	_, err := producer.Negotiate(dlpack.Version{Major: uint32(asked.major), Minor: uint32(asked.minor)}, need, l.Flags.Has(dlpack.ReadOnly))
	switch {
	case l.Flags.Has(dlpack.ReadOnly) && need.Major == 0:
		Raise(BufferError, "a read-only tensor cannot be exported as a legacy DLPack capsule, which cannot mark it "+
			"read-only; pass max_version=(1, %d) or copy=True", dlpack.MinorVersion)
	case err != nil:
		Raise(BufferError, "a %v tensor on %v needs DLPack %v, which a legacy DLPack capsule cannot describe; "+
			"pass max_version=(1, %d)", l.DType, l.Device, need, dlpack.MinorVersion)
	default:
		Raise(RuntimeError, "capsule: internal error: version %v.%v was refused for %v", asked.major, asked.minor, l.DType)
	}
}

// godlpackCapsuleInspect is gdl_validate's path into Go for the tensors
// gdl_inspect leaves: consumer.Inspect decides, and fills out, or raises
// the BufferError that names the fault (-1). It never deletes the tensor.
//
//export godlpackCapsuleInspect
func godlpackCapsuleInspect(managed unsafe.Pointer, versioned C.bool, stridesBuf *C.int64_t, out *C.gdl_inspected) (rc C.int) {
	defer recoverInto(&rc)
	buf := unsafe.Slice((*int64)(unsafe.Pointer(stridesBuf)), dlpack.MaxNDim)
	v, err := consumer.Inspect(dlpack.Managed{Pointer: managed, Versioned: bool(versioned)}, buf)
	if err != nil {
		var ce *consumer.Error
		if errors.As(err, &ce) && ce.Version {
			Raise(BufferError, "cannot import a DLPack %v tensor: godlpack reads major version %d (it speaks %v)",
				v.Version, dlpack.MajorVersion, dlpack.Current)
		} else {
			Raise(BufferError, "cannot import the tensor: %v", err)
		}
		return -1
	}
	out.data = v.Data
	out.ndim = C.int32_t(len(v.Shape))
	if len(v.Shape) > 0 {
		out.shape = (*C.int64_t)(unsafe.Pointer(&v.Shape[0]))
		out.strides = (*C.int64_t)(unsafe.Pointer(&v.Strides[0]))
	} else {
		out.shape, out.strides = nil, nil
	}
	out.dtype = *(*C.DLDataType)(unsafe.Pointer(&v.DType))
	out.device = *(*C.DLDevice)(unsafe.Pointer(&v.Device))
	out.flags = C.uint64_t(v.Flags)
	out.version = C.DLPackVersion{major: C.uint32_t(v.Version.Major), minor: C.uint32_t(v.Version.Minor)}
	out.versioned = C.bool(v.Versioned)
	out.c_contiguous = C.bool(v.Extent.CContiguous)
	out.elements = C.int64_t(v.Extent.Elements)
	out.low, out.high = C.int64_t(v.Extent.Low), C.int64_t(v.Extent.High)
	nbytes, _ := v.Extent.DenseBytes(v.DType, v.Flags.Has(dlpack.IsSubbyteTypePadded)) // Inspect refused an overflow
	out.nbytes = C.int64_t(nbytes)
	out.itemsize = C.int64_t(v.DType.StorageSize(v.Flags.Has(dlpack.IsSubbyteTypePadded)))
	return 0
}

// recoverInto turns a panic into a RuntimeError and, when rc is not nil,
// a -1 result: no Go panic crosses into C.
func recoverInto(rc *C.int) {
	if p := recover(); p != nil {
		Raise(RuntimeError, "capsule: internal error: %v", fmt.Sprint(p))
		if rc != nil {
			*rc = -1
		}
	}
}
