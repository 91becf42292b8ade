/*
 * The C half of package capsule: the DLPack protocol as CPython sees it, in
 * one implementation for every object that speaks it (the Tensor of
 * tensor.h, godlpack.Tensor and every bound function's results, or any C
 * type of a Go extension): capsules, devices as spelled, __dlpack__, taking
 * and importing tensors, the exchange tables. Every function here is called
 * with the GIL held. Its file-level statics are one per library, as
 * cpython.h says.
 */
#ifndef GODLPACK_CAPSULE_H
#define GODLPACK_CAPSULE_H

#include "cpython.h"
#include "inspect.h"

/*
 * gdl_copy_dims copies n shape or stride values. A few values is the rule:
 * a memcpy of a length unknown at compile time is inlined as `rep movs`,
 * whose start-up costs more than such a loop.
 */
static inline void gdl_copy_dims(int64_t *dst, const int64_t *src, int32_t n) {
	for (int32_t i = 0; i < n; i++)
		dst[i] = src[i];
}

/* ---- Capsules (capsule.c) ---- */

extern const char gdl_name_legacy[];         /* "dltensor" */
extern const char gdl_name_versioned[];      /* "dltensor_versioned" */
extern const char gdl_name_used_legacy[];    /* "used_dltensor" */
extern const char gdl_name_used_versioned[]; /* "used_dltensor_versioned" */

/*
 * gdl_capsule_wrap returns a new capsule owning managed. If the capsule
 * cannot be made, it calls the managed tensor's deleter and returns NULL with
 * an exception set, so ownership always passes.
 */
PyObject *gdl_capsule_wrap(void *managed, bool versioned);

/*
 * gdl_capsule_take takes the managed tensor out of a "dltensor" or
 * "dltensor_versioned" capsule and renames it "used_…": from then on the
 * caller owns the tensor. NULL with TypeError for something that is not a
 * DLPack capsule, ValueError for a capsule already consumed.
 */
void *gdl_capsule_take(PyObject *capsule, bool *versioned);

/* ---- Devices as callers and producers spell them (device.c) ---- */

/* gdl_has_dlpack_device reports whether tp defines __dlpack_device__ (gdl_type_defines): 1, 0, or -1 with MemoryError. */
int gdl_has_dlpack_device(PyTypeObject *tp);

/*
 * gdl_dlpack_device calls obj.__dlpack_device__() and stores the pair
 * (gdl_device_pair). Returns 0, or -1 with an exception (TypeError for a
 * malformed answer, ValueError for one out of range).
 */
int gdl_dlpack_device(PyObject *obj, DLDevice *out);

/*
 * gdl_device_pair reads a (device_type, device_id) tuple as NumPy reads
 * __dlpack_device__'s answer: two ints, the type possibly an IntEnum, the id
 * None for the CPU (device 0). -1 with exc for anything else ("<must> a
 * (device_type, device_id) tuple of ints"), ValueError for values beyond
 * int32.
 */
int gdl_device_pair(PyObject *pair, PyObject *exc, const char *must, DLDevice *out);

/*
 * gdl_parse_device reads a device as callers spell it: a (device_type,
 * device_id) tuple (a godlpack.Device is one), a str naming a DLPack device
 * type with an index ("cuda:1", "rocm_host:0"; "cpu" alone is "cpu:0"), a
 * torch.device, or an object with __dlpack_device__. -1 with exc, naming
 * what, for any other object; ValueError for a str or torch.device that
 * names no DLPack device or no index, or values beyond int32.
 */
int gdl_parse_device(PyObject *o, PyObject *exc, const char *what, DLDevice *out);

/* ---- The producer side: __dlpack__ and __dlpack_device__ (export.c) ---- */

/*
 * gdl_export is __dlpack__(*, stream, max_version, dl_device, copy) of an
 * object whose tensor s describes: its arguments parsed and checked, the
 * version negotiated, a copy made for copy=True, and the managed tensor
 * wrapped in a capsule. Go is entered only to copy. s may gain its owner
 * (gdl_source_owner).
 */
