/* Devices as callers spell them: tuples, strings such as "cuda:1", torch.device objects, producers. */
#include <string.h>
#include "capsule.h"

int gdl_device_pair(PyObject *pair, PyObject *exc, const char *what, DLDevice *out) {
	PyObject *type = PyTuple_Check(pair) && PyTuple_GET_SIZE(pair) == 2 ? PyTuple_GET_ITEM(pair, 0) : NULL;
	PyObject *id = type != NULL ? PyTuple_GET_ITEM(pair, 1) : NULL;
	/* A device type may be an IntEnum (PyTorch's, Paddle's); a CPU's id may be None, as Paddle answers. */
	if (type == NULL || !PyLong_Check(type) || !(PyLong_Check(id) || id == Py_None)) {
		PyObject *shown = gdl_shown(pair);
		PyErr_Format(exc, "%s a (device_type, device_id) tuple of ints, got %V", what, shown, "another value");
		Py_XDECREF(shown);
		return -1;
	}
	int overflow;
	long long t = PyLong_AsLongLongAndOverflow(type, &overflow), i = 0;
	if (t == -1 && PyErr_Occurred())
		return -1;
	if (overflow == 0 && id != Py_None) {
		i = PyLong_AsLongLongAndOverflow(id, &overflow);
		if (i == -1 && PyErr_Occurred())
			return -1;
	}
	if (overflow != 0 || t < INT32_MIN || t > INT32_MAX || i < INT32_MIN || i > INT32_MAX) {
		PyObject *shown = gdl_shown(pair);
		PyErr_Format(PyExc_ValueError, "%s a device of int32 values, got an out-of-range device %V", what, shown,
		             "(...)");
		Py_XDECREF(shown);
		return -1;
	}
	if (id == Py_None && t != kDLCPU) {
		PyErr_Format(exc, "%s a (device_type, device_id) tuple of ints, got (%lld, None) (only a CPU's id may be None)",
		             what, t);
		return -1;
	}
	out->device_type = (DLDeviceType)t;
	out->device_id = (int32_t)i;
	return 0;
}

/*
 * parse_int32 reads the decimal digits of s[0:len), with a leading '-' when
 * negative is allowed, as an int32 without leading zeros: false otherwise.
 */
static bool parse_int32(const char *s, size_t len, bool negative, int32_t *out) {
	bool minus = negative && len > 0 && s[0] == '-';
	s += minus, len -= minus;
	if (len == 0 || len > 10 || (s[0] == '0' && len > 1))
		return false;
	long long v = 0;
	for (size_t i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		v = v * 10 + (s[i] - '0');
	}
	v = minus ? -v : v;
	if (v < INT32_MIN || v > INT32_MAX)
		return false;
	*out = (int32_t)v;
	return true;
}

/*
 * device_type_named finds the device type a name spells: a DLPack name, or
 * "device_type(N)", as a Device shows a type DLPack does not name.
 */
static bool device_type_named(const char *name, size_t len, int32_t *type) {
	for (int32_t t = kDLCPU; t <= kDLAscend; t++) {
		const char *n = gdl_device_type_name(t);
		if (n != NULL && strlen(n) == len && memcmp(n, name, len) == 0)
			return *type = t, true;
	}
	static const char prefix[] = "device_type(";
	size_t p = sizeof prefix - 1;
	return len > p + 1 && memcmp(name, prefix, p) == 0 && name[len - 1] == ')' &&
	       parse_int32(name + p, len - p - 1, true, type);
}

/* device_error raises ValueError: "<what> <o> <rest>", o shown by gdl_shown. Returns -1. */
static int device_error(const char *what, PyObject *o, const char *rest) {
	PyObject *shown = gdl_shown(o);
	PyErr_Format(PyExc_ValueError, "%s %V %s", what, shown, "?", rest);
	Py_XDECREF(shown);
	return -1;
}

/*
 * named_device reads "type" or "type:index". A type alone names device 0 of
 * the CPU, and no device of any other type: which CUDA device "cuda" means
 * is a choice of the caller's framework, not ours to guess.
 */
static int named_device(PyObject *o, const char *what, DLDevice *out) {
	Py_ssize_t size;
	const char *s = PyUnicode_AsUTF8AndSize(o, &size);
	if (s == NULL)
		return -1;
	const char *colon = memchr(s, ':', (size_t)size);
	size_t len = colon != NULL ? (size_t)(colon - s) : (size_t)size;
	int32_t type, id = 0;
	if (!device_type_named(s, len, &type) ||
	    (colon != NULL && !parse_int32(colon + 1, (size_t)(s + size - colon - 1), false, &id)))
		return device_error(what, o, "names no device: write a DLPack device type and an index, such as 'cpu', "
		                             "'cpu:0', 'cuda:1' or 'rocm_host:0'");
	if (type == kDLCPU && id != 0)
		return device_error(what, o, "names no device DLPack defines: the CPU is 'cpu:0'");
	if (colon == NULL && type != kDLCPU) {
		char rest[96];
		const char *name = gdl_device_type_name(type);
		PyOS_snprintf(rest, sizeof rest, "names no device index: write one, such as '%s:0'",
		              name != NULL ? name : "cuda");
		return device_error(what, o, rest);
	}
	out->device_type = (DLDeviceType)type;
	out->device_id = id;
	return 0;
}

