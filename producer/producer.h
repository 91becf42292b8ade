/*
 * The C half of package producer: reference-counted owners of exported
 * memory, and the builder of managed tensors. Both run on any thread, with or
 * without the GIL and without the Go runtime, because DLPack deleters do.
 */
#ifndef GODLPACK_PRODUCER_H
#define GODLPACK_PRODUCER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "dlpack.h"

/*
 * An owner keeps one piece of memory alive for every holder of it: a Python
 * Tensor and each managed tensor exported from it hold one reference each.
 * When the last reference goes, release(owner) frees the memory (or hands it
 * back upstream) and the owner itself.
 */
typedef struct gdl_owner gdl_owner;
struct gdl_owner {
	int64_t refs;
	void (*release)(gdl_owner *self);
	void *ctx;
	uintptr_t handle; /* a cgo.Handle for owners of Go memory; what else a release needs (a PyObject *), or 0 */
	gdl_owner *next;  /* in its thread's queue of owners waiting to be released */
};

/* gdl_owner_new returns an owner with one reference, or NULL when out of memory. */
gdl_owner *gdl_owner_new(void (*release)(gdl_owner *), void *ctx, uintptr_t handle);
void gdl_owner_retain(gdl_owner *o);

/*
 * gdl_owner_drop drops a reference; the last one releases the owner. Releases
 * never nest on a thread: an owner whose last reference goes while the thread
 * is releasing another one (an upstream deleter that frees a NumPy array over
 * memory we exported, which drops that export's owner, and so on down a chain
 * of round trips) waits in the thread's queue, which the outermost release
 * drains. So freeing a chain of any depth takes constant C stack, on any
 * thread, with or without the GIL.
 */
void gdl_owner_drop(gdl_owner *o);

/*
 * gdl_set_foreign_delete sets the function through which owners call the
 * deleters of other producers' tensors (gdl_owner_upstream), in place of
 * gdl_managed_delete. Such a deleter may be Python code (a ctypes or cffi
 * callback, or one that frees a NumPy array) and may run while a Python
 * exception is pending: package capsule sets it, when the library loads, to
 * one that keeps the exception aside on a thread holding the GIL.
 */
void gdl_set_foreign_delete(void (*del)(void *managed, bool versioned));

/*
 * gdl_forked_child reports whether this process is a child forked after the
 * library was loaded. The Go runtime does not survive fork(): there, callers
 * must not enter Go, and releases that would need Go leak instead. Every
 * call into Go checks it after the last step that may run Python code (which
 * may fork): one load, inlined.
 */
extern int gdl_forked; /* set in the child by a pthread_atfork handler (owner.c) */
static inline int gdl_forked_child(void) { return __atomic_load_n(&gdl_forked, __ATOMIC_RELAXED); }

/* gdl_owner_live counts owners not yet released: a leak check for tests. */
int64_t gdl_owner_live(void);
extern int64_t gdl_live_owners; /* its count, which Go's taking of a spare block (below) adds to atomically */

/*
 * gdl_owner_alloc makes one allocation holding an owner and nbytes of data
 * aligned to GDL_ALIGN bytes, GDL_ALIGN bytes past the owner; *data, unless
 * data is NULL, receives the data address, never NULL, even for nbytes == 0.
 * NULL when out of memory (never an abort). Go finds the data past the owner
 * (package producer's ownerData): an address of Go's passed to C is checked
 * at every call.
 */
#define GDL_ALIGN 64
gdl_owner *gdl_owner_alloc(size_t nbytes, void **data);

/*
 * gdl_owner_alloc_zeroed is gdl_owner_alloc with the data zeroed, by calloc:
 * a large block comes zero from the kernel, its pages filled as they are
 * first written, where a memset would fault every page in at once (and, done
 * in Go, hold off the garbage collector for as long, as clear cannot be
 * preempted).
 */
gdl_owner *gdl_owner_alloc_zeroed(size_t nbytes, void **data);

/*
 * Small blocks are kept for reuse: gdl_owner_alloc gives a block of up to
 * GDL_SMALL_BYTES the room of GDL_SMALL_BYTES, and its release puts it back
 * among GDL_SPARES spares, which the next small allocation takes (malloc and
 * free, about 150 instructions, saved). Go takes a spare itself without a
 * call into C (package producer's allocOwner, about 300 instructions saved):
 * an atomic exchange of a slot for NULL, then an atomic increment of
 * gdl_live_owners. A spare has one reference and is not counted live.
 */
#define GDL_SMALL_BYTES 256
#define GDL_SPARES 4
extern gdl_owner *gdl_spare_owners[GDL_SPARES];

/*
 * gdl_owner_upstream wraps a managed tensor received from another producer:
 * releasing the owner calls that tensor's deleter (if any) exactly once.
 */
gdl_owner *gdl_owner_upstream(void *managed, bool versioned);

/*
 * gdl_owner_shutdown is called once the interpreter has finalized: from then
 * on, releasing an upstream owner leaks its tensor instead of calling a
 * deleter that may need Python (a ctypes or cffi callback, a PyObject it
 * holds). A holder in C that outlives Python then leaks, never crashes.
 */
void gdl_owner_shutdown(void);

