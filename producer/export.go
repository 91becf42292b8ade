package producer

// #include "producer.h"
import "C"

import (
	"errors"
	"fmt"
	"runtime"
	"unsafe"

	"github.com/godlpack/godlpack/dlpack"
)

// ErrVersion is wrapped by the error of an export the negotiated DLPack
// version cannot describe: a dtype or device newer than it, or a read-only
// tensor asked for as a legacy one, which has no way to say so.
var ErrVersion = errors.New("producer: the negotiated DLPack version cannot describe this tensor")

// A Layout says how a tensor lies in a Buffer.
type Layout struct {
	Shape []int64
	// Strides are in elements; nil means C-contiguous.
	Strides []int64
	DType   dlpack.DataType
	// Device is where the memory is; the zero Device means the CPU.
	Device dlpack.Device
	// Flags may hold ReadOnly, IsCopied and IsSubbyteTypePadded.
	Flags dlpack.Flags
	// Offset is the byte offset of element (0, …, 0) in the buffer, which
	// negative strides need.
	Offset int64
}

// A Managed is a managed tensor made by Export: a *DLManagedTensorVersioned
// when Versioned, else a *DLManagedTensor. Whoever holds it must pass it to
// a consumer, which will call its deleter, or call Delete.
type Managed struct {
	Pointer   unsafe.Pointer
	Versioned bool
}

// Delete calls the managed tensor's deleter. Call it only for a tensor no
// consumer has taken.
func (m Managed) Delete() { C.gdl_managed_delete(m.Pointer, boolInt(m.Versioned)) }

// Negotiate returns the version of the managed tensor to make for a
// consumer that asked for max (its max_version): 0.0, which means a legacy
// DLManagedTensor, when max.Major is 0 (no max_version at all); 1.min(our
// minor, max.Minor) when max.Major is 1; and the current version for a newer
// major.
func Negotiate(max dlpack.Version) dlpack.Version {
	switch {
	case max.Major == 0:
		return dlpack.Version{}
	case max.Major == dlpack.MajorVersion:
		return dlpack.Version{Major: dlpack.MajorVersion, Minor: min(max.Minor, dlpack.MinorVersion)}
	}
	return dlpack.Current
}

const knownFlags = dlpack.ReadOnly | dlpack.IsCopied | dlpack.IsSubbyteTypePadded

// Check validates l against a buffer of size bytes. It returns an error
// naming the bad value for unknown flag bits or an offset outside the
// buffer, a *dlpack.LayoutError for an unknown dtype or an invalid shape
// and strides (one wrapping dlpack.ErrOverflow when the elements, copied
// densely, would take more than 2**63 bytes, which stride-0 dimensions
// allow), and an error naming the bytes when an element lies outside the
// buffer.
func (l *Layout) Check(size int) error {
	var buf [dlpack.MaxNDim]int64
	_, _, err := l.check(size, buf[:])
	return err
}

// check is Check, also returning the extent and the strides, which are
// l.Strides or, when those are nil, the contiguous strides written into buf.
func (l *Layout) check(size int, buf []int64) (dlpack.Extent, []int64, error) {
	if l.Flags&^knownFlags != 0 {
		return dlpack.Extent{}, nil, fmt.Errorf("producer: unknown flag bits %#x", uint64(l.Flags&^knownFlags))
	}
	strides := l.Strides
	if strides == nil {
		strides = dlpack.ContiguousStrides(l.Shape, buf)
	}
	padded := l.Flags.Has(dlpack.IsSubbyteTypePadded)
	ext, err := dlpack.CheckLayout(l.Shape, strides, l.DType, padded)
	if err != nil {
		return ext, nil, err
	}
	// Consumers copy, and ExportCopy allocates, the dense size.
	if _, ok := ext.DenseBytes(l.DType, padded); !ok {
		return ext, nil, &dlpack.LayoutError{Err: dlpack.ErrOverflow,
			Detail: fmt.Sprintf("%d elements of %v take more than 2**63 bytes", ext.Elements, l.DType)}
	}
	if l.Offset < 0 || l.Offset > int64(size) {
		return ext, nil, fmt.Errorf("producer: offset %d is outside the %d-byte buffer", l.Offset, size)
	}
	if ext.Elements > 0 && (ext.Low < -l.Offset || ext.High > int64(size)-l.Offset) {
		return ext, nil, fmt.Errorf("producer: shape %v with strides %v at offset %d reaches bytes [%d, %d), outside the %d-byte buffer",
			l.Shape, strides, l.Offset, l.Offset+ext.Low, l.Offset+ext.High, size)
	}
	return ext, strides, nil
}

// device returns l.Device, with the zero Device meaning the CPU.
func (l *Layout) device() dlpack.Device {
	if l.Device.Type == 0 {
		return dlpack.Device{Type: dlpack.CPU}
	}
	return l.Device
}

