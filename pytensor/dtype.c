/* The DType type: one immutable object per dtype of the table, compared by value or by name. */
#include "tensor_object.h"
#include "_cgo_export.h"

typedef struct {
	PyObject_HEAD
	DLDataType dt;
	int64_t itemsize;
	PyObject *name;
} DTypeObject;

/*
 * Registered DTypes keyed by their packed (code, bits, lanes), and by name:
 * one registry per library, as the DType type is (tensor_object.h), since
 * every module of the library hands out the same DType objects and Tensors
 * and Go ask for them with no module at hand.
 */
static PyObject *by_key, *by_name;

static PyObject *key_of(DLDataType dt) {
	return PyLong_FromUnsignedLong((unsigned long)dt.code | (unsigned long)dt.bits << 8 | (unsigned long)dt.lanes << 16);
}

static PyObject *dtype_make(DLDataType dt, PyObject *name, int64_t itemsize) {
	DTypeObject *d = PyObject_New(DTypeObject, gdl_library_types.dtype);
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
	if (by_key == NULL && ((by_key = PyDict_New()) == NULL || (by_name = PyDict_New()) == NULL))
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
	GDL_CHECK_FORK(NULL);
	char buf[64];
	godlpackDataTypeName(dt.code, dt.bits, dt.lanes, buf, sizeof buf);
	PyObject *name = PyUnicode_FromString(buf);
	if (name == NULL)
		return NULL;
	/* As stored one element to a byte at least (padded): NumPy's itemsize of ml_dtypes' float4 is 1. */
	d = dtype_make(dt, name, gdl_itemsize(dt, true));
	Py_DECREF(name);
	/* A vector dtype is remembered like the table's; a hostile producer's could be any of 2**32. */
	if (d != NULL && gdl_dtype_valid(dt) && gdl_dtype_register_object(dt, d) != 0)
		Py_CLEAR(d);
	return d;
}

/*
 * NumPy's spellings of the dtypes both have: its type characters and
 * kind-and-size codes (each with a byte order in front, "<f8"), and its
 * names of C types. On Linux x86-64 and arm64, NumPy's "l", "long" and
 * "int" are int64, as test_numpy_habits.py checks against NumPy itself.
 */
static const struct {
	const char *spelling;
	uint8_t code, bits;
} numpy_codes[] = {
	{"?", kDLBool, 8}, {"b", kDLInt, 8}, {"B", kDLUInt, 8}, {"h", kDLInt, 16}, {"H", kDLUInt, 16},
	{"i", kDLInt, 32}, {"I", kDLUInt, 32}, {"l", kDLInt, 64}, {"L", kDLUInt, 64}, {"q", kDLInt, 64},
	{"Q", kDLUInt, 64}, {"p", kDLInt, 64}, {"P", kDLUInt, 64}, {"e", kDLFloat, 16}, {"f", kDLFloat, 32},
	{"d", kDLFloat, 64}, {"F", kDLComplex, 64}, {"D", kDLComplex, 128}, {"b1", kDLBool, 8}, {"i1", kDLInt, 8},
	{"i2", kDLInt, 16}, {"i4", kDLInt, 32}, {"i8", kDLInt, 64}, {"u1", kDLUInt, 8}, {"u2", kDLUInt, 16},
	{"u4", kDLUInt, 32}, {"u8", kDLUInt, 64}, {"f2", kDLFloat, 16}, {"f4", kDLFloat, 32}, {"f8", kDLFloat, 64},
	{"c8", kDLComplex, 64}, {"c16", kDLComplex, 128},
}, numpy_names[] = {
	{"bool", kDLBool, 8}, {"bool_", kDLBool, 8}, {"byte", kDLInt, 8}, {"ubyte", kDLUInt, 8},
	{"short", kDLInt, 16}, {"ushort", kDLUInt, 16}, {"intc", kDLInt, 32}, {"uintc", kDLUInt, 32},
	{"int", kDLInt, 64}, {"int_", kDLInt, 64}, {"uint", kDLUInt, 64}, {"long", kDLInt, 64},
	{"ulong", kDLUInt, 64}, {"longlong", kDLInt, 64}, {"ulonglong", kDLUInt, 64}, {"intp", kDLInt, 64},
	{"uintp", kDLUInt, 64}, {"half", kDLFloat, 16}, {"single", kDLFloat, 32}, {"double", kDLFloat, 64},
	{"float", kDLFloat, 64}, {"csingle", kDLComplex, 64}, {"cdouble", kDLComplex, 128},
	{"complex", kDLComplex, 128},
};

