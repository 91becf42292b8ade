package main

// #include "ext.h"
import "C"

import (
	"unsafe"

	"github.com/godlpack/godlpack/capsule"
	"github.com/godlpack/godlpack/dlpack"
	"github.com/godlpack/godlpack/producer"
)

// goImportCopy meets from_dlpack(copy=True) when the producer did not copy:
// a C-contiguous copy of the validated tensor v, in memory of our own,
// described in dst. It returns 0, or -1 with the exception set; the
// producer's tensor is the caller's to delete.
//
//export goImportCopy
func goImportCopy(v *C.gdl_inspected, dst *C.gdl_source) (rc C.int) {
	defer recovered(&rc)
	nd := int(v.ndim)
	l := producer.Layout{
		Shape:   int64s(v.shape, nd),
		Strides: int64s(v.strides, nd),
		DType:   *(*dlpack.DataType)(unsafe.Pointer(&v.dtype)),
		Flags:   dlpack.Flags(v.flags) & dlpack.IsSubbyteTypePadded,
	}
	var b *producer.Buffer
	var err error
	capsule.WithoutGIL(int64(v.nbytes), func() { b, err = producer.CopyOf(v.data, l) })
	if err != nil {
		return fail(err)
	}
	defer b.Release()
	if err := b.Describe(l.Contiguous(), unsafe.Pointer(dst)); err != nil {
		return fail(err)
	}
	return 0
}
