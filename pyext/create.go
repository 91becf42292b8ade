package main

// #include "ext.h"
import "C"

import (
	"errors"
	"fmt"
	"unsafe"

	"github.com/godlpack/godlpack/arange"
	"github.com/godlpack/godlpack/cpython"
	"github.com/godlpack/godlpack/dlpack"
	"github.com/godlpack/godlpack/producer"
	"github.com/godlpack/godlpack/scalar"
)

// goCreate makes the tensors of empty, zeros, full and arange in C memory
// ([producer.Alloc]), so that a failed allocation is a MemoryError, and
// describes it in a.out. It returns 0, or -1 with the exception set.
//
//export goCreate
func goCreate(a *C.gdl_create_args) (rc C.int) {
	defer recovered(&rc)
	start, stop, step := scalarOf(&a.start), scalarOf(&a.stop), scalarOf(&a.step)
	if a.kind == C.GDL_ARANGE {
		n, err := arange.Len(start, stop, step)
		if err != nil {
			return arangeError(err)
		}
		a.shape[0] = C.int64_t(n)
		if !a.has_dtype {
			dt := arange.DType(start, stop, step)
			a.dtype = *(*C.DLDataType)(unsafe.Pointer(&dt))
		}
	}
	dt := *(*dlpack.DataType)(unsafe.Pointer(&a.dtype))
	shape := int64s(&a.shape[0], int(a.ndim))
	l := producer.Layout{Shape: shape, DType: dt}
	// Sub-byte elements are made one byte each, so that each has an address.
	if dt.SubByte() {
		l.Flags = dlpack.IsSubbyteTypePadded
	}
	var strides [dlpack.MaxNDim]int64
	ext, _, err := dlpack.ContiguousLayout(shape, strides[:0], dt, true)
	if err != nil {
		return fail(cpython.Errorf(cpython.ValueError, "cannot make a %v tensor of shape %v: %v", dt, shape, err))
	}
	var fill []byte
	switch a.kind {
	case C.GDL_FULL:
		if fill, err = scalar.Encode(dt, scalarOf(&a.value)); err != nil {
			return fail(valueError(err))
		}
	case C.GDL_ARANGE:
		if err := arange.Check(dt, start, step, ext.Elements); err != nil {
			return arangeError(fmt.Errorf("arange(%v, %v, %v) as %v: %w", start, stop, step, dt, err))
		}
	}
	nbytes := ext.Bytes()
	alloc := producer.Alloc
	if a.kind == C.GDL_ZEROS {
		alloc = producer.AllocZeroed // zero from calloc: no clear, which the collector would wait for
	}
	b, err := alloc(int(nbytes))
	if err != nil {
		return fail(fmt.Errorf("cannot allocate %d bytes for a %v tensor of shape %v: %w", nbytes, dt, shape, err))
	}
	defer b.Release()
	buf := b.Bytes()
	switch a.kind {
	case C.GDL_FULL:
		cpython.WithoutGIL(nbytes, func() { scalar.Fill(buf, fill) })
	case C.GDL_ARANGE:
		cpython.WithoutGIL(nbytes, func() { err = arange.Write(dt, buf, start, step) })
	}
	if err != nil {
		return fail(err)
	}
	if err := b.Give(l, unsafe.Pointer(a.out)); err != nil { // the reference passes to the result
		return fail(err)
	}
	return 0
}

// valueError names the Python exception of a value [scalar.Encode] refused, as
// NumPy raises them.
func valueError(err error) error {
	msg := "fill value: " + err.Error()
	switch {
	case errors.Is(err, scalar.ErrRange):
		return cpython.Errorf(cpython.OverflowError, "%s", msg)
	case errors.Is(err, scalar.ErrNotFinite):
		return cpython.Errorf(cpython.ValueError, "%s", msg)
	}
	return cpython.Errorf(cpython.TypeError, "%s", msg)
}

// scalarOf reads a gdl_scalar, which is a scalar.Scalar field for field (cpython/number.go).
func scalarOf(s *C.gdl_scalar) scalar.Scalar { return *(*scalar.Scalar)(unsafe.Pointer(s)) }

var zeroDivision = C.CString("arange() step must not be zero")

// arangeError raises the exception NumPy's arange raises for err and
// returns -1: ZeroDivisionError for a zero step, ValueError for a length
// that cannot be computed or a NaN where an integer goes, TypeError for a
// complex argument or more than two bools, OverflowError for a value the
// dtype cannot hold.
func arangeError(err error) C.int {
	switch {
	case errors.Is(err, arange.ErrZeroStep):
		C.PyErr_SetString(C.PyExc_ZeroDivisionError, zeroDivision)
		return -1
	case errors.Is(err, arange.ErrLength), errors.Is(err, scalar.ErrNotFinite):
		return fail(cpython.Errorf(cpython.ValueError, "%v", err))
	case errors.Is(err, scalar.ErrRange):
		return fail(cpython.Errorf(cpython.OverflowError, "%v", err))
	}
	return fail(cpython.Errorf(cpython.TypeError, "%v", err))
}
