"""Softmax, layer norm, scores and cosine top-k over float32 rows, in Go."""

import sys
from typing import Any, Callable, ClassVar, Final, Protocol, SupportsIndex, Union, final, type_check_only

from typing_extensions import CapsuleType

import numpy

@type_check_only
class _Tensor(Protocol):
    """A DLPack producer: a NumPy array, a PyTorch tensor, a godlpack Tensor, ..."""

    def __dlpack__(self, *, stream: Any = ..., max_version: tuple[int, int] | None = ...,
                   dl_device: Any = ..., copy: bool | None = ...) -> Any: ...
    def __dlpack_device__(self) -> tuple[int, int]: ...

def softmax_(x: _Tensor, /) -> None:
    """Replace each row of x by its softmax."""

def layer_norm(x: _Tensor, gamma: _Tensor, beta: _Tensor, eps: float = ...) -> numpy.ndarray[Any, Any]:
    """Normalize each row of x, then scale by gamma and shift by beta."""

def scores(queries: _Tensor, corpus: _Tensor) -> numpy.ndarray[Any, Any]:
    """queries @ corpus.T."""

def cosine_topk(queries: _Tensor, corpus: _Tensor, k: int | SupportsIndex) -> tuple[numpy.ndarray[Any, Any], numpy.ndarray[Any, Any]]:
    """The k rows of corpus most like each query (cosine), best first: scores, indices."""

@final
class Index:
    """Vectors of one dimension, searched by cosine similarity."""

    def __new__(cls, dim: int | SupportsIndex) -> Index: ...
    def add(self, /, x: _Tensor) -> None:
        """Add the rows of x."""
    def search(self, /, q: _Tensor, k: int | SupportsIndex) -> tuple[numpy.ndarray[Any, Any], numpy.ndarray[Any, Any]]:
        """The k vectors most like each row of q: scores, indices."""
    def __len__(self, /) -> int:
        """The vectors added."""
    @property
    def ntotal(self) -> int:
        """The vectors added."""
    def __reduce__(self) -> tuple[Any, ...]: ...

def set_num_threads(n: int | SupportsIndex, /) -> int:
    """Set the threads the functions use (below 1: the default); return the last count."""
