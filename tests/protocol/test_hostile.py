"""Hostile and broken producers: hand-made capsules and lying __dlpack__ objects.

Every case ends in a Tensor or in the exception that docs/protocol.md#consumer-what-the-producer-hands-over names
(docs/protocol.md#consumer-x and docs/protocol.md#consumer-what-godlpack-asks-for for capsules and producers),
and every deleter of a tensor we took runs exactly once: on the error path as soon as from_dlpack raises,
otherwise when the last holder is gone. The cases that are a row of docs/protocol.md's consumer sections (a wrong
capsule name, the broken tensors, a producer lying about IS_COPIED or about its device) are tested in
test_protocol_consumer.py, under their sections; this file holds the other ways a capsule or a producer breaks.
"""

from __future__ import annotations

import ctypes
import gc
import subprocess
import sys
from typing import Any, Iterator, Optional

import numpy as np
import pytest

import godlpack
import godlpack.ops
from broken_tensors import broken
from child_env import child_env
from dlpack_ctypes import HandMade, Producer, _api, capsule_name, decode, made

CPU = (1, 0)
CUDA = (2, 0)


# ---- capsule names ----


def test_capsule_without_a_name_is_type_error() -> None:
    h = made()
    capsule = _api.PyCapsule_New(h.address, None, None)
    with pytest.raises(TypeError, match="capsule named NULL is not a DLPack capsule"):
        godlpack.from_dlpack(capsule)
    assert h.deleted == 0


@pytest.mark.parametrize("name", ["used_dltensor", "used_dltensor_versioned"])
def test_used_capsule_is_value_error(name: str) -> None:
    h = made(versioned=name.endswith("versioned"))
    with pytest.raises(ValueError, match="already consumed"):
        godlpack.from_dlpack(h.capsule(name))
    assert h.deleted == 0


def test_wrong_name_from_a_producer_is_type_error() -> None:
    h = made()
    with pytest.raises(TypeError, match="not a DLPack capsule"):
        godlpack.from_dlpack(Producer(h.capsule("my_tensor")))
    assert h.deleted == 0


# ---- consumed twice ----


def test_producer_handing_out_one_capsule_twice() -> None:
    h = made()
    p = Producer(h.capsule())
    t = godlpack.from_dlpack(p)
    with pytest.raises(ValueError, match="already consumed"):
        godlpack.from_dlpack(p)
    del t
    gc.collect()
    assert h.deleted == 1


def test_capsule_consumed_by_a_failed_import_stays_consumed() -> None:
    h = made(version=(2, 0))
    capsule = h.capsule()
    with pytest.raises(BufferError):
        godlpack.from_dlpack(capsule)
    assert h.deleted == 1
    with pytest.raises(ValueError, match="already consumed"):
        godlpack.from_dlpack(capsule)
    assert h.deleted == 1, "a second attempt must not delete again"


# ---- NULL pointers ----


def null_pointer_capsule(h: HandMade) -> Iterator[Any]:
    """Yields a DLPack capsule whose pointer field is NULL: the C API refuses to make one, so it is patched."""
    capsule = h.capsule()
    field = ctypes.c_void_p.from_address(id(capsule) + 2 * ctypes.sizeof(ctypes.c_void_p))
    assert field.value == h.address, "PyCapsule layout: the pointer follows the object header"
    field.value = None
    try:
        yield capsule
    finally:
        field.value = h.address


@pytest.mark.parametrize("via_producer", [False, True])
def test_capsule_whose_pointer_is_null(via_producer: bool) -> None:
    h = made()
    for capsule in null_pointer_capsule(h):
        with pytest.raises(ValueError, match="pointer is NULL"):
            godlpack.from_dlpack(Producer(capsule) if via_producer else capsule)
    assert h.deleted == 0


@pytest.mark.parametrize("versioned", [True, False])
def test_null_deleter_is_allowed(versioned: bool) -> None:
    h = made(versioned=versioned, null_deleter=True)
    t = godlpack.from_dlpack(h.capsule())
    assert t.tolist() == [1.0, 2.0, 3.0, 4.0]
    assert t.data_ptr() == h.data_address
    del t
    gc.collect()
    assert h.deleted == 0


