package pymodule

import (
	"github.com/godlpack/godlpack/internal/fmt"
	"math"
	"reflect"
	"slices"
	"sync/atomic"
	"unsafe"

	"github.com/godlpack/godlpack/cpython"
	"github.com/godlpack/godlpack/dlpack"
	"github.com/godlpack/godlpack/internal/preempt"
	"github.com/godlpack/godlpack/producer"
)

// A Buffer is a growable array of T in C memory, for the memory an instance
// of a bound class owns: rows an index appends, samples a recorder keeps. A
// size the caller picks never aborts the process, as Go's allocator would
// ("fatal error: out of memory"): a growth past what the C allocator gives
// is an error of kind MemoryError, and the Buffer keeps what it held.
// Growth is geometric (at least double), so that appending n elements one
// at a time copies O(n) of them.
//
// [Buffer.View] hands the elements to Python as a tensor over the same
// memory, zero-copy. While a view lives the Buffer cannot be resized, as a
// bytearray with a memoryview of it cannot: a change of its length, and a
// growth, move or free of its memory ([Buffer.Append] and
// [Buffer.AppendSlice] of any element, [Buffer.Reserve] that must grow,
// [Buffer.Truncate] and [Buffer.Reset] that shorten it, [Buffer.Free]) is
// an error of kind BufferError ([ErrViewed]); what changes nothing (an
// empty append, a Reserve there is room for) goes through, and so does
// writing the elements in place. A view a method or property returns also
// keeps its instance alive (nanobind's rv_policy::reference_internal).
//
// The zero Buffer is empty and ready to use. An instance's death frees the
// Buffers among its value's fields (by value, in structs and arrays), with
// no finalizer: memory the value's views no longer hold goes back to the C
// allocator at once, and a Go value that Go code kept after its instance
// died finds them empty. Any other Buffer is freed by [Buffer.Free]. A
// Buffer must not be copied (go vet says where it is): two copies would
// free one memory. As a Go slice, it is changed by one goroutine at a time
// (a bound class's exclusive calls), while nothing reads it; [Buffer.View],
// [Buffer.Views], [Buffer.Len], [Buffer.Cap] and [Buffer.Slice] may run
// beside each other, as calls that only read an instance do. Its views are
// let go of on any thread.
type Buffer[T dlpack.Element] struct{ core bufferCore }

// bufferCore is a Buffer's state, whatever its T: what the binder frees when
// an instance dies (freeBuffers), by the offsets buffersIn finds.
type bufferCore struct {
	// mem is the memory: nil until the Buffer first grows or is viewed, and
	// once freed. Atomic (which also makes go vet report copies of a Buffer)
	// for View, which may set it beside other calls that only read.
	mem      atomic.Pointer[producer.Buffer]
	data     unsafe.Pointer // mem's first byte, once it has room
	len, cap int            // in elements
}

// ErrViewed is the error, of kind BufferError, of a change of a [Buffer]
// that would resize its memory while a view of it lives: bytearray's
// "Existing exports of data: object cannot be re-sized".
var ErrViewed error = &cpython.Error{Exception: cpython.BufferError,
	Msg: "Existing exports of data: the buffer cannot be resized"}

// Len returns the number of elements in b.
func (b *Buffer[T]) Len() int { return b.core.len }

// Cap returns the number of elements b holds room for.
func (b *Buffer[T]) Cap() int { return b.core.cap }

// Views returns how many views of b's memory are alive ([Buffer.View]'s
// tensors and what Python made of them, and Arrays not yet returned).
func (b *Buffer[T]) Views() int { return b.core.views() }

// Slice returns b's elements as a Go slice over its C memory, without a
// copy: valid until b grows, is truncated or freed (a view keeps b from
// all of them); writes to it are what views see.
func (b *Buffer[T]) Slice() []T { return unsafe.Slice((*T)(b.core.data), b.core.len) }

