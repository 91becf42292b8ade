"""godlpack.ops: Go kernels on NumPy, PyTorch and godlpack memory, zero copy, any strides.

docs/protocol.md#kernels
"""

from __future__ import annotations

import math
import os
import subprocess
import sys
import threading
from typing import Any, Callable

import numpy as np
import pytest
import torch

import godlpack
from godlpack import ops

from child_env import child_env
from dlpack_ctypes import HandMade

REAL = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16", "float32", "float64"]
TORCH = {"bfloat16": torch.bfloat16, **{d: getattr(torch, d) for d in REAL}}


def source(dtype: str, strided: bool) -> np.ndarray:
    a = (np.arange(48) % 13 + 1).reshape(6, 8).astype(dtype)
    return a[::2, ::-3] if strided else a


def as_numpy(x: np.ndarray) -> np.ndarray:
    return x


def as_torch(x: np.ndarray) -> torch.Tensor:
    t = torch.from_numpy(np.ascontiguousarray(x)).clone()
    return t.t().contiguous().t() if x.ndim == 2 else t  # a column-major layout: strided for our kernels


def as_godlpack(x: np.ndarray) -> Any:
    return godlpack.from_dlpack(x)


KINDS: dict[str, Callable[[np.ndarray], Any]] = {"numpy": as_numpy, "torch": as_torch, "godlpack": as_godlpack}


def to_numpy(x: Any) -> np.ndarray:
    if isinstance(x, torch.Tensor):
        return x.numpy()
    return np.asarray(np.from_dlpack(x))


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("strided", [False, True])
@pytest.mark.parametrize("dtype", REAL + ["bool"])
def test_sum(kind: str, strided: bool, dtype: str) -> None:
    a = source(dtype, strided) if dtype != "bool" else source("int8", strided) % 2 == 1
    got = ops.sum(KINDS[kind](a))
    if dtype.startswith("float"):
        assert isinstance(got, float)
        assert got == pytest.approx(float(a.astype(np.float64).sum()))
    else:
        assert isinstance(got, int) and not isinstance(got, bool)
        assert got == int(a.astype(np.int64).sum())


def test_sum_bfloat16_and_scalars() -> None:
    t = torch.arange(10, dtype=torch.bfloat16)[::3]
    assert ops.sum(t) == 18.0
    assert ops.sum(np.array(2.5, np.float32)) == 2.5  # 0-d
    assert ops.sum(np.zeros((3, 0))) == 0.0
    assert ops.sum(np.array([2**63, 2**63 + 5], dtype=np.uint64)) == 5  # wraps like NumPy


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("strided", [False, True])
@pytest.mark.parametrize("dtype", REAL)
def test_scale_in_place(kind: str, strided: bool, dtype: str) -> None:
    a = source(dtype, strided)
    whole = a if a.base is None else a.base  # the array whose memory a views
    before = whole.copy()
    factor = 3 if np.dtype(dtype).kind in "iu" else 0.75
    want = a * np.dtype(dtype).type(factor)
    x = KINDS[kind](a)
    ptr = x.data_ptr() if hasattr(x, "data_ptr") else a.__array_interface__["data"][0]
    ops.scale_(x, factor)
    got = to_numpy(x)
    np.testing.assert_array_equal(got, want)
    if kind == "numpy":
        assert x.__array_interface__["data"][0] == ptr
        if strided:  # the view's memory changed, and nothing around it
            assert whole.shape == (6, 8)
            mask = np.ones(whole.shape, bool)
            mask[::2, ::-3] = False
            np.testing.assert_array_equal(whole[mask], before[mask])
            assert not np.array_equal(whole[~mask], before[~mask])
    else:
        assert x.data_ptr() == ptr


def test_scale_torch_memory_is_shared() -> None:
    t = torch.arange(12, dtype=torch.float32).reshape(3, 4)
    view = t[:, 1::2]
    ops.scale_(view, 2.0)
    assert t.tolist() == [[0, 2, 2, 6], [4, 10, 6, 14], [8, 18, 10, 22]]
    h = torch.tensor([1.5, -2.25, 65504.0], dtype=torch.float16)
    ops.scale_(h, 2)
    assert h.tolist() == [3.0, -4.5, float("inf")]
    b = torch.tensor([1.0, 3.0], dtype=torch.bfloat16)
    ops.scale_(b, 0.5)
    assert b.tolist() == [0.5, 1.5]


