package producer

// #cgo noescape gdl_negotiate
// #cgo nocallback gdl_negotiate
// #include "producer.h"
import "C"

import (
	"errors"
	"runtime"
	"slices"
	"unsafe"

	"github.com/godlpack/godlpack/dlpack"
	"github.com/godlpack/godlpack/internal/fmt"
	"github.com/godlpack/godlpack/internal/preempt"
	"github.com/godlpack/godlpack/strided"
)

// ErrVersion is wrapped by the error of an export the negotiated DLPack
// version cannot describe: a legacy DLManagedTensor asked for a dtype or
// device that needs a versioned one, or for a read-only tensor, which it
// has no way to mark.
var ErrVersion = errors.New("producer: the negotiated DLPack version cannot describe this tensor")

// A Layout says how a tensor lies in a [Buffer].
type Layout struct {
	// Shape is the size of each dimension.
	Shape []int64
	// Strides are in elements; nil means C-contiguous.
	Strides []int64
	// DType is the data type of the elements.
	DType dlpack.DataType
	// Device is where the memory is; the zero [dlpack.Device] means the CPU.
	Device dlpack.Device
	// Flags may hold [dlpack.ReadOnly], [dlpack.IsCopied] and
	// [dlpack.IsSubbyteTypePadded].
	Flags dlpack.Flags
	// Offset is the byte offset of element (0, …, 0) in the buffer, which
	// negative strides need.
	Offset int64
}

// Negotiate returns the version of the managed tensor to make for a
// consumer that asked for at most asked (its max_version; the zero
// [dlpack.Version], or any major 0, when it asked for a legacy
// DLManagedTensor) and a tensor that needs at least need ([dlpack.MinVersion]
// of its dtype and device):
//
//   - major 0: 0.0, a legacy DLManagedTensor, which cannot describe a
//     tensor that needs a version, nor say that one is read-only (an error
//     wrapping [ErrVersion]);
//   - major 1: 1.min(asked minor, our minor), raised to need's minor when
//     the tensor needs more, as the array API allows: the consumer checks
//     the version it gets;
//   - a newer major: [dlpack.Current].
func Negotiate(asked, need dlpack.Version, readOnly bool) (dlpack.Version, error) {
	var out C.DLPackVersion
	rc := C.gdl_negotiate(cVersion(asked), cVersion(need), C.bool(readOnly), &out)
	v := dlpack.Version{Major: uint32(out.major), Minor: uint32(out.minor)}
	switch rc {
	case C.GDL_LEGACY_TOO_OLD:
		return v, fmt.Errorf("%w: the tensor needs DLPack %v, and the consumer asked for a legacy DLManagedTensor", ErrVersion, need)
	case C.GDL_LEGACY_READ_ONLY:
		return v, fmt.Errorf("%w: a legacy DLManagedTensor cannot be read-only", ErrVersion)
	}
	return v, nil
}

func cVersion(v dlpack.Version) C.DLPackVersion {
	return C.DLPackVersion{major: C.uint32_t(v.Major), minor: C.uint32_t(v.Minor)}
}

// Check validates l against a buffer of size bytes. It returns an error
// naming the bad value for unknown flag bits or an offset outside the
// buffer, a [*dlpack.LayoutError] for an unknown dtype or an invalid shape
// and strides (one wrapping [dlpack.ErrOverflow] when the elements, copied
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
	ext, strides, err := l.checkLayout(buf)
	if err != nil {
		return ext, nil, err
	}
	if l.Offset < 0 || l.Offset > int64(size) {
		return ext, nil, fmt.Errorf("producer: offset %d is outside the %d-byte buffer", l.Offset, size)
	}
	if ext.Elements > 0 && (ext.Low < -l.Offset || ext.High > int64(size)-l.Offset) {
		// Copies, so that the shape and buf may stay on the caller's stack.
		return ext, nil, fmt.Errorf("producer: shape %v with strides %v at offset %d reaches bytes [%d, %d), outside the %d-byte buffer",
			slices.Clone(l.Shape), slices.Clone(strides), l.Offset, l.Offset+ext.Low, l.Offset+ext.High, size)
	}
	return ext, strides, nil
}

// checkLayout is check without the buffer: flags, shape, strides and
// dtype alone.
func (l *Layout) checkLayout(buf []int64) (dlpack.Extent, []int64, error) {
	if unknown := l.Flags &^ dlpack.KnownFlags; unknown != 0 {
		return dlpack.Extent{}, nil, fmt.Errorf("producer: unknown flag bits %#x", uint64(unknown))
	}
	// The layout rule refuses a layout whose dense size, which consumers
	// copy and ExportCopy allocates, overflows.
	padded := l.Flags.Has(dlpack.IsSubbyteTypePadded)
	if l.Strides == nil {
		return dlpack.ContiguousLayout(l.Shape, buf, l.DType, padded)
	}
	ext, err := dlpack.CheckLayout(l.Shape, l.Strides, l.DType, padded)
	if err != nil {
		return ext, nil, err
	}
	return ext, l.Strides, nil
}

