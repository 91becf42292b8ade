#include "capsule.h"

PyObject *gdl_fork_error(void) {
	PyErr_SetString(PyExc_RuntimeError,
	                "godlpack cannot run in a process forked after it was imported: the Go runtime does not "
	                "survive fork(). Start worker processes with the 'spawn' or 'forkserver' start method "
	                "(multiprocessing.set_start_method('spawn')).");
	return NULL;
}

const char gdl_name_legacy[] = "dltensor";
const char gdl_name_versioned[] = "dltensor_versioned";
const char gdl_name_used_legacy[] = "used_dltensor";
const char gdl_name_used_versioned[] = "used_dltensor_versioned";

/*
 * The capsule's destructor: a capsule still under its original name was never
 * consumed, so its tensor is still ours to delete. A consumed one ("used_…")
 * belongs to its consumer. Deleters return nothing, so nothing can fail here.
 */
static void destroy(PyObject *capsule) {
	if (PyCapsule_IsValid(capsule, gdl_name_versioned))
		gdl_managed_delete(PyCapsule_GetPointer(capsule, gdl_name_versioned), 1);
	else if (PyCapsule_IsValid(capsule, gdl_name_legacy))
		gdl_managed_delete(PyCapsule_GetPointer(capsule, gdl_name_legacy), 0);
}

PyObject *gdl_capsule_wrap(void *managed, int versioned) {
	PyObject *capsule = PyCapsule_New(managed, versioned ? gdl_name_versioned : gdl_name_legacy, destroy);
	if (capsule == NULL)
		gdl_managed_delete(managed, versioned);
	return capsule;
}

void *gdl_capsule_take(PyObject *capsule, int *versioned) {
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
		*versioned = 1;
		used = gdl_name_used_versioned;
	} else if (name != NULL && strcmp(name, gdl_name_legacy) == 0) {
		*versioned = 0;
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
	if (managed == NULL)
		return NULL;
	if (PyCapsule_SetName(capsule, used) != 0)
		return NULL;
	return managed;
}

/* Interned keyword names and the kwnames tuples built from them, by mask. */
enum { KW_MAX_VERSION = 1, KW_DL_DEVICE = 2, KW_COPY = 4, KW_STREAM = 8, KW_COMBOS = 16 };
static PyObject *kw_names[4];
static PyObject *kwnames_cache[KW_COMBOS];
static PyObject *str_dlpack, *str_dlpack_device;

static int intern_names(void) {
	static const char *names[4] = {"max_version", "dl_device", "copy", "stream"};
	if (str_dlpack != NULL)
		return 0;
	for (int i = 0; i < 4; i++)
		if ((kw_names[i] = PyUnicode_InternFromString(names[i])) == NULL)
			return -1;
	if ((str_dlpack_device = PyUnicode_InternFromString("__dlpack_device__")) == NULL)
		return -1;
	if ((str_dlpack = PyUnicode_InternFromString("__dlpack__")) == NULL)
		return -1;
	return 0;
}

static PyObject *kwnames_for(int mask) {
	if (kwnames_cache[mask] != NULL)
		return kwnames_cache[mask];
	PyObject *t = PyTuple_New(__builtin_popcount(mask));
	if (t == NULL)
		return NULL;
	for (int i = 0, n = 0; i < 4; i++)
		if (mask & (1 << i)) {
			Py_INCREF(kw_names[i]);
			PyTuple_SET_ITEM(t, n++, kw_names[i]);
		}
	return kwnames_cache[mask] = t;
}

/* version_tuple returns (major, minor), reusing the tuple of the last call: nearly every call asks the same. */
static PyObject *version_tuple(int major, int minor) {
	static PyObject *last;
	static int last_major = -1, last_minor = -1;
	if (last == NULL || major != last_major || minor != last_minor) {
		PyObject *t = Py_BuildValue("(ii)", major, minor);
		if (t == NULL)
			return NULL;
		Py_XSETREF(last, t);
		last_major = major;
		last_minor = minor;
	}
	Py_INCREF(last);
	return last;
}

