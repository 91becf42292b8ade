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

bool gdl_source_lay_out(gdl_source *s) {
	int64_t capacity = -1 - s->nbytes, elements, nbytes;
	bool padded = (s->view.flags & GDL_FLAG_IS_SUBBYTE_TYPE_PADDED) != 0;
	/* The strides are the source's own room: writing them before the size is known to fit harms nothing. */
	if (!gdl_contiguous(s->view.ndim, s->view.shape, s->view.dtype, padded, (int64_t *)s->view.strides, &elements,
	                    &nbytes) || nbytes > capacity)
		return false;
	s->need = gdl_min_version(s->view.dtype, s->view.device);
	s->nbytes = nbytes;
	return true;
}
