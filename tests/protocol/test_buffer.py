"""The buffer protocol on Tensor (docs/python-api.md: memoryview(t), numpy.asarray(t)), and read-only tensors refusing writes.

memoryview and numpy.asarray must be zero-copy for every dtype with a buffer format, and read-only when
the Tensor is: docs/protocol.md#buffer-protocol.
"""

from __future__ import annotations

import ctypes
from typing import Any, Iterator

import numpy as np
import pytest

import godlpack
import godlpack.ops
from dlpack_ctypes import READ_ONLY, HandMade, decode

FORMATS = {
    "bool": "?", "int8": "b", "int16": "h", "int32": "i", "int64": "q", "uint8": "B", "uint16": "H",
    "uint32": "I", "uint64": "Q", "float16": "e", "float32": "f", "float64": "d", "complex64": "Zf",
    "complex128": "Zd",
}  # fmt: skip
NO_FORMAT = ["bfloat16", "float8_e4m3fn", "float8_e5m2", "float8_e8m0fnu", "float6_e2m3fn", "float4_e2m1fn"]

# Flags of PyObject_GetBuffer, from CPython's object.h.
PyBUF_WRITABLE, PyBUF_FORMAT, PyBUF_ND, PyBUF_STRIDES = 0x1, 0x4, 0x8, 0x18
PyBUF_C_CONTIGUOUS, PyBUF_F_CONTIGUOUS, PyBUF_ANY_CONTIGUOUS = 0x38, 0x58, 0x98

_get = ctypes.pythonapi.PyObject_GetBuffer
_get.argtypes = [ctypes.py_object, ctypes.c_void_p, ctypes.c_int]
_release = ctypes.pythonapi.PyBuffer_Release
_release.argtypes = [ctypes.c_void_p]


def get_buffer(obj: Any, flags: int) -> None:
    """Ask obj for a buffer with exactly these flags (raises what the exporter raises), then release it."""
    view = (ctypes.c_char * 128)()  # larger than any Py_buffer
    _get(obj, ctypes.addressof(view), flags)
    _release(ctypes.addressof(view))


def value(dtype: str) -> Any:
    return {"bool": True, "complex64": 1 + 2j, "complex128": 1 + 2j}.get(dtype, 3)


@pytest.mark.parametrize("dtype", list(FORMATS))
def test_memoryview_zero_copy_every_format(dtype: str) -> None:
    t = godlpack.full((2, 3), value(dtype), dtype=dtype)
    m = memoryview(t)
    assert m.format == FORMATS[dtype] and m.itemsize == t.itemsize
    assert m.shape == (2, 3) and m.strides == (3 * t.itemsize, t.itemsize)
    assert not m.readonly and m.c_contiguous and m.nbytes == t.nbytes
    a = np.asarray(t)
    assert a.ctypes.data == t.data_ptr() and a.dtype == np.dtype(dtype) and a.flags.writeable
    assert a.tolist() == t.tolist()
    a[1, 2] = 0
    assert t.tolist()[1][2] == 0  # written through the shared memory
    m.release()


@pytest.mark.parametrize("dtype", NO_FORMAT)
def test_memoryview_dtypes_without_format_are_buffer_error(dtype: str) -> None:
    t = godlpack.full((2,), 1.0, dtype=dtype)
    with pytest.raises(BufferError, match=dtype):
        memoryview(t)


def test_memoryview_0d_and_size_0() -> None:
    s = memoryview(godlpack.full((), 5, dtype="int32"))
    assert s.shape == () and s.tolist() == 5
    e = memoryview(godlpack.empty((0, 4), dtype="float64"))
    assert e.shape == (0, 4) and e.nbytes == 0
    s.release()
    e.release()


def test_strided_view_shares_memory_and_strides() -> None:
    base = np.arange(24, dtype=np.int16).reshape(4, 6)
    a = base[::-2, 1::2]
    t = godlpack.from_dlpack(a)
    m = memoryview(t)
    assert m.strides == a.strides and not m.c_contiguous
    b = np.asarray(t)
    assert b.ctypes.data == a.ctypes.data and b.strides == a.strides and b.tolist() == a.tolist()
    m.release()


