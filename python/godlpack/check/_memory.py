"""The checker as a producer: managed tensors over its own memory, with any layout, flags and version, whose
deleters count their calls.

A Memory is one DLManagedTensor(Versioned) built with ctypes over a buffer the checker fills. Its deleter records
every call (how many, with which pointer), and its capsule has no destructor: the checker plays the capsule
destructor itself when it lets the capsule go (`release_capsule`), calling the deleter when the capsule still has
its unconsumed name, as DLPack's Python specification says a producer's destructor does. That keeps Python code
out of the capsule's deallocation, where a consumer's pending exception could be disturbed. A tensor the consumer
deleted while it left the capsule's name unchanged is not deleted a second time: consumer.capsule.* report that
consumer, once, where a second call would make every check that counts the deleter's calls fail with them.

A Memory that handed out its tensor stays alive until its deleter has run: memory a consumer still views is
never freed under it, even when the consumer never calls the deleter.

Its data pointer is 256-byte aligned, as dlpack.h says it 'is always', unless `misalign` moves it that many bytes
past the boundary (the header: 'it is recommended to not rely on the data pointer being correctly aligned'); its
manager_ctx points at a context of its own, as most producers' does, unless `null_context` leaves it NULL, which
the header allows ('It can also be NULL'). On a device the host cannot read, with a Runtime, the data lives in that
device's memory (copied there once); without one, in host memory labelled with the device, which no consumer here
can use anyway.
"""

from __future__ import annotations

import ctypes
import itertools
import threading
from dataclasses import dataclass, field
from typing import Any, Callable, Optional, Sequence

from godlpack.check._device import Runtime, host_readable
from godlpack.check._dlpack import READ_ONLY, OwnTensor, _api, capsule_name, contiguous_strides, managed_tensor
from godlpack.check._values import DTYPE_BY_NAME, DType, encode, flatten, shape_of

# Memories whose tensor was handed out and not yet deleted (see the module's docstring).
_HANDED_OUT: set["Memory"] = set()
_LOCK = threading.Lock()

ALIGNMENT = 256
CONSUMER = "the consumer"
DESTRUCTOR = "the capsule destructor (the capsule was never consumed)"


