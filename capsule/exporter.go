package capsule

/*
#include "exporter.h"
*/
import "C"

import (
	"fmt"
	"runtime/cgo"
	"unicode/utf8"
	"unsafe"

	"github.com/godlpack/godlpack/dlpack"
	"github.com/godlpack/godlpack/producer"
)

// exporter is what an Exporter object's handle refers to.
type exporter struct {
	buf    *producer.Buffer
	layout producer.Layout
}

// NewExporter returns a new Python object whose __dlpack__ exports the
// buffer with layout l: a versioned or legacy capsule as the consumer's
// max_version asks, a fresh copy for copy=True (Buffer.ExportCopy), and
// __dlpack_device__ for l.Device. It takes a reference of its own to the
// buffer, dropped when the object is freed, so the caller may Release b.
// Give it to numpy.from_dlpack, torch.from_dlpack or any consumer.
func NewExporter(b *producer.Buffer, l producer.Layout) (Object, error) {
	if err := l.Check(b.Len()); err != nil {
		return nil, err
	}
	r, err := b.Retain()
	if err != nil {
		return nil, err
	}
	if l.Device.Type == 0 {
		l.Device = dlpack.Device{Type: dlpack.CPU}
	}
	l.Shape = append([]int64(nil), l.Shape...)
	if l.Strides != nil {
		l.Strides = append([]int64(nil), l.Strides...)
	}
	h := cgo.NewHandle(&exporter{buf: r, layout: l})
	o := C.gdl_exporter_new(C.uintptr_t(h), C.int32_t(l.Device.Type), C.int32_t(l.Device.ID))
	if o == nil {
		godlpackCapsuleForget(C.uintptr_t(h))
		return nil, pyErr("creating an Exporter")
	}
	return Object(o), nil
}

// godlpackCapsuleExport answers an Exporter's __dlpack__.
//
//export godlpackCapsuleExport
func godlpackCapsuleExport(h C.uintptr_t, r *C.gdl_export_request) {
	fail := func(kind C.int, err error) {
		msg, text := unsafe.Slice((*byte)(unsafe.Pointer(&r.msg[0])), len(r.msg)), err.Error()
		n := copy(msg[:len(msg)-1], text)
		for n < len(text) && n > 0 && !utf8.RuneStart(text[n]) {
			n-- // never cut a character in two: Python decodes the message as UTF-8
		}
		msg[n] = 0
		r.kind = kind
	}
	defer func() {
		if p := recover(); p != nil {
			fail(C.GDL_EXC_RUNTIME, fmt.Errorf("capsule: internal error in __dlpack__: %v", p))
		}
	}()
	e := cgo.Handle(h).Value().(*exporter)
	max := dlpack.Version{Major: uint32(r.max_major), Minor: uint32(r.max_minor)}
	var m dlpack.Managed
	var err error
	if r.copy == 1 {
		m, err = e.buf.ExportCopy(e.layout, max)
	} else {
		m, err = e.buf.Export(e.layout, max)
	}
	if err != nil {
		fail(C.int(ExceptionOf(err)), err)
		return
	}
	r.managed = m.Pointer
	r.versioned = boolInt(m.Versioned)
}

// godlpackCapsuleForget drops an Exporter's reference to its buffer when
// the object is freed.
//
//export godlpackCapsuleForget
func godlpackCapsuleForget(h C.uintptr_t) {
	defer func() { _ = recover() }()
	handle := cgo.Handle(h)
	handle.Value().(*exporter).buf.Release()
	handle.Delete()
}
