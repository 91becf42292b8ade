/*
 * The layout rule of a DLPack tensor, written once, in C: which shapes and
 * strides of which data types are valid, the memory they touch, whether
 * they are contiguous, and the size of a C-contiguous copy of their
 * elements. gdl_layout is the rule; gdl_contiguous_strides the strides a
 * tensor without its own has.
 *
 * It is a header of inline functions, not a C file, so that every cgo
 * package that needs the rule compiles it in: package consumer's
 * gdl_inspect, package producer's gdl_contiguous, and package dlpack's
 * CheckLayout, ContiguousLayout and ContiguousStrides, the rule's Go entry
 * points, which only check what gdl_layout takes for granted and word its
 * faults. Their tests
 * check it against the specification: every element of a valid layout
 * inside its extent, the extent the hull of the elements, the size of a
 * copy, and every refusal one that int64 arithmetic forces.
 */
#ifndef GODLPACK_LAYOUT_H
#define GODLPACK_LAYOUT_H

#include <stdbool.h>
#include <stdint.h>
#include "dlpack.h"

/* The faults gdl_layout reports, in the order it checks them; 0 is a valid layout. */
enum {
	GDL_LAYOUT_OK = 0,
	GDL_LAYOUT_NEGATIVE_DIM,     /* shape[index] is negative */
	GDL_LAYOUT_COUNT_OVERFLOW,   /* the product of the shape overflows int64 */
	GDL_LAYOUT_PACKED_STRIDED,   /* packed sub-byte data that is not C-contiguous */
	GDL_LAYOUT_PACKED_OVERFLOW,  /* the bytes of the packed elements overflow int64 */
	GDL_LAYOUT_STRIDE_OVERFLOW,  /* strides[index] * (shape[index] - 1) overflows int64 */
	GDL_LAYOUT_OFFSETS_OVERFLOW, /* the sum of the farthest offsets overflows int64 */
	GDL_LAYOUT_BYTES_OVERFLOW,   /* the extent in bytes, or its size, overflows int64 */
	GDL_LAYOUT_DENSE_OVERFLOW,   /* a C-contiguous copy of the elements takes more than 2**63 bytes */
};

/* What a valid layout touches: dlpack.Extent, and the size of a copy. */
typedef struct {
	int64_t elements;  /* the product of the shape: 0 when a dimension is 0, 1 for ndim 0 */
	int64_t low, high; /* bytes touched around element (0, …, 0): [low, high), both 0 when empty */
	int64_t nbytes;    /* the size of a C-contiguous copy: dlpack.Extent.DenseBytes */
	int64_t itemsize;  /* gdl_itemsize(dt, padded): 0 for packed sub-byte elements */
	bool c_contiguous, f_contiguous;
	int32_t index; /* the dimension at fault, for GDL_LAYOUT_NEGATIVE_DIM and GDL_LAYOUT_STRIDE_OVERFLOW */
} gdl_extent;

/*
 * gdl_contiguous_strides writes the row-major strides of shape, in elements,
 * to strides. A dimension of 0 counts as 1 for the strides of the outer
 * dimensions, as NumPy and PyTorch do, so that they stay distinct; products
 * wrap as unsigned integers do, so a shape gdl_layout refuses gives strides
 * that are wrong but harmless.
 */
static inline void gdl_contiguous_strides(int32_t ndim, const int64_t *shape, int64_t *strides) {
	uint64_t s = 1;
	for (int32_t i = ndim - 1; i >= 0; i--) {
		strides[i] = (int64_t)s;
		s *= (uint64_t)(shape[i] > 1 ? shape[i] : 1);
	}
}

/*
 * gdl_dense_bytes stores the size of a C-contiguous copy of elements
 * elements of dt: elements times the item size, or span, the bytes of the
 * layout, for packed sub-byte data, which is always C-contiguous. It returns
 * false when the size does not fit in an int64.
 */
static inline bool gdl_dense_bytes(int64_t elements, int64_t span, DLDataType dt, bool padded, int64_t *nbytes) {
	if (gdl_sub_byte(dt) && !padded) {
		*nbytes = span;
		return true;
	}
	return !__builtin_mul_overflow(elements, gdl_itemsize(dt, true), nbytes);
}

/*
 * gdl_f_contiguous reports whether a non-empty layout without negative
 * dimensions is F-contiguous: strides that grow without gaps from the first
 * dimension. A dimension of size 1 never reaches memory, so its stride does
 * not count.
 */
static inline bool gdl_f_contiguous(int32_t ndim, const int64_t *shape, const int64_t *strides) {
	int64_t want = 1;
	for (int32_t i = 0; i < ndim; i++) {
		if (shape[i] == 1)
			continue;
		if (strides[i] != want || __builtin_mul_overflow(want, shape[i], &want))
			return false;
	}
	return true;
}

/*
 * gdl_extent_bytes ends gdl_layout: it scales the farthest offsets [low,
 * high) of a layout, in elements, to bytes of size (a padded sub-byte
 * element's byte, or a whole-byte element's) and stores them, the item size
 * and the size of a C-contiguous copy of n elements. In bytes, [low, high)
 * and its size high - low must be representable; low is 0 without negative
 * strides.
 */
