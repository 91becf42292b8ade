/*
 * The binder's function object: one per bound function or method, whose
 * vectorcall is the bound call itself (one record, gdl_bound, holds its
 * plan, its Go entry and its name and signature). A method is such a
 * function in its class's dict: a descriptor, which CPython calls with the
 * instance first and no bound-method object in between
 * (Py_TPFLAGS_METHOD_DESCRIPTOR).
 */
#include <string.h>
#include "pymodule.h"

typedef struct {
	PyObject_HEAD
	vectorcallfunc vectorcall;
	const gdl_bound *b;
	PyObject *module;   /* the name of the module it belongs to, a str */
	PyObject *qualname; /* "f", or "Class.method" */
	PyObject *self;     /* a module function's module, as a built-in function's __self__; NULL for a method */
	PyObject *signature; /* its __signature__, once asked for */
} gdl_function;

static PyObject *function_vectorcall(PyObject *self, PyObject *const *args, size_t nargsf, PyObject *kwnames) {
	return gdl_bound_call(((gdl_function *)self)->b, args, PyVectorcall_NARGS(nargsf), kwnames);
}

static void function_dealloc(gdl_function *f) {
	PyTypeObject *type = Py_TYPE(f);
	PyObject_GC_UnTrack(f);
	Py_CLEAR(f->module);
	Py_CLEAR(f->qualname);
	Py_CLEAR(f->self);
	Py_CLEAR(f->signature);
	PyObject_GC_Del(f);
	Py_DECREF(type);
}

static int function_traverse(gdl_function *f, visitproc visit, void *arg) {
	Py_VISIT(Py_TYPE(f)); /* a heap type's instances visit it */
	Py_VISIT(f->self);
	Py_VISIT(f->signature);
	return 0;
}

/* A method looked up on an instance is bound to it; on its class, it is the function itself. */
static PyObject *function_get(PyObject *self, PyObject *obj, PyObject *type) {
	if (obj == NULL || obj == Py_None)
		return Py_NewRef(self);
	return PyMethod_New(self, obj);
}

static PyObject *function_repr(gdl_function *f) {
	if (f->b->class_name != NULL)
		return PyUnicode_FromFormat("<method '%s' of '%s' objects>", f->b->name, f->b->class_name);
	return PyUnicode_FromFormat("<built-in function %s>", f->b->name);
}

static PyObject *get_name(gdl_function *f, void *c) { return PyUnicode_FromString(f->b->name); }
static PyObject *get_qualname(gdl_function *f, void *c) { return Py_NewRef(f->qualname); }
static PyObject *get_module(gdl_function *f, void *c) { return Py_NewRef(f->module); }

static PyObject *get_self(gdl_function *f, void *c) {
	if (f->self == NULL)
		return PyErr_Format(PyExc_AttributeError, "method '%s' has no __self__", f->b->qualname);
	return Py_NewRef(f->self);
}

/* The docstring after its text signature, as CPython's built-in functions split them. */
static PyObject *get_doc(gdl_function *f, void *c) {
	const char *doc = f->b->doc, *end = strstr(doc, "\n--\n\n");
	return PyUnicode_FromString(end != NULL ? end + 5 : doc);
}

/* The text signature inspect.signature reads: "(x, /, lo=-1e999)", with no $module or $self. */
static PyObject *get_text_signature(gdl_function *f, void *c) {
	const char *doc = f->b->doc, *open = strchr(doc, '('), *end = strstr(doc, "\n--\n\n");
	if (open == NULL || end == NULL)
		Py_RETURN_NONE;
	return PyUnicode_FromStringAndSize(open, end - open);
}

/*
 * The inspect.Signature of its Python signature, annotations included
 * (signature.c), made once; None where Go wrote none, or where it cannot be
 * made (the module gone from sys.modules, a default that does not
 * evaluate), for inspect to read the text signature instead.
 */
