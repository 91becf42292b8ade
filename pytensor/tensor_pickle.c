/*
 * Pickling and copying Tensors: __reduce_ex__, __reduce__, __copy__,
 * __deepcopy__ and the module's _rebuild.
 *
 * A tensor travels as the raw bytes of its elements with its dtype as
 * (code, bits, lanes), its shape, its strides and whether sub-byte elements
 * are padded: the buffer protocol has no format for bfloat16, float8,
 * complex32, vector or sub-byte dtypes, so the bytes go through a 1-d uint8
 * view. Protocol 5 hands pickle a PickleBuffer over the tensor's own memory,
 * so that a caller who keeps buffers out of band moves no byte; older
 * protocols copy the bytes into the pickle, as protocol 5 does in band.
 *
 * Elements that fill their memory without gaps (C order, Fortran order or
 * any order of the axes) travel as they lie and keep their strides; any
 * other layout (a strided view, a broadcast, negative strides) is first
 * copied C-contiguously by producer.CopyOf, as NumPy makes such arrays
 * C-contiguous. That copy is the only way into Go here.
 */
#include "tensor_object.h"
#include "_cgo_export.h"

/* Copies from this size release the GIL, as cpython.WithoutGIL's do (1 MiB). */
#define GIL_THRESHOLD ((int64_t)1 << 20)

/*
 * The module's _rebuild (godlpack._core._rebuild, rowstats._rebuild), which
 * every pickle of a Tensor names: one per library, since a Tensor of any of
 * its modules pickles naming the first module's, after which the types are
 * named.
 */
static PyObject *rebuild_func;

/* The address of the bytes of a tensor of no elements whose data pointer is NULL. */
static _Alignas(64) const char no_data[64];

static void copy_bytes(void *dst, const void *src, int64_t n) {
	if (n == 0)
		return;
	if (n < GIL_THRESHOLD) {
		memcpy(dst, src, (size_t)n);
		return;
	}
	Py_BEGIN_ALLOW_THREADS
	memcpy(dst, src, (size_t)n);
	Py_END_ALLOW_THREADS
}

/*
 * dense reports whether strides lay out every element of shape exactly once
 * from the first element up, leaving no gap: the axes longer than 1, taken
 * by increasing stride, step 1, then the length of the axis before times
 * its step. The axes of length 0 or 1 may have any stride. Strides that
 * overflow are not dense.
 */
static bool dense(int32_t ndim, const int64_t *shape, const int64_t *strides) {
	bool used[GDL_MAX_NDIM] = {false};
	int64_t step = 1;
	for (;;) {
		int32_t next = -1;
		for (int32_t i = 0; i < ndim && next < 0; i++)
			if (!used[i] && shape[i] > 1 && strides[i] == step)
				next = i;
		if (next < 0)
			break;
		used[next] = true;
		if (__builtin_mul_overflow(step, shape[next], &step))
			return false;
	}
	for (int32_t i = 0; i < ndim; i++)
		if (shape[i] > 1 && !used[i])
			return false;
	return true;
}

/* c_order reports whether strides are cstrides on every axis longer than 1. */
static bool c_order(int32_t ndim, const int64_t *shape, const int64_t *strides, const int64_t *cstrides) {
	for (int32_t i = 0; i < ndim; i++)
		if (shape[i] > 1 && strides[i] != cstrides[i])
			return false;
	return true;
}

/* readable refuses, with a BufferError that says why, a tensor whose data the CPU cannot read. */
static int readable(const TensorObject *t, const char *what) {
	DLDevice d = t->src.view.device;
	if (gdl_is_cpu_accessible(d))
		return 0;
	PyErr_Format(PyExc_BufferError,
	             "cannot %s a tensor on device (%d, %d): that needs its bytes, and the CPU cannot read memory on "
	             "that device; copy it to CPU memory with the library that made it first",
	             what, (int)d.device_type, (int)d.device_id);
	return -1;
}

