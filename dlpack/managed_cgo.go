//go:build cgo

package dlpack

// #include "dlpack.h"
import "C"

import "unsafe"

// A Managed is a managed tensor as it travels between a producer and a
// consumer: a pointer to a ManagedTensorVersioned when Versioned, else to a
// legacy ManagedTensor. Whoever holds a Managed owns the tensor and must
// either hand it on (to a consumer, or into a capsule) or call Delete.
type Managed struct {
	Pointer   unsafe.Pointer
	Versioned bool
}

// Delete calls the managed tensor's deleter, as the spec allows: a nil
// pointer or a nil deleter does nothing. It is the only function of this
// package that calls C code; the deleter may run any code its producer
// chose.
func (m Managed) Delete() { C.gdl_managed_delete(m.Pointer, C.bool(m.Versioned)) }
