/*
 * The bound call: its arguments parsed and converted (function_args.c), the
 * one crossing into Go with one gdl_call, the results (function_results.c)
 * or the error Go wrote, all in C. Every function here runs with the GIL
 * held except godlpackBindCall when the function releases it.
 */
#include <stdlib.h>
#include "pymodule.h"
#include "runtime.h"
#include "_cgo_export.h"

static PyObject *make_results(const gdl_bound *b, gdl_call *c) {
	if (b->nresults == 0)
		Py_RETURN_NONE;
	if (b->nresults == 1) {
		PyObject *o = gdl_convert_result(b, c, 0);
		return o;
	}
	PyObject *t = PyTuple_New(b->nresults);
	if (t == NULL)
		return NULL;
	for (int j = 0; j < b->nresults; j++) {
		PyObject *o = gdl_convert_result(b, c, j);
		if (o == NULL) {
			gdl_drop_results(b, c, j + 1);
			Py_DECREF(t);
			return NULL;
		}
		PyTuple_SET_ITEM(t, j, o);
	}
	return t;
}

/* ---- The call ---- */

/* release_tensors lets go of every tensor the call imported; an exception pending stays pending. */
static void release_tensors(gdl_call *c, int nt) {
	for (int i = 0; i < nt; i++)
		gdl_imported_release(&c->tensors[i].imp);
}

/*
 * raise_call_error raises the error Go wrote in c. A Go function that
 * called CPython and found an exception set (cpython.PythonError) leaves
 * that exception pending, with its type, message and traceback; only when
 * none is (a function that said so wrongly) does its message become a
 * RuntimeError. One that found itself in a forked child
 * (cpython.ErrForked) raises the fork guard's RuntimeError.
 */
static void raise_call_error(const gdl_bound *b, gdl_call *c) {
	if (c->error == GDL_BIND_FORKED) {
		gdl_fork_error();
		return;
	}
	if (c->error == GDL_BIND_PYTHON_ERROR && PyErr_Occurred())
		return;
	Py_ssize_t n = (Py_ssize_t)c->message_len;
	if (c->error == GDL_BIND_CLASS_ERROR)
		gdl_raise_text(c->raise, c->text, n);
	else
		gdl_raise(c->error == GDL_BIND_PYTHON_ERROR ? GDL_RUNTIME_ERROR : c->error, c->text, n);
}

char *gdl_message_room(gdl_call *c, size_t n) {
	char *room = n <= sizeof c->message ? c->message : malloc(n);
	c->text = room;
	c->message_len = room != NULL ? n : 0;
	return room;
}

/* drop_message frees the C memory of a long error message, once raised or set aside. */
static void drop_message(gdl_call *c) {
	if (c->text != c->message)
		free((void *)c->text);
	c->text = c->message;
	c->message_len = 0;
}

/*
 * A call's gdl_call (about 16 KiB) comes from here, never from the C stack:
 * an argument's conversion may run Python code that calls a bound function
 * again (a producer's __dlpack__, an __index__, a __float__), and 16 KiB a
 * level overflowed an 8 MiB stack after about 470 levels, before CPython's
 * recursion limit could end the recursion. A few are kept for reuse: taken
 * and given back with the GIL held, at the start and the end of a call. The
 * spares are the library's, shared by the calls of every module's functions
 * on the path of every call, where a module-state lookup would add work.
 */
#define SPARE_CALLS 4

static gdl_call *spare_calls[SPARE_CALLS];

static int nspare_calls;

gdl_call *gdl_call_new(void) {
	gdl_call *c = nspare_calls > 0 ? spare_calls[--nspare_calls] : malloc(sizeof *c);
	if (c == NULL)
		PyErr_NoMemory();
	return c;
}

void gdl_call_free(gdl_call *c) {
	if (nspare_calls < SPARE_CALLS)
		spare_calls[nspare_calls++] = c;
	else
		free(c);
}

