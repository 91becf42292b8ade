/*
 * The only place godlpack uses CPython API that is private or changed between
 * versions, each use behind a version guard (as nanobind does). `make test`
 * fails on `_Py` in any other C or Go file of ours (tools/check-private-api).
 *
 * Each use below was checked against CPython 3.15's headers (make test builds
 * on 3.11, 3.13, 3.14 and 3.15): _PyType_LookupRef is still declared in
 * cpython/object.h, with no public function that finds a name along the MRO
 * without running code; PyThreadState_GetUnchecked (public since 3.13)
 * replaces _PyThreadState_UncheckedGet, which 3.14 deprecates;
 * PyUnstable_Long_IsCompact and PyUnstable_Long_CompactValue (3.12's
 * unstable API) read a small int in place, and before 3.12 an int's
 * ob_digit, whose layout changed in 3.12.
 *
 * What the rest of the code relies on, beyond the calls below:
 *   - PyTypeObject.tp_version_tag: CPython gives a type a new tag whenever the
 *     type or a base changes (a class attribute set or deleted, a base's
 *     __bases__ changed) and never gives one tag to two types; 0 means no tag.
 *     The exchange-API consumer keys what it learnt of a type on (type, tag).
 *   - PyGetSetDescrObject.d_getset and d_common.d_type: a getset descriptor's C
 *     getter, called directly only under the conditions CPython's own
 *     attribute lookup would call it (see capsule/exchange.c).
 */
#ifndef GODLPACK_PYPRIVATE_H
#define GODLPACK_PYPRIVATE_H

#include <Python.h>
#include <stdbool.h>

/* PyMemberDef's names from 3.12 (descrobject.h); before, structmember.h's. */
#if PY_VERSION_HEX < 0x030C0000
#include <structmember.h>
#define Py_T_PYSSIZET T_PYSSIZET
#define Py_READONLY READONLY
#endif

/*
 * gdl_type_lookup_ref finds name along type's MRO without calling any Python
 * code or setting an exception (through CPython's method cache) and returns a
 * new reference, or NULL when no class defines it.
 */
static inline PyObject *gdl_type_lookup_ref(PyTypeObject *type, PyObject *name) {
#if PY_VERSION_HEX >= 0x030D0000
	/* From 3.13 a borrowed result may be freed by another thread (free-threaded builds): a reference. */
	return _PyType_LookupRef(type, name);
#else
	PyObject *found = _PyType_Lookup(type, name);
	Py_XINCREF(found);
	return found;
#endif
}

/* gdl_type_defines reports whether some class of type's MRO defines name, with gdl_type_lookup_ref's guarantees. */
static inline bool gdl_type_defines(PyTypeObject *type, PyObject *name) {
	PyObject *found = gdl_type_lookup_ref(type, name);
	/* The type's dict still holds it: dropping our reference frees nothing and runs no code. */
	Py_XDECREF(found);
	return found != NULL;
}

/*
 * gdl_thread_state returns this thread's thread state without the fatal error
 * PyThreadState_Get raises when there is none: NULL on a thread that never ran
 * Python, and after Py_FinalizeEx (DLPack deleters run on any thread).
 */
static inline PyThreadState *gdl_thread_state(void) {
#if PY_VERSION_HEX >= 0x030D0000
	return PyThreadState_GetUnchecked();
#else
	return _PyThreadState_UncheckedGet();
#endif
}

/*
 * gdl_long_compact reads an exact int that fits one digit (below 2**30 in
 * magnitude, nearly every int an argument passes) in place, without the
 * call, reference and overflow checks of PyLong_AsLongLongAndOverflow. It
 * returns false for any other int, which the caller converts in full.
 */
static inline bool gdl_long_compact(PyObject *o, long long *value) {
#if PY_VERSION_HEX >= 0x030C0000
	/* The unstable API of 3.12's new layout of an int (the sign and size in lv_tag). */
	if (!PyUnstable_Long_IsCompact((PyLongObject *)o))
		return false;
	*value = PyUnstable_Long_CompactValue((PyLongObject *)o);
#else
	/* Before 3.12 an int's size is its signed digit count, as CPython's own MEDIUM_VALUE reads it. */
	Py_ssize_t size = Py_SIZE(o);
	if (size < -1 || size > 1)
		return false;
	*value = (long long)size * (long long)((PyLongObject *)o)->ob_digit[0];
#endif
	return true;
}

/*
 * A gdl_saved_error holds the pending exception, set aside while code that
 * may run Python (a deleter, a destructor) runs, then put back.
 */
typedef struct {
#if PY_VERSION_HEX >= 0x030C0000
	PyObject *exc;
#else
	PyObject *type, *value, *tb;
#endif
} gdl_saved_error;

/* gdl_error_save moves the pending exception, if any, into *e and clears it. */
static inline void gdl_error_save(gdl_saved_error *e) {
#if PY_VERSION_HEX >= 0x030C0000
	e->exc = PyErr_GetRaisedException();
#else
	PyErr_Fetch(&e->type, &e->value, &e->tb);
#endif
}

/* gdl_error_restore makes *e's exception the pending one again, dropping any set meanwhile. */
static inline void gdl_error_restore(gdl_saved_error *e) {
#if PY_VERSION_HEX >= 0x030C0000
	PyErr_SetRaisedException(e->exc);
#else
	PyErr_Restore(e->type, e->value, e->tb);
#endif
}

#endif
