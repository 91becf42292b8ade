"""Tests of the example extension `search` against NumPy and PyTorch, run in a process of their own.

search carries its own Go runtime, so this file does not import godlpack: `make example-test` (and
tests/extensions/test_binder.py) build the module into a directory on PYTHONPATH and run this file. NumPy's and
PyTorch's versions of each function are the references (bench/search.py times them beside the Go and its nanobind
twin): scores agree within float32 rounding, and top-k indices agree but at ties.
"""

from __future__ import annotations

import threading
import weakref
from typing import Any, Callable

import numpy as np
import pytest
import torch

import search

rng = np.random.default_rng(7)


def as_numpy(a: np.ndarray) -> Any:
    return a


def as_torch(a: np.ndarray) -> Any:
    return torch.from_numpy(np.ascontiguousarray(a))


def as_column_major(a: np.ndarray) -> Any:
    return np.asfortranarray(a)


def as_torch_strided(a: np.ndarray) -> Any:
    return torch.from_numpy(np.ascontiguousarray(a)).t().contiguous().t()  # column-major


KINDS: dict[str, Callable[[np.ndarray], Any]] = {"numpy": as_numpy, "torch": as_torch,
                                                 "column-major": as_column_major, "torch-strided": as_torch_strided}


def rows(n: int, d: int) -> np.ndarray:
    return rng.standard_normal((n, d)).astype(np.float32)


def softmax_numpy(x: np.ndarray) -> np.ndarray:
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def normalized(x: np.ndarray) -> np.ndarray:
    return x / np.maximum(np.linalg.norm(x, axis=1, keepdims=True), 1e-12)


