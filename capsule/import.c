/* The consumer side's checks of a taken tensor, shared by every importer. */
#include <stdarg.h>
#include <string.h>
#include "fork.h"
#include "capsule.h"
#include "_cgo_export.h"

/*
 * refuse_inspected raises the BufferError of a managed tensor gdl_inspect
 * refused: Go words the fault (consumer.Inspect), so only refusals cross
 * into Go; in a forked child, the fork guard's RuntimeError instead.
 */
static void refuse_inspected(void *managed, bool versioned) {
	if (gdl_forked_child())
		gdl_fork_error();
	else
		godlpackCapsuleRefuseImport(managed, versioned);
}

int gdl_validate(void *managed, bool versioned, int64_t *strides_buf, gdl_inspected *out) {
	if (gdl_inspect(managed, versioned, strides_buf, out) == GDL_INSPECT_OK)
		return 0;
	refuse_inspected(managed, versioned);
	gdl_delete_keeping_error(managed, versioned);
	return -1;
}

void gdl_taken_release(gdl_taken *tk) {
	if (tk->lender != NULL)
		gdl_drop_keeping_error(tk->lender);
	else
		gdl_delete_keeping_error(tk->managed, tk->versioned);
}

void gdl_imported_release(gdl_imported *im) {
	if (im->lender != NULL)
		Py_DECREF(im->lender); /* never the last reference: the caller of gdl_import_view holds x */
	else
		gdl_delete_keeping_error(im->managed, im->versioned);
}

int gdl_device_refused(const gdl_request *req, DLDevice d) {
	if (req->device.device_type == kDLCPU && !gdl_is_cpu_accessible(d)) {
		PyErr_Format(PyExc_BufferError, "device='cpu' was asked for, but the producer returned data on device (%d, %d)",
		             (int)d.device_type, (int)d.device_id);
		return -1;
	}
	if (req->device.device_type != kDLCPU &&
	    (req->device.device_type != d.device_type || req->device.device_id != d.device_id)) {
		PyErr_Format(PyExc_BufferError, "device (%d, %d) was asked for, but the producer returned data on device (%d, %d)",
		             (int)req->device.device_type, (int)req->device.device_id, (int)d.device_type, (int)d.device_id);
		return -1;
	}
	return 0;
}

/* refuse releases a taken tensor, then raises exc with the formatted message: the release may run Python code. */
static int refuse(gdl_taken *tk, PyObject *exc, const char *format, ...) {
	gdl_taken_release(tk);
	va_list args;
	va_start(args, format);
	PyErr_FormatV(exc, format, args);
	va_end(args);
	return -1;
}

/* validate is gdl_validate of what tk holds: its managed tensor, or the borrowed view, inspected as the tensor it mirrors. */
static inline __attribute__((always_inline)) int validate(gdl_taken *tk, int64_t *strides_buf, gdl_inspected *v) {
	/* Two calls, each with its constant versioned: a borrowed view is always read as a versioned tensor. */
	if (tk->lender != NULL ? gdl_inspect(&tk->view, true, strides_buf, v) == GDL_INSPECT_OK
	                       : gdl_inspect(tk->managed, tk->versioned, strides_buf, v) == GDL_INSPECT_OK)
		return 0;
	if (tk->lender != NULL)
		refuse_inspected(&tk->view, true);
	else
		refuse_inspected(tk->managed, tk->versioned);
	gdl_taken_release(tk);
	return -1;
}

