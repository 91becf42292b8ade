#include "producer.h"
#include "layout.h"

bool gdl_contiguous(int32_t ndim, const int64_t *shape, DLDataType dt, bool padded, int64_t *strides,
                    int64_t *elements, int64_t *nbytes) {
	if (ndim < 0 || ndim > GDL_MAX_NDIM || !gdl_dtype_valid(dt))
		return false;
	gdl_contiguous_strides(ndim, shape, strides);
	gdl_extent e;
	if (gdl_layout(ndim, shape, strides, dt, padded, &e) != GDL_LAYOUT_OK)
		return false;
	*elements = e.elements;
	*nbytes = e.nbytes;
	return true;
}
