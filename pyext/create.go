package main

// #include "ext.h"
import "C"

import (
	"errors"
	"fmt"
	"unsafe"

	"github.com/godlpack/godlpack/capsule"
	"github.com/godlpack/godlpack/dlpack"
	"github.com/godlpack/godlpack/producer"
)

// goCreate makes the tensors of empty, zeros, full and arange in C memory
// (producer.Alloc), so that a failed allocation is a MemoryError, and
// describes it in a.out. It returns 0, or -1 with the exception set.
//
//export goCreate
func goCreate(a *C.gdl_create_args) (rc C.int) {
	defer recovered(&rc)
	dt := *(*dlpack.DataType)(unsafe.Pointer(&a.dtype))
	shape := int64s(&a.shape[0], int(a.ndim))
	l := producer.Layout{Shape: shape, DType: dt}
	// Sub-byte elements are made one byte each, so that each has an address.
	if dt.SubByte() {
		l.Flags = dlpack.IsSubbyteTypePadded
	}
	ext, err := dlpack.CheckLayout(shape, dlpack.ContiguousStrides(shape, nil), dt, true)
	if err != nil {
		return fail(capsule.Errorf(capsule.ValueError, "cannot make a %v tensor of shape %v: %v", dt, shape, err))
	}
	var fill []byte
	switch a.kind {
	case C.GDL_FULL:
		v := dlpack.Scalar{Kind: dlpack.ScalarKind(a.value_kind), Int: int64(a.ival), Uint: uint64(a.uval),
			Real: float64(a.re), Imag: float64(a.im)}
		if fill, err = dt.Encode(v); err != nil {
			return fail(valueError(err))
		}
	case C.GDL_ARANGE:
		if err := dt.CheckArange(ext.Elements); err != nil {
			return fail(capsule.Errorf(capsule.OverflowError, "arange(%d) does not fit in %v: %v", ext.Elements, dt, err))
		}
	}
	nbytes := ext.Bytes()
	b, err := producer.Alloc(int(nbytes))
	if err != nil {
		return fail(fmt.Errorf("cannot allocate %d bytes for a %v tensor of shape %v: %w", nbytes, dt, shape, err))
	}
	defer b.Release()
	buf := b.Bytes()
	capsule.WithoutGIL(nbytes, func() {
		switch a.kind {
		case C.GDL_ZEROS:
			clear(buf)
		case C.GDL_FULL:
			dlpack.Fill(buf, fill)
		case C.GDL_ARANGE:
			err = dt.Arange(buf)
		}
	})
	if err != nil {
		return fail(err)
	}
	if err := b.Describe(l, unsafe.Pointer(a.out)); err != nil {
		return fail(err)
	}
	return 0
}

// valueError names the Python exception of a value dlpack.Encode refused, as
// NumPy raises them.
func valueError(err error) error {
	msg := "fill value: " + err.Error()
	switch {
	case errors.Is(err, dlpack.ErrRange):
		return capsule.Errorf(capsule.OverflowError, "%s", msg)
	case errors.Is(err, dlpack.ErrNotFinite):
		return capsule.Errorf(capsule.ValueError, "%s", msg)
	}
	return capsule.Errorf(capsule.TypeError, "%s", msg)
}
