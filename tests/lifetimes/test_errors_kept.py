"""Errors are never lost: an exception reaches the caller unchanged while Python-level destructors run.

godlpack drops references and deletes tensors on its error paths, and frees tensors while an exception
unwinds through the caller. Whatever runs then may be Python code: a capsule destructor written with ctypes,
a producer's deleter written with ctypes (HandMade's), a NumPy array whose deleter is ours. Python code that
runs while an exception is pending fails with SystemError and clears it, so the caller would get
"SystemError: error return without exception set" and the deleter's own work would be undone (HandMade's
counter stays at 0: ctypes cannot even convert its argument). Every case below checks the exception type
and message the caller sees and that each deleter and destructor ran exactly once.

The Tensor of a Go extension (normalize.Tensor: examples/normalize, built on capsule and pymodule alone) runs the
same cases in a process of its own: tests/support/errors_kept_worker.py. The promise:
docs/protocol.md#errors-never-lost.
"""

from __future__ import annotations

import ctypes
import gc
import json
import subprocess
import sys
from pathlib import Path
from typing import Any, Callable

import numpy as np
import pytest

import godlpack
import godlpack.ops
from child_env import SUPPORT, child_env
from dlpack_ctypes import FreshProducer, HandMade, _api, made
from go_examples import build_normalize

CPU = (1, 0)
CUDA = (2, 0)
WORKER = SUPPORT / "errors_kept_worker.py"

# A capsule destructor written in Python: void (*)(PyObject *), the capsule passed as a bare address (a
# py_object argument would revive the dying capsule).
CapsuleDestructor = ctypes.CFUNCTYPE(None, ctypes.c_void_p)


class CountingDestructor:
    """A ctypes capsule destructor that counts its calls; a call made with an exception pending fails."""

    def __init__(self) -> None:
        self.calls: list[int] = []
        self.fn = CapsuleDestructor(lambda address: self.calls.append(address))

    def capsule(self, h: HandMade, name: str) -> Any:
        """A new capsule over h's tensor whose destructor is this one; the caller holds its only reference."""
        name_bytes = name.encode()
        h._keep.append(name_bytes)
        return _api.PyCapsule_New(h.address, name_bytes, ctypes.cast(self.fn, ctypes.c_void_p))


def raises(exc: type[BaseException], match: str, f: Callable[[], Any]) -> None:
    with pytest.raises(BaseException) as info:
        f()
    # pytest.raises(exc) would accept a subclass; SystemError is what a lost error turns into.
    assert type(info.value) is exc, f"{type(info.value).__name__}: {info.value}"
    assert match in str(info.value)


# ---- godlpack's error paths drop objects whose destructors are Python code ----


@pytest.mark.parametrize("call", ["from_dlpack", "ops.sum", "ops.scale_", "ops.copy_"])
def test_wrong_capsule_name_with_a_python_destructor(call: str) -> None:
    h, d = made(), CountingDestructor()
    producer = FreshProducer(lambda: d.capsule(h, "not_a_dltensor"))
    f = {
        "from_dlpack": lambda: godlpack.from_dlpack(producer),
        "ops.sum": lambda: godlpack.ops.sum(producer),
        "ops.scale_": lambda: godlpack.ops.scale_(producer, 2),
        "ops.copy_": lambda: godlpack.ops.copy_(np.zeros(4, np.float32), producer),
    }[call]
    raises(TypeError, "capsule named not_a_dltensor is not a DLPack capsule", f)
    assert len(d.calls) == 1, "the capsule's destructor must run once"
    assert h.deleted == 0, "a capsule we did not take is not ours to delete"


def test_consumed_capsule_with_a_python_destructor() -> None:
    h, d = made(), CountingDestructor()
    raises(ValueError, "already consumed", lambda: godlpack.from_dlpack(FreshProducer(
        lambda: d.capsule(h, "used_dltensor_versioned"))))
    assert len(d.calls) == 1


def test_second_operand_fails_after_the_first_was_taken() -> None:
    """ops.copy_ took its first operand's tensor (a Python deleter) when the second one fails."""
    first, h, d = made(), made(), CountingDestructor()
    bad = FreshProducer(lambda: d.capsule(h, "nope"))
    raises(TypeError, "capsule named nope", lambda: godlpack.ops.copy_(first.capsule(), bad))
    assert first.deleted == 1
    assert len(d.calls) == 1


def test_dlpack_returning_a_tensor_deletes_that_tensors_producer() -> None:
    h = made()
    producer = FreshProducer(lambda: godlpack.from_dlpack(h.capsule()))
    raises(TypeError, "returned godlpack.Tensor, not a DLPack capsule", lambda: godlpack.from_dlpack(producer))
    assert h.deleted == 1, "the Tensor __dlpack__ returned was dropped: its producer's deleter must have run"


