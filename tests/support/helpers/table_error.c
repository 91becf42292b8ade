/*
 * A managed_tensor_from_py_object_no_sync that breaks the exchange API's
 * contract in the one way a Python callback cannot: it hands out a valid
 * tensor, returns 0, and leaves a Python exception set. Compiled at test time
 * against the running interpreter's headers and loaded with ctypes.PyDLL.
 */
#include <Python.h>
#include <stdint.h>

#include "layouts.h"

static float values[4] = {1, 2, 3, 4};
static int64_t shape[1] = {4};
static long deleted;

static void count_delete(versioned *m) {
	deleted++;
	free(m);
}

/* table_error_deleted counts the deletions of the tensors handed out. */
long table_error_deleted(void) { return deleted; }

int from_py_object_leaving_error(void *obj, versioned **out) {
	versioned *m = calloc(1, sizeof *m);
	if (m == NULL)
		return -1;
	m->major = 1;
	m->minor = 3;
	m->deleter = count_delete;
	m->t = (tensor){values, 1, 0, 1, 2, 32, 1, shape, NULL, 0};
	*out = m;
	PyErr_SetString(PyExc_RuntimeError, "an error the table left set");
	return 0;
}
