"""Many Go runtimes in one process: godlpack._core and independently built Go extensions load in any order.

docs/protocol.md#many-go-runtimes-in-one-process. Each c-shared Go library carries a Go runtime of its own. On
Linux with glibc they share the process, and every extension built on package cpython joins one SIGURG dispatcher
(the rendezvous sys._godlpack_go_runtimes) so that each runtime keeps its async preemption. Elsewhere the second
runtime is an ImportError. Every check runs in a fresh process.
"""

from __future__ import annotations

import os
import platform
import re
import signal
import subprocess
import sys
from pathlib import Path
from typing import NamedTuple

import pytest

from child_env import child_env
from go_examples import build_example, go_command


class Example(NamedTuple):
    """A Go extension of examples/: a use that checks its result (statements over `np` and `godlpack`), and a call
    into its Go code (an expression over `a`, a float32 godlpack tensor of 4 elements) for the fork guard."""

    use: str
    call: str


# The Go extensions of examples/. Another example joins every test below with one line here.
EXAMPLES = {
    "normalize": Example("a = godlpack.arange(4, dtype='float32'); ms = np.from_dlpack(normalize.normalize(a)); "
                         "assert np.allclose(ms, [1.5, 1.25 ** 0.5]) and abs(float(np.from_dlpack(a).mean())) < 1e-6",
                         "normalize.normalize(a)"),
    "rowstats": Example("x = np.arange(6, dtype=np.float32).reshape(2, 3); r = rowstats.row_norms(x); "
                        "n = np.from_dlpack(r); g = godlpack.from_dlpack(r); "
                        "assert np.allclose(n, np.linalg.norm(x, axis=1)) and rowstats.clip_(x, 1, 4) == (1, 1); "
                        "assert type(r) is rowstats.Tensor and type(g) is godlpack.Tensor; "
                        "assert g.tolist() == r.tolist(); "
                        "assert g.data_ptr() == r.data_ptr() and r.dtype == g.dtype == godlpack.DType('float32'); "
                        "y = godlpack.from_dlpack(x); assert r.device == g.device and "
                        "rowstats.row_norms(y).tolist() == rowstats.row_norms(x).tolist()",
                        "rowstats.row_norms(godlpack.full((2, 2), 3.0, dtype='float32'))"),
}
# Another Go version for an extension built beside godlpack's (fetched from the module proxy by the go command).
OTHER_GO = "go1.24.11"

SHARED = sys.platform == "linux" and platform.libc_ver()[0] == "glibc" and platform.machine() in ("x86_64", "aarch64")
shared_only = pytest.mark.skipif(not SHARED, reason="Go runtimes share a process only on Linux/glibc x86-64, arm64")

# Reads the rendezvous and the process's SIGURG handler: prints the registry's version, the number of handlers it
# holds, whether its dispatcher is the process's SIGURG handler, and how many of its handlers are dispatchers (told
# apart as the registry tells them: the mark in the 32 bytes before a dispatcher's entry, cpython/runtime.c), which
# must be none.
REGISTRY = """
import ctypes, signal
Handler = ctypes.CFUNCTYPE(None, ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p)
class Runtimes(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint32), ("size", ctypes.c_uint32), ("add", ctypes.c_void_p),
                ("install", ctypes.c_void_p), ("dispatch", ctypes.c_void_p),
                ("count", ctypes.CFUNCTYPE(ctypes.c_uint32)),
                ("handler", ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_uint32, ctypes.POINTER(ctypes.c_void_p),
                                             ctypes.POINTER(ctypes.c_int)))]
get = ctypes.pythonapi.PyCapsule_GetPointer
get.restype, get.argtypes = ctypes.c_void_p, [ctypes.py_object, ctypes.c_char_p]
runtimes = Runtimes.from_address(get(sys._godlpack_go_runtimes, b"godlpack.go_runtimes"))
action = ctypes.create_string_buffer(256)  # a struct sigaction; sa_handler comes first on x86-64 and arm64
assert ctypes.CDLL(None).sigaction(signal.SIGURG, None, action) == 0
def is_dispatcher(address):
    return address % 64 == 32 and ctypes.string_at(address - 32, 24) == b"godlpack SIGURG dispatch"
recorded = []
for i in range(runtimes.count()):
    h, flags = ctypes.c_void_p(), ctypes.c_int()
    assert runtimes.handler(i, ctypes.byref(h), ctypes.byref(flags)) == 0
    recorded.append(h.value)
assert runtimes.handler(len(recorded), ctypes.byref(ctypes.c_void_p()), ctypes.byref(ctypes.c_int())) == -1
print("registry", runtimes.version, runtimes.count(), ctypes.c_void_p.from_buffer(action).value == runtimes.dispatch,
      "dispatchers", sum(map(is_dispatcher, recorded)), is_dispatcher(runtimes.dispatch))
"""

