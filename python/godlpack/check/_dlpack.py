"""An independent DLPack decoder and capsule builder, written with ctypes only.

It reads what any producer hands out (capsule name, version, flags, shape,
strides, byte_offset, dtype, device) without going through godlpack's code,
and builds hand-made capsules, with deleters that count their calls, to feed
a consumer the cases NumPy and PyTorch never produce.
"""

from __future__ import annotations

import ctypes
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Optional, Sequence

READ_ONLY = 1 << 0
IS_COPIED = 1 << 1
IS_SUBBYTE_TYPE_PADDED = 1 << 2


# Each structure annotates its fields with the types ctypes reads and writes them as, for type checkers only.


class DLDevice(ctypes.Structure):
    device_type: int
    device_id: int
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class DLDataType(ctypes.Structure):
    code: int
    bits: int
    lanes: int
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class DLTensor(ctypes.Structure):
    data: Optional[int]
    device: DLDevice
    ndim: int
    dtype: DLDataType
    shape: ctypes._Pointer[ctypes.c_int64]
    strides: ctypes._Pointer[ctypes.c_int64]
    byte_offset: int
    _fields_ = [
        ("data", ctypes.c_void_p),
        ("device", DLDevice),
        ("ndim", ctypes.c_int32),
        ("dtype", DLDataType),
        ("shape", ctypes.POINTER(ctypes.c_int64)),
        ("strides", ctypes.POINTER(ctypes.c_int64)),
        ("byte_offset", ctypes.c_uint64),
    ]


class DLPackVersion(ctypes.Structure):
    major: int
    minor: int
    _fields_ = [("major", ctypes.c_uint32), ("minor", ctypes.c_uint32)]


class DLManagedTensor(ctypes.Structure):
    dl_tensor: DLTensor
    manager_ctx: Optional[int]
    deleter: ctypes._CFunctionType


LegacyDeleter = ctypes.CFUNCTYPE(None, ctypes.POINTER(DLManagedTensor))
DLManagedTensor._fields_ = [
    ("dl_tensor", DLTensor),
    ("manager_ctx", ctypes.c_void_p),
    ("deleter", LegacyDeleter),
]


class DLManagedTensorVersioned(ctypes.Structure):
    version: DLPackVersion
    manager_ctx: Optional[int]
    deleter: ctypes._CFunctionType
    flags: int
    dl_tensor: DLTensor


VersionedDeleter = ctypes.CFUNCTYPE(None, ctypes.POINTER(DLManagedTensorVersioned))
DLManagedTensorVersioned._fields_ = [
    ("version", DLPackVersion),
    ("manager_ctx", ctypes.c_void_p),
    ("deleter", VersionedDeleter),
    ("flags", ctypes.c_uint64),
    ("dl_tensor", DLTensor),
]

assert ctypes.sizeof(DLTensor) == 48
assert ctypes.sizeof(DLManagedTensor) == 64
assert ctypes.sizeof(DLManagedTensorVersioned) == 80

_api = ctypes.pythonapi
_api.PyCapsule_GetPointer.restype = ctypes.c_void_p
_api.PyCapsule_GetPointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
_api.PyCapsule_GetName.restype = ctypes.c_char_p
_api.PyCapsule_GetName.argtypes = [ctypes.py_object]
_api.PyCapsule_IsValid.restype = ctypes.c_int
_api.PyCapsule_IsValid.argtypes = [ctypes.py_object, ctypes.c_char_p]
_api.PyCapsule_New.restype = ctypes.py_object
_api.PyCapsule_New.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
_api.PyCapsule_SetName.restype = ctypes.c_int
_api.PyCapsule_SetName.argtypes = [ctypes.py_object, ctypes.c_char_p]


def capsule_name(capsule: Any) -> str:
    name = _api.PyCapsule_GetName(capsule)
    return name.decode() if name is not None else ""


@dataclass
class Decoded:
    """Everything a DLPack capsule says, read straight from memory."""

    name: str
    versioned: bool
    version: Optional[tuple[int, int]]
    flags: int
    data: int
    device: tuple[int, int]
    ndim: int
    dtype: tuple[int, int, int]
    shape: Optional[tuple[int, ...]]
    strides: Optional[tuple[int, ...]]
    byte_offset: int
    has_deleter: bool


