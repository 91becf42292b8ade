package pymodule

// #include "pymodule.h"
import "C"

import (
	"strconv"
	"strings"
	"unsafe"

	"github.com/godlpack/godlpack/cpython"
	"github.com/godlpack/godlpack/dlpack"
	"github.com/godlpack/godlpack/internal/fmt"
	"github.com/godlpack/godlpack/internal/pysig"
)

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
// function_args.c is the check, in C; refuse words what it finds.
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

// annotation is s as a tensor annotation: what Python tools show of a
// tensor parameter or result.
func (s *tensorSpec) annotation() pysig.Tensor {
	t := pysig.Tensor{Shape: s.shape, Order: s.order, Writable: s.writable, Convert: s.convertible, Device: "cpu"}
	for _, dt := range s.dtypes {
		t.DTypes = append(t.DTypes, dt.String())
	}
	switch {
	case s.device < 0:
		t.Device = "any"
	case s.device > 0:
		t.Device = s.device.String()
	}
	return t
}
