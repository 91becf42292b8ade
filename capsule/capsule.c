#include <string.h>
#include "capsule.h"
#include "_cgo_export.h"

/* ---- Exceptions ---- */

PyObject *gdl_raise(int kind, const char *msg) {
	PyObject *type;
	switch (kind) {
	case GDL_TYPE_ERROR: type = PyExc_TypeError; break;
	case GDL_VALUE_ERROR: type = PyExc_ValueError; break;
	case GDL_BUFFER_ERROR: type = PyExc_BufferError; break;
	case GDL_MEMORY_ERROR: type = PyExc_MemoryError; break;
	case GDL_OVERFLOW_ERROR: type = PyExc_OverflowError; break;
	default: type = PyExc_RuntimeError; break;
	}
	PyErr_SetString(type, msg);
	return NULL;
}

PyObject *gdl_fork_error(void) {
	PyErr_SetString(PyExc_RuntimeError,
	                "godlpack cannot run in a process forked after it was imported: the Go runtime does not "
	                "survive fork(). Start worker processes with the 'spawn' or 'forkserver' start method "
	                "(multiprocessing.set_start_method('spawn')).");
	return NULL;
}

void gdl_drop_keeping_error(PyObject *o) {
	gdl_saved_error e;
	gdl_error_save(&e);
	Py_XDECREF(o);
	gdl_error_restore(&e);
}

/* shown_int shows an int by its digits up to 128 bits, else by its size: no code of a subclass runs. */
static PyObject *shown_int(PyObject *o) {
	PyObject *bits = PyObject_CallMethod((PyObject *)&PyLong_Type, "bit_length", "O", o);
	if (bits == NULL)
		return NULL;
	long long n = PyLong_AsLongLong(bits);
	Py_DECREF(bits);
	if (n == -1 && PyErr_Occurred())
		return NULL;
	if (n <= 128)
		return PyLong_Type.tp_repr(o);
	int overflow;
	PyLong_AsLongLongAndOverflow(o, &overflow); /* only the sign: o is far beyond long long */
	return PyUnicode_FromFormat("%s int of %lld bits", overflow < 0 ? "a negative" : "an", n);
}

/* shown_at is gdl_shown with an exception on failure, depth levels of tuples deep. */
static PyObject *shown_at(PyObject *o, int depth) {
	if (PyLong_Check(o))
		return shown_int(o);
	if (PyTuple_Check(o) && depth < 3) {
		Py_ssize_t n = PyTuple_GET_SIZE(o);
		PyObject *parts = PyList_New(0), *r = NULL;
		if (parts == NULL)
			return NULL;
		for (Py_ssize_t i = 0; i < n && i < 8; i++) {
			PyObject *item = shown_at(PyTuple_GET_ITEM(o, i), depth + 1);
			int rc = item == NULL ? -1 : PyList_Append(parts, item);
			Py_XDECREF(item);
			if (rc != 0)
				goto done;
		}
		PyObject *sep = PyUnicode_FromString(", "), *body = sep == NULL ? NULL : PyUnicode_Join(sep, parts);
		if (body != NULL)
			r = PyUnicode_FromFormat("(%U%s)", body, n == 1 ? "," : n > 8 ? ", ..." : "");
		Py_XDECREF(sep);
		Py_XDECREF(body);
	done:
		Py_DECREF(parts);
		return r;
	}
	PyObject *r = PyObject_Repr(o);
	if (r == NULL) {
		PyErr_Clear(); /* the message is the caller's: what its value's repr raised is not */
		return PyUnicode_FromFormat("<%.200s object>", Py_TYPE(o)->tp_name);
	}
	/* A str is shown whole, as NumPy names a dtype string: the caller's own text, as long as the caller made it. */
	if (!PyUnicode_CheckExact(o) && PyUnicode_GET_LENGTH(r) > GDL_SHOWN_MAX) {
		PyObject *cut = PyUnicode_Substring(r, 0, GDL_SHOWN_MAX);
		Py_SETREF(r, cut == NULL ? NULL : PyUnicode_FromFormat("%U...", cut));
		Py_XDECREF(cut);
	}
	return r;
}

PyObject *gdl_shown(PyObject *o) {
	gdl_saved_error e;
	gdl_error_save(&e);
	PyObject *r = shown_at(o, 0);
	if (r == NULL)
		PyErr_Clear();
	gdl_error_restore(&e);
	return r;
}

