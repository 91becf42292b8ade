#include <pthread.h>
#include <sys/mman.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>
#include "producer.h"

int64_t gdl_live_owners;

int gdl_forked;

static void mark_forked(void) { __atomic_store_n(&gdl_forked, 1, __ATOMIC_RELAXED); }

/* Registered when the library loads, before any Go code can run. */
__attribute__((constructor)) static void watch_fork(void) { pthread_atfork(NULL, NULL, mark_forked); }

int64_t gdl_owner_live(void) { return __atomic_load_n(&gdl_live_owners, __ATOMIC_RELAXED); }

gdl_owner *gdl_owner_new(void (*release)(gdl_owner *), void *ctx, uintptr_t handle) {
	gdl_owner *o = malloc(sizeof *o);
	if (o == NULL)
		return NULL;
	o->refs = 1;
	o->release = release;
	o->ctx = ctx;
	o->handle = handle;
	o->next = NULL;
	__atomic_add_fetch(&gdl_live_owners, 1, __ATOMIC_RELAXED);
	return o;
}

void gdl_owner_retain(gdl_owner *o) { __atomic_add_fetch(&o->refs, 1, __ATOMIC_RELAXED); }

/*
 * The owners whose last reference went on this thread while it was releasing
 * another one. A release may run a deleter that frees an object holding an
 * export of another owner of ours, whose release may run the next deleter:
 * done recursively, a chain of 100,000 NumPy <-> godlpack round trips
 * overflowed the C stack. Thread-local, so no lock: each thread drains what
 * its own releases let go.
 */
static __thread gdl_owner *release_queue;
static __thread bool releasing;

void gdl_owner_drop(gdl_owner *o) {
	if (__atomic_sub_fetch(&o->refs, 1, __ATOMIC_ACQ_REL) != 0)
		return;
	__atomic_sub_fetch(&gdl_live_owners, 1, __ATOMIC_RELAXED);
	if (releasing) {
		o->next = release_queue;
		release_queue = o;
		return;
	}
	releasing = true;
	for (;;) {
		o->release(o);
		if ((o = release_queue) == NULL)
			break;
		release_queue = o->next;
	}
	releasing = false;
}

/*
 * Large blocks ask for transparent huge pages, as NumPy's allocator does:
 * where the kernel grants them only on request, a first write to fresh memory
 * (a copy, a fill) runs about twice as fast, with 512 times fewer page faults.
 */
#define HUGE_PAGE_THRESHOLD ((size_t)4 << 20)

static void advise_huge_pages(void *block, size_t n) {
	if (n < HUGE_PAGE_THRESHOLD)
		return;
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
	uintptr_t start = ((uintptr_t)block + page - 1) & ~(page - 1);
	madvise((void *)start, (uintptr_t)block + n - start, MADV_HUGEPAGE); /* advice only: failure is fine */
}

/*
 * The owner sits in the first GDL_ALIGN bytes of its own block, aligned
 * there by hand in a block GDL_ALIGN bytes larger than it needs, whose
 * address ctx keeps: malloc serves small blocks from its thread cache, about
 * ten times faster than posix_memalign, which glibc serves from no cache.
 */
_Static_assert(sizeof(gdl_owner) <= GDL_ALIGN, "an owner must fit before the data of its block");
static void release_block(gdl_owner *o) { free(o->ctx); }

gdl_owner *gdl_spare_owners[GDL_SPARES];

/*
 * release_small puts a small block back among the spares, ready to be taken
 * as it is (one reference, no queue), or frees it when they are full. Under
 * AddressSanitizer every block is freed, so that a use after release is
 * still caught.
 */
static void release_small(gdl_owner *o) {
#ifndef __SANITIZE_ADDRESS__
	o->refs = 1;
	o->next = NULL;
	for (int i = 0; i < GDL_SPARES; i++) {
		gdl_owner *empty = NULL;
		if (__atomic_load_n(&gdl_spare_owners[i], __ATOMIC_RELAXED) == NULL &&
		    __atomic_compare_exchange_n(&gdl_spare_owners[i], &empty, o, false, __ATOMIC_RELEASE, __ATOMIC_RELAXED))
			return;
	}
#endif
	free(o->ctx);
}

/* take_spare returns a spare small block, counted live, or NULL when there is none. */
static gdl_owner *take_spare(void) {
	for (int i = 0; i < GDL_SPARES; i++) {
		if (__atomic_load_n(&gdl_spare_owners[i], __ATOMIC_RELAXED) == NULL)
			continue;
		gdl_owner *o = __atomic_exchange_n(&gdl_spare_owners[i], NULL, __ATOMIC_ACQUIRE);
		if (o != NULL) {
			__atomic_add_fetch(&gdl_live_owners, 1, __ATOMIC_RELAXED);
			return o;
		}
	}
	return NULL;
}

