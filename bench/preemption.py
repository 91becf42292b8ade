"""What turning off Go's asynchronous preemption (GODEBUG=asyncpreemptoff=1) costs godlpack.

Go preempts long-running Go code with SIGURG, which a Python SIGURG handler sees (tests/runtime/test_sigurg.py).
The runtime reads the setting only from the environment the process started with, so each configuration
runs in a child process of its own, alternately, and the medians of the rounds are printed:

- the time of one godlpack.ops.sum over 128 MiB of float64 (a kernel alone);
- small Go calls (a refused full(), whose error Go formats) made by one thread while three others run
  long kernels: how many in 3 s, and their 99th percentile and worst latency.

    python bench/preemption.py [--rounds 3]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import threading
import time

CHILD_SECONDS = 3.0


def child() -> None:
    import numpy as np

    import godlpack
    import godlpack.ops as ops

    big = np.ones(1 << 24, dtype=np.float64)
    times = []
    for _ in range(10):
        start = time.perf_counter()
        ops.sum(big)
        times.append(time.perf_counter() - start)
    stop = time.monotonic() + CHILD_SECONDS

    def long_work() -> None:
        while time.monotonic() < stop:
            ops.sum(big)

    threads = [threading.Thread(target=long_work) for _ in range(3)]
    for t in threads:
        t.start()
    latencies = []
    while time.monotonic() < stop:
        start = time.perf_counter()
        try:
            godlpack.full(3, 300, dtype="uint8")
        except OverflowError:
            pass
        latencies.append(time.perf_counter() - start)
    for t in threads:
        t.join()
    latencies.sort()
    json.dump({"sum_ms": 1e3 * min(times), "calls": len(latencies),
               "p99_us": 1e6 * latencies[int(0.99 * len(latencies))], "max_ms": 1e3 * latencies[-1]}, sys.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    results: dict[str, list[dict[str, float]]] = {"on (default)": [], "off (asyncpreemptoff=1)": []}
    for _ in range(args.rounds):
        for name in results:
            env = dict(os.environ)
            env.pop("GODEBUG", None)
            if name.startswith("off"):
                env["GODEBUG"] = "asyncpreemptoff=1"
            out = subprocess.run([sys.executable, __file__, "--child"], env=env, capture_output=True, text=True,
                                 check=True)
            results[name].append(json.loads(out.stdout))
    print("| async preemption | ops.sum 128 MiB, ms | small Go calls in 3 s beside 3 kernels | p99, us | worst, ms |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for name, rounds in results.items():
        med = {k: statistics.median(r[k] for r in rounds) for k in rounds[0]}
        print(f"| {name} | {med['sum_ms']:.1f} | {med['calls']:,.0f} | {med['p99_us']:.1f} | {med['max_ms']:.0f} |")


if __name__ == "__main__":
    if sys.argv[1:] == ["--child"]:
        child()
    else:
        main()
