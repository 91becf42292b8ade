/*
 * Extension modules whose functions are Go functions: each function object
 * carries a cgo.Handle (as a Python int, its "self") that the trampoline
 * passes back to Go with the positional arguments.
 */
#ifndef GODLPACK_PYMODULE_H
#define GODLPACK_PYMODULE_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>

/* gdl_module_new returns a new module; its definition lives as long as the process. NULL with an exception. */
PyObject *gdl_module_new(const char *name, const char *doc);

/* gdl_module_add adds the Go function behind handle to m as name. -1 with an exception. */
int gdl_module_add(PyObject *m, const char *name, const char *doc, uintptr_t handle);

/* gdl_none returns a new reference to None (Py_None is a macro). */
PyObject *gdl_none(void);

#endif
