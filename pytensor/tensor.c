/* The Tensor type: made, shared and freed; properties, methods and the DLPack producer methods. */
#include "tensor_object.h"

/*
 * Freed Tensors of few dimensions are kept for reuse, as CPython keeps its
 * floats and tuples: an exchange makes and drops one Tensor, and the
 * allocator's round trip was a sixth of a NumPy import's work. Only touched
 * with the GIL held. One per library, as the Tensor type is: a Tensor is
 * freed, and made, where no module is at hand, on every exchange's path.
 */
#define FREELIST_NDIM 4

#define FREELIST_SIZE 16

static TensorObject *freelist[FREELIST_NDIM + 1][FREELIST_SIZE];

static int nfree[FREELIST_NDIM + 1];

/*
 * The one constructor of Tensors: tensor_alloc makes the object, whose
 * source holds nothing (owner and pending NULL, which is all tensor_dealloc
 * reads of a source never filled) but for view.ndim, view.shape and
 * view.strides, which point to the object's dims; each door below fills
 * the rest of the source, then tensor_finish completes the object. The
 * source is not zeroed first: every door writes all of it, and the zeroing
 * was a tenth of an import's own work.
 */
static TensorObject *tensor_alloc(int32_t ndim) {
	TensorObject *t;
	if (ndim >= 0 && ndim <= FREELIST_NDIM && nfree[ndim] > 0) {
		t = freelist[ndim][--nfree[ndim]];
		PyObject_InitVar((PyVarObject *)t, gdl_library_types.tensor, 3 * (Py_ssize_t)ndim);
	} else if ((t = PyObject_NewVar(TensorObject, gdl_library_types.tensor, 3 * (Py_ssize_t)ndim)) == NULL) {
		return NULL;
	}
	t->src.owner = NULL;
	t->src.pending = NULL;
	t->src.view.ndim = ndim;
	t->src.view.shape = TENSOR_SHAPE(t);
	t->src.view.strides = TENSOR_STRIDES(t);
	t->weakrefs = NULL;
	return t;
}

/* tensor_finish_sized completes t, of size elements of itemsize bytes (0 for packed sub-byte elements). */
static PyObject *tensor_finish_sized(TensorObject *t, int64_t size, int64_t itemsize) {
	t->size = size;
	t->itemsize = itemsize;
	for (int i = 0; i < t->src.view.ndim; i++)
		/* Only used by the buffer protocol, which is refused where this could overflow. */
		TENSOR_BYTE_STRIDES(t)[i] = (int64_t)((uint64_t)TENSOR_STRIDES(t)[i] * (uint64_t)itemsize);
	return (PyObject *)t;
}

static PyObject *tensor_finish(TensorObject *t) {
	const gdl_view *v = &t->src.view;
	int64_t size = 1;
	for (int i = 0; i < v->ndim; i++)
		size *= TENSOR_SHAPE(t)[i]; /* validated: the count fits */
	/* Sub-byte elements: one byte each when padded, none of their own when packed. */
	return tensor_finish_sized(t, size, gdl_itemsize(v->dtype, (v->flags & GDL_FLAG_IS_SUBBYTE_TYPE_PADDED) != 0));
}

PyObject *gdl_tensor_from_source(gdl_source *src) {
	int32_t nd = src->view.ndim;
	TensorObject *t = tensor_alloc(nd);
	if (t == NULL) {
		gdl_source_release(src);
		return NULL;
	}
	gdl_copy_dims(TENSOR_SHAPE(t), src->view.shape, nd);
	gdl_copy_dims(TENSOR_STRIDES(t), src->view.strides, nd);
	t->src = *src;
	t->src.view.shape = TENSOR_SHAPE(t);
	t->src.view.strides = TENSOR_STRIDES(t);
	return tensor_finish(t);
}

/* Filled in place, with no gdl_source between: the import's own copy of one was a twentieth of its work. */
PyObject *gdl_tensor_from_import(gdl_imported *im) {
	const gdl_inspected *v = &im->v;
	int32_t nd = v->ndim;
	TensorObject *t = tensor_alloc(nd);
	if (t == NULL) {
		gdl_delete_keeping_error(im->managed, im->versioned);
		return NULL;
	}
	gdl_source_fill(&t->src, NULL, v, im->flags);
	gdl_source_adopt(&t->src, im->managed, im->versioned);
	gdl_copy_dims(TENSOR_SHAPE(t), v->shape, nd);
	gdl_copy_dims(TENSOR_STRIDES(t), v->strides, nd);
	t->src.view.shape = TENSOR_SHAPE(t);
	t->src.view.strides = TENSOR_STRIDES(t);
	return tensor_finish_sized(t, v->elements, v->itemsize);
}

