/*
 * The Tensor object's struct and its types, private to the tensor files of
 * package capsule (tensor.c, tensor_pickle.c, tensor_types.c, dtype.c,
 * device_type.c): every other file makes and reads Tensors through
 * tensor.h.
 */
#ifndef GODLPACK_TENSOR_OBJECT_H
#define GODLPACK_TENSOR_OBJECT_H

#include "tensor.h"

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

/* gdl_tensor_readonly reports whether the Tensor's memory may not be written. */
static inline int gdl_tensor_readonly(const TensorObject *t) { return (t->src.view.flags & GDL_FLAG_READ_ONLY) != 0; }

#define TENSOR_SHAPE(t) ((t)->dims)
#define TENSOR_STRIDES(t) ((t)->dims + (t)->src.view.ndim)
#define TENSOR_BYTE_STRIDES(t) ((t)->dims + 2 * (t)->src.view.ndim)

/*
 * The types of this extension library's Tensors, DTypes and Devices: heap
 * types made from their specs (gdl_tensor_spec, gdl_dtype_spec,
 * gdl_device_spec) by gdl_tensor_types_ready, with the first module that
 * readies them (PyType_FromModuleAndSpec), and named after it. They are
 * process-wide, one set per library, because Tensors are made where no
 * module is at hand: a bound function of another module of the library
 * returns one, another library's exchange table hands one over, a pickle is
 * loaded; and godlpack runs in the main interpreter only (runtime.c). This
 * holds a reference to each, never dropped.
 */
typedef struct {
	PyTypeObject *tensor, *dtype, *device;
} gdl_types;
extern gdl_types gdl_library_types;

extern PyType_Spec gdl_tensor_spec, gdl_dtype_spec, gdl_device_spec;

/*
 * gdl_tensor_require_readable refuses, with BufferError, to read a Tensor
 * whose memory the CPU cannot read, naming what: 0, or -1 with the exception
 * (tensor_values.c).
 */
int gdl_tensor_require_readable(const TensorObject *t, const char *what);

/* A Tensor's elements as Python values (tensor_values.c): its tolist method, repr, str and bool. */
PyObject *gdl_tensor_tolist(TensorObject *self, PyObject *unused);
PyObject *gdl_tensor_repr(TensorObject *self);
PyObject *gdl_tensor_str(TensorObject *self);
int gdl_tensor_bool(TensorObject *self);

/* gdl_tensor_get_shape is the shape property: a tuple of ints (tensor.c). */
PyObject *gdl_tensor_get_shape(TensorObject *self, void *unused);

/* gdl_tensor_getbuffer is the Tensor's bf_getbuffer (tensor_buffer.c). */
int gdl_tensor_getbuffer(TensorObject *self, Py_buffer *view, int flags);

/*
 * Pickling and copying (tensor_pickle.c): the Tensor methods
 * __reduce_ex__(protocol), __reduce__(), __copy__() and __deepcopy__(memo),
 * and gdl_pickle_register, which adds _rebuild, the function every pickle of
 * a Tensor names, to the module.
 */
PyObject *gdl_tensor_reduce_ex(PyObject *self, PyObject *protocol);
PyObject *gdl_tensor_reduce(PyObject *self, PyObject *unused);
PyObject *gdl_tensor_copy(PyObject *self, PyObject *unused);
PyObject *gdl_tensor_deepcopy(PyObject *self, PyObject *memo);
int gdl_pickle_register(PyObject *m);

#endif
