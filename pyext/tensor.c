/* The Tensor type: properties, the DLPack producer methods and the buffer protocol. */
#include "ext.h"
#include "_cgo_export.h"

PyObject *gdl_tensor_new(gdl_desc *d) {
	TensorObject *t = PyObject_NewVar(TensorObject, &gdl_TensorType, 3 * (Py_ssize_t)d->ndim);
	if (t == NULL) {
		gdl_owner_drop(d->owner);
		return NULL;
	}
	t->owner = d->owner;
	t->data = d->data;
	t->device = d->device;
	t->dtype = d->dtype;
	t->ndim = d->ndim;
	t->flags = d->flags;
	t->need = d->need;
	t->size = d->size;
	t->nbytes = d->nbytes;
	t->itemsize = d->itemsize;
	t->weakrefs = NULL;
	for (int i = 0; i < d->ndim; i++) {
		TENSOR_SHAPE(t)[i] = d->shape[i];
		TENSOR_STRIDES(t)[i] = d->strides[i];
		/* Only used by the buffer protocol, which is refused where this could overflow. */
		TENSOR_BYTE_STRIDES(t)[i] = (int64_t)((uint64_t)d->strides[i] * (uint64_t)d->itemsize);
	}
	return (PyObject *)t;
}

PyObject *gdl_tensor_share(TensorObject *src, int cpu) {
	TensorObject *t = PyObject_NewVar(TensorObject, &gdl_TensorType, 3 * (Py_ssize_t)src->ndim);
	if (t == NULL)
		return NULL;
	gdl_owner_retain(src->owner);
	t->owner = src->owner;
	t->data = src->data;
	t->device = src->device;
	if (cpu) {
		t->device.device_type = kDLCPU;
		t->device.device_id = 0;
	}
	t->dtype = src->dtype;
	t->ndim = src->ndim;
	/* What a zero-copy export and import would carry: never IS_COPIED, which means sole ownership. */
	t->flags = src->flags & ~GDL_FLAG_IS_COPIED;
	t->need = src->need;
	t->size = src->size;
	t->nbytes = src->nbytes;
	t->itemsize = src->itemsize;
	t->weakrefs = NULL;
	memcpy(t->dims, src->dims, 3 * (size_t)src->ndim * sizeof(int64_t));
	return (PyObject *)t;
}

static void tensor_dealloc(TensorObject *self) {
	if (self->weakrefs != NULL)
		PyObject_ClearWeakRefs((PyObject *)self);
	gdl_owner_drop(self->owner);
	PyObject_Free(self);
}

static int tensor_readonly(const TensorObject *t) { return (t->flags & GDL_FLAG_READ_ONLY) != 0; }

/* ---- __dlpack__ ---- */

static PyObject *kw_stream, *kw_max_version, *kw_dl_device, *kw_copy;

static int intern_keywords(void) {
	if (kw_copy != NULL)
		return 0;
	/* kw_copy, set last, says all four are: a failed call leaves it NULL and is retried. */
	if ((kw_stream == NULL && (kw_stream = PyUnicode_InternFromString("stream")) == NULL) ||
	    (kw_max_version == NULL && (kw_max_version = PyUnicode_InternFromString("max_version")) == NULL) ||
	    (kw_dl_device == NULL && (kw_dl_device = PyUnicode_InternFromString("dl_device")) == NULL))
		return -1;
	kw_copy = PyUnicode_InternFromString("copy");
	return kw_copy == NULL ? -1 : 0;
}

/* keyword_slot matches a keyword name (a str), by identity first (interned), then by value. */
static PyObject **keyword_slot(PyObject *name, PyObject **stream, PyObject **max_version, PyObject **dl_device,
                               PyObject **copy) {
	if (name == kw_max_version) return max_version;
	if (name == kw_copy) return copy;
	if (name == kw_dl_device) return dl_device;
	if (name == kw_stream) return stream;
	if (PyUnicode_Compare(name, kw_max_version) == 0) return max_version;
	if (PyUnicode_Compare(name, kw_copy) == 0) return copy;
	if (PyUnicode_Compare(name, kw_dl_device) == 0) return dl_device;
	if (PyUnicode_Compare(name, kw_stream) == 0) return stream;
	return NULL;
}

