package pymodule

// #include "pymodule.h"
import "C"

import (
	"errors"
	"iter"
	"math/bits"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unsafe"

	"github.com/godlpack/godlpack/consumer"
	"github.com/godlpack/godlpack/cpython"
	"github.com/godlpack/godlpack/dlpack"
	"github.com/godlpack/godlpack/internal/fmt"
	"github.com/godlpack/godlpack/internal/pysig"
	"github.com/godlpack/godlpack/producer"
)

// A Tensor is a tensor argument: a view of the producer's memory, checked
// against the parameter's annotation, valid until the function returns
// (copy what must outlive the call). Its Shape and Strides (in elements)
// are the producer's own arrays or the call's copies: read them, never
// write them. Only a writable parameter's data may be written. A NumPy
// array or a PyTorch tensor is usually read in place, without a managed
// tensor (docs/protocol.md, "One import"); a view lent by an exchange
// table has no flags of its own and is flagged [dlpack.ReadOnly].
type Tensor struct {
	consumer.View
	// 136 bytes of View padded to 144: every call copies a Tensor a few times,
	// and a size that is not a multiple of 16 is copied with an overlapping
	// last move, which stalls on the previous copy's stores.
	_ [8]byte
}

// tensorArg is the Tensor of an argument of the call: the Go view C wrote (gdl_arg_view).
func tensorArg(a *C.gdl_arg_tensor) Tensor { return *(*Tensor)(unsafe.Pointer(&a.view)) }

// The C view is a Tensor field for field: each line fails to compile if an
// offset or the size differs (an index of [1] other than 0 is out of range).
var (
	goView  C.gdl_go_view
	tensorV Tensor
	_       = [1]int{}[unsafe.Sizeof(goView)-unsafe.Sizeof(tensorV)]
	_       = [1]int{}[unsafe.Offsetof(goView.data)-unsafe.Offsetof(tensorV.Data)]
	_       = [1]int{}[unsafe.Offsetof(goView.shape)-unsafe.Offsetof(tensorV.Shape)]
	_       = [1]int{}[unsafe.Offsetof(goView.strides)-unsafe.Offsetof(tensorV.Strides)]
	_       = [1]int{}[unsafe.Offsetof(goView.dtype)-unsafe.Offsetof(tensorV.DType)]
	_       = [1]int{}[unsafe.Offsetof(goView.device)-unsafe.Offsetof(tensorV.Device)]
	_       = [1]int{}[unsafe.Offsetof(goView.flags)-unsafe.Offsetof(tensorV.Flags)]
	_       = [1]int{}[unsafe.Offsetof(goView.version)-unsafe.Offsetof(tensorV.Version)]
	_       = [1]int{}[unsafe.Offsetof(goView.versioned)-unsafe.Offsetof(tensorV.Versioned)]
	_       = [1]int{}[unsafe.Offsetof(goView.elements)-unsafe.Offsetof(tensorV.Extent.Elements)-unsafe.Offsetof(tensorV.Extent)]
	_       = [1]int{}[unsafe.Offsetof(goView.low)-unsafe.Offsetof(tensorV.Extent.Low)-unsafe.Offsetof(tensorV.Extent)]
	_       = [1]int{}[unsafe.Offsetof(goView.high)-unsafe.Offsetof(tensorV.Extent.High)-unsafe.Offsetof(tensorV.Extent)]
	_       = [1]int{}[unsafe.Offsetof(goView.dense_bytes)-unsafe.Offsetof(tensorV.Extent.DenseBytes)-unsafe.Offsetof(tensorV.Extent)]
	_       = [1]int{}[unsafe.Offsetof(goView.c_contiguous)-unsafe.Offsetof(tensorV.Extent.CContiguous)-unsafe.Offsetof(tensorV.Extent)]
	_       = [1]int{}[unsafe.Offsetof(goView.f_contiguous)-unsafe.Offsetof(tensorV.Extent.FContiguous)-unsafe.Offsetof(tensorV.Extent)]
)

