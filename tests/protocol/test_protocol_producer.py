"""docs/protocol.md#producer: Tensor.__dlpack__ / __dlpack_device__, case by case.

Every capsule is read with the independent ctypes decoder (dlpack_ctypes.decode), never with godlpack.
Each group of tests names the section of docs/protocol.md it proves; test names start with its subject.
"""

from __future__ import annotations

import ctypes
import gc
from typing import Any, Iterator, Optional

import numpy as np
import pytest
import torch

import godlpack
from dlpack_ctypes import (
    IS_COPIED,
    IS_SUBBYTE_TYPE_PADDED,
    READ_ONLY,
    DLManagedTensor,
    DLManagedTensorVersioned,
    HandMade,
    _api,
    capsule_name,
    contiguous_strides,
    decode,
    legacy_consume,
    made,
    read_bytes,
)

OUR_MINOR = godlpack.DLPACK_VERSION[1]
CUDA = (2, 0)


def arange(n: int = 6, dtype: str = "float32") -> godlpack.Tensor:
    return godlpack.arange(n, dtype=dtype)


def readonly_tensor() -> godlpack.Tensor:
    a = np.arange(4, dtype=np.float32)
    a.flags.writeable = False
    t = godlpack.from_dlpack(a)
    assert t.readonly
    return t


class PassThrough:
    """A Tensor on a device the CPU cannot read (CUDA), imported from a hand-made capsule."""

    def __init__(self) -> None:
        self.source = made(device=CUDA)
        self.tensor = godlpack.from_dlpack(self.source.capsule())

    def close(self) -> None:
        del self.tensor
        gc.collect()
        assert self.source.deleted == 1


@pytest.fixture
def cuda() -> Iterator[PassThrough]:
    p = PassThrough()
    yield p  # not the Tensor itself: pytest keeps the yielded value alive through teardown
    p.close()


# ---- arguments: keyword-only ----
# docs/protocol.md#producer-arguments


def test_arguments_positional_is_type_error() -> None:
    with pytest.raises(TypeError):
        arange().__dlpack__(None)


def test_arguments_unknown_keyword_is_type_error() -> None:
    with pytest.raises(TypeError):
        arange().__dlpack__(version=(1, 0))


# ---- max_version ----
# docs/protocol.md#producer-max_version


@pytest.mark.parametrize("max_version", [None, (0, 0), (0, 7)], ids=["None", "0.0", "0.7"])
def test_max_version_none_or_major_0_gives_legacy_capsule(max_version: Any) -> None:
    d = decode(arange().__dlpack__(max_version=max_version))
    assert d.name == "dltensor" and not d.versioned and d.version is None and d.has_deleter


@pytest.mark.parametrize(
    "max_version, version",
    [
        ((1, 0), (1, 0)),
        ((1, 1), (1, 1)),
        ((1, OUR_MINOR), (1, OUR_MINOR)),
        ((1, 99), (1, OUR_MINOR)),
        ((1, 2**70), (1, OUR_MINOR)),
        ((2, 0), (1, OUR_MINOR)),
        ((2**70, 0), (1, OUR_MINOR)),
    ],
    ids=["1.0", "1.1", "1.ours", "1.99", "1.huge", "2.0", "huge.0"],
)
def test_max_version_major_1_or_more_gives_versioned_capsule(max_version: Any, version: Any) -> None:
    d = decode(arange().__dlpack__(max_version=max_version))
    assert d.name == "dltensor_versioned" and d.versioned and d.has_deleter
    assert d.version == version


@pytest.mark.parametrize(
    "bad",
    [[1, 0], 1, "1.0", (1,), (1, 0, 0), (1.0, 0), (1, "0"), (-1, 0), (1, -1), (-(2**70), 0)],
    ids=["list", "int", "str", "short", "long", "float", "str-minor", "negative-major", "negative-minor", "huge-negative"],
)
def test_max_version_bad_value_is_type_error(bad: Any) -> None:
    with pytest.raises(TypeError):
        arange().__dlpack__(max_version=bad)


def test_max_version_struct_layouts() -> None:
    """The capsule holds exactly the struct its name promises: the deleter sits where each layout puts it."""
    t = arange()
    for max_version, cls in [(None, DLManagedTensor), ((1, 0), DLManagedTensorVersioned)]:
        capsule = t.__dlpack__(max_version=max_version)
        m = cls.from_address(_api.PyCapsule_GetPointer(capsule, capsule_name(capsule).encode()))
        assert m.dl_tensor.data == t.data_ptr() and m.dl_tensor.ndim == 1 and m.dl_tensor.shape[0] == 6
        assert m.deleter and m.manager_ctx


