/* The consumer side's checks of a taken tensor, shared by every importer. */
#include <stdarg.h>
#include <string.h>
#include "capsule.h"
#include "_cgo_export.h"

int gdl_validate(void *managed, bool versioned, int64_t *strides_buf, gdl_inspected *out) {
	if (gdl_inspect(managed, versioned, strides_buf, out))
		return 0;
	/* Go decides what the hot path leaves: the rare layouts, devices and every fault. */
	if (gdl_forked_child()) {
		gdl_fork_error();
	} else if (godlpackCapsuleInspect(managed, versioned, strides_buf, out) == 0) {
		return 0;
	}
	gdl_delete_keeping_error(managed, versioned);
	return -1;
}

/* refuse deletes a taken tensor, then raises exc with the formatted message: the deleter may run Python code. */
static int refuse(void *managed, bool versioned, PyObject *exc, const char *format, ...) {
	gdl_delete_keeping_error(managed, versioned);
	va_list args;
	va_start(args, format);
	PyErr_FormatV(exc, format, args);
	va_end(args);
	return -1;
}

int gdl_import(PyObject *x, const gdl_request *req, int64_t *strides_buf, gdl_imported *out) {
	gdl_taken tk;
	if (gdl_take(x, req, &tk) != 0)
		return -1;
	gdl_inspected *v = &out->v;
	if (gdl_validate(tk.managed, tk.versioned, strides_buf, v) != 0)
		return -1;
	bool cpu = gdl_is_cpu_accessible(v->device), copied = (v->flags & GDL_FLAG_IS_COPIED) != 0;
	/* A legacy tensor cannot say that it may be written. */
	bool read_only = !v->versioned || (v->flags & GDL_FLAG_READ_ONLY) != 0;
	if (req->has_device) {
		if (req->device.device_type == kDLCPU && !cpu)
			return refuse(tk.managed, tk.versioned, PyExc_BufferError, "device='cpu' was asked for, but the producer "
			              "returned data on device (%d, %d)", (int)v->device.device_type, (int)v->device.device_id);
		if (req->device.device_type != kDLCPU &&
		    (req->device.device_type != v->device.device_type || req->device.device_id != v->device.device_id))
			return refuse(tk.managed, tk.versioned, PyExc_BufferError, "device (%d, %d) was asked for, but the "
			              "producer returned data on device (%d, %d)", (int)req->device.device_type,
			              (int)req->device.device_id, (int)v->device.device_type, (int)v->device.device_id);
	}
	if (req->copy == 0 && copied)
		return refuse(tk.managed, tk.versioned, PyExc_BufferError,
		              "copy=False, but the producer copied the data (IS_COPIED is set)");
	/* copy=True promises a private copy to write: the producer's serves only if it may be written. */
	bool copy_here = req->copy == 1 && !(copied && !read_only);
	if (copy_here && !cpu)
		return refuse(tk.managed, tk.versioned, PyExc_BufferError, "copy=True needs a copy of data on device "
		              "(%d, %d), which is not CPU-accessible", (int)v->device.device_type, (int)v->device.device_id);
	if (!copy_here && req->writable) {
		if (read_only)
			return refuse(tk.managed, tk.versioned, PyExc_BufferError, "%s() writes in place, and the tensor is "
			              "read-only: %s", req->func, v->versioned ? "the producer set READ_ONLY"
			              : "a legacy DLPack tensor cannot say that it may be written");
		if (copied && req->copy != 1)
			return refuse(tk.managed, tk.versioned, PyExc_BufferError, "%s() writes in place, but the producer "
			              "handed over a copy (IS_COPIED), so writing it would change nothing", req->func);
	}
	if (copy_here) {
		/* The one copy path of exports too: a C-contiguous copy in C memory of ours, IS_COPIED and writable. */
		gdl_source s = {.view = {v->data, v->shape, v->strides, v->flags & GDL_FLAG_IS_SUBBYTE_TYPE_PADDED,
		                         v->device, v->dtype, v->ndim},
		                .nbytes = v->nbytes};
		void *copy = gdl_copy(&s);
		gdl_delete_keeping_error(tk.managed, tk.versioned);
		if (copy == NULL || gdl_validate(copy, true, strides_buf, v) != 0)
			return -1;
		tk.managed = copy;
		tk.versioned = true;
		copied = true;
		read_only = false;
	}
	out->flags = (v->flags & GDL_FLAG_IS_SUBBYTE_TYPE_PADDED) | (read_only ? GDL_FLAG_READ_ONLY : 0) |
	             (copied ? GDL_FLAG_IS_COPIED : 0);
	if (req->has_device && req->device.device_type == kDLCPU)
		v->device = (DLDevice){kDLCPU, 0};
	out->managed = tk.managed;
	out->versioned = tk.versioned;
	return 0;
}

void *gdl_copy(gdl_source *s) {
	GDL_CHECK_FORK(NULL);
	void *managed;
	return godlpackCapsuleCopy(s, (DLPackVersion){GDL_MAJOR_VERSION, GDL_MINOR_VERSION}, &managed) == 0 ? managed : NULL;
}

int gdl_import_managed(PyObject *x, const gdl_request *req, void **managed, bool *versioned) {
	int64_t strides[GDL_MAX_NDIM];
	gdl_imported im;
	if (gdl_import(x, req, strides, &im) != 0)
		return -1;
	*managed = im.managed;
	*versioned = im.versioned;
	return 0;
}

void gdl_source_fill(gdl_source *s, gdl_owner *owner, const gdl_inspected *v, uint64_t flags) {
	s->owner = owner;
	s->pending = NULL;
	s->view.data = v->data;
	s->view.device = v->device;
	s->view.dtype = v->dtype;
	s->view.ndim = v->ndim;
	s->view.flags = flags;
	if (v->ndim > 0) {
		memcpy((int64_t *)s->view.shape, v->shape, (size_t)v->ndim * sizeof(int64_t));
		memcpy((int64_t *)s->view.strides, v->strides, (size_t)v->ndim * sizeof(int64_t));
	}
	s->need = gdl_min_version(v->dtype, v->device);
	s->nbytes = v->nbytes;
}

PyObject *gdl_adopt(void *managed, PyObject *(*make)(int32_t ndim, gdl_source **src)) {
	int64_t strides[GDL_MAX_NDIM];
	gdl_inspected v;
	if (gdl_validate(managed, true, strides, &v) != 0)
		return NULL;
	gdl_source *s;
	PyObject *o = make(v.ndim, &s);
	if (o == NULL) {
		gdl_delete_keeping_error(managed, true);
		return NULL;
	}
	gdl_source_fill(s, NULL, &v, v.flags);
	gdl_source_adopt(s, managed, true);
	return o;
}
