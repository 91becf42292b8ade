/*
 * Taking a tensor from a producer: gdl_take, the one way in, which asks
 * NumPy's arrays (borrow.c), a type's C exchange API (exchange.c) or
 * __dlpack__, or takes a capsule's tensor (capsule.c). Nothing it calls
 * calls back into it.
 */
#include <string.h>
#include "borrow.h"
#include "capsule.h"

/* The keyword-name tuples of __dlpack__ calls, one per combination, made once and kept as the names are. */
enum { KW_MAX_VERSION = 1, KW_DL_DEVICE = 2, KW_COPY = 4, KW_STREAM = 8, KW_COMBOS = 16 };

static PyObject *kwnames_for(int mask) {
	static PyObject *cache[KW_COMBOS];
	if (mask == 0)
		return NULL;
	if (cache[mask] != NULL)
		return cache[mask];
	PyObject *names[4] = {gdl_names.max_version, gdl_names.dl_device, gdl_names.copy, gdl_names.stream};
	PyObject *t = PyTuple_New(__builtin_popcount(mask));
	if (t == NULL)
		return NULL;
	for (int i = 0, n = 0; i < 4; i++)
		if (mask & (1 << i)) {
			Py_INCREF(names[i]);
			PyTuple_SET_ITEM(t, n++, names[i]);
		}
	return cache[mask] = t;
}

/*
 * call_dlpack calls x.__dlpack__(max_version=(1, our minor), …) with the
 * keywords of req, and stream=-1 when stream is set. A producer that raises
 * TypeError predates the keywords: it is called again with stream alone, and
 * what it hands over is checked against req like any other tensor.
 */
static PyObject *call_dlpack(PyObject *x, const gdl_request *req, bool stream) {
	static PyObject *version, *minus_one; /* made once and kept, as the names above */
	if ((version == NULL && (version = Py_BuildValue("(ii)", GDL_MAJOR_VERSION, GDL_MINOR_VERSION)) == NULL) ||
	    (minus_one == NULL && (minus_one = PyLong_FromLong(-1)) == NULL))
		return NULL;
	PyObject *args[5] = {x, version}, *device = NULL;
	int mask = KW_MAX_VERSION, n = 2;
	if (req->has_device) {
		if ((device = Py_BuildValue("(ii)", (int)req->device.device_type, (int)req->device.device_id)) == NULL)
			return NULL;
		args[n++] = device;
		mask |= KW_DL_DEVICE;
	}
	if (req->copy >= 0) {
		args[n++] = req->copy ? Py_True : Py_False;
		mask |= KW_COPY;
	}
	if (stream) {
		args[n++] = minus_one;
		mask |= KW_STREAM;
	}
	PyObject *kwnames = kwnames_for(mask), *result = NULL;
	if (kwnames != NULL)
		result = PyObject_VectorcallMethod(gdl_names.dlpack, args, 1 | PY_VECTORCALL_ARGUMENTS_OFFSET, kwnames);
	Py_XDECREF(device);
	if (result == NULL && kwnames != NULL && PyErr_ExceptionMatches(PyExc_TypeError)) {
		/* A producer from before DLPack 1.0 knows only stream. */
		PyErr_Clear();
		args[1] = minus_one;
		kwnames = stream ? kwnames_for(KW_STREAM) : NULL;
		if (!stream || kwnames != NULL)
			result = PyObject_VectorcallMethod(gdl_names.dlpack, args, 1 | PY_VECTORCALL_ARGUMENTS_OFFSET, kwnames);
	}
	return result;
}

/* no_producer turns the AttributeError of an object without __dlpack__ into TypeError. */
static void no_producer(PyObject *x, const gdl_request *req) {
	if (!PyErr_ExceptionMatches(PyExc_AttributeError))
		return;
	gdl_saved_error e;
	gdl_error_save(&e);
	/* The lookup may run Python code, which must not see the pending exception. */
	int has = PyObject_HasAttr(x, gdl_names.dlpack);
	gdl_error_restore(&e);
	if (has)
		return;
	PyErr_Clear();
	PyErr_Format(PyExc_TypeError, "%s() needs an object with __dlpack__ or a DLPack capsule, got %.200s", req->func,
	             Py_TYPE(x)->tp_name);
}

/*
 * take_by_dlpack asks x.__dlpack__ for a capsule and takes its tensor. The
 * stream is passed only for CUDA and ROCm data, which __dlpack_device__ tells
 * apart.
 */
static int take_by_dlpack(PyObject *x, const gdl_request *req, gdl_taken *out) {
	bool stream = false;
	PyTypeObject *tp = Py_TYPE(x);
	/* The type's own attribute, found through CPython's method cache: no exception, no allocation. */
	int has_device = gdl_is_ndarray(tp) ? 0 : gdl_has_dlpack_device(tp);
	if (has_device < 0)
		return -1;
	if (has_device) {
		DLDevice d;
		if (gdl_dlpack_device(x, &d) != 0)
			return -1;
		/* We never touch device data, so the producer need not order anything: -1. */
		stream = d.device_type == kDLCUDA || d.device_type == kDLROCM;
	}
	PyObject *capsule = call_dlpack(x, req, stream);
	if (capsule == NULL) {
		no_producer(x, req);
		return -1;
	}
	if (!PyCapsule_CheckExact(capsule)) {
		PyErr_Format(PyExc_TypeError, "%.200s.__dlpack__() returned %.200s, not a DLPack capsule", tp->tp_name,
		             Py_TYPE(capsule)->tp_name);
		gdl_drop_keeping_error(capsule);
		return -1;
	}
	out->managed = gdl_capsule_take(capsule, &out->versioned);
	if (out->managed == NULL) {
		gdl_drop_keeping_error(capsule);
		return -1;
	}
	Py_DECREF(capsule);
	return 0;
}

int gdl_take(PyObject *x, const gdl_request *req, gdl_taken *out) {
	if (PyCapsule_CheckExact(x)) {
		/* A bare capsule could not be asked for anything: the caller checks copy and device. */
		out->managed = gdl_capsule_take(x, &out->versioned);
		return out->managed == NULL ? -1 : 0;
	}
	/* NumPy's arrays are read as their __dlpack__ would export them, without the call and its capsule. */
	int rc = gdl_is_ndarray(Py_TYPE(x)) ? gdl_ndarray_take(x, req, out) : gdl_exchange_take(x, req, out);
	if (rc <= 0)
		return rc;
	return take_by_dlpack(x, req, out);
}
