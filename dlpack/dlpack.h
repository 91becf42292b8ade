/*
 * godlpack's own statement of the DLPack 1.x C ABI.
 *
 * Written from the published facts of the DLPack specification (struct
 * layouts, enum values, flag bits); layout_test.go checks every size and
 * offset against the published 64-bit layout.
 */
#ifndef GODLPACK_DLPACK_H
#define GODLPACK_DLPACK_H

#include <stdbool.h>
#include <stdint.h>

/* The ABI version this header describes and godlpack speaks. */
#define GDL_MAJOR_VERSION 1
#define GDL_MINOR_VERSION 3

/* Highest dimension count godlpack accepts from a producer. */
#define GDL_MAX_NDIM 64

/* Flag bits of DLManagedTensorVersioned.flags. */
#define GDL_FLAG_READ_ONLY ((uint64_t)1 << 0)
#define GDL_FLAG_IS_COPIED ((uint64_t)1 << 1)
#define GDL_FLAG_IS_SUBBYTE_TYPE_PADDED ((uint64_t)1 << 2)
/* Every flag bit DLPack 1.3 defines; a producer's other bits are unknown to us. */
#define GDL_KNOWN_FLAGS (GDL_FLAG_READ_ONLY | GDL_FLAG_IS_COPIED | GDL_FLAG_IS_SUBBYTE_TYPE_PADDED)

typedef struct {
	uint32_t major;
	uint32_t minor;
} DLPackVersion;

/* Device types. The C enum is int32_t-sized on every ABI we build for. */
typedef enum {
	kDLCPU = 1,
	kDLCUDA = 2,
	kDLCUDAHost = 3,
	kDLOpenCL = 4,
	kDLVulkan = 7,
	kDLMetal = 8,
	kDLVPI = 9,
	kDLROCM = 10,
	kDLROCMHost = 11,
	kDLExtDev = 12,
	kDLCUDAManaged = 13,
	kDLOneAPI = 14,
	kDLWebGPU = 15,
	kDLHexagon = 16,
	kDLMAIA = 17,
	kDLTrn = 18,
	/* After 1.3, with the minor version unchanged (dmlc/dlpack main): */
	kDLTPU = 19,
	kDLTPUHost = 20, /* pinned host memory of a TPU runtime, as kDLCUDAHost is CUDA's */
	kDLAscend = 21,
} DLDeviceType;

typedef struct {
	DLDeviceType device_type;
	int32_t device_id;
} DLDevice;

/* Type codes of DLDataType.code. */
typedef enum {
	kDLInt = 0,
	kDLUInt = 1,
	kDLFloat = 2,
	kDLOpaqueHandle = 3,
	kDLBfloat = 4,
	kDLComplex = 5,
	kDLBool = 6,
	kDLFloat8_e3m4 = 7,
	kDLFloat8_e4m3 = 8,
	kDLFloat8_e4m3b11fnuz = 9,
	kDLFloat8_e4m3fn = 10,
	kDLFloat8_e4m3fnuz = 11,
	kDLFloat8_e5m2 = 12,
	kDLFloat8_e5m2fnuz = 13,
	kDLFloat8_e8m0fnu = 14,
	kDLFloat6_e2m3fn = 15,
	kDLFloat6_e3m2fn = 16,
	kDLFloat4_e2m1fn = 17,
	kDLBcomplex = 18, /* after 1.3 (dmlc/dlpack main): two bfloat16, real then imaginary */
} DLDataTypeCode;

typedef struct {
	uint8_t code;
	uint8_t bits;
	uint16_t lanes;
} DLDataType;

typedef struct {
	void *data;
	DLDevice device;
	int32_t ndim;
	DLDataType dtype;
	int64_t *shape;
	int64_t *strides; /* in elements; NULL means C-contiguous (before 1.2) */
	uint64_t byte_offset;
} DLTensor;

/* The legacy (unversioned) managed tensor, capsule name "dltensor". */
typedef struct DLManagedTensor {
	DLTensor dl_tensor;
	void *manager_ctx;
	void (*deleter)(struct DLManagedTensor *self);
} DLManagedTensor;

