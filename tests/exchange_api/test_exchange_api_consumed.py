"""godlpack consuming another library's C exchange API: every path, every deleter once.

docs/protocol.md#exchange-api-consumed. Each producer here is a type carrying a table built in Python
(exchange_api.HandMadeTable) that hands out a hand-made managed tensor with a counted deleter, so each test
sees which path from_dlpack and godlpack.ops took, and how often the deleter ran.
"""

from __future__ import annotations

import ctypes
import gc
from typing import Any

import numpy as np
import pytest

import godlpack
from dlpack_ctypes import HandMade
from exchange_api import HandMadeTable


def table_handing_out(made: HandMade, calls: list[int], version: tuple[int, int] = (1, 3),
                      prev: HandMadeTable | None = None) -> HandMadeTable:
    def from_object(_: Any, out: Any) -> int:
        calls.append(1)
        out[0] = ctypes.pointer(made.struct)
        return 0

    return HandMadeTable(version=version, functions={"managed_tensor_from_py_object_no_sync": from_object},
                         prev=prev)


def producer(table: HandMadeTable, fallback: HandMade | None = None) -> Any:
    """An instance of a new type carrying table, whose __dlpack__ hands out fallback's capsule."""
    attrs: dict[str, Any] = {"__dlpack_c_exchange_api__": table.capsule(), "_table": table}
    if fallback is not None:
        attrs["__dlpack__"] = lambda self, **kw: fallback.capsule()
        attrs["__dlpack_device__"] = lambda self: (1, 0)
    return type("TableProducer", (), attrs)()


def floats(made: HandMade, values: list[float]) -> HandMade:
    np.frombuffer(made.buffer, np.float32)[: len(values)] = values
    return made


def test_the_table_s_tensor_is_imported_zero_copy_and_deleted_once() -> None:
    made, calls = floats(HandMade(shape=(4,), strides=(1,)), [1, 2, 3, 4]), []
    t = godlpack.from_dlpack(producer(table_handing_out(made, calls)))
    assert calls == [1] and t.data_ptr() == made.data_address and t.tolist() == [1, 2, 3, 4]
    assert not t.readonly and made.deleted == 0
    back = np.from_dlpack(t)  # re-exported: the owner is made now, and holds the tensor on
    del t
    gc.collect()
    assert made.deleted == 0
    del back
    gc.collect()
    assert made.deleted == 1


def test_godlpack_ops_take_the_table_and_delete_once() -> None:
    made, calls = floats(HandMade(shape=(4,), strides=(1,)), [1, 2, 3, 4]), []
    assert godlpack.ops.sum(producer(table_handing_out(made, calls))) == 10.0
    assert calls == [1] and made.deleted == 1


def test_a_broken_tensor_from_the_table_is_refused_and_deleted_once() -> None:
    made, calls = HandMade(shape=(4,), strides=(1,), version=(2, 0)), []
    with pytest.raises(BufferError, match="major version"):
        godlpack.from_dlpack(producer(table_handing_out(made, calls)))
    assert calls == [1] and made.deleted == 1


def test_read_only_from_the_table_stays_read_only() -> None:
    made, calls = HandMade(shape=(4,), strides=(1,), flags=1), []
    t = godlpack.from_dlpack(producer(table_handing_out(made, calls)))
    assert t.readonly
    with pytest.raises(BufferError, match="READ_ONLY"):
        godlpack.ops.scale_(producer(table_handing_out(made, calls)), 2.0)
    del t
    gc.collect()
    assert made.deleted == 2


def test_a_failing_table_gives_way_to_dlpack() -> None:
    fallback, calls = floats(HandMade(shape=(2,), strides=(1,)), [5, 6]), []
    failing = HandMadeTable(functions={"managed_tensor_from_py_object_no_sync": lambda obj, out: calls.append(1) or -1})
    t = godlpack.from_dlpack(producer(failing, fallback))
    assert calls == [1] and t.data_ptr() == fallback.data_address
    del t
    gc.collect()
    assert fallback.deleted == 1


def test_copy_and_device_requests_go_to_dlpack() -> None:
    made, fallback, calls = HandMade(shape=(2,), strides=(1,)), HandMade(shape=(2,), strides=(1,)), []
    obj = producer(table_handing_out(made, calls), fallback)
    t = godlpack.from_dlpack(obj, copy=True)  # the producer's capsule, copied by godlpack
    u = godlpack.from_dlpack(obj, device="cpu")
    assert calls == [] and t.is_copied and u.data_ptr() == fallback.data_address
    del t, u
    gc.collect()
    assert fallback.deleted == 2 and made.deleted == 0


def test_a_newer_major_is_read_along_prev_api() -> None:
    made, calls, newer_calls = HandMade(shape=(1,), strides=(1,)), [], []
    older = table_handing_out(made, calls)
    newer = table_handing_out(HandMade(shape=(1,), strides=(1,)), newer_calls, version=(2, 0), prev=older)
    t = godlpack.from_dlpack(producer(newer))
    assert calls == [1] and newer_calls == [] and t.data_ptr() == made.data_address
    del t
    gc.collect()
    assert made.deleted == 1


def test_a_newer_major_alone_gives_way_to_dlpack() -> None:
    fallback, calls = HandMade(shape=(1,), strides=(1,)), []
    t = godlpack.from_dlpack(producer(table_handing_out(HandMade(), calls, version=(2, 0)), fallback))
    assert calls == [] and t.data_ptr() == fallback.data_address
    del t
    gc.collect()
    assert fallback.deleted == 1


def test_a_subclass_is_asked_through_its_dlpack() -> None:
    made, fallback, calls = HandMade(shape=(1,), strides=(1,)), HandMade(shape=(1,), strides=(1,)), []
    base = type(producer(table_handing_out(made, calls), fallback))
    sub = type("Sub", (base,), {})()
    t = godlpack.from_dlpack(sub)
    assert calls == [] and t.data_ptr() == fallback.data_address
    del t
    gc.collect()
    assert fallback.deleted == 1 and made.deleted == 0
