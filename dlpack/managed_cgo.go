//go:build cgo

package dlpack

// #cgo CFLAGS: -Wall -Wextra -Wno-unused-parameter
// #include "dlpack.h"
import "C"

// Delete calls the managed tensor's deleter, as the spec allows: a nil
// pointer or a nil deleter does nothing. It is the only function of this
// package that calls C code; the deleter may run any code its producer
// chose. Without cgo there is no Delete: Go cannot call a C function
// pointer.
func (m Managed) Delete() {
	if m.Pointer != nil { // a borrowed view's zero Managed: no call into C
		C.gdl_managed_delete(m.Pointer, C.bool(m.Versioned))
	}
}
