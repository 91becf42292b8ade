package consumer

import (
	"errors"
	"iter"
	"slices"
	"sync/atomic"
	"unsafe"

	"github.com/godlpack/godlpack/dlpack"
	"github.com/godlpack/godlpack/internal/fmt"
	"github.com/godlpack/godlpack/internal/preempt"
	"github.com/godlpack/godlpack/strided"
)

// Errors of the methods of [Tensor]. Each is wrapped with the values at fault.
var (
	ErrReleased = errors.New("consumer: tensor already released")
	ErrDevice   = errors.New("consumer: data is not CPU-accessible")
	ErrReadOnly = errors.New("consumer: tensor is read-only")
	ErrDType    = errors.New("consumer: data type mismatch")
	ErrLayout   = errors.New("consumer: layout mismatch")
	ErrNoMemory = errors.New("consumer: out of memory")
)

// A Tensor owns a managed tensor received from a producer: it was validated
// by [Inspect] when imported, and [Tensor.Release] calls the producer's
// deleter exactly once. The embedded [View] describes it; its [View.Shape]
// and [View.Strides] are the Tensor's own copies, valid even after
// [Tensor.Release], while [View.Data] is not.
//
// Reading or writing the data races with [Tensor.Release]: release a Tensor
// only when nothing uses it any more. Other methods may be called
// concurrently.
type Tensor struct {
	View
	managed  dlpack.Managed
	released atomic.Bool
	dims     [2 * dlpack.MaxNDim]int64
}

// Import takes ownership of the managed tensor m, such as one taken out of
// a capsule. It validates the tensor with [Inspect]; when that fails it calls
// the deleter before returning the error, so the caller never has to. A
// legacy tensor imports as read-only, because it cannot say whether it may
// be written.
func Import(m dlpack.Managed) (*Tensor, error) {
	t := &Tensor{managed: m}
	v, err := Inspect(m, t.dims[dlpack.MaxNDim:])
	if err != nil {
		m.Delete()
		return nil, err
	}
	t.Reborrow(v)
	t.managed = m
	return t, nil
}

// Borrow returns a [Tensor] over v that owns nothing: its [Tensor.Release]
// only marks it released. It is for tensors whose owner lives elsewhere, such
// as the arguments that package pymodule hands a bound function, so that code
// written for imported tensors (package ops) serves them too. v must have
// been validated ([Inspect]) and must stay valid until the [Tensor] is
// released.
func Borrow(v View) *Tensor {
	t := &Tensor{}
	t.Reborrow(v)
	return t
}

// Reborrow makes t a borrowed [Tensor] over v, as [Borrow] does, so that a
// caller may reuse released Tensors. t must own no managed tensor.
func (t *Tensor) Reborrow(v View) {
	t.managed = dlpack.Managed{}
	t.released.Store(false)
	nd := copy(t.dims[:dlpack.MaxNDim], v.Shape)
	copy(t.dims[dlpack.MaxNDim:], v.Strides)
	v.Shape = t.dims[:nd:nd]
	v.Strides = t.dims[dlpack.MaxNDim : dlpack.MaxNDim+nd : dlpack.MaxNDim+nd]
	if nd == 0 {
		v.Shape, v.Strides = nil, nil
	}
	t.View = v
}

// Release calls the producer's deleter, once: later calls do nothing. It
// may be called on any goroutine.
func (t *Tensor) Release() {
	if t.released.CompareAndSwap(false, true) {
		t.managed.Delete()
	}
}

// Released reports whether [Tensor.Release] has been called.
func (t *Tensor) Released() bool { return t.released.Load() }

// ItemSize returns the size in bytes of one element, or 0 for packed
// sub-byte data, whose elements have no address of their own.
func (t *Tensor) ItemSize() int { return t.View.itemSize() }

func (v *View) itemSize() int { return v.DType.StorageSize(v.Flags.Has(dlpack.IsSubbyteTypePadded)) }

// NBytes returns the size of the data once copied C-contiguously, which
// [Tensor.CopyTo] needs: every element counts, also those a stride of 0
// repeats. It is t.Extent.DenseBytes, which [Import] found to fit in an
// int64.
func (t *Tensor) NBytes() int64 { return t.Extent.DenseBytes }

// CheckReadable returns nil if the data may be read from Go now, and
// otherwise an error wrapping [ErrReleased] or [ErrDevice].
func (t *Tensor) CheckReadable() error {
	if t.released.Load() {
		return ErrReleased
	}
	return t.View.CheckReadable()
}

// CheckWritable returns nil if the data may be written from Go now, and
// otherwise an error wrapping [ErrReleased], [ErrDevice] or [ErrReadOnly].
func (t *Tensor) CheckWritable() error {
	if t.released.Load() {
		return ErrReleased
	}
	return t.View.CheckWritable()
}

