"""NumPy arrays read from their C struct: the same tensor their __dlpack__ hands over, without the call.

docs/protocol.md#consumer-what-godlpack-asks-for. godlpack.from_dlpack (and every import but copy=True or a device
asked for) reads an exact ndarray's data, dtype, shape and strides itself, into a managed tensor that holds the
array. Each test compares it with the other path, the array behind a __dlpack__ of its own.
"""

from __future__ import annotations

import gc
import sys
import threading
from typing import Any

import numpy as np
import pytest
import torch

import godlpack
from dlpack_ctypes import decode
from numpy_views import Forwarding, arrays, counting_subclass, refused


def seen(t: godlpack.Tensor) -> tuple[Any, ...]:
    """What a consumer of t sees (its version aside, which is godlpack's own on both paths)."""
    d = decode(t.__dlpack__(max_version=(1, 3)))
    return d.data, d.device, d.dtype, d.shape, d.strides, d.flags


@pytest.mark.parametrize("x", arrays(), ids=lambda x: f"{x.dtype}-{x.shape}-{x.strides}")
def test_the_struct_path_imports_what_dlpack_exports(x: np.ndarray) -> None:
    direct, forwarded = godlpack.from_dlpack(x), godlpack.from_dlpack(Forwarding(x))
    assert seen(direct) == seen(forwarded)
    assert (direct.shape, direct.strides, direct.dtype) == (forwarded.shape, forwarded.strides, forwarded.dtype)
    back = np.from_dlpack(direct)
    assert np.shares_memory(back, x) or x.size == 0
    assert back.flags.writeable == x.flags.writeable and np.array_equal(back, x)


def test_what_dlpack_refuses_keeps_its_words() -> None:
    for x in refused():
        with pytest.raises(BufferError) as want:
            x.__dlpack__()
        with pytest.raises(BufferError) as got:
            godlpack.from_dlpack(x)
        assert str(got.value) == str(want.value)


def test_copy_and_device_requests_ask_dlpack() -> None:
    x = np.arange(4.0)
    c = godlpack.from_dlpack(x, copy=True)
    assert not np.shares_memory(np.from_dlpack(c), x) and np.from_dlpack(c).tolist() == x.tolist()
    assert np.shares_memory(np.from_dlpack(godlpack.from_dlpack(x, device="cpu", copy=False)), x)


def test_the_tensor_holds_the_array_until_its_last_holder_lets_go() -> None:
    x = np.arange(6.0)
    before = sys.getrefcount(x)
    t = godlpack.from_dlpack(x)
    assert sys.getrefcount(x) == before + 1
    with pytest.raises(ValueError):
        x.resize(12)  # NumPy refuses to move memory another object holds
    # The last holder is torch, which lets go on another thread.
    tt = torch.from_dlpack(t)
    del t
    assert sys.getrefcount(x) == before + 1
    done = threading.Event()

    def drop() -> None:
        nonlocal tt
        del tt
        done.set()

    worker = threading.Thread(target=drop)
    worker.start()
    worker.join()
    gc.collect()
    assert done.is_set() and sys.getrefcount(x) == before


def test_a_subclass_asks_its_own_dlpack() -> None:
    s = counting_subclass()
    assert np.from_dlpack(godlpack.from_dlpack(s)).tolist() == [0.0, 1.0, 2.0] and type(s).calls == 1
