//go:build cgo

// Package cabi reports what the C compiler makes of dlpack/dlpack.h, so that
// the tests of package dlpack can hold its Go mirrors (struct layouts,
// constants, and the header's inline functions) to the header itself rather
// than to cgo's reading of it. Only tests import it; it imports nothing of
// godlpack's Go code, so that package dlpack's own tests may.
package cabi

/*
#cgo CFLAGS: -I${SRCDIR}/../../dlpack -Wall -Wextra -Wno-unused-parameter
#include <stddef.h>
#include <stdint.h>
#include "dlpack.h"

typedef struct {
	const char *name;
	uint64_t value;
} gdl_abi_entry;

#define GDL_SIZE(T) {"sizeof(" #T ")", sizeof(T)}
#define GDL_OFF(T, f) {"offsetof(" #T "." #f ")", offsetof(T, f)}
#define GDL_VAL(v) {#v, (uint64_t)(v)}

// Computed by the C compiler from dlpack.h, so the tests compare the Go
// mirrors against the header itself rather than against cgo's reading of it.
static const gdl_abi_entry gdl_abi[] = {
	GDL_SIZE(DLPackVersion),
	GDL_OFF(DLPackVersion, major),
	GDL_OFF(DLPackVersion, minor),
	GDL_SIZE(DLDeviceType),
	GDL_SIZE(DLDevice),
	GDL_OFF(DLDevice, device_type),
	GDL_OFF(DLDevice, device_id),
	GDL_SIZE(DLDataType),
	GDL_OFF(DLDataType, code),
	GDL_OFF(DLDataType, bits),
	GDL_OFF(DLDataType, lanes),
	GDL_SIZE(DLTensor),
	GDL_OFF(DLTensor, data),
	GDL_OFF(DLTensor, device),
	GDL_OFF(DLTensor, ndim),
	GDL_OFF(DLTensor, dtype),
	GDL_OFF(DLTensor, shape),
	GDL_OFF(DLTensor, strides),
	GDL_OFF(DLTensor, byte_offset),
	GDL_SIZE(DLManagedTensor),
	GDL_OFF(DLManagedTensor, dl_tensor),
	GDL_OFF(DLManagedTensor, manager_ctx),
	GDL_OFF(DLManagedTensor, deleter),
	GDL_SIZE(DLManagedTensorVersioned),
	GDL_OFF(DLManagedTensorVersioned, version),
	GDL_OFF(DLManagedTensorVersioned, manager_ctx),
	GDL_OFF(DLManagedTensorVersioned, deleter),
	GDL_OFF(DLManagedTensorVersioned, flags),
	GDL_OFF(DLManagedTensorVersioned, dl_tensor),

	GDL_SIZE(DLPackExchangeAPIHeader),
	GDL_OFF(DLPackExchangeAPIHeader, version),
	GDL_OFF(DLPackExchangeAPIHeader, prev_api),
	GDL_SIZE(DLPackExchangeAPI),
	GDL_OFF(DLPackExchangeAPI, header),
	GDL_OFF(DLPackExchangeAPI, managed_tensor_allocator),
	GDL_OFF(DLPackExchangeAPI, managed_tensor_from_py_object_no_sync),
	GDL_OFF(DLPackExchangeAPI, managed_tensor_to_py_object_no_sync),
	GDL_OFF(DLPackExchangeAPI, dltensor_from_py_object_no_sync),
	GDL_OFF(DLPackExchangeAPI, current_work_stream),

	GDL_VAL(GDL_MAJOR_VERSION),
	GDL_VAL(GDL_MINOR_VERSION),
	GDL_VAL(GDL_MAX_NDIM),
	GDL_VAL(GDL_FLAG_READ_ONLY),
	GDL_VAL(GDL_FLAG_IS_COPIED),
	GDL_VAL(GDL_FLAG_IS_SUBBYTE_TYPE_PADDED),
	GDL_VAL(GDL_KNOWN_FLAGS),

	GDL_VAL(kDLCPU),
	GDL_VAL(kDLCUDA),
	GDL_VAL(kDLCUDAHost),
	GDL_VAL(kDLOpenCL),
	GDL_VAL(kDLVulkan),
	GDL_VAL(kDLMetal),
	GDL_VAL(kDLVPI),
	GDL_VAL(kDLROCM),
	GDL_VAL(kDLROCMHost),
	GDL_VAL(kDLExtDev),
	GDL_VAL(kDLCUDAManaged),
	GDL_VAL(kDLOneAPI),
	GDL_VAL(kDLWebGPU),
	GDL_VAL(kDLHexagon),
	GDL_VAL(kDLMAIA),
	GDL_VAL(kDLTrn),
	GDL_VAL(kDLTPU),
	GDL_VAL(kDLTPUHost),
	GDL_VAL(kDLAscend),

	GDL_VAL(kDLInt),
	GDL_VAL(kDLUInt),
	GDL_VAL(kDLFloat),
	GDL_VAL(kDLOpaqueHandle),
	GDL_VAL(kDLBfloat),
	GDL_VAL(kDLComplex),
	GDL_VAL(kDLBool),
	GDL_VAL(kDLFloat8_e3m4),
	GDL_VAL(kDLFloat8_e4m3),
	GDL_VAL(kDLFloat8_e4m3b11fnuz),
	GDL_VAL(kDLFloat8_e4m3fn),
	GDL_VAL(kDLFloat8_e4m3fnuz),
	GDL_VAL(kDLFloat8_e5m2),
	GDL_VAL(kDLFloat8_e5m2fnuz),
	GDL_VAL(kDLFloat8_e8m0fnu),
	GDL_VAL(kDLFloat6_e2m3fn),
	GDL_VAL(kDLFloat6_e3m2fn),
	GDL_VAL(kDLFloat4_e2m1fn),
	GDL_VAL(kDLBcomplex),
};

static int gdl_abi_len(void) { return (int)(sizeof gdl_abi / sizeof gdl_abi[0]); }
static const char *gdl_abi_name(int i) { return gdl_abi[i].name; }
static uint64_t gdl_abi_value(int i) { return gdl_abi[i].value; }

static bool gdl_dtype_known_of(uint8_t code, uint8_t bits, uint16_t lanes) {
	DLDataType dt = {code, bits, lanes};
	return gdl_dtype_known(dt);
}

static bool gdl_dtype_valid_of(uint8_t code, uint8_t bits, uint16_t lanes) {
	DLDataType dt = {code, bits, lanes};
	return gdl_dtype_valid(dt);
}

static int64_t gdl_itemsize_of(uint8_t code, uint8_t bits, uint16_t lanes, bool padded) {
	DLDataType dt = {code, bits, lanes};
	return gdl_itemsize(dt, padded);
}

static const char *gdl_device_type_name_of(int32_t t) { return gdl_device_type_name(t); }

static bool gdl_cpu_accessible_of(int32_t t) {
	DLDevice d = {(DLDeviceType)t, 0};
	return gdl_is_cpu_accessible(d);
}

static DLPackVersion gdl_min_version_of(uint8_t code, uint8_t bits, uint16_t lanes, int32_t type, int32_t id) {
	DLDataType dt = {code, bits, lanes};
	DLDevice dev = {(DLDeviceType)type, id};
	return gdl_min_version(dt, dev);
}
*/
import "C"

