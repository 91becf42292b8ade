package dlpack

import "unsafe"

// Tensor mirrors the C struct DLTensor field for field. [Tensor.Shape] and
// [Tensor.Strides] point to [Tensor.NDim] int64 values each; a nil
// [Tensor.Strides] means the tensor is C-contiguous (allowed by producers
// older than DLPack 1.2). On 64-bit platforms it is 48 bytes.
type Tensor struct {
	Data       unsafe.Pointer // the producer's data pointer, which [Tensor.ByteOffset] completes
	Device     Device         // where the data is
	NDim       int32          // the number of dimensions
	DType      DataType       // the data type of the elements
	Shape      *int64         // the size of each dimension
	Strides    *int64         // the stride of each dimension, in elements; nil for C-contiguous
	ByteOffset uint64         // the bytes from [Tensor.Data] to the element at index (0, …, 0)
}

// ShapeSlice returns the [Tensor.NDim] values at [Tensor.Shape] as a slice
// sharing their memory, or nil if [Tensor.NDim] is not positive or
// [Tensor.Shape] is nil. Callers reading a tensor from another producer
// should check [Tensor.NDim] against [MaxNDim] first.
func (t *Tensor) ShapeSlice() []int64 {
	if t.NDim <= 0 || t.Shape == nil {
		return nil
	}
	return unsafe.Slice(t.Shape, t.NDim)
}

// StridesSlice is like [Tensor.ShapeSlice] for [Tensor.Strides]. A nil result
// for a tensor with NDim > 0 means the producer left the strides out.
func (t *Tensor) StridesSlice() []int64 {
	if t.NDim <= 0 || t.Strides == nil {
		return nil
	}
	return unsafe.Slice(t.Strides, t.NDim)
}

// ManagedTensor mirrors the C struct DLManagedTensor, the legacy
// (unversioned) form carried in a "dltensor" capsule. [ManagedTensor.Deleter]
// is the C function pointer void (*)(DLManagedTensor *), or nil. On 64-bit
// platforms it is 64 bytes.
type ManagedTensor struct {
	DLTensor   Tensor         // the tensor
	ManagerCtx unsafe.Pointer // the producer's context, for its deleter
	Deleter    unsafe.Pointer // the producer's deleter, which the consumer calls once; or nil
}

// ManagedTensorVersioned mirrors the C struct DLManagedTensorVersioned,
// carried in a "dltensor_versioned" capsule. [ManagedTensorVersioned.Deleter]
// is the C function pointer void (*)(DLManagedTensorVersioned *), or nil.
// [ManagedTensorVersioned.Version] comes first so that a consumer can reject
// an incompatible major version before reading anything else. On 64-bit
// platforms it is 80 bytes.
type ManagedTensorVersioned struct {
	Version    Version        // the DLPack version the producer speaks
	ManagerCtx unsafe.Pointer // the producer's context, for its deleter
	Deleter    unsafe.Pointer // the producer's deleter, which the consumer calls once; or nil
	Flags      Flags          // [ReadOnly], [IsCopied], [IsSubbyteTypePadded]
	DLTensor   Tensor         // the tensor
}
