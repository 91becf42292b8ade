#include <stdlib.h>
#include <string.h>
#include "producer.h"

/*
 * The layout of one export: the managed struct first, so that free(self)
 * frees the whole block, then shape and strides.
 */
typedef struct {
	DLManagedTensorVersioned m;
	int64_t dims[];
} packed_versioned;

typedef struct {
	DLManagedTensor m;
	int64_t dims[];
} packed_legacy;

static void delete_versioned(DLManagedTensorVersioned *self) {
	gdl_owner_drop(self->manager_ctx);
	free(self);
}

static void delete_legacy(DLManagedTensor *self) {
	gdl_owner_drop(self->manager_ctx);
	free(self);
}

static void fill(DLTensor *t, const gdl_view *v, int64_t *dims) {
	t->data = v->data;
	t->device = v->device;
	t->ndim = v->ndim;
	t->dtype = v->dtype;
	t->byte_offset = 0;
	if (v->ndim == 0) {
		t->shape = NULL;
		t->strides = NULL;
		return;
	}
	memcpy(dims, v->shape, (size_t)v->ndim * sizeof(int64_t));
	memcpy(dims + v->ndim, v->strides, (size_t)v->ndim * sizeof(int64_t));
	t->shape = dims;
	t->strides = dims + v->ndim;
}

void *gdl_pack(gdl_owner *owner, const gdl_view *v, bool versioned, uint32_t minor) {
	size_t dims = 2 * (size_t)v->ndim * sizeof(int64_t);
	if (versioned) {
		packed_versioned *p = malloc(sizeof *p + dims);
		if (p == NULL)
			return NULL;
		p->m.version.major = GDL_MAJOR_VERSION;
		p->m.version.minor = minor;
		p->m.manager_ctx = owner;
		p->m.deleter = delete_versioned;
		p->m.flags = v->flags;
		fill(&p->m.dl_tensor, v, p->dims);
		gdl_owner_retain(owner);
		return p;
	}
	packed_legacy *p = malloc(sizeof *p + dims);
	if (p == NULL)
		return NULL;
	p->m.manager_ctx = owner;
	p->m.deleter = delete_legacy;
	fill(&p->m.dl_tensor, v, p->dims);
	gdl_owner_retain(owner);
	return p;
}