# Every extension used from four threads at once, tensors passing between godlpack and the others.
TOGETHER = """
import threading
def work(errors):
    try:
        for i in range(200):
            t = godlpack.full((64,), float(i), dtype="float32")
            assert float(godlpack.ops.sum(t)) == 64.0 * i
            for use in USES:
                exec(use)
            x = np.arange(8, dtype=np.float64)
            assert godlpack.from_dlpack(x).tolist() == x.tolist()
    except BaseException as e:
        errors.append(e)
errors = []
threads = [threading.Thread(target=work, args=(errors,)) for _ in range(4)]
for t in threads: t.start()
for t in threads: t.join()
assert not errors, errors
print("together ok")
"""

# The judge of async preemption: TIME_CALLS(call, sums, seconds) times call() again and again for `seconds`, while
# a kernel thread appends the duration of each long Go loop to sums, and prints the second longest call, the
# longest and the shortest loop. The runtime's collector must stop the loop, which only async preemption (SIGURG)
# can do, so a call that starts a collection waits for the rest of a loop without it, at every collection
# (measured with godlpack.ops.sum below: the second longest call 32-41 ms against sums of 39-44 ms; with
# preemption 2-10 ms). One long call alone is what a loaded 2-core machine does to a thread now and then; CI's
# machine once delayed two (29 and 36 ms against sums of 44 ms). So a window whose second longest call waited half
# a loop is timed again, up to three windows, while the same kernel thread runs: a runtime whose handler the
# dispatcher does not call, or a signal lost for good, fails every window.
TIME_CALLS = """
def time_calls(call, sums, seconds):
    for window in range(3):
        longest = second = 0.0
        end = time.perf_counter() + seconds
        while time.perf_counter() < end:
            t = time.perf_counter(); call(); d = time.perf_counter() - t
            if d > second:
                longest, second = (d, longest) if d > longest else (longest, d)
        while not sums:  # the kernel thread's first loop can outlast a window (1000 GIL handovers under ASan)
            time.sleep(0.01)
        print("preemption", second, longest, min(sums), flush=True)
        if second < min(sums) / 2:
            return
"""

# Preemption in godlpack's runtime: one thread sums every fourth element of a 512 MiB array in Go, GIL released,
# again and again, while this one times small godlpack.full calls, whose Go allocations now and then start a
# garbage collection. A strided sum is a loop over elements that calls nothing, which only async preemption stops
# (about 60 ms); a contiguous one runs package vec's kernels, which the runtime can stop between any two (and
# which take 17 ms for the whole array: too short beside a call's normal wait on a busy machine).
PREEMPTION = """
import threading, time
big = np.ones(1 << 26, dtype=np.float64)[::4]
sums, stop = [], threading.Event()
def kernel():
    while not stop.is_set():
        t = time.perf_counter(); godlpack.ops.sum(big); sums.append(time.perf_counter() - t)
th = threading.Thread(target=kernel)
th.start()
""" + TIME_CALLS + """
try:
    time_calls(lambda: godlpack.full(16, 1.0), sums, 2)
finally:
    stop.set(); th.join()
"""


# A process forked after the imports: every runtime's calls are a RuntimeError in the child, none hangs.
FORK = """
import os
a = godlpack.arange(4, dtype="float32")
pid = os.fork()
if pid == 0:
    failed = []
    for name, call in [("godlpack", lambda: godlpack.zeros(2)), *[(n, lambda n=n: FORK_CALLS[n]()) for n in FORK_CALLS]]:
        try:
            call()
        except RuntimeError as e:
            failed.append(name if "fork" in str(e) else name + ": " + str(e))
    os.write(1, ("forked " + " ".join(failed) + "\\n").encode())
    os._exit(0)
_, status = os.waitpid(pid, 0)
assert status == 0, status
"""


