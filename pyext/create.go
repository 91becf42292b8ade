package main

// #include "ext.h"
import "C"

import (
	"math"
	"strings"
	"unsafe"

	"github.com/godlpack/godlpack/dlpack"
)

// goCreate makes the tensors of empty, zeros, full and arange in memory Go
// allocates with C's allocator, so that a failed allocation is a MemoryError.
//
//export goCreate
func goCreate(a *C.gdl_create_args) (rc C.int) {
	defer recovered(&a.err, &rc)
	// The name is borrowed from the Python str for this call: viewing it, not
	// copying it, keeps creation free of Go allocations (no Go heap growth).
	name := unsafe.String((*byte)(unsafe.Pointer(a.dtype)), int(a.dtype_len))
	dt, err := dlpack.ParseDataType(strings.TrimPrefix(name, "torch."))
	if err != nil {
		return fail(&a.err, C.GDL_TYPE_ERROR, "data type %q not understood (known: %s)", name, knownNames())
	}
	shape := int64s(&a.shape[0], int(a.ndim))
	if a.kind == C.GDL_ARANGE {
		shape = shape[:1]
	}
	strides := dlpack.ContiguousStrides(shape, int64s(&a.out.strides[0], len(shape)))
	// Sub-byte elements are made one byte each, so that each has an address.
	flags := dlpack.Flags(0)
	if dt.SubByte() {
		flags |= dlpack.IsSubbyteTypePadded
	}
	ext, err := dlpack.CheckLayout(shape, strides, dt, true)
	if err != nil {
		return fail(&a.err, C.GDL_VALUE_ERROR, "cannot make a %v tensor of shape %v: %v", dt, shape, err)
	}
	var fill []byte
	switch a.kind {
	case C.GDL_FULL:
		if fill, rc = encode(&a.err, a, dt); rc != C.GDL_OK {
			return rc
		}
	case C.GDL_ARANGE:
		if err := checkArange(dt, ext.Elements); err != "" {
			return fail(&a.err, C.GDL_OVERFLOW_ERROR, "arange(%d) does not fit in %v: %s", ext.Elements, dt, err)
		}
	}
	nbytes := ext.Bytes()
	// The address comes back in C memory (a.out): a Go variable passed to C would be moved to the heap.
	owner := C.gdl_owner_alloc(C.size_t(nbytes), &a.out.data)
	if owner == nil {
		return fail(&a.err, C.GDL_MEMORY_ERROR, "cannot allocate %d bytes for a %v tensor of shape %v", nbytes, dt, shape)
	}
	data := a.out.data
	buf := unsafe.Slice((*byte)(data), nbytes)
	withoutGIL(nbytes, func() {
		switch a.kind {
		case C.GDL_ZEROS:
			clear(buf)
		case C.GDL_FULL:
			repeat(buf, fill)
		case C.GDL_ARANGE:
			arange(buf, dt)
		}
	})
	describe(&a.out, owner, data, shape, strides, dt, dlpack.Device{Type: dlpack.CPU}, flags, ext)
	return C.GDL_OK
}

func knownNames() string {
	var names []string
	for _, dt := range dlpack.DataTypes() {
		n, _ := dt.Name()
		names = append(names, n)
	}
	return strings.Join(names, ", ")
}

// repeat fills buf with copies of one element, doubling what is written.
func repeat(buf, elem []byte) {
	if len(buf) == 0 {
		return
	}
	n := copy(buf, elem)
	for n < len(buf) {
		n += copy(buf[n:], buf[:n])
	}
}

// encode returns the bytes of full's value as one element of dt, checking
// that it is representable as NumPy does: integers in range, no NaN or
// infinity into an integer, no complex into a real type.
func encode(e *C.gdl_error, a *C.gdl_create_args, dt dlpack.DataType) ([]byte, C.int) {
	size := dt.StorageSize(true)
	out := make([]byte, size)
	kind, i, re, im := a.value_kind, int64(a.ival), float64(a.re), float64(a.im)
	unsigned := a.value_unsigned != 0
	if kind == C.GDL_VALUE_COMPLEX && dt.Code != dlpack.Complex {
		if im != 0 {
			return nil, fail(e, C.GDL_TYPE_ERROR, "cannot fill a %v tensor with the complex value (%g%+gj)", dt, re, im)
		}
		kind = C.GDL_VALUE_FLOAT
	}
	asFloat := func() float64 {
		switch {
		case kind == C.GDL_VALUE_FLOAT:
			return re
		case unsigned:
			return float64(uint64(i))
		}
		return float64(i)
	}
	switch dt.Code {
	case dlpack.CodeBool:
		if kind == C.GDL_VALUE_FLOAT && re != 0 || kind != C.GDL_VALUE_FLOAT && i != 0 {
			out[0] = 1
		}
	case dlpack.Int, dlpack.UInt:
		if kind == C.GDL_VALUE_FLOAT {
			if math.IsNaN(re) || math.IsInf(re, 0) {
				return nil, fail(e, C.GDL_VALUE_ERROR, "cannot fill a %v tensor with %g", dt, re)
			}
			t := math.Trunc(re)
			if t < -(1<<63) || t >= 1<<64 || (t >= 1<<63) && dt.Code == dlpack.Int {
				return nil, fail(e, C.GDL_OVERFLOW_ERROR, "fill value %g is out of range for %v", re, dt)
			}
			if t >= 1<<63 {
				i, unsigned = int64(uint64(t)), true
			} else {
				i, unsigned = int64(t), false
			}
		}
		bits := uint(dt.Bits)
		var ok bool
		if dt.Code == dlpack.Int {
			ok = !unsigned && i >= -1<<(bits-1) && (bits == 64 || i < 1<<(bits-1))
		} else {
			ok = (unsigned || i >= 0) && (bits == 64 || uint64(i) < 1<<bits)
		}
		if !ok {
			if unsigned {
				return nil, fail(e, C.GDL_OVERFLOW_ERROR, "fill value %d is out of range for %v", uint64(i), dt)
			}
			return nil, fail(e, C.GDL_OVERFLOW_ERROR, "fill value %d is out of range for %v", i, dt)
		}
		putUint(out, uint64(i))
	case dlpack.Float:
		f := asFloat()
		switch dt.Bits {
		case 16:
			putUint(out, uint64(float16Bits(f)))
		case 32:
			putUint(out, uint64(math.Float32bits(float32(f))))
		default:
			putUint(out, math.Float64bits(f))
		}
	case dlpack.Bfloat:
		putUint(out, uint64(bfloat16Bits(asFloat())))
	case dlpack.Complex:
		if kind != C.GDL_VALUE_COMPLEX {
			re, im = asFloat(), 0
		}
		if dt.Bits == 64 {
			putUint(out[:4], uint64(math.Float32bits(float32(re))))
			putUint(out[4:], uint64(math.Float32bits(float32(im))))
		} else {
			putUint(out[:8], math.Float64bits(re))
			putUint(out[8:], math.Float64bits(im))
		}
	default:
		b, ok := dlpack.EncodeMinifloat(dt.Code, asFloat())
		if !ok {
			return nil, fail(e, C.GDL_TYPE_ERROR, "cannot fill a %v tensor", dt)
		}
		out[0] = b
	}
	return out, C.GDL_OK
}

