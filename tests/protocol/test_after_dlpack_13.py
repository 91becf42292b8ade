"""Producers as they are, and DLPack after 1.3 (dmlc/dlpack main).

Paddle answers __dlpack_device__() with (DLDeviceType.kDLCPU, None), which NumPy accepts; main adds the type code
kDLBcomplex (18) and the device types kDLTPU (19), kDLTPUHost (20, pinned host memory the CPU reads) and
kDLAscend (21).
"""

from __future__ import annotations

import enum
import gc
import struct
from typing import Any

import numpy as np
import pytest

import godlpack
from dlpack_ctypes import HandMade, Producer, contiguous_strides, decode


# docs/protocol.md#consumer-producers-as-they-are


class DLDeviceType(enum.IntEnum):
    """As Paddle's: the device types as an IntEnum."""

    kDLCPU = 1
    kDLCUDA = 2


class PaddleLike:
    """A producer that answers __dlpack_device__() as Paddle 3.3 does, over a NumPy array."""

    def __init__(self, array: np.ndarray, device: tuple[Any, Any] = (DLDeviceType.kDLCPU, None)) -> None:
        self.array = array
        self.device = device
        self.asked: list[dict[str, Any]] = []

    def __dlpack__(self, **kwargs: Any) -> Any:
        self.asked.append(kwargs)
        if kwargs.get("dl_device") is not None:
            kwargs["dl_device"] = (1, 0)  # NumPy's own check would refuse nothing else here
        return self.array.__dlpack__(**kwargs)

    def __dlpack_device__(self) -> tuple[Any, Any]:
        return self.device


@pytest.mark.parametrize("dtype", [np.float32, np.complex64, np.int8])
def test_paddles_device_answer_is_accepted_on_every_path(dtype: Any) -> None:
    a = np.arange(4).astype(dtype)
    p = PaddleLike(a)
    assert godlpack.from_dlpack(p).data_ptr() == a.ctypes.data
    copied = godlpack.from_dlpack(p, copy=True)
    assert copied.is_copied and copied.data_ptr() != a.ctypes.data and copied.tolist() == a.tolist()
    for device in ("cpu", (1, 0), godlpack.Device("cpu:0")):
        assert godlpack.from_dlpack(p, device=device).data_ptr() == a.ctypes.data
    # What NumPy itself does with the same producer.
    assert np.from_dlpack(p).tolist() == a.tolist()
    if dtype is not np.complex64:
        assert godlpack.ops.sum(p) == a.sum()


def test_none_device_id_is_only_the_cpus() -> None:
    p = PaddleLike(np.arange(3.0), device=(DLDeviceType.kDLCUDA, None))
    with pytest.raises(TypeError, match="only a CPU's id may be None"):
        godlpack.from_dlpack(p)
    assert p.asked == [], "__dlpack__ must not be called when __dlpack_device__ is refused"


def test_intenum_device_of_a_capsule_producer() -> None:
    h = HandMade(shape=(4,), strides=(1,))
    t = godlpack.from_dlpack(Producer(h.capsule(), device=(DLDeviceType.kDLCPU, None)))  # type: ignore[arg-type]
    assert t.device == (1, 0)
    del t
    gc.collect()
    assert h.deleted == 1


# ---- bcomplex ----
# docs/protocol.md#consumer-dlpack-after-13


def bfloat16_bits(x: float) -> int:
    """The bfloat16 of a float32 exactly representable in bfloat16."""
    return int(struct.unpack("<I", struct.pack("<f", x))[0] >> 16)


def bcomplex(values: list[complex], device: tuple[int, int] = (1, 0)) -> HandMade:
    h = HandMade(shape=(len(values),), strides=contiguous_strides((len(values),)), dtype=(18, 32, 1),
                 device=device, nbytes=4 * len(values))
    words = []
    for v in values:
        words += [bfloat16_bits(v.real), bfloat16_bits(v.imag)]
    np.frombuffer(h.buffer, dtype=np.uint16)[:] = words
    return h


VALUES = [1.5 - 2j, 0j, -0.25 + 1024j, 3 + 0.5j]


