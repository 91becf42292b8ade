/* godlpack.ops: argument parsing and the capsules of each operand; Go does the rest in one call. */
#include "ops.h"
#include "_cgo_export.h"

/*
 * take asks x for its tensor as from_dlpack does (max_version 1.3, the legacy
 * fallback) and takes it out of the capsule. A bare capsule is taken as is.
 */
static int take(PyObject *x, void **managed, int *versioned) {
	PyObject *capsule;
	if (PyCapsule_CheckExact(x)) {
		Py_INCREF(x);
		capsule = x;
	} else {
		gdl_dlpack_request req = {GDL_MAJOR_VERSION, GDL_MINOR_VERSION, -1, 0, 0, 0, 0, 0};
		int fallback;
		capsule = gdl_call_dlpack(x, &req, &fallback);
		if (capsule == NULL) {
			if (gdl_lacks_dlpack(x)) {
				PyErr_Clear();
				PyErr_Format(PyExc_TypeError, "expected an object with __dlpack__ or a DLPack capsule, got %.200s",
				             Py_TYPE(x)->tp_name);
			}
			return -1;
		}
	}
	*managed = gdl_capsule_take(capsule, versioned);
	Py_DECREF(capsule);
	return *managed == NULL ? -1 : 0;
}

/* run takes every operand, then crosses into Go once; Go owns the tensors from then on. */
static int run(gdl_ops_args *a, PyObject *const *xs) {
	GDL_CHECK_FORK(-1);
	a->err.kind = GDL_OK;
	for (int i = 0; i < a->n; i++)
		if (take(xs[i], &a->managed[i], &a->versioned[i]) != 0) {
			/* A deleter may run Python code, which must not see our pending exception. */
			PyObject *type, *value, *tb;
			PyErr_Fetch(&type, &value, &tb);
			while (i-- > 0)
				gdl_managed_delete(a->managed[i], a->versioned[i]);
			PyErr_Restore(type, value, tb);
			return -1;
		}
	if (goOps(a) != GDL_OK) {
		gdl_raise(&a->err);
		return -1;
	}
	return 0;
}

static PyObject *ops_sum(PyObject *m, PyObject *x) {
	gdl_ops_args a = {.op = GDL_OP_SUM, .n = 1};
	if (run(&a, &x) != 0)
		return NULL;
	switch (a.r_kind) {
	case GDL_NUM_INT: return PyLong_FromLongLong(a.ri);
	case GDL_NUM_UINT: return PyLong_FromUnsignedLongLong(a.ru);
	}
	return PyFloat_FromDouble(a.rf);
}

static PyObject *ops_scale(PyObject *m, PyObject *const *args, Py_ssize_t nargs) {
	if (nargs != 2)
		return PyErr_Format(PyExc_TypeError, "scale_() takes exactly 2 arguments (%zd given)", nargs);
	gdl_ops_args a = {.op = GDL_OP_SCALE, .n = 1};
	PyObject *f = args[1];
	PyNumberMethods *num = Py_TYPE(f)->tp_as_number;
	if (PyIndex_Check(f)) {
		/* Any integer: int, bool, NumPy's integer scalars. */
		if ((f = PyNumber_Index(f)) == NULL)
			return NULL;
		int overflow;
		a.a_kind = GDL_NUM_INT;
		a.ai = PyLong_AsLongLongAndOverflow(f, &overflow);
		if (overflow)
			PyErr_Format(PyExc_OverflowError, "scale_() factor %R does not fit in int64", f);
		else
			a.af = PyLong_AsDouble(f);
		Py_DECREF(f);
		if (PyErr_Occurred())
			return NULL;
	} else if (PyFloat_Check(f) || (num != NULL && num->nb_float != NULL && !PyComplex_Check(f))) {
		/* Any real: float, NumPy's float scalars. */
		a.a_kind = GDL_NUM_FLOAT;
		a.af = PyFloat_AsDouble(f);
		if (a.af == -1.0 && PyErr_Occurred())
			return NULL;
	} else {
		return PyErr_Format(PyExc_TypeError, "scale_() factor must be an int or a float, got %.200s",
		                    Py_TYPE(f)->tp_name);
	}
	if (run(&a, args) != 0)
		return NULL;
	Py_RETURN_NONE;
}

static PyObject *ops_copy(PyObject *m, PyObject *const *args, Py_ssize_t nargs) {
	if (nargs != 2)
		return PyErr_Format(PyExc_TypeError, "copy_() takes exactly 2 arguments (%zd given)", nargs);
	gdl_ops_args a = {.op = GDL_OP_COPY, .n = 2};
	if (run(&a, args) != 0)
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