@pytest.mark.parametrize("copy", [None, True])
def test_null_deleter_on_the_error_and_copy_paths(copy: Optional[bool]) -> None:
    bad = HandMade(ndim=65, shape=(4,), strides=(1,), null_deleter=True)
    with pytest.raises(BufferError):
        godlpack.from_dlpack(bad.capsule(), copy=copy)
    good = made(null_deleter=True)
    t = godlpack.from_dlpack(good.capsule(), copy=copy)
    assert t.tolist() == [1.0, 2.0, 3.0, 4.0]
    del t  # before good: a zero-copy import reads the struct when it lets go


# ---- broken tensors (broken_tensors.BROKEN) in a legacy capsule: BufferError, and the deleter runs once ----

@pytest.mark.parametrize("case", ["ndim 65", "negative dimension", "NULL data", "unknown dtype code"])
@pytest.mark.parametrize("copy", [True, False])
def test_broken_legacy_tensor_is_deleted_once(case: str, copy: bool) -> None:
    h = broken(case, versioned=False)
    with pytest.raises(BufferError):
        godlpack.from_dlpack(Producer(h.capsule(), legacy=True), copy=copy)
    assert h.deleted == 1


# ---- producers that misbehave ----


def test_dlpack_raising_type_error_twice_propagates() -> None:
    """TypeError makes us retry without keywords; a second TypeError is the producer's answer."""
    p = Producer(TypeError("not today"))
    with pytest.raises(TypeError, match="not today"):
        godlpack.from_dlpack(p)


class AttributeErrorInside:
    """A producer whose attribute lookups run Python code, and whose __dlpack__ fails inside."""

    error = AttributeError("a bug inside the producer")

    def __getattribute__(self, name: str) -> Any:
        return object.__getattribute__(self, name)

    def __dlpack__(self, **kwargs: Any) -> Any:
        raise AttributeErrorInside.error


@pytest.mark.parametrize("consume", [godlpack.from_dlpack, godlpack.ops.sum], ids=["from_dlpack", "ops.sum"])
def test_attribute_error_inside_dlpack_propagates(consume: Any) -> None:
    """An AttributeError raised inside __dlpack__ is the producer's, not a sign that __dlpack__ is missing."""
    with pytest.raises(AttributeError) as info:
        consume(AttributeErrorInside())
    assert info.value is AttributeErrorInside.error


def test_missing_dlpack_with_getattribute_is_type_error() -> None:
    class NoDLPack:
        def __getattribute__(self, name: str) -> Any:
            return object.__getattribute__(self, name)

    with pytest.raises(TypeError, match="needs an object with __dlpack__ or a DLPack capsule, got NoDLPack"):
        godlpack.from_dlpack(NoDLPack())


def test_dlpack_not_callable_is_type_error() -> None:
    class NotCallable:
        __dlpack__ = 5

    with pytest.raises(TypeError, match="'int' object is not callable"):
        godlpack.from_dlpack(NotCallable())


@pytest.mark.parametrize("device", ["cpu", (1,), (1, 0, 0), ("1", 0), None, [1, 0], (1.0, 0)])
def test_malformed_dlpack_device_is_type_error(device: Any) -> None:
    h = made()
    with pytest.raises(TypeError, match="__dlpack_device__"):
        godlpack.from_dlpack(Producer(h.capsule(), device=device))
    assert h.deleted == 0, "__dlpack__ must not be called when __dlpack_device__ is broken"


@pytest.mark.parametrize("device", [(2**40, 0), (1, -(2**40))])
def test_out_of_range_dlpack_device_is_value_error(device: tuple[int, int]) -> None:
    with pytest.raises(ValueError, match="out-of-range device"):
        godlpack.from_dlpack(Producer(made().capsule(), device=device))


def test_dlpack_device_raising_propagates() -> None:
    class Broken(Producer):
        def __dlpack_device__(self) -> tuple[int, int]:
            raise RuntimeError("no device")

    h = made()
    with pytest.raises(RuntimeError, match="no device"):
        godlpack.from_dlpack(Broken(h.capsule()))
    assert h.deleted == 0


