/*
 * The instances of bound classes: the table of classes, the instance that
 * holds each Go value (one pointer, one Python object), instances dying and
 * their slots let go of in batches, and a call's hold on the instances it
 * takes. An instance names its Go value by its class and its slot in the
 * class's table of values (Go's classTable), which keeps the value alive
 * until the instance dies. Every function here runs with the GIL held; it
 * calls only basics.c.
 */
#include <string.h>
#include "pymodule.h"
#include "_cgo_export.h"

/*
 * The record of each bound class, by id. They live as long as the process,
 * as their types do, in one table per library rather than in a module's
 * state: an instance names its class by id alone (its deallocator runs with
 * no module at hand), and a later module's functions take and return the
 * classes of earlier ones.
 */
static gdl_class *classes;

static int32_t nclasses, classes_cap;

int32_t gdl_class_reserve(void) {
	if (nclasses == classes_cap) {
		int32_t cap = classes_cap == 0 ? 8 : 2 * classes_cap;
		gdl_class *grown = realloc(classes, (size_t)cap * sizeof *grown);
		if (grown == NULL)
			return PyErr_NoMemory(), -1;
		classes = grown;
		classes_cap = cap;
	}
	memset(&classes[nclasses], 0, sizeof classes[nclasses]);
	return nclasses++;
}

gdl_class *gdl_class_of(int32_t id) { return &classes[id]; }

/* A few classes, compared by pointer. */
gdl_class *gdl_class_of_type(PyTypeObject *tp) {
	for (int32_t i = 0; i < nclasses; i++)
		if (classes[i].type == tp)
			return &classes[i];
	return NULL;
}

/* ---- Instances ---- */

/*
 * gdl_instance_take puts the Python object of slot's value in *out: the one
 * that wraps it already (a new reference), or a new one. -1 with an
 * exception.
 */
PyObject *gdl_instance_take(int32_t id, int32_t slot) {
	gdl_class *c = &classes[id];
	gdl_instance *dying = NULL;
	if (slot < c->nobjects && c->objects[slot] != NULL) {
		gdl_instance *held = (gdl_instance *)c->objects[slot];
		if (!held->dying)
			return Py_NewRef(held);
		dying = held; /* its weak references' callbacks run: the value gets a new instance, which holds the slot */
	}
	if (slot >= c->nobjects) {
		int32_t n = c->nobjects == 0 ? 16 : c->nobjects;
		while (n <= slot)
			n *= 2;
		PyObject **grown = realloc(c->objects, (size_t)n * sizeof *grown);
		if (grown == NULL)
			return PyErr_NoMemory();
		memset(grown + c->nobjects, 0, (size_t)(n - c->nobjects) * sizeof *grown);
		c->objects = grown;
		c->nobjects = n;
	}
	gdl_instance *o = PyObject_New(gdl_instance, c->type);
	if (o == NULL)
		return NULL;
	o->class_id = id;
	o->slot = slot;
	o->value = NULL;
	o->borrower = NULL;
	o->readers = NULL;
	o->weakrefs = NULL;
	if (c->call != NULL)
		((gdl_callable_instance *)o)->vectorcall = c->call;
	o->dying = o->handed_over = false;
	c->objects[slot] = (PyObject *)o; /* borrowed: the instance's dealloc clears it */
	if (dying != NULL)
		dying->handed_over = true;
	return (PyObject *)o;
}

gdl_slot gdl_dead[GDL_DEAD_BATCH];

int32_t gdl_ndead;

void gdl_slot_bury(int32_t id, int32_t slot) {
	gdl_dead[gdl_ndead++] = (gdl_slot){id, slot};
	if (gdl_ndead == GDL_DEAD_BATCH)
		godlpackClassReleaseDead();
}

void gdl_slot_drop(int32_t id, int32_t slot) {
	gdl_class *c = &classes[id];
	if (slot >= c->nobjects || c->objects[slot] == NULL)
		gdl_slot_bury(id, slot);
}

/*
 * An instance's death lets go of its Go value, in a batch (gdl_slot_bury),
 * unless the process is a forked child, where Go must not run: there the
 * value is kept, as a child's owners leak. Its weak references' callbacks
 * run first, and may ask Go for the value again: the dying instance is
 * never handed out (gdl_instance_take makes a new one, which then holds the
 * slot, and the slot is buried once, by whichever instance holds it last).
 */
