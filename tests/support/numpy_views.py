"""NumPy arrays of every layout and dtype whose __dlpack__ godlpack reads without calling, and a way to make it call.

Shared by tests/numpy/test_numpy_struct_path.py (godlpack.from_dlpack) and the bindtest suite (bound functions), which
compare the two paths.
"""

from __future__ import annotations

from typing import Any

import numpy as np


class Forwarding:
    """x behind __dlpack__ and __dlpack_device__ of its own: an import of it calls x's __dlpack__."""

    def __init__(self, x: Any) -> None:
        self.x = x

    def __dlpack__(self, **kw: Any) -> Any:
        return self.x.__dlpack__(**kw)

    def __dlpack_device__(self) -> Any:
        return self.x.__dlpack_device__()


def arrays() -> list[np.ndarray]:
    """0-d, empty, transposed, reversed, broadcast, read-only and strided arrays, and every dtype __dlpack__ exports."""
    base = np.arange(48, dtype=np.float64).reshape(4, 12)
    ro = np.arange(6.0)
    ro.flags.writeable = False
    out = [np.array(2.5), np.zeros((3, 0)), base, base.T, base[::-1, ::3], base[:, 1:2],
           np.broadcast_to(base[0], (3, 12)), ro, np.arange(10, dtype=np.int32)[::-2]]
    for t in ("?", "b", "B", "h", "H", "i", "I", "l", "L", "q", "Q", "e", "f", "d", "F", "D", "intp", "uintp"):
        out.append(np.ones((2, 3), dtype=t)[:, ::2])
    return out


def refused() -> list[np.ndarray]:
    """Arrays NumPy's __dlpack__ refuses: its BufferError is the answer on every path."""
    return [np.arange(4.0).astype(">f8"), np.zeros(3, np.longdouble), np.zeros(3, dtype="M8[s]"),
            np.zeros(2, dtype=[("a", "u1")])]


class CountingSubclass(np.ndarray):
    """An ndarray subclass whose __dlpack__ counts its calls: an import asks a subclass's own __dlpack__."""

    calls = 0

    def __dlpack__(self, **kw: Any) -> Any:
        type(self).calls += 1
        return super().__dlpack__(**kw)


def counting_subclass() -> CountingSubclass:
    """[0.0, 1.0, 2.0] as a fresh subclass of CountingSubclass, whose calls start at 0."""
    s: np.ndarray = np.arange(3.0).view(type("Sub", (CountingSubclass,), {"calls": 0}))
    assert isinstance(s, CountingSubclass)
    return s