# ---- a capsule for another device than __dlpack_device__ said: the capsule is the truth ----


def test_device_says_cpu_but_capsule_holds_cuda() -> None:
    h = made(device=CUDA)
    p = Producer(h.capsule(), device=CPU)
    t = godlpack.from_dlpack(p)
    assert "stream" not in p.calls[0], "CPU was announced, so no stream is passed"
    assert t.device == CUDA
    with pytest.raises(BufferError, match="cannot be read on the CPU"):
        t.tolist()
    with pytest.raises(BufferError):
        memoryview(t)
    del t
    gc.collect()
    assert h.deleted == 1


def test_device_says_cuda_but_capsule_holds_cpu() -> None:
    h = made(device=CPU)
    p = Producer(h.capsule(), device=CUDA)
    t = godlpack.from_dlpack(p)
    assert p.calls[0]["stream"] == -1, "CUDA was announced, so stream=-1 is passed"
    assert t.device == CPU
    assert t.tolist() == [1.0, 2.0, 3.0, 4.0]
    del t
    gc.collect()
    assert h.deleted == 1


def test_device_object_asked_but_capsule_holds_another_device_is_buffer_error() -> None:
    class OnCUDA:
        def __dlpack_device__(self) -> tuple[int, int]:
            return CUDA

    h = made(device=(2, 1))
    p = Producer(h.capsule(), device=CUDA)
    with pytest.raises(BufferError, match="was asked for"):
        godlpack.from_dlpack(p, device=OnCUDA())
    assert p.calls[0]["dl_device"] == CUDA
    assert h.deleted == 1


# ---- copies and exports ----


def test_copy_true_keeps_strided_views_and_byte_offset() -> None:
    h = made(shape=(2, 2), strides=(1, 4), byte_offset=4, nbytes=64)
    t = godlpack.from_dlpack(h.capsule(), copy=True)
    assert t.tolist() == [[2.0, 6.0], [3.0, 7.0]]
    assert t.strides == (2, 1)
    assert h.deleted == 1


def test_unconsumed_exports_are_deleted_by_their_capsule() -> None:
    """A capsule of ours that nobody consumes frees its tensor when it dies, once."""
    t = godlpack.arange(5)
    before = godlpack._core._live_storages()
    capsules = [t.__dlpack__(max_version=(1, 3)), t.__dlpack__()]
    assert [decode(c).has_deleter for c in capsules] == [True, True]
    del capsules
    gc.collect()
    assert godlpack._core._live_storages() == before


# ---- broadcast tensors: more elements than bytes ----


def test_broadcast_import_counts_every_element() -> None:
    """A stride of 0 repeats one element: its buffer and its copies have the size of every element."""
    h = made(shape=(3, 4), strides=(0, 1))
    t = godlpack.from_dlpack(h.capsule())
    assert (t.size, t.itemsize, t.nbytes) == (12, 4, 48)
    assert len(memoryview(t).tobytes()) == 48
    assert np.asarray(t).tolist() == [[1.0, 2.0, 3.0, 4.0]] * 3
    c = godlpack.from_dlpack(t.__dlpack__(max_version=(1, 3), copy=True))
    assert c.strides == (4, 1) and c.tolist() == [[1.0, 2.0, 3.0, 4.0]] * 3
    del t, c
    gc.collect()
    assert h.deleted == 1


def test_broadcast_copy_on_import() -> None:
    h = made(shape=(100_000,), strides=(0,))
    t = godlpack.from_dlpack(h.capsule(), copy=True)
    assert t.nbytes == 400_000 and t.strides == (1,)
    assert np.asarray(t).min() == np.asarray(t).max() == 1.0
    assert h.deleted == 1


def test_broadcast_too_large_for_memory_is_buffer_error() -> None:
    """2**62 float64 elements in 8 bytes: a valid layout, but no buffer or copy of it can exist."""
    h = made(shape=(2**62,), strides=(0,))
    with pytest.raises(BufferError, match="more than 2\\*\\*63 bytes"):
        godlpack.from_dlpack(h.capsule())
    assert h.deleted == 1


