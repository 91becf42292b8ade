"""Tests of package pymodule through bindtest, an extension of bound Go functions, run in a process of its own.

The extension carries its own Go runtime, so this file never imports godlpack: tests/extensions/test_binder.py
builds bindtest and runs this file in a subprocess (or `make binder-test`).
"""

from __future__ import annotations

import gc
import inspect
import math
import os
import pickle
import pydoc
import re
import subprocess
import sys
import threading
import time
import types
from pathlib import Path
from typing import Any, Callable

import numpy as np
import pytest
import torch

import bindtest as b
import dlpack_ctypes  # tests/support
from forking import NO_EXIT, fork_during
from numpy_views import Forwarding, arrays, counting_subclass, refused  # tests/support


def test_functions_are_builtins_of_their_module() -> None:
    assert "godlpack" not in sys.modules
    f = b.ints
    assert f.__module__ == "bindtest" and f.__qualname__ == "ints" and f.__name__ == "ints"
    assert f.__self__ is b
    assert repr(f) == "<built-in function ints>"
    assert pickle.loads(pickle.dumps(f)) is f
    assert f.__doc__ == "The sum of ints of every width, as a float."
    # A built-in function to isinstance, inspect and pydoc (type() names the binder's own type).
    assert isinstance(f, types.BuiltinFunctionType) and inspect.isbuiltin(f) and f.__class__ is type(len)
    assert type(f) is not type(len)


@pytest.mark.parametrize("f, head, signature", [
    (b.ints, "built-in function ints in module bindtest",
     "ints(a: 'int', b: 'int', c: 'int', d: 'int', e: 'int', f: 'int', g: 'int', h: 'int', /) -> 'float'\n"
     "    The sum of ints of every width, as a float."),
    (b.Counter.add, "built-in function add in module bindtest",
     "add(self, x: 'tensor[float64]', /) -> 'float'\n    Add x's elements; the total."),
    (b.Counter("c").add, "method add in module bindtest", "add(x: 'tensor[float64]', /) -> 'float' method of"),
])
def test_pydoc_shows_the_signature_then_the_docstring(f: Any, head: str, signature: str) -> None:
    text = pydoc.plain(pydoc.render_doc(f))
    assert text.startswith(f"Python Library Documentation: {head}\n\n"), text
    # pydoc lays a signature out as the Python running it does: 3.13 puts each parameter on a line of its own
    # where they are many, and 3.14 drops the quotes of string annotations. The words are the same.
    assert pydoc_words(text).startswith(pydoc_words(f"Python Library Documentation: {head}\n\n{signature}")), text


def pydoc_words(text: str) -> str:
    """text without its whitespace and quotes, the parts of pydoc's layout that differ across Pythons."""
    return re.sub(r"[\s']", "", text)


@pytest.mark.parametrize("name, want, text", [
    ("ints", "(a: 'int', b: 'int', c: 'int', d: 'int', e: 'int', f: 'int', g: 'int', h: 'int', /) -> 'float'",
     "a, b, c, d, e, f, g, h, /"),
    ("floats", "(x: 'float', y: 'float' = 0.5, *, z: 'float' = -inf) -> 'tuple[float, float, float]'",
     "x, y=0.5, *, z=-1e999"),
    ("text", "(s: 'str', b: 'bytes' = b'', /, *, sep: 'str' = '-') -> 'tuple[str, bytes]'", "s, b=b'', /, *, sep='-'"),
    ("maybe", "(x: 'int | None' = None) -> 'int'", "x=None"),
    ("none", "() -> None", ""),
    ("matrix", "(x: 'tensor[float32|float64, (*, *)]', /) -> 'int'", "x, /"),
    ("cplx", "(z: 'complex', w: 'complex' = 1j) -> 'tuple[complex, complex]'", "z, w=1j"),
    ("opt_tensor", "(x: 'tensor[float64] | None' = None) -> 'int'", "x=None"),
])
def test_signatures(name: str, want: str, text: str) -> None:
    # inspect.signature reads __signature__, whose annotations are strings (as under `from __future__ import
    # annotations`), a tensor's as its parameter declares it; __text_signature__, CPython's, has none.
    f = getattr(b, name)
    assert str(inspect.signature(f)) == want
    assert f.__text_signature__ == f"($module{', ' if text else ''}{text})"
    assert f.__signature__ is f.__signature__  # made once


