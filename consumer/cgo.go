package consumer

// The C half of this package, inspect.c: gdl_inspect, the hot path of
// Inspect for C callers (package capsule) that import a tensor without
// entering Go.

// #cgo CFLAGS: -I${SRCDIR}/../dlpack -O2
import "C"
