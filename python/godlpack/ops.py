"""Kernels written in Go that work on any DLPack producer's memory.

Every function takes NumPy arrays, PyTorch tensors, godlpack Tensors, any
object with ``__dlpack__`` or a DLPack capsule, of any strides, and reads or
writes the producer's own memory through DLPack: nothing is copied. Inputs of
1 MiB or more are processed with the GIL released, so other Python threads run
meanwhile.

Supported dtypes: bool (``sum`` only), int8 to int64, uint8 to uint64,
float16, bfloat16, float32 and float64; ``copy_`` copies any dtype.
"""

from godlpack import _core

__all__ = ["copy_", "scale_", "sum"]

# Bound Go functions (package pymodule), made as functions of this module: they pickle by name, and
# inspect.signature reads their text signatures. Their docstrings come from pyext/ops.go.
sum = _core._ops.sum  # noqa: A001 - the name of the operation
scale_ = _core._ops.scale_
copy_ = _core._ops.copy_