static PyObject *get_signature(gdl_function *f, void *c) {
	if (f->signature != NULL || f->b->signature == NULL)
		return Py_NewRef(f->signature != NULL ? f->signature : Py_None);
	PyObject *sig = gdl_signature_eval(f->b->signature, f->module);
	if (sig == NULL) {
		PyErr_Clear();
		Py_RETURN_NONE;
	}
	if (f->signature == NULL) /* another thread may have made it while inspect ran */
		f->signature = Py_NewRef(sig);
	return sig;
}

/*
 * What it is to isinstance, inspect.isbuiltin and pydoc, which head its
 * documentation "built-in function NAME in module M" (not by its type's
 * name): a built-in function, as it is to Python code. type() names its
 * own type.
 */
static PyObject *get_class(gdl_function *f, void *c) { return Py_NewRef((PyObject *)&PyCFunction_Type); }

static PyGetSetDef function_getset[] = {
	{"__name__", (getter)get_name, NULL, NULL, NULL},
	{"__qualname__", (getter)get_qualname, NULL, NULL, NULL},
	{"__module__", (getter)get_module, NULL, NULL, NULL},
	{"__self__", (getter)get_self, NULL, NULL, NULL},
	{"__doc__", (getter)get_doc, NULL, NULL, NULL},
	{"__text_signature__", (getter)get_text_signature, NULL, NULL, NULL},
	{"__signature__", (getter)get_signature, NULL, NULL, NULL},
	{"__class__", (getter)get_class, NULL, NULL, NULL},
	{NULL},
};

/* Pickled by name, as a built-in function: its qualified name in its module, which pickle looks up. */
static PyObject *function_reduce(gdl_function *f, PyObject *unused) { return Py_NewRef(f->qualname); }

static PyMethodDef function_methods[] = {
	{"__reduce__", (PyCFunction)function_reduce, METH_NOARGS, NULL},
	{NULL},
};

static PyMemberDef function_members[] = {
	{"__vectorcalloffset__", Py_T_PYSSIZET, offsetof(gdl_function, vectorcall), Py_READONLY, NULL},
	{NULL},
};

static PyType_Slot function_slots[] = {
	{Py_tp_dealloc, function_dealloc},
	{Py_tp_traverse, function_traverse},
	{Py_tp_repr, function_repr},
	{Py_tp_call, PyVectorcall_Call},
	{Py_tp_descr_get, function_get},
	{Py_tp_getset, function_getset},
	{Py_tp_methods, function_methods},
	{Py_tp_members, function_members},
	{0, NULL},
};

static PyType_Spec function_spec = {
	.name = "go_function",
	.basicsize = sizeof(gdl_function),
	.flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_IMMUTABLETYPE | Py_TPFLAGS_DISALLOW_INSTANTIATION |
	         Py_TPFLAGS_HAVE_VECTORCALL | Py_TPFLAGS_METHOD_DESCRIPTOR,
	.slots = function_slots,
};

/*
 * The type of every function this library binds: made once, and kept as
 * long as the process, as the functions it binds are (gdl_bound is never
 * freed, and godlpack runs in the main interpreter only).
 */
static PyTypeObject *function_type;

PyObject *gdl_function_new(const gdl_bound *b, PyObject *module, PyObject *self) {
	if (function_type == NULL && (function_type = (PyTypeObject *)PyType_FromSpec(&function_spec)) == NULL)
		return NULL;
	PyObject *qualname = PyUnicode_FromString(b->qualname);
	if (qualname == NULL)
		return NULL;
	gdl_function *f = PyObject_GC_New(gdl_function, function_type);
	if (f == NULL) {
		Py_DECREF(qualname);
		return NULL;
	}
	f->vectorcall = function_vectorcall;
	f->b = b;
	f->module = Py_NewRef(module);
	f->qualname = qualname;
	f->self = Py_XNewRef(self);
	f->signature = NULL;
	PyObject_GC_Track(f);
	return (PyObject *)f;
}