/*
 * enter_go crosses into Go for call c. When Go may run Python code (a
 * callback, a producer's __dlpack__ through capsule.Take), that code can
 * fork, and the child cannot return through Go's frames (capsule.h): such a
 * call is a fork exit, which the child jumps back to, to raise the fork
 * guard's error. Go never runs again in that child: every entry into it is
 * refused in C first.
 */
static void enter_go(gdl_call *c) {
	if (!c->fn->runs_python) {
		godlpackBindCall(c);
		return;
	}
	gdl_fork_exit *e = &c->fork_exit;
	e->outer = gdl_fork_exit_top;
	e->python_calls = gdl_go_python_calls;
	e->thread_state = gdl_thread_state();
	gdl_fork_exit_top = e;
	if (sigsetjmp(e->to, 0) == 0)
		godlpackBindCall(c);
	else
		c->error = GDL_BIND_FORKED;
	gdl_fork_exit_top = e->outer;
}

/*
 * call_with runs a call whose arguments slots holds: their conversion, the
 * crossing into Go, the results. In a child forked after the Go runtime
 * started, Go never runs: the fork guard is checked again once the last
 * conversion, which may run Python code that forks, is done.
 */
static PyObject *call_with(const gdl_bound *b, PyObject **slots, gdl_call *c) {
	c->fn = b;
	c->nout = 0;
	c->error = 0;
	c->unchecked = 0;
	c->nborrowed = 0;
	c->callback_failed = false;
	c->text = c->message;
	c->message_len = 0;
	int nt = 0;
	for (int i = 0; i < b->nparams; i++)
		if (gdl_convert_arg(b, i, slots[i], c, &nt) != 0) {
			gdl_instances_return(c);
			release_tensors(c, nt);
			/* An operand of a type the special method does not take: Python tries the other operand's. */
			if (b->operands && i > 0 && PyErr_ExceptionMatches(PyExc_TypeError)) {
				PyErr_Clear();
				Py_RETURN_NOTIMPLEMENTED;
			}
			return NULL;
		}
	if (gdl_forked_child()) {
		gdl_instances_return(c);
		release_tensors(c, nt);
		return gdl_fork_error();
	}
	for (int j = 0; j < b->nresults; j++)
		c->results[j].present = c->results[j].by_slot = false;
	if (b->release_gil) {
		c->repair = gdl_preemption_suspect();
		Py_BEGIN_ALLOW_THREADS
		enter_go(c);
		Py_END_ALLOW_THREADS
	} else {
		enter_go(c);
	}
	gdl_instances_return(c);
	PyObject *r = NULL;
	if (c->callback_failed && c->error == GDL_BIND_FORKED) {
		/* In a forked child the fork is the error, whatever a callback raised before. */
		gdl_error_restore(&c->callback_error);
		PyErr_Clear();
		gdl_drop_results(b, c, 0);
		gdl_fork_error();
	} else if (c->callback_failed) {
		/* A callback's Python code raised: that exception is the caller's, whatever Go did after. */
		gdl_drop_results(b, c, 0);
		gdl_error_restore(&c->callback_error);
	} else if (c->error == 0) {
		r = make_results(b, c);
	} else {
		gdl_drop_results(b, c, 0);
		raise_call_error(b, c);
	}
	drop_message(c);
	release_tensors(c, nt);
	return r;
}

PyObject *gdl_bound_call(const gdl_bound *b, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
	PyObject *slots[GDL_BIND_MAX_PARAMS];
	if (gdl_parse((gdl_signature *)&b->sig, args, nargs, kwnames, slots) != 0)
		return NULL;
	/* A call takes part in CPython's recursion limit, as a call of a Python function does. */
	if (Py_EnterRecursiveCall(" while calling a Go function"))
		return NULL;
	PyObject *r = NULL;
	gdl_call *c = gdl_call_new(); /* not zeroed: a call uses what its plan names */
	if (c != NULL) {
		r = call_with(b, slots, c);
		gdl_call_free(c);
	}
	Py_LeaveRecursiveCall();
	return r;
}
