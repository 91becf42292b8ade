// Package producer exports memory to DLPack consumers: C buffers it
// allocates and Go memory it pins, described by managed tensors (versioned or
// legacy) that share one reference-counted owner.
//
// A [Buffer] is one piece of memory and one reference to its owner.
// [Buffer.Export] describes the buffer (or part of it) with a [Layout] and
// returns a [dlpack.Managed] tensor that holds a reference of its own, so the
// memory lives until both the [Buffer] is released and every managed tensor's
// deleter has run:
//
//	b, _ := producer.Alloc(4 * 6)
//	m, _ := b.Export(producer.Layout{Shape: []int64{2, 3}, DType: dlpack.Float32}, dlpack.Current)
//	b.Release() // the managed tensor keeps the memory alive
//	// hand m.Pointer to a consumer (for Python: capsule.Wrap); it calls the deleter once
//
// [Negotiate] picks the struct from the consumer's max_version (a legacy
// DLManagedTensor when it sent none), [Buffer.ExportCopy] and [CopyOf] answer a
// consumer that asks for a copy, and [Buffer.Describe] hands a checked layout
// to C code that exports it again and again (package capsule does).
//
// The owner and the deleters are C code: a consumer may call a deleter on any
// thread, with or without the GIL, after the interpreter has finalized and
// without the Go runtime being able to run. Only a pinned Go buffer calls
// into Go, to unpin it, when its last reference goes.
package producer

// #cgo CFLAGS: -I${SRCDIR}/../dlpack -O2 -Wall -Wextra -Wno-unused-parameter
// #include "producer.h"
import "C"
