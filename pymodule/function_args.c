/*
 * A bound call's arguments: each converted into its gdl_value as its
 * parameter's plan says (numbers, strings, instances, callables, tensors taken
 * through package capsule's one import and held to the parameter's spec).
 * It calls class_instances.c and basics.c.
 */
#include "pymodule.h"
#include "pyprivate.h"

/* The names of the number kinds, for OverflowError. */
static const char *const kind_names[] = {
	[GDL_KIND_INT8] = "int8",     [GDL_KIND_INT16] = "int16",   [GDL_KIND_INT32] = "int32",
	[GDL_KIND_INT64] = "int64",   [GDL_KIND_UINT8] = "uint8",   [GDL_KIND_UINT16] = "uint16",
	[GDL_KIND_UINT32] = "uint32", [GDL_KIND_UINT64] = "uint64",
};

/* ---- Arguments ---- */


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
	PyObject *clean = msg != NULL ? PyUnicode_Replace(msg, gdl_names.consumer_prefix, gdl_names.empty, -1) : NULL;
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