@pytest.fixture(scope="module")
def examples_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("examples")
    for name in EXAMPLES:
        build_example(name, out)
    return out


def run(code: str, *path: Path, env: dict[str, str] | None = None) -> str:
    """The stdout of code run in a fresh interpreter that finds the examples in path; fails on a non-zero exit."""
    if "time_calls(" in code:
        # The judge of preemption times calls while a long Go loop runs on one thread. Kernels split large work
        # over every core (vec.Threads): with every core busy, a call waits for the operating system to give its
        # thread one, 30-80 ms on this 2-core machine, which says nothing about preemption.
        env = {"GODLPACK_NUM_THREADS": "1", **(env or {})}
    environ = child_env(*path, **(env or {}))
    environ.pop("GODEBUG", None)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=environ, timeout=240)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def assert_preempted(out: str) -> None:
    """TIME_CALLS's figures in out say that the kernel thread's loop was preempted for every collection but one, in
    the last window timed."""
    windows = re.findall(r"^preemption (\S+) (\S+) (\S+)$", out, flags=re.M)
    assert windows, out
    second, longest, shortest_loop = (float(g) for g in windows[-1])
    assert second < shortest_loop / 2, (f"in each of {len(windows)} windows two calls waited half a loop, in the "
                                        f"last {second:.3f} s and {longest:.3f} s; one loop takes "
                                        f"{shortest_loop:.3f} s")


def program(order: list[str], *parts: str) -> str:
    """Imports in order, then the parts."""
    uses = [EXAMPLES[name].use for name in order if name in EXAMPLES]
    forks = {name: f"lambda: {EXAMPLES[name].call}" for name in order if name in EXAMPLES}
    head = "import sys\nimport numpy as np\n" + "".join(f"import {name}\n" for name in order)
    head += "import godlpack, godlpack.ops\n"
    head += f"USES = {uses!r}\nFORK_CALLS = {{{', '.join(f'{k!r}: {v}' for k, v in forks.items())}}}\n"
    return head + "\n".join(parts)


def orders() -> list[list[str]]:
    return [o for name in EXAMPLES for o in (["godlpack", name], [name, "godlpack"])]


@shared_only
@pytest.mark.parametrize("order", orders(), ids="-".join)
def test_imported_in_either_order_and_used_together(order: list[str], examples_dir: Path) -> None:
    out = run(program(order, REGISTRY, TOGETHER), examples_dir)
    # One handler per runtime, the dispatcher in place: the last runtime's handler no longer stands alone.
    assert "registry 2 2 True" in out, out
    assert "together ok" in out, out


@shared_only
def test_every_example_at_once(examples_dir: Path) -> None:
    out = run(program([*EXAMPLES, "godlpack"], REGISTRY, TOGETHER), examples_dir)
    assert f"registry 2 {len(EXAMPLES) + 1} True" in out, out


@pytest.mark.timing
@shared_only
@pytest.mark.parametrize("order", orders(), ids="-".join)
def test_each_runtime_keeps_async_preemption(order: list[str], examples_dir: Path) -> None:
    # godlpack loaded first is the case that failed before the dispatcher: the example's runtime took SIGURG.
    out = run(program(order, PREEMPTION), examples_dir)
    assert_preempted(out)


@shared_only
@pytest.mark.parametrize("order", orders(), ids="-".join)
def test_fork_guard_in_each_runtime(order: list[str], examples_dir: Path) -> None:
    out = run(program(order, FORK), examples_dir)
    assert f"forked godlpack {' '.join(n for n in order if n in EXAMPLES)}\n" in out, out


