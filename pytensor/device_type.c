/*
 * The Device type: a (device_type, device_id) tuple, as DLPack's
 * __dlpack_device__ answers, with PyTorch's type and index by name. Being a
 * tuple, it equals and hashes as its pair and goes wherever a pair goes.
 * Nothing here enters Go, so a forked child may use it.
 */
#include "tensor_object.h"

/*
 * gdl_device_new builds the Device as CPython builds any tuple subclass's
 * instance, through tuple's own tp_new with the pair as its argument: a tuple
 * has fields besides its items that tuple's code sets (since 3.14 its cached
 * hash, -1 until computed; tp_alloc's zeroed memory reads as the hash 0, and
 * the Device then missed its pair's slot in a dict).
 */
PyObject *gdl_device_new(DLDevice d) {
	/* DLDeviceType is an unsigned enum: a type read from a pair of int32 values is shown as that value. */
	PyObject *args = Py_BuildValue("((li))", (long)(int32_t)d.device_type, (int)d.device_id);
	if (args == NULL)
		return NULL;
	PyObject *t = PyTuple_Type.tp_new(gdl_library_types.device, args, NULL);
	Py_DECREF(args);
	return t;
}

/* device_of reads back the pair a Device holds: gdl_device_new made it of two ints in range. */
static DLDevice device_of(PyObject *self) {
	return (DLDevice){(DLDeviceType)(int32_t)PyLong_AsLong(PyTuple_GET_ITEM(self, 0)),
	                  (int32_t)PyLong_AsLong(PyTuple_GET_ITEM(self, 1))};
}

static gdl_signature device_signature = GDL_SIGNATURE("Device", 2, 0, 2, 1, "device", "index");

static PyObject *device_new(PyTypeObject *type, PyObject *args, PyObject *kwargs) {
	PyObject *slots[2];
	if (gdl_parse_tuple(&device_signature, args, kwargs, slots) != 0)
		return NULL;
	PyObject *device = slots[0], *index = slots[1];
	if (Py_IS_TYPE(device, gdl_library_types.device) && index == NULL) {
		Py_INCREF(device);
		return device;
	}
	PyObject *spelled = NULL;
	if (index != NULL && index != Py_None) {
		/* Device("cuda", 1), as torch.device("cuda", 1); Device(2, 1), the pair's two ints. */
		if (PyUnicode_Check(device) && PyLong_Check(index)) {
			int overflow;
			long long i = PyLong_AsLongLongAndOverflow(index, &overflow);
			if (i == -1 && PyErr_Occurred())
				return NULL;
			if (overflow != 0 || i < INT32_MIN || i > INT32_MAX) {
				PyObject *shown = gdl_shown(index);
				PyErr_Format(PyExc_ValueError, "device index must be an int32, got %V", shown, "another int");
				Py_XDECREF(shown);
				return NULL;
			}
			spelled = PyUnicode_FromFormat("%U:%lld", device, i);
		} else {
			spelled = PyTuple_Pack(2, device, index);
		}
		if (spelled == NULL)
			return NULL;
		device = spelled;
	}
	DLDevice d;
	int rc = gdl_parse_device(device, PyExc_TypeError, "device", &d);
	Py_XDECREF(spelled);
	return rc != 0 ? NULL : gdl_device_new(d);
}

/* get_type is the DLPack name of the device type, as dlpack.DeviceType.String spells it. */
static PyObject *get_type(PyObject *self, void *c) {
	DLDevice d = device_of(self);
	const char *name = gdl_device_type_name(d.device_type);
	return name != NULL ? PyUnicode_FromString(name) : PyUnicode_FromFormat("device_type(%d)", (int)d.device_type);
}

static PyObject *get_index(PyObject *self, void *c) { return Py_NewRef(PyTuple_GET_ITEM(self, 1)); }

static PyObject *device_str(PyObject *self) {
	PyObject *type = get_type(self, NULL);
	if (type == NULL)
		return NULL;
	PyObject *s = PyUnicode_FromFormat("%U:%S", type, PyTuple_GET_ITEM(self, 1));
	Py_DECREF(type);
	return s;
}

static PyObject *device_repr(PyObject *self) {
	DLDevice d = device_of(self);
	if (gdl_device_type_name(d.device_type) == NULL)
		return PyUnicode_FromFormat("%s((%d, %d))", Py_TYPE(self)->tp_name, (int)d.device_type, (int)d.device_id);
	PyObject *s = device_str(self);
	if (s == NULL)
		return NULL;
	PyObject *r = PyUnicode_FromFormat("%s(%R)", Py_TYPE(self)->tp_name, s);
	Py_DECREF(s);
	return r;
}

static PyObject *device_dlpack_device(PyObject *self, PyObject *unused) {
	return PyTuple_Pack(2, PyTuple_GET_ITEM(self, 0), PyTuple_GET_ITEM(self, 1));
}

static PyMethodDef device_methods[] = {
	{"__dlpack_device__", (PyCFunction)device_dlpack_device, METH_NOARGS,
	 "__dlpack_device__($self, /)\n--\n\nThe (device_type, device_id) pair, as a plain tuple."},
	{NULL},
};

static PyGetSetDef device_getset[] = {
	{"type", (getter)get_type, NULL,
	 "The DLPack name of the device type: 'cpu', 'cuda', 'cuda_host', 'rocm', 'tpu_host', ...; "
	 "'device_type(N)' for a type DLPack does not define.",
	 NULL},
	{"index", (getter)get_index, NULL, "The device id (0 for the CPU).", NULL},
	{NULL},
};

static PyType_Slot device_slots[] = {
	{Py_tp_repr, device_repr},
	{Py_tp_str, device_str},
	{Py_tp_doc, "Device(device, index=None)\n--\n\n"
	            "A device as DLPack names it: the (device_type, device_id) tuple, equal to it and hashed as it, with "
	            "type ('cpu', 'cuda', ...) and index by name. device is such a tuple, a str ('cpu', 'cpu:0', "
	            "'cuda:1'; with index: Device('cuda', 1)), a torch.device or an object with __dlpack_device__."},
	{Py_tp_methods, device_methods},
	{Py_tp_getset, device_getset},
	{Py_tp_new, device_new},
	{0, NULL},
};

/* The Device type's spec, a tuple subclass (gdl_tensor_types_ready gives it its base): immutable, not subclassed. */
PyType_Spec gdl_device_spec = {
	.name = "Device",
	.flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_IMMUTABLETYPE,
	.slots = device_slots,
};
