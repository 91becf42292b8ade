/*
 * Exceptions: raising the protocol's, and keeping a pending one while code
 * that may run Python (a destructor, a deleter) runs. The bottom of the C
 * files of package cpython: it calls none of the others.
 */
#include <string.h>
#include "cpython.h"

PyObject *gdl_raise_text(PyObject *type, const char *msg, Py_ssize_t len) {
	PyObject *text = PyUnicode_DecodeUTF8(msg, len, "backslashreplace");
	if (text != NULL) {
		PyErr_SetObject(type, text);
		Py_DECREF(text);
	}
	return NULL;
}

PyObject *gdl_raise(int kind, const char *msg, Py_ssize_t len) {
	PyObject *type;
	switch (kind) {
	case GDL_TYPE_ERROR: type = PyExc_TypeError; break;
	case GDL_VALUE_ERROR: type = PyExc_ValueError; break;
	case GDL_BUFFER_ERROR: type = PyExc_BufferError; break;
	case GDL_MEMORY_ERROR: type = PyExc_MemoryError; break;
	case GDL_OVERFLOW_ERROR: type = PyExc_OverflowError; break;
	case GDL_STOP_ITERATION: type = PyExc_StopIteration; break;
	default: type = PyExc_RuntimeError; break;
	}
	return gdl_raise_text(type, msg, len);
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