// negotiate returns the version to export l as for a consumer that asked
// for max, or an error wrapping ErrVersion.
func (l *Layout) negotiate(max dlpack.Version) (dlpack.Version, error) {
	v := Negotiate(max)
	if need := dlpack.MinVersion(l.DType, l.device()); v.Less(need) {
		return v, fmt.Errorf("%w: %v on %v needs DLPack %v, the consumer asked for at most %v", ErrVersion, l.DType, l.device(), need, max)
	}
	if v.Major == 0 && l.Flags.Has(dlpack.ReadOnly) {
		return v, fmt.Errorf("%w: a legacy DLManagedTensor cannot be read-only", ErrVersion)
	}
	return v, nil
}

// Export describes the buffer with l as a managed tensor of the version
// Negotiate(max) gives, in one C allocation that also holds the shape and
// strides, and which holds a reference to the buffer's memory until its
// deleter runs. It fails with Check's error when l does not fit the buffer,
// with an error wrapping ErrVersion when the version cannot describe the
// tensor, or with ErrNoMemory or ErrReleased.
func (b *Buffer) Export(l Layout, max dlpack.Version) (Managed, error) {
	if b.released.Load() {
		return Managed{}, ErrReleased
	}
	var shape, strides [dlpack.MaxNDim]int64
	if _, _, err := l.check(b.n, strides[:]); err != nil {
		return Managed{}, err
	}
	v, err := l.negotiate(max)
	if err != nil {
		return Managed{}, err
	}
	nd := len(l.Shape)
	copy(shape[:], l.Shape)
	if l.Strides != nil {
		copy(strides[:], l.Strides)
	}
	dev := l.device()
	cv := C.gdl_view{
		data:  b.at(l.Offset),
		flags: C.uint64_t(l.Flags),
		ndim:  C.int32_t(nd),
	}
	cv.device.device_type = C.DLDeviceType(dev.Type)
	cv.device.device_id = C.int32_t(dev.ID)
	cv.dtype.code = C.uint8_t(l.DType.Code)
	cv.dtype.bits = C.uint8_t(l.DType.Bits)
	cv.dtype.lanes = C.uint16_t(l.DType.Lanes)
	// gdl_pack copies shape and strides; cgo lets C see them through a
	// struct only while they are pinned.
	var pin runtime.Pinner
	defer pin.Unpin()
	pin.Pin(&shape[0])
	pin.Pin(&strides[0])
	cv.shape = (*C.int64_t)(unsafe.Pointer(&shape[0]))
	cv.strides = (*C.int64_t)(unsafe.Pointer(&strides[0]))
	p := C.gdl_pack(b.owner, &cv, boolInt(v.Major != 0), C.uint32_t(v.Minor))
	if p == nil {
		return Managed{}, fmt.Errorf("%w: cannot allocate a managed tensor", ErrNoMemory)
	}
	return Managed{Pointer: p, Versioned: v.Major != 0}, nil
}

// ExportCopy is Export for a new C-contiguous copy of the tensor l lays out
// in b, what a consumer asking for copy=True gets: the copy lives in C
// memory of its own, freed by the managed tensor's deleter, and is flagged
// IsCopied and writable (IsSubbyteTypePadded is kept, ReadOnly dropped, so
// a legacy version may describe it). Its errors are Export's.
func (b *Buffer) ExportCopy(l Layout, max dlpack.Version) (Managed, error) {
	if b.released.Load() {
		return Managed{}, ErrReleased
	}
	var buf [dlpack.MaxNDim]int64
	ext, strides, err := l.check(b.n, buf[:])
	if err != nil {
		return Managed{}, err
	}
	src := b.at(l.Offset)
	l.Strides, l.Offset = nil, 0
	l.Flags = l.Flags&dlpack.IsSubbyteTypePadded | dlpack.IsCopied
	if _, err := l.negotiate(max); err != nil {
		return Managed{}, err // before copying for nothing
	}
	padded := l.Flags.Has(dlpack.IsSubbyteTypePadded)
	nbytes, _ := ext.DenseBytes(l.DType, padded) // check refused an overflow
	c, err := Alloc(int(nbytes))
	if err != nil {
		return Managed{}, err
	}
	defer c.Release()
	if size := l.DType.StorageSize(padded); size == 0 {
		copy(c.Bytes(), unsafe.Slice((*byte)(src), nbytes)) // packed data is contiguous
	} else {
		dlpack.Copy(c.data, nil, src, strides, l.Shape, size)
	}
	return c.Export(l, max)
}

// at returns the address off bytes into the buffer, for 0 <= off <= b.n.
// The end of the buffer, where only an empty tensor can start, maps to its
// start: a pointer just past a Go object is invalid, and cgo's pointer
// check panics when it lands on the next, unpinned, one.
func (b *Buffer) at(off int64) unsafe.Pointer {
	if off == int64(b.n) {
		off = 0
	}
	return unsafe.Add(b.data, off)
}

func boolInt(b bool) C.int {
	if b {
		return 1
	}
	return 0
}