/*
 * densely returns t (a new reference) when its elements fill its memory
 * without gaps, else a new C-contiguous copy of them in memory of our own,
 * made by gdl_copy. Packed sub-byte elements are
 * always contiguous: the consumer refuses them strided.
 */
static TensorObject *densely(TensorObject *t) {
	const gdl_view *s = &t->src.view;
	if (t->size == 0 || t->itemsize == 0 || dense(s->ndim, s->shape, s->strides)) {
		Py_INCREF(t);
		return t;
	}
	void *copy = gdl_copy(&t->src);
	return copy == NULL ? NULL : (TensorObject *)gdl_tensor_adopt(copy);
}

/*
 * tensor_of returns a new Tensor of ndim dimensions of shape and strides at
 * data on the CPU, which owner keeps alive (the Tensor takes the caller's
 * reference, dropped on failure).
 */
static PyObject *tensor_of(int32_t ndim, gdl_owner *owner, void *data, const int64_t *shape, const int64_t *strides,
                           DLDataType dt, int64_t nbytes, uint64_t flags) {
	gdl_inspected v = {
		.data = data,
		.shape = shape,
		.strides = strides,
		.dtype = dt,
		.device = {kDLCPU, 0},
		.ndim = ndim,
		.nbytes = nbytes,
	};
	gdl_source s;
	gdl_source_fill(&s, owner, &v, flags);
	return gdl_tensor_from_source(&s);
}

/* ---- copy.copy and copy.deepcopy ---- */

/*
 * copy_of returns a writable tensor with a copy of t's elements of its own:
 * with t's strides when they fill the memory without gaps (a memcpy),
 * C-contiguous otherwise (producer.CopyOf).
 */
static PyObject *copy_of(TensorObject *t) {
	GDL_CHECK_FORK(NULL);
	if (readable(t, "copy") != 0)
		return NULL;
	TensorObject *d = densely(t);
	if (d == NULL || d != t)
		return (PyObject *)d; /* a fresh copy already, or NULL */
	Py_DECREF(d);
	const gdl_view *s = &t->src.view;
	void *data;
	gdl_owner *owner = gdl_owner_alloc((size_t)t->src.nbytes, &data);
	if (owner == NULL)
		return PyErr_Format(PyExc_MemoryError, "cannot allocate %lld bytes for a copy of a tensor",
		                    (long long)t->src.nbytes);
	if (t->size > 0)
		copy_bytes(data, s->data, t->src.nbytes);
	return tensor_of(s->ndim, owner, data, s->shape, s->strides, s->dtype, t->src.nbytes,
	                 GDL_FLAG_IS_COPIED | (s->flags & GDL_FLAG_IS_SUBBYTE_TYPE_PADDED));
}

PyObject *gdl_tensor_copy(PyObject *self, PyObject *unused) { return copy_of((TensorObject *)self); }

PyObject *gdl_tensor_deepcopy(PyObject *self, PyObject *memo) {
	/* A Tensor references no Python object: there is nothing for memo to share. */
	return copy_of((TensorObject *)self);
}

/* ---- pickle ---- */

/* raw_view returns a 1-d uint8 Tensor over d's bytes, sharing its memory and read-only when d is. */
static PyObject *raw_view(TensorObject *d) {
	const int64_t one = 1;
	void *data = d->src.view.data != NULL ? d->src.view.data : (void *)no_data;
	gdl_owner *owner = gdl_source_owner(&d->src);
	if (owner == NULL)
		return PyErr_NoMemory();
	gdl_owner_retain(owner);
	return tensor_of(1, owner, data, &d->src.nbytes, &one, (DLDataType){kDLUInt, 8, 1}, d->src.nbytes,
	                 d->src.view.flags & GDL_FLAG_READ_ONLY);
}

