"""Functions that multiprocessing runs in its worker processes (importable by name under spawn and forkserver)."""

from __future__ import annotations

from typing import Any


def roundtrip() -> dict[str, Any]:
    """Use godlpack in the worker: import from NumPy, export to NumPy, create and copy."""
    import numpy as np

    import godlpack

    a = np.arange(4, dtype=np.float64)
    t = godlpack.from_dlpack(a)
    shared = t.data_ptr() == a.ctypes.data
    back = np.from_dlpack(godlpack.arange(3)).tolist()
    copied = godlpack.from_dlpack(t, copy=True).tolist()
    del t
    return {"shared": shared, "back": back, "copied": copied, "live": godlpack._core._live_storages()}


def create() -> list[float]:
    """One call into godlpack's Go code."""
    import godlpack

    return godlpack.zeros(2).tolist()


def echo_tensors(tensors: list[Any]) -> dict[str, Any]:
    """Receive tensors by pickle, read them, and send them back with one made here."""
    import godlpack

    return {
        "tensors": tensors,
        "lists": [t.tolist() for t in tensors],
        "made": godlpack.arange(3, dtype="bfloat16"),
        "live": godlpack._core._live_storages(),
    }
