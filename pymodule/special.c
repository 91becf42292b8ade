/*
 * Special methods: a bound class's Go methods named as Python's special
 * methods (special.go plans them) fill the type's slots, as a Python class's
 * do, so that len(), [], in, iter(), (), the operators and the conversions
 * reach them. Each use of a slot is one bound call of the Go method
 * (gdl_bound_call), whose result the slot reads as CPython reads the result
 * of that method of a Python class. A binary operator's slot runs the right
 * operand's reflected method when the left one's declines (NotImplemented),
 * as CPython's slot wrappers do; an operand that does not convert to the Go
 * parameter declines (gdl_bound.operands). Every function here runs with the
 * GIL held.
 */
#include <string.h>
#include "pymodule.h"

/* The author's method which of self, an instance of a bound class; NULL where the class has none. */
static const gdl_bound *special_of(PyObject *self, int which) {
	return gdl_class_of(((gdl_instance *)self)->class_id)->special[which];
}

/* bound_class is the class of o where o is an instance of a bound class, else NULL. */
static gdl_class *bound_class(PyObject *o) {
	if (Py_TYPE(o)->tp_dealloc != (destructor)gdl_instance_dealloc)
		return NULL;
	return gdl_class_of(((gdl_instance *)o)->class_id);
}

PyObject *gdl_method_call(const gdl_bound *b, PyObject *self, PyObject *arg) {
	PyObject *args[2] = {self, arg};
	return gdl_bound_call(b, args, arg != NULL ? 2 : 1, NULL);
}

static PyObject *call1(const gdl_bound *b, PyObject *self) { return gdl_method_call(b, self, NULL); }

static PyObject *call2(const gdl_bound *b, PyObject *self, PyObject *arg) { return gdl_method_call(b, self, arg); }

/*
 * call_operands calls a binary method with its operands; a third, pow()'s
 * modulus, only when it is not None (the Go method's own default stands in
 * for None), and NotImplemented for a modulus the method has no parameter for.
 */
static PyObject *call_operands(const gdl_bound *b, PyObject *self, PyObject *other, PyObject *mod) {
	PyObject *args[3] = {self, other, mod};
	int n = mod == Py_None ? 2 : 3;
	if (n > b->nparams)
		Py_RETURN_NOTIMPLEMENTED;
	return gdl_bound_call(b, args, n, NULL);
}

/* ---- Objects ---- */

static PyObject *tp_repr(PyObject *self) {
	const gdl_bound *b = special_of(self, GDL_SPECIAL_REPR);
	if (b == NULL)
		return PyUnicode_FromFormat("<%s object at %p>", Py_TYPE(self)->tp_name, (void *)self);
	return call1(b, self);
}

static PyObject *tp_str(PyObject *self) { return call1(special_of(self, GDL_SPECIAL_STR), self); }

/*
 * The author's hash, read as CPython reads a __hash__'s int: the int itself
 * where it fits, the int's own hash beyond, and never -1. Without one an
 * instance hashes by identity, unless its class compares by value: then it
 * is unhashable, as a Python class with __eq__ and no __hash__.
 */
static Py_hash_t tp_hash(PyObject *self) {
	gdl_class *c = bound_class(self);
	const gdl_bound *b = c->special[GDL_SPECIAL_HASH];
	if (b == NULL)
		return c->special[GDL_SPECIAL_EQ] == NULL ? PyBaseObject_Type.tp_hash(self) : PyObject_HashNotImplemented(self);
	PyObject *r = call1(b, self);
	if (r == NULL)
		return -1;
	Py_hash_t h = PyLong_AsSsize_t(r);
	if (h == -1 && PyErr_Occurred()) {
		PyErr_Clear();
		h = PyLong_Type.tp_hash(r);
	}
	Py_DECREF(r);
	return h == -1 ? -2 : h;
}

