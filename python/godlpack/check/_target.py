"""What the checker needs from a library, and the adapters that supply it.

A Target says how to make the library's arrays (of a dtype, as views, read-only), how to export one
(`__dlpack__`), how its consumer is called (`from_dlpack`) and how to try a write. For any array API namespace the
standard supplies all of it (`asarray`, `permute_dims`, slicing, `from_dlpack`, `x.device`); the adapters below
cover what the standard does not say (read-only arrays, dtypes beyond it) and the libraries that are not array
API namespaces. A library the checker does not know is named as `module:factory`, a function returning a Target.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from typing import Any, Callable, Optional

from godlpack.check._model import NotApplicable
from godlpack.check._values import DTYPES, FLOAT32, DType

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
    the library has none here. immutable says every array is read-only.
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


# ---- the adapters: what the array API does not say ----


def numpy_target() -> Target:
    import numpy as np

    target = array_api_target(np, "numpy")

    def readonly(values: Any, dtype: Any) -> Array:
        a = np.asarray(values, dtype=dtype)
        a.flags.writeable = False
        return a

    target.readonly = readonly
    # NumPy has no bfloat16: namespace_dtypes finds none; numpy.float16 and the array API's dtypes it has.
    return target


def torch_target() -> Target:
    import torch

    def make(values: Any, dtype: Any) -> Array:
        return torch.tensor(values, dtype=dtype)

    def reverse(x: Array) -> Array:
        raise NotApplicable("PyTorch tensors have no negative strides (x[::-1] is a ValueError)")

    return Target(
        name="torch",
        version=torch.__version__,
        dtypes=namespace_dtypes(torch),
        make=make,
        reverse=reverse,
        from_dlpack=torch.from_dlpack,
        cpu_device=torch.device("cpu"),
    )


def jax_target() -> Target:
    jax = library("jax")
    jnp = library("jax.numpy")

    jax.config.update("jax_enable_x64", True)  # int64, float64 and complex128 exist only with x64
    target = array_api_target(jnp, "jax.numpy", jax.__version__)
    target.notes.append("jax_enable_x64 is set so that the 64-bit dtypes exist")
    return target


def array_api_strict_target() -> Target:
    xp = library("array_api_strict")

    return array_api_target(xp, "array_api_strict")


def godlpack_target() -> Target:
    """godlpack: its own memory for plain arrays (godlpack.arange, full), views and read-only arrays imported.

    godlpack.Tensor has no indexing: its views are tensors imported from the checker's own hand-made capsules
    (ctypes memory with the layout of the view), and its read-only tensors come from capsules flagged READ_ONLY.
    """
    import godlpack
    from godlpack.check._memory import Memory

    def make(values: Any, dtype: DType) -> Array:
        if isinstance(values, list) and values == [float(v) for v in range(len(values))] and dtype.code in (2, 4, *range(7, 18)):
            return godlpack.arange(len(values), dtype=dtype.name)  # godlpack's own memory
        return Memory.of(values, dtype).import_with(godlpack.from_dlpack)

    def view(transform: Callable[[Memory], Memory]) -> Callable[[Array], Array]:
        def make_view(x: Array) -> Array:
            return transform(Memory.from_tensor(x)).import_with(godlpack.from_dlpack)

        return make_view

    def readonly(values: Any, dtype: DType) -> Array:
        return Memory.of(values, dtype, read_only=True).import_with(godlpack.from_dlpack)

    def write_first(x: Array, value: Any) -> None:
        memoryview(x).cast("B")[0] = 1  # a read-only Tensor's buffer is read-only: TypeError

    def cpu_accessible() -> tuple[Array, tuple[int, int]]:
        return Memory.of([1.0, 2.0, 3.0], FLOAT32, device=(3, 0)).import_with(godlpack.from_dlpack), (3, 0)

    return Target(
        name="godlpack",
        version=godlpack.__version__,
        dtypes={d.name: d for d in DTYPES},
        make=make,
        from_dlpack=godlpack.from_dlpack,
        readonly=readonly,
        write_first=write_first,
        transpose=view(Memory.transposed),
        reverse=view(Memory.reversed),
        offset=view(Memory.offset),
        every_other_column=view(Memory.every_other_column),
        cpu_device="cpu",
        cpu_accessible=cpu_accessible,
        notes=["views and read-only tensors are imported from the checker's own capsules (Tensor has no indexing)"],
    )


def tvm_ffi_target() -> Target:
    """tvm-ffi makes no arrays of its own from values: its Tensors wrap NumPy's (tvm_ffi.from_dlpack)."""
    import numpy as np
    import tvm_ffi

    numpy = numpy_target()

    def wrap(f: Callable[..., Array]) -> Callable[..., Array]:
        return lambda *args: tvm_ffi.from_dlpack(f(*args))

    def unwrap_then(f: Callable[[Array], Array]) -> Callable[[Array], Array]:
        return lambda x: tvm_ffi.from_dlpack(f(np.from_dlpack(x)))

    return Target(
        name="tvm_ffi",
        version=tvm_ffi.__version__,
        dtypes=numpy.dtypes,
        make=wrap(numpy.make),
        readonly=wrap(numpy.readonly) if numpy.readonly else None,
        transpose=unwrap_then(numpy.transpose),
        reverse=unwrap_then(numpy.reverse),
        offset=unwrap_then(numpy.offset),
        every_other_column=unwrap_then(numpy.every_other_column),
        write_first=None,
        from_dlpack=tvm_ffi.from_dlpack,
        notes=["arrays are NumPy's, imported with tvm_ffi.from_dlpack; tvm_ffi.Tensor has no way to write"],
    )


BUILTIN: dict[str, Callable[[], Target]] = {
    "numpy": numpy_target,
    "torch": torch_target,
    "jax": jax_target,
    "jax.numpy": jax_target,
    "array_api_strict": array_api_strict_target,
    "godlpack": godlpack_target,
    "tvm_ffi": tvm_ffi_target,
}


def register(name: str, factory: Callable[[], Target]) -> None:
    """Make `name` a target the command line accepts (the adapters of godlpack.check._adapters do so)."""
    BUILTIN[name] = factory


def load_target(spec: str) -> Target:
    """The Target that spec names: a known library, `module:factory`, or any array API namespace module."""
    import godlpack.check._adapters  # noqa: F401  (registers the adapters of the other libraries)

    if ":" in spec:
        module_name, _, attribute = spec.partition(":")
        factory = getattr(importlib.import_module(module_name), attribute)
        target = factory()
        if not isinstance(target, Target):
            raise TypeError(f"{spec}() returned a {type(target).__name__}, not a godlpack.check.Target")
        return target
    if spec in BUILTIN:
        return BUILTIN[spec]()
    module = importlib.import_module(spec)
    if not hasattr(module, "asarray"):
        raise ValueError(
            f"{spec} is not an array API namespace (no asarray) and godlpack.check has no adapter for it: "
            "name a function that returns a godlpack.check.Target as module:function"
        )
    return array_api_target(module, spec)
