"""Memory an instance owns: bindtest's Index keeps its rows in a pymodule.Buffer (C memory) and hands them to Python
as views, which keep the instance alive and the Buffer from resizing while they live, as a bytearray's exports do."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import threading
import time
import weakref
from typing import Any, Callable

import numpy as np
import pytest
import torch

import bindtest as b

ASAN = "libasan" in os.environ.get("LD_PRELOAD", "")
RESIZED = r"Existing exports of data: the buffer cannot be resized: 1 view of it alive$"


def run_child(code: str) -> subprocess.CompletedProcess[str]:
    # The test helpers import godlpack, whose Go runtime this process takes on only once test_bindtest.py is done.
    from child_env import child_env

    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True,
                          env=child_env(), timeout=120)


def index(rows: int = 4, dim: int = 3) -> Any:
    ix = b.Index(dim)
    ix.add(np.arange(rows * dim, dtype=np.float32).reshape(rows, dim))
    return ix


def test_rows_grow_in_c_memory_and_come_out_as_views() -> None:
    ix = b.Index(3)
    assert ix.ntotal == 0 and ix.capacity == 0 and ix.vectors.shape == (0, 3)
    ix.add(np.arange(6, dtype=np.float64).reshape(2, 3))  # converted
    ix.add(torch.ones(1, 3))
    ix.add(np.empty((0, 3), np.float32))
    assert ix.ntotal == 3 and ix.capacity >= 3
    v = ix.vectors
    assert type(v) is b.Tensor and v.tolist() == [[0, 1, 2], [3, 4, 5], [1, 1, 1]]
    a, t = ix.vectors_np(), ix.vectors_torch()
    assert type(a) is np.ndarray and type(t) is torch.Tensor
    assert a.ctypes.data == t.data_ptr() == v.data_ptr()  # one memory, three views, no copy
    a[0, 0] = 42.0  # a view is writable: the Go value's own memory
    assert t[0, 0].item() == 42.0 and ix.row_and_view(0)[0] == 42.0
    assert ix.views == 3  # v, a and t; row_and_view's went with its tuple
    del v, a, t
    assert ix.views == 0


def test_capacity_grows_geometrically() -> None:
    ix = b.Index(4)
    capacities = set()
    for _ in range(1000):
        ix.add(np.ones((1, 4), np.float32))
        capacities.add(ix.capacity)
    assert ix.ntotal == 1000 and len(capacities) <= 10, sorted(capacities)
    ix.reserve(5000)
    assert ix.capacity >= 6000
    before = ix.vectors_np().ctypes.data
    ix.add(np.ones((5000, 4), np.float32))  # room reserved: nothing moves
    assert ix.vectors_np().ctypes.data == before


def tensor_view(ix: Any) -> Any:
    return ix.vectors


def numpy_view(ix: Any) -> Any:
    return ix.vectors_np()


def torch_view(ix: Any) -> Any:
    return ix.vectors_torch()


def memory_view(ix: Any) -> Any:
    return memoryview(ix.vectors)


def imported_view(ix: Any) -> Any:
    return np.from_dlpack(ix.vectors)  # a consumer's import: the managed tensor holds the view


def capsule_view(ix: Any) -> Any:
    return ix.vectors.__dlpack__()


def sliced_view(ix: Any) -> Any:
    return ix.vectors_np()[1:, ::2]  # a NumPy view of the view


def function_view(ix: Any) -> Any:
    return b.view_of(ix)


def released_gil_view(ix: Any) -> Any:
    return ix.vectors_free()


VIEWS = [tensor_view, numpy_view, torch_view, memory_view, imported_view, capsule_view, sliced_view, function_view,
         released_gil_view]

RESIZES: list[tuple[str, Callable[[Any], Any]]] = [
    ("add", lambda ix: ix.add(np.ones((1, 3), np.float32))),  # within the capacity too, as bytearray's append
    ("reserve", lambda ix: ix.reserve(ix.capacity)),  # a growth
    ("truncate", lambda ix: ix.truncate(1)),
    ("clear", lambda ix: ix.clear()),
    ("free", lambda ix: ix.free()),
]


@pytest.mark.parametrize("make", VIEWS, ids=lambda f: f.__name__)
def test_a_live_view_keeps_the_rows_from_resizing(make: Callable[[Any], Any]) -> None:
    ix = index()
    ix.reserve(10)
    view = make(ix)
    assert ix.views == 1
    for name, resize in RESIZES:
        with pytest.raises(BufferError, match=rf"^Index\.{name}\(\): {RESIZED}"):
            resize(ix)
    assert ix.ntotal == 4 and np.asarray(ix.vectors_np()).ravel().tolist() == list(range(12))
    # What changes nothing goes through, as bytearray's empty extend does.
    ix.add(np.empty((0, 3), np.float32))
    ix.reserve(1)
    ix.truncate(4)
    del view
    assert ix.views == 0
    for _, resize in RESIZES:
        resize(ix)
    ix.add(np.ones((2, 3), np.float32))
    assert ix.vectors.tolist() == [[1, 1, 1], [1, 1, 1]]


@pytest.mark.parametrize("make", VIEWS, ids=lambda f: f.__name__)
def test_a_view_keeps_its_instance_alive(make: Callable[[Any], Any]) -> None:
    ix = index()
    view = make(ix)
    alive = weakref.ref(ix)
    del ix
    assert alive() is not None  # nanobind's reference_internal
    assert np.from_dlpack(b.view_of(alive())).ravel().tolist() == list(range(12))
    before = b.live_owners()
    del view
    assert alive() is None
    assert b.live_owners() < before  # the rows' memory went with the instance


def test_a_view_from_a_function_keeps_the_memory_not_the_instance() -> None:
    """Only a function's first instance is kept; the memory of any view stays as long as the view."""
    ix = index()
    view = b.view_beside(3, ix)
    alive = weakref.ref(ix)
    del ix
    assert alive() is None
    assert view.tolist() == [[0, 1, 2], [3, 4, 5], [6, 7, 8], [9, 10, 11]]  # the instance's death left it alone
    before = b.live_owners()
    del view
    assert b.live_owners() == before - 1


