package capsule

// #include "capsule.h"
import "C"

import (
	"errors"
	"unsafe"

	"github.com/godlpack/godlpack/consumer"
	"github.com/godlpack/godlpack/cpython"
	"github.com/godlpack/godlpack/dlpack"
	"github.com/godlpack/godlpack/internal/fmt"
	"github.com/godlpack/godlpack/producer"
)

// layoutOf is the [producer.Layout] of a source's tensor. Its slices are the
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
	cpython.WithoutGIL(int64(s.nbytes), func() { b, err = producer.CopyOf(s.view.data, l) })
	if err != nil {
		cpython.RaiseError(err)
		return -1
	}
	defer b.Release()
	copied := l.Contiguous()
	copied.Device = dlpack.Device{Type: dlpack.CPU} // our C memory, whatever CPU-readable memory it came from
	m, err := b.Export(copied, dlpack.Version{Major: uint32(v.major), Minor: uint32(v.minor)})
	if err != nil {
		cpython.RaiseError(err)
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
		cpython.Raise(cpython.BufferError, "a read-only tensor cannot be exported as a legacy DLPack capsule, which cannot mark it "+
			"read-only; pass max_version=(1, %d) or copy=True", dlpack.MinorVersion)
	case err != nil:
		cpython.Raise(cpython.BufferError, "a %v tensor on %v needs DLPack %v, which a legacy DLPack capsule cannot describe; "+
			"pass max_version=(1, %d)", l.DType, l.Device, need, dlpack.MinorVersion)
	default:
		cpython.Raise(cpython.RuntimeError, "capsule: internal error: version %v.%v was refused for %v", asked.major, asked.minor, l.DType)
	}
}

// godlpackCapsuleRefuseImport is gdl_validate's path into Go for a tensor
// gdl_inspect refused: it raises the BufferError that [consumer.Inspect]'s
// error words. It never deletes the tensor.
//
//export godlpackCapsuleRefuseImport
func godlpackCapsuleRefuseImport(managed unsafe.Pointer, versioned C.bool) {
	defer recoverInto(nil)
	var buf [dlpack.MaxNDim]int64
	v, err := consumer.Inspect(dlpack.Managed{Pointer: managed, Versioned: bool(versioned)}, buf[:])
	var ce *consumer.Error
	switch {
	case err == nil:
		cpython.Raise(cpython.RuntimeError, "capsule: internal error: consumer.Inspect accepts a tensor gdl_inspect refused")
	case errors.As(err, &ce) && ce.Version:
		cpython.Raise(cpython.BufferError, "cannot import a DLPack %v tensor: godlpack reads major version %d (it speaks %v)",
			v.Version, dlpack.MajorVersion, dlpack.Current)
	default:
		cpython.Raise(cpython.BufferError, "cannot import the tensor: %v", err)
	}
}

// recoverInto turns a panic into a RuntimeError and, when rc is not nil,
// a -1 result: no Go panic crosses into C.
func recoverInto(rc *C.int) {
	if p := recover(); p != nil {
		cpython.Raise(cpython.RuntimeError, "capsule: internal error: %v", fmt.Sprint(p))
		if rc != nil {
			*rc = -1
		}
	}
}