# ---- stream ----
# docs/protocol.md#producer-stream


@pytest.mark.parametrize("stream", [None, -1])
def test_stream_none_or_minus_1_on_cpu_data(stream: Optional[int]) -> None:
    assert decode(arange().__dlpack__(stream=stream, max_version=(1, 3))).versioned


@pytest.mark.parametrize("stream", [0, 1, 2, 7, -2, 2**70])
def test_stream_other_ints_on_cpu_data_are_value_error(stream: int) -> None:
    with pytest.raises(ValueError):
        arange().__dlpack__(stream=stream)


@pytest.mark.parametrize("stream", [1.0, "1", True, (1,)], ids=["float", "str", "bool", "tuple"])
def test_stream_non_int_is_type_error(stream: Any) -> None:
    with pytest.raises(TypeError):
        arange().__dlpack__(stream=stream)


@pytest.mark.parametrize("stream", [None, -1, 0, 1, 2, 12345, 2**62, 2**70])
def test_stream_any_int_for_pass_through_data(cuda: PassThrough, stream: Optional[int]) -> None:
    d = decode(cuda.tensor.__dlpack__(stream=stream, max_version=(1, OUR_MINOR)))
    assert d.device == CUDA


def test_stream_non_int_for_pass_through_data_is_type_error(cuda: PassThrough) -> None:
    with pytest.raises(TypeError):
        cuda.tensor.__dlpack__(stream=1.5)


# ---- dl_device ----
# docs/protocol.md#producer-dl_device


@pytest.mark.parametrize("dl_device", [None, (1, 0)])
def test_dl_device_none_or_cpu_no_copy(dl_device: Any) -> None:
    t = arange()
    d = decode(t.__dlpack__(dl_device=dl_device, max_version=(1, 3)))
    assert d.device == (1, 0) and d.data == t.data_ptr() and not d.flags & IS_COPIED


def test_dl_device_equal_to_own_device_for_pass_through(cuda: PassThrough) -> None:
    d = decode(cuda.tensor.__dlpack__(dl_device=cuda.tensor.__dlpack_device__(), max_version=(1, 3)))
    assert d.device == CUDA and d.data == cuda.tensor.data_ptr()


@pytest.mark.parametrize("device", [(3, 0), (11, 0), (13, 0)], ids=["cuda-host", "rocm-host", "cuda-managed"])
def test_dl_device_cpu_for_cpu_accessible_device(device: tuple[int, int]) -> None:
    h = made(device=device)
    t = godlpack.from_dlpack(h.capsule())
    assert t.device == device
    d = decode(t.__dlpack__(dl_device=(1, 0), max_version=(1, 3)))
    assert d.device == (1, 0) and d.data == h.data_address
    assert decode(t.__dlpack__(max_version=(1, 3))).device == device
    del t


@pytest.mark.parametrize("bad", [[1, 0], 1, (1,), (1, 0, 0), ("1", 0), (1.0, 0)])
def test_dl_device_not_a_pair_of_ints_is_type_error(bad: Any) -> None:
    with pytest.raises(TypeError):
        arange().__dlpack__(dl_device=bad)


@pytest.mark.parametrize("other", [(2, 0), (1, 1), (3, 0), (2**70, 0)], ids=["cuda", "cpu-1", "cuda-host", "huge"])
def test_dl_device_other_device_is_buffer_error(other: tuple[int, int]) -> None:
    with pytest.raises(BufferError):
        arange().__dlpack__(dl_device=other)


def test_dl_device_cpu_for_pass_through_is_buffer_error(cuda: PassThrough) -> None:
    for copy in (None, False, True):
        with pytest.raises(BufferError):
            cuda.tensor.__dlpack__(dl_device=(1, 0), copy=copy, max_version=(1, 3))


# ---- copy ----
# docs/protocol.md#producer-copy


def test_copy_none_and_false_never_copy() -> None:
    t = arange()
    for copy in (None, False):
        d = decode(t.__dlpack__(copy=copy, max_version=(1, 3)))
        assert d.data == t.data_ptr() and d.flags == 0


def copy_case(source: str) -> godlpack.Tensor:
    if source == "contiguous":
        return godlpack.from_dlpack(np.arange(12, dtype=np.int32).reshape(3, 4))
    if source == "transposed":
        return godlpack.from_dlpack(torch.arange(12, dtype=torch.int32).reshape(3, 4).T)
    if source == "sliced-negative":
        return godlpack.from_dlpack(np.arange(24, dtype=np.int32).reshape(4, 6)[::-2, 1::2])
    return readonly_tensor()