// Index returns the sub-tensor x[i] along the first dimension (ndim - 1
// dimensions), with no copy. It panics when x is 0-d, when i is out of
// range, and when x holds packed sub-byte elements (a float4 tensor without
// [dlpack.IsSubbyteTypePadded]) and row i does not start on a byte: Data
// cannot point into the middle of a byte.
func (t Tensor) Index(i int64) Tensor {
	if len(t.Shape) == 0 || i < 0 || i >= t.Shape[0] {
		panic(fmt.Sprintf("index %d out of range for shape %v", i, t.Shape))
	}
	s := t
	s.Shape, s.Strides = t.Shape[1:], t.Strides[1:]
	if t.DType.SubByte() && t.Flags&dlpack.IsSubbyteTypePadded == 0 {
		bits := int64(t.DType.Bits) * int64(t.DType.Lanes)
		if bit := i * t.Strides[0] * bits; bit%8 != 0 {
			panic(fmt.Sprintf("row %d of a packed %v tensor of shape %v starts at bit %d, inside a byte: Index "+
				"cannot address it", i, t.DType, t.Shape, bit))
		}
		s.Data = unsafe.Add(t.Data, i*t.Strides[0]*bits/8)
	} else {
		s.Data = unsafe.Add(t.Data, i*t.Strides[0]*int64(t.DType.ItemSize()))
		if t.Extent.CContiguous && len(s.Shape) <= 1 && t.Extent.Elements > 0 {
			// The row of a C-contiguous matrix of byte-addressable items is dense from its first element: a
			// loop over rows calls nothing per row, and divides nothing (a 64-bit division costs a row of
			// a few elements more than its loop).
			elements := int64(1)
			if len(s.Shape) == 1 {
				elements = s.Shape[0]
			}
			n := elements * int64(t.DType.ItemSize())
			s.Extent = dlpack.Extent{Elements: elements, High: n, DenseBytes: n, CContiguous: true, FContiguous: true}
			return s
		}
	}
	e, err := dlpack.CheckLayout(s.Shape, s.Strides, s.DType, s.Flags&dlpack.IsSubbyteTypePadded != 0)
	if err != nil {
		panic(err) // a part of a valid layout is valid
	}
	s.Extent = e
	return s
}

// Slice returns the elements of t as a []T over its memory, without a copy,
// for an argument whose declaration guarantees a C-contiguous tensor of T in
// memory the CPU reads ("tensor[float32, C]", "tensor[float32, (*, *), C,
// convert]"): valid while t is (until the function returns); only a
// writable parameter's elements may be written. Where the declaration does
// not guarantee it, Slice panics (the call raises RuntimeError with what t
// is instead): read such a tensor with [consumer.Slice], which returns the
// error (a TypeError, ValueError or BufferError from a bound function), or
// with [Elements].
func Slice[T dlpack.Element](t Tensor) []T {
	// consumer.Slice's rule, through the View's method: an interface of &t would move t to the heap each call.
	if err := t.CheckContiguous(dlpack.DataTypeOf[T]()); err != nil {
		panic(fmt.Sprintf("pymodule.Slice[%v]: %v", dlpack.DataTypeOf[T](), err))
	}
	if t.Extent.Elements == 0 {
		return []T{}
	}
	return unsafe.Slice((*T)(t.Data), t.Extent.Elements)
}

// Elements returns an iterator over pointers to every element of t, of any
// strides, in C (row-major) order: for reading, or for writing a tensor whose
// parameter is writable. It is [consumer.Elements] for an argument whose
// declaration holds it to T: T must be the Go type of t's dtype (Elements
// panics otherwise, which the caller sees as a RuntimeError). A loop over it
// allocates nothing, and over a C-contiguous tensor the compiler inlines it
// into the caller's with its body.
func Elements[T dlpack.Element](t Tensor) iter.Seq[*T] {
	return func(yield func(*T) bool) {
		if t.Extent.CContiguous && t.DType == dlpack.DataTypeOf[T]() {
			// A dense tensor's loop is a plain one, which the compiler inlines into the caller's with its body.
			for i := range t.Extent.Elements {
				if !yield((*T)(unsafe.Add(t.Data, uintptr(i)*unsafe.Sizeof(*new(T))))) {
					return
				}
			}
			return
		}
		walk(&t, yield)
	}
}

// walk is Elements' loop, apart so that Elements inlines (and its closure stays on the stack).
func walk[T dlpack.Element](t *Tensor, yield func(*T) bool) {
	if want := dlpack.DataTypeOf[T](); t.DType != want {
		panic(fmt.Sprintf("Elements[%v] of a %v tensor", want, t.DType))
	}
	consumer.Walk(&t.View, yield)
}

// A tensorSpec is a tensor parameter's annotation, resolved.
type tensorSpec struct {
	dtypes   []dlpack.DataType // nil: any
	shape    []int64           // nil: any ndim; -1: any size
	order    byte
	device   dlpack.DeviceType // 0: CPU-readable; -1: any
	writable bool
	// convertible: a tensor of another layout or dtype is copied into what is asked (convert); a writable one
	// of another layout only, its copy written back after a call that succeeds.
	convertible bool
	want        string // "a 2-D float32 or float64 tensor"
}