/*
 * tensor_share makes a Tensor over src's memory, as a zero-copy export and
 * import would (from_dlpack of our own Tensor takes this short cut); cpu
 * relabels CPU-accessible memory as device (1, 0).
 */
static PyObject *tensor_share(TensorObject *src, bool cpu) {
	gdl_owner *owner = gdl_source_owner(&src->src);
	if (owner == NULL)
		return PyErr_NoMemory();
	TensorObject *t = tensor_alloc(src->src.view.ndim);
	if (t == NULL)
		return NULL;
	gdl_owner_retain(owner);
	t->src = src->src;
	t->src.view.shape = TENSOR_SHAPE(t);
	t->src.view.strides = TENSOR_STRIDES(t);
	if (cpu) {
		t->src.view.device.device_type = kDLCPU;
		t->src.view.device.device_id = 0;
	}
	/* What a zero-copy export and import would carry: never IS_COPIED, which means sole ownership. */
	t->src.view.flags &= ~GDL_FLAG_IS_COPIED;
	t->size = src->size;
	t->itemsize = src->itemsize;
	gdl_copy_dims(t->dims, src->dims, 3 * src->src.view.ndim);
	return (PyObject *)t;
}

PyObject *gdl_tensor_import(PyObject *x, const gdl_request *req) {
	if (Py_IS_TYPE(x, gdl_library_types.tensor) && req->copy != 1) {
		TensorObject *t = (TensorObject *)x;
		if (req->has_device && gdl_device_refused(req, t->src.view.device) != 0)
			return NULL;
		return tensor_share(t, req->has_device && req->device.device_type == kDLCPU);
	}
	int64_t strides[GDL_MAX_NDIM];
	gdl_imported im;
	if (gdl_import(x, req, strides, &im) != 0)
		return NULL;
	return gdl_tensor_from_import(&im);
}

PyObject *gdl_tensor_adopt(void *managed) {
	int64_t strides[GDL_MAX_NDIM];
	gdl_imported im = {.managed = managed, .versioned = true};
	if (gdl_validate(managed, true, strides, &im.v) != 0)
		return NULL;
	im.flags = im.v.flags;
	return gdl_tensor_from_import(&im);
}

/*
 * A Tensor may be freed while an exception unwinds through its caller, and
 * what it frees may run Python code: weakref callbacks (CPython keeps the
 * exception aside for them) and, through the owner, a producer's deleter
 * (gdl_delete_keeping_error keeps it aside, for every holder alike).
 */
static void tensor_dealloc(TensorObject *self) {
	if (self->weakrefs != NULL)
		PyObject_ClearWeakRefs((PyObject *)self);
	PyTypeObject *type = Py_TYPE(self); /* a heap type, which each instance holds a reference to */
	int32_t ndim = self->src.view.ndim;
	gdl_source_release(&self->src);
	if (ndim >= 0 && ndim <= FREELIST_NDIM && nfree[ndim] < FREELIST_SIZE)
		freelist[ndim][nfree[ndim]++] = self;
	else
		PyObject_Free(self);
	Py_DECREF(type);
}

static PyObject *tensor_data_ptr(TensorObject *self, PyObject *unused) { return PyLong_FromVoidPtr(self->src.view.data); }

static PyMethodDef tensor_methods[] = {
	GDL_EXPORTER_METHODS,
	{"data_ptr", (PyCFunction)tensor_data_ptr, METH_NOARGS,
	 "data_ptr($self, /)\n--\n\nThe address of the first element, as an int."},
	{"tolist", (PyCFunction)gdl_tensor_tolist, METH_NOARGS, "tolist($self, /)\n--\n\nThe elements as nested Python lists."},
	{"__reduce_ex__", (PyCFunction)gdl_tensor_reduce_ex, METH_O,
	 "__reduce_ex__($self, protocol, /)\n--\n\nPickle support: protocol 5 passes the elements as a PickleBuffer over "
	 "the tensor's memory (no copy when the pickler keeps buffers out of band), older protocols as bytes."},
	{"__reduce__", (PyCFunction)gdl_tensor_reduce, METH_NOARGS, "__reduce__($self, /)\n--\n\n__reduce_ex__(2)."},
	{"__copy__", (PyCFunction)gdl_tensor_copy, METH_NOARGS,
	 "__copy__($self, /)\n--\n\nA writable tensor with a copy of the elements of its own (copy.copy)."},
	{"__deepcopy__", (PyCFunction)gdl_tensor_deepcopy, METH_O,
	 "__deepcopy__($self, memo, /)\n--\n\nA writable tensor with a copy of the elements of its own (copy.deepcopy)."},
	{NULL},
};

/* ---- properties ---- */

