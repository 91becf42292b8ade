"""The cross-framework matrix: {numpy, torch} -> godlpack -> {numpy, torch}, values equal and memory shared.

Every dtype both peers support crosses every (producer, consumer) pair on one strided layout, and every
layout (contiguous, transposed, sliced, 0-d, size-0, size-1 dimension) crosses every pair with a dtype
that rotates through the list: the matrix grows by the sum, not the product. The dtypes only PyTorch has
(bfloat16, the float8 family) make round trips with PyTorch alone, and check godlpack's own decoding
(tolist) and encoding (full) of them against PyTorch's conversions.

docs/protocol.md#consumer-what-the-producer-hands-over and docs/protocol.md#producer-layout: memory shared, strides
as given; docs/protocol.md#dtypes: the dtypes and their values.
"""

from __future__ import annotations

import math
from typing import Any, Callable

import numpy as np
import pytest
import torch

import godlpack

BOTH = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
        "float16", "float32", "float64", "complex64", "complex128"]  # fmt: skip
PAIRS = [(p, c) for p in ("numpy", "torch") for c in ("numpy", "torch")]
LAYOUTS = ["contiguous", "transposed", "sliced", "0-d", "size-0", "size-1-dim"]


def base(dtype: str) -> np.ndarray:
    a = np.arange(1, 25).reshape(4, 6)
    if dtype == "bool":
        return a % 3 == 1
    if dtype.startswith("complex"):
        return (a + 1j * a[::-1]).astype(dtype)
    return a.astype(dtype)


def numpy_layout(a: np.ndarray, layout: str) -> np.ndarray:
    return {
        "contiguous": lambda: a,
        "transposed": lambda: a.T,
        "sliced": lambda: a[1:, ::2],  # negative steps: test_protocol_producer (PyTorch refuses them)
        "0-d": lambda: a[2:3, 4:5].reshape(()),
        "size-0": lambda: a[:, 3:3],
        "size-1-dim": lambda: a[:, None, 1:4],
    }[layout]()


def torch_layout(t: torch.Tensor, layout: str) -> torch.Tensor:
    return {
        "contiguous": lambda: t,
        "transposed": lambda: t.T,
        "sliced": lambda: t[1:, ::2],  # torch has no negative steps
        "0-d": lambda: t[2, 4],
        "size-0": lambda: t[:, 3:3],
        "size-1-dim": lambda: t[:, None, 1:4],
    }[layout]()


def source(producer: str, dtype: str, layout: str) -> Any:
    a = base(dtype)
    return numpy_layout(a, layout) if producer == "numpy" else torch_layout(torch.from_numpy(a), layout)


CONSUMERS: dict[str, Callable[[Any], Any]] = {"numpy": np.from_dlpack, "torch": torch.from_dlpack}


def address(x: Any) -> int:
    return int(x.ctypes.data) if isinstance(x, np.ndarray) else int(x.data_ptr())


