/*
 * The tensor object of package capsule: the one implementation behind
 * godlpack.Tensor and the results of every function bound with package
 * pymodule, with its DType and Device objects. Each extension library
 * compiles its own copy, whose types are named after the module that
 * readies them (gdl_tensor_types_ready): godlpack.Tensor in godlpack._core,
 * rowstats.Tensor in an extension rowstats. Every function here is called
 * with the GIL held.
 *
 * The object's struct is private to the tensor files of this package
 * (tensor_object.h): every Tensor is made by tensor.c's one constructor,
 * through the doors below.
 */
#ifndef GODLPACK_TENSOR_H
#define GODLPACK_TENSOR_H

#include "capsule.h"

/*
 * gdl_tensor_types_ready makes the Tensor, DType and Device types, heap
 * types of the module m named module ("rowstats" makes rowstats.Tensor),
 * and puts the exchange API on Tensor: 1 when this call did so, 0 when an earlier call
 * had (the types keep its names), -1 with an exception. The caller then
 * registers the dtype table (gdl_dtype_register) and adds the types to the
 * module (gdl_tensor_types_add).
 */
int gdl_tensor_types_ready(PyObject *m, const char *module);

/* gdl_tensor_types_readied says whether gdl_tensor_types_ready readied the types. */
extern bool gdl_tensor_types_readied;

/*
 * gdl_tensor_types_add adds Tensor, DType, Device and _rebuild, the function
 * every pickle of a Tensor names, to the module m. -1 with an exception.
 */
int gdl_tensor_types_add(PyObject *m);

/*
 * gdl_tensor_set_plain_printer names the function that prints a Tensor's
 * elements where NumPy cannot be imported: module.function, imported when
 * first needed and called with the elements shown (nested lists, None where
 * "..." stands) and the number of dimensions. Without one, a Tensor prints
 * its repr there. The package that owns the module calls it (godlpack._core
 * names godlpack._format.tensor_str); nothing here knows a package by name.
 */
void gdl_tensor_set_plain_printer(const char *module, const char *function);

/* gdl_device_new returns a new Device, the tuple (d.device_type, d.device_id). */
PyObject *gdl_device_new(DLDevice d);

/* ---- Making Tensors: the doors of the one constructor ---- */

/*
 * A gdl_source with room for its shape and strides, for a caller that
 * describes a tensor without room of its own (a Go function's result, a
 * creation function).
 */
typedef struct {
	gdl_source src;
	int64_t dims[2 * GDL_MAX_NDIM];
} gdl_source_room;

/* gdl_source_room_init points r's source at its room: shape first, then strides. */
static inline void gdl_source_room_init(gdl_source_room *r) {
	r->src.view.shape = r->dims;
	r->src.view.strides = r->dims + GDL_MAX_NDIM;
}

/*
 * gdl_tensor_from_source returns a new Tensor of the tensor src describes
 * (its shape and strides are copied): src's owner or pending managed
 * tensor passes to it. On failure src is released: NULL with an exception.
 */
PyObject *gdl_tensor_from_source(gdl_source *src);

/* gdl_buffer_format is the buffer protocol's format of a Tensor of dtype dt (struct module syntax), or NULL for none. */
const char *gdl_buffer_format(DLDataType dt);

/*
 * gdl_tensor_numpy puts in *out a NumPy array over the memory of t, a Tensor,
 * whose base is t: 0 when it did, -1 with an exception, and 1 with nothing set
 * where NumPy's C API cannot make it (NumPy 2 cannot be imported, a dtype
 * the buffer protocol lacks, memory the CPU cannot read, more dimensions
 * than NumPy's), for the caller to ask numpy.asarray or from_dlpack, whose
 * errors say why.
 */
int gdl_tensor_numpy(PyObject *t, PyObject **out);

/*
 * gdl_tensor_from_import returns a new Tensor holding the managed tensor
 * gdl_import imported (never a borrowed view), which it deletes on
 * failure: NULL with an exception.
 */
PyObject *gdl_tensor_from_import(gdl_imported *im);

/*
 * gdl_tensor_import is from_dlpack: a Tensor of x's tensor held to req by
 * the rules of gdl_import. A Tensor of this library's type shares its
 * storage without a capsule, by the same rules (a copy asked for is made as
 * for any producer).
 */
PyObject *gdl_tensor_import(PyObject *x, const gdl_request *req);

/* gdl_tensor_adopt makes a Tensor owning a versioned managed tensor: the exchange API's to_py_object. */
PyObject *gdl_tensor_adopt(void *managed);

/* ---- DTypes (dtype.c) ---- */

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

#endif