def decode(capsule: Any) -> Decoded:
    """Read an unconsumed "dltensor" or "dltensor_versioned" capsule without consuming it."""
    name = capsule_name(capsule)
    pointer = _api.PyCapsule_GetPointer(capsule, name.encode())
    return decode_managed(pointer, versioned=name == "dltensor_versioned", name=name)


def decode_managed(address: int, versioned: bool = True, name: str = "") -> Decoded:
    """Read the managed tensor at address; no capsule needed (the exchange API hands out bare pointers)."""
    if versioned:
        mv = DLManagedTensorVersioned.from_address(address)
        t, version, flags, deleter = mv.dl_tensor, (mv.version.major, mv.version.minor), mv.flags, mv.deleter
    else:
        ml = DLManagedTensor.from_address(address)
        t, version, flags, deleter = ml.dl_tensor, None, 0, ml.deleter
    return replace(
        decode_dltensor(t), name=name, versioned=versioned, version=version, flags=flags, has_deleter=bool(deleter)
    )


def decode_dltensor(t: DLTensor) -> Decoded:
    """Read a bare DLTensor: no name, version, flags or deleter (those belong to a managed tensor)."""
    shape = tuple(t.shape[i] for i in range(t.ndim)) if t.shape else None
    strides = tuple(t.strides[i] for i in range(t.ndim)) if t.strides else None
    return Decoded(
        name="",
        versioned=False,
        version=None,
        flags=0,
        data=t.data or 0,
        device=(t.device.device_type, t.device.device_id),
        ndim=t.ndim,
        dtype=(t.dtype.code, t.dtype.bits, t.dtype.lanes),
        shape=shape,
        strides=strides,
        byte_offset=t.byte_offset,
        has_deleter=False,
    )


def managed_tensor(
    keep: list[Any],
    *,
    versioned: bool,
    data: Optional[int],
    device: tuple[int, int],
    dtype: tuple[int, int, int],
    shape: Optional[Sequence[int]],
    strides: Optional[Sequence[int]],
    byte_offset: int = 0,
    ndim: Optional[int] = None,
    version: tuple[int, int] = (1, 3),
    flags: int = 0,
    deleter: Optional[Callable[[Any], None]] = None,
    manager_ctx: Optional[int] = None,
) -> Any:
    """A DLManagedTensorVersioned (a DLManagedTensor where not versioned) with these fields.

    shape or strides None is NULL (an empty sequence is an array nobody reads, as ndim is 0); ndim is len(shape)
    unless given; deleter None is a NULL deleter; manager_ctx None is NULL. The arrays and the deleter's C callback
    it points at are appended to keep, which must live as long as the struct.
    """
    struct = DLManagedTensorVersioned() if versioned else DLManagedTensor()
    t = struct.dl_tensor
    t.data = data
    struct.manager_ctx = manager_ctx
    t.device = DLDevice(*device)
    t.dtype = DLDataType(*dtype)
    t.byte_offset = byte_offset
    t.ndim = ndim if ndim is not None else (len(shape) if shape is not None else 0)
    for name, dims in (("shape", shape), ("strides", strides)):
        if dims is not None:
            array = (ctypes.c_int64 * max(len(dims), 1))(*dims)
            keep.append(array)
            setattr(t, name, ctypes.cast(array, ctypes.POINTER(ctypes.c_int64)))
    if deleter is not None:
        callback = (VersionedDeleter if versioned else LegacyDeleter)(deleter)
        keep.append(callback)
        struct.deleter = callback
    if versioned:
        struct.version = DLPackVersion(*version)
        struct.flags = flags
    return struct


class OwnTensor:
    """A managed tensor built here (`struct`) over a buffer of its own (`buffer`)."""

    struct: Any
    buffer: Any

    @property
    def address(self) -> int:
        return ctypes.addressof(self.struct)

    @property
    def data_address(self) -> int:
        return ctypes.addressof(self.buffer)


