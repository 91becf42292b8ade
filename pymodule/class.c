/*
 * Go types as Python classes: the class's type, made from its spec, whose
 * constructor, pickling and properties are calls of the class's bound Go
 * functions (function_call.c), whose special methods fill its slots
 * (special.c), and whose fields C reads in place. Only to read the class's
 * fields (pymodule.Field) does an instance keep its value's address, which
 * Go pinned and handed over. Every function here runs with the GIL held.
 */
#include <string.h>
#include "pymodule.h"
#include "_cgo_export.h"

/*
 * Pickling: (Class._restore, state), where state is what the author's state
 * function returns (a tuple of its results, or its one result), and
 * _restore, the author's restore function, makes the instance again in any
 * process that imports the module. A class without them cannot be pickled
 * (nor copied), as an object of a C extension without __reduce__.
 */
static PyObject *instance_reduce(gdl_instance *o, PyObject *unused) {
	gdl_class *c = gdl_class_of(o->class_id);
	if (c->state == NULL || c->restore == NULL)
		return PyErr_Format(PyExc_TypeError, "cannot pickle '%s' object: its class has no state and restore functions "
		                    "(pymodule.Pickle)", c->type->tp_name);
	PyObject *state = gdl_method_call(c->state, (PyObject *)o, NULL);
	if (state == NULL)
		return NULL;
	PyObject *r = PyTuple_Check(state) && c->state->nresults > 1 ? Py_BuildValue("(OO)", c->restore, state)
	                                                                : Py_BuildValue("(O(O))", c->restore, state);
	Py_DECREF(state);
	return r;
}

static PyMethodDef instance_methods[] = {
	{"__reduce__", (PyCFunction)instance_reduce, METH_NOARGS,
	 "__reduce__($self, /)\n--\n\nPickle support: the class's restore function and the instance's state."},
	{NULL},
};

/* The constructor is the class's init function, called directly (the type's vectorcall). */
static PyObject *class_vectorcall(PyObject *type, PyObject *const *args, size_t nargsf, PyObject *kwnames) {
	gdl_class *c = gdl_class_of_type((PyTypeObject *)type);
	if (c == NULL || c->init == NULL)
		return PyErr_Format(PyExc_TypeError, "cannot create '%s' instances: its class has no constructor",
		                    ((PyTypeObject *)type)->tp_name);
	return gdl_bound_call(c->init, args, PyVectorcall_NARGS(nargsf), kwnames);
}

/* ---- Properties ---- */

static PyObject *property_get(PyObject *self, void *closure) { return gdl_method_call(((gdl_property *)closure)->get, self, NULL); }

/*
 * field_get reads a field in the instance's Go value, with no call into Go
 * (nanobind's def_ro) but the first, which pins the value and hands its
 * address over: a class's instances that are made and dropped without a
 * field read pay nothing for it. In a forked child, where Go must not run,
 * an instance never read before cannot be (RuntimeError). As a getter's call
 * would, field_get refuses an instance that a call on another thread holds
 * while it releases the GIL: that call's Go code may be writing the field.
 */
static PyObject *field_get(PyObject *self, void *closure) {
	const gdl_property *p = closure;
	gdl_instance *o = (gdl_instance *)self;
	if (o->value == NULL) {
		if (gdl_forked_child())
			return gdl_fork_error();
		if ((o->value = (const char *)(uintptr_t)godlpackClassPin(o->class_id, o->slot)) == NULL)
			return PyErr_NoMemory(); /* a pin that panicked: Go's runtime refused it */
	}
	if (o->borrower != NULL && o->holder_thread != PyThread_get_thread_ident())
		return PyErr_Format(PyExc_RuntimeError,
		                    "field '%s': the %s is in use by %s() on another thread, which released the GIL or runs "
		                    "Python code",
		                    p->name, Py_TYPE(self)->tp_name, o->borrower->fn->qualname);
	return gdl_plain_object(p->kind, o->value + p->offset);
}

