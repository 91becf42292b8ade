"""A correct DLPack library the checker has no adapter for: an array API namespace over NumPy, by another name.

Checked as `python -m godlpack.check numpy_namespace`, it is what godlpack.check.array_api_target makes of any
namespace (asarray, permute_dims, slicing, from_dlpack, x.device), with no adapter: it must exit 0.
"""

from __future__ import annotations

from numpy import (  # noqa: F401  (the namespace's names, as the array API spells them)
    asarray,
    bool,
    complex64,
    complex128,
    float16,
    float32,
    float64,
    from_dlpack,
    int8,
    int16,
    int32,
    int64,
    permute_dims,
    uint8,
    uint16,
    uint32,
    uint64,
)
