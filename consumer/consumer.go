// Package consumer takes in DLPack managed tensors made by any producer,
// validates them against the ABI (package [dlpack]) and exposes them as Go
// views: shape, strides, dtype, device, flags and the address of the first
// element. It never trusts a field it has not checked.
//
// [Import] takes ownership of a managed tensor (from a capsule, see package
// capsule, or any raw pointer) as a [Tensor]: copies ([Tensor.CopyTo],
// [Tensor.CopyFrom]), and [Tensor.Release], which calls the producer's
// deleter exactly once. [Inspect] only validates and describes, as a [View],
// for callers that manage the tensor's lifetime themselves. One set of
// element functions reads a Tensor, a View, or anything embedding a View (a
// [Viewer]: package pymodule's arguments): typed views of contiguous data
// ([Slice]) and iteration over any strides ([Elements], [Raw]).
package consumer

import (
	"unsafe"

	"github.com/godlpack/godlpack/dlpack"
	"github.com/godlpack/godlpack/internal/fmt"
)

// View is a validated description of a managed tensor. It owns nothing: it is
// valid only while the managed tensor has not been deleted.
type View struct {
	// Data is the address of the element at index (0, …, 0): the producer's
	// data pointer plus its byte offset. It is nil when the producer's data
	// pointer is NULL, which [Inspect] allows only for a tensor without
	// elements, whatever the byte offset.
	Data    unsafe.Pointer
	Shape   []int64         // the size of each dimension
	Strides []int64         // in elements, never nil when len(Shape) > 0
	DType   dlpack.DataType // the data type of the elements
	Device  dlpack.Device   // where the data is
	Flags   dlpack.Flags    // the producer's flags; 0 for a legacy managed tensor
	// Version is the producer's version; 0.0 for a legacy managed tensor.
	Version   dlpack.Version
	Versioned bool          // a [dlpack.ManagedTensorVersioned], not a legacy [dlpack.ManagedTensor]
	Extent    dlpack.Extent // the elements and bytes the layout covers, and whether it is contiguous
}

// ReadOnly reports whether the data must not be written: the producer set
// READ_ONLY, or it is a legacy tensor, which cannot say whether it may be.
func (v *View) ReadOnly() bool { return !v.Versioned || v.Flags&dlpack.ReadOnly != 0 }

// Copied reports whether the producer set IS_COPIED.
func (v *View) Copied() bool { return v.Flags&dlpack.IsCopied != 0 }

// CPUAccessible reports whether the host can read the data.
func (v *View) CPUAccessible() bool { return v.Device.Type.CPUAccessible() }

// CheckReadable returns nil if Go may read the data, and otherwise an error
// wrapping [ErrDevice]. A [Tensor]'s method of the same name also says
// whether it was released, which a View cannot know.
func (v *View) CheckReadable() error {
	if !v.CPUAccessible() {
		return fmt.Errorf("%w: it is on %v", ErrDevice, v.Device)
	}
	return nil
}

// CheckWritable returns nil if Go may write the data, and otherwise an
// error wrapping [ErrDevice] or [ErrReadOnly], as [Tensor.CheckWritable]
// does but for release.
func (v *View) CheckWritable() error {
	if err := v.CheckReadable(); err != nil {
		return err
	}
	if v.ReadOnly() {
		why := "the producer set READ_ONLY"
		if !v.Versioned {
			why = "a legacy DLPack tensor cannot say that it may be written"
		}
		return fmt.Errorf("%w: %s", ErrReadOnly, why)
	}
	return nil
}

// An Error says why [Inspect] refused a managed tensor, for the faults that
// package [dlpack] has no error for: [Error.Version] reports a major version
// this package cannot read, and [Error.Msg] names the fault and the values at
// fault.
type Error struct {
	Version bool   // the major version is not ours: the tensor cannot be read at all
	Msg     string // the fault and the values at fault
}

// Error returns [Error.Msg] prefixed with the package name.
func (e *Error) Error() string { return "consumer: " + e.Msg }

func refuse(format string, args ...any) error {
	return &Error{Msg: fmt.Sprintf(format, args...)}
}