static int property_set(PyObject *self, PyObject *value, void *closure) {
	gdl_property *p = closure;
	if (p->set == NULL) {
		PyErr_Format(PyExc_AttributeError, "property '%s' of '%s' object has no setter", p->name,
		             Py_TYPE(self)->tp_name);
		return -1;
	}
	if (value == NULL) {
		PyErr_Format(PyExc_AttributeError, "property '%s' of '%s' object cannot be deleted", p->name,
		             Py_TYPE(self)->tp_name);
		return -1;
	}
	PyObject *r = gdl_method_call(p->set, self, value);
	Py_XDECREF(r);
	return r == NULL ? -1 : 0;
}

/* ---- The class ---- */

int gdl_class_make(int32_t id, PyObject *m, const char *qualified, const char *doc, gdl_property *props, int nprops) {
	gdl_class *c = gdl_class_of(id);
	PyGetSetDef *getset = calloc((size_t)nprops + 1, sizeof *getset);
	PyMemberDef *members = calloc(3, sizeof *members);
	char *name = gdl_strdup(qualified), *docs = gdl_strdup(doc);
	if (getset == NULL || members == NULL || name == NULL || docs == NULL) {
		free(getset), free(members), free(name), free(docs);
		PyErr_NoMemory();
		return -1;
	}
	for (int i = 0; i < nprops; i++)
		getset[i] = (PyGetSetDef){props[i].name, props[i].get != NULL ? property_get : field_get,
		                          props[i].set != NULL ? property_set : NULL, props[i].doc, &props[i]};
	members[0] = (PyMemberDef){"__weaklistoffset__", Py_T_PYSSIZET, offsetof(gdl_instance, weakrefs), Py_READONLY, NULL};
	PyType_Slot slots[6 + GDL_SPECIAL_SLOTS] = {
		{Py_tp_dealloc, gdl_instance_dealloc},
		{Py_tp_doc, docs},
		{Py_tp_methods, instance_methods},
		{Py_tp_getset, getset},
		{Py_tp_members, members},
	};
	gdl_special_slots(c, slots + 5); /* the rest stays {0, NULL}, the end */
	/* Immutable and final: its Go methods know no Python subclass, and its attributes are the author's. */
	PyType_Spec spec = {
		.name = name,
		.basicsize = sizeof(gdl_instance),
		.flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_IMMUTABLETYPE | Py_TPFLAGS_DISALLOW_INSTANTIATION,
		.slots = slots,
	};
	if (c->call != NULL) { /* its instances are called through the vectorcall each holds */
		members[1] = (PyMemberDef){"__vectorcalloffset__", Py_T_PYSSIZET, offsetof(gdl_callable_instance, vectorcall),
		                           Py_READONLY, NULL};
		spec.basicsize = sizeof(gdl_callable_instance);
		spec.flags |= Py_TPFLAGS_HAVE_VECTORCALL;
	}
	PyTypeObject *type = (PyTypeObject *)PyType_FromModuleAndSpec(m, &spec, NULL);
	if (type == NULL)
		return -1; /* the C memory above stays: a failed import */
	type->tp_vectorcall = class_vectorcall;
	c->type = type;
	c->id = id;
	const char *short_name = strrchr(name, '.');
	return PyModule_AddObjectRef(m, short_name != NULL ? short_name + 1 : name, (PyObject *)type);
}

int gdl_class_set(int32_t id, const char *name, PyObject *value) {
	PyTypeObject *type = gdl_class_of(id)->type;
	if (PyDict_SetItemString(type->tp_dict, name, value) != 0)
		return -1;
	PyType_Modified(type);
	return 0;
}

int gdl_class_forget(int32_t id, const char *name) {
	PyTypeObject *type = gdl_class_of(id)->type;
	PyObject *o = PyDict_GetItemString(type->tp_dict, name);
	if (o == NULL || !Py_IS_TYPE(o, &PyWrapperDescr_Type))
		return 0;
	if (PyDict_DelItemString(type->tp_dict, name) != 0)
		return -1;
	PyType_Modified(type);
	return 0;
}
