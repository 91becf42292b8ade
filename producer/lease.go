package producer

// #include "producer.h"
import "C"

import (
	"sync/atomic"
	"unsafe"

	"github.com/godlpack/godlpack/dlpack"
	"github.com/godlpack/godlpack/internal/spare"
)

// A Lease holds a [Buffer]'s reference to its memory as a value that may be
// copied: the first of its copies to be released or given spends them all,
// and the others then do nothing ([Lease.Release]) or report [ErrReleased].
// A value that is returned by copy, as a function result is, cannot hold a
// *Buffer alone: the Buffer of a lease from [AllocLease] is reused once the
// lease is spent, so that a new buffer allocates nothing on the Go heap.
// The zero Lease holds nothing.
type Lease struct {
	b   *Buffer
	gen uint64 // b.leases when the lease was made
}

// leased keeps the Buffers of spent leases, for AllocLease to reuse.
var leased spare.Slots[Buffer]

// AllocLease is [Alloc] as a [Lease]: C memory of nbytes bytes aligned to
// [Alignment], with unspecified contents, and [ErrNoMemory] when memory runs
// out.
func AllocLease(nbytes int) (Lease, error) { return allocLease(nbytes, false) }

// AllocLeaseZeroed is [AllocZeroed] as a [Lease]: every byte zero, large
// buffers without a clear.
func AllocLeaseZeroed(nbytes int) (Lease, error) { return allocLease(nbytes, true) }

func allocLease(nbytes int, zeroed bool) (Lease, error) {
	o, err := allocOwner(nbytes, zeroed)
	if err != nil {
		return Lease{}, err
	}
	return leaseOf(o, ownerData(o), nbytes), nil
}

// leaseOf returns a Lease holding one reference to o, whose memory is the n
// bytes at data, in a Buffer of the pool (no Go allocation once it holds
// one).
func leaseOf(o *C.gdl_owner, data unsafe.Pointer, n int) Lease {
	b := leased.Take()
	if b == nil {
		b = &Buffer{pooled: true}
	}
	b.owner, b.data, b.n = o, data, n
	b.released.Store(false)
	return Lease{b: b, gen: b.leases.Load()}
}

// Lease returns a new [Lease] of b's memory, with a reference of its own
// ([Buffer.Retain] as a Lease, which allocates nothing on the Go heap once
// spent leases have left their Buffers for reuse). [ErrReleased] once b is
// released.
func (b *Buffer) Lease() (Lease, error) {
	if b.released.Load() {
		return Lease{}, ErrReleased
	}
	atomic.AddInt64(b.refs(), 1) // gdl_owner_retain, without the call into C
	return leaseOf(b.owner, b.data, b.n), nil
}

// LeaseOf returns a [Lease] of b, whose holder hands b over: spending the
// lease releases b.
func LeaseOf(b *Buffer) Lease { return Lease{b: b, gen: b.leases.Load()} }

// IsZero reports whether l is the zero Lease, which holds nothing.
func (l Lease) IsZero() bool { return l.b == nil }

// live reports whether l is not spent.
func (l Lease) live() bool { return l.b != nil && l.b.leases.Load() == l.gen }

// spend ends l and its copies: true for the first call only.
func (l Lease) spend() bool { return l.b != nil && l.b.leases.CompareAndSwap(l.gen, l.gen+1) }

// recycle puts a spent lease's buffer back for reuse, when AllocLease made it.
func (l Lease) recycle() {
	if l.b.pooled {
		leased.Give(l.b)
	}
}

// Pointer returns the address of the memory's first byte, or nil once the
// lease is spent.
func (l Lease) Pointer() unsafe.Pointer {
	if !l.live() {
		return nil
	}
	return l.b.data
}

// Len returns the size of the memory in bytes, or 0 once the lease is spent.
func (l Lease) Len() int {
	if !l.live() {
		return 0
	}
	return l.b.n
}

// Release drops the lease's reference to its memory ([Buffer.Release]).
// Calls after the first, on any of its copies, do nothing.
func (l Lease) Release() {
	if l.spend() {
		l.b.Release()
		l.recycle()
	}
}

// Give is [Buffer.Give] of the lease's buffer: dst.owner takes the lease's
// reference, and the lease is spent whether or not Give succeeds.
// [ErrReleased] when it was spent already.
func (l Lease) Give(layout Layout, dst unsafe.Pointer) error {
	if !l.spend() {
		return ErrReleased
	}
	err := l.b.Give(layout, dst)
	l.recycle()
	return err
}

// GiveContiguous is [Lease.Give] of a C-contiguous layout of shape and dt at
// the start of the memory, on the CPU and with no flags, for C code that
// lays the tensor out itself: dst, a gdl_source whose view.shape and
// view.strides point to room for [dlpack.MaxNDim] values each, is left
// unlaid (producer.h), its strides unwritten, and gdl_source_lay_out
// completes it, refusing what [Layout.Check] refuses. It asks nothing of C,
// where Give calls into C for the layout rule. The lease is spent whether
// or not GiveContiguous succeeds; [ErrReleased] when it was spent already.
func (l Lease) GiveContiguous(shape []int64, dt dlpack.DataType, dst unsafe.Pointer) error {
	if !l.spend() {
		return ErrReleased
	}
	err := l.b.giveContiguous(shape, dt, (*C.gdl_source)(dst))
	l.recycle()
	return err
}
