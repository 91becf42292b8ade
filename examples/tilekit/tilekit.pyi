"""Running statistics, histograms and distances, in Go."""

import sys
from typing import Any, Callable, ClassVar, Final, Protocol, SupportsIndex, Union, final, type_check_only

from typing_extensions import CapsuleType

import enum

import numpy

@type_check_only
class SupportsDLPack(Protocol):
    """A tensor of any DLPack producer: a NumPy array, a PyTorch tensor, a JAX array, a godlpack Tensor, ...

    What a parameter takes of it (dtypes, shape, layout) is its annotation, shown first in its function's docstring:
    x: tensor[float32, (*, *)] takes a 2-D float32 tensor."""

    def __dlpack__(self, *, stream: Any = ..., max_version: tuple[int, int] | None = ...,
                   dl_device: Any = ..., copy: bool | None = ...) -> Any: ...
    def __dlpack_device__(self) -> tuple[int, int]: ...

@type_check_only
class _SupportsDLPackDevice(Protocol):
    def __dlpack_device__(self) -> tuple[int, int]: ...

@type_check_only
class _SupportsDLPackDataType(Protocol):
    def __dlpack_data_type__(self) -> tuple[int, int, int]: ...

# NumPy dtypes and scalar types, torch.dtype objects and Python's bool, int, float and complex are accepted too.
_DTypeLike = Union["DType", str, _SupportsDLPackDataType, type, Any]
# A (device_type, device_id) tuple (a Device is one), a str such as "cpu" or "cuda:1", a torch.device.
_DeviceLike = Union[tuple[int, int], str, _SupportsDLPackDevice, Any]

@final
class Device(tuple[int, int]):
    """A device as DLPack names it: the (device_type, device_id) tuple, with type and index by name."""

    def __new__(cls, device: _DeviceLike, index: int | None = None) -> "Device": ...
    @property
    def type(self) -> str: ...
    # torch.device's name for the device id; it hides tuple.index, of no use on a pair.
    @property
    def index(self) -> int: ...  # type: ignore[override]
    def __dlpack_device__(self) -> tuple[int, int]: ...

@final
class DType:
    """An element type of the DLPack table; equal to its name, and to NumPy's and PyTorch's dtypes of it."""

    def __new__(cls, name: _DTypeLike) -> "DType": ...
    @property
    def code(self) -> int: ...
    @property
    def bits(self) -> int: ...
    @property
    def lanes(self) -> int: ...
    @property
    def itemsize(self) -> int: ...
    @property
    def name(self) -> str: ...
    def __eq__(self, other: object, /) -> bool: ...
    def __hash__(self) -> int: ...
    def __dlpack_data_type__(self) -> tuple[int, int, int]: ...

@final
class Tensor:
    """An n-dimensional array that speaks DLPack."""

    # DLPack 1.3's C exchange API: a "dlpack_exchange_api" capsule on the type, read by C consumers.
    __dlpack_c_exchange_api__: ClassVar[CapsuleType]
    @property
    def shape(self) -> tuple[int, ...]: ...
    @property
    def strides(self) -> tuple[int, ...]: ...
    @property
    def ndim(self) -> int: ...
    @property
    def size(self) -> int: ...
    @property
    def itemsize(self) -> int: ...
    @property
    def nbytes(self) -> int: ...
    @property
    def dtype(self) -> DType: ...
    @property
    def device(self) -> Device: ...
    @property
    def readonly(self) -> bool: ...
    @property
    def is_copied(self) -> bool: ...
    def data_ptr(self) -> int: ...
    def __len__(self) -> int: ...
    def __bool__(self) -> bool: ...
    def tolist(self) -> Any: ...
    def __dlpack__(
        self,
        *,
        stream: int | None = None,
        max_version: tuple[int, int] | None = None,
        dl_device: _DeviceLike | None = None,
        copy: bool | None = None,
    ) -> Any: ...
    def __dlpack_device__(self) -> tuple[int, int]: ...
    if sys.version_info >= (3, 12):
        # PEP 688: CPython 3.12 gives every type with the buffer protocol a __buffer__ method.
        def __buffer__(self, flags: int, /) -> memoryview: ...
    def __reduce_ex__(self, protocol: SupportsIndex, /) -> tuple[Any, ...]: ...
    def __reduce__(self) -> tuple[Any, ...]: ...
    def __copy__(self) -> Tensor: ...
    def __deepcopy__(self, memo: dict[int, Any] | None, /) -> Tensor: ...