/* Each comparison is its method; != without __ne__ is the inverse of __eq__, as object's __ne__ makes it. */
static PyObject *tp_richcompare(PyObject *self, PyObject *other, int op) {
	gdl_class *c = bound_class(self);
	const gdl_bound *b = c->special[GDL_SPECIAL_LT + op];
	if (b != NULL)
		return call2(b, self, other);
	if (op != Py_NE || (b = c->special[GDL_SPECIAL_EQ]) == NULL)
		Py_RETURN_NOTIMPLEMENTED;
	PyObject *r = call2(b, self, other);
	if (r == NULL || r == Py_NotImplemented)
		return r;
	int truth = PyObject_IsTrue(r);
	Py_DECREF(r);
	return truth < 0 ? NULL : PyBool_FromLong(!truth);
}

static int nb_bool(PyObject *self) {
	PyObject *r = call1(special_of(self, GDL_SPECIAL_BOOL), self);
	if (r == NULL)
		return -1;
	int truth = r == Py_True; /* a bool: special.go holds __bool__ to one */
	Py_DECREF(r);
	return truth;
}

/*
 * An instance's call: self before the arguments, in the slot the caller
 * lends before them where it lends one (as a bound method's call does), in
 * a copy otherwise.
 */
static PyObject *instance_vectorcall(PyObject *self, PyObject *const *args, size_t nargsf, PyObject *kwnames) {
	const gdl_bound *b = special_of(self, GDL_SPECIAL_CALL);
	Py_ssize_t nargs = PyVectorcall_NARGS(nargsf), n = nargs + (kwnames != NULL ? PyTuple_GET_SIZE(kwnames) : 0);
	if (nargsf & PY_VECTORCALL_ARGUMENTS_OFFSET) {
		PyObject **with_self = (PyObject **)args - 1, *lent = with_self[0];
		with_self[0] = self;
		PyObject *r = gdl_bound_call(b, with_self, nargs + 1, kwnames);
		with_self[0] = lent;
		return r;
	}
	PyObject *small[GDL_BIND_MAX_PARAMS + 1];
	PyObject **with_self = n < GDL_BIND_MAX_PARAMS + 1 ? small : PyMem_Malloc((size_t)(n + 1) * sizeof *with_self);
	if (with_self == NULL)
		return PyErr_NoMemory();
	with_self[0] = self;
	memcpy(with_self + 1, args, (size_t)n * sizeof *args);
	PyObject *r = gdl_bound_call(b, with_self, nargs + 1, kwnames);
	if (with_self != small)
		PyMem_Free(with_self);
	return r;
}

/* ---- Containers ---- */

/* len(): the method's int, refused as CPython refuses a Python class's (OverflowError, ValueError). */
static Py_ssize_t mp_length(PyObject *self) {
	PyObject *r = call1(special_of(self, GDL_SPECIAL_LEN), self);
	if (r == NULL)
		return -1;
	Py_ssize_t n = PyNumber_AsSsize_t(r, PyExc_OverflowError);
	Py_DECREF(r);
	if (n < 0 && !PyErr_Occurred())
		PyErr_SetString(PyExc_ValueError, "__len__() should return >= 0");
	return n < 0 ? -1 : n;
}

/* x[key]: the key as given, a negative index included. */
static PyObject *mp_subscript(PyObject *self, PyObject *key) {
	return call2(special_of(self, GDL_SPECIAL_GETITEM), self, key);
}

/*
 * The sequence slot of __getitem__, which iter() of a class without
 * __iter__ uses (0, 1, … until IndexError or StopIteration), as a Python
 * class's: with no sequence length slot, CPython adds nothing to a negative
 * index.
 */
static PyObject *sq_item(PyObject *self, Py_ssize_t i) {
	PyObject *key = PyLong_FromSsize_t(i);
	if (key == NULL)
		return NULL;
	PyObject *r = mp_subscript(self, key);
	Py_DECREF(key);
	return r;
}

