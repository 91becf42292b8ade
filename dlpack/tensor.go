package dlpack

import "unsafe"

// Tensor mirrors the C struct DLTensor field for field. Shape and Strides
// point to NDim int64 values each; a nil Strides means the tensor is
// C-contiguous (allowed by producers older than DLPack 1.2). On 64-bit
// platforms it is 48 bytes.
type Tensor struct {
	Data       unsafe.Pointer
	Device     Device
	NDim       int32
	DType      DataType
	Shape      *int64
	Strides    *int64
	ByteOffset uint64
}

// ShapeSlice returns the NDim values at Shape as a slice sharing their
// memory, or nil if NDim is not positive or Shape is nil. Callers reading
// a tensor from another producer should check NDim against MaxNDim first.
func (t *Tensor) ShapeSlice() []int64 {
	if t.NDim <= 0 || t.Shape == nil {
		return nil
	}
	return unsafe.Slice(t.Shape, t.NDim)
}

// StridesSlice is like ShapeSlice for Strides. A nil result for a tensor
// with NDim > 0 means the producer left the strides out.
func (t *Tensor) StridesSlice() []int64 {
	if t.NDim <= 0 || t.Strides == nil {
		return nil
	}
	return unsafe.Slice(t.Strides, t.NDim)
}

// ManagedTensor mirrors the C struct DLManagedTensor, the legacy
// (unversioned) form carried in a "dltensor" capsule. Deleter is the C
// function pointer void (*)(DLManagedTensor *), or nil. On 64-bit
// platforms it is 64 bytes.
type ManagedTensor struct {
	DLTensor   Tensor
	ManagerCtx unsafe.Pointer
	Deleter    unsafe.Pointer
}

// ManagedTensorVersioned mirrors the C struct DLManagedTensorVersioned,
// carried in a "dltensor_versioned" capsule. Deleter is the C function
// pointer void (*)(DLManagedTensorVersioned *), or nil. Version comes
// first so that a consumer can reject an incompatible major version
// before reading anything else. On 64-bit platforms it is 80 bytes.
type ManagedTensorVersioned struct {
	Version    Version
	ManagerCtx unsafe.Pointer
	Deleter    unsafe.Pointer
	Flags      Flags
	DLTensor   Tensor
}