/* The versioned managed tensor, capsule name "dltensor_versioned". */
typedef struct DLManagedTensorVersioned {
	DLPackVersion version;
	void *manager_ctx;
	void (*deleter)(struct DLManagedTensorVersioned *self);
	uint64_t flags;
	DLTensor dl_tensor;
} DLManagedTensorVersioned;

/* gdl_is_cpu_accessible reports whether the host can read memory on device d. */
static inline int gdl_is_cpu_accessible(DLDevice d) {
	return d.device_type == kDLCPU || d.device_type == kDLCUDAHost || d.device_type == kDLROCMHost ||
	       d.device_type == kDLCUDAManaged || d.device_type == kDLTPUHost;
}

/*
 * gdl_managed_delete calls a managed tensor's deleter exactly as the spec
 * allows it to be: a NULL tensor or a NULL deleter means nothing to do.
 */
static inline void gdl_managed_delete(void *managed, bool versioned) {
	if (managed == NULL)
		return;
	if (versioned) {
		DLManagedTensorVersioned *m = (DLManagedTensorVersioned *)managed;
		if (m->deleter != NULL)
			m->deleter(m);
	} else {
		DLManagedTensor *m = (DLManagedTensor *)managed;
		if (m->deleter != NULL)
			m->deleter(m);
	}
}

/* gdl_dtype_known, written by go generate from the table of dtype.go, the only one. */
#include "dtypes.h"

/*
 * gdl_dtype_valid is dlpack.DataType.Check for C callers: a dtype of the
 * table, or a vector of one whose elements are whole bytes.
 * TestValidMatchesC holds the two together.
 */
static inline bool gdl_dtype_valid(DLDataType dt) {
	DLDataType lane = {dt.code, dt.bits, 1};
	return gdl_dtype_known(dt) || (dt.lanes > 1 && gdl_dtype_known(lane) && ((int)dt.bits * dt.lanes) % 8 == 0);
}

/* gdl_sub_byte is dlpack.DataType.SubByte: whether an element of dt, all its lanes together, is narrower than a byte. */
static inline bool gdl_sub_byte(DLDataType dt) { return (int)dt.bits * dt.lanes < 8; }

/*
 * gdl_itemsize is dlpack.DataType.StorageSize for C callers, the one C
 * statement of the item size: the bytes of one element of dt, bits*lanes/8
 * for whole-byte elements; for a sub-byte element one byte when padded and
 * 0 (no byte address of its own) when packed; 0 for an element of no
 * whole-byte size (bits or lanes 0, or 12 bits). TestItemSizeMatchesC holds
 * the two together.
 */
static inline int64_t gdl_itemsize(DLDataType dt, bool padded) {
	int64_t width = (int64_t)dt.bits * dt.lanes;
	if (width == 0)
		return 0;
	if (gdl_sub_byte(dt))
		return padded ? 1 : 0;
	return width % 8 == 0 ? width / 8 : 0;
}

/* gdl_device_known reports whether DLPack 1.3 (dmlc/dlpack main) defines the device type t. */
static inline bool gdl_device_known(int32_t t) {
	return (t >= kDLCPU && t <= kDLOpenCL) || (t >= kDLVulkan && t <= kDLAscend);
}

/*
 * gdl_device_type_name is dlpack.DeviceType.String for C callers, for the
 * device types gdl_device_known accepts ("cpu", "cuda_host", "tpu_host"),
 * NULL for any other. It never enters Go, so a forked child may call it.
 * TestDeviceNamesMatchC holds the two together.
 */
static inline const char *gdl_device_type_name(int32_t t) {
	switch (t) {
	case kDLCPU: return "cpu";
	case kDLCUDA: return "cuda";
	case kDLCUDAHost: return "cuda_host";
	case kDLOpenCL: return "opencl";
	case kDLVulkan: return "vulkan";
	case kDLMetal: return "metal";
	case kDLVPI: return "vpi";
	case kDLROCM: return "rocm";
	case kDLROCMHost: return "rocm_host";
	case kDLExtDev: return "ext_dev";
	case kDLCUDAManaged: return "cuda_managed";
	case kDLOneAPI: return "oneapi";
	case kDLWebGPU: return "webgpu";
	case kDLHexagon: return "hexagon";
	case kDLMAIA: return "maia";
	case kDLTrn: return "trn";
	case kDLTPU: return "tpu";
	case kDLTPUHost: return "tpu_host";
	case kDLAscend: return "ascend";
	}
	return NULL;
}

