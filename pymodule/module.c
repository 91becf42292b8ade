#include <stdlib.h>
#include <string.h>
#include "module.h"
#include "_cgo_export.h"

/* The trampoline of every Go function: self is the int of its handle. */
static PyObject *call_go(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
	uintptr_t h = (uintptr_t)PyLong_AsUnsignedLongLong(self);
	if (PyErr_Occurred())
		return NULL;
	return (PyObject *)godlpackModuleCall(h, (void *)args, (GoInt)nargs);
}

/*
 * Module and method definitions must outlive the module, which CPython never
 * unloads: they are allocated once and kept.
 */
PyObject *gdl_module_new(const char *name, const char *doc) {
	PyModuleDef *def = calloc(1, sizeof *def);
	char *n = strdup(name), *d = strdup(doc);
	if (def == NULL || n == NULL || d == NULL) {
		free(def), free(n), free(d);
		return PyErr_NoMemory();
	}
	PyModuleDef base = {PyModuleDef_HEAD_INIT, .m_name = n, .m_doc = d, .m_size = -1};
	memcpy(def, &base, sizeof base);
	return PyModule_Create(def);
}

int gdl_module_add(PyObject *m, const char *name, const char *doc, uintptr_t handle) {
	PyMethodDef *def = calloc(1, sizeof *def);
	char *n = strdup(name), *d = strdup(doc);
	if (def == NULL || n == NULL || d == NULL) {
		free(def), free(n), free(d);
		PyErr_NoMemory();
		return -1;
	}
	def->ml_name = n;
	def->ml_doc = d;
	def->ml_meth = (PyCFunction)(void (*)(void))call_go;
	def->ml_flags = METH_FASTCALL;
	PyObject *self = PyLong_FromUnsignedLongLong(handle);
	if (self == NULL)
		return -1;
	PyObject *modname = PyModule_GetNameObject(m); /* a new reference, which the function takes its own of */
	if (modname == NULL) {
		Py_DECREF(self);
		return -1;
	}
	PyObject *f = PyCFunction_NewEx(def, self, modname);
	Py_DECREF(modname);
	Py_DECREF(self);
	if (f == NULL)
		return -1;
	int rc = PyModule_AddObjectRef(m, name, f);
	Py_DECREF(f);
	return rc;
}

PyObject *gdl_none(void) {
	Py_INCREF(Py_None);
	return Py_None;
}