static PyObject *int64_tuple(const int64_t *v, int n) {
	PyObject *t = PyTuple_New(n);
	if (t == NULL)
		return NULL;
	for (int i = 0; i < n; i++) {
		PyObject *x = PyLong_FromLongLong(v[i]);
		if (x == NULL) {
			Py_DECREF(t);
			return NULL;
		}
		PyTuple_SET_ITEM(t, i, x);
	}
	return t;
}

PyObject *gdl_tensor_get_shape(TensorObject *t, void *c) { return int64_tuple(TENSOR_SHAPE(t), t->src.view.ndim); }

static PyObject *get_strides(TensorObject *t, void *c) { return int64_tuple(TENSOR_STRIDES(t), t->src.view.ndim); }

static PyObject *get_ndim(TensorObject *t, void *c) { return PyLong_FromLong(t->src.view.ndim); }

static PyObject *get_size(TensorObject *t, void *c) { return PyLong_FromLongLong(t->size); }

static PyObject *get_itemsize(TensorObject *t, void *c) { return PyLong_FromLongLong(t->itemsize); }

static PyObject *get_nbytes(TensorObject *t, void *c) { return PyLong_FromLongLong(t->src.nbytes); }

static PyObject *get_dtype(TensorObject *t, void *c) { return gdl_dtype_get(t->src.view.dtype); }

static PyObject *get_device(TensorObject *t, void *c) { return gdl_device_new(t->src.view.device); }

static PyObject *get_readonly(TensorObject *t, void *c) { return PyBool_FromLong(gdl_tensor_readonly(t)); }

static PyObject *get_is_copied(TensorObject *t, void *c) {
	return PyBool_FromLong((t->src.view.flags & GDL_FLAG_IS_COPIED) != 0);
}

static PyGetSetDef tensor_getset[] = {
	{"shape", (getter)gdl_tensor_get_shape, NULL, "The size of each dimension.", NULL},
	{"strides", (getter)get_strides, NULL, "The step of each dimension, in elements.", NULL},
	{"ndim", (getter)get_ndim, NULL, "The number of dimensions.", NULL},
	{"size", (getter)get_size, NULL, "The number of elements.", NULL},
	{"itemsize", (getter)get_itemsize, NULL, "Bytes per element (1 for sub-byte dtypes).", NULL},
	{"nbytes", (getter)get_nbytes, NULL, "Bytes the elements occupy.", NULL},
	{"dtype", (getter)get_dtype, NULL, "The element type, a DType.", NULL},
	{"device", (getter)get_device, NULL,
	 "The device of the data: a Device, the (device_type, device_id) tuple with type and index by name.",
	 NULL},
	{"readonly", (getter)get_readonly, NULL, "Whether the data must not be written.", NULL},
	{"is_copied", (getter)get_is_copied, NULL, "Whether the data is a copy this tensor owns alone.", NULL},
	{NULL},
};

/* ---- len and truth, as NumPy's ---- */

static Py_ssize_t tensor_length(TensorObject *self) {
	if (self->src.view.ndim == 0) {
		PyErr_SetString(PyExc_TypeError, "len() of unsized object");
		return -1;
	}
	return (Py_ssize_t)TENSOR_SHAPE(self)[0];
}

static PyMemberDef tensor_members[] = {
	{"__weaklistoffset__", Py_T_PYSSIZET, offsetof(TensorObject, weakrefs), Py_READONLY, NULL},
	{NULL},
};

static PyType_Slot tensor_slots[] = {
	{Py_tp_dealloc, tensor_dealloc},
	{Py_tp_repr, gdl_tensor_repr},
	{Py_tp_str, gdl_tensor_str},
	{Py_nb_bool, gdl_tensor_bool},
	{Py_sq_length, tensor_length},
	{Py_bf_getbuffer, gdl_tensor_getbuffer},
	{Py_tp_doc, "An n-dimensional array that speaks DLPack, over memory made in Go or C or imported zero-copy: any "
	            "from_dlpack takes it without a copy."},
	{Py_tp_methods, tensor_methods},
	{Py_tp_getset, tensor_getset},
	{Py_tp_members, tensor_members},
	{0, NULL},
};

/*
 * The Tensor type's spec: named after its module by gdl_tensor_types_ready.
 * A Tensor references no Python object, so the GC never needs to see it;
 * the type is immutable, cannot be subclassed, and only this package makes
 * instances.
 */
PyType_Spec gdl_tensor_spec = {
	.name = "Tensor",
	.basicsize = offsetof(TensorObject, dims),
	.itemsize = sizeof(int64_t),
	.flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_IMMUTABLETYPE | Py_TPFLAGS_DISALLOW_INSTANTIATION,
	.slots = tensor_slots,
};