def test_a_view_of_a_buffer_no_instance_holds() -> None:
    b.loose_append(5)
    view = b.loose_view()
    with pytest.raises(BufferError, match=rf"^loose_append\(\): {RESIZED}"):
        b.loose_append(6)
    with pytest.raises(BufferError, match=rf"^loose_free\(\): {RESIZED}"):
        b.loose_free()
    assert view.tolist() == [5]
    del view
    b.loose_append(6)
    b.loose_free()


def test_views_among_results_and_beside_errors() -> None:
    ix = index()
    first, view = ix.row_and_view(1)
    assert first == 3.0 and view.shape == (4, 3) and ix.views == 1
    del view
    with pytest.raises(ValueError, match=r"^Index\.view_and_fail\(\): a view beside an error is let go of$"):
        ix.view_and_fail()
    assert ix.views == 0
    ix.add(np.ones((1, 3), np.float32))


def test_the_instances_death_frees_its_rows() -> None:
    before = b.live_owners()
    ix = index(1000)
    assert b.live_owners() == before + 1
    del ix
    assert b.live_owners() == before


@pytest.mark.skipif(ASAN, reason="resident memory under ASan's quarantine")
def test_the_rows_memory_goes_back_as_the_instance_dies() -> None:
    """At once: no call into Go after the death, and no collection, are needed."""
    def rss() -> int:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")

    ix = b.Index(4)
    rows = np.ones((1 << 22, 4), np.float32)  # 64 MiB
    ix.add(rows)
    del rows
    before = rss()
    del ix
    assert before - rss() > 48 << 20


