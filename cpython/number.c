/*
 * Numbers read as NumPy reads them (number.c), for godlpack's creation
 * functions and for a bound function's scalar.Scalar parameter.
 */
#include <string.h>

#include "cpython.h"

/* scalar_of_int reads a Python int: INT, UINT above int64, else BIGINT, its float64 value. */
static int scalar_of_int(PyObject *v, gdl_scalar *s) {
	int overflow;
	long long i = PyLong_AsLongLongAndOverflow(v, &overflow);
	if (i == -1 && PyErr_Occurred())
		return -1;
	if (overflow == 0) {
		s->kind = GDL_SCALAR_INT;
		s->ival = i;
		return 0;
	}
	if (overflow > 0) {
		unsigned long long u = PyLong_AsUnsignedLongLong(v);
		if (!(u == (unsigned long long)-1 && PyErr_Occurred())) {
			s->kind = GDL_SCALAR_UINT;
			s->uval = u;
			return 0;
		}
		PyErr_Clear();
	}
	/* Beyond 64 bits, float types store it and integer types refuse it (scalar.BigInt). */
	double d = PyLong_AsDouble(v); /* OverflowError beyond float64, as NumPy's full raises */
	if (d == -1.0 && PyErr_Occurred())
		return -1;
	s->kind = GDL_SCALAR_BIGINT;
	s->re = d;
	return 0;
}

static bool one_of(char c, const char *set) { return c != 0 && strchr(set, c) != NULL; }

/*
 * buffer_kind reads what a 0-d buffer holds, as a NumPy scalar or 0-d array
 * exposes it, by its struct format: 'b' a bool (*truth its value), 'i' an
 * integer, 'f' a real, 'c' a complex; 'a' for a buffer of one dimension or
 * more (an array, no number), 0 for anything else. NumPy's bool has no
 * __index__ but a __float__, and its complex types a __float__ too: the
 * format says what the number is. -1 with an exception.
 */
static int buffer_kind(PyObject *v, char *kind, bool *truth) {
	*kind = 0;
	if (!PyObject_CheckBuffer(v))
		return 0;
	Py_buffer b;
	if (PyObject_GetBuffer(v, &b, PyBUF_RECORDS_RO) != 0) {
		if (!PyErr_ExceptionMatches(PyExc_BufferError) && !PyErr_ExceptionMatches(PyExc_TypeError))
			return -1;
		PyErr_Clear(); /* no buffer of that kind: read it by its methods */
		return 0;
	}
	const char *f = b.format != NULL ? b.format : "B";
	if (one_of(f[0], "@=<>!"))
		f++;
	if (b.ndim > 0)
		*kind = 'a';
	else if (f[0] != 0 && (f[1] == 0 || (f[0] == 'Z' && f[2] == 0))) {
		if (f[0] == '?')
			*kind = 'b';
		else if (one_of(f[0], "bBhHiIlLqQnN"))
			*kind = 'i';
		else if (one_of(f[0], "efdg"))
			*kind = 'f';
		else if (f[0] == 'Z' && one_of(f[1], "efdg"))
			*kind = 'c';
	}
	*truth = *kind == 'b' && b.len >= 1 && *(const unsigned char *)b.buf != 0;
	PyBuffer_Release(&b);
	return 0;
}

int gdl_parse_scalar(PyObject *v, const char *what, gdl_scalar *s) {
	memset(s, 0, sizeof *s);
	if (PyBool_Check(v)) {
		s->kind = GDL_SCALAR_BOOL;
		s->ival = v == Py_True;
		return 0;
	}
	if (PyLong_Check(v))
		return scalar_of_int(v, s);
	if (PyFloat_Check(v)) {
		s->kind = GDL_SCALAR_FLOAT;
		s->re = PyFloat_AS_DOUBLE(v);
		return 0;
	}
	if (PyComplex_Check(v)) {
		s->kind = GDL_SCALAR_COMPLEX;
		s->re = PyComplex_RealAsDouble(v);
		s->im = PyComplex_ImagAsDouble(v);
		return 0;
	}
	char kind;
	bool truth;
	if (buffer_kind(v, &kind, &truth) != 0)
		return -1;
	if (kind == 'b') {
		s->kind = GDL_SCALAR_BOOL;
		s->ival = truth;
		return 0;
	}
	/* An array is no number: its own __index__ says why (NumPy's: only integer scalar arrays). */
	if (kind == 'i' || ((kind == 0 || kind == 'a') && PyIndex_Check(v))) {
		PyObject *i = PyNumber_Index(v);
		if (i != NULL) {
			int rc = scalar_of_int(i, s);
			Py_DECREF(i);
			return rc;
		}
		/* An __index__ that refuses (NumPy's 0-d float array without its buffer): try the others. */
		if (kind != 0 || !PyErr_ExceptionMatches(PyExc_TypeError))
			return -1;
		PyErr_Clear();
	}
	if (kind == 'a')
		goto refuse;
	if (kind == 'c' || (kind == 0 && gdl_type_defines(Py_TYPE(v), gdl_names.complex))) {
		Py_complex c = PyComplex_AsCComplex(v);
		if (c.real == -1.0 && PyErr_Occurred())
			return -1;
		s->kind = GDL_SCALAR_COMPLEX;
		s->re = c.real;
		s->im = c.imag;
		return 0;
	}
	PyNumberMethods *num = Py_TYPE(v)->tp_as_number;
	if (kind == 'f' || (kind == 0 && num != NULL && num->nb_float != NULL)) {
		double d = PyFloat_AsDouble(v);
		if (d == -1.0 && PyErr_Occurred())
			return -1;
		s->kind = GDL_SCALAR_FLOAT;
		s->re = d;
		return 0;
	}
refuse:
	PyErr_Format(PyExc_TypeError, "%s must be a bool, int, float or complex, got %.200s", what, Py_TYPE(v)->tp_name);
	return -1;
}