// Append appends v.
func (b *Buffer[T]) Append(v T) error {
	c := &b.core
	if c.len < c.cap && c.mem.Load().References() == 1 {
		*(*T)(unsafe.Add(c.data, uintptr(c.len)*unsafe.Sizeof(v))) = v
		c.len++
		return nil
	}
	if err := c.unviewed(); err != nil {
		return err
	}
	old, err := c.grow(1, dlpack.DataTypeOf[T]())
	if err != nil {
		return err
	}
	*(*T)(unsafe.Add(c.data, uintptr(c.len)*unsafe.Sizeof(v))) = v
	c.len++
	releaseMoved(old)
	return nil
}

// AppendSlice appends the elements of s, which may be b's own ([Buffer.Slice]).
func (b *Buffer[T]) AppendSlice(s []T) error {
	if len(s) == 0 {
		return nil
	}
	c := &b.core
	if err := c.unviewed(); err != nil {
		return err
	}
	old, err := c.grow(len(s), dlpack.DataTypeOf[T]())
	if err != nil {
		return err
	}
	copy(unsafe.Slice((*T)(c.data), c.cap)[c.len:], s) // s may be the old memory, freed only now
	c.len += len(s)
	releaseMoved(old)
	return nil
}

// Reserve makes room for n more elements, so that appending them moves no
// memory. It is an error of kind MemoryError when the C allocator has not
// the room (b is left as it was), or when the bytes would overflow an int;
// of kind ValueError for a negative n.
func (b *Buffer[T]) Reserve(n int) error {
	if n < 0 {
		return cpython.Errorf(cpython.ValueError, "Reserve(%d): a negative count", n)
	}
	if n == 0 {
		return nil
	}
	old, err := b.core.grow(n, dlpack.DataTypeOf[T]())
	releaseMoved(old)
	return err
}

// Truncate keeps the first n elements of b and its memory (an error of kind
// ValueError for n past [Buffer.Len] or negative).
func (b *Buffer[T]) Truncate(n int) error {
	c := &b.core
	if n < 0 || n > c.len {
		return cpython.Errorf(cpython.ValueError, "Truncate(%d) of a Buffer of %d elements", n, c.len)
	}
	if n == c.len {
		return nil
	}
	if err := c.unviewed(); err != nil {
		return err
	}
	c.len = n
	return nil
}

// Reset empties b and keeps its memory for reuse: [Buffer.Truncate](0).
func (b *Buffer[T]) Reset() error { return b.Truncate(0) }

// Free empties b and gives its memory back to the C allocator (memory a
// view holds cannot be freed: [ErrViewed]). b is then as a zero Buffer.
// Nothing else frees a Buffer that is no field of an instance's value.
func (b *Buffer[T]) Free() error {
	if err := b.core.unviewed(); err != nil {
		return err
	}
	b.core.release()
	return nil
}

// View returns a C-contiguous tensor of the given shape over the first
// elements of b, without a copy: shape's product of them, all of them when
// shape is empty ((Len(),)); an error of kind ValueError when they are more
// than b holds. Returned by a bound function, it is a tensor of b's memory
// (the module's Tensor, or what [Function.Returning] asks) that keeps the
// memory alive and b from resizing it, as long as it or anything made from
// it (a NumPy array, a PyTorch tensor, a memoryview, a DLPack capsule) is
// alive, whichever thread lets it go. When the function's first parameter
// is an instance (a method's or property's self), the view keeps that
// instance alive too. An Array that is not returned must be released.
func (b *Buffer[T]) View(shape ...int64) (Array, error) {
	c := &b.core
	dt := dlpack.DataTypeOf[T]()
	if len(shape) == 0 {
		shape = []int64{int64(c.len)}
	}
	fits, empty := len(shape) <= dlpack.MaxNDim, false
	for _, d := range shape {
		fits, empty = fits && d >= 0, empty || d == 0
	}
	n := int64(1) // the elements of the shape, while they are no more than b's
	for i := 0; fits && !empty && i < len(shape); i++ {
		fits, n = n <= int64(c.len)/shape[i], n*shape[i]
	}
	if !fits { // a copy of shape in the error: shape stays off the Go heap
		return Array{}, cpython.Errorf(cpython.ValueError, "a view of shape %v of a Buffer of %d elements",
			slices.Clone(shape), c.len)
	}
	mem := c.mem.Load()
	if mem == nil { // an empty Buffer's view holds memory too, which a later append may not move
		fresh, err := producer.Alloc(0)
		if err != nil {
			return Array{}, err
		}
		if mem = fresh; !c.mem.CompareAndSwap(nil, fresh) { // another view's, made meanwhile
			fresh.Release()
			mem = c.mem.Load()
		}
	}
	l, err := mem.Lease()
	if err != nil {
		return Array{}, err
	}
	a := arrayOf(l, shape, dt)
	a.view = true
	return a, nil
}

