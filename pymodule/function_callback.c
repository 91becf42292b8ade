/*
 * Callbacks: a Python callable a bound function took for a parameter of a
 * Go function type, called from Go with the conversions of calls, reversed.
 * It may run on any thread, with the GIL or without it: it takes the GIL for
 * the call.
 */
#include "pymodule.h"

/* set_aside keeps the pending exception in the owner, for the bound call to raise; the first one wins. */
static void set_aside(gdl_call *owner) {
	if (owner->callback_failed) {
		PyErr_Clear();
		return;
	}
	gdl_error_save(&owner->callback_error);
	owner->callback_failed = true;
}

/*
 * expired says whether cb's owner returned. Read with the GIL held: the owner
 * expires its callbacks before it returns, and it returns (and lets go of the
 * callable, and of its gdl_call) only with the GIL, so while a callback holds
 * the GIL and finds its owner not expired, both stay alive.
 */
static bool expired(const gdl_callback_call *cb) { return __atomic_load_n(cb->expired, __ATOMIC_ACQUIRE) != 0; }

int gdl_callback_invoke(gdl_callback_call *cb) {
	PyGILState_STATE g = PyGILState_Ensure();
	const gdl_bound *a = cb->args, *r = cb->results;
	gdl_call *c = cb->c;
	if (expired(cb)) {
		/* The owner returned while this call waited for the GIL. */
		gdl_drop_results(a, c, 0);
		PyGILState_Release(g);
		return -3;
	}
	int rc = -1, nt = 0;
	PyObject *args[GDL_BIND_MAX_PARAMS] = {NULL};
	int n = 0;
	for (; n < a->nresults; n++)
		if ((args[n] = gdl_convert_result(a, c, n)) == NULL) {
			gdl_drop_results(a, c, n + 1);
			break;
		}
	/* Its own reference: the callable's code may release the GIL, and the owner return meanwhile. */
	PyObject *callable = Py_NewRef(cb->callable);
	gdl_go_calls_python();
	PyObject *got = n == a->nresults ? PyObject_Vectorcall(callable, args, (size_t)n, NULL) : NULL;
	for (int i = 0; i < n; i++)
		Py_DECREF(args[i]);
	if (gdl_forked_child()) {
		/* Its Python code forked: Go must not go on in this child. */
		Py_XDECREF(got);
		Py_DECREF(callable);
		PyErr_Clear();
		PyGILState_Release(g);
	}
	gdl_go_called_python();
	if (expired(cb)) {
		/* The owner returned while the callable ran: what it returned or raised has no one to go to. */
		Py_XDECREF(got);
		Py_DECREF(callable);
		PyErr_Clear();
		PyGILState_Release(g);
		return -3;
	}
	Py_DECREF(callable); /* the owner, not expired, still holds it */
	if (got != NULL) {
		c->fn = r;
		c->nborrowed = 0;
		if (r->nparams == 0) {
			rc = 0;
		} else if (r->nparams == 1) {
			rc = gdl_convert_arg(r, 0, got, c, &nt);
		} else if (!PyTuple_Check(got) || PyTuple_GET_SIZE(got) != r->nparams) {
			PyErr_Format(PyExc_TypeError, "%s(): a callback must return a tuple of %d values, not %.200s",
			             r->qualname, r->nparams, Py_TYPE(got)->tp_name);
		} else {
			rc = 0;
			for (int i = 0; i < r->nparams && rc == 0; i++)
				rc = gdl_convert_arg(r, i, PyTuple_GET_ITEM(got, i), c, &nt);
		}
		gdl_instances_return(c);
		/*
		 * The values C read (a str's UTF-8, bytes) live in got: it is kept until Go has copied them
		 * (gdl_callback_done).
		 */
		cb->returned = got;
	}
	if (rc != 0) {
		set_aside(cb->owner);
		Py_XDECREF(got);
		cb->returned = NULL;
	}
	PyGILState_Release(g);
	return rc;
}

void gdl_callback_drop(gdl_callback_call *cb) {
	PyGILState_STATE g = PyGILState_Ensure();
	gdl_drop_results(cb->args, cb->c, 0);
	PyGILState_Release(g);
}

void gdl_callback_done(gdl_callback_call *cb) {
	if (cb->returned == NULL)
		return;
	PyGILState_STATE g = PyGILState_Ensure();
	Py_CLEAR(cb->returned);
	PyGILState_Release(g);
}
