"""Buffers whose size the caller picks come from the C allocator, so that running out is a MemoryError.

Go's allocator aborts the whole process (`fatal error: out of memory`) when the address space runs out. Every
buffer godlpack allocates with a size taken from the caller is C memory that reports failure: the tensors, and
the temporary buffer of an overlapping `godlpack.ops.copy_`; `arange` of complex and vector types works in the
tensor's own memory, with no buffer beside it. Each case runs in a child process under a low RLIMIT_AS (what it
has mapped after importing godlpack and warming up, plus a little), without NumPy or PyTorch.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

from child_env import child_env

pytestmark = [
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="RLIMIT_AS and /proc are Linux's"),
    # AddressSanitizer (make memcheck) maps its allocator's whole space at start, so a cap on the address space
    # no longer limits what malloc returns.
    pytest.mark.skipif("libasan" in os.environ.get("LD_PRELOAD", ""), reason="RLIMIT_AS does not bind under ASan"),
]

MIB = 1 << 20

# The child: import godlpack, warm up (threads, the Go heap), then cap the address space at what is mapped now
# plus HEADROOM bytes, and run the case.
PRELUDE = """
import ctypes, resource, sys
import godlpack
from godlpack import ops
from dlpack_ctypes import HandMade, Producer

godlpack.arange(1000, dtype="complex128"); godlpack.arange(1000, dtype="float32x4")
ops.copy_(godlpack.zeros(1000), godlpack.full(1000, 1.0))

def mapped():
    with open("/proc/self/status") as f:
        return next(int(line.split()[1]) * 1024 for line in f if line.startswith("VmSize:"))

def cap(headroom):
    limit = mapped() + headroom
    resource.setrlimit(resource.RLIMIT_AS, (limit, resource.getrlimit(resource.RLIMIT_AS)[1]))
"""


def run_child(body: str) -> subprocess.CompletedProcess[str]:
    code = PRELUDE + textwrap.dedent(body)
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=child_env(),
                          timeout=120)


def check(done: subprocess.CompletedProcess[str]) -> None:
    assert "fatal error" not in done.stderr, done.stderr[-3000:]
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.strip() == "ok", done.stdout


@pytest.mark.parametrize("dtype, itemsize, last", [("complex128", 16, "(8388607+0j)"),
                                                   ("complex64", 8, "(16777215+0j)"),
                                                   ("float32x4", 16, "8388607.0")])
def test_arange_needs_no_buffer_beside_the_tensor(dtype: str, itemsize: int, last: str) -> None:
    """128 MiB of arange fits in 152 MiB of address space; its values come out right; 4 GiB is a MemoryError."""
    n = 128 * MIB // itemsize
    done = run_child(f"""
        cap({152 * MIB})
        t = godlpack.arange({n}, dtype={dtype!r})
        assert t.shape == ({n},), t.shape
        lane = {itemsize} // 4 if {dtype!r} == "float32x4" else {itemsize} // 2
        tail = ctypes.string_at(t.data_ptr() + ({n} - 1) * {itemsize}, {itemsize})
        if {dtype!r} == "float32x4":
            got = ctypes.c_float.from_buffer_copy(tail[:4]).value
            assert tail == tail[:4] * 4, tail  # the value in every lane
            assert repr(got) == {last!r}, got
        else:
            kind = ctypes.c_double if lane == 8 else ctypes.c_float
            re, im = kind.from_buffer_copy(tail[:lane]).value, kind.from_buffer_copy(tail[lane:]).value
            assert repr(complex(re, im)) == {last!r}, (re, im)
        del t
        try:
            godlpack.arange({32 * n}, dtype={dtype!r})
        except MemoryError:
            print("ok")
    """)
    check(done)


@pytest.mark.parametrize("headroom_mib, fits", [(16, False), (96, True)])
def test_overlapping_copy(headroom_mib: int, fits: bool) -> None:
    """copy_ from a broadcast view of dst's first element goes through a temporary copy of 64 MiB: with room for
    it every element becomes dst's first; without, a MemoryError, and the source is deleted once."""
    n = 16 * MIB
    done = run_child(f"""
        dst = godlpack.arange({n}, dtype="float32")
        ctypes.c_float.from_address(dst.data_ptr()).value = 7.0
        src = HandMade(shape=({n},), strides=(0,), dtype=(2, 32, 1), nbytes=4)
        src.struct.dl_tensor.data = dst.data_ptr()  # every element of src is dst's first: they overlap
        cap({headroom_mib * MIB})
        try:
            ops.copy_(dst, Producer(src.capsule()))
            last = ctypes.c_float.from_address(dst.data_ptr() + ({n} - 1) * 4).value
            assert {fits} and last == 7.0, last
        except MemoryError as e:
            assert not {fits} and "cannot allocate" in str(e), e
        assert src.deleted == 1, src.deleted
        print("ok")
    """)
    check(done)
