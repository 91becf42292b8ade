#include <stddef.h>
#include <string.h>
#include "inspect.h"

int gdl_inspect(const void *managed, bool versioned, int64_t *strides_buf, gdl_inspected *out) {
	if (managed == NULL)
		return GDL_INSPECT_NULL;
	const DLTensor *t;
	out->versioned = versioned;
	uint64_t flags = 0;
	if (versioned) {
		const DLManagedTensorVersioned *m = managed;
		t = &m->dl_tensor;
		out->version = m->version;
		if (m->version.major != GDL_MAJOR_VERSION)
			return GDL_INSPECT_VERSION;
		flags = m->flags;
		out->flags = flags;
		if ((flags & ~GDL_KNOWN_FLAGS) != 0)
			return GDL_INSPECT_FLAGS;
		if (m->version.minor > GDL_MINOR_VERSION) {
			/* A newer minor version may define devices and type codes whose meaning we cannot know. */
			out->device = t->device;
			out->dtype = t->dtype;
			if (!gdl_device_known(t->device.device_type))
				return GDL_INSPECT_NEWER_DEVICE;
			if (t->dtype.code > kDLFloat4_e2m1fn)
				return GDL_INSPECT_NEWER_CODE;
		}
	} else {
		t = &((const DLManagedTensor *)managed)->dl_tensor;
		out->version = (DLPackVersion){0, 0};
		out->flags = 0;
	}
	DLDataType dt = t->dtype;
	/*
	 * Stored as the one word it is: the compiler would store code and bits
	 * apart from lanes, and every later whole-word load (the caller's checks
	 * and copies) would wait for both stores to retire.
	 */
	uint32_t dtype_word;
	memcpy(&dtype_word, &t->dtype, sizeof dtype_word);
	memcpy(&out->dtype, &dtype_word, sizeof dtype_word);
	out->device = t->device;
	int32_t ndim = t->ndim;
	out->ndim = ndim;
	if (ndim < 0 || ndim > GDL_MAX_NDIM)
		return GDL_INSPECT_NDIM;
	const int64_t *shape = NULL, *strides = NULL;
	if (ndim > 0) {
		if (t->shape == NULL)
			return GDL_INSPECT_NULL_SHAPE;
		shape = t->shape;
		strides = t->strides;
		if (strides == NULL) {
			/* Before 1.2, NULL strides meant C-contiguous; legacy tensors may omit them too. */
			if (versioned && out->version.minor >= 2)
				return GDL_INSPECT_NULL_STRIDES;
			gdl_contiguous_strides(ndim, shape, strides_buf);
			strides = strides_buf;
		}
	}
	out->shape = shape;
	out->strides = strides;
	bool padded = (flags & GDL_FLAG_IS_SUBBYTE_TYPE_PADDED) != 0;
	gdl_extent e;
	if (gdl_dtype_valid(dt)) {
		int fault = gdl_layout(ndim, shape, strides, dt, padded, &e);
		if (fault != GDL_LAYOUT_OK) {
			out->index = e.index;
			out->elements = e.elements;
			return fault;
		}
	} else if (gdl_is_cpu_accessible(t->device)) {
		return GDL_INSPECT_DTYPE;
	} else {
		/* Data we pass through but never read may have any dtype; only sizes that cannot exist are refused. */
		e = (gdl_extent){.elements = 1};
		bool empty = false;
		for (int32_t i = 0; i < ndim; i++) {
			if (shape[i] < 0)
				return GDL_INSPECT_COUNT;
			empty |= shape[i] == 0;
		}
		for (int32_t i = 0; i < ndim && !empty; i++)
			if (__builtin_mul_overflow(e.elements, shape[i], &e.elements))
				return GDL_INSPECT_COUNT;
		if (empty)
			e.elements = 0;
		e.itemsize = gdl_itemsize(dt, padded);
		if (!gdl_dense_bytes(e.elements, 0, dt, padded, &e.nbytes)) {
			out->elements = e.elements;
			return GDL_LAYOUT_DENSE_OVERFLOW;
		}
	}
	out->elements = e.elements;
	if (e.elements > 0 && t->data == NULL)
		return GDL_INSPECT_NULL_DATA;
	uintptr_t base = (uintptr_t)t->data;
	if (t->byte_offset > UINTPTR_MAX - base)
		return GDL_INSPECT_OFFSET_WRAPS;
	uintptr_t first = base + (uintptr_t)t->byte_offset;
	out->low = e.low;
	out->high = e.high;
	if (e.elements > 0 && ((e.low < 0 && (uint64_t)-e.low > (uint64_t)first) ||
	                       (e.high > 0 && (uint64_t)e.high > (uint64_t)(UINTPTR_MAX - first))))
		return GDL_INSPECT_EXTENT_WRAPS;
	/* NULL plus an offset is no address (and below 4096 one Go's checkptr rejects). */
	out->data = t->data == NULL ? NULL : (void *)first;
	out->c_contiguous = e.c_contiguous;
	out->f_contiguous = e.f_contiguous;
	out->nbytes = e.nbytes;
	out->itemsize = e.itemsize;
	return GDL_INSPECT_OK;
}
