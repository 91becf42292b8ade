/*
 * Declarations shared by the C files of the extension module and the Go
 * functions it exports. C does the CPython object work; each Python call
 * crosses into Go at most once, with one of the argument structs below.
 */
#ifndef GODLPACK_EXT_H
#define GODLPACK_EXT_H

#include "capsule.h"
#include "producer.h"

/* The kinds of Python exception a Go function can ask for. */
enum {
	GDL_OK = 0,
	GDL_TYPE_ERROR,
	GDL_VALUE_ERROR,
	GDL_BUFFER_ERROR,
	GDL_MEMORY_ERROR,
	GDL_OVERFLOW_ERROR,
	GDL_RUNTIME_ERROR,
};

typedef struct {
	int kind;
	char msg[512];
} gdl_error;

/* gdl_raise sets the Python exception e describes and returns NULL. */
PyObject *gdl_raise(const gdl_error *e);

/* A tensor as Go describes it to C, which turns it into a Tensor. */
typedef struct {
	gdl_owner *owner; /* one reference, passed to the Tensor */
	void *data;       /* element (0, …, 0) */
	DLDevice device;
	DLDataType dtype;
	int32_t ndim;
	uint64_t flags;     /* GDL_FLAG_* */
	DLPackVersion need; /* oldest DLPack version that can describe it */
	int64_t size, nbytes, itemsize;
	int64_t shape[GDL_MAX_NDIM];
	int64_t strides[GDL_MAX_NDIM];
} gdl_desc;

/* The Tensor object: its shape, element strides and byte strides follow it. */
typedef struct {
	PyObject_VAR_HEAD
	gdl_owner *owner;
	void *data;
	DLDevice device;
	DLDataType dtype;
	int32_t ndim;
	uint64_t flags;
	DLPackVersion need;
	int64_t size, nbytes, itemsize;
	PyObject *weakrefs;
	int64_t dims[1]; /* shape[ndim], strides[ndim], byte strides[ndim] */
} TensorObject;

#define TENSOR_SHAPE(t) ((t)->dims)
#define TENSOR_STRIDES(t) ((t)->dims + (t)->ndim)
#define TENSOR_BYTE_STRIDES(t) ((t)->dims + 2 * (t)->ndim)

extern PyTypeObject gdl_TensorType;
extern PyTypeObject gdl_DTypeType;

/* gdl_tensor_new makes a Tensor of d, taking d->owner's reference (dropped on failure). */
PyObject *gdl_tensor_new(gdl_desc *d);

/*
 * gdl_tensor_share makes a Tensor over src's memory, as a zero-copy export and
 * import would (from_dlpack of our own Tensor takes this short cut); cpu
 * relabels CPU-accessible memory as device (1, 0).
 */
PyObject *gdl_tensor_share(TensorObject *src, int cpu);


/* Fork safety: in a forked child every call raises instead of hanging. */
#define GDL_CHECK_FORK(ret)                 \
	do {                                    \
		if (gdl_forked_child()) {           \
			gdl_fork_error();               \
			return ret;                     \
		}                                   \
	} while (0)

/* DType objects, one per table entry, registered from Go at import. */
int gdl_dtype_register(uint8_t code, uint8_t bits, uint16_t lanes, const char *name, int64_t itemsize);
PyObject *gdl_dtype_get(DLDataType dt); /* new reference */
/* gdl_dtype_name gives the name of a DType or str argument (borrowed UTF-8), or NULL with TypeError. */
const char *gdl_dtype_arg(PyObject *o, Py_ssize_t *len);

/* Arguments of goImport: a managed tensor whose ownership passes to Go. */
typedef struct {
	void *managed;
	int versioned;
	int copy;      /* -1 None, 0 False, 1 True */
	int fallback;  /* the producer ignored our keywords: meet copy and device ourselves */
	int has_device;
	DLDevice device;
	gdl_desc out;
	gdl_error err;
} gdl_import_args;

/* Arguments of goCreate: empty, zeros, full and arange. */
enum { GDL_EMPTY, GDL_ZEROS, GDL_FULL, GDL_ARANGE };
enum { GDL_VALUE_BOOL, GDL_VALUE_INT, GDL_VALUE_FLOAT, GDL_VALUE_COMPLEX };
typedef struct {
	int kind;
	const char *dtype;
	Py_ssize_t dtype_len;
	int32_t ndim;
	int64_t shape[GDL_MAX_NDIM];
	int value_kind;
	int value_unsigned; /* ival holds a uint64 above INT64_MAX */
	long long ival;
	double re, im;
	gdl_desc out;
	gdl_error err;
} gdl_create_args;

/* Arguments of goCopy: a fresh C-contiguous copy of a CPU-accessible tensor. */
typedef struct {
	const TensorObject *src;
	gdl_owner *owner; /* out: one reference */
	void *data;       /* out */
	int64_t strides[GDL_MAX_NDIM];
	gdl_error err;
} gdl_copy_args;


/* gdl_ops_register adds the functions of godlpack.ops (ops.c) to the module. */
int gdl_ops_register(PyObject *m);

/* gdl_module_create builds the module object; PyInit__core (Go) calls it. */
PyObject *gdl_module_create(void);

#endif
