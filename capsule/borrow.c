/*
 * Borrowed views: a tensor read in place from its object, for a caller that
 * holds the object while it reads (a bound function's call). A managed
 * tensor costs its producer a capsule or an allocation and a deleter; most
 * calls need neither.
 */
#include <string.h>
#include "borrow.h"
#include "capsule.h"

/*
 * NumPy's array and dtype objects as its C API declares them
 * (PyArrayObject_fields and PyArray_Descr in ndarraytypes.h). The fields
 * read here have kept these places since NumPy 1.7, in NumPy 2 as well;
 * pybind11 reads them the same way, without NumPy's headers.
 */
typedef struct {
	PyObject_HEAD
	char *data;
	int nd;
	Py_ssize_t *dimensions;
	Py_ssize_t *strides; /* in bytes */
	PyObject *base;
	PyObject *descr;
	int flags;
} numpy_array;

typedef struct {
	PyObject_HEAD
	PyTypeObject *typeobj;
	char kind, type, byteorder, former_flags;
	int type_num;
} numpy_descr;

enum { NUMPY_WRITEABLE = 0x0400 }; /* NPY_ARRAY_WRITEABLE */

/*
 * The DLPack data type of each of NumPy's built-in type numbers that its
 * __dlpack__ exports (bits 0 for the rest: long double, objects, strings,
 * dates and user types, which take the __dlpack__ path and its answer).
 */
static const DLDataType numpy_dtypes[] = {
	[0] = {kDLBool, 8, 1},                            /* NPY_BOOL */
	[1] = {kDLInt, 8, 1},                             /* NPY_BYTE */
	[2] = {kDLUInt, 8, 1},                            /* NPY_UBYTE */
	[3] = {kDLInt, 8 * sizeof(short), 1},             /* NPY_SHORT */
	[4] = {kDLUInt, 8 * sizeof(short), 1},            /* NPY_USHORT */
	[5] = {kDLInt, 8 * sizeof(int), 1},               /* NPY_INT */
	[6] = {kDLUInt, 8 * sizeof(int), 1},              /* NPY_UINT */
	[7] = {kDLInt, 8 * sizeof(long), 1},              /* NPY_LONG */
	[8] = {kDLUInt, 8 * sizeof(long), 1},             /* NPY_ULONG */
	[9] = {kDLInt, 8 * sizeof(long long), 1},         /* NPY_LONGLONG */
	[10] = {kDLUInt, 8 * sizeof(long long), 1},       /* NPY_ULONGLONG */
	[11] = {kDLFloat, 32, 1},                         /* NPY_FLOAT */
	[12] = {kDLFloat, 64, 1},                         /* NPY_DOUBLE */
	[14] = {kDLComplex, 64, 1},                       /* NPY_CFLOAT */
	[15] = {kDLComplex, 128, 1},                      /* NPY_CDOUBLE */
	[23] = {kDLFloat, 16, 1},                         /* NPY_HALF */
};

/*
 * NumPy's ndarray type, once seen: kept for the library, as NumPy's static
 * type is the process's, and gdl_is_ndarray checks it on every import with
 * no module at hand.
 */
PyTypeObject *gdl_ndarray_type;

/* gdl_find_ndarray remembers tp if it is ndarray. A static type's name is its C name; a class written in Python cannot take it. */
bool gdl_find_ndarray(PyTypeObject *tp) {
	if (!(tp->tp_flags & Py_TPFLAGS_HEAPTYPE) && strcmp(tp->tp_name, "numpy.ndarray") == 0 &&
	    tp->tp_basicsize >= (Py_ssize_t)sizeof(numpy_array)) {
		gdl_ndarray_type = tp;
		return true;
	}
	return false;
}

/*
 * borrow_ndarray reads an exact ndarray as its __dlpack__ would export it:
 * 1 (no view) for what that refuses or we do not map (a dtype outside the
 * table, a byte order other than the machine's, strides that are not whole
 * items), whose answer is then __dlpack__'s own.
 */
