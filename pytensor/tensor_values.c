/* A Tensor's elements as Python values: tolist, bool, and repr and str as NumPy prints them. */
#include <math.h>
#include <string.h>
#include "tensor_object.h"
#include "_cgo_export.h"

/* ---- tolist and repr ---- */

/*
 * lane_value decodes one value of the one-lane type dt whose bits start bit
 * bits into p: sub-byte values lie little bit-endian, as DLPack packs them.
 */
static PyObject *lane_value(DLDataType dt, const char *p, int bit) {
	if (dt.bits < 8) {
		uint8_t b = (uint8_t)(((const uint8_t *)p)[bit / 8] >> (bit % 8)) & (uint8_t)((1u << dt.bits) - 1);
		double d;
		if (godlpackDecodeMinifloat(dt.code, b, &d) == 0)
			return PyFloat_FromDouble(d);
		return NULL;
	}
	p += bit / 8;
	switch (dt.code) {
	case kDLBool:
		return PyBool_FromLong(*(const uint8_t *)p != 0);
	case kDLInt:
		switch (dt.bits) {
		case 8: return PyLong_FromLong(*(const int8_t *)p);
		case 16: return PyLong_FromLong(*(const int16_t *)p);
		case 32: return PyLong_FromLong(*(const int32_t *)p);
		case 64: return PyLong_FromLongLong(*(const int64_t *)p);
		}
		break;
	case kDLUInt:
		switch (dt.bits) {
		case 8: return PyLong_FromUnsignedLong(*(const uint8_t *)p);
		case 16: return PyLong_FromUnsignedLong(*(const uint16_t *)p);
		case 32: return PyLong_FromUnsignedLong(*(const uint32_t *)p);
		case 64: return PyLong_FromUnsignedLongLong(*(const uint64_t *)p);
		}
		break;
	case kDLFloat:
		switch (dt.bits) {
		case 16: return PyFloat_FromDouble(PyFloat_Unpack2(p, 1));
		case 32: return PyFloat_FromDouble(*(const float *)p);
		case 64: return PyFloat_FromDouble(*(const double *)p);
		}
		break;
	case kDLBfloat: {
		uint32_t bits = (uint32_t)(*(const uint16_t *)p) << 16;
		float f;
		memcpy(&f, &bits, sizeof f);
		return PyFloat_FromDouble(f);
	}
	case kDLBcomplex: {
		uint32_t re = (uint32_t)((const uint16_t *)p)[0] << 16, im = (uint32_t)((const uint16_t *)p)[1] << 16;
		float f[2];
		memcpy(&f[0], &re, sizeof f[0]);
		memcpy(&f[1], &im, sizeof f[1]);
		return PyComplex_FromDoubles(f[0], f[1]);
	}
	case kDLComplex:
		switch (dt.bits) {
		case 32: return PyComplex_FromDoubles(PyFloat_Unpack2(p, 1), PyFloat_Unpack2(p + 2, 1));
		case 64: return PyComplex_FromDoubles(((const float *)p)[0], ((const float *)p)[1]);
		case 128: return PyComplex_FromDoubles(((const double *)p)[0], ((const double *)p)[1]);
		}
		break;
	default: {
		/* float8: decoded in Go, which knows every format. */
		double d;
		if (godlpackDecodeMinifloat(dt.code, *(const uint8_t *)p, &d) == 0)
			return PyFloat_FromDouble(d);
	}
	}
	return NULL;
}

/*
 * reads_back reports whether d, read as an element of the narrow float type
 * dt (float16, float32 or bfloat16), is the element v: 1, 0, or -1 with an
 * exception.
 */
static int reads_back(double d, double v, DLDataType dt) {
	if (dt.code == kDLFloat && dt.bits == 32)
		return (double)(float)d == v;
	if (dt.code == kDLFloat && dt.bits == 16) {
		unsigned char half[2];
		if (PyFloat_Pack2(d, (char *)half, 1) != 0) {
			if (!PyErr_ExceptionMatches(PyExc_OverflowError))
				return -1;
			PyErr_Clear(); /* beyond float16's range: not the element */
			return 0;
		}
		return PyFloat_Unpack2((const char *)half, 1) == v;
	}
	/* bfloat16: float32's upper half, rounded to nearest, ties to even. */
	float f = (float)d;
	uint32_t bits;
	memcpy(&bits, &f, sizeof bits);
	bits = (bits + 0x7fff + ((bits >> 16) & 1)) & 0xffff0000u;
	memcpy(&f, &bits, sizeof f);
	return (double)f == v;
}