def test_a_declared_result_is_held_to_its_annotation() -> None:
    # "-> tensor[float32|int32, (*, 3)]": what the function returns is checked, and the stub and signature say it.
    assert b.declared("float32", 2, 3).tolist() == [[0, 1, 2], [3, 4, 5]]
    assert b.declared("int32", 0, 3).dtype == np.int32
    live = b.live_owners()
    with pytest.raises(TypeError, match=r"^declared\(\): returned a 2-D float64 tensor, where its annotation says a "
                                        r"float32 or int32 tensor of shape \(\*, 3\)$"):
        b.declared("float64", 2, 3)
    with pytest.raises(TypeError, match=r"^declared\(\): returned a 0-D float32 tensor"):
        b.declared("float32", -1, 0)
    with pytest.raises(ValueError, match=r"^declared\(\): returned a tensor of shape \(2, 4\), where its annotation"):
        b.declared("int32", 2, 4)
    assert b.live_owners() == live  # the Arrays refused were released
    assert b.declared_slice(3)[0].tolist() == [0, 0, 0]
    with pytest.raises(ValueError, match=r"^declared_slice\(\): returned a tensor of shape \(4,\), where its "
                                         r"annotation says an int64 tensor of shape \(3,\)$"):
        b.declared_slice(4)
    assert b.live_owners() == live
    assert str(inspect.signature(b.declared)) == (
        "(dtype: 'str', rows: 'int', cols: 'int', /) -> 'numpy.ndarray[float32|int32, (*, 3)]'")
    stub = (Path(b.__file__).parent / "bindtest.pyi").read_text()  # written beside the module with it
    assert ("def declared(dtype: str, rows: int | SupportsIndex, cols: int | SupportsIndex, /) -> "
            "numpy.ndarray[tuple[int, int], numpy.dtype[numpy.float32 | numpy.int32]]:") in stub
    assert "def declared_slice(n: int | SupportsIndex, /) -> tuple[Tensor, int]:" in stub
    assert '    """declared_slice(n: int, /) -> tuple[Tensor[int64, (3)], int]\n' in stub


def test_ints_of_every_width() -> None:
    assert b.ints(1, 2, 3, 4, 5, 6, 7, 8) == 36.0
    assert b.ints(-128, -2**15, -2**31, -2**63, 0, 0, 0, 0) == pytest.approx(-128 - 2**15 - 2**31 - 2**63, rel=1e-15)
    assert b.ints(127, 2**15 - 1, 2**31 - 1, 2**63 - 1, 255, 2**16 - 1, 2**32 - 1, 2**64 - 1) == pytest.approx(
        127 + 2**15 - 1 + 2**31 - 1 + 2**63 - 1 + 255 + 2**16 - 1 + 2**32 - 1 + 2**64 - 1, rel=1e-15)
    assert b.ints(np.int8(1), np.uint64(2), True, 0, 0, 0, 0, 0) == 4.0  # __index__, and bool is an int
    assert b.echo_uint64(2**64 - 1) == 2**64 - 1 and b.echo_int(-2**63) == -2**63


@pytest.mark.parametrize("x", [0, 1, -1, 2**15, 2**30 - 1, 2**30, 2**30 + 1, -(2**30 - 1), -2**30, -2**30 - 1, 2**31,
                               -2**31, 2**60, -2**60])
def test_ints_around_one_digit(x: int) -> None:
    # An int of one 30-bit digit is read in place (gdl_long_compact), any other in full: both give the same value.
    assert b.echo_int(x) == x
    if x >= 0:
        assert b.echo_uint64(x) == x
    else:
        with pytest.raises(OverflowError, match="does not fit in uint64"):
            b.echo_uint64(x)
    if -128 <= x <= 127:
        assert b.echo_int8(x) == x
    else:
        with pytest.raises(OverflowError, match="does not fit in int8"):
            b.echo_int8(x)


@pytest.mark.parametrize("args, where", [
    ((128, 0, 0, 0, 0, 0, 0, 0), "'a' does not fit in int8: 128"),
    ((0, 2**15, 0, 0, 0, 0, 0, 0), "'b' does not fit in int16"),
    ((0, 0, -2**31 - 1, 0, 0, 0, 0, 0), "'c' does not fit in int32"),
    ((0, 0, 0, 2**63, 0, 0, 0, 0), "'d' does not fit in int64"),
    ((0, 0, 0, 0, -1, 0, 0, 0), "'e' does not fit in uint8"),
    ((0, 0, 0, 0, 0, 2**16, 0, 0), "'f' does not fit in uint16"),
    ((0, 0, 0, 0, 0, 0, 2**32, 0), "'g' does not fit in uint32"),
    ((0, 0, 0, 0, 0, 0, 0, 2**64), "'h' does not fit in uint64"),
    ((0, 0, 0, 0, 0, 0, 0, -1), "'h' does not fit in uint64"),
])
def test_int_overflow(args: tuple[int, ...], where: str) -> None:
    with pytest.raises(OverflowError, match=f"^ints\\(\\): argument {where}"):
        b.ints(*args)


@pytest.mark.parametrize("bad", [1.0, "1", None, 1j, np.float64(1.0)])
def test_int_type_errors(bad: Any) -> None:
    with pytest.raises(TypeError, match="^echo_int8\\(\\): argument 'x' must be an int, not "):
        b.echo_int8(bad)


def test_floats_accept_ints_as_numpy_does() -> None:
    assert b.floats(1) == (1.0, 0.5, -math.inf)
    assert b.floats(2, 3, z=4) == (2.0, 3.0, 4.0)
    assert b.floats(np.float32(1.5), y=np.int64(2)) == (1.5, 2.0, -math.inf)
    assert b.floats(True)[0] == 1.0
    assert b.floats(0.1, 0.1)[1] == float(np.float32(0.1))  # rounded to float32
    assert b.floats(0.0, 1e300)[1] == math.inf  # float32 overflows to inf, as NumPy's cast
    with pytest.raises(OverflowError):
        b.floats(10**400)
    for bad in ("1", 1j, None, [1.0]):
        with pytest.raises(TypeError, match="^floats\\(\\): argument 'x' must be a float, not "):
            b.floats(bad)