/* clamped_int reads an int, saturating at the long long range: any int is a valid (if unheard-of) version or device. */
static long long clamped_int(PyObject *o) {
	int overflow;
	long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
	return overflow > 0 ? LLONG_MAX : overflow < 0 ? LLONG_MIN : v;
}

/* int_pair reads a tuple of two ints; -1 with TypeError naming what for otherwise. */
static int int_pair(PyObject *o, const char *what, long long *a, long long *b) {
	if (!PyTuple_Check(o) || PyTuple_GET_SIZE(o) != 2 || !PyLong_Check(PyTuple_GET_ITEM(o, 0)) ||
	    !PyLong_Check(PyTuple_GET_ITEM(o, 1))) {
		PyErr_Format(PyExc_TypeError, "%s must be a tuple of two ints, got %R", what, o);
		return -1;
	}
	*a = clamped_int(PyTuple_GET_ITEM(o, 0));
	*b = clamped_int(PyTuple_GET_ITEM(o, 1));
	return 0;
}

/* Exported in place of a NULL data pointer: DLPack wants one even for no elements. */
static _Alignas(64) const char empty_data[64];

/* copy_out makes a fresh C-contiguous copy of t through Go; the owner it returns has one reference. */
static gdl_owner *copy_out(const TensorObject *t, void **data, int64_t *strides) {
	gdl_copy_args a;
	a.src = t;
	a.owner = NULL;
	if (goCopy(&a) != GDL_OK) {
		gdl_raise(&a.err);
		return NULL;
	}
	*data = a.data;
	memcpy(strides, a.strides, (size_t)t->ndim * sizeof(int64_t));
	return a.owner;
}

/*
 * The exchange hot path stays in C: parsing, checks and building the capsule
 * cost about as much as one crossing into Go (see NOTES.md and
 * bench/exchange.py), so Go is entered only to copy.
 */