@pytest.mark.parametrize("source", ["contiguous", "transposed", "sliced-negative", "read-only"])
def test_copy_true_fresh_c_contiguous_writable_is_copied(source: str) -> None:
    t = copy_case(source)
    expected = t.tolist()
    capsule = t.__dlpack__(copy=True, max_version=(1, 3))
    d = decode(capsule)
    assert d.flags & IS_COPIED and not d.flags & READ_ONLY
    assert d.data != t.data_ptr() and d.byte_offset == 0
    assert d.strides == contiguous_strides(t.shape)
    # The decoder reads the copy's bytes straight from memory.
    n = t.size * t.itemsize
    assert np.frombuffer(read_bytes(d.data, n), dtype=np.dtype(str(t.dtype))).reshape(t.shape).tolist() == expected
    # The consumer owns it alone: writing it leaves the source untouched.
    out = np.from_dlpack(type("C", (), {"__dlpack__": lambda self, **kw: capsule, "__dlpack_device__": lambda self: (1, 0)})())
    assert out.flags.writeable
    out[(0,) * out.ndim] = 99
    assert t.tolist() == expected


def test_copy_true_with_legacy_capsule() -> None:
    t = readonly_tensor()
    d = decode(t.__dlpack__(copy=True))
    assert d.name == "dltensor" and d.data != t.data_ptr()


@pytest.mark.parametrize("bad", [0, 1, "yes", 1.0])
def test_copy_not_none_or_bool_is_type_error(bad: Any) -> None:
    with pytest.raises(TypeError):
        arange().__dlpack__(copy=bad)


def test_copy_false_that_needs_a_copy_is_buffer_error() -> None:
    with pytest.raises(BufferError):
        readonly_tensor().__dlpack__(copy=False)  # legacy + read-only could only be met by copying


def test_copy_true_of_pass_through_data_is_buffer_error(cuda: PassThrough) -> None:
    with pytest.raises(BufferError):
        cuda.tensor.__dlpack__(copy=True, max_version=(1, 3))


# ---- READ_ONLY ----
# docs/protocol.md#producer-read_only


def test_read_only_exports_with_flag() -> None:
    t = readonly_tensor()
    d = decode(t.__dlpack__(max_version=(1, 0)))
    assert d.flags == READ_ONLY and d.data == t.data_ptr()


def test_read_only_legacy_export_is_buffer_error_unless_copy() -> None:
    t = readonly_tensor()
    for copy in (None, False):
        with pytest.raises(BufferError):
            t.__dlpack__(copy=copy)
    assert decode(t.__dlpack__(copy=True)).name == "dltensor"


def test_writable_exports_without_flag() -> None:
    assert decode(arange().__dlpack__(max_version=(1, 3))).flags == 0


# ---- the capsule's destructor ----
# docs/protocol.md#producer-the-capsule


@pytest.mark.parametrize("max_version", [None, (1, 3)])
def test_destructor_deletes_unconsumed_capsule(max_version: Any) -> None:
    gc.collect()
    base = godlpack._core._live_storages()
    t = arange()
    capsule = t.__dlpack__(max_version=max_version)
    del t
    assert godlpack._core._live_storages() == base + 1
    del capsule
    assert godlpack._core._live_storages() == base


@pytest.mark.parametrize("versioned", [False, True])
def test_destructor_leaves_consumed_capsule_to_its_consumer(versioned: bool) -> None:
    gc.collect()
    base = godlpack._core._live_storages()
    t = arange()
    capsule = t.__dlpack__(max_version=(1, 3) if versioned else None)
    name = capsule_name(capsule)
    pointer = _api.PyCapsule_GetPointer(capsule, name.encode())
    used = b"used_" + name.encode()
    assert _api.PyCapsule_SetName(capsule, used) == 0  # a consumer took it
    del t, capsule
    assert godlpack._core._live_storages() == base + 1, "the destructor deleted a consumed tensor"
    cls = DLManagedTensorVersioned if versioned else DLManagedTensor
    m = cls.from_address(pointer)
    m.deleter(ctypes.cast(pointer, ctypes.POINTER(cls)))  # the consumer's one deleter call
    assert godlpack._core._live_storages() == base


# ---- layout ----
# docs/protocol.md#producer-layout


def test_layout_data_is_first_element_byte_offset_0() -> None:
    t = godlpack.from_dlpack(np.arange(10, dtype=np.int16)[3:])
    d = decode(t.__dlpack__(max_version=(1, 3)))
    assert d.data == t.data_ptr() and d.byte_offset == 0
    assert np.frombuffer(read_bytes(d.data, 2), dtype=np.int16)[0] == 3