/* beside is the double next to v towards +inf (up) or -inf: libm's nextafter, which the extension does not link. */
static double beside(double v, bool up) {
	uint64_t bits;
	memcpy(&bits, &v, sizeof bits);
	if (v == 0)
		bits = up ? 1 : 0x8000000000000001u; /* the smallest subnormal of that sign */
	else if ((v > 0) == up)
		bits++;
	else
		bits--;
	memcpy(&v, &bits, sizeof v);
	return v;
}

/*
 * shortest returns the float whose repr has the fewest digits that read
 * back as v, an element of the narrow float type dt, as NumPy prints
 * elements: float32's sqrt(3) shows as 1.7320508, not as the
 * 1.7320507764816284 of its value. A tie, when v lies halfway between two
 * decimals of a length, is broken towards the one that reads back, as
 * NumPy's printer does (float16's 0.015625 shows as 0.01563).
 */
static PyObject *shortest(double v, DLDataType dt) {
	if (!isfinite(v))
		return PyFloat_FromDouble(v);
	double around[3] = {v, beside(v, true), beside(v, false)};
	for (int digits = 1; digits <= 17; digits++)
		for (int k = 0; k < 3; k++) {
			char *s = PyOS_double_to_string(around[k], 'e', digits - 1, 0, NULL);
			if (s == NULL)
				return NULL;
			double d = PyOS_string_to_double(s, NULL, NULL);
			PyMem_Free(s);
			if (d == -1.0 && PyErr_Occurred())
				return NULL;
			int same = reads_back(d, v, dt);
			if (same < 0)
				return NULL;
			if (same)
				return PyFloat_FromDouble(d);
		}
	return PyFloat_FromDouble(v);
}

/* shown_lane is lane_value as repr shows it: a narrow float's value with its fewest digits (shortest). */
static PyObject *shown_lane(DLDataType dt, const char *p, int bit) {
	PyObject *x = lane_value(dt, p, bit);
	if (x == NULL)
		return NULL;
	DLDataType part = dt;
	if (dt.code == kDLComplex || dt.code == kDLBcomplex)
		part = (DLDataType){dt.code == kDLComplex ? kDLFloat : kDLBfloat, (uint8_t)(dt.bits / 2), 1};
	bool narrow = (part.code == kDLFloat && (part.bits == 16 || part.bits == 32)) ||
	              (part.code == kDLBfloat && part.bits == 16);
	if (!narrow)
		return x;
	PyObject *r = NULL;
	if (PyComplex_Check(x)) {
		PyObject *re = shortest(PyComplex_RealAsDouble(x), part), *im = re == NULL ? NULL : shortest(PyComplex_ImagAsDouble(x), part);
		if (im != NULL)
			r = PyComplex_FromDoubles(PyFloat_AS_DOUBLE(re), PyFloat_AS_DOUBLE(im));
		Py_XDECREF(re);
		Py_XDECREF(im);
	} else {
		r = shortest(PyFloat_AS_DOUBLE(x), part);
	}
	Py_DECREF(x);
	return r;
}

/*
 * element is one element's value, each lane read by lane (lane_value, or
 * shown_lane for repr): a Python scalar, or a list of its lanes for a
 * vector dtype.
 */
static PyObject *element(const TensorObject *t, const char *p, PyObject *(*lane_of)(DLDataType, const char *, int)) {
	DLDataType dt = t->src.view.dtype, lane = {dt.code, dt.bits, 1};
	PyObject *v = NULL;
	if (dt.lanes == 1) {
		v = lane_of(dt, p, 0);
	} else if ((v = PyList_New(dt.lanes)) != NULL) {
		for (int i = 0; i < dt.lanes; i++) {
			PyObject *x = lane_of(lane, p, i * dt.bits);
			if (x == NULL) {
				Py_CLEAR(v);
				break;
			}
			PyList_SET_ITEM(v, i, x);
		}
	}
	if (v != NULL || PyErr_Occurred())
		return v;
	PyObject *name = gdl_dtype_get(dt);
	PyErr_Format(PyExc_BufferError, "tolist() cannot read dtype %S", name);
	Py_XDECREF(name);
	return NULL;
}

/* scalar is one element's value, as tolist returns it. */
static PyObject *scalar(const TensorObject *t, const char *p) { return element(t, p, lane_value); }

