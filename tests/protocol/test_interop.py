"""Zero-copy round trips between NumPy, PyTorch and godlpack, in every direction."""

from __future__ import annotations

import gc
from typing import Any, Callable

import numpy as np
import pytest
import torch

import godlpack

DTYPES = ["float32", "float64", "int64", "bool", "uint8", "float16", "complex64"]
TORCH = {
    "float32": torch.float32,
    "float64": torch.float64,
    "int64": torch.int64,
    "bool": torch.bool,
    "uint8": torch.uint8,
    "float16": torch.float16,
    "complex64": torch.complex64,
}


def address(x: Any) -> int:
    """The address of x's first element, as its own library reports it."""
    if isinstance(x, np.ndarray):
        return int(x.__array_interface__["data"][0])
    return int(x.data_ptr())


def numpy_source(dtype: str, view: bool) -> np.ndarray:
    a = np.arange(24).reshape(4, 6)
    a = (a % 2 == 1) if dtype == "bool" else a.astype(dtype)
    return a[::2, 1::2] if view else a


def torch_source(dtype: str, view: bool) -> torch.Tensor:
    return torch.from_numpy(np.ascontiguousarray(numpy_source(dtype, False))).clone()[::2, 1::2] if view else (
        torch.from_numpy(numpy_source(dtype, False)).clone()
    )


def godlpack_source(dtype: str, view: bool) -> godlpack.Tensor:
    assert not view, "godlpack makes only contiguous tensors; views come from the peers"
    return godlpack.full((4, 6), True if dtype == "bool" else 3, dtype=dtype)


def marker(dtype: str) -> Any:
    return {"bool": False, "complex64": 1 + 2j}.get(dtype, 42)


def first(x: Any) -> Any:
    """Element (0, …, 0) of a NumPy array, a torch tensor or a godlpack Tensor, as a Python scalar."""
    if isinstance(x, godlpack.Tensor):
        v = x.tolist()
        for _ in range(x.ndim):
            v = v[0]
        return v
    return x[(0,) * x.ndim].item()


def write_first(x: Any, value: Any) -> None:
    x[(0,) * x.ndim] = value


SOURCES: dict[str, Callable[[str, bool], Any]] = {
    "numpy": numpy_source,
    "torch": torch_source,
    "godlpack": godlpack_source,
}
CONSUMERS: dict[str, Callable[[Any], Any]] = {"numpy": np.from_dlpack, "torch": torch.from_dlpack}


ROUND_TRIPS = [
    pytest.param(producer, consumer, dtype, view, id=f"{producer}-{consumer}-{dtype}-{'view' if view else 'contiguous'}")
    for producer in SOURCES
    for consumer in CONSUMERS
    for dtype in DTYPES
    for view in ([False] if producer == "godlpack" else [False, True])
]


@pytest.mark.parametrize("producer, consumer, dtype, view", ROUND_TRIPS)
def test_round_trip_shares_memory(producer: str, consumer: str, dtype: str, view: bool) -> None:
    source = SOURCES[producer](dtype, view)
    middle = source if producer == "godlpack" else godlpack.from_dlpack(source)
    out = CONSUMERS[consumer](middle)

    assert tuple(out.shape) == tuple(source.shape) == middle.shape
    assert middle.dtype == dtype
    assert str(out.dtype).removeprefix("torch.") == dtype
    expected = source.tolist()
    assert out.tolist() == expected == middle.tolist()

    # Zero copy, proven twice: one address everywhere, and a write on one side seen on the other.
    assert address(out) == address(source) == middle.data_ptr()
    assert not middle.readonly
    write_first(out, marker(dtype))
    assert first(source) == marker(dtype)
    assert first(middle) == marker(dtype)


