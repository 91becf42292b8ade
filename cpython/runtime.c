#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include "cpython.h"
#include "runtime.h"

/*
 * main_interpreter_only refuses to load in a subinterpreter: an extension
 * built on package cpython keeps its types, dtype objects and caches in
 * process-wide state that belongs to the interpreter that loaded it first,
 * and a subinterpreter that loaded it first would leave the main one a
 * module without them. Checked before anything else happens, so that the
 * main interpreter can still import the module. -1 with ImportError.
 */
static int main_interpreter_only(const char *module) {
	if (PyInterpreterState_Get() == PyInterpreterState_Main())
		return 0;
	PyErr_Format(PyExc_ImportError,
	             "cannot import %s in a subinterpreter: extensions built on godlpack run only in the main "
	             "interpreter",
	             module);
	return -1;
}

#if defined(__linux__) && defined(__GLIBC__) && !defined(__ANDROID__) && (defined(__x86_64__) || defined(__aarch64__))

/*
 * Here Go runtimes share the process: each has its own thread-local slot and,
 * linked with -Bsymbolic, its own symbols. Only SIGURG is shared.
 *
 * What the dispatcher cannot help: a SIGURG handler installed after the last
 * extension built on package cpython joined (Python's signal.signal, or the
 * Go runtime of an extension not built on cpython) replaces the dispatcher,
 * and Go's handlers never forward SIGURG, so every runtime but that one's
 * loses async preemption, until the next extension built on cpython loads:
 * its constructor records that handler, and it joins and reinstalls the
 * dispatcher.
 */

#include <errno.h>
#include <pthread.h>
#include <stddef.h>
#include <string.h>

/*
 * The registry of the library that created the rendezvous. 150 runtimes in
 * one process cost about 350 MB (about 2.3 MB each); this many is beyond any
 * real process. Process-wide by nature, never module state: SIGURG's handler
 * is the process's, and the dispatcher reads the registry in a signal
 * handler, where no module and no Python can be reached.
 */
#define MAX_HANDLERS 1024

typedef void (*sigurg_handler)(int, siginfo_t *, void *);

typedef struct {
	sigurg_handler handler;
	int sa_flags;
} recorded;

static recorded handlers[MAX_HANDLERS];
static uint32_t handler_count; /* published with release order after its entry is written */
static pthread_mutex_t adding = PTHREAD_MUTEX_INITIALIZER;

/* This library's registry, which the rendezvous publishes when this library is the first to load. */
__attribute__((visibility("hidden"))) gdl_runtimes gdl_runtimes_registry;

/*
 * A dispatcher must never call a dispatcher: two registries whose
 * dispatchers each recorded the other's (a test that deletes the rendezvous
 * from sys and puts it back does it) would call each other until the signal
 * stack overflows. So a version-2 dispatcher can be told from any other
 * handler by what precedes its entry point: DISPATCHER_MARK (24 bytes), then
 * the offset from the word after the mark to its registry. The entry lies 32
 * bytes into a 64-byte-aligned block of code: the mark is in the entry's own
 * page, so reading 32 bytes before a handler placed so never faults, and a
 * handler placed otherwise is no dispatcher. The entry jumps to dispatch
 * with the signal's arguments untouched.
 */
#define DISPATCHER_MARK "godlpack SIGURG dispatch"
#define MARK_LEN 24
_Static_assert(sizeof DISPATCHER_MARK - 1 == MARK_LEN, "the mark fills the first 24 bytes of its block");

__attribute__((visibility("hidden"))) void gdl_dispatch_entry(int sig, siginfo_t *info, void *ctx);
__attribute__((visibility("hidden"), used)) void gdl_dispatch(int sig, siginfo_t *info, void *ctx);

#if defined(__x86_64__)
#define JUMP_TO_DISPATCH "jmp gdl_dispatch\n"
#else
#define JUMP_TO_DISPATCH "b gdl_dispatch\n"
#endif
__asm__(".pushsection .text\n"
        ".p2align 6\n"
        ".ascii \"" DISPATCHER_MARK "\"\n"
        ".long gdl_runtimes_registry - .\n"
        ".long 0\n"
        ".globl gdl_dispatch_entry\n"
        ".hidden gdl_dispatch_entry\n"
        ".type gdl_dispatch_entry, %function\n"
        "gdl_dispatch_entry:\n" JUMP_TO_DISPATCH
        ".size gdl_dispatch_entry, . - gdl_dispatch_entry\n"
        ".popsection\n");

