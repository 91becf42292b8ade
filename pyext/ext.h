/*
 * Declarations shared by the C files of the extension module godlpack._core
 * and the Go functions it exports. The protocol and the Tensor, DType and
 * Device types are package capsule's (capsule.h, tensor.h); this is only
 * godlpack's own surface: from_dlpack and the creation functions (godlpack.ops is bound with
 * package pymodule, in ops.go). Each Python call crosses into Go at most
 * once, with one of the argument structs below.
 */
#ifndef GODLPACK_EXT_H
#define GODLPACK_EXT_H

#include "tensor.h"

/* Arguments of goCreate: empty, zeros, full and arange, into t's source. */
enum { GDL_EMPTY, GDL_ZEROS, GDL_FULL, GDL_ARANGE };
typedef struct {
	int kind;
	DLDataType dtype;
	bool has_dtype; /* arange: false picks arange.DType */
	int32_t ndim;   /* arange: 1, and Go stores shape[0] */
	int64_t shape[GDL_MAX_NDIM];
	gdl_scalar value;             /* full */
	gdl_scalar start, stop, step; /* arange */
	gdl_source *out;
} gdl_create_args;

/* gdl_module_create builds the module object; PyInit__core (Go) calls it. */
PyObject *gdl_module_create(void);

#endif
