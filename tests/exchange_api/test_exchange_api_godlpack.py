"""The C exchange API godlpack offers (type(t).__dlpack_c_exchange_api__), every function pointer called.

docs/protocol.md#the-c-exchange-api. The calls go through tests/support/exchange_api.py, a ctypes model of the
table proven against PyTorch's own (tests/exchange_api/test_exchange_api_torch.py). The Tensor of every Go
extension (normalize.Tensor) has the same table; tests/support/exporter_exchange_worker.py calls it in a process of
its own.
"""

from __future__ import annotations

import ctypes
import gc
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import torch

import godlpack
from child_env import SUPPORT, child_env
from dlpack_ctypes import READ_ONLY, decode_dltensor, decode_managed
from exchange_api import (
    AllocationError,
    allocate,
    current_work_stream,
    dltensor_from_py_object,
    from_py_object,
    release,
    table_of,
    to_py_object,
    watch_deleter,
)
from go_examples import build_normalize

TABLE = table_of(godlpack.Tensor)


def address(managed: Any) -> int:
    return ctypes.cast(managed, ctypes.c_void_p).value or 0


def test_header() -> None:
    assert TABLE.version == godlpack.DLPACK_VERSION == (1, 3)
    assert TABLE.prev_api is None
    for name in ("managed_tensor_allocator", "managed_tensor_from_py_object_no_sync",
                 "managed_tensor_to_py_object_no_sync", "dltensor_from_py_object_no_sync", "current_work_stream"):
        assert TABLE.pointer(name) is not None, name
    # On the type, one table for the process.
    assert "__dlpack_c_exchange_api__" in godlpack.Tensor.__dict__
    assert table_of(godlpack.Tensor).address == TABLE.address


@pytest.mark.parametrize(
    "make",
    [
        lambda: godlpack.arange(6, dtype="float32"),
        lambda: godlpack.from_dlpack(np.arange(12.0).reshape(3, 4)[::2, ::-3]),
        lambda: godlpack.full((), 2.5, dtype="float64"),
        lambda: godlpack.zeros((0, 3), dtype="int16"),
        lambda: godlpack.full(3, 1.5, dtype="float8_e4m3fn"),
        lambda: godlpack.from_dlpack(torch.arange(4.0).expand(3, 4)),
    ],
    ids=["contiguous", "strided-numpy", "0-d", "empty", "float8", "broadcast"],
)
def test_from_py_object_shares_memory_and_deletes_once(make: Any) -> None:
    t = make()
    before = godlpack._core._live_storages()
    managed = from_py_object(TABLE, t)
    d = decode_managed(address(managed))
    assert d.version == (1, 3) and d.flags == 0 and d.byte_offset == 0
    assert d.data == t.data_ptr() or (t.size == 0 and d.data != 0)
    assert d.device == t.device and d.dtype == (t.dtype.code, t.dtype.bits, t.dtype.lanes)
    assert d.shape == (t.shape if t.ndim else None) and d.strides == (t.strides if t.ndim else None)
    watch = watch_deleter(managed)
    del t
    gc.collect()
    assert godlpack._core._live_storages() == before, "the exported tensor holds the storage"
    release(managed)  # without the GIL, as a consumer outside Python would
    assert watch.calls == 1


def test_from_py_object_of_read_only_sets_read_only() -> None:
    t = godlpack.from_dlpack(np.arange(3.0).__dlpack__())  # a legacy capsule: read-only
    assert t.readonly
    managed = from_py_object(TABLE, t)
    assert decode_managed(address(managed)).flags == READ_ONLY
    release(managed)


def test_from_py_object_of_a_stranger_is_type_error() -> None:
    with pytest.raises(TypeError, match="ndarray"):
        from_py_object(TABLE, np.zeros(2))


def test_dltensor_from_py_object_borrows() -> None:
    t = godlpack.from_dlpack(np.arange(12, dtype=np.int32).reshape(3, 4).T)
    got = dltensor_from_py_object(TABLE, t)
    assert got is not None
    d = decode_dltensor(got)
    assert d.data == t.data_ptr() and d.shape == (4, 3) and d.strides == (1, 4) and d.dtype == (0, 32, 1)
    assert d.byte_offset == 0 and d.device == (1, 0)