static PyObject *tensor_dlpack(TensorObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
	GDL_CHECK_FORK(NULL);
	if (nargs != 0)
		return PyErr_Format(PyExc_TypeError, "__dlpack__() takes no positional arguments (%zd given)", nargs);
	if (intern_keywords() != 0)
		return NULL;
	PyObject *stream = NULL, *max_version = NULL, *dl_device = NULL, *copy = NULL;
	Py_ssize_t nkw = kwnames == NULL ? 0 : PyTuple_GET_SIZE(kwnames);
	for (Py_ssize_t i = 0; i < nkw; i++) {
		/* Python passes unique str names; a C caller may not. */
		PyObject *name = PyTuple_GET_ITEM(kwnames, i);
		if (!PyUnicode_Check(name))
			return PyErr_Format(PyExc_TypeError, "__dlpack__() keywords must be strings");
		PyObject **slot = keyword_slot(name, &stream, &max_version, &dl_device, &copy);
		if (slot == NULL)
			return PyErr_Format(PyExc_TypeError, "__dlpack__() got an unexpected keyword argument %R", name);
		if (*slot != NULL)
			return PyErr_Format(PyExc_TypeError, "__dlpack__() got multiple values for argument %R", name);
		*slot = args[i];
	}
	stream = stream ? stream : Py_None;
	max_version = max_version ? max_version : Py_None;
	dl_device = dl_device ? dl_device : Py_None;
	copy = copy ? copy : Py_None;
	int cpu = gdl_is_cpu_accessible(self->device);

	int versioned = 0;
	uint32_t minor = 0;
	if (max_version != Py_None) {
		long long major, want_minor;
		if (int_pair(max_version, "max_version", &major, &want_minor) != 0)
			return NULL;
		if (major < 0 || want_minor < 0)
			return PyErr_Format(PyExc_TypeError, "max_version must hold non-negative ints, got %R", max_version);
		if (major >= 1) {
			versioned = 1;
			minor = major > GDL_MAJOR_VERSION || want_minor > GDL_MINOR_VERSION ? GDL_MINOR_VERSION
			                                                                     : (uint32_t)want_minor;
		}
	}
	if (stream != Py_None) {
		if (!PyLong_Check(stream) || PyBool_Check(stream))
			return PyErr_Format(PyExc_TypeError, "stream must be None or an int, got %.200s",
			                    Py_TYPE(stream)->tp_name);
		if (cpu) {
			long long s = PyLong_AsLongLong(stream);
			if (s == -1 && PyErr_Occurred()) {
				PyErr_Clear();
				s = 0;
			}
			if (s != -1)
				return PyErr_Format(PyExc_ValueError, "stream must be None or -1 for CPU data, got %R", stream);
		}
	}
	DLDevice device = self->device;
	if (dl_device != Py_None) {
		long long type, id;
		if (!PyTuple_Check(dl_device))
			return PyErr_Format(PyExc_TypeError, "dl_device must be a (device_type, device_id) tuple, got %R",
			                    dl_device);
		if (int_pair(dl_device, "dl_device", &type, &id) != 0)
			return NULL;
		if (type == kDLCPU && id == 0 && cpu) {
			device.device_type = kDLCPU;
			device.device_id = 0;
		} else if (type != self->device.device_type || id != self->device.device_id) {
			return PyErr_Format(PyExc_BufferError, "cannot export a tensor on device (%d, %d) to dl_device %R",
			                    (int)self->device.device_type, (int)self->device.device_id, dl_device);
		}
	}
	int want_copy = -1;
	if (copy != Py_None) {
		if (!PyBool_Check(copy))
			return PyErr_Format(PyExc_TypeError, "copy must be None or a bool, got %.200s", Py_TYPE(copy)->tp_name);
		want_copy = copy == Py_True;
	}
	if (!versioned && tensor_readonly(self) && want_copy != 1)
		return PyErr_Format(PyExc_BufferError,
		                    "a read-only tensor cannot be exported as a legacy DLPack capsule, which cannot "
		                    "mark it read-only; pass max_version=(1, %d) or copy=True",
		                    GDL_MINOR_VERSION);
	if (versioned ? self->need.major > 1 || self->need.minor > minor : self->need.major > 0) {
		PyObject *dt = gdl_dtype_get(self->dtype);
		PyErr_Format(PyExc_BufferError, "a tensor of dtype %S on device (%d, %d) needs DLPack %u.%u, but %s was negotiated",
		             dt, (int)device.device_type, (int)device.device_id, self->need.major, self->need.minor,
		             versioned ? (minor == 0 ? "1.0" : minor == 1 ? "1.1" : minor == 2 ? "1.2" : "1.3")
		                       : "a legacy capsule");
		Py_XDECREF(dt);
		return NULL;
	}

	gdl_view v;
	v.data = self->data;
	v.shape = TENSOR_SHAPE(self);
	v.strides = TENSOR_STRIDES(self);
	v.device = device;
	v.dtype = self->dtype;
	v.ndim = self->ndim;
	v.flags = self->flags & (GDL_FLAG_READ_ONLY | GDL_FLAG_IS_SUBBYTE_TYPE_PADDED);
	if (v.data == NULL)
		v.data = (void *)empty_data; /* only a size-0 tensor can have NULL data */
	gdl_owner *owner = self->owner;
	int64_t strides[GDL_MAX_NDIM];
	if (want_copy == 1) {
		if (!cpu)
			return PyErr_Format(PyExc_BufferError, "cannot copy data on device (%d, %d): it is not CPU-accessible",
			                    (int)self->device.device_type, (int)self->device.device_id);
		if ((owner = copy_out(self, &v.data, strides)) == NULL)
			return NULL;
		v.strides = strides;
		v.flags = (v.flags & ~GDL_FLAG_READ_ONLY) | GDL_FLAG_IS_COPIED;
	}
	void *managed = gdl_pack(owner, &v, versioned, minor);
	if (owner != self->owner)
		gdl_owner_drop(owner);
	if (managed == NULL)
		return PyErr_NoMemory();
	return gdl_capsule_wrap(managed, versioned);
}

static PyObject *tensor_dlpack_device(TensorObject *self, PyObject *unused) {
	return Py_BuildValue("(ii)", (int)self->device.device_type, (int)self->device.device_id);
}

static PyObject *tensor_data_ptr(TensorObject *self, PyObject *unused) { return PyLong_FromVoidPtr(self->data); }

static PyObject *tensor_tolist(TensorObject *self, PyObject *unused);