def strides_in_elements(x: Any) -> tuple[int, ...]:
    if isinstance(x, np.ndarray):
        return tuple(s // x.itemsize for s in x.strides)
    return tuple(x.stride())


def marker(dtype: str) -> Any:
    return {"bool": False, "complex64": 7 - 7j, "complex128": 7 - 7j}.get(dtype, 77)


def cross(producer: str, consumer: str, dtype: str, layout: str) -> None:
    src = source(producer, dtype, layout)
    expected = src.tolist()
    middle = godlpack.from_dlpack(src)
    out = CONSUMERS[consumer](middle)
    assert middle.dtype == dtype and str(out.dtype).removeprefix("torch.") == dtype
    assert tuple(out.shape) == tuple(src.shape) == middle.shape
    assert out.tolist() == expected == middle.tolist()
    assert not middle.readonly
    if middle.size == 0:
        return
    # Memory shared: one address and one layout everywhere, and a write on the far side is seen at the source.
    assert address(out) == address(src) == middle.data_ptr()
    assert strides_in_elements(out) == strides_in_elements(src) == middle.strides
    out[(0,) * out.ndim] = marker(dtype)
    first = src[(0,) * src.ndim]
    assert first.item() == marker(dtype)


@pytest.mark.parametrize("producer, consumer", PAIRS, ids=[f"{p}-{c}" for p, c in PAIRS])
@pytest.mark.parametrize("dtype", BOTH)
def test_every_dtype(producer: str, consumer: str, dtype: str) -> None:
    cross(producer, consumer, dtype, "sliced")


@pytest.mark.parametrize("producer, consumer", PAIRS, ids=[f"{p}-{c}" for p, c in PAIRS])
@pytest.mark.parametrize("layout", LAYOUTS)
def test_every_layout(producer: str, consumer: str, layout: str) -> None:
    dtype = BOTH[(LAYOUTS.index(layout) * 5 + PAIRS.index((producer, consumer))) % len(BOTH)]
    cross(producer, consumer, dtype, layout)


# ---- dtypes only PyTorch has ----
# docs/protocol.md#dtypes, docs/protocol.md#producer-newer-dtypes-and-devices

TORCH_ONLY = ["bfloat16", "float8_e4m3fn", "float8_e5m2", "float8_e4m3fnuz", "float8_e5m2fnuz", "float8_e8m0fnu"]


def torch_values(dtype: str) -> torch.Tensor:
    v = [0.5, 1.0, 2.0, 4.0, 0.25, 8.0] if dtype == "float8_e8m0fnu" else [0.5, -1.0, 2.0, -3.0, 0.0, 1.5]
    return torch.tensor(v).reshape(2, 3).to(getattr(torch, dtype))


@pytest.mark.parametrize("dtype", TORCH_ONLY)
@pytest.mark.parametrize("layout", ["contiguous", "transposed"])
def test_torch_only_dtypes_round_trip(dtype: str, layout: str) -> None:
    x = torch_values(dtype)
    x = x.T if layout == "transposed" else x
    g = godlpack.from_dlpack(x)
    assert g.dtype == dtype and g.data_ptr() == x.data_ptr() and g.strides == x.stride()
    assert g.tolist() == x.float().tolist()
    # PyTorch asks for max_version (1, 0); float8 is exported at the 1.1 it needs, which PyTorch reads
    # (docs/protocol.md#producer-newer-dtypes-and-devices).
    y = torch.from_dlpack(g)
    assert y.dtype == x.dtype and y.data_ptr() == x.data_ptr() and y.stride() == x.stride()
    assert torch.equal(y.float(), x.float())


def same(a: float, b: float) -> bool:
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    return a == b and math.copysign(1, a) == math.copysign(1, b)


@pytest.mark.parametrize("dtype", TORCH_ONLY[1:])
def test_minifloat_decoding_matches_torch_for_every_code(dtype: str) -> None:
    x = torch.arange(256, dtype=torch.uint8).view(getattr(torch, dtype))
    ours, theirs = godlpack.from_dlpack(x).tolist(), x.float().tolist()
    assert [i for i in range(256) if not same(ours[i], theirs[i])] == []


def encoding_probes(dtype: str) -> list[float]:
    """Values inside the format's range that are not ties, and for e8m0fnu zero, subnormals and negatives."""
    codes = torch.arange(256, dtype=torch.uint8).view(getattr(torch, dtype)).float().tolist()
    finite = sorted({v for v in codes if math.isfinite(v) and v >= 0})
    probes = [0.0, -0.0, 1e-30, -1e-30, float("nan"), float("inf") if dtype == "float8_e5m2" else 1.0]
    for lo, hi in zip(finite, finite[1:]):
        mid = (lo + hi) / 2
        probes += [lo, (lo + mid) / 2, (mid + hi) / 2]
        if dtype != "float8_e8m0fnu":
            probes += [-lo, -(mid + hi) / 2]
    if dtype == "float8_e8m0fnu":
        probes += [0.0, 2.0**-127, 1.5 * 2.0**-127, 2.0**-130, -2.0, -3.0]  # zero, subnormals, the sign ignored
    # float32-exact, so that PyTorch's float32 path and our float64 one start from the same number
    return [float(np.float32(v)) for v in probes]


@pytest.mark.parametrize("dtype", TORCH_ONLY[1:])
def test_minifloat_encoding_matches_torch(dtype: str) -> None:
    probes = encoding_probes(dtype)
    ours = [godlpack.full((), v, dtype=dtype).tolist() for v in probes]
    theirs = torch.tensor(probes, dtype=torch.float32).to(getattr(torch, dtype)).float().tolist()
    assert [(v, o, t) for v, o, t in zip(probes, ours, theirs) if not same(o, t)] == []


def test_bfloat16_encoding_and_decoding_match_torch() -> None:
    probes = [0.0, -0.0, 1.0, -2.5, 3.140625, 1e-40, 3e38, float("inf"), float("-inf"), 65504.0, 1 / 3]
    probes = [float(np.float32(v)) for v in probes]
    ours = [godlpack.full((), v, dtype="bfloat16").tolist() for v in probes]
    theirs = torch.tensor(probes, dtype=torch.float32).to(torch.bfloat16).float().tolist()
    assert [(v, o, t) for v, o, t in zip(probes, ours, theirs) if not same(o, t)] == []
    x = torch.arange(0, 65536, 97, dtype=torch.int32).to(torch.int16).view(torch.bfloat16)
    assert all(same(o, t) for o, t in zip(godlpack.from_dlpack(x).tolist(), x.float().tolist()))
    assert "bfloat16" in repr(godlpack.full((2,), 1.5, dtype="bfloat16"))
    assert "[1.5, 1.5]" in repr(godlpack.full((2,), 1.5, dtype="bfloat16"))