@dataclass(eq=False)
class Memory(OwnTensor):
    """A managed tensor over `raw` (the buffer's bytes), described by the other fields."""

    raw: bytes
    dtype: tuple[int, int, int]
    shape: Optional[Sequence[int]]
    strides: Optional[Sequence[int]]
    byte_offset: int = 0
    flags: int = 0
    version: tuple[int, int] = (1, 3)
    versioned: bool = True
    device: tuple[int, int] = (1, 0)
    null_data: bool = False
    null_context: bool = False
    misalign: int = 0
    runtime: Optional[Runtime] = None
    # Why this tensor is not the one the check wanted ("" when it is): set where the consumer asked for a legacy
    # capsule, which cannot carry the flags or version the check is about.
    unmet: str = ""
    deleted_by: list[str] = field(default_factory=list)
    wrong_pointers: list[int] = field(default_factory=list)
    # The device memory holding the data, where a runtime put it there (0: the data is in `buffer`).
    device_address: int = field(default=0, init=False, repr=False)
    _capsule: Any = field(default=None, repr=False)
    _keep: list[Any] = field(default_factory=list, repr=False)

    def __post_init__(self) -> None:
        # dlpack.h: the data pointer 'is always aligned to 256 bytes as in CUDA'; some consumers copy (JAX) or
        # abort (TensorFlow) on less.
        size = max(len(self.raw), 1)
        storage = (ctypes.c_uint8 * (size + ALIGNMENT + self.misalign))()
        start = -ctypes.addressof(storage) % ALIGNMENT + self.misalign
        self.buffer = (ctypes.c_uint8 * size).from_buffer(storage, start)
        ctypes.memmove(self.buffer, self.raw, len(self.raw))
        if self.runtime is not None and not host_readable(self.device):
            self.device_address = self.runtime.allocate(size, self.device[1])
            self.runtime.copy_from_host(self.device_address, self.raw)
        context = None
        if not self.null_context:
            context = ctypes.c_uint64(0x6D616E61676572)  # any object of the producer's; nobody reads it
            self._keep.append(context)
        # A 0-d tensor's shape and strides are NULL, as DLPack's producers hand them out.
        self.struct = managed_tensor(
            self._keep, versioned=self.versioned, data=None if self.null_data else self.data_address,
            device=self.device, dtype=self.dtype, shape=self.shape or None, strides=self.strides or None,
            byte_offset=self.byte_offset, ndim=len(self.shape) if self.shape is not None else 0,
            version=self.version, flags=self.flags, deleter=self._deleter,
            manager_ctx=None if context is None else ctypes.addressof(context),
        )

    @property
    def data_address(self) -> int:
        return self.device_address or ctypes.addressof(self.buffer)

    # ---- making one ----

    @classmethod
    def of(
        cls,
        values: Any,
        dtype: DType,
        *,
        read_only: bool = False,
        device: tuple[int, int] = (1, 0),
        **fields: Any,
    ) -> "Memory":
        """A C-contiguous tensor of nested list `values` in dtype (which must be one encode() knows)."""
        shape = shape_of(values)
        raw = b"".join(_encoded(dtype, v) for v in flatten(values)) if shape != () or values != [] else b""
        flags = fields.pop("flags", 0) | (READ_ONLY if read_only else 0)
        return cls(raw, dtype.triple, shape, contiguous_strides(shape), flags=flags, device=device, **fields)

    @classmethod
    def from_tensor(cls, x: Any) -> "Memory":
        """A C-contiguous copy of a godlpack.Tensor (its tolist() and dtype name)."""
        return cls.of(x.tolist(), DTYPE_BY_NAME[str(x.dtype)])

    @property
    def itemsize(self) -> int:
        return (self.dtype[1] * self.dtype[2] + 7) // 8

    def _relaid(self, shape: Sequence[int], strides: Sequence[int], byte_offset: int = 0) -> "Memory":
        return Memory(
            self.raw, self.dtype, tuple(shape), tuple(strides), byte_offset=byte_offset, flags=self.flags,
            version=self.version, versioned=self.versioned, device=self.device, null_context=self.null_context,
            misalign=self.misalign, runtime=self.runtime,
        )

    def transposed(self) -> "Memory":
        """The 2-D tensor's transpose: the same bytes, shape and strides swapped."""
        rows, columns = self._dims(2)
        return self._relaid((columns, rows), (1, columns))

    def reversed(self) -> "Memory":
        """The 1-D tensor reversed: stride -1, byte_offset at the last element."""
        (n,) = self._dims(1)
        return self._relaid((n,), (-1,), (n - 1) * self.itemsize)

    def offset(self) -> "Memory":
        """The 1-D tensor without its first two elements: byte_offset 2 elements."""
        (n,) = self._dims(1)
        return self._relaid((n - 2,), (1,), 2 * self.itemsize)

    def every_other_column(self) -> "Memory":
        """The 2-D tensor's columns 0, 2, 4, …: stride 2 along the last dimension."""
        rows, columns = self._dims(2)
        return self._relaid((rows, (columns + 1) // 2), (columns, 2))

    def sharing(self, **fields: Any) -> "Memory":
        """Another managed tensor over this one's very buffer (one memory, two tensors, two deleters)."""
        other = Memory(self.raw, self.dtype, self.shape, self.strides, **fields)
        other.buffer = self.buffer
        other.struct.dl_tensor.data = ctypes.addressof(self.buffer)
        return other

    def _dims(self, ndim: int) -> tuple[int, ...]:
        if self.shape is None or len(self.shape) != ndim:
            raise ValueError(f"this view needs a {ndim}-D tensor, not shape {self.shape}")
        return tuple(self.shape)

    # ---- handing it out ----

    @property
    def deleted(self) -> int:
        return len(self.deleted_by)

    def capsule(self) -> Any:
        """The capsule holding this tensor, made once; from now on the memory lives until the deleter runs."""
        if self._capsule is None:
            name = b"dltensor_versioned" if self.versioned else b"dltensor"
            self._keep.append(name)
            with _LOCK:
                _HANDED_OUT.add(self)
            self._capsule = _api.PyCapsule_New(self.address, name, None)
        return self._capsule

    def import_with(self, from_dlpack: Callable[[Any], Any]) -> Any:
        """from_dlpack(this tensor's capsule), then the capsule let go as its destructor would."""
        try:
            return from_dlpack(self.capsule())
        finally:
            self.release_capsule()

    def consumed(self) -> bool:
        """Whether the capsule was renamed "used_…" by a consumer that took the tensor."""
        return self._capsule is not None and capsule_name(self._capsule).startswith("used_")

    def release_capsule(self) -> None:
        """Let the capsule go as DLPack's capsule destructor does: delete the tensor unless a consumer took it (or
        deleted it without renaming the capsule, see the module's docstring)."""
        capsule, self._capsule = self._capsule, None
        if capsule is not None and not capsule_name(capsule).startswith("used_") and not self.deleted:
            self._deleter(ctypes.cast(self.address, ctypes.c_void_p), by=DESTRUCTOR)

    def _deleter(self, pointer: Any, by: str = CONSUMER) -> None:
        address = ctypes.cast(pointer, ctypes.c_void_p).value
        if address != self.address:
            self.wrong_pointers.append(address or 0)
        self.deleted_by.append(by)
        if self.device_address and self.runtime is not None and len(self.deleted_by) == 1:
            self.runtime.free(self.device_address)
        with _LOCK:
            _HANDED_OUT.discard(self)

    def expected_elements(self) -> list[bytes]:
        """The bytes of every element this tensor describes, in C order, read from the buffer's copy."""
        shape = tuple(self.shape or ())
        strides = tuple(self.strides) if self.strides is not None else contiguous_strides(shape)
        out = []
        for index in itertools.product(*(range(n) for n in shape)):
            start = self.byte_offset + sum(i * s for i, s in zip(index, strides)) * self.itemsize
            out.append(self.raw[start : start + self.itemsize])
        return out

    def current_elements(self) -> list[bytes]:
        """The same elements as they are in the buffer now (a consumer may have written them)."""
        now = Memory(bytes(self.buffer), self.dtype, self.shape, self.strides, byte_offset=self.byte_offset)
        return now.expected_elements()


def _encoded(dtype: DType, value: Any) -> bytes:
    b = encode(dtype, value)
    if b is None:
        raise ValueError(f"the checker cannot encode {dtype.name} elements")
    return b


def asks_versioned(kwargs: dict[str, Any]) -> bool:
    """Whether a __dlpack__ call asked for a versioned capsule (max_version with major 1 or more)."""
    max_version = kwargs.get("max_version")
    return isinstance(max_version, tuple) and len(max_version) == 2 and max_version[0] >= 1


def negotiated(kwargs: dict[str, Any], memory: Callable[..., "Memory"], **fields: Any) -> "Memory":
    """memory(**fields) as a producer answers this call: versioned when asked for, else legacy.

    A legacy answer cannot carry flags or a version: where fields set them (or versioned=True insists), the
    tensor is made legacy without them and says why in `unmet`.
    """
    if asks_versioned(kwargs) or fields.get("versioned") is False:
        return memory(**fields)
    wanted = [name for name in ("flags", "version") if fields.get(name)] + (["versioned"] if fields.get("versioned") else [])
    kept = {k: v for k, v in fields.items() if k not in ("flags", "version", "versioned")}
    made = memory(versioned=False, **kept)
    if wanted:
        made.unmet = f"the consumer asked for a legacy capsule (__dlpack__({kwargs})), which cannot carry {', '.join(wanted)}"
    return made


class InstrumentedProducer:
    """An object with __dlpack__ and __dlpack_device__ that records each call and hands out a Memory's capsule.

    make(kwargs) returns the Memory for a call (a fresh one per call: each call hands out a tensor of its own).
    legacy=True plays a producer from before the array API 2023.12: any keyword but stream is a TypeError.
    """

    def __init__(
        self,
        make: Callable[[dict[str, Any]], Memory],
        device: Any = (1, 0),
        legacy: bool = False,
    ) -> None:
        self.make = make
        self.device = device
        self.legacy = legacy
        self.calls: list[dict[str, Any]] = []
        self.device_calls = 0
        self.memories: list[Memory] = []

    def __dlpack__(self, **kwargs: Any) -> Any:
        self.calls.append(kwargs)
        if self.legacy and set(kwargs) - {"stream"}:
            raise TypeError(f"__dlpack__() got an unexpected keyword argument {sorted(set(kwargs) - {'stream'})[0]!r}")
        memory = self.make(kwargs)
        self.memories.append(memory)
        return memory.capsule()

    def __dlpack_device__(self) -> Any:
        self.device_calls += 1
        return self.device

    def release_capsules(self) -> None:
        """Let every capsule handed out go, as their destructors would."""
        for memory in self.memories:
            memory.release_capsule()