_Static_assert(sizeof(long) == 8 && sizeof(void *) == 8, "NumPy's l, long, int and p are int64 on LP64 only");

/*
 * numpy_spelling reads one of NumPy's spellings above into *dt. A byte
 * order in front must be the machine's ('=', '|' or the native one of '<'
 * and '>'), or any for one-byte types, as NumPy's "|b1" and ">u1".
 */
static bool numpy_spelling(const char *s, DLDataType *dt) {
	for (size_t i = 0; i < sizeof numpy_names / sizeof numpy_names[0]; i++)
		if (strcmp(s, numpy_names[i].spelling) == 0) {
			*dt = (DLDataType){numpy_names[i].code, numpy_names[i].bits, 1};
			return true;
		}
#if PY_LITTLE_ENDIAN
	const char native = '<', foreign = '>';
#else
	const char native = '>', foreign = '<';
#endif
	char order = s[0] == '=' || s[0] == '|' || s[0] == native || s[0] == foreign ? s[0] : 0;
	if (order != 0)
		s++;
	for (size_t i = 0; i < sizeof numpy_codes / sizeof numpy_codes[0]; i++)
		if (strcmp(s, numpy_codes[i].spelling) == 0) {
			if (order == foreign && numpy_codes[i].bits != 8)
				return false; /* DLPack data is in the machine's byte order */
			*dt = (DLDataType){numpy_codes[i].code, numpy_codes[i].bits, 1};
			return true;
		}
	return false;
}

int gdl_dtype_of_format(const char *format, DLDataType *dt) {
	char code[3] = {0};
	if (format[0] == '@' || format[0] == '=' || format[0] == '<' || format[0] == '>' || format[0] == '!') {
#if PY_LITTLE_ENDIAN
		if (format[0] == '>' || format[0] == '!')
#else
		if (format[0] == '<')
#endif
			return -1;
		format++;
	}
	if (format[0] == 'Z' && format[1] != 0 && format[2] == 0)
		code[0] = format[1] == 'f' ? 'F' : format[1] == 'd' ? 'D' : 0; /* a struct format's complex */
	else if (format[0] != 0 && format[1] == 0 && strchr("?bBhHiIlLqQefd", format[0]) != NULL)
		code[0] = format[0];
	return code[0] != 0 && numpy_spelling(code, dt) ? 0 : -1;
}

/*
 * lookup finds the DType a str names (borrowed): a name of the table, also
 * with PyTorch's "torch." in front, one of NumPy's spellings ("f4", "<f8",
 * "double") or a vector name ("float32x4"). NULL with TypeError listing the
 * names otherwise.
 */