/* registry_of returns the registry whose dispatcher h is, or NULL for any other handler (SIG_DFL and SIG_IGN too). */
static gdl_runtimes *registry_of(sigurg_handler h) {
	uintptr_t at = (uintptr_t)h;
	if (at % 64 != 32)
		return NULL;
	const char *mark = (const char *)(at - 32);
	if (memcmp(mark, DISPATCHER_MARK, MARK_LEN) != 0)
		return NULL;
	int32_t offset;
	memcpy(&offset, mark + MARK_LEN, sizeof offset);
	gdl_runtimes *r = (gdl_runtimes *)(mark + MARK_LEN + offset);
	return r->version >= 2 && r->size >= sizeof(gdl_runtimes) && r->handler != NULL ? r : NULL;
}

/*
 * gdl_dispatch calls every recorded handler with the signal's arguments.
 * Each Go runtime's handler finds out whether the signal came for one of its
 * own goroutines (its own thread-local g, the interrupted pc in its own code)
 * and ignores it otherwise; calling all of them is what keeps async
 * preemption in each. It runs on the thread's signal stack (SA_ONSTACK: a
 * goroutine's stack is too small), where Go's handlers expect to be, and uses
 * little of it. No recorded handler is a dispatcher of version 2 (add), and
 * Go's handlers never forward SIGURG once their runtime has started.
 */
void gdl_dispatch(int sig, siginfo_t *info, void *ctx) {
	int saved = errno;
	uint32_t n = __atomic_load_n(&handler_count, __ATOMIC_ACQUIRE);
	for (uint32_t i = 0; i < n; i++) {
		recorded r = handlers[i];
		if (r.sa_flags & SA_SIGINFO)
			r.handler(sig, info, ctx);
		else
			((void (*)(int))(void *)r.handler)(sig);
	}
	errno = saved;
}

/*
 * each_handler adds every handler of registry from, a version-2 one, to to
 * through to's add: 0, or -1 when to is full.
 */
static int each_handler(gdl_runtimes *from, gdl_runtimes *to) {
	sigurg_handler h;
	int flags;
	for (uint32_t i = 0; from->handler(i, &h, &flags) == 0; i++)
		if (to->add(h, flags) < 0)
			return -1;
	return 0;
}

static int add(sigurg_handler handler, int sa_flags) {
	gdl_runtimes *of = registry_of(handler);
	if (of == &gdl_runtimes_registry)
		return 0;
	if (of != NULL) /* another registry's dispatcher: what it calls, never itself */
		return each_handler(of, &gdl_runtimes_registry) < 0 ? -1 : 1;
	int rc = 1;
	pthread_mutex_lock(&adding);
	uint32_t n = __atomic_load_n(&handler_count, __ATOMIC_RELAXED);
	for (uint32_t i = 0; i < n && rc == 1; i++)
		if (handlers[i].handler == handler)
			rc = 0;
	if (rc == 1 && n == MAX_HANDLERS)
		rc = -1;
	if (rc == 1) {
		handlers[n] = (recorded){handler, sa_flags};
		__atomic_store_n(&handler_count, n + 1, __ATOMIC_RELEASE);
	}
	pthread_mutex_unlock(&adding);
	return rc;
}

/* install uses the flags Go's runtime uses for its own handler, and blocks every signal while it runs, as Go does. */
static int install(void) {
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = gdl_dispatch_entry;
	sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESTART;
	sigfillset(&sa.sa_mask);
	return sigaction(SIGURG, &sa, NULL);
}

static uint32_t count(void) { return __atomic_load_n(&handler_count, __ATOMIC_ACQUIRE); }

static int handler_at(uint32_t i, sigurg_handler *h, int *sa_flags) {
	if (i >= count())
		return -1;
	*h = handlers[i].handler;
	*sa_flags = handlers[i].sa_flags;
	return 0;
}

