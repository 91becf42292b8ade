"""A ctypes model of the DLPack 1.3 C exchange API (`type(x).__dlpack_c_exchange_api__`).

A producer type carries a PyCapsule named "dlpack_exchange_api" whose pointer is a process-lifetime table:
a stable header (the DLPack version it speaks and a link to an older table) followed by five C function
pointers. This module reads that table and calls every function through ctypes, without going through
godlpack's code, and checks each call against the contract the DLPack header states (an error set exactly
when the call fails, out parameters written on success), so that one set of helpers tests any producer:
PyTorch's table proves the helpers right, and the same helpers then test godlpack's own.

The functions that report failure through a Python exception (from/to py object, dltensor, work stream) are
called with the GIL held, as a consumer in a C extension calls them. Deleters are called with the GIL
released by default: the managed tensor may be let go from any thread.
"""

from __future__ import annotations

import ctypes
from dataclasses import dataclass, field
from typing import Any, Optional, Sequence

from ._dlpack import (
    DLDataType,
    DLDevice,
    DLManagedTensorVersioned,
    DLPackVersion,
    DLTensor,
    VersionedDeleter,
    _api,
    capsule_name,
)

CAPSULE_NAME = "dlpack_exchange_api"
ATTRIBUTE = "__dlpack_c_exchange_api__"

KDL_CPU = 1


class DLPackExchangeAPIHeader(ctypes.Structure):
    """The part of the table that stays the same across DLPack versions."""

    # The fields' types as ctypes reads and writes them (the annotations are for type checkers only).
    version: DLPackVersion
    prev_api: ctypes._Pointer[DLPackExchangeAPIHeader]


DLPackExchangeAPIHeader._fields_ = [
    ("version", DLPackVersion),
    ("prev_api", ctypes.POINTER(DLPackExchangeAPIHeader)),
]

_ManagedOut = ctypes.POINTER(ctypes.POINTER(DLManagedTensorVersioned))

# void (*SetError)(void *error_ctx, const char *kind, const char *message)
SetError = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_char_p, ctypes.c_char_p)

# The prototypes, in the two calling modes: PYFUNCTYPE keeps the GIL across the call and turns a Python
# error left set by the callee into a raised exception; CFUNCTYPE releases the GIL for the call.

# int (*)(DLTensor *prototype, DLManagedTensorVersioned **out, void *error_ctx, SetError)
ManagedTensorAllocator = ctypes.PYFUNCTYPE(
    ctypes.c_int, ctypes.POINTER(DLTensor), _ManagedOut, ctypes.c_void_p, SetError
)
ManagedTensorAllocatorNoGIL = ctypes.CFUNCTYPE(
    ctypes.c_int, ctypes.POINTER(DLTensor), _ManagedOut, ctypes.c_void_p, SetError
)
# int (*)(void *py_object, DLManagedTensorVersioned **out)
ManagedTensorFromPyObjectNoSync = ctypes.PYFUNCTYPE(ctypes.c_int, ctypes.c_void_p, _ManagedOut)
# int (*)(DLManagedTensorVersioned *tensor, void **out_py_object)
ManagedTensorToPyObjectNoSync = ctypes.PYFUNCTYPE(
    ctypes.c_int, ctypes.POINTER(DLManagedTensorVersioned), ctypes.POINTER(ctypes.c_void_p)
)
# int (*)(void *py_object, DLTensor *out)
DLTensorFromPyObjectNoSync = ctypes.PYFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.POINTER(DLTensor))
# int (*)(DLDeviceType device_type, int32_t device_id, void **out_current_stream); DLDeviceType is a C enum.
CurrentWorkStream = ctypes.PYFUNCTYPE(ctypes.c_int, ctypes.c_int, ctypes.c_int32, ctypes.POINTER(ctypes.c_void_p))


class DLPackExchangeAPI(ctypes.Structure):
    header: DLPackExchangeAPIHeader
    managed_tensor_allocator: ctypes._CFunctionType
    managed_tensor_from_py_object_no_sync: ctypes._CFunctionType
    managed_tensor_to_py_object_no_sync: ctypes._CFunctionType
    dltensor_from_py_object_no_sync: ctypes._CFunctionType
    current_work_stream: ctypes._CFunctionType
    _fields_ = [
        ("header", DLPackExchangeAPIHeader),
        ("managed_tensor_allocator", ManagedTensorAllocator),
        ("managed_tensor_from_py_object_no_sync", ManagedTensorFromPyObjectNoSync),
        ("managed_tensor_to_py_object_no_sync", ManagedTensorToPyObjectNoSync),
        ("dltensor_from_py_object_no_sync", DLTensorFromPyObjectNoSync),
        ("current_work_stream", CurrentWorkStream),
    ]