/*
 * gdl_min_version is the oldest DLPack version that can describe a tensor of
 * dtype dt on device dev. It is dlpack.MinVersion for C callers on the hot
 * path; TestMinVersionMatchesC holds the two together for every code and
 * device type.
 */
static inline DLPackVersion gdl_min_version(DLDataType dt, DLDevice dev) {
	DLPackVersion v = {0, 0}, d = {0, 0};
	if (dt.code > kDLFloat4_e2m1fn)
		v = (DLPackVersion){GDL_MAJOR_VERSION, GDL_MINOR_VERSION};
	else if (dt.code >= kDLFloat8_e3m4)
		v = (DLPackVersion){1, 1};
	if (!gdl_device_known(dev.device_type) || dev.device_type > kDLTrn)
		d = (DLPackVersion){GDL_MAJOR_VERSION, GDL_MINOR_VERSION};
	else if (dev.device_type == kDLTrn)
		d = (DLPackVersion){1, 2};
	else if (dev.device_type == kDLMAIA)
		d = (DLPackVersion){1, 0};
	return (v.major < d.major || (v.major == d.major && v.minor < d.minor)) ? d : v;
}

/* ---- The C exchange API of DLPack 1.3 (type(x).__dlpack_c_exchange_api__) ---- */

/* Capsule name of the exchange API table on a type. */
#define GDL_EXCHANGE_API_NAME "dlpack_exchange_api"

/*
 * Makes a new managed tensor like prototype (its dtype, ndim, shape and
 * device only). Returns 0, or non-zero after calling set_error exactly once.
 */
typedef int (*DLPackManagedTensorAllocator)(DLTensor *prototype, DLManagedTensorVersioned **out, void *error_ctx,
                                            void (*set_error)(void *error_ctx, const char *kind, const char *message));

/* Exports a Python object of the table's type, without stream synchronisation. 0, or -1 with an exception set. */
typedef int (*DLPackManagedTensorFromPyObjectNoSync)(void *py_object, DLManagedTensorVersioned **out);

/* Fills a borrowed DLTensor, valid until control returns to the object's owner. 0, or -1 with an exception set. */
typedef int (*DLPackDLTensorFromPyObjectNoSync)(void *py_object, DLTensor *out);

/* The producer's current work stream on a device (NULL for the CPU). 0, or -1 with an exception set. */
typedef int (*DLPackCurrentWorkStream)(DLDeviceType device_type, int32_t device_id, void **out_current_stream);

/* Wraps a managed tensor, whose ownership it takes, in a Python object of the table's library. 0, or -1. */
typedef int (*DLPackManagedTensorToPyObjectNoSync)(DLManagedTensorVersioned *tensor, void **out_py_object);

/* The part of the table that stays the same in every version. */
typedef struct DLPackExchangeAPIHeader {
	DLPackVersion version;
	struct DLPackExchangeAPIHeader *prev_api; /* an older table, or NULL */
} DLPackExchangeAPIHeader;

/* The table of major version 1; dltensor_from_py_object_no_sync may be NULL. */
typedef struct DLPackExchangeAPI {
	DLPackExchangeAPIHeader header;
	DLPackManagedTensorAllocator managed_tensor_allocator;
	DLPackManagedTensorFromPyObjectNoSync managed_tensor_from_py_object_no_sync;
	DLPackManagedTensorToPyObjectNoSync managed_tensor_to_py_object_no_sync;
	DLPackDLTensorFromPyObjectNoSync dltensor_from_py_object_no_sync;
	DLPackCurrentWorkStream current_work_stream;
} DLPackExchangeAPI;

#endif
