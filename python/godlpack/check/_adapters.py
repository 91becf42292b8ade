"""Adapters for libraries that are not array API namespaces: pyarrow, Paddle, TensorFlow, MLX.

Each says only what the array API would have said: how to make an array of values in a dtype, its views where the
library has them, its consumer, and how to write an element. Everything else is the checks' own.
"""

from __future__ import annotations

from typing import Any

from godlpack.check._model import NotApplicable
from godlpack.check._target import Array, Target, library, namespace_dtypes, register


def _no_view(library: str, view: str) -> Any:
    def refuse(x: Array) -> Array:
        raise NotApplicable(f"{library} arrays have no {view}")

    return refuse


def pyarrow_target() -> Target:
    """pyarrow: 1-D arrays only (pa.array), sliced zero-copy; no consumer."""
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
        notes=["pyarrow has no from_dlpack; its arrays are 1-D and immutable"],
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
    )


register("pyarrow", pyarrow_target)
register("paddle", paddle_target)
register("tensorflow", tensorflow_target)
register("mlx", mlx_target)
register("mlx.core", mlx_target)
