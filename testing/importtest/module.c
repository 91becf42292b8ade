/* The module importtest: imported(x, copy, writable) calls capsule.Import (main.go). */
#include <Python.h>
#include "_cgo_export.h"

/* imported parses (x, copy: None | bool, writable: bool) and crosses into Go once. */
static PyObject *imported(PyObject *m, PyObject *const *args, Py_ssize_t nargs) {
	if (nargs != 3 || !(args[1] == Py_None || PyBool_Check(args[1])) || !PyBool_Check(args[2])) {
		PyErr_SetString(PyExc_TypeError, "imported(x, copy: bool | None, writable: bool)");
		return NULL;
	}
	int copy = args[1] == Py_None ? -1 : args[1] == Py_True;
	return importtestImport(args[0], copy, args[2] == Py_True);
}

static PyMethodDef methods[] = {
	{"imported", (PyCFunction)(void (*)(void))imported, METH_FASTCALL,
	 "imported(x, copy, writable, /)\n--\n\ncapsule.Import(x, Request{copy, writable}), described as a str."},
	{NULL},
};

static PyModuleDef def = {
	PyModuleDef_HEAD_INIT, .m_name = "importtest", .m_doc = "capsule.Import for godlpack's tests.", .m_size = -1,
	.m_methods = methods,
};

PyObject *importtest_module(void) { return PyModule_Create(&def); }