@pytest.mark.timing
@shared_only
@pytest.mark.skipif(not hasattr(signal, "SIGURG"), reason="no SIGURG")
def test_a_sigurg_handler_set_before_the_imports_is_kept(examples_dir: Path) -> None:
    # The handler each runtime replaced as it loaded joins the dispatcher too: Python's still sees the program's
    # own SIGURG, and godlpack's runtime still preempts.
    code = "import signal, os, time\nseen = []\nsignal.signal(signal.SIGURG, lambda s, f: seen.append(s))\n"
    code += program(["godlpack", *EXAMPLES], REGISTRY, "os.kill(os.getpid(), signal.SIGURG); time.sleep(0.05)",
                    "print('seen', len(seen) >= 1)", PREEMPTION)
    out = run(code, examples_dir)
    assert f"registry 2 {len(EXAMPLES) + 2} True" in out and "seen True" in out, out
    assert_preempted(out)


@pytest.mark.timing
@shared_only
def test_a_plain_go_library_loaded_between_keeps_everyones_preemption(examples_dir: Path, tmp_path: Path) -> None:
    # A Go c-shared library not built on capsule (loaded here with ctypes) takes SIGURG from the dispatcher; the
    # next extension built on capsule records its handler as the one its own runtime replaced, and puts the
    # dispatcher back: godlpack's runtime preempts again, and the plain one's handler is called too.
    go = go_command()
    (tmp_path / "plain.go").write_text('package main\n\nimport "C"\n\n//export Nop\nfunc Nop() {}\n\nfunc main() {}\n')
    subprocess.run([go, "build", "-buildmode=c-shared", "-o", "plain.so", "plain.go"], cwd=tmp_path, check=True,
                   env=dict(os.environ, CGO_ENABLED="1", GO111MODULE="off"), timeout=600)
    name = next(iter(EXAMPLES))
    code = f"import ctypes, sys\nimport godlpack, godlpack.ops\nctypes.CDLL({str(tmp_path / 'plain.so')!r}).Nop()\n"
    code += REGISTRY + f"import numpy as np\nimport {name}\n" + REGISTRY + PREEMPTION
    out = run(code, examples_dir)
    assert "registry 2 1 False" in out, out  # the plain runtime took SIGURG
    assert "registry 2 3 True" in out, out
    assert_preempted(out)


@pytest.mark.timing
@shared_only
def test_an_extension_built_with_another_go_version(tmp_path: Path) -> None:
    # The rendezvous is a C struct in sys, not a Go type: runtimes of different Go versions join the same one.
    name = next(iter(EXAMPLES))
    where = build_example(name, tmp_path, toolchain=OTHER_GO)
    out = run(program(["godlpack", name], REGISTRY, PREEMPTION, TOGETHER), where)
    assert "registry 2 2 True" in out and "together ok" in out, out
    assert_preempted(out)


@shared_only
def test_a_newer_rendezvous_is_joined(examples_dir: Path) -> None:
    # An extension built by a later godlpack may have published a registry with more fields (a higher version, a
    # larger size): the fields of version 1 are where they were, and this godlpack joins through them.
    name = next(iter(EXAMPLES))
    newer = f"""
import ctypes, sys
import {name}
{REGISTRY}
class Newer(ctypes.Structure):
    _fields_ = Runtimes._fields_ + [("later", ctypes.c_void_p)]
newer = Newer(3, ctypes.sizeof(Newer), runtimes.add, runtimes.install, runtimes.dispatch, runtimes.count,
              runtimes.handler, None)
capsule_name = ctypes.c_char_p(b"godlpack.go_runtimes")
make = ctypes.pythonapi.PyCapsule_New
make.restype, make.argtypes = ctypes.py_object, [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
sys._godlpack_go_runtimes = make(ctypes.addressof(newer), capsule_name, None)
import godlpack
print("joined", runtimes.count(), newer.count())
"""
    out = run("import sys\n" + newer, examples_dir)
    assert "joined 2 2" in out, out


# The rendezvous deleted from sys while an extension loads, then put back, as a test's monkeypatch.delattr and its
# undo do, before another extension loads. The extension that loads meanwhile joins the registry whose dispatcher is
# in place (it publishes it again); when that dispatcher is not a registry's (a Python SIGURG handler was set
# meanwhile), the extension makes a second registry, and the next one to load takes that registry's handlers into
# sys's. Either way no dispatcher ever calls a dispatcher: before, two registries recorded each other's dispatchers,
# and the first SIGURG recursed until Go's signal handler died ("fatal: morestack on gsignal").
PUT_BACK = """
import sys, signal, threading
import godlpack, godlpack.ops
saved = sys._godlpack_go_runtimes
del sys._godlpack_go_runtimes
{between}
import {first}
sys._godlpack_go_runtimes = saved
import {second}
for _ in range(100):
    signal.pthread_kill(threading.get_ident(), signal.SIGURG)
print("signalled")
"""