def test_dlpack_returning_a_numpy_array_over_our_memory() -> None:
    h = made()
    producer = FreshProducer(lambda: np.from_dlpack(godlpack.from_dlpack(h.capsule())))
    raises(TypeError, "returned numpy.ndarray, not a DLPack capsule", lambda: godlpack.from_dlpack(producer))
    assert h.deleted == 1


@pytest.mark.parametrize("answer", ["tensor", "capsule"])
def test_malformed_dlpack_device_holding_python_destructors(answer: str) -> None:
    h, d = made(), CountingDestructor()

    def device() -> Any:
        held = godlpack.from_dlpack(h.capsule()) if answer == "tensor" else d.capsule(h, "z")
        return ("cuda", held)

    producer = FreshProducer(lambda: pytest.fail("__dlpack__ must not be called"), device=None)
    producer.__dlpack_device__ = device  # type: ignore[method-assign]
    raises(TypeError, "__dlpack_device__() must return a (device_type, device_id) tuple of ints",
           lambda: godlpack.from_dlpack(producer))
    assert (h.deleted, len(d.calls)) == ((1, 0) if answer == "tensor" else (0, 1))


@pytest.mark.parametrize("how", ["capsule", "producer"])
def test_cuda_capsule_asked_for_cpu_deletes_once(how: str) -> None:
    h = made(device=CUDA)
    x = h.capsule() if how == "capsule" else FreshProducer(h.capsule, device=CPU)
    raises(BufferError, "device='cpu' was asked for, but the producer returned data on device (2, 0)",
           lambda: godlpack.from_dlpack(x, device="cpu"))
    assert h.deleted == 1


@pytest.mark.parametrize("flags", [1 << 7, 0])
def test_broken_or_refused_tensor_with_a_python_deleter(flags: int) -> None:
    """A tensor refused by validation (unknown flag) or by copy=False (IS_COPIED): deleted once, error kept."""
    h = made(flags=flags or 2)
    expect = (BufferError, "unknown flag") if flags else (BufferError, "copy=False, but the producer copied")
    raises(*expect, lambda: godlpack.from_dlpack(FreshProducer(h.capsule), copy=False))
    assert h.deleted == 1


# ---- objects freed while an exception unwinds through the caller ----


UNWIND = "divmod expected 2 arguments, got 3"


def unwind(holder: dict[str, Any]) -> None:
    """Free the only reference to holder["x"] while a TypeError (UNWIND), whatever the object, unwinds."""
    divmod(holder.pop("x"), None, None)  # type: ignore[misc, call-overload]


def test_tensor_freed_while_an_exception_unwinds() -> None:
    h = made()
    box = {"x": godlpack.from_dlpack(h.capsule())}
    raises(TypeError, UNWIND, lambda: unwind(box))
    assert h.deleted == 1


@pytest.mark.parametrize("max_version", [None, (1, 3)])
def test_exported_capsule_freed_while_an_exception_unwinds(max_version: Any) -> None:
    """Our capsule, unconsumed, is the last holder: its destructor runs the producer's deleter."""
    h = made()
    t = godlpack.from_dlpack(h.capsule())
    box = {"x": t.__dlpack__(max_version=max_version)}
    del t
    raises(TypeError, UNWIND, lambda: unwind(box))
    assert h.deleted == 1


def test_numpy_array_over_our_export_freed_while_an_exception_unwinds() -> None:
    """NumPy's array dealloc calls our deleter with the exception pending; ours calls the producer's."""
    h = made()
    box = {"x": np.from_dlpack(godlpack.from_dlpack(h.capsule()))}
    raises(TypeError, UNWIND, lambda: unwind(box))
    assert h.deleted == 1


def test_deleter_of_a_chain_freed_while_an_exception_unwinds() -> None:
    """godlpack -> NumPy -> godlpack -> NumPy: the producer's deleter runs at the far end of the chain."""
    h = made()
    x: Any = godlpack.from_dlpack(h.capsule())
    for _ in range(3):
        x = godlpack.from_dlpack(np.from_dlpack(x))
    box = {"x": x}
    del x
    raises(TypeError, UNWIND, lambda: unwind(box))
    assert h.deleted == 1


# ---- the Tensor of a Go extension (normalize.Tensor), in a process of its own ----


@pytest.fixture(scope="module")
def normalize_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_normalize(tmp_path_factory.mktemp("normalize"))


def test_exporter_keeps_errors(normalize_dir: Path) -> None:
    done = subprocess.run([sys.executable, str(WORKER)], capture_output=True, text=True, env=child_env(normalize_dir),
                          timeout=300)
    assert done.returncode == 0, done.stderr
    outcomes: dict[str, list[Any]] = json.loads(done.stdout)
    assert len(outcomes) >= 6, outcomes
    for case, (exc, message, want_exc, want_message, calls) in outcomes.items():
        assert (exc, want_message in message) == (want_exc, True), f"{case}: {exc}: {message}"
        assert calls == 1, f"{case}: the deleter or destructor ran {calls} times, not once"