// A Viewer is a tensor that the element functions ([Slice], [Elements],
// [Raw]) read: a *[View], whose memory the caller keeps valid; a *[Tensor],
// which they refuse once it is released ([ErrReleased]); or a type that
// embeds a View, such as package pymodule's tensor arguments. One set of
// functions serves them all.
type Viewer interface {
	// CheckReadable is [View.CheckReadable], or [Tensor.CheckReadable].
	CheckReadable() error
	view() *View
}

func (v *View) view() *View { return v }

// checkType holds x to T and to memory Go may read now.
func checkType[T dlpack.Element](x Viewer) (*View, error) {
	v := x.view()
	if want := dlpack.DataTypeOf[T](); v.DType != want {
		return nil, dtypeMismatch(v.DType, want)
	}
	return v, x.CheckReadable()
}

// Slice returns the data of a C-contiguous tensor as a []T of its
// [dlpack.Extent.Elements] elements, without copying. T must match the dtype
// ([ErrDType]) and the tensor must be C-contiguous ([ErrLayout]) and
// CPU-accessible ([ErrDevice]), and not released ([ErrReleased]). The slice
// is valid until a [Tensor]'s [Tensor.Release], or while the caller keeps a
// [View]'s memory valid; it must not be written unless x's CheckWritable
// returns nil.
//
// A Go bool must be 0 or 1, as DLPack's bool bytes are meant to be; Slice
// does not read the data to check. For bytes from a producer that may hold
// other values, read them with [Raw][uint8] and test for nonzero.
func Slice[T dlpack.Element](x Viewer) ([]T, error) {
	v, err := checkType[T](x)
	if err != nil {
		return nil, err
	}
	if err := v.CheckContiguous(v.DType); err != nil {
		return nil, err
	}
	return unsafe.Slice((*T)(v.dataOrEmpty()), v.Extent.Elements), nil
}

// CheckContiguous returns nil if v's data is a C-contiguous array of
// elements of dtype dt in memory Go may read, which [Slice] then returns,
// and otherwise an error wrapping [ErrDType], [ErrDevice] or [ErrLayout]:
// the one rule of [Slice], for a caller that makes the slice itself (a
// method of a concrete View allocates nothing, where an interface may).
func (v *View) CheckContiguous(dt dlpack.DataType) error {
	if v.DType != dt {
		return dtypeMismatch(v.DType, dt)
	}
	if err := v.CheckReadable(); err != nil {
		return err
	}
	if !v.Extent.CContiguous {
		return fmt.Errorf("%w: shape %v with strides %v is not C-contiguous", ErrLayout, v.Shape, v.Strides)
	}
	return nil
}

// emptyElement is where an empty slice points: a Slice of no elements is empty, never nil.
var emptyElement [8]byte

// dataOrEmpty is v's data, or for a tensor of no elements, whose data may be NULL, emptyElement.
func (v *View) dataOrEmpty() unsafe.Pointer {
	if v.Extent.Elements == 0 {
		return unsafe.Pointer(&emptyElement)
	}
	return v.Data
}

// Elements returns an iterator over pointers to every element of a tensor
// of any strides, in C (row-major) order, for reading, or for writing when
// x's CheckWritable returns nil. T must match the dtype and the data must be
// CPU-accessible, and a [Tensor] not released (the iterator yields nothing
// once it is). A bool tensor has [Slice]'s caveat.
func Elements[T dlpack.Element](x Viewer) (iter.Seq[*T], error) {
	v, err := checkType[T](x)
	if err != nil {
		return nil, err
	}
	return walk[T](x, v), nil
}

// Raw is [Elements] for data types Go has no type for, such as float16,
// bfloat16 and the float8 types: it yields the elements' bits as a T of
// the same size, which the caller decodes. It fails with [ErrDType] only
// when the item size differs from T's.
func Raw[T ~uint8 | ~uint16 | ~uint32 | ~uint64](x Viewer) (iter.Seq[*T], error) {
	v := x.view()
	if size := int(unsafe.Sizeof(*new(T))); v.itemSize() != size {
		return nil, fmt.Errorf("%w: %v elements are not %d bytes wide", ErrDType, v.DType, size)
	}
	if err := x.CheckReadable(); err != nil {
		return nil, err
	}
	return walk[T](x, v), nil
}

// walk iterates over the elements of v, x's view, as values of type T, as
// long as x may be read when the loop starts.
func walk[T any](x Viewer, v *View) iter.Seq[*T] {
	return func(yield func(*T) bool) {
		if x.CheckReadable() == nil {
			Walk(v, yield)
		}
	}
}

func dtypeMismatch(got, want dlpack.DataType) error {
	return fmt.Errorf("%w: the tensor holds %v, not %v", ErrDType, got, want)
}

