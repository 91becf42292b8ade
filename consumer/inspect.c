#include <stddef.h>
#include "inspect.h"

bool gdl_inspect(const void *managed, bool versioned, int64_t *strides_buf, gdl_inspected *out) {
	if (managed == NULL)
		return false;
	const DLTensor *t;
	if (versioned) {
		const DLManagedTensorVersioned *m = managed;
		if (m->version.major != GDL_MAJOR_VERSION || m->version.minor > GDL_MINOR_VERSION ||
		    (m->flags & ~GDL_KNOWN_FLAGS) != 0)
			return false;
		out->version = m->version;
		out->flags = m->flags;
		t = &m->dl_tensor;
	} else {
		out->version = (DLPackVersion){0, 0};
		out->flags = 0;
		t = &((const DLManagedTensor *)managed)->dl_tensor;
	}
	int32_t ndim = t->ndim;
	if (ndim < 0 || ndim > GDL_MAX_NDIM || !gdl_is_cpu_accessible(t->device) || !gdl_dtype_valid(t->dtype) ||
	    gdl_sub_byte(t->dtype))
		return false;
	if (ndim > 0 && t->shape == NULL)
		return false;
	const int64_t *strides = t->strides;
	if (ndim > 0 && strides == NULL) {
		/* Before 1.2, NULL strides meant C-contiguous; legacy tensors may omit them too. */
		if (versioned && out->version.minor >= 2)
			return false;
		int64_t s = 1;
		for (int32_t i = ndim - 1; i >= 0; i--) {
			strides_buf[i] = s;
			int64_t d = t->shape[i] > 1 ? t->shape[i] : 1;
			if (__builtin_mul_overflow(s, d, &s))
				return false;
		}
		strides = strides_buf;
	}
	int64_t size = gdl_itemsize(t->dtype, false), elements = 1, low = 0, high = 0, want = 1;
	bool empty = false, contiguous = true;
	for (int32_t i = 0; i < ndim; i++) {
		if (t->shape[i] < 0)
			return false;
		empty |= t->shape[i] == 0;
	}
	for (int32_t i = ndim - 1; i >= 0 && !empty; i--) {
		int64_t d = t->shape[i], off;
		if (__builtin_mul_overflow(elements, d, &elements))
			return false;
		if (d == 1)
			continue;
		if (__builtin_mul_overflow(strides[i], d - 1, &off) ||
		    (off < 0 ? __builtin_add_overflow(low, off, &low) : __builtin_add_overflow(high, off, &high)))
			return false;
		contiguous = contiguous && strides[i] == want;
		if (contiguous && __builtin_mul_overflow(want, d, &want))
			contiguous = false;
	}
	int64_t nbytes = 0;
	uintptr_t base = (uintptr_t)t->data;
	if (t->byte_offset > UINTPTR_MAX - base)
		return false;
	uintptr_t first = base + (uintptr_t)t->byte_offset;
	if (empty) {
		elements = low = high = 0;
		contiguous = true;
	} else {
		/* Bytes, a copy's size and the distance to each end must all be representable. */
		int64_t span;
		if (__builtin_mul_overflow(low, size, &low) || __builtin_mul_overflow(high, size, &high) ||
		    __builtin_add_overflow(high, size, &high) || __builtin_sub_overflow(high, low, &span) ||
		    low == INT64_MIN || __builtin_mul_overflow(elements, size, &nbytes))
			return false;
		if (t->data == NULL || (uint64_t)(-low) > (uint64_t)first ||
		    (uint64_t)high > (uint64_t)(UINTPTR_MAX - first))
			return false;
	}
	out->data = t->data == NULL ? NULL : (void *)first;
	out->shape = ndim > 0 ? t->shape : NULL;
	out->strides = ndim > 0 ? strides : NULL;
	out->dtype = t->dtype;
	out->device = t->device;
	out->ndim = ndim;
	out->versioned = versioned;
	out->c_contiguous = contiguous;
	out->elements = elements;
	out->low = low;
	out->high = high;
	out->nbytes = nbytes;
	out->itemsize = size;
	return true;
}
