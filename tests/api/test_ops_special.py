"""godlpack.ops.sum and dot with infinities, NaN and overflow: the rule of docs/protocol.md#kernels.

NaN only where IEEE arithmetic on the exact terms gives NaN (a NaN element, inf·0, inf - inf); otherwise an infinite
term is the result, and a sum of finite terms is their exact sum rounded once (an infinity where that overflows, as
np.sum(x, dtype=np.float64) gives); where only a partial sum overflows, an infinity or the exact value, never NaN.
Every dtype that ops sums as a float, every layout (each path of package ops: one span, split across threads, rows,
element by element) and every place of the special values.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any, Callable

import numpy as np
import pytest
import torch

import godlpack
from godlpack import ops

BIG = 1.5e308


def pattern(n: int) -> np.ndarray:
    return (np.arange(n) % 7 - 2.5).astype(np.float64)


Zeros = Callable[[tuple[int, ...]], Any]

# Each layout makes a view of n elements or about that many (a matrix's whole rows) of fresh zeros.
LAYOUTS: dict[str, Callable[[Zeros, int], Any]] = {
    "contiguous": lambda zeros, n: zeros((n,)),
    "reversed": lambda zeros, n: zeros((n,))[::-1],
    "strided": lambda zeros, n: zeros((2 * n,))[::2],
    "rows": lambda zeros, n: zeros((max(1, n // 20), 24))[:, 2:22],  # rows of 20 contiguous elements: one by one
    "columns": lambda zeros, n: zeros((24, max(1, n // 20))).T[:, 2:22],  # no contiguous dimension: one at a time
    "0-d": lambda zeros, n: zeros(()),
}


def zeros_of(dtype: str) -> Zeros:
    """Zeros of dtype: a NumPy array, or a PyTorch tensor for bfloat16 (NumPy has none)."""
    if dtype == "bfloat16":
        return lambda shape: torch.zeros(shape, dtype=torch.bfloat16)
    return lambda shape: np.zeros(shape, dtype)


def view(dtype: str, layout: str, n: int) -> Any:
    v = LAYOUTS[layout](zeros_of(dtype), n)
    flat = pattern(int(np.prod(v.shape)))
    v[...] = torch.from_numpy(flat).to(v.dtype).reshape(v.shape) if isinstance(v, torch.Tensor) else flat.reshape(v.shape)
    return v


# Each case writes its special values into a view (at flat C-order positions).
CASES: dict[str, Callable[[Any], None]] = {}


def _at(v: Any, k: int) -> tuple[int, ...]:
    return tuple(int(i) for i in np.unravel_index(k, tuple(v.shape)))


def size(v: Any) -> int:
    return int(np.prod(v.shape))


def case(name: str) -> Callable[[Callable[[Any], None]], Callable[[Any], None]]:
    def register(f: Callable[[Any], None]) -> Callable[[Any], None]:
        CASES[name] = f
        return f
    return register


@case("+inf first")
def _plus_inf(v: Any) -> None:
    v[_at(v, 0)] = np.inf


@case("-inf last")
def _minus_inf(v: Any) -> None:
    v[_at(v, size(v) - 1)] = -np.inf


@case("both infinities")
def _both(v: Any) -> None:
    v[_at(v, 0)], v[_at(v, size(v) - 1)] = np.inf, -np.inf


@case("nan middle")
def _nan(v: Any) -> None:
    v[_at(v, size(v) // 2)] = np.nan


@case("overflow")
def _overflow(v: Any) -> None:
    v[...] = 1e308


@case("partial overflow")
def _partial(v: Any) -> None:
    v[...] = 0
    for k in range(size(v)):
        v[_at(v, k)] = BIG if k < (size(v) + 1) // 2 else -BIG


@case("overflow and -inf")
def _overflow_then_minus_inf(v: Any) -> None:
    v[...] = 1e308
    v[_at(v, size(v) - 1)] = -np.inf


FLOAT64_ONLY = {"overflow", "partial overflow", "overflow and -inf"}  # beyond float16's, bfloat16's and float32's range


def ruled(terms: np.ndarray) -> tuple[float, bool]:
    """The sum of the float64 terms by the rule, and whether an infinity may stand for it (a partial sum overflows
    though the exact sum does not)."""
    if np.isnan(terms).any() or (np.isposinf(terms).any() and np.isneginf(terms).any()):
        return math.nan, False
    if np.isposinf(terms).any():
        return math.inf, False
    if np.isneginf(terms).any():
        return -math.inf, False
    exact, partial = Fraction(0), False
    for t in terms.tolist():
        exact += Fraction(t)
        partial = partial or abs(exact) > Fraction(np.finfo(np.float64).max)
    try:
        return float(exact), partial
    except OverflowError:
        return (math.inf if exact > 0 else -math.inf), False


def agrees(got: float, terms: np.ndarray) -> bool:
    want, inf_allowed = ruled(terms)
    if math.isnan(want) or math.isinf(want):
        return got == want or (math.isnan(want) and math.isnan(got))
    if math.isinf(got):
        return inf_allowed
    magnitude = float(np.abs(terms).sum() * 2.0**-64) * 2.0**64 if terms.size else 0.0
    return not math.isnan(got) and abs(got - want) <= 1e-12 * magnitude


pytestmark = [pytest.mark.filterwarnings("ignore:invalid value encountered:RuntimeWarning"),  # inf - inf
              pytest.mark.filterwarnings("ignore:overflow encountered:RuntimeWarning")]  # NumPy's own sums


def values(x: Any) -> np.ndarray:
    """x's elements as float64, in C order."""
    if isinstance(x, torch.Tensor):
        return x.to(torch.float64).numpy().reshape(-1)
    return np.asarray(x, dtype=np.float64).reshape(-1)


