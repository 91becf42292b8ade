"""Every deleter runs exactly once, when the last holder goes, whatever the order; exit never crashes.

docs/protocol.md#lifetimes and docs/protocol.md#consumer-ownership.

The holders of one piece of memory are its producer, the godlpack Tensor that imported it, the capsules
and arrays re-exported from that Tensor and what consumed them. Each test drops them in every order
(itertools.permutations) and checks, after every drop, that the producer's counted deleter has not run
while a holder remains, that it has run exactly once after the last, and that godlpack's live storage
counter is back where it started.
"""

from __future__ import annotations

import gc
import itertools
import textwrap
import weakref
from typing import Any, Callable

import numpy as np
import pytest
import torch

import godlpack
import lifetime_helpers as lh
from dlpack_ctypes import HandMade, Producer

live = godlpack._core._live_storages

# How each re-export is made from the Tensor t; every one holds t's storage.
REEXPORTS: dict[str, Callable[[Any], Any]] = {
    "capsule": lambda t: t.__dlpack__(max_version=(1, 3)),
    "legacy_capsule": lambda t: t.__dlpack__(),
    "numpy": np.from_dlpack,
    "torch": torch.from_dlpack,
    "memoryview": memoryview,
    "godlpack_of_numpy": lambda t: godlpack.from_dlpack(np.from_dlpack(t)),
    "numpy_of_torch": lambda t: torch.from_dlpack(t).numpy(),
}


class Holders:
    """Named holders whose release is either dropping the last reference or a C thread calling a deleter."""

    def __init__(self) -> None:
        self.objects: dict[str, Any] = {}

    def add(self, name: str, obj: Any) -> None:
        self.objects[name] = obj

    def release(self, name: str) -> None:
        obj = self.objects.pop(name)
        if name.startswith("pthread"):
            lh.delete_on_thread(obj)  # the capsule is now used_..., its tensor deleted on a foreign thread
        del obj


def drop_in_order(
    make: Callable[[], tuple[Holders, Callable[[], int]]], names: list[str], base: int,
    bystanders: frozenset[str] = frozenset({"producer"}), outside: frozenset[str] = frozenset({"producer"}),
) -> int:
    """Drop the holders in every order; deleted() counts the producer's deleter. Returns the orders tried.

    A bystander (a producer object that handed its tensor over and keeps no part in it) may go at any
    point without holding the deleter back. The holders outside godlpack (the producer) do not hold a
    godlpack storage: the live counter counts only the others.
    """
    tried = 0
    for order in itertools.permutations(names):
        holders, deleted = make()
        assert set(holders.objects) == set(names)
        for i, name in enumerate(order):
            holding = set(order[i:]) - bystanders
            assert deleted() == (0 if holding else 1), f"deleted {deleted()} times with {order[i:]} left (order {order})"
            assert (live() > base) == bool(set(order[i:]) - outside), f"storage count {live() - base} with {order[i:]} left (order {order})"
            holders.release(name)
        assert deleted() == 1, f"the deleter ran {deleted()} times after dropping {order}"
        assert live() == base, f"{live() - base} storages outlived every holder (order {order})"
        tried += 1
    return tried


@pytest.mark.parametrize(
    "versioned, reexports",
    [
        (True, ["capsule", "numpy", "torch"]),
        (True, ["legacy_capsule", "memoryview", "godlpack_of_numpy", "numpy_of_torch"]),
        # A legacy import is read-only: only versioned capsules and read-only-aware consumers take it.
        (False, ["capsule", "numpy", "memoryview", "godlpack_of_numpy"]),
    ],
    ids=["versioned-capsule-numpy-torch", "versioned-legacy-memoryview-chains", "legacy-readonly"],
)
def test_hand_made_producer_any_order(versioned: bool, reexports: list[str]) -> None:
    base = live()

    def make() -> tuple[Holders, Callable[[], int]]:
        hand = HandMade(versioned=versioned, shape=(4,), strides=(1,))
        holders = Holders()
        producer = Producer(hand.capsule())
        t = godlpack.from_dlpack(producer)
        holders.add("producer", producer)
        for name in reexports:
            holders.add(name, REEXPORTS[name](t))
        holders.add("pthread_capsule", t.__dlpack__(max_version=(1, 0)))
        holders.add("tensor", t)
        del t
        return holders, lambda: hand.deleted

    names = ["producer", "tensor", "pthread_capsule", *reexports]
    tried = drop_in_order(make, names, base)
    assert tried == len(list(itertools.permutations(names)))


