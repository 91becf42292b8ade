"""Tests of the example extension `rowstats` against NumPy and PyTorch, run in a process of their own.

rowstats carries its own Go runtime, so this file does not import godlpack: `make example-test` (and
tests/extensions/test_binder.py) build the module into a directory on PYTHONPATH and run this file.
"""

from __future__ import annotations

import copy
import ctypes
import inspect
import math
import os
import pickle
import subprocess
import sys
from typing import Any, Callable

import numpy as np
import pytest
import torch

import rowstats


def numpy_kinds(a: np.ndarray) -> Any:
    return a


def torch_kinds(a: np.ndarray) -> Any:
    return torch.from_numpy(np.ascontiguousarray(a)).t().contiguous().t()  # column-major: strided


KINDS: dict[str, Callable[[np.ndarray], Any]] = {"numpy": numpy_kinds, "torch": torch_kinds}


def test_functions_look_like_python_functions() -> None:
    assert "godlpack" not in sys.modules
    assert str(inspect.signature(rowstats.row_norms)) == (
        "(x: 'tensor[float32|float64, (*, *)]', /) -> 'Tensor[float32|float64, (*)]'")
    assert str(inspect.signature(rowstats.clip_)) == (
        "(x: 'tensor[float32|float64, writable]', /, lo: 'float' = -inf, hi: 'float' = inf) -> 'tuple[int, int]'")
    assert rowstats.clip_.__module__ == "rowstats" and rowstats.clip_.__qualname__ == "clip_"
    assert pickle.loads(pickle.dumps(rowstats.row_norms)) is rowstats.row_norms
    assert "L2 norm" in (rowstats.row_norms.__doc__ or "")


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("view", ["plain", "strided", "reversed", "transposed"])
def test_row_norms(kind: str, dtype: str, view: str) -> None:
    base = (np.arange(60, dtype=dtype).reshape(6, 10) - 20) / 7
    a = {"plain": base, "strided": base[::2, ::3], "reversed": base[::-1, ::-2], "transposed": base.T}[view]
    if kind == "torch" and view == "reversed":
        pytest.skip("PyTorch has no negative strides")
    x = KINDS[kind](a)
    got = np.from_dlpack(rowstats.row_norms(x))
    assert got.dtype == np.dtype(dtype) and got.shape == (a.shape[0],)
    np.testing.assert_allclose(got, np.linalg.norm(a, axis=1), rtol=1e-6 if dtype == "float32" else 1e-12)
    if kind == "torch":
        torch.testing.assert_close(torch.from_dlpack(rowstats.row_norms(x)), torch.linalg.norm(x, dim=1))


def test_row_norms_result_is_zero_copy_and_outlives_everything() -> None:
    r = rowstats.row_norms(np.ones((3, 4)))
    a, b = np.from_dlpack(r), np.from_dlpack(r)
    assert a.ctypes.data == b.ctypes.data
    del r
    assert a.tolist() == [2.0, 2.0, 2.0]
    assert np.from_dlpack(rowstats.row_norms(np.ones((0, 4)))).shape == (0,)
    assert np.from_dlpack(rowstats.row_norms(np.ones((2, 0)))).tolist() == [0.0, 0.0]


def test_row_norms_result_is_a_tensor() -> None:
    """The result is rowstats.Tensor, package capsule's tensor object (godlpack.Tensor's), without godlpack.

    docs/protocol.md#bound-go-functions (results)."""
    r = rowstats.row_norms(np.array([[3.0, 4.0], [6.0, 8.0]], np.float32))
    assert type(r) is rowstats.Tensor and type(r).__module__ == "rowstats" and "godlpack" not in sys.modules
    assert (r.shape, r.strides, r.ndim, r.size, r.itemsize, r.nbytes) == ((2,), (1,), 1, 2, 4, 8)
    assert type(r.dtype) is rowstats.DType and r.dtype == "float32" and r.dtype == np.float32
    assert r.dtype == torch.float32 and repr(r.dtype) == "rowstats.DType('float32')"
    assert type(r.device) is rowstats.Device and r.device == (1, 0) and repr(r.device) == "rowstats.Device('cpu:0')"
    assert not r.readonly and not r.is_copied and len(r) == 2 and r.tolist() == [5.0, 10.0]
    assert repr(r) == "rowstats.Tensor([5.0, 10.0], shape=(2,), dtype=float32, device='cpu:0')"
    assert str(r) == str(np.array([5.0, 10.0], np.float32)) and "godlpack" not in sys.modules
    assert {"shape", "dtype", "device", "tolist", "__dlpack__", "__dlpack_device__"} <= set(dir(r))
    assert pickle.loads(pickle.dumps(r.dtype)) is r.dtype and rowstats.DType("f4") is r.dtype
    assert pickle.loads(pickle.dumps(r.device)) == r.device
    with pytest.raises(ValueError, match="ambiguous"):
        bool(r)