/*
 * holds_gil reports whether this thread holds the GIL. Deleters run on any
 * thread: one without the GIL must not touch any thread state, and after
 * Py_FinalizeEx there is none.
 */
static bool holds_gil(void) {
	PyThreadState *ts = gdl_thread_state();
#if PY_VERSION_HEX >= 0x030C0000
	return ts != NULL; /* the thread's own, thread-local */
#else
	/* Before 3.12 it is the process's: the thread state of whichever thread holds the GIL. */
	return ts != NULL && ts == PyGILState_GetThisThreadState();
#endif
}

void gdl_delete_keeping_error(void *managed, bool versioned) {
	if (!holds_gil()) {
		gdl_managed_delete(managed, versioned);
		return;
	}
	gdl_saved_error e;
	bool pending = PyErr_Occurred() != NULL; /* nearly never: set aside only what is there */
	if (pending)
		gdl_error_save(&e);
	gdl_managed_delete(managed, versioned);
	/* A deleter returns nothing: an error it left behind can only be reported. */
	if (PyErr_Occurred())
		PyErr_WriteUnraisable(NULL);
	if (pending)
		gdl_error_restore(&e);
}

/*
 * Every deleter of another producer's tensor that an owner calls (the last
 * holder of an imported tensor going: a Tensor, a capsule or a
 * NumPy array over our export, at any depth of a chain of round trips) runs
 * through gdl_delete_keeping_error: it may be Python code, and the holder may
 * go while an exception unwinds. Set when the library loads, before any owner
 * exists.
 */
__attribute__((constructor)) static void keep_errors_in_deleters(void) {
	gdl_set_foreign_delete(gdl_delete_keeping_error);
}

/* ---- Arguments ---- */

/* intern_names interns a signature's names once; a failed call leaves the last one NULL, to be retried. */
static int intern_names(gdl_signature *sig) {
	if (sig->interned[sig->n - 1] != NULL)
		return 0;
	for (int i = 0; i < sig->n; i++)
		if (sig->interned[i] == NULL && (sig->interned[i] = PyUnicode_InternFromString(sig->names[i])) == NULL)
			return -1;
	return 0;
}

/* keyword_index finds a keyword among the parameters that may be passed by name: by identity, then by value. */
static int keyword_index(const gdl_signature *sig, PyObject *key) {
	for (int j = sig->positional_only; j < sig->n; j++)
		if (key == sig->interned[j])
			return j;
	for (int j = sig->positional_only; j < sig->n; j++)
		if (PyUnicode_Compare(key, sig->interned[j]) == 0)
			return j;
	return -1;
}

int gdl_parse(gdl_signature *sig, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames, PyObject **slots) {
	if (kwnames == NULL && nargs >= sig->required && nargs <= sig->max_positional) {
		/* Positional arguments alone, as many as allowed: the common call, with nothing to check. */
		int i = 0;
		for (; i < nargs; i++)
			slots[i] = args[i];
		for (; i < sig->n; i++)
			slots[i] = NULL;
		return 0;
	}
	if (intern_names(sig) != 0)
		return -1;
	for (int i = 0; i < sig->n; i++)
		slots[i] = NULL;
	if (nargs > sig->max_positional) {
		if (sig->max_positional == 0)
			PyErr_Format(PyExc_TypeError, "%s() takes no positional arguments (%zd given)", sig->func, nargs);
		else
			PyErr_Format(PyExc_TypeError, "%s() takes at most %d positional argument%s (%zd given)", sig->func,
			             sig->max_positional, sig->max_positional == 1 ? "" : "s", nargs);
		return -1;
	}
	for (Py_ssize_t i = 0; i < nargs; i++)
		slots[i] = args[i];
	Py_ssize_t nkw = kwnames == NULL ? 0 : PyTuple_GET_SIZE(kwnames);
	if (kwnames != NULL && kwnames == sig->last_kwnames && nargs == 0) {
		/* The names of the last call, which passed every check: only the values are new. */
		for (Py_ssize_t i = 0; i < nkw; i++)
			slots[sig->last_slots[i]] = args[i];
		goto required;
	}
	for (Py_ssize_t i = 0; i < nkw; i++) {
		PyObject *key = PyTuple_GET_ITEM(kwnames, i);
		/* Python passes unique str names; a C caller may not. */
		if (!PyUnicode_Check(key)) {
			PyErr_Format(PyExc_TypeError, "%s() keywords must be strings", sig->func);
			return -1;
		}
		int j = keyword_index(sig, key);
		if (j < 0) {
			PyObject *shown = gdl_shown(key);
			PyErr_Format(PyExc_TypeError, "%s() got an unexpected keyword argument %V", sig->func, shown, "");
			Py_XDECREF(shown);
			return -1;
		}
		if (slots[j] != NULL) {
			PyErr_Format(PyExc_TypeError, "%s() got multiple values for argument '%s'", sig->func, sig->names[j]);
			return -1;
		}
		slots[j] = args[nargs + i];
	}
	if (nargs == 0 && nkw <= (Py_ssize_t)sizeof sig->last_slots) {
		for (Py_ssize_t i = 0; i < nkw; i++)
			sig->last_slots[i] = (int8_t)keyword_index(sig, PyTuple_GET_ITEM(kwnames, i));
		Py_XINCREF(kwnames);
		Py_XSETREF(sig->last_kwnames, kwnames);
	}
required:
	for (int i = 0; i < sig->required; i++)
		if (slots[i] == NULL) {
			PyErr_Format(PyExc_TypeError, "%s() missing required argument '%s'", sig->func, sig->names[i]);
			return -1;
		}
	return 0;
}

