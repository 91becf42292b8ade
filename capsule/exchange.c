/*
 * The C exchange API of DLPack 1.3: the table we put on our types, and the
 * use of another library's table in place of __dlpack__.
 */
#include <string.h>
#include "capsule.h"
#include "_cgo_export.h"

/* ---- The exporters: their methods and the table we offer ---- */

/* The types whose instances hold a gdl_source, and where. */
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

int gdl_register_exporter(PyTypeObject *type, Py_ssize_t source_offset, PyObject *(*wrap)(void *managed)) {
	if (nexporters == (int)(sizeof exporters / sizeof exporters[0])) {
		PyErr_SetString(PyExc_RuntimeError, "too many exporter types registered");
		return -1;
	}
	/* The type's dict exists only after PyType_Ready: make it now, for the attribute to be there from the start. */
	if (type->tp_dict == NULL && (type->tp_dict = PyDict_New()) == NULL)
		return -1;
	PyObject *capsule = PyCapsule_New(&api, GDL_EXCHANGE_API_NAME, NULL);
	if (capsule == NULL)
		return -1;
	int rc = PyDict_SetItemString(type->tp_dict, "__dlpack_c_exchange_api__", capsule);
	Py_DECREF(capsule);
	if (rc != 0)
		return -1;
	exporters[nexporters].type = type;
	exporters[nexporters].offset = source_offset;
	nexporters++;
	if (wrap != NULL)
		to_object = wrap;
	return 0;
}

/* ---- Another library's table ---- */

static PyObject *str_exchange_api, *str_requires_grad;

/*
 * table_of returns the major-1 table a type's "dlpack_exchange_api" capsule
 * holds, following prev_api to an older one if the newest is of another
 * major, or NULL (no exception) if there is none we can use. The last capsule
 * seen is remembered: nearly every call asks the same type.
 */
static const DLPackExchangeAPI *table_of(PyObject *capsule) {
	static PyObject *last_capsule;
	static const DLPackExchangeAPI *last_table;
	if (capsule == last_capsule)
		return last_table;
	if (!PyCapsule_IsValid(capsule, GDL_EXCHANGE_API_NAME))
		return NULL;
	DLPackExchangeAPIHeader *h = PyCapsule_GetPointer(capsule, GDL_EXCHANGE_API_NAME);
	for (int hops = 0; h != NULL && h->version.major != GDL_MAJOR_VERSION && hops < 16; hops++)
		h = h->prev_api;
	const DLPackExchangeAPI *t = (const DLPackExchangeAPI *)h;
	if (t == NULL || t->header.version.major != GDL_MAJOR_VERSION || t->managed_tensor_from_py_object_no_sync == NULL)
		return NULL;
	/* Keep the capsule alive while it is remembered: its address is the key. */
	Py_INCREF(capsule);
	Py_XSETREF(last_capsule, capsule);
	last_table = t;
	return t;
}

/*
 * What gdl_exchange_take knows of the type it saw last, learnt once and kept
 * while the type's version tag (which CPython changes with any change to the
 * type, and never gives two types) stays the same.
 */
static struct {
	PyTypeObject *type;
	unsigned int tag;
	const DLPackExchangeAPI *table; /* the type's own usable table, or NULL */
	PyObject *requires_grad;        /* the type's requires_grad attribute (borrowed from the type), or NULL */
	getter requires_grad_get;       /* its getter, when it is a C getset descriptor */
	void *requires_grad_closure;
} seen;

/* learn fills seen for tp; -1 with an exception. */
static int learn(PyTypeObject *tp) {
	/*
	 * The table of tp's own dict only: a subclass inherits its base's table but
	 * may override __dlpack__ (PyTorch's subclasses do, and torch's table
	 * would export past them), so a subclass's answer is its __dlpack__'s.
	 */
	PyObject *capsule = tp->tp_dict == NULL ? NULL : PyDict_GetItemWithError(tp->tp_dict, str_exchange_api);
	if (capsule == NULL && PyErr_Occurred())
		return -1;
	seen.type = NULL; /* until complete */
	seen.table = capsule == NULL ? NULL : table_of(capsule);
	seen.requires_grad = _PyType_Lookup(tp, str_requires_grad); /* also gives tp a version tag */
	seen.requires_grad_get = NULL;
	if (seen.requires_grad != NULL && Py_IS_TYPE(seen.requires_grad, &PyGetSetDescr_Type)) {
		PyGetSetDef *def = ((PyGetSetDescrObject *)seen.requires_grad)->d_getset;
		seen.requires_grad_get = def->get;
		seen.requires_grad_closure = def->closure;
	}
	seen.tag = tp->tp_version_tag;
	seen.type = seen.tag != 0 ? tp : NULL; /* a type without a tag is learnt at every call */
	return 0;
}

/* requires_grad asks x, of the type seen learnt, whether it requires grad: 1, 0, or -1 with an exception. */
static int requires_grad(PyObject *x) {
	PyObject *r = seen.requires_grad_get != NULL ? seen.requires_grad_get(x, seen.requires_grad_closure)
	                                             : PyObject_GetAttr(x, str_requires_grad);
	if (r == NULL)
		return -1;
	int yes = PyObject_IsTrue(r);
	Py_DECREF(r);
	return yes;
}

int gdl_exchange_take(PyObject *x, const gdl_request *req, gdl_taken *out) {
	/* The table copies nothing and moves nothing: __dlpack__ serves those requests. */
	if (req->copy == 1 || req->has_device)
		return 1;
	if ((str_exchange_api == NULL &&
	     (str_exchange_api = PyUnicode_InternFromString("__dlpack_c_exchange_api__")) == NULL) ||
	    (str_requires_grad == NULL && (str_requires_grad = PyUnicode_InternFromString("requires_grad")) == NULL))
		return -1;
	/*
	 * The table of x's own type only: a subclass inherits its base's table but
	 * may override __dlpack__ (PyTorch's subclasses do, and torch's table
	 * would export past them), so a subclass's answer is its __dlpack__'s.
	 */
	PyTypeObject *tp = Py_TYPE(x);
	if ((tp != seen.type || tp->tp_version_tag != seen.tag) && learn(tp) != 0)
		return -1;
	const DLPackExchangeAPI *t = seen.table;
	if (t == NULL)
		return 1;
	/*
	 * PyTorch's table exports what its __dlpack__ refuses: a tensor that
	 * requires grad, and a conjugate view unconjugated (wrong values). Those
	 * take the __dlpack__ path, whose answer is the producer's own.
	 */
	bool autograd = seen.requires_grad != NULL;
	int grad = autograd ? requires_grad(x) : 0;
	if (grad != 0)
		return grad < 0 ? -1 : 1;
	DLManagedTensorVersioned *m = NULL;
	if (t->managed_tensor_from_py_object_no_sync(x, &m) != 0 || m == NULL) {
		/* What the table cannot export, __dlpack__ answers (or refuses) in the producer's own words. */
		PyErr_Clear();
		return 1;
	}
	if (autograd && m->dl_tensor.dtype.code == kDLComplex) {
		gdl_managed_delete(m, true);
		return 1;
	}
	out->managed = m;
	out->versioned = true;
	return 0;
}