def test_complex_bool_strings_bytes() -> None:
    assert b.cplx(1 + 1j) == (2 + 2j, 1j)
    assert b.cplx(2, 0.5) == (4 + 0j, 0.5 + 0j)
    assert b.flag() is True and b.flag(True) is False and b.flag(np.bool_(True)) is False
    with pytest.raises(TypeError, match="^flag\\(\\): argument 'b' must be a bool, not int"):
        b.flag(1)
    assert b.text("é") == ("é-", "é-".encode())
    assert b.text("a", b"x", sep="+") == ("a+x", b"a+x")
    with pytest.raises(TypeError, match="argument 'b' must be bytes, not str"):
        b.text("a", "x")
    with pytest.raises(TypeError, match="argument 's' must be a str, not bytes"):
        b.text(b"a")


def test_number_results_choose_their_python_type() -> None:
    # A scalar.Scalar result is the Python number its kind says, as a sum is an int or a float by dtype.
    got = {k: b.number(k) for k in ["bool", "int", "uint", "float", "complex", "bigint"]}
    assert got == {"bool": True, "int": -2**63, "uint": 2**64 - 1, "float": 0.5, "complex": 1.5 - 2j, "bigint": 2**70}
    assert [type(v) for v in got.values()] == [bool, int, int, float, complex, int]
    seen: list[Any] = []
    b.numbers(lambda x, y: seen.extend([x, y]))  # a callback's parameters too
    assert seen == [2**63, 1 - 2j]
    with pytest.raises(ValueError, match="^number\\(\\): no kind \"x\"$"):
        b.number("x")


@pytest.mark.parametrize("x, want", [
    (True, True), (-3, -3), (2**64 - 1, 2**64 - 1), (2**70, 2**70), (0.5, 0.5), (1 - 2j, 1 - 2j),
    (np.True_, True), (np.int8(-3), -3), (np.uint64(2**64 - 1), 2**64 - 1), (np.float32(0.25), 0.25),
    (np.complex64(1j), 1j), (np.array(2.5), 2.5),
])
def test_number_parameters_read_any_number(x: Any, want: Any) -> None:
    # A scalar.Scalar parameter reads a number as godlpack.full reads its fill value; its kind comes back.
    got = b.same_number(x)
    assert got == want and type(got) is type(want)
    assert b.same_number() == 0.5
    assert str(inspect.signature(b.same_number)) == "(x: 'int | float | complex' = 0.5, /) -> 'int | float | complex'"


@pytest.mark.parametrize("x", ["1", None, np.ones(2), [1]])
def test_number_parameters_refuse_what_is_no_number(x: Any) -> None:
    with pytest.raises(TypeError, match=r"^same_number\(\): argument 'x' must be a number, not "):
        b.same_number(x)


@pytest.mark.parametrize("how", ["released", "twice"])
def test_a_spent_array_is_refused(how: str) -> None:
    # An Array's copies share one reference: once one is returned or released, the others are refused as results.
    with pytest.raises(RuntimeError, match=r"^spent_array\(\): an Array was released, or returned already: an "
                       r"Array is returned once$"):
        b.spent_array(how)


def test_optional_and_object() -> None:
    assert b.maybe() == -1 and b.maybe(None) == -1 and b.maybe(4) == 8 and b.maybe(x=5) == 10
    o = object()
    assert b.identity(o) is o
    assert b.none() is None


@pytest.mark.parametrize("call, message", [
    (lambda: b.floats(), "floats() missing required argument 'x'"),
    (lambda: b.floats(1, 2, 3), "floats() takes at most 2 positional arguments (3 given)"),
    (lambda: b.floats(1, w=2), "floats() got an unexpected keyword argument 'w'"),
    (lambda: b.floats(1, x=2), "floats() got multiple values for argument 'x'"),
    (lambda: b.text(s="a"), "text() got an unexpected keyword argument 's'"),
    (lambda: b.none(1), "none() takes no positional arguments (1 given)"),
])
def test_argument_mistakes(call: Callable[[], Any], message: str) -> None:
    with pytest.raises(TypeError) as e:
        call()
    assert str(e.value) == message


def test_errors_and_panics() -> None:
    with pytest.raises(ValueError, match="^fail\\(\\): a bad value$"):
        b.fail("value")
    with pytest.raises(OverflowError, match="^fail\\(\\): too big$"):
        b.fail("overflow")
    with pytest.raises(RuntimeError, match="^fail\\(\\): wrapped: plain$"):  # no Go package names
        b.fail("wrapped")
    with pytest.raises(RuntimeError, match="^fail\\(\\): names the function already$"):  # named once
        b.fail("named")
    assert b.fail("none") is None
    with pytest.raises(RuntimeError, match="^panics\\(\\): internal error: deliberately$"):
        b.panics()
    assert b.ints(1, 1, 1, 1, 1, 1, 1, 1) == 8.0  # the module still works


def as_torch(a: np.ndarray) -> torch.Tensor:
    return torch.from_numpy(a)