def topk_numpy(q: np.ndarray, c: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    s = normalized(q.astype(np.float64)) @ normalized(c.astype(np.float64)).T
    order = np.argsort(-s, axis=1, kind="stable")[:, :k]  # ties: the lower index first
    return np.take_along_axis(s, order, axis=1), order


def same_topk(got: tuple[Any, Any], want: tuple[np.ndarray, np.ndarray]) -> None:
    """Scores within float32 rounding, best first; indices equal wherever the reference's scores are not tied."""
    scores, indices = (np.asarray(g) for g in got)
    assert scores.dtype == np.float32 and indices.dtype == np.int64 and scores.shape == want[0].shape
    assert np.allclose(scores, want[0], atol=1e-5)
    assert (np.diff(scores, axis=1) <= 0).all(), "not best first"
    ref = want[0]
    gaps = np.minimum(np.abs(np.diff(ref, axis=1, prepend=np.inf)), np.abs(np.diff(ref, axis=1, append=-np.inf)))
    clear = gaps > 1e-5
    assert (indices[clear] == want[1][clear]).all()


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("shape", [(1, 1), (3, 7), (64, 1024), (5, 1000)])
def test_softmax_in_place_any_layout(kind: str, shape: tuple[int, int]) -> None:
    x = rows(*shape) * 10
    t = KINDS[kind](x.copy())
    assert search.softmax_(t) is None
    got = np.asarray(t.numpy() if isinstance(t, torch.Tensor) else t)
    assert np.allclose(got, softmax_numpy(x), rtol=2e-6, atol=1e-7)
    assert np.allclose(got.sum(axis=1), 1, atol=1e-5)


def test_softmax_against_torch_and_special_values() -> None:
    x = rows(8, 300) * 30
    t = torch.from_numpy(x.copy())
    search.softmax_(t)
    assert torch.allclose(t, torch.softmax(torch.from_numpy(x), dim=1), rtol=2e-6, atol=1e-7)
    big = np.array([[1e30, 0, -np.inf], [-np.inf, -np.inf, 0]], np.float32)
    search.softmax_(big)
    assert (big == np.array([[1, 0, 0], [0, 0, 1]], np.float32)).all()


def test_softmax_refuses_what_it_cannot_write() -> None:
    x = rows(3, 4)
    x.flags.writeable = False
    with pytest.raises(BufferError):
        search.softmax_(x)
    with pytest.raises(TypeError):
        search.softmax_(rows(3, 4).astype(np.float64))
    with pytest.raises((TypeError, ValueError)):
        search.softmax_(rows(3, 4)[0])


@pytest.mark.parametrize("kind", KINDS)
def test_layer_norm(kind: str) -> None:
    x, gamma, beta = rows(33, 200) * 4 + 3, rows(1, 200)[0], rows(1, 200)[0]
    got = search.layer_norm(KINDS[kind](x), gamma, beta)
    assert type(got) is np.ndarray and got.dtype == np.float32 and got.shape == x.shape
    want = torch.nn.functional.layer_norm(torch.from_numpy(x), (200,), torch.from_numpy(gamma), torch.from_numpy(beta),
                                          eps=1e-5).numpy()
    assert np.allclose(got, want, rtol=1e-4, atol=1e-4)
    got = search.layer_norm(x, gamma, beta, eps=0.5)
    mean, var = x.mean(1, keepdims=True), x.var(1, keepdims=True)
    assert np.allclose(got, (x - mean) / np.sqrt(var + 0.5) * gamma + beta, rtol=1e-4, atol=1e-4)
    with pytest.raises(ValueError, match="gamma"):
        search.layer_norm(x, gamma[:5], beta)


@pytest.mark.parametrize("shape", [(1, 1, 1), (3, 5, 7), (64, 128, 1000), (17, 33, 129)])
def test_scores_are_queries_times_corpus_transposed(shape: tuple[int, int, int]) -> None:
    nq, d, n = shape
    q, c = rows(nq, d), rows(n, d)
    got = search.scores(q, c)
    assert type(got) is np.ndarray and got.dtype == np.float32 and got.shape == (nq, n)
    want = q.astype(np.float64) @ c.astype(np.float64).T
    assert np.allclose(got, want, rtol=1e-5, atol=1e-5 * np.sqrt(d))
    assert np.allclose(search.scores(torch.from_numpy(q), torch.from_numpy(c)), torch.from_numpy(q) @ torch.from_numpy(c).T,
                       rtol=1e-5, atol=1e-5 * np.sqrt(d))
    with pytest.raises(ValueError):
        search.scores(q, rows(n, d + 1))


@pytest.mark.parametrize("k", [1, 10, 100])
def test_cosine_topk_against_numpy_and_torch(k: int) -> None:
    q, c = rows(20, 64), rows(5000, 64)
    got = search.cosine_topk(q, c, k)
    same_topk(got, topk_numpy(q, c, k))
    tq, tc = torch.nn.functional.normalize(torch.from_numpy(q)), torch.nn.functional.normalize(torch.from_numpy(c))
    scores, _ = torch.topk(tq @ tc.T, k)
    assert np.allclose(got[0], scores.numpy(), atol=1e-5)


def test_cosine_topk_ties_and_edges() -> None:
    c = np.array([[1, 0], [2, 0], [0, 1], [1, 0]], np.float32)  # rows 0, 1 and 3 tie for (1, 0)
    scores, indices = search.cosine_topk(np.array([[3, 0]], np.float32), c, 3)
    assert indices.tolist() == [[0, 1, 3]] and np.allclose(scores, 1)
    scores, indices = search.cosine_topk(np.zeros((1, 2), np.float32), c, 2)  # a zero query: every score 0
    assert indices.tolist() == [[0, 1]] and (scores == 0).all()
    with pytest.raises(ValueError, match="k"):
        search.cosine_topk(c, c, 5)
    with pytest.raises(ValueError, match="k"):
        search.cosine_topk(c, c, -1)


def test_index() -> None:
    ix = search.Index(32)
    assert ix.ntotal == 0 and len(ix) == 0
    c = rows(3000, 32)
    ix.add(c[:1000])
    ix.add(as_torch_strided(c[1000:]))
    assert ix.ntotal == 3000 and len(ix) == 3000
    q = rows(7, 32)
    same_topk(ix.search(q, 10), topk_numpy(q, c, 10))
    with pytest.raises(ValueError, match="32"):
        ix.add(rows(2, 31))
    with pytest.raises(ValueError):
        search.Index(0)


def test_index_searches_run_at_once_on_threads() -> None:
    """search only reads the index: threads search one Index at once (the GIL released), and agree."""
    ix = search.Index(16)
    c = rows(20000, 16)
    ix.add(c)
    q = rows(4, 16)
    want = ix.search(q, 5)
    results: list[Any] = []
    errors: list[BaseException] = []

    def run() -> None:
        try:
            for _ in range(20):
                results.append(ix.search(q, 5))
        except BaseException as error:  # noqa: BLE001
            errors.append(error)

    threads = [threading.Thread(target=run) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    assert all((r[1] == want[1]).all() for r in results)


def test_set_num_threads_gives_the_same_results() -> None:
    q, c = rows(50, 64), rows(20000, 64)
    one = search.set_num_threads(1)
    try:
        single = search.scores(q, c), search.cosine_topk(q, c, 5)
        search.set_num_threads(4)
        many = search.scores(q, c), search.cosine_topk(q, c, 5)
    finally:
        search.set_num_threads(one)
    assert (single[0] == many[0]).all()
    assert (single[1][1] == many[1][1]).all() and (single[1][0] == many[1][0]).all()


def test_results_outlive_the_inputs() -> None:
    q, c = rows(2, 8), rows(10, 8)
    s = search.scores(q, c)
    ref = weakref.ref(q)
    del q
    assert ref() is None and s.shape == (2, 10)