static inline int gdl_extent_bytes(int64_t low, int64_t high, int64_t n, int64_t size, gdl_extent *e) {
	int64_t span;
	if (__builtin_mul_overflow(high, size, &high) || __builtin_add_overflow(high, size, &high) ||
	    (low != 0 && (__builtin_mul_overflow(low, size, &low) || low == INT64_MIN ||
	                  __builtin_sub_overflow(high, low, &span))))
		return GDL_LAYOUT_BYTES_OVERFLOW;
	e->low = low;
	e->high = high;
	e->itemsize = size;
	/* A stride of 0 can repeat one element 2**62 times in 8 bytes, but a copy must have a size. */
	if (__builtin_mul_overflow(n, size, &e->nbytes))
		return GDL_LAYOUT_DENSE_OVERFLOW;
	return GDL_LAYOUT_OK;
}

/*
 * gdl_layout is the layout rule. It checks ndim dimensions of shape and
 * strides (in elements; both non-NULL when ndim > 0) for elements of dt,
 * which must be a data type gdl_dtype_valid accepts, and ndim in
 * [0, GDL_MAX_NDIM]. padded says whether a sub-byte element takes a byte of
 * its own (IS_SUBBYTE_TYPE_PADDED); packed sub-byte data is meaningful only
 * C-contiguous, and takes ceil(elements*bits*lanes/8) bytes.
 *
 * Strides may be zero or negative and elements may overlap: the rule says
 * what memory is touched, not whether writing it is safe. Every quantity,
 * the offset of every element and the size of a copy among them, is checked
 * for int64 overflow. It fills e and returns GDL_LAYOUT_OK, or returns the
 * first fault it finds, in the order of the enum, with e->index naming the
 * dimension of a fault of one and e->elements the element count once known.
 *
 * The checks run in two passes over the dimensions, one from the last (the
 * shape and C-contiguity) and one from the first (the offsets and
 * F-contiguity), which keep the order of the faults: an import costs about
 * 60 instructions here. One dimension of one or more whole-byte elements
 * takes a path of its own with the same results, about 20 instructions
 * (gdl_inspect of such a tensor went from 230 instructions to 147).
 */
static inline int gdl_layout(int32_t ndim, const int64_t *shape, const int64_t *strides, DLDataType dt, bool padded,
                             gdl_extent *e) {
	/*
	 * One dimension of whole-byte elements, not empty: the passes below, with
	 * what one such dimension cannot fail left out (a negative or empty
	 * dimension, a count that overflows, packed data). The stride of a
	 * dimension of size 1 never reaches memory: its offset is 0.
	 */
	if (ndim == 1 && shape[0] > 0 && !gdl_sub_byte(dt)) {
		int64_t d = shape[0], stride = strides[0], off, size = gdl_itemsize(dt, true);
		e->index = -1;
		e->elements = d;
		e->c_contiguous = e->f_contiguous = stride == 1 || d == 1;
		if (__builtin_mul_overflow(stride, d - 1, &off)) {
			e->index = 0;
			return GDL_LAYOUT_STRIDE_OVERFLOW;
		}
		return gdl_extent_bytes(off < 0 ? off : 0, off < 0 ? 0 : off, d, size, e);
	}
	int32_t negative = -1; /* the first negative dimension, which is reported before any overflow */
	bool empty = false, overflow = false, c_contiguous = true;
	int64_t n = 1, want = 1;
	for (int32_t i = ndim - 1; i >= 0; i--) {
		int64_t d = shape[i];
		if (d < 0)
			negative = i;
		empty |= d == 0;
		overflow |= __builtin_mul_overflow(n, d, &n);
		/* A dimension of size 1 never reaches memory, so its stride does not count. */
		if (d != 1 && c_contiguous)
			c_contiguous = strides[i] == want && !__builtin_mul_overflow(want, d, &want);
	}
	e->index = negative;
	e->elements = 0;
	if (negative >= 0)
		return GDL_LAYOUT_NEGATIVE_DIM;
	if (empty) {
		/* However large the other dimensions are: no element, no overflow. */
		e->low = e->high = e->nbytes = 0;
		e->itemsize = gdl_itemsize(dt, padded);
		e->c_contiguous = e->f_contiguous = true;
		return GDL_LAYOUT_OK;
	}
	if (overflow)
		return GDL_LAYOUT_COUNT_OVERFLOW;
	e->elements = n;
	e->c_contiguous = c_contiguous;
	if (gdl_sub_byte(dt) && !padded) {
		e->f_contiguous = gdl_f_contiguous(ndim, shape, strides);
		if (!c_contiguous)
			return GDL_LAYOUT_PACKED_STRIDED;
		unsigned __int128 packed = ((unsigned __int128)n * ((unsigned)dt.bits * dt.lanes) + 7) >> 3;
		if (packed > INT64_MAX)
			return GDL_LAYOUT_PACKED_OVERFLOW;
		e->low = e->itemsize = 0;
		e->high = e->nbytes = (int64_t)packed;
		return GDL_LAYOUT_OK;
	}
	/* The farthest element in each direction, in elements, then scaled to bytes once. */
	int64_t low = 0, high = 0;
	bool f_contiguous = true;
	want = 1;
	for (int32_t i = 0; i < ndim; i++) {
		int64_t d = shape[i], off;
		if (d == 1)
			continue;
		if (f_contiguous)
			f_contiguous = strides[i] == want && !__builtin_mul_overflow(want, d, &want);
		if (__builtin_mul_overflow(strides[i], d - 1, &off)) {
			e->index = i;
			return GDL_LAYOUT_STRIDE_OVERFLOW;
		}
		if (off < 0 ? __builtin_add_overflow(low, off, &low) : __builtin_add_overflow(high, off, &high))
			return GDL_LAYOUT_OFFSETS_OVERFLOW;
	}
	e->f_contiguous = f_contiguous;
	return gdl_extent_bytes(low, high, n, gdl_itemsize(dt, true), e);
}

#endif
