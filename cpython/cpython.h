/*
 * The C half of package cpython: the plumbing every extension built on
 * godlpack's packages needs in CPython, below the DLPack protocol (capsule.h)
 * and the Python types (tensor.h): the protocol's exceptions and messages of
 * any bytes, a pending exception kept while Python code runs, other
 * libraries' objects by name, argument parsing (args.h), numbers read as
 * NumPy reads them, Go calling Python in a child that forked (fork.c), and
 * the Go runtimes of the process (runtime.h). Every function here is called
 * with the GIL held unless it says otherwise.
 *
 * This C is compiled into every extension library built on the package, so
 * a file-level static of its files is one per library, shared by every
 * module the library makes, in the main interpreter only (runtime.c). Each
 * says why it is not module state; the runtime rendezvous of runtime.c
 * alone is shared between libraries.
 */
#ifndef GODLPACK_CPYTHON_H
#define GODLPACK_CPYTHON_H

#define PY_SSIZE_T_CLEAN
/* Python's headers come from CGO_CFLAGS only (package cpython's doc says why). */
#if defined(__has_include)
#if !__has_include(<Python.h>)
#error "godlpack: Python.h is not on the include path: put the include directories of the interpreter the extension is for into CGO_CFLAGS (python3 -m godlpack.build --cflags prints them; see docs/go-extensions.md in godlpack)"
#endif
#endif
#include <Python.h>
#include <stdbool.h>
#include "dlpack.h"
#include "producer.h"
#include "pyprivate.h"
#include "args.h"

/* ---- Exceptions (errors.c) ---- */

/* The Python exceptions of the protocol; cpython.Exception has the same values. */
enum {
	GDL_OK = 0,
	GDL_TYPE_ERROR,
	GDL_VALUE_ERROR,
	GDL_BUFFER_ERROR,
	GDL_MEMORY_ERROR,
	GDL_OVERFLOW_ERROR,
	GDL_RUNTIME_ERROR,
	GDL_STOP_ITERATION,
};

/*
 * gdl_raise sets the exception of kind with the message of len bytes at msg
 * (gdl_raise_text) and returns NULL.
 */
PyObject *gdl_raise(int kind, const char *msg, Py_ssize_t len);

/*
 * gdl_raise_text sets an exception of type with the message of len bytes at
 * msg, text from Go that need not be UTF-8: every byte is kept, NUL too, and
 * a byte that is no UTF-8 shows as \xNN (backslashreplace), so that the
 * exception is the one asked for, never a UnicodeDecodeError. Returns NULL.
 */
PyObject *gdl_raise_text(PyObject *type, const char *msg, Py_ssize_t len);

/*
 * gdl_fork_error raises the RuntimeError of a call made in a child forked
 * after the Go runtime started (gdl_forked_child), where entering Go could
 * hang forever. Returns NULL.
 */
PyObject *gdl_fork_error(void);

/* Go calling Python in a child it forked: fork.h. */

/* GDL_CHECK_FORK returns ret, with gdl_fork_error's exception, in a forked child. */
#define GDL_CHECK_FORK(ret)          \
	do {                             \
		if (gdl_forked_child()) {    \
			gdl_fork_error();        \
			return ret;              \
		}                            \
	} while (0)

/*
 * gdl_drop_keeping_error drops a reference while an exception is pending:
 * freeing the object may run Python code (a ctypes destructor, a producer's
 * Python deleter), which must neither see nor clear the caller's exception.
 */
void gdl_drop_keeping_error(PyObject *o);

/*
 * gdl_shown returns what a message shows of o, a value a caller passed:
 * its repr, cut after GDL_SHOWN_MAX characters unless o is a str (shown
 * whole, as NumPy shows a dtype's name); an int by its digits, or
 * beyond 128 bits by its size (its repr could exceed the limit of int
 * digits and raise ValueError; an int subclass's own __repr__ is not
 * asked); a tuple's items each so; "<T object>" for an object whose repr
 * raises. It leaves any pending exception as it was and raises none: NULL
 * only when out of memory.
 */
#define GDL_SHOWN_MAX 200
PyObject *gdl_shown(PyObject *o);

/*
 * gdl_delete_keeping_error is gdl_managed_delete with the pending exception
 * kept aside when this thread holds the GIL (any thread may call it, with or
 * without the GIL); an exception the deleter leaves is reported as
 * unraisable. Owners call every upstream deleter through it
 * (gdl_set_foreign_delete), so whatever frees the last holder of an imported
 * tensor keeps the caller's exception.
 */
void gdl_delete_keeping_error(void *managed, bool versioned);

/* ---- Interned names (names.c) ---- */

/*
 * The Python strings the C of godlpack's packages looks up or passes, made
 * once by gdl_names_ready (the library's first gdl_join_process, and any Go
 * entry that may come first) and kept: a field is never NULL once a module
 * of the library exists.
 */
typedef struct {
	PyObject *dlpack, *dlpack_device, *dlpack_c_exchange_api, *requires_grad; /* attributes of producers */
	PyObject *max_version, *dl_device, *copy, *stream;                        /* __dlpack__'s keywords */
	PyObject *complex, *numpy, *torch_prefix, *consumer_prefix, *empty;       /* "__complex__" ... "" */
} gdl_interned;
extern gdl_interned gdl_names;

/* gdl_names_ready interns gdl_names, once: 0, or -1 with MemoryError. */
int gdl_names_ready(void);

/* ---- Other libraries' objects, looked up by name (imports.c) ---- */

/*
 * gdl_import_attr imports module and returns the attribute of it that path
 * names, dotted for an attribute of an attribute
 * ("Tensor.__dlpack_c_exchange_api__"): a new reference, or NULL with an
 * exception.
 */
PyObject *gdl_import_attr(const char *module, const char *path);

/* ---- Numbers (number.c) ---- */

/*
 * A number as scalar.Scalar holds it, field for field, its kinds scalar's
 * Kinds in order (number.go fails to compile otherwise): Go reads what C
 * writes as it is.
 */
enum { GDL_SCALAR_BOOL, GDL_SCALAR_INT, GDL_SCALAR_UINT, GDL_SCALAR_FLOAT, GDL_SCALAR_COMPLEX, GDL_SCALAR_BIGINT };
typedef struct {
	uint8_t kind;
	int64_t ival;
	uint64_t uval;
	double re, im;
} gdl_scalar;

/*
 * gdl_parse_scalar reads a number as NumPy reads a fill value: a bool, an int
 * of any size (beyond 64 bits: its float64 value, BIGINT; OverflowError
 * beyond float64), a float or a complex, their subclasses, NumPy's scalars
 * and 0-d arrays (read by the type of their 0-d buffer, so that np.True_ is a
 * bool and np.complex64 a complex), and any object with __index__,
 * __complex__ or __float__. -1 with TypeError, naming what for, otherwise.
 */
int gdl_parse_scalar(PyObject *v, const char *what, gdl_scalar *out);

#endif
