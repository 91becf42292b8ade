/* The module godlpack._core: from_dlpack and the creation functions. */
#include "ext.h"
#include "_cgo_export.h"

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
static int parse_device(PyObject *o, bool *has, DLDevice *d) {
	*has = false;
	if (o == NULL || o == Py_None)
		return 0;
	*has = true;
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
			return gdl_dlpack_device(o, d);
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

static gdl_signature from_dlpack_signature = {"from_dlpack", 3, 1, 1, 1, {"x", "device", "copy"}};

/* share_own imports our own Tensor: its storage is shared without a capsule, by the same rules. */
static PyObject *share_own(TensorObject *t, const gdl_request *req) {
	DLDevice d = t->src.view.device;
	bool cpu = gdl_is_cpu_accessible(d);
	if (req->has_device && !(req->device.device_type == kDLCPU ? cpu : req->device.device_type == d.device_type &&
	                                                                     req->device.device_id == d.device_id))
		return PyErr_Format(PyExc_BufferError, "cannot import a tensor on device (%d, %d) to device (%d, %d)",
		                    (int)d.device_type, (int)d.device_id, (int)req->device.device_type,
		                    (int)req->device.device_id);
	return gdl_tensor_share(t, req->has_device && req->device.device_type == kDLCPU);
}

/*
 * refuse deletes a taken tensor, then raises: its deleter may run Python
 * code, which must not find our exception set.
 */
static PyObject *refuse(const gdl_taken *tk, PyObject *exc, const char *format, ...) {
	gdl_managed_delete(tk->managed, tk->versioned);
	va_list args;
	va_start(args, format);
	PyErr_FormatV(exc, format, args);
	va_end(args);
	return NULL;
}

static PyObject *mod_from_dlpack(PyObject *mod, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
	GDL_CHECK_FORK(NULL);
	PyObject *a[3];
	if (nargs != 1)
		return PyErr_Format(PyExc_TypeError, "from_dlpack() takes exactly one positional argument (%zd given)",
		                    nargs);
	if (gdl_parse(&from_dlpack_signature, args, nargs, kwnames, a) != 0)
		return NULL;
	gdl_request req = {.func = "from_dlpack"};
	if (gdl_parse_copy(a[2], &req.copy) != 0 || parse_device(a[1], &req.has_device, &req.device) != 0)
		return NULL;
	PyObject *x = a[0];
	if (Py_IS_TYPE(x, &gdl_TensorType) && req.copy != 1)
		return share_own((TensorObject *)x, &req);

	gdl_taken tk;
	if (gdl_take(x, &req, &tk) != 0)
		return NULL;
	int64_t strides[GDL_MAX_NDIM];
	gdl_inspected v;
	if (gdl_validate(tk.managed, tk.versioned, strides, &v) != 0)
		return NULL;
	bool cpu = gdl_is_cpu_accessible(v.device), copied = (v.flags & GDL_FLAG_IS_COPIED) != 0;
	if (req.has_device) {
		if (req.device.device_type == kDLCPU && !cpu)
			return refuse(&tk, PyExc_BufferError, "device='cpu' was asked for, but the producer returned data on "
			              "device (%d, %d)", (int)v.device.device_type, (int)v.device.device_id);
		if (req.device.device_type != kDLCPU &&
		    (req.device.device_type != v.device.device_type || req.device.device_id != v.device.device_id))
			return refuse(&tk, PyExc_BufferError, "device (%d, %d) was asked for, but the producer returned data "
			              "on device (%d, %d)", (int)req.device.device_type, (int)req.device.device_id,
			              (int)v.device.device_type, (int)v.device.device_id);
	}
	if (req.copy == 0 && copied)
		return refuse(&tk, PyExc_BufferError, "copy=False, but the producer copied the data (IS_COPIED is set)");
	if (req.copy == 1 && !copied && !cpu)
		return refuse(&tk, PyExc_BufferError, "copy=True needs a copy of data on device (%d, %d), which is not "
		              "CPU-accessible", (int)v.device.device_type, (int)v.device.device_id);

	uint64_t flags = v.flags & GDL_FLAG_IS_SUBBYTE_TYPE_PADDED;
	if (!v.versioned || (v.flags & GDL_FLAG_READ_ONLY))
		flags |= GDL_FLAG_READ_ONLY; /* a legacy tensor cannot say that it may be written */
	if (copied)
		flags |= GDL_FLAG_IS_COPIED;
	TensorObject *t = gdl_tensor_alloc(v.ndim);
	if (t == NULL) {
		gdl_delete_keeping_error(tk.managed, tk.versioned);
		return NULL;
	}
	if (req.copy == 1 && !copied) {
		/* copy=True is ours to meet: the producer could not be asked, or answered without copying. */
		int rc = goImportCopy(&v, &t->src);
		gdl_delete_keeping_error(tk.managed, tk.versioned);
		if (rc != 0) {
			Py_DECREF(t);
			return NULL;
		}
		return gdl_tensor_finish(t);
	}
	gdl_owner *owner = gdl_owner_upstream(tk.managed, tk.versioned);
	if (owner == NULL) {
		Py_DECREF(t);
		return refuse(&tk, PyExc_MemoryError, "cannot allocate the owner of an imported tensor");
	}
	if (req.has_device && req.device.device_type == kDLCPU)
		v.device = (DLDevice){kDLCPU, 0};
	gdl_source_fill(&t->src, owner, &v, flags);
	return gdl_tensor_finish(t);
}

/* ---- creation ---- */

static const DLDataType default_float = {kDLFloat, 32, 1}, default_int = {kDLInt, 64, 1};

/* Creations from this size go to Go, which fills them with the GIL released. */
#define GDL_C_CREATE_MAX ((int64_t)1 << 20)

/*
 * create_in_c makes empty and zeros of whole-byte dtypes without entering Go:
 * gdl_contiguous, which TestContiguousMatchesGo holds to the Go layout
 * checks, lays them out. false leaves the tensor to goCreate, which also
 * says what is wrong with a layout.
 */
static bool create_in_c(const gdl_create_args *a, TensorObject *t) {
	int64_t elements, nbytes;
	void *data;
	if ((a->kind != GDL_EMPTY && a->kind != GDL_ZEROS) || a->dtype.bits < 8 ||
	    !gdl_contiguous(a->ndim, a->shape, a->dtype, false, (int64_t *)t->src.view.strides, &elements, &nbytes) ||
	    nbytes >= GDL_C_CREATE_MAX)
		return false;
	gdl_owner *owner = gdl_owner_alloc((size_t)nbytes, &data);
	if (owner == NULL)
		return false; /* goCreate raises the MemoryError */
	if (a->kind == GDL_ZEROS)
		memset(data, 0, (size_t)nbytes);
	gdl_source *s = &t->src;
	s->owner = owner;
	s->view.data = data;
	s->view.device = (DLDevice){kDLCPU, 0};
	s->view.dtype = a->dtype;
	s->view.flags = 0;
	memcpy((int64_t *)s->view.shape, a->shape, (size_t)a->ndim * sizeof(int64_t));
	s->need = gdl_min_version(a->dtype, s->view.device);
	s->nbytes = nbytes;
	return true;
}

static PyObject *create(gdl_create_args *a, PyObject *shape, PyObject *dtype, DLDataType default_dtype) {
	a->dtype = default_dtype;
	if (parse_shape(shape, &a->ndim, a->shape) != 0 || (dtype != NULL && gdl_dtype_of(dtype, &a->dtype) != 0))
		return NULL;
	TensorObject *t = gdl_tensor_alloc(a->ndim);
	if (t == NULL)
		return NULL;
	if (!create_in_c(a, t)) {
		a->out = &t->src;
		if (goCreate(a) != 0) {
			Py_DECREF(t);
			return NULL;
		}
	}
	return gdl_tensor_finish(t);
}

static gdl_signature empty_signature = {"empty", 2, 0, 2, 1, {"shape", "dtype"}};
static gdl_signature zeros_signature = {"zeros", 2, 0, 2, 1, {"shape", "dtype"}};
static gdl_signature full_signature = {"full", 3, 0, 3, 2, {"shape", "value", "dtype"}};
static gdl_signature arange_signature = {"arange", 2, 0, 2, 1, {"n", "dtype"}};

static PyObject *mod_empty(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
	GDL_CHECK_FORK(NULL);
	PyObject *a[2];
	if (gdl_parse(&empty_signature, args, nargs, kwnames, a) != 0)
		return NULL;
	gdl_create_args c = {.kind = GDL_EMPTY};
	return create(&c, a[0], a[1], default_float);
}

static PyObject *mod_zeros(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
	GDL_CHECK_FORK(NULL);
	PyObject *a[2];
	if (gdl_parse(&zeros_signature, args, nargs, kwnames, a) != 0)
		return NULL;
	gdl_create_args c = {.kind = GDL_ZEROS};
	return create(&c, a[0], a[1], default_float);
}

/* parse_value reads full's fill value, a bool, an int, a float or a complex, as a dlpack.Scalar. */
static int parse_value(PyObject *v, gdl_create_args *a) {
	if (PyBool_Check(v)) {
		a->value_kind = GDL_SCALAR_BOOL;
		a->ival = v == Py_True;
	} else if (PyLong_Check(v)) {
		int overflow;
		a->value_kind = GDL_SCALAR_INT;
		a->ival = PyLong_AsLongLongAndOverflow(v, &overflow);
		if (a->ival == -1 && PyErr_Occurred())
			return -1;
		if (overflow > 0) {
			/* Above int64 only uint64 can hold it. */
			a->value_kind = GDL_SCALAR_UINT;
			a->uval = PyLong_AsUnsignedLongLong(v);
			if (a->uval == (unsigned long long)-1 && PyErr_Occurred()) {
				PyErr_Format(PyExc_OverflowError, "fill value %R is out of range for every integer dtype", v);
				return -1;
			}
		} else if (overflow < 0) {
			PyErr_Format(PyExc_OverflowError, "fill value %R is out of range for every integer dtype", v);
			return -1;
		}
	} else if (PyFloat_Check(v)) {
		a->value_kind = GDL_SCALAR_FLOAT;
		a->re = PyFloat_AS_DOUBLE(v);
	} else if (PyComplex_Check(v)) {
		a->value_kind = GDL_SCALAR_COMPLEX;
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
	PyObject *a[3];
	if (gdl_parse(&full_signature, args, nargs, kwnames, a) != 0)
		return NULL;
	gdl_create_args c = {.kind = GDL_FULL};
	if (parse_value(a[1], &c) != 0)
		return NULL;
	return create(&c, a[0], a[2], default_float);
}

static PyObject *mod_arange(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
	GDL_CHECK_FORK(NULL);
	PyObject *a[2];
	if (gdl_parse(&arange_signature, args, nargs, kwnames, a) != 0)
		return NULL;
	if (!PyIndex_Check(a[0]))
		return PyErr_Format(PyExc_TypeError, "arange() needs an int n, got %.200s", Py_TYPE(a[0])->tp_name);
	/* One integer, read as NumPy reads it: a NumPy array is a sequence too, but no n. */
	PyObject *n = PyNumber_Index(a[0]);
	if (n == NULL)
		return NULL;
	gdl_create_args c = {.kind = GDL_ARANGE};
	PyObject *r = create(&c, n, a[1], default_int);
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
	static bool once;
	if (!once) {
		/* Py_AtExit functions run at the very end of Py_FinalizeEx, when no Python code can run any more. */
		if (Py_AtExit(gdl_owner_shutdown) != 0) {
			PyErr_SetString(PyExc_RuntimeError, "Py_AtExit failed: too many exit functions registered");
			return NULL;
		}
		if (gdl_register_exporter(&gdl_TensorType, offsetof(TensorObject, src), gdl_tensor_adopt) != 0)
			return NULL;
		once = true;
	}
	if (PyType_Ready(&gdl_TensorType) < 0 || PyType_Ready(&gdl_DTypeType) < 0)
		return NULL;
	PyObject *m = PyModule_Create(&module_def);
	if (m == NULL)
		return NULL;
	if (PyModule_AddObjectRef(m, "Tensor", (PyObject *)&gdl_TensorType) < 0 ||
	    PyModule_AddObjectRef(m, "DType", (PyObject *)&gdl_DTypeType) < 0 ||
	    add_version(m) < 0 || gdl_ops_register(m) < 0 || gdl_pickle_register(m) < 0) {
		Py_DECREF(m);
		return NULL;
	}
	return m;
}