def test_numpy_producer_any_order() -> None:
    """NumPy's deleter lets go of the source array: a weakref.finalize on it counts that release."""
    base = live()

    def make() -> tuple[Holders, Callable[[], int]]:
        count = [0]
        source = np.arange(8, dtype=np.float32)
        weakref.finalize(source, lambda: count.__setitem__(0, count[0] + 1))
        holders = Holders()
        t = godlpack.from_dlpack(source)
        holders.add("producer", source)
        holders.add("tensor", t)
        holders.add("capsule", t.__dlpack__(max_version=(1, 3)))
        holders.add("torch", torch.from_dlpack(t))
        holders.add("numpy", np.from_dlpack(t))
        # NumPy's deleter takes the GIL itself when this foreign pthread turns out to be the last holder.
        holders.add("pthread_capsule", t.__dlpack__(max_version=(1, 3)))
        del t, source
        return holders, lambda: count[0]

    names = ["producer", "tensor", "capsule", "torch", "numpy", "pthread_capsule"]
    drop_in_order(make, names, base, bystanders=frozenset())


def test_c_producer_any_order() -> None:
    """A producer in C, whose deleter counts without Python; the last holder may be a foreign pthread."""
    base = live()
    c = lh.lib()

    def make() -> tuple[Holders, Callable[[], int]]:
        start = c.lt_deleted()
        holders = Holders()
        t = godlpack.from_dlpack(lh.c_capsule())
        assert t.tolist() == [0.0, 1.0, 2.0, 3.0]
        holders.add("tensor", t)
        holders.add("pthread_capsule", t.__dlpack__(max_version=(1, 3)))
        holders.add("pthread_legacy", t.__dlpack__())
        holders.add("torch", torch.from_dlpack(t))
        holders.add("numpy", np.from_dlpack(t))
        del t
        return holders, lambda: c.lt_deleted() - start

    drop_in_order(make, ["tensor", "pthread_capsule", "pthread_legacy", "torch", "numpy"], base)
    assert c.lt_made() == c.lt_deleted()


def test_own_memory_any_order() -> None:
    """Memory godlpack allocated: its storage is freed (the counter drops) only with its last holder."""
    base = live()

    def make() -> tuple[Holders, Callable[[], int]]:
        holders = Holders()
        t = godlpack.arange(6, dtype="float32")
        holders.add("tensor", t)
        holders.add("shared", godlpack.from_dlpack(t))
        holders.add("pthread_capsule", t.__dlpack__(max_version=(1, 3)))
        holders.add("torch", torch.from_dlpack(t))
        holders.add("numpy", np.from_dlpack(t))
        del t
        return holders, lambda: 1 if live() == base else 0

    drop_in_order(make, ["tensor", "shared", "pthread_capsule", "torch", "numpy"], base)


def test_copy_releases_producer_at_once() -> None:
    """from_dlpack(copy=True) holds nothing of the producer: its deleter has run when the call returns."""
    base = live()
    hand = HandMade(shape=(4,), strides=(1,))
    t = godlpack.from_dlpack(Producer(hand.capsule()), copy=True)
    assert hand.deleted == 1 and t.is_copied
    del t
    assert hand.deleted == 1 and live() == base


def test_deleter_on_foreign_thread_without_python() -> None:
    """The last holder is a pthread that neither Go nor Python created: the producer's deleter runs there."""
    c = lh.lib()
    start = c.lt_deleted()
    t = godlpack.from_dlpack(lh.c_capsule())
    capsule = t.__dlpack__(max_version=(1, 3))
    del t
    assert c.lt_deleted() == start
    thread = lh.delete_on_thread(capsule)
    assert c.lt_deleted() == start + 1
    assert c.lt_last_deleter_thread() == thread


def test_reference_cycles_are_collected() -> None:
    base = live()
    hand = HandMade(shape=(4,), strides=(1,))
    gc.disable()
    try:
        t = godlpack.from_dlpack(Producer(hand.capsule()))
        cycle: list[Any] = [t, t.__dlpack__(max_version=(1, 3)), np.from_dlpack(t), torch.from_dlpack(t)]
        cycle.append(cycle)
        del t, cycle
        assert hand.deleted == 0
        gc.collect()
        assert hand.deleted == 1 and live() == base
    finally:
        gc.enable()


# ---- interpreter exit ----

PRELUDE = """
import ctypes, gc, sys
import numpy as np, torch, godlpack
import lifetime_helpers as lh
from dlpack_ctypes import HandMade, Producer
"""


def run_to_exit(body: str) -> str:
    """Run PRELUDE + body in a fresh interpreter: it must exit 0 and say nothing on stderr; its stdout."""
    return lh.run_to_exit(PRELUDE + textwrap.dedent(body))


