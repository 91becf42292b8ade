"""Softmax, layer norm, scores and cosine top-k over float32 rows, in Go."""

import sys
from typing import Any, Callable, ClassVar, Final, Protocol, SupportsIndex, Union, final, type_check_only

from typing_extensions import CapsuleType

import numpy

@type_check_only
class SupportsDLPack(Protocol):
    """A tensor of any DLPack producer: a NumPy array, a PyTorch tensor, a JAX array, a godlpack Tensor, ...

    What a parameter takes of it (dtypes, shape, layout) is its annotation, shown first in its function's docstring:
    x: tensor[float32, (*, *)] takes a 2-D float32 tensor."""

    def __dlpack__(self, *, stream: Any = ..., max_version: tuple[int, int] | None = ...,
                   dl_device: Any = ..., copy: bool | None = ...) -> Any: ...
    def __dlpack_device__(self) -> tuple[int, int]: ...

def softmax_(x: SupportsDLPack, /) -> None:
    """softmax_(x: tensor[float32, (*, *), C, writable, convert], /) -> None

    Replace each row of x by its softmax.
    """

def layer_norm(x: SupportsDLPack, gamma: SupportsDLPack, beta: SupportsDLPack, eps: float = ...) -> numpy.ndarray[tuple[int, int], numpy.dtype[numpy.float32]]:
    """layer_norm(x: tensor[float32, (*, *), C, convert], gamma: tensor[float32, (*), C, convert], beta: tensor[float32, (*), C, convert], eps: float = 1e-5) -> numpy.ndarray[float32, (*, *)]

    Normalize each row of x, then scale by gamma and shift by beta.
    """

def scores(queries: SupportsDLPack, corpus: SupportsDLPack) -> numpy.ndarray[tuple[int, int], numpy.dtype[numpy.float32]]:
    """scores(queries: tensor[float32, (*, *), C, convert], corpus: tensor[float32, (*, *), C, convert]) -> numpy.ndarray[float32, (*, *)]

    queries @ corpus.T.
    """

def cosine_topk(queries: SupportsDLPack, corpus: SupportsDLPack, k: int | SupportsIndex) -> tuple[numpy.ndarray[tuple[int, int], numpy.dtype[numpy.float32]], numpy.ndarray[tuple[int, int], numpy.dtype[numpy.int64]]]:
    """cosine_topk(queries: tensor[float32, (*, *), C, convert], corpus: tensor[float32, (*, *), C, convert], k: int) -> tuple[numpy.ndarray[float32, (*, *)], numpy.ndarray[int64, (*, *)]]

    The k rows of corpus most like each query (cosine), best first: scores, indices.
    """

@final
class Index:
    """Vectors of one dimension, searched by cosine similarity."""

    def __new__(cls, dim: int | SupportsIndex) -> Index: ...
    def add(self, /, x: SupportsDLPack) -> None:
        """add(self, /, x: tensor[float32, (*, *), C, convert]) -> None

        Add the rows of x.
        """
    def search(self, /, q: SupportsDLPack, k: int | SupportsIndex) -> tuple[numpy.ndarray[tuple[int, int], numpy.dtype[numpy.float32]], numpy.ndarray[tuple[int, int], numpy.dtype[numpy.int64]]]:
        """search(self, /, q: tensor[float32, (*, *), C, convert], k: int) -> tuple[numpy.ndarray[float32, (*, *)], numpy.ndarray[int64, (*, *)]]

        The k vectors most like each row of q: scores, indices.
        """
    def __len__(self, /) -> int:
        """The vectors added."""
    @property
    def ntotal(self) -> int:
        """The vectors added."""
    def __reduce__(self) -> tuple[Any, ...]: ...

def set_num_threads(n: int | SupportsIndex, /) -> int:
    """Set the threads the functions use (below 1: the default); return the last count."""
