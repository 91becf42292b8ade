/*
 * Many Go runtimes in one process. Every extension built on package cpython
 * (godlpack._core among them) carries a Go runtime of its own. On Linux with
 * glibc (x86-64, arm64) they coexist, but each runtime installs its SIGURG
 * handler (async preemption) as it loads and the last one drops the signals
 * meant for the others. So every such extension joins one SIGURG dispatcher
 * as it loads, whatever godlpack version built it: the first one to load
 * creates the registry and publishes it in the sys module, later ones find
 * it there and record their runtime's handler in it. Elsewhere a second Go
 * runtime is refused with an ImportError.
 */
#ifndef GODLPACK_RUNTIME_H
#define GODLPACK_RUNTIME_H

#include <signal.h>
#include <stdint.h>

/*
 * The rendezvous: a PyCapsule named GDL_RUNTIMES_CAPSULE, the attribute
 * GDL_RUNTIMES_ATTR of the sys module, pointing to a gdl_runtimes. Its layout
 * is an ABI between independently built extensions: fields are only ever
 * appended (version counts the additions, size is the creator's sizeof),
 * never changed or removed. Version 1 has the fields up to count; version 2
 * adds handler, and its dispatcher can be told from any other handler (see
 * runtime.c): a registry of version 2 never records a dispatcher, and takes
 * in the handlers of another version-2 registry's dispatcher instead.
 */
#define GDL_RUNTIMES_ATTR "_godlpack_go_runtimes"
#define GDL_RUNTIMES_CAPSULE "godlpack.go_runtimes"
#define GDL_RUNTIMES_VERSION 2

typedef struct gdl_runtimes {
	uint32_t version;
	uint32_t size;
	/*
	 * add records a SIGURG handler installed with sa_flags (a three-argument
	 * handler when SA_SIGINFO is set) for the dispatcher to call: 1 when
	 * added, 0 when it was there already, -1 when the registry is full.
	 * From version 2, a dispatcher is never recorded: its own dispatcher is
	 * there already (0), another registry's has its handlers added in its
	 * place.
	 */
	int (*add)(void (*handler)(int, siginfo_t *, void *), int sa_flags);
	/* install makes dispatch the process's SIGURG handler: 0, or -1 with errno. */
	int (*install)(void);
	/* dispatch is the dispatcher, which calls every recorded handler in turn. */
	void (*dispatch)(int sig, siginfo_t *info, void *ctx);
	/* count is the number of handlers recorded. */
	uint32_t (*count)(void);
	/* Version 2: handler stores the i-th recorded handler and its flags: 0, or -1 when i >= count(). */
	int (*handler)(uint32_t i, void (**handler)(int, siginfo_t *, void *), int *sa_flags);
} gdl_runtimes;

/*
 * gdl_join_process makes this library's Go runtime one of the process's,
 * for module: it records the runtime's SIGURG handler (and any other found
 * in its place) in the rendezvous and installs the dispatcher. Call it from
 * Go, inside the module's PyInit, so that the runtime has finished
 * installing its handlers. Where runtimes cannot share a process it claims
 * the process instead: -1 with ImportError, naming the other module, when
 * another extension built on package cpython did so first. 0, or -1 with an
 * exception.
 */
int gdl_join_process(const char *module);

/*
 * gdl_preemption_suspect says whether the calling thread may have lost a
 * preemption signal since it last asked, and so whether a call about to
 * release the GIL for Go work must repair preemption first
 * (internal/preempt.Restore, sent from Go): 1 the first time a thread asks,
 * and after any SIGURG other than a repair's reached this library's Go
 * runtime, on any thread; else 0, at the cost of a thread-local read. The
 * answer 1 is given once per such change: the caller repairs.
 */
int gdl_preemption_suspect(void);

/* GDL_REPAIR_MARK is what a repair's SIGURG carries in si_value (SI_QUEUE), the same in every library. */
#define GDL_REPAIR_MARK 0x676f646c

#endif