gdl_runtimes gdl_runtimes_registry = {
	GDL_RUNTIMES_VERSION, sizeof(gdl_runtimes), add, install, gdl_dispatch_entry, count, handler_at,
};

/*
 * A preemption signal can be lost for good: the runtime sends a thread one
 * and no other until Go code has handled it, and one that reaches the thread
 * after the call returned to C, or one sent to thread id 0 because the
 * thread that last ran the M exited (Go 1.26), is never handled
 * (internal/preempt). Repairing costs a signal (about 2 us), too much for
 * every short call that releases the GIL, so a call repairs only where a
 * signal can have been lost: a thread's first call (an M inherited from an
 * exited thread), and any call after a SIGURG reached this runtime, on any
 * thread, since the thread last repaired. The process's dispatcher calls
 * counted_go_handler, which counts those, in place of the Go handler itself;
 * the repairs' own signals, marked, are left out, or two runtimes' repairs
 * would make each other repair on every call.
 */
static sigurg_handler go_handler;
static int go_handler_flags;
static uint32_t sigurgs_seen = 1;                /* a thread that never asked has 0: its first call repairs */
static __thread uint32_t sigurgs_seen_by_thread; /* sigurgs_seen when the thread last asked */

static void counted_go_handler(int sig, siginfo_t *info, void *ctx) {
	if (info == NULL || info->si_code != SI_QUEUE || info->si_value.sival_int != GDL_REPAIR_MARK)
		__atomic_add_fetch(&sigurgs_seen, 1, __ATOMIC_RELAXED);
	if (go_handler_flags & SA_SIGINFO)
		go_handler(sig, info, ctx);
	else
		((void (*)(int))(void *)go_handler)(sig);
}

int gdl_preemption_suspect(void) {
	uint32_t seen = __atomic_load_n(&sigurgs_seen, __ATOMIC_RELAXED);
	if (seen == sigurgs_seen_by_thread)
		return 0;
	sigurgs_seen_by_thread = seen;
	return 1;
}

/*
 * The SIGURG handler in place before this library's Go runtime started: an
 * earlier runtime's, a dispatcher's, Python's, or that of a Go extension not
 * built on package cpython. The runtime replaces it while the library loads,
 * in its own initialiser; this constructor's priority puts it in
 * .init_array.00101, which the linker sorts before the plain .init_array
 * entry that starts the runtime, so it runs first: before any interpreter
 * or module exists, so it can only be the library's.
 */
static struct sigaction before_go;
static int before_go_known;

__attribute__((constructor(101))) static void record_before_go(void) {
	before_go_known = sigaction(SIGURG, NULL, &before_go) == 0;
}

/*
 * rendezvous returns the process's registry: sys's; else, when sys holds none
 * (it was deleted, or never published in this interpreter) but a dispatcher
 * was in place before this library loaded, that dispatcher's registry, which
 * is the process's; else this library's. A registry sys did not hold is
 * published there. NULL with ImportError.
 */
static gdl_runtimes *rendezvous(const char *module) {
	PyObject *held = PySys_GetObject(GDL_RUNTIMES_ATTR); /* borrowed; NULL without an exception when absent */
	if (held == NULL) {
		gdl_runtimes *r = before_go_known ? registry_of(before_go.sa_sigaction) : NULL;
		if (r == NULL)
			r = &gdl_runtimes_registry;
		PyObject *c = PyCapsule_New(r, GDL_RUNTIMES_CAPSULE, NULL);
		if (c == NULL)
			return NULL;
		int rc = PySys_SetObject(GDL_RUNTIMES_ATTR, c);
		Py_DECREF(c);
		return rc == 0 ? r : NULL;
	}
	gdl_runtimes *r = PyCapsule_IsValid(held, GDL_RUNTIMES_CAPSULE) ? PyCapsule_GetPointer(held, GDL_RUNTIMES_CAPSULE)
	                                                                 : NULL;
	if (r == NULL || r->version < 1 || r->size < offsetof(gdl_runtimes, handler)) {
		PyErr_Clear();
		PyErr_Format(PyExc_ImportError,
		             "cannot import %s: sys.%s is not the rendezvous of Go runtimes that extensions built on "
		             "godlpack share (a capsule named \"%s\", version 1 or later)",
		             module, GDL_RUNTIMES_ATTR, GDL_RUNTIMES_CAPSULE);
		return NULL;
	}
	return r;
}

