"""The exchange-API harness checked against hand-made tables: it must catch every broken contract.

No framework needed: each table here is built in Python (exchange_api.HandMadeTable), so the tests
can make a producer misbehave in the ways a real one rarely does.
"""

from __future__ import annotations

import ctypes
import sys
from typing import Any

import pytest

from dlpack_ctypes import HandMade, decode_managed
from exchange_api import (
    CAPSULE_NAME,
    AllocationError,
    ContractError,
    HandMadeTable,
    allocate,
    current_work_stream,
    dltensor_from_py_object,
    from_py_object,
    release,
    table_of,
    to_py_object,
    watch_deleter,
)


def handing_out(made: HandMade) -> HandMadeTable:
    """A table whose from_py_object hands out made, whatever the object."""

    def from_object(_: Any, out: Any) -> int:
        out[0] = ctypes.pointer(made.struct)
        return 0

    return HandMadeTable(functions={"managed_tensor_from_py_object_no_sync": from_object})


def test_table_of_refuses_what_is_not_a_table() -> None:
    with pytest.raises(TypeError, match="type, not on a int"):
        table_of(1)  # type: ignore[arg-type]
    with pytest.raises(AttributeError):
        table_of(int)
    with pytest.raises(TypeError, match="not a PyCapsule"):
        table_of(type("Bad", (), {"__dlpack_c_exchange_api__": 7}))
    wrong = HandMadeTable()
    with pytest.raises(ValueError, match="named 'dltensor'"):
        table_of(type("Bad", (), {"__dlpack_c_exchange_api__": wrong.capsule("dltensor")}))
    assert table_of(wrong.owner()).address == ctypes.addressof(wrong.struct)
    assert CAPSULE_NAME == "dlpack_exchange_api"


def test_version_chain_follows_prev_api() -> None:
    old = HandMadeTable((1, 3))
    new = HandMadeTable((2, 0), prev=old)
    table = table_of(new.owner())
    assert table.version == (2, 0)
    assert table.prev_api == ctypes.addressof(old.struct)
    assert table.version_chain() == [(2, 0), (1, 3)]
    older = table.prev()
    assert older is not None and older.version == (1, 3) and older.prev() is None


def test_null_functions_read_as_none() -> None:
    table = table_of(HandMadeTable().owner())
    assert table.pointer("dltensor_from_py_object_no_sync") is None
    assert dltensor_from_py_object(table, object()) is None
    # The header allows NULL for that one function only.
    with pytest.raises(ContractError, match="managed_tensor_from_py_object_no_sync is NULL"):
        from_py_object(table, object())
    with pytest.raises(ContractError, match="managed_tensor_to_py_object_no_sync is NULL"):
        to_py_object(table, ctypes.pointer(HandMade().struct))
    with pytest.raises(ContractError, match="current_work_stream is NULL"):
        current_work_stream(table, 1, 0)
    for gil in (True, False):
        with pytest.raises(ContractError, match="managed_tensor_allocator is NULL"):
            allocate(table, (2, 32, 1), (1,), gil=gil)
    with pytest.raises(KeyError):
        table.pointer("no_such_function")


def test_from_py_object_and_release() -> None:
    made = HandMade(shape=(3,), dtype=(0, 16, 1))
    table = table_of(handing_out(made).owner())
    managed = from_py_object(table, object())
    assert ctypes.addressof(managed.contents) == made.address
    d = decode_managed(made.address)
    assert d.shape == (3,) and d.dtype == (0, 16, 1) and d.data == made.data_address
    watch = watch_deleter(managed)
    release(managed)
    assert (watch.calls, made.deleted) == (1, 1)
    release(from_py_object(table, None), gil=True)
    assert made.deleted == 2


def test_watch_deleter_refuses_a_null_deleter() -> None:
    made = HandMade(null_deleter=True)
    managed = from_py_object(table_of(handing_out(made).owner()), 0)
    with pytest.raises(ContractError, match="NULL deleter"):
        watch_deleter(managed)
    release(managed)


def test_to_py_object_takes_over_one_reference() -> None:
    result = ["the producer's object"]

    def to_object(_: Any, out: Any) -> int:
        ctypes.pythonapi.Py_IncRef(ctypes.py_object(result))
        out[0] = id(result)
        return 0

    table = table_of(HandMadeTable(functions={"managed_tensor_to_py_object_no_sync": to_object}).owner())
    before = sys.getrefcount(result)
    got = to_py_object(table, ctypes.pointer(HandMade().struct))
    assert got is result
    assert sys.getrefcount(result) == before + 1
    del got
    assert sys.getrefcount(result) == before


