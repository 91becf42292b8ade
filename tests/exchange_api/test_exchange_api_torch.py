"""The exchange-API harness (tests/support/exchange_api.py) against PyTorch's own table.

Every function pointer of `torch.Tensor.__dlpack_c_exchange_api__` is called and what it returns is
checked against the tensor, and against PyTorch's `__dlpack__` read by the independent capsule decoder.
These prove the harness right, so that the same helpers can test any other producer's table.
"""

from __future__ import annotations

import ctypes
import gc
import sys
from typing import Any, Callable

import pytest

torch = pytest.importorskip("torch")
if not hasattr(torch.Tensor, "__dlpack_c_exchange_api__"):
    pytest.skip("this PyTorch has no __dlpack_c_exchange_api__", allow_module_level=True)

pytestmark = pytest.mark.filterwarnings("ignore:ComplexHalf support is experimental")

from dlpack_ctypes import (  # noqa: E402
    DLManagedTensorVersioned,
    HandMade,
    contiguous_strides,
    decode,
    decode_dltensor,
    decode_managed,
    read_bytes,
)
from exchange_api import (  # noqa: E402
    FUNCTIONS,
    KDL_CPU,
    AllocationError,
    Table,
    allocate,
    current_work_stream,
    dltensor_from_py_object,
    from_py_object,
    release,
    table_of,
    to_py_object,
    watch_deleter,
)

# DLPack's (code, bits, lanes) for each torch dtype, from the DLDataTypeCode enum of the DLPack header.
DLPACK_DTYPE = {
    "bool": (6, 8, 1),
    "uint8": (1, 8, 1),
    "int8": (0, 8, 1),
    "int16": (0, 16, 1),
    "int32": (0, 32, 1),
    "int64": (0, 64, 1),
    "uint16": (1, 16, 1),
    "uint32": (1, 32, 1),
    "uint64": (1, 64, 1),
    "float16": (2, 16, 1),
    "bfloat16": (4, 16, 1),
    "float32": (2, 32, 1),
    "float64": (2, 64, 1),
    "complex32": (5, 32, 1),
    "complex64": (5, 64, 1),
    "complex128": (5, 128, 1),
    "float8_e4m3fn": (10, 8, 1),
    "float8_e4m3fnuz": (11, 8, 1),
    "float8_e5m2": (12, 8, 1),
    "float8_e5m2fnuz": (13, 8, 1),
    "float8_e8m0fnu": (14, 8, 1),
    "float4_e2m1fn_x2": (17, 4, 2),
}


@pytest.fixture(scope="module")
def table() -> Table:
    return table_of(torch.Tensor)


def base() -> Any:
    return torch.arange(24, dtype=torch.float32).reshape(4, 6)


def zeros(dtype: str) -> Callable[[], Any]:
    return lambda: torch.zeros(3, dtype=getattr(torch, dtype))


# Tensors whose description both export paths agree on (PyTorch's __dlpack__ refuses none of them).
TENSORS: dict[str, Callable[[], Any]] = {
    "contiguous": lambda: base(),
    "every other column": lambda: base()[:, ::2],
    "transposed": lambda: base().T,
    "storage offset": lambda: base()[1:, 2:],
    "0-d": lambda: torch.tensor(2.5),
    "empty": lambda: torch.empty(0, 3),
    "broadcast stride 0": lambda: torch.ones(1).expand(5),
    **{f"dtype {name}": zeros(name) for name in DLPACK_DTYPE},
}


def managed_address(managed: Any) -> int:
    return ctypes.addressof(managed.contents)


def test_header_and_pointers(table: Table) -> None:
    assert table.owner is torch.Tensor
    assert table.version[0] == 1 and table.version >= (1, 2)
    assert table.prev_api is None
    assert table.version_chain() == [table.version]
    assert table.prev() is None
    pointers = [table.pointer(name) for name in FUNCTIONS]
    assert all(pointers), dict(zip(FUNCTIONS, pointers))
    assert len(set(pointers)) == len(FUNCTIONS)


def test_subclasses_inherit_the_same_table(table: Table) -> None:
    assert table_of(torch.nn.Parameter).address == table.address


@pytest.mark.parametrize("make", TENSORS.values(), ids=TENSORS.keys())
def test_from_py_object_describes_the_tensor(table: Table, make: Callable[[], Any]) -> None:
    t = make()
    managed = from_py_object(table, t)
    d = decode_managed(managed_address(managed))
    watch = watch_deleter(managed)
    try:
        assert d.versioned and d.version == table.version
        assert d.data == t.data_ptr()
        assert d.byte_offset == 0
        assert d.shape == tuple(t.shape)
        assert d.strides == t.stride()
        assert d.device == (KDL_CPU, 0)
        assert d.dtype == DLPACK_DTYPE[str(t.dtype).removeprefix("torch.")]
        assert d.flags == 0
        assert d.has_deleter
        # The same description as PyTorch's __dlpack__, read by the capsule decoder.
        via_capsule = decode(t.__dlpack__(max_version=(1, 3)))
        assert (via_capsule.data, via_capsule.shape, via_capsule.strides, via_capsule.dtype, via_capsule.flags) == (
            d.data,
            d.shape,
            d.strides,
            d.dtype,
            d.flags,
        )
    finally:
        release(managed)
    assert watch.calls == 1


@pytest.mark.parametrize("gil", [False, True])
def test_deleter_runs_once_and_drops_the_reference(table: Table, gil: bool) -> None:
    t = base()
    before = t._use_count()
    managed = from_py_object(table, t)
    assert t._use_count() == before + 1
    watch = watch_deleter(managed)
    release(managed, gil=gil)
    assert watch.calls == 1
    assert t._use_count() == before


