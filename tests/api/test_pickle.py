"""pickle, copy.copy and copy.deepcopy of godlpack.Tensor.

A tensor pickles as the raw bytes of its elements with its dtype, shape and strides: protocol 5 hands pickle a
PickleBuffer over the tensor's own memory, so that a caller keeping buffers out of band moves no byte and
loads a tensor over that very memory; protocols 0 to 4, and protocol 5 in band, copy the bytes, and the
loaded tensor is a writable copy of its own. Elements that fill their memory without gaps keep their strides;
any other layout comes back C-contiguous, as NumPy's arrays do. Data the CPU cannot read is refused.
"""

from __future__ import annotations

import copy
import ctypes
import gc
import itertools
import multiprocessing
import pickle
import textwrap
from typing import Any, Callable, Optional, Sequence

import numpy as np
import pytest
import torch

import fork_workers
import godlpack
import lifetime_helpers as lh
from dlpack_ctypes import IS_SUBBYTE_TYPE_PADDED, READ_ONLY, HandMade, contiguous_strides, decode, read_bytes

live = godlpack._core._live_storages
PROTOCOLS = list(range(pickle.HIGHEST_PROTOCOL + 1))
DEADLINE = 120.0  # a spawn worker imports NumPy and godlpack before it answers

# Every dtype of the table (dlpack/dtype.go), then vector dtypes, whose bytes no buffer format describes.
TABLE = [
    "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16", "float32",
    "float64", "bfloat16", "complex32", "complex64", "complex128", "float8_e3m4", "float8_e4m3",
    "float8_e4m3b11fnuz", "float8_e4m3fn", "float8_e4m3fnuz", "float8_e5m2", "float8_e5m2fnuz", "float8_e8m0fnu",
    "float6_e2m3fn", "float6_e3m2fn", "float4_e2m1fn",
]  # fmt: skip
VECTORS = ["float32x4", "int16x3", "bfloat16x2", "float4_e2m1fnx2", "float8_e5m2x4"]


def pattern(n: int, dtype: str) -> bytes:
    """n bytes that tell elements apart (0 and 1 only for bool, whose other bytes are no value)."""
    if dtype == "bool":
        return bytes(i % 2 for i in range(n))
    return bytes((i * 37 + 11) % 256 for i in range(n))


def filled(shape: Sequence[int], dtype: str) -> godlpack.Tensor:
    """A C-contiguous tensor of our own memory holding pattern()'s bytes."""
    t = godlpack.empty(shape, dtype=dtype)
    if t.nbytes:
        ctypes.memmove(t.data_ptr(), pattern(t.nbytes, dtype), t.nbytes)
    return t


def element_bytes(t: godlpack.Tensor) -> bytes:
    """The bytes of t's elements in C order, read with ctypes where t's capsule says they are."""
    d = decode(t.__dlpack__(max_version=(1, 3)))
    shape = d.shape or ()  # None for ndim 0
    if t.itemsize == 0:  # packed sub-byte elements: contiguous, no address of their own
        return read_bytes(d.data + d.byte_offset, t.nbytes)
    strides = d.strides if d.strides is not None else contiguous_strides(shape)
    out = bytearray()
    for index in itertools.product(*(range(n) for n in shape)):
        offset = sum(i * s for i, s in zip(index, strides)) * t.itemsize
        out += read_bytes(d.data + d.byte_offset + offset, t.itemsize)
    return bytes(out)


def address(buffer: Any) -> int:
    """The address of the first byte of any object with the buffer protocol."""
    return int(np.frombuffer(buffer, dtype=np.uint8).ctypes.data)


def out_of_band(t: Any) -> tuple[bytes, list[pickle.PickleBuffer]]:
    """Protocol 5 with the buffers kept out of band: the pickle, and the buffers to load it with."""
    buffers: list[pickle.PickleBuffer] = []
    data = pickle.dumps(t, protocol=5, buffer_callback=buffers.append)
    return data, buffers


def pickled_without_buffers(t: Any) -> bytes:
    """The protocol 5 pickle alone, its buffers dropped: loads needs buffers of the caller's."""
    return pickle.dumps(t, protocol=5, buffer_callback=lambda _: False)