def test_layout_0d_has_null_shape_and_strides() -> None:
    for max_version in (None, (1, 3)):
        d = decode(godlpack.full((), 7, dtype="int32").__dlpack__(max_version=max_version))
        assert d.ndim == 0 and d.shape is None and d.strides is None and d.data != 0


@pytest.mark.parametrize("shape", [(0,), (3, 0), (0, 5, 2)])
def test_layout_size_0_has_non_null_data(shape: tuple[int, ...]) -> None:
    d = decode(godlpack.empty(shape).__dlpack__(max_version=(1, 3)))
    assert d.data != 0 and d.shape == shape and d.strides == contiguous_strides(shape)


def test_layout_size_0_imported_with_null_data_exports_non_null() -> None:
    h = HandMade(shape=(0,), strides=(1,), null_data=True)
    t = godlpack.from_dlpack(h.capsule())
    assert decode(t.__dlpack__(max_version=(1, 3))).data != 0
    del t


def test_layout_size_1_odd_strides_kept() -> None:
    a = np.lib.stride_tricks.as_strided(np.zeros(8, dtype=np.float32), shape=(3, 1, 2), strides=(8, 1000, 4))
    t = godlpack.from_dlpack(a)
    d = decode(t.__dlpack__(max_version=(1, 3)))
    assert d.shape == (3, 1, 2) and d.strides == (2, 250, 1)
    x = torch.empty(6).as_strided((2, 1, 3), (3, 17, 1))
    assert decode(godlpack.from_dlpack(x).__dlpack__(max_version=(1, 3))).strides == (3, 17, 1)


def test_layout_negative_strides() -> None:
    a = np.arange(12, dtype=np.int64).reshape(3, 4)[::-1, ::-2]
    t = godlpack.from_dlpack(a)
    d = decode(t.__dlpack__(max_version=(1, 3)))
    assert d.strides == (-4, -2) and d.data == a.ctypes.data
    assert np.frombuffer(read_bytes(d.data, 8), dtype=np.int64)[0] == a[0, 0] == 11