/*
 * shown_dim returns the elements of dimension dim from p as nested lists, as
 * tolist does: every element when edge < 0; otherwise, along every
 * dimension longer than 2 * edge, only the first and last edge, with gap (a
 * borrowed object) between them standing for the rest, or, when gap is
 * NULL, the element at index edge, which a printer that summarises drops.
 * What it builds is bounded by what is shown: a printer never reads a whole
 * tensor to print its edges.
 */
static PyObject *shown_dim(const TensorObject *t, int dim, const char *p, int64_t edge, PyObject *gap) {
	if (dim == t->src.view.ndim)
		return scalar(t, p);
	int64_t n = TENSOR_SHAPE(t)[dim];
	bool cut = edge >= 0 && n > 2 * edge;
	int64_t count = cut ? 2 * edge + 1 : n;
	PyObject *list = PyList_New((Py_ssize_t)count);
	if (list == NULL)
		return NULL;
	for (int64_t k = 0; k < count; k++) {
		PyObject *x;
		if (cut && k == edge && gap != NULL) {
			x = Py_NewRef(gap);
		} else {
			int64_t i = cut && k > edge ? n - count + k : k;
			x = shown_dim(t, dim + 1, p + i * TENSOR_BYTE_STRIDES(t)[dim], edge, gap);
		}
		if (x == NULL) {
			Py_DECREF(list);
			return NULL;
		}
		PyList_SET_ITEM(list, (Py_ssize_t)k, x);
	}
	return list;
}

int gdl_tensor_require_readable(const TensorObject *t, const char *what) {
	if (!gdl_is_cpu_accessible(t->src.view.device)) {
		PyErr_Format(PyExc_BufferError, "%s: data on device (%d, %d) cannot be read on the CPU", what,
		             (int)t->src.view.device.device_type, (int)t->src.view.device.device_id);
		return -1;
	}
	if (t->itemsize == 0 && t->size > 0) {
		PyErr_Format(PyExc_BufferError, "%s: packed %d-bit elements are not addressable one by one", what,
		             (int)t->src.view.dtype.bits);
		return -1;
	}
	return 0;
}

PyObject *gdl_tensor_tolist(TensorObject *self, PyObject *unused) {
	GDL_CHECK_FORK(NULL);
	if (gdl_tensor_require_readable(self, "tolist()") != 0)
		return NULL;
	/*
	 * Every element, as NumPy's tolist: an empty tensor's nested empty lists
	 * too, whose first PyList_New raises MemoryError at once when they
	 * cannot all exist (a shape such as (2**40, 0)).
	 */
	return shown_dim(self, 0, self->src.view.data, -1, NULL);
}

/*
 * Like NumPy's printer, repr shows every element of tensors of up to
 * SUMMARY_THRESHOLD elements and summarises larger ones: SUMMARY_EDGE
 * elements at each end of every longer dimension, with "..." between.
 */
#define SUMMARY_THRESHOLD 1000

#define SUMMARY_EDGE 3

/* repr_dim writes the elements of dimension dim from p as nested lists, "[0, 1, 2, ..., 9997, 9998, 9999]". */
static PyObject *repr_dim(const TensorObject *t, int dim, const char *p, bool summarise) {
	if (dim == t->src.view.ndim) {
		PyObject *v = element(t, p, shown_lane), *r = v == NULL ? NULL : PyObject_Repr(v);
		Py_XDECREF(v);
		return r;
	}
	int64_t n = TENSOR_SHAPE(t)[dim], shown = summarise && n > 2 * SUMMARY_EDGE ? 2 * SUMMARY_EDGE : n;
	PyObject *parts = PyList_New(0), *r = NULL;
	if (parts == NULL)
		return NULL;
	for (int64_t k = 0; k < shown; k++) {
		int64_t i = shown < n && k >= SUMMARY_EDGE ? n - shown + k : k;
		if (shown < n && k == SUMMARY_EDGE) {
			PyObject *dots = PyUnicode_FromString("...");
			int rc = dots == NULL ? -1 : PyList_Append(parts, dots);
			Py_XDECREF(dots);
			if (rc != 0)
				goto done;
		}
		PyObject *x = repr_dim(t, dim + 1, p + i * TENSOR_BYTE_STRIDES(t)[dim], summarise);
		int rc = x == NULL ? -1 : PyList_Append(parts, x);
		Py_XDECREF(x);
		if (rc != 0)
			goto done;
	}
	PyObject *sep = PyUnicode_FromString(", "), *body = sep == NULL ? NULL : PyUnicode_Join(sep, parts);
	if (body != NULL)
		r = PyUnicode_FromFormat("[%U]", body);
	Py_XDECREF(sep);
	Py_XDECREF(body);
done:
	Py_DECREF(parts);
	return r;
}