FUNCTIONS = (
    "managed_tensor_allocator",
    "managed_tensor_from_py_object_no_sync",
    "managed_tensor_to_py_object_no_sync",
    "dltensor_from_py_object_no_sync",
    "current_work_stream",
)

assert ctypes.sizeof(DLPackExchangeAPIHeader) == 16
assert ctypes.sizeof(DLPackExchangeAPI) == 16 + 5 * ctypes.sizeof(ctypes.c_void_p)
assert [DLPackExchangeAPI.__dict__[name].offset for name in FUNCTIONS] == [16, 24, 32, 40, 48]

_api.Py_DecRef.restype = None
_api.Py_DecRef.argtypes = [ctypes.c_void_p]


class ContractError(AssertionError):
    """The producer broke the exchange API's contract (for example: failed without setting an error)."""


class AllocationError(Exception):
    """The allocator failed and reported kind and message through SetError."""

    def __init__(self, kind: Optional[str], message: Optional[str]) -> None:
        super().__init__(f"{kind}: {message}")
        self.kind = kind
        self.message = message


@dataclass(frozen=True)
class Table:
    """A producer type's exchange table, read through its capsule (which this object keeps alive).

    Only the header is stable across DLPack major versions: api's function fields mean something only
    where version[0] == 1.
    """

    owner: type
    capsule: Any
    address: int
    api: DLPackExchangeAPI

    @property
    def version(self) -> tuple[int, int]:
        v = self.api.header.version
        return (v.major, v.minor)

    @property
    def prev_api(self) -> Optional[int]:
        """The address of the next older table in the chain, or None."""
        return ctypes.cast(self.api.header.prev_api, ctypes.c_void_p).value

    def pointer(self, name: str) -> Optional[int]:
        """The address of function `name` (one of FUNCTIONS), or None where the table has NULL."""
        if name not in FUNCTIONS:
            raise KeyError(f"no function {name!r} in the exchange table; have {FUNCTIONS}")
        return ctypes.cast(getattr(self.api, name), ctypes.c_void_p).value

    def prev(self) -> Optional["Table"]:
        """The next older table along prev_api, or None: a consumer walks there when it cannot read this one."""
        address = self.prev_api
        if address is None:
            return None
        return Table(owner=self.owner, capsule=self.capsule, address=address, api=DLPackExchangeAPI.from_address(address))

    def version_chain(self) -> list[tuple[int, int]]:
        """The versions along prev_api, this table's first."""
        versions: list[tuple[int, int]] = []
        header: Optional[DLPackExchangeAPIHeader] = self.api.header
        while header is not None:
            versions.append((header.version.major, header.version.minor))
            if len(versions) > 64:
                raise ContractError(f"prev_api chain of {type_name(self.owner)} longer than 64: a cycle?")
            header = header.prev_api.contents if header.prev_api else None
        return versions


def type_name(type_: type) -> str:
    return f"{type_.__module__}.{type_.__qualname__}"


def table_of(type_: type) -> Table:
    """The exchange table of type_, read from its `__dlpack_c_exchange_api__` capsule.

    Raises AttributeError when the type has none, TypeError when the attribute is not a capsule or
    type_ is not a type (the protocol puts the table on the type, never on an instance), and ValueError
    when the capsule has another name or a NULL pointer.
    """
    if not isinstance(type_, type):
        raise TypeError(f"the exchange table is looked up on a type, not on a {type(type_).__name__}")
    capsule = getattr(type_, ATTRIBUTE)
    if type(capsule).__name__ != "PyCapsule":
        raise TypeError(f"{type_name(type_)}.{ATTRIBUTE} is a {type(capsule).__name__}, not a PyCapsule")
    name = capsule_name(capsule)
    if name != CAPSULE_NAME:
        raise ValueError(f"{type_name(type_)}.{ATTRIBUTE} is a capsule named {name!r}, not {CAPSULE_NAME!r}")
    address = _api.PyCapsule_GetPointer(capsule, CAPSULE_NAME.encode())
    if not address:
        raise ValueError(f"{type_name(type_)}.{ATTRIBUTE} holds a NULL pointer")
    return Table(owner=type_, capsule=capsule, address=address, api=DLPackExchangeAPI.from_address(address))


def _required(table: Table, name: str) -> Any:
    """Function `name` of the table; the header allows NULL only for dltensor_from_py_object_no_sync."""
    fn = getattr(table.api, name)
    if not fn:
        raise ContractError(f"{name} is NULL in the exchange table of {type_name(table.owner)}")
    return fn


def _address_of(fn: Any) -> int:
    address = ctypes.cast(fn, ctypes.c_void_p).value
    assert address is not None, "a NULL function pointer got past _required"
    return address