PyObject *gdl_call_dlpack(PyObject *obj, const gdl_dlpack_request *req, int *fallback) {
	PyObject *args[5] = {obj};
	PyObject *owned[4] = {NULL};
	int mask = 0, n = 1;
	PyObject *result = NULL;
	*fallback = 0;
	if (intern_names() != 0)
		return NULL;
	if (req->max_major >= 0) {
		if ((owned[0] = version_tuple(req->max_major, req->max_minor)) == NULL)
			goto done;
		args[n++] = owned[0];
		mask |= KW_MAX_VERSION;
	}
	if (req->has_dl_device) {
		if ((owned[1] = Py_BuildValue("(ii)", req->dl_device_type, req->dl_device_id)) == NULL)
			goto done;
		args[n++] = owned[1];
		mask |= KW_DL_DEVICE;
	}
	if (req->copy >= 0) {
		args[n++] = req->copy ? Py_True : Py_False;
		mask |= KW_COPY;
	}
	if (req->has_stream) {
		if ((owned[3] = PyLong_FromLongLong(req->stream)) == NULL)
			goto done;
		args[n++] = owned[3];
		mask |= KW_STREAM;
	}
	PyObject *kwnames = kwnames_for(mask);
	if (kwnames == NULL)
		goto done;
	result = PyObject_VectorcallMethod(str_dlpack, args, 1 | PY_VECTORCALL_ARGUMENTS_OFFSET, kwnames);
	if (result == NULL && (mask & ~KW_STREAM) && PyErr_ExceptionMatches(PyExc_TypeError)) {
		/* A producer from before DLPack 1.0 knows only stream. */
		PyErr_Clear();
		*fallback = 1;
		if (req->has_stream) {
			args[1] = owned[3];
			result = PyObject_VectorcallMethod(str_dlpack, args, 1 | PY_VECTORCALL_ARGUMENTS_OFFSET,
			                                   kwnames_for(KW_STREAM));
		} else {
			result = PyObject_VectorcallMethod(str_dlpack, args, 1 | PY_VECTORCALL_ARGUMENTS_OFFSET, NULL);
		}
	}
done:
	for (int i = 0; i < 4; i++)
		Py_XDECREF(owned[i]);
	return result;
}

int gdl_lacks_dlpack(PyObject *obj) {
	if (!PyErr_ExceptionMatches(PyExc_AttributeError))
		return 0;
	PyObject *type, *value, *tb;
	PyErr_Fetch(&type, &value, &tb);
	int has = PyObject_HasAttrString(obj, "__dlpack__");
	PyErr_Restore(type, value, tb);
	return !has;
}

int gdl_dlpack_device(PyObject *obj, int32_t *device_type, int32_t *device_id) {
	if (intern_names() != 0)
		return -1;
	PyObject *args[1] = {obj};
	PyObject *r = PyObject_VectorcallMethod(str_dlpack_device, args, 1 | PY_VECTORCALL_ARGUMENTS_OFFSET, NULL);
	if (r == NULL)
		return -1;
	long t = -1, id = -1;
	if (!PyTuple_Check(r) || PyTuple_GET_SIZE(r) != 2 || !PyLong_Check(PyTuple_GET_ITEM(r, 0)) ||
	    !PyLong_Check(PyTuple_GET_ITEM(r, 1))) {
		PyErr_Format(PyExc_TypeError, "__dlpack_device__() must return a (device_type, device_id) tuple of ints, "
		             "got %R", r);
		Py_DECREF(r);
		return -1;
	}
	t = PyLong_AsLong(PyTuple_GET_ITEM(r, 0));
	if (!(t == -1 && PyErr_Occurred()))
		id = PyLong_AsLong(PyTuple_GET_ITEM(r, 1));
	Py_DECREF(r);
	if (PyErr_Occurred())
		return -1;
	if (t < INT32_MIN || t > INT32_MAX || id < INT32_MIN || id > INT32_MAX) {
		PyErr_Format(PyExc_ValueError, "__dlpack_device__() returned an out-of-range device (%ld, %ld)", t, id);
		return -1;
	}
	*device_type = (int32_t)t;
	*device_id = (int32_t)id;
	return 0;
}
