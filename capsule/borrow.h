/*
 * What borrow.c tells the files that take tensors: whether a type is NumPy's
 * ndarray, a comparison once it has been met, with the lookup behind it.
 */
#ifndef GODLPACK_BORROW_H
#define GODLPACK_BORROW_H

#include "capsule.h"

/*
 * gdl_is_ndarray reports whether tp is NumPy's ndarray (the exact, static
 * type; a subclass may answer the protocol otherwise): a comparison once
 * gdl_find_ndarray has met it.
 */
extern PyTypeObject *gdl_ndarray_type;
bool gdl_find_ndarray(PyTypeObject *tp);
static inline bool gdl_is_ndarray(PyTypeObject *tp) {
	return tp == gdl_ndarray_type || (gdl_ndarray_type == NULL && gdl_find_ndarray(tp));
}

#endif
