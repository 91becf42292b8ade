/* The producer side of the protocol: one __dlpack__ and __dlpack_device__ for every exporting object. */
#include "capsule.h"
#include "_cgo_export.h"

/*
 * __dlpack__'s parameters, with their interned names and the last call's
 * keywords: one per library, as gdl_export is the one __dlpack__ of every
 * exporting type of every module.
 */
static gdl_signature dlpack_signature = GDL_SIGNATURE("__dlpack__", 4, 0, 0, 0, "stream", "max_version", "dl_device", "copy");

/* clamped_int reads an int, saturating at the long long range: any int is a valid (if unheard-of) version or device. */
static long long clamped_int(PyObject *o) {
	int overflow;
	long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
	return overflow > 0 ? LLONG_MAX : overflow < 0 ? LLONG_MIN : v;
}

/* int_pair reads a tuple of two ints; -1 with TypeError naming what for otherwise. */
static int int_pair(PyObject *o, const char *what, long long *a, long long *b) {
	if (!PyTuple_Check(o) || PyTuple_GET_SIZE(o) != 2 || !PyLong_Check(PyTuple_GET_ITEM(o, 0)) ||
	    !PyLong_Check(PyTuple_GET_ITEM(o, 1))) {
		PyObject *shown = gdl_shown(o);
		PyErr_Format(PyExc_TypeError, "%s must be a tuple of two ints, got %V", what, shown, "another value");
		Py_XDECREF(shown);
		return -1;
	}
	*a = clamped_int(PyTuple_GET_ITEM(o, 0));
	*b = clamped_int(PyTuple_GET_ITEM(o, 1));
	return 0;
}

/* parse_version reads max_version: None (a legacy capsule, 0.0) or a pair of non-negative ints. */
static int parse_version(PyObject *o, DLPackVersion *asked) {
	asked->major = asked->minor = 0;
	if (o == NULL || o == Py_None)
		return 0;
	long long major, minor;
	if (int_pair(o, "max_version", &major, &minor) != 0)
		return -1;
	if (major < 0 || minor < 0) {
		PyObject *shown = gdl_shown(o);
		PyErr_Format(PyExc_TypeError, "max_version must hold non-negative ints, got %V", shown, "negative ones");
		Py_XDECREF(shown);
		return -1;
	}
	asked->major = major > UINT32_MAX ? UINT32_MAX : (uint32_t)major;
	asked->minor = minor > UINT32_MAX ? UINT32_MAX : (uint32_t)minor;
	return 0;
}

/* check_stream accepts None and any int for device data, None and -1 (no synchronisation) for CPU data. */
static int check_stream(PyObject *stream, bool cpu) {
	if (stream == NULL || stream == Py_None)
		return 0;
	if (!PyLong_Check(stream) || PyBool_Check(stream)) {
		PyErr_Format(PyExc_TypeError, "stream must be None or an int, got %.200s", Py_TYPE(stream)->tp_name);
		return -1;
	}
	/* Device data is handed over as it is: there is no work of ours to order, so any stream will do. */
	if (cpu && clamped_int(stream) != -1) {
		PyObject *shown = gdl_shown(stream);
		PyErr_Format(PyExc_ValueError, "stream must be None or -1 for CPU data, got %V", shown, "another int");
		Py_XDECREF(shown);
		return -1;
	}
	return 0;
}

/*
 * parse_device reads dl_device, a tuple or any spelling gdl_parse_device
 * reads, into *device: the tensor's own device, or the CPU for CPU-accessible
 * data.
 */
static int parse_device(PyObject *o, const gdl_source *s, DLDevice *device) {
	*device = s->view.device;
	if (o == NULL || o == Py_None)
		return 0;
	long long type, id;
	if (!PyTuple_Check(o)) {
		/* The other spellings of a device: "cpu", "cuda:1", a torch.device, a godlpack.Device's peers. */
		DLDevice d;
		if (gdl_parse_device(o, PyExc_TypeError, "dl_device", &d) != 0)
			return -1;
		type = d.device_type;
		id = d.device_id;
	} else if (int_pair(o, "dl_device", &type, &id) != 0) {
		return -1;
	}
	if (type == kDLCPU && id == 0 && gdl_is_cpu_accessible(s->view.device)) {
		device->device_type = kDLCPU;
		device->device_id = 0;
		return 0;
	}
	if (type != s->view.device.device_type || id != s->view.device.device_id) {
		PyObject *shown = gdl_shown(o);
		PyErr_Format(PyExc_BufferError, "cannot export a tensor on device (%d, %d) to dl_device %V",
		             (int)s->view.device.device_type, (int)s->view.device.device_id, shown, "(another device)");
		Py_XDECREF(shown);
		return -1;
	}
	return 0;
}

/* Exported in place of a NULL data pointer: DLPack wants one even for no elements. */
static _Alignas(64) const char empty_data[64];

void gdl_exported_view(const gdl_source *s, gdl_view *v) {
	*v = s->view;
	v->flags &= GDL_FLAG_READ_ONLY | GDL_FLAG_IS_SUBBYTE_TYPE_PADDED;
	if (v->data == NULL)
		v->data = (void *)empty_data; /* only a size-0 tensor can have NULL data */
}

/*
 * The exchange hot path stays in C: parsing, checks and building the capsule
 * cost less than one crossing into Go (bench/exchange.py), so Go is entered
 * only to copy, or to say why a version cannot describe the tensor.
 */
PyObject *gdl_export(gdl_source *s, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
	GDL_CHECK_FORK(NULL);
	PyObject *a[4];
	if (gdl_parse(&dlpack_signature, args, nargs, kwnames, a) != 0)
		return NULL;
	bool cpu = gdl_is_cpu_accessible(s->view.device);
	DLPackVersion asked, v;
	DLDevice device;
	int copy;
	if (parse_version(a[1], &asked) != 0 || check_stream(a[0], cpu) != 0 || parse_device(a[2], s, &device) != 0 ||
	    gdl_parse_copy(a[3], &copy) != 0)
		return NULL;
	if (copy == 1 && !cpu)
		return PyErr_Format(PyExc_BufferError, "cannot copy data on device (%d, %d): it is not CPU-accessible",
		                    (int)s->view.device.device_type, (int)s->view.device.device_id);
	/* A copy is writable, whoever may write the original. */
	bool read_only = (s->view.flags & GDL_FLAG_READ_ONLY) && copy != 1;
	/* Parsing the arguments may have run Python code (an __index__, a __dlpack_device__) that forked. */
	GDL_CHECK_FORK(NULL);
	if (gdl_negotiate(asked, s->need, read_only, &v) != GDL_NEGOTIATED) {
		godlpackCapsuleRefuse(s, asked);
		return NULL;
	}
	void *managed;
	if (copy == 1) {
		if (godlpackCapsuleCopy(s, v, &managed) != 0)
			return NULL;
	} else {
		gdl_view view;
		gdl_exported_view(s, &view);
		view.device = device;
		gdl_owner *owner = gdl_source_owner(s);
		if (owner == NULL || (managed = gdl_pack(owner, &view, v.major != 0, v.minor)) == NULL)
			return PyErr_NoMemory();
	}
	return gdl_capsule_wrap(managed, v.major != 0);
}

PyObject *gdl_export_device(const gdl_source *s) {
	return Py_BuildValue("(ii)", (int)s->view.device.device_type, (int)s->view.device.device_id);
}
