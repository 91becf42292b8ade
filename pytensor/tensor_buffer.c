/* The buffer protocol of Tensors, and NumPy arrays made over a Tensor by NumPy's C API. */
#include <string.h>
#include "tensor_object.h"

/* ---- buffer protocol ---- */

const char *gdl_buffer_format(DLDataType dt) {
	if (dt.lanes != 1)
		return NULL;
	switch (dt.code) {
	case kDLBool: return dt.bits == 8 ? "?" : NULL;
	case kDLInt:
		switch (dt.bits) { case 8: return "b"; case 16: return "h"; case 32: return "i"; case 64: return "q"; }
		return NULL;
	case kDLUInt:
		switch (dt.bits) { case 8: return "B"; case 16: return "H"; case 32: return "I"; case 64: return "Q"; }
		return NULL;
	case kDLFloat:
		switch (dt.bits) { case 16: return "e"; case 32: return "f"; case 64: return "d"; }
		return NULL;
	case kDLComplex:
		switch (dt.bits) { case 64: return "Zf"; case 128: return "Zd"; }
		return NULL;
	}
	return NULL;
}

int gdl_tensor_getbuffer(TensorObject *self, Py_buffer *view, int flags) {
	view->obj = NULL;
	GDL_CHECK_FORK(-1);
	if (gdl_tensor_require_readable(self, "buffer") != 0)
		return -1;
	const char *format = gdl_buffer_format(self->src.view.dtype);
	if (format == NULL) {
		PyObject *name = gdl_dtype_get(self->src.view.dtype);
		PyErr_Format(PyExc_BufferError, "dtype %S has no buffer format", name);
		Py_XDECREF(name);
		return -1;
	}
	if ((flags & PyBUF_WRITABLE) && gdl_tensor_readonly(self)) {
		PyErr_SetString(PyExc_BufferError, "the tensor is read-only");
		return -1;
	}
	view->buf = self->src.view.data;
	view->len = (Py_ssize_t)self->src.nbytes;
	view->readonly = gdl_tensor_readonly(self);
	view->itemsize = (Py_ssize_t)self->itemsize;
	view->format = (flags & PyBUF_FORMAT) ? (char *)format : NULL;
	view->ndim = self->src.view.ndim;
	view->shape = (Py_ssize_t *)TENSOR_SHAPE(self);
	view->strides = (Py_ssize_t *)TENSOR_BYTE_STRIDES(self);
	view->suboffsets = NULL;
	view->internal = NULL;
	/* CPython's own contiguity rules, on the view as it stands. */
	int c = PyBuffer_IsContiguous(view, 'C');
	if (((flags & PyBUF_C_CONTIGUOUS) == PyBUF_C_CONTIGUOUS && !c) ||
	    ((flags & PyBUF_F_CONTIGUOUS) == PyBUF_F_CONTIGUOUS && !PyBuffer_IsContiguous(view, 'F')) ||
	    ((flags & PyBUF_ANY_CONTIGUOUS) == PyBUF_ANY_CONTIGUOUS && !c && !PyBuffer_IsContiguous(view, 'F')) ||
	    ((flags & PyBUF_STRIDES) != PyBUF_STRIDES && !c)) {
		PyErr_SetString(PyExc_BufferError, "the tensor is not contiguous as the buffer request requires");
		return -1;
	}
	if ((flags & PyBUF_ND) != PyBUF_ND)
		view->shape = NULL;
	if ((flags & PyBUF_STRIDES) != PyBUF_STRIDES)
		view->strides = NULL;
	Py_INCREF(self);
	view->obj = (PyObject *)self;
	return 0;
}

_Static_assert(sizeof(Py_ssize_t) == sizeof(int64_t), "the buffer protocol shares the int64 shape arrays");

/* ---- NumPy arrays over a Tensor ---- */

/*
 * NumPy's C API, the function table its _ARRAY_API capsule holds, looked up
 * once per library (the main interpreter's). Its slots are NumPy's stable
 * ABI (numpy_api.py numbers them; pybind11 uses the same): godlpack compiles
 * without NumPy's headers.
 */
static void **numpy_api;

