/*
 * Arguments of functions that take METH_FASTCALL | METH_KEYWORDS calls:
 * gdl_parse, which the binder's functions and godlpack's own use, and the
 * protocol's copy keyword. It calls only errors.c.
 */
#include "cpython.h"

/* intern_names interns a signature's names once; a failed call leaves the last one NULL, to be retried. */
static int intern_names(gdl_signature *sig) {
	if (sig->interned[sig->n - 1] != NULL)
		return 0;
	for (int i = 0; i < sig->n; i++)
		if (sig->interned[i] == NULL && (sig->interned[i] = PyUnicode_InternFromString(sig->names[i])) == NULL)
			return -1;
	return 0;
}

/* keyword_index finds a keyword among the parameters that may be passed by name: by identity, then by value. */
static int keyword_index(const gdl_signature *sig, PyObject *key) {
	for (int j = sig->positional_only; j < sig->n; j++)
		if (key == sig->interned[j])
			return j;
	for (int j = sig->positional_only; j < sig->n; j++)
		if (PyUnicode_Compare(key, sig->interned[j]) == 0)
			return j;
	return -1;
}

int gdl_parse(gdl_signature *sig, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames, PyObject **slots) {
	if (kwnames == NULL && nargs >= sig->required && nargs <= sig->max_positional) {
		/* Positional arguments alone, as many as allowed: the common call, with nothing to check. */
		int i = 0;
		for (; i < nargs; i++)
			slots[i] = args[i];
		for (; i < sig->n; i++)
			slots[i] = NULL;
		return 0;
	}
	if (intern_names(sig) != 0)
		return -1;
	for (int i = 0; i < sig->n; i++)
		slots[i] = NULL;
	if (nargs > sig->max_positional) {
		if (sig->max_positional == 0)
			PyErr_Format(PyExc_TypeError, "%s() takes no positional arguments (%zd given)", sig->func, nargs);
		else
			PyErr_Format(PyExc_TypeError, "%s() takes at most %d positional argument%s (%zd given)", sig->func,
			             sig->max_positional, sig->max_positional == 1 ? "" : "s", nargs);
		return -1;
	}
	for (Py_ssize_t i = 0; i < nargs; i++)
		slots[i] = args[i];
	Py_ssize_t nkw = kwnames == NULL ? 0 : PyTuple_GET_SIZE(kwnames);
	if (kwnames != NULL && kwnames == sig->last_kwnames && nargs == 0) {
		/* The names of the last call, which passed every check: only the values are new. */
		for (Py_ssize_t i = 0; i < nkw; i++)
			slots[sig->last_slots[i]] = args[i];
		goto required;
	}
	for (Py_ssize_t i = 0; i < nkw; i++) {
		PyObject *key = PyTuple_GET_ITEM(kwnames, i);
		/* Python passes unique str names; a C caller may not. */
		if (!PyUnicode_Check(key)) {
			PyErr_Format(PyExc_TypeError, "%s() keywords must be strings", sig->func);
			return -1;
		}
		int j = keyword_index(sig, key);
		if (j < 0) {
			PyObject *shown = gdl_shown(key);
			PyErr_Format(PyExc_TypeError, "%s() got an unexpected keyword argument %V", sig->func, shown, "");
			Py_XDECREF(shown);
			return -1;
		}
		if (slots[j] != NULL) {
			PyErr_Format(PyExc_TypeError, "%s() got multiple values for argument '%s'", sig->func, sig->names[j]);
			return -1;
		}
		slots[j] = args[nargs + i];
	}
	if (nargs == 0 && nkw <= (Py_ssize_t)sizeof sig->last_slots) {
		for (Py_ssize_t i = 0; i < nkw; i++)
			sig->last_slots[i] = (int8_t)keyword_index(sig, PyTuple_GET_ITEM(kwnames, i));
		Py_XINCREF(kwnames);
		Py_XSETREF(sig->last_kwnames, kwnames);
	}
required:
	for (int i = 0; i < sig->required; i++)
		if (slots[i] == NULL) {
			PyErr_Format(PyExc_TypeError, "%s() missing required argument '%s'", sig->func, sig->names[i]);
			return -1;
		}
	return 0;
}

int gdl_parse_tuple(gdl_signature *sig, PyObject *args, PyObject *kwargs, PyObject **slots) {
	Py_ssize_t nargs = PyTuple_GET_SIZE(args), nkw = kwargs == NULL ? 0 : PyDict_GET_SIZE(kwargs);
	PyObject *const *items = &PyTuple_GET_ITEM(args, 0);
	if (nkw == 0)
		return gdl_parse(sig, items, nargs, NULL, slots);
	/* As a vectorcall passes them: the positional arguments, then the keywords' values, their names in a tuple. */
	PyObject *stack[2 * GDL_SIGNATURE_MAX];
	if (nargs + nkw > 2 * GDL_SIGNATURE_MAX) {
		PyErr_Format(PyExc_TypeError, "%s() takes at most %d arguments (%zd given)", sig->func, sig->n, nargs + nkw);
		return -1;
	}
	PyObject *kwnames = PyTuple_New(nkw);
	if (kwnames == NULL)
		return -1;
	for (Py_ssize_t i = 0; i < nargs; i++)
		stack[i] = items[i];
	Py_ssize_t pos = 0, i = 0;
	PyObject *key, *value;
	while (PyDict_Next(kwargs, &pos, &key, &value)) {
		PyTuple_SET_ITEM(kwnames, i, Py_NewRef(key));
		stack[nargs + i++] = value; /* borrowed: the caller's dict holds it for the call */
	}
	int rc = gdl_parse(sig, stack, nargs, kwnames, slots);
	Py_DECREF(kwnames);
	return rc;
}

int gdl_parse_copy(PyObject *o, int *copy) {
	*copy = -1;
	if (o == NULL || o == Py_None)
		return 0;
	if (!PyBool_Check(o)) {
		PyErr_Format(PyExc_TypeError, "copy must be None or a bool, got %.200s", Py_TYPE(o)->tp_name);
		return -1;
	}
	*copy = o == Py_True;
	return 0;
}