def test_scale_integer_rules() -> None:
    a = np.array([100, -3], dtype=np.int8)
    ops.scale_(a, 2)
    assert a.tolist() == [-56, -6]  # wraps like NumPy
    with pytest.raises(TypeError, match="int factor"):
        ops.scale_(a, 0.5)
    with pytest.raises(OverflowError, match="does not fit"):
        ops.scale_(a, 300)
    with pytest.raises(TypeError, match="not bool"):
        ops.scale_(np.ones(3, bool), 1)
    with pytest.raises(TypeError):
        ops.scale_(a, "2")  # type: ignore[arg-type]


class RaisingFactor:
    def __float__(self) -> float:
        raise KeyError("raised by __float__")


@pytest.mark.parametrize("factor, exc, message", [
    (10**400, OverflowError, "int too large to convert to float"),  # NumPy's words for np.ones(3) * 10**400
    (RaisingFactor(), KeyError, "raised by __float__"),
], ids=["10**400", "raising __float__"])
def test_scale_factor_errors_reach_the_caller(factor: object, exc: type[Exception], message: str) -> None:
    # The exception reading the factor raised, with its own type and words: scale_ used to replace it with
    # "RuntimeError: scale_(): a Python exception is set: reading the factor failed".
    a = np.ones(3)
    with pytest.raises(exc, match=message) as info:
        ops.scale_(a, factor)  # type: ignore[arg-type]
    if isinstance(factor, RaisingFactor):
        assert info.traceback[-1].name == "__float__"
    assert a.tolist() == [1.0, 1.0, 1.0]


def test_scale_takes_numpy_scalars() -> None:
    a = np.ones(3, np.float32)
    ops.scale_(a, np.float32(2.5))
    assert a.tolist() == [2.5, 2.5, 2.5]
    b = np.arange(3, dtype=np.int16)
    ops.scale_(b, np.int64(3))
    assert b.tolist() == [0, 3, 6]


def test_scale_refuses_read_only() -> None:
    a = np.ones(4, np.float32)
    a.flags.writeable = False
    with pytest.raises(BufferError, match="READ_ONLY"):
        ops.scale_(a, 2.0)
    ro = godlpack.from_dlpack(np.ones(3).__dlpack__())  # a legacy capsule: godlpack keeps it read-only
    with pytest.raises(BufferError, match="READ_ONLY"):
        ops.scale_(ro, 2.0)
    del ro
    with pytest.raises(BufferError, match="legacy"):
        ops.scale_(np.ones(3).__dlpack__(), 2.0)


@pytest.mark.parametrize("dst_kind", KINDS)
@pytest.mark.parametrize("src_kind", KINDS)
def test_copy_any_strides(dst_kind: str, src_kind: str) -> None:
    src = KINDS[src_kind](source("float64", True))
    dst_np = np.zeros((8, 6))[1::3, ::2]
    dst = dst_np if dst_kind == "numpy" else KINDS[dst_kind](dst_np)
    ops.copy_(dst, src)
    np.testing.assert_array_equal(to_numpy(dst), source("float64", True))


@pytest.mark.parametrize("dtype", REAL + ["bool", "complex64"])
def test_copy_dtypes(dtype: str) -> None:
    src = (np.arange(12).reshape(3, 4) % 2 == 1) if dtype == "bool" else np.arange(12).reshape(3, 4).astype(dtype)
    dst = np.zeros((4, 3), dtype).T
    ops.copy_(dst, src)
    np.testing.assert_array_equal(dst, src)


def test_copy_overlapping() -> None:
    a = np.arange(10, dtype=np.int32)
    ops.copy_(a[1:], a[:-1])
    assert a.tolist() == [0, 0, 1, 2, 3, 4, 5, 6, 7, 8]
    b = np.arange(6, dtype=np.int64)
    ops.copy_(b, b[::-1])
    assert b.tolist() == [5, 4, 3, 2, 1, 0]


