/*
 * The Exporter type of package capsule: a small Python object whose
 * __dlpack__ asks Go (through a cgo.Handle) for a fresh managed tensor each
 * time, negotiated by max_version, and whose __dlpack_device__ answers from
 * C. It lets a Go extension return something numpy.from_dlpack accepts.
 */
#ifndef GODLPACK_EXPORTER_H
#define GODLPACK_EXPORTER_H

#include "capsule.h"
#include "producer.h"

/* Python exception kinds Go asks for. */
enum { GDL_EXC_NONE, GDL_EXC_TYPE, GDL_EXC_VALUE, GDL_EXC_BUFFER, GDL_EXC_MEMORY, GDL_EXC_RUNTIME };

/* gdl_capsule_raise sets the exception of kind with msg (UTF-8). */
void gdl_capsule_raise(int kind, const char *msg);

/* What __dlpack__ asks of Go: a managed tensor, or an exception. */
typedef struct {
	uint32_t max_major, max_minor; /* 0.0 when no max_version was passed */
	int copy;                      /* -1 None, 0 False, 1 True */
	void *managed;                 /* out */
	int versioned;                 /* out */
	int kind;                      /* out: GDL_EXC_* */
	char msg[256];                 /* out */
} gdl_export_request;

/* gdl_is_capsule is PyCapsule_CheckExact, a macro cgo cannot call. */
int gdl_is_capsule(PyObject *o);

/* gdl_no_dlpack turns the AttributeError of an object without __dlpack__ into TypeError. */
void gdl_no_dlpack(PyObject *o);

/* gdl_exporter_new returns a new Exporter for the Go handle, on device. NULL with an exception. */
PyObject *gdl_exporter_new(uintptr_t handle, int32_t device_type, int32_t device_id);

#endif
