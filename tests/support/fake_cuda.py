"""A CUDA device for godlpack.check on a machine without one: its memory is not host memory, and it has streams.

FakeCuda is a godlpack.check Runtime whose device pointers lie in a reserved address range the host cannot read or
write (mapped PROT_NONE): a host read of one is a segmentation fault, so a run of the checker that ends proves
that nothing read device memory on the host. The "device memory" itself lives in a dict; copies to the host keep
CUDA's ordering rules as far as the checks need them: a write queued on the producer's stream (a busy array) is
seen on the legacy default stream, after a device synchronization, or on a stream the producer promised to order
after its work (__dlpack__(stream=...)), and not on another stream.

`target()` is godlpack's own target with such a device (godlpack keeps device memory where it is and never reads
it): its arrays on the device are FakeCudaArray objects, and its CPU arrays answer dl_device=(2, 0) with a copy
on the device, as PyTorch does on a CUDA machine. The other factories break one rule each, for the tests.
"""

from __future__ import annotations

import ctypes
import dataclasses
from typing import Any, Optional

from godlpack.check import DeviceArrays, Target, load_target
from godlpack.check._dlpack import _api, managed_tensor
from godlpack.check._values import FLOAT32, encode

CUDA = (2, 0)
LEGACY_DEFAULT = 1
_PROT_NONE, _MAP_PRIVATE, _MAP_ANONYMOUS = 0, 0x02, 0x20
_libc = ctypes.CDLL(None, use_errno=True)
_libc.mmap.restype = ctypes.c_void_p
_libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_long]


def _reserve(size: int) -> int:
    """size bytes of address space that no one may read or write (PROT_NONE), for the life of the process."""
    address = _libc.mmap(None, size, _PROT_NONE, _MAP_PRIVATE | _MAP_ANONYMOUS, -1, 0)
    if address in (None, ctypes.c_void_p(-1).value):
        raise OSError(ctypes.get_errno(), "mmap of the fake device's address range failed")
    return int(address)


class FakeCuda:
    """A Runtime (godlpack.check._device) of a CUDA device whose memory the host cannot read."""

    device_type = 2
    SIZE = 1 << 24

    def __init__(self) -> None:
        self.base = _reserve(self.SIZE)
        self.next = self.base
        self.blocks: dict[int, bytearray] = {}
        # A write queued on the producer's stream, not yet done, by block: its bytes and the consumer streams the
        # producer ordered after it.
        self.pending: dict[int, tuple[bytes, set[int]]] = {}
        self.streams: set[int] = set()
        self.next_stream = 0x5000
        self.freed: list[int] = []

    def block(self, address: int) -> int:
        for start, data in self.blocks.items():
            if start <= address < start + max(len(data), 1):
                return start
        raise RuntimeError(f"{address:#x} is not fake device memory")

    # -- the Runtime --

    def create_stream(self, device_id: int) -> int:
        self.next_stream += 16
        self.streams.add(self.next_stream)
        return self.next_stream

    def destroy_stream(self, stream: int) -> None:
        self.streams.discard(stream)

    def copy_to_host(self, address: int, nbytes: int, stream: Optional[int]) -> bytes:
        start = self.block(address)
        if start in self.pending:
            data, ordered = self.pending[start]
            if stream is None or stream == LEGACY_DEFAULT or stream in ordered:
                self.blocks[start][:] = data
                del self.pending[start]
        offset = address - start
        return bytes(self.blocks[start][offset : offset + nbytes])

    def allocate(self, nbytes: int, device_id: int) -> int:
        address = self.next
        self.next += (max(nbytes, 1) + 255) // 256 * 256
        if self.next > self.base + self.SIZE:
            raise MemoryError("the fake device is full")
        self.blocks[address] = bytearray(nbytes)
        return address

    def copy_from_host(self, address: int, data: bytes) -> None:
        start = self.block(address)
        offset = address - start
        self.blocks[start][offset : offset + len(data)] = data

    def free(self, address: int) -> None:
        self.freed.append(address)

    # -- the producer's side --

    def queue_write(self, address: int, data: bytes) -> None:
        """data written at address by the last of the producer's work, still queued."""
        self.pending[self.block(address)] = (data, set())

    def order(self, address: int, stream: int) -> None:
        """The producer's promise to a consumer: stream waits for the work that writes address."""
        start = self.block(address)
        if start in self.pending:
            self.pending[start][1].add(stream)


