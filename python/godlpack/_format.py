"""str() of a godlpack Tensor where NumPy cannot be imported.

With NumPy, the Tensor type prints itself through NumPy's own printer
(capsule/tensor.c, numpy_str). Without it, tensor_str lays the elements out as
NumPy would, summarising tensors of more than 1000 elements with "...".
"""

from __future__ import annotations

import typing

if typing.TYPE_CHECKING:
    from godlpack._core import Tensor

# NumPy's defaults: print every element up to this many, else this many at each end of every dimension.
_THRESHOLD = 1000
_EDGE_ITEMS = 3


def tensor_str(t: Tensor) -> str:
    """Return the elements of ``t`` as ``str()`` of the same NumPy array shows them, without NumPy."""
    values = t.tolist()
    summarise = t.size > _THRESHOLD
    cells: list[str] = []
    _collect(values, t.ndim, summarise, cells)
    width = max((len(c) for c in cells), default=0)
    return _layout(values, t.ndim, summarise, width, 1)


def _shown(n: int, summarise: bool) -> list[int | None]:
    """The indexes printed along a dimension of n, None where "..." stands."""
    if summarise and n > 2 * _EDGE_ITEMS:
        return [*range(_EDGE_ITEMS), None, *range(n - _EDGE_ITEMS, n)]
    return list(range(n))


def _cell(v: object) -> str:
    return str(v) if not isinstance(v, list) else "[" + " ".join(str(x) for x in v) + "]"


def _collect(values: typing.Any, ndim: int, summarise: bool, cells: list[str]) -> None:
    if ndim == 0:
        cells.append(_cell(values))
        return
    for i in _shown(len(values), summarise):
        if i is not None:
            _collect(values[i], ndim - 1, summarise, cells)


def _layout(values: typing.Any, ndim: int, summarise: bool, width: int, depth: int) -> str:
    if ndim == 0:
        return _cell(values).rjust(width)
    parts = [
        "..." if i is None else _layout(values[i], ndim - 1, summarise, width, depth + 1)
        for i in _shown(len(values), summarise)
    ]
    if ndim == 1:
        return "[" + " ".join(parts) + "]"
    # Rows of a matrix on lines of their own, one blank line more per dimension above, as NumPy sets them.
    separator = "\n" * (ndim - 1) + " " * depth
    return "[" + separator.join(parts) + "]"
