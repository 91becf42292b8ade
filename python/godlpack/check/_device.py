"""Memory the host cannot read: devices, their streams, and reading device memory as a consumer does.

The checker never dereferences device memory on the host. A tensor on memory the host can read (kDLCPU, CUDA or
ROCm host memory) is read with ctypes; any other is copied to the host through a Runtime, on a stream the checker
names, as a consumer reads it; where there is no runtime for the device, its elements are not read at all and the
result says so. The CUDA runtime is found in the process (the library under check loaded it) or beside it;
a test gives a Runtime of its own, whose "device" pointers are not host memory, to prove that nothing else reads
them.
"""

from __future__ import annotations

import ctypes
import glob
import os
import sys
from typing import Any, Optional, Protocol

from godlpack.check._dlpack import Decoded
from godlpack.check._values import element_offsets

KDL_CPU = 1
KDL_CUDA = 2
KDL_CUDA_HOST = 3
KDL_ROCM = 10
KDL_ROCM_HOST = 11
# Memory the host reads directly: the CPU's, and device runtimes' pinned host memory. CUDA managed memory is left
# to the runtime: a host read while a kernel runs faults on devices without concurrent managed access.
HOST_READABLE = {KDL_CPU: "kDLCPU", KDL_CUDA_HOST: "kDLCUDAHost", KDL_ROCM_HOST: "kDLROCMHost"}
DEVICE_NAMES = {KDL_CUDA: "CUDA", KDL_ROCM: "ROCm"}

RULE_STREAM = (
    "array API __dlpack__: stream, 'for CUDA and ROCm, a Python integer representing a pointer to a stream'; for "
    "CUDA 'None: producer must assume the legacy default stream (default). 1: the legacy default stream. 2: the "
    "per-thread default stream. > 2: stream number represented as a Python integer. 0 is disallowed due to its "
    "ambiguity'; for ROCm 'None: ... the legacy default stream (default). 0: the default stream. > 2: stream "
    "number ... Using 1 and 2 is not supported'; 'If stream is -1, the value may be used by the consumer to signal "
    "\"producer must not perform any synchronization\"'"
)


def host_readable(device: tuple[int, int]) -> bool:
    return device[0] in HOST_READABLE


def device_name(device: tuple[int, int]) -> str:
    name = HOST_READABLE.get(device[0]) or DEVICE_NAMES.get(device[0]) or f"device type {device[0]}"
    return f"{name} device {device[1]}"


def stream_fault(device_type: int, stream: Any) -> str:
    """Why stream is not a value a consumer may pass to __dlpack__ for data on device_type ("" where it may)."""
    if stream is None:
        return ""
    if isinstance(stream, bool) or not isinstance(stream, int):
        return f"stream={stream!r} is not an integer"
    if stream == -1:
        return ""
    if device_type == KDL_CUDA:
        if stream == 0:
            return "stream=0, which the standard disallows for CUDA 'due to its ambiguity'"
        return "" if stream > 0 else f"stream={stream}, below -1"
    if device_type == KDL_ROCM:
        if stream in (1, 2):
            return f"stream={stream}: for ROCm 'Using 1 and 2 is not supported'"
        return "" if stream >= 0 else f"stream={stream}, below -1"
    return f"stream={stream!r} for data on {device_name((device_type, 0))}, where 'only None is accepted'"


def reading_stream(device_type: int, asked: Any) -> Optional[int]:
    """The stream a consumer that passed `asked` to __dlpack__ reads the data on: the legacy default stream for
    None (1 for CUDA, 0 for ROCm), the stream itself for a stream, and None (after all work on the device, since
    nothing was ordered) for -1."""
    if asked is None:
        return 0 if device_type == KDL_ROCM else 1
    if asked == -1:
        return None
    return int(asked)


class Runtime(Protocol):
    """What the checker asks of a device's runtime: streams of its own, and memory copied in order on them.

    A stream is an int as __dlpack__ takes it (for CUDA: 1 the legacy default stream, 2 the per-thread default
    stream, or a stream's handle).
    """

    device_type: int

    def create_stream(self, device_id: int) -> int:
        """A new stream that does not wait for the legacy default stream (a consumer's own stream)."""
        ...

    def destroy_stream(self, stream: int) -> None: ...

    def copy_to_host(self, address: int, nbytes: int, stream: Optional[int]) -> bytes:
        """nbytes at device address, copied to the host in order on stream, and waited for; stream None: after all
        work queued on the device."""
        ...

    def allocate(self, nbytes: int, device_id: int) -> int: ...

    def copy_from_host(self, address: int, data: bytes) -> None:
        """data written at device address, and waited for."""
        ...

    def free(self, address: int) -> None: ...


class DeviceError(RuntimeError):
    """A call of a device runtime failed (the pointer a producer handed out is not device memory, ...)."""


# cudaMemcpyKind: cudaMemcpyDefault infers the direction from the pointers (unified addressing: every 64-bit
# Linux process); cudaStreamNonBlocking: a stream that does not wait for the legacy default stream.
_CUDA_MEMCPY_DEFAULT = 4
_CUDA_STREAM_NON_BLOCKING = 1