# ---- godlpack.ops on hostile producers: the same refusals, the same single deleter call ----


@pytest.mark.parametrize("case", ["major version 2", "ndim 65", "NULL data", "unknown dtype code",
                                  "negative dimension"])
def test_ops_on_broken_tensors(case: str) -> None:
    src, dst = broken(case), made()
    with pytest.raises(BufferError):
        godlpack.ops.sum(Producer(src.capsule()))
    assert src.deleted == 1
    src = broken(case)
    with pytest.raises(BufferError):
        godlpack.ops.copy_(dst.capsule(), src.capsule())
    assert (src.deleted, dst.deleted) == (1, 1)


def test_ops_on_cuda_capsule_and_consumed_capsule() -> None:
    h = made(device=CUDA)
    with pytest.raises(BufferError, match="CPU"):
        godlpack.ops.sum(h.capsule())
    assert h.deleted == 1
    h = made()
    capsule = h.capsule()
    assert godlpack.ops.sum(capsule) == 10.0
    with pytest.raises(ValueError, match="already consumed"):
        godlpack.ops.sum(capsule)
    assert h.deleted == 1
    for capsule in null_pointer_capsule(made()):
        with pytest.raises(ValueError, match="pointer is NULL"):
            godlpack.ops.sum(capsule)


def test_ops_on_broadcast_beyond_2_63_bytes() -> None:
    """2**62 + 1 float32 elements in 4 bytes, overlapping: copy_ once sized its temporary copy modulo 2**64."""
    dst = made(shape=(2**62 + 1,), strides=(0,))
    src = made(shape=(2**62 + 1,), strides=(0,))
    src.struct.dl_tensor.data = dst.data_address
    src_capsule = src.capsule()
    with pytest.raises(BufferError, match="more than 2\\*\\*63 bytes"):
        godlpack.ops.copy_(dst.capsule(), src_capsule)
    # The operands are imported in order: the source was never taken, and stays its capsule's to delete.
    assert (dst.deleted, src.deleted) == (1, 0) and capsule_name(src_capsule) == "dltensor_versioned"
    alone = made(shape=(2**62 + 1,), strides=(0,))
    with pytest.raises(BufferError, match="more than 2\\*\\*63 bytes"):
        godlpack.ops.sum(alone.capsule())
    assert alone.deleted == 1


# ---- recursion through bound functions ----

# Python code a bound call runs (a producer's __dlpack__, a factor's __float__) calls the same function again,
# without end. Each level used to keep 16 KiB of C stack and none took part in the recursion limit: the process
# died of SIGSEGV at a depth of about 470. Run in a child: before, the crash took the interpreter with it.
RECURSION = {
    "__dlpack__ calling ops.sum": """
class Again:
    def __dlpack__(self, **kwargs):
        return godlpack.ops.sum(self)
call = lambda: godlpack.ops.sum(Again())
""",
    "__float__ calling ops.scale_": """
a = np.ones(3)
class Again:
    def __float__(self):
        godlpack.ops.scale_(a, self)
        return 2.0
call = lambda: godlpack.ops.scale_(a, Again())
""",
    "__dlpack__ calling from_dlpack": """
class Again:
    def __dlpack__(self, **kwargs):
        return godlpack.from_dlpack(self).__dlpack__(**kwargs)
call = lambda: godlpack.ops.sum(Again())
""",
}


@pytest.mark.parametrize("where", ["main", "thread"])
@pytest.mark.parametrize("case", RECURSION)
def test_recursion_through_bound_functions_is_recursion_error(case: str, where: str) -> None:
    code = "import threading, numpy as np, godlpack, godlpack.ops\n" + RECURSION[case] + """
def run():
    try:
        call()
    except RecursionError:
        print("RecursionError")
if WHERE == "main":
    run()
else:
    t = threading.Thread(target=run)
    t.start()
    t.join()
""".replace("WHERE", repr(where))
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=child_env(), timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout == "RecursionError\n", done.stdout
