"""Errors are never lost, for the Tensor of a Go extension (package capsule's): runs in a process of its own.

    PYTHONPATH=python:<dir of the built normalize module> python tests/support/errors_kept_worker.py

examples/normalize is a Go extension built on the public packages alone (package pymodule, whose results are
normalize.Tensor objects), with a Go runtime of its own; without godlpack._core in the process, nothing of
godlpack's can stand in for it. Each case prints [exception type, message, the type expected, a part of the message
expected, calls of the deleter or destructor involved]; the test checks the exception and that the deleter ran
once.
"""

from __future__ import annotations

import ctypes
import json
import sys
from typing import Any, Callable

import numpy as np

import exchange_api
from dlpack_ctypes import FreshProducer, HandMade, _api, made

import normalize  # type: ignore[import-not-found]

CapsuleDestructor = ctypes.CFUNCTYPE(None, ctypes.c_void_p)


def adopted(h: HandMade) -> Any:
    """A normalize.Tensor owning h's tensor: the exchange API's to_py_object on that type."""
    table = exchange_api.table_of(type(normalize.normalize(np.ones(2, np.float32))))
    managed = ctypes.cast(h.address, ctypes.POINTER(exchange_api.DLManagedTensorVersioned))
    return exchange_api.to_py_object(table, managed)


def outcome(f: Callable[[], Any]) -> tuple[str, str]:
    try:
        f()
    except Exception as e:  # noqa: BLE001 - the exception is the outcome
        return type(e).__name__, str(e)
    return "", "no exception"


def main() -> None:
    results: dict[str, list[Any]] = {}
    calls: list[int] = []
    destructor = CapsuleDestructor(lambda address: calls.append(address))

    def capsule(h: HandMade, name: str) -> Any:
        encoded = name.encode()
        h._keep.append(encoded)
        return _api.PyCapsule_New(h.address, encoded, ctypes.cast(destructor, ctypes.c_void_p))

    unwind = "divmod expected 2 arguments, got 3"

    def case(name: str, f: Callable[[], Any], exc: str, message: str, count: Callable[[], int]) -> None:
        results[name] = [*outcome(f), exc, message, count()]

    h = made()
    case("wrong capsule name, Python destructor",
         lambda: normalize.normalize(FreshProducer(lambda: capsule(h, "nope"))),
         "TypeError", "capsule named nope is not a DLPack capsule", lambda: len(calls))

    h1 = made()
    case("__dlpack__ returning a normalize.Tensor", lambda: normalize.normalize(FreshProducer(lambda: adopted(h1))),
         "TypeError", "returned normalize.Tensor, not a DLPack capsule", lambda: h1.deleted)

    h2 = made()
    case("malformed __dlpack_device__ holding a normalize.Tensor",
         lambda: normalize.normalize(FreshProducer(not_called, device=lambda: ("cuda", adopted(h2)))),
         "TypeError", "__dlpack_device__() must return a (device_type, device_id) tuple of ints", lambda: h2.deleted)

    h3 = made()
    box = {"x": adopted(h3)}
    case("normalize.Tensor freed while an exception unwinds", lambda: unwinding(box),
         "TypeError", unwind, lambda: h3.deleted)

    h4 = made()
    e = adopted(h4)
    box = {"x": e.__dlpack__(max_version=(1, 3))}
    del e
    case("normalize.Tensor's capsule freed while an exception unwinds", lambda: unwinding(box),
         "TypeError", unwind, lambda: h4.deleted)

    h5 = made()
    box = {"x": np.from_dlpack(adopted(h5))}
    case("NumPy array over a normalize.Tensor freed while an exception unwinds", lambda: unwinding(box),
         "TypeError", unwind, lambda: h5.deleted)

    h6 = HandMade(shape=(4,), strides=(1,), flags=1 << 7)  # an unknown flag: refused by validation
    case("broken tensor refused", lambda: normalize.normalize(FreshProducer(h6.capsule)), "BufferError", "unknown flag",
         lambda: h6.deleted)

    json.dump(results, sys.stdout)


def unwinding(box: dict[str, Any]) -> None:
    """Free box["x"] while a TypeError unwinds: divmod refuses three arguments after they were evaluated."""
    divmod(box.pop("x"), None, None)  # type: ignore[misc, call-overload]


def not_called() -> None:
    raise AssertionError("__dlpack__ must not be called after a malformed __dlpack_device__")


if __name__ == "__main__":
    main()
