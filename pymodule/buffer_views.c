/*
 * Views of the memory an instance owns (pymodule.Buffer.View): a result
 * tensor over a Buffer's memory that keeps alive the instance the call took
 * first, as nanobind's rv_policy::reference_internal does. The view's owner
 * wraps the memory's: every holder of the view (the module's Tensor, a NumPy
 * array over it, a managed tensor a consumer holds) holds the wrapper, whose
 * release lets go of the memory and of the instance. It calls class_instances.c.
 */
#include <stdlib.h>
#include "pymodule.h"

/*
 * release_view is the wrapper's release, on whichever thread the last holder
 * lets go: any thread, with or without the GIL, even after the interpreter
 * finalized. The memory's reference goes first (an atomic count: the Buffer
 * may resize once no view holds it), then the instance's, with the GIL; once
 * the interpreter is finalizing or gone, the instance is left, as
 * capsule's ndarray deleter leaves its array.
 */
static void release_view(gdl_owner *o) {
	gdl_owner_drop(o->ctx);
	PyObject *instance = (PyObject *)o->handle;
	if (!gdl_owner_is_shut_down() && Py_IsInitialized()) {
		PyGILState_STATE g = PyGILState_Ensure();
		gdl_drop_keeping_error(instance); /* its death may free its Buffers: C's and Go's work, no Python code */
		PyGILState_Release(g);
	}
	free(o);
}

/* first_instance is the instance c took as b's first argument, or NULL. */
static PyObject *first_instance(const gdl_bound *b, const gdl_call *c) {
	if (b->nparams == 0 || b->params[0].kind != GDL_KIND_INSTANCE || !c->args[0].present)
		return NULL;
	gdl_class *cls = gdl_class_of(b->params[0].class_id);
	int32_t slot = c->args[0].v.i32;
	return slot >= 0 && slot < cls->nobjects ? cls->objects[slot] : NULL;
}

int gdl_view_keep(const gdl_bound *b, const gdl_call *c, gdl_source *src) {
	PyObject *instance = first_instance(b, c);
	if (instance == NULL)
		return 0;
	gdl_owner *view = gdl_owner_new(release_view, src->owner, (uintptr_t)Py_NewRef(instance));
	if (view == NULL) {
		Py_DECREF(instance);
		gdl_source_release(src);
		PyErr_NoMemory();
		return -1;
	}
	src->owner = view; /* the memory's reference passes to the view's owner */
	return 0;
}
