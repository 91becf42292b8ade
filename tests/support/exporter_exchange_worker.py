"""Calls every function of the exchange table of an extension's Tensor (examples/normalize's), prints "ok".

Run in a process of its own by tests/exchange_api/test_exchange_api_godlpack.py, where godlpack._core is not
loaded.
"""

from __future__ import annotations

import ctypes
import gc

import numpy as np
import normalize

from dlpack_ctypes import decode_dltensor, decode_managed
from exchange_api import (
    AllocationError,
    allocate,
    current_work_stream,
    dltensor_from_py_object,
    from_py_object,
    release,
    table_of,
    to_py_object,
    watch_deleter,
)


def main() -> None:
    e = normalize.normalize(np.arange(4, dtype=np.float32))
    table = table_of(type(e))
    assert table.version == (1, 3) and table.prev_api is None
    base = np.from_dlpack(e)
    managed = from_py_object(table, e)
    d = decode_managed(ctypes.cast(managed, ctypes.c_void_p).value or 0)
    assert d.version == (1, 3) and d.data == base.ctypes.data and d.shape == (2,) and d.dtype == (2, 64, 1)
    watch = watch_deleter(managed)
    # to_py_object of this kind of table gives a normalize.Tensor that owns the tensor.
    again = to_py_object(table, managed)
    assert type(again) is type(e) and np.from_dlpack(again).ctypes.data == base.ctypes.data
    del again
    gc.collect()
    assert watch.calls == 1
    borrowed = dltensor_from_py_object(table, e)
    assert borrowed is not None and decode_dltensor(borrowed).data == base.ctypes.data
    fresh = allocate(table, (0, 8, 1), (5,), gil=False)
    assert decode_managed(ctypes.cast(fresh, ctypes.c_void_p).value or 0).shape == (5,)
    release(fresh)
    try:
        allocate(table, (2, 32, 1), (1,), device=(2, 0))
        raise AssertionError("a CUDA allocation succeeded")
    except AllocationError as err:
        assert err.kind == "BufferError"
    assert current_work_stream(table, 1, 0) is None
    print("ok")


if __name__ == "__main__":
    main()