/* device_spelling is how repr names a device: as str(t.device) reads, quoted ('cpu:0', as PyTorch shows 'cuda:0'),
 * or the (device_type, device_id) pair for a type DLPack has no name for. */
static PyObject *device_spelling(DLDevice d) {
	const char *name = gdl_device_type_name(d.device_type);
	if (name == NULL)
		return PyUnicode_FromFormat("(%d, %d)", (int)d.device_type, (int)d.device_id);
	return PyUnicode_FromFormat("'%s:%d'", name, (int)d.device_id);
}

PyObject *gdl_tensor_repr(TensorObject *self) {
	PyObject *shape = gdl_tensor_get_shape(self, NULL), *dtype = gdl_dtype_get(self->src.view.dtype), *data = NULL, *r = NULL;
	PyObject *device = device_spelling(self->src.view.device);
	if (shape == NULL || dtype == NULL || device == NULL)
		goto done;
	const char *ro = gdl_tensor_readonly(self) ? ", readonly=True" : "";
	const char *cp = (self->src.view.flags & GDL_FLAG_IS_COPIED) ? ", is_copied=True" : "";
	/* Reading minifloats enters Go: a forked child shows no data. NumPy shows any empty array as [], whatever its shape. */
	if (self->size == 0)
		data = PyUnicode_FromString("[]");
	else if (!gdl_forked_child() && gdl_tensor_require_readable(self, "repr") == 0)
		data = repr_dim(self, 0, self->src.view.data, self->size > SUMMARY_THRESHOLD);
	if (data == NULL) {
		PyErr_Clear();
		data = PyUnicode_FromFormat("<%lld elements>", (long long)self->size);
		if (data == NULL)
			goto done;
	}
	r = PyUnicode_FromFormat("%s(%U, shape=%R, dtype=%S, device=%U%s%s)", Py_TYPE(self)->tp_name, data, shape, dtype, device,
	                         ro, cp);
done:
	Py_XDECREF(shape);
	Py_XDECREF(dtype);
	Py_XDECREF(device);
	Py_XDECREF(data);
	return r;
}

/*
 * numpy_values_str prints t, whose dtype NumPy lacks, as str() of the NumPy
 * array of its values (float64 or complex128; a vector dtype's lanes make
 * one more dimension), under NumPy's print options: beyond their threshold,
 * only the edges NumPy shows are read (shown_dim), and NumPy prints them as
 * it would summarise the whole.
 */
static PyObject *numpy_values_str(TensorObject *t, PyObject *numpy) {
	PyObject *options = PyObject_CallMethod(numpy, "get_printoptions", NULL), *r = NULL;
	if (options == NULL)
		return NULL;
	PyObject *threshold = PyDict_GetItemString(options, "threshold"), *edge = PyDict_GetItemString(options, "edgeitems");
	long long most = threshold != NULL ? PyLong_AsLongLong(threshold) : -1, edges = edge != NULL ? PyLong_AsLongLong(edge) : -1;
	if (most < 0 || edges < 0) {
		if (!PyErr_Occurred())
			PyErr_SetString(PyExc_RuntimeError, "numpy.get_printoptions() holds no threshold or edgeitems");
		goto done;
	}
	/* What NumPy counts: the lanes of a vector dtype are elements of the array of values. */
	bool summarise = (unsigned long long)t->size * t->src.view.dtype.lanes > (unsigned long long)most;
	PyObject *values = shown_dim(t, 0, t->src.view.data, summarise ? edges : -1, NULL);
	PyObject *array = values == NULL ? NULL : PyObject_CallMethod(numpy, "array", "O", values);
	Py_XDECREF(values);
	if (array == NULL)
		goto done;
	/* A summarised array's edges are all it has: threshold=0 makes NumPy summarise it as it would the whole. */
	if (!summarise) {
		r = PyObject_Str(array);
	} else {
		PyObject *f = PyObject_GetAttrString(numpy, "array2string"), *args = NULL, *kwargs = NULL;
		if (f != NULL && (args = PyTuple_Pack(1, array)) != NULL &&
		    (kwargs = Py_BuildValue("{s:i,s:L}", "threshold", 0, "edgeitems", edges)) != NULL)
			r = PyObject_Call(f, args, kwargs);
		Py_XDECREF(f);
		Py_XDECREF(args);
		Py_XDECREF(kwargs);
	}
	Py_DECREF(array);
done:
	Py_DECREF(options);
	return r;
}

