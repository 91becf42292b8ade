"""What the checker needs from a library, and the adapters that supply it.

A Target says how to make the library's arrays (of a dtype, as views, read-only), how to export one
(`__dlpack__`), how its consumer is called (`from_dlpack`) and how to try a write. For any array API namespace the
standard supplies all of it (`asarray`, `permute_dims`, slicing, `from_dlpack`, `x.device`); the adapters below
cover what the standard does not say (read-only arrays, dtypes beyond it) and the libraries that are not array
API namespaces (godlpack.check._adapters, whose table names every library the checker knows). A library the checker
does not know is named as `module:factory`, a function returning a Target.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from typing import Any, Callable, Optional

from godlpack.check._device import Runtime, system_runtime
from godlpack.check._verdicts import NotApplicable
from godlpack.check._values import DTYPES, DType

Array = Any
Maker = Callable[[Any, Any], Array]  # (nested Python values, the library's dtype object) -> array


def _dlpack(x: Array, **kwargs: Any) -> Any:
    return x.__dlpack__(**kwargs)


def _dlpack_device(x: Array) -> Any:
    return x.__dlpack_device__()


def _setitem_first(x: Array, value: Any) -> None:
    x[(0,) * len(x.shape)] = value


def _transpose(x: Array) -> Array:
    return x.T


def _reverse(x: Array) -> Array:
    return x[::-1]


def _offset(x: Array) -> Array:
    return x[2:]


def _every_other_column(x: Array) -> Array:
    return x[:, ::2]


def _double(x: Array) -> Any:
    return x + x


@dataclass
class DeviceArrays:
    """The library's arrays on a device with streams (CUDA, ROCm), for the checks of streams and device memory.

    make(values, dtype) makes an array on `device`. busy(values), where the adapter can, makes a float32 one whose
    values are written by the last of a long queue of work on the producer's current stream: a consumer that reads
    it on a stream of its own before the producer ordered that stream after its work reads it too early. runtime
    reads and writes the device's memory; None is the runtime this machine has (godlpack.check._device).
    """

    device: tuple[int, int]
    make: Maker
    busy: Optional[Callable[[Any], Array]] = None
    runtime: Optional[Runtime] = None


@dataclass
class Target:
    """A library as the checks see it.

    make(values, dtype) makes an array holding the nested list values, in the library's dtype object (one of
    `dtypes`' values). Each view function takes an array from make and returns the view the check names, or
    raises NotApplicable where the library cannot make it. readonly(values, dtype) makes a read-only array, or
    is None where the library has none. from_dlpack is the consumer (None: the library has none);
    from_dlpack_takes_capsules says it takes a capsule rather than an object with __dlpack__. write_first(x, v)
    writes v into x's first element and raises where the library refuses; None where the library has no way to
    write. cpu_device is what from_dlpack(device=...) takes for the CPU. cpu_accessible() returns an array on
    memory the CPU reads though its device is not kDLCPU (CUDA host memory, ...), with that device; None where
    the library has none here. immutable says every array is read-only. device makes the library's arrays on a
    device with streams, where this machine has one (None: the stream checks do not apply). compute(x) runs one
    of the library's kernels on an array it imported, and waits for it (None: the library computes nothing).
    """

    name: str
    version: str
    dtypes: dict[str, Any]
    make: Maker
    from_dlpack: Optional[Callable[..., Array]] = None
    from_dlpack_takes_capsules: bool = False
    readonly: Optional[Maker] = None
    write_first: Optional[Callable[[Array, Any], None]] = _setitem_first
    transpose: Callable[[Array], Array] = _transpose
    reverse: Callable[[Array], Array] = _reverse
    offset: Callable[[Array], Array] = _offset
    every_other_column: Callable[[Array], Array] = _every_other_column
    export: Callable[..., Any] = _dlpack
    dlpack_device: Callable[[Array], Any] = _dlpack_device
    cpu_device: Any = None
    cpu_accessible: Optional[Callable[[], tuple[Array, tuple[int, int]]]] = None
    # Every array of the library is read-only (no writable one can be made): readonly is make.
    immutable: bool = False
    device: Optional[DeviceArrays] = None
    compute: Optional[Callable[[Array], Any]] = _double
    notes: list[str] = field(default_factory=list)
    # Objects to keep alive as long as the target (memory that made arrays view).
    keep: list[Any] = field(default_factory=list)

    def dtype(self, name: str) -> Any:
        """The library's dtype object for the DLPack dtype `name`; NotApplicable where the library lacks it."""
        if name not in self.dtypes:
            raise NotApplicable(f"{self.name} has no {name} dtype")
        return self.dtypes[name]

    def array(self, values: Any, dtype_name: str = "float32") -> Array:
        return self.make(values, self.dtype(dtype_name))

    def runtime_for(self, device: tuple[int, int]) -> Optional[Runtime]:
        """The runtime that reads memory of device: the adapter's own for its device, else this machine's."""
        if self.device is not None and self.device.runtime is not None and self.device.device[0] == device[0]:
            return self.device.runtime
        return system_runtime(device[0])


def library(name: str) -> Any:
    """The module `name` of a library outside godlpack's test extras (JAX, pyarrow, Paddle, TensorFlow, MLX, ...),
    imported by name: it need not be installed where godlpack is type-checked, and its types are not the checker's
    concern (the adapters hand its objects to the checks as Any)."""
    return importlib.import_module(name)


def _version_of(module: Any) -> str:
    return str(getattr(module, "__version__", "") or "")


def namespace_dtypes(xp: Any, extra: tuple[DType, ...] = DTYPES) -> dict[str, Any]:
    """The dtypes of DTYPES that namespace xp has as attributes of the same name."""
    return {d.name: getattr(xp, d.name) for d in extra if hasattr(xp, d.name)}


def array_api_target(xp: Any, name: str, version: str = "") -> Target:
    """A Target built from an array API namespace alone: asarray, permute_dims, slicing, from_dlpack, x.device."""

    def make(values: Any, dtype: Any) -> Array:
        return xp.asarray(values, dtype=dtype)

    def transpose(x: Array) -> Array:
        return xp.permute_dims(x, (1, 0)) if hasattr(xp, "permute_dims") else x.T

    probe = xp.asarray([0.0])
    return Target(
        name=name,
        version=version or _version_of(xp),
        dtypes=namespace_dtypes(xp),
        make=make,
        transpose=transpose,
        from_dlpack=getattr(xp, "from_dlpack", None),
        cpu_device=getattr(probe, "device", None),
    )