/*
 * record adds handler a to r unless it is no handler or r's dispatcher.
 * Another registry's dispatcher is never recorded: its handlers are (a
 * registry of version 1 cannot tell dispatchers apart, so this does it for
 * it). -1 with ImportError when r is full.
 */
static int record(gdl_runtimes *r, const struct sigaction *a, const char *module) {
	sigurg_handler h = a->sa_sigaction;
	gdl_runtimes *of = registry_of(h);
	if (a->sa_handler == SIG_DFL || a->sa_handler == SIG_IGN || h == r->dispatch || of == r)
		return 0;
	if ((of != NULL ? each_handler(of, r) : r->add(h, a->sa_flags)) >= 0)
		return 0;
	PyErr_Format(PyExc_ImportError,
	             "cannot import %s: the SIGURG dispatcher of the process's Go runtimes already calls %u handlers, "
	             "the most it can",
	             module, (unsigned)r->count());
	return -1;
}

int gdl_join_process(const char *module) {
	if (main_interpreter_only(module) != 0 || gdl_names_ready() != 0)
		return -1;
	gdl_runtimes *r = rendezvous(module);
	if (r == NULL)
		return -1;
	/*
	 * The caller is Go code, so this library's runtime has started and
	 * installed its SIGURG handler, which is the current one. The one it
	 * replaced is kept too: a Go extension not built on package cpython
	 * that loaded before this one keeps its preemption that way.
	 */
	struct sigaction now;
	if (sigaction(SIGURG, NULL, &now) != 0)
		return PyErr_SetFromErrno(PyExc_OSError), -1;
	if (go_handler == NULL && registry_of(now.sa_sigaction) == NULL && now.sa_handler != SIG_DFL &&
	    now.sa_handler != SIG_IGN) {
		/* The first join: now is this runtime's handler, which the dispatcher calls through the counter. */
		go_handler = now.sa_sigaction;
		go_handler_flags = now.sa_flags;
		now.sa_sigaction = counted_go_handler;
		now.sa_flags |= SA_SIGINFO;
	}
	if ((before_go_known && record(r, &before_go, module) != 0) || record(r, &now, module) != 0)
		return -1;
	if (r->install() != 0)
		return PyErr_SetFromErrno(PyExc_OSError), -1;
	return 0;
}

#else

/*
 * Elsewhere runtimes cannot share a process (on macOS and Android they share
 * one thread-local slot; Windows and musl are untested): the first extension
 * built on package cpython claims the process, by its marker's address.
 */
static const char runtime_marker;

/* Preemption signals are repaired only on Linux (internal/preempt): here there is nothing to suspect. */
int gdl_preemption_suspect(void) { return 0; }

int gdl_join_process(const char *module) {
	if (main_interpreter_only(module) != 0 || gdl_names_ready() != 0)
		return -1;
	static const char attr[] = "_godlpack_go_runtime";
	PyObject *held = PySys_GetObject(attr); /* borrowed; NULL without an exception when absent */
	if (held != NULL) {
		PyObject *addr = PyTuple_Check(held) && PyTuple_GET_SIZE(held) == 2 ? PyTuple_GET_ITEM(held, 0) : NULL;
		if (addr != NULL && PyLong_Check(addr) && PyLong_AsVoidPtr(addr) == (void *)&runtime_marker)
			return 0; /* this library again: the same runtime */
		PyObject *owner = addr != NULL ? PyTuple_GET_ITEM(held, 1) : held;
		PyErr_Format(PyExc_ImportError,
		             "cannot import %s: this process already runs the Go runtime of %S, and two Go "
		             "extensions (each built with -buildmode=c-shared, each with its own Go runtime) can share a "
		             "process only on Linux with glibc (x86-64, arm64). Build the functions into one extension, "
		             "or use them in separate processes.",
		             module, owner);
		return -1;
	}
	PyObject *mine = Py_BuildValue("(Ns)", PyLong_FromVoidPtr((void *)&runtime_marker), module);
	if (mine == NULL)
		return -1;
	int rc = PySys_SetObject(attr, mine);
	Py_DECREF(mine);
	return rc;
}

#endif
