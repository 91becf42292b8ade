#include "producer.h"

bool gdl_contiguous(int32_t ndim, const int64_t *shape, DLDataType dt, bool padded, int64_t *strides,
                    int64_t *elements, int64_t *nbytes) {
	if (ndim < 0 || ndim > GDL_MAX_NDIM || !gdl_dtype_valid(dt))
		return false;
	bool empty = false;
	for (int32_t i = 0; i < ndim; i++) {
		if (shape[i] < 0)
			return false;
		empty |= shape[i] == 0;
	}
	/* Strides wrap as Go's do when an empty shape's outer products overflow: no element is ever reached. */
	uint64_t s = 1;
	for (int32_t i = ndim - 1; i >= 0; i--) {
		strides[i] = (int64_t)s;
		s *= (uint64_t)(shape[i] > 1 ? shape[i] : 1);
	}
	if (empty) {
		*elements = *nbytes = 0;
		return true;
	}
	int64_t n = 1;
	for (int32_t i = 0; i < ndim; i++)
		if (__builtin_mul_overflow(n, shape[i], &n))
			return false;
	*elements = n;
	int64_t item = gdl_itemsize(dt, padded); /* 0 only for packed sub-byte elements: dt is valid */
	if (item > 0)
		return !__builtin_mul_overflow(n, item, nbytes);
	unsigned __int128 packed = ((unsigned __int128)n * dt.bits + 7) >> 3; /* packed sub-byte elements */
	if (packed > INT64_MAX)
		return false;
	*nbytes = (int64_t)packed;
	return true;
}
