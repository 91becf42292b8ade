/*
 * A bound function's __signature__: the inspect.Signature of Python source
 * Go wrote (pymodule's pythonSignature), a def statement whose annotations
 * are strings, as "from __future__ import annotations" makes them, and
 * whose defaults Python evaluates in the namespace of the function's
 * module, as inspect evaluates a text signature's. CPython's parser of
 * text signatures refuses annotations, hence the def. It calls none of the
 * binder's other files.
 */
#include "pymodule.h"

PyObject *gdl_signature_eval(const char *source, PyObject *module_name) {
	PyObject *sig = NULL, *fn, *done, *code, *module = PyImport_GetModule(module_name);
	PyObject *globals = module != NULL ? PyDict_Copy(PyModule_GetDict(module)) : PyErr_Occurred() ? NULL : PyDict_New();
	Py_XDECREF(module);
	if (globals == NULL)
		return NULL;
	if (PyDict_SetItemString(globals, "__builtins__", PyEval_GetBuiltins()) != 0 ||
	    (code = Py_CompileString(source, "<signature>", Py_file_input)) == NULL) {
		Py_DECREF(globals);
		return NULL;
	}
	done = PyEval_EvalCode(code, globals, globals);
	Py_DECREF(code);
	if (done != NULL && (fn = PyDict_GetItemString(globals, GDL_SIGNATURE_DEF)) != NULL) {
		PyObject *signature = gdl_import_attr("inspect", "signature");
		if (signature != NULL) {
			sig = PyObject_CallOneArg(signature, fn);
			Py_DECREF(signature);
		}
	} else if (done != NULL) {
		PyErr_SetString(PyExc_RuntimeError, "a signature's source defines no " GDL_SIGNATURE_DEF);
	}
	Py_XDECREF(done);
	Py_DECREF(globals);
	return sig;
}
