/* godlpack.ops: kernels written in Go on any DLPack producer's memory. */
#ifndef GODLPACK_OPS_H
#define GODLPACK_OPS_H

#include "ext.h"

enum { GDL_OP_SUM, GDL_OP_SCALE, GDL_OP_COPY };
enum { GDL_NUM_INT, GDL_NUM_UINT, GDL_NUM_FLOAT };

/* Arguments of goOps: up to two managed tensors, whose ownership passes to Go. */
typedef struct {
	int op;
	int n;
	void *managed[2]; /* sum, scale: [x]; copy: [dst, src] */
	int versioned[2];
	int a_kind; /* scale's factor: GDL_NUM_INT or GDL_NUM_FLOAT */
	long long ai;
	double af;
	int r_kind; /* sum's result: GDL_NUM_* */
	long long ri;
	unsigned long long ru;
	double rf;
	gdl_error err;
} gdl_ops_args;

#endif
