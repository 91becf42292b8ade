"""docs/protocol.md#consumer: godlpack.from_dlpack, case by case.

The cases NumPy and PyTorch never produce come from hand-made capsules (dlpack_ctypes.HandMade), whose
deleter counts its calls: every test checks that it ran exactly once, after the last holder went.
Each group of tests names the section of docs/protocol.md it proves; test names start with its subject.
"""

from __future__ import annotations

import ctypes
import gc
from typing import Any, Iterator

import numpy as np
import pytest

import godlpack
from broken_tensors import BROKEN, broken
from dlpack_ctypes import (
    IS_COPIED,
    IS_SUBBYTE_TYPE_PADDED,
    READ_ONLY,
    HandMade,
    LegacyProducer,
    Producer,
    capsule_name,
    decode,
    made,
)

OUR = godlpack.DLPACK_VERSION
CPU = (1, 0)
CUDA = (2, 0)


def released(h: HandMade) -> None:
    """Once the test has dropped every holder, the producer's deleter has run exactly once."""
    gc.collect()
    assert h.deleted == 1


# ---- x: what from_dlpack takes ----
# docs/protocol.md#consumer-x


def test_x_object_with_dlpack() -> None:
    a = np.arange(5.0)
    t = godlpack.from_dlpack(a)
    assert t.data_ptr() == a.ctypes.data and t.tolist() == a.tolist()


@pytest.mark.parametrize("versioned", [False, True])
def test_x_raw_capsule_is_consumed_once(versioned: bool) -> None:
    h = made(versioned=versioned)
    capsule = h.capsule()
    t = godlpack.from_dlpack(capsule)
    assert capsule_name(capsule) == ("used_dltensor_versioned" if versioned else "used_dltensor")
    assert t.data_ptr() == h.data_address and t.tolist() == [1.0, 2.0, 3.0, 4.0]
    with pytest.raises(ValueError, match="already consumed"):
        godlpack.from_dlpack(capsule)
    with pytest.raises(ValueError, match="already consumed"):
        godlpack.from_dlpack(Producer(capsule))
    assert t.tolist() == [1.0, 2.0, 3.0, 4.0]
    assert h.deleted == 0, "the first import still holds the tensor"
    del t
    released(h)


def test_x_consumed_capsule_is_value_error() -> None:
    capsule = np.arange(3.0).__dlpack__(max_version=(1, 0))
    t = godlpack.from_dlpack(capsule)
    with pytest.raises(ValueError, match="consumed"):
        godlpack.from_dlpack(capsule)
    del t


@pytest.mark.parametrize("x", [3, [1.0, 2.0], "tensor", None, object()], ids=["int", "list", "str", "None", "object"])
def test_x_neither_is_type_error(x: Any) -> None:
    with pytest.raises(TypeError):
        godlpack.from_dlpack(x)


@pytest.mark.parametrize("name", ["", "DLTensor", "dltensor ", "dltensor_versioned_", "numpy", "usedtensor",
                                  "not_a_tensor"])
def test_x_capsule_with_another_name_is_type_error(name: str) -> None:
    h = made()
    capsule = h.capsule(name)
    with pytest.raises(TypeError, match="not a DLPack capsule"):
        godlpack.from_dlpack(capsule)
    # Not ours, so not consumed, renamed or deleted.
    assert capsule_name(capsule) == name
    assert h.deleted == 0


@pytest.mark.parametrize("result", [None, 42, "dltensor", b"", object(), (1, 0)])
def test_x_dlpack_returning_a_non_capsule_is_type_error(result: Any) -> None:
    with pytest.raises(TypeError, match="not a DLPack capsule"):
        godlpack.from_dlpack(Producer(result))


# ---- the keywords we pass ----
# docs/protocol.md#consumer-what-godlpack-asks-for