/* ---- Capsules ---- */

/*
 * Every import compares these names with strcmp (ours against the producer's,
 * and the producer's destructor ours against its own). Aligned to 32 bytes,
 * none crosses a page, where glibc's vector strcmp takes a slow path: in one
 * build "used_dltensor_versioned" fell 16 bytes before a page's end and cost
 * 43 instructions per NumPy import in callgrind.
 */
#define GDL_NAME_ALIGN __attribute__((aligned(32)))
const char gdl_name_legacy[] GDL_NAME_ALIGN = "dltensor";
const char gdl_name_versioned[] GDL_NAME_ALIGN = "dltensor_versioned";
const char gdl_name_used_legacy[] GDL_NAME_ALIGN = "used_dltensor";
const char gdl_name_used_versioned[] GDL_NAME_ALIGN = "used_dltensor_versioned";

/*
 * The capsule's destructor: a capsule still under its original name was never
 * consumed, so its tensor is still ours to delete. A consumed one ("used_…")
 * belongs to its consumer. Deleters return nothing, so nothing can fail here.
 */
static void destroy(PyObject *capsule) {
	/* A consumed capsule ("used_…") is the common end: no name to compare. The pointer is ours, never NULL. */
	const char *name = PyCapsule_GetName(capsule);
	if (name == NULL || name[0] == 'u')
		return;
	/* PyCapsule_IsValid raises nothing: the exception of an unwinding caller is still the one pending. */
	if (PyCapsule_IsValid(capsule, gdl_name_versioned))
		gdl_delete_keeping_error(PyCapsule_GetPointer(capsule, gdl_name_versioned), true);
	else if (PyCapsule_IsValid(capsule, gdl_name_legacy))
		gdl_delete_keeping_error(PyCapsule_GetPointer(capsule, gdl_name_legacy), false);
}

PyObject *gdl_capsule_wrap(void *managed, bool versioned) {
	PyObject *capsule = PyCapsule_New(managed, versioned ? gdl_name_versioned : gdl_name_legacy, destroy);
	if (capsule == NULL)
		gdl_delete_keeping_error(managed, versioned);
	return capsule;
}

void *gdl_capsule_take(PyObject *capsule, bool *versioned) {
	if (!PyCapsule_CheckExact(capsule)) {
		PyErr_Format(PyExc_TypeError, "expected a DLPack capsule, got %.200s", Py_TYPE(capsule)->tp_name);
		return NULL;
	}
	const char *name = PyCapsule_GetName(capsule);
	if (name == NULL && PyErr_Occurred()) {
		/* An exact capsule fails here only when its pointer is NULL; CPython's message does not say so. */
		PyErr_SetString(PyExc_ValueError, "invalid DLPack capsule: its pointer is NULL");
		return NULL;
	}
	const char *used;
	if (name != NULL && strcmp(name, gdl_name_versioned) == 0) {
		*versioned = true;
		used = gdl_name_used_versioned;
	} else if (name != NULL && strcmp(name, gdl_name_legacy) == 0) {
		*versioned = false;
		used = gdl_name_used_legacy;
	} else if (name != NULL && strncmp(name, "used_", 5) == 0) {
		PyErr_Format(PyExc_ValueError, "DLPack capsule %s was already consumed", name);
		return NULL;
	} else {
		PyErr_Format(PyExc_TypeError, "capsule named %s is not a DLPack capsule "
		             "(want \"dltensor\" or \"dltensor_versioned\")", name ? name : "NULL");
		return NULL;
	}
	void *managed = PyCapsule_GetPointer(capsule, name);
	if (managed == NULL || PyCapsule_SetName(capsule, used) != 0)
		return NULL;
	return managed;
}