void gdl_instance_dealloc(gdl_instance *o) {
	PyTypeObject *type = Py_TYPE(o);
	if (o->weakrefs != NULL) {
		o->dying = true;
		PyObject_ClearWeakRefs((PyObject *)o);
	}
	gdl_class *c = &classes[o->class_id]; /* after the callbacks, which may have made a class and moved the table */
	if (!o->handed_over) {
		if (o->slot < c->nobjects && c->objects[o->slot] == (PyObject *)o)
			c->objects[o->slot] = NULL;
		if (!gdl_forked_child()) {
			gdl_slot_bury(o->class_id, o->slot);
			if (c->frees && gdl_ndead > 0) /* C memory of its Buffers: back to the allocator now */
				godlpackClassReleaseDead();
		}
	}
	PyObject_Free(o);
	Py_DECREF(type);
}

/*
 * Every call holds its instances from their conversion until it returns:
 * Python code may run inside any call (a later argument's __index__ or
 * __dlpack__, a callback, a destructor Go's cpython.DecRef runs) and let
 * another thread run meanwhile, or the call may release the GIL. A call holds
 * an instance exclusively, or, for a shared method's (or a getter's)
 * instance, beside other shared calls, listed in readers (a readers-writer
 * hold: one writer or many readers). Another thread's call whose hold the
 * instance's holds exclude is refused, never kept waiting: two Go calls
 * would run on one value at once, one of them writing. A call on the
 * holder's own thread is made by Python code the holder runs (a callback, a
 * conversion), while the holder's Go code waits for it or has not started,
 * and is let through. Where no Python code runs and the GIL stays held, no
 * other thread can see the hold. Holds are taken and given back with the GIL
 * held: plain fields suffice.
 */

/* refuse raises the RuntimeError of an instance that holder's call, on another thread, holds. Returns -2. */
static int refuse(const gdl_param *p, PyObject *o, gdl_call *c, const gdl_bound *holder) {
	PyErr_Format(PyExc_RuntimeError,
	             "%s(): argument '%s': the %s is in use by %s() on another thread, which released the GIL or runs "
	             "Python code",
	             c->fn->qualname, p->name, Py_TYPE(o)->tp_name, holder->qualname);
	return -2;
}

/* A shared hold is kept in the call's list with its low bit set. */
#define SHARED_HOLD ((uintptr_t)1)

/* hold is every hold but an exclusive one of a free instance: a shared one, one the holder's thread nests, or a refusal. */
static int hold(const gdl_param *p, gdl_instance *inst, gdl_call *c) {
	unsigned long thread = PyThread_get_thread_ident();
	if (p->shared) {
		if (inst->borrower != NULL && inst->holder_thread != thread)
			return refuse(p, (PyObject *)inst, c, inst->borrower->fn);
		c->reader_thread = thread;
		c->next_reader = inst->readers;
		inst->readers = c;
		c->borrowed[c->nborrowed++] = (PyObject *)((uintptr_t)inst | SHARED_HOLD);
		return 0;
	}
	if (inst->borrower != NULL) {
		if (inst->borrower != c && inst->holder_thread != thread)
			return refuse(p, (PyObject *)inst, c, inst->borrower->fn);
		return 0; /* held already, by this call or by the one on this thread that runs it */
	}
	/* Shared calls hold it: a writer may join them only when all of them wait on this thread. */
	for (const gdl_call *r = inst->readers; r != NULL; r = r->next_reader)
		if (r->reader_thread != thread)
			return refuse(p, (PyObject *)inst, c, r->fn);
	inst->borrower = c;
	inst->holder_thread = thread;
	c->borrowed[c->nborrowed++] = (PyObject *)inst;
	return 0;
}

int gdl_instance_check(const gdl_param *p, PyObject *o, gdl_call *c, gdl_value *v) {
	gdl_class *cls = &classes[p->class_id];
	if (!Py_IS_TYPE(o, cls->type))
		return -1;
	gdl_instance *inst = (gdl_instance *)o;
	v->v.i32 = inst->slot;
	if (inst->borrower != NULL || inst->readers != NULL || p->shared)
		return hold(p, inst, c);
	inst->borrower = c; /* the common case: an exclusive call takes a free instance */
	inst->holder_thread = PyThread_get_thread_ident();
	c->borrowed[c->nborrowed++] = o;
	return 0;
}

void gdl_instances_return(gdl_call *c) {
	for (int i = 0; i < c->nborrowed; i++) {
		uintptr_t held = (uintptr_t)c->borrowed[i];
		gdl_instance *inst = (gdl_instance *)(held & ~SHARED_HOLD);
		if (!(held & SHARED_HOLD)) {
			inst->borrower = NULL;
			continue;
		}
		gdl_call **r = &inst->readers; /* a call holds one instance shared, its own: unlinked here */
		while (*r != c)
			r = &(*r)->next_reader;
		*r = c->next_reader;
	}
	c->nborrowed = 0;
}
