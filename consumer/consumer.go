// Package consumer takes in DLPack managed tensors made by any producer,
// validates them against the ABI (package dlpack) and exposes them as Go
// views: shape, strides, dtype, device, flags and the address of the first
// element. It never trusts a field it has not checked.
//
// Import takes ownership of a managed tensor (from a capsule, see package
// capsule, or any raw pointer) as a Tensor: typed views of contiguous data
// (Slice, WritableSlice), iteration over any strides (Elements, Raw), copies
// (CopyTo, CopyFrom), and Release, which calls the producer's deleter exactly
// once. Inspect only validates and describes, for callers that manage the
// tensor's lifetime themselves.
package consumer

import (
	"fmt"
	"unsafe"

	"github.com/godlpack/godlpack/dlpack"
)

// View is a validated description of a managed tensor. It owns nothing: it is
// valid only while the managed tensor has not been deleted.
type View struct {
	// Data is the address of the element at index (0, …, 0): the producer's
	// data pointer plus its byte offset. It is nil when the producer's data
	// pointer is NULL, which Inspect allows only for a tensor without
	// elements, whatever the byte offset.
	Data    unsafe.Pointer
	Shape   []int64
	Strides []int64 // in elements, never nil when len(Shape) > 0
	DType   dlpack.DataType
	Device  dlpack.Device
	Flags   dlpack.Flags
	// Version is the producer's version; 0.0 for a legacy managed tensor.
	Version   dlpack.Version
	Versioned bool
	Extent    dlpack.Extent
}

// ReadOnly reports whether the data must not be written: the producer set
// READ_ONLY, or it is a legacy tensor, which cannot say whether it may be.
func (v *View) ReadOnly() bool { return !v.Versioned || v.Flags&dlpack.ReadOnly != 0 }

// Copied reports whether the producer set IS_COPIED.
func (v *View) Copied() bool { return v.Flags&dlpack.IsCopied != 0 }

// CPUAccessible reports whether the host can read the data.
func (v *View) CPUAccessible() bool { return v.Device.Type.CPUAccessible() }

// An Error says why Inspect refused a managed tensor, for the faults that
// package dlpack has no error for: Version reports a major version this
// package cannot read, and Msg names the fault and the values at fault.
type Error struct {
	Version bool // the major version is not ours: the tensor cannot be read at all
	Msg     string
}

func (e *Error) Error() string { return "consumer: " + e.Msg }

func refuse(format string, args ...any) error {
	return &Error{Msg: fmt.Sprintf(format, args...)}
}