@pytest.mark.parametrize("make", [np.asarray, as_torch])
def test_tensors_any_producer_any_strides(make: Callable[[np.ndarray], Any]) -> None:
    x = np.arange(24, dtype=np.float64).reshape(4, 6)
    assert b.shape(make(x)) == (2, 24)
    assert b.shape(make(x[::2, ::3])) == (2, 4)
    assert b.shape(x[::2, ::-3]) == (2, 4)
    assert b.matrix(make(x.astype(np.float32))) == 4
    assert b.shape(make(np.array(3.0))) == (0, 1)
    y = np.zeros((3, 4))
    b.fill(make(y[:, ::2]), 7.0)
    assert (y[:, ::2] == 7).all() and (y[:, 1::2] == 0).all()


@pytest.mark.parametrize("call, exc, message", [
    (lambda: b.matrix(np.zeros((2, 3, 4), np.int64)), TypeError,
     "matrix(): argument 'x' must be a 2-D float32 or float64 tensor, got a 3-D int64 one"),
    (lambda: b.matrix(np.zeros(3, np.float32)), TypeError,
     "matrix(): argument 'x' must be a 2-D float32 or float64 tensor, got a 1-D float32 one"),
    (lambda: b.triple(np.zeros((2, 4), np.int32)), ValueError,
     "triple(): argument 'x' must be a C-contiguous int32 tensor of shape (*, 3), got shape (2, 4)"),
    (lambda: b.triple(np.zeros((3, 2), np.int32).T.copy().T[:, :3] if False else np.zeros((6, 3), np.int32)[::2]),
     ValueError, "triple(): argument 'x' must be a C-contiguous int32 tensor of shape (*, 3), got a non-contiguous one"),
    (lambda: b.fortran(np.zeros((2, 3))), ValueError, "fortran(): argument 'x' must be a Fortran-contiguous tensor"),
    (lambda: b.fill(np.broadcast_to(np.zeros(1), (3,))), BufferError,
     "fill(): argument 'x': writes in place, and the tensor is read-only"),
    (lambda: b.fill(torch.zeros(1, dtype=torch.float64).expand(3)), ValueError,
     "fill(): argument 'x' is written in place, and its elements share memory"),
    (lambda: b.matrix([[1.0]]), TypeError, "matrix(): argument 'x' must be a tensor (an object with __dlpack__), not list"),
    (lambda: b.opt_tensor(np.zeros(2, np.float32)), TypeError, "opt_tensor(): argument 'x' must be a float64 tensor"),
])
def test_tensor_refusals(call: Callable[[], Any], exc: type[Exception], message: str) -> None:
    with pytest.raises(exc) as e:
        call()
    assert str(e.value).startswith(message), str(e.value)


@pytest.mark.parametrize("x", [
    np.arange(12.0).reshape(3, 4),
    np.arange(24.0).reshape(2, 3, 4),
    np.arange(24.0).reshape(2, 3, 4)[:, ::-1, ::2],
    np.arange(24.0).reshape(4, 6).T,
    np.arange(24.0).reshape(2, 1, 12)[:, :, ::3],
    np.arange(24.0).reshape(4, 6)[:, ::-2],
    np.zeros((3, 0)),
    np.arange(5.0),
], ids=lambda x: f"{x.shape}-{x.strides}")
def test_index_layout(x: np.ndarray) -> None:
    """Tensor.Index describes a row as the layout rule describes any tensor: NumPy's view of the same row."""
    for i in range(x.shape[0]):
        r = x[i]
        steps = [(n - 1) * s for n, s in zip(r.shape, r.strides)]
        low, high = (sum(min(0, d) for d in steps), sum(max(0, d) for d in steps) + r.itemsize) if r.size else (0, 0)
        want = (f"[{' '.join(map(str, r.shape))}] {r.size} {low} {high} {r.nbytes} "
                f"{str(r.flags.c_contiguous).lower()} {str(r.flags.f_contiguous).lower()}")
        assert b.row_layout(x, i) == want


IS_SUBBYTE_TYPE_PADDED = 1 << 2


