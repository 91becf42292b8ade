/* The module godlpack._core: from_dlpack and the creation functions. */
#include "ext.h"
#include "_cgo_export.h"

/*
 * one_int reports whether a shape is one int: an object with __index__ that
 * is no sequence, or whose length cannot be taken (a 0-d NumPy array, which
 * NumPy reads as an int). A NumPy array of any other dimension is a sequence.
 */
static bool one_int(PyObject *o) {
	if (!PyIndex_Check(o))
		return false;
	if (!PySequence_Check(o))
		return true;
	if (PySequence_Size(o) >= 0)
		return false;
	if (!PyErr_ExceptionMatches(PyExc_TypeError))
		return false; /* the sequence path raises it again */
	PyErr_Clear();
	return true;
}

/* parse_shape reads an int or a sequence of ints. */
static int parse_shape(PyObject *o, int32_t *ndim, int64_t *shape) {
	if (one_int(o)) {
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

/*
 * parse_device reads from_dlpack's device: None, or any spelling of a device
 * gdl_parse_device reads ("cpu", "cuda:1", (1, 0), a torch.device, a
 * godlpack.Device, an object with __dlpack_device__); ValueError, as
 * NumPy's, for anything else.
 */
static int parse_device(PyObject *o, bool *has, DLDevice *d) {
	*has = o != NULL && o != Py_None;
	return *has ? gdl_parse_device(o, PyExc_ValueError, "device", d) : 0;
}

/* ---- from_dlpack ---- */

static gdl_signature from_dlpack_signature = GDL_SIGNATURE("from_dlpack", 3, 1, 1, 1, "x", "device", "copy");

static PyObject *mod_from_dlpack(PyObject *mod, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
	GDL_CHECK_FORK(NULL);
	PyObject *a[3];
	if (nargs != 1)
		return PyErr_Format(PyExc_TypeError, "from_dlpack() takes exactly one positional argument (%zd given)",
		                    nargs);
	gdl_request req = {.func = "from_dlpack", .copy = -1};
	/* from_dlpack(x), nearly every call, has nothing more to read. */
	if (kwnames == NULL)
		return gdl_tensor_import(args[0], &req);
	if (gdl_parse(&from_dlpack_signature, args, nargs, kwnames, a) != 0)
		return NULL;
	if (gdl_parse_copy(a[2], &req.copy) != 0 || parse_device(a[1], &req.has_device, &req.device) != 0)
		return NULL;
	return gdl_tensor_import(a[0], &req);
}

/* ---- creation ---- */

/* NumPy's defaults: float64 for empty and zeros, and for full the type of its fill value (full_dtype). */
static const DLDataType default_float = {kDLFloat, 64, 1};

/* Creations from this size go to Go, which fills them with the GIL released. */
#define GDL_C_CREATE_MAX ((int64_t)1 << 20)

/*
 * create_in_c makes empty and zeros of whole-byte dtypes without entering Go:
 * gdl_contiguous lays them out by the layout rule, gdl_layout, which
 * goCreate's checks run too. false leaves the tensor to goCreate, which also
 * says what is wrong with a layout.
 */
static bool create_in_c(const gdl_create_args *a, gdl_source *s) {
	int64_t elements, nbytes;
	void *data;
	if ((a->kind != GDL_EMPTY && a->kind != GDL_ZEROS) || a->dtype.bits < 8 ||
	    !gdl_contiguous(a->ndim, a->shape, a->dtype, false, (int64_t *)s->view.strides, &elements, &nbytes) ||
	    nbytes >= GDL_C_CREATE_MAX)
		return false;
	gdl_owner *owner = (a->kind == GDL_ZEROS ? gdl_owner_alloc_zeroed : gdl_owner_alloc)((size_t)nbytes, &data);
	if (owner == NULL)
		return false; /* goCreate raises the MemoryError */
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

/*
 * go_create is goCreate behind the fork guard: parsing the arguments may
 * have run Python code (an __index__, a __float__, a __dlpack_data_type__)
 * that forked. -1 with an exception.
 */
static int go_create(gdl_create_args *a) {
	if (gdl_forked_child()) {
		gdl_fork_error();
		return -1;
	}
	return goCreate(a);
}

/* new_tensor makes the Tensor a asks for: in C where create_in_c can, else in Go. */
static PyObject *new_tensor(gdl_create_args *a) {
	gdl_source_room r;
	memset(&r.src, 0, sizeof r.src);
	gdl_source_room_init(&r);
	r.src.view.ndim = a->ndim;
	if (!create_in_c(a, &r.src)) {
		a->out = &r.src;
		if (go_create(a) != 0)
			return NULL;
	}
	return gdl_tensor_from_source(&r.src);
}

static PyObject *create(gdl_create_args *a, PyObject *shape, PyObject *dtype, DLDataType default_dtype) {
	a->dtype = default_dtype;
	if (parse_shape(shape, &a->ndim, a->shape) != 0 ||
	    (dtype != NULL && dtype != Py_None && gdl_dtype_of(dtype, &a->dtype) != 0))
		return NULL;
	return new_tensor(a);
}

static gdl_signature empty_signature = GDL_SIGNATURE("empty", 2, 0, 2, 1, "shape", "dtype");
static gdl_signature zeros_signature = GDL_SIGNATURE("zeros", 2, 0, 2, 1, "shape", "dtype");
static gdl_signature full_signature = GDL_SIGNATURE("full", 3, 0, 3, 2, "shape", "value", "dtype");
static gdl_signature arange_signature = GDL_SIGNATURE("arange", 4, 0, 4, 0, "start", "stop", "step", "dtype");

/* empty_or_zeros is empty(shape, dtype=None) and zeros(shape, dtype=None): float64 by default, as NumPy's. */
static PyObject *empty_or_zeros(int kind, gdl_signature *sig, PyObject *const *args, Py_ssize_t nargs,
                                PyObject *kwnames) {
	GDL_CHECK_FORK(NULL);
	PyObject *a[2];
	if (gdl_parse(sig, args, nargs, kwnames, a) != 0)
		return NULL;
	gdl_create_args c = {.kind = kind};
	return create(&c, a[0], a[1], default_float);
}

static PyObject *mod_empty(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
	return empty_or_zeros(GDL_EMPTY, &empty_signature, args, nargs, kwnames);
}

static PyObject *mod_zeros(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
	return empty_or_zeros(GDL_ZEROS, &zeros_signature, args, nargs, kwnames);
}

/*
 * full_dtype is full's dtype when none is given, as NumPy picks it: a NumPy
 * scalar's or 0-d array's own (np.float32(1): float32), else bool for a
 * bool, int64 for an int (uint64 from 2**63), float64 for a float and
 * complex128 for a complex.
 */
static DLDataType full_dtype(PyObject *v, const gdl_scalar *s) {
	DLDataType dt;
	if (!PyLong_Check(v) && !PyFloat_Check(v) && !PyComplex_Check(v) && PyObject_CheckBuffer(v)) {
		Py_buffer b;
		if (PyObject_GetBuffer(v, &b, PyBUF_FORMAT) == 0) {
			int rc = b.ndim == 0 && b.format != NULL ? gdl_dtype_of_format(b.format, &dt) : -1;
			PyBuffer_Release(&b);
			if (rc == 0)
				return dt;
		} else {
			PyErr_Clear(); /* gdl_parse_scalar read it another way */
		}
	}
	switch (s->kind) {
	case GDL_SCALAR_BOOL: return (DLDataType){kDLBool, 8, 1};
	case GDL_SCALAR_UINT: return (DLDataType){kDLUInt, 64, 1};
	case GDL_SCALAR_FLOAT: return (DLDataType){kDLFloat, 64, 1};
	case GDL_SCALAR_COMPLEX: return (DLDataType){kDLComplex, 128, 1};
	default: return (DLDataType){kDLInt, 64, 1}; /* INT; BIGINT, which int64 refuses as NumPy's does */
	}
}

static PyObject *mod_full(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
	GDL_CHECK_FORK(NULL);
	PyObject *a[3];
	if (gdl_parse(&full_signature, args, nargs, kwnames, a) != 0)
		return NULL;
	gdl_create_args c = {.kind = GDL_FULL};
	if (gdl_parse_scalar(a[1], "fill value", &c.value) != 0)
		return NULL;
	bool given = a[2] != NULL && a[2] != Py_None;
	return create(&c, a[0], a[2], given ? default_float : full_dtype(a[1], &c.value));
}

/*
 * mod_arange is arange([start,] stop[, step], dtype=None) as NumPy's: one
 * positional argument is stop; Go counts the elements and, without a dtype,
 * picks int64 for ints and float64 if any argument is a float.
 */
static PyObject *mod_arange(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
	GDL_CHECK_FORK(NULL);
	PyObject *a[4];
	if (gdl_parse(&arange_signature, args, nargs, kwnames, a) != 0)
		return NULL;
	PyObject *start = a[0], *stop = a[1], *step = a[2];
	if (stop == NULL || stop == Py_None) {
		if (nargs == 0 || start == NULL || start == Py_None)
			return PyErr_Format(PyExc_TypeError, "arange() requires stop to be specified");
		stop = start;
		start = NULL;
	}
	gdl_create_args c = {.kind = GDL_ARANGE, .ndim = 1};
	c.start.kind = c.step.kind = GDL_SCALAR_INT;
	c.step.ival = 1;
	if ((start != NULL && gdl_parse_scalar(start, "arange() start", &c.start) != 0) ||
	    gdl_parse_scalar(stop, "arange() stop", &c.stop) != 0 ||
	    (step != NULL && step != Py_None && gdl_parse_scalar(step, "arange() step", &c.step) != 0))
		return NULL;
	if (a[3] != NULL && a[3] != Py_None) {
		if (gdl_dtype_of(a[3], &c.dtype) != 0)
			return NULL;
		c.has_dtype = true;
	}
	return new_tensor(&c);
}

static PyObject *mod_live_storages(PyObject *m, PyObject *unused) { return PyLong_FromLongLong(gdl_owner_live()); }

static PyMethodDef module_methods[] = {
	{"from_dlpack", (PyCFunction)(void (*)(void))mod_from_dlpack, METH_FASTCALL | METH_KEYWORDS,
	 "from_dlpack(x, /, *, device=None, copy=None)\n--\n\n"
	 "Import x (an object with __dlpack__, or a DLPack capsule) as a Tensor, zero-copy unless copy=True.\n\n"
	 "device: where the data must be. None (the default) takes it where the producer has it. Otherwise a "
	 "(device_type, device_id) tuple such as (1, 0), a godlpack.Device, a str such as 'cpu', 'cpu:0' or "
	 "'cuda:1' (a DLPack device type and an index; 'cpu' alone is 'cpu:0'), a torch.device with an index "
	 "(or the CPU's), or an object with __dlpack_device__. The device is passed to the producer as dl_device; "
	 "CPU-accessible memory (CUDA, ROCm and TPU pinned host memory, CUDA managed memory) is taken as the CPU's "
	 "without a copy. ValueError for a device that cannot be read, BufferError when the producer's data is "
	 "elsewhere.\n\n"
	 "copy: None (the default) shares the producer's memory when it can, and copies when the producer must; "
	 "True always gives a private, writable copy (BufferError for data the CPU cannot read); False never "
	 "copies (BufferError when the producer could only hand over a copy)."},
	{"empty", (PyCFunction)(void (*)(void))mod_empty, METH_FASTCALL | METH_KEYWORDS,
	 "empty(shape, dtype=None)\n--\n\nA new tensor with uninitialised elements; float64 unless dtype says."},
	{"zeros", (PyCFunction)(void (*)(void))mod_zeros, METH_FASTCALL | METH_KEYWORDS,
	 "zeros(shape, dtype=None)\n--\n\nA new tensor of zeros; float64 unless dtype says."},
	{"full", (PyCFunction)(void (*)(void))mod_full, METH_FASTCALL | METH_KEYWORDS,
	 "full(shape, value, dtype=None)\n--\n\nA new tensor with every element set to value. Without a dtype, "
	 "NumPy's choice: bool for a bool, int64 for an int, float64 for a float, complex128 for a complex, and a "
	 "NumPy scalar's own dtype."},
	{"arange", (PyCFunction)(void (*)(void))mod_arange, METH_FASTCALL | METH_KEYWORDS,
	 "arange(start, stop=None, step=None, dtype=None)\n--\n\n"
	 "Evenly spaced values in [start, stop) as NumPy's arange makes them; arange(n) is 0, 1, ..., n-1. "
	 "The dtype is int64 for ints and float64 if any argument is a float, unless given."},
	{"_live_storages", (PyCFunction)mod_live_storages, METH_NOARGS,
	 "_live_storages()\n--\n\nHow many storages (owners of exported or imported memory) are alive."},
	{NULL},
};

static struct PyModuleDef module_def = {
	PyModuleDef_HEAD_INIT,
	.m_name = "godlpack._core",
	.m_doc = "The Go core of godlpack: DLPack 1.x tensors for Python.",
	.m_size = 0, /* not -1, which would give a subinterpreter a copy of the module (pymodule/module.c says why) */
	.m_methods = module_methods,
};

static int add_version(PyObject *m) {
	PyObject *v = Py_BuildValue("(ii)", GDL_MAJOR_VERSION, GDL_MINOR_VERSION);
	int rc = v == NULL ? -1 : PyModule_AddObjectRef(m, "DLPACK_VERSION", v);
	Py_XDECREF(v);
	return rc;
}

PyObject *gdl_module_create(void) {
	PyObject *m = PyModule_Create(&module_def);
	if (m != NULL && add_version(m) < 0)
		Py_CLEAR(m);
	return m;
}
