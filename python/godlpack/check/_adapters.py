"""The adapters: what the array API does not say about the libraries the checker knows, and the table of them.

Each adapter says only what the array API would have said: how to make an array of values in a dtype, its views
where the library has them, read-only arrays, its consumer, and how to write an element. Everything else is the
checks' own. ADAPTERS is the one table of the targets the command line knows by name; any other name is an array
API namespace (godlpack.check._target.array_api_target) or `module:factory`.
"""

from __future__ import annotations

import importlib
from typing import Any, Callable

from godlpack.check._device import KDL_CUDA
from godlpack.check._verdicts import NotApplicable
from godlpack.check._target import Array, DeviceArrays, Target, array_api_target, library, namespace_dtypes
from godlpack.check._values import DTYPES, FLOAT32, DType


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
    """PyTorch: no read-only tensors, no negative strides; its CUDA tensors where this machine has CUDA."""
    import torch
    import torch.utils.dlpack

    def make(values: Any, dtype: Any) -> Array:
        return torch.tensor(values, dtype=dtype)

    def reverse(x: Array) -> Array:
        raise NotApplicable("PyTorch tensors have no negative strides (x[::-1] is a ValueError)")

    device = None
    if torch.cuda.is_available():
        cuda = torch.device("cuda", torch.cuda.current_device())

        def on_cuda(values: Any, dtype: Any) -> Array:
            return torch.tensor(values, dtype=dtype, device=cuda)

        def busy(values: Any) -> Array:
            ready = torch.tensor(values, dtype=torch.float32, device=cuda)
            getattr(torch.cuda, "_sleep")(1 << 30)  # a kernel that spins about half a second on the current stream
            return ready.clone()  # written by the kernel queued after it

        device = DeviceArrays((KDL_CUDA, cuda.index or 0), on_cuda, busy)
    return Target(
        name="torch",
        version=torch.__version__,
        dtypes=namespace_dtypes(torch),
        make=make,
        reverse=reverse,
        from_dlpack=torch.utils.dlpack.from_dlpack,
        cpu_device=torch.device("cpu"),
        device=device,
    )


def jax_target() -> Target:
    """JAX: every array is immutable (read-only, no way to write); its GPU arrays where this machine has one."""
    jax = library("jax")
    jnp = library("jax.numpy")

    jax.config.update("jax_enable_x64", True)  # int64, float64 and complex128 exist only with x64
    target = array_api_target(jnp, "jax.numpy", jax.__version__)
    target.readonly, target.immutable, target.write_first = target.make, True, None
    target.compute = lambda x: (x + x).block_until_ready()  # JAX dispatches asynchronously
    try:
        gpu = jax.devices("gpu")[0]
    except RuntimeError:  # no GPU backend here
        gpu = None
    if gpu is not None:
        target.device = DeviceArrays((KDL_CUDA, gpu.id), lambda values, dtype: jax.device_put(
            jnp.asarray(values, dtype=dtype), gpu))
    target.notes.append("jax_enable_x64 is set so that the 64-bit dtypes exist; JAX arrays are immutable")
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
    import godlpack.ops
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
        compute=godlpack.ops.sum,
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
        compute=None,
        notes=["arrays are NumPy's, imported with tvm_ffi.from_dlpack; tvm_ffi.Tensor has no way to write"],
    )


def _no_view(library: str, view: str) -> Any:
    def refuse(x: Array) -> Array:
        raise NotApplicable(f"{library} arrays have no {view}")

    return refuse