// resolveTensor checks an annotation's names.
func resolveTensor(a pysig.Tensor) (*tensorSpec, error) {
	s := &tensorSpec{shape: a.Shape, order: a.Order, writable: a.Writable, convertible: a.Convert}
	for _, n := range a.DTypes {
		dt, err := dlpack.ParseDataType(n)
		if err != nil {
			return nil, fmt.Errorf("unknown dtype %q", n)
		}
		s.dtypes = append(s.dtypes, dt)
	}
	switch a.Device {
	case "cpu":
	case "any":
		s.device = -1
	default:
		found := false
		for t := dlpack.DeviceType(0); t < 64; t++ {
			if t.Known() && t.String() == a.Device {
				s.device, found = t, true
			}
		}
		if !found {
			return nil, fmt.Errorf("unknown device %q", a.Device)
		}
	}
	var w strings.Builder
	if s.writable {
		w.WriteString("writable ")
	}
	switch {
	case s.convertible: // any layout is taken: said last
	case s.order == 'C':
		w.WriteString("C-contiguous ")
	case s.order == 'F':
		w.WriteString("Fortran-contiguous ")
	}
	if s.shape != nil && !hasFixedSize(s.shape) {
		fmt.Fprintf(&w, "%d-D ", len(s.shape))
	}
	for i, dt := range s.dtypes {
		if i > 0 {
			w.WriteString(map[bool]string{true: " or ", false: ", "}[i == len(s.dtypes)-1])
		}
		w.WriteString(dt.String())
		if i == len(s.dtypes)-1 {
			w.WriteString(" ")
		}
	}
	w.WriteString("tensor")
	if hasFixedSize(s.shape) {
		w.WriteString(" of shape " + shapeString(s.shape))
	}
	if s.device > 0 {
		w.WriteString(" on " + s.device.String())
	}
	if s.convertible {
		if to := s.castTarget(); s.writable {
			w.WriteString(" (any layout: a copy, written back)")
		} else if to != (dlpack.DataType{}) {
			fmt.Fprintf(&w, " (any layout; bool, integer and float dtypes converted to %v)", to)
		} else {
			w.WriteString(" (any layout, converted)")
		}
	}
	s.want = article(w.String()) + w.String()
	return s, nil
}

// article is the indefinite article of phrase, by how its first word is
// said: "an int32 tensor", "an 8-D tensor", "a uint8 tensor".
func article(phrase string) string {
	for _, vowel := range []string{"int", "8", "11-", "18-"} {
		if strings.HasPrefix(phrase, vowel) {
			return "an "
		}
	}
	return "a "
}

func hasFixedSize(shape []int64) bool {
	for _, n := range shape {
		if n >= 0 {
			return true
		}
	}
	return false
}

