/*
 * godlpack's own statement of the DLPack 1.x C ABI.
 *
 * Written from the published facts of the DLPack specification (struct
 * layouts, enum values, flag bits); layout_test.go checks every size and
 * offset against the published 64-bit layout.
 */
#ifndef GODLPACK_DLPACK_H
#define GODLPACK_DLPACK_H

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
	       d.device_type == kDLCUDAManaged;
}

/*
 * gdl_managed_delete calls a managed tensor's deleter exactly as the spec
 * allows it to be: a NULL tensor or a NULL deleter means nothing to do.
 */
static inline void gdl_managed_delete(void *managed, int versioned) {
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

#endif