// Walk calls yield with a pointer to every element of v, of any strides, in
// C order, until yield returns false: [Elements] without its checks,
// for an iterator of the caller's own that the compiler can inline (a loop
// over it then allocates nothing). T must be v's element type.
func Walk[T any](v *View, yield func(*T) bool) {
	if v.Extent.Elements == 0 {
		return
	}
	nd := len(v.Shape)
	if nd == 0 {
		yield((*T)(v.Data))
		return
	}
	size := int64(unsafe.Sizeof(*new(T)))
	inner, step := v.Shape[nd-1], v.Strides[nd-1]*size
	var idx [dlpack.MaxNDim]int64
	var off int64
	for {
		p := unsafe.Add(v.Data, off)
		for i := int64(0); i < inner; i++ {
			if !yield((*T)(unsafe.Add(p, i*step))) {
				return
			}
		}
		// Step the odometer of the outer dimensions.
		k := nd - 2
		for ; k >= 0; k-- {
			idx[k]++
			off += v.Strides[k] * size
			if idx[k] < v.Shape[k] {
				break
			}
			off -= v.Strides[k] * size * v.Shape[k]
			idx[k] = 0
		}
		if k < 0 {
			return
		}
	}
}

// CopyTo copies the elements, in C order, into dst, which may be Go memory
// or C memory viewed with [unsafe.Slice]. dst must hold [Tensor.NBytes]
// bytes. The copy moves the longest contiguous runs at a time (see
// [strided.Copy]).
func (t *Tensor) CopyTo(dst []byte) error {
	if err := t.CheckReadable(); err != nil {
		return err
	}
	return t.View.copyTo(dst)
}

// copyTo is [Tensor.CopyTo] once the data is known to be readable.
func (v *View) copyTo(dst []byte) error {
	n := v.Extent.DenseBytes
	if int64(len(dst)) < n {
		return fmt.Errorf("consumer: CopyTo needs %d bytes, dst has %d", n, len(dst))
	}
	if n == 0 {
		return nil
	}
	if v.itemSize() == 0 {
		preempt.Copy(dst, unsafe.Slice((*byte)(v.Data), n))
		return nil
	}
	strided.Copy(unsafe.Pointer(&dst[0]), nil, v.Data, v.Strides, v.Shape, v.itemSize())
	return nil
}

// CopyFrom copies the elements of src into t, element by element in
// index order, whatever the strides of either. Both must have the same shape
// and data type, and t must be writable. src may overlap t: it is then
// copied through a temporary buffer of C memory, and an error wrapping
// [ErrNoMemory] says when that cannot be allocated.
func (t *Tensor) CopyFrom(src *Tensor) error {
	if err := t.CheckWritable(); err != nil {
		return err
	}
	if err := src.CheckReadable(); err != nil {
		return err
	}
	return t.View.CopyFrom(&src.View)
}

// CopyFrom is [Tensor.CopyFrom] for views whose memory the caller keeps
// valid (package pymodule's tensor arguments, package ops' kernels): v must
// be writable ([View.CheckWritable]) and src readable.
func (v *View) CopyFrom(src *View) error {
	if err := v.CheckWritable(); err != nil {
		return err
	}
	if err := src.CheckReadable(); err != nil {
		return err
	}
	if v.DType != src.DType || v.itemSize() != src.itemSize() {
		return fmt.Errorf("%w: cannot copy %v into %v", ErrDType, src.DType, v.DType)
	}
	if !slices.Equal(v.Shape, src.Shape) {
		return fmt.Errorf("%w: cannot copy shape %v into shape %v", ErrLayout, src.Shape, v.Shape)
	}
	if v.Extent.Elements == 0 {
		return nil
	}
	size := v.itemSize()
	if size == 0 { // packed sub-byte data is contiguous on both sides
		preempt.Copy(unsafe.Slice((*byte)(v.Data), v.Extent.DenseBytes), unsafe.Slice((*byte)(src.Data), src.Extent.DenseBytes))
		return nil
	}
	from, fromStrides := src.Data, src.Strides
	if Overlap(v, src) {
		tmp := scratch(src.Extent.DenseBytes)
		if tmp == nil {
			return fmt.Errorf("%w: cannot allocate %d bytes to copy overlapping tensors", ErrNoMemory, src.Extent.DenseBytes)
		}
		defer free(tmp)
		if err := src.copyTo(tmp); err != nil {
			return err
		}
		from, fromStrides = unsafe.Pointer(&tmp[0]), nil
	}
	strided.Copy(v.Data, v.Strides, from, fromStrides, v.Shape, size)
	return nil
}

// Overlap reports whether the bytes that two views touch intersect.
func Overlap(a, b *View) bool {
	alo, ahi := uintptr(a.Data)+uintptr(a.Extent.Low), uintptr(a.Data)+uintptr(a.Extent.High)
	blo, bhi := uintptr(b.Data)+uintptr(b.Extent.Low), uintptr(b.Data)+uintptr(b.Extent.High)
	return alo < bhi && blo < ahi
}
