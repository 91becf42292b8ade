/*
 * Small things the binder's other C files and its Go code use: copies into C
 * memory, None, the ImportError of a registration. It calls none of the
 * others.
 */
#include <stdlib.h>
#include <string.h>
#include "pymodule.h"

char *gdl_strdup(const char *s) {
	size_t n = strlen(s) + 1;
	char *d = malloc(n);
	if (d != NULL)
		memcpy(d, s, n);
	return d;
}

char *gdl_result_bytes(const void *p, size_t n) {
	char *d = malloc(n + 1);
	if (d != NULL) {
		memcpy(d, p, n);
		d[n] = 0;
	}
	return d;
}

PyObject *gdl_none(void) { Py_RETURN_NONE; }

void gdl_import_error(const char *msg, Py_ssize_t len) { gdl_raise_text(PyExc_ImportError, msg, len); }