def from_py_object(table: Table, obj: Any) -> ctypes._Pointer[DLManagedTensorVersioned]:
    """Call managed_tensor_from_py_object_no_sync on obj: an owned managed tensor, to release() once.

    The producer's exception is raised as it set it. The object's type is not checked against the
    table's owner, so that a test can see what a producer does with a subclass or a stranger.
    """
    out = ctypes.POINTER(DLManagedTensorVersioned)()
    try:
        rc = _required(table, "managed_tensor_from_py_object_no_sync")(id(obj), ctypes.byref(out))
    except BaseException as exc:
        if out:
            release(out)
            raise ContractError("managed_tensor_from_py_object_no_sync set an error and handed out a tensor") from exc
        raise
    if rc != 0:
        raise ContractError(f"managed_tensor_from_py_object_no_sync returned {rc} without setting a Python error")
    if not out:
        raise ContractError("managed_tensor_from_py_object_no_sync returned 0 and a NULL tensor")
    return out


def to_py_object(table: Table, managed: ctypes._Pointer[DLManagedTensorVersioned]) -> Any:
    """Call managed_tensor_to_py_object_no_sync: the producer's object, which now owns managed.

    The producer takes ownership of managed even when it fails (the header says the tensor is stolen).
    """
    out = ctypes.c_void_p()
    rc = _required(table, "managed_tensor_to_py_object_no_sync")(managed, ctypes.byref(out))
    if rc != 0:
        raise ContractError(f"managed_tensor_to_py_object_no_sync returned {rc} without setting a Python error")
    if not out.value:
        raise ContractError("managed_tensor_to_py_object_no_sync returned 0 and a NULL object")
    obj = ctypes.cast(out, ctypes.py_object).value
    # The call handed us a new reference; `value` made one more, which obj now holds.
    _api.Py_DecRef(out.value)
    return obj


def dltensor_from_py_object(table: Table, obj: Any) -> Optional[DLTensor]:
    """Call dltensor_from_py_object_no_sync on obj, or None where the table has no such function.

    The DLTensor borrows the producer's shape and strides: read it while obj is alive and unchanged.
    """
    fn = table.api.dltensor_from_py_object_no_sync
    if not fn:
        return None
    out = DLTensor()
    rc = fn(id(obj), ctypes.byref(out))
    if rc != 0:
        raise ContractError(f"dltensor_from_py_object_no_sync returned {rc} without setting a Python error")
    return out


# Written into the out parameter before the call, to catch a producer that reports success without writing.
_UNWRITTEN = 0x5EED_0000_0000_5EED


def current_work_stream(table: Table, device_type: int, device_id: int) -> Optional[int]:
    """Call current_work_stream: the stream as an integer, or None for NULL (what CPU gives)."""
    out = ctypes.c_void_p(_UNWRITTEN)
    rc = _required(table, "current_work_stream")(device_type, device_id, ctypes.byref(out))
    if rc != 0:
        raise ContractError(f"current_work_stream returned {rc} without setting a Python error")
    if out.value == _UNWRITTEN:
        raise ContractError("current_work_stream returned 0 without writing its out parameter")
    return out.value


@dataclass
class _ErrorRecord:
    ctx: ctypes.c_int64 = field(default_factory=lambda: ctypes.c_int64(0x0E44_0C7C))
    calls: list[tuple[Optional[int], Optional[str], Optional[str]]] = field(default_factory=list)


def allocate(
    table: Table,
    dtype: tuple[int, int, int],
    shape: Sequence[int],
    device: tuple[int, int] = (KDL_CPU, 0),
    gil: bool = True,
) -> ctypes._Pointer[DLManagedTensorVersioned]:
    """Call managed_tensor_allocator with a prototype of dtype (code, bits, lanes), shape and device.

    Returns the owned managed tensor, or raises AllocationError with the kind and message the producer
    passed to SetError. With gil=False the allocator runs with the GIL released, as a consumer outside
    Python may call it.
    """
    dims = (ctypes.c_int64 * max(len(shape), 1))(*shape)
    prototype = DLTensor()
    prototype.data = None
    prototype.device = DLDevice(*device)
    prototype.ndim = len(shape)
    prototype.dtype = DLDataType(*dtype)
    prototype.shape = ctypes.cast(dims, ctypes.POINTER(ctypes.c_int64))
    prototype.strides = ctypes.POINTER(ctypes.c_int64)()
    prototype.byte_offset = 0

    record = _ErrorRecord()

    def set_error(ctx: Optional[int], kind: Optional[bytes], message: Optional[bytes]) -> None:
        record.calls.append(
            (ctx, kind.decode("utf-8", "replace") if kind is not None else None,
             message.decode("utf-8", "replace") if message is not None else None)
        )

    callback = SetError(set_error)
    fn = _required(table, "managed_tensor_allocator")
    if not gil:
        fn = ManagedTensorAllocatorNoGIL(_address_of(fn))
    out = ctypes.POINTER(DLManagedTensorVersioned)()
    ctx = ctypes.addressof(record.ctx)
    rc = fn(ctypes.byref(prototype), ctypes.byref(out), ctx, callback)
    if rc == 0:
        if record.calls:
            if out:
                release(out)
            raise ContractError(f"managed_tensor_allocator returned 0 but called SetError: {record.calls}")
        if not out:
            raise ContractError("managed_tensor_allocator returned 0 and a NULL tensor")
        return out
    if out:
        raise ContractError(f"managed_tensor_allocator returned {rc} yet wrote a tensor")
    if len(record.calls) != 1:
        raise ContractError(f"managed_tensor_allocator returned {rc} and called SetError {len(record.calls)} times")
    got_ctx, kind, message = record.calls[0]
    if got_ctx != ctx:
        raise ContractError(f"SetError got error_ctx {got_ctx!r}, not the {ctx:#x} passed to the allocator")
    raise AllocationError(kind, message)