@pytest.mark.parametrize("peer", ["numpy", "torch"])
def test_layout_transposed_and_sliced_views_as_the_peer_gives_them(peer: str) -> None:
    if peer == "numpy":
        base = np.arange(60, dtype=np.float64).reshape(3, 4, 5)
        views = [base.transpose(2, 0, 1), base[1:, ::2, 3:], base[:, 1]]
        layout = [(v.shape, tuple(s // 8 for s in v.strides), v.ctypes.data) for v in views]
    else:
        base = torch.arange(60, dtype=torch.float64).reshape(3, 4, 5)
        views = [base.permute(2, 0, 1), base[1:, ::2, 3:], base[:, 1]]
        layout = [(tuple(v.shape), v.stride(), v.data_ptr()) for v in views]
    for v, (shape, strides, ptr) in zip(views, layout):
        d = decode(godlpack.from_dlpack(v).__dlpack__(max_version=(1, 3)))
        assert (d.shape, d.strides, d.data) == (shape, strides, ptr)


# ---- dtypes ----
# docs/protocol.md#dtypes

DTYPES = [
    ("bool", (6, 8)), ("int8", (0, 8)), ("int16", (0, 16)), ("int32", (0, 32)), ("int64", (0, 64)),
    ("uint8", (1, 8)), ("uint16", (1, 16)), ("uint32", (1, 32)), ("uint64", (1, 64)),
    ("float16", (2, 16)), ("float32", (2, 32)), ("float64", (2, 64)), ("bfloat16", (4, 16)),
    ("complex64", (5, 64)), ("complex128", (5, 128)),
]  # fmt: skip
MINIFLOATS = [
    ("float8_e3m4", (7, 8)), ("float8_e4m3", (8, 8)), ("float8_e4m3b11fnuz", (9, 8)), ("float8_e4m3fn", (10, 8)),
    ("float8_e4m3fnuz", (11, 8)), ("float8_e5m2", (12, 8)), ("float8_e5m2fnuz", (13, 8)),
    ("float8_e8m0fnu", (14, 8)), ("float6_e2m3fn", (15, 6)), ("float6_e3m2fn", (16, 6)), ("float4_e2m1fn", (17, 4)),
]  # fmt: skip


@pytest.mark.parametrize("name, code_bits", DTYPES, ids=[n for n, _ in DTYPES])
def test_dtype_table_classic(name: str, code_bits: tuple[int, int]) -> None:
    t = godlpack.full((2,), 1, dtype=name)
    for max_version in (None, (1, 0)):
        d = decode(t.__dlpack__(max_version=max_version))
        assert d.dtype == (*code_bits, 1) and d.flags == 0


# docs/protocol.md#producer-newer-dtypes-and-devices
@pytest.mark.parametrize("name, code_bits", MINIFLOATS, ids=[n for n, _ in MINIFLOATS])
def test_dtype_table_minifloats_need_1_1(name: str, code_bits: tuple[int, int]) -> None:
    t = godlpack.full((2,), 1.0, dtype=name)
    for max_version in (None, (0, 9)):  # a legacy capsule cannot carry the codes
        with pytest.raises(BufferError, match="needs DLPack 1.1"):
            t.__dlpack__(max_version=max_version)
    # Asked for 1.0 (as PyTorch asks), exported at the 1.1 the dtype needs: the consumer checks the version.
    assert decode(t.__dlpack__(max_version=(1, 0))).version == (1, 1)
    d = decode(t.__dlpack__(max_version=(1, 1)))
    assert d.dtype == (*code_bits, 1) and d.version == (1, 1)
    # Sub-byte elements that godlpack makes are one byte each, and say so.
    assert d.flags == (IS_SUBBYTE_TYPE_PADDED if code_bits[1] < 8 else 0)
    assert t.itemsize == 1 and t.nbytes == 2


# docs/protocol.md#dtypes-sub-byte
def test_dtype_packed_sub_byte_exports_without_padded_flag() -> None:
    h = HandMade(shape=(4,), strides=(1,), dtype=(17, 4, 1))
    t = godlpack.from_dlpack(h.capsule())
    d = decode(t.__dlpack__(max_version=(1, 3)))
    assert d.dtype == (17, 4, 1) and d.flags == 0 and d.data == h.data_address
    del t


# docs/protocol.md#producer-newer-dtypes-and-devices
@pytest.mark.parametrize(
    "device, needs",
    [((17, 0), (1, 0)), ((18, 0), (1, 2)), ((19, 0), (1, 3)), ((20, 0), (1, 3)), ((21, 1), (1, 3))],
    ids=["maia-needs-1.0", "trn-needs-1.2", "tpu-needs-1.3", "tpu-host-needs-1.3", "ascend-needs-1.3"],
)
def test_device_newer_than_negotiated(device: tuple[int, int], needs: tuple[int, int]) -> None:
    h = made(device=device)
    t = godlpack.from_dlpack(h.capsule())
    with pytest.raises(BufferError, match=f"needs DLPack {needs[0]}.{needs[1]}"):
        t.__dlpack__()  # legacy
    if needs != (1, 0):  # an older minor asked: exported at the minor the device needs
        d = decode(t.__dlpack__(max_version=(1, needs[1] - 1)))
        assert d.version == needs and d.device == device
    assert decode(t.__dlpack__(max_version=needs)).device == device
    del t
    gc.collect()
    assert h.deleted == 1


def test_minifloat_tolist_and_repr() -> None:
    t = godlpack.full((2,), -1.5, dtype="float8_e5m2")
    assert t.tolist() == [-1.5, -1.5]
    assert repr(t) == "godlpack.Tensor([-1.5, -1.5], shape=(2,), dtype=float8_e5m2, device='cpu:0')"


# ---- legacy consumers: __dlpack__() with no arguments ----
# docs/protocol.md#producer-max_version


def test_legacy_consumer_gets_legacy_capsule() -> None:
    t = arange()
    d = legacy_consume(t)
    assert d.name == "dltensor" and d.data == t.data_ptr() and d.shape == (6,)
    d = decode(type(t).__dlpack__(t))  # how NumPy 1.x calls it
    assert d.name == "dltensor"


def test_legacy_consumer_of_read_only_is_buffer_error() -> None:
    with pytest.raises(BufferError):
        legacy_consume(readonly_tensor())


def test_legacy_consumer_of_float8_is_buffer_error() -> None:
    with pytest.raises(BufferError):
        legacy_consume(godlpack.full((2,), 1.0, dtype="float8_e4m3fn"))


# ---- __dlpack_device__ ----
# docs/protocol.md#producer-__dlpack_device__


def test_dlpack_device_own_memory_is_cpu_ints() -> None:
    dev = arange().__dlpack_device__()
    assert dev == (1, 0) and all(type(x) is int for x in dev)


def test_dlpack_device_imported_keeps_its_device(cuda: PassThrough) -> None:
    assert cuda.tensor.__dlpack_device__() == CUDA == cuda.tensor.device