// Enabled reports whether cgo built this package; without cgo every
// function returns the zero value and the tests check the Go side alone.
const Enabled = true

// Facts returns the sizes, field offsets, macro values and enum values of
// dlpack.h, keyed "sizeof(T)", "offsetof(T.f)" or the C name.
func Facts() map[string]uint64 {
	n := int(C.gdl_abi_len())
	m := make(map[string]uint64, n)
	for i := 0; i < n; i++ {
		m[C.GoString(C.gdl_abi_name(C.int(i)))] = uint64(C.gdl_abi_value(C.int(i)))
	}
	return m
}

// MinVersion is the header's gdl_min_version of the data type
// (code, bits, lanes) on the device (deviceType, deviceID).
func MinVersion(code, bits uint8, lanes uint16, deviceType, deviceID int32) (major, minor uint32) {
	v := C.gdl_min_version_of(C.uint8_t(code), C.uint8_t(bits), C.uint16_t(lanes), C.int32_t(deviceType), C.int32_t(deviceID))
	return uint32(v.major), uint32(v.minor)
}

// Known is the header's gdl_dtype_known of the data type (code, bits, lanes).
func Known(code, bits uint8, lanes uint16) bool {
	return bool(C.gdl_dtype_known_of(C.uint8_t(code), C.uint8_t(bits), C.uint16_t(lanes)))
}

// DeviceTypeName is the header's gdl_device_type_name of device type t; false where C names no device type.
func DeviceTypeName(t int32) (string, bool) {
	p := C.gdl_device_type_name_of(C.int32_t(t))
	if p == nil {
		return "", false
	}
	return C.GoString(p), true
}

// CPUAccessible is the header's gdl_is_cpu_accessible for a device of type t.
func CPUAccessible(t int32) bool {
	return bool(C.gdl_cpu_accessible_of(C.int32_t(t)))
}

// Valid is the header's gdl_dtype_valid of the data type (code, bits, lanes).
func Valid(code, bits uint8, lanes uint16) bool {
	return bool(C.gdl_dtype_valid_of(C.uint8_t(code), C.uint8_t(bits), C.uint16_t(lanes)))
}

// ItemSize is the header's gdl_itemsize of the data type (code, bits, lanes).
func ItemSize(code, bits uint8, lanes uint16, padded bool) int64 {
	return int64(C.gdl_itemsize_of(C.uint8_t(code), C.uint8_t(bits), C.uint16_t(lanes), C.bool(padded)))
}
