package pymodule

// #include "module.h"
import "C"

import (
	"fmt"
	"iter"
	"reflect"
	"strconv"
	"strings"
	"unsafe"

	"github.com/godlpack/godlpack/capsule"
	"github.com/godlpack/godlpack/consumer"
	"github.com/godlpack/godlpack/dlpack"
	"github.com/godlpack/godlpack/internal/pysig"
	"github.com/godlpack/godlpack/producer"
)

// A Tensor is a tensor argument: a view of the producer's memory, checked
// against the parameter's annotation, valid until the function returns
// (copy what must outlive the call). Its Shape and Strides (in elements)
// are the producer's own arrays: read them, never write them.
type Tensor struct {
	consumer.View
}

// tensorArg views an argument tensor of the call.
func tensorArg(a *C.gdl_arg_tensor) Tensor {
	v := &a.imp.v
	t := Tensor{consumer.View{
		Data:      v.data,
		DType:     *(*dlpack.DataType)(unsafe.Pointer(&v.dtype)),
		Device:    *(*dlpack.Device)(unsafe.Pointer(&v.device)),
		Flags:     dlpack.Flags(a.imp.flags),
		Version:   dlpack.Version{Major: uint32(v.version.major), Minor: uint32(v.version.minor)},
		Versioned: bool(v.versioned),
		Extent: dlpack.Extent{Elements: int64(v.elements), Low: int64(v.low), High: int64(v.high),
			DenseBytes: int64(v.nbytes), CContiguous: bool(v.c_contiguous), FContiguous: bool(v.f_contiguous)},
	}}
	if n := int(v.ndim); n > 0 {
		t.Shape = unsafe.Slice((*int64)(unsafe.Pointer(v.shape)), n)
		t.Strides = unsafe.Slice((*int64)(unsafe.Pointer(v.strides)), n)
	}
	return t
}

// Index returns the sub-tensor x[i] along the first dimension (ndim - 1
// dimensions), with no copy. It panics when x is 0-d or i is out of range.
func (t Tensor) Index(i int64) Tensor {
	if len(t.Shape) == 0 || i < 0 || i >= t.Shape[0] {
		panic(fmt.Sprintf("index %d out of range for shape %v", i, t.Shape))
	}
	s := t
	s.Data = unsafe.Add(t.Data, i*t.Strides[0]*int64(t.DType.ItemSize()))
	s.Shape, s.Strides = t.Shape[1:], t.Strides[1:]
	if t.Extent.CContiguous && len(s.Shape) <= 1 && t.Extent.Elements > 0 {
		// The row of a C-contiguous matrix (of whole-byte items, as Data's offset assumes) is dense from its
		// first element: a loop over rows calls nothing per row.
		n := t.Extent.DenseBytes / t.Shape[0]
		s.Extent = dlpack.Extent{Elements: t.Extent.Elements / t.Shape[0], High: n, DenseBytes: n, CContiguous: true,
			FContiguous: true}
		return s
	}
	e, err := dlpack.CheckLayout(s.Shape, s.Strides, s.DType, s.Flags&dlpack.IsSubbyteTypePadded != 0)
	if err != nil {
		panic(err) // a part of a valid layout is valid
	}
	s.Extent = e
	return s
}

