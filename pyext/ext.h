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
/* The kinds of number gdl_parse_scalar reads; create.go's scalarKinds names each one's scalar.Kind. */
enum { GDL_SCALAR_BOOL, GDL_SCALAR_INT, GDL_SCALAR_UINT, GDL_SCALAR_FLOAT, GDL_SCALAR_COMPLEX, GDL_SCALAR_BIGINT };

/* A number as scalar.Scalar holds it: the fields its kind names. */
typedef struct {
	uint8_t kind;
	int64_t ival;
	uint64_t uval;
	double re, im;
} gdl_scalar;

/*
 * gdl_parse_scalar reads a number as NumPy reads a fill value: a bool, an int
 * of any size (beyond 64 bits: its float64 value, BIGINT; OverflowError
 * beyond float64), a float or a complex, their subclasses, NumPy's scalars
 * and 0-d arrays (read by the type of their 0-d buffer, so that np.True_ is a
 * bool and np.complex64 a complex), and any object with __index__,
 * __complex__ or __float__. -1 with TypeError, naming what for, otherwise.
 */
int gdl_parse_scalar(PyObject *v, const char *what, gdl_scalar *out);

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