/*
 * owner_alloc is gdl_owner_alloc, and gdl_owner_alloc_zeroed when zeroed: a
 * fresh block comes from calloc, which maps large ones from the kernel
 * already zero (no memset), and a spare is cleared by hand.
 */
static gdl_owner *owner_alloc(size_t nbytes, void **data, bool zeroed) {
	if (nbytes > SIZE_MAX - 2 * GDL_ALIGN)
		return NULL;
	bool small = nbytes <= GDL_SMALL_BYTES;
	gdl_owner *o = small ? take_spare() : NULL;
	if (o != NULL && zeroed)
		memset((char *)o + GDL_ALIGN, 0, nbytes);
	if (o == NULL) {
		size_t size = 2 * GDL_ALIGN + (small ? GDL_SMALL_BYTES : nbytes);
		void *block = zeroed ? calloc(1, size) : malloc(size);
		if (block == NULL)
			return NULL;
		o = (gdl_owner *)(((uintptr_t)block + GDL_ALIGN - 1) & ~(uintptr_t)(GDL_ALIGN - 1));
		o->refs = 1;
		o->release = small ? release_small : release_block;
		o->ctx = block;
		o->handle = 0;
		o->next = NULL;
		advise_huge_pages((char *)o + GDL_ALIGN, nbytes);
		__atomic_add_fetch(&gdl_live_owners, 1, __ATOMIC_RELAXED);
	}
	if (data != NULL)
		*data = (char *)o + GDL_ALIGN;
	return o;
}

gdl_owner *gdl_owner_alloc(size_t nbytes, void **data) { return owner_alloc(nbytes, data, false); }

gdl_owner *gdl_owner_alloc_zeroed(size_t nbytes, void **data) { return owner_alloc(nbytes, data, true); }

static int shut_down;

void gdl_owner_shutdown(void) { __atomic_store_n(&shut_down, 1, __ATOMIC_SEQ_CST); }

int gdl_owner_is_shut_down(void) { return __atomic_load_n(&shut_down, __ATOMIC_SEQ_CST); }

static void (*foreign_delete)(void *managed, bool versioned);

void gdl_set_foreign_delete(void (*del)(void *managed, bool versioned)) {
	__atomic_store_n(&foreign_delete, del, __ATOMIC_RELEASE);
}

static void delete_upstream(void *managed, bool versioned) {
	if (__atomic_load_n(&shut_down, __ATOMIC_SEQ_CST))
		return;
	void (*del)(void *, bool) = __atomic_load_n(&foreign_delete, __ATOMIC_ACQUIRE);
	if (del != NULL)
		del(managed, versioned);
	else
		gdl_managed_delete(managed, versioned);
}

static void release_upstream_versioned(gdl_owner *o) {
	delete_upstream(o->ctx, true);
	free(o);
}

static void release_upstream_legacy(gdl_owner *o) {
	delete_upstream(o->ctx, false);
	free(o);
}

gdl_owner *gdl_owner_upstream(void *managed, bool versioned) {
	return gdl_owner_new(versioned ? release_upstream_versioned : release_upstream_legacy, managed, 0);
}

void gdl_source_adopt(gdl_source *s, void *managed, bool versioned) {
	s->owner = NULL;
	s->pending = managed;
	s->pending_versioned = versioned;
	__atomic_add_fetch(&gdl_live_owners, 1, __ATOMIC_RELAXED); /* a storage, as its owner would be */
}

gdl_owner *gdl_source_owner(gdl_source *s) {
	if (s->owner == NULL && s->pending != NULL) {
		gdl_owner *o = gdl_owner_upstream(s->pending, s->pending_versioned);
		if (o == NULL)
			return NULL;
		__atomic_sub_fetch(&gdl_live_owners, 1, __ATOMIC_RELAXED); /* the owner counts it now */
		s->owner = o;
		s->pending = NULL;
	}
	return s->owner;
}

void gdl_source_release(gdl_source *s) {
	if (s->owner != NULL) {
		gdl_owner_drop(s->owner);
	} else if (s->pending != NULL) {
		__atomic_sub_fetch(&gdl_live_owners, 1, __ATOMIC_RELAXED);
		/*
		 * Not through the release queue: a pending tensor was never exported by
		 * us, so it ends a chain of round trips, and its deleter's own releases
		 * queue behind the first owner they drop.
		 */
		delete_upstream(s->pending, s->pending_versioned);
	}
	s->owner = NULL;
	s->pending = NULL;
}
