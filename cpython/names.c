/*
 * The Python strings that the C of godlpack's packages looks up and passes
 * (attribute names, keywords, prefixes), interned once, when the library's
 * first module claims the process (gdl_join_process), and kept: one per
 * library, as cpython.h says. The one place such objects are made; the
 * objects of other libraries (NumPy's C API, torch's exchange table) are
 * looked up when first needed, through gdl_import_attr, since importing them
 * at start would cost every user their import. It calls none of the others.
 */
#include "cpython.h"

gdl_interned gdl_names;

/* The text of each name, in the order of gdl_interned's fields. */
static const char *const texts[] = {
	"__dlpack__", "__dlpack_device__", "__dlpack_c_exchange_api__", "requires_grad",
	"max_version", "dl_device", "copy", "stream",
	"__complex__", "numpy", "torch.", "consumer: ", "",
};
_Static_assert(sizeof texts / sizeof texts[0] == sizeof(gdl_interned) / sizeof(PyObject *),
               "one text for each field of gdl_interned");

int gdl_names_ready(void) {
	PyObject **names = (PyObject **)&gdl_names;
	size_t n = sizeof texts / sizeof texts[0];
	if (names[n - 1] != NULL)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (names[i] == NULL && (names[i] = PyUnicode_InternFromString(texts[i])) == NULL)
			return -1;
	return 0;
}