/* elements returns the buffer argument of _rebuild: a PickleBuffer over d's memory (protocol 5) or a bytes copy. */
static PyObject *elements(TensorObject *d, long protocol) {
	if (protocol >= 5) {
		PyObject *raw = raw_view(d);
		if (raw == NULL)
			return NULL;
		PyObject *b = PyPickleBuffer_FromObject(raw);
		Py_DECREF(raw);
		return b;
	}
	PyObject *b = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)d->src.nbytes);
	if (b != NULL && d->size > 0)
		copy_bytes(PyBytes_AS_STRING(b), d->src.view.data, d->src.nbytes);
	return b;
}

static PyObject *int64_tuple(const int64_t *v, int32_t n) {
	PyObject *t = PyTuple_New(n);
	for (int32_t i = 0; t != NULL && i < n; i++) {
		PyObject *x = PyLong_FromLongLong(v[i]);
		if (x == NULL)
			Py_CLEAR(t);
		else
			PyTuple_SET_ITEM(t, i, x);
	}
	return t;
}

/*
 * reduce is __reduce_ex__(protocol): (_rebuild, (elements, (code, bits,
 * lanes), shape, strides, padded)), where strides is None for C order.
 */
static PyObject *reduce(TensorObject *t, long protocol) {
	GDL_CHECK_FORK(NULL);
	if (readable(t, "pickle") != 0)
		return NULL;
	TensorObject *d = densely(t);
	if (d == NULL)
		return NULL;
	const gdl_view *s = &d->src.view;
	int64_t cstrides[GDL_MAX_NDIM], count, nbytes;
	bool padded = gdl_sub_byte(s->dtype) && (s->flags & GDL_FLAG_IS_SUBBYTE_TYPE_PADDED);
	/* None where C order describes the elements: always for no elements and for packed ones. */
	bool c = d->size == 0 || d->itemsize == 0 ||
	         (gdl_contiguous(s->ndim, s->shape, s->dtype, padded, cstrides, &count, &nbytes) &&
	          c_order(s->ndim, s->shape, s->strides, cstrides));
	PyObject *buf = elements(d, protocol), *shape = int64_tuple(s->shape, s->ndim),
	         *strides = c ? Py_NewRef(Py_None) : int64_tuple(s->strides, s->ndim),
	         *dtype = Py_BuildValue("(iii)", (int)s->dtype.code, (int)s->dtype.bits, (int)s->dtype.lanes), *r = NULL;
	if (buf != NULL && shape != NULL && strides != NULL && dtype != NULL)
		r = Py_BuildValue("(O(OOOOO))", rebuild_func, buf, dtype, shape, strides, padded ? Py_True : Py_False);
	Py_XDECREF(buf);
	Py_XDECREF(shape);
	Py_XDECREF(strides);
	Py_XDECREF(dtype);
	Py_DECREF(d);
	return r;
}

PyObject *gdl_tensor_reduce_ex(PyObject *self, PyObject *protocol) {
	long p = PyLong_AsLong(protocol);
	if (p == -1 && PyErr_Occurred())
		return NULL;
	return reduce((TensorObject *)self, p);
}

PyObject *gdl_tensor_reduce(PyObject *self, PyObject *unused) { return reduce((TensorObject *)self, 2); }

/* ---- _rebuild ---- */

/* The owner of memory lent by a Python buffer: its ctx is the Py_buffer, in malloc'd memory. */
static void release_buffer(gdl_owner *o) {
	Py_buffer *view = o->ctx;
	/*
	 * This runs wherever the last holder lets go: any thread, with or without
	 * the GIL. Once the interpreter is finalizing, or gone, the buffer leaks:
	 * its exporter may no longer exist, and a thread taking the GIL then
	 * would be stopped.
	 */
	if (!gdl_owner_is_shut_down() && Py_IsInitialized()) {
		PyGILState_STATE g = PyGILState_Ensure();
		/* Releasing may run the exporter's Python code: an exception unwinding through the caller waits. */
		gdl_saved_error e;
		gdl_error_save(&e);
		PyBuffer_Release(view);
		gdl_error_restore(&e);
		PyGILState_Release(g);
		free(view);
	}
	free(o);
}

