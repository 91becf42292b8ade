/*
 * Go calling Python in a child that the Python code forked: the jump back
 * over Go's frames, or the child's exit (capsule.h says why Go cannot be
 * returned to).
 */
#include <unistd.h>
#include "capsule.h"

__thread gdl_fork_exit *gdl_fork_exit_top;
__thread unsigned gdl_go_python_calls;

void gdl_leave_forked_child(void) {
	gdl_fork_exit *e = gdl_fork_exit_top;
	/* Any later call from Go into Python, still under way, has Python's frames between here and e. */
	if (e != NULL && e->python_calls + 1 == gdl_go_python_calls) {
		gdl_go_python_calls = e->python_calls;
		/* The jump skips the Go code that would have restored the frame's GIL (capsule.WithoutGIL's defer). */
		PyThreadState *now = gdl_thread_state();
		if (now != e->thread_state) {
			if (now != NULL)
				PyEval_SaveThread();
			if (e->thread_state != NULL)
				PyEval_RestoreThread(e->thread_state);
		}
		siglongjmp(e->to, 1);
	}
	static const char why[] = "godlpack: Python code that Go called forked the process, on a thread with no Python "
	                          "call of Go's to return to; the child cannot return to Go, which does not run after a "
	                          "fork, and exits with status 1\n";
	ssize_t unused = write(2, why, sizeof why - 1);
	(void)unused;
	_exit(1);
}

int gdl_go_take(PyObject *x, const gdl_request *req, gdl_taken *out) {
	gdl_go_calls_python();
	int rc = gdl_take(x, req, out);
	if (rc == 0 && gdl_forked_child())
		gdl_taken_release(out);
	gdl_go_called_python();
	return rc;
}

int gdl_go_import_managed(PyObject *x, const gdl_request *req, void **managed, bool *versioned) {
	gdl_go_calls_python();
	int rc = gdl_import_managed(x, req, managed, versioned);
	if (rc == 0 && gdl_forked_child())
		gdl_delete_keeping_error(*managed, *versioned);
	gdl_go_called_python();
	return rc;
}

void gdl_go_decref(PyObject *o) {
	gdl_go_calls_python();
	Py_XDECREF(o);
	gdl_go_called_python();
}