/* x[key] = value, and del x[key] (value NULL): each its own method. */
static int mp_ass_subscript(PyObject *self, PyObject *key, PyObject *value) {
	const gdl_bound *b = special_of(self, value != NULL ? GDL_SPECIAL_SETITEM : GDL_SPECIAL_DELITEM);
	if (b == NULL) {
		PyErr_Format(PyExc_TypeError, "'%.200s' object does not support item %s", Py_TYPE(self)->tp_name,
		             value != NULL ? "assignment" : "deletion");
		return -1;
	}
	PyObject *args[3] = {self, key, value};
	PyObject *r = gdl_bound_call(b, args, value != NULL ? 3 : 2, NULL);
	Py_XDECREF(r);
	return r == NULL ? -1 : 0;
}

static int sq_contains(PyObject *self, PyObject *key) {
	PyObject *r = call2(special_of(self, GDL_SPECIAL_CONTAINS), self, key);
	if (r == NULL)
		return -1;
	int truth = r == Py_True; /* a bool: special.go holds __contains__ to one */
	Py_DECREF(r);
	return truth;
}

static PyObject *tp_iter(PyObject *self) { return call1(special_of(self, GDL_SPECIAL_ITER), self); }

/* The end of an iteration is NULL with no exception, as a C iterator says it: a loop need not clear one. */
static PyObject *tp_iternext(PyObject *self) {
	PyObject *r = call1(special_of(self, GDL_SPECIAL_NEXT), self);
	if (r == NULL && PyErr_ExceptionMatches(PyExc_StopIteration))
		PyErr_Clear();
	return r;
}

/* ---- Numbers ---- */

