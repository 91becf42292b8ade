/* godlpack.ops: argument parsing and the tensor of each operand; Go does the rest in one call. */
#include "ext.h"
#include "_cgo_export.h"

/*
 * run imports every operand's tensor (gdl_import; the first is written in
 * place when writes is set), then crosses into Go once; Go owns the tensors
 * from then on.
 */
static int run(gdl_ops_args *a, const char *func, bool writes, PyObject *const *xs) {
	GDL_CHECK_FORK(-1);
	for (int i = 0; i < a->n; i++) {
		gdl_request req = {.func = func, .copy = -1, .writable = writes && i == 0};
		int64_t strides[GDL_MAX_NDIM];
		gdl_imported tk;
		if (gdl_import(xs[i], &req, strides, &tk) != 0) {
			while (i-- > 0)
				gdl_delete_keeping_error(a->managed[i], a->versioned[i]);
			return -1;
		}
		a->managed[i] = tk.managed;
		a->versioned[i] = tk.versioned;
	}
	return goOps(a);
}

static PyObject *ops_sum(PyObject *m, PyObject *x) {
	gdl_ops_args a = {.op = GDL_OP_SUM, .n = 1};
	if (run(&a, "sum", false, &x) != 0)
		return NULL;
	switch (a.kind) {
	case GDL_SCALAR_INT: return PyLong_FromLongLong(a.ival);
	case GDL_SCALAR_UINT: return PyLong_FromUnsignedLongLong(a.uval);
	}
	return PyFloat_FromDouble(a.fval);
}

/*
 * parse_factor reads scale_'s factor as NumPy's in-place multiply takes it:
 * a bool (np.True_ among them), any integer, or any real (gdl_parse_scalar).
 * A complex factor, whose imaginary part a real tensor cannot hold, is a
 * TypeError; an int beyond uint64 an OverflowError.
 */
static int parse_factor(PyObject *f, gdl_ops_args *a) {
	gdl_scalar s;
	if (gdl_parse_scalar(f, "scale_() factor", &s) != 0) {
		if (PyErr_ExceptionMatches(PyExc_TypeError)) {
			PyErr_Clear();
			PyErr_Format(PyExc_TypeError, "scale_() factor must be an int or a float, got %.200s", Py_TYPE(f)->tp_name);
		}
		return -1;
	}
	switch (s.kind) {
	case GDL_SCALAR_COMPLEX:
		PyErr_Format(PyExc_TypeError, "scale_() factor must be an int or a float, got %.200s", Py_TYPE(f)->tp_name);
		return -1;
	case GDL_SCALAR_BIGINT:
		PyErr_Format(PyExc_OverflowError, "scale_() factor %R does not fit in int64 or uint64", f);
		return -1;
	}
	a->kind = s.kind;
	a->ival = s.ival;
	a->uval = s.uval;
	a->fval = s.re;
	return 0;
}

static PyObject *ops_scale(PyObject *m, PyObject *const *args, Py_ssize_t nargs) {
	if (nargs != 2)
		return PyErr_Format(PyExc_TypeError, "scale_() takes exactly 2 arguments (%zd given)", nargs);
	gdl_ops_args a = {.op = GDL_OP_SCALE, .n = 1};
	if (parse_factor(args[1], &a) != 0 || run(&a, "scale_", true, args) != 0)
		return NULL;
	Py_RETURN_NONE;
}

static PyObject *ops_copy(PyObject *m, PyObject *const *args, Py_ssize_t nargs) {
	if (nargs != 2)
		return PyErr_Format(PyExc_TypeError, "copy_() takes exactly 2 arguments (%zd given)", nargs);
	gdl_ops_args a = {.op = GDL_OP_COPY, .n = 2};
	if (run(&a, "copy_", true, args) != 0)
		return NULL;
	Py_RETURN_NONE;
}

static PyMethodDef ops_methods[] = {
	{"_ops_sum", (PyCFunction)ops_sum, METH_O, "_ops_sum(x, /)\n--\n\nThe sum of x's elements (see godlpack.ops.sum)."},
	{"_ops_scale", (PyCFunction)(void (*)(void))ops_scale, METH_FASTCALL,
	 "_ops_scale(x, a, /)\n--\n\nx *= a in place (see godlpack.ops.scale_)."},
	{"_ops_copy", (PyCFunction)(void (*)(void))ops_copy, METH_FASTCALL,
	 "_ops_copy(dst, src, /)\n--\n\ndst[...] = src in place (see godlpack.ops.copy_)."},
	{NULL},
};

int gdl_ops_register(PyObject *m) { return PyModule_AddFunctions(m, ops_methods); }