/*
 * gdl_owner_is_shut_down reports whether gdl_owner_shutdown was called, for
 * owners of memory that the host runtime lends (a Python buffer), whose
 * release must then leak rather than call into a finalized interpreter.
 */
int gdl_owner_is_shut_down(void);

/* gdl_view is what gdl_pack exports: strides in elements, data at element 0. */
typedef struct {
	void *data;
	const int64_t *shape;
	const int64_t *strides;
	uint64_t flags;
	DLDevice device;
	DLDataType dtype;
	int32_t ndim;
} gdl_view;

/*
 * gdl_pack builds a DLManagedTensorVersioned (versioned, with version
 * 1.minor) or a legacy DLManagedTensor in one allocation that also holds the
 * shape and strides, and takes one reference on owner. Its deleter drops that
 * reference and frees the allocation. NULL when out of memory.
 */
void *gdl_pack(gdl_owner *owner, const gdl_view *v, bool versioned, uint32_t minor);

/*
 * A gdl_source is memory held by an owner (one reference) and a checked
 * layout of it: what an exporting object keeps, to export as often as it is
 * asked. view.shape and view.strides point to storage of the holder's.
 *
 * A source made from another producer's managed tensor may hold that tensor
 * itself instead (pending, with owner NULL): most imported tensors are never
 * exported again, and wrapping them in an owner only when asked
 * (gdl_source_owner) saves an allocation per import. Whoever holds a source
 * lets go of it with gdl_source_release.
 */
typedef struct {
	gdl_owner *owner;
	void *pending; /* a managed tensor not yet wrapped in an owner, when owner is NULL */
	bool pending_versioned;
	gdl_view view;
	DLPackVersion need; /* gdl_min_version of the dtype and device */
	int64_t nbytes;     /* the size of a C-contiguous copy of the elements */
} gdl_source;

/*
 * gdl_source_adopt makes s hold another producer's managed tensor, pending:
 * it counts as a live storage from now on, and its deleter runs exactly once,
 * through the owner gdl_source_owner makes, or through gdl_source_release.
 */
void gdl_source_adopt(gdl_source *s, void *managed, bool versioned);

/*
 * gdl_source_owner returns s's owner, wrapping a pending managed tensor in
 * one on first call, for an export to retain. NULL when out of memory (s is
 * unchanged). The holder's lock (the GIL for a Python object) must be held.
 */
gdl_owner *gdl_source_owner(gdl_source *s);

/* gdl_source_release drops s's owner, or deletes its pending tensor: the holder's last act. */
void gdl_source_release(gdl_source *s);

/*
 * gdl_contiguous lays out a tensor of shape (ndim values) and dtype dt
 * C-contiguously: it writes the strides in elements (gdl_contiguous_strides)
 * and stores the element count and the bytes the elements take, one byte
 * each for sub-byte types when padded, else packed. It returns false for
 * ndim out of [0, GDL_MAX_NDIM], a dtype gdl_dtype_valid refuses, and what
 * the layout rule, gdl_layout (dlpack/layout.h), refuses: a negative
 * dimension or sizes that overflow an int64.
 */
bool gdl_contiguous(int32_t ndim, const int64_t *shape, DLDataType dt, bool padded, int64_t *strides,
                    int64_t *elements, int64_t *nbytes);

/*
 * A source may be handed over unlaid: C-contiguous, with its shape, dtype,
 * device and flags in its view but its strides not yet written, and nbytes
 * gdl_unlaid(capacity), the bytes its memory holds, in place of the dense
 * size. A Go function's tensor result comes so (Lease.GiveContiguous): the
 * C code that makes its object lays it out after the call, where a layout in
 * Go would cost a second call from Go into C.
 */
static inline int64_t gdl_unlaid(int64_t capacity) { return -1 - capacity; }

/* gdl_source_is_unlaid reports whether s waits for gdl_source_lay_out. */
static inline bool gdl_source_is_unlaid(const gdl_source *s) { return s->nbytes < 0; }

/*
 * gdl_source_lay_out writes an unlaid source's C-contiguous strides (into
 * view.strides), need and nbytes, by gdl_contiguous. false, with nbytes
 * unchanged, when gdl_contiguous refuses the layout or its elements would
 * take more bytes than the memory holds.
 */
bool gdl_source_lay_out(gdl_source *s);

/* The outcomes of gdl_negotiate. */
enum {
	GDL_NEGOTIATED = 0,
	GDL_LEGACY_TOO_OLD,  /* the dtype or device needs a versioned tensor */
	GDL_LEGACY_READ_ONLY /* a legacy tensor cannot say that it is read-only */
};

/*
 * gdl_negotiate picks the version of the managed tensor to export for a
 * consumer that asked for at most asked (0.0, or any major 0, asks for a
 * legacy DLManagedTensor, as does passing no max_version) and a tensor that
 * needs at least need (gdl_min_version). Major 1: 1.min(asked minor, ours),
 * raised to need's minor when the tensor needs more: the array API lets a
 * producer answer another minor and makes the consumer check it. A newer
 * major: our version. Stores 0.0 for legacy. package producer's Negotiate is
 * this function.
 */
int gdl_negotiate(DLPackVersion asked, DLPackVersion need, bool read_only, DLPackVersion *out);

#endif