@pytest.mark.parametrize("dtype", [(17, 4, 1), (15, 6, 1), (16, 6, 1)], ids=["float4", "float6_e2m3", "float6_e3m2"])
@pytest.mark.parametrize("cols", [1, 2, 3, 4, 5])
@pytest.mark.parametrize("padded", [False, True], ids=["packed", "padded"])
def test_index_of_sub_byte_rows(dtype: tuple[int, int, int], cols: int, padded: bool) -> None:
    """A packed row that starts inside a byte is refused, never described at the wrong byte; the others and every
    padded row are addressed where they start."""
    rows, bits = 3, dtype[1]
    h = dlpack_ctypes.HandMade(shape=(rows, cols), strides=(cols, 1), dtype=dtype, nbytes=rows * cols,
                               flags=IS_SUBBYTE_TYPE_PADDED if padded else 0)
    for i in range(rows):
        bit = i * cols * (8 if padded else bits)
        if bit % 8 == 0:
            assert b.row_offset(h.capsule(), i) == (bit // 8, cols)
        else:
            with pytest.raises(RuntimeError, match=f"row {i} of a packed float[46]_e[0-9]m[0-9]fn tensor of shape "
                                                   f"\\[{rows} {cols}\\] starts at bit {bit}, inside a byte"):
                b.row_offset(h.capsule(), i)
    assert h.deleted == rows


class RaisingProducer:
    def __dlpack__(self, **kwargs: Any) -> Any:
        raise KeyError("raised by __dlpack__")


@pytest.mark.parametrize("call", [b.take, b.import_], ids=["capsule.Take", "capsule.Import"])
def test_a_producers_exception_reaches_the_caller(call: Callable[[Any], int]) -> None:
    # A Go function returns cpython.PythonError for the exception a producer raised: the caller sees that exception,
    # its type, message and traceback, not a RuntimeError of the binder's.
    with pytest.raises(KeyError, match="raised by __dlpack__") as info:
        call(RaisingProducer())
    assert info.traceback[-1].name == "__dlpack__"
    with pytest.raises(TypeError, match="needs an object with __dlpack__"):
        call(object())
    assert call(np.zeros((2, 3))) == 2


def test_python_errors_of_go_functions() -> None:
    with pytest.raises(ValueError, match="^set by Go$"):
        b.python_error("value")
    # No exception set after all: the error's own words, as a RuntimeError.
    with pytest.raises(RuntimeError, match="^python_error\\(\\): .*raising unset failed$"):
        b.python_error("unset")


@pytest.mark.parametrize("value, shown", [
    (10**5000, "an int of 16610 bits"),
    (-10**5000, "a negative int of 16610 bits"),
    (2**128 - 1, str(2**128 - 1)),
    (2**128, "an int of 129 bits"),
], ids=["10**5000", "-10**5000", "2**128-1", "2**128"])
def test_int_overflow_of_any_size(value: int, shown: str) -> None:
    # The value is shown in bounded words: its repr could pass the limit of int digits and raise ValueError.
    with pytest.raises(OverflowError, match=f"^echo_int8\\(\\): argument 'x' does not fit in int8: {shown}$"):
        b.echo_int8(value)


def test_int_overflow_asks_no_repr() -> None:
    class Loud(int):
        def __repr__(self) -> str:
            raise KeyError("repr")

    with pytest.raises(OverflowError, match="^echo_int8\\(\\): argument 'x' does not fit in int8: 1000$"):
        b.echo_int8(Loud(1000))


def test_integer_defaults() -> None:
    """Defaults are parsed once, for every width, signed and unsigned, to the ends of their ranges."""
    ends = "-128 -32768 2147483647 -9223372036854775808 255 65535 4294967295 18446744073709551615"
    assert b.int_defaults() == ends
    assert b.int_defaults(-1, 2, 3, 4, 5, 6, 7, 8) == "-1 2 3 4 5 6 7 8"


def test_fortran_and_optional_tensors() -> None:
    b.fortran(np.asfortranarray(np.zeros((2, 3))))
    assert b.opt_tensor() == -1 and b.opt_tensor(None) == -1 and b.opt_tensor(np.ones((2, 2))) == 4


def test_legacy_producer_is_not_writable() -> None:
    class Legacy:
        def __init__(self, a: np.ndarray) -> None:
            self.a = a

        def __dlpack__(self, **kwargs: Any) -> Any:
            if "max_version" in kwargs:
                raise TypeError("no max_version")
            return self.a.__dlpack__()

        def __dlpack_device__(self) -> tuple[int, int]:
            return (1, 0)

    with pytest.raises(BufferError, match="legacy"):
        b.fill(Legacy(np.zeros(2)))


NUMPY_RESULT_DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float32",
                       "float64", "complex64", "complex128"]


def counting_array(dtype: str, shape: tuple[int, ...]) -> np.ndarray[Any, Any]:
    n = np.arange(math.prod(shape)).reshape(shape)
    return (n % 2 == 1) if dtype == "bool" else n.astype(dtype)


@pytest.mark.parametrize("dtype", NUMPY_RESULT_DTYPES)
@pytest.mark.parametrize("shape", [(2, 3), (0, 3), ()])
def test_numpy_results_are_numpy_arrays_of_the_dtype(dtype: str, shape: tuple[int, ...]) -> None:
    # Made by NumPy's C API over the result's memory, the module's Tensor their base: NumPy's own scalar type of the
    # dtype (int64 is numpy.int64, as numpy.from_dlpack makes it, not the longlong the buffer format 'q' names).
    a = b.typed_np(dtype, *(shape or (-1, 0)))
    assert type(a) is np.ndarray and a.shape == shape and a.dtype == np.dtype(dtype)
    assert a.dtype.type is np.dtype(dtype).type
    np.testing.assert_array_equal(a, counting_array(dtype, shape))
    assert a.flags.writeable and a.flags.c_contiguous and a.flags.aligned and not a.flags.owndata
    assert type(a.base) is b.Tensor and np.from_dlpack(a.base).ctypes.data == a.ctypes.data
    assert a.base.shape == shape and a.base.dtype == dtype


