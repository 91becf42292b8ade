// Package capsule is the CPython side of the DLPack exchange protocol: it
// wraps managed tensors in "dltensor" / "dltensor_versioned" capsules whose
// destructor deletes an unconsumed tensor, takes tensors out of capsules
// (renaming them "used_…"), and calls a producer's __dlpack__ with the
// version, device and copy keywords and the legacy fallback.
//
// Every function must be called with the GIL held.
package capsule

// #cgo pkg-config: python3
// #cgo CFLAGS: -I${SRCDIR}/../dlpack -O2
// #include "capsule.h"
import "C"
