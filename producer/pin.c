#include <stdlib.h>
#include "producer.h"
#include "_cgo_export.h"

/*
 * The release function of owners of pinned Go memory. It runs wherever the
 * last deleter runs, possibly on a thread Go never saw: cgo makes such a
 * thread able to call into Go, and unpinning needs no GIL. In a forked child
 * Go cannot run: the pinned memory leaks there, as the child's copy of it.
 */
void gdl_pin_release(gdl_owner *o) {
	if (!gdl_forked_child())
		godlpackProducerUnpin(o->handle);
	free(o);
}
