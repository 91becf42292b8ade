/*
 * The tensor types named after their module: each extension library has its
 * own copy of Tensor, DType and Device (this package's C is compiled into
 * every one), and its pickles must name a module that a fresh process can
 * import, so the types are named after the first module that readies them.
 */
#include <stdio.h>
#include "tensor_object.h"

bool gdl_tensor_types_readied;

/* The names the types carry: tp_name must outlive them, and they live as long as the process. */
static char tensor_name[128], dtype_name[128], device_name[128];

int gdl_tensor_types_ready(const char *module) {
	if (gdl_tensor_types_readied)
		return 0;
	int n = snprintf(tensor_name, sizeof tensor_name, "%s.Tensor", module);
	if (n < 0 || (size_t)n >= sizeof tensor_name) {
		PyErr_Format(PyExc_ImportError, "the module name %.200s is too long for its tensor types", module);
		return -1;
	}
	snprintf(dtype_name, sizeof dtype_name, "%s.DType", module);
	snprintf(device_name, sizeof device_name, "%s.Device", module);
	gdl_TensorType.tp_name = tensor_name;
	gdl_DTypeType.tp_name = dtype_name;
	gdl_DeviceType.tp_name = device_name;
	/* Py_AtExit functions run at the very end of Py_FinalizeEx, when no Python code can run any more. */
	if (Py_AtExit(gdl_owner_shutdown) != 0) {
		PyErr_SetString(PyExc_RuntimeError, "Py_AtExit failed: too many exit functions registered");
		return -1;
	}
	if (gdl_register_exporter(&gdl_TensorType, offsetof(TensorObject, src), gdl_tensor_adopt) != 0 ||
	    PyType_Ready(&gdl_TensorType) < 0 || PyType_Ready(&gdl_DTypeType) < 0 || PyType_Ready(&gdl_DeviceType) < 0)
		return -1;
	gdl_tensor_types_readied = true;
	return 1;
}

int gdl_tensor_types_add(PyObject *m) {
	if (PyModule_AddObjectRef(m, "Tensor", (PyObject *)&gdl_TensorType) < 0 ||
	    PyModule_AddObjectRef(m, "DType", (PyObject *)&gdl_DTypeType) < 0 ||
	    PyModule_AddObjectRef(m, "Device", (PyObject *)&gdl_DeviceType) < 0)
		return -1;
	return gdl_pickle_register(m);
}
