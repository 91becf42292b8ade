/*
 * Go calling Python in a child it forked (fork.c), for the C that calls
 * Python code for Go (capsule's Take and Import, pymodule's calls and
 * callbacks, cpython.DecRef).
 *
 * Python code that Go called (a producer's __dlpack__, a callback, a
 * destructor) can fork. The child cannot return to Go: its other threads,
 * the scheduler's among them, did not survive the fork, and returning from a
 * cgo call waits for them for ever whenever the parent had handed this
 * thread's processor to one of them. So C that Go called never returns to
 * Go there: it jumps back over Go's frames to the C frame that entered Go
 * (a gdl_fork_exit), which raises the fork guard's error. Where no such frame
 * is next on the thread's stack, the child exits with status 1 and a line on
 * stderr.
 */
#ifndef GODLPACK_FORK_H
#define GODLPACK_FORK_H

#include "cpython.h"
#include <setjmp.h>

/* A C frame that entered Go and is where Go's callees on its thread go back to in a forked child. */
typedef struct gdl_fork_exit {
	sigjmp_buf to;                /* sigsetjmp'd by the frame: it returns 1 in the child */
	struct gdl_fork_exit *outer;  /* the thread's exit before this one */
	unsigned python_calls;        /* gdl_go_python_calls when the frame entered Go */
	PyThreadState *thread_state;  /* the thread's state when the frame entered Go: NULL without the GIL */
} gdl_fork_exit;

/* The thread's innermost exit, pushed by the frame before it enters Go and popped after. */
extern __thread gdl_fork_exit *gdl_fork_exit_top;
/*
 * Calls from Go into Python under way on the thread: an exit is jumped to only
 * from the first call since it entered Go, so that no frame of Python's lies
 * between (only Go's, which the child never returns to).
 */
extern __thread unsigned gdl_go_python_calls;

/*
 * gdl_leave_forked_child ends, in a forked child, the Python call C made for
 * Go: a jump to the thread's exit when only Go's frames lie between, else
 * the child's exit with status 1. The exit's frame gets the GIL as it had
 * it when it entered Go: Go's code may have released it since
 * (cpython.WithoutGIL) or taken it. The exit raises its own exception in
 * place of a pending one.
 */
void gdl_leave_forked_child(void) __attribute__((noreturn));

/*
 * gdl_go_calls_python and gdl_go_called_python bracket Python code that C
 * called for Go runs. After it, in a forked child, gdl_go_called_python
 * never returns: the caller lets go of what it holds first.
 */
static inline void gdl_go_calls_python(void) { gdl_go_python_calls++; }
static inline void gdl_go_called_python(void) {
	if (gdl_forked_child())
		gdl_leave_forked_child();
	gdl_go_python_calls--;
}

/* gdl_go_decref is Go's cpython.DecRef: Py_XDECREF between gdl_go_calls_python and gdl_go_called_python. */
void gdl_go_decref(PyObject *o);

#endif
