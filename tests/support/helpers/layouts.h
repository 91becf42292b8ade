/* The layouts of DLPack 1.x that the C test helpers use (only their leading fields where that suffices). */
#ifndef GODLPACK_TEST_LAYOUTS_H
#define GODLPACK_TEST_LAYOUTS_H

#include <stdint.h>

typedef struct {
	void *data;
	int32_t device_type, device_id;
	int32_t ndim;
	uint8_t code, bits;
	uint16_t lanes;
	int64_t *shape, *strides;
	uint64_t byte_offset;
} tensor;

typedef struct managed managed;
struct managed {
	tensor t;
	void *ctx;
	void (*deleter)(managed *);
};

typedef struct versioned versioned;
struct versioned {
	uint32_t major, minor;
	void *ctx;
	void (*deleter)(versioned *);
	uint64_t flags;
	tensor t;
};

#endif
