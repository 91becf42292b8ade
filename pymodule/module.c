/*
 * A module's making: its definition, and each bound function's record
 * (gdl_bound) made, finished and added to it as a function object
 * (function.c). Every function here runs with the GIL held.
 */
#include <stdlib.h>
#include <string.h>
#include "pymodule.h"

/*
 * Module and function definitions must outlive the module, which CPython
 * never unloads: they are allocated once and kept. m_size is 0, not -1: for
 * a definition of -1 CPython 3.12+ gives a subinterpreter a copy of the module
 * the main interpreter made (running PyInit there, where it cannot tell),
 * whereas for 0 it calls PyInit in the importing interpreter, which refuses a
 * subinterpreter (gdl_join_process).
 */
PyObject *gdl_module_new(const char *name, const char *doc) {
	PyModuleDef *def = calloc(1, sizeof *def);
	char *n = gdl_strdup(name), *d = gdl_strdup(doc);
	if (def == NULL || n == NULL || d == NULL) {
		free(def), free(n), free(d);
		return PyErr_NoMemory();
	}
	PyModuleDef base = {PyModuleDef_HEAD_INIT, .m_name = n, .m_doc = d, .m_size = 0};
	memcpy(def, &base, sizeof base);
	PyObject *m = PyModule_Create(def);
	if (m == NULL)
		free(def), free(n), free(d);
	return m;
}

gdl_bound *gdl_bound_new(const char *name, const char *qualname, const char *doc) {
	gdl_bound *b = calloc(1, sizeof *b);
	if (b == NULL || (b->name = gdl_strdup(name)) == NULL || (b->qualname = gdl_strdup(qualname)) == NULL ||
	    (b->doc = gdl_strdup(doc)) == NULL) {
		gdl_bound_free(b);
		PyErr_NoMemory();
		return NULL;
	}
	return b;
}

void gdl_bound_free(gdl_bound *b) {
	if (b == NULL)
		return;
	for (int i = 0; i < b->nparams; i++) {
		gdl_param *p = &b->params[i];
		free(p->name);
		free(p->type_name);
		free(p->spec.dtypes);
		free(p->spec.shape);
		if (p->kind == GDL_KIND_STRING || p->kind == GDL_KIND_BYTES)
			free((void *)p->dflt.v.s.p);
	}
	for (int i = 0; i < GDL_SIGNATURE_MAX; i++)
		Py_XDECREF(b->sig.interned[i]);
	free(b->name);
	free(b->qualname);
	free(b->class_name);
	free(b->doc);
	free(b->signature);
	free(b);
}

void gdl_bound_finish(gdl_bound *b) {
	b->sig.func = b->qualname;
	b->sig.n = b->nparams;
	for (int i = 0; i < b->nparams; i++)
		b->sig.names[i] = b->params[i].name;
}

int gdl_bound_add(PyObject *m, gdl_bound *b) {
	gdl_bound_finish(b);
	PyObject *modname = PyModule_GetNameObject(m);
	if (modname == NULL)
		return -1;
	PyObject *f = gdl_function_new(b, modname, m);
	Py_DECREF(modname);
	if (f == NULL)
		return -1;
	if (PyModule_AddObjectRef(m, b->name, f) != 0) {
		Py_DECREF(f); /* its record is b, which the caller frees: nothing else holds f */
		return -1;
	}
	Py_DECREF(f);
	return 0;
}
