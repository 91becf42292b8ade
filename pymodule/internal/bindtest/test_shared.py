"""Shared methods: bindtest's Shelf, whose shared reads run at once from many threads with the GIL released, beside
getters and field reads, while a write runs alone; a call that a running call excludes raises at once.

Run in a process of its own with bindtest (tests/extensions/test_binder.py, or `make example-test`).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

import pytest

import bindtest as b

IN_USE = "{caller}: argument 'self': the bindtest.Shelf is in use by {holder}() on another thread, which released the " \
         "GIL or runs Python code"


def while_running(call: Callable[[], Any], probe: Callable[[], Any]) -> list[Any]:
    """What probe returns or raises, called over and over from this thread while call runs on another."""
    started = threading.Event()

    def run() -> None:
        started.set()
        call()

    t = threading.Thread(target=run)
    t.start()
    started.wait()
    seen: list[Any] = []
    while t.is_alive():
        try:
            seen.append(probe())
        except RuntimeError as e:
            seen.append(str(e))
        time.sleep(0.002)
    t.join()
    return seen


def test_shared_calls_run_at_once_from_many_threads() -> None:
    s = b.Shelf()
    barrier = threading.Barrier(8)

    def reads() -> None:
        barrier.wait()
        for _ in range(3):
            s.read(0.02)

    threads = [threading.Thread(target=reads) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert s.most >= 2, s.most  # 8 sleeping reads of one shelf at once, each with the GIL released
    assert s.violations == 0


def test_getters_fields_and_shared_methods_run_beside_shared_calls() -> None:
    s = b.Shelf()
    s.write(0)
    seen = while_running(lambda: s.read(0.2), lambda: (s.read(0), len(s), s.writes, s.most))
    assert seen and all(not isinstance(x, str) for x in seen), seen
    assert seen[-1][1:3] == (1, 1) and s.violations == 0


def test_an_exclusive_call_on_a_value_shared_calls_hold_is_refused() -> None:
    s = b.Shelf()
    seen = while_running(lambda: s.read(0.2), lambda: s.write(0))
    assert IN_USE.format(caller="Shelf.write()", holder="Shelf.read") in seen, seen
    assert s.violations == 0


@pytest.mark.parametrize("probe, caller", [
    (lambda s: s.read(0), "Shelf.read()"),
    (lambda s: len(s), "Shelf.__len__()"),
    (lambda s: s.most, "Shelf.most()"),
    (lambda s: s.writes, "field 'writes'"),
    (lambda s: s.write(0), "Shelf.write()"),
])
def test_a_shared_call_on_a_value_an_exclusive_call_holds_is_refused(probe: Callable[[Any], Any],
                                                                      caller: str) -> None:
    s = b.Shelf()
    seen = while_running(lambda: s.write(0.2), lambda: probe(s))
    message = IN_USE.format(caller=caller, holder="Shelf.write")
    if caller.startswith("field"):
        message = message.replace(": argument 'self'", "")
    assert message in seen, seen
    assert s.violations == 0


def test_no_exclusive_call_ever_overlaps_a_shared_one() -> None:
    # Readers and writers from 8 threads, the GIL released in each call: every call either ran alone or beside
    # calls it allows (Go's atomics count the rest as violations), or was refused at once with the documented message.
    s = b.Shelf()
    deadline = time.monotonic() + 0.6
    done: dict[str, int] = {"read": 0, "write": 0}
    refusals: set[str] = set()
    lock = threading.Lock()

    def work(i: int) -> None:
        call, name = (s.write, "write") if i % 4 == 0 else (s.read, "read")
        while time.monotonic() < deadline:
            try:
                call(0.001)
            except RuntimeError as e:
                with lock:
                    refusals.add(str(e))
            else:
                with lock:
                    done[name] += 1

    threads = [threading.Thread(target=work, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert s.violations == 0
    assert done["read"] > 0 and done["write"] > 0 and s.writes == done["write"], (done, s.writes)
    allowed = {IN_USE.format(caller=f"Shelf.{c}()", holder=f"Shelf.{h}") for c, h in
               [("read", "write"), ("write", "read"), ("write", "write")]}
    assert refusals <= allowed, refusals - allowed


def test_a_shared_calls_callback_may_call_the_value_from_its_own_thread() -> None:
    # The shared call waits for its callback: an exclusive call from that thread runs alone, as it nests.
    s = b.Shelf()
    s.visit(lambda: s.write(0))
    assert len(s) == 1 and s.violations == 0
