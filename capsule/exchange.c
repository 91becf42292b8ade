/*
 * Another library's C exchange API of DLPack 1.3, used in place of
 * __dlpack__ to take or lend a tensor: for gdl_take (take.c) and gdl_borrow
 * (borrow.c). It calls only errors.c.
 */
#include <string.h>
#include "capsule.h"

/* gdl_exchange_table (capsule.h): the consumer's and gdl_export_torch's way to a table. */
const DLPackExchangeAPI *gdl_exchange_table(PyObject *capsule) {
	if (!PyCapsule_IsValid(capsule, GDL_EXCHANGE_API_NAME))
		return NULL;
	DLPackExchangeAPIHeader *h = PyCapsule_GetPointer(capsule, GDL_EXCHANGE_API_NAME);
	for (int hops = 0; h != NULL && h->version.major != GDL_MAJOR_VERSION && hops < 16; hops++)
		h = h->prev_api;
	const DLPackExchangeAPI *t = (const DLPackExchangeAPI *)h;
	if (t == NULL || t->header.version.major != GDL_MAJOR_VERSION || t->managed_tensor_from_py_object_no_sync == NULL)
		return NULL;
	return t;
}

/*
 * What the exchange-API consumer knows of a type: learnt once, and kept while
 * the type's version tag (which CPython changes with any change to the type
 * or its bases, and never gives two types) stays the same. An entry holds a
 * reference to everything it points at: the type, the capsule whose memory
 * the table may be, and the requires_grad attribute whose getter it may call.
 */
typedef struct {
	PyTypeObject *type;
	unsigned int tag;
	PyObject *capsule;              /* the type's own "dlpack_exchange_api" capsule, if it has a usable table */
	const DLPackExchangeAPI *table; /* in capsule, or NULL */
	PyObject *requires_grad;        /* the type's requires_grad attribute, or NULL */
	getter requires_grad_get;       /* its C getter, where CPython would call it for every instance of type */
	void *requires_grad_closure;
} type_facts;

/*
 * The facts of the type seen last (nearly every call asks the same type).
 * One per library, not per module: every way in (from_dlpack, the bound
 * functions of every module, capsule.Take and capsule.Import from Go) goes
 * through gdl_take with no module at hand, and this is its hot path.
 */
static type_facts seen;

/* facts_drop drops the references an entry holds, which may run Python code. */
static void facts_drop(const type_facts *f) {
	Py_XDECREF(f->type);
	Py_XDECREF(f->capsule);
	Py_XDECREF(f->requires_grad);
}

/*
 * direct_getter returns the C getter of attr, an attribute found on tp,
 * where CPython's own lookup of the attribute on any instance of tp would
 * call exactly that getter: attr is a getset descriptor (a data descriptor,
 * so no instance dict overrides it) of a base of tp, and tp looks attributes
 * up generically. NULL otherwise: then the attribute is asked for as Python
 * asks for it.
 */
static getter direct_getter(PyTypeObject *tp, PyObject *attr, void **closure) {
	if (attr == NULL || !Py_IS_TYPE(attr, &PyGetSetDescr_Type) || tp->tp_getattro != PyObject_GenericGetAttr)
		return NULL;
	PyGetSetDescrObject *d = (PyGetSetDescrObject *)attr;
	/* A descriptor borrowed from another type's dict gets objects its getter does not know how to read. */
	if (d->d_common.d_type == NULL || !PyType_IsSubtype(tp, d->d_common.d_type) || d->d_getset->get == NULL)
		return NULL;
	*closure = d->d_getset->closure;
	return d->d_getset->get;
}

/*
 * facts_of stores in *out what tp offers, with a reference of the caller's
 * to out->capsule (the other pointers are good while tp lives, which the
 * object asked about ensures). What it learns is remembered in seen,
 * completely, before the references of the facts it replaces are dropped:
 * that may run Python code (a capsule destructor) that imports again and
 * replaces seen once more. -1 with an exception.
 */
