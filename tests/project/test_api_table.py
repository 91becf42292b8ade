"""docs/python-api.md's "What godlpack accepts and refuses" table, run row by row so that it cannot drift.

A row's call is evaluated; a result that is an exception name must be raised exactly, and any other result
must hold its backticked check, a Python expression over `r`, the call's result.
"""

from __future__ import annotations

import gc
import re
from typing import Any, Callable

import numpy
import pytest

import godlpack
from dlpack_ctypes import IS_COPIED, READ_ONLY, HandMade, Producer, contiguous_strides, decode
from repository import ROOT

TABLE = ROOT / "docs" / "python-api.md"
ERRORS = {"TypeError": TypeError, "ValueError": ValueError, "BufferError": BufferError}


def rows() -> list[tuple[str, str]]:
    text = TABLE.read_text()
    section = text[text.index("<!-- conformance:start -->") : text.index("<!-- conformance:end -->")]
    found = re.findall(r"^\| `(.+?)` \| (.+?) \|$", section, flags=re.M)
    assert len(found) >= 30, "the table of docs/python-api.md lost its rows"
    return found


class Namespace:
    """The names the table uses, made fresh for each row; hand-made tensors outlive every Tensor on them."""

    def __init__(self) -> None:
        self.sources: list[HandMade] = []
        ro_array = numpy.arange(4, dtype=numpy.float32)
        ro_array.flags.writeable = False
        consumed = numpy.arange(2.0).__dlpack__()
        godlpack.from_dlpack(consumed)
        self.names: dict[str, Any] = {
            "godlpack": godlpack,
            "numpy": numpy,
            "from_dlpack": godlpack.from_dlpack,
            "Producer": Producer,
            "READ_ONLY": READ_ONLY,
            "IS_COPIED": IS_COPIED,
            "made": self.made,
            "t": godlpack.arange(4, dtype="float32"),
            "ro": godlpack.from_dlpack(ro_array),
            "f8": godlpack.full((4,), 1.5, dtype="float8_e4m3fn"),
            "dev": godlpack.from_dlpack(self.made(device=(2, 0))),
            "consumed_capsule": consumed,
            "name": lambda c: decode(c).name,
            "version": lambda c: decode(c).version,
            "flags": lambda c: decode(c).flags,
            "data": lambda c: decode(c).data,
            "device": lambda c: decode(c).device,
        }

    def made(self, shape: tuple[int, ...] = (4,), **kw: Any) -> Any:
        """A capsule of a float32 tensor holding 0, 1, 2, …; strides are contiguous unless given (None: NULL)."""
        kw.setdefault("strides", contiguous_strides([max(n, 0) for n in shape]))
        h = HandMade(shape=shape, nbytes=32, **kw)
        numpy.frombuffer(h.buffer, dtype=numpy.float32)[:] = numpy.arange(8)
        self.sources.append(h)
        return h.capsule()


@pytest.mark.parametrize("call, result", rows(), ids=[c for c, _ in rows()])
def test_readme_row(call: str, result: str) -> None:
    ns = Namespace()
    expected = re.fullmatch(r"`(\w+Error)`", result)
    run: Callable[[], Any] = lambda: eval(call, ns.names)  # noqa: E731 - the document is the test's input
    if expected:
        with pytest.raises(ERRORS[expected.group(1)]):
            run()
    else:
        checks = re.findall(r"`([^`]+)`", result)
        assert checks, f"row {call!r} has neither an exception nor a check"
        r = run()
        for check in checks:
            assert eval(check, {**ns.names, "r": r}), f"{call} -> {check}"
        del r
    sources = ns.sources
    ns.names.clear()
    gc.collect()
    assert [h.deleted for h in sources] == [1] * len(sources), "a hand-made tensor was not deleted exactly once"
