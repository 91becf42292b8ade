/* The module godlpack._core: from_dlpack and the creation functions. */
#include "ext.h"
#include "_cgo_export.h"

PyObject *gdl_raise(const gdl_error *e) {
	PyObject *type;
	switch (e->kind) {
	case GDL_TYPE_ERROR: type = PyExc_TypeError; break;
	case GDL_VALUE_ERROR: type = PyExc_ValueError; break;
	case GDL_BUFFER_ERROR: type = PyExc_BufferError; break;
	case GDL_MEMORY_ERROR: type = PyExc_MemoryError; break;
	case GDL_OVERFLOW_ERROR: type = PyExc_OverflowError; break;
	default: type = PyExc_RuntimeError; break;
	}
	PyErr_SetString(type, e->msg);
	return NULL;
}

/* ---- argument helpers ---- */

/* parse_keywords fills the slots of the allowed keyword names, in order; -1 with TypeError otherwise. */
static int parse_keywords(const char *func, PyObject *const *kwargs, PyObject *kwnames, const char *const *names,
                          PyObject **slots, int n) {
	Py_ssize_t nkw = kwnames == NULL ? 0 : PyTuple_GET_SIZE(kwnames);
	for (Py_ssize_t i = 0; i < nkw; i++) {
		PyObject *key = PyTuple_GET_ITEM(kwnames, i);
		/* Python refuses non-str names itself; a C caller may not, and the comparison below needs a str. */
		if (!PyUnicode_Check(key)) {
			PyErr_Format(PyExc_TypeError, "%s() keywords must be strings", func);
			return -1;
		}
		int j = 0;
		while (j < n && PyUnicode_CompareWithASCIIString(key, names[j]) != 0)
			j++;
		if (j == n) {
			PyErr_Format(PyExc_TypeError, "%s() got an unexpected keyword argument %R", func, key);
			return -1;
		}
		if (slots[j] != NULL) {
			PyErr_Format(PyExc_TypeError, "%s() got multiple values for argument '%s'", func, names[j]);
			return -1;
		}
		slots[j] = kwargs[i];
	}
	return 0;
}

/* parse_positional puts args into slots and the keywords after them. */
static int parse_args(const char *func, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames,
                      const char *const *names, PyObject **slots, int n, int required) {
	if (nargs > n) {
		PyErr_Format(PyExc_TypeError, "%s() takes at most %d positional arguments (%zd given)", func, n, nargs);
		return -1;
	}
	for (Py_ssize_t i = 0; i < nargs; i++)
		slots[i] = args[i];
	if (parse_keywords(func, args + nargs, kwnames, names, slots, n) != 0)
		return -1;
	for (int i = 0; i < required; i++)
		if (slots[i] == NULL) {
			PyErr_Format(PyExc_TypeError, "%s() missing required argument '%s'", func, names[i]);
			return -1;
		}
	return 0;
}

/* parse_copy reads None / True / False into -1 / 1 / 0. */
static int parse_copy(PyObject *copy, int *out) {
	if (copy == NULL || copy == Py_None) {
		*out = -1;
		return 0;
	}
	if (!PyBool_Check(copy)) {
		PyErr_Format(PyExc_TypeError, "copy must be None or a bool, got %.200s", Py_TYPE(copy)->tp_name);
		return -1;
	}
	*out = copy == Py_True;
	return 0;
}

