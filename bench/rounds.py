"""Interleaved timing rounds, which the bench scripts share: every case is timed once per round, so that a
ratio of two cases compares figures taken moments apart, whatever else the machine did meanwhile."""

from __future__ import annotations

import gc
import statistics
import sys
import timeit
from typing import Any, Callable, Union

# A case is a function of no arguments, or a statement and the names it reads: timeit compiles a statement into
# its own loop, so a call of a few hundred nanoseconds is timed without a Python function call around it.
Call = Union[Callable[[], Any], tuple[str, dict[str, Any]]]


def timer(call: Call) -> timeit.Timer:
    if isinstance(call, tuple):
        stmt, names = call
        return timeit.Timer(stmt, globals=names)
    return timeit.Timer(call)


def measure(calls: dict[str, Call], rounds: int, number: int, warm: bool = False,
            alternate: bool = False) -> dict[str, list[float]]:
    """ns per call of each case, one figure per round; the rounds interleave the cases. warm: one untimed call of
    the case before each timing, so that it starts with the case's data in the caches, whatever the case before it
    touched (kernels on arrays of megabytes, a few calls a round). alternate: every other round runs the cases in
    the reverse order, so that of two cases compared neither is always the first (kernels bound by memory)."""
    timers = {name: timer(call) for name, call in calls.items()}
    for t in timers.values():
        t.timeit(max(number // 10, 1))  # warm caches, lazy imports and the exchange-API tables
    per_round: dict[str, list[float]] = {name: [] for name in calls}
    gc.collect()
    gc.disable()
    try:
        for r in range(rounds):
            for name, t in (reversed(timers.items()) if alternate and r % 2 else timers.items()):
                if warm:
                    t.timeit(1)
                per_round[name].append(t.timeit(number) / number * 1e9)
    finally:
        gc.enable()
    return per_round


def ratio(per_round: dict[str, list[float]], measured: str, anchor: str) -> float:
    """The median of measured / anchor over the rounds."""
    return statistics.median(m / a for m, a in zip(per_round[measured], per_round[anchor]))


def verdict(all_met: bool, check: bool) -> None:
    """Say on stderr that a target was missed, and with --check exit 1 for it."""
    if not all_met:
        print("\nsome targets were missed", file=sys.stderr)
        if check:
            sys.exit(1)
