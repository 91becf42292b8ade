/*
 * The Exporter type of package capsule: a Python object over a gdl_source
 * (memory a Go extension exports, or a tensor it received) that speaks the
 * whole protocol through gdl_export, the exchange API included. Its methods
 * run in C; only a copy enters Go.
 */
#include "capsule.h"

typedef struct {
	PyObject_VAR_HEAD
	gdl_source src;
	int64_t dims[1]; /* shape[ndim], strides[ndim] */
} Exporter;

/* A producer's deleter that dropping the owner runs keeps any pending exception aside (gdl_delete_keeping_error). */
static void exporter_dealloc(Exporter *self) {
	gdl_source_release(&self->src);
	Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyMethodDef exporter_methods[] = {GDL_EXPORTER_METHODS, {NULL}};

static PyTypeObject ExporterType = {
	PyVarObject_HEAD_INIT(NULL, 0)
	.tp_name = "godlpack.capsule.Exporter",
	.tp_basicsize = offsetof(Exporter, dims),
	.tp_itemsize = sizeof(int64_t),
	.tp_dealloc = (destructor)exporter_dealloc,
	.tp_flags = Py_TPFLAGS_DEFAULT,
	.tp_doc = "Tensor data exported from Go: pass it to any from_dlpack.",
	.tp_methods = exporter_methods,
};

/* exporter_ready readies the type once, with the exchange API on it. */
static int exporter_ready(void) {
	static bool ready;
	if (ready)
		return 0;
	if (gdl_register_exporter(&ExporterType, offsetof(Exporter, src), gdl_exporter_adopt) != 0 ||
	    PyType_Ready(&ExporterType) < 0)
		return -1;
	ready = true;
	return 0;
}

PyObject *gdl_exporter_new(int32_t ndim, gdl_source **src) {
	if (exporter_ready() != 0)
		return NULL;
	Exporter *e = PyObject_NewVar(Exporter, &ExporterType, 2 * (Py_ssize_t)ndim);
	if (e == NULL)
		return NULL;
	memset(&e->src, 0, sizeof e->src);
	e->src.view.ndim = ndim;
	e->src.view.shape = e->dims;
	e->src.view.strides = e->dims + ndim;
	*src = &e->src;
	return (PyObject *)e;
}

PyObject *gdl_exporter_adopt(void *managed) { return gdl_adopt(managed, gdl_exporter_new); }
