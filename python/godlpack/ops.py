"""Kernels written in Go that work on any DLPack producer's memory.

Every function takes NumPy arrays, PyTorch tensors, godlpack Tensors, any
object with ``__dlpack__`` or a DLPack capsule, of any strides, and reads or
writes the producer's own memory through DLPack: nothing is copied. Inputs of
1 MiB or more are processed with the GIL released, so other Python threads run
meanwhile, and large ones are split across up to ``godlpack.get_num_threads()``
threads. Contiguous data runs through vector kernels (AVX-512, AVX2 or NEON,
as the CPU has them).

Supported dtypes: bool (``sum``, ``min`` and ``max``), int8 to int64, uint8
to uint64, float16, bfloat16, float32 and float64; ``copy_`` copies any dtype.
"""

from godlpack import _core

__all__ = ["copy_", "dot", "max", "min", "scale_", "sum"]

# Bound Go functions (package pymodule), made as functions of this module: they pickle by name, and
# inspect.signature reads their text signatures. Their docstrings come from pyext/ops.go.
sum = _core._ops.sum  # noqa: A001 - the name of the operation
scale_ = _core._ops.scale_
copy_ = _core._ops.copy_
dot = _core._ops.dot
min = _core._ops.min  # noqa: A001
max = _core._ops.max  # noqa: A001