def pyarrow_target() -> Target:
    """pyarrow: 1-D immutable arrays (pa.array), sliced zero-copy; its consumer is pa.Tensor.from_dlpack, for any
    number of dimensions (pa.Array.from_dlpack takes 1-D contiguous tensors only), read back through the Tensor's
    own __dlpack__."""
    pa = library("pyarrow")

    types = {
        "bool": pa.bool_(), "int8": pa.int8(), "int16": pa.int16(), "int32": pa.int32(), "int64": pa.int64(),
        "uint8": pa.uint8(), "uint16": pa.uint16(), "uint32": pa.uint32(), "uint64": pa.uint64(),
        "float16": pa.float16(), "float32": pa.float32(), "float64": pa.float64(),
    }

    def make(values: Any, dtype: Any) -> Array:
        if not isinstance(values, list) or any(isinstance(v, list) for v in values):
            raise NotApplicable("pyarrow arrays are 1-D")
        if dtype == pa.float16():
            import numpy as np

            return pa.array(np.asarray(values, dtype=np.float16))
        return pa.array(values, type=dtype)

    return Target(
        name="pyarrow",
        version=pa.__version__,
        dtypes=types,
        make=make,
        transpose=_no_view("pyarrow", "transpose (they are 1-D)"),
        reverse=_no_view("pyarrow", "negative strides"),
        every_other_column=_no_view("pyarrow", "2-D views"),
        readonly=make,
        immutable=True,
        write_first=None,
        from_dlpack=pa.Tensor.from_dlpack,
        cpu_device=(1, 0),
        compute=None,
        notes=["arrays are 1-D and immutable; the consumer is pa.Tensor.from_dlpack (pa.Array.from_dlpack takes 1-D "
               "contiguous tensors only)"],
    )


def paddle_target() -> Target:
    paddle = library("paddle")

    def make(values: Any, dtype: Any) -> Array:
        return paddle.to_tensor(values, dtype=dtype)

    return Target(
        name="paddle",
        version=paddle.__version__,
        dtypes=namespace_dtypes(paddle),
        make=make,
        transpose=lambda x: paddle.transpose(x, [1, 0]),
        from_dlpack=paddle.from_dlpack,
        cpu_device=paddle.CPUPlace(),
    )


def tensorflow_target() -> Target:
    tf = library("tensorflow")

    def make(values: Any, dtype: Any) -> Array:
        return tf.constant(values, dtype=dtype)

    return Target(
        name="tensorflow",
        version=tf.__version__,
        dtypes=namespace_dtypes(tf.dtypes),
        make=make,
        transpose=tf.transpose,
        from_dlpack=tf.experimental.dlpack.from_dlpack,
        from_dlpack_takes_capsules=True,
        readonly=make,
        immutable=True,
        write_first=None,
        notes=["tf.experimental.dlpack.from_dlpack takes a capsule; tensors are immutable"],
    )


def mlx_target() -> Target:
    mx = library("mlx.core")

    def make(values: Any, dtype: Any) -> Array:
        return mx.array(values, dtype=dtype)

    return Target(
        name="mlx.core",
        version=str(getattr(mx, "__version__", "")),
        dtypes=namespace_dtypes(mx),
        make=make,
        from_dlpack=mx.from_dlpack,
        cpu_device=mx.cpu,
        compute=lambda x: mx.eval(x + x),  # MLX computes lazily
    )


ADAPTERS: dict[str, Callable[[], Target]] = {
    "numpy": numpy_target,
    "torch": torch_target,
    "jax": jax_target,
    "jax.numpy": jax_target,
    "array_api_strict": array_api_strict_target,
    "godlpack": godlpack_target,
    "tvm_ffi": tvm_ffi_target,
    "pyarrow": pyarrow_target,
    "paddle": paddle_target,
    "tensorflow": tensorflow_target,
    "mlx": mlx_target,
    "mlx.core": mlx_target,
}


def load_target(spec: str) -> Target:
    """The Target that spec names: a known library, `module:factory`, or any array API namespace module."""
    if ":" in spec:
        module_name, _, attribute = spec.partition(":")
        factory = getattr(importlib.import_module(module_name), attribute)
        target = factory()
        if not isinstance(target, Target):
            raise TypeError(f"{spec}() returned a {type(target).__name__}, not a godlpack.check.Target")
        return target
    if spec in ADAPTERS:
        return ADAPTERS[spec]()
    module = importlib.import_module(spec)
    if not hasattr(module, "asarray"):
        raise ValueError(
            f"{spec} is not an array API namespace (no asarray) and godlpack.check has no adapter for it: "
            "name a function that returns a godlpack.check.Target as module:function"
        )
    return array_api_target(module, spec)