def test_managed_tensor_outlives_the_python_object(table: Table) -> None:
    t = torch.arange(4, dtype=torch.int64)
    managed = from_py_object(table, t)
    address = t.data_ptr()
    del t
    gc.collect()
    try:
        assert read_bytes(address, 32) == b"".join(i.to_bytes(8, sys.byteorder) for i in range(4))
    finally:
        release(managed)


@pytest.mark.parametrize("make", TENSORS.values(), ids=TENSORS.keys())
def test_dltensor_from_py_object_borrows(table: Table, make: Callable[[], Any]) -> None:
    t = make()
    before = t._use_count()
    dl = dltensor_from_py_object(table, t)
    assert dl is not None
    d = decode_dltensor(dl)
    assert t._use_count() == before
    managed = from_py_object(table, t)
    try:
        owned = decode_managed(managed_address(managed))
    finally:
        release(managed)
    assert (d.data, d.device, d.ndim, d.dtype, d.shape, d.strides, d.byte_offset) == (
        owned.data,
        owned.device,
        owned.ndim,
        owned.dtype,
        owned.shape,
        owned.strides,
        owned.byte_offset,
    )


def test_to_py_object_round_trip_shares_memory(table: Table) -> None:
    t = base()[1:, ::2]
    before = t._use_count()
    obj = to_py_object(table, from_py_object(table, t))
    assert type(obj) is torch.Tensor
    # The harness hands over exactly one reference: the variable's. Counted against an object that only a
    # variable holds, since what getrefcount adds for its argument changed (2 on 3.11, 1 from 3.14 on, which
    # passes a local variable as a borrowed reference).
    alone = object()
    assert sys.getrefcount(obj) == sys.getrefcount(alone)
    assert obj.data_ptr() == t.data_ptr()
    assert obj.shape == t.shape and obj.stride() == t.stride() and obj.dtype == t.dtype
    obj[0, 0] = -7
    assert t[0, 0] == -7
    assert t._use_count() == before + 1
    del obj
    gc.collect()
    assert t._use_count() == before


def test_to_py_object_adopts_a_hand_made_tensor(table: Table) -> None:
    made = HandMade(shape=(2, 3), dtype=(2, 32, 1), nbytes=24)
    ctypes.memmove(made.data_address, (ctypes.c_float * 6)(*range(6)), 24)
    obj = to_py_object(table, ctypes.pointer(made.struct))
    assert obj.data_ptr() == made.data_address
    assert obj.tolist() == [[0, 1, 2], [3, 4, 5]]
    assert made.deleted == 0
    del obj
    gc.collect()
    assert made.deleted == 1


ALLOCATIONS = [
    ((2, 32, 1), (2, 3)),
    ((0, 64, 1), (5,)),
    ((6, 8, 1), (1, 1, 4)),
    ((4, 16, 1), (3, 2)),
    ((5, 64, 1), ()),
    ((2, 64, 1), (0, 4)),
]


@pytest.mark.parametrize("gil", [True, False])
@pytest.mark.parametrize(("dtype", "shape"), ALLOCATIONS)
def test_allocator_makes_a_tensor_like_the_prototype(
    table: Table, dtype: tuple[int, int, int], shape: tuple[int, ...], gil: bool
) -> None:
    managed = allocate(table, dtype, shape, gil=gil)
    d = decode_managed(managed_address(managed))
    assert d.dtype == dtype and d.shape == shape and d.device == (KDL_CPU, 0)
    assert d.strides in (None, contiguous_strides(shape))
    assert d.byte_offset == 0 and d.flags == 0 and d.has_deleter
    obj = to_py_object(table, managed)
    assert tuple(obj.shape) == shape
    assert DLPACK_DTYPE[str(obj.dtype).removeprefix("torch.")] == dtype
    assert obj.data_ptr() == d.data
    obj.fill_(1)


@pytest.mark.parametrize("gil", [True, False])
def test_allocator_reports_errors_through_set_error(table: Table, gil: bool) -> None:
    with pytest.raises(AllocationError) as info:
        allocate(table, (2, 7, 1), (2,), gil=gil)
    assert isinstance(info.value.kind, str) and info.value.kind
    assert isinstance(info.value.message, str) and "7" in info.value.message


def test_allocated_tensor_released_without_python(table: Table) -> None:
    managed = allocate(table, (2, 32, 1), (4,))
    watch = watch_deleter(managed)
    release(managed)
    assert watch.calls == 1


def test_current_work_stream(table: Table) -> None:
    assert current_work_stream(table, KDL_CPU, 0) is None
    if torch.cuda.is_available():
        assert current_work_stream(table, 2, 0) == torch.cuda.current_stream(0).cuda_stream


@pytest.mark.parametrize(
    "make",
    [object, lambda: 1.5, lambda: torch.eye(2).to_sparse()],
    ids=["object", "float", "sparse"],
)
def test_the_producers_error_is_raised(table: Table, make: Callable[[], Any]) -> None:
    obj = make()
    with pytest.raises(RuntimeError):
        from_py_object(table, obj)
    with pytest.raises(RuntimeError):
        dltensor_from_py_object(table, obj)


def test_managed_pointer_type(table: Table) -> None:
    managed = from_py_object(table, base())
    try:
        assert isinstance(managed, ctypes.POINTER(DLManagedTensorVersioned))
    finally:
        release(managed)