def assert_same_tensor(r: godlpack.Tensor, t: godlpack.Tensor, strides: Optional[tuple[int, ...]] = None) -> None:
    assert type(r) is godlpack.Tensor
    assert r.dtype == t.dtype and r.shape == t.shape and r.itemsize == t.itemsize and r.nbytes == t.nbytes
    assert r.strides == (t.strides if strides is None else strides)
    assert r.device == (1, 0)
    assert element_bytes(r) == element_bytes(t)


# ---- every dtype, every protocol ----


@pytest.mark.parametrize("protocol", PROTOCOLS)
@pytest.mark.parametrize("dtype", TABLE + VECTORS)
def test_every_dtype_round_trips_in_band_as_a_writable_copy(dtype: str, protocol: int) -> None:
    t = filled((2, 3), dtype)
    r = pickle.loads(pickle.dumps(t, protocol=protocol))
    assert_same_tensor(r, t)
    assert not r.readonly and r.data_ptr() != t.data_ptr()
    ctypes.memset(r.data_ptr(), 0, r.nbytes)  # r's memory is its own: t is untouched
    assert element_bytes(t) == pattern(t.nbytes, dtype)


@pytest.mark.parametrize("dtype", TABLE + VECTORS)
def test_every_dtype_out_of_band_is_zero_copy(dtype: str) -> None:
    t = filled((3, 2), dtype)
    data, buffers = out_of_band(t)
    assert len(buffers) == 1 and buffers[0].raw().nbytes == t.nbytes and address(buffers[0]) == t.data_ptr()
    assert len(data) < 200  # the elements are not in the pickle
    r = pickle.loads(data, buffers=buffers)
    assert_same_tensor(r, t)
    assert r.data_ptr() == t.data_ptr() and not r.readonly


def test_sub_byte_types_padded_and_packed() -> None:
    padded = godlpack.full((5,), 1.5, dtype="float4_e2m1fn")  # godlpack makes sub-byte elements a byte each
    assert padded.itemsize == 1
    hand = HandMade(shape=(5,), strides=(1,), dtype=(17, 4, 1), nbytes=3)  # packed: 5 four-bit values in 3 bytes
    ctypes.memmove(hand.buffer, bytes([0x21, 0x43, 0x05]), 3)
    packed = godlpack.from_dlpack(hand.capsule())
    assert packed.itemsize == 0 and packed.nbytes == 3
    for t in (padded, packed):
        for protocol in PROTOCOLS:
            r = pickle.loads(pickle.dumps(t, protocol=protocol))
            assert_same_tensor(r, t)
            if t is padded:  # packed elements have no address of their own to read one by one
                assert r.tolist() == t.tolist() == [1.5] * 5
            flags = decode(r.__dlpack__(max_version=(1, 3))).flags
            assert bool(flags & IS_SUBBYTE_TYPE_PADDED) == (t is padded)
        data, buffers = out_of_band(t)
        assert pickle.loads(data, buffers=buffers).data_ptr() == t.data_ptr()
        assert_same_tensor(copy.copy(t), t)
    del packed, t, buffers
    assert hand.deleted == 1


# ---- shapes and layouts ----


@pytest.mark.parametrize("shape", [(), (0,), (3, 0, 2), (1,), (1, 1, 4)], ids=str)
@pytest.mark.parametrize("protocol", [2, 5])
def test_zero_d_and_empty(shape: tuple[int, ...], protocol: int) -> None:
    t = filled(shape, "float64")
    r = pickle.loads(pickle.dumps(t, protocol=protocol))
    assert_same_tensor(r, t)
    assert r.tolist() == t.tolist() and not r.readonly
    data, buffers = out_of_band(t)
    r = pickle.loads(data, buffers=buffers)
    assert_same_tensor(r, t)
    if t.size:
        assert r.data_ptr() == t.data_ptr()


