"""Random hostile producers of the C exchange API, imported from several threads; prints "ok" when all held.

    python exchange_fuzz_worker.py SEED ROUNDS

Each producer type gets, at random: a table or none (a working one, one that fails, one whose function is
NULL, one that answers 0 and no tensor, a major-2 table with or without a major-1 table along prev_api), a
capsule whose destructor runs Python code that imports again, and a requires_grad that is absent, False, a
Python property (which may delete or replace the class's table while godlpack asks), or another type's getset
descriptor. Threads import random producers through godlpack.from_dlpack and godlpack.ops.sum while other
threads change the classes. Every answer must be the producer's values (whichever path gave them) or the
TypeError a borrowed descriptor raises in Python; at the end every tensor handed out was deleted exactly once.
"""

from __future__ import annotations

import ctypes
import gc
import random
import sys
import threading
import types
from typing import Any, Callable, Optional

import numpy as np

import godlpack
import godlpack.ops
from dlpack_ctypes import HandMade, _api
from exchange_api import ATTRIBUTE, CAPSULE_NAME, HandMadeTable

CapsuleDestructor = ctypes.CFUNCTYPE(None, ctypes.c_void_p)
NAME = CAPSULE_NAME.encode()
BORROWED = types.FunctionType.__dict__["__code__"]


class Counted:
    """A managed tensor of four known floats, handed out any number of times; each deletion is counted."""

    def __init__(self, first: float) -> None:
        self.made = HandMade(shape=(4,), strides=(1,))
        np.frombuffer(self.made.buffer, np.float32)[:4] = [first, first + 1, first + 2, first + 3]
        self.handed = 0
        self.lock = threading.Lock()

    def hand(self) -> Any:
        with self.lock:
            self.handed += 1
        return self.made


class Kind:
    """One producer type and everything it keeps alive."""

    def __init__(self, rng: random.Random, index: int, reenter: Callable[[], None]) -> None:
        self.first = float(10 * index)
        self.by_table, self.by_dlpack = Counted(self.first), Counted(self.first)
        self.keep: list[Any] = []
        self.borrowed = False
        attrs: dict[str, Any] = {}
        by_dlpack = self.by_dlpack

        def dlpack(obj: Any, **kw: Any) -> Any:
            return by_dlpack.hand().capsule()

        attrs["__dlpack__"] = dlpack
        attrs["__dlpack_device__"] = lambda obj: (1, 0)
        grad = rng.choice(["none", "false", "property", "mutating", "borrowed"])
        if grad == "false":
            attrs["requires_grad"] = False
        elif grad == "property":
            attrs["requires_grad"] = property(lambda obj: False)
        elif grad == "mutating":
            kind = self

            def mutating(obj: Any) -> bool:
                if rng.random() < 0.3:
                    kind.swap_table(rng, reenter)
                return False

            attrs["requires_grad"] = property(mutating)
        elif grad == "borrowed":
            attrs["requires_grad"] = BORROWED
            self.borrowed = True
        self.type = type(f"Fuzz{index}", (), attrs)
        self.swap_table(rng, reenter)

    def table(self, rng: random.Random) -> Optional[HandMadeTable]:
        behaviour = rng.choice(["ok", "ok", "ok", "fail", "null", "zero-null", "newer", "newer-alone", "none"])
        if behaviour == "none":
            return None
        by_table = self.by_table

        def ok(_: Any, out: Any) -> int:
            out[0] = ctypes.pointer(by_table.hand().struct)
            return 0

        functions: dict[str, Any] = {
            "ok": {"managed_tensor_from_py_object_no_sync": ok},
            "fail": {"managed_tensor_from_py_object_no_sync": lambda _, out: -1},
            "null": {},
            "zero-null": {"managed_tensor_from_py_object_no_sync": lambda _, out: 0},
            "newer": {"managed_tensor_from_py_object_no_sync": lambda _, out: -1},
            "newer-alone": {"managed_tensor_from_py_object_no_sync": ok},
        }[behaviour]
        if behaviour == "newer":
            return HandMadeTable(version=(2, 0), functions=functions,
                                 prev=HandMadeTable(functions={"managed_tensor_from_py_object_no_sync": ok}))
        return HandMadeTable(version=(2, 1) if behaviour == "newer-alone" else (1, rng.choice([0, 3, 9])),
                             functions=functions)

    def swap_table(self, rng: random.Random, reenter: Callable[[], None]) -> None:
        """Give the type a new table, or none; the old capsule may run Python code that imports when freed."""
        table = self.table(rng)
        if table is None:
            if ATTRIBUTE in self.type.__dict__:
                delattr(self.type, ATTRIBUTE)
            return
        destructor = CapsuleDestructor(lambda _: reenter()) if rng.random() < 0.5 else None
        self.keep += [table, destructor]
        setattr(self.type, ATTRIBUTE, _api.PyCapsule_New(ctypes.addressof(table.struct), NAME, destructor))


def main() -> None:
    seed, rounds = int(sys.argv[1]), int(sys.argv[2])
    rng = random.Random(seed)
    kinds: list[Kind] = []
    failures: list[str] = []
    refused, reentered = [0], [0]

    def check(kind: Kind, how: str) -> None:
        x = kind.type()
        try:
            got = godlpack.from_dlpack(x).tolist() if how == "from_dlpack" else godlpack.ops.sum(x)
        except TypeError as e:
            if not (kind.borrowed and "doesn't apply" in str(e)):
                failures.append(f"{kind.type.__name__} {how}: {e!r}")
            refused[0] += 1
            return
        want = [kind.first + i for i in range(4)]
        if got != (want if how == "from_dlpack" else sum(want)):
            failures.append(f"{kind.type.__name__} {how}: {got}, want {want}")

    def reenter() -> None:
        reentered[0] += 1
        check(rng.choice(kinds), rng.choice(["from_dlpack", "sum"]))

    for i in range(12):
        kinds.append(Kind(rng, i, reenter))

    def importer(seed: int) -> None:
        r = random.Random(seed)
        for _ in range(rounds):
            check(r.choice(kinds), r.choice(["from_dlpack", "sum"]))

    def mutator(seed: int) -> None:
        r = random.Random(seed)
        for _ in range(rounds // 10):
            r.choice(kinds).swap_table(r, reenter)

    threads = [threading.Thread(target=importer, args=(seed * 10 + i,)) for i in range(4)]
    threads += [threading.Thread(target=mutator, args=(seed * 10 + 9,))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for kind in kinds:
        if ATTRIBUTE in kind.type.__dict__:
            delattr(kind.type, ATTRIBUTE)
    godlpack.from_dlpack(np.zeros(1))  # the last type learnt is forgotten: its capsule goes
    gc.collect()
    for kind in kinds:
        for counted in (kind.by_table, kind.by_dlpack):
            if counted.made.deleted != counted.handed:
                failures.append(f"{kind.type.__name__}: {counted.handed} tensors handed out, "
                                f"{counted.made.deleted} deleted")
    assert not failures, "\n".join(failures[:20])
    # The run reached every path it is about.
    by_table = sum(k.by_table.handed for k in kinds)
    by_dlpack = sum(k.by_dlpack.handed for k in kinds)
    print(f"tables {by_table}, __dlpack__ {by_dlpack}, refused {refused[0]}, re-entered {reentered[0]}")
    assert by_table > 0 and by_dlpack > 0 and reentered[0] > 0, "the seed reached too few paths"
    print("ok")


if __name__ == "__main__":
    main()
