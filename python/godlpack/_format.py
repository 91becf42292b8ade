"""str() of a godlpack Tensor where NumPy cannot be imported.

With NumPy, the Tensor type prints itself through NumPy's own printer
(pytensor/tensor_values.c, numpy_str). Without it, tensor_str lays out the elements
the Tensor shows as NumPy would: every element up to 1000, else the first and
last 3 of every longer dimension, with "..." between.
"""

from __future__ import annotations

import typing


def tensor_str(values: typing.Any, ndim: int) -> str:
    """Return the elements shown as ``str()`` of the same NumPy array shows them, without NumPy.

    ``values`` are what the Tensor shows, nested ``ndim`` lists deep (a scalar for ``ndim`` 0), with ``None``
    where "..." stands for the elements a summary leaves out: never the whole tensor when it is summarised.
    """
    cells: list[str] = []
    _collect(values, ndim, cells)
    width = max((len(c) for c in cells), default=0)
    return _layout(values, ndim, width, 1)


def _cell(v: object) -> str:
    return str(v) if not isinstance(v, list) else "[" + " ".join(str(x) for x in v) + "]"


def _collect(values: typing.Any, ndim: int, cells: list[str]) -> None:
    if ndim == 0:
        cells.append(_cell(values))
        return
    for v in values:
        if v is not None:
            _collect(v, ndim - 1, cells)


def _layout(values: typing.Any, ndim: int, width: int, depth: int) -> str:
    if ndim == 0:
        return _cell(values).rjust(width)
    parts = ["..." if v is None else _layout(v, ndim - 1, width, depth + 1) for v in values]
    if ndim == 1:
        return "[" + " ".join(parts) + "]"
    # Rows of a matrix on lines of their own, one blank line more per dimension above, as NumPy sets them.
    separator = "\n" * (ndim - 1) + " " * depth
    return "[" + separator.join(parts) + "]"
