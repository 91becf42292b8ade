"""Regression tests for bugs found by reviewing the C half of the extension.

Each test names the mistake it guards against; without its fix each one
crashes the process or raises the wrong exception.
"""

from __future__ import annotations

import ctypes
from typing import Any, Sequence

import numpy as np
import pytest

import godlpack
import godlpack.ops

_vectorcall = ctypes.pythonapi.PyObject_Vectorcall
_vectorcall.restype = ctypes.py_object
_vectorcall.argtypes = [ctypes.py_object, ctypes.POINTER(ctypes.py_object), ctypes.c_size_t, ctypes.py_object]


def vectorcall(f: Any, args: Sequence[Any], kwnames: tuple[Any, ...], kwvalues: Sequence[Any]) -> Any:
    """Call f as C code may: with keyword names Python itself would refuse (non-str, repeated)."""
    values = [*args, *kwvalues]
    array = (ctypes.py_object * max(1, len(values)))(*values)
    return _vectorcall(f, array, len(args), kwnames)


# ---- shape parsing: an element's __index__ must not pull the list from under the parser ----


def test_shape_list_cleared_by_index() -> None:
    shape: list[Any] = []

    class Shrinks:
        def __index__(self) -> int:
            shape.clear()  # the parser read the list's length before; its items are gone now
            return 2

    shape.extend([Shrinks(), 3, 4])
    t = godlpack.empty(shape)
    assert t.shape == (2, 3, 4)


# ---- arange's n is one integer, not a shape ----


def test_arange_takes_numpy_integer_scalars_and_0d_arrays() -> None:
    assert godlpack.arange(np.int64(3)).tolist() == [0, 1, 2]
    assert godlpack.arange(np.array(4)).tolist() == [0, 1, 2, 3]


@pytest.mark.parametrize("n", [np.array([3, 4]), np.array([], dtype=np.int64)], ids=["2 elements", "empty"])
def test_arange_refuses_arrays(n: Any) -> None:
    with pytest.raises(TypeError):
        godlpack.arange(n)


# ---- keyword names from C callers: non-str names and repeated names are TypeError ----

NON_STR_NAMES = [1, b"dtype_\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff", (), None]


@pytest.mark.parametrize("name", NON_STR_NAMES, ids=repr)
def test_module_function_non_str_keyword(name: Any) -> None:
    with pytest.raises(TypeError, match="keywords must be strings"):
        vectorcall(godlpack.zeros, (3,), (name,), ("float32",))
    with pytest.raises(TypeError, match="keywords must be strings"):
        vectorcall(godlpack.from_dlpack, (godlpack.zeros(3),), (name,), (None,))


@pytest.mark.parametrize("name", NON_STR_NAMES, ids=repr)
def test_dlpack_non_str_keyword(name: Any) -> None:
    t = godlpack.zeros(3)
    with pytest.raises(TypeError, match="keywords must be strings"):
        vectorcall(t.__dlpack__, (), (name,), (True,))


def test_dlpack_repeated_keyword() -> None:
    t = godlpack.zeros(3)
    with pytest.raises(TypeError, match="multiple values for argument 'copy'"):
        vectorcall(t.__dlpack__, (), ("copy", "copy"), (True, None))
    with pytest.raises(TypeError, match="multiple values for argument 'max_version'"):
        vectorcall(t.__dlpack__, (), ("max_version", "max_version"), ((1, 0), None))
    assert vectorcall(t.__dlpack__, (), ("copy", "max_version"), (None, (1, 0))) is not None


# ---- an AttributeError raised inside __dlpack__ is the producer's, not "no __dlpack__" ----


class AttributeErrorInside:
    """A producer whose attribute lookups run Python code, and whose __dlpack__ fails inside."""

    def __getattribute__(self, name: str) -> Any:
        return object.__getattribute__(self, name)

    def __dlpack__(self, **kwargs: Any) -> Any:
        raise AttributeError("a bug inside the producer")


@pytest.mark.parametrize("consume", [godlpack.from_dlpack, godlpack.ops.sum], ids=["from_dlpack", "ops.sum"])
def test_attribute_error_inside_dlpack_propagates(consume: Any) -> None:
    with pytest.raises(AttributeError, match="a bug inside the producer"):
        consume(AttributeErrorInside())


def test_missing_dlpack_with_getattribute_is_type_error() -> None:
    class NoDLPack:
        def __getattribute__(self, name: str) -> Any:
            return object.__getattribute__(self, name)

    with pytest.raises(TypeError, match="__dlpack__"):
        godlpack.from_dlpack(NoDLPack())


# ---- messages cut to the error buffer's size stay valid UTF-8 ----


@pytest.mark.parametrize("prefix", ["", "x"], ids=["even", "odd"])
def test_long_non_ascii_message_is_not_a_unicode_error(prefix: str) -> None:
    name = prefix + "\u00e9" * 400
    with pytest.raises(TypeError, match="^data type") as info:
        godlpack.empty(3, dtype=name)
    assert info.type is TypeError
