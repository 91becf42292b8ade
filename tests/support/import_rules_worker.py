"""Imports tensors from producers of every kind with every request, in a process of its own; prints JSON.

    python import_rules_worker.py from_dlpack|capsule_import

from_dlpack: godlpack.from_dlpack(x, copy=c). capsule_import: capsule.Import(x, Request{c, writable}) of the
test extension testing/importtest (another Go runtime, hence another process). Each outcome is the
exception (type and message, with the caller's name removed) or what the tensor is: IS_COPIED, read-only, and
whether it shares the producer's memory.
"""

from __future__ import annotations

import json
import sys
from typing import Any, Callable, Optional

from dlpack_ctypes import IS_COPIED, READ_ONLY, HandMade

COPIES = [None, True, False]


class Producer:
    """A versioned producer whose own tensor has own_flags; it answers copy=True as copy_flags says.

    copy_flags None: it ignores copy=True (hands over its own tensor, unflagged).
    """

    def __init__(self, own_flags: int, copy_flags: Optional[int], always_copies: bool = False) -> None:
        self.own = HandMade(shape=(4,), strides=(1,), flags=own_flags | (IS_COPIED if always_copies else 0))
        self.copy_flags = copy_flags
        self.made: list[HandMade] = []

    def __dlpack__(self, *, copy: Optional[bool] = None, **kw: Any) -> Any:
        if copy and self.copy_flags is not None:
            made = HandMade(shape=(4,), strides=(1,), flags=self.copy_flags)
            self.made.append(made)
            return made.capsule()
        return self.own.capsule()

    def __dlpack_device__(self) -> tuple[int, int]:
        return (1, 0)


class Legacy(Producer):
    """A producer from before DLPack 1.0: legacy capsules, no keywords but stream."""

    def __init__(self) -> None:
        self.own = HandMade(versioned=False, shape=(4,), strides=(1,))
        self.made = []

    def __dlpack__(self, stream: Any = None) -> Any:
        return self.own.capsule()


PRODUCERS: dict[str, Callable[[], Any]] = {
    "writable, copies on request": lambda: Producer(0, IS_COPIED),
    "read-only, read-only copies (JAX)": lambda: Producer(READ_ONLY, READ_ONLY | IS_COPIED),
    "always copies": lambda: Producer(0, IS_COPIED, always_copies=True),
    "ignores copy": lambda: Producer(0, None),
    "read-only, ignores copy": lambda: Producer(READ_ONLY, None),
    "legacy": Legacy,
}


def outcome(importer: Callable[[Any, Optional[bool], bool], str], name: str, copy: Optional[bool],
            writable: bool) -> list[Any]:
    p = PRODUCERS[name]()
    try:
        got = importer(p, copy, writable)
    except Exception as e:  # noqa: BLE001 - the exception is the outcome
        msg = str(e).replace("from_dlpack()", "CALLER()").replace("capsule.Import()", "CALLER()")
        return ["raise", type(e).__name__, msg, p.own.deleted + sum(m.deleted for m in p.made)]
    fields = dict(kv.split("=") for kv in got.split())
    deleted = p.own.deleted + sum(m.deleted for m in p.made)
    return ["ok", fields["copied"], fields["readonly"], int(fields["data"]) == p.own.data_address, deleted]


def main() -> None:
    if sys.argv[1] == "from_dlpack":
        import godlpack

        def importer(x: Any, copy: Optional[bool], writable: bool) -> str:
            t = godlpack.from_dlpack(x, copy=copy)
            got = f"copied={t.is_copied} readonly={t.readonly} data={t.data_ptr()}"
            del t
            return got.replace("True", "true").replace("False", "false")
    else:
        import importtest

        importer = importtest.imported
    writables = [False] if sys.argv[1] == "from_dlpack" else [False, True]
    json.dump({f"{name} | copy={c} | writable={w}": outcome(importer, name, c, w)
               for name in PRODUCERS for c in COPIES for w in writables}, sys.stdout)


if __name__ == "__main__":
    main()
