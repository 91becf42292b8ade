/* The DType type: one immutable object per dtype of the table, compared by value or by name. */
#include "ext.h"
#include "_cgo_export.h"

typedef struct {
	PyObject_HEAD
	DLDataType dt;
	int64_t itemsize;
	PyObject *name;
} DTypeObject;

/* Registered DTypes keyed by their packed (code, bits, lanes), and by name. */
static PyObject *by_key, *by_name, *torch_prefix;

static PyObject *key_of(DLDataType dt) {
	return PyLong_FromUnsignedLong((unsigned long)dt.code | (unsigned long)dt.bits << 8 | (unsigned long)dt.lanes << 16);
}

static PyObject *dtype_make(DLDataType dt, PyObject *name, int64_t itemsize) {
	DTypeObject *d = PyObject_New(DTypeObject, &gdl_DTypeType);
	if (d == NULL)
		return NULL;
	d->dt = dt;
	d->itemsize = itemsize;
	Py_INCREF(name);
	d->name = name;
	return (PyObject *)d;
}

/* gdl_dtype_register_object files d under its dtype and its name. */
static int gdl_dtype_register_object(DLDataType dt, PyObject *d) {
	PyObject *key = key_of(dt);
	int rc = key == NULL ? -1 : PyDict_SetItem(by_key, key, d);
	Py_XDECREF(key);
	return rc != 0 ? -1 : PyDict_SetItem(by_name, ((DTypeObject *)d)->name, d);
}

int gdl_dtype_register(uint8_t code, uint8_t bits, uint16_t lanes, const char *name, int64_t itemsize) {
	if (by_key == NULL && ((by_key = PyDict_New()) == NULL || (by_name = PyDict_New()) == NULL ||
	                       (torch_prefix = PyUnicode_InternFromString("torch.")) == NULL))
		return -1;
	DLDataType dt = {code, bits, lanes};
	PyObject *key = key_of(dt), *pyname = PyUnicode_InternFromString(name), *d = NULL;
	int rc = -1;
	if (key != NULL && pyname != NULL && (d = dtype_make(dt, pyname, itemsize)) != NULL &&
	    PyDict_SetItem(by_key, key, d) == 0 && PyDict_SetItem(by_name, pyname, d) == 0)
		rc = 0;
	Py_XDECREF(key);
	Py_XDECREF(pyname);
	Py_XDECREF(d);
	return rc;
}

PyObject *gdl_dtype_get(DLDataType dt) {
	PyObject *key = key_of(dt);
	if (key == NULL)
		return NULL;
	PyObject *d = PyDict_GetItemWithError(by_key, key);
	Py_DECREF(key);
	if (d != NULL) {
		Py_INCREF(d);
		return d;
	}
	if (PyErr_Occurred())
		return NULL;
	/* Outside the table: a vector dtype ("float32x4"), or a pass-through tensor's that names its fields. */
	char buf[64];
	goDataTypeName(dt.code, dt.bits, dt.lanes, buf, sizeof buf);
	PyObject *name = PyUnicode_FromString(buf);
	if (name == NULL)
		return NULL;
	int64_t width = (int64_t)dt.bits * dt.lanes;
	d = dtype_make(dt, name, width < 8 ? 1 : width / 8);
	Py_DECREF(name);
	/* A vector dtype is remembered like the table's; a hostile producer's could be any of 2**32. */
	if (d != NULL && gdl_dtype_valid(dt) && gdl_dtype_register_object(dt, d) != 0)
		Py_CLEAR(d);
	return d;
}

/*
 * lookup finds the DType a str names (borrowed): a name of the table, also
 * with PyTorch's "torch." in front. NULL with TypeError listing the names
 * otherwise.
 */
static PyObject *lookup(PyObject *name) {
	PyObject *d = PyDict_GetItemWithError(by_name, name);
	if (d != NULL || PyErr_Occurred())
		return d;
	Py_ssize_t n = PyUnicode_GetLength(name);
	if (n > 6 && PyUnicode_Tailmatch(name, torch_prefix, 0, 6, -1) == 1) {
		PyObject *rest = PyUnicode_Substring(name, 6, n);
		if (rest == NULL)
			return NULL;
		d = PyDict_GetItemWithError(by_name, rest);
		Py_DECREF(rest);
		if (d != NULL || PyErr_Occurred())
			return d;
	}
	/* A name that is no text (a lone surrogate) is a UnicodeEncodeError, as NumPy's. */
	if (PyUnicode_AsUTF8(name) == NULL)
		return NULL;
	/* A vector of a table dtype ("float32x4", TVM's spelling): Go parses it. */
	Py_ssize_t len;
	const char *utf8 = PyUnicode_AsUTF8AndSize(name, &len);
	DLDataType dt;
	if (goParseDataType((char *)utf8, (size_t)len, &dt) == 0) {
		PyObject *v = gdl_dtype_get(dt); /* registered: the dict holds it */
		Py_XDECREF(v);
		return v;
	}
	PyObject *sep = PyUnicode_FromString(", "), *known = sep == NULL ? NULL : PyUnicode_Join(sep, by_name);
	if (known != NULL)
		PyErr_Format(PyExc_TypeError, "data type %R not understood (known: %U)", name, known);
	Py_XDECREF(sep);
	Py_XDECREF(known);
	return NULL;
}