// device returns l.Device, with the zero Device meaning the CPU.
func (l *Layout) device() dlpack.Device {
	if l.Device.Type == 0 {
		return dlpack.Device{Type: dlpack.CPU}
	}
	return l.Device
}

// view describes l at data for C; shape and strides must stay pinned while
// C reads them.
func (l *Layout) view(data unsafe.Pointer, shape, strides *int64) C.gdl_view {
	dev := l.device()
	v := C.gdl_view{
		data:    data,
		shape:   (*C.int64_t)(unsafe.Pointer(shape)),
		strides: (*C.int64_t)(unsafe.Pointer(strides)),
		flags:   C.uint64_t(l.Flags),
		ndim:    C.int32_t(len(l.Shape)),
	}
	v.device.device_type = C.DLDeviceType(dev.Type)
	v.device.device_id = C.int32_t(dev.ID)
	v.dtype.code = C.uint8_t(l.DType.Code)
	v.dtype.bits = C.uint8_t(l.DType.Bits)
	v.dtype.lanes = C.uint16_t(l.DType.Lanes)
	return v
}

// Export describes the buffer with l as a managed tensor of the version
// [Negotiate] gives for asked, in one C allocation that also holds the shape
// and strides, and which holds a reference to the buffer's memory until its
// deleter runs. It fails with [Layout.Check]'s error when l does not fit the
// buffer, with an error wrapping [ErrVersion] when the version cannot
// describe the tensor, or with [ErrNoMemory] or [ErrReleased].
func (b *Buffer) Export(l Layout, asked dlpack.Version) (dlpack.Managed, error) {
	if b.released.Load() {
		return dlpack.Managed{}, ErrReleased
	}
	var shape, strides [dlpack.MaxNDim]int64
	if _, _, err := l.check(b.n, strides[:]); err != nil {
		return dlpack.Managed{}, err
	}
	v, err := Negotiate(asked, dlpack.MinVersion(l.DType, l.device()), l.Flags.Has(dlpack.ReadOnly))
	if err != nil {
		return dlpack.Managed{}, err
	}
	copy(shape[:], l.Shape)
	if l.Strides != nil {
		copy(strides[:], l.Strides)
	}
	// gdl_pack copies shape and strides; cgo lets C see them through a
	// struct only while they are pinned.
	var pin runtime.Pinner
	defer pin.Unpin()
	pin.Pin(&shape[0])
	pin.Pin(&strides[0])
	cv := l.view(b.at(l.Offset), &shape[0], &strides[0])
	p := C.gdl_pack(b.owner, &cv, C.bool(v.Major != 0), C.uint32_t(v.Minor))
	if p == nil {
		return dlpack.Managed{}, fmt.Errorf("%w: cannot allocate a managed tensor", ErrNoMemory)
	}
	return dlpack.Managed{Pointer: p, Versioned: v.Major != 0}, nil
}

// ExportCopy is [Buffer.Export] for a new C-contiguous copy of the tensor l
// lays out in b, what a consumer asking for copy=True gets: the copy lives in
// C memory of its own, freed by the managed tensor's deleter, and is flagged
// [dlpack.IsCopied] and writable ([dlpack.IsSubbyteTypePadded] is kept,
// [dlpack.ReadOnly] dropped, so a legacy version may describe it). Its errors
// are [Buffer.Export]'s.
func (b *Buffer) ExportCopy(l Layout, asked dlpack.Version) (dlpack.Managed, error) {
	if b.released.Load() {
		return dlpack.Managed{}, ErrReleased
	}
	var buf [dlpack.MaxNDim]int64
	if _, _, err := l.check(b.n, buf[:]); err != nil {
		return dlpack.Managed{}, err
	}
	copied := l.Contiguous()
	if _, err := Negotiate(asked, dlpack.MinVersion(l.DType, l.device()), false); err != nil {
		return dlpack.Managed{}, err // before copying for nothing
	}
	c, err := CopyOf(b.at(l.Offset), l)
	if err != nil {
		return dlpack.Managed{}, err
	}
	defer c.Release()
	return c.Export(copied, asked)
}

// Contiguous returns the layout of a C-contiguous copy of l's elements, as
// [CopyOf] makes it: the same shape, dtype and device, nil strides, no
// offset, and the flags [dlpack.IsCopied] and l's
// [dlpack.IsSubbyteTypePadded] (a copy is writable, whoever may write the
// original).
func (l Layout) Contiguous() Layout {
	return Layout{Shape: l.Shape, DType: l.DType, Device: l.Device,
		Flags: l.Flags&dlpack.IsSubbyteTypePadded | dlpack.IsCopied}
}

