"""Tests of the example extension `tilekit` against NumPy and PyTorch, run in a process of their own.

tilekit carries its own Go runtime, so this file does not import godlpack: `make example-test` (and
tests/extensions/test_binder.py) build the module into a directory on PYTHONPATH and run this file.
"""

from __future__ import annotations

import copy
import inspect
import pickle
import subprocess
import sys
import weakref
from typing import Any, Callable

import numpy as np
import pytest
import torch

import tilekit

rng = np.random.default_rng(3)


def as_numpy(a: np.ndarray) -> Any:
    return a


def as_torch(a: np.ndarray) -> Any:
    return torch.from_numpy(np.ascontiguousarray(a))


def as_torch_strided(a: np.ndarray) -> Any:
    return torch.from_numpy(np.ascontiguousarray(a)).t().contiguous().t()  # column-major


KINDS: dict[str, Callable[[np.ndarray], Any]] = {"numpy": as_numpy, "torch": as_torch, "torch-strided": as_torch_strided}


@pytest.mark.parametrize("kind", KINDS)
def test_stats_against_numpy(kind: str) -> None:
    x = rng.standard_normal((50, 4)).astype(np.float32)
    s = tilekit.Stats(4)
    s.update(KINDS[kind](x[:20]))
    s.update(KINDS[kind](x[20:]))
    assert s.count == 50 and s.width == 4 and repr(s) == "Stats(width=4, count=50)"
    assert np.allclose(s.mean(), x.mean(0), atol=1e-6) and np.allclose(s.variance(), x.var(0), atol=1e-6)
    assert type(s.mean()) is np.ndarray and s.mean().dtype == np.float64


def test_stats_merge_pickle_and_errors() -> None:
    x = rng.standard_normal((30, 3)).astype(np.float32)
    a, b = tilekit.Stats(3), tilekit.Stats(3)
    a.update(x[:10])
    b.update(x[10:])
    a.merge(b)
    assert a.count == 30 and np.allclose(a.variance(), x.var(0), atol=1e-6)
    for c in [pickle.loads(pickle.dumps(a)), copy.deepcopy(a)]:
        assert c is not a and c.count == 30 and np.array_equal(c.mean(), a.mean())
    out = subprocess.run([sys.executable, "-c", f"import pickle; s = pickle.loads({pickle.dumps(a)!r}); print(s)"],
                         capture_output=True, text=True, check=True).stdout
    assert out == "Stats(width=3, count=30)\n"
    with pytest.raises(tilekit.TilekitError, match=r"^Stats\.update\(\): argument 'x' must have 3 columns, not 4$"):
        a.update(np.ones((2, 4), np.float32))  # pymodule's ArgErrorAt: the argument named by its position
    for width in [0, 2**24 + 1]:
        with pytest.raises(tilekit.TilekitError, match=rf"^Stats\(\): width must be in \[1, 2\*\*24\], not {width}$"):
            tilekit.Stats(width)
    rebuild, state = a.__reduce__()
    assert rebuild(*state).count == 30
    assert rebuild(2, torch.ones(2), np.zeros(2, np.float32)).variance().tolist() == [0.0, 0.0]  # converted
    with pytest.raises(tilekit.TilekitError, match=r"state of 2 rows, 2 means and 3 sums$"):
        rebuild(2, np.ones(2), np.ones(3))
    with pytest.raises(TypeError, match=r"^Stats\.merge\(\): argument 'other' must be a tilekit\.Stats, not int"):
        a.merge(3)
    assert issubclass(tilekit.TilekitError, ValueError)
    with pytest.raises(AttributeError):
        a.count = 3


def test_rows_in_c_memory_and_their_view() -> None:
    r = tilekit.Rows(3)
    r.add(np.arange(6, dtype=np.float32).reshape(2, 3))
    r.add(torch.ones(1, 3, dtype=torch.float64))  # converted
    data = np.asarray(r.data)  # a view of the rows' memory, zero-copy
    assert data.tolist() == [[0, 1, 2], [3, 4, 5], [1, 1, 1]]
    with pytest.raises(BufferError, match=r"^Rows\.add\(\): Existing exports of data: the buffer cannot be resized"):
        r.add(np.ones((1, 3), np.float32))  # as a bytearray with a memoryview of it
    alive = weakref.ref(r)
    del r
    assert alive() is not None  # the view keeps its instance alive
    rows = alive()
    del data
    rows.add(np.ones((1, 3), np.float32))
    assert rows.data.shape == (4, 3)
    rows.clear()
    assert rows.data.shape == (0, 3)
    with pytest.raises(tilekit.TilekitError, match=r"^Rows\.add\(\): argument 'x' must have 3 columns, not 2$"):
        rows.add(np.ones((1, 2), np.float32))
    with pytest.raises(tilekit.TilekitError, match=r"^Rows\(\): argument 'width' must be in \[1, 2\*\*24\], not 0$"):
        tilekit.Rows(0)


