package dlpack

import "unsafe"

// A Managed is a managed tensor as it travels between a producer and a
// consumer: a pointer to a [ManagedTensorVersioned] when [Managed.Versioned],
// else to a legacy [ManagedTensor]. Whoever holds a Managed owns the tensor
// and must either hand it on (to a consumer, or into a capsule) or call
// [Managed.Delete].
type Managed struct {
	Pointer   unsafe.Pointer // the managed tensor, or nil
	Versioned bool           // whether [Managed.Pointer] points to a [ManagedTensorVersioned]
}