// CopyOf returns a new buffer of C memory holding a C-contiguous copy of
// the elements that l lays out from data, the address of element (0, …, 0)
// (l.Offset is ignored): l.Contiguous() describes the copy. data must be
// CPU-accessible and hold every element of l, which CopyOf cannot check; it
// checks l itself, with [Layout.Check]'s errors (except those about a
// buffer), and fails with [ErrNoMemory] when the copy cannot be allocated.
func CopyOf(data unsafe.Pointer, l Layout) (*Buffer, error) {
	var buf [dlpack.MaxNDim]int64
	ext, strides, err := l.checkLayout(buf[:])
	if err != nil {
		return nil, err
	}
	nbytes := ext.DenseBytes
	c, err := Alloc(int(nbytes))
	if err != nil {
		return nil, err
	}
	if nbytes == 0 {
		return c, nil
	}
	if size := l.DType.StorageSize(l.Flags.Has(dlpack.IsSubbyteTypePadded)); size == 0 {
		preempt.Copy(c.Bytes(), unsafe.Slice((*byte)(data), nbytes)) // packed data is contiguous
	} else {
		strided.Copy(c.data, nil, data, strides, l.Shape, size)
	}
	return c, nil
}

// Describe checks l against the buffer as [Buffer.Export] does and fills
// *dst, a gdl_source of producer.h, so that C code can export the tensor as
// often as it is asked (gdl_negotiate, gdl_pack) without calling Go:
// dst.owner gets a reference of its own to the memory, which the C holder
// drops with gdl_owner_drop; dst.view.shape and dst.view.strides must point
// to room for len(l.Shape) values each, which Describe fills (strides in
// elements, never nil). Its errors are [Layout.Check]'s and [ErrReleased].
func (b *Buffer) Describe(l Layout, dst unsafe.Pointer) error {
	if b.released.Load() {
		return ErrReleased
	}
	if err := b.describe(l, (*C.gdl_source)(dst)); err != nil {
		return err
	}
	C.gdl_owner_retain(b.owner)
	return nil
}

// Give is [Buffer.Describe] and then [Buffer.Release] in one step, for a
// buffer its holder hands over: dst.owner takes the buffer's own reference,
// so the memory's count of references is never touched (no call into C).
// The buffer is released whether or not Give succeeds.
func (b *Buffer) Give(l Layout, dst unsafe.Pointer) error {
	if !b.released.CompareAndSwap(false, true) {
		return ErrReleased
	}
	if err := b.describe(l, (*C.gdl_source)(dst)); err != nil {
		C.gdl_owner_drop(b.owner)
		return err
	}
	return nil
}

// giveContiguous is [Lease.GiveContiguous] of a buffer its holder hands over.
func (b *Buffer) giveContiguous(shape []int64, dt dlpack.DataType, s *C.gdl_source) error {
	if !b.released.CompareAndSwap(false, true) {
		return ErrReleased
	}
	if len(shape) > dlpack.MaxNDim {
		C.gdl_owner_drop(b.owner)
		return &dlpack.LayoutError{Err: dlpack.ErrTooManyDims, Detail: fmt.Sprintf("ndim %d exceeds %d", len(shape), dlpack.MaxNDim)}
	}
	s.owner, s.pending = b.owner, nil
	// Field by field, keeping the room view.shape and view.strides point
	// to: a Layout's view would build and copy a whole gdl_view.
	v := &s.view
	v.data, v.flags, v.ndim = b.data, 0, C.int32_t(len(shape))
	v.device.device_type, v.device.device_id = C.DLDeviceType(dlpack.CPU), 0
	v.dtype.code, v.dtype.bits, v.dtype.lanes = C.uint8_t(dt.Code), C.uint8_t(dt.Bits), C.uint16_t(dt.Lanes)
	copy(unsafe.Slice((*int64)(unsafe.Pointer(v.shape)), len(shape)), shape)
	s.nbytes = C.int64_t(-1 - int64(b.n)) // gdl_unlaid: C lays the tensor out
	return nil
}

// describe fills s as Describe says, with s.owner the buffer's owner, whose
// reference the caller provides.
func (b *Buffer) describe(l Layout, s *C.gdl_source) error {
	var buf [dlpack.MaxNDim]int64
	ext, strides, err := l.check(b.n, buf[:])
	if err != nil {
		return err
	}
	s.view = l.view(b.at(l.Offset), (*int64)(unsafe.Pointer(s.view.shape)), (*int64)(unsafe.Pointer(s.view.strides)))
	if nd := len(l.Shape); nd > 0 {
		copy(unsafe.Slice((*int64)(unsafe.Pointer(s.view.shape)), nd), l.Shape)
		copy(unsafe.Slice((*int64)(unsafe.Pointer(s.view.strides)), nd), strides)
	}
	need := dlpack.MinVersion(l.DType, l.device())
	s.need = cVersion(need)
	s.nbytes = C.int64_t(ext.DenseBytes)
	s.owner = b.owner
	return nil
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