def test_row_norms_result_prints_as_numpy_or_as_its_repr_without_numpy(monkeypatch: pytest.MonkeyPatch) -> None:
    r = rowstats.row_norms(np.arange(3003.0).reshape(1001, 3))
    assert str(r) == str(np.asarray(r)) and "..." in str(r)  # NumPy's printer, which summarises past 1000 elements
    monkeypatch.setitem(sys.modules, "numpy", None)  # import numpy now raises ImportError
    assert str(r) == repr(r) and "godlpack" not in sys.modules


def test_row_norms_result_buffer_protocol() -> None:
    r = rowstats.row_norms(np.ones((3, 4)))
    a = np.asarray(r)
    assert a.dtype == np.float64 and a.tolist() == [2.0, 2.0, 2.0]
    assert a.ctypes.data == r.data_ptr() == np.from_dlpack(r).ctypes.data  # the same memory
    m = memoryview(r)
    assert (m.format, m.shape, m.strides, m.readonly) == ("d", (3,), (8,), False)
    a[0] = 7.0
    assert r.tolist() == [7.0, 2.0, 2.0] and m[0] == 7.0
    del r
    assert a.tolist() == [7.0, 2.0, 2.0]  # the Go memory lives as long as the array over it


def test_row_norms_result_dlpack_zero_copy() -> None:
    r = rowstats.row_norms(np.ones((2, 9), np.float32))
    n, t = np.from_dlpack(r), torch.from_dlpack(r)
    assert n.ctypes.data == t.data_ptr() == r.data_ptr() and t.tolist() == [3.0, 3.0]
    assert r.__dlpack_device__() == (1, 0)
    t2 = torch.from_dlpack(r)
    t2[1] = 5.0
    assert r.tolist() == [3.0, 5.0] and n.tolist() == [3.0, 5.0]
    c = copy.copy(r)
    assert type(c) is rowstats.Tensor and c.tolist() == [3.0, 5.0] and c.data_ptr() != r.data_ptr() and c.is_copied


def test_row_norms_result_exchange_table() -> None:
    """The C exchange API of DLPack 1.3 is on the type; tvm-ffi, which prefers it to __dlpack__, takes it."""
    r = rowstats.row_norms(np.ones((2, 4), np.float32))
    name = ctypes.pythonapi.PyCapsule_GetName
    name.restype, name.argtypes = ctypes.c_char_p, [ctypes.py_object]
    assert name(type(r).__dlpack_c_exchange_api__) == b"dlpack_exchange_api"
    tvm_ffi = pytest.importorskip("tvm_ffi")
    x = tvm_ffi.from_dlpack(r)
    assert x.data_ptr() == r.data_ptr() and tuple(x.shape) == (2,)
    np.from_dlpack(x)[0] = 42.0
    assert r.tolist() == [42.0, 2.0]


@pytest.mark.parametrize("protocol", [2, 5])
def test_row_norms_result_pickles_into_a_fresh_process(protocol: int) -> None:
    r = rowstats.row_norms(np.arange(12, dtype=np.float64).reshape(3, 4))
    again = pickle.loads(pickle.dumps(r, protocol=protocol))
    assert type(again) is rowstats.Tensor and again.tolist() == r.tolist()
    code = ("import pickle, sys; t = pickle.loads(sys.stdin.buffer.read()); "
            "assert 'godlpack' not in sys.modules, sorted(sys.modules); "
            "print(type(t).__module__ + '.' + type(t).__name__, t.tolist())")
    done = subprocess.run([sys.executable, "-c", code], input=pickle.dumps(r, protocol=protocol),
                          capture_output=True, env=dict(os.environ), timeout=120)
    assert done.returncode == 0, done.stderr.decode()
    assert done.stdout.decode().split(" ", 1) == ["rowstats.Tensor", f"{r.tolist()}\n"]


