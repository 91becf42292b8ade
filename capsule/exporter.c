/*
 * Exporting types: the __dlpack__ and __dlpack_device__ methods of every
 * type whose instances hold a gdl_source, and the C exchange API of DLPack
 * 1.3 that goes on them. It calls export.c, import.c, exchange.c and errors.c.
 */
#include <string.h>
#include "capsule.h"

/*
 * The types whose instances hold a gdl_source, and where: one registry per
 * library, as the types are (tensor_object.h), which the C exchange API's
 * functions also reach when another library calls them with no module.
 */
static struct {
	PyTypeObject *type;
	Py_ssize_t offset;
} exporters[4];
static int nexporters;

/* to_object makes our object of a managed tensor; the last registration's wins. */
static PyObject *(*to_object)(void *managed);

/* source_of finds the gdl_source of an instance of an exporter type, or raises TypeError. */
static gdl_source *source_of(PyObject *o) {
	for (int i = 0; i < nexporters; i++)
		if (PyObject_TypeCheck(o, exporters[i].type))
			return (gdl_source *)((char *)o + exporters[i].offset);
	PyErr_Format(PyExc_TypeError, "a godlpack exporter method got a %.200s", Py_TYPE(o)->tp_name);
	return NULL;
}

PyObject *gdl_method_dlpack(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
	gdl_source *s = source_of(self);
	return s == NULL ? NULL : gdl_export(s, args, nargs, kwnames);
}

PyObject *gdl_method_dlpack_device(PyObject *self, PyObject *unused) {
	gdl_source *s = source_of(self);
	return s == NULL ? NULL : gdl_export_device(s);
}

static int api_from_py_object(void *py_object, DLManagedTensorVersioned **out) {
	GDL_CHECK_FORK(-1);
	gdl_source *s = source_of(py_object);
	if (s == NULL)
		return -1;
	gdl_view v;
	gdl_exported_view(s, &v);
	/* Our version: every dtype and device we hold is described by it. */
	gdl_owner *owner = gdl_source_owner(s);
	if (owner == NULL || (*out = gdl_pack(owner, &v, true, GDL_MINOR_VERSION)) == NULL) {
		PyErr_NoMemory();
		return -1;
	}
	return 0;
}

static int api_dltensor_from_py_object(void *py_object, DLTensor *out) {
	gdl_source *s = source_of(py_object);
	if (s == NULL)
		return -1;
	gdl_view v;
	gdl_exported_view(s, &v);
	out->data = v.data;
	out->device = v.device;
	out->ndim = v.ndim;
	out->dtype = v.dtype;
	/* Borrowed from the object, which outlives the call. */
	out->shape = v.ndim > 0 ? (int64_t *)v.shape : NULL;
	out->strides = v.ndim > 0 ? (int64_t *)v.strides : NULL;
	out->byte_offset = 0;
	return 0;
}

static int api_to_py_object(DLManagedTensorVersioned *tensor, void **out_py_object) {
	GDL_CHECK_FORK(-1);
	PyObject *o = to_object(tensor);
	*out_py_object = o;
	return o == NULL ? -1 : 0;
}

static int api_current_work_stream(DLDeviceType device_type, int32_t device_id, void **out_current_stream) {
	/* We launch no work on any stream: there is nothing to order after. */
	*out_current_stream = NULL;
	return 0;
}

/*
 * api_allocator makes a C-contiguous tensor like the prototype, in CPU memory
 * of ours. It may be called without the GIL, and never needs it: errors go
 * to set_error, as the spec asks.
 */
static int api_allocator(DLTensor *prototype, DLManagedTensorVersioned **out, void *error_ctx,
                         void (*set_error)(void *error_ctx, const char *kind, const char *message)) {
	char msg[160];
	int64_t strides[GDL_MAX_NDIM], elements, nbytes;
	if (prototype == NULL || prototype->device.device_type != kDLCPU) {
		snprintf(msg, sizeof msg, "godlpack allocates on the CPU only, not on device (%d, %d)",
		         prototype == NULL ? 0 : (int)prototype->device.device_type,
		         prototype == NULL ? 0 : (int)prototype->device.device_id);
		set_error(error_ctx, "BufferError", msg);
		return -1;
	}
	if (prototype->ndim < 0 || prototype->ndim > GDL_MAX_NDIM || (prototype->ndim > 0 && prototype->shape == NULL) ||
	    !gdl_contiguous(prototype->ndim, prototype->shape, prototype->dtype, false, strides, &elements, &nbytes)) {
		snprintf(msg, sizeof msg, "cannot allocate a tensor of dtype (%d, %d, %d) with %d dimensions: "
		         "an unknown dtype, or a shape that is negative or overflows", prototype->dtype.code,
		         prototype->dtype.bits, prototype->dtype.lanes, (int)prototype->ndim);
		set_error(error_ctx, "ValueError", msg);
		return -1;
	}
	void *data;
	gdl_owner *owner = gdl_owner_alloc((size_t)nbytes, &data);
	gdl_view v = {data, prototype->shape, strides, 0, prototype->device, prototype->dtype, prototype->ndim};
	DLManagedTensorVersioned *m = owner == NULL ? NULL : gdl_pack(owner, &v, true, GDL_MINOR_VERSION);
	if (owner != NULL)
		gdl_owner_drop(owner); /* the managed tensor holds it now */
	if (m == NULL) {
		snprintf(msg, sizeof msg, "cannot allocate %lld bytes", (long long)nbytes);
		set_error(error_ctx, "MemoryError", msg);
		return -1;
	}
	*out = m;
	return 0;
}

