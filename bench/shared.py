"""Shared methods from many threads: the throughput of 8 threads calling one instance's shared method, which releases
the GIL and works about 1 ms (package vec's Dot over an Index's rows, one vec thread per call), against one thread's.

bench/goshared binds the Index (its search is Method(...).Shared().WithoutGIL()) and the same search as a plain
function of rows of its own, which holds no instance: the yardstick of what this machine's cores give 8 threads at
this moment, on a machine others share. The passes of a call are set once so that one call takes about --ms. Each
round times --calls calls on one thread, then 8 threads making --calls calls each at once, for the method and for the
function; a figure is the median over the rounds of 8 threads' calls per second / one thread's.

    python bench/shared.py [--rounds 5] [--calls 200] [--ms 1.0] [--threads 8] [--check]

--check exits 1 when the method's ratio is below 1.8 on 2 cores or more (issue 50: a shared method reaches 1.8x one
thread's throughput on 2 cores).
"""

from __future__ import annotations

import argparse
import os
import runpy
import shlex
import statistics
import subprocess
import sys
import sysconfig
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "build" / "bench"
TARGET = 1.8


def build() -> None:
    """bench/goshared built into build/bench, with the checkout's C flags (as bench/calls.py builds)."""
    headers = runpy.run_path(str(ROOT / "python" / "godlpack" / "_headers.py"))
    env = dict(os.environ, CGO_ENABLED="1", CGO_CFLAGS=shlex.join(headers["checkout_cflags"](ROOT)))
    target = OUT / f"goshared{sysconfig.get_config_var('EXT_SUFFIX')}"
    subprocess.run(["go", "build", "-buildmode=c-shared", "-o", str(target), "."], cwd=ROOT / "bench" / "goshared",
                   env=env, check=True)
    target.with_suffix(".h").unlink(missing_ok=True)


def throughput(call: Callable[[], Any], threads: int, calls: int) -> float:
    """Calls per second of threads threads making calls calls each, started together."""
    barrier = threading.Barrier(threads + 1)
    errors: list[BaseException] = []

    def work() -> None:
        barrier.wait()
        try:
            for _ in range(calls):
                call()
        except BaseException as e:  # a refusal would be the binder's fault: reported, not hidden
            errors.append(e)

    pool = [threading.Thread(target=work) for _ in range(threads)]
    for t in pool:
        t.start()
    barrier.wait()
    start = time.perf_counter()
    for t in pool:
        t.join()
    elapsed = time.perf_counter() - start
    if errors:
        raise errors[0]
    return threads * calls / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--calls", type=int, default=200, help="calls per thread in a round")
    parser.add_argument("--ms", type=float, default=1.0, help="the work of one call, in milliseconds")
    parser.add_argument("--threads", type=int, default=8)
    parser.add_argument("--check", action="store_true", help=f"exit 1 when the method's ratio is below {TARGET}")
    args = parser.parse_args()

    OUT.mkdir(parents=True, exist_ok=True)
    build()
    sys.path.insert(0, str(OUT))
    import numpy as np

    import goshared  # type: ignore[import-not-found]

    goshared.set_threads(1)  # each call on one thread: the threads' parallelism is the binder's alone
    n, dim = 256, 256  # 256 KiB of rows: in cache, so that the cores, not the memory, set the pace
    ix = goshared.Index(n, dim)
    rows = np.random.default_rng(1).standard_normal((n * dim,), dtype=np.float32)
    q = np.random.default_rng(2).standard_normal((dim,), dtype=np.float32)
    passes = 1
    while True:  # passes such that one call takes about --ms
        start = time.perf_counter()
        for _ in range(20):
            ix.search(q, passes)
        took = (time.perf_counter() - start) / 20
        if took >= args.ms / 1e3 * 0.9 or passes > 1 << 20:
            break
        passes = max(passes + 1, round(passes * args.ms / 1e3 / took))
    cases = {"shared method": lambda: ix.search(q, passes), "function": lambda: goshared.search(rows, q, passes)}
    ratios: dict[str, list[float]] = {name: [] for name in cases}
    per_call: list[float] = []
    for _ in range(args.rounds):
        for name, call in cases.items():
            one = throughput(call, 1, args.calls)
            many = throughput(call, args.threads, args.calls)
            ratios[name].append(many / one)
            if name == "shared method":
                per_call.append(1e3 / one)
    cores = len(os.sched_getaffinity(0))
    print(f"{cores} cores, load average {os.getloadavg()[0]:.1f}; Index of {n} rows of {dim} float32, {passes} "
          f"passes a call: {statistics.median(per_call):.2f} ms on one thread; median of {args.rounds} rounds of "
          f"{args.calls} calls a thread")
    print()
    print(f"| {args.threads} threads / 1 thread, calls per second | ratio | rounds |")
    print("| --- | ---: | --- |")
    for name, rs in ratios.items():
        print(f"| {name} | {statistics.median(rs):.2f}x | {', '.join(f'{r:.2f}' for r in rs)} |")
    met = statistics.median(ratios["shared method"]) >= TARGET or cores < 2
    print(f"\nshared method: {statistics.median(ratios['shared method']):.2f}x, target >= {TARGET}x on 2 cores: "
          f"{'met' if met else 'MISSED'}")
    if args.check and not met:
        sys.exit(1)


if __name__ == "__main__":
    main()
