"""Chains of any depth of re-exports are freed without exhausting the C stack.

Each link of a NumPy <-> godlpack chain holds the previous one through a deleter: freeing the last array
frees the tensor under it, whose owner calls NumPy's deleter, which frees the array before, and so on. Done
recursively, 100,000 round trips overflowed the C stack (a segfault); releases now queue on their thread and
the outermost one drains them. Each chain is built and freed in a subprocess, so that a crash fails the test
cleanly; the child checks that every storage is gone and that the producer at the root was deleted once.

NumPy-only chains (np.from_dlpack of np.from_dlpack ...) crash at about 1,000,000 links on their own,
in NumPy's deleters: not godlpack's to fix, so the chains here always pass through godlpack.
The promise: docs/protocol.md#lifetimes.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

from child_env import child_env

CHILD = textwrap.dedent(
    """
    import ctypes, sys, threading
    import numpy as np
    import godlpack as gd
    from dlpack_ctypes import HandMade
    from exchange_api import from_py_object, release, table_of

    depth, kind, free = int(sys.argv[1]), sys.argv[2], sys.argv[3]
    before = gd._core._live_storages()
    root = HandMade(shape=(4,), strides=(1,))
    x = gd.from_dlpack(root.capsule())
    for _ in range(depth):
        if kind == "numpy":      # numpy -> godlpack: NumPy's deleter frees an array over our export
            x = gd.from_dlpack(np.from_dlpack(x))
        elif kind == "capsule":  # godlpack -> godlpack through capsules: our deleters only
            x = gd.from_dlpack(x.__dlpack__(max_version=(1, 3)))
        else:                    # godlpack -> numpy -> godlpack, the last link a NumPy array
            x = np.from_dlpack(gd.from_dlpack(x))
    assert gd._core._live_storages() - before >= depth, gd._core._live_storages()  # the chain is alive
    if free == "thread":
        # Only a managed tensor from the exchange API holds the chain; its deleter runs on another
        # thread, with the GIL released for the call (ctypes' CFUNCTYPE).
        managed = from_py_object(table_of(type(x)), x)
        del x
        worker = threading.Thread(target=release, args=(managed,))
        worker.start()
        worker.join(300)
        assert not worker.is_alive()
        x = None
    del x
    assert gd._core._live_storages() == before, gd._core._live_storages()
    assert root.deleted == 1, root.deleted
    print("ok")
    """
)


def run_chain(depth: int, kind: str, free: str = "del") -> None:
    done = subprocess.run([sys.executable, "-c", CHILD, str(depth), kind, free], capture_output=True, text=True,
                          env=child_env(), timeout=600)
    assert done.returncode == 0 and done.stdout.strip() == "ok", (
        f"exit {done.returncode} (a negative code is a signal: -11 is a segfault)\n{done.stderr[-3000:]}")


@pytest.mark.parametrize("kind", ["numpy", "numpy_last"])
def test_numpy_round_trips_100k(kind: str) -> None:
    run_chain(100_000, kind)


def test_capsule_chain_1m() -> None:
    run_chain(1_000_000, "capsule")


@pytest.mark.parametrize("kind", ["numpy", "capsule"])
def test_chain_freed_on_another_thread_without_the_gil(kind: str) -> None:
    run_chain(100_000, kind, free="thread")
