/*
 * Bound Go functions: argument parsing and conversion, the one crossing into
 * Go, and the results, all in C. Every function here runs with the GIL held
 * except godlpackBindCall when the function releases it.
 */
#include <stdlib.h>
#include <string.h>
#include "module.h"
#include "pyprivate.h"
#include "runtime.h"
#include "_cgo_export.h"

char *gdl_strdup(const char *s) {
	size_t n = strlen(s) + 1;
	char *d = malloc(n);
	if (d != NULL)
		memcpy(d, s, n);
	return d;
}

/*
 * Module and function definitions must outlive the module, which CPython
 * never unloads: they are allocated once and kept. m_size is 0, not -1: for
 * a definition of -1 CPython 3.12+ gives a subinterpreter a copy of the module
 * the main interpreter made (running PyInit there, where it cannot tell),
 * whereas for 0 it calls PyInit in the importing interpreter, which refuses a
 * subinterpreter (gdl_join_process).
 */
PyObject *gdl_module_new(const char *name, const char *doc) {
	PyModuleDef *def = calloc(1, sizeof *def);
	char *n = gdl_strdup(name), *d = gdl_strdup(doc);
	if (def == NULL || n == NULL || d == NULL) {
		free(def), free(n), free(d);
		return PyErr_NoMemory();
	}
	PyModuleDef base = {PyModuleDef_HEAD_INIT, .m_name = n, .m_doc = d, .m_size = 0};
	memcpy(def, &base, sizeof base);
	PyObject *m = PyModule_Create(def);
	if (m == NULL)
		free(def), free(n), free(d);
	return m;
}

gdl_bound *gdl_bound_new(const char *name, const char *qualname, const char *doc) {
	gdl_bound *b = calloc(1, sizeof *b);
	if (b == NULL || (b->name = gdl_strdup(name)) == NULL || (b->qualname = gdl_strdup(qualname)) == NULL ||
	    (b->doc = gdl_strdup(doc)) == NULL) {
		gdl_bound_free(b);
		PyErr_NoMemory();
		return NULL;
	}
	return b;
}

