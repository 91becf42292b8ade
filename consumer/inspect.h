/*
 * The C half of package consumer: gdl_inspect, the one statement of what a
 * consumer accepts from a producer. consumer.Inspect calls it and only
 * words its faults; C callers (package capsule) call it directly, so an
 * import never enters Go.
 */
#ifndef GODLPACK_INSPECT_H
#define GODLPACK_INSPECT_H

#include <stdbool.h>
#include <stdint.h>
#include "dlpack.h"
#include "layout.h"

/*
 * The faults of gdl_inspect, past gdl_layout's (GDL_LAYOUT_*), in the order
 * it checks them; 0 (GDL_INSPECT_OK) is an accepted tensor.
 */
enum {
	GDL_INSPECT_OK = 0,
	GDL_INSPECT_NULL = 16,      /* the managed tensor is NULL */
	GDL_INSPECT_VERSION,        /* a major version other than ours: out->version */
	GDL_INSPECT_FLAGS,          /* flag bits DLPack does not define: out->flags */
	GDL_INSPECT_NEWER_DEVICE,   /* a newer minor version, and a device type we do not know */
	GDL_INSPECT_NEWER_CODE,     /* a newer minor version, and a type code we do not know */
	GDL_INSPECT_NDIM,           /* ndim outside [0, GDL_MAX_NDIM]: out->ndim */
	GDL_INSPECT_NULL_SHAPE,     /* shape is NULL with ndim > 0 */
	GDL_INSPECT_NULL_STRIDES,   /* strides are NULL in version 1.2 or later */
	GDL_INSPECT_DTYPE,          /* a data type of the host's data that gdl_dtype_valid refuses */
	GDL_INSPECT_COUNT,          /* data passed through: a negative dimension or too many elements */
	GDL_INSPECT_NULL_DATA,      /* data is NULL for out->elements > 0 elements */
	GDL_INSPECT_OFFSET_WRAPS,   /* data + byte_offset passes the top of the address space */
	GDL_INSPECT_EXTENT_WRAPS,   /* [out->low, out->high) around data + byte_offset leaves the address space */
};

/*
 * What gdl_inspect found: the fields of consumer.View. On a fault, the
 * fields it had read by then are filled (shape and strides are non-NULL
 * once the shape's pointer and ndim passed), and index names the dimension
 * of a layout fault.
 */
typedef struct {
	void *data;             /* element (0, …, 0): data + byte_offset, or NULL for no elements at NULL */
	const int64_t *shape;   /* the producer's array; NULL for ndim 0 */
	const int64_t *strides; /* the producer's, or the contiguous strides written to strides_buf */
	DLDataType dtype;
	DLDevice device;
	uint64_t flags;
	DLPackVersion version; /* 0.0 for a legacy tensor */
	int32_t ndim;
	int32_t index;
	bool versioned;
	bool c_contiguous, f_contiguous;
	int64_t elements;
	int64_t low, high; /* bytes touched around data, as dlpack.Extent */
	int64_t nbytes;    /* the size of a C-contiguous copy: dlpack.Extent.DenseBytes */
	int64_t itemsize;  /* gdl_itemsize of the dtype, padded as the flags say */
} gdl_inspected;

/*
 * gdl_inspect is the consumer's rule: it validates the managed tensor
 * (versioned or legacy) against the ABI and describes it in out, reading the
 * struct and its shape and strides, never the data. It accepts any known
 * version 1.x (a newer minor only with devices and type codes we know, and
 * NULL strides only before 1.2) or a legacy tensor; on a device the host can
 * read, only data types gdl_dtype_valid accepts in a layout gdl_layout
 * accepts; on another device any data type, with sizes that can exist.
 * Data may be NULL only without elements, and the extent must fit in the
 * address space. It returns GDL_INSPECT_OK, or the first fault it finds:
 * GDL_LAYOUT_* or GDL_INSPECT_* (GDL_LAYOUT_DENSE_OVERFLOW for data passed
 * through too). strides_buf has room for GDL_MAX_NDIM
 * strides.
 */
int gdl_inspect(const void *managed, bool versioned, int64_t *strides_buf, gdl_inspected *out);

#endif