// views is how many views of c's memory are alive.
func (c *bufferCore) views() int {
	if mem := c.mem.Load(); mem != nil {
		return mem.References() - 1
	}
	return 0
}

// unviewed is ErrViewed, with the count, while views of c's memory live.
func (c *bufferCore) unviewed() error {
	if n := c.views(); n > 0 {
		return fmt.Errorf("%w: %s of it alive", ErrViewed, count(n, "view"))
	}
	return nil
}

// grow readies c for n more elements of dtype dt (n > 0): when they do not
// fit, it moves the elements into memory of at least double the room,
// which it refuses while a view lives. It returns the memory they left, for
// the caller to release once it has read what it appends (nil when they did
// not move). On failure c is as it was.
func (c *bufferCore) grow(n int, dt dlpack.DataType) (*producer.Buffer, error) {
	if n <= c.cap-c.len {
		return nil, nil
	}
	if err := c.unviewed(); err != nil {
		return nil, err
	}
	size := dt.ItemSize()
	most := math.MaxInt / size
	if n > most-c.len {
		return nil, cpython.Errorf(cpython.MemoryError, "a Buffer of %d %v elements cannot grow by %d: "+
			"their bytes would overflow an int", c.len, dt, n)
	}
	need := c.len + n
	room := max(need, c.cap+min(c.cap, most-c.cap), 64/size)
	mem, err := producer.Alloc(room * size)
	if err != nil && room > need { // the double is past the allocator: what is needed may not be
		room = need
		mem, err = producer.Alloc(room * size)
	}
	if err != nil {
		return nil, fmt.Errorf("a Buffer of %d %v elements cannot grow by %d: %w", c.len, dt, n, err)
	}
	if c.len > 0 { // in pieces the runtime may preempt between: a large copy would hold off the collector
		preempt.Copy(mem.Bytes(), unsafe.Slice((*byte)(c.data), c.len*size))
	}
	old := c.mem.Swap(mem)
	c.data, c.cap = mem.Pointer(), room
	return old, nil
}

// releaseMoved releases old, memory grow moved elements out of or release let go of, if any.
func releaseMoved(old *producer.Buffer) {
	if old != nil {
		old.Release()
	}
}

// release gives c's memory back, whatever holds it (an instance's death:
// its views, if any, keep the memory alive), and empties c.
func (c *bufferCore) release() {
	releaseMoved(c.mem.Swap(nil))
	c.data, c.len, c.cap = nil, 0, 0
}

// coreType is what buffersIn looks for: only a Buffer has a bufferCore.
var coreType = reflect.TypeFor[bufferCore]()

// buffersIn appends to offsets those of the Buffers in a value of type t
// at base, in its fields and array elements (not behind pointers, slices or
// maps, which other values may share).
func buffersIn(t reflect.Type, base uintptr, offsets []uintptr) []uintptr {
	switch t.Kind() {
	case reflect.Struct:
		if t == coreType {
			return append(offsets, base)
		}
		for i := range t.NumField() {
			offsets = buffersIn(t.Field(i).Type, base+t.Field(i).Offset, offsets)
		}
	case reflect.Array:
		if inner := buffersIn(t.Elem(), 0, nil); len(inner) > 0 {
			for i := range t.Len() {
				for _, o := range inner {
					offsets = append(offsets, base+uintptr(i)*t.Elem().Size()+o)
				}
			}
		}
	}
	return offsets
}

// freeBuffers frees the Buffers at offsets in the value at p: its instance died.
func freeBuffers(p unsafe.Pointer, offsets []uintptr) {
	for _, o := range offsets {
		(*bufferCore)(unsafe.Add(p, o)).release()
	}
}