def test_tensors_alive_at_exit() -> None:
    out = run_to_exit(
        """
        hand = HandMade(shape=(4,), strides=(1,))
        kept = []
        for make in (lambda: godlpack.from_dlpack(np.arange(4.0)), lambda: godlpack.from_dlpack(torch.ones(3)),
                     lambda: godlpack.zeros((2, 2)), lambda: godlpack.from_dlpack(Producer(hand.capsule())),
                     lambda: godlpack.from_dlpack(lh.c_capsule())):
            t = make()
            kept += [t, t.__dlpack__(max_version=(1, 3)), t.__dlpack__(), np.from_dlpack(t), torch.from_dlpack(t),
                     memoryview(t), godlpack.from_dlpack(t)]
        print("alive", godlpack._core._live_storages())
        """
    )
    assert out == "alive 5\n"


def test_reference_cycles_alive_at_exit() -> None:
    out = run_to_exit(
        """
        import os
        gc.disable()
        class Node:
            def __init__(self, t):
                self.t, self.me = t, self
            def __del__(self):
                # Runs during finalization, written with os.write because sys.stdout may be gone. godlpack's own
                # calls still work (an exception here would reach stderr); NumPy's from_dlpack imports a module,
                # which is refused once imports are torn down.
                t = self.t
                t.__dlpack__(max_version=(1, 3)), t.tolist(), godlpack.from_dlpack(t).tolist()
                memoryview(t).tolist(), godlpack.ops.sum(t)
                os.write(1, b"godlpack works\\n")
                try:
                    np.from_dlpack(t).sum()
                    os.write(1, b"numpy works\\n")
                except ImportError:
                    os.write(1, b"numpy refused\\n")
        for make in (lambda: godlpack.from_dlpack(np.arange(4.0)), lambda: godlpack.from_dlpack(torch.ones(3)),
                     lambda: godlpack.arange(5), lambda: godlpack.from_dlpack(lh.c_capsule())):
            t = make()
            node = Node(t)
            node.exports = [t.__dlpack__(max_version=(1, 3)), np.from_dlpack(t), torch.from_dlpack(t), node]
        del t, node
        print("cycles", godlpack._core._live_storages(), flush=True)
        """
    )
    lines = out.splitlines()
    assert lines[0] == "cycles 4", out
    finalizers = lines[1:]
    assert finalizers.count("godlpack works") == 4, out  # every Node's finalizer ran, once
    numpy = [line for line in finalizers if line != "godlpack works"]
    assert len(numpy) == 4 and set(numpy) <= {"numpy works", "numpy refused"}, out


def test_c_holder_outlives_interpreter() -> None:
    """A C library keeps tensors past Py_FinalizeEx and calls their deleters from exit(): no crash.

    The hand-made producer's deleter is a ctypes callback, unusable once Python is gone: godlpack leaks
    that tensor instead of calling it. Its own memory and the C producer's tensor are plain C to free.
    """
    out = run_to_exit(
        """
        hand = HandMade(shape=(4,), strides=(1,))
        sources = [np.arange(4.0), torch.ones(3), godlpack.zeros((2, 2)), Producer(hand.capsule()), lh.c_capsule()]
        for source in sources:
            t = godlpack.from_dlpack(source)
            for capsule in (t.__dlpack__(max_version=(1, 3)), t.__dlpack__()):
                pointer, versioned = lh.take(capsule)
                assert lh.lib().lt_keep_until_exit(pointer, int(versioned)) == 0
        del t, capsule, sources, source
        gc.collect()
        print("kept", godlpack._core._live_storages(), flush=True)
        """
    )
    assert out == "kept 5\nlifetime-helper: 10 deleters ran after finalize\n"


def test_kernels_on_every_core_at_exit() -> None:
    """A daemon thread's kernels run split over worker goroutines, the GIL released, as the interpreter exits:
    the process exits 0, whichever step the kernels are at."""
    out = run_to_exit(
        """
        import threading, time
        import godlpack.ops
        big = np.ones(1 << 24, np.float32)  # 64 MiB: split, without the GIL
        godlpack.set_num_threads(4)
        def kernels():
            while True:
                godlpack.ops.sum(big)
                godlpack.ops.scale_(big, 1.0)
        threading.Thread(target=kernels, daemon=True).start()
        time.sleep(0.2)
        print("exiting")
        """
    )
    assert out == "exiting\n"


def test_deleter_on_foreign_thread_at_exit() -> None:
    """A C thread still deleting while the interpreter exits: the process exits 0."""
    out = run_to_exit(
        """
        t = godlpack.from_dlpack(np.arange(4.0))
        capsules = [t.__dlpack__(max_version=(1, 3)) for _ in range(100)]
        for capsule in capsules[:50]:
            lh.delete_on_thread(capsule)
        print("left", godlpack._core._live_storages())
        """
    )
    assert out == "left 1\n"