static PyObject *lookup(PyObject *name) {
	PyObject *d = PyDict_GetItemWithError(by_name, name);
	if (d != NULL || PyErr_Occurred())
		return d;
	Py_ssize_t n = PyUnicode_GetLength(name);
	if (n > 6 && PyUnicode_Tailmatch(name, gdl_names.torch_prefix, 0, 6, -1) == 1) {
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
	bool found = strlen(utf8) == (size_t)len && numpy_spelling(utf8, &dt);
	if (!found) {
		GDL_CHECK_FORK(NULL);
		found = godlpackParseDataType((char *)utf8, (size_t)len, &dt) == 0;
	}
	if (found) {
		PyObject *v = gdl_dtype_get(dt); /* registered: the dict holds it */
		Py_XDECREF(v);
		return v;
	}
	PyObject *sep = PyUnicode_FromString(", "), *known = sep == NULL ? NULL : PyUnicode_Join(sep, by_name);
	PyObject *shown = known == NULL ? NULL : gdl_shown(name);
	if (known != NULL)
		PyErr_Format(PyExc_TypeError, "data type %V not understood (known: %U)", shown, "(a str)", known);
	Py_XDECREF(shown);
	Py_XDECREF(sep);
	Py_XDECREF(known);
	return NULL;
}

/* dlpack_data_type reads what o.__dlpack_data_type__() returns: (code, bits, lanes) of a valid dtype. */
static int dlpack_data_type(PyObject *o, PyObject *method, DLDataType *dt) {
	PyObject *r = PyObject_CallNoArgs(method);
	if (r == NULL)
		return -1;
	long v[3] = {-1, -1, -1};
	bool ok = PyTuple_Check(r) && PyTuple_GET_SIZE(r) == 3;
	for (int i = 0; ok && i < 3; i++) {
		PyObject *x = PyTuple_GET_ITEM(r, i);
		ok = PyLong_Check(x) && !PyBool_Check(x);
		if (ok && (v[i] = PyLong_AsLong(x)) == -1 && PyErr_Occurred())
			PyErr_Clear(); /* out of range: refused below */
	}
	DLDataType d = {(uint8_t)v[0], (uint8_t)v[1], (uint16_t)v[2]};
	ok = ok && v[0] >= 0 && v[0] <= UINT8_MAX && v[1] >= 0 && v[1] <= UINT8_MAX && v[2] >= 0 && v[2] <= UINT16_MAX &&
	     gdl_dtype_valid(d);
	if (!ok) {
		PyObject *shown = gdl_shown(r);
		PyErr_Format(PyExc_TypeError, "%.200s.__dlpack_data_type__() returned %V, not the (code, bits, lanes) of "
		             "a DLPack data type godlpack knows", Py_TYPE(o)->tp_name, shown, "another value");
		Py_XDECREF(shown);
		gdl_drop_keeping_error(r);
		return -1;
	}
	Py_DECREF(r);
	*dt = d;
	return 0;
}

/* numpy_dtype reads a numpy.dtype by its type string ("<f4"), or by its name for ml_dtypes' ("bfloat16"). */
static int numpy_dtype(PyObject *o, DLDataType *dt) {
	PyObject *str = PyObject_GetAttrString(o, "str"), *d = NULL;
	const char *s = str != NULL && PyUnicode_Check(str) ? PyUnicode_AsUTF8(str) : NULL;
	if (s != NULL && numpy_spelling(s, dt)) {
		Py_DECREF(str);
		return 0;
	}
	Py_XDECREF(str);
	PyErr_Clear();
	PyObject *name = PyObject_GetAttrString(o, "name");
	if (name != NULL && PyUnicode_Check(name))
		d = lookup(name);
	Py_XDECREF(name);
	if (d == NULL)
		return -1;
	*dt = ((DTypeObject *)d)->dt;
	return 0;
}

/* from_name finds the DType a str names and reads it into *dt; -1 with TypeError otherwise. */
static int from_name(PyObject *name, DLDataType *dt) {
	PyObject *d = name != NULL && PyUnicode_Check(name) ? lookup(name) : NULL;
	if (d == NULL)
		return -1;
	*dt = ((DTypeObject *)d)->dt;
	return 0;
}

/*
 * dtype_of_object reads the dtype objects of other libraries: Python's
 * bool, int, float and complex (NumPy's bool, int64, float64 and
 * complex128), an object with __dlpack_data_type__() (tvm-ffi's, Paddle's),
 * a torch.dtype, and NumPy's dtypes and scalar types (np.float32) when NumPy
 * is imported. 1, with no exception, for any other object.
 */
static int dtype_of_object(PyObject *o, DLDataType *dt) {
	if (o == (PyObject *)&PyBool_Type || o == (PyObject *)&PyLong_Type || o == (PyObject *)&PyFloat_Type ||
	    o == (PyObject *)&PyComplex_Type) {
		*dt = o == (PyObject *)&PyBool_Type   ? (DLDataType){kDLBool, 8, 1}
		      : o == (PyObject *)&PyLong_Type ? (DLDataType){kDLInt, 64, 1}
		      : o == (PyObject *)&PyFloat_Type ? (DLDataType){kDLFloat, 64, 1}
		                                       : (DLDataType){kDLComplex, 128, 1};
		return 0;
	}
	if (!PyType_Check(o)) {
		/* A class's __dlpack_data_type__ is its instances' method, which needs an instance. */
		PyObject *method = PyObject_GetAttrString(o, "__dlpack_data_type__");
		if (method != NULL) {
			int rc = dlpack_data_type(o, method, dt);
			Py_DECREF(method);
			return rc;
		}
		if (!PyErr_ExceptionMatches(PyExc_AttributeError))
			return -1;
		PyErr_Clear();
	}
	if (strcmp(Py_TYPE(o)->tp_name, "torch.dtype") == 0) {
		/* "torch.float32"; PyTorch's vectors are "float4_e2m1fn_x2", whose lanes TVM's spelling joins: "…fnx2". */
		PyObject *name = PyObject_Str(o), *lanes = PyUnicode_FromString("_x"), *joined = PyUnicode_FromString("x");
		PyObject *bare = name != NULL ? PyUnicode_Substring(name, 6, PY_SSIZE_T_MAX) : NULL;
		PyObject *vector = bare != NULL && lanes != NULL && joined != NULL ? PyUnicode_Replace(bare, lanes, joined, -1)
		                                                                  : NULL;
		Py_XDECREF(bare);
		int rc = vector == NULL ? -1 : from_name(vector, dt);
		Py_XDECREF(name);
		Py_XDECREF(lanes);
		Py_XDECREF(joined);
		Py_XDECREF(vector);
		return rc;
	}
	PyObject *numpy = PyImport_GetModule(gdl_names.numpy); /* only a NumPy already imported has dtypes to pass */
	if (numpy == NULL)
		return PyErr_Occurred() ? -1 : 1;
	PyObject *np_dtype = PyObject_GetAttrString(numpy, "dtype");
	PyObject *generic = np_dtype == NULL ? NULL : PyObject_GetAttrString(numpy, "generic");
	Py_DECREF(numpy);
	int rc = 1;
	if (generic == NULL || !PyType_Check(np_dtype) || !PyType_Check(generic)) {
		PyErr_Clear(); /* a module named numpy that has no dtypes */
	} else if (PyObject_TypeCheck(o, (PyTypeObject *)np_dtype)) {
		rc = numpy_dtype(o, dt);
	} else if (PyType_Check(o) && PyType_IsSubtype((PyTypeObject *)o, (PyTypeObject *)generic)) {
		PyObject *d = PyObject_CallOneArg(np_dtype, o);
		rc = d == NULL ? -1 : numpy_dtype(d, dt);
		Py_XDECREF(d);
	}
	Py_XDECREF(np_dtype);
	Py_XDECREF(generic);
	return rc;
}

int gdl_dtype_of(PyObject *o, DLDataType *dt) {
	if (Py_IS_TYPE(o, gdl_library_types.dtype)) {
		*dt = ((DTypeObject *)o)->dt;
		return 0;
	}
	if (PyUnicode_Check(o)) {
		PyObject *d = lookup(o);
		if (d == NULL)
			return -1;
		*dt = ((DTypeObject *)d)->dt;
		return 0;
	}
	int rc = dtype_of_object(o, dt);
	if (rc > 0) {
		PyErr_Format(PyExc_TypeError, "dtype must be a %s, a str such as 'float32' or 'f4', a NumPy or PyTorch "
		             "dtype or an object with __dlpack_data_type__(), got %.200s", gdl_library_types.dtype->tp_name, Py_TYPE(o)->tp_name);
		rc = -1;
	}
	return rc;
}

static gdl_signature dtype_signature = GDL_SIGNATURE("DType", 1, 0, 1, 1, "name");

static PyObject *dtype_new(PyTypeObject *type, PyObject *args, PyObject *kwargs) {
	PyObject *name;
	if (gdl_parse_tuple(&dtype_signature, args, kwargs, &name) != 0)
		return NULL;
	if (Py_IS_TYPE(name, gdl_library_types.dtype)) {
		Py_INCREF(name);
		return name;
	}
	DLDataType dt;
	return gdl_dtype_of(name, &dt) != 0 ? NULL : gdl_dtype_get(dt);
}

static void dtype_dealloc(DTypeObject *self) {
	PyTypeObject *type = Py_TYPE(self);
	Py_XDECREF(self->name);
	PyObject_Free(self);
	Py_DECREF(type);
}

static PyObject *dtype_str(DTypeObject *self) {
	Py_INCREF(self->name);
	return self->name;
}

static PyObject *dtype_repr(DTypeObject *self) { return PyUnicode_FromFormat("%s(%R)", Py_TYPE(self)->tp_name, self->name); }

static Py_hash_t dtype_hash(DTypeObject *self) { return PyObject_Hash(self->name); }

static PyObject *dtype_richcompare(DTypeObject *self, PyObject *other, int op) {
	if (op != Py_EQ && op != Py_NE)
		Py_RETURN_NOTIMPLEMENTED;
	int eq;
	if (Py_IS_TYPE(other, gdl_library_types.dtype)) {
		DLDataType a = self->dt, b = ((DTypeObject *)other)->dt;
		eq = a.code == b.code && a.bits == b.bits && a.lanes == b.lanes;
	} else if (PyUnicode_Check(other)) {
		eq = PyUnicode_Compare(self->name, other) == 0;
		if (eq == 0 && PyErr_Occurred())
			return NULL;
	} else {
		/* NumPy's and PyTorch's dtypes, and any other dtype object, by the DLPack type they stand for. */
		DLDataType a = self->dt, b;
		int rc = dtype_of_object(other, &b);
		if (rc < 0 && PyErr_ExceptionMatches(PyExc_TypeError)) {
			PyErr_Clear();
			rc = 1;
		}
		if (rc < 0)
			return NULL;
		if (rc > 0)
			Py_RETURN_NOTIMPLEMENTED;
		eq = a.code == b.code && a.bits == b.bits && a.lanes == b.lanes;
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
	return Py_BuildValue("(O(O))", (PyObject *)Py_TYPE(self), self->name);
}

static PyObject *dtype_dlpack_data_type(DTypeObject *self, PyObject *unused) {
	return Py_BuildValue("(iii)", (int)self->dt.code, (int)self->dt.bits, (int)self->dt.lanes);
}

static PyMethodDef dtype_methods[] = {
	{"__reduce__", (PyCFunction)dtype_reduce, METH_NOARGS, NULL},
	{"__dlpack_data_type__", (PyCFunction)dtype_dlpack_data_type, METH_NOARGS,
	 "__dlpack_data_type__($self, /)\n--\n\nThe DLPack data type as (code, bits, lanes)."},
	{NULL},
};

static PyType_Slot dtype_slots[] = {
	{Py_tp_dealloc, dtype_dealloc},
	{Py_tp_repr, dtype_repr},
	{Py_tp_str, dtype_str},
	{Py_tp_hash, dtype_hash},
	{Py_tp_richcompare, dtype_richcompare},
	{Py_tp_doc, "DType(name)\n--\n\nAn element type of the DLPack table: code, bits and lanes. name is a name "
	            "('float32', 'torch.float32', NumPy's 'f4', '<f8', 'double'), a NumPy dtype or scalar type, a PyTorch "
	            "dtype, Python's bool, int, float or complex, or an object with __dlpack_data_type__(). Equal to its "
	            "name as a str, and to the NumPy and PyTorch dtypes of the same DLPack type; hashed as its name."},
	{Py_tp_methods, dtype_methods},
	{Py_tp_getset, dtype_getset},
	{Py_tp_new, dtype_new},
	{0, NULL},
};

/* The DType type's spec: named after its module by gdl_tensor_types_ready; immutable, not subclassed. */
PyType_Spec gdl_dtype_spec = {
	.name = "DType",
	.basicsize = sizeof(DTypeObject),
	.flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_IMMUTABLETYPE,
	.slots = dtype_slots,
};