#define UNARY(slot, which) \
	static PyObject *slot(PyObject *self) { return call1(special_of(self, GDL_SPECIAL_##which), self); }

UNARY(nb_negative, NEG)
UNARY(nb_positive, POS)
UNARY(nb_absolute, ABS)
UNARY(nb_invert, INVERT)
UNARY(nb_index, INDEX)
UNARY(nb_int, INT)
UNARY(nb_float, FLOAT)

/*
 * binary is the slot of operator op for a op b, one of which is an instance
 * of a bound class (the slot is the same C function in every bound class):
 * a's method op, then, unless a and b are of one class or the method took
 * them, b's reflected method (op + 1, never for pow's three operands), as
 * CPython's slot wrappers run __add__ and __radd__.
 */
static PyObject *binary(PyObject *a, PyObject *b, PyObject *mod, int op) {
	gdl_class *ca = bound_class(a), *cb = bound_class(b);
	if (ca != NULL && ca->special[op] != NULL) {
		PyObject *r = call_operands(ca->special[op], a, b, mod);
		if (r != Py_NotImplemented || cb == ca)
			return r;
		Py_DECREF(r);
	}
	if (cb != NULL && cb != ca && cb->special[op + 1] != NULL && mod == Py_None)
		return call_operands(cb->special[op + 1], b, a, Py_None);
	Py_RETURN_NOTIMPLEMENTED;
}

/* a op= b: the in-place method's result, or a itself for a method with none (Python falls back to op if it declines). */
static PyObject *inplace(PyObject *self, PyObject *other, PyObject *mod, int op) {
	const gdl_bound *b = special_of(self, op);
	PyObject *r = call_operands(b, self, other, mod);
	if (r == Py_None && b->nresults == 0) {
		Py_DECREF(r);
		return Py_NewRef(self);
	}
	return r;
}

#define BINARY(slot, op)                                                                                         \
	static PyObject *slot(PyObject *a, PyObject *b) { return binary(a, b, Py_None, GDL_SPECIAL_##op); }           \
	static PyObject *slot##_inplace(PyObject *a, PyObject *b) { return inplace(a, b, Py_None, GDL_SPECIAL_I##op); }

BINARY(nb_add, ADD)
BINARY(nb_subtract, SUB)
BINARY(nb_multiply, MUL)
BINARY(nb_matrix_multiply, MATMUL)
BINARY(nb_true_divide, TRUEDIV)
BINARY(nb_floor_divide, FLOORDIV)
BINARY(nb_remainder, MOD)
BINARY(nb_lshift, LSHIFT)
BINARY(nb_rshift, RSHIFT)
BINARY(nb_and, AND)
BINARY(nb_or, OR)
BINARY(nb_xor, XOR)

static PyObject *nb_divmod(PyObject *a, PyObject *b) { return binary(a, b, Py_None, GDL_SPECIAL_DIVMOD); }
static PyObject *nb_power(PyObject *a, PyObject *b, PyObject *m) { return binary(a, b, m, GDL_SPECIAL_POW); }
static PyObject *nb_power_inplace(PyObject *a, PyObject *b, PyObject *m) { return inplace(a, b, m, GDL_SPECIAL_IPOW); }

/* ---- The slots ---- */

/* A slot, and the special methods any of which fills it. */
typedef struct {
	int slot;
	void *fn;
	int8_t by[2];
} slot_row;

#define ONE(slot, fn, which) {slot, (void *)fn, {GDL_SPECIAL_##which, GDL_SPECIAL_##which}}
#define PAIR(slot, fn, op) {slot, (void *)fn, {GDL_SPECIAL_##op, GDL_SPECIAL_R##op}}
#define OPERATOR(name, fn, op) PAIR(Py_nb_##name, fn, op), ONE(Py_nb_inplace_##name, fn##_inplace, I##op)

static const slot_row rows[] = {
	ONE(Py_tp_str, tp_str, STR),
	ONE(Py_nb_bool, nb_bool, BOOL),
	ONE(Py_tp_call, PyVectorcall_Call, CALL),
	ONE(Py_mp_length, mp_length, LEN),
	ONE(Py_mp_subscript, mp_subscript, GETITEM),
	ONE(Py_sq_item, sq_item, GETITEM),
	{Py_mp_ass_subscript, (void *)mp_ass_subscript, {GDL_SPECIAL_SETITEM, GDL_SPECIAL_DELITEM}},
	ONE(Py_sq_contains, sq_contains, CONTAINS),
	ONE(Py_tp_iter, tp_iter, ITER),
	ONE(Py_tp_iternext, tp_iternext, NEXT),
	ONE(Py_nb_negative, nb_negative, NEG),
	ONE(Py_nb_positive, nb_positive, POS),
	ONE(Py_nb_absolute, nb_absolute, ABS),
	ONE(Py_nb_invert, nb_invert, INVERT),
	ONE(Py_nb_index, nb_index, INDEX),
	ONE(Py_nb_int, nb_int, INT),
	ONE(Py_nb_float, nb_float, FLOAT),
	OPERATOR(add, nb_add, ADD),
	OPERATOR(subtract, nb_subtract, SUB),
	OPERATOR(multiply, nb_multiply, MUL),
	OPERATOR(matrix_multiply, nb_matrix_multiply, MATMUL),
	OPERATOR(true_divide, nb_true_divide, TRUEDIV),
	OPERATOR(floor_divide, nb_floor_divide, FLOORDIV),
	OPERATOR(remainder, nb_remainder, MOD),
	OPERATOR(power, nb_power, POW),
	OPERATOR(lshift, nb_lshift, LSHIFT),
	OPERATOR(rshift, nb_rshift, RSHIFT),
	OPERATOR(and, nb_and, AND),
	OPERATOR(or, nb_or, OR),
	OPERATOR(xor, nb_xor, XOR),
	PAIR(Py_nb_divmod, nb_divmod, DIVMOD),
};

int gdl_special_slots(gdl_class *c, PyType_Slot *slots) {
	int n = 0;
	/* Every class has a repr, a hash and comparisons: the author's, or identity's. */
	slots[n++] = (PyType_Slot){Py_tp_repr, (void *)tp_repr};
	slots[n++] = (PyType_Slot){Py_tp_hash, (void *)tp_hash};
	slots[n++] = (PyType_Slot){Py_tp_richcompare, (void *)tp_richcompare};
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
		if (c->special[rows[i].by[0]] != NULL || c->special[rows[i].by[1]] != NULL)
			slots[n++] = (PyType_Slot){rows[i].slot, rows[i].fn};
	c->call = c->special[GDL_SPECIAL_CALL] != NULL ? instance_vectorcall : NULL;
	return n;
}
