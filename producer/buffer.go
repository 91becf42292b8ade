package producer

// #include "producer.h"
// void gdl_pin_release(gdl_owner *o);
// #cgo noescape gdl_owner_alloc
// #cgo nocallback gdl_owner_alloc
// #cgo noescape gdl_owner_alloc_zeroed
// #cgo nocallback gdl_owner_alloc_zeroed
import "C"

import (
	"errors"
	"runtime"
	"runtime/cgo"
	"sync/atomic"
	"unsafe"

	"github.com/godlpack/godlpack/internal/fmt"
)

// ErrNoMemory is returned when C memory for a buffer or a managed tensor
// cannot be allocated.
var ErrNoMemory = errors.New("producer: out of memory")

// ErrReleased is returned by the methods of a [Buffer] that has been released.
var ErrReleased = errors.New("producer: buffer already released")

// Alignment is the alignment in bytes of the data of a buffer made by [Alloc].
const Alignment = 64

// Alignment must be producer.h's GDL_ALIGN: this fails to compile if not.
const _ = uint(Alignment-C.GDL_ALIGN) + uint(C.GDL_ALIGN-Alignment)

// A Buffer is memory that can be exported: C memory made by [Alloc], or a Go
// slice pinned by [Pin]. It holds one reference to the memory's owner; each
// managed tensor exported from it holds another. Its methods may be called
// concurrently, except [Buffer.Release], which must come after all the others.
type Buffer struct {
	owner    *C.gdl_owner
	data     unsafe.Pointer
	n        int
	released atomic.Bool
	// leases counts the [Lease] values of the buffer that are spent: a
	// lease whose count it no longer is does nothing.
	leases atomic.Uint64
	pooled bool // made by AllocLease, and reused once its lease is spent
}

// Alloc returns a buffer of nbytes bytes of C memory aligned to [Alignment],
// with unspecified contents. Its data address is never nil, even for 0
// bytes. When memory runs out it returns [ErrNoMemory] rather than aborting.
func Alloc(nbytes int) (*Buffer, error) { return alloc(nbytes, false) }

// AllocZeroed is [Alloc] with every byte zero. Prefer it to clearing an
// [Alloc]'s bytes: a large buffer comes zero from the operating system, its
// pages filled in as they are first written, where Go's clear writes every
// page at once and the garbage collector cannot stop it meanwhile (it waits,
// and so does every call into Go that allocates: 170 ms for 64 MiB on a
// busy 2-core machine).
func AllocZeroed(nbytes int) (*Buffer, error) { return alloc(nbytes, true) }

func alloc(nbytes int, zeroed bool) (*Buffer, error) {
	o, err := allocOwner(nbytes, zeroed)
	if err != nil {
		return nil, err
	}
	return &Buffer{owner: o, data: ownerData(o), n: nbytes}, nil
}

// allocOwner is gdl_owner_alloc (gdl_owner_alloc_zeroed when zeroed) of
// nbytes, or the error that says why not. A small block is taken from
// producer.h's spares when one is there, without the call into C (about 300
// instructions of cgo's).
func allocOwner(nbytes int, zeroed bool) (*C.gdl_owner, error) {
	if nbytes < 0 {
		return nil, fmt.Errorf("producer: negative buffer size %d", nbytes)
	}
	if nbytes <= C.GDL_SMALL_BYTES {
		for i := range C.gdl_spare_owners {
			slot := (*unsafe.Pointer)(unsafe.Pointer(&C.gdl_spare_owners[i]))
			if atomic.LoadPointer(slot) == nil {
				continue
			}
			if o := atomic.SwapPointer(slot, nil); o != nil {
				atomic.AddInt64((*int64)(unsafe.Pointer(&C.gdl_live_owners)), 1)
				if zeroed {
					clear(unsafe.Slice((*byte)(ownerData((*C.gdl_owner)(o))), nbytes))
				}
				return (*C.gdl_owner)(o), nil
			}
		}
	}
	var o *C.gdl_owner
	if zeroed {
		o = C.gdl_owner_alloc_zeroed(C.size_t(nbytes), nil)
	} else {
		o = C.gdl_owner_alloc(C.size_t(nbytes), nil)
	}
	if o == nil {
		return nil, fmt.Errorf("%w: cannot allocate %d bytes", ErrNoMemory, nbytes)
	}
	return o, nil
}

// ownerData returns the data address of o, an owner gdl_owner_alloc made:
// GDL_ALIGN bytes past it (producer.h).
func ownerData(o *C.gdl_owner) unsafe.Pointer { return unsafe.Add(unsafe.Pointer(o), C.GDL_ALIGN) }

