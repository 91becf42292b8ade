/*
 * Test helpers for godlpack's lifetime tests, compiled at test time into a
 * small shared library and loaded with ctypes. None of them touches Python:
 * they model C code that holds DLPack tensors, such as a producer whose
 * deleters run on threads Python never saw, or a library that keeps a tensor
 * until after the interpreter has finalized.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "layouts.h"

/* delete_any calls a managed tensor's deleter, whichever ABI it has. */
static void delete_any(void *m, int is_versioned) {
	if (is_versioned) {
		versioned *v = m;
		if (v->deleter != NULL)
			v->deleter(v);
	} else {
		managed *l = m;
		if (l->deleter != NULL)
			l->deleter(l);
	}
}

/* ---- a C producer whose deleters count their calls, with no Python in them ---- */

static int64_t made, deleted;
static uint64_t last_deleter_thread;

typedef struct {
	versioned v;
	int64_t shape[1];
	float data[4];
} c_tensor;

static void c_delete(versioned *v) {
	__atomic_add_fetch(&deleted, 1, __ATOMIC_SEQ_CST);
	__atomic_store_n(&last_deleter_thread, (uint64_t)pthread_self(), __ATOMIC_SEQ_CST);
	free(v);
}

/* lt_make returns a versioned 1-d float32 tensor of 4 elements, value i at i. */
void *lt_make(void) {
	c_tensor *c = calloc(1, sizeof *c);
	if (c == NULL)
		return NULL;
	c->v.major = 1;
	c->v.minor = 0;
	c->v.deleter = c_delete;
	c->v.t.data = c->data;
	c->v.t.device_type = 1;
	c->v.t.ndim = 1;
	c->v.t.code = 2;
	c->v.t.bits = 32;
	c->v.t.lanes = 1;
	c->shape[0] = 4;
	c->v.t.shape = c->shape;
	for (int i = 0; i < 4; i++)
		c->data[i] = (float)i;
	__atomic_add_fetch(&made, 1, __ATOMIC_SEQ_CST);
	return c;
}

int64_t lt_made(void) { return __atomic_load_n(&made, __ATOMIC_SEQ_CST); }
int64_t lt_deleted(void) { return __atomic_load_n(&deleted, __ATOMIC_SEQ_CST); }

/* lt_last_deleter_thread is the pthread_t that ran the latest lt_make deleter. */
uint64_t lt_last_deleter_thread(void) { return __atomic_load_n(&last_deleter_thread, __ATOMIC_SEQ_CST); }

/* ---- deleting on a fresh pthread ---- */

typedef struct {
	void *m;
	int is_versioned;
	uint64_t self;
} job;

static void *run_delete(void *arg) {
	job *j = arg;
	j->self = (uint64_t)pthread_self();
	delete_any(j->m, j->is_versioned);
	return NULL;
}

/*
 * lt_delete_on_thread calls the deleter of m on a new pthread, which has no
 * Python thread state and was not created by Go, and waits for it. It returns
 * that thread's pthread_t, or 0 when the thread could not start.
 */
uint64_t lt_delete_on_thread(void *m, int is_versioned) {
	job j = {m, is_versioned, 0};
	pthread_t th;
	if (pthread_create(&th, NULL, run_delete, &j) != 0)
		return 0;
	pthread_join(th, NULL);
	return j.self;
}

/* ---- a holder that outlives the interpreter ---- */

#define KEPT_MAX 64
static struct {
	void *m;
	int is_versioned;
} kept[KEPT_MAX];
static int nkept;

/* say writes a line to stdout with write(2): stdio may already be flushed and closed for Python. */
static void say(const char *s) {
	ssize_t rc = write(1, s, strlen(s));
	(void)rc;
}

/* delete_kept runs from exit(), after Py_FinalizeEx has returned. */
static void delete_kept(void) {
	for (int i = 0; i < nkept; i++)
		delete_any(kept[i].m, kept[i].is_versioned);
	char line[64];
	snprintf(line, sizeof line, "lifetime-helper: %d deleters ran after finalize\n", nkept);
	say(line);
}

/* lt_keep_until_exit holds m and calls its deleter from an atexit handler; -1 when full. */
int lt_keep_until_exit(void *m, int is_versioned) {
	if (nkept == KEPT_MAX)
		return -1;
	if (nkept == 0 && atexit(delete_kept) != 0)
		return -1;
	kept[nkept].m = m;
	kept[nkept].is_versioned = is_versioned;
	nkept++;
	return 0;
}