@pytest.mark.timing
@shared_only
@pytest.mark.skipif(not hasattr(signal, "SIGURG"), reason="no SIGURG")
@pytest.mark.parametrize("between", ["", "signal.signal(signal.SIGURG, lambda s, f: None)"],
                         ids=["dispatcher-in-place", "python-handler-in-place"])
def test_a_rendezvous_put_back_never_chains_dispatchers(between: str, examples_dir: Path) -> None:
    first, second = list(EXAMPLES)[:2]
    code = PUT_BACK.format(between=between, first=first, second=second)
    out = run(code + program([first, second], REGISTRY, TOGETHER, PREEMPTION), examples_dir)
    handlers = len(EXAMPLES) + 1 + (1 if between else 0)  # each runtime's, and Python's
    assert "signalled" in out and f"registry 2 {handlers} True dispatchers 0 True" in out, out
    assert "together ok" in out, out
    assert_preempted(out)


@shared_only
@pytest.mark.parametrize("value", ["1", "object()", "__import__('datetime').datetime_CAPI"])
def test_a_foreign_rendezvous_is_an_import_error(value: str) -> None:
    # Something else under the reserved name, a capsule of another name included: never read as a registry.
    out = run(f"import sys\nsys._godlpack_go_runtimes = {value}\ntry:\n    import godlpack\n"
              "except ImportError as e:\n    print('ImportError:', e)\n")
    assert "ImportError: cannot import godlpack._core: sys._godlpack_go_runtimes is not the rendezvous" in out, out


@pytest.mark.parametrize("before", [
    # Go 1.26: the thread's M, inherited from an exited thread, was sent a preemption signal to thread id 0.
    "th = threading.Thread(target=lambda: godlpack.arange(4, dtype='float32')); th.start(); th.join()",
    # Any Go version: a preemption signal that reaches the thread after the call returned to Python is never handled.
    "",
], ids=["after-a-thread-exited", "plain"])
@pytest.mark.timing
def test_preemption_survives_a_lost_signal(before: str) -> None:
    # Either way the runtime would send that thread no other preemption signal, and every later garbage collection
    # would wait for a whole sum; a call that releases the GIL acknowledges what was lost first (internal/preempt).
    # The plain case lost it in about one process in twelve before; each run here is three processes.
    for _ in range(3):
        out = run(program(["godlpack"], "import threading\n" + before, PREEMPTION))
        assert_preempted(out)


# Preemption in the runtime of a Go extension built on pymodule (examples/tilekit), whose calls that release the
# GIL repair a lost preemption signal only where one can have been lost (cpython/runtime.c): one thread
# interleaves a thousand short sqdist calls, each releasing the GIL, with a long one, again and again, while this
# one times Stats constructions, whose Go allocations start a garbage collection every few calls. Every collection
# must stop the long sqdist loop, by async preemption only; the judge is TIME_CALLS. The kernel thread starts
# after a thread that called tilekit exited, or not.
INTERLEAVED = """
import threading, time
import tilekit
small, big = np.ones((2, 4), np.float32), np.ones((4000, 256), np.float32)  # about 90 ms on package vec's tile kernel
sums, stop = [], threading.Event()
def kernel():
    while not stop.is_set():
        for _ in range(1000):
            tilekit.sqdist(small, small)
        t = time.perf_counter(); tilekit.sqdist(big, big); sums.append(time.perf_counter() - t)
BEFORE
th = threading.Thread(target=kernel)
th.start()
""" + TIME_CALLS + """
try:
    time_calls(lambda: tilekit.Stats(1 << 16), sums, 3)
finally:
    stop.set(); th.join()
"""


@pytest.mark.timing
@shared_only
@pytest.mark.parametrize("before", [
    "th = threading.Thread(target=lambda: tilekit.sqdist(small, small)); th.start(); th.join()", ""],
    ids=["after-a-thread-exited", "plain"])
