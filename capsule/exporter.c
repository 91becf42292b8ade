#include "exporter.h"
#include "_cgo_export.h"

void gdl_capsule_raise(int kind, const char *msg) {
	PyObject *type;
	switch (kind) {
	case GDL_EXC_TYPE: type = PyExc_TypeError; break;
	case GDL_EXC_VALUE: type = PyExc_ValueError; break;
	case GDL_EXC_BUFFER: type = PyExc_BufferError; break;
	case GDL_EXC_MEMORY: type = PyExc_MemoryError; break;
	default: type = PyExc_RuntimeError; break;
	}
	PyErr_SetString(type, msg);
}

int gdl_is_capsule(PyObject *o) { return PyCapsule_CheckExact(o); }

void gdl_no_dlpack(PyObject *o) {
	if (!gdl_lacks_dlpack(o))
		return;
	PyErr_Clear();
	PyErr_Format(PyExc_TypeError, "expected an object with __dlpack__ or a DLPack capsule, got %.200s",
	             Py_TYPE(o)->tp_name);
}

typedef struct {
	PyObject_HEAD
	uintptr_t handle; /* 0 once forgotten */
	DLDevice device;
} Exporter;

/* The Go side (a buffer reference) goes with the object; dealloc runs with the GIL. */
static void exporter_dealloc(Exporter *self) {
	/* In a forked child Go cannot run: the handle leaks with the child. */
	if (self->handle != 0 && !gdl_forked_child())
		godlpackCapsuleForget(self->handle);
	Py_TYPE(self)->tp_free((PyObject *)self);
}

/* parse_version reads max_version: None, or a tuple of two non-negative ints. */
static int parse_version(PyObject *o, gdl_export_request *r) {
	r->max_major = r->max_minor = 0;
	if (o == NULL || o == Py_None)
		return 0;
	if (!PyTuple_Check(o) || PyTuple_GET_SIZE(o) != 2 || !PyLong_Check(PyTuple_GET_ITEM(o, 0)) ||
	    !PyLong_Check(PyTuple_GET_ITEM(o, 1))) {
		PyErr_Format(PyExc_TypeError, "max_version must be None or a tuple of two ints, got %R", o);
		return -1;
	}
	unsigned long major = PyLong_AsUnsignedLong(PyTuple_GET_ITEM(o, 0));
	unsigned long minor = major == (unsigned long)-1 ? 0 : PyLong_AsUnsignedLong(PyTuple_GET_ITEM(o, 1));
	if (PyErr_Occurred())
		return -1;
	r->max_major = major > UINT32_MAX ? UINT32_MAX : (uint32_t)major;
	r->max_minor = minor > UINT32_MAX ? UINT32_MAX : (uint32_t)minor;
	return 0;
}

/* check_device accepts dl_device equal to ours, or the CPU for CPU-accessible memory. */
static int check_device(Exporter *self, PyObject *o) {
	if (o == NULL || o == Py_None)
		return 0;
	long type, id;
	if (!PyTuple_Check(o) || PyTuple_GET_SIZE(o) != 2) {
		PyErr_Format(PyExc_TypeError, "dl_device must be None or a (device_type, device_id) tuple, got %R", o);
		return -1;
	}
	type = PyLong_AsLong(PyTuple_GET_ITEM(o, 0));
	id = type == -1 && PyErr_Occurred() ? -1 : PyLong_AsLong(PyTuple_GET_ITEM(o, 1));
	if (PyErr_Occurred())
		return -1;
	if ((type == self->device.device_type && id == self->device.device_id) ||
	    (gdl_is_cpu_accessible(self->device) && type == kDLCPU && id == 0))
		return 0;
	PyErr_Format(PyExc_BufferError, "cannot export data on device (%d, %d) to device (%ld, %ld)",
	             (int)self->device.device_type, (int)self->device.device_id, type, id);
	return -1;
}

static PyObject *exporter_dlpack(Exporter *self, PyObject *args, PyObject *kwargs) {
	static char *kwlist[] = {"stream", "max_version", "dl_device", "copy", NULL};
	PyObject *stream = NULL, *max_version = NULL, *dl_device = NULL, *copy = NULL;
	if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|$OOOO:__dlpack__", kwlist, &stream, &max_version, &dl_device,
	                                 &copy))
		return NULL;
	gdl_export_request r = {0};
	if (parse_version(max_version, &r) != 0 || check_device(self, dl_device) != 0)
		return NULL;
	if (stream != NULL && stream != Py_None) {
		if (!PyLong_Check(stream) || PyBool_Check(stream))
			return PyErr_Format(PyExc_TypeError, "stream must be None or an int, got %R", stream);
		/* Data on a device is handed over as it is: there is no work of ours to order, any stream will do. */
		if (gdl_is_cpu_accessible(self->device)) {
			long s = PyLong_AsLong(stream);
			if (s == -1 && PyErr_Occurred()) {
				PyErr_Clear();
				s = 0;
			}
			if (s != -1)
				return PyErr_Format(PyExc_ValueError, "stream %R is not valid for CPU data (use None or -1)",
				                    stream);
		}
	}
	if (copy == NULL || copy == Py_None)
		r.copy = -1;
	else if (PyBool_Check(copy))
		r.copy = copy == Py_True;
	else
		return PyErr_Format(PyExc_TypeError, "copy must be None or a bool, got %R", copy);
	if (self->handle == 0)
		return PyErr_Format(PyExc_RuntimeError, "the exporter has no data");
	if (gdl_forked_child())
		return gdl_fork_error();
	godlpackCapsuleExport(self->handle, &r);
	if (r.kind != GDL_EXC_NONE) {
		gdl_capsule_raise(r.kind, r.msg);
		return NULL;
	}
	return gdl_capsule_wrap(r.managed, r.versioned);
}

static PyObject *exporter_dlpack_device(Exporter *self, PyObject *unused) {
	return Py_BuildValue("(ii)", (int)self->device.device_type, (int)self->device.device_id);
}

static PyMethodDef exporter_methods[] = {
	{"__dlpack__", (PyCFunction)(void (*)(void))exporter_dlpack, METH_VARARGS | METH_KEYWORDS,
	 "__dlpack__(*, stream=None, max_version=None, dl_device=None, copy=None)\n--\n\n"
	 "A DLPack capsule of the data: versioned when max_version asks for it."},
	{"__dlpack_device__", (PyCFunction)exporter_dlpack_device, METH_NOARGS,
	 "__dlpack_device__()\n--\n\nThe (device_type, device_id) of the data."},
	{NULL},
};

static PyTypeObject ExporterType = {
	PyVarObject_HEAD_INIT(NULL, 0)
	.tp_name = "godlpack.capsule.Exporter",
	.tp_basicsize = sizeof(Exporter),
	.tp_dealloc = (destructor)exporter_dealloc,
	.tp_flags = Py_TPFLAGS_DEFAULT,
	.tp_doc = "Tensor data exported from Go: pass it to any from_dlpack.",
	.tp_methods = exporter_methods,
};

PyObject *gdl_exporter_new(uintptr_t handle, int32_t device_type, int32_t device_id) {
	if (PyType_Ready(&ExporterType) < 0)
		return NULL;
	Exporter *e = PyObject_New(Exporter, &ExporterType);
	if (e == NULL)
		return NULL;
	e->handle = handle;
	e->device.device_type = (DLDeviceType)device_type;
	e->device.device_id = device_id;
	return (PyObject *)e;
}