/* read_ints reads a tuple of at most GDL_MAX_NDIM ints into v; -1 with TypeError or ValueError naming what. */
static int read_ints(PyObject *o, const char *what, int64_t *v, int32_t *n) {
	if (!PyTuple_Check(o)) {
		PyErr_Format(PyExc_TypeError, "_rebuild(): %s must be a tuple of ints, got %.200s", what, Py_TYPE(o)->tp_name);
		return -1;
	}
	Py_ssize_t len = PyTuple_GET_SIZE(o);
	if (len > GDL_MAX_NDIM) {
		PyErr_Format(PyExc_ValueError, "_rebuild(): %s has %zd values, more than the %d allowed", what, len,
		             GDL_MAX_NDIM);
		return -1;
	}
	for (Py_ssize_t i = 0; i < len; i++) {
		PyObject *x = PyTuple_GET_ITEM(o, i);
		if (!PyLong_Check(x)) {
			PyErr_Format(PyExc_TypeError, "_rebuild(): %s must hold ints, got %.200s at index %zd", what,
			             Py_TYPE(x)->tp_name, i);
			return -1;
		}
		long long y = PyLong_AsLongLong(x);
		if (y == -1 && PyErr_Occurred())
			return -1;
		v[i] = y;
	}
	*n = (int32_t)len;
	return 0;
}

static int read_dtype(PyObject *o, DLDataType *dt) {
	int64_t v[GDL_MAX_NDIM];
	int32_t n;
	if (read_ints(o, "dtype", v, &n) != 0)
		return -1;
	if (n != 3 || v[0] < 0 || v[0] > UINT8_MAX || v[1] < 0 || v[1] > UINT8_MAX || v[2] < 0 || v[2] > UINT16_MAX ||
	    !gdl_dtype_valid((*dt = (DLDataType){(uint8_t)v[0], (uint8_t)v[1], (uint16_t)v[2]}))) {
		PyObject *shown = gdl_shown(o);
		PyErr_Format(PyExc_ValueError, "_rebuild(): dtype %V is no (code, bits, lanes) of the DLPack table", shown,
		             "(...)");
		Py_XDECREF(shown);
		return -1;
	}
	return 0;
}

/* wrong_size raises the ValueError of a buffer of got bytes where nbytes are needed. */
static PyObject *wrong_size(int64_t nbytes, Py_ssize_t got) {
	return PyErr_Format(PyExc_ValueError, "_rebuild(): the tensor needs %lld bytes, the buffer holds %zd",
	                    (long long)nbytes, got);
}

/*
 * wrap returns a Tensor of ndim dimensions at buf's memory, zero-copy: it
 * holds a Py_buffer of buf until its last holder lets go, and is read-only
 * when the buffer is. A bytes object is copied instead, into writable
 * memory of our own: it is what pickle makes of the in-band bytes of a
 * read-only tensor, and of every tensor below protocol 5, and data loaded in
 * band is writable.
 */
static PyObject *wrap(int32_t ndim, PyObject *buf, const int64_t *shape, const int64_t *strides, DLDataType dt,
                      int64_t nbytes, uint64_t flags) {
	if (PyBytes_CheckExact(buf)) {
		if (PyBytes_GET_SIZE(buf) != nbytes)
			return wrong_size(nbytes, PyBytes_GET_SIZE(buf));
		void *data;
		gdl_owner *owner = gdl_owner_alloc((size_t)nbytes, &data);
		if (owner == NULL)
			return PyErr_Format(PyExc_MemoryError, "cannot allocate %lld bytes to unpickle a tensor",
			                    (long long)nbytes);
		copy_bytes(data, PyBytes_AS_STRING(buf), nbytes);
		return tensor_of(ndim, owner, data, shape, strides, dt, nbytes, flags | GDL_FLAG_IS_COPIED);
	}
	/* malloc'd, not PyMem: the owner's release may free it on a thread without the GIL. */
	Py_buffer *view = malloc(sizeof *view);
	if (view == NULL)
		return PyErr_NoMemory();
	if (PyObject_GetBuffer(buf, view, PyBUF_C_CONTIGUOUS) != 0) {
		free(view);
		return NULL;
	}
	gdl_owner *owner = view->len == nbytes ? gdl_owner_new(release_buffer, view, 0) : NULL;
	if (owner == NULL) {
		Py_ssize_t got = view->len;
		PyBuffer_Release(view);
		free(view);
		return got != nbytes ? wrong_size(nbytes, got) : PyErr_NoMemory();
	}
	return tensor_of(ndim, owner, view->buf, shape, strides, dt, nbytes,
	                 flags | (view->readonly ? GDL_FLAG_READ_ONLY : 0));
}