// Pinnable is the set of Go types whose slices [Pin] accepts: fixed-size
// values that hold no Go pointers, which C may keep.
type Pinnable interface {
	~bool | ~int8 | ~int16 | ~int32 | ~int64 | ~uint8 | ~uint16 | ~uint32 | ~uint64 |
		~float32 | ~float64 | ~complex64 | ~complex128
}

// pinned is what the cgo.Handle of a pinned buffer's owner refers to.
type pinned struct {
	pinner runtime.Pinner
	mem    unsafe.Pointer // its first element, so that its memory is reachable from the handle too
}

// Pin returns a buffer over the elements of s, without copying them. The
// memory is pinned with a [runtime.Pinner], so the garbage collector neither
// moves nor frees it, until the buffer is released and the last deleter of
// a tensor exported from it has run, whichever thread that happens on. The
// caller may keep using s; whoever writes it must agree with the consumers
// (export it [dlpack.ReadOnly] to forbid them writing).
//
// An empty s gives an empty buffer of C memory, since DLPack wants a
// non-nil data address.
func Pin[T Pinnable](s []T) (*Buffer, error) {
	if len(s) == 0 {
		return Alloc(0)
	}
	return pin(unsafe.Pointer(&s[0]), len(s)*int(unsafe.Sizeof(s[0])))
}

// pin is Pin of the n bytes of Go memory at data: one function for every
// element type, where Pin's code is compiled for each.
func pin(data unsafe.Pointer, n int) (*Buffer, error) {
	p := &pinned{mem: data}
	p.pinner.Pin(data)
	h := cgo.NewHandle(p)
	o := C.gdl_owner_new((*[0]byte)(C.gdl_pin_release), nil, C.uintptr_t(h))
	if o == nil {
		p.pinner.Unpin()
		h.Delete()
		return nil, fmt.Errorf("%w: cannot allocate an owner", ErrNoMemory)
	}
	return &Buffer{owner: o, data: data, n: n}, nil
}

// godlpackProducerUnpin is the last act of a pinned buffer's owner: it unpins
// the memory and forgets the handle. C calls it on any thread.
//
//export godlpackProducerUnpin
func godlpackProducerUnpin(h C.uintptr_t) {
	defer func() { _ = recover() }() // no panic may cross into C
	handle := cgo.Handle(h)
	handle.Value().(*pinned).pinner.Unpin()
	handle.Delete()
}

// Pointer returns the address of the buffer's first byte, or nil once the
// buffer is released.
func (b *Buffer) Pointer() unsafe.Pointer {
	if b.released.Load() {
		return nil
	}
	return b.data
}

// Len returns the size of the buffer in bytes.
func (b *Buffer) Len() int { return b.n }

// Bytes returns the buffer's memory as a byte slice, or nil once the buffer
// is released. The slice must not be used after [Buffer.Release] unless a
// managed tensor exported from the buffer is still alive.
func (b *Buffer) Bytes() []byte {
	if b.released.Load() {
		return nil
	}
	return unsafe.Slice((*byte)(b.data), b.n)
}

// References returns how many references to b's memory are alive: b's own,
// those of the Buffers and Leases [Buffer.Retain] and [Buffer.Lease] made
// of it and not yet released, and one for each exported tensor or
// gdl_source not yet deleted, whichever threads let them go. 0 once b is
// released. A holder that is the only one (1) may resize or free the
// memory; others (views) see it as it is.
func (b *Buffer) References() int {
	if b.released.Load() {
		return 0
	}
	return int(atomic.LoadInt64(b.refs()))
}

// refs is b's owner's count of references, which C changes atomically on any thread.
func (b *Buffer) refs() *int64 { return (*int64)(unsafe.Pointer(&b.owner.refs)) }

// Retain returns a new [Buffer] for the same memory with a reference of its
// own, to be released independently of b.
func (b *Buffer) Retain() (*Buffer, error) {
	if b.released.Load() {
		return nil, ErrReleased
	}
	C.gdl_owner_retain(b.owner)
	return &Buffer{owner: b.owner, data: b.data, n: b.n}, nil
}

// Release drops the buffer's reference to its memory, which is freed (or
// unpinned) once every managed tensor exported from it has been deleted too.
// Calls after the first do nothing.
func (b *Buffer) Release() {
	if b.released.CompareAndSwap(false, true) {
		C.gdl_owner_drop(b.owner)
	}
}