def test_bcomplex_is_imported_readable() -> None:
    h = bcomplex(VALUES)
    t = godlpack.from_dlpack(h.capsule())
    assert t.dtype == "bcomplex32" and t.dtype.code == 18 and t.dtype.bits == 32 and t.itemsize == 4
    assert t.tolist() == VALUES and all(type(v) is complex for v in t.tolist())
    assert str(t) == str(np.array(VALUES))
    assert "bcomplex32" in repr(t) and "(1.5-2j)" in repr(t)
    with pytest.raises(BufferError, match="no buffer format"):
        memoryview(t)
    del t
    gc.collect()
    assert h.deleted == 1


def test_bcomplex_is_exported_back_unchanged() -> None:
    h = bcomplex(VALUES)
    t = godlpack.from_dlpack(h.capsule())
    d = decode(t.__dlpack__(max_version=(1, 3)))
    assert d.dtype == (18, 32, 1) and d.data == h.data_address and d.version == (1, 3)
    # Only a consumer of 1.3 can be told about a type code that came after it; a legacy one is refused.
    with pytest.raises(BufferError, match="needs DLPack 1.3"):
        t.__dlpack__()
    again = godlpack.from_dlpack(t)
    assert again.tolist() == VALUES and again.data_ptr() == h.data_address
    copied = godlpack.from_dlpack(t, copy=True)
    assert copied.tolist() == VALUES and copied.data_ptr() != h.data_address
    del t, again, copied
    gc.collect()
    assert h.deleted == 1


def test_bcomplex_is_made() -> None:
    t = godlpack.full(3, 1.5 - 2j, dtype="bcomplex32")
    assert t.tolist() == [1.5 - 2j] * 3 and godlpack.DType("bcomplex32").__dlpack_data_type__() == (18, 32, 1)
    assert godlpack.arange(3, dtype="bcomplex32").tolist() == [0j, 1 + 0j, 2 + 0j]
    assert godlpack.zeros(2, dtype="bcomplex32").tolist() == [0j, 0j]


# ---- the device types after 1.3 ----


@pytest.mark.parametrize("device, name, readable", [((19, 0), "tpu", False), ((20, 1), "tpu_host", True),
                                                    ((21, 3), "ascend", False)])
def test_new_devices_are_named_and_passed_through(device: tuple[int, int], name: str, readable: bool) -> None:
    h = HandMade(shape=(4,), strides=(1,), device=device)
    np.frombuffer(h.buffer, dtype=np.float32)[:4] = [0, 1, 2, 3]
    t = godlpack.from_dlpack(h.capsule())
    assert t.device == device and t.device.type == name and t.device.index == device[1]
    assert str(t.device) == f"{name}:{device[1]}" and godlpack.Device(f"{name}:{device[1]}") == device
    d = decode(t.__dlpack__(max_version=(1, 3)))
    assert d.device == device and d.data == h.data_address
    if readable:
        # Pinned host memory, as CUDA's: read in place, and exported to the CPU on request.
        assert t.tolist() == [0.0, 1.0, 2.0, 3.0] and np.asarray(memoryview(t)).tolist() == [0.0, 1.0, 2.0, 3.0]
        assert decode(t.__dlpack__(dl_device=(1, 0), max_version=(1, 3))).device == (1, 0)
        assert godlpack.from_dlpack(t, device="cpu").device == (1, 0)
    else:
        for read in (t.tolist, lambda: memoryview(t), lambda: godlpack.from_dlpack(t, copy=True)):
            with pytest.raises(BufferError):
                read()
        assert "<4 elements>" in repr(t) and str(t) == repr(t)
    assert repr(t).endswith(f"device='{name}:{device[1]}')"), "repr names the device as str(t.device) reads"
    del t
    gc.collect()
    assert h.deleted == 1




def test_a_producers_own_cpu_id_is_its_business() -> None:
    # A caller asking for "cpu:1" is wrong (ValueError); a producer that says its CPU memory is device 1 is read.
    h = HandMade(shape=(4,), strides=(1,))
    t = godlpack.from_dlpack(Producer(h.capsule(), device=(1, 1)))
    assert t.device == (1, 0) and t.shape == (4,)
    del t
    gc.collect()
    assert h.deleted == 1