static int facts_of(PyTypeObject *tp, type_facts *out) {
	if (tp == seen.type && tp->tp_version_tag == seen.tag) {
		*out = seen;
		Py_XINCREF(out->capsule);
		return 0;
	}
	/*
	 * The table of tp's own dict only: a subclass inherits its base's table but
	 * may override __dlpack__ (PyTorch's subclasses do, and torch's table
	 * would export past them), so a subclass's answer is its __dlpack__'s.
	 * Neither lookup runs Python code: the keys are exact strs.
	 */
	PyObject *capsule = tp->tp_dict == NULL ? NULL : PyDict_GetItemWithError(tp->tp_dict, gdl_names.dlpack_c_exchange_api);
	if (capsule == NULL && PyErr_Occurred())
		return -1;
	type_facts f = {.type = tp};
	f.table = capsule == NULL ? NULL : gdl_exchange_table(capsule);
	f.capsule = f.table != NULL ? capsule : NULL;
	f.requires_grad = gdl_type_lookup_ref(tp, gdl_names.requires_grad); /* also gives tp a version tag */
	f.requires_grad_get = direct_getter(tp, f.requires_grad, &f.requires_grad_closure);
	f.tag = tp->tp_version_tag;
	Py_INCREF(f.type);
	Py_XINCREF(f.capsule);
	*out = f;
	Py_XINCREF(out->capsule);
	if (f.tag == 0) {
		/* A type without a tag is learnt at every call. tp's dict still holds what f does: nothing is freed. */
		facts_drop(&f);
		return 0;
	}
	type_facts old = seen;
	seen = f;
	facts_drop(&old);
	return 0;
}

/* requires_grad asks x, of the type f describes, whether it requires grad: 1, 0, or -1 with an exception. */
static int requires_grad(PyObject *x, const type_facts *f) {
	PyObject *r = f->requires_grad_get != NULL ? f->requires_grad_get(x, f->requires_grad_closure)
	                                          : PyObject_GetAttr(x, gdl_names.requires_grad);
	if (r == NULL)
		return -1;
	int yes = PyObject_IsTrue(r);
	Py_DECREF(r);
	return yes;
}

/*
 * table_failed ends a call of a table that failed, or that answered 0 with
 * an exception set (which CPython would turn into SystemError): an Exception
 * is dropped and __dlpack__ answers instead, in the producer's own words (1);
 * anything else (KeyboardInterrupt, SystemExit) reaches the caller (-1).
 */
static int table_failed(void) {
	if (PyErr_Occurred() && !PyErr_ExceptionMatches(PyExc_Exception))
		return -1;
	PyErr_Clear();
	return 1;
}

/*
 * lend asks a table for a borrowed view of x's tensor (dltensor_from_py_object_no_sync):
 * 0 with it in out, 1 when the table lent none (the answer is then
 * __dlpack__'s), -1 with an exception. The shape and strides are copied at
 * once: the producer's arrays may change as soon as Python code runs.
 */
static int lend(const DLPackExchangeAPI *table, PyObject *x, int64_t *shape_buf, int64_t *strides_buf,
                gdl_taken *out) {
	/* Read before the call, which may run Python code that drops the table (see exchange). */
	int (*lend_view)(void *, DLTensor *) = table->dltensor_from_py_object_no_sync;
	DLPackVersion version = table->header.version;
	/*
	 * The table writes the view where it stays, read field by field after: a
	 * copy of the whole struct would load 16 bytes over the table's smaller
	 * stores, a stall per load.
	 */
	DLTensor *t = &out->view.dl_tensor;
	if (lend_view(x, t) != 0 || PyErr_Occurred())
		return table_failed();
	/*
	 * What cannot be copied here is left to __dlpack__, whose tensor gdl_inspect
	 * then judges; so are sub-byte types, whose padding only flags could tell.
	 */
	int32_t ndim = t->ndim;
	if (ndim < 0 || ndim > GDL_MAX_NDIM || (ndim > 0 && (t->shape == NULL || t->strides == NULL)) ||
	    t->dtype.bits < 8)
		return 1;
	if (ndim > 0) {
		gdl_copy_dims(shape_buf, t->shape, ndim);
		gdl_copy_dims(strides_buf, t->strides, ndim);
		t->shape = shape_buf;
		t->strides = strides_buf;
	} else {
		t->shape = t->strides = NULL;
	}
	/*
	 * The table's version: its devices and type codes are those of that
	 * version. A view has no flags to say whether it may be written: it is
	 * read-only, as the parameters it serves are (writable ones are taken).
	 */
	out->view.version = version;
	out->view.manager_ctx = NULL;
	out->view.deleter = NULL;
	out->view.flags = GDL_FLAG_READ_ONLY;
	out->managed = NULL;
	out->versioned = true;
	out->lender = Py_NewRef(x);
	return 0;
}

/*
 * lend_checked is lend for a parameter the function only reads, as
 * exchange asks: a complex view of a type with autograd, which may be
 * conjugate, is left to __dlpack__ (1).
 */