/* parse_shape reads an int or a sequence of ints. */
static int parse_shape(PyObject *o, int32_t *ndim, int64_t *shape) {
	/* A sequence first: a NumPy array is one, and also has __index__. */
	if (PyIndex_Check(o) && !PySequence_Check(o)) {
		Py_ssize_t n = PyNumber_AsSsize_t(o, PyExc_OverflowError);
		if (n == -1 && PyErr_Occurred())
			return -1;
		if (n < 0) {
			PyErr_Format(PyExc_ValueError, "negative dimensions are not allowed, got %zd", n);
			return -1;
		}
		*ndim = 1;
		shape[0] = n;
		return 0;
	}
	/* PySequence_Fast would take any iterable, a set in no fixed order among them. */
	if (!PySequence_Check(o)) {
		PyErr_Format(PyExc_TypeError, "shape must be an int or a sequence of ints, got %.200s", Py_TYPE(o)->tp_name);
		return -1;
	}
	/* A list is read from a tuple copy: an element's __index__ could shrink the list under the loop. */
	PyObject *seq = PyList_CheckExact(o) ? PyList_AsTuple(o)
	                                     : PySequence_Fast(o, "shape must be an int or a sequence of ints");
	if (seq == NULL)
		return -1;
	Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
	if (n > GDL_MAX_NDIM) {
		Py_DECREF(seq);
		PyErr_Format(PyExc_ValueError, "shape has %zd dimensions, more than the %d allowed", n, GDL_MAX_NDIM);
		return -1;
	}
	for (Py_ssize_t i = 0; i < n; i++) {
		PyObject *d = PySequence_Fast_GET_ITEM(seq, i);
		if (!PyIndex_Check(d)) {
			PyErr_Format(PyExc_TypeError, "shape must hold ints, got %.200s at index %zd", Py_TYPE(d)->tp_name, i);
			Py_DECREF(seq);
			return -1;
		}
		Py_ssize_t v = PyNumber_AsSsize_t(d, PyExc_OverflowError);
		if (v == -1 && PyErr_Occurred()) {
			Py_DECREF(seq);
			return -1;
		}
		if (v < 0) {
			PyErr_Format(PyExc_ValueError, "negative dimensions are not allowed, got %zd at index %zd", v, i);
			Py_DECREF(seq);
			return -1;
		}
		shape[i] = v;
	}
	Py_DECREF(seq);
	*ndim = (int32_t)n;
	return 0;
}

/* parse_device reads from_dlpack's device: None, "cpu", (1, 0) or an object with __dlpack_device__. */
static int parse_device(PyObject *o, int *has, DLDevice *d) {
	*has = 0;
	if (o == NULL || o == Py_None)
		return 0;
	*has = 1;
	if (PyUnicode_Check(o)) {
		if (PyUnicode_CompareWithASCIIString(o, "cpu") == 0) {
			d->device_type = kDLCPU;
			d->device_id = 0;
			return 0;
		}
	} else if (PyTuple_Check(o)) {
		if (PyTuple_GET_SIZE(o) == 2 && PyLong_Check(PyTuple_GET_ITEM(o, 0)) &&
		    PyLong_Check(PyTuple_GET_ITEM(o, 1)) && PyLong_AsLong(PyTuple_GET_ITEM(o, 0)) == kDLCPU &&
		    PyLong_AsLong(PyTuple_GET_ITEM(o, 1)) == 0) {
			d->device_type = kDLCPU;
			d->device_id = 0;
			return 0;
		}
		PyErr_Clear();
	} else {
		PyObject *m = PyObject_GetAttrString(o, "__dlpack_device__");
		if (m != NULL) {
			Py_DECREF(m);
			int32_t type, id;
			if (gdl_dlpack_device(o, &type, &id) != 0)
				return -1;
			d->device_type = (DLDeviceType)type;
			d->device_id = id;
			return 0;
		}
		if (!PyErr_ExceptionMatches(PyExc_AttributeError))
			return -1;
		PyErr_Clear();
	}
	PyErr_Format(PyExc_ValueError,
	             "device must be None, 'cpu', (1, 0) or an object with __dlpack_device__, got %R", o);
	return -1;
}

/* ---- from_dlpack ---- */

static PyObject *str_dlpack_device;