def test_copy_refusals() -> None:
    with pytest.raises(ValueError, match="shape"):
        ops.copy_(np.zeros(4), np.zeros(5))
    with pytest.raises(ValueError, match="shape"):
        ops.copy_(np.zeros((2, 3)), np.zeros(3))  # no broadcasting
    with pytest.raises(TypeError, match="float32"):
        ops.copy_(np.zeros(4), np.zeros(4, np.float32))
    ro = np.zeros(4)
    ro.flags.writeable = False
    with pytest.raises(BufferError, match="READ_ONLY"):
        ops.copy_(ro, np.ones(4))
    with pytest.raises(TypeError, match="__dlpack__"):
        ops.copy_(np.zeros(4), [1, 2, 3, 4])
    with pytest.raises(TypeError, match="__dlpack__"):
        ops.sum(3)


def test_every_deleter_runs_once() -> None:
    x = HandMade(strides=(1,))  # 4 float32 over its own buffer
    np.frombuffer(x.buffer, np.float32)[:4] = [0, 1, 2, 3]
    assert ops.sum(x.capsule()) == 6.0
    assert x.deleted == 1
    dst = HandMade(strides=(1,))
    with pytest.raises(ValueError, match="shape"):
        ops.copy_(dst.capsule(), np.zeros(5, np.float32))
    assert dst.deleted == 1
    bad = HandMade(strides=(1,))
    with pytest.raises(TypeError):
        ops.copy_(bad.capsule(), object())  # the second operand fails before Go: the first is deleted in C
    assert bad.deleted == 1


def _other_thread_runs_during(call: Callable[[], object]) -> bool:
    """Whether another Python thread ran while call() was inside Go.

    With a switch interval far longer than the test, the main thread keeps the
    GIL until it gives it up itself, so the waiting thread can run during the
    call only if the call released the GIL.
    """
    ran = threading.Event()
    go = threading.Event()

    def other() -> None:
        go.wait()
        ran.set()

    t = threading.Thread(target=other)
    old = sys.getswitchinterval()
    sys.setswitchinterval(1000.0)
    try:
        t.start()
        go.set()  # other() now waits for the GIL, which this thread keeps
        call()
        during = ran.is_set()
    finally:
        sys.setswitchinterval(old)
        t.join()
    return during


def _calls_until_another_thread_ran(call: Callable[[], object], tries: int = 5) -> int:
    """How many calls it took for another thread to run during one (0: none in tries).

    The waiting thread must be scheduled within the few milliseconds of one call, which a loaded machine
    may not do at the first try; a call that keeps the GIL never lets it run, however many tries.
    """
    return next((n for n in range(1, tries + 1) if _other_thread_runs_during(call)), 0)


def test_large_inputs_release_the_gil() -> None:
    big = np.ones(8 << 20, dtype=np.float32)  # 32 MiB
    assert _calls_until_another_thread_ran(lambda: ops.sum(big))
    scaled = _calls_until_another_thread_ran(lambda: ops.scale_(big, 2.0))
    assert scaled
    assert float(big[0]) == 2.0**scaled


def test_small_inputs_keep_the_gil() -> None:
    small = np.ones(16, dtype=np.float32)
    assert not _other_thread_runs_during(lambda: ops.sum(small))