def test_numpy_results_keep_their_memory() -> None:
    # The array holds the Tensor, which holds the block: a block given back early would be the next result's.
    gc.collect()
    live = b.live_owners()
    a = b.typed_np("float64", 2, 3)
    a[0, 0] = -1.0
    gc.collect()
    others = [b.typed_np("float64", 2, 3) for _ in range(20)]
    for o in others:
        o[...] = 7.0
    assert a.tolist() == [[-1.0, 1.0, 2.0], [3.0, 4.0, 5.0]]
    base = a.base
    assert b.live_owners() == live + 21
    held = sys.getrefcount(base)
    del a, o, others
    gc.collect()
    # The array held one reference to its base (counted apart: 3.14 counts a borrowed argument as none).
    assert held - sys.getrefcount(base) == 1 and base.tolist() == [[-1.0, 1.0, 2.0], [3.0, 4.0, 5.0]]
    assert b.live_owners() == live + 1
    del base
    assert b.live_owners() == live


@pytest.mark.parametrize("dtype", NUMPY_RESULT_DTYPES)
@pytest.mark.parametrize("shape", [(2, 3), (0, 3), ()])
def test_torch_results_are_torch_tensors_of_the_dtype(dtype: str, shape: tuple[int, ...]) -> None:
    # Made by torch's C exchange API from the result's managed tensor (torch.from_dlpack's, for the dtypes torch
    # may refuse: uint16, uint32, uint64).
    t = b.typed_torch(dtype, *(shape or (-1, 0)))
    assert type(t) is torch.Tensor and tuple(t.shape) == shape and t.dtype == getattr(torch, dtype)
    assert t.tolist() == counting_array(dtype, shape).tolist()
    assert t.is_contiguous() and not t.requires_grad and t.device.type == "cpu"


def python_calls_during(f: Callable[[], object]) -> list[str]:
    names: list[str] = []
    sys.setprofile(lambda frame, event, arg: names.append(frame.f_code.co_name) if event == "call" else None)
    try:
        f()
    finally:
        sys.setprofile(None)
    return names


def test_torch_results_skip_torch_from_dlpack() -> None:
    # torch's exchange API makes the tensor in C; only the dtypes it may refuse go through torch.from_dlpack.
    assert "from_dlpack" not in python_calls_during(lambda: b.typed_torch("float32", 2, 3))
    assert "from_dlpack" in python_calls_during(lambda: b.typed_torch("uint16", 2, 3))


def test_torch_results_keep_their_memory_and_release_it_once() -> None:
    gc.collect()
    live = b.live_owners()
    t = b.typed_torch("float64", 2, 3)
    t[0, 0] = -1.0
    others = [b.typed_torch("float64", 2, 3) for _ in range(20)]
    for o in others:
        o.fill_(7.0)
    assert t.tolist() == [[-1.0, 1.0, 2.0], [3.0, 4.0, 5.0]]
    assert b.live_owners() == live + 21
    view = t[1]
    del t, o, others
    gc.collect()
    assert b.live_owners() == live + 1 and view.tolist() == [3.0, 4.0, 5.0]
    del view
    assert b.live_owners() == live


def test_tensor_results_zero_copy() -> None:
    t = b.arange(5)
    a = np.from_dlpack(t)
    assert a.tolist() == [0, 1, 2, 3, 4] and a.dtype == np.float32
    assert np.from_dlpack(t).ctypes.data == a.ctypes.data
    s = b.slice(4)
    assert np.from_dlpack(s).tolist() == [0, 10, 20, 30] and np.from_dlpack(s).dtype == np.int64
    n = b.arange_np(3)
    assert isinstance(n, np.ndarray) and n.tolist() == [0, 1, 2]
    p = b.arange_torch(3)
    assert isinstance(p, torch.Tensor) and p.tolist() == [0, 1, 2]
    x, y = b.two_arrays(2)
    assert np.from_dlpack(x).shape == (2,) and np.from_dlpack(y).tolist() == [1, 2, 3]
    assert np.from_dlpack(b.arange(0)).shape == (0,)
    # C memory (arange) and a Go slice (slice) alike come out as the module's own Tensor.
    assert type(t) is type(s) is b.Tensor and b.Tensor.__module__ == "bindtest" and b.Tensor.__name__ == "Tensor"
    assert t.tolist() == [0.0, 1.0, 2.0, 3.0, 4.0] and s.dtype == "int64" and s.shape == (4,)
    assert memoryview(s).tolist() == [0, 10, 20, 30] and np.asarray(t).ctypes.data == a.ctypes.data
    assert type(x) is b.Tensor and isinstance(x.device, b.Device) and isinstance(x.dtype, b.DType)


def test_tensor_result_memory_error() -> None:
    with pytest.raises(MemoryError):
        b.arange(2**60)
    with pytest.raises(ValueError, match="cannot make a tensor of shape"):
        b.arange(-1)


def test_gil_released_when_asked() -> None:
    ticks = []
    stop = threading.Event()

    def ticker() -> None:
        while not stop.is_set():
            ticks.append(time.perf_counter())
            time.sleep(0.005)

    def count_during(f: Callable[[float], None]) -> int:
        ticks.clear()
        stop.clear()
        t = threading.Thread(target=ticker)
        t.start()
        time.sleep(0.02)
        start = time.perf_counter()
        f(0.3)
        end = time.perf_counter()
        stop.set()
        t.join()
        return sum(start < x < end for x in ticks)

    assert count_during(b.sleep) >= 10  # the other thread ran meanwhile
    assert count_during(b.sleep_gil) <= 2


