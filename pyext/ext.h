/*
 * Declarations shared by the C files of the extension module godlpack._core
 * and the Go functions it exports. The protocol itself is package capsule's
 * (capsule.h); this is only godlpack's own surface: the Tensor and DType
 * types, from_dlpack and the creation functions (godlpack.ops is bound with
 * package pymodule, in ops.go). Each Python call crosses into Go at most
 * once, with one of the argument structs below.
 */
#ifndef GODLPACK_EXT_H
#define GODLPACK_EXT_H

#include "capsule.h"

/*
 * The Tensor object: a gdl_source (what __dlpack__ exports) whose shape and
 * element strides live in dims, followed by the byte strides the buffer
 * protocol shows. src.view.flags holds READ_ONLY, IS_COPIED (this tensor
 * owns a copy alone) and IS_SUBBYTE_TYPE_PADDED.
 */
typedef struct {
	PyObject_VAR_HEAD
	gdl_source src;
	int64_t size, itemsize;
	PyObject *weakrefs;
	int64_t dims[1]; /* shape[ndim], strides[ndim], byte strides[ndim] */
} TensorObject;

#define TENSOR_SHAPE(t) ((t)->dims)
#define TENSOR_STRIDES(t) ((t)->dims + (t)->src.view.ndim)
#define TENSOR_BYTE_STRIDES(t) ((t)->dims + 2 * (t)->src.view.ndim)

extern PyTypeObject gdl_TensorType;
extern PyTypeObject gdl_DTypeType;
extern PyTypeObject gdl_DeviceType;

/* gdl_device_new returns a new godlpack.Device, the tuple (d.device_type, d.device_id). */
PyObject *gdl_device_new(DLDevice d);

/*
 * gdl_tensor_alloc returns a new Tensor of ndim dimensions whose source is
 * empty (owner NULL) but for view.ndim, view.shape and view.strides, which
 * point to the object's dims; gdl_tensor_finish completes it once the source
 * is filled. NULL with an exception.
 */
TensorObject *gdl_tensor_alloc(int32_t ndim);
PyObject *gdl_tensor_finish(TensorObject *t);

/*
 * gdl_tensor_share makes a Tensor over src's memory, as a zero-copy export and
 * import would (from_dlpack of our own Tensor takes this short cut); cpu
 * relabels CPU-accessible memory as device (1, 0).
 */
PyObject *gdl_tensor_share(TensorObject *src, bool cpu);

/* gdl_tensor_adopt makes a Tensor owning a versioned managed tensor: the exchange API's to_py_object. */
PyObject *gdl_tensor_adopt(void *managed);

/* DType objects, one per table entry, registered from Go at import. */
int gdl_dtype_register(uint8_t code, uint8_t bits, uint16_t lanes, const char *name, int64_t itemsize);
PyObject *gdl_dtype_get(DLDataType dt); /* new reference */
/*
 * gdl_dtype_of reads a dtype as callers spell it into *dt: a DType (the fast
 * path), a str naming one (also NumPy's "f4", "<f8" and "double", PyTorch's
 * "torch.float32"), a NumPy dtype or scalar type, a torch.dtype, Python's
 * bool, int, float or complex, or an object with __dlpack_data_type__().
 * -1 with TypeError otherwise.
 */
int gdl_dtype_of(PyObject *o, DLDataType *dt);
/* gdl_dtype_of_format reads a buffer's struct format ("f", "<d", "Zf", "?") into *dt; -1, with no exception, otherwise. */
int gdl_dtype_of_format(const char *format, DLDataType *dt);

/* Arguments of goCreate: empty, zeros, full and arange, into t's source. */
enum { GDL_EMPTY, GDL_ZEROS, GDL_FULL, GDL_ARANGE };
/* The kinds of scalar.Scalar. */
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

/*
 * Pickling and copying (pickle.c): the Tensor methods __reduce_ex__(protocol),
 * __reduce__(), __copy__() and __deepcopy__(memo), and gdl_pickle_register,
 * which adds _rebuild, the function every pickle of a Tensor names, to the
 * module.
 */
PyObject *gdl_tensor_reduce_ex(PyObject *self, PyObject *protocol);
PyObject *gdl_tensor_reduce(PyObject *self, PyObject *unused);
PyObject *gdl_tensor_copy(PyObject *self, PyObject *unused);
PyObject *gdl_tensor_deepcopy(PyObject *self, PyObject *memo);
int gdl_pickle_register(PyObject *m);

/* gdl_module_create builds the module object; PyInit__core (Go) calls it. */
PyObject *gdl_module_create(void);

#endif
