"""CUDA pass-through, for real: run on a machine with an NVIDIA GPU (skipped without one).

    python -m pytest -v tests/gpu          # or: python tests/gpu/test_cuda.py, which prints each check

godlpack never reads CUDA memory: it keeps the device and hands the same pointer on. These checks cover
PyTorch's __dlpack__ and C exchange API paths, CuPy, a host copy asked with device="cpu", and copy=True
refused on device data (docs/protocol.md).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

torch = pytest.importorskip("torch")
if not torch.cuda.is_available():
    pytest.skip("needs a CUDA device", allow_module_level=True)

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "support"))  # also run as a script

import godlpack  # noqa: E402
from dlpack_ctypes import decode  # noqa: E402

CUDA = 2


class OnlyDLPack:
    """A producer with __dlpack__ alone, to force the __dlpack__ path and record the stream it is given."""

    def __init__(self, t: Any) -> None:
        self.t, self.streams = t, []

    def __dlpack__(self, **kw: Any) -> Any:
        self.streams.append(kw.get("stream"))
        return self.t.__dlpack__(**kw)

    def __dlpack_device__(self) -> Any:
        return self.t.__dlpack_device__()


def test_torch_cuda_round_trip_through_the_exchange_api() -> None:
    x = torch.arange(6.0, device="cuda").reshape(2, 3)
    g = godlpack.from_dlpack(x)  # torch.Tensor's own table: no __dlpack__ call, no stream
    assert g.device == (CUDA, x.device.index) and g.data_ptr() == x.data_ptr() and g.shape == (2, 3)
    y = torch.from_dlpack(g)
    assert y.device == x.device and y.data_ptr() == x.data_ptr()
    y.add_(1)
    torch.cuda.synchronize()
    assert x.tolist() == [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]


def test_torch_cuda_through_dlpack_passes_stream_minus_one() -> None:
    x = torch.arange(4.0, device="cuda")
    p = OnlyDLPack(x)
    g = godlpack.from_dlpack(p)
    assert p.streams == [-1], "we never touch device data, so nothing needs ordering"
    assert g.device == (CUDA, x.device.index) and g.data_ptr() == x.data_ptr()
    with pytest.raises(BufferError):
        g.tolist()  # device memory is never read on the CPU
    d = decode(g.__dlpack__(max_version=(1, 3), stream=7))  # any int stream for device data
    assert d.device == (CUDA, x.device.index) and d.data == x.data_ptr()


def test_cupy_to_godlpack_to_torch() -> None:
    cupy = pytest.importorskip("cupy")
    a = cupy.arange(5, dtype=cupy.float32)
    g = godlpack.from_dlpack(a)
    assert g.device == (CUDA, a.device.id) and g.data_ptr() == a.data.ptr
    t = torch.from_dlpack(g)
    assert t.data_ptr() == a.data.ptr and t.device.type == "cuda"
    t.mul_(2)
    assert cupy.asnumpy(a).tolist() == [0.0, 2.0, 4.0, 6.0, 8.0]


def test_device_cpu_asks_the_producer_for_a_host_copy() -> None:
    x = torch.arange(3.0, device="cuda")
    try:
        g = godlpack.from_dlpack(x, device="cpu")
    except BufferError as e:  # a producer may refuse a cross-device copy: then it says so
        pytest.skip(f"PyTorch {torch.__version__} refused a host copy: {e}")
    assert g.device == (1, 0) and g.tolist() == [0.0, 1.0, 2.0]


def test_copy_true_on_device_data_is_refused() -> None:
    g = godlpack.from_dlpack(torch.arange(3.0, device="cuda"))
    with pytest.raises(BufferError, match="not CPU-accessible"):
        g.__dlpack__(copy=True, max_version=(1, 3))
    with pytest.raises(BufferError):
        godlpack.from_dlpack(g, copy=True)


if __name__ == "__main__":
    sys.exit(pytest.main(["-v", __file__]))
