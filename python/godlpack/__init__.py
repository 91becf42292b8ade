"""godlpack: DLPack 1.x tensors for Python, with a core written in Go.

Tensors move zero-copy between godlpack, NumPy, PyTorch and any library that
speaks the Python array API's DLPack protocol, in both directions.
"""

from godlpack._core import (
    DLPACK_VERSION,
    Device,
    DType,
    Tensor,
    arange,
    empty,
    from_dlpack,
    full,
    zeros,
)
from godlpack import ops
from godlpack._threads import get_num_threads, set_num_threads
from godlpack._version import __version__

__all__ = [
    "DLPACK_VERSION",
    "DType",
    "Device",
    "Tensor",
    "__version__",
    "arange",
    "empty",
    "from_dlpack",
    "full",
    "get_num_threads",
    "ops",
    "set_num_threads",
    "zeros",
]