def test_calls_on_many_threads_each_read_their_own_tensors() -> None:
    """Calls that release the GIL overlap with each other and with short ones: each sees its own arguments.

    An argument is lent to the kernel as a reused Go value; two calls sharing one would sum, scale or copy the other's.
    """
    big = 1 << 18  # float32: 1 MiB, the work from which a call releases the GIL
    failures: list[str] = []

    def work(k: int) -> None:
        large = np.full(big, k, np.float32)
        small = np.full(3, k, np.float32)
        for _ in range(20):
            if ops.sum(large) != k * big or ops.sum(small) != 3 * k:
                failures.append(f"sum in thread {k}")
            out = np.zeros(big, np.float32)
            ops.copy_(out, large)
            ops.scale_(out, 2)
            if out[0] != 2 * k or out[-1] != 2 * k:
                failures.append(f"copy_/scale_ in thread {k}")

    threads = [threading.Thread(target=work, args=(k,)) for k in range(1, 9)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert failures == []


# ---- outputs whose elements share memory (docs/protocol.md#godlpackops-outputs) ----


def test_outputs_whose_elements_share_memory_are_refused() -> None:
    x = np.array([3.0])
    with pytest.raises(ValueError, match="share memory"):
        ops.scale_(np.lib.stride_tricks.as_strided(x, (4,), (0,)), 2)
    assert x.tolist() == [3.0]  # NumPy's x *= 2 would give 6; writing it four times gave 48
    t = torch.tensor([3.0])
    with pytest.raises(ValueError, match="share memory"):
        ops.scale_(t.expand(4), 2)
    with pytest.raises(ValueError, match="share memory"):
        ops.copy_(torch.zeros(1).expand(3), torch.arange(3.0))
    folded = np.lib.stride_tricks.as_strided(np.zeros(3), (2, 2), (8, 8))  # [i, j] -> i + j
    with pytest.raises(ValueError, match="share memory"):
        ops.copy_(folded, np.ones((2, 2)))


def test_inputs_may_overlap_outputs_and_repeat() -> None:
    src = np.broadcast_to(np.float32(2), (4,))  # a stride-0 input is fine
    dst = np.zeros(4, np.float32)
    ops.copy_(dst, src)
    assert dst.tolist() == [2.0] * 4


def test_the_gil_goes_by_the_work_not_the_bytes_an_input_spans() -> None:
    one = np.broadcast_to(np.float64(1), (1 << 24,))  # 8 bytes spanned, 128 MiB of elements to sum
    assert _calls_until_another_thread_ran(lambda: ops.sum(one))
    assert ops.sum(one) == float(1 << 24)


# ---- dot, min, max (docs/python-api.md#godlpackops) ----


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("strided", [False, True])
@pytest.mark.parametrize("dtype", REAL)
def test_dot_min_max(kind: str, strided: bool, dtype: str) -> None:
    a = source(dtype, strided)
    b = (a[::-1] if a.ndim == 1 else a[::-1, :]).copy()
    wide = a.astype(np.float64 if dtype.startswith("float") else np.int64)
    products = wide * b.astype(wide.dtype)
    want = float(products.sum()) if dtype.startswith("float") else int(products.sum())
    got = ops.dot(KINDS[kind](a), KINDS[kind](b))
    assert type(got) is type(want) and got == want
    for op, ref in ((ops.min, np.min), (ops.max, np.max)):
        got = op(KINDS[kind](a))
        assert type(got) is (float if dtype.startswith("float") else int) and got == ref(a).item()


def test_dot_refusals_and_scalars() -> None:
    with pytest.raises(ValueError, match="shape"):
        ops.dot(np.zeros(4), np.zeros(5))
    with pytest.raises(TypeError, match="float32"):
        ops.dot(np.zeros(4), np.zeros(4, np.float32))
    with pytest.raises(TypeError, match="bool"):
        ops.dot(np.ones(3, bool), np.ones(3, bool))
    assert ops.dot(np.array(3.0), np.array(-2.0)) == -6.0  # 0-d
    assert ops.dot(np.zeros((2, 0)), np.zeros((2, 0))) == 0.0
    assert ops.dot(np.array([2**62, 3], np.int64), np.array([4, 1], np.int64)) == 3  # wraps like a sum
    t = torch.arange(6, dtype=torch.bfloat16)
    assert ops.dot(t, t) == 55.0


def test_min_max_nan_bool_and_empty() -> None:
    a = np.arange(100, dtype=np.float32)
    a[37] = np.nan
    assert np.isnan(ops.min(a)) and np.isnan(ops.max(a[1::3])) and not np.isnan(ops.max(a[::3]))
    flags = np.array([True, False, True])
    assert ops.min(flags) is False and ops.max(flags) is True and ops.min(flags[::2]) is True
    assert ops.max(torch.tensor([-1.5, 2.5], dtype=torch.float16)) == 2.5
    for op in (ops.min, ops.max):
        with pytest.raises(ValueError, match="no elements"):
            op(np.zeros((3, 0)))


# ---- accuracy: sums against the exact sum (math.fsum) and NumPy's pairwise summation ----


def ill_conditioned(n: int, dtype: str, seed: int) -> np.ndarray:
    """Large terms that cancel but for small ones: each addition's rounding shows in the sum."""
    rng = np.random.default_rng(seed)
    big = rng.standard_normal(n // 2) * 2.0 ** rng.integers(0, 30, n // 2)
    a = np.concatenate([big, -big + rng.standard_normal(n // 2)]).astype(dtype)
    rng.shuffle(a)
    return a


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("n", [1000, 100_000, 3_000_000])
def test_sum_is_at_least_as_accurate_as_numpys(dtype: str, n: int) -> None:
    for seed in range(3):
        a = ill_conditioned(n, dtype, seed)
        exact = math.fsum(a.astype(np.float64).tolist())
        ulp = math.ulp(exact)
        ours, numpys = abs(ops.sum(a) - exact), abs(float(np.sum(a)) - exact)
        assert ours <= max(numpys, ulp), (ours, numpys, ulp)
        # The bound vec.Sum states: a unit in the last place, and 2**-42 (float32: float64 lanes) or n * 2**-106
        # (float64: lanes that keep each addition's rounding error) times the sum of the magnitudes.
        magnitude = float(np.abs(a.astype(np.float64)).sum())
        assert ours <= ulp + (2.0**-42 if dtype == "float32" else n * 2.0**-106) * magnitude, (ours, magnitude)


# ---- every core: GODLPACK_NUM_THREADS, set_num_threads, results that do not depend on the count ----


def test_thread_count_setting() -> None:
    before = godlpack.get_num_threads()
    try:
        godlpack.set_num_threads(3)
        assert godlpack.get_num_threads() == 3
        for bad, exc in ((0, ValueError), (-2, ValueError), ("2", TypeError), (2.0, TypeError)):
            with pytest.raises(exc):
                godlpack.set_num_threads(bad)  # type: ignore[arg-type]
        assert godlpack.get_num_threads() == 3
    finally:
        godlpack.set_num_threads(before)
    code = "import godlpack; print(godlpack.get_num_threads())"
    unset = child_env()
    unset.pop("GODLPACK_NUM_THREADS", None)
    default = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                             env=unset).stdout.strip()
    assert int(default) == (len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count())
    for env, want in (("1", "1"), ("5", "5"), ("zero", default), ("0", default)):
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                             env=child_env(GODLPACK_NUM_THREADS=env)).stdout.strip()
        assert out == want, (env, out)


@pytest.mark.parametrize("dtype", ["float32", "float64", "int32", "uint8", "int64"])
def test_large_kernels_give_the_same_results_on_any_thread_count(dtype: str) -> None:
    rng = np.random.default_rng(7)
    n = 5_000_001  # 20 MB of float32, 40 MB of int64: split, at 8 MiB a goroutine
    if dtype.startswith("float"):
        a = (rng.standard_normal(n) * 1000).astype(dtype)
    else:
        a = rng.integers(0, 100, n).astype(dtype)
    before = godlpack.get_num_threads()
    results = []
    try:
        for threads in (1, 2, 3, 8):
            godlpack.set_num_threads(threads)
            scaled = a.copy()
            ops.scale_(scaled, 3)
            copied = np.empty_like(a)
            ops.copy_(copied, a)
            results.append((ops.sum(a), ops.dot(a, a), ops.min(a), ops.max(a), ops.sum(a[:, None][::2]),
                            scaled.tobytes() == (a * a.dtype.type(3)).tobytes(), np.array_equal(copied, a)))
    finally:
        godlpack.set_num_threads(before)
    assert all(r == results[0] for r in results), results
    s, d, lo, hi, _, scaled_ok, copied_ok = results[0]
    assert scaled_ok and copied_ok and lo == a.min() and hi == a.max()
    if dtype.startswith("float"):
        assert s == pytest.approx(math.fsum(a.astype(np.float64).tolist()), rel=1e-12)
    else:
        assert s == int(a.astype(np.int64).sum()) and d == int((a.astype(np.int64) ** 2).sum())