@pytest.mark.parametrize(
    "kw, sent",
    [
        ({}, {"max_version": OUR}),
        ({"device": "cpu"}, {"max_version": OUR, "dl_device": (1, 0)}),
        ({"device": (1, 0)}, {"max_version": OUR, "dl_device": (1, 0)}),
        ({"copy": True}, {"max_version": OUR, "copy": True}),
        ({"copy": False}, {"max_version": OUR, "copy": False}),
        ({"copy": None, "device": None}, {"max_version": OUR}),
    ],
    ids=["none", "cpu", "cpu-tuple", "copy", "no-copy", "explicit-none"],
)
def test_keywords_sent_to_producer(kw: dict[str, Any], sent: dict[str, Any]) -> None:
    h = made()
    p = Producer(h.capsule())
    t = godlpack.from_dlpack(p, **kw)
    assert p.calls == [sent]
    del t
    released(h)


@pytest.mark.parametrize("device", [(2, 0), (10, 1)], ids=["cuda", "rocm"])
def test_keywords_stream_only_for_cuda_or_rocm(device: tuple[int, int]) -> None:
    h = made(device=device)
    p = Producer(h.capsule(), device=device)
    t = godlpack.from_dlpack(p)
    assert p.calls == [{"max_version": OUR, "stream": -1}]
    assert t.device == device
    del t
    released(h)


@pytest.mark.parametrize("device", [(3, 0), (13, 0), (4, 0)], ids=["cuda-host", "cuda-managed", "opencl"])
def test_keywords_no_stream_for_other_devices(device: tuple[int, int]) -> None:
    h = made(device=device)
    p = Producer(h.capsule(), device=device)
    t = godlpack.from_dlpack(p)
    assert "stream" not in p.calls[0]
    del t
    released(h)


# ---- the TypeError fallback for producers that predate the keywords ----
# docs/protocol.md#consumer-older-producers


def test_fallback_calls_dlpack_without_keywords() -> None:
    h = made()
    p = Producer(h.capsule(), legacy=True)
    t = godlpack.from_dlpack(p)
    assert p.calls == [{}]
    assert t.data_ptr() == h.data_address
    del t
    released(h)


def test_fallback_device_cpu_is_checked() -> None:
    h = made()
    t = godlpack.from_dlpack(Producer(h.capsule(), legacy=True), device="cpu")
    assert t.device == CPU
    del t
    released(h)
    h = made(device=CUDA)
    with pytest.raises(BufferError):
        godlpack.from_dlpack(Producer(h.capsule(), device=CUDA, legacy=True), device="cpu")
    assert h.deleted == 1


def test_fallback_legacy_producer_with_stream_only_signature() -> None:
    a = np.arange(4.0)
    p = LegacyProducer(a)
    t = godlpack.from_dlpack(p)
    assert p.calls == [None] and t.data_ptr() == a.ctypes.data
    assert t.readonly  # a legacy capsule cannot say whether it may be written
    c = godlpack.from_dlpack(LegacyProducer(a), copy=True)
    assert c.is_copied and not c.readonly and c.tolist() == a.tolist()
    del t, c


@pytest.mark.parametrize("error", [RuntimeError("boom"), BufferError("cannot"), ValueError("no"), KeyError("k"),
                                   MemoryError()])
def test_fallback_producer_raising_other_errors_propagates(error: BaseException) -> None:
    """Only a TypeError is taken for an older producer's signature: any other exception is the caller's, unchanged."""
    with pytest.raises(type(error)) as info:
        godlpack.from_dlpack(Producer(error))
    assert info.value is error


# ---- device ----
# docs/protocol.md#consumer-device


@pytest.mark.parametrize("device", [None, "cpu", (1, 0)])
def test_device_accepted_values(device: Any) -> None:
    h = made()
    t = godlpack.from_dlpack(h.capsule(), device=device)
    assert t.device == (1, 0) and t.data_ptr() == h.data_address
    del t
    released(h)


def test_device_object_with_dlpack_device() -> None:
    h = made()
    p = Producer(h.capsule())
    t = godlpack.from_dlpack(p, device=np.zeros(1))
    assert p.calls == [{"max_version": OUR, "dl_device": (1, 0)}]
    del t
    released(h)


@pytest.mark.parametrize(
    "bad", ["cuda", "CPU", "cpu:1", (1, 1), (1,), [1, 0], 1, 2.5, (2**70, 0)],
    ids=["cuda", "CPU", "cpu:1", "cpu-1", "short", "list", "int", "float", "huge"],
)
def test_device_bad_values_are_value_error(bad: Any) -> None:
    a = np.arange(3.0)
    with pytest.raises(ValueError):
        godlpack.from_dlpack(a, device=bad)