PyObject *gdl_export(gdl_source *s, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames);

/* gdl_export_device is __dlpack_device__(): the (device_type, device_id) of s. */
PyObject *gdl_export_device(const gdl_source *s);

/*
 * gdl_exported_view is the view gdl_pack exports for s: the flags a
 * consumer may see (READ_ONLY, IS_SUBBYTE_TYPE_PADDED) and a data pointer
 * that is never NULL, even for no elements.
 */
void gdl_exported_view(const gdl_source *s, gdl_view *v);

/* ---- The consumer side: take.c, borrow.c, exchange.c, import.c ---- */

/* What a consumer asks of the object it takes a tensor from. */
typedef struct {
	const char *func;  /* the caller's name, for its errors */
	int copy;          /* -1: not passed (None); 0: False; 1: True */
	bool has_device;   /* pass dl_device=device */
	DLDevice device;
	/*
	 * gdl_import: the caller writes the data in place, so its writes must be
	 * allowed and seen: refuse a read-only or legacy tensor, and a copy the
	 * producer made unasked (copy=True asks for a private copy to write).
	 */
	bool writable;
} gdl_request;

/*
 * A managed tensor gdl_take took, which the caller owns. A bare capsule, or
 * a producer from before DLPack 1.0, could not be asked for req's copy and
 * device: the caller checks what it got against req in every case.
 */
typedef struct {
	void *managed;
	bool versioned;
	/*
	 * A borrowed view (gdl_borrow) in place of a managed tensor: managed is
	 * then NULL, lender the object it reads (with a reference of the taker's),
	 * and view the tensor as a versioned managed tensor would hold it, its
	 * shape and strides copied to the taker's buffers and no deleter.
	 */
	PyObject *lender;
	DLManagedTensorVersioned view;
} gdl_taken;

/*
 * gdl_take asks x for its tensor: from NumPy's exact ndarray itself
 * (gdl_ndarray_take), through the C exchange API of x's type when it has one
 * and can serve req, else through x.__dlpack__(max_version=
 * (1, our minor), …) (stream=-1 for CUDA and ROCm data, which
 * __dlpack_device__ tells), or takes it out of x if x is a capsule. Returns
 * 0, or -1 with an exception: TypeError when x speaks no DLPack, or what the
 * producer raised.
 */
int gdl_take(PyObject *x, const gdl_request *req, gdl_taken *out);

/*
 * gdl_borrow reads x's tensor in place, for a caller that keeps x alive and
 * reads the view only while it holds the reference gdl_borrow takes (a
 * bound function's call): no capsule, no managed tensor, no deleter. It
 * serves NumPy's exact ndarray, read from its struct, and types whose C
 * exchange API table has dltensor_from_py_object_no_sync, on the same terms
 * as gdl_take (a tensor the producer's __dlpack__ would refuse or answer
 * otherwise is not borrowed). shape_buf and strides_buf have room for
 * GDL_MAX_NDIM values each. Returns 0 with out->lender set, 1 when x's
 * tensor is for gdl_take to take, or -1 with an exception.
 */
int gdl_borrow(PyObject *x, const gdl_request *req, int64_t *shape_buf, int64_t *strides_buf, gdl_taken *out);

/*
 * gdl_ndarray_take makes the managed tensor NumPy's __dlpack__ would hand
 * over for x, an exact ndarray, without calling it: the view gdl_borrow
 * reads, in a versioned managed tensor of ours that holds a reference to x,
 * dropped by its deleter with the GIL. Returns 0, 1 when __dlpack__ must
 * answer (what gdl_borrow leaves to it, a copy or a device asked for), or
 * -1 with MemoryError.
 */
int gdl_ndarray_take(PyObject *x, const gdl_request *req, gdl_taken *out);

/* gdl_taken_release lets go of what tk holds: its managed tensor's deleter, or the lender's reference. */
void gdl_taken_release(gdl_taken *tk);