def test_growth_the_allocator_refuses_is_a_memory_error_and_loses_nothing() -> None:
    ix = index()
    with pytest.raises(MemoryError, match=r"^Index\.reserve_elements\(\): a Buffer of 12 float32 elements cannot "
                                          r"grow by 4611686018427387904: their bytes would overflow an int$"):
        ix.reserve_elements(2**62)
    with pytest.raises(MemoryError, match=r"^Index\.reserve_elements\(\): a Buffer of 12 float32 elements cannot "
                                          r"grow by 1152921504606846976: out of memory"):
        ix.reserve_elements(2**60)  # 4 EiB: past any allocator
    with pytest.raises(MemoryError, match=r"^Index\.reserve\(\): argument 'n' is past any memory"):
        ix.reserve(2**62)
    with pytest.raises(ValueError, match=r"^Index\.reserve_elements\(\): Reserve\(-1\): a negative count$"):
        ix.reserve_elements(-1)
    assert ix.vectors.tolist() == np.arange(12, dtype=np.float32).reshape(4, 3).tolist()
    ix.add(np.ones((1, 3), np.float32))


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="RLIMIT_AS and /proc are Linux's")
@pytest.mark.skipif(ASAN, reason="RLIMIT_AS does not bind under ASan")
def test_rows_grown_until_the_address_space_runs_out() -> None:
    """Under a low RLIMIT_AS, adds grow the rows until the allocator refuses: MemoryError, every row kept."""
    done = run_child("""
        import resource
        import numpy as np, bindtest as b
        def mapped():
            with open("/proc/self/status") as f:
                return next(int(line.split()[1]) * 1024 for line in f if line.startswith("VmSize:"))
        ix = b.Index(256)
        chunk = np.arange(256 * 256, dtype=np.float32).reshape(256, 256)  # 256 KiB of rows
        ix.add(chunk)
        limit = mapped() + (96 << 20)
        resource.setrlimit(resource.RLIMIT_AS, (limit, resource.getrlimit(resource.RLIMIT_AS)[1]))
        added = 1
        try:
            for _ in range(10_000):
                ix.add(chunk)
                added += 1
        except MemoryError as e:
            assert str(e).startswith("Index.add(): a Buffer of "), e
        else:
            raise AssertionError("no MemoryError")
        assert ix.ntotal == added * 256 and added > 10, (ix.ntotal, added)
        v = ix.vectors_np()
        assert all((v[i * 256:(i + 1) * 256] == chunk).all() for i in range(added))  # nothing lost
        del v
        ix.truncate(256)
        ix.add(chunk)  # room there is still serves
        print("ok", added)
    """)
    assert "fatal error" not in done.stderr, done.stderr[-3000:]
    assert done.returncode == 0 and done.stdout.startswith("ok "), done.stdout + done.stderr[-3000:]


def test_views_let_go_of_on_other_threads() -> None:
    ix = index()
    views = [ix.vectors_torch() if i % 2 else ix.vectors for i in range(16)]
    assert ix.views == 16
    barrier = threading.Barrier(8)

    def drop(mine: list[Any]) -> None:
        barrier.wait()
        mine.clear()

    threads = [threading.Thread(target=drop, args=(views[i::8],)) for i in range(8)]
    del views
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert ix.views == 0
    ix.add(np.ones((1, 3), np.float32))


def test_a_view_deleted_on_a_thread_python_never_saw() -> None:
    from lifetime_helpers import lib, take  # godlpack with them: see run_child

    ix = index()
    pointer, versioned = take(ix.vectors.__dlpack__())
    alive = weakref.ref(ix)
    del ix
    assert alive() is not None and alive().views == 1
    lib().lt_delete_on_thread(pointer, versioned)  # a fresh pthread, no Python thread state: the deleter takes the GIL
    assert alive() is None


def test_a_view_a_c_library_keeps_past_the_interpreter() -> None:
    """Deleted from exit(), after Py_FinalizeEx: the instance is left, and the process exits 0."""
    done = run_child("""
        import numpy as np, bindtest as b
        from lifetime_helpers import lib, take
        ix = b.Index(2)
        ix.add(np.ones((3, 2), np.float32))
        assert lib().lt_keep_until_exit(*take(ix.vectors.__dlpack__())) == 0
        print("kept", flush=True)
    """)
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.startswith("kept\n") and "1 deleters ran after finalize" in done.stdout, done.stdout


def test_views_and_resizes_on_many_threads() -> None:
    """Threads make and drop views while others add: each add either fits no view or raises, and no row is lost."""
    ix = index(0)
    added = [0]
    stop = threading.Event()

    def viewer() -> None:
        while not stop.is_set():
            v = ix.vectors_np()
            assert v.shape[1] == 3 and (v == 1).all()
            del v
            time.sleep(0.0002)  # the GIL released with no view held: an add may go through

    def adder() -> None:
        for _ in range(300):
            try:
                ix.add(np.ones((2, 3), np.float32))
                added[0] += 2
            except BufferError:
                pass

    viewers = [threading.Thread(target=viewer) for _ in range(3)]
    adders = [threading.Thread(target=adder) for _ in range(2)]
    for t in viewers + adders:
        t.start()
    for t in adders:
        t.join(60)
    stop.set()
    for t in viewers:
        t.join(60)
    assert ix.views == 0 and ix.ntotal == added[0] > 0


def test_errors_name_the_argument() -> None:
    with pytest.raises(ValueError, match=r"^Index\(\): argument 'dim' must be in \[1, 2\*\*20\], not 0$"):
        b.Index(0)
    ix = index()
    with pytest.raises(ValueError, match=r"^Index\.add\(\): argument 'x' must have 3 columns, not 2$"):
        ix.add(np.ones((1, 2), np.float32))
    with pytest.raises(IndexError, match=r"^Index\.truncate\(\): argument 'n' must be in \[0, 4\], not 5$"):
        ix.truncate(5)