@pytest.mark.parametrize("other", [(2, 0), "cuda:0", godlpack.Device("rocm:1")], ids=["tuple", "str", "Device"])
def test_device_elsewhere_is_asked_of_the_producer(other: Any) -> None:
    # NumPy is asked for dl_device=(2, 0) and refuses: its BufferError reaches the caller.
    with pytest.raises(BufferError):
        godlpack.from_dlpack(np.arange(3.0), device=other)


# ---- the consumer table ----
# docs/protocol.md#consumer-what-the-producer-hands-over (the copy rows: docs/protocol.md#consumer-copy)


@pytest.mark.parametrize("case", sorted(BROKEN))
@pytest.mark.parametrize("via_producer", [False, True])
def test_table_broken_tensor_is_buffer_error_and_deleted_once(case: str, via_producer: bool) -> None:
    """A broken tensor is a BufferError that names the fault; its deleter has run once when from_dlpack raises."""
    h = broken(case)
    capsule = h.capsule()
    with pytest.raises(BufferError) as info:
        godlpack.from_dlpack(Producer(capsule) if via_producer else capsule)
    message = str(info.value)
    assert message, "the message must say what is wrong"
    assert BROKEN[case].names in message, message
    if case.startswith("major version"):
        assert message.count("DLPack") == 1, message
    assert h.deleted == 1
    assert capsule_name(capsule) == "used_dltensor_versioned"
    gc.collect()
    assert h.deleted == 1


def test_table_minor_newer_than_ours_accepted_when_fields_known() -> None:
    h = made(version=(1, 99))
    t = godlpack.from_dlpack(h.capsule())
    assert t.tolist() == [1.0, 2.0, 3.0, 4.0]
    del t
    released(h)


def test_table_read_only_flag() -> None:
    h = made(flags=READ_ONLY)
    t = godlpack.from_dlpack(h.capsule())
    assert t.readonly and not t.is_copied
    assert not np.asarray(t).flags.writeable
    assert memoryview(t).readonly
    assert decode(t.__dlpack__(max_version=(1, 0))).flags & READ_ONLY
    del t
    released(h)


@pytest.mark.parametrize("via_producer", [False, True])
def test_table_legacy_capsule_is_read_only(via_producer: bool) -> None:
    """Also when the producer was asked for a versioned capsule and answered with a legacy one."""
    h = made(versioned=False)
    capsule = h.capsule()
    p = Producer(capsule)
    t = godlpack.from_dlpack(p if via_producer else capsule)
    if via_producer:
        assert p.calls[0]["max_version"] == tuple(godlpack._core.DLPACK_VERSION)
    assert t.readonly and not t.is_copied, "a legacy capsule cannot say it is writable"
    del t
    released(h)


def test_table_legacy_capsule_copy_true_is_writable() -> None:
    h = made(versioned=False)
    t = godlpack.from_dlpack(h.capsule(), copy=True)
    assert h.deleted == 1
    assert not t.readonly and t.is_copied and t.tolist() == [1.0, 2.0, 3.0, 4.0]
    memoryview(t).cast("B")[0] = 1  # writable
    del t


@pytest.mark.parametrize("versioned, legacy", [(True, False), (False, True), (True, True)],
                         ids=["ignores-copy", "older-producer", "older-producer-versioned-capsule"])
def test_table_copy_true_answered_without_a_copy_is_copied_by_us(versioned: bool, legacy: bool) -> None:
    """A producer that ignores copy=True (or predates it: docs/protocol.md#consumer-older-producers) and shares
    its memory: we copy, then let it go."""
    h = made(versioned=versioned, flags=0)
    p = Producer(h.capsule(), legacy=legacy)
    t = godlpack.from_dlpack(p, copy=True)
    assert t.is_copied and not t.readonly
    assert t.data_ptr() != h.data_address
    assert h.deleted == 1, "the producer's tensor is released as soon as it is copied"
    assert t.tolist() == [1.0, 2.0, 3.0, 4.0]
    (ctypes.c_float * 4).from_buffer(h.buffer)[0] = -1.0
    assert t.tolist() == [1.0, 2.0, 3.0, 4.0]
    np.asarray(t)[1] = 20.0
    assert t.tolist() == [1.0, 20.0, 3.0, 4.0]