def test_threads_with_tensors() -> None:
    x = np.ones(1000)

    def work() -> None:
        for _ in range(2000):
            assert b.shape(x) == (1, 1000)
            b.nop1(x, 1.0)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()


@pytest.mark.skipif(os.environ.get("GODLPACK_ASAN") == "1",
                    reason="Go built with -asan allocates where a plain build does not (even nop1 does)")
def test_no_go_allocation_per_call() -> None:
    """GODEBUG=gctrace=1 prints a line per garbage collection: calls that allocate nothing make none."""
    code = ("import bindtest as b, numpy as np, torch\n"
            "x = np.ones(4, np.float32); t = torch.ones(4); c = b.Counter('c')\n"
            "for _ in range(100000):\n"
            "    b.nop1(x, 1.5); b.nop1(t, 2.0); b.nop8(x, x, x, x, t, t, t, t, x=1.0)\n"
            "    b.ints(1, 2, 3, 4, 5, 6, 7, 8); b.floats(1.0); b.maybe(3); b.matrix(x.reshape(2, 2))\n"
            "    b.conv_sum(np.ones(3)); b.arange(3); b.arange_np(5)\n"
            "for _ in range(1000000):\n"  # 16 bytes a call would pass the 4 MiB at which Go first collects
            "    c.total\n")
    env = dict(os.environ, GODEBUG="gctrace=1")
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert "gc " not in done.stderr, done.stderr[-2000:]