/*
 * gdl_exchange_take is gdl_take's path through the C exchange API of x's
 * type: 0 when it took the tensor, 1 when the table cannot serve req (no
 * table, a copy or a device asked for, or a tensor the producer's
 * __dlpack__ would answer otherwise), -1 with an exception.
 */
int gdl_exchange_take(PyObject *x, const gdl_request *req, gdl_taken *out);

/*
 * gdl_exchange_borrow is gdl_borrow's path through the C exchange API:
 * 0 with a borrowed view, 1 when the table cannot lend one (as for
 * gdl_exchange_take, or it has no dltensor_from_py_object_no_sync), -1 with
 * an exception.
 */
int gdl_exchange_borrow(PyObject *x, const gdl_request *req, int64_t *shape_buf, int64_t *strides_buf,
                        gdl_taken *out);

/* A tensor gdl_import imported. The caller owns managed: it deletes it once, or adopts it (gdl_source_adopt). */
typedef struct {
	void *managed;
	bool versioned;
	PyObject *lender; /* gdl_import_view's borrowed view: managed is NULL, and the caller holds this reference */
	gdl_inspected v; /* what managed holds, validated; its strides may be in the caller's buffer */
	uint64_t flags;  /* a holder's flags: READ_ONLY (also for every legacy tensor), IS_COPIED, IS_SUBBYTE_TYPE_PADDED */
} gdl_imported;

/*
 * gdl_import is the one import of godlpack: from_dlpack, godlpack.ops,
 * bound Go functions and capsule.Import all take tensors through it. It takes
 * x's tensor (gdl_take), validates it (gdl_validate), and holds it to req:
 *   - a device asked for: the data must be there (CPU-accessible memory for
 *     the CPU, then described as device (1, 0)), else BufferError;
 *   - copy=False: a tensor the producer copied (IS_COPIED) is a BufferError;
 *   - copy=True: the result is a private, writable copy: the producer's,
 *     when it says IS_COPIED without READ_ONLY, else one made here from
 *     CPU-accessible data (BufferError for other data);
 *   - writable: gdl_request.writable's refusals, as BufferError.
 * strides_buf has room for GDL_MAX_NDIM strides. Returns 0, or -1 with an
 * exception, every tensor taken deleted once.
 */
int gdl_import(PyObject *x, const gdl_request *req, int64_t *strides_buf, gdl_imported *out);

/*
 * gdl_import_view is gdl_import for a caller that reads the tensor only
 * while it holds x (a bound function's call): it borrows a view of x's
 * tensor where gdl_borrow can, held to req as any import, and takes it
 * otherwise. shape_buf and strides_buf have room for GDL_MAX_NDIM values
 * each. The caller lets go with gdl_imported_release.
 */
int gdl_import_view(PyObject *x, const gdl_request *req, int64_t *shape_buf, int64_t *strides_buf,
                    gdl_imported *out);

/*
 * gdl_imported_release lets go of an import: the deleter of its managed
 * tensor (a pending exception kept), or its lender's reference, which is
 * never the last (gdl_import_view's caller holds x).
 */
void gdl_imported_release(gdl_imported *im);

/*
 * gdl_copy is the one copy of godlpack (__dlpack__(copy=True), copy=True
 * imports, pickles of strided tensors): a new versioned managed tensor
 * holding a C-contiguous copy of s's CPU-accessible elements in C memory of
 * ours, flagged IS_COPIED, on device (1, 0). NULL with an exception
 * (MemoryError when the copy cannot be allocated).
 */
void *gdl_copy(gdl_source *s);

/* gdl_import_managed is gdl_import for callers that need only the managed tensor (Go's capsule.Import). */
int gdl_import_managed(PyObject *x, const gdl_request *req, void **managed, bool *versioned);

/*
 * Go's capsule.Take and Import: gdl_take and gdl_import_managed between
 * gdl_go_calls_python and gdl_go_called_python (cpython.h), in import.c.
 */
int gdl_go_take(PyObject *x, const gdl_request *req, gdl_taken *out);
int gdl_go_import_managed(PyObject *x, const gdl_request *req, void **managed, bool *versioned);