static PyObject *mod_from_dlpack(PyObject *mod, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
	GDL_CHECK_FORK(NULL);
	static const char *const names[] = {"device", "copy"};
	PyObject *kw[2] = {NULL, NULL};
	if (nargs != 1)
		return PyErr_Format(PyExc_TypeError, "from_dlpack() takes exactly one positional argument (%zd given)",
		                    nargs);
	if (parse_keywords("from_dlpack", args + 1, kwnames, names, kw, 2) != 0)
		return NULL;
	PyObject *x = args[0];
	gdl_import_args a;
	a.err.kind = GDL_OK;
	if (parse_copy(kw[1], &a.copy) != 0 || parse_device(kw[0], &a.has_device, &a.device) != 0)
		return NULL;

	if (Py_IS_TYPE(x, &gdl_TensorType) && a.copy != 1) {
		/* Our own Tensor: share its storage without a capsule, with the same rules. */
		TensorObject *t = (TensorObject *)x;
		int cpu = gdl_is_cpu_accessible(t->device);
		if (a.has_device && !(a.device.device_type == kDLCPU ? cpu : a.device.device_type == t->device.device_type &&
		                                                                  a.device.device_id == t->device.device_id))
			return PyErr_Format(PyExc_BufferError, "cannot import a tensor on device (%d, %d) to device (%d, %d)",
			                    (int)t->device.device_type, (int)t->device.device_id,
			                    (int)a.device.device_type, (int)a.device.device_id);
		return gdl_tensor_share(t, a.has_device && a.device.device_type == kDLCPU);
	}
	PyObject *capsule;
	if (PyCapsule_CheckExact(x)) {
		/* A bare capsule could not be asked for anything: meet copy and device ourselves. */
		Py_INCREF(x);
		capsule = x;
		a.fallback = 1;
	} else {
		gdl_dlpack_request req = {GDL_MAJOR_VERSION, GDL_MINOR_VERSION, a.copy, a.has_device,
		                          a.device.device_type, a.device.device_id, 0, 0};
		/* A stream is passed only for CUDA or ROCm data, which __dlpack_device__ tells apart. */
		/* The type's own attribute, found through CPython's method cache: no exception, no allocation. */
		if (_PyType_Lookup(Py_TYPE(x), str_dlpack_device) != NULL) {
			int32_t type, id;
			if (gdl_dlpack_device(x, &type, &id) != 0)
				return NULL;
			if (type == kDLCUDA || type == kDLROCM) {
				/* We never touch the data, so the producer need not order anything: -1. */
				req.has_stream = 1;
				req.stream = -1;
			}
		}
		capsule = gdl_call_dlpack(x, &req, &a.fallback);
		if (capsule == NULL) {
			if (gdl_lacks_dlpack(x)) {
				PyErr_Clear();
				return PyErr_Format(PyExc_TypeError,
				                    "from_dlpack() needs an object with __dlpack__ or a DLPack capsule, got %.200s",
				                    Py_TYPE(x)->tp_name);
			}
			return NULL;
		}
		if (!PyCapsule_CheckExact(capsule)) {
			PyErr_Format(PyExc_TypeError, "%.200s.__dlpack__() returned %.200s, not a DLPack capsule",
			             Py_TYPE(x)->tp_name, Py_TYPE(capsule)->tp_name);
			Py_DECREF(capsule);
			return NULL;
		}
	}
	a.managed = gdl_capsule_take(capsule, &a.versioned);
	Py_DECREF(capsule);
	if (a.managed == NULL)
		return NULL;
	/* From here on the tensor is ours; goImport deletes it on every error. */
	if (goImport(&a) != GDL_OK)
		return gdl_raise(&a.err);
	if (a.out.owner == NULL && (a.out.owner = gdl_owner_upstream(a.managed, a.versioned)) == NULL) {
		gdl_managed_delete(a.managed, a.versioned);
		return PyErr_NoMemory();
	}
	return gdl_tensor_new(&a.out);
}

/* ---- creation ---- */

static PyObject *create(gdl_create_args *a, PyObject *shape, PyObject *dtype) {
	if (parse_shape(shape, &a->ndim, a->shape) != 0)
		return NULL;
	if ((a->dtype = gdl_dtype_arg(dtype, &a->dtype_len)) == NULL)
		return NULL;
	a->err.kind = GDL_OK;
	if (goCreate(a) != GDL_OK)
		return gdl_raise(&a->err);
	return gdl_tensor_new(&a->out);
}

