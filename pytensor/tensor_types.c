/*
 * The tensor types named after their module: each extension library has its
 * own Tensor, DType and Device (this package's C is compiled into every
 * one), and its pickles must name a module that a fresh process can import,
 * so the types are made from their specs with the first module that readies
 * them, and named after it.
 */
#include <stdio.h>
#include "tensor_object.h"

/* One set per library, not per module: why, in tensor_object.h. */
bool gdl_tensor_types_readied;
gdl_types gdl_library_types;

/* The names the types carry: a spec's name must outlive its type, which lives as long as the process. */
static char tensor_name[128], dtype_name[128], device_name[128];

/* make_type makes a heap type of m from spec, named name, with base (NULL: object). NULL with an exception. */
static PyTypeObject *make_type(PyObject *m, PyType_Spec *spec, const char *name, PyTypeObject *base) {
	spec->name = name;
	return (PyTypeObject *)PyType_FromModuleAndSpec(m, spec, (PyObject *)base);
}

int gdl_tensor_types_ready(PyObject *m, const char *module) {
	if (gdl_tensor_types_readied)
		return 0;
	if (gdl_names_ready() != 0) /* an extension that has not claimed the process yet */
		return -1;
	int n = snprintf(tensor_name, sizeof tensor_name, "%s.Tensor", module);
	if (n < 0 || (size_t)n >= sizeof tensor_name) {
		PyErr_Format(PyExc_ImportError, "the module name %.200s is too long for its tensor types", module);
		return -1;
	}
	snprintf(dtype_name, sizeof dtype_name, "%s.DType", module);
	snprintf(device_name, sizeof device_name, "%s.Device", module);
	/* Py_AtExit functions run at the very end of Py_FinalizeEx, when no Python code can run any more. */
	if (Py_AtExit(gdl_owner_shutdown) != 0) {
		PyErr_SetString(PyExc_RuntimeError, "Py_AtExit failed: too many exit functions registered");
		return -1;
	}
	gdl_types t = {
		.tensor = make_type(m, &gdl_tensor_spec, tensor_name, NULL),
		.dtype = make_type(m, &gdl_dtype_spec, dtype_name, NULL),
		.device = make_type(m, &gdl_device_spec, device_name, &PyTuple_Type),
	};
	if (t.tensor == NULL || t.dtype == NULL || t.device == NULL ||
	    gdl_register_exporter(t.tensor, offsetof(TensorObject, src), gdl_tensor_adopt) != 0) {
		Py_XDECREF(t.tensor);
		Py_XDECREF(t.dtype);
		Py_XDECREF(t.device);
		return -1;
	}
	gdl_library_types = t;
	gdl_tensor_types_readied = true;
	return 1;
}

int gdl_tensor_types_add(PyObject *m) {
	if (PyModule_AddObjectRef(m, "Tensor", (PyObject *)gdl_library_types.tensor) < 0 ||
	    PyModule_AddObjectRef(m, "DType", (PyObject *)gdl_library_types.dtype) < 0 ||
	    PyModule_AddObjectRef(m, "Device", (PyObject *)gdl_library_types.device) < 0)
		return -1;
	return gdl_pickle_register(m);
}
