#include <stdlib.h>
#include "producer.h"
#include "_cgo_export.h"

/*
 * The release function of owners of pinned Go memory. It runs wherever the
 * last deleter runs, possibly on a thread Go never saw: cgo makes such a
 * thread able to call into Go, and unpinning needs no GIL.
 */
void gdl_pin_release(gdl_owner *o) {
	godlpackProducerUnpin(o->handle);
	free(o);
}