static PyObject *numpy_api_capsule;

 /* holds numpy_api for the life of the library */
static int numpy_api_state;

         /* 0: not looked up; 1: numpy_api holds it; -1: unavailable */
enum {
	NUMPY_GET_ABI_VERSION = 0,
	NUMPY_ARRAY_TYPE = 2,
	NUMPY_DESCR_FROM_TYPE = 45,
	NUMPY_NEW_FROM_DESCR = 94,
	NUMPY_SET_BASE_OBJECT = 282,
	NUMPY_ABI_2 = 0x02000000,
	NUMPY_MAX_DIMS = 64,
	NUMPY_WRITEABLE = 0x0400,
};

/* numpy_api_ready says whether numpy_api holds NumPy 2's table, looking it up the first time. */
static bool numpy_api_ready(void) {
	if (numpy_api_state != 0)
		return numpy_api_state > 0;
	numpy_api_state = -1;
	PyObject *capsule = gdl_import_attr("numpy._core._multiarray_umath", "_ARRAY_API");
	void **api = capsule != NULL ? PyCapsule_GetPointer(capsule, NULL) : NULL;
	PyErr_Clear(); /* without NumPy 2's table, the caller's other way says what is wrong */
	if (api == NULL || ((unsigned int (*)(void))api[NUMPY_GET_ABI_VERSION])() < NUMPY_ABI_2) {
		Py_XDECREF(capsule);
		return false;
	}
	numpy_api_capsule = capsule;
	numpy_api = api;
	numpy_api_state = 1;
	return true;
}

/*
 * numpy_type_number is NumPy's number of the dtype whose buffer format is
 * format (gdl_buffer_format's), or -1. An int64 is NumPy's int64 (long where
 * long has 64 bits), as numpy.from_dlpack makes it, not the longlong that
 * the format 'q' names.
 */
static int numpy_type_number(const char *format) {
	switch (format[0]) {
	case '?': return 0;
	case 'b': return 1;
	case 'B': return 2;
	case 'h': return 3;
	case 'H': return 4;
	case 'i': return 5;
	case 'I': return 6;
	case 'q': return sizeof(long) == 8 ? 7 : 9;
	case 'Q': return sizeof(long) == 8 ? 8 : 10;
	case 'f': return 11;
	case 'd': return 12;
	case 'e': return 23;
	case 'Z': return format[1] == 'f' ? 14 : 15;
	}
	return -1;
}

int gdl_tensor_numpy(PyObject *t, PyObject **out) {
	TensorObject *self = (TensorObject *)t;
	const char *format = gdl_buffer_format(self->src.view.dtype);
	int type = format != NULL ? numpy_type_number(format) : -1;
	if (type < 0 || !gdl_is_cpu_accessible(self->src.view.device) || self->src.view.ndim > NUMPY_MAX_DIMS ||
	    !numpy_api_ready())
		return 1;
	PyObject *descr = ((PyObject * (*)(int)) numpy_api[NUMPY_DESCR_FROM_TYPE])(type);
	if (descr == NULL)
		return -1;
	/* The new array steals descr, and computes its contiguity and alignment from the strides. */
	PyObject *array = ((PyObject * (*)(PyTypeObject *, PyObject *, int, const Py_ssize_t *, const Py_ssize_t *,
	                                   void *, int, PyObject *)) numpy_api[NUMPY_NEW_FROM_DESCR])(
		(PyTypeObject *)numpy_api[NUMPY_ARRAY_TYPE], descr, self->src.view.ndim, (Py_ssize_t *)TENSOR_SHAPE(self),
		(Py_ssize_t *)TENSOR_BYTE_STRIDES(self), self->src.view.data, gdl_tensor_readonly(self) ? 0 : NUMPY_WRITEABLE,
		NULL);
	if (array == NULL)
		return -1;
	/* The array keeps t, and with it t's memory (SetBaseObject steals the reference, even when it fails). */
	if (((int (*)(PyObject *, PyObject *))numpy_api[NUMPY_SET_BASE_OBJECT])(array, Py_NewRef(t)) != 0) {
		Py_DECREF(array);
		return -1;
	}
	*out = array;
	return 0;
}
