"""A Go extension built on godlpack."""

from typing import Any, Protocol, type_check_only

@type_check_only
class _Tensor(Protocol):
    """A DLPack producer: a NumPy array, a PyTorch tensor, a godlpack Tensor, ..."""

    def __dlpack__(self, *, stream: Any = ..., max_version: tuple[int, int] | None = ...,
                   dl_device: Any = ..., copy: bool | None = ...) -> Any: ...
    def __dlpack_device__(self) -> tuple[int, int]: ...

def normalize(x: _Tensor) -> _Tensor:
    """Rescale the float32 array x in place to mean 0 and std 1; return (mean, std) as a tensor."""
