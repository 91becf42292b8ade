/*
 * The C half of package consumer: the hot path of Inspect, for C callers
 * that import a tensor without entering Go.
 */
#ifndef GODLPACK_INSPECT_H
#define GODLPACK_INSPECT_H

#include <stdbool.h>
#include <stdint.h>
#include "dlpack.h"

/* What gdl_inspect found: the fields of consumer.View, for a tensor it accepted. */
typedef struct {
	void *data;             /* element (0, …, 0): data + byte_offset, or NULL for no elements at NULL */
	const int64_t *shape;   /* the producer's array; NULL for ndim 0 */
	const int64_t *strides; /* the producer's, or the contiguous strides written to strides_buf */
	DLDataType dtype;
	DLDevice device;
	uint64_t flags;
	DLPackVersion version; /* 0.0 for a legacy tensor */
	int32_t ndim;
	bool versioned;
	bool c_contiguous;
	int64_t elements;
	int64_t low, high; /* bytes touched around data, as dlpack.Extent */
	int64_t nbytes;    /* the size of a C-contiguous copy: Extent.DenseBytes */
	int64_t itemsize;
} gdl_inspected;

/*
 * gdl_inspect is consumer.Inspect for the tensors most producers hand over:
 * major version 1 at a minor we know (or legacy), known flags, a dtype
 * dlpack accepts whose elements are whole bytes, on a device the CPU can read, with
 * sizes far from overflowing. For those it fills out exactly as Inspect
 * fills a View and returns true; for anything else (every tensor Inspect
 * refuses among them) it returns false and Inspect must decide.
 * strides_buf has room for GDL_MAX_NDIM strides. FuzzInspect proves that
 * whatever gdl_inspect accepts, Inspect accepts with the same view.
 */
bool gdl_inspect(const void *managed, bool versioned, int64_t *strides_buf, gdl_inspected *out);

#endif
