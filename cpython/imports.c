/*
 * Other libraries' objects that godlpack uses when they are there (NumPy's C
 * API table, torch's exchange table, their from_dlpack), looked up by name
 * the first time they are needed.
 */
#include <string.h>
#include "cpython.h"

PyObject *gdl_import_attr(const char *module, const char *path) {
	PyObject *o = PyImport_ImportModule(module);
	for (const char *p = path; o != NULL && *p != '\0';) {
		const char *dot = strchr(p, '.');
		size_t n = dot != NULL ? (size_t)(dot - p) : strlen(p);
		PyObject *name = PyUnicode_FromStringAndSize(p, (Py_ssize_t)n);
		PyObject *next = name != NULL ? PyObject_GetAttr(o, name) : NULL;
		Py_XDECREF(name);
		Py_DECREF(o);
		o = next;
		p += dot != NULL ? n + 1 : n;
	}
	return o;
}