def test_current_work_stream_reads_the_out_parameter() -> None:
    def stream(device_type: int, device_id: int, out: Any) -> int:
        out[0] = None if device_type == 1 else device_type * 1000 + device_id
        return 0

    table = table_of(HandMadeTable(functions={"current_work_stream": stream}).owner())
    assert current_work_stream(table, 1, 0) is None
    assert current_work_stream(table, 2, 3) == 2003


def test_allocator_success_and_set_error() -> None:
    made = HandMade(shape=(2, 2))
    seen: list[tuple[int, ...]] = []

    def allocator(prototype: Any, out: Any, ctx: Any, set_error: Any) -> int:
        p = prototype.contents
        seen.append((p.dtype.code, p.dtype.bits, p.ndim, *(p.shape[i] for i in range(p.ndim))))
        if p.dtype.bits == 7:
            set_error(ctx, b"BufferError", b"no 7-bit floats")
            return -1
        out[0] = ctypes.pointer(made.struct)
        return 0

    table = table_of(HandMadeTable(functions={"managed_tensor_allocator": allocator}).owner())
    for gil in (True, False):
        managed = allocate(table, (2, 32, 1), (2, 2), gil=gil)
        assert ctypes.addressof(managed.contents) == made.address
        with pytest.raises(AllocationError) as info:
            allocate(table, (2, 7, 1), (5,), gil=gil)
        assert (info.value.kind, info.value.message) == ("BufferError", "no 7-bit floats")
    assert seen == [(2, 32, 2, 2, 2), (2, 7, 1, 5)] * 2


def broken(name: str, fn: Any) -> Any:
    return table_of(HandMadeTable(functions={name: fn}).owner())


def test_broken_contracts_are_caught() -> None:
    made = HandMade()

    def hand_out(out: Any) -> None:
        out[0] = ctypes.pointer(made.struct)

    with pytest.raises(ContractError, match="without setting a Python error"):
        from_py_object(broken("managed_tensor_from_py_object_no_sync", lambda o, out: -1), 1)
    with pytest.raises(ContractError, match="NULL tensor"):
        from_py_object(broken("managed_tensor_from_py_object_no_sync", lambda o, out: 0), 1)
    with pytest.raises(ContractError, match="without setting a Python error"):
        to_py_object(broken("managed_tensor_to_py_object_no_sync", lambda m, out: -1), ctypes.pointer(made.struct))
    with pytest.raises(ContractError, match="NULL object"):
        to_py_object(broken("managed_tensor_to_py_object_no_sync", lambda m, out: 0), ctypes.pointer(made.struct))
    with pytest.raises(ContractError, match="without setting a Python error"):
        dltensor_from_py_object(broken("dltensor_from_py_object_no_sync", lambda o, out: -1), 1)
    with pytest.raises(ContractError, match="without writing"):
        current_work_stream(broken("current_work_stream", lambda t, i, out: 0), 1, 0)
    with pytest.raises(ContractError, match="without setting a Python error"):
        current_work_stream(broken("current_work_stream", lambda t, i, out: -1), 1, 0)

    def alloc(rc: int, errors: int, write: bool, ctx_shift: int = 0) -> Any:
        def allocator(prototype: Any, out: Any, ctx: Any, set_error: Any) -> int:
            for _ in range(errors):
                set_error(ctx + ctx_shift, b"MemoryError", b"out of luck")
            if write:
                hand_out(out)
            return rc

        return broken("managed_tensor_allocator", allocator)

    with pytest.raises(ContractError, match="called SetError 0 times"):
        allocate(alloc(-1, 0, False), (2, 32, 1), (1,))
    with pytest.raises(ContractError, match="called SetError 2 times"):
        allocate(alloc(-1, 2, False), (2, 32, 1), (1,))
    with pytest.raises(ContractError, match="yet wrote a tensor"):
        allocate(alloc(-1, 1, True), (2, 32, 1), (1,))
    with pytest.raises(ContractError, match="NULL tensor"):
        allocate(alloc(0, 0, False), (2, 32, 1), (1,))
    with pytest.raises(ContractError, match="error_ctx"):
        allocate(alloc(-1, 1, False, ctx_shift=8), (2, 32, 1), (1,))
    deleted = made.deleted
    with pytest.raises(ContractError, match="returned 0 but called SetError"):
        allocate(alloc(0, 1, True), (2, 32, 1), (1,))
    assert made.deleted == deleted + 1, "the tensor of a broken success is released"