// Inspect validates the managed tensor m and describes it. stridesBuf, of
// length at least the tensor's ndim, receives the C-contiguous strides of a
// tensor whose strides are NULL; when it is too short they are allocated.
//
// Inspect reads the struct and its shape and strides, never the data. It does
// not call the deleter: on error the caller still owns the tensor.
//
// Every error names the bad value. A bad shape, strides or dtype gives
// dlpack's error (a *dlpack.LayoutError, or one wrapping
// dlpack.ErrUnknownDataType), so errors.Is tells its kind; every other fault
// is an *Error, whose Version field says the tensor's major version is not
// one this package reads.
func Inspect(m dlpack.Managed, stridesBuf []int64) (View, error) {
	var v View
	managed, versioned := m.Pointer, m.Versioned
	if managed == nil {
		return v, refuse("managed tensor is NULL")
	}
	var t *dlpack.Tensor
	v.Versioned = versioned
	if versioned {
		mv := (*dlpack.ManagedTensorVersioned)(managed)
		v.Version = mv.Version
		if mv.Version.Major != dlpack.MajorVersion {
			return v, &Error{Version: true, Msg: fmt.Sprintf("DLPack version %s is not supported (this build speaks %s)", mv.Version, dlpack.Current)}
		}
		v.Flags = mv.Flags
		if unknown := mv.Flags &^ dlpack.KnownFlags; unknown != 0 {
			return v, refuse("unknown flag bits %#x (producer version %s)", uint64(unknown), mv.Version)
		}
		t = &mv.DLTensor
		if dlpack.Current.Less(mv.Version) {
			// A newer minor version may define devices and type codes we
			// cannot know the meaning of: only fields we know are accepted.
			if !t.Device.Type.Known() {
				return v, refuse("device type %d is not one DLPack %s defines (producer version %s)", t.Device.Type, dlpack.Current, mv.Version)
			}
			if t.DType.Code > dlpack.Float4E2M1FN {
				return v, refuse("type code %d is not one DLPack %s defines (producer version %s)", t.DType.Code, dlpack.Current, mv.Version)
			}
		}
	} else {
		t = &(*dlpack.ManagedTensor)(managed).DLTensor
	}
	v.DType, v.Device = t.DType, t.Device
	ndim := int(t.NDim)
	if ndim < 0 || ndim > dlpack.MaxNDim {
		return v, refuse("ndim %d is out of range [0, %d]", ndim, dlpack.MaxNDim)
	}
	if ndim > 0 {
		if t.Shape == nil {
			return v, refuse("shape is NULL with ndim %d", ndim)
		}
		v.Shape = unsafe.Slice(t.Shape, ndim)
		switch {
		case t.Strides != nil:
			v.Strides = unsafe.Slice(t.Strides, ndim)
		case versioned && !v.Version.Less(dlpack.Version{Major: 1, Minor: 2}):
			return v, refuse("strides are NULL, which DLPack %s does not allow", v.Version)
		default:
			if len(stridesBuf) < ndim {
				stridesBuf = make([]int64, ndim)
			}
			v.Strides = dlpack.ContiguousStrides(v.Shape, stridesBuf)
		}
	}
	padded := v.Flags&dlpack.IsSubbyteTypePadded != 0
	// Whether Check accepts the dtype (a type of the table, or a vector of
	// one in whole bytes), decided without building Check's error: data
	// passed through below may have any dtype, and must cost no allocation.
	dt := v.DType
	valid := dt.Known() || dt.Lanes > 1 && dt.Lane().Known() && dt.StorageSize(false) != 0
	if v.CPUAccessible() || valid {
		if err := v.DType.Check(); err != nil {
			return v, err
		}
		ext, err := dlpack.CheckLayout(v.Shape, v.Strides, v.DType, padded)
		if err != nil {
			return v, err
		}
		v.Extent = ext
	} else {
		// Data we pass through but never read may have any dtype; its
		// layout is still checked for sizes that cannot exist.
		n, ok := dlpack.ElementCount(v.Shape)
		if !ok {
			return v, refuse("shape %v has a negative dimension or too many elements", v.Shape)
		}
		v.Extent.Elements = n
	}
	// A stride of 0 can repeat one element 2**62 times in 8 bytes, but a
	// copy of the elements must have a size that fits in an int64.
	if _, ok := v.Extent.DenseBytes(v.DType, padded); !ok {
		return v, refuse("%d elements of %v take more than 2**63 bytes", v.Extent.Elements, v.DType)
	}
	if v.Extent.Elements > 0 && t.Data == nil {
		return v, refuse("data is NULL for %d elements", v.Extent.Elements)
	}
	base := uintptr(t.Data)
	if t.ByteOffset > uint64(^uintptr(0)-base) {
		return v, refuse("byte_offset %d overflows the address space from data %#x", t.ByteOffset, base)
	}
	first := base + uintptr(t.ByteOffset)
	if v.Extent.Elements > 0 && (v.Extent.Low < 0 && uint64(-v.Extent.Low) > uint64(first) ||
		v.Extent.High > 0 && uint64(v.Extent.High) > uint64(^uintptr(0)-first)) {
		return v, refuse("the data's extent [%d, %d) around %#x overflows the address space", v.Extent.Low, v.Extent.High, first)
	}
	if t.Data != nil {
		// NULL plus an offset is no address, and a pointer below 4096
		// made from it would be invalid to Go (checkptr rejects it).
		v.Data = unsafe.Add(t.Data, t.ByteOffset)
	}
	return v, nil
}