class CudaRuntime:
    """The CUDA runtime library (libcudart) through ctypes."""

    device_type = KDL_CUDA

    def __init__(self, library: Any) -> None:
        self.lib = library
        self.lib.cudaGetErrorString.restype = ctypes.c_char_p
        self.lib.cudaGetErrorString.argtypes = [ctypes.c_int]
        self.lib.cudaMemcpyAsync.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int,
                                             ctypes.c_void_p]
        self.lib.cudaMemcpy.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
        self.lib.cudaStreamSynchronize.argtypes = [ctypes.c_void_p]
        self.lib.cudaStreamDestroy.argtypes = [ctypes.c_void_p]
        self.lib.cudaStreamCreateWithFlags.argtypes = [ctypes.POINTER(ctypes.c_void_p), ctypes.c_uint]
        self.lib.cudaMalloc.argtypes = [ctypes.POINTER(ctypes.c_void_p), ctypes.c_size_t]
        self.lib.cudaFree.argtypes = [ctypes.c_void_p]
        self.lib.cudaSetDevice.argtypes = [ctypes.c_int]

    def _call(self, name: str, *args: Any) -> None:
        status = getattr(self.lib, name)(*args)
        if status != 0:
            message = self.lib.cudaGetErrorString(status)
            raise DeviceError(f"{name} failed: {message.decode() if message else status}")

    def device_count(self) -> int:
        count = ctypes.c_int(0)
        try:
            self._call("cudaGetDeviceCount", ctypes.byref(count))
        except DeviceError:
            return 0
        return count.value

    def create_stream(self, device_id: int) -> int:
        self._call("cudaSetDevice", device_id)
        stream = ctypes.c_void_p()
        self._call("cudaStreamCreateWithFlags", ctypes.byref(stream), _CUDA_STREAM_NON_BLOCKING)
        return int(stream.value or 0)

    def destroy_stream(self, stream: int) -> None:
        self._call("cudaStreamDestroy", ctypes.c_void_p(stream))

    def copy_to_host(self, address: int, nbytes: int, stream: Optional[int]) -> bytes:
        out = (ctypes.c_uint8 * max(nbytes, 1))()
        if stream is None:
            self._call("cudaDeviceSynchronize")
            self._call("cudaMemcpy", out, ctypes.c_void_p(address), nbytes, _CUDA_MEMCPY_DEFAULT)
        else:
            self._call("cudaMemcpyAsync", out, ctypes.c_void_p(address), nbytes, _CUDA_MEMCPY_DEFAULT,
                       ctypes.c_void_p(stream))
            self._call("cudaStreamSynchronize", ctypes.c_void_p(stream))
        return bytes(out)[:nbytes]

    def allocate(self, nbytes: int, device_id: int) -> int:
        self._call("cudaSetDevice", device_id)
        pointer = ctypes.c_void_p()
        self._call("cudaMalloc", ctypes.byref(pointer), max(nbytes, 1))
        return int(pointer.value or 0)

    def copy_from_host(self, address: int, data: bytes) -> None:
        self._call("cudaMemcpy", ctypes.c_void_p(address), data, len(data), _CUDA_MEMCPY_DEFAULT)

    def free(self, address: int) -> None:
        self._call("cudaFree", ctypes.c_void_p(address))


def _cudart_candidates() -> list[str]:
    """libcudart's names: the sonames a library under check may have loaded already, then the copies that NVIDIA's
    wheels put beside the interpreter's packages."""
    names = ["libcudart.so", "libcudart.so.13", "libcudart.so.12", "libcudart.so.11.0"]
    for entry in sys.path:
        names += sorted(glob.glob(os.path.join(entry, "nvidia", "cuda_runtime", "lib", "libcudart.so*")))
        names += sorted(glob.glob(os.path.join(entry, "nvidia", "cu*", "lib", "libcudart.so*")))
    return names


_SYSTEM: dict[int, Optional[Runtime]] = {}


def system_runtime(device_type: int) -> Optional[Runtime]:
    """The runtime of device_type on this machine, found once: CUDA's where libcudart loads and sees a device;
    None elsewhere (then device memory is not read)."""
    if device_type not in _SYSTEM:
        runtime: Optional[Runtime] = None
        if device_type == KDL_CUDA:
            for name in _cudart_candidates():
                try:
                    cuda = CudaRuntime(ctypes.CDLL(name))
                except (OSError, AttributeError):
                    continue
                if cuda.device_count() > 0:
                    runtime = cuda
                break
        _SYSTEM[device_type] = runtime
    return _SYSTEM[device_type]


def read_device_elements(runtime: Runtime, decoded: Decoded, stream: Optional[int]) -> list[bytes]:
    """The bytes of every element of a tensor in device memory, in C order: its extent copied to the host by
    runtime on stream (see Runtime.copy_to_host), then sliced. Nothing is read on the host from the device."""
    itemsize, offsets = element_offsets(decoded)
    if not offsets:
        return []
    low, high = min(offsets), max(offsets) + itemsize
    span = runtime.copy_to_host(decoded.data + decoded.byte_offset + low, high - low, stream)
    return [span[offset - low : offset - low + itemsize] for offset in offsets]