static int borrow_ndarray(PyObject *x, int64_t *shape_buf, int64_t *strides_buf, gdl_taken *out) {
	const numpy_array *a = (const numpy_array *)x;
	const numpy_descr *d = (const numpy_descr *)a->descr;
	if (d == NULL || d->type_num < 0 || d->type_num >= (int)(sizeof numpy_dtypes / sizeof numpy_dtypes[0]))
		return 1;
	DLDataType dt = numpy_dtypes[d->type_num];
	if (dt.bits == 0 || (d->byteorder != '=' && d->byteorder != '|') || a->nd < 0 || a->nd > GDL_MAX_NDIM)
		return 1;
	/* Items of 1, 2, 4, 8 or 16 bytes: a shift and a mask, where a division would cost more than the rest. */
	int shift = __builtin_ctz(dt.bits / 8);
	int64_t mask = (dt.bits / 8) - 1;
	for (int i = 0; i < a->nd; i++) {
		if ((a->strides[i] & mask) != 0)
			return 1;
		shape_buf[i] = a->dimensions[i];
		strides_buf[i] = a->strides[i] >> shift; /* arithmetic: negative strides stay negative */
	}
	DLManagedTensorVersioned *m = &out->view;
	*m = (DLManagedTensorVersioned){
		.version = {GDL_MAJOR_VERSION, GDL_MINOR_VERSION},
		.flags = (a->flags & NUMPY_WRITEABLE) ? 0 : GDL_FLAG_READ_ONLY,
		.dl_tensor = {.data = a->data, .device = {kDLCPU, 0}, .ndim = a->nd, .dtype = dt,
		              .shape = a->nd > 0 ? shape_buf : NULL, .strides = a->nd > 0 ? strides_buf : NULL},
	};
	out->managed = NULL;
	out->versioned = true;
	out->lender = Py_NewRef(x);
	return 0;
}

/* An ndarray's managed tensor (gdl_ndarray_take): the tensor, then its shape and strides. */
typedef struct {
	DLManagedTensorVersioned m;
	int64_t dims[];
} ndarray_managed;

/*
 * ndarray_deleter drops the array's reference. It runs on any thread, with
 * or without the GIL; once the interpreter is finalizing or gone, the
 * reference is left (the array may be gone, and taking the GIL then would
 * stop the thread), as NumPy's own deleter leaves it.
 */
static void ndarray_deleter(DLManagedTensorVersioned *m) {
	if (!gdl_owner_is_shut_down() && Py_IsInitialized()) {
		PyGILState_STATE g = PyGILState_Ensure();
		gdl_drop_keeping_error((PyObject *)m->manager_ctx);
		PyGILState_Release(g);
	}
	free(m);
}

int gdl_ndarray_take(PyObject *x, const gdl_request *req, gdl_taken *out) {
	if (req->copy == 1 || req->has_device)
		return 1;
	const numpy_array *a = (const numpy_array *)x;
	int nd = a->nd < 0 || a->nd > GDL_MAX_NDIM ? 0 : a->nd;
	ndarray_managed *nm = malloc(sizeof *nm + 2 * (size_t)nd * sizeof(int64_t));
	if (nm == NULL) {
		PyErr_NoMemory();
		return -1;
	}
	gdl_taken view;
	if (borrow_ndarray(x, nm->dims, nm->dims + nd, &view) != 0) {
		free(nm);
		return 1;
	}
	nm->m = view.view;
	nm->m.manager_ctx = view.lender; /* the reference borrow_ndarray took passes to the tensor */
	nm->m.deleter = ndarray_deleter;
	out->managed = &nm->m;
	out->versioned = true;
	return 0;
}

int gdl_borrow(PyObject *x, const gdl_request *req, int64_t *shape_buf, int64_t *strides_buf, gdl_taken *out) {
	/* A copy or a device asked for is the producer's to make: only __dlpack__ is asked for those. */
	if (req->copy == 1 || req->has_device)
		return 1;
	if (gdl_is_ndarray(Py_TYPE(x)))
		return borrow_ndarray(x, shape_buf, strides_buf, out);
	return gdl_exchange_borrow(x, req, shape_buf, strides_buf, out);
}