@pytest.mark.parametrize(
    "flags, ok",
    [
        (PyBUF_STRIDES | PyBUF_FORMAT, True),
        (PyBUF_C_CONTIGUOUS, False),
        (PyBUF_F_CONTIGUOUS, False),
        (PyBUF_ANY_CONTIGUOUS, False),
        (PyBUF_ND, False),
    ],
    ids=["strided", "c", "f", "any", "nd-without-strides"],
)
def test_contiguity_requests_on_a_strided_view(flags: int, ok: bool) -> None:
    t = godlpack.from_dlpack(np.arange(12.0).reshape(3, 4)[:, ::2])
    if ok:
        get_buffer(t, flags)
    else:
        with pytest.raises(BufferError):
            get_buffer(t, flags)


def test_contiguity_requests_on_contiguous_tensors() -> None:
    c = godlpack.zeros((3, 4))
    for flags in (PyBUF_C_CONTIGUOUS, PyBUF_ANY_CONTIGUOUS, PyBUF_ND, 0):
        get_buffer(c, flags)
    f = godlpack.from_dlpack(np.asfortranarray(np.zeros((3, 4))))
    get_buffer(f, PyBUF_F_CONTIGUOUS)
    with pytest.raises(BufferError):
        get_buffer(f, PyBUF_C_CONTIGUOUS)


# ---- a read-only Tensor refuses writes wherever a write is possible ----
# docs/protocol.md#producer-read_only, docs/protocol.md#buffer-protocol,
# docs/protocol.md#kernels


class ReadOnly:
    """A read-only Tensor and, for a hand-made one, the producer's tensor, which must outlive it."""

    def __init__(self, kind: str) -> None:
        self.source: Any = None
        if kind == "numpy-read-only":
            a = np.arange(4, dtype=np.float32)
            a.flags.writeable = False
            self.tensor = godlpack.from_dlpack(a)
        else:
            self.source = HandMade(shape=(4,), strides=(1,), flags=READ_ONLY, versioned=kind == "READ_ONLY-flag")
            self.tensor = godlpack.from_dlpack(self.source.capsule())
        assert self.tensor.readonly


@pytest.fixture(params=["numpy-read-only", "READ_ONLY-flag", "legacy-capsule"])
def ro(request: Any) -> Iterator[ReadOnly]:
    holder = ReadOnly(request.param)
    yield holder  # pytest keeps the yielded object through teardown: never the Tensor itself
    del holder.tensor
    assert holder.source is None or holder.source.deleted == 1


def test_read_only_buffer_is_read_only(ro: ReadOnly) -> None:
    readonly = ro.tensor
    m = memoryview(readonly)
    assert m.readonly
    with pytest.raises(TypeError):
        m[0] = 1.0
    a = np.asarray(readonly)
    assert not a.flags.writeable and a.ctypes.data == readonly.data_ptr()
    with pytest.raises(ValueError):
        a[0] = 1.0
    with pytest.raises(ValueError):
        a.flags.writeable = True
    m.release()


def test_read_only_writable_buffer_requests_are_refused(ro: ReadOnly) -> None:
    readonly = ro.tensor
    with pytest.raises(BufferError, match="read-only"):
        get_buffer(readonly, PyBUF_WRITABLE)
    # ctypes asks for a buffer without PyBUF_WRITABLE and checks its readonly field itself: its own TypeError.
    with pytest.raises(TypeError, match="underlying buffer is not writable"):
        (ctypes.c_char * 16).from_buffer(readonly)
    with pytest.raises(ValueError):
        np.frombuffer(readonly, dtype=np.float32)[0] = 1.0


def test_read_only_refuses_in_place_operations(ro: ReadOnly) -> None:
    readonly = ro.tensor
    before = readonly.tolist()
    with pytest.raises(TypeError):
        readonly[0] = 1.0  # type: ignore[index]
    with pytest.raises(TypeError):
        readonly += 1  # type: ignore[operator]
    with pytest.raises(BufferError):
        godlpack.ops.scale_(readonly, 2.0)
    with pytest.raises(BufferError):
        godlpack.ops.copy_(readonly, godlpack.full((4,), 9.0))
    assert readonly.tolist() == before
    assert godlpack.ops.sum(readonly) == sum(before)  # reading is fine


def test_read_only_exports_keep_it_read_only(ro: ReadOnly) -> None:
    readonly = ro.tensor
    assert decode(readonly.__dlpack__(max_version=(1, 3))).flags & READ_ONLY
    assert not np.from_dlpack(readonly).flags.writeable
    assert godlpack.from_dlpack(readonly).readonly
    copy = godlpack.from_dlpack(readonly, copy=True)
    assert not copy.readonly and copy.is_copied
    memoryview(copy)[0] = 9.0
    assert readonly.tolist()[0] != 9.0
