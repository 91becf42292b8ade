"""Runs DLPack producer calls on one exporter, in a process of its own, and prints what each gave as JSON.

    python parity_worker.py godlpack|normalize < calls.json

The exporter `t` is a writable 1-d float64 tensor of 2 elements: a godlpack.Tensor, or the normalize.Tensor that
examples/normalize (a separate Go extension, hence a separate process) returns. Each call is a Python
expression over `t`; its outcome is the exception (type and message) or, for a capsule, what it holds.
"""

from __future__ import annotations

import json
import sys
from typing import Any

import numpy

from dlpack_ctypes import capsule_name, decode


def exporter(kind: str) -> Any:
    if kind == "godlpack":
        import godlpack

        return godlpack.full(2, 1.0, dtype="float64")
    import normalize

    return normalize.normalize(numpy.arange(4, dtype=numpy.float32))


def outcome(call: str, t: Any, base: int) -> list[Any]:
    try:
        r = eval(call, {"t": t})
    except Exception as e:  # noqa: BLE001 - the exception is the outcome
        # CPython names the type in its own messages (METH_NOARGS): the one difference allowed.
        return ["raise", type(e).__name__, str(e).replace(f"{type(t).__name__}.", "")]
    if type(r).__name__ != "PyCapsule" or capsule_name(r) not in ("dltensor", "dltensor_versioned"):
        return ["value", repr(r) if type(r).__name__ != "PyCapsule" else capsule_name(r)]
    d = decode(r)
    return ["capsule", d.name, d.version, d.flags, d.device, d.dtype, d.shape, d.strides, d.data == base]


def main() -> None:
    calls = json.load(sys.stdin)
    t = exporter(sys.argv[1])
    base = decode(t.__dlpack__(max_version=(1, 3))).data
    json.dump([outcome(c, t, base) for c in calls], sys.stdout)


if __name__ == "__main__":
    main()
