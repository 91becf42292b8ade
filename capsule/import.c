/* The consumer side's checks of a taken tensor, shared by every importer. */
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
