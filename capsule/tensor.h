/*
 * The tensor object of package capsule: the one implementation behind
 * godlpack.Tensor and the results of every function bound with package
 * pymodule, with its DType and Device objects. Each extension library
 * compiles its own copy, whose types are named after the module that
 * readies them (gdl_tensor_types_ready): godlpack.Tensor in godlpack._core,
 * rowstats.Tensor in an extension rowstats. Every function here is called
 * with the GIL held.
 */
#ifndef GODLPACK_TENSOR_H
#define GODLPACK_TENSOR_H

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

/*
 * gdl_tensor_types_ready names the Tensor, DType and Device types after
 * module ("rowstats" makes rowstats.Tensor), readies them and puts the
 * exchange API on Tensor: 1 when this call did so, 0 when an earlier call
 * had (the types keep its names), -1 with an exception. The caller then
 * registers the dtype table (gdl_dtype_register) and adds the types to the
 * module (gdl_tensor_types_add).
 */
int gdl_tensor_types_ready(const char *module);

/* gdl_tensor_types_readied says whether gdl_tensor_types_ready readied the types. */
extern bool gdl_tensor_types_readied;

/* gdl_tensor_types_godlpack says whether the types are godlpack's own (module "godlpack"). */
extern bool gdl_tensor_types_godlpack;

/*
 * gdl_tensor_types_add adds Tensor, DType, Device and _rebuild, the function
 * every pickle of a Tensor names, to the module m. -1 with an exception.
 */
int gdl_tensor_types_add(PyObject *m);

/* gdl_device_new returns a new Device, the tuple (d.device_type, d.device_id). */
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

/* DType objects, one per table entry, registered from Go when the types are readied. */
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