/*
 * numpy_str prints t as str() of the same NumPy array: NumPy's printer over
 * a zero-copy view of t's memory, or numpy_values_str for the dtypes NumPy
 * lacks. It returns 1, with nothing set, when NumPy cannot be imported.
 */
static int numpy_str(TensorObject *self, PyObject **out) {
	PyObject *numpy = PyImport_ImportModule("numpy");
	if (numpy == NULL) {
		if (!PyErr_ExceptionMatches(PyExc_ImportError))
			return -1;
		PyErr_Clear();
		return 1;
	}
	PyObject *view = PyMemoryView_FromObject((PyObject *)self);
	*out = NULL;
	if (view != NULL) {
		PyObject *array = PyObject_CallMethod(numpy, "asarray", "O", view);
		Py_DECREF(view);
		if (array != NULL) {
			*out = PyObject_Str(array);
			Py_DECREF(array);
		}
	} else if (PyErr_ExceptionMatches(PyExc_BufferError)) {
		PyErr_Clear();
		*out = numpy_values_str(self, numpy);
	}
	Py_DECREF(numpy);
	return *out == NULL ? -1 : 0;
}

/*
 * The plain printer, for where NumPy cannot be imported: the function its
 * package named (gdl_tensor_set_plain_printer), imported on first use. One
 * per library, as the Tensor type whose __str__ calls it.
 */
static char plain_module[128], plain_function[64];

static PyObject *plain;

void gdl_tensor_set_plain_printer(const char *module, const char *function) {
	PyOS_snprintf(plain_module, sizeof plain_module, "%s", module);
	PyOS_snprintf(plain_function, sizeof plain_function, "%s", function);
	Py_CLEAR(plain);
}

/*
 * tensor_str prints a Tensor as NumPy prints the same array (numpy_str).
 * Without NumPy, it calls the plain printer its package named, given the
 * elements it shows (shown_dim, with None for "..."), which lays them out as
 * NumPy would (godlpack's does), or prints as its repr where none was named
 * (an extension's Tensor: importing godlpack for it would start one more Go
 * runtime in the process). Data that cannot be read, or a forked child
 * (whose minifloats would need Go to read), gets repr; an empty tensor is
 * "[]", as NumPy prints one of any shape.
 */
#define PLAIN_THRESHOLD 1000 /* NumPy's default print options */

#define PLAIN_EDGE 3

PyObject *gdl_tensor_str(TensorObject *self) {
	if (gdl_forked_child() || !gdl_is_cpu_accessible(self->src.view.device) || (self->itemsize == 0 && self->size > 0))
		return gdl_tensor_repr(self);
	if (self->size == 0)
		return PyUnicode_FromString("[]");
	PyObject *s;
	int rc = numpy_str(self, &s);
	if (rc <= 0)
		return rc == 0 ? s : NULL;
	if (plain_module[0] == 0)
		return gdl_tensor_repr(self);
	if (plain == NULL) {
		PyObject *m = PyImport_ImportModule(plain_module);
		if (m == NULL)
			return NULL;
		plain = PyObject_GetAttrString(m, plain_function);
		Py_DECREF(m);
		if (plain == NULL)
			return NULL;
	}
	bool summarise = (unsigned long long)self->size * self->src.view.dtype.lanes > PLAIN_THRESHOLD;
	PyObject *values = shown_dim(self, 0, self->src.view.data, summarise ? PLAIN_EDGE : -1, Py_None), *r = NULL;
	if (values != NULL)
		r = PyObject_CallFunction(plain, "Oi", values, (int)self->src.view.ndim);
	Py_XDECREF(values);
	return r;
}

int gdl_tensor_bool(TensorObject *self) {
	if (self->size != 1 || self->src.view.dtype.lanes != 1) {
		PyErr_Format(PyExc_ValueError, "the truth value of a tensor of %s is ambiguous: use t.size to ask whether "
		             "it has elements, or the values of t.tolist()",
		             self->size == 0 ? "no elements" : self->size > 1 ? "more than one element" : "vector elements");
		return -1;
	}
	GDL_CHECK_FORK(-1);
	if (gdl_tensor_require_readable(self, "bool()") != 0)
		return -1;
	PyObject *v = scalar(self, self->src.view.data);
	if (v == NULL)
		return -1;
	int truth = PyObject_IsTrue(v);
	Py_DECREF(v);
	return truth;
}