@final
class Stats:
    """Running mean and variance of each column of float32 rows."""

    def __new__(cls, width: int | SupportsIndex) -> Stats: ...
    def update(self, x: SupportsDLPack, /) -> None:
        """update(self, x: tensor[float32, (*, *)], /) -> None

        Add the rows of x.
        """
    def merge(self, other: Stats, /) -> None:
        """Add the rows other has seen."""
    def mean(self, /) -> numpy.ndarray[tuple[int], numpy.dtype[numpy.float64]]:
        """mean(self, /) -> numpy.ndarray[float64, (*)]

        The mean of each column.
        """
    def variance(self, /) -> numpy.ndarray[tuple[int], numpy.dtype[numpy.float64]]:
        """variance(self, /) -> numpy.ndarray[float64, (*)]

        The variance of each column.
        """
    def __len__(self, /) -> int:
        """The rows seen."""
    def __add__(self, other: Stats, /) -> Stats:
        """The statistics of the rows both have seen."""
    def __iadd__(self, other: Stats, /) -> Stats:
        """Add the rows other has seen, in place."""
    @property
    def count(self) -> int:
        """The rows seen."""
    @property
    def width(self) -> int:
        """The columns."""
    def __reduce__(self) -> tuple[Any, ...]: ...

@final
class Rows:
    """Float32 rows of one width, kept in C memory as they are added."""

    def __new__(cls, width: int | SupportsIndex) -> Rows: ...
    def add(self, x: SupportsDLPack, /) -> None:
        """add(self, x: tensor[float32, (*, *), C, convert], /) -> None

        Append the rows of x.
        """
    def clear(self, /) -> None:
        """Remove every row, keeping the memory."""
    @property
    def data(self) -> Tensor:
        """The rows: a tensor over their memory (zero-copy), which keeps them from growing while it lives."""
    def __reduce__(self) -> tuple[Any, ...]: ...

class TilekitError(ValueError):
    """A tensor of the wrong shape."""

class Norm(enum.IntEnum):
    """How norms measures a row."""
    L1 = 0
    L2 = 1
    MAX = 2

def histogram(x: SupportsDLPack, /) -> numpy.ndarray[tuple[int], numpy.dtype[numpy.int64]]:
    """histogram(x: tensor[uint8], /) -> numpy.ndarray[int64, (256)]

    How many of each byte value x holds.
    """

def sqdist(a: SupportsDLPack, b: SupportsDLPack, /) -> numpy.ndarray[tuple[int, int], numpy.dtype[numpy.float32]]:
    """sqdist(a: tensor[float32, (*, *), C, convert], b: tensor[float32, (*, *), C, convert], /) -> numpy.ndarray[float32, (*, *)]

    The squared distance of each row of a to each row of b.
    """

def norms(x: SupportsDLPack, /, norm: Norm | int = ...) -> numpy.ndarray[tuple[int], numpy.dtype[numpy.float32]]:
    """norms(x: tensor[float32, (*, *)], /, norm: Norm = Norm.L2) -> numpy.ndarray[float32, (*)]

    The norm of each row of x.
    """

def map_(x: SupportsDLPack, f: Callable[[float], float], /) -> None:
    """map_(x: tensor[float32, writable], f: Callable[[float], float], /) -> None

    Replace each element v of x by f(v).
    """

def set_num_threads(n: int | SupportsIndex, /) -> int:
    """Set the threads sqdist may use (below 1: the default); return the last count."""