@pytest.mark.parametrize("dtype", DTYPES)
def test_view_strides_pass_through(dtype: str) -> None:
    a = numpy_source(dtype, True)
    t = godlpack.from_dlpack(a)
    assert t.strides == tuple(s // a.itemsize for s in a.strides)
    assert t.shape == a.shape
    back = np.from_dlpack(t)
    assert back.strides == a.strides


def test_transposed_torch_view() -> None:
    x = torch.arange(12, dtype=torch.float32).reshape(3, 4).T
    t = godlpack.from_dlpack(x)
    assert t.shape == (4, 3) and t.strides == (1, 4)
    y = torch.from_dlpack(t)
    assert y.stride() == x.stride() and y.data_ptr() == x.data_ptr()
    assert torch.equal(x, y)


def test_tensor_properties() -> None:
    t = godlpack.zeros((2, 3, 4), dtype="float64")
    assert t.shape == (2, 3, 4)
    assert t.strides == (12, 4, 1)
    assert t.ndim == 3 and t.size == 24 and t.itemsize == 8 and t.nbytes == 192
    assert t.dtype == "float64" and str(t.dtype) == "float64"
    assert (t.dtype.code, t.dtype.bits, t.dtype.lanes) == (2, 64, 1)
    assert t.device == (1, 0) == t.__dlpack_device__()
    assert t.readonly is False and t.is_copied is False
    assert t.data_ptr() % 64 == 0
    assert "shape=(2, 3, 4)" in repr(t) and "float64" in repr(t)


@pytest.mark.parametrize(
    "make, expected",
    [
        (lambda: godlpack.zeros(3, dtype="int32"), [0, 0, 0]),
        (lambda: godlpack.full((2,), 1.5, dtype="float16"), [1.5, 1.5]),
        (lambda: godlpack.full((2, 1), -7, dtype="int8"), [[-7], [-7]]),
        (lambda: godlpack.full(2, 1 + 1j, dtype="complex128"), [1 + 1j, 1 + 1j]),
        (lambda: godlpack.arange(5), [0, 1, 2, 3, 4]),
        (lambda: godlpack.arange(3, dtype="float32"), [0.0, 1.0, 2.0]),
        (lambda: godlpack.full((), True, dtype="bool"), True),
        (lambda: godlpack.empty((0, 3)), []),
    ],
)
def test_creation(make: Callable[[], godlpack.Tensor], expected: Any) -> None:
    assert make().tolist() == expected


def test_dtype_api() -> None:
    f = godlpack.DType("float32")
    assert f == "float32" and f != "float64" and f == godlpack.zeros(1, dtype="float32").dtype
    assert hash(f) == hash("float32")
    assert f.itemsize == 4 and f.name == "float32"
    with pytest.raises(TypeError, match="not understood"):
        godlpack.DType("float33")
    assert godlpack.DLPACK_VERSION == (1, 3)
    assert isinstance(godlpack.__version__, str)


class TestLifetimes:
    def test_storage_freed_after_del(self) -> None:
        gc.collect()
        base = godlpack._core._live_storages()
        a = np.arange(10.0)
        t = godlpack.from_dlpack(a)
        b = torch.from_dlpack(t)
        c = np.from_dlpack(t)
        assert godlpack._core._live_storages() == base + 1
        del t
        gc.collect()
        # b and c still hold the storage through their own capsules' deleters.
        assert godlpack._core._live_storages() == base + 1
        assert b[3].item() == 3.0 and c[4] == 4.0
        del b, c
        gc.collect()
        assert godlpack._core._live_storages() == base

    def test_unconsumed_capsule_frees_its_tensor(self) -> None:
        gc.collect()
        base = godlpack._core._live_storages()
        t = godlpack.arange(4)
        capsule = t.__dlpack__(max_version=(1, 3))
        legacy = t.__dlpack__()
        del t
        gc.collect()
        assert godlpack._core._live_storages() == base + 1
        del capsule, legacy
        gc.collect()
        assert godlpack._core._live_storages() == base

    def test_upstream_deleter_runs_once_when_last_holder_goes(self) -> None:
        import weakref

        a = np.arange(6.0)
        alive = weakref.ref(a)
        t = godlpack.from_dlpack(a)
        # NumPy's deleter releases its reference to the array: it must happen
        # only when both our Tensor and the array's own name are gone.
        del a
        gc.collect()
        assert alive() is not None
        del t
        gc.collect()
        assert alive() is None


@pytest.mark.parametrize(
    "make",
    [
        lambda: torch.ones(3, requires_grad=True),
        lambda: torch.tensor([1 + 2j, 3 - 4j]).conj(),
    ],
    ids=["requires-grad", "conjugate-bit"],
)
def test_torch_refusals_reach_the_caller(make: Callable[[], torch.Tensor]) -> None:
    # PyTorch's own __dlpack__ refuses these (a conjugate view would otherwise be read unconjugated).
    # Its __dlpack_c_exchange_api__ exports them; from_dlpack answers as the __dlpack__ path does
    # (docs/protocol.md#exchange-api-one-result-whatever-the-path).
    with pytest.raises(BufferError):
        godlpack.from_dlpack(make())