static PyObject *default_float32, *default_int64;

static PyObject *mod_empty_or_zeros(int kind, const char *func, PyObject *const *args, Py_ssize_t nargs,
                                    PyObject *kwnames) {
	GDL_CHECK_FORK(NULL);
	static const char *const names[] = {"shape", "dtype"};
	PyObject *slots[2] = {NULL, NULL};
	if (parse_args(func, args, nargs, kwnames, names, slots, 2, 1) != 0)
		return NULL;
	gdl_create_args a;
	a.kind = kind;
	return create(&a, slots[0], slots[1] ? slots[1] : default_float32);
}

static PyObject *mod_empty(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
	return mod_empty_or_zeros(GDL_EMPTY, "empty", args, nargs, kwnames);
}

static PyObject *mod_zeros(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
	return mod_empty_or_zeros(GDL_ZEROS, "zeros", args, nargs, kwnames);
}

/* parse_value reads full's fill value: a bool, an int, a float or a complex. */
static int parse_value(PyObject *v, gdl_create_args *a) {
	a->value_unsigned = 0;
	if (PyBool_Check(v)) {
		a->value_kind = GDL_VALUE_BOOL;
		a->ival = v == Py_True;
	} else if (PyLong_Check(v)) {
		int overflow;
		a->value_kind = GDL_VALUE_INT;
		a->ival = PyLong_AsLongLongAndOverflow(v, &overflow);
		if (a->ival == -1 && PyErr_Occurred())
			return -1;
		if (overflow > 0) {
			/* Above int64 only uint64 can hold it. */
			unsigned long long u = PyLong_AsUnsignedLongLong(v);
			if (u == (unsigned long long)-1 && PyErr_Occurred()) {
				PyErr_Format(PyExc_OverflowError, "fill value %R is out of range for every integer dtype", v);
				return -1;
			}
			a->ival = (long long)u;
			a->value_unsigned = 1;
		} else if (overflow < 0) {
			PyErr_Format(PyExc_OverflowError, "fill value %R is out of range for every integer dtype", v);
			return -1;
		}
	} else if (PyFloat_Check(v)) {
		a->value_kind = GDL_VALUE_FLOAT;
		a->re = PyFloat_AS_DOUBLE(v);
	} else if (PyComplex_Check(v)) {
		a->value_kind = GDL_VALUE_COMPLEX;
		a->re = PyComplex_RealAsDouble(v);
		a->im = PyComplex_ImagAsDouble(v);
	} else if (PyIndex_Check(v)) {
		/* Another library's integer (NumPy's int64): read the int it stands for. */
		PyObject *i = PyNumber_Index(v);
		if (i == NULL)
			return -1;
		int rc = parse_value(i, a);
		Py_DECREF(i);
		return rc;
	} else {
		PyErr_Format(PyExc_TypeError, "fill value must be a bool, int, float or complex, got %.200s",
		             Py_TYPE(v)->tp_name);
		return -1;
	}
	return 0;
}

static PyObject *mod_full(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
	GDL_CHECK_FORK(NULL);
	static const char *const names[] = {"shape", "value", "dtype"};
	PyObject *slots[3] = {NULL, NULL, NULL};
	if (parse_args("full", args, nargs, kwnames, names, slots, 3, 2) != 0)
		return NULL;
	gdl_create_args a;
	a.kind = GDL_FULL;
	if (parse_value(slots[1], &a) != 0)
		return NULL;
	return create(&a, slots[0], slots[2] ? slots[2] : default_float32);
}

static PyObject *mod_arange(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
	GDL_CHECK_FORK(NULL);
	static const char *const names[] = {"n", "dtype"};
	PyObject *slots[2] = {NULL, NULL};
	if (parse_args("arange", args, nargs, kwnames, names, slots, 2, 1) != 0)
		return NULL;
	if (!PyIndex_Check(slots[0]))
		return PyErr_Format(PyExc_TypeError, "arange() needs an int n, got %.200s", Py_TYPE(slots[0])->tp_name);
	/* One integer, read as NumPy reads it: a NumPy array is a sequence too, but no n. */
	PyObject *n = PyNumber_Index(slots[0]);
	if (n == NULL)
		return NULL;
	gdl_create_args a;
	a.kind = GDL_ARANGE;
	PyObject *r = create(&a, n, slots[1] ? slots[1] : default_int64);
	Py_DECREF(n);
	return r;
}

