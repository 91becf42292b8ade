"""Eight Python threads exchange and drop tensors at once; deleters also run on C threads with no Python state.

Each thread makes tensors (godlpack, NumPy, PyTorch, a hand-made producer with a counting ctypes deleter
and a C producer whose deleter counts without Python), exchanges them in every direction, crosses into Go
(from_dlpack, zeros, copies) and hands some holders to another thread to drop, or to a fresh pthread to
delete. The run is bounded in time, not in work: what is asserted are the counts at the end, exactly.
"""

from __future__ import annotations

import queue
import random
import threading
import time
from typing import Any

import numpy as np
import torch

import godlpack
import lifetime_helpers as lh
from dlpack_ctypes import HandMade, Producer

THREADS = 8
SECONDS = 3.0


def worker(seed: int, deadline: float, mailbox: queue.Queue[Any], hands: list[HandMade], errors: list[BaseException]) -> int:
    """Exchange and drop until deadline; returns the number of rounds."""
    rng = random.Random(seed)
    rounds = 0
    try:
        while time.monotonic() < deadline:
            hand = HandMade(versioned=rng.random() < 0.5, shape=(4,), strides=(1,))
            hands.append(hand)
            t = godlpack.from_dlpack(Producer(hand.capsule()))
            held: list[Any] = [t, np.from_dlpack(t), t.__dlpack__(max_version=(1, 3))]
            if t.readonly:
                held.append(godlpack.from_dlpack(t, copy=True))
            else:
                held.append(torch.from_dlpack(t))

            c = godlpack.from_dlpack(lh.c_capsule())
            held += [c, torch.from_dlpack(c), np.from_dlpack(c)]
            pthread_capsule = c.__dlpack__(max_version=(1, 3))

            g = godlpack.zeros((rng.randrange(1, 64),), dtype="float32")
            a = np.from_dlpack(g)
            a += 1
            back = godlpack.from_dlpack(torch.from_dlpack(a))
            assert back.data_ptr() == g.data_ptr()
            held += [g, back, godlpack.from_dlpack(np.arange(rng.randrange(1, 64)))]
            held.append(godlpack.from_dlpack(torch.ones(3)))
            held.append(godlpack.from_dlpack(g, copy=True))

            rng.shuffle(held)
            cut = rng.randrange(len(held) + 1)
            mailbox.put(held[:cut])  # another thread drops these
            del held[:cut]
            if rng.random() < 0.5:
                lh.delete_on_thread(pthread_capsule)
            else:
                mailbox.put([pthread_capsule])
            del t, c, g, a, back, held, pthread_capsule
            # Drop what another thread left.
            try:
                while True:
                    mailbox.get_nowait()
            except queue.Empty:
                pass
            rounds += 1
    except BaseException as e:  # reported by the main thread
        errors.append(e)
    return rounds


def test_eight_threads_exchange_and_drop() -> None:
    live = godlpack._core._live_storages
    base = live()
    c = lh.lib()
    made, deleted = c.lt_made(), c.lt_deleted()
    mailbox: queue.Queue[Any] = queue.Queue()
    hands: list[HandMade] = []
    errors: list[BaseException] = []
    rounds = [0] * THREADS
    deadline = time.monotonic() + SECONDS

    def run(i: int) -> None:
        rounds[i] = worker(i, deadline, mailbox, hands, errors)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(THREADS)]
    for th in threads:
        th.start()
    for th in threads:
        th.join(timeout=SECONDS + 120)
        assert not th.is_alive(), "a thread hung"
    if errors:
        raise errors[0]
    while not mailbox.empty():
        mailbox.get_nowait()

    assert all(r > 0 for r in rounds), rounds
    assert len(hands) >= sum(rounds)
    assert [h.deleted for h in hands if h.deleted != 1] == [], "a hand-made deleter ran other than once"
    assert c.lt_made() - made == c.lt_deleted() - deleted >= sum(rounds)
    assert live() == base


def test_deleters_on_many_foreign_threads() -> None:
    """Deleters of one storage run on eight pthreads at once (no Python thread state, not made by Go)."""
    live = godlpack._core._live_storages
    base = live()
    c = lh.lib()
    for _ in range(50):
        start = c.lt_deleted()
        t = godlpack.from_dlpack(lh.c_capsule())
        capsules = [t.__dlpack__(max_version=(1, 3)) for _ in range(THREADS)]
        taken = [lh.take(capsule) for capsule in capsules]
        del t, capsules
        # ctypes releases the GIL around each foreign call, so the pthreads race each other.
        threads = [threading.Thread(target=c.lt_delete_on_thread, args=(p, int(v))) for p, v in taken]
        for th in threads:
            th.start()
        for th in threads:
            th.join(timeout=60)
            assert not th.is_alive()
        assert c.lt_deleted() - start == 1
    assert live() == base


def test_a_thread_count_beyond_the_cores_leaves_the_runtime_as_it_was() -> None:
    """Issue 48, defect 3: set_num_threads(10**6) and one large sum left godlpack's Go runtime with a P per worker
    for good (287 on 2 cores, 154 OS threads, each collection 30 times slower). A split gets at most the CPUs + 1
    while it runs, and the count it found afterwards: the process keeps about the threads it had."""
    import os

    def threads() -> int:
        return len(os.listdir("/proc/self/task"))

    saved = godlpack.get_num_threads()
    x = np.ones(40_000_000)  # 320 MB: up to 40 workers of 8 MiB
    godlpack.ops.sum(x)  # the runtime's own threads for a split of its usual size, once
    before = threads()
    godlpack.set_num_threads(10**6)
    try:
        assert godlpack.ops.sum(x) == 40_000_000
    finally:
        godlpack.set_num_threads(saved)
    assert threads() <= before + (os.cpu_count() or 1) + 2, (before, threads())