static PyMethodDef tensor_methods[] = {
	{"__dlpack__", (PyCFunction)(void (*)(void))tensor_dlpack, METH_FASTCALL | METH_KEYWORDS,
	 "__dlpack__(*, stream=None, max_version=None, dl_device=None, copy=None)\n--\n\n"
	 "Export the tensor as a DLPack capsule (versioned when max_version's major is >= 1)."},
	{"__dlpack_device__", (PyCFunction)tensor_dlpack_device, METH_NOARGS,
	 "__dlpack_device__()\n--\n\nThe (device_type, device_id) of the data."},
	{"data_ptr", (PyCFunction)tensor_data_ptr, METH_NOARGS,
	 "data_ptr()\n--\n\nThe address of the first element, as an int."},
	{"tolist", (PyCFunction)tensor_tolist, METH_NOARGS, "tolist()\n--\n\nThe elements as nested Python lists."},
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

static PyObject *get_shape(TensorObject *t, void *c) { return int64_tuple(TENSOR_SHAPE(t), t->ndim); }
static PyObject *get_strides(TensorObject *t, void *c) { return int64_tuple(TENSOR_STRIDES(t), t->ndim); }
static PyObject *get_ndim(TensorObject *t, void *c) { return PyLong_FromLong(t->ndim); }
static PyObject *get_size(TensorObject *t, void *c) { return PyLong_FromLongLong(t->size); }
static PyObject *get_itemsize(TensorObject *t, void *c) { return PyLong_FromLongLong(t->itemsize); }
static PyObject *get_nbytes(TensorObject *t, void *c) { return PyLong_FromLongLong(t->nbytes); }
static PyObject *get_dtype(TensorObject *t, void *c) { return gdl_dtype_get(t->dtype); }
static PyObject *get_device(TensorObject *t, void *c) { return tensor_dlpack_device(t, NULL); }
static PyObject *get_readonly(TensorObject *t, void *c) { return PyBool_FromLong(tensor_readonly(t)); }
static PyObject *get_is_copied(TensorObject *t, void *c) {
	return PyBool_FromLong((t->flags & GDL_FLAG_IS_COPIED) != 0);
}

static PyGetSetDef tensor_getset[] = {
	{"shape", (getter)get_shape, NULL, "The size of each dimension.", NULL},
	{"strides", (getter)get_strides, NULL, "The step of each dimension, in elements.", NULL},
	{"ndim", (getter)get_ndim, NULL, "The number of dimensions.", NULL},
	{"size", (getter)get_size, NULL, "The number of elements.", NULL},
	{"itemsize", (getter)get_itemsize, NULL, "Bytes per element (1 for sub-byte dtypes).", NULL},
	{"nbytes", (getter)get_nbytes, NULL, "Bytes the elements occupy.", NULL},
	{"dtype", (getter)get_dtype, NULL, "The element type, a godlpack.DType.", NULL},
	{"device", (getter)get_device, NULL, "(device_type, device_id) of the data.", NULL},
	{"readonly", (getter)get_readonly, NULL, "Whether the data must not be written.", NULL},
	{"is_copied", (getter)get_is_copied, NULL, "Whether the data is a copy this tensor owns alone.", NULL},
	{NULL},
};

/* ---- tolist and repr ---- */

static PyObject *scalar(const TensorObject *t, const char *p) {
	DLDataType dt = t->dtype;
	switch (dt.code) {
	case kDLBool:
		return PyBool_FromLong(*(const uint8_t *)p != 0);
	case kDLInt:
		switch (dt.bits) {
		case 8: return PyLong_FromLong(*(const int8_t *)p);
		case 16: return PyLong_FromLong(*(const int16_t *)p);
		case 32: return PyLong_FromLong(*(const int32_t *)p);
		case 64: return PyLong_FromLongLong(*(const int64_t *)p);
		}
		break;
	case kDLUInt:
		switch (dt.bits) {
		case 8: return PyLong_FromUnsignedLong(*(const uint8_t *)p);
		case 16: return PyLong_FromUnsignedLong(*(const uint16_t *)p);
		case 32: return PyLong_FromUnsignedLong(*(const uint32_t *)p);
		case 64: return PyLong_FromUnsignedLongLong(*(const uint64_t *)p);
		}
		break;
	case kDLFloat:
		switch (dt.bits) {
		case 16: return PyFloat_FromDouble(PyFloat_Unpack2(p, 1));
		case 32: return PyFloat_FromDouble(*(const float *)p);
		case 64: return PyFloat_FromDouble(*(const double *)p);
		}
		break;
	case kDLBfloat: {
		uint32_t bits = (uint32_t)(*(const uint16_t *)p) << 16;
		float f;
		memcpy(&f, &bits, sizeof f);
		return PyFloat_FromDouble(f);
	}
	case kDLComplex:
		if (dt.bits == 64)
			return PyComplex_FromDoubles(((const float *)p)[0], ((const float *)p)[1]);
		return PyComplex_FromDoubles(((const double *)p)[0], ((const double *)p)[1]);
	default: {
		/* float8/float6/float4: decoded in Go, which knows every format. */
		double d;
		if (goDecodeMinifloat(dt.code, *(const uint8_t *)p, &d) != 0)
			break;
		return PyFloat_FromDouble(d);
	}
	}
	PyObject *name = gdl_dtype_get(dt);
	PyErr_Format(PyExc_TypeError, "tolist() does not support dtype %S", name);
	Py_XDECREF(name);
	return NULL;
}

static PyObject *tolist_dim(const TensorObject *t, int dim, const char *p) {
	if (dim == t->ndim)
		return scalar(t, p);
	int64_t n = TENSOR_SHAPE(t)[dim];
	PyObject *list = PyList_New((Py_ssize_t)n);
	if (list == NULL)
		return NULL;
	for (int64_t i = 0; i < n; i++) {
		PyObject *x = tolist_dim(t, dim + 1, p + i * TENSOR_BYTE_STRIDES(t)[dim]);
		if (x == NULL) {
			Py_DECREF(list);
			return NULL;
		}
		PyList_SET_ITEM(list, (Py_ssize_t)i, x);
	}
	return list;
}

static int require_readable(const TensorObject *t, const char *what) {
	if (!gdl_is_cpu_accessible(t->device)) {
		PyErr_Format(PyExc_BufferError, "%s: data on device (%d, %d) cannot be read on the CPU", what,
		             (int)t->device.device_type, (int)t->device.device_id);
		return -1;
	}
	if (t->dtype.bits < 8 && !(t->flags & GDL_FLAG_IS_SUBBYTE_TYPE_PADDED) && t->size > 0) {
		PyErr_Format(PyExc_BufferError, "%s: packed %d-bit elements are not addressable one by one", what,
		             (int)t->dtype.bits);
		return -1;
	}
	return 0;
}

static PyObject *tensor_tolist(TensorObject *self, PyObject *unused) {
	GDL_CHECK_FORK(NULL);
	if (require_readable(self, "tolist()") != 0)
		return NULL;
	return tolist_dim(self, 0, self->data);
}

/* Data is shown for tensors small enough to read at a glance. */
#define REPR_MAX_SIZE 64

static PyObject *tensor_repr(TensorObject *self) {
	PyObject *shape = get_shape(self, NULL), *dtype = gdl_dtype_get(self->dtype), *data = NULL, *r = NULL;
	if (shape == NULL || dtype == NULL)
		goto done;
	const char *ro = tensor_readonly(self) ? ", readonly=True" : "";
	const char *cp = (self->flags & GDL_FLAG_IS_COPIED) ? ", is_copied=True" : "";
	if (!gdl_forked_child() && self->size <= REPR_MAX_SIZE && require_readable(self, "repr") == 0 &&
	    (data = tolist_dim(self, 0, self->data)) != NULL)
		r = PyUnicode_FromFormat("godlpack.Tensor(%R, shape=%R, dtype=%S, device=(%d, %d)%s%s)", data, shape,
		                         dtype, (int)self->device.device_type, (int)self->device.device_id, ro, cp);
	else {
		PyErr_Clear();
		r = PyUnicode_FromFormat("godlpack.Tensor(<%lld elements>, shape=%R, dtype=%S, device=(%d, %d)%s%s)",
		                         (long long)self->size, shape, dtype, (int)self->device.device_type,
		                         (int)self->device.device_id, ro, cp);
	}
done:
	Py_XDECREF(shape);
	Py_XDECREF(dtype);
	Py_XDECREF(data);
	return r;
}

/* ---- buffer protocol ---- */

static const char *buffer_format(DLDataType dt) {
	if (dt.lanes != 1)
		return NULL;
	switch (dt.code) {
	case kDLBool: return dt.bits == 8 ? "?" : NULL;
	case kDLInt:
		switch (dt.bits) { case 8: return "b"; case 16: return "h"; case 32: return "i"; case 64: return "q"; }
		return NULL;
	case kDLUInt:
		switch (dt.bits) { case 8: return "B"; case 16: return "H"; case 32: return "I"; case 64: return "Q"; }
		return NULL;
	case kDLFloat:
		switch (dt.bits) { case 16: return "e"; case 32: return "f"; case 64: return "d"; }
		return NULL;
	case kDLComplex:
		switch (dt.bits) { case 64: return "Zf"; case 128: return "Zd"; }
		return NULL;
	}
	return NULL;
}

static int is_c_contiguous(const TensorObject *t) {
	int64_t want = 1;
	if (t->size == 0)
		return 1;
	for (int i = t->ndim - 1; i >= 0; i--) {
		if (TENSOR_SHAPE(t)[i] != 1 && TENSOR_STRIDES(t)[i] != want)
			return 0;
		want *= TENSOR_SHAPE(t)[i];
	}
	return 1;
}

static int is_f_contiguous(const TensorObject *t) {
	int64_t want = 1;
	if (t->size == 0)
		return 1;
	for (int i = 0; i < t->ndim; i++) {
		if (TENSOR_SHAPE(t)[i] != 1 && TENSOR_STRIDES(t)[i] != want)
			return 0;
		want *= TENSOR_SHAPE(t)[i];
	}
	return 1;
}

static int tensor_getbuffer(TensorObject *self, Py_buffer *view, int flags) {
	view->obj = NULL;
	GDL_CHECK_FORK(-1);
	if (require_readable(self, "buffer") != 0)
		return -1;
	const char *format = buffer_format(self->dtype);
	if (format == NULL) {
		PyObject *name = gdl_dtype_get(self->dtype);
		PyErr_Format(PyExc_BufferError, "dtype %S has no buffer format", name);
		Py_XDECREF(name);
		return -1;
	}
	if ((flags & PyBUF_WRITABLE) && tensor_readonly(self)) {
		PyErr_SetString(PyExc_BufferError, "the tensor is read-only");
		return -1;
	}
	int c = is_c_contiguous(self);
	if (((flags & PyBUF_C_CONTIGUOUS) == PyBUF_C_CONTIGUOUS && !c) ||
	    ((flags & PyBUF_F_CONTIGUOUS) == PyBUF_F_CONTIGUOUS && !is_f_contiguous(self)) ||
	    ((flags & PyBUF_ANY_CONTIGUOUS) == PyBUF_ANY_CONTIGUOUS && !c && !is_f_contiguous(self)) ||
	    ((flags & PyBUF_STRIDES) != PyBUF_STRIDES && !c)) {
		PyErr_SetString(PyExc_BufferError, "the tensor is not contiguous as the buffer request requires");
		return -1;
	}
	view->buf = self->data;
	view->len = (Py_ssize_t)self->nbytes;
	view->readonly = tensor_readonly(self);
	view->itemsize = (Py_ssize_t)self->itemsize;
	view->format = (flags & PyBUF_FORMAT) ? (char *)format : NULL;
	view->ndim = self->ndim;
	view->shape = (flags & PyBUF_ND) == PyBUF_ND ? (Py_ssize_t *)TENSOR_SHAPE(self) : NULL;
	view->strides = (flags & PyBUF_STRIDES) == PyBUF_STRIDES ? (Py_ssize_t *)TENSOR_BYTE_STRIDES(self) : NULL;
	view->suboffsets = NULL;
	view->internal = NULL;
	Py_INCREF(self);
	view->obj = (PyObject *)self;
	return 0;
}

static PyBufferProcs tensor_as_buffer = {(getbufferproc)tensor_getbuffer, NULL};

_Static_assert(sizeof(Py_ssize_t) == sizeof(int64_t), "the buffer protocol shares the int64 shape arrays");

PyTypeObject gdl_TensorType = {
	PyVarObject_HEAD_INIT(NULL, 0)
	.tp_name = "godlpack.Tensor",
	.tp_basicsize = offsetof(TensorObject, dims),
	.tp_itemsize = sizeof(int64_t),
	.tp_dealloc = (destructor)tensor_dealloc,
	.tp_repr = (reprfunc)tensor_repr,
	.tp_as_buffer = &tensor_as_buffer,
	/* A Tensor references no Python object: the GC never needs to see it. */
	.tp_flags = Py_TPFLAGS_DEFAULT,
	.tp_doc = "An n-dimensional array that speaks DLPack: made by godlpack or imported zero-copy "
	          "with godlpack.from_dlpack.",
	.tp_methods = tensor_methods,
	.tp_getset = tensor_getset,
	.tp_weaklistoffset = offsetof(TensorObject, weakrefs),
};