/* ---- Calling a producer ---- */

static PyObject *str_dlpack, *str_dlpack_device, *str_requires_grad, *kw_max_version, *kw_dl_device, *kw_copy,
	*kw_stream;

/* intern_protocol_names interns the names below once; kw_stream, set last, says all are. */
static int intern_protocol_names(void) {
	if (kw_stream != NULL)
		return 0;
	if ((str_dlpack == NULL && (str_dlpack = PyUnicode_InternFromString("__dlpack__")) == NULL) ||
	    (str_dlpack_device == NULL && (str_dlpack_device = PyUnicode_InternFromString("__dlpack_device__")) == NULL) ||
	    (str_requires_grad == NULL && (str_requires_grad = PyUnicode_InternFromString("requires_grad")) == NULL) ||
	    (kw_max_version == NULL && (kw_max_version = PyUnicode_InternFromString("max_version")) == NULL) ||
	    (kw_dl_device == NULL && (kw_dl_device = PyUnicode_InternFromString("dl_device")) == NULL) ||
	    (kw_copy == NULL && (kw_copy = PyUnicode_InternFromString("copy")) == NULL))
		return -1;
	kw_stream = PyUnicode_InternFromString("stream");
	return kw_stream == NULL ? -1 : 0;
}

/* The keyword-name tuples of __dlpack__ calls, one per combination, made once. */
enum { KW_MAX_VERSION = 1, KW_DL_DEVICE = 2, KW_COPY = 4, KW_STREAM = 8, KW_COMBOS = 16 };

static PyObject *kwnames_for(int mask) {
	static PyObject *cache[KW_COMBOS];
	if (mask == 0)
		return NULL;
	if (cache[mask] != NULL)
		return cache[mask];
	PyObject *names[4] = {kw_max_version, kw_dl_device, kw_copy, kw_stream};
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
	static PyObject *version, *minus_one;
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
		result = PyObject_VectorcallMethod(str_dlpack, args, 1 | PY_VECTORCALL_ARGUMENTS_OFFSET, kwnames);
	Py_XDECREF(device);
	if (result == NULL && kwnames != NULL && PyErr_ExceptionMatches(PyExc_TypeError)) {
		/* A producer from before DLPack 1.0 knows only stream. */
		PyErr_Clear();
		args[1] = minus_one;
		kwnames = stream ? kwnames_for(KW_STREAM) : NULL;
		if (!stream || kwnames != NULL)
			result = PyObject_VectorcallMethod(str_dlpack, args, 1 | PY_VECTORCALL_ARGUMENTS_OFFSET, kwnames);
	}
	return result;
}

int gdl_dlpack_device(PyObject *obj, DLDevice *out) {
	if (intern_protocol_names() != 0)
		return -1;
	PyObject *args[1] = {obj};
	PyObject *r = PyObject_VectorcallMethod(str_dlpack_device, args, 1 | PY_VECTORCALL_ARGUMENTS_OFFSET, NULL);
	if (r == NULL)
		return -1;
	/* As NumPy reads it: an IntEnum device type, and None for a CPU's id (Paddle's answer), are accepted. */
	int rc = gdl_device_pair(r, PyExc_TypeError, "__dlpack_device__() must return", out);
	if (rc != 0)
		gdl_drop_keeping_error(r);
	else
		Py_DECREF(r);
	return rc;
}

/* no_producer turns the AttributeError of an object without __dlpack__ into TypeError. */
static void no_producer(PyObject *x, const gdl_request *req) {
	if (!PyErr_ExceptionMatches(PyExc_AttributeError))
		return;
	gdl_saved_error e;
	gdl_error_save(&e);
	/* The lookup may run Python code, which must not see the pending exception. */
	int has = PyObject_HasAttr(x, str_dlpack);
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
	if (!gdl_is_ndarray(tp) && gdl_type_defines(tp, str_dlpack_device)) {
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
	if (intern_protocol_names() != 0)
		return -1;
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
