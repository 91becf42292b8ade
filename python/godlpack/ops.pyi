"""Kernels written in Go that work on any DLPack producer's memory (see ops.py)."""

from typing import Any, SupportsFloat, SupportsIndex

__all__ = ["copy_", "dot", "max", "min", "scale_", "sum"]

def sum(x: Any, /) -> int | float: ...  # noqa: A001
def scale_(x: Any, a: int | float | SupportsIndex | SupportsFloat, /) -> None: ...
def copy_(dst: Any, src: Any, /) -> None: ...
def dot(x: Any, y: Any, /) -> int | float: ...
def min(x: Any, /) -> bool | int | float: ...  # noqa: A001
def max(x: Any, /) -> bool | int | float: ...  # noqa: A001