/* Our table: it lives as long as the process, as the spec asks. */
static DLPackExchangeAPI api = {
	.header = {.version = {GDL_MAJOR_VERSION, GDL_MINOR_VERSION}, .prev_api = NULL},
	.managed_tensor_allocator = api_allocator,
	.managed_tensor_from_py_object_no_sync = api_from_py_object,
	.managed_tensor_to_py_object_no_sync = api_to_py_object,
	.dltensor_from_py_object_no_sync = api_dltensor_from_py_object,
	.current_work_stream = api_current_work_stream,
};

/*
 * A type whose table's managed_tensor_to_py_object_no_sync wraps a tensor
 * of ours (torch.Tensor's), looked up once and kept, with the capsule that
 * holds the table, for the life of the library.
 */
static struct {
	const char *module, *capsule_path;
	int state; /* 0: not looked up; 1: table holds it; -1: none */
	PyObject *capsule;
	const DLPackExchangeAPI *table;
} wrappers[] = {{"torch", "Tensor.__dlpack_c_exchange_api__", 0, NULL, NULL}};

/*
 * wrapper_table returns the table of wrappers[i], or NULL with nothing set
 * where its library cannot be imported or offers none of major version 1.
 */
static const DLPackExchangeAPI *wrapper_table(int i) {
	if (wrappers[i].state != 0)
		return wrappers[i].table;
	wrappers[i].state = -1;
	PyObject *capsule = gdl_import_attr(wrappers[i].module, wrappers[i].capsule_path);
	PyErr_Clear(); /* without a table, the caller's other way says what is wrong */
	const DLPackExchangeAPI *t = capsule != NULL ? gdl_exchange_table(capsule) : NULL;
	if (t == NULL || t->managed_tensor_to_py_object_no_sync == NULL) {
		Py_XDECREF(capsule);
		return NULL;
	}
	wrappers[i].capsule = capsule;
	wrappers[i].table = t;
	wrappers[i].state = 1;
	return t;
}

/*
 * torch_takes says whether torch wraps a tensor of dtype dt on device d
 * without failing: from a failed wrap, torch neither deletes the managed
 * tensor nor says whether it did, so only what it always wraps goes to it.
 */
static bool torch_takes(DLDataType dt, DLDevice d) {
	if (d.device_type != kDLCPU || dt.lanes != 1)
		return false;
	switch (dt.code) {
	case kDLBool: return dt.bits == 8;
	case kDLInt: return dt.bits == 8 || dt.bits == 16 || dt.bits == 32 || dt.bits == 64;
	case kDLUInt: return dt.bits == 8;
	case kDLFloat: return dt.bits == 16 || dt.bits == 32 || dt.bits == 64;
	case kDLBfloat: return dt.bits == 16;
	case kDLComplex: return dt.bits == 64 || dt.bits == 128;
	}
	return false;
}

int gdl_export_torch(PyObject *t, PyObject **out) {
	gdl_source *s = source_of(t);
	if (s == NULL)
		return -1;
	if (!torch_takes(s->view.dtype, s->view.device))
		return 1;
	const DLPackExchangeAPI *table = wrapper_table(0);
	if (table == NULL)
		return 1;
	DLManagedTensorVersioned *m;
	if (api_from_py_object(t, &m) != 0)
		return -1;
	void *o = NULL;
	if (table->managed_tensor_to_py_object_no_sync(m, &o) != 0 || o == NULL) {
		/* m leaks rather than risk a second deletion (torch_takes keeps this path to memory running out). */
		if (!PyErr_Occurred())
			PyErr_SetString(PyExc_RuntimeError, "torch's DLPack exchange API did not wrap the tensor");
		return -1;
	}
	*out = o;
	return 0;
}

int gdl_register_exporter(PyTypeObject *type, Py_ssize_t source_offset, PyObject *(*wrap)(void *managed)) {
	if (nexporters == (int)(sizeof exporters / sizeof exporters[0])) {
		PyErr_SetString(PyExc_RuntimeError, "too many exporter types registered");
		return -1;
	}
	/*
	 * Into the dict of a type just made, which may be immutable to setattr
	 * (Py_TPFLAGS_IMMUTABLETYPE); PyType_Modified gives it a new version tag,
	 * so that no lookup cached before sees the type without the attribute.
	 */
	PyObject *capsule = PyCapsule_New(&api, GDL_EXCHANGE_API_NAME, NULL);
	if (capsule == NULL)
		return -1;
	int rc = PyDict_SetItemString(type->tp_dict, "__dlpack_c_exchange_api__", capsule);
	Py_DECREF(capsule);
	if (rc != 0)
		return -1;
	PyType_Modified(type);
	exporters[nexporters].type = type;
	exporters[nexporters].offset = source_offset;
	nexporters++;
	if (wrap != NULL)
		to_object = wrap;
	return 0;
}