@dataclass
class HandMade(OwnTensor):
    """A managed tensor built by hand over a buffer this object keeps alive.

    `deleted` counts the calls of its deleter; `capsule()` wraps it, with the
    capsule destructor that the spec asks producers for.
    """

    versioned: bool = True
    version: tuple[int, int] = (1, 3)
    flags: int = 0
    shape: Optional[Sequence[int]] = (4,)
    strides: Optional[Sequence[int]] = None
    dtype: tuple[int, int, int] = (2, 32, 1)
    device: tuple[int, int] = (1, 0)
    byte_offset: int = 0
    nbytes: int = 64
    null_data: bool = False
    null_deleter: bool = False
    ndim: Optional[int] = None
    deleted: int = 0
    buffer: Any = field(init=False)
    struct: Any = field(init=False)
    _keep: list[Any] = field(init=False, default_factory=list)

    def __post_init__(self) -> None:
        self.buffer = (ctypes.c_uint8 * max(self.nbytes, 1))()

        def deleter(_: Any) -> None:
            self.deleted += 1

        self.struct = managed_tensor(
            self._keep, versioned=self.versioned, data=None if self.null_data else ctypes.addressof(self.buffer),
            device=self.device, dtype=self.dtype, shape=self.shape, strides=self.strides,
            byte_offset=self.byte_offset, ndim=self.ndim, version=self.version, flags=self.flags,
            deleter=None if self.null_deleter else deleter,
        )

    def capsule(self, name: Optional[str] = None) -> Any:
        """A capsule holding this tensor, with no destructor: the test checks `deleted` itself."""
        if name is None:
            name = "dltensor_versioned" if self.versioned else "dltensor"
        encoded = name.encode()
        self._keep.append(encoded)
        return _api.PyCapsule_New(self.address, encoded, None)


class Producer:
    """An object whose __dlpack__ hands out a prepared capsule (or anything else), recording the call."""

    def __init__(self, result: Any, device: tuple[int, int] = (1, 0), legacy: bool = False) -> None:
        self.result = result
        self.device = device
        self.legacy = legacy
        self.calls: list[dict[str, Any]] = []

    def __dlpack__(self, **kwargs: Any) -> Any:
        if self.legacy and set(kwargs) - {"stream"}:
            raise TypeError(f"__dlpack__() got unexpected keyword arguments {sorted(kwargs)}")
        self.calls.append(kwargs)
        if isinstance(self.result, BaseException):
            raise self.result
        return self.result

    def __dlpack_device__(self) -> tuple[int, int]:
        return self.device


class FreshProducer:
    """A producer whose __dlpack__ makes a new object per call (make()): the consumer holds its only reference.

    device is what __dlpack_device__ answers, or a function called to make that answer (it may run any code).
    """

    def __init__(self, make: Callable[[], Any], device: Any = (1, 0)) -> None:
        self.make = make
        self.device = device

    def __dlpack__(self, **kwargs: Any) -> Any:
        return self.make()

    def __dlpack_device__(self) -> Any:
        return self.device() if callable(self.device) else self.device


def contiguous_strides(shape: Sequence[int]) -> tuple[int, ...]:
    """The C-contiguous strides, in elements, of shape."""
    strides: list[int] = []
    step = 1
    for n in reversed(shape):
        strides.append(step)
        step *= max(n, 1)
    return tuple(reversed(strides))


def made(shape: Optional[Sequence[int]] = (4,), strides: Optional[Sequence[int]] = None, **kw: Any) -> HandMade:
    """A hand-made float32 tensor (unless kw says otherwise) whose buffer holds 1.0, 2.0, 3.0, …: no element
    reads as zeroed memory. Its strides are C-contiguous unless given (DLPack 1.2+ requires them); a NULL shape
    gets NULL strides unless given.
    """
    if strides is None and shape is not None:
        strides = contiguous_strides(shape)
    h = HandMade(shape=shape, strides=strides, **kw)
    floats = (ctypes.c_float * (len(h.buffer) // 4)).from_buffer(h.buffer)
    for i in range(len(floats)):
        floats[i] = float(i + 1)
    return h


def read_bytes(address: int, n: int) -> bytes:
    """n bytes of memory at address, read with ctypes (the decoder's view of the data)."""
    return ctypes.string_at(address, n)


class LegacyProducer:
    """A producer from before DLPack 1.0: its __dlpack__ knows only `stream`, and it has no __dlpack_device__."""

    def __init__(self, source: Any) -> None:
        self.source = source
        self.calls: list[Optional[int]] = []

    def __dlpack__(self, stream: Optional[int] = None) -> Any:
        self.calls.append(stream)
        return self.source.__dlpack__()


def legacy_consume(obj: Any) -> Decoded:
    """What a consumer from before DLPack 1.0 does: call __dlpack__() with no arguments and read the capsule."""
    return decode(obj.__dlpack__())