def test_fork_guard() -> None:
    code = ("import os, bindtest as b\n"
            "b.getpid()\n"
            "pid = os.fork()\n"
            "if pid == 0:\n"
            "    try:\n"
            "        b.getpid()\n"
            "    except RuntimeError as e:\n"
            "        os._exit(0 if 'forked' in str(e) else 2)\n"
            "    os._exit(1)\n"
            "_, status = os.waitpid(pid, 0)\n"
            "print(os.waitstatus_to_exitcode(status))\n")
    done = subprocess.run([sys.executable, "-W", "ignore", "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "0"


@pytest.mark.parametrize("call, setup, parent", [
    ("len(b.slice(Forks()))", "", "parent 100000 0"),  # the conversion of n runs __index__, in C, before Go
    ("b.take(Forks())", "", "parent 2 0"),  # Go's capsule.Take runs __dlpack__
    ("b.import_(Forks())", "", "parent 2 0"),  # Go's capsule.Import runs __dlpack__
    ("b.hold(None)", "b.hold(Dies())", "parent None 0"),  # Go's cpython.DecRef runs __del__
    ("b.take(Takes())", "", "parent 1 0"),  # a call inside the producer: each raises the fork guard's error
    # A call without the GIL whose Go code took it for Take: the child lets go of it before the call takes it back.
    ("b.take_regained(Forks())", "", "parent 2 0"),
])
def test_a_fork_while_a_call_runs_python_code(call: str, setup: str, parent: str) -> None:
    # Python code a call runs (a conversion, a producer, a destructor) forks: in the child the call raises the
    # fork guard's RuntimeError, without returning through Go; the parent's call goes on.
    done = fork_during(call, setup)
    assert done.returncode == 0 and sorted(done.stdout.splitlines()) == ["child forked", parent], done
    assert done.stderr == ""


@pytest.mark.parametrize("call, parent", [
    # take_held takes no Python object: Go's Python code is no bound call's to go back to.
    ("b.take_held()", "parent 2 1"),
    # Python's frames lie between the inner Take and the outer call: the child must not jump over them.
    ("b.take(TakesHeld())", "parent 1 1"),
])
def test_a_fork_with_no_call_to_go_back_to(call: str, parent: str) -> None:
    # The child says why and exits with status 1; the parent goes on.
    done = fork_during(call, "b.hold(Forks())")
    assert done.returncode == 0 and done.stdout.splitlines() == [parent], done
    assert done.stderr == NO_EXIT


def test_pickle_in_multiprocessing_spawn() -> None:
    code = ("import multiprocessing as mp, bindtest as b\n"
            "if __name__ == '__main__':\n"
            "    with mp.get_context('spawn').Pool(2) as p:\n"
            "        print(p.map(b.echo_int, [1, 2, 3]))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[1, 2, 3]"


def test_broken_tensor_is_refused_naming_the_argument() -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "tests" / "support"))
    from dlpack_ctypes import HandMade

    bad = HandMade(strides=(1,), flags=1 << 40)
    with pytest.raises(BufferError) as e:
        b.shape(bad.capsule())
    assert str(e.value).startswith("shape(): argument 'x': cannot import the tensor: "), str(e.value)
    assert "consumer:" not in str(e.value)
    assert bad.deleted == 1
    ok = HandMade(strides=(1,))
    assert b.shape(ok.capsule()) == (1, 4) and ok.deleted == 1


# AddressSanitizer (make memcheck) keeps freed blocks in its quarantine on purpose, so resident memory grows there.
@pytest.mark.skipif("libasan" in os.environ.get("LD_PRELOAD", ""), reason="resident memory under ASan's quarantine")
def test_results_beside_an_error_are_released() -> None:
    def rss() -> int:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")

    before = rss()
    for _ in range(100):  # 100 x 16 MiB, touched by NewArray's zeroing
        with pytest.raises(ValueError, match="an error beside an Array"):
            b.array_and_error(1 << 22)
    assert rss() - before < 200 << 20


def test_conversions_by_copy() -> None:
    a = np.arange(12, dtype=np.float64).reshape(3, 4)
    assert b.conv_sum(a) == (66.0, True)  # no conversion needed
    assert b.conv_sum(a.T) == (66.0, True)  # another layout: copied into C order
    assert b.conv_sum(a[:, ::2]) == (a[:, ::2].sum(), True)
    assert b.conv_sum(np.arange(5, dtype=np.int16)) == (10.0, True)  # another dtype: cast as astype does
    assert b.conv_sum(torch.tensor([True, False, True])) == (2.0, True)
    assert b.conv_sum(np.array(2, np.uint64)) == (2.0, True)  # 0-d
    assert b.conv_f(np.ones((2, 3), np.float32)) == (1, 2, 6.0)  # C order into F
    assert b.conv_f(np.arange(6, dtype=np.int64).reshape(2, 3)) == (1, 2, 15.0)  # cast, then F order
    with pytest.raises(TypeError, match=r"must be a float64 tensor \(any layout; bool, integer and float dtypes "
                                        r"converted to float64\), got a 1-D complex64 one"):
        b.conv_sum(np.ones(2, np.complex64))  # no conversion defined
    with pytest.raises(TypeError, match=r"must be a 2-D float32 tensor \(any layout; .*\), got a 1-D"):
        b.conv_f(np.ones(3, np.float32))
    x = np.arange(4.0)[::-1]
    b.conv_sum(x)
    assert x.tolist() == [3.0, 2.0, 1.0, 0.0]  # the argument's own memory is left alone


def test_results_as_godlpack_tensors() -> None:
    """Last in this file: it imports godlpack, whose Go runtime then shares the process with bindtest's."""
    import godlpack

    t = b.arange_gd(4)
    assert type(t) is godlpack.Tensor
    assert t.shape == (4,) and t.tolist() == [0.0, 1.0, 2.0, 3.0] and str(t.dtype) == "float32"
    assert memoryview(t).tolist() == [0.0, 1.0, 2.0, 3.0]
    assert pickle.loads(pickle.dumps(t)).tolist() == [0.0, 1.0, 2.0, 3.0]
    assert np.from_dlpack(t).tolist() == [0.0, 1.0, 2.0, 3.0]


@pytest.mark.parametrize("x", arrays(), ids=lambda x: f"{x.dtype}-{x.shape}-{x.strides}")
def test_numpy_arguments_are_read_as_their_dlpack_export(x: np.ndarray) -> None:
    """An ndarray argument is read in place, without __dlpack__; what the function sees is what that would export."""
    assert b.describe(x) == b.describe(Forwarding(x))


def test_numpy_arrays_dlpack_refuses_keep_its_words() -> None:
    """What NumPy's __dlpack__ refuses (or an ndarray subclass answers) still goes through __dlpack__."""
    for x in refused():
        with pytest.raises(BufferError) as got:
            b.describe(x)
        with pytest.raises(BufferError) as want:
            x.__dlpack__()
        assert str(want.value) in str(got.value), (str(got.value), str(want.value))
    unaligned = np.frombuffer(bytes(17), np.uint8)[1:].view(np.int64)[::1]
    assert b.describe(unaligned) == b.describe(Forwarding(unaligned))

    s = counting_subclass()
    assert b.describe(s) == b.describe(Forwarding(np.asarray(s))) and type(s).calls == 1


def test_torch_arguments_borrowed_as_their_export() -> None:
    """A PyTorch tensor is read through torch's borrowed DLTensor: what __dlpack__ would give, read-only flagged."""
    base = torch.arange(48, dtype=torch.float32).reshape(4, 12)
    for x in (base, base.T, base[::2, 1::3], torch.tensor(1.5), torch.zeros(3, 0), base.to(torch.bfloat16)):
        got, want = b.describe(x), b.describe(Forwarding(x))
        assert got.replace("flags=1", "flags=0") == want, (got, want)
    # A read-only parameter reads a tensor that requires grad as torch's exchange API lends it (an autograd.Function's
    # inputs do); only from_dlpack and written parameters answer as torch's __dlpack__ does.
    grad = torch.arange(4.0, requires_grad=True)
    assert b.describe(grad).replace("flags=1", "flags=0") == b.describe(Forwarding(grad.detach()))
    with pytest.raises(BufferError, match="require gradient"):
        b.fill(torch.zeros(2, dtype=torch.float64, requires_grad=True), 1.0)
    with pytest.raises(BufferError, match="conjugate"):
        b.describe(torch.ones(2, dtype=torch.complex64).conj())
    y = torch.zeros(4, dtype=torch.float64)
    b.fill(y, 2.0)  # a writable parameter takes torch's managed tensor, whose flags say it may be written
    assert y.tolist() == [2.0] * 4
