/* Devices as callers spell them: tuples, strings such as "cuda:1", torch.device objects, producers. */
#include <string.h>
#include "capsule.h"

int gdl_device_pair(PyObject *pair, PyObject *exc, const char *what, DLDevice *out) {
	PyObject *type = PyTuple_Check(pair) && PyTuple_GET_SIZE(pair) == 2 ? PyTuple_GET_ITEM(pair, 0) : NULL;
	PyObject *id = type != NULL ? PyTuple_GET_ITEM(pair, 1) : NULL;
	/* A device type may be an IntEnum (PyTorch's, Paddle's); a CPU's id may be None, as Paddle answers. */
	if (type == NULL || !PyLong_Check(type) || !(PyLong_Check(id) || id == Py_None)) {
		PyErr_Format(exc, "%s a (device_type, device_id) tuple of ints, got %R", what, pair);
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
		PyErr_Format(PyExc_ValueError, "%s a device of int32 values, got an out-of-range device %R", what, pair);
		return -1;
	}
	if (id == Py_None && t != kDLCPU) {
		PyErr_Format(exc, "%s a (device_type, device_id) tuple of ints, got %R (only a CPU's id may be None)", what,
		             pair);
		return -1;
	}
	out->device_type = (DLDeviceType)t;
	out->device_id = (int32_t)i;
	return 0;
}

/* device_type_named finds the DLPack device type a name spells, or returns 0. */
static int32_t device_type_named(const char *name, size_t len) {
	for (int32_t t = kDLCPU; t <= kDLAscend; t++) {
		const char *n = gdl_device_type_name(t);
		if (n != NULL && strlen(n) == len && memcmp(n, name, len) == 0)
			return t;
	}
	return 0;
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
	int32_t type = device_type_named(s, len);
	long long id = 0;
	bool ok = type != 0;
	if (ok && colon != NULL) {
		const char *digits = colon + 1, *end = s + size;
		ok = digits < end && end - digits <= 10 && (digits[0] != '0' || end - digits == 1);
		for (const char *p = digits; ok && p < end; p++) {
			ok = *p >= '0' && *p <= '9';
			id = id * 10 + (*p - '0');
		}
		ok = ok && id <= INT32_MAX;
	}
	if (!ok) {
		PyErr_Format(PyExc_ValueError, "%s %R names no device: write a DLPack device type and an index, such as "
		             "'cpu', 'cpu:0', 'cuda:1' or 'rocm_host:0'", what, o);
		return -1;
	}
	if (type == kDLCPU && id != 0) {
		PyErr_Format(PyExc_ValueError, "%s %R names no device DLPack defines: the CPU is 'cpu:0'", what, o);
		return -1;
	}
	if (colon == NULL && type != kDLCPU) {
		PyErr_Format(PyExc_ValueError, "%s %R names no device index: write one, such as '%s:0'", what, o,
		             gdl_device_type_name(type));
		return -1;
	}
	out->device_type = (DLDeviceType)type;
	out->device_id = (int32_t)id;
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
		PyErr_Format(PyExc_TypeError, "%s: a torch.device with type %R and index %R", what, type, index);
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
	text = index == Py_None ? PyUnicode_FromString(name) : PyUnicode_FromFormat("%s:%S", name, index);
	if (text == NULL)
		goto done;
	rc = named_device(text, what, out);
	if (rc != 0 && PyErr_ExceptionMatches(PyExc_ValueError)) {
		PyErr_Clear();
		PyErr_Format(PyExc_ValueError, "%s %R is no DLPack device%s", what, o,
		             index == Py_None ? " (give its index: torch.device(type, index))" : "");
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
		if (out->device_type == kDLCPU && out->device_id != 0) {
			PyErr_Format(PyExc_ValueError, "%s %R names no device DLPack defines: the CPU is (1, 0)", what, o);
			return -1;
		}
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
