"""Row statistics of float tensors, in Go."""

from typing import Any, Protocol, type_check_only

@type_check_only
class _Tensor(Protocol):
    """A DLPack producer: a NumPy array, a PyTorch tensor, a godlpack Tensor, ..."""

    def __dlpack__(self, *, stream: Any = ..., max_version: tuple[int, int] | None = ...,
                   dl_device: Any = ..., copy: bool | None = ...) -> Any: ...
    def __dlpack_device__(self) -> tuple[int, int]: ...

def row_norms(x: _Tensor, /) -> _Tensor:
    """The L2 norm of each row of x, in x's dtype."""

def clip_(x: _Tensor, /, lo: float = ..., hi: float = ...) -> tuple[int, int]:
    """Clip x in place to [lo, hi]; return (raised, lowered): the counts moved up and down."""