def test_short_calls_without_the_gil_between_long_ones_keep_preemption(before: str, tmp_path: Path) -> None:
    build_example("tilekit", tmp_path)
    for _ in range(2):
        assert_preempted(run(program(["godlpack"], INTERLEAVED.replace("BEFORE", before)), tmp_path))


@pytest.mark.skipif(SHARED, reason="here Go runtimes share the process")
@pytest.mark.parametrize("order", orders(), ids="-".join)
def test_elsewhere_the_second_runtime_is_an_import_error(order: list[str], examples_dir: Path) -> None:
    first, second = order
    code = f"import {first}\ntry:\n    import {second}\nexcept ImportError as e:\n    print('ImportError:', e)\n"
    out = run(code, examples_dir)
    holder = "godlpack._core" if first == "godlpack" else first
    assert f"runs the Go runtime of {holder}" in out and "only on Linux with glibc" in out, out


def test_one_extension_imported_twice_is_fine(examples_dir: Path) -> None:
    out = run("import importlib, godlpack, godlpack._core as c; importlib.reload(godlpack); print(c.DLPACK_VERSION)",
              examples_dir)
    assert out.strip() == "(1, 3)", out


# Imports in a subinterpreter, then in the main interpreter. _testcapi.run_in_subinterp makes a legacy one, which
# loads single-phase modules such as ours (the import used to succeed there and leave the main interpreter a module
# without Device); _interpreters (3.13+) makes an isolated one, which CPython refuses them in after their PyInit ran.
SUBINTERPRETER = """
import sys
name = MODULE
code = f"try:\\n    import {name}\\nexcept ImportError as e:\\n    print('refused:', e)\\nelse:\\n    print('imported')\\n"
ran = 0
try:
    import _testcapi
except ImportError:
    pass
else:
    _testcapi.run_in_subinterp(code)
    ran += 1
try:
    import _interpreters
except ImportError:
    pass
else:
    interp = _interpreters.create()
    _interpreters.run_string(interp, code)
    _interpreters.destroy(interp)
    ran += 1
sys.stdout.flush()
import importlib
module = importlib.import_module(name)
print("main", ran, module.Tensor.__name__, module.Device.__name__)
"""


@pytest.mark.parametrize("name", ["godlpack", *EXAMPLES])
def test_a_subinterpreter_is_refused_and_the_main_interpreter_unaffected(name: str, examples_dir: Path) -> None:
    out = run(SUBINTERPRETER.replace("MODULE", repr(name)), examples_dir)
    main = re.search(r"^main (\d+) Tensor Device$", out, flags=re.M)
    assert main, out
    if int(main.group(1)) == 0:
        pytest.skip("this Python has neither _testcapi nor _interpreters")
    module = "godlpack._core" if name == "godlpack" else name
    ours = f"refused: cannot import {module} in a subinterpreter: extensions built on godlpack run only in the main"
    # An isolated interpreter (_interpreters, CPython 3.12+) checks the module before its PyInit runs, and CPython
    # refuses it in its own words; a legacy one (_testcapi's) runs PyInit, which refuses in ours.
    cpythons = f"refused: module {module} does not support loading in subinterpreters"
    assert "imported" not in out.splitlines(), out
    assert out.count(ours) + out.count(cpythons) == int(main.group(1)), out


REIMPORT = """
import importlib, sys
name = MODULE
first = importlib.import_module(name)
core = sys.modules.get("godlpack._core")
for key in [k for k in sys.modules if k == name or k.startswith(name + ".")]:
    del sys.modules[key]
again = importlib.import_module(name)
same = (sys.modules["godlpack._core"] is core) if name == "godlpack" else (again is first)
importlib.reload(again)
print("same", same, type(again.Tensor).__name__)
"""


@pytest.mark.parametrize("name", ["godlpack", *EXAMPLES])
def test_an_import_after_the_module_left_sys_modules_is_the_same_module(name: str, examples_dir: Path) -> None:
    # The definitions let CPython call PyInit again (so that a subinterpreter's import reaches the refusal): the
    # module made first is the module, and reload() keeps it.
    out = run(REIMPORT.replace("MODULE", repr(name)), examples_dir)
    assert out.strip() == "same True type", out
