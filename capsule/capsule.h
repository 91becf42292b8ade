/*
 * The C half of package capsule: DLPack capsules as CPython sees them.
 * Every function here is called with the GIL held.
 */
#ifndef GODLPACK_CAPSULE_H
#define GODLPACK_CAPSULE_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include "dlpack.h"

/*
 * gdl_fork_error raises the RuntimeError of a call made in a child forked
 * after the Go runtime started (see gdl_forked_child in producer.h), where
 * entering Go could hang forever. Returns NULL.
 */
PyObject *gdl_fork_error(void);

/* Capsule names of the Python exchange protocol. */
extern const char gdl_name_legacy[];         /* "dltensor" */
extern const char gdl_name_versioned[];      /* "dltensor_versioned" */
extern const char gdl_name_used_legacy[];    /* "used_dltensor" */
extern const char gdl_name_used_versioned[]; /* "used_dltensor_versioned" */

/*
 * gdl_capsule_wrap returns a new capsule owning managed. If the capsule
 * cannot be made, it calls the managed tensor's deleter and returns NULL with
 * an exception set, so ownership always passes.
 */
PyObject *gdl_capsule_wrap(void *managed, int versioned);

/*
 * gdl_capsule_take takes the managed tensor out of a "dltensor" or
 * "dltensor_versioned" capsule and renames it "used_…": from then on the
 * caller owns the tensor. NULL with TypeError for something that is not a
 * DLPack capsule, ValueError for a capsule already consumed.
 */
void *gdl_capsule_take(PyObject *capsule, int *versioned);

/* What gdl_call_dlpack passes to obj.__dlpack__. */
typedef struct {
	int max_major, max_minor; /* max_version; max_major < 0 passes none */
	int copy;                 /* -1: not passed; 0: False; 1: True */
	int has_dl_device;        /* pass dl_device=(type, id) */
	int32_t dl_device_type, dl_device_id;
	int has_stream;           /* pass stream=stream */
	long long stream;
} gdl_dlpack_request;

/*
 * gdl_call_dlpack calls obj.__dlpack__ with the keywords of req. If the
 * producer raises TypeError (it predates the keywords), it calls
 * obj.__dlpack__() again with no keywords but stream and sets *fallback.
 * Returns the producer's result (a new reference) or NULL with an exception.
 */
PyObject *gdl_call_dlpack(PyObject *obj, const gdl_dlpack_request *req, int *fallback);

/*
 * gdl_lacks_dlpack tells whether the pending exception is an AttributeError
 * because obj has no __dlpack__ (rather than one raised inside it). The
 * exception stays pending: the attribute lookup, which may run Python code,
 * runs with it set aside.
 */
int gdl_lacks_dlpack(PyObject *obj);

/*
 * gdl_dlpack_device calls obj.__dlpack_device__() and stores the pair.
 * Returns 0, or -1 with an exception (TypeError for a malformed answer).
 */
int gdl_dlpack_device(PyObject *obj, int32_t *device_type, int32_t *device_id);

#endif