/*
 * torch_device reads a torch.device: its type as PyTorch exports it through
 * DLPack ("cuda" is ROCm in PyTorch's ROCm builds, "mps" Metal, "xpu"
 * oneAPI), its index, which only the CPU may lack.
 */
static int torch_device(PyObject *o, const char *what, DLDevice *out) {
	PyObject *type = PyObject_GetAttrString(o, "type"), *index = NULL, *text = NULL;
	int rc = -1;
	if (type == NULL || (index = PyObject_GetAttrString(o, "index")) == NULL)
		goto done;
	if (!PyUnicode_Check(type) || !(index == Py_None || PyLong_Check(index))) {
		PyObject *pair = PyTuple_Pack(2, type, index), *shown = pair == NULL ? NULL : gdl_shown(pair);
		PyErr_Format(PyExc_TypeError, "%s: a torch.device with type and index %V", what, shown, "of other kinds");
		Py_XDECREF(pair);
		Py_XDECREF(shown);
		goto done;
	}
	const char *name = PyUnicode_AsUTF8(type);
	if (name == NULL)
		goto done;
	if (strcmp(name, "cuda") == 0) {
		/* torch.version.hip is a version string in ROCm builds, None otherwise. */
		PyObject *torch = PyImport_ImportModule("torch"), *version = NULL, *hip = NULL;
		if (torch != NULL && (version = PyObject_GetAttrString(torch, "version")) != NULL)
			hip = PyObject_GetAttrString(version, "hip");
		Py_XDECREF(torch);
		Py_XDECREF(version);
		if (hip == NULL)
			PyErr_Clear(); /* a torch without torch.version.hip: a CUDA build */
		int rocm = hip != NULL ? PyObject_IsTrue(hip) : 0;
		Py_XDECREF(hip);
		if (rocm < 0)
			goto done;
		name = rocm ? "rocm" : "cuda";
	} else if (strcmp(name, "mps") == 0) {
		name = "metal";
	} else if (strcmp(name, "xpu") == 0) {
		name = "oneapi";
	}
	/* An index is an int of torch's, which torch keeps in range; its text is what str(index) is. */
	text = index == Py_None ? PyUnicode_FromString(name) : PyUnicode_FromFormat("%s:%S", name, index);
	if (text == NULL)
		goto done;
	rc = named_device(text, what, out);
	if (rc != 0 && PyErr_ExceptionMatches(PyExc_ValueError)) {
		PyErr_Clear();
		device_error(what, o, index == Py_None ? "is no DLPack device (give its index: torch.device(type, index))"
		                                       : "is no DLPack device");
	}
done:
	Py_XDECREF(type);
	Py_XDECREF(index);
	Py_XDECREF(text);
	return rc;
}

int gdl_parse_device(PyObject *o, PyObject *exc, const char *what, DLDevice *out) {
	if (PyTuple_Check(o)) {
		char must[64];
		PyOS_snprintf(must, sizeof must, "%s must be", what);
		if (gdl_device_pair(o, exc, must, out) != 0)
			return -1;
		/* A producer may say what it likes of its own memory; a caller asking for a CPU other than 0 is wrong. */
		if (out->device_type == kDLCPU && out->device_id != 0)
			return device_error(what, o, "names no device DLPack defines: the CPU is (1, 0)");
		return 0;
	}
	if (PyUnicode_Check(o))
		return named_device(o, what, out);
	PyTypeObject *tp = Py_TYPE(o);
	if (strcmp(tp->tp_name, "torch.device") == 0)
		return torch_device(o, what, out);
	PyObject *m = PyObject_GetAttrString(o, "__dlpack_device__");
	if (m != NULL) {
		Py_DECREF(m);
		return gdl_dlpack_device(o, out);
	}
	if (!PyErr_ExceptionMatches(PyExc_AttributeError))
		return -1;
	PyErr_Clear();
	PyErr_Format(exc, "%s must be a (device_type, device_id) tuple, a str such as 'cpu' or 'cuda:1', a torch.device "
	             "or an object with __dlpack_device__, got %.200s", what, tp->tp_name);
	return -1;
}

int gdl_has_dlpack_device(PyTypeObject *tp) {
	/* The type's own attribute, found through CPython's method cache: no exception, no allocation. */
	return gdl_type_defines(tp, gdl_names.dlpack_device);
}

int gdl_dlpack_device(PyObject *obj, DLDevice *out) {
	PyObject *args[1] = {obj};
	PyObject *r = PyObject_VectorcallMethod(gdl_names.dlpack_device, args, 1 | PY_VECTORCALL_ARGUMENTS_OFFSET, NULL);
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
