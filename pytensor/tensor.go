package pytensor

// #include "tensor.h"
// #include <stdlib.h>
import "C"

import (
	"unsafe"

	"github.com/godlpack/godlpack/cpython"
	"github.com/godlpack/godlpack/dlpack"
	"github.com/godlpack/godlpack/minifloat"
)

// AddTensorTypes gives the extension module m the tensor object of this
// package, the one behind godlpack.Tensor and every result of a function
// bound with package pymodule: its types Tensor, DType and Device, named
// after module (module "rowstats" makes rowstats.Tensor), and the function
// _rebuild that the pickle of every Tensor names. An extension library has
// one set of these types, named by the first module that readies them (here
// or with [ReadyTensorTypes]); later calls add the same types to other
// modules of the library, whose Tensors pickle naming the first module's
// _rebuild. The error wraps [cpython.ErrPython].
func AddTensorTypes(m cpython.Object, module string) error {
	if err := ReadyTensorTypes(m, module); err != nil {
		return err
	}
	if C.gdl_tensor_types_add((*C.PyObject)(m)) != 0 {
		return cpython.PythonError("adding the tensor types to " + module)
	}
	return nil
}

// ReadyTensorTypes makes the library's Tensor, DType and Device types, as
// [AddTensorTypes] does, without adding them to m: for a module whose
// functions never hand a Tensor to Python (their tensor results are NumPy
// arrays, say), and whose namespace and stub stay without them. Later
// calls, for other modules of the same library, do nothing.
func ReadyTensorTypes(m cpython.Object, module string) error {
	cmodule := C.CString(module)
	rc := C.gdl_tensor_types_ready((*C.PyObject)(m), cmodule)
	C.free(unsafe.Pointer(cmodule))
	switch rc {
	case 0:
		return nil
	case 1:
	default:
		return cpython.PythonError("readying the tensor types of " + module)
	}
	for _, dt := range dlpack.DataTypes() {
		name, _ := dt.Name()
		cname := C.CString(name)
		rc := C.gdl_dtype_register(C.uint8_t(dt.Code), C.uint8_t(dt.Bits), C.uint16_t(dt.Lanes), cname,
			C.int64_t(dt.StorageSize(true)))
		C.free(unsafe.Pointer(cname))
		if rc != 0 {
			return cpython.PythonError("registering dtype " + name)
		}
	}
	return nil
}

// godlpackDataTypeName writes the name of a dtype outside the table
// (a vector dtype such as "float32x4", else its fields) into buf, cut to fit.
//
//export godlpackDataTypeName
func godlpackDataTypeName(code C.uint8_t, bits C.uint8_t, lanes C.uint16_t, buf *C.char, n C.size_t) {
	name := dlpack.DataType{Code: dlpack.Code(code), Bits: uint8(bits), Lanes: uint16(lanes)}.String()
	out := unsafe.Slice((*byte)(unsafe.Pointer(buf)), int(n))
	out[copy(out[:len(out)-1], name)] = 0 // ASCII: no character is cut
}

// godlpackParseDataType reads a dtype name outside the table's, a
// vector dtype such as "float32x4": 0, or -1 for a name it does not know.
//
//export godlpackParseDataType
func godlpackParseDataType(name *C.char, n C.size_t, out *C.DLDataType) C.int {
	dt, err := dlpack.ParseDataType(unsafe.String((*byte)(unsafe.Pointer(name)), int(n)))
	if err != nil || dt.Check() != nil {
		return -1
	}
	*out = *(*C.DLDataType)(unsafe.Pointer(&dt))
	return 0
}

// godlpackDecodeMinifloat decodes the float8, float6 or float4 value
// b of type code into *out: 0, or -1 for a code that is no minifloat.
//
//export godlpackDecodeMinifloat
func godlpackDecodeMinifloat(code C.uint8_t, b C.uint8_t, out *C.double) C.int {
	v, ok := minifloat.Decode(dlpack.Code(code), uint8(b))
	if !ok {
		return -1
	}
	*out = C.double(v)
	return 0
}
