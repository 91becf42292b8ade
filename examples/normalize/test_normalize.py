"""Tests of the example extension `normalize`, run in a process of their own.

This file does not import godlpack, to show the extension stands alone
(tests/runtime/test_runtimes.py uses the two together). `make example-test`
builds the module into a directory on PYTHONPATH and runs this file.
"""

from __future__ import annotations

import gc
import inspect
import sys

import numpy as np
import pytest
import torch

import normalize


def test_module_is_not_godlpack() -> None:
    assert "godlpack" not in sys.modules
    assert normalize.normalize.__doc__ and "float32" in normalize.normalize.__doc__
    assert str(inspect.signature(normalize.normalize)) == (
        "(x: 'tensor[float32, writable]') -> 'Tensor[float64, (2)]'")


@pytest.mark.parametrize("view", [False, True])
def test_numpy_in_place(view: bool) -> None:
    base = np.arange(24, dtype=np.float32).reshape(4, 6)
    x = base[::2, ::-2] if view else base
    before = x.copy()
    address = x.__array_interface__["data"][0]
    stats = normalize.normalize(x)
    want = (before - before.mean()) / before.std()
    np.testing.assert_allclose(x, want, rtol=1e-5, atol=1e-6)  # x's own memory changed
    assert x.__array_interface__["data"][0] == address
    if view:  # elements outside the view are untouched
        assert base[1, 0] == 6 and base[3, 5] == 23
    s = np.from_dlpack(stats)
    assert s.dtype == np.float64 and s.shape == (2,)
    np.testing.assert_allclose(s, [before.mean(), before.std()], rtol=1e-6)


def test_torch_in_place_and_result() -> None:
    x = torch.linspace(-3, 5, 10, dtype=torch.float32).reshape(2, 5).t()
    before = x.clone()
    ptr = x.data_ptr()
    stats = torch.from_dlpack(normalize.normalize(x))
    assert x.data_ptr() == ptr
    torch.testing.assert_close(x, (before - before.mean()) / before.std(unbiased=False), rtol=1e-5, atol=1e-5)
    torch.testing.assert_close(stats, torch.tensor([before.mean().item(), before.std(unbiased=False).item()],
                                                   dtype=torch.float64), rtol=1e-6, atol=1e-6)


def test_result_protocol() -> None:
    stats = normalize.normalize(np.ones(3, dtype=np.float32))
    assert stats.__dlpack_device__() == (1, 0)
    legacy = stats.__dlpack__()
    assert "dltensor" in repr(legacy) and "versioned" not in repr(legacy)
    copied = np.from_dlpack(stats, copy=True)
    shared = np.from_dlpack(stats)
    assert list(copied) == [1.0, 0.0] and list(shared) == [1.0, 0.0]
    with pytest.raises(BufferError):
        stats.__dlpack__(dl_device=(2, 0))
    del stats, legacy
    gc.collect()
    assert list(shared) == [1.0, 0.0]  # the pinned Go memory lives as long as its consumer


def test_refusals() -> None:
    ro = np.ones(4, dtype=np.float32)
    ro.flags.writeable = False
    with pytest.raises(BufferError, match="read-only"):
        normalize.normalize(ro)
    with pytest.raises(TypeError, match="float64"):
        normalize.normalize(np.ones(4))
    with pytest.raises(TypeError):
        normalize.normalize(1.5)
    with pytest.raises(TypeError, match="missing required argument 'x'"):
        normalize.normalize()


def test_exporter_stream_rules_for_cpu_data() -> None:
    stats = normalize.normalize(np.arange(4, dtype=np.float32))
    stats.__dlpack__(stream=-1)  # no synchronisation: accepted
    stats.__dlpack__(stream=None)
    for bad in (0, 1, 2**70):
        with pytest.raises(ValueError, match="must be None or -1 for CPU data"):
            stats.__dlpack__(stream=bad)
    with pytest.raises(TypeError):
        stats.__dlpack__(stream=True)
    gc.collect()
