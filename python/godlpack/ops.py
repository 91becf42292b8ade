"""Kernels written in Go that work on any DLPack producer's memory.

Every function takes NumPy arrays, PyTorch tensors, godlpack Tensors, any
object with ``__dlpack__`` or a DLPack capsule, of any strides, and reads or
writes the producer's own memory through DLPack: nothing is copied. Inputs of
1 MiB or more are processed with the GIL released, so other Python threads run
meanwhile.

Supported dtypes: bool (``sum`` only), int8 to int64, uint8 to uint64,
float16, bfloat16, float32 and float64; ``copy_`` copies any dtype.
"""

# Names imported under a leading underscore, and no `from __future__ import annotations`: dir(godlpack.ops)
# lists the kernels, not the typing helpers they are annotated with.
from typing import Any as _Any
from typing import SupportsFloat as _SupportsFloat
from typing import SupportsIndex as _SupportsIndex
from typing import Union as _Union

from godlpack import _core

__all__ = ["copy_", "scale_", "sum"]


def sum(x: _Any, /) -> _Union[int, float]:  # noqa: A001 - the name of the operation
    """Return the sum of the elements of ``x``.

    Integers are summed into an int64 (uint64 for unsigned dtypes) that wraps
    around as NumPy's does, and the result is an ``int``; bools count the
    ``True`` elements; floats are summed in float64 and the result is a
    ``float``. Raises ``TypeError`` for other dtypes and ``BufferError`` for
    data the CPU cannot read.
    """
    return _core._ops_sum(x)


def scale_(x: _Any, a: _Union[int, float, _SupportsIndex, _SupportsFloat], /) -> None:
    """Multiply the elements of ``x`` by ``a`` in place, in ``x``'s own memory.

    Float dtypes round ``a`` to the dtype and multiply in it, as
    ``x *= x.dtype.type(a)`` does in NumPy. Integer dtypes need an integer
    ``a`` (an ``int``, a ``bool``, NumPy's integers and ``np.True_``) that
    fits the dtype (``TypeError`` for a float, ``OverflowError`` otherwise)
    and wrap around on overflow.

    Raises ``BufferError`` when ``x`` may not be written: its producer marked
    it read-only (``READ_ONLY``), it spoke only the legacy DLPack protocol,
    which cannot say that writing is allowed, or it handed over a copy.
    """
    _core._ops_scale(x, a)


def copy_(dst: _Any, src: _Any, /) -> None:
    """Copy the elements of ``src`` into ``dst`` in place, whatever their strides.

    Both must have the same shape (``ValueError`` otherwise; there is no
    broadcasting) and the same dtype (``TypeError`` otherwise). ``src`` may
    overlap ``dst``: the result is as if ``src`` were read first. Raises
    ``BufferError`` when ``dst`` may not be written, as ``scale_`` does.
    """
    _core._ops_copy(dst, src)