func shapeString(shape []int64) string {
	parts := make([]string, len(shape))
	for i, n := range shape {
		parts[i] = "*"
		if n >= 0 {
			parts[i] = strconv.FormatInt(n, 10)
		}
	}
	if len(parts) == 1 {
		return "(" + parts[0] + ",)"
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

// fill writes s into the C parameter that calls read: gdl_spec_fault in
// args.c is the check, in C; refuse words what it finds.
func (s *tensorSpec) fill(cp *C.gdl_param) {
	cp.writable = C.bool(s.writable)
	sp := &cp.spec
	if n := len(s.dtypes); n > 0 {
		sp.dtypes = (*C.DLDataType)(C.malloc(C.size_t(n) * C.size_t(unsafe.Sizeof(C.DLDataType{}))))
		copy(unsafe.Slice((*dlpack.DataType)(unsafe.Pointer(sp.dtypes)), n), s.dtypes)
		sp.ndtypes = C.int32_t(n)
	}
	sp.ndim = -1
	if s.shape != nil {
		sp.ndim = C.int32_t(len(s.shape))
		if len(s.shape) > 0 {
			sp.shape = (*C.int64_t)(C.malloc(C.size_t(len(s.shape)) * 8))
			copy(unsafe.Slice((*int64)(unsafe.Pointer(sp.shape)), len(s.shape)), s.shape)
		}
	}
	sp.device = C.int32_t(s.device)
	sp.order = C.char(s.order)
}

// refuse words fault, what gdl_spec_fault (the parameter's check, in C)
// found wrong with t: the exception and the end of the message, or 0 and ""
// for a strided tensor to write whose elements do not overlap.
func (s *tensorSpec) refuse(fault C.int, t Tensor) (cpython.Exception, string) {
	// A tensor to write whose elements overlap is refused whatever its layout: no copy of it could be written back.
	if s.writable && fault >= C.GDL_SPEC_C_ORDER && dlpack.SelfOverlapping(t.Shape, t.Strides) {
		return cpython.ValueError, "is written in place, and its elements share memory (strides " + fmt.Sprint(t.Strides) + ")"
	}
	switch fault {
	case C.GDL_SPEC_TYPE:
		return cpython.TypeError, fmt.Sprintf("must be %s, got a %d-D %v one", s.want, len(t.Shape), t.DType)
	case C.GDL_SPEC_DEVICE:
		return cpython.BufferError, "must be " + s.want + " in memory the CPU reads, got one on " + t.Device.String()
	case C.GDL_SPEC_SHAPE:
		return cpython.ValueError, "must be " + s.want + ", got shape " + shapeString(t.Shape)
	case C.GDL_SPEC_C_ORDER:
		return cpython.ValueError, "must be " + s.want + ", got a non-contiguous one (strides " + fmt.Sprint(t.Strides) + ")"
	case C.GDL_SPEC_F_ORDER:
		return cpython.ValueError, "must be " + s.want + ", got strides " + fmt.Sprint(t.Strides)
	}
	return 0, ""
}

// An Array is a tensor result: memory made by [NewArray] or [FromSlice] and
// its layout. Returning it hands it to the caller, zero-copy; an Array that
// is not returned should be released ([Array.Release]). Its copies share
// one reference: the first to be returned or released spends it, and the
// others are then refused as results, and their Release does nothing.
type Array struct {
	lease producer.Lease // NewArray's allocates nothing on the Go heap
	dtype dlpack.DataType
	shape []int64 // nil when dims holds the shape
	// dims holds a shape of up to len(dims) dimensions, so that NewArray's
	// shape, which the caller may build in its call, stays off the Go heap.
	dims [4]int64
	ndim int8
	view bool // a Buffer's view (Buffer.View), which keeps its call's first instance alive
}

// arrayOf returns a C-contiguous Array of b, of the given shape (which it
// copies) and dtype.
func arrayOf(l producer.Lease, shape []int64, dt dlpack.DataType) Array {
	a := Array{lease: l, dtype: dt}
	if len(shape) <= len(a.dims) {
		a.ndim = int8(copy(a.dims[:], shape))
	} else {
		a.shape = slices.Clone(shape)
	}
	return a
}

// Release lets go of memory that will not be returned.
func (a Array) Release() {
	a.lease.Release()
}

// NewArray returns a C-contiguous [Array] of the given shape and element type
// T in C memory (never the Go heap, so that a size the caller chooses never
// aborts the process), and its elements, all zero, as a slice to fill. Its error is a
// MemoryError when memory runs out, a ValueError for a negative or
// overflowing shape.
func NewArray[T dlpack.Element](shape ...int64) (Array, []T, error) {
	dt := dlpack.DataTypeOf[T]()
	n, ok := uint64(1), true
	for _, d := range shape {
		hi, lo := bits.Mul64(n, uint64(max(d, 0))) // a multiplication: a division per dimension cost up to 40 cycles
		ok = ok && d >= 0 && hi == 0 && lo <= 1<<62
		n = lo
	}
	size := uint64(unsafe.Sizeof(*new(T)))
	if !ok || n > (1<<62)/size {
		return Array{}, nil, cpython.Errorf(cpython.ValueError, "cannot make a tensor of shape %v", slices.Clone(shape)) // a copy: shape stays off the heap
	}
	b, err := producer.AllocLeaseZeroed(int(n * size)) // no clear: Go's cannot be preempted, and pages fill as written
	if err != nil {
		return Array{}, nil, err
	}
	return arrayOf(b, shape, dt), unsafe.Slice((*T)(b.Pointer()), n), nil
}

// FromSlice returns an [Array] over the elements of s, without copying them:
// the memory is pinned until the last consumer lets go. shape defaults to
// (len(s),).
func FromSlice[T dlpack.Element](s []T, shape ...int64) (Array, error) {
	b, err := producer.Pin(s)
	return pinnedArray(b, err, len(s), dlpack.DataTypeOf[T](), shape)
}

// pinnedArray is FromSlice's Array over b, pinned memory of n elements of
// dt, of shape (1-D for nil): one function for every element type.
func pinnedArray(b *producer.Buffer, err error, n int, dt dlpack.DataType, shape []int64) (Array, error) {
	if err != nil {
		return Array{}, err
	}
	if shape == nil {
		shape = []int64{int64(n)}
	}
	l := producer.Layout{Shape: shape, DType: dt}
	if err := l.Check(b.Len()); err != nil {
		b.Release()
		return Array{}, err
	}
	return arrayOf(producer.LeaseOf(b), l.Shape, l.DType), nil
}

// describe hands a into result v of c (the Array's reference passes to C).
func (a Array) describe(c *call, v *C.gdl_value) error {
	if a.lease.IsZero() {
		return fmt.Errorf("a zero Array was returned")
	}
	idx := int(c.nout)
	out := &c.out[idx]
	out.src.pending = nil
	out.src.view.shape = &out.dims[0]
	out.src.view.strides = &out.dims[dlpack.MaxNDim]
	// Laid out by convert_tensor in C, after the call: an Array is C-contiguous at the start of its memory.
	if err := a.lease.GiveContiguous(a.dimensions(), a.dtype, unsafe.Pointer(&out.src)); err != nil { // the Array's reference passes to C
		if errors.Is(err, producer.ErrReleased) {
			return errors.New("an Array was released, or returned already: an Array is returned once")
		}
		return err
	}
	c.nout++
	*(*int32)(unsafe.Pointer(&v.v)) = int32(idx)
	c.views = c.views&^(1<<idx) | C.uint32_t(boolBit(a.view))<<idx // gdl_view_keep's, in C once Go returns
	return nil
}

func boolBit(b bool) uint32 {
	if b {
		return 1
	}
	return 0
}

// An element is what a Go slice of one element kind is as a tensor: its
// dtype, and how a result of that slice is pinned into an Array.
type element struct {
	dtype dlpack.DataType
	pin   func(data unsafe.Pointer, n int) (Array, error)
}

// elements are the Go slices a function may take and return as tensors, by element kind.
var elements = map[reflect.Kind]element{
	reflect.Bool:       elementOf(dlpack.Bool),
	reflect.Int8:       elementOf(dlpack.Int8),
	reflect.Int16:      elementOf(dlpack.Int16),
	reflect.Int32:      elementOf(dlpack.Int32),
	reflect.Int64:      elementOf(dlpack.Int64),
	reflect.Uint16:     elementOf(dlpack.Uint16),
	reflect.Uint32:     elementOf(dlpack.Uint32),
	reflect.Uint64:     elementOf(dlpack.Uint64),
	reflect.Float32:    elementOf(dlpack.Float32),
	reflect.Float64:    elementOf(dlpack.Float64),
	reflect.Complex64:  elementOf(dlpack.Complex64),
	reflect.Complex128: elementOf(dlpack.Complex128),
}

// elementOf is the element of dtype dt: one function pins a slice of any,
// where a generic one would be compiled for each.
func elementOf(dt dlpack.DataType) element {
	return element{dt, func(p unsafe.Pointer, n int) (Array, error) { return pinElements(p, n, dt) }}
}

// sliceSpec is what a []T parameter of Go type t asks: a 1-D C-contiguous
// tensor of T's dtype, converted (copied) from another dtype or layout. An
// annotation may only add "writable", which refuses what would need a copy.
func sliceSpec(t reflect.Type, annotation pysig.Tensor, annotated bool) (pysig.Tensor, error) {
	spec := pysig.Tensor{DTypes: []string{elements[t.Elem().Kind()].dtype.String()}, Shape: []int64{-1}, Order: 'C',
		Device: "cpu", Convert: true}
	if annotated {
		a := annotation // tensor[writable], field by field: reflect.DeepEqual would link all its reflection
		if a.DTypes != nil || a.Shape != nil || a.Order != 0 || a.Device != "cpu" || !a.Writable || a.Convert {
			return spec, fmt.Errorf("a Go %v takes a 1-D C-contiguous %v tensor: its annotation may only be tensor[writable]",
				t, spec.DTypes[0])
		}
		spec.Writable, spec.Convert = true, false
	}
	return spec, nil
}

// pinElements is FromSlice of the n elements of dt at p, pinned as bytes:
// one function for every element type, where FromSlice's code is compiled
// for each (the Go memory is one object, which pinning a byte of pins).
func pinElements(p unsafe.Pointer, n int, dt dlpack.DataType) (Array, error) {
	b, err := producer.Pin(unsafe.Slice((*byte)(p), n*dt.ItemSize()))
	return pinnedArray(b, err, n, dt, nil)
}