def test_dense_layouts_keep_their_strides() -> None:
    """Fortran order and any order of the axes: the elements travel as they lie, zero-copy out of band."""
    base = np.arange(24, dtype=np.int32).reshape(2, 3, 4)
    for a in (np.asfortranarray(base), base.transpose(1, 2, 0), base.transpose(2, 0, 1)):
        t = godlpack.from_dlpack(a)
        assert t.strides == tuple(s // 4 for s in a.strides) and t.strides != contiguous_strides(t.shape)
        for protocol in PROTOCOLS:
            r = pickle.loads(pickle.dumps(t, protocol=protocol))
            assert_same_tensor(r, t)
            assert np.array_equal(np.from_dlpack(r), a)
        data, buffers = out_of_band(t)
        r = pickle.loads(data, buffers=buffers)
        assert r.strides == t.strides and r.data_ptr() == t.data_ptr() == a.ctypes.data
        for c in (copy.copy(t), copy.deepcopy(t)):
            assert_same_tensor(c, t)
            assert c.data_ptr() != t.data_ptr()


@pytest.mark.parametrize(
    "make",
    [
        lambda: np.arange(24.0).reshape(4, 6)[:, ::2],
        lambda: np.arange(24.0).reshape(4, 6)[::-1, 1:4],
        lambda: np.arange(10.0)[::3],
        lambda: np.broadcast_to(np.arange(3.0), (4, 3)),
        lambda: np.broadcast_to(np.float64(7.0), (2, 2, 2)),
    ],
    ids=["every-other-column", "reversed-rows", "step-3", "broadcast-rows", "broadcast-scalar"],
)
def test_gapped_strided_and_broadcast_come_back_c_contiguous(make: Callable[[], np.ndarray]) -> None:
    a = make()
    t = godlpack.from_dlpack(a)
    c_strides = contiguous_strides(a.shape)
    for protocol in PROTOCOLS:
        r = pickle.loads(pickle.dumps(t, protocol=protocol))
        assert_same_tensor(r, t, strides=c_strides)
        assert np.array_equal(np.from_dlpack(r), a)
    # Out of band, the buffer is a C-contiguous copy of every element (broadcasts included), not the source.
    data, buffers = out_of_band(t)
    assert buffers[0].raw().nbytes == a.size * 8 == t.nbytes
    r = pickle.loads(data, buffers=buffers)
    assert_same_tensor(r, t, strides=c_strides)
    assert address(buffers[0]) == r.data_ptr() != t.data_ptr()
    for c in (copy.copy(t), copy.deepcopy(t)):
        assert_same_tensor(c, t, strides=c_strides)


def test_strided_exotic_dtypes_are_copied_byte_for_byte() -> None:
    """A strided bfloat16 and a strided padded float4: copied by their bytes, whatever they mean."""
    for dtype, flags, itemsize in (((4, 16, 1), 0, 2), ((17, 4, 1), IS_SUBBYTE_TYPE_PADDED, 1), ((2, 32, 4), 0, 16)):
        hand = HandMade(shape=(3, 2), strides=(4, 3), dtype=dtype, flags=flags, nbytes=12 * itemsize)
        ctypes.memmove(hand.buffer, pattern(12 * itemsize, ""), 12 * itemsize)
        t = godlpack.from_dlpack(hand.capsule())
        for protocol in (0, 4, 5):
            assert_same_tensor(pickle.loads(pickle.dumps(t, protocol=protocol)), t, strides=(2, 1))
        assert_same_tensor(copy.deepcopy(t), t, strides=(2, 1))
        del t
        assert hand.deleted == 1


# ---- read-only ----


def readonly_tensor() -> tuple[godlpack.Tensor, np.ndarray]:
    a = np.arange(6.0).reshape(2, 3)
    a.flags.writeable = False
    t = godlpack.from_dlpack(a)
    assert t.readonly
    return t, a


def test_read_only_out_of_band_stays_read_only() -> None:
    t, a = readonly_tensor()
    data, buffers = out_of_band(t)
    assert buffers[0].raw().readonly
    r = pickle.loads(data, buffers=buffers)
    assert r.readonly and r.data_ptr() == a.ctypes.data
    assert not np.from_dlpack(r).flags.writeable
    # A writable buffer given for the read-only one: pickle hands _rebuild a read-only view of it.
    r = pickle.loads(data, buffers=[bytearray(t.nbytes)])
    assert r.readonly


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_read_only_in_band_loads_writable(protocol: int) -> None:
    t, a = readonly_tensor()
    r = pickle.loads(pickle.dumps(t, protocol=protocol))
    assert not r.readonly and r.is_copied and r.tolist() == a.tolist()
    np.from_dlpack(r)[0, 0] = 42.0  # written in r's own memory
    assert a[0, 0] == 0.0


def test_writable_out_of_band_shares_memory_both_ways() -> None:
    a = np.arange(4.0)
    t = godlpack.from_dlpack(a)
    data, buffers = out_of_band(t)
    r = pickle.loads(data, buffers=buffers)
    assert not r.readonly and not r.is_copied
    np.from_dlpack(r)[1] = -1.0
    assert a[1] == -1.0


def test_out_of_band_buffers_of_every_kind() -> None:
    """_rebuild wraps any C-contiguous buffer it is given, at the buffer's address; bytes alone are copied."""
    t = filled((4,), "bfloat16")
    data, _ = out_of_band(t)
    raw = element_bytes(t)
    ba = bytearray(raw)
    r = pickle.loads(data, buffers=[ba])
    assert not r.readonly and r.data_ptr() == address(ba) and element_bytes(r) == raw
    with pytest.raises(BufferError):
        ba.append(0)  # held by r's Py_buffer
    del r
    ba.append(0)  # released with r
    held = np.frombuffer(raw, dtype=np.uint8)  # read-only, over the bytes object
    r = pickle.loads(data, buffers=[memoryview(raw)])
    assert r.readonly and r.data_ptr() == held.ctypes.data
    r = pickle.loads(data, buffers=[np.frombuffer(bytearray(raw), dtype=np.uint16)])
    assert not r.readonly and element_bytes(r) == raw
    r = pickle.loads(data, buffers=[raw])  # a bytes object: copied into writable memory of our own
    assert not r.readonly and r.is_copied and r.data_ptr() != held.ctypes.data and element_bytes(r) == raw
    with pytest.raises(ValueError, match="needs 8 bytes, the buffer holds 7"):
        pickle.loads(data, buffers=[bytearray(7)])
    with pytest.raises(ValueError, match="needs 8 bytes, the buffer holds 9"):
        pickle.loads(data, buffers=[raw + b"x"])
    with pytest.raises((BufferError, ValueError), match="contiguous"):
        pickle.loads(data, buffers=[np.zeros(16, dtype=np.uint8)[::2]])


# ---- imported tensors, deleters, storages ----


def test_numpy_and_torch_backed_tensors() -> None:
    for source in (np.arange(12, dtype=np.float32).reshape(3, 4), torch.arange(12, dtype=torch.bfloat16).reshape(3, 4)):
        t = godlpack.from_dlpack(source)
        values = t.tolist()
        for protocol in PROTOCOLS:
            assert pickle.loads(pickle.dumps(t, protocol=protocol)).tolist() == values
        data, buffers = out_of_band(t)
        del t
        r = pickle.loads(data, buffers=buffers)
        del buffers
        assert r.tolist() == values
        address_ = source.ctypes.data if isinstance(source, np.ndarray) else source.data_ptr()
        assert r.data_ptr() == address_
        back = torch.from_dlpack(r)
        assert back.data_ptr() == address_ and back.dtype == (torch.float32 if isinstance(source, np.ndarray) else torch.bfloat16)


@pytest.mark.parametrize("order", list(itertools.permutations(range(4))), ids=str)
def test_deleter_runs_once_in_any_order(order: tuple[int, ...]) -> None:
    """The producer's tensor, its godlpack Tensor, the PickleBuffers and the loaded tensor, dropped in any order."""
    hand = HandMade(shape=(4,), strides=(1,))
    base = live()
    t = godlpack.from_dlpack(hand.capsule())
    data, buffers = out_of_band(t)
    r = pickle.loads(data, buffers=buffers)
    assert live() == base + 2  # the import, and the Py_buffer the loaded tensor holds
    holders: list[Any] = [t, buffers, r, r.__dlpack__(max_version=(1, 3))]
    del t, buffers, r
    for i, k in enumerate(order):
        assert hand.deleted == 0
        holders[k] = None
        gc.collect()
    assert hand.deleted == 1 and live() == base


def test_copies_release_nothing_of_the_source() -> None:
    hand = HandMade(shape=(4,), strides=(1,))
    ctypes.memmove(hand.buffer, np.arange(4, dtype=np.float32).tobytes(), 16)
    t = godlpack.from_dlpack(hand.capsule())
    copies = [pickle.loads(pickle.dumps(t, protocol=p)) for p in PROTOCOLS] + [copy.copy(t), copy.deepcopy(t)]
    del t
    assert hand.deleted == 1  # none of the copies holds the producer's memory
    ctypes.memset(hand.buffer, 0, 16)
    assert all(c.tolist() == [0.0, 1.0, 2.0, 3.0] and not c.readonly for c in copies)


def test_storage_counter_counts_the_buffer_holder() -> None:
    base = live()
    ba = bytearray(16)
    data = pickled_without_buffers(godlpack.zeros(4, dtype="float32"))
    assert live() == base
    r = pickle.loads(data, buffers=[ba])
    assert live() == base + 1
    del r
    assert live() == base


# ---- devices ----


def test_device_data_is_refused_with_a_buffer_error() -> None:
    hand = HandMade(shape=(4,), strides=(1,), device=(2, 0))
    t = godlpack.from_dlpack(hand.capsule())
    for protocol in PROTOCOLS:
        with pytest.raises(BufferError, match=r"cannot pickle a tensor on device \(2, 0\).*CPU cannot read"):
            pickle.dumps(t, protocol=protocol)
    for f in (copy.copy, copy.deepcopy):
        with pytest.raises(BufferError, match=r"cannot copy a tensor on device \(2, 0\)"):
            f(t)
    del t
    assert hand.deleted == 1


def test_cpu_accessible_devices_load_on_the_cpu() -> None:
    hand = HandMade(shape=(4,), strides=(1,), device=(3, 0))  # CUDA host memory: the CPU reads it
    ctypes.memmove(hand.buffer, np.arange(4, dtype=np.float32).tobytes(), 16)
    t = godlpack.from_dlpack(hand.capsule())
    assert t.device == (3, 0)
    data, buffers = out_of_band(t)
    for r in (pickle.loads(pickle.dumps(t)), copy.copy(t), pickle.loads(data, buffers=buffers)):
        assert r.device == (1, 0) and r.tolist() == [0.0, 1.0, 2.0, 3.0]
    del t, r, buffers
    gc.collect()
    assert hand.deleted == 1


# ---- copy and deepcopy ----


@pytest.mark.parametrize("dtype", TABLE + VECTORS)
def test_copy_and_deepcopy_every_dtype(dtype: str) -> None:
    t = filled((2, 3), dtype)
    for c in (copy.copy(t), copy.deepcopy(t)):
        assert_same_tensor(c, t)
        assert c.data_ptr() != t.data_ptr() and not c.readonly and c.is_copied


def test_copies_are_independent_and_writable() -> None:
    t, a = readonly_tensor()
    for c in (copy.copy(t), copy.deepcopy(t)):
        assert not c.readonly and c.tolist() == a.tolist()
        np.from_dlpack(c)[...] = 0
        assert a.sum() == 15.0
    w = godlpack.arange(3)
    c = copy.copy(w)
    np.from_dlpack(w)[0] = 9
    assert c.tolist() == [0, 1, 2]


def test_deepcopy_keeps_shared_references_shared() -> None:
    t = godlpack.arange(3)
    first, second = copy.deepcopy([t, t])
    assert first is second and first is not t and first.tolist() == [0, 1, 2]


# ---- _rebuild's arguments ----


@pytest.mark.parametrize(
    "args, error, match",
    [
        ((b"", (2, 32, 1), (0,), None), TypeError, "exactly 5 arguments"),
        ((b"", [2, 32, 1], (0,), None, False), TypeError, "dtype must be a tuple"),
        ((b"", (2, 24, 1), (0,), None, False), ValueError, "no \\(code, bits, lanes\\)"),
        ((b"", (2, 32), (0,), None, False), ValueError, "no \\(code, bits, lanes\\)"),
        ((b"", (2, 32, 1), (-1,), None, False), ValueError, "cannot hold"),
        ((b"", (2, 32, 1), (1.0,), None, False), TypeError, "shape must hold ints"),
        ((b"", (2, 32, 1), (1,) * 65, None, False), ValueError, "more than the 64"),
        ((b"", (2, 32, 1), (0,), None, 0), TypeError, "padded must be a bool"),
        ((bytes(16), (2, 32, 1), (2, 2), (2, 2), False), ValueError, "do not lay out"),
        ((bytes(16), (2, 32, 1), (2, 2), (1,), False), ValueError, "do not lay out"),
        ((bytes(16), (2, 32, 1), (4,), (-1,), False), ValueError, "do not lay out"),
        ((bytes(16), (2, 32, 1), (2, 2), (4, 1), False), ValueError, "do not lay out"),
        ((bytes(2), (17, 4, 1), (2, 2), (1, 2), False), ValueError, "do not lay out"),  # packed: C order only
        ((bytes(15), (2, 32, 1), (4,), None, False), ValueError, "needs 16 bytes"),
        ((42, (2, 32, 1), (4,), None, False), TypeError, "bytes-like object is required"),
    ],
)
def test_rebuild_refuses_what_no_tensor_pickles_to(args: tuple[Any, ...], error: type, match: str) -> None:
    with pytest.raises(error, match=match):
        godlpack._core._rebuild(*args)


def test_rebuild_takes_permuted_strides_and_ignores_padding_of_whole_bytes() -> None:
    r = godlpack._core._rebuild(bytes(range(6)), (1, 8, 1), (2, 3), (1, 2), True)
    assert r.strides == (1, 2) and r.tolist() == [[0, 2, 4], [1, 3, 5]]
    assert decode(r.__dlpack__(max_version=(1, 3))).flags & IS_SUBBYTE_TYPE_PADDED == 0


# ---- processes and threads ----


def test_round_trip_through_a_spawn_pool() -> None:
    a = np.arange(12, dtype=np.float64).reshape(3, 4)
    sent = [
        filled((2, 3), "bfloat16"),
        filled((4,), "float8_e4m3fn"),
        filled((2,), "float32x4"),
        filled((), "complex128"),
        filled((0, 3), "int16"),
        godlpack.full((3,), 1.5, dtype="float4_e2m1fn"),
        godlpack.from_dlpack(a.T),
        godlpack.from_dlpack(a[:, ::2]),
        readonly_tensor()[0],
    ]
    ctx = multiprocessing.get_context("spawn")
    with ctx.Pool(1) as pool:
        got = pool.apply_async(fork_workers.echo_tensors, (sent,)).get(timeout=DEADLINE)
    assert got["live"] == len(sent) + 1  # the worker held what it received and what it made
    assert repr(got["lists"]) == repr([t.tolist() for t in sent])  # repr: float8 patterns hold NaNs
    for t, r in zip(sent, got["tensors"]):
        gapped = t is sent[7]  # every other column: sent C-contiguous
        assert_same_tensor(r, t, strides=contiguous_strides(t.shape) if gapped else None)
        assert not r.readonly
    assert got["made"].tolist() == [0.0, 1.0, 2.0] and got["made"].dtype == "bfloat16"


def test_release_on_a_foreign_thread_takes_the_gil() -> None:
    """The last holder of a buffer-backed tensor is a pthread without Python: the Py_buffer is released there."""
    ba = bytearray(16)
    r = pickle.loads(pickled_without_buffers(godlpack.zeros(4, dtype="float32")), buffers=[ba])
    capsule = r.__dlpack__(max_version=(1, 3))
    del r
    with pytest.raises(BufferError):
        ba.append(0)
    lh.delete_on_thread(capsule)
    ba.append(0)  # the thread released the buffer


PRELUDE = """
import ctypes, gc, pickle, sys
import numpy as np, godlpack
import lifetime_helpers as lh
"""


def run_to_exit(body: str) -> str:
    return lh.run_to_exit(PRELUDE + textwrap.dedent(body))


def test_loaded_tensors_alive_at_exit() -> None:
    out = run_to_exit(
        """
        t = godlpack.arange(4)
        data = pickle.dumps(t, protocol=5, buffer_callback=lambda b: False)
        kept = [pickle.loads(data, buffers=[b]) for b in (bytearray(32), memoryview(bytes(32)), np.zeros(4))]
        kept += [np.from_dlpack(kept[0]), kept[1].__dlpack__(max_version=(1, 3)), memoryview(kept[2])]
        gc.disable()
        cycle = [pickle.loads(data, buffers=[bytearray(32)])]
        cycle.append(cycle)
        print("alive", godlpack._core._live_storages())
        """
    )
    assert out == "alive 5\n"


def test_c_holder_of_a_loaded_tensor_outlives_the_interpreter() -> None:
    """Released from exit(), after Py_FinalizeEx: the Py_buffer leaks, nothing crashes."""
    out = run_to_exit(
        """
        data = pickle.dumps(godlpack.arange(4), protocol=5, buffer_callback=lambda b: False)
        for buffer in (bytearray(32), np.zeros(4)):
            r = pickle.loads(data, buffers=[buffer])
            pointer, versioned = lh.take(r.__dlpack__(max_version=(1, 3)))
            assert lh.lib().lt_keep_until_exit(pointer, int(versioned)) == 0
        del r, buffer
        gc.collect()
        print("kept", godlpack._core._live_storages(), flush=True)
        """
    )
    assert out == "kept 2\nlifetime-helper: 2 deleters ran after finalize\n"