def release(managed: ctypes._Pointer[DLManagedTensorVersioned], gil: bool = False) -> None:
    """Call managed's deleter (if it has one), by default with the GIL released."""
    deleter = managed.contents.deleter
    if not deleter:
        return
    if gil:
        ctypes.PYFUNCTYPE(None, ctypes.POINTER(DLManagedTensorVersioned))(_address_of(deleter))(managed)
    else:
        deleter(managed)


@dataclass
class DeleterWatch:
    """Counts the calls of a managed tensor's deleter, forwarding each to the producer's own."""

    calls: int = 0
    _keep: list[Any] = field(default_factory=list)


def watch_deleter(managed: ctypes._Pointer[DLManagedTensorVersioned]) -> DeleterWatch:
    """Put a counting trampoline in front of managed's deleter (which must not be NULL)."""
    address = ctypes.cast(managed.contents.deleter, ctypes.c_void_p).value
    if not address:
        raise ContractError("the managed tensor has a NULL deleter")
    # A new function object over the address: the struct's field is a view that the trampoline overwrites.
    original = VersionedDeleter(address)
    watch = DeleterWatch()

    def trampoline(self: ctypes._Pointer[DLManagedTensorVersioned]) -> None:
        watch.calls += 1
        original(self)

    callback = VersionedDeleter(trampoline)
    watch._keep += [original, callback]
    managed.contents.deleter = callback
    return watch


_PROTOTYPES = {
    "managed_tensor_allocator": ManagedTensorAllocator,
    "managed_tensor_from_py_object_no_sync": ManagedTensorFromPyObjectNoSync,
    "managed_tensor_to_py_object_no_sync": ManagedTensorToPyObjectNoSync,
    "dltensor_from_py_object_no_sync": DLTensorFromPyObjectNoSync,
    "current_work_stream": CurrentWorkStream,
}


@dataclass
class HandMadeTable:
    """An exchange table built in Python, for the cases no real producer hands out.

    functions maps names of FUNCTIONS to Python callables taking the C arguments as ctypes gives them
    (pointers as ints or ctypes pointers) and returning the C int; a name left out is NULL. prev links
    an older table, as a producer that speaks two versions would. A Python callback cannot leave a
    Python error set on return, so a failing hand-made function is one that breaks the contract.
    """

    version: tuple[int, int] = (1, 3)
    functions: dict[str, Any] = field(default_factory=dict)
    prev: Optional["HandMadeTable"] = None
    struct: DLPackExchangeAPI = field(init=False)
    _keep: list[Any] = field(init=False, default_factory=list)

    def __post_init__(self) -> None:
        unknown = set(self.functions) - set(FUNCTIONS)
        if unknown:
            raise KeyError(f"no such exchange functions: {sorted(unknown)}")
        self.struct = DLPackExchangeAPI()
        self.struct.header.version = DLPackVersion(*self.version)
        if self.prev is not None:
            self.struct.header.prev_api = ctypes.cast(
                ctypes.addressof(self.prev.struct), ctypes.POINTER(DLPackExchangeAPIHeader)
            )
        for name, fn in self.functions.items():
            callback = _PROTOTYPES[name](fn)
            self._keep.append(callback)
            setattr(self.struct, name, callback)

    def capsule(self, name: str = CAPSULE_NAME) -> Any:
        """A capsule over this table (no destructor: this object owns the memory)."""
        encoded = name.encode()
        self._keep.append(encoded)
        return _api.PyCapsule_New(ctypes.addressof(self.struct), encoded, None)

    def owner(self, base: type = object, name: str = "HandMadeProducer") -> type:
        """A new subclass of base whose type carries this table."""
        return type(name, (base,), {ATTRIBUTE: self.capsule(), "_table": self})
