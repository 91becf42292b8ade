// Package producer exports memory to DLPack consumers: C buffers it
// allocates and Go memory it pins, described by managed tensors (versioned or
// legacy) that share one reference-counted owner.
//
// The owner and the deleters are C code: a consumer may call a deleter on any
// thread, with or without the GIL, after the interpreter has finalized and
// without the Go runtime being able to run.
package producer

// #cgo CFLAGS: -I${SRCDIR}/../dlpack -O2
// #include "producer.h"
import "C"

// LiveOwners reports how many owners (of any package in the process) have
// not been released yet; tests use it to prove that nothing leaks.
func LiveOwners() int64 { return int64(C.gdl_owner_live()) }