int gdl_dtype_of(PyObject *o, DLDataType *dt) {
	if (Py_IS_TYPE(o, &gdl_DTypeType)) {
		*dt = ((DTypeObject *)o)->dt;
		return 0;
	}
	if (!PyUnicode_Check(o)) {
		PyErr_Format(PyExc_TypeError, "dtype must be a godlpack.DType or a str such as 'float32', got %.200s",
		             Py_TYPE(o)->tp_name);
		return -1;
	}
	PyObject *d = lookup(o);
	if (d == NULL)
		return -1;
	*dt = ((DTypeObject *)d)->dt;
	return 0;
}

static PyObject *dtype_new(PyTypeObject *type, PyObject *args, PyObject *kwargs) {
	PyObject *name;
	static char *kwlist[] = {"name", NULL};
	if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O:DType", kwlist, &name))
		return NULL;
	if (Py_IS_TYPE(name, &gdl_DTypeType)) {
		Py_INCREF(name);
		return name;
	}
	if (!PyUnicode_Check(name))
		return PyErr_Format(PyExc_TypeError, "data type %R not understood", name);
	PyObject *d = lookup(name);
	Py_XINCREF(d);
	return d;
}

static void dtype_dealloc(DTypeObject *self) {
	Py_XDECREF(self->name);
	PyObject_Free(self);
}

static PyObject *dtype_str(DTypeObject *self) {
	Py_INCREF(self->name);
	return self->name;
}

static PyObject *dtype_repr(DTypeObject *self) { return PyUnicode_FromFormat("godlpack.DType(%R)", self->name); }

static Py_hash_t dtype_hash(DTypeObject *self) { return PyObject_Hash(self->name); }

static PyObject *dtype_richcompare(DTypeObject *self, PyObject *other, int op) {
	if (op != Py_EQ && op != Py_NE)
		Py_RETURN_NOTIMPLEMENTED;
	int eq;
	if (Py_IS_TYPE(other, &gdl_DTypeType)) {
		DLDataType a = self->dt, b = ((DTypeObject *)other)->dt;
		eq = a.code == b.code && a.bits == b.bits && a.lanes == b.lanes;
	} else if (PyUnicode_Check(other)) {
		eq = PyUnicode_Compare(self->name, other) == 0;
		if (eq == 0 && PyErr_Occurred())
			return NULL;
	} else {
		Py_RETURN_NOTIMPLEMENTED;
	}
	return PyBool_FromLong(op == Py_EQ ? eq : !eq);
}

static PyObject *get_code(DTypeObject *d, void *c) { return PyLong_FromLong(d->dt.code); }
static PyObject *get_bits(DTypeObject *d, void *c) { return PyLong_FromLong(d->dt.bits); }
static PyObject *get_lanes(DTypeObject *d, void *c) { return PyLong_FromLong(d->dt.lanes); }
static PyObject *get_itemsize(DTypeObject *d, void *c) { return PyLong_FromLongLong(d->itemsize); }
static PyObject *get_name(DTypeObject *d, void *c) { return dtype_str(d); }

static PyGetSetDef dtype_getset[] = {
	{"code", (getter)get_code, NULL, "The DLPack type code (DLDataTypeCode).", NULL},
	{"bits", (getter)get_bits, NULL, "Bits per lane.", NULL},
	{"lanes", (getter)get_lanes, NULL, "Lanes per element (1 for scalars).", NULL},
	{"itemsize", (getter)get_itemsize, NULL, "Bytes per element (1 for sub-byte dtypes).", NULL},
	{"name", (getter)get_name, NULL, "The dtype's name, such as 'float32'.", NULL},
	{NULL},
};

static PyObject *dtype_reduce(DTypeObject *self, PyObject *unused) {
	return Py_BuildValue("(O(O))", (PyObject *)&gdl_DTypeType, self->name);
}

static PyMethodDef dtype_methods[] = {
	{"__reduce__", (PyCFunction)dtype_reduce, METH_NOARGS, NULL},
	{NULL},
};

PyTypeObject gdl_DTypeType = {
	PyVarObject_HEAD_INIT(NULL, 0)
	.tp_name = "godlpack.DType",
	.tp_basicsize = sizeof(DTypeObject),
	.tp_dealloc = (destructor)dtype_dealloc,
	.tp_repr = (reprfunc)dtype_repr,
	.tp_str = (reprfunc)dtype_str,
	.tp_hash = (hashfunc)dtype_hash,
	.tp_richcompare = (richcmpfunc)dtype_richcompare,
	.tp_flags = Py_TPFLAGS_DEFAULT,
	.tp_doc = "DType(name)\n--\n\nAn element type of the DLPack table: code, bits and lanes. "
	          "Equal to its name as a str.",
	.tp_methods = dtype_methods,
	.tp_getset = dtype_getset,
	.tp_new = dtype_new,
};