// Elements returns an iterator over pointers to every element of t, of any
// strides, in C (row-major) order: for reading, or for writing a tensor whose
// parameter is writable. T must be the Go type of t's dtype (Elements panics
// otherwise, which the caller sees as a RuntimeError).
// A loop over it allocates nothing.
func Elements[T dlpack.Element](t Tensor) iter.Seq[*T] {
	return func(yield func(*T) bool) { walk(&t, yield) }
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
	// convertible: a tensor of another layout or dtype is copied into what is asked (convert).
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
	w.WriteString("a ")
	if s.writable {
		w.WriteString("writable ")
	}
	switch s.order {
	case 'C':
		w.WriteString("C-contiguous ")
	case 'F':
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
	s.want = w.String()
	return s, nil
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

// check holds argument i of c to s: the exception and the end of the message
// when it fails (0 when it does not). It reads the C description directly
// and allocates only to fail.
func (s *tensorSpec) check(c *call, i int) (capsule.Exception, string) {
	v := &c.tensors[*(*int32)(unsafe.Pointer(&c.args[i].v))].imp.v
	dt := *(*dlpack.DataType)(unsafe.Pointer(&v.dtype))
	dtypeOK := s.dtypes == nil
	for _, want := range s.dtypes {
		dtypeOK = dtypeOK || want == dt
	}
	shapeOK := s.shape == nil || len(s.shape) == int(v.ndim)
	for d, n := range s.shape {
		shapeOK = shapeOK && (n < 0 || d >= int(v.ndim) || n == *(*int64)(unsafe.Add(unsafe.Pointer(v.shape), d*8)))
	}
	devOK := s.device < 0 || s.device == 0 && dlpack.DeviceType(v.device.device_type).CPUAccessible() ||
		s.device == dlpack.DeviceType(v.device.device_type)
	orderOK := s.order == 0 || s.order == 'C' && bool(v.c_contiguous) || s.order == 'F' && bool(v.f_contiguous)
	writableOK := !s.writable || bool(v.c_contiguous) // the import refused what may not be written
	if dtypeOK && shapeOK && devOK && orderOK && writableOK {
		return 0, ""
	}
	return s.refuse(tensorArg(&c.tensors[*(*int32)(unsafe.Pointer(&c.args[i].v))]))
}

// refuse says what is wrong with t, which check found at fault (or, for
// writable strided tensors, has left to refuse to decide).
func (s *tensorSpec) refuse(t Tensor) (capsule.Exception, string) {
	dtypeOK := s.dtypes == nil
	for _, dt := range s.dtypes {
		dtypeOK = dtypeOK || dt == t.DType
	}
	got := func() string { return fmt.Sprintf("a %d-D %v one", len(t.Shape), t.DType) }
	switch {
	case !dtypeOK || s.shape != nil && len(s.shape) != len(t.Shape):
		return capsule.TypeError, "must be " + s.want + ", got " + got()
	case s.device == 0 && !t.CPUAccessible() || s.device > 0 && t.Device.Type != s.device:
		return capsule.BufferError, "must be " + s.want + " in memory the CPU reads, got one on " + t.Device.String()
	}
	for d, n := range s.shape {
		if n >= 0 && t.Shape[d] != n {
			return capsule.ValueError, "must be " + s.want + ", got shape " + shapeString(t.Shape)
		}
	}
	switch {
	case s.order == 'C' && !t.Extent.CContiguous:
		return capsule.ValueError, "must be " + s.want + ", got a non-contiguous one (strides " + fmt.Sprint(t.Strides) + ")"
	case s.order == 'F' && !t.Extent.FContiguous:
		return capsule.ValueError, "must be " + s.want + ", got strides " + fmt.Sprint(t.Strides)
	}
	if s.writable && !t.Extent.CContiguous && dlpack.SelfOverlapping(t.Shape, t.Strides) {
		return capsule.ValueError, "is written in place, and its elements share memory (strides " + fmt.Sprint(t.Strides) + ")"
	}
	return 0, ""
}

// An Array is a tensor result: memory made by NewArray or FromSlice and its
// layout. Returning it hands it to the caller, zero-copy; an Array that is
// not returned should be Released.
type Array struct {
	buf    *producer.Buffer
	layout producer.Layout
}

// Release lets go of memory that will not be returned.
func (a Array) Release() {
	if a.buf != nil {
		a.buf.Release()
	}
}

// NewArray returns a C-contiguous Array of the given shape and element type
// T in C memory (never the Go heap, so that a size the caller chooses never
// aborts the process), and its elements as a slice to fill. Its error is a
// MemoryError when memory runs out, a ValueError for a negative or
// overflowing shape.
func NewArray[T dlpack.Element](shape ...int64) (Array, []T, error) {
	dt := dlpack.DataTypeOf[T]()
	n, ok := int64(1), true
	for _, d := range shape {
		if d < 0 || d > 0 && n > (1<<62)/d {
			ok = false
		}
		n *= max(d, 0)
	}
	size := int64(unsafe.Sizeof(*new(T)))
	if !ok || n > (1<<62)/size {
		return Array{}, nil, capsule.Errorf(capsule.ValueError, "cannot make a tensor of shape %v", shape)
	}
	b, err := producer.Alloc(int(n * size))
	if err != nil {
		return Array{}, nil, err
	}
	s := unsafe.Slice((*T)(b.Pointer()), n)
	clear(s)
	return Array{buf: b, layout: producer.Layout{Shape: shape, DType: dt}}, s, nil
}

// FromSlice returns an Array over the elements of s, without copying them:
// the memory is pinned until the last consumer lets go. shape defaults to
// (len(s),).
func FromSlice[T dlpack.Element](s []T, shape ...int64) (Array, error) {
	b, err := producer.Pin(s)
	if err != nil {
		return Array{}, err
	}
	if shape == nil {
		shape = []int64{int64(len(s))}
	}
	l := producer.Layout{Shape: shape, DType: dlpack.DataTypeOf[T]()}
	if err := l.Check(b.Len()); err != nil {
		b.Release()
		return Array{}, err
	}
	return Array{buf: b, layout: l}, nil
}

// describe hands a into result v of c (the Array's reference passes to C).
func (a Array) describe(c *call, v *C.gdl_value) error {
	if a.buf == nil {
		return fmt.Errorf("a zero Array was returned")
	}
	defer a.buf.Release()
	idx := int(c.nout)
	out := &c.out[idx]
	out.src.view.shape = &out.dims[0]
	out.src.view.strides = &out.dims[dlpack.MaxNDim]
	if err := a.buf.Describe(a.layout, unsafe.Pointer(&out.src)); err != nil {
		return err
	}
	c.nout++
	*(*int32)(unsafe.Pointer(&v.v)) = int32(idx)
	return nil
}

// pinners make an Array of a slice result, by element kind.
var pinners = map[reflect.Kind]func(unsafe.Pointer, int) (Array, error){
	reflect.Bool:       pinAs[bool],
	reflect.Int8:       pinAs[int8],
	reflect.Int16:      pinAs[int16],
	reflect.Int32:      pinAs[int32],
	reflect.Int64:      pinAs[int64],
	reflect.Uint16:     pinAs[uint16],
	reflect.Uint32:     pinAs[uint32],
	reflect.Uint64:     pinAs[uint64],
	reflect.Float32:    pinAs[float32],
	reflect.Float64:    pinAs[float64],
	reflect.Complex64:  pinAs[complex64],
	reflect.Complex128: pinAs[complex128],
}

func pinAs[T dlpack.Element](p unsafe.Pointer, n int) (Array, error) {
	return FromSlice(unsafe.Slice((*T)(p), n))
}
