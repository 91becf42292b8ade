"""Python code that a bound call runs forks: the script the fork tests run, and its runner.

A Python thread spins in Go without the GIL, so that with GOMAXPROCS=1 it holds Go's only processor whenever the
forking thread is in Python code that Go called: the child, where that thread is gone, could not return through
Go's cgo call path (it waited for the processor for ever before the child learned to jump over Go's frames).
"""

from __future__ import annotations

import os
import subprocess
import sys

SCRIPT = """
import os, sys, threading, time, numpy as np, bindtest as b
spinning = b.Counter("s")
stop = False
def spin():
    while not stop:
        spinning.spin(10_000_000)
threading.Thread(target=spin, daemon=True).start()
time.sleep(0.05)
pid = None
def fork():
    global pid
    if pid is None:
        time.sleep(0.02)
        pid = os.fork()
        time.sleep(0.02)
def f(v):
    fork()
    return v
class Forks:
    def __index__(self):
        fork()
        return 100000
    def __dlpack__(self, **kwargs):
        fork()
        return np.zeros((2, 3)).__dlpack__(**kwargs)
class Dies:
    def __del__(self):
        fork()
class TakesHeld:
    def __dlpack__(self, **kwargs):
        b.take_held()
        return np.zeros(1).__dlpack__(**kwargs)
class Takes:
    def __dlpack__(self, **kwargs):
        b.take(Forks())
        return np.zeros(1).__dlpack__(**kwargs)
SETUP
try:
    got = CALL
except RuntimeError as e:
    got = 'forked' if 'forked' in str(e) else str(e)
if pid == 0:
    os.write(1, ('child %s\\n' % (got,)).encode())
    os._exit(0)
stop = True
_, status = os.waitpid(pid, 0)
print('parent', got, os.waitstatus_to_exitcode(status))
"""

# What the child writes when Go called Python code that forked on a thread with no bound call to go back to.
NO_EXIT = ("godlpack: Python code that Go called forked the process, on a thread with no Python call of Go's to "
           "return to; the child cannot return to Go, which does not run after a fork, and exits with status 1\n")


def fork_during(call: str, setup: str = "") -> subprocess.CompletedProcess[str]:
    """Runs SCRIPT with call (after setup) in a fresh interpreter: its stdout has one line of the child's, if it
    got as far as writing one, and one of the parent's with the child's exit status."""
    code = SCRIPT.replace("SETUP", setup).replace("CALL", call)
    return subprocess.run([sys.executable, "-W", "ignore", "-c", code], capture_output=True, text=True, timeout=60,
                          env={**os.environ, "GOMAXPROCS": "1"})
