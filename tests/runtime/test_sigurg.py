"""SIGURG: Go preempts long-running Go code by sending SIGURG to the thread running it.

A Python program that installs its own SIGURG handler replaces Go's, and then sees spurious calls while Go
kernels run: Go's own, and the one each call that releases the GIL sends its thread to keep preemption alive
(internal/preempt). Go cannot be told to
stop from inside the extension: //go:debug and go.mod refuse the setting, and the runtime reads
GODEBUG=asyncpreemptoff=1 only from the environment the process started with. Turning preemption off costs
(bench/preemption.py: small Go calls beside long kernels ran 5x fewer, their worst latency 4x longer),
so godlpack leaves it on and documents the remedy, which this test holds: with GODEBUG=asyncpreemptoff=1 in
the environment, the handler sees no SIGURG from Go, and still sees the one the program sends itself.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys

import pytest

pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGURG"), reason="no SIGURG on this platform")

CHILD = """
import os, signal, sys, threading, time
import numpy as np
import godlpack, godlpack.ops as ops

calls = []
signal.signal(signal.SIGURG, lambda signum, frame: calls.append(signum))
big = np.ones(1 << 23, dtype=np.float64)  # 64 MiB: each kernel runs for milliseconds, without the GIL
stop = time.monotonic() + float(sys.argv[1])

def work():
    dst = np.empty_like(big)
    while time.monotonic() < stop:
        ops.sum(big)
        ops.scale_(big, 1.0)
        ops.copy_(dst, big)
        godlpack.full(1 << 21, 1.0, dtype="float64")

threads = [threading.Thread(target=work) for _ in range(4)]
for t in threads:
    t.start()
for t in threads:
    t.join()
spurious = len(calls)
os.kill(os.getpid(), signal.SIGURG)  # a SIGURG of the program's own still reaches its handler
time.sleep(0.05)
print(spurious, len(calls) - spurious)
"""


def run(seconds: float, godebug: str | None) -> tuple[int, int]:
    env = dict(os.environ)
    env.pop("GODEBUG", None)
    if godebug is not None:
        env["GODEBUG"] = godebug
    done = subprocess.run([sys.executable, "-c", CHILD, str(seconds)], capture_output=True, text=True, env=env,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    spurious, own = (int(x) for x in done.stdout.split())
    return spurious, own


def test_asyncpreemptoff_keeps_sigurg_from_python_handlers() -> None:
    spurious, own = run(2.0, "asyncpreemptoff=1")
    assert spurious == 0, f"the handler saw {spurious} SIGURG from Go"
    assert own == 1, "the handler must still see the program's own SIGURG"
