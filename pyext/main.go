// Command pyext is the CPython extension module godlpack._core, built with
// go build -buildmode=c-shared. C (the .c files beside this one) does the
// CPython object work; each Python call crosses into Go at most once, through
// one of the exported functions of this package, carrying one C struct.
package main

/*
#cgo pkg-config: python3
#cgo CFLAGS: -I${SRCDIR}/../dlpack -I${SRCDIR}/../producer -I${SRCDIR}/../capsule -O2
#include "ext.h"
#include <stdlib.h>
*/
import "C"

import (
	"fmt"
	"unicode/utf8"
	"unsafe"

	_ "github.com/godlpack/godlpack/capsule" // links the capsule protocol's C half
	"github.com/godlpack/godlpack/dlpack"
	_ "github.com/godlpack/godlpack/producer" // links the owners and the managed-tensor builder
)

func main() {}

// PyInit__core is the module's entry point. Being a Go function, it returns
// only once the Go runtime has finished starting, so that a fork right after
// import never catches the runtime half-started.
//
//export PyInit__core
func PyInit__core() (m *C.PyObject) {
	defer func() {
		if r := recover(); r != nil {
			raise(C.GDL_RUNTIME_ERROR, "godlpack: internal error during import: %v", r)
			m = nil
		}
	}()
	m = C.gdl_module_create()
	if m == nil {
		return nil
	}
	for _, dt := range dlpack.DataTypes() {
		name, _ := dt.Name()
		cname := C.CString(name)
		rc := C.gdl_dtype_register(C.uint8_t(dt.Code), C.uint8_t(dt.Bits), C.uint16_t(dt.Lanes), cname,
			C.int64_t(dt.StorageSize(true)))
		C.free(unsafe.Pointer(cname))
		if rc != 0 {
			C.Py_DecRef(m)
			return nil
		}
	}
	return m
}

// raise sets a Python exception from Go, for the few places with no error
// struct to fill.
func raise(kind C.int, format string, args ...any) {
	var e C.gdl_error
	fail(&e, kind, format, args...)
	C.gdl_raise(&e)
}

// fail fills e with an exception kind and message and returns the kind.
func fail(e *C.gdl_error, kind C.int, format string, args ...any) C.int {
	msg := fmt.Sprintf(format, args...)
	buf := unsafe.Slice((*byte)(unsafe.Pointer(&e.msg[0])), len(e.msg))
	n := copy(buf[:len(buf)-1], msg)
	// A cut inside a multi-byte character would make the message invalid
	// UTF-8, which Python would raise as UnicodeDecodeError instead.
	for n < len(msg) && n > 0 && !utf8.RuneStart(msg[n]) {
		n--
	}
	buf[n] = 0
	e.kind = kind
	return kind
}

// recovered turns a panic into a RuntimeError: no Go panic crosses into C.
func recovered(e *C.gdl_error, rc *C.int) {
	if r := recover(); r != nil {
		*rc = fail(e, C.GDL_RUNTIME_ERROR, "godlpack: internal error: %v", r)
	}
}

// int64s views n elements of a C int64_t array as a Go slice.
func int64s(p *C.int64_t, n int) []int64 {
	if n == 0 {
		return nil
	}
	return unsafe.Slice((*int64)(unsafe.Pointer(p)), n)
}

// gilThreshold is the size from which Go releases the GIL while it copies or
// fills: below it, releasing and taking back the GIL costs more than it frees.
const gilThreshold = 1 << 20

// withoutGIL runs f with the GIL released when nbytes is large.
func withoutGIL(nbytes int64, f func()) {
	if nbytes < gilThreshold {
		f()
		return
	}
	ts := C.PyEval_SaveThread()
	defer C.PyEval_RestoreThread(ts)
	f()
}

// denseBytes is the size of the elements of a layout laid out C-contiguously:
// the buffer protocol's len and the size of a copy. It is not the extent's
// Bytes when strides leave gaps or overlap elements (a stride of 0 broadcasts
// one element to many). It returns -1 when the size overflows int64.
func denseBytes(ext dlpack.Extent, dt dlpack.DataType, padded bool) int64 {
	n, ok := ext.DenseBytes(dt, padded)
	if !ok {
		return -1
	}
	return n
}

// describe fills d for memory held by owner, laid out by shape and strides.
func describe(d *C.gdl_desc, owner *C.gdl_owner, data unsafe.Pointer, shape, strides []int64,
	dt dlpack.DataType, dev dlpack.Device, flags dlpack.Flags, ext dlpack.Extent) {
	d.owner = owner
	d.data = data
	d.device.device_type = C.DLDeviceType(dev.Type)
	d.device.device_id = C.int32_t(dev.ID)
	d.dtype.code = C.uint8_t(dt.Code)
	d.dtype.bits = C.uint8_t(dt.Bits)
	d.dtype.lanes = C.uint16_t(dt.Lanes)
	d.ndim = C.int32_t(len(shape))
	d.flags = C.uint64_t(flags)
	need := dlpack.MinVersion(dt, dev)
	d.need.major = C.uint32_t(need.Major)
	d.need.minor = C.uint32_t(need.Minor)
	d.size = C.int64_t(ext.Elements)
	d.nbytes = C.int64_t(denseBytes(ext, dt, flags&dlpack.IsSubbyteTypePadded != 0))
	d.itemsize = C.int64_t(dt.StorageSize(flags&dlpack.IsSubbyteTypePadded != 0))
	copy(int64s(&d.shape[0], len(shape)), shape)
	copy(int64s(&d.strides[0], len(strides)), strides)
}

//export goDecodeMinifloat
func goDecodeMinifloat(code C.uint8_t, b C.uint8_t, out *C.double) C.int {
	v, ok := dlpack.DecodeMinifloat(dlpack.Code(code), uint8(b))
	if !ok {
		return -1
	}
	*out = C.double(v)
	return 0
}