DTYPES = ["float16", "bfloat16", "float32", "float64"]
SIZES = [1, 100, 3 * 8192 + 77]


SUM_CASES = [(dtype, name, layout, n) for dtype in DTYPES for name in CASES for layout in LAYOUTS for n in SIZES
             if (name not in FLOAT64_ONLY or dtype == "float64") and (layout == "0-d") == (n == 1)
             and not (dtype == "bfloat16" and layout == "reversed")]  # PyTorch has no negative strides


@pytest.mark.parametrize("dtype, name, layout, n", SUM_CASES)
def test_sum_keeps_the_rule(dtype: str, name: str, layout: str, n: int) -> None:
    x = view(dtype, layout, n)
    CASES[name](x)
    terms = values(x)
    got = ops.sum(x)
    assert agrees(got, terms), (got, ruled(terms))
    finite = terms[np.isfinite(terms)]
    if float(np.abs(finite).sum()) < np.finfo(np.float64).max:  # where no partial sum overflows, NumPy's float64 sum
        want = float(np.sum(terms, dtype=np.float64))
        assert got == want or math.isnan(got) and math.isnan(want) or abs(got - want) <= 1e-9 * np.abs(terms).sum()


@pytest.mark.parametrize("dtype, layout", [(d, layout) for d in DTYPES for layout in LAYOUTS
                                           if layout != "0-d" and not (d == "bfloat16" and layout == "reversed")])
def test_dot_keeps_the_rule(dtype: str, layout: str) -> None:
    n = 3 * 8192 + 77
    cases = {"inf times zero": (np.inf, 0.0), "inf times -2": (np.inf, -2.0), "nan": (np.nan, 1.0),
             "inf and -inf": (np.inf, 1.0)}
    for name, (a, b) in cases.items():
        x, y = view(dtype, layout, n), view(dtype, layout, n)
        y[...] = 1.0
        k = size(x) // 3
        x[_at(x, k)], y[_at(y, k)] = a, b
        if name == "inf and -inf":
            x[_at(x, size(x) - 1)] = -np.inf
        got = ops.dot(x, y)
        assert agrees(got, values(x) * values(y)), (name, got)


def test_the_issues_cases() -> None:
    assert ops.sum(np.array([np.inf])) == math.inf
    assert ops.sum(np.array([1e308, 1e308])) == math.inf
    assert ops.sum(np.array([np.inf], np.float16)) == math.inf
    assert ops.sum(torch.tensor([float("inf")], dtype=torch.bfloat16)) == math.inf
    a = np.ones((4, 4), np.float32)
    a[1, 1] = np.inf
    assert ops.sum(a[:, 1:3]) == math.inf
    assert ops.dot(a[::-1], np.ones((4, 4), np.float32)) == math.inf
    assert ops.sum(np.array([1e308, 1e308, -1e308])) in (math.inf, 1e308)
    assert ops.sum(np.array([1e308, 1e308, -1e308, -1e308, 5.0])) in (math.inf, -math.inf, 5.0)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_sums_split_across_threads_keep_the_rule(dtype: str) -> None:
    """6M elements: ops splits the sum and the dot product across threads (vec.ParallelSum, ParallelDot)."""
    saved = godlpack.get_num_threads()
    godlpack.set_num_threads(4)
    try:
        b, ones = np.ones(6_000_000, dtype), np.ones(6_000_000, dtype)
        b[10] = np.inf
        assert ops.sum(b) == math.inf and ops.dot(b, b) == math.inf
        b[-1] = -np.inf
        assert math.isnan(ops.sum(b)) and math.isnan(ops.dot(b, ones))
        b[-1], b[3_000_000] = 1.0, np.nan
        assert math.isnan(ops.sum(b)) and math.isnan(ops.dot(ones, b))
        b[3_000_000], ones[10] = 1.0, 0.0
        assert math.isnan(ops.dot(b, ones))  # inf·0
        if dtype == "float64":
            big = np.full(6_000_000, 1e308)
            assert ops.sum(big) == math.inf == float(np.sum(big))
            big[1::2] = -1e308
            assert not math.isnan(ops.sum(big))
            big[-1] = -np.inf
            assert ops.sum(big) == -math.inf
    finally:
        godlpack.set_num_threads(saved)