/* hold validates a taken tensor and holds it to req (gdl_import's rules); on failure tk is released. */
static inline __attribute__((always_inline)) int hold(gdl_taken *tk, const gdl_request *req, int64_t *strides_buf,
                                                      gdl_imported *out) {
	gdl_inspected *v = &out->v;
	if (validate(tk, strides_buf, v) != 0)
		return -1;
	bool cpu = gdl_is_cpu_accessible(v->device), copied = (v->flags & GDL_FLAG_IS_COPIED) != 0;
	/* A legacy tensor cannot say that it may be written. */
	bool read_only = !v->versioned || (v->flags & GDL_FLAG_READ_ONLY) != 0;
	if (req->has_device && gdl_device_refused(req, v->device) != 0) {
		gdl_taken_release(tk); /* keeps the exception */
		return -1;
	}
	if (req->copy == 0 && copied)
		return refuse(tk, PyExc_BufferError, "copy=False, but the producer copied the data (IS_COPIED is set)");
	/* copy=True promises a private copy to write: the producer's serves only if it may be written. */
	bool copy_here = req->copy == 1 && !(copied && !read_only);
	if (copy_here && !cpu)
		return refuse(tk, PyExc_BufferError, "copy=True needs a copy of data on device "
		              "(%d, %d), which is not CPU-accessible", (int)v->device.device_type, (int)v->device.device_id);
	if (!copy_here && req->writable) {
		if (read_only)
			return refuse(tk, PyExc_BufferError, "%s() writes in place, and the tensor is "
			              "read-only: %s", req->func, v->versioned ? "the producer set READ_ONLY"
			              : "a legacy DLPack tensor cannot say that it may be written");
		if (copied && req->copy != 1)
			return refuse(tk, PyExc_BufferError, "%s() writes in place, but the producer "
			              "handed over a copy (IS_COPIED), so writing it would change nothing", req->func);
	}
	if (copy_here) {
		/* The one copy path of exports too: a C-contiguous copy in C memory of ours, IS_COPIED and writable. */
		gdl_source s = {.view = {v->data, v->shape, v->strides, v->flags & GDL_FLAG_IS_SUBBYTE_TYPE_PADDED,
		                         v->device, v->dtype, v->ndim},
		                .nbytes = v->nbytes};
		void *copy = gdl_copy(&s);
		gdl_taken_release(tk);
		if (copy == NULL || gdl_validate(copy, true, strides_buf, v) != 0)
			return -1;
		*tk = (gdl_taken){.managed = copy, .versioned = true};
		copied = true;
		read_only = false;
	}
	out->flags = (v->flags & GDL_FLAG_IS_SUBBYTE_TYPE_PADDED) | (read_only ? GDL_FLAG_READ_ONLY : 0) |
	             (copied ? GDL_FLAG_IS_COPIED : 0);
	if (req->has_device && req->device.device_type == kDLCPU)
		v->device = (DLDevice){kDLCPU, 0};
	out->managed = tk->managed;
	out->versioned = tk->versioned;
	out->lender = tk->lender;
	return 0;
}

/*
 * gdl_taken is not zeroed where it is declared: that is a `rep stos`, whose
 * start-up is a good part of a borrowed import. gdl_take and gdl_borrow set
 * what they take; lender says which.
 */
int gdl_import(PyObject *x, const gdl_request *req, int64_t *strides_buf, gdl_imported *out) {
	gdl_taken tk;
	tk.lender = NULL;
	if (gdl_take(x, req, &tk) != 0)
		return -1;
	return hold(&tk, req, strides_buf, out);
}

int gdl_import_view(PyObject *x, const gdl_request *req, int64_t *shape_buf, int64_t *strides_buf,
                    gdl_imported *out) {
	gdl_taken tk;
	tk.lender = NULL;
	int rc = gdl_borrow(x, req, shape_buf, strides_buf, &tk);
	if (rc < 0 || (rc > 0 && gdl_take(x, req, &tk) != 0))
		return -1;
	return hold(&tk, req, strides_buf, out);
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
	s->view.shape = v->shape;
	s->view.strides = v->strides;
	s->view.device = v->device;
	s->view.dtype = v->dtype;
	s->view.ndim = v->ndim;
	s->view.flags = flags;
	s->need = gdl_min_version(v->dtype, v->device);
	s->nbytes = v->nbytes;
}

int gdl_go_take(PyObject *x, const gdl_request *req, gdl_taken *out) {
	if (gdl_names_ready() != 0) /* a Go extension that never claimed the process */
		return -1;
	gdl_go_calls_python();
	int rc = gdl_take(x, req, out);
	if (rc == 0 && gdl_forked_child())
		gdl_taken_release(out);
	gdl_go_called_python();
	return rc;
}

int gdl_go_import_managed(PyObject *x, const gdl_request *req, void **managed, bool *versioned) {
	if (gdl_names_ready() != 0)
		return -1;
	gdl_go_calls_python();
	int rc = gdl_import_managed(x, req, managed, versioned);
	if (rc == 0 && gdl_forked_child())
		gdl_delete_keeping_error(*managed, *versioned);
	gdl_go_called_python();
	return rc;
}