def test_stats_special_methods() -> None:
    # len() is the rows seen, + merges into a new Stats, += merges in place; another operand is unsupported.
    x = rng.standard_normal((30, 3)).astype(np.float32)
    a, b = tilekit.Stats(3), tilekit.Stats(3)
    a.update(x[:10])
    b.update(x[10:])
    c = a + b
    assert len(a) == 10 and len(c) == 30 and c is not a and np.allclose(c.variance(), x.var(0), atol=1e-6)
    d = a
    a += b
    assert a is d and len(a) == 30 and np.array_equal(a.mean(), c.mean())
    with pytest.raises(TypeError, match=r"^unsupported operand type\(s\) for \+: 'tilekit\.Stats' and 'int'$"):
        a + 1
    with pytest.raises(tilekit.TilekitError, match=r"^Stats\.__add__\(\): a Stats of 3 columns, not 2$"):
        a + tilekit.Stats(2)


@pytest.mark.parametrize("kind", KINDS)
def test_functions_against_numpy(kind: str) -> None:
    b = rng.integers(0, 256, 1000, dtype=np.uint8)
    assert np.array_equal(tilekit.histogram(KINDS[kind](b)), np.bincount(b, minlength=256))
    x = rng.standard_normal((5, 8)).astype(np.float32)
    y = rng.standard_normal((3, 8)).astype(np.float32)
    want = ((x[:, None, :] - y[None, :, :]) ** 2).sum(-1)
    assert np.allclose(tilekit.sqdist(KINDS[kind](x), KINDS[kind](y)), want, rtol=1e-5)
    for norm, ord in [(tilekit.Norm.L1, 1), (tilekit.Norm.L2, 2), (tilekit.Norm.MAX, np.inf)]:
        assert np.allclose(tilekit.norms(KINDS[kind](x), norm=norm), np.linalg.norm(x, ord=ord, axis=1), rtol=1e-6)
    assert np.allclose(tilekit.norms(x), np.linalg.norm(x, axis=1))


def test_map_calls_python_for_each_element() -> None:
    t = torch.arange(6, dtype=torch.float32).reshape(2, 3)[:, ::2]  # strided, written in place
    tilekit.map_(t, lambda v: v * 10 + 1)
    assert t.tolist() == [[1.0, 21.0], [31.0, 51.0]]

    def boom(v: float) -> float:
        raise ZeroDivisionError("from the callback")

    with pytest.raises(ZeroDivisionError, match="from the callback"):
        tilekit.map_(np.ones(3, np.float32), boom)
    with pytest.raises(BufferError, match="read-only"):
        tilekit.map_(np.ones(3, np.float32).__dlpack__(), lambda v: v)  # a legacy capsule cannot be written


def test_signatures_and_enum() -> None:
    assert str(inspect.signature(tilekit.Stats)) == "(width)"
    # The signature carries the annotations: the tensors' as declared, the result's "-> tensor[float32, (*)]" as
    # the NumPy array it is returned as.
    assert str(inspect.signature(tilekit.norms)) == (
        "(x: 'tensor[float32, (*, *)]', /, norm: 'Norm' = <Norm.L2: 1>) -> 'numpy.ndarray[float32, (*)]'")
    assert str(inspect.signature(tilekit.Stats.mean)) == "(self, /) -> 'numpy.ndarray[float64, (*)]'"
    assert [m.name for m in tilekit.Norm] == ["L1", "L2", "MAX"] and tilekit.Norm.L2 == 1
    with pytest.raises(ValueError, match=r"^norms\(\): argument 'norm' must be a Norm, got 7$"):
        tilekit.norms(np.ones((1, 1), np.float32), norm=7)


@pytest.mark.parametrize("shape", [(1000, 64, 999), (37, 5, 4), (4, 0, 3), (0, 3, 2)])
def test_sqdist_on_every_thread_count(shape: tuple[int, int, int]) -> None:
    n, k, m = shape
    x = rng.standard_normal((n, k)).astype(np.float32)
    y = rng.standard_normal((m, k)).astype(np.float32)
    want = (x.astype(np.float64)[:, None, :] - y.astype(np.float64)[None, :, :]) ** 2
    results = []
    try:
        for threads in (1, 2, 5):
            tilekit.set_num_threads(threads)
            results.append(tilekit.sqdist(x, y))
    finally:
        assert tilekit.set_num_threads(0) == 5  # back to the default
    for got in results:
        assert got.shape == (n, m) and got.dtype == np.float32
        assert np.allclose(got, want.sum(-1), rtol=1e-5, atol=1e-4)
        assert np.array_equal(got, results[0])  # rows are split, each pair summed alike