@pytest.mark.parametrize("bad, exc, message", [
    (np.zeros((2, 3, 4), np.int64), TypeError, "row_norms(): argument 'x' must be a 2-D float32 or float64 tensor, "
                                                "got a 3-D int64 one"),
    (np.zeros(3), TypeError, "row_norms(): argument 'x' must be a 2-D float32 or float64 tensor, got a 1-D float64 one"),
    (torch.zeros((2, 2), dtype=torch.float16), TypeError, "row_norms(): argument 'x' must be a 2-D float32 or float64 "
                                                          "tensor, got a 2-D float16 one"),
    ([[1.0]], TypeError, "row_norms(): argument 'x' must be a tensor (an object with __dlpack__), not list"),
])
def test_row_norms_refusals(bad: Any, exc: type[Exception], message: str) -> None:
    with pytest.raises(exc) as e:
        rowstats.row_norms(bad)
    assert str(e.value) == message
    with pytest.raises(TypeError, match="unexpected keyword argument 'x'"):
        rowstats.row_norms(x=np.ones((2, 2)))


class RowNorms(torch.autograd.Function):
    """row_norms as a PyTorch op with its gradient: forward gets x as it requires grad."""

    @staticmethod
    def forward(ctx: Any, x: torch.Tensor) -> torch.Tensor:
        norms = torch.from_dlpack(rowstats.row_norms(x))
        ctx.save_for_backward(x, norms)
        return norms

    @staticmethod
    def backward(ctx: Any, grad: torch.Tensor) -> torch.Tensor:
        x, norms = ctx.saved_tensors
        return grad[:, None] * x / norms[:, None]


def test_row_norms_inside_an_autograd_function() -> None:
    # A parameter read only takes a tensor that requires grad (docs/protocol.md, "One import"); one written refuses it.
    x = torch.randn(3, 5, dtype=torch.float64, requires_grad=True)
    RowNorms.apply(x).sum().backward()
    y = x.detach().clone().requires_grad_()
    torch.linalg.vector_norm(y, dim=1).sum().backward()
    torch.testing.assert_close(x.grad, y.grad)
    with pytest.raises(BufferError, match="require gradient"):
        rowstats.clip_(x)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("shape, view", [((24,), "plain"), ((4, 6), "strided"), ((2, 3, 4), "transposed"), ((), "0-d")])
def test_clip_in_place(kind: str, dtype: str, shape: tuple[int, ...], view: str) -> None:
    base = np.array((np.arange(math.prod(shape), dtype=dtype) - 10).reshape(shape) / 3)
    if view == "strided":
        base = (np.arange(96, dtype=dtype) - 40).reshape(8, 12)[::2, ::2] / 3
    if view == "transposed":
        base = base.transpose(2, 0, 1)
    x = KINDS[kind](base) if kind == "numpy" else torch.from_numpy(base)
    before = np.array(base, copy=True)
    want = np.clip(before, -2.5, 4.0)
    raised, lowered = rowstats.clip_(x, -2.5, hi=4.0)
    np.testing.assert_array_equal(np.asarray(x), want)  # in x's own memory
    assert raised == int((before < -2.5).sum()) and lowered == int((before > 4.0).sum())


def test_clip_defaults_and_numbers() -> None:
    x = np.array([-np.inf, -1.0, 0.0, 1.0, np.inf, np.nan])
    assert rowstats.clip_(x) == (0, 0)
    assert rowstats.clip_(x, lo=0) == (2, 0)  # an int bound, as NumPy accepts
    assert rowstats.clip_(x, np.float32(-5), hi=np.int64(0)) == (0, 2)
    np.testing.assert_array_equal(x, [0.0, 0.0, 0.0, 0.0, 0.0, np.nan])
    t = torch.tensor([1.5, -1.5], dtype=torch.float32)
    assert rowstats.clip_(t, -1, 1) == (1, 1) and t.tolist() == [1.0, -1.0]


@pytest.mark.parametrize("bad, exc, message", [
    (np.ones(3, np.float32)[::1].copy(), None, ""),
    (np.broadcast_to(np.ones(1), (3,)), BufferError, "clip_(): argument 'x': writes in place, and the tensor is read-only"),
    (torch.ones(1).expand(3), ValueError, "clip_(): argument 'x' is written in place, and its elements share memory"),
    (np.ones(3, np.int32), TypeError, "clip_(): argument 'x' must be a writable float32 or float64 tensor, got a 1-D int32 one"),
])
def test_clip_refusals(bad: Any, exc: type[Exception] | None, message: str) -> None:
    if exc is None:
        assert rowstats.clip_(bad) == (0, 0)
        return
    with pytest.raises(exc) as e:
        rowstats.clip_(bad)
    assert str(e.value).startswith(message), str(e.value)


def test_clip_refuses_bad_bounds() -> None:
    with pytest.raises(TypeError, match=r"^clip_\(\): argument 'lo' must be a float, not str$"):
        rowstats.clip_(np.ones(2), "0")
    with pytest.raises(TypeError, match=r"takes at most 3 positional arguments"):
        rowstats.clip_(np.ones(2), 0, 1, 2)