static PyObject *mod_live_storages(PyObject *m, PyObject *unused) { return PyLong_FromLongLong(gdl_owner_live()); }

static PyMethodDef module_methods[] = {
	{"from_dlpack", (PyCFunction)(void (*)(void))mod_from_dlpack, METH_FASTCALL | METH_KEYWORDS,
	 "from_dlpack(x, /, *, device=None, copy=None)\n--\n\n"
	 "Import x (an object with __dlpack__, or a DLPack capsule) as a Tensor, zero-copy unless copy=True."},
	{"empty", (PyCFunction)(void (*)(void))mod_empty, METH_FASTCALL | METH_KEYWORDS,
	 "empty(shape, dtype='float32')\n--\n\nA new tensor with uninitialised elements."},
	{"zeros", (PyCFunction)(void (*)(void))mod_zeros, METH_FASTCALL | METH_KEYWORDS,
	 "zeros(shape, dtype='float32')\n--\n\nA new tensor of zeros."},
	{"full", (PyCFunction)(void (*)(void))mod_full, METH_FASTCALL | METH_KEYWORDS,
	 "full(shape, value, dtype='float32')\n--\n\nA new tensor with every element set to value."},
	{"arange", (PyCFunction)(void (*)(void))mod_arange, METH_FASTCALL | METH_KEYWORDS,
	 "arange(n, dtype='int64')\n--\n\nThe 1-d tensor 0, 1, ..., n-1."},
	{"_live_storages", (PyCFunction)mod_live_storages, METH_NOARGS,
	 "_live_storages()\n--\n\nHow many storages (owners of exported or imported memory) are alive."},
	{NULL},
};

static struct PyModuleDef module_def = {
	PyModuleDef_HEAD_INIT,
	.m_name = "godlpack._core",
	.m_doc = "The Go core of godlpack: DLPack 1.x tensors for Python.",
	.m_size = -1,
	.m_methods = module_methods,
};

static int add_version(PyObject *m) {
	PyObject *v = Py_BuildValue("(ii)", GDL_MAJOR_VERSION, GDL_MINOR_VERSION);
	int rc = v == NULL ? -1 : PyModule_AddObjectRef(m, "DLPACK_VERSION", v);
	Py_XDECREF(v);
	return rc;
}

PyObject *gdl_module_create(void) {
	static int once;
	if (!once) {
		/* Py_AtExit functions run at the very end of Py_FinalizeEx, when no Python code can run any more. */
		if (Py_AtExit(gdl_owner_shutdown) != 0) {
			PyErr_SetString(PyExc_RuntimeError, "Py_AtExit failed: too many exit functions registered");
			return NULL;
		}
		once = 1;
	}
	if (PyType_Ready(&gdl_TensorType) < 0 || PyType_Ready(&gdl_DTypeType) < 0)
		return NULL;
	if ((str_dlpack_device = PyUnicode_InternFromString("__dlpack_device__")) == NULL ||
	    (default_float32 = PyUnicode_InternFromString("float32")) == NULL ||
	    (default_int64 = PyUnicode_InternFromString("int64")) == NULL)
		return NULL;
	PyObject *m = PyModule_Create(&module_def);
	if (m == NULL)
		return NULL;
	if (PyModule_AddObjectRef(m, "Tensor", (PyObject *)&gdl_TensorType) < 0 ||
	    PyModule_AddObjectRef(m, "DType", (PyObject *)&gdl_DTypeType) < 0 ||
	    add_version(m) < 0 || gdl_ops_register(m) < 0) {
		Py_DECREF(m);
		return NULL;
	}
	return m;
}