def test_to_py_object_wraps_and_owns() -> None:
    x = torch.arange(6.0).reshape(2, 3)
    managed = from_py_object(table_of(torch.Tensor), x)  # any valid versioned tensor
    watch = watch_deleter(managed)
    t = to_py_object(TABLE, managed)
    assert type(t) is godlpack.Tensor and t.data_ptr() == x.data_ptr() and t.tolist() == x.tolist()
    assert not t.readonly and t.shape == (2, 3)
    assert watch.calls == 0
    del t
    gc.collect()
    assert watch.calls == 1


def test_to_py_object_of_a_broken_tensor_deletes_it_and_raises() -> None:
    x = torch.arange(3.0)
    managed = from_py_object(table_of(torch.Tensor), x)
    watch = watch_deleter(managed)
    managed.contents.version.major = 2
    with pytest.raises(BufferError, match="major version"):
        to_py_object(TABLE, managed)
    assert watch.calls == 1


@pytest.mark.parametrize("gil", [True, False], ids=["with-gil", "without-gil"])
def test_allocator_makes_a_tensor_like_its_prototype(gil: bool) -> None:
    before = godlpack._core._live_storages()
    managed = allocate(TABLE, (2, 32, 1), (2, 3), gil=gil)
    d = decode_managed(address(managed))
    assert d.version == (1, 3) and d.flags == 0 and d.shape == (2, 3) and d.strides == (3, 1)
    assert d.dtype == (2, 32, 1) and d.device == (1, 0) and d.data % 64 == 0
    assert godlpack._core._live_storages() == before + 1
    t = to_py_object(TABLE, managed)  # and it is writable memory of ours
    np.from_dlpack(t)[...] = 7
    assert t.tolist() == [[7.0] * 3] * 2
    del t
    gc.collect()
    assert godlpack._core._live_storages() == before


@pytest.mark.parametrize(
    "dtype, shape, device, kind",
    [
        ((2, 32, 1), (2,), (2, 0), "BufferError"),
        ((2, 24, 1), (2,), (1, 0), "ValueError"),
        ((2, 32, 1), (-1,), (1, 0), "ValueError"),
        ((2, 32, 1), (2**62, 4), (1, 0), "ValueError"),
        ((2, 32, 1), (2**40, 2**20), (1, 0), "MemoryError"),
    ],
    ids=["cuda", "unknown-dtype", "negative", "overflow", "too-large"],
)
def test_allocator_reports_errors_through_set_error(dtype: tuple[int, int, int], shape: tuple[int, ...],
                                                     device: tuple[int, int], kind: str) -> None:
    before = godlpack._core._live_storages()
    with pytest.raises(AllocationError) as info:
        allocate(TABLE, dtype, shape, device, gil=False)
    assert info.value.kind == kind and info.value.message
    assert godlpack._core._live_storages() == before


def test_current_work_stream_is_null() -> None:
    assert current_work_stream(TABLE, 1, 0) is None
    assert current_work_stream(TABLE, 2, 0) is None


def test_exporter_table(tmp_path: Path) -> None:
    """normalize.Tensor's table, every function, in a process of its own (examples/normalize)."""
    where = build_normalize(tmp_path)
    done = subprocess.run([sys.executable, str(SUPPORT / "exporter_exchange_worker.py")],
                          capture_output=True, text=True, env=child_env(where), timeout=300)
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stdout + done.stderr


# ---- tvm-ffi, a consumer and producer that prefers the exchange API ----

tvm_ffi = pytest.importorskip("tvm_ffi")


def test_tvm_ffi_imports_godlpack_zero_copy() -> None:
    g = godlpack.arange(6, dtype="float32")
    x = tvm_ffi.from_dlpack(g)  # through our table
    assert x.data_ptr() == g.data_ptr() and tuple(x.shape) == (6,)
    np.from_dlpack(x)[0] = 42.0
    assert g.tolist()[0] == 42.0


def test_godlpack_imports_tvm_ffi_zero_copy() -> None:
    a = np.arange(4.0)
    x = tvm_ffi.from_dlpack(a)
    g = godlpack.from_dlpack(x)
    assert g.data_ptr() == a.ctypes.data and g.tolist() == [0.0, 1.0, 2.0, 3.0] and not g.readonly


def test_tvm_ffi_drops_read_only() -> None:
    # Our table marks read-only tensors READ_ONLY; tvm-ffi 0.1 ignores the flag (a tvm-ffi limitation, in
    # docs/protocol.md): its tensor is writable through NumPy.
    ro = godlpack.from_dlpack(np.arange(3.0).__dlpack__())
    x = tvm_ffi.from_dlpack(ro)
    assert x.data_ptr() == ro.data_ptr()