RUNTIME = FakeCuda()


class FakeCudaArray:
    """A 1-D float32 array in FakeCuda's memory: its __dlpack__ hands out the device pointer and keeps the stream
    rules (ordering the consumer's stream after its queued work), unless a test breaks one."""

    def __init__(self, values: list[float], busy: bool = False, runtime: FakeCuda = RUNTIME,
                 breaks: str = "") -> None:
        self.runtime = runtime
        self.n = len(values)
        data = b"".join(encode(FLOAT32, v) or b"" for v in values)
        self.address = runtime.allocate(len(data), 0)
        if busy:
            runtime.queue_write(self.address, data)
        else:
            runtime.copy_from_host(self.address, data)
        self.breaks = breaks
        self.keep: list[Any] = []
        self.deleted = 0

    def __dlpack_device__(self) -> tuple[int, int]:
        return CUDA

    def __dlpack__(self, *, stream: Any = None, max_version: Any = None, dl_device: Any = None,
                   copy: Any = None) -> Any:
        if isinstance(stream, int) and stream not in (-1, 0, LEGACY_DEFAULT, 2) and self.breaks != "ignores-stream":
            self.runtime.order(self.address, stream)
        versioned = max_version is not None and max_version[0] >= 1
        device = (2, 1) if self.breaks == "other-device-on-none" and stream is None else CUDA
        shape = (self.n - 1,) if self.breaks == "short-on-minus-one" and stream == -1 else (self.n,)

        def deleter(_: Any) -> None:
            self.deleted += 1

        struct = managed_tensor(self.keep, versioned=versioned, data=self.address, device=device,
                                dtype=FLOAT32.triple, shape=shape, strides=(1,), deleter=deleter)
        self.keep.append(struct)
        name = b"dltensor_versioned" if versioned else b"dltensor"
        return _api.PyCapsule_New(ctypes.addressof(struct), name, None)


def _dtype_is_float32(dtype: Any) -> None:
    if getattr(dtype, "name", dtype) != "float32":
        raise ValueError(f"the fake device holds float32 only, not {dtype}")


def target(breaks: str = "") -> Target:
    """godlpack's target with a fake CUDA device (see the module's docstring)."""
    base = load_target("godlpack")

    def make(values: Any, dtype: Any) -> Any:
        _dtype_is_float32(dtype)
        return FakeCudaArray(list(values), breaks=breaks)

    def busy(values: Any) -> Any:
        return FakeCudaArray(list(values), busy=True, breaks=breaks)

    export = base.export

    def export_or_move(x: Any, **kwargs: Any) -> Any:
        if kwargs.get("dl_device") == CUDA and not isinstance(x, FakeCudaArray):
            # PyTorch's answer on a CUDA machine: the data copied to the device, handed out there.
            rest = {k: v for k, v in kwargs.items() if k != "dl_device"}
            return FakeCudaArray([float(v) for v in x.tolist()]).__dlpack__(**rest)
        return export(x, **kwargs)

    return dataclasses.replace(base, name="fake-cuda", export=export_or_move,
                               device=DeviceArrays(CUDA, make, busy, RUNTIME),
                               notes=["godlpack with a fake CUDA device whose memory the host cannot read"])


def broken_other_device_on_none() -> Target:
    return target("other-device-on-none")


def broken_short_on_minus_one() -> Target:
    return target("short-on-minus-one")


def broken_ignores_stream() -> Target:
    return target("ignores-stream")


# Each producer check of a device with streams, and the factory (module:function) whose device breaks it.
BREAKS = {
    "producer.stream.device-none": "fake_cuda:broken_other_device_on_none",
    "producer.stream.device-minus-one": "fake_cuda:broken_short_on_minus_one",
    "producer.stream.device-synchronizes": "fake_cuda:broken_ignores_stream",
}


def without_runtime() -> Target:
    """target(), where the checker has no runtime to read the device's memory with: it must read none of it."""
    t = target()
    assert t.device is not None
    return dataclasses.replace(t, device=dataclasses.replace(t.device, runtime=None))
