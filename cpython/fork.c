/*
 * Go calling Python in a child that the Python code forked: the jump back
 * over Go's frames, or the child's exit (cpython.h says why Go cannot be
 * returned to).
 */
#include <unistd.h>
#include "fork.h"
#include "cpython.h"

__thread gdl_fork_exit *gdl_fork_exit_top;
__thread unsigned gdl_go_python_calls;

void gdl_leave_forked_child(void) {
	gdl_fork_exit *e = gdl_fork_exit_top;
	/* Any later call from Go into Python, still under way, has Python's frames between here and e. */
	if (e != NULL && e->python_calls + 1 == gdl_go_python_calls) {
		gdl_go_python_calls = e->python_calls;
		/* The jump skips the Go code that would have restored the frame's GIL (cpython.WithoutGIL's defer). */
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

void gdl_go_decref(PyObject *o) {
	gdl_go_calls_python();
	Py_XDECREF(o);
	gdl_go_called_python();
}