void gdl_bound_free(gdl_bound *b) {
	if (b == NULL)
		return;
	for (int i = 0; i < b->nparams; i++) {
		gdl_param *p = &b->params[i];
		free(p->name);
		free(p->type_name);
		free(p->spec.dtypes);
		free(p->spec.shape);
		if (p->kind == GDL_KIND_STRING || p->kind == GDL_KIND_BYTES)
			free((void *)p->dflt.v.s.p);
	}
	for (int i = 0; i < GDL_SIGNATURE_MAX; i++)
		Py_XDECREF(b->sig.interned[i]);
	free(b->name);
	free(b->qualname);
	free(b->class_name);
	free(b->doc);
	free(b);
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

/* The names of the number kinds, for OverflowError. */
static const char *const kind_names[] = {
	[GDL_KIND_INT8] = "int8",     [GDL_KIND_INT16] = "int16",   [GDL_KIND_INT32] = "int32",
	[GDL_KIND_INT64] = "int64",   [GDL_KIND_UINT8] = "uint8",   [GDL_KIND_UINT16] = "uint16",
	[GDL_KIND_UINT32] = "uint32", [GDL_KIND_UINT64] = "uint64",
};

/* ---- Arguments ---- */

/* Interned once and kept, one per library: the argument conversions of every module's functions use them. */
static PyObject *consumer_prefix, *empty_str;

/* type_error raises TypeError naming the function, the parameter and what it takes. Returns -1. */
static int type_error(const gdl_bound *b, const gdl_param *p, PyObject *o) {
	PyErr_Format(PyExc_TypeError, "%s(): argument '%s' must be %s, not %.200s", b->qualname, p->name, p->type_name,
	             Py_TYPE(o)->tp_name);
	return -1;
}

/* retype replaces a pending TypeError (a converter's own words) with type_error's. */
static int retype(const gdl_bound *b, const gdl_param *p, PyObject *o) {
	if (PyErr_ExceptionMatches(PyExc_TypeError)) {
		PyErr_Clear();
		return type_error(b, p, o);
	}
	return -1;
}

static int is_numpy_bool(PyObject *o) {
	const char *n = Py_TYPE(o)->tp_name;
	return strcmp(n, "numpy.bool") == 0 || strcmp(n, "numpy.bool_") == 0;
}

/* convert_int reads an integer (anything with __index__, bool too, as Python's int) into the width of p. */
static int convert_int(const gdl_bound *b, const gdl_param *p, PyObject *o, gdl_value *v) {
	PyObject *n;
	int overflow = 0;
	long long i;
	if (PyLong_CheckExact(o)) { /* nearly every argument: its own index, and neither a float nor NumPy's bool */
		n = Py_NewRef(o);
		if (gdl_long_compact(o, &i))
			goto read;
	} else {
		if (PyFloat_Check(o) || PyComplex_Check(o) || is_numpy_bool(o))
			return type_error(b, p, o);
		if ((n = PyNumber_Index(o)) == NULL)
			return retype(b, p, o);
	}
	i = PyLong_AsLongLongAndOverflow(n, &overflow);
	if (i == -1 && PyErr_Occurred()) {
		Py_DECREF(n);
		return -1;
	}
read:;
	unsigned long long u = 0;
	bool big = false; /* beyond int64, within uint64 */
	if (overflow > 0 && p->kind == GDL_KIND_UINT64) {
		u = PyLong_AsUnsignedLongLong(n);
		if (u == (unsigned long long)-1 && PyErr_Occurred())
			PyErr_Clear();
		else
			overflow = 0, big = true;
	}
	bool fits = overflow == 0;
	if (fits) {
		switch (p->kind) {
		case GDL_KIND_INT8: fits = i >= INT8_MIN && i <= INT8_MAX; v->v.i8 = (int8_t)i; break;
		case GDL_KIND_INT16: fits = i >= INT16_MIN && i <= INT16_MAX; v->v.i16 = (int16_t)i; break;
		case GDL_KIND_INT32: fits = i >= INT32_MIN && i <= INT32_MAX; v->v.i32 = (int32_t)i; break;
		case GDL_KIND_INT64: v->v.i64 = i; break;
		case GDL_KIND_UINT8: fits = i >= 0 && i <= UINT8_MAX; v->v.u8 = (uint8_t)i; break;
		case GDL_KIND_UINT16: fits = i >= 0 && i <= UINT16_MAX; v->v.u16 = (uint16_t)i; break;
		case GDL_KIND_UINT32: fits = i >= 0 && i <= (long long)UINT32_MAX; v->v.u32 = (uint32_t)i; break;
		case GDL_KIND_UINT64:
			fits = big || i >= 0;
			v->v.u64 = big ? u : (uint64_t)i;
			break;
		}
	}
	if (!fits) {
		/* The exact int index made, shown by gdl_shown: a huge int's digits, or a subclass's __repr__, could raise. */
		PyObject *shown = gdl_shown(n);
		PyErr_Format(PyExc_OverflowError, "%s(): argument '%s' does not fit in %s: %V", b->qualname, p->name,
		             kind_names[p->kind], shown, "an int");
		Py_XDECREF(shown);
	}
	Py_DECREF(n);
	return fits ? 0 : -1;
}

/*
 * convert_member reads an argument of a parameter whose Go type is an enum's
 * as that IntEnum reads it: a member, or an int one of its members has
 * (ValueError otherwise, naming the function and the argument). Go gets the
 * member's own value, never what the argument's __index__ says: an object
 * that equals a member's value by __eq__ and __hash__ is that member.
 */
static int convert_member(const gdl_bound *b, const gdl_param *p, PyObject *o, gdl_value *v) {
	if (!PyObject_TypeCheck(o, (PyTypeObject *)p->enum_type)) {
		if (!PyLong_Check(o) && !PyIndex_Check(o))
			return type_error(b, p, o);
		PyObject *member = PyObject_CallOneArg(p->enum_type, o);
		if (member == NULL) {
			if (PyErr_ExceptionMatches(PyExc_ValueError)) {
				PyErr_Clear();
				PyObject *shown = gdl_shown(o);
				PyErr_Format(PyExc_ValueError, "%s(): argument '%s' must be a %s, got %V", b->qualname, p->name,
				             ((PyTypeObject *)p->enum_type)->tp_name, shown, "another int");
				Py_XDECREF(shown);
			}
			return -1;
		}
		/* An exact int is the value its member has; anything else is read as the member. */
		int rc = convert_int(b, p, PyLong_CheckExact(o) ? o : member, v);
		Py_DECREF(member);
		return rc;
	}
	return convert_int(b, p, o, v);
}

/* convert_float reads a real number as NumPy does: floats, ints (OverflowError beyond float64), __float__, __index__. */
static int convert_float(const gdl_bound *b, const gdl_param *p, PyObject *o, gdl_value *v) {
	double d;
	if (PyFloat_CheckExact(o)) {
		d = PyFloat_AS_DOUBLE(o);
	} else {
		if (PyComplex_Check(o) || PyUnicode_Check(o) || PyBytes_Check(o))
			return type_error(b, p, o);
		d = PyFloat_AsDouble(o);
		if (d == -1.0 && PyErr_Occurred())
			return retype(b, p, o);
	}
	if (p->kind == GDL_KIND_FLOAT32)
		v->v.f32 = (float)d;
	else
		v->v.f64 = d;
	return 0;
}

static int convert_complex(const gdl_bound *b, const gdl_param *p, PyObject *o, gdl_value *v) {
	if (PyUnicode_Check(o) || PyBytes_Check(o))
		return type_error(b, p, o);
	Py_complex c = PyComplex_AsCComplex(o);
	if (c.real == -1.0 && PyErr_Occurred())
		return retype(b, p, o);
	if (p->kind == GDL_KIND_COMPLEX64) {
		v->v.c64[0] = (float)c.real;
		v->v.c64[1] = (float)c.imag;
	} else {
		v->v.c128[0] = c.real;
		v->v.c128[1] = c.imag;
	}
	return 0;
}

/*
 * convert_number reads a scalar.Scalar argument as godlpack's creation
 * functions read a fill value: any number, NumPy's scalars among them, the
 * Python type choosing the kind.
 */
static int convert_number(const gdl_bound *b, const gdl_param *p, PyObject *o, gdl_value *v) {
	if (gdl_parse_scalar(o, p->name, &v->v.num) != 0)
		return retype(b, p, o);
	return 0;
}

/*
 * name_argument puts the function and the argument before the message of a
 * BufferError the import raised (one that starts with the function's name or
 * "cannot import"), without the Go package names or the function's own name
 * that message carries. Any other exception, a producer's own, stays as it
 * was raised.
 */
static void name_argument(const gdl_bound *b, const gdl_param *p) {
	if (!PyErr_ExceptionMatches(PyExc_BufferError))
		return;
	PyObject *type, *value, *tb;
	PyErr_Fetch(&type, &value, &tb);
	PyErr_NormalizeException(&type, &value, &tb);
	PyObject *msg = value != NULL && Py_IS_TYPE(value, (PyTypeObject *)PyExc_BufferError) ? PyObject_Str(value) : NULL;
	PyObject *clean = msg != NULL ? PyUnicode_Replace(msg, consumer_prefix, empty_str, -1) : NULL;
	PyObject *own = PyUnicode_FromFormat("%s() ", b->qualname);
	int ours = 0;
	if (clean != NULL && own != NULL && PyUnicode_Tailmatch(clean, own, 0, PY_SSIZE_T_MAX, -1) == 1) {
		Py_SETREF(clean, PyUnicode_Substring(clean, PyUnicode_GET_LENGTH(own), PY_SSIZE_T_MAX));
		ours = clean != NULL;
	} else if (clean != NULL && PyUnicode_CompareWithASCIIString(clean, "cannot import") != 0) {
		PyObject *start = PyUnicode_Substring(clean, 0, 13);
		ours = start != NULL && PyUnicode_CompareWithASCIIString(start, "cannot import") == 0;
		Py_XDECREF(start);
	}
	Py_XDECREF(own);
	if (ours) {
		PyErr_Format(type, "%s(): argument '%s': %U", b->qualname, p->name, clean);
		Py_XDECREF(type), Py_XDECREF(value), Py_XDECREF(tb);
	} else if (msg != NULL) {
		/* A producer's own refusal (PyTorch's of a tensor that requires grad): its words, after the function and
		 * the argument, raised from it, so that its traceback stays. */
		if (tb != NULL)
			PyException_SetTraceback(value, tb);
		PyErr_Format(PyExc_BufferError, "%s(): argument '%s': %U", b->qualname, p->name, msg);
		PyObject *t2, *v2, *tb2;
		PyErr_Fetch(&t2, &v2, &tb2);
		PyErr_NormalizeException(&t2, &v2, &tb2);
		if (v2 != NULL) {
			PyException_SetCause(v2, Py_NewRef(value));
			PyException_SetContext(v2, Py_NewRef(value));
		}
		PyErr_Restore(t2, v2, tb2);
		Py_XDECREF(type), Py_XDECREF(value), Py_XDECREF(tb);
	} else {
		PyErr_Clear(); /* what the attempt raised, if anything: the original is the one to see */
		PyErr_Restore(type, value, tb);
	}
	Py_XDECREF(msg);
	Py_XDECREF(clean);
}

/*
 * take_tensor is where a bound function takes a tensor argument: package
 * capsule's one import, borrowing where it can (gdl_import_view: borrow or
 * take, validate, and the writable rules). The call reads the tensor only
 * while its caller holds o. On success the call owns what was imported; on
 * failure nothing is left to release.
 */
static int take_tensor(const gdl_bound *b, const gdl_param *p, PyObject *o, gdl_arg_tensor *t) {
	gdl_request req = {.func = b->qualname, .copy = -1, .writable = p->writable};
	if (gdl_import_view(o, &req, t->shape, t->strides, &t->imp) == 0)
		return 0;
	/* An object that speaks no DLPack gets the parameter's own words; a producer's error names the argument. */
	if (PyErr_ExceptionMatches(PyExc_TypeError) && !PyCapsule_CheckExact(o)) {
		/* The lookup may run Python code, which must not see the pending exception. */
		gdl_saved_error e;
		gdl_error_save(&e);
		int has = PyObject_HasAttrString(o, "__dlpack__");
		gdl_error_restore(&e);
		if (!has) {
			PyErr_Clear();
			return type_error(b, p, o);
		}
	}
	if ((consumer_prefix != NULL || (consumer_prefix = PyUnicode_InternFromString("consumer: ")) != NULL) &&
	    (empty_str != NULL || (empty_str = PyUnicode_InternFromString("")) != NULL))
		name_argument(b, p);
	return -1;
}

void gdl_arg_view(gdl_arg_tensor *t) {
	const gdl_inspected *v = &t->imp.v;
	gdl_go_view *g = &t->view;
	g->data = v->data;
	/* A 0-d tensor's Shape and Strides are nil slices. */
	g->shape = v->ndim > 0 ? v->shape : NULL;
	g->strides = v->ndim > 0 ? v->strides : NULL;
	g->shape_len = g->shape_cap = g->strides_len = g->strides_cap = v->ndim;
	g->dtype = v->dtype;
	g->device = v->device;
	g->flags = t->imp.flags;
	g->version = v->version;
	g->versioned = v->versioned;
	g->elements = v->elements;
	g->low = v->low;
	g->high = v->high;
	g->dense_bytes = v->nbytes;
	g->c_contiguous = v->c_contiguous;
	g->f_contiguous = v->f_contiguous;
}

int gdl_spec_fault(const gdl_param *p, const gdl_inspected *v) {
	const gdl_tensor_spec *s = &p->spec;
	/* A DLDataType compared as the one word it is, not field by field. */
	_Static_assert(sizeof(DLDataType) == sizeof(uint32_t), "DLDataType is code, bits and lanes, unpadded");
	uint32_t want, got;
	memcpy(&got, &v->dtype, sizeof got);
	bool dtype = s->ndtypes == 0;
	for (int32_t i = 0; i < s->ndtypes && !dtype; i++) {
		memcpy(&want, &s->dtypes[i], sizeof want);
		dtype = want == got;
	}
	if (!dtype || (s->ndim >= 0 && v->ndim != s->ndim))
		return GDL_SPEC_TYPE;
	if ((s->device == 0 && !gdl_is_cpu_accessible(v->device)) ||
	    (s->device > 0 && (int32_t)v->device.device_type != s->device))
		return GDL_SPEC_DEVICE;
	for (int32_t d = 0; d < s->ndim; d++)
		if (s->shape[d] >= 0 && s->shape[d] != v->shape[d])
			return GDL_SPEC_SHAPE;
	if (s->order == 'C' && !v->c_contiguous)
		return GDL_SPEC_C_ORDER;
	if (s->order == 'F' && !v->f_contiguous)
		return GDL_SPEC_F_ORDER;
	return p->writable && !v->c_contiguous ? GDL_SPEC_STRIDED_OUTPUT : GDL_SPEC_OK;
}

/* convert_arg converts argument i (NULL when not passed) into c->args[i]; tensors are counted in *nt. */
int gdl_convert_arg(const gdl_bound *b, int i, PyObject *o, gdl_call *c, int *nt) {
	const gdl_param *p = &b->params[i];
	gdl_value *v = &c->args[i];
	v->present = true;
	if (o == NULL && p->has_default) {
		*v = p->dflt;
		return 0;
	}
	if (o == NULL || (o == Py_None && p->optional)) {
		v->present = false;
		return 0;
	}
	switch (p->kind) {
	case GDL_KIND_BOOL:
		if (o == Py_True || o == Py_False || is_numpy_bool(o)) {
			int t = PyObject_IsTrue(o);
			if (t < 0)
				return -1;
			v->v.b = t;
			return 0;
		}
		return type_error(b, p, o);
	case GDL_KIND_INT8: case GDL_KIND_INT16: case GDL_KIND_INT32: case GDL_KIND_INT64:
	case GDL_KIND_UINT8: case GDL_KIND_UINT16: case GDL_KIND_UINT32: case GDL_KIND_UINT64:
		return p->enum_type != NULL ? convert_member(b, p, o, v) : convert_int(b, p, o, v);
	case GDL_KIND_FLOAT32: case GDL_KIND_FLOAT64:
		return convert_float(b, p, o, v);
	case GDL_KIND_COMPLEX64: case GDL_KIND_COMPLEX128:
		return convert_complex(b, p, o, v);
	case GDL_KIND_NUMBER:
		return convert_number(b, p, o, v);
	case GDL_KIND_STRING:
		if (!PyUnicode_Check(o))
			return type_error(b, p, o);
		v->v.s.p = PyUnicode_AsUTF8AndSize(o, &v->v.s.n);
		return v->v.s.p == NULL ? -1 : 0;
	case GDL_KIND_BYTES:
		if (!PyBytes_Check(o))
			return type_error(b, p, o);
		v->v.s.p = PyBytes_AS_STRING(o);
		v->v.s.n = PyBytes_GET_SIZE(o);
		return 0;
	case GDL_KIND_OBJECT:
		v->v.o = o;
		return 0;
	case GDL_KIND_INSTANCE: {
		int rc = gdl_instance_check(p, o, c, v);
		return rc == -1 ? type_error(b, p, o) : rc == 0 ? 0 : -1;
	}
	case GDL_KIND_CALLBACK:
		if (!PyCallable_Check(o))
			return type_error(b, p, o);
		v->v.o = o; /* borrowed: the caller holds it while the call runs, and the call's callbacks expire with it */
		return 0;
	case GDL_KIND_TENSOR:
		if (take_tensor(b, p, o, &c->tensors[*nt]) != 0)
			return -1;
		int fault = gdl_spec_fault(p, &c->tensors[*nt].imp.v);
		if (fault != GDL_SPEC_OK) {
			c->unchecked |= 1u << *nt;
			c->faults[*nt] = (uint8_t)fault;
		}
		gdl_arg_view(&c->tensors[*nt]);
		v->v.index = (*nt)++;
		return 0;
	}
	PyErr_Format(PyExc_SystemError, "%s(): argument '%s' has an unknown kind %d", b->qualname, p->name, p->kind);
	return -1;
}

/* ---- Results ---- */

/*
 * What makes each ReturnKind but the first of a Tensor, looked up once and
 * kept: the library's from_dlpack, or for NumPy numpy.asarray, which reads a
 * Tensor of a dtype the buffer protocol has (all that NumPy has but
 * bfloat16 and the float8s) through it in about 60% of from_dlpack's time,
 * where NumPy's C API cannot make the array itself (gdl_tensor_numpy).
 * Kept for the library: they are the interpreter's (the main one, only),
 * the same for the functions of every module.
 */
typedef struct {
	const char *module, *name;
	PyObject *fn;
} converter;
static converter converters[] = {
	[GDL_RETURN_NUMPY] = {"numpy", "from_dlpack"},
	[GDL_RETURN_TORCH] = {"torch", "from_dlpack"},
	[GDL_RETURN_GODLPACK] = {"godlpack", "from_dlpack"},
	[GDL_RETURN_GODLPACK + 1] = {"numpy", "asarray"},
};
#define NUMPY_BUFFER (GDL_RETURN_GODLPACK + 1)

static PyObject *converter_fn(int which) {
	converter *c = &converters[which];
	if (c->fn == NULL)
		c->fn = gdl_import_attr(c->module, c->name);
	return c->fn;
}

/*
 * convert_tensor makes an object of Go's result tensor r (its owner reference
 * passes to it): the module's Tensor (package capsule's, the one of
 * godlpack.Tensor), or what the library the function returns makes of it.
 */
static PyObject *convert_tensor(const gdl_bound *b, gdl_result_tensor *r) {
	int which = b->return_as;
	if (which == GDL_RETURN_NUMPY && gdl_buffer_format(r->src.view.dtype) != NULL)
		which = NUMPY_BUFFER;
	if (gdl_source_is_unlaid(&r->src) && !gdl_source_lay_out(&r->src)) {
		gdl_source_release(&r->src);
		PyErr_Format(PyExc_ValueError, "%s(): its result tensor of %d dimensions does not fit its memory",
		             b->qualname, (int)r->src.view.ndim);
		return NULL;
	}
	PyObject *e = gdl_tensor_from_source(&r->src);
	if (e == NULL || which == GDL_RETURN_TENSOR)
		return e;
	if (which == NUMPY_BUFFER || which == GDL_RETURN_TORCH) {
		PyObject *o;
		int made = which == NUMPY_BUFFER ? gdl_tensor_numpy(e, &o) : gdl_export_torch(e, &o);
		if (made <= 0) {
			Py_DECREF(e);
			return made == 0 ? o : NULL;
		}
	}
	PyObject *fn = converter_fn(which);
	PyObject *o = fn != NULL ? PyObject_CallOneArg(fn, e) : NULL;
	Py_DECREF(e);
	return o;
}

/* int_at is the int of kind k at at: a Python int. */
static PyObject *int_at(uint8_t k, const void *at) {
	switch (k) {
	case GDL_KIND_INT8: return PyLong_FromLong(*(const int8_t *)at);
	case GDL_KIND_INT16: return PyLong_FromLong(*(const int16_t *)at);
	case GDL_KIND_INT32: return PyLong_FromLong(*(const int32_t *)at);
	case GDL_KIND_INT64: return PyLong_FromLongLong(*(const int64_t *)at);
	case GDL_KIND_UINT8: return PyLong_FromUnsignedLong(*(const uint8_t *)at);
	case GDL_KIND_UINT16: return PyLong_FromUnsignedLong(*(const uint16_t *)at);
	case GDL_KIND_UINT32: return PyLong_FromUnsignedLong(*(const uint32_t *)at);
	default: return PyLong_FromUnsignedLongLong(*(const uint64_t *)at);
	}
}

PyObject *gdl_plain_object(uint8_t k, const void *at) {
	switch (k) {
	case GDL_KIND_BOOL: return PyBool_FromLong(*(const bool *)at);
	case GDL_KIND_FLOAT32: return PyFloat_FromDouble(*(const float *)at);
	case GDL_KIND_FLOAT64: return PyFloat_FromDouble(*(const double *)at);
	case GDL_KIND_COMPLEX64: return PyComplex_FromDoubles(((const float *)at)[0], ((const float *)at)[1]);
	case GDL_KIND_COMPLEX128: return PyComplex_FromDoubles(((const double *)at)[0], ((const double *)at)[1]);
	}
	return int_at(k, at);
}

/* enum_result is an int result of an enum's Go type: the member of its IntEnum. */
static PyObject *enum_result(PyObject *type, uint8_t k, const gdl_value *v) {
	PyObject *i = int_at(k, &v->v);
	if (i == NULL)
		return NULL;
	PyObject *member = PyObject_CallOneArg(type, i);
	Py_DECREF(i);
	return member;
}

/* number_result makes a scalar.Scalar result the Python number its kind says. */
static PyObject *number_result(const gdl_scalar *s) {
	switch (s->kind) {
	case GDL_SCALAR_BOOL: return PyBool_FromLong(s->ival != 0);
	case GDL_SCALAR_INT: return PyLong_FromLongLong(s->ival);
	case GDL_SCALAR_UINT: return PyLong_FromUnsignedLongLong(s->uval);
	case GDL_SCALAR_COMPLEX: return PyComplex_FromDoubles(s->re, s->im);
	case GDL_SCALAR_BIGINT: return PyLong_FromDouble(s->re); /* an int beyond 64 bits, rounded to a double */
	}
	return PyFloat_FromDouble(s->re);
}

/* convert_result turns result j into a new reference; its C memory or owner passes to it or is freed. */
PyObject *gdl_convert_result(const gdl_bound *b, gdl_call *c, int j) {
	gdl_value *v = &c->results[j];
	PyObject *o = NULL;
	if (b->result_enums[j] != NULL)
		return enum_result(b->result_enums[j], b->results[j], v);
	switch (b->results[j]) {
	case GDL_KIND_BOOL:
	case GDL_KIND_INT8: case GDL_KIND_INT16: case GDL_KIND_INT32: case GDL_KIND_INT64:
	case GDL_KIND_UINT8: case GDL_KIND_UINT16: case GDL_KIND_UINT32: case GDL_KIND_UINT64:
	case GDL_KIND_FLOAT32: case GDL_KIND_FLOAT64: case GDL_KIND_COMPLEX64: case GDL_KIND_COMPLEX128:
		return gdl_plain_object(b->results[j], &v->v);
	case GDL_KIND_NUMBER: return number_result(&v->v.num);
	case GDL_KIND_STRING:
	case GDL_KIND_BYTES:
		if (!v->present)
			Py_RETURN_NONE;
		v->present = false;
		o = b->results[j] == GDL_KIND_STRING ? PyUnicode_FromStringAndSize(v->v.s.p, v->v.s.n)
		                                     : PyBytes_FromStringAndSize(v->v.s.p, v->v.s.n);
		free((void *)v->v.s.p);
		return o;
	case GDL_KIND_TENSOR:
		if (!v->present)
			Py_RETURN_NONE;
		v->present = false;
		return convert_tensor(b, &c->out[v->v.index]);
	case GDL_KIND_INSTANCE:
	case GDL_KIND_OBJECT:
		if (v->present && v->by_slot) { /* an instance Go held in its slot, whose object is made here */
			v->present = false;
			o = gdl_instance_take(v->v.inst.class_id, v->v.inst.slot);
			if (o == NULL)
				gdl_slot_drop(v->v.inst.class_id, v->v.inst.slot);
			return o;
		}
		/* An object, or an instance Go made with the GIL: a new reference. */
		if (!v->present || v->v.o == NULL)
			Py_RETURN_NONE;
		v->present = false;
		return v->v.o;
	}
	return PyErr_Format(PyExc_SystemError, "%s(): result %d has an unknown kind", b->qualname, j);
}

/* drop_results frees what results from j on still hold: C memory, owners, references. */
void gdl_drop_results(const gdl_bound *b, gdl_call *c, int j) {
	for (; j < b->nresults; j++) {
		gdl_value *v = &c->results[j];
		if (!v->present)
			continue;
		switch (b->results[j]) {
		case GDL_KIND_STRING:
		case GDL_KIND_BYTES: free((void *)v->v.s.p); break;
		case GDL_KIND_TENSOR: gdl_source_release(&c->out[v->v.index].src); break;
		case GDL_KIND_INSTANCE:
		case GDL_KIND_OBJECT:
			if (v->by_slot)
				gdl_slot_drop(v->v.inst.class_id, v->v.inst.slot);
			else
				gdl_drop_keeping_error(v->v.o);
			break;
		}
		v->present = false;
	}
}

static PyObject *make_results(const gdl_bound *b, gdl_call *c) {
	if (b->nresults == 0)
		Py_RETURN_NONE;
	if (b->nresults == 1) {
		PyObject *o = gdl_convert_result(b, c, 0);
		return o;
	}
	PyObject *t = PyTuple_New(b->nresults);
	if (t == NULL)
		return NULL;
	for (int j = 0; j < b->nresults; j++) {
		PyObject *o = gdl_convert_result(b, c, j);
		if (o == NULL) {
			gdl_drop_results(b, c, j + 1);
			Py_DECREF(t);
			return NULL;
		}
		PyTuple_SET_ITEM(t, j, o);
	}
	return t;
}

/* ---- The call ---- */

/* release_tensors lets go of every tensor the call imported; an exception pending stays pending. */
static void release_tensors(gdl_call *c, int nt) {
	for (int i = 0; i < nt; i++)
		gdl_imported_release(&c->tensors[i].imp);
}

/*
 * raise_call_error raises the error Go wrote in c. A Go function that
 * called CPython and found an exception set (capsule.PythonError) leaves
 * that exception pending, with its type, message and traceback; only when
 * none is (a function that said so wrongly) does its message become a
 * RuntimeError. One that found itself in a forked child
 * (capsule.ErrForked) raises the fork guard's RuntimeError.
 */
static void raise_call_error(const gdl_bound *b, gdl_call *c) {
	if (c->error == GDL_BIND_FORKED) {
		gdl_fork_error();
		return;
	}
	if (c->error == GDL_BIND_PYTHON_ERROR && PyErr_Occurred())
		return;
	Py_ssize_t n = (Py_ssize_t)c->message_len;
	if (c->error == GDL_BIND_CLASS_ERROR)
		gdl_raise_text(c->raise, c->text, n);
	else
		gdl_raise(c->error == GDL_BIND_PYTHON_ERROR ? GDL_RUNTIME_ERROR : c->error, c->text, n);
}

char *gdl_message_room(gdl_call *c, size_t n) {
	char *room = n <= sizeof c->message ? c->message : malloc(n);
	c->text = room;
	c->message_len = room != NULL ? n : 0;
	return room;
}

/* drop_message frees the C memory of a long error message, once raised or set aside. */
static void drop_message(gdl_call *c) {
	if (c->text != c->message)
		free((void *)c->text);
	c->text = c->message;
	c->message_len = 0;
}

/*
 * A call's gdl_call (about 16 KiB) comes from here, never from the C stack:
 * an argument's conversion may run Python code that calls a bound function
 * again (a producer's __dlpack__, an __index__, a __float__), and 16 KiB a
 * level overflowed an 8 MiB stack after about 470 levels, before CPython's
 * recursion limit could end the recursion. A few are kept for reuse: taken
 * and given back with the GIL held, at the start and the end of a call. The
 * spares are the library's, shared by the calls of every module's functions
 * on the path of every call, where a module-state lookup would add work.
 */
#define SPARE_CALLS 4
static gdl_call *spare_calls[SPARE_CALLS];
static int nspare_calls;

gdl_call *gdl_call_new(void) {
	gdl_call *c = nspare_calls > 0 ? spare_calls[--nspare_calls] : malloc(sizeof *c);
	if (c == NULL)
		PyErr_NoMemory();
	return c;
}

void gdl_call_free(gdl_call *c) {
	if (nspare_calls < SPARE_CALLS)
		spare_calls[nspare_calls++] = c;
	else
		free(c);
}

/*
 * enter_go crosses into Go for call c. When Go may run Python code (a
 * callback, a producer's __dlpack__ through capsule.Take), that code can
 * fork, and the child cannot return through Go's frames (capsule.h): such a
 * call is a fork exit, which the child jumps back to, to raise the fork
 * guard's error. Go never runs again in that child: every entry into it is
 * refused in C first.
 */
static void enter_go(gdl_call *c) {
	if (!c->fn->runs_python) {
		godlpackBindCall(c);
		return;
	}
	gdl_fork_exit *e = &c->fork_exit;
	e->outer = gdl_fork_exit_top;
	e->python_calls = gdl_go_python_calls;
	e->thread_state = gdl_thread_state();
	gdl_fork_exit_top = e;
	if (sigsetjmp(e->to, 0) == 0)
		godlpackBindCall(c);
	else
		c->error = GDL_BIND_FORKED;
	gdl_fork_exit_top = e->outer;
}

/*
 * call_with runs a call whose arguments slots holds: their conversion, the
 * crossing into Go, the results. In a child forked after the Go runtime
 * started, Go never runs: the fork guard is checked again once the last
 * conversion, which may run Python code that forks, is done.
 */
static PyObject *call_with(const gdl_bound *b, PyObject **slots, gdl_call *c) {
	c->fn = b;
	c->nout = 0;
	c->error = 0;
	c->unchecked = 0;
	c->nborrowed = 0;
	c->callback_failed = false;
	c->text = c->message;
	c->message_len = 0;
	int nt = 0;
	for (int i = 0; i < b->nparams; i++)
		if (gdl_convert_arg(b, i, slots[i], c, &nt) != 0) {
			gdl_instances_return(c);
			release_tensors(c, nt);
			return NULL;
		}
	if (gdl_forked_child()) {
		gdl_instances_return(c);
		release_tensors(c, nt);
		return gdl_fork_error();
	}
	for (int j = 0; j < b->nresults; j++)
		c->results[j].present = c->results[j].by_slot = false;
	if (b->release_gil) {
		c->repair = gdl_preemption_suspect();
		Py_BEGIN_ALLOW_THREADS
		enter_go(c);
		Py_END_ALLOW_THREADS
	} else {
		enter_go(c);
	}
	gdl_instances_return(c);
	PyObject *r = NULL;
	if (c->callback_failed && c->error == GDL_BIND_FORKED) {
		/* In a forked child the fork is the error, whatever a callback raised before. */
		gdl_error_restore(&c->callback_error);
		PyErr_Clear();
		gdl_drop_results(b, c, 0);
		gdl_fork_error();
	} else if (c->callback_failed) {
		/* A callback's Python code raised: that exception is the caller's, whatever Go did after. */
		gdl_drop_results(b, c, 0);
		gdl_error_restore(&c->callback_error);
	} else if (c->error == 0) {
		r = make_results(b, c);
	} else {
		gdl_drop_results(b, c, 0);
		raise_call_error(b, c);
	}
	drop_message(c);
	release_tensors(c, nt);
	return r;
}

PyObject *gdl_bound_call(const gdl_bound *b, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
	PyObject *slots[GDL_BIND_MAX_PARAMS];
	if (gdl_parse((gdl_signature *)&b->sig, args, nargs, kwnames, slots) != 0)
		return NULL;
	/* A call takes part in CPython's recursion limit, as a call of a Python function does. */
	if (Py_EnterRecursiveCall(" while calling a Go function"))
		return NULL;
	PyObject *r = NULL;
	gdl_call *c = gdl_call_new(); /* not zeroed: a call uses what its plan names */
	if (c != NULL) {
		r = call_with(b, slots, c);
		gdl_call_free(c);
	}
	Py_LeaveRecursiveCall();
	return r;
}

void gdl_bound_finish(gdl_bound *b) {
	b->sig.func = b->qualname;
	b->sig.n = b->nparams;
	for (int i = 0; i < b->nparams; i++)
		b->sig.names[i] = b->params[i].name;
}

int gdl_bound_add(PyObject *m, gdl_bound *b) {
	gdl_bound_finish(b);
	PyObject *modname = PyModule_GetNameObject(m);
	if (modname == NULL)
		return -1;
	PyObject *f = gdl_function_new(b, modname, m);
	Py_DECREF(modname);
	if (f == NULL)
		return -1;
	if (PyModule_AddObjectRef(m, b->name, f) != 0) {
		Py_DECREF(f); /* its record is b, which the caller frees: nothing else holds f */
		return -1;
	}
	Py_DECREF(f);
	return 0;
}
