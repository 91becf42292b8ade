"""A process forked after `import godlpack` never hangs: every call that would enter Go raises RuntimeError.

The Go runtime does not survive fork(): its threads are gone in the child, and the first garbage
collection, goroutine wait or sleep there would hang forever. godlpack notices the fork (pthread_atfork)
and refuses, naming the 'spawn' and 'forkserver' start methods, which work. Every child here runs under a
deadline: a hang fails the test instead of stalling the run.
"""

from __future__ import annotations

import copy
import json
import multiprocessing
import os
import pickle
import select
import signal
import sys
import textwrap
import threading
import time
from typing import Any, Callable

import numpy as np
import pytest

import fork_workers
import godlpack
import godlpack.ops
import lifetime_helpers as lh

DEADLINE = 60.0


def fork_and_wait(child: Callable[[], Any]) -> Any:
    """Run child() in an os.fork()ed process; its JSON result, or fail when it hangs or crashes."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: never returns into pytest
        status = 0
        try:
            os.close(read)
            os.write(write, json.dumps(child()).encode())
        except BaseException:
            status = 1
        finally:
            os._exit(status)
    os.close(write)
    return json.loads(collect(pid, read))


def collect(pid: int, read: int) -> bytes:
    """What the child pid writes to read until it exits with status 0; fails when it hangs or crashes."""
    chunks = []
    end = time.monotonic() + DEADLINE
    try:
        while True:
            ready, _, _ = select.select([read], [], [], max(0.0, end - time.monotonic()))
            if not ready:
                pytest.fail(f"the forked child hung for {DEADLINE} s")
            chunk = os.read(read, 65536)
            if not chunk:
                break
            chunks.append(chunk)
        while True:
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                break
            if time.monotonic() > end:
                pytest.fail(f"the forked child did not exit within {DEADLINE} s")
            time.sleep(0.01)
    finally:
        os.close(read)
        try:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
        except (ProcessLookupError, ChildProcessError):
            pass
    assert os.waitstatus_to_exitcode(status) == 0, f"the child exited with status {status}"
    return b"".join(chunks)


class Fork:
    """Forks the process at its first call, from whatever Python code calls it: the child goes on from there."""

    def __init__(self) -> None:
        self.pid: int | None = None

    def __call__(self) -> None:
        if self.pid is None:
            self.pid = os.fork()


def fork_during(call: Callable[[Fork], Any]) -> tuple[str, str]:
    """What call(fork) does in the child that fork() makes while the call runs (from a producer's __dlpack__, an
    argument's __index__), and in this process: each 'ok' or the exception's type name and message."""
    read, write = os.pipe()
    fork = Fork()
    got = outcome(lambda: call(fork))
    if fork.pid == 0:  # the child, inside the call and back out of it: never returns into pytest
        try:
            os.write(write, got.encode())
        finally:
            os._exit(0)
    os.close(write)
    assert fork.pid is not None, "the call never forked"
    return collect(fork.pid, read).decode(), got


def outcome(f: Callable[[], Any]) -> str:
    """'ok', or the exception's type name and message."""
    try:
        f()
    except Exception as e:
        return f"{type(e).__name__}: {e}"
    return "ok"


@pytest.mark.filterwarnings("ignore:This process .* is multi-threaded, use of fork:DeprecationWarning")
def test_os_fork_every_call_raises() -> None:
    t = godlpack.arange(6, dtype="float32")
    capsule = t.__dlpack__(max_version=(1, 3))
    a = np.arange(4.0)
    pickled = pickle.dumps(t)

    def child() -> dict[str, Any]:
        calls: dict[str, Callable[[], Any]] = {
            "from_dlpack(numpy)": lambda: godlpack.from_dlpack(a),
            "from_dlpack(Tensor)": lambda: godlpack.from_dlpack(t),
            "from_dlpack(copy=True)": lambda: godlpack.from_dlpack(t, copy=True),
            "from_dlpack(capsule)": lambda: godlpack.from_dlpack(capsule),
            "empty": lambda: godlpack.empty(3),
            "zeros": lambda: godlpack.zeros(3),
            "full": lambda: godlpack.full(3, 1.5),
            "arange": lambda: godlpack.arange(3),
            "__dlpack__": lambda: t.__dlpack__(),
            "__dlpack__(copy=True)": lambda: t.__dlpack__(max_version=(1, 3), copy=True),
            "numpy.from_dlpack": lambda: np.from_dlpack(t),
            "memoryview": lambda: memoryview(t),
            "tolist": lambda: t.tolist(),
            "ops.sum": lambda: godlpack.ops.sum(t),
            "ops.scale_": lambda: godlpack.ops.scale_(a, 2),
            "ops.copy_": lambda: godlpack.ops.copy_(t, t),
            "ops.dot": lambda: godlpack.ops.dot(t, t),
            "ops.min": lambda: godlpack.ops.min(t),
            "ops.max": lambda: godlpack.ops.max(a),
            "set_num_threads": lambda: godlpack.set_num_threads(2),
            "get_num_threads": lambda: godlpack.get_num_threads(),
            "pickle.dumps": lambda: pickle.dumps(t),
            "pickle.dumps(protocol=5)": lambda: pickle.dumps(t, protocol=5),
            "pickle.loads": lambda: pickle.loads(pickled),
            "copy.copy": lambda: copy.copy(t),
            "copy.deepcopy": lambda: copy.deepcopy(t),
        }
        result = {name: outcome(f) for name, f in calls.items()}
        # What stays: plain C reads of the Tensor, and releasing memory (no Go, no hang).
        result["properties"] = [t.shape, t.strides, str(t.dtype), t.device, t.nbytes, t.readonly]
        result["repr"] = repr(t)
        return result

    result = fork_and_wait(child)
    props = result.pop("properties")
    assert props == [[6], [1], "float32", [1, 0], 24, False]
    assert "shape=(6,)" in result.pop("repr")
    for name, got in result.items():
        assert got.startswith("RuntimeError: godlpack cannot run in a process forked"), (name, got)
        assert "'spawn'" in got and "'forkserver'" in got, (name, got)
    del capsule, t


class ForkingProducer:
    """A NumPy array's producer whose __dlpack__ and __dlpack_device__ fork first (once)."""

    def __init__(self, fork: Fork, a: np.ndarray) -> None:
        self.fork, self.a = fork, a

    def __dlpack__(self, **kwargs: Any) -> Any:
        self.fork()
        return self.a.__dlpack__(**kwargs)

    def __dlpack_device__(self) -> tuple[int, int]:
        self.fork()
        return self.a.__dlpack_device__()


class ForkingNumber:
    """An int and a float whose conversion forks first."""

    def __init__(self, fork: Fork, value: int) -> None:
        self.fork, self.value = fork, value

    def __index__(self) -> int:
        self.fork()
        return self.value

    def __float__(self) -> float:
        self.fork()
        return float(self.value)


# Calls whose arguments run Python code that forks, each after the call started and before it enters Go.
FORK_DURING = {
    "ops.sum(a producer whose __dlpack__ forks)": lambda f: godlpack.ops.sum(ForkingProducer(f, np.ones(4))),
    "ops.scale_(x, a factor whose __float__ forks)": lambda f: godlpack.ops.scale_(np.ones(4), ForkingNumber(f, 2)),
    "ops.copy_(dst, a producer whose __dlpack__ forks)": lambda f: godlpack.ops.copy_(
        np.ones(4), ForkingProducer(f, np.zeros(4))),
    "zeros(a shape whose __index__ forks)": lambda f: godlpack.zeros((ForkingNumber(f, 1 << 18), 1)),
    "full(3, a value whose __index__ forks)": lambda f: godlpack.full(3, ForkingNumber(f, 7)),
    "arange(a stop whose __index__ forks)": lambda f: godlpack.arange(ForkingNumber(f, 5)),
    # A vector name that no other test uses: a name read once is a DType of the process's registry, found again
    # without Go, and a small empty() is made in C, so the child would rightly succeed after a test that ran first.
    "empty(a shape whose __index__ forks, dtype='float64x3'), a dtype Go reads": lambda f: godlpack.empty(
        (ForkingNumber(f, 3),), dtype="float64x3"),
    "__dlpack__(dl_device whose __dlpack_device__ forks, copy=True)": lambda f: godlpack.arange(3.0).__dlpack__(
        max_version=(1, 3), dl_device=ForkingProducer(f, np.ones(1)), copy=True),
}


@pytest.mark.filterwarnings("ignore:This process .* is multi-threaded, use of fork:DeprecationWarning")
@pytest.mark.parametrize("name", FORK_DURING)
def test_a_fork_during_argument_conversion_never_enters_go(name: str) -> None:
    # The fork guard was checked when a call started and not again: Go then ran in the child (a result, or a hang
    # at its first garbage collection). It is checked again after the last step that can run Python code.
    child, parent = fork_during(FORK_DURING[name])
    assert child.startswith("RuntimeError: godlpack cannot run in a process forked"), child
    assert parent == "ok", parent


@pytest.mark.filterwarnings("ignore:This process .* is multi-threaded, use of fork:DeprecationWarning")
def test_a_fork_while_kernels_run_on_every_core() -> None:
    """A fork while another thread's kernels run split over worker goroutines, the GIL released: the child's calls
    raise, none hangs, and the parent's kernels finish with the right results."""
    big = np.ones(1 << 23, np.float32)  # 32 MiB: split over every thread, without the GIL
    dst = np.empty_like(big)
    before = godlpack.get_num_threads()
    godlpack.set_num_threads(4)
    stop, failures = threading.Event(), []

    def kernels() -> None:
        while not stop.is_set():
            if godlpack.ops.sum(big) != big.size:
                failures.append("sum")
            godlpack.ops.copy_(dst, big)
            godlpack.ops.scale_(dst, 2)
            if godlpack.ops.max(dst) != 2.0 or godlpack.ops.dot(dst, big) != 2.0 * big.size:
                failures.append("copy_, scale_, max or dot")

    th = threading.Thread(target=kernels)
    th.start()
    try:
        for _ in range(5):
            time.sleep(0.02)  # within a kernel, most likely: each takes milliseconds
            result = fork_and_wait(lambda: [outcome(lambda: godlpack.ops.sum(big)),
                                            outcome(lambda: godlpack.ops.scale_(dst, 1))])
            assert all(r.startswith("RuntimeError: godlpack cannot run in a process forked") for r in result), result
    finally:
        stop.set()
        th.join()
        godlpack.set_num_threads(before)
    assert failures == []


@pytest.mark.filterwarnings("ignore:This process .* is multi-threaded, use of fork:DeprecationWarning")
def test_os_fork_child_releases_tensors() -> None:
    """Dropping tensors, capsules and NumPy views in the child frees them in C and never hangs."""
    t = godlpack.from_dlpack(np.arange(8.0))
    views = [np.from_dlpack(t), t.__dlpack__(max_version=(1, 3)), godlpack.zeros(4)]

    def child() -> int:
        nonlocal t, views
        before = godlpack._core._live_storages()
        del t, views
        return before - godlpack._core._live_storages()

    assert fork_and_wait(child) == 2
    del t, views


def run_script(code: str) -> str:
    """Run code in a fresh interpreter with a deadline; it must exit 0; its stdout."""
    result = lh.run_python(textwrap.dedent(code), timeout=DEADLINE)
    assert result.returncode == 0, f"status {result.returncode}\n{result.stdout}\n{result.stderr}"
    return result.stdout


def test_fork_right_after_import() -> None:
    """Import, fork at once: the child refuses cleanly and finalizes normally with tensors alive."""
    out = run_script(
        """
        import os, sys, godlpack
        t = godlpack.zeros(3)
        pid = os.fork()
        if pid == 0:
            try:
                godlpack.zeros(3)
            except RuntimeError as e:
                print("child refused:", "'spawn'" in str(e), flush=True)
            sys.exit(0)  # a normal interpreter exit, with t still alive
        _, status = os.waitpid(pid, 0)
        print("child status", os.waitstatus_to_exitcode(status), "parent", godlpack.zeros(2).tolist())
        """
    )
    assert out == "child refused: True\nchild status 0 parent [0.0, 0.0]\n"


def test_fork_before_import_works() -> None:
    """A child forked before godlpack was ever imported starts its own Go runtime and works."""
    out = run_script(
        """
        import os, sys
        pid = os.fork()
        if pid == 0:
            import numpy as np, godlpack
            print("child", np.from_dlpack(godlpack.arange(3)).tolist(), flush=True)
            sys.exit(0)
        _, status = os.waitpid(pid, 0)
        print("status", os.waitstatus_to_exitcode(status))
        """
    )
    assert out == "child [0, 1, 2]\nstatus 0\n"


@pytest.mark.filterwarnings("ignore:This process .* is multi-threaded, use of fork:DeprecationWarning")
def test_multiprocessing_fork_raises_clearly() -> None:
    ctx = multiprocessing.get_context("fork")
    with ctx.Pool(1) as pool:
        with pytest.raises(RuntimeError, match=r"'spawn' or 'forkserver'"):
            pool.apply_async(fork_workers.create).get(timeout=DEADLINE)
        # The worker survived the refusal and still answers.
        assert pool.apply_async(os.getpid).get(timeout=DEADLINE) != os.getpid()


@pytest.mark.parametrize("method", ["spawn", "forkserver"])
def test_multiprocessing_spawn_and_forkserver_work(method: str) -> None:
    ctx = multiprocessing.get_context(method)
    with ctx.Pool(1) as pool:
        got = pool.apply_async(fork_workers.roundtrip).get(timeout=DEADLINE)
        assert pool.apply_async(fork_workers.create).get(timeout=DEADLINE) == [0.0, 0.0]
    assert got == {"shared": True, "back": [0, 1, 2], "copied": [0.0, 1.0, 2.0, 3.0], "live": 0}