def test_table_is_copied_set_but_memory_shared_cannot_be_detected() -> None:
    """IS_COPIED is the producer's promise that nobody else uses the memory; we take it at its word."""
    h = made(flags=IS_COPIED)
    t = godlpack.from_dlpack(h.capsule())
    assert t.is_copied and not t.readonly
    assert t.data_ptr() == h.data_address
    del t
    released(h)


@pytest.mark.parametrize("via_producer", [False, True])
def test_table_is_copied_with_copy_false_is_buffer_error(via_producer: bool) -> None:
    h = made(flags=IS_COPIED)
    capsule = h.capsule()
    with pytest.raises(BufferError, match="IS_COPIED"):
        godlpack.from_dlpack(Producer(capsule) if via_producer else capsule, copy=False)
    assert h.deleted == 1


def test_table_copy_true_producer_copied_is_kept() -> None:
    h = made(flags=IS_COPIED)
    t = godlpack.from_dlpack(Producer(h.capsule()), copy=True)
    assert t.is_copied and t.data_ptr() == h.data_address  # no second copy
    del t
    released(h)


@pytest.mark.parametrize("versioned, version", [(False, (0, 0)), (True, (1, 0)), (True, (1, 1))],
                         ids=["legacy", "1.0", "1.1"])
def test_table_null_strides_before_1_2_is_c_contiguous(versioned: bool, version: tuple[int, int]) -> None:
    h = made((2, 3), strides=None, versioned=versioned, version=version)
    h.struct.dl_tensor.strides = None
    t = godlpack.from_dlpack(h.capsule())
    assert t.strides == (3, 1) and t.tolist() == [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]
    del t
    released(h)


def test_table_null_data_without_elements_is_accepted() -> None:
    h = made((0, 3), null_data=True)
    t = godlpack.from_dlpack(h.capsule())
    assert t.shape == (0, 3) and t.size == 0 and t.tolist() == []
    del t
    released(h)


@pytest.mark.parametrize("versioned", [False, True])
def test_table_byte_offset_honoured(versioned: bool) -> None:
    h = made((2, 2), versioned=versioned, byte_offset=8)
    t = godlpack.from_dlpack(h.capsule())
    assert t.data_ptr() == h.data_address + 8
    assert t.tolist() == [[3.0, 4.0], [5.0, 6.0]]
    d = decode(t.__dlpack__(max_version=(1, 3), copy=True))
    assert d.byte_offset == 0
    del t
    released(h)


@pytest.mark.parametrize("device", [(1, 0), (3, 0), (11, 0), (13, 0)], ids=["cpu", "cuda-host", "rocm-host", "cuda-managed"])
def test_table_cpu_accessible_devices_are_readable(device: tuple[int, int]) -> None:
    h = made(device=device)
    t = godlpack.from_dlpack(h.capsule())
    assert t.device == device and t.tolist() == [1.0, 2.0, 3.0, 4.0]
    assert np.asarray(t).tolist() == [1.0, 2.0, 3.0, 4.0]
    del t
    released(h)


@pytest.mark.parametrize("device", [(2, 0), (2, 3), (10, 0), (4, 1), (8, 0)], ids=["cuda", "cuda-3", "rocm", "opencl", "metal"])
def test_table_other_devices_pass_through(device: tuple[int, int]) -> None:
    h = made(device=device)
    t = godlpack.from_dlpack(h.capsule())
    assert t.device == device == t.__dlpack_device__()
    assert t.data_ptr() == h.data_address and t.shape == (4,)
    for read in (t.tolist, lambda: memoryview(t)):
        with pytest.raises(BufferError):
            read()
    # NumPy turns a refused buffer into a 0-d object array holding the Tensor: no data is read.
    assert np.asarray(t).dtype == object
    assert "4 elements" in repr(t)
    d = decode(t.__dlpack__(max_version=(1, 3), stream=1))
    assert d.device == device and d.data == h.data_address
    x = godlpack.from_dlpack(t)  # one godlpack Tensor to another, still on the device
    assert x.device == device
    del t, x
    released(h)