static inline int lend_checked(const DLPackExchangeAPI *table, bool autograd, PyObject *x, int64_t *shape_buf,
                               int64_t *strides_buf, gdl_taken *out) {
	int rc = lend(table, x, shape_buf, strides_buf, out);
	if (rc == 0 && autograd && out->view.dl_tensor.dtype.code == kDLComplex) {
		Py_CLEAR(out->lender); /* x is the caller's too: dropping this reference frees nothing */
		rc = 1;
	}
	return rc;
}

/*
 * exchange is gdl_exchange_take, or gdl_exchange_borrow when shape_buf is
 * not NULL: the same tensors are served both ways.
 */
static int exchange(PyObject *x, const gdl_request *req, int64_t *shape_buf, int64_t *strides_buf, gdl_taken *out) {
	/* The table copies nothing and moves nothing: __dlpack__ serves those requests. */
	if (req->copy == 1 || req->has_device)
		return 1;
	PyTypeObject *tp = Py_TYPE(x);
	if (tp == seen.type && tp->tp_version_tag == seen.tag) {
		/* The common answer, for a type without a table (NumPy's), takes no reference. */
		if (seen.table == NULL)
			return 1;
		/*
		 * A view of the type seen last (every call of a kernel over PyTorch
		 * tensors) takes no reference either: lend reads all it needs of the
		 * table before the call, so Python code the call runs may replace seen
		 * and free the table.
		 */
		if (shape_buf != NULL && !req->writable && seen.table->dltensor_from_py_object_no_sync != NULL)
			return lend_checked(seen.table, seen.requires_grad != NULL, x, shape_buf, strides_buf, out);
	}
	type_facts f;
	if (facts_of(tp, &f) != 0)
		return -1;
	int rc = 1;
	if (f.table == NULL || (shape_buf != NULL && (req->writable || f.table->dltensor_from_py_object_no_sync == NULL)))
		goto done;
	/*
	 * PyTorch's table exports what its __dlpack__ refuses: a tensor that
	 * requires grad, and a conjugate view unconjugated (wrong values). An
	 * import takes the __dlpack__ path for those, whose answer is the
	 * producer's own. A lent view serves a parameter the function only
	 * reads, as torch's exchange API serves kernels: a tensor that requires
	 * grad (any input of an autograd.Function's forward) is read as it is,
	 * and only a complex view, which may be conjugate, goes to __dlpack__.
	 */
	bool autograd = f.requires_grad != NULL;
	if (autograd && shape_buf == NULL) {
		int grad = requires_grad(x, &f);
		if (grad != 0) {
			rc = grad < 0 ? -1 : 1;
			goto done;
		}
		/*
		 * Asking may have run Python code (a property, a __bool__) that changed
		 * the type, deleting its table, say: what was learnt holds only while
		 * the tag does. The table itself stays alive: this call holds its capsule.
		 */
		if (Py_TYPE(x) != tp || tp->tp_version_tag != f.tag) /* x's class may have been assigned, too */
			goto done;
	}
	if (shape_buf != NULL) {
		rc = lend_checked(f.table, autograd, x, shape_buf, strides_buf, out);
		goto done;
	}
	DLManagedTensorVersioned *m = NULL;
	int failed = f.table->managed_tensor_from_py_object_no_sync(x, &m);
	if (failed == 0 && m != NULL && PyErr_Occurred()) {
		/* A tensor with an exception beside it: the tensor is deleted, and the answer is __dlpack__'s. */
		gdl_saved_error e;
		gdl_error_save(&e);
		gdl_delete_keeping_error(m, true);
		gdl_error_restore(&e);
		m = NULL;
	}
	if (failed != 0 || m == NULL) {
		/* What the table cannot export, __dlpack__ answers (or refuses) in the producer's own words. */
		rc = table_failed();
		goto done;
	}
	if (autograd && m->dl_tensor.dtype.code == kDLComplex) {
		gdl_delete_keeping_error(m, true);
		goto done;
	}
	out->managed = m;
	out->versioned = true;
	rc = 0;
done:
	/* The last act: dropping the capsule may run Python code (its destructor). */
	if (rc < 0)
		gdl_drop_keeping_error(f.capsule);
	else
		Py_XDECREF(f.capsule);
	return rc;
}

int gdl_exchange_take(PyObject *x, const gdl_request *req, gdl_taken *out) {
	return exchange(x, req, NULL, NULL, out);
}

int gdl_exchange_borrow(PyObject *x, const gdl_request *req, int64_t *shape_buf, int64_t *strides_buf,
                        gdl_taken *out) {
	return exchange(x, req, shape_buf, strides_buf, out);
}