/*
 * gdl_validate checks a managed tensor the caller owns with gdl_inspect, the
 * consumer's rule, entering Go only to word a refusal. On success out
 * describes it (strides_buf, GDL_MAX_NDIM long, may hold its strides); on
 * failure the deleter has run and a BufferError names the fault: -1.
 */
int gdl_validate(void *managed, bool versioned, int64_t *strides_buf, gdl_inspected *out);

/*
 * gdl_source_fill describes a validated tensor v held by owner (whose
 * reference it takes; NULL for a tensor gdl_source_adopt then hands over) in
 * s, whose view's shape and strides are v's arrays until s is handed to
 * gdl_tensor_from_source (tensor.h), which copies them; flags are the
 * holder's (READ_ONLY, IS_COPIED, IS_SUBBYTE_TYPE_PADDED).
 */
void gdl_source_fill(gdl_source *s, gdl_owner *owner, const gdl_inspected *v, uint64_t flags);

/*
 * gdl_device_refused holds a tensor on device d to the device req asks for
 * (req->has_device, which callers test first: most requests ask none), the
 * rule of gdl_import and of from_dlpack's short cut for its own Tensors: 0,
 * or -1 with BufferError.
 */
int gdl_device_refused(const gdl_request *req, DLDevice d);

/* ---- Exporting types: __dlpack__, __dlpack_device__ and the C exchange API (exporter.c) ---- */

/*
 * gdl_exchange_table returns the table of major version 1 that a
 * "dlpack_exchange_api" capsule holds, following prev_api from a newer one,
 * or NULL (no exception) where it holds none that has
 * managed_tensor_from_py_object_no_sync. It runs no Python code.
 */
const DLPackExchangeAPI *gdl_exchange_table(PyObject *capsule);

/*
 * gdl_export_torch puts in *out a torch.Tensor over the memory of t, an
 * instance of an exporter type, made by torch's C exchange API
 * (managed_tensor_to_py_object_no_sync) from the managed tensor t exports:
 * 0 when it did, -1 with an exception, and 1 with nothing set where that
 * API cannot (torch or its table missing, device memory, a dtype torch might
 * refuse), for the caller to ask torch.from_dlpack, whose errors say why.
 */
int gdl_export_torch(PyObject *t, PyObject **out);

/*
 * gdl_register_exporter makes type, whose instances hold a gdl_source at
 * byte offset source_offset, an exporter: GDL_EXPORTER_METHODS then find
 * that source, and the C exchange API of DLPack 1.3 goes on the type
 * (__dlpack_c_exchange_api__), whose functions export its instances. wrap,
 * unless NULL, becomes what the table's managed_tensor_to_py_object_no_sync
 * calls: it makes an object owning a versioned managed tensor (gdl_tensor_adopt),
 * or deletes the tensor and returns NULL with an exception. Call it on a
 * type just made, before any instance exists. -1 with an exception.
 */
int gdl_register_exporter(PyTypeObject *type, Py_ssize_t source_offset, PyObject *(*wrap)(void *managed));

/* The methods of every exporter: gdl_export and gdl_export_device of the instance's source. */
PyObject *gdl_method_dlpack(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames);
PyObject *gdl_method_dlpack_device(PyObject *self, PyObject *unused);

/* GDL_EXPORTER_METHODS are the PyMethodDef entries of __dlpack__ and __dlpack_device__, for an exporter's tp_methods. */
#define GDL_EXPORTER_METHODS                                                                             \
	{"__dlpack__", (PyCFunction)(void (*)(void))gdl_method_dlpack, METH_FASTCALL | METH_KEYWORDS,        \
	 "__dlpack__($self, /, *, stream=None, max_version=None, dl_device=None, copy=None)\n--\n\n"         \
	 "Export the tensor as a DLPack capsule (versioned when max_version's major is >= 1)."},             \
	{"__dlpack_device__", (PyCFunction)gdl_method_dlpack_device, METH_NOARGS,                            \
	 "__dlpack_device__($self, /)\n--\n\nThe (device_type, device_id) of the data."}

#endif