static PyObject *mod_rebuild(PyObject *m, PyObject *const *args, Py_ssize_t nargs) {
	GDL_CHECK_FORK(NULL);
	if (nargs != 5)
		return PyErr_Format(PyExc_TypeError, "_rebuild() takes exactly 5 arguments (%zd given)", nargs);
	DLDataType dt;
	int64_t shape[GDL_MAX_NDIM], given[GDL_MAX_NDIM], cstrides[GDL_MAX_NDIM], n, nbytes;
	int32_t ndim, nstrides;
	if (read_dtype(args[1], &dt) != 0 || read_ints(args[2], "shape", shape, &ndim) != 0)
		return NULL;
	if (!PyBool_Check(args[4]))
		return PyErr_Format(PyExc_TypeError, "_rebuild(): padded must be a bool, got %.200s",
		                    Py_TYPE(args[4])->tp_name);
	bool padded = args[4] == Py_True && gdl_sub_byte(dt);
	if (!gdl_contiguous(ndim, shape, dt, padded, cstrides, &n, &nbytes)) {
		PyObject *shape_shown = gdl_shown(args[2]), *dtype_shown = gdl_shown(args[1]);
		PyErr_Format(PyExc_ValueError, "_rebuild(): shape %V cannot hold elements of dtype %V", shape_shown, "(...)",
		             dtype_shown, "(...)");
		Py_XDECREF(shape_shown);
		Py_XDECREF(dtype_shown);
		return NULL;
	}
	const int64_t *strides = cstrides;
	if (args[3] != Py_None) {
		if (read_ints(args[3], "strides", given, &nstrides) != 0)
			return NULL;
		/* Packed sub-byte elements have no address of their own: only C order describes them. */
		if (nstrides != ndim || !dense(ndim, shape, given) ||
		    (gdl_sub_byte(dt) && !padded && !c_order(ndim, shape, given, cstrides))) {
			PyObject *strides_shown = gdl_shown(args[3]), *shape_shown = gdl_shown(args[2]);
			PyErr_Format(PyExc_ValueError, "_rebuild(): strides %V do not lay out shape %V densely from its first element",
			             strides_shown, "(...)", shape_shown, "(...)");
			Py_XDECREF(strides_shown);
			Py_XDECREF(shape_shown);
			return NULL;
		}
		strides = given;
	}
	return wrap(ndim, args[0], shape, strides, dt, nbytes, padded ? GDL_FLAG_IS_SUBBYTE_TYPE_PADDED : 0);
}

static PyMethodDef pickle_methods[] = {
	{"_rebuild", (PyCFunction)(void (*)(void))mod_rebuild, METH_FASTCALL,
	 "_rebuild(buffer, dtype, shape, strides, padded, /)\n--\n\n"
	 "The Tensor a pickle describes: dtype is (code, bits, lanes), strides None for C order, padded whether "
	 "sub-byte elements take a byte each. A bytes buffer is copied into writable memory; any other buffer is "
	 "wrapped without a copy, read-only when it is."},
	{NULL},
};

int gdl_pickle_register(PyObject *m) {
	if (PyModule_AddFunctions(m, pickle_methods) != 0)
		return -1;
	if (rebuild_func != NULL)
		return 0; /* pickles name the first module's _rebuild, which the types are named after */
	rebuild_func = PyObject_GetAttrString(m, "_rebuild");
	return rebuild_func == NULL ? -1 : 0;
}