def test_table_other_device_with_device_cpu_asks_producer_for_host_copy() -> None:
    host = made()
    p = Producer(host.capsule(), device=CUDA)
    t = godlpack.from_dlpack(p, device="cpu")
    assert p.calls == [{"max_version": OUR, "dl_device": (1, 0), "stream": -1}]
    assert t.device == CPU
    del t
    released(host)


@pytest.mark.parametrize("announced", [CPU, CUDA], ids=["announced-cpu", "announced-cuda"])
@pytest.mark.parametrize("device", ["cpu", CPU], ids=["str", "tuple"])
def test_table_other_device_with_device_cpu_not_met_is_buffer_error(announced: tuple[int, int], device: Any) -> None:
    """The capsule's own device is the truth, whatever __dlpack_device__ announced: not the CPU that was asked."""
    h = made(device=CUDA)
    p = Producer(h.capsule(), device=announced)
    with pytest.raises(BufferError, match="device='cpu' was asked for"):
        godlpack.from_dlpack(p, device=device)
    assert p.calls[0]["dl_device"] == CPU
    assert h.deleted == 1


@pytest.mark.parametrize("via_producer", [False, True])
def test_table_other_device_copy_true_not_met_is_buffer_error(via_producer: bool) -> None:
    h = made(device=CUDA)
    capsule = h.capsule()
    with pytest.raises(BufferError, match="not CPU-accessible"):
        godlpack.from_dlpack(Producer(capsule, device=CUDA) if via_producer else capsule, copy=True)
    assert h.deleted == 1


def test_table_unknown_dtype_passes_through_on_other_devices() -> None:
    h = made(device=CUDA, dtype=(2, 24, 4))
    t = godlpack.from_dlpack(h.capsule())
    assert decode(t.__dlpack__(max_version=(1, 3))).dtype == (2, 24, 4)
    del t
    released(h)


# ---- sub-byte dtypes ----
# docs/protocol.md#dtypes-sub-byte


def test_sub_byte_padded_is_readable() -> None:
    h = HandMade(shape=(3,), strides=(1,), dtype=(17, 4, 1), flags=IS_SUBBYTE_TYPE_PADDED)
    h.buffer[0], h.buffer[1], h.buffer[2] = 0x1, 0x7, 0xA  # 0.5, 6, -1 in float4_e2m1fn
    t = godlpack.from_dlpack(h.capsule())
    assert t.tolist() == [0.5, 6.0, -1.0] and t.itemsize == 1
    del t
    released(h)


def test_sub_byte_packed_refuses_element_reads() -> None:
    h = HandMade(shape=(4,), strides=(1,), dtype=(17, 4, 1))
    t = godlpack.from_dlpack(h.capsule())
    assert t.dtype == "float4_e2m1fn" and t.size == 4
    for read in (t.tolist, lambda: memoryview(t)):
        with pytest.raises(BufferError):
            read()
    c = godlpack.from_dlpack(t, copy=True)  # a copy of packed bytes stays packed
    assert c.is_copied and c.data_ptr() != h.data_address
    assert decode(c.__dlpack__(max_version=(1, 3))).flags == 0
    del t, c
    released(h)


# ---- the capsule is ours at once; the deleter runs when the last holder goes ----
# docs/protocol.md#consumer-ownership


def test_deleter_runs_once_after_every_re_export() -> None:
    h = made()
    t = godlpack.from_dlpack(h.capsule())
    a = np.from_dlpack(t)
    c = t.__dlpack__(max_version=(1, 3))
    u = godlpack.from_dlpack(t)
    del t
    gc.collect()
    assert h.deleted == 0
    assert a.tolist() == [1.0, 2.0, 3.0, 4.0] == u.tolist()
    del a, c, u
    released(h)


@pytest.fixture(autouse=True)
def _no_stray_references() -> Iterator[None]:
    yield
    gc.collect()
