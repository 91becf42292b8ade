package main

// #include "ext.h"
import "C"

import (
	"errors"
	"unsafe"

	"github.com/godlpack/godlpack/consumer"
	"github.com/godlpack/godlpack/dlpack"
)

// goImport turns the managed tensor a.managed, which C has just taken out of
// its capsule, into the description of a Tensor. Ownership passes to Go: on
// every error, and after a copy, the producer's deleter has been called once
// when it returns. On a zero-copy success a.out.owner is nil, and C wraps
// a.managed in an upstream owner.
//
//export goImport
func goImport(a *C.gdl_import_args) (rc C.int) {
	owned := true // the managed tensor is still ours to delete
	versioned := a.versioned != 0
	defer func() {
		if r := recover(); r != nil {
			rc = fail(&a.err, C.GDL_RUNTIME_ERROR, "godlpack: internal error while importing: %v", r)
		}
		// Still owned after success means we copied: the producer's
		// tensor is no longer needed either way.
		if owned {
			C.gdl_managed_delete(a.managed, a.versioned != 0)
		}
	}()
	v, err := consumer.Inspect(dlpack.Managed{Pointer: a.managed, Versioned: versioned}, int64s(&a.out.strides[0], dlpack.MaxNDim))
	if err != nil {
		var ce *consumer.Error
		if errors.As(err, &ce) && ce.Version {
			return fail(&a.err, C.GDL_BUFFER_ERROR, "cannot import a DLPack %s tensor: godlpack reads major version %d (it speaks %s)",
				v.Version, dlpack.MajorVersion, dlpack.Current)
		}
		return fail(&a.err, C.GDL_BUFFER_ERROR, "cannot import the tensor: %v", err)
	}
	if a.has_device != 0 {
		want := dlpack.Device{Type: dlpack.DeviceType(a.device.device_type), ID: int32(a.device.device_id)}
		switch {
		case want.Type == dlpack.CPU && !v.CPUAccessible():
			return fail(&a.err, C.GDL_BUFFER_ERROR, "device='cpu' was asked for, but the producer returned data on %v", v.Device)
		case want.Type != dlpack.CPU && want != v.Device:
			return fail(&a.err, C.GDL_BUFFER_ERROR, "device %v was asked for, but the producer returned data on %v", want, v.Device)
		}
	}
	// A broadcast (stride 0) tensor may hold more elements than bytes: its
	// copy and its buffer have the size of every element.
	nbytes := denseBytes(v.Extent, v.DType, v.Flags&dlpack.IsSubbyteTypePadded != 0)
	if nbytes < 0 {
		return fail(&a.err, C.GDL_BUFFER_ERROR, "cannot import the tensor: %d elements of %v take more than 2**63 bytes", v.Extent.Elements, v.DType)
	}
	if a.copy == 0 && v.Copied() {
		return fail(&a.err, C.GDL_BUFFER_ERROR, "copy=False, but the producer copied the data (IS_COPIED is set)")
	}
	flags := v.Flags & dlpack.IsSubbyteTypePadded
	if v.ReadOnly() {
		flags |= dlpack.ReadOnly
	}
	if v.Copied() {
		flags |= dlpack.IsCopied
	}
	// copy=True is ours to meet when the producer could not be asked, or
	// answered without copying.
	if a.copy == 1 && !v.Copied() {
		if !v.CPUAccessible() {
			return fail(&a.err, C.GDL_BUFFER_ERROR, "copy=True needs a copy of data on %v, which is not CPU-accessible", v.Device)
		}
		owner, data, kind := copyContiguous(&a.err, v.Data, v.Shape, v.Strides, v.DType, flags, nbytes,
			int64s(&a.out.strides[0], len(v.Shape)))
		if kind != C.GDL_OK {
			return kind
		}
		strides := int64s(&a.out.strides[0], len(v.Shape))
		ext := v.Extent
		ext.Low, ext.High = 0, nbytes
		describe(&a.out, owner, data, v.Shape, strides, v.DType, v.Device, flags&dlpack.IsSubbyteTypePadded|dlpack.IsCopied, ext)
		return C.GDL_OK // the deferred function deletes the producer's tensor
	}
	// Zero copy: the producer's tensor backs ours. C wraps it in an owner
	// once this returns (a nil owner says so), which saves a crossing.
	owned = false
	if a.has_device != 0 && a.device.device_type == C.kDLCPU {
		v.Device = dlpack.Device{Type: dlpack.CPU}
	}
	describe(&a.out, nil, v.Data, v.Shape, v.Strides, v.DType, v.Device, flags, v.Extent)
	return C.GDL_OK
}

// copyContiguous copies a valid strided layout into a new C-contiguous
// allocation, writing its strides into dstStrides. It returns the owner (one
// reference) and the data, or an error kind with e filled.
func copyContiguous(e *C.gdl_error, src unsafe.Pointer, shape, strides []int64, dt dlpack.DataType,
	flags dlpack.Flags, nbytes int64, dstStrides []int64) (*C.gdl_owner, unsafe.Pointer, C.int) {
	var data unsafe.Pointer
	owner := C.gdl_owner_alloc(C.size_t(nbytes), &data)
	if owner == nil {
		return nil, nil, fail(e, C.GDL_MEMORY_ERROR, "cannot allocate %d bytes for a copy of shape %v", nbytes, shape)
	}
	dlpack.ContiguousStrides(shape, dstStrides)
	withoutGIL(nbytes, func() {
		itemSize := dt.StorageSize(flags&dlpack.IsSubbyteTypePadded != 0)
		if itemSize == 0 {
			// Packed sub-byte data is always contiguous: copy its bytes.
			copy(unsafe.Slice((*byte)(data), nbytes), unsafe.Slice((*byte)(src), nbytes))
			return
		}
		dlpack.Copy(data, dstStrides, src, strides, shape, itemSize)
	})
	return owner, data, C.GDL_OK
}

// goCopy makes the fresh C-contiguous copy that __dlpack__(copy=True) exports.
//
//export goCopy
func goCopy(a *C.gdl_copy_args) (rc C.int) {
	defer recovered(&a.err, &rc)
	t := a.src
	ndim := int(t.ndim)
	dims := int64s(&t.dims[0], 2*ndim)
	dt := dlpack.DataType{Code: dlpack.Code(t.dtype.code), Bits: uint8(t.dtype.bits), Lanes: uint16(t.dtype.lanes)}
	flags := dlpack.Flags(t.flags)
	owner, data, kind := copyContiguous(&a.err, t.data, dims[:ndim], dims[ndim:], dt, flags, int64(t.nbytes),
		int64s(&a.strides[0], ndim))
	if kind != C.GDL_OK {
		return kind
	}
	a.owner, a.data = owner, data
	return C.GDL_OK
}