// putUint stores the low len(b) bytes of v in native (little-endian) order.
func putUint(b []byte, v uint64) {
	for k := range b {
		b[k] = byte(v >> (8 * k))
	}
}

// float16Bits rounds f to the nearest IEEE binary16, ties to even.
func float16Bits(f float64) uint16 { return uint16(narrowFloat(f, 5, 10)) }

// bfloat16Bits rounds f to the nearest bfloat16, ties to even.
func bfloat16Bits(f float64) uint16 { return uint16(narrowFloat(f, 8, 7)) }

// narrowFloat rounds f, in one step (rounding through float32 first would
// round twice), to the nearest value of the IEEE-style binary format with
// expBits exponent and manBits mantissa bits, ties to even, and returns its
// bits. Too large a value becomes infinity; a NaN stays a quiet NaN.
func narrowFloat(f float64, expBits, manBits uint) uint64 {
	b := math.Float64bits(f)
	sign := b >> 63 << (expBits + manBits)
	exp := int(b >> 52 & 0x7ff)
	man := b & (1<<52 - 1)
	inf := uint64(1<<expBits-1) << manBits
	switch {
	case exp == 0x7ff && man != 0:
		return sign | inf | 1<<(manBits-1)
	case exp == 0x7ff:
		return sign | inf
	case exp == 0:
		return sign // float64 subnormals are far below the smallest value of any narrower format
	}
	e := exp - 1023 + (1<<(expBits-1) - 1) // the exponent field in the narrow format
	sig := man | 1<<52
	shift := 52 - manBits
	if e <= 0 {
		shift += uint(1 - e) // a subnormal result has fewer significant bits
	}
	if shift > 53 {
		return sign // below half the smallest subnormal
	}
	r := sig >> shift
	if rem, half := sig&(1<<shift-1), uint64(1)<<(shift-1); rem > half || rem == half && r&1 == 1 {
		r++ // a carry out of the mantissa moves into the exponent, as it should
	}
	if e <= 0 {
		return sign | r
	}
	return sign | min(uint64(e-1)<<manBits+r, inf)
}

// checkArange says why 0..n-1 does not fit in dt, or "" if it does.
func checkArange(dt dlpack.DataType, n int64) string {
	if n <= 1 {
		return ""
	}
	last := n - 1
	switch dt.Code {
	case dlpack.CodeBool:
		if last > 1 {
			return "bool holds only 0 and 1"
		}
	case dlpack.Int:
		if dt.Bits < 64 && last >= 1<<(dt.Bits-1) {
			return "the last value overflows"
		}
	case dlpack.UInt:
		if dt.Bits < 64 && last >= 1<<dt.Bits {
			return "the last value overflows"
		}
	}
	return ""
}

// arange writes 0, 1, 2, … as elements of dt.
func arange(buf []byte, dt dlpack.DataType) {
	size := dt.StorageSize(true)
	n := len(buf) / max(size, 1)
	switch {
	case dt.Code == dlpack.Float && dt.Bits == 32:
		s := unsafe.Slice((*float32)(unsafe.Pointer(unsafe.SliceData(buf))), n)
		for k := range s {
			s[k] = float32(k)
		}
	case dt.Code == dlpack.Float && dt.Bits == 64:
		s := unsafe.Slice((*float64)(unsafe.Pointer(unsafe.SliceData(buf))), n)
		for k := range s {
			s[k] = float64(k)
		}
	case dt.Code == dlpack.Int && dt.Bits == 64:
		s := unsafe.Slice((*int64)(unsafe.Pointer(unsafe.SliceData(buf))), n)
		for k := range s {
			s[k] = int64(k)
		}
	case dt.Code == dlpack.Int && dt.Bits == 32:
		s := unsafe.Slice((*int32)(unsafe.Pointer(unsafe.SliceData(buf))), n)
		for k := range s {
			s[k] = int32(k)
		}
	default:
		var a C.gdl_create_args
		a.value_kind = C.GDL_VALUE_INT
		for k := 0; k < n; k++ {
			a.ival = C.longlong(k)
			elem, _ := encode(&a.err, &a, dt)
			copy(buf[k*size:], elem)
		}
	}
}
