/*
 * Arguments of C functions that take METH_FASTCALL | METH_KEYWORDS calls
 * (args.c): the binder's bound functions and godlpack's own parse theirs
 * with gdl_parse.
 */
#ifndef GODLPACK_ARGS_H
#define GODLPACK_ARGS_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>

/* The most parameters a gdl_signature names. */
#define GDL_SIGNATURE_MAX 16

/*
 * A gdl_signature names the parameters of a function taking METH_FASTCALL |
 * METH_KEYWORDS arguments: the first max_positional may be passed by
 * position, the first positional_only only by position, the first required
 * must be passed. The names are interned on first use.
 */
typedef struct {
	const char *func;
	int n, positional_only, max_positional, required;
	const char *names[GDL_SIGNATURE_MAX];
	PyObject *interned[GDL_SIGNATURE_MAX];
	/* The keyword names of the last call and the slot of each: callers pass the same tuple again and again. */
	PyObject *last_kwnames;
	int8_t last_slots[GDL_SIGNATURE_MAX];
} gdl_signature;

/* GDL_SIGNATURE initializes a gdl_signature: its caches start empty. */
#define GDL_SIGNATURE(func, n, positional_only, max_positional, required, ...)                                       \
	{(func), (n), (positional_only), (max_positional), (required), {__VA_ARGS__}, {NULL}, NULL, {0}}

/*
 * gdl_parse fills slots[0..n) with the arguments (borrowed; NULL when not
 * passed). -1 with TypeError for a wrong count, an unknown, repeated or
 * non-str keyword, or a missing argument.
 */
int gdl_parse(gdl_signature *sig, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames, PyObject **slots);

/*
 * gdl_parse_tuple is gdl_parse of the arguments of a tp_new or tp_call (a
 * tuple, and a dict of keywords or NULL), for types whose constructor
 * CPython calls so: the one parser of godlpack's arguments.
 */
int gdl_parse_tuple(gdl_signature *sig, PyObject *args, PyObject *kwargs, PyObject **slots);

/* gdl_parse_copy reads a copy argument: None or absent (-1), False (0) or True (1); -1 with TypeError otherwise. */
int gdl_parse_copy(PyObject *o, int *copy);

#endif
