/*
 * A bound call's results: each value Go wrote made its Python object (numbers,
 * strings, instances, tensors as the module's Tensor, a NumPy array or a
 * PyTorch tensor), or let go of. It calls class_instances.c and basics.c.
 */
#include "pymodule.h"

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
		if ((c->views >> v->v.index & 1) && gdl_view_keep(b, c, &c->out[v->v.index].src) != 0)
			return NULL;
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
