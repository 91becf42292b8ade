"""Hostile producers of the C exchange API: what godlpack remembers of a type, and what it calls, stays safe.

docs/protocol.md#exchange-api-cache. The consumer remembers, per type, the type's own table and the C getter of
its requires_grad attribute. Each test here is a way a producer written in Python broke that once:

- a class borrowing another type's getset descriptor as requires_grad made godlpack call that getter on an
  object it cannot read (a segfault: run in a subprocess);
- a capsule destructor that imports again, run while the cache replaced its entry, paired one type's table
  with another type's capsule (wrong values for every later import);
- a requires_grad property that deletes the class's table got the table called after its capsule was gone;
- a table returning 0 with an exception set ended in SystemError.

The last tests hold the views a table lends (dltensor_from_py_object_no_sync), which bound functions read in place of
a managed tensor, to the same rules: held while read, judged by gdl_inspect, taken as a managed tensor where a view
cannot serve, and a lend whose Python code frees its table must find nothing of the table read after it.
"""

from __future__ import annotations

import ctypes
import gc
import os
import shutil
import subprocess
import sys
import textwrap
from typing import Any, Callable

import numpy as np
import pytest

import godlpack
import godlpack.ops
from godlpack._headers import include_flags
from child_env import SUPPORT, child_env
from dlpack_ctypes import HandMade, _api
from exchange_api import ATTRIBUTE, CAPSULE_NAME, ManagedTensorFromPyObjectNoSync, HandMadeTable

# void destructor(PyObject *capsule): the capsule is dying, so it is passed as an address, never as an object.
CapsuleDestructor = ctypes.CFUNCTYPE(None, ctypes.c_void_p)


def run_child(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True,
                          env=child_env(), timeout=300)


def assert_ok(done: subprocess.CompletedProcess[str]) -> None:
    assert done.returncode == 0 and done.stdout.strip().endswith("ok"), (
        f"exit {done.returncode} (a negative code is a signal: -11 is a segfault)\n{done.stdout[-2000:]}\n"
        f"{done.stderr[-3000:]}")


def values(made: HandMade, vs: list[float]) -> HandMade:
    np.frombuffer(made.buffer, np.float32)[: len(vs)] = vs
    return made


def handing_out(made: HandMade, calls: list[int] | None = None) -> HandMadeTable:
    def from_object(_: Any, out: Any) -> int:
        if calls is not None:
            calls.append(1)
        out[0] = ctypes.pointer(made.struct)
        return 0

    return HandMadeTable(functions={"managed_tensor_from_py_object_no_sync": from_object})


# ---- 1. A getter is called only where CPython would call it ----

BORROWED_DESCRIPTOR = """
    import types
    import numpy as np
    import godlpack, godlpack.ops

    class Borrower:
        # A usable table (godlpack's own, which refuses strangers) makes godlpack ask requires_grad.
        __dlpack_c_exchange_api__ = godlpack.Tensor.__dlpack_c_exchange_api__
        requires_grad = DESCRIPTOR
        def __dlpack__(self, **kw):
            return np.arange(4, dtype=np.float32).__dlpack__(**kw)
        def __dlpack_device__(self):
            return (1, 0)

    x = Borrower()
    for call in (godlpack.from_dlpack, godlpack.ops.sum) * 3:
        try:
            call(x)
        except TypeError as e:  # what x.requires_grad raises in Python: the descriptor does not apply
            assert "doesn't apply" in str(e), e
        else:
            raise AssertionError("the borrowed descriptor was not refused")
    print("ok")
"""


def test_a_borrowed_getset_descriptor_is_not_called_on_a_stranger() -> None:
    assert_ok(run_child(BORROWED_DESCRIPTOR.replace("DESCRIPTOR", 'types.FunctionType.__dict__["__code__"]')))


def test_torch_s_descriptor_on_a_proxy_class_is_not_called() -> None:
    pytest.importorskip("torch")
    code = BORROWED_DESCRIPTOR.replace("DESCRIPTOR", "torch._C.TensorBase.__dict__['requires_grad']").replace(
        "godlpack.Tensor.__dlpack_c_exchange_api__", "torch.Tensor.__dlpack_c_exchange_api__")
    assert_ok(run_child("import torch\n" + textwrap.dedent(code)))


def test_a_getter_is_still_read_directly_on_torch_tensors_and_their_subclasses() -> None:
    torch = pytest.importorskip("torch")

    class Sub(torch.Tensor):
        pass

    for x in (torch.arange(4.0), torch.arange(4.0).as_subclass(Sub)):
        assert godlpack.from_dlpack(x).tolist() == [0.0, 1.0, 2.0, 3.0]
    with pytest.raises(BufferError, match="require gradient"):  # the getter said so: __dlpack__ refuses
        godlpack.from_dlpack(torch.arange(4.0, requires_grad=True))


# ---- 2. The cache is complete before it drops a reference ----


def test_a_capsule_destructor_that_imports_does_not_mix_up_tables() -> None:
    a_made, b_made = values(HandMade(shape=(4,), strides=(1,)), [1, 2, 3, 4]), values(HandMade(shape=(4,), strides=(1,)), [5, 6, 7, 8])
    a_table, b_table = handing_out(a_made), handing_out(b_made)
    B = type("B", (), {ATTRIBUTE: b_table.capsule()})
    b = B()
    seen_in_destructor: list[list[float]] = []

    def destructor(_: int) -> None:
        seen_in_destructor.append(godlpack.from_dlpack(b).tolist())  # re-enters the cache

    callback = CapsuleDestructor(destructor)
    name = CAPSULE_NAME.encode()  # the capsule keeps a pointer to it
    A = type("A", (), {ATTRIBUTE: _api.PyCapsule_New(ctypes.addressof(a_table.struct), name, callback)})
    a = A()
    assert godlpack.from_dlpack(a).tolist() == [1, 2, 3, 4]  # A's capsule is remembered
    # A gets a new capsule over the same table: the cache holds the last reference to the old one, and
    # drops it (running the destructor) when it learns A again.
    setattr(A, ATTRIBUTE, a_table.capsule())
    gc.collect()
    assert seen_in_destructor == []
    assert godlpack.from_dlpack(a).tolist() == [1, 2, 3, 4]
    assert seen_in_destructor == [[5, 6, 7, 8]]
    for _ in range(3):
        assert godlpack.from_dlpack(b).tolist() == [5, 6, 7, 8]
        assert godlpack.from_dlpack(a).tolist() == [1, 2, 3, 4]
        assert godlpack.ops.sum(b) == 26.0 and godlpack.ops.sum(a) == 10.0
    gc.collect()
    assert (a_made.deleted, b_made.deleted) == (8, 7)


# ---- 3. A table is called only while its capsule lives ----


def test_a_table_is_not_called_after_a_requires_grad_property_deleted_it() -> None:
    made, fallback, other = values(HandMade(shape=(4,), strides=(1,)), [1, 2, 3, 4]), values(HandMade(shape=(4,), strides=(1,)), [9, 9, 9, 9]), HandMade(shape=(4,), strides=(1,))
    dead: list[bool] = []
    calls_after_death: list[int] = []

    def from_object(_: Any, out: Any) -> int:
        if dead:
            calls_after_death.append(1)
        out[0] = ctypes.pointer(made.struct)
        return 0

    table = HandMadeTable(functions={"managed_tensor_from_py_object_no_sync": from_object})
    other_table = handing_out(other)
    Other = type("Other", (), {ATTRIBUTE: other_table.capsule(), "_table": other_table})
    callback = CapsuleDestructor(lambda _: dead.append(True))

    class Producer:
        @property
        def requires_grad(self) -> bool:
            if ATTRIBUTE in type(self).__dict__:
                delattr(type(self), ATTRIBUTE)  # the type's dict lets go of the capsule...
                godlpack.from_dlpack(Other())  # ...and another import makes the cache let go too
            return False

        def __dlpack__(self, **kw: Any) -> Any:
            return fallback.capsule()

        def __dlpack_device__(self) -> tuple[int, int]:
            return (1, 0)

    name = CAPSULE_NAME.encode()  # the capsule keeps a pointer to it
    setattr(Producer, ATTRIBUTE, _api.PyCapsule_New(ctypes.addressof(table.struct), name, callback))
    t = godlpack.from_dlpack(Producer())
    gc.collect()
    assert dead == [True] and calls_after_death == []
    assert t.tolist() == [9, 9, 9, 9]  # the type changed under the call: __dlpack__ answered
    del t
    gc.collect()
    assert fallback.deleted == 1 and made.deleted == 0 and other.deleted == 1


# ---- 4. A table that answers 0 with an exception set ----


@pytest.fixture(scope="module")
def table_error_lib(tmp_path_factory: pytest.TempPathFactory) -> ctypes.PyDLL:
    cc = os.environ.get("CC") or shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        pytest.skip("needs a C compiler to build tests/support/helpers/table_error.c")
    out = tmp_path_factory.mktemp("table_error") / "libtable_error.so"
    subprocess.run([cc, "-shared", "-fPIC", "-O1", "-Wall", *include_flags(), "-o", str(out),
                    str(SUPPORT / "helpers" / "table_error.c")], check=True)
    lib = ctypes.PyDLL(str(out))
    lib.table_error_deleted.restype = ctypes.c_long
    return lib


def test_a_table_returning_0_with_an_error_set_gives_way_to_dlpack(table_error_lib: ctypes.PyDLL) -> None:
    table = HandMadeTable()
    address = ctypes.cast(table_error_lib.from_py_object_leaving_error, ctypes.c_void_p).value
    table.struct.managed_tensor_from_py_object_no_sync = ManagedTensorFromPyObjectNoSync(address)
    fallback = values(HandMade(shape=(4,), strides=(1,)), [5, 6, 7, 8])
    Producer = type("Producer", (), {ATTRIBUTE: table.capsule(), "__dlpack__": lambda self, **kw: fallback.capsule(),
                                     "__dlpack_device__": lambda self: (1, 0)})
    before = table_error_lib.table_error_deleted()
    t = godlpack.from_dlpack(Producer())  # no SystemError
    assert t.tolist() == [5, 6, 7, 8]
    assert table_error_lib.table_error_deleted() == before + 1  # the table's tensor: deleted once
    assert godlpack.ops.sum(Producer()) == 26.0
    assert table_error_lib.table_error_deleted() == before + 2
    del t
    gc.collect()
    assert fallback.deleted == 2


def test_a_keyboard_interrupt_while_asking_requires_grad_reaches_the_caller() -> None:
    fallback, made = HandMade(shape=(4,), strides=(1,)), HandMade(shape=(4,), strides=(1,))
    table = handing_out(made)

    # Python code of the producer's raises it while godlpack asks whether to use the table.
    class Producer:
        @property
        def requires_grad(self) -> bool:
            raise KeyboardInterrupt

        def __dlpack__(self, **kw: Any) -> Any:
            return fallback.capsule()

    setattr(Producer, ATTRIBUTE, table.capsule())
    with pytest.raises(KeyboardInterrupt):
        godlpack.from_dlpack(Producer())
    assert made.deleted == 0 and fallback.deleted == 0


# ---- copy=True is a private, writable copy, whatever flags the producer's copy has ----


class CopyingProducer:
    """Answers copy=True with a copy flagged as given (JAX 0.12: READ_ONLY | IS_COPIED), else its own data."""

    def __init__(self, copy_flags: int) -> None:
        self.own = values(HandMade(shape=(4,), strides=(1,), flags=1), [1, 2, 3, 4])
        self.copy_flags = copy_flags
        self.copies: list[HandMade] = []

    def __dlpack__(self, *, copy: bool | None = None, **kw: Any) -> Any:
        if copy:
            made = values(HandMade(shape=(4,), strides=(1,), flags=self.copy_flags), [1, 2, 3, 4])
            self.copies.append(made)
            return made.capsule()
        return self.own.capsule()

    def __dlpack_device__(self) -> tuple[int, int]:
        return (1, 0)


@pytest.mark.parametrize("copy_flags, ours", [(1 | 2, True), (2, False)], ids=["read-only copy", "writable copy"])
def test_copy_true_gives_a_writable_private_copy(copy_flags: int, ours: bool) -> None:
    p = CopyingProducer(copy_flags)
    t = godlpack.from_dlpack(p, copy=True)
    assert t.is_copied and not t.readonly and t.tolist() == [1, 2, 3, 4]
    # A read-only copy is copied again, into memory of ours; a writable one is taken as it is.
    assert (t.data_ptr() != p.copies[0].data_address) == ours
    godlpack.ops.scale_(t, 2)
    assert t.tolist() == [2, 4, 6, 8] and np.frombuffer(p.own.buffer, np.float32)[:4].tolist() == [1, 2, 3, 4]
    assert p.copies[0].deleted == (1 if ours else 0)
    del t
    gc.collect()
    assert p.copies[0].deleted == 1
    u = godlpack.from_dlpack(p)  # without copy=True, read-only stays read-only
    assert u.readonly and not u.is_copied


# ---- Random tables, descriptors, destructors and threads ----


@pytest.mark.parametrize("seed", range(1, 9))
def test_random_hostile_producers_from_threads(seed: int) -> None:
    """tests/support/exchange_fuzz_worker.py in a subprocess: it survives, every answer is right, every deleter ran
    once."""
    done = subprocess.run([sys.executable, str(SUPPORT / "exchange_fuzz_worker.py"), str(seed), "3000"],
                          capture_output=True, text=True, env=child_env(), timeout=300)
    assert_ok(done)


# ---- Lent views: dltensor_from_py_object_no_sync, which bound functions use ----


def lending(made: HandMade, lent: list[int], taken: list[int], rc: int = 0) -> HandMadeTable:
    """A table whose lent DLTensor is made's (copied into the out struct), and whose managed tensor is made too."""

    def lend(_: Any, out: Any) -> int:
        lent.append(1)
        ctypes.memmove(out, ctypes.addressof(made.struct.dl_tensor), ctypes.sizeof(made.struct.dl_tensor))
        return rc

    def take(_: Any, out: Any) -> int:
        taken.append(1)
        out[0] = ctypes.pointer(made.struct)
        return 0

    return HandMadeTable(functions={"dltensor_from_py_object_no_sync": lend,
                                    "managed_tensor_from_py_object_no_sync": take})


def test_a_bound_function_reads_a_lent_view_and_holds_its_object() -> None:
    """godlpack.ops.sum (a bound function) borrows: no managed tensor, no deleter; the object is held, then let go."""
    made, lent, taken = values(HandMade(shape=(4,), strides=(1,)), [1, 2, 3, 4]), [], []
    x = lending(made, lent, taken).owner()()
    before = sys.getrefcount(x)
    assert godlpack.ops.sum(x) == 10.0 and godlpack.ops.sum(x) == 10.0
    assert len(lent) == 2 and taken == [] and made.deleted == 0 and sys.getrefcount(x) == before
    # from_dlpack keeps the tensor past the call: it takes a managed tensor, never a view.
    assert np.asarray(godlpack.from_dlpack(x)).tolist() == [1, 2, 3, 4] and taken == [1]


def test_a_lent_view_is_held_to_the_rules_and_what_it_cannot_be_is_taken() -> None:
    # A view gdl_inspect refuses is a BufferError naming the fault; nothing is left held.
    bad, lent, taken = HandMade(shape=(-1,), strides=(1,)), [], []
    x = lending(bad, lent, taken).owner()()
    before = sys.getrefcount(x)
    with pytest.raises(BufferError, match="negative"):
        godlpack.ops.sum(x)
    assert sys.getrefcount(x) == before and taken == []
    # More dimensions than a view can be copied into, and a failing lend: the managed tensor answers.
    for made, rc in ((HandMade(ndim=100, shape=None), 0), (values(HandMade(shape=(4,), strides=(1,)), [1, 1, 1, 1]), -1)):
        lent, taken = [], []
        y = lending(made, lent, taken, rc).owner()()
        try:
            godlpack.ops.sum(y)
        except BufferError:
            pass
        assert lent == [1] and taken == [1]
    # A parameter the function writes takes the managed tensor, whose flags say whether it may be written.
    made, lent, taken = values(HandMade(shape=(4,), strides=(1,)), [1, 2, 3, 4]), [], []
    z = lending(made, lent, taken).owner()()
    godlpack.ops.scale_(z, 2)
    assert lent == [] and taken == [1] and np.frombuffer(made.buffer, np.float32)[:4].tolist() == [2, 4, 6, 8]


def test_a_lent_view_is_read_without_asking_requires_grad_but_a_written_parameter_asks() -> None:
    made = values(HandMade(shape=(4,), strides=(1,)), [1, 2, 3, 4])
    fallback = values(HandMade(shape=(4,), strides=(1,)), [9, 9, 9, 9])
    lent: list[int] = []
    taken: list[int] = []
    asked: list[int] = []
    table = lending(made, lent, taken)

    class Base:
        @property
        def requires_grad(self) -> bool:
            asked.append(1)
            return True

        def __dlpack__(self, **kw: Any) -> Any:
            return fallback.capsule()

    Grad = table.owner(Base)  # the table in the class's own dict, requires_grad and __dlpack__ inherited
    # A read-only parameter reads the lent view, as a kernel given torch's exchange API does.
    assert godlpack.ops.sum(Grad()) == 10.0
    assert lent == [1] and taken == [] and asked == []
    # A written parameter asks, and a tensor that requires grad goes to __dlpack__.
    godlpack.ops.scale_(Grad(), 2)
    assert asked == [1] and lent == [1] and taken == []
    assert np.frombuffer(fallback.buffer, np.float32)[:4].tolist() == [18] * 4


def test_a_lend_that_frees_its_table_is_not_read_after() -> None:
    """The type seen last is lent to without a reference to its capsule: what the call needs of the table is read
    before it, as the lend may run Python code that forgets the type and frees the table (here: scribbles on its
    version, as memory reused would, and deletes the class's table)."""
    made, lent, taken = values(HandMade(shape=(4,), strides=(1,)), [1, 2, 3, 4]), [], []
    hostile = False

    def lend(_: Any, out: Any) -> int:
        lent.append(1)
        if hostile:
            godlpack.from_dlpack(np.zeros(1))  # another type: the cache forgets this one
            delattr(Lender, ATTRIBUTE)
            table.struct.header.version.major = table.struct.header.version.minor = 0xFFFF
        ctypes.memmove(out, ctypes.addressof(made.struct.dl_tensor), ctypes.sizeof(made.struct.dl_tensor))
        return 0

    def take(_: Any, out: Any) -> int:
        taken.append(1)
        out[0] = ctypes.pointer(made.struct)
        return 0

    table = HandMadeTable(functions={"dltensor_from_py_object_no_sync": lend,
                                     "managed_tensor_from_py_object_no_sync": take})
    Lender = table.owner()
    x = Lender()
    assert godlpack.ops.sum(x) == 10.0  # the type is remembered
    hostile = True
    assert godlpack.ops.sum(x) == 10.0  # read as the table's version 1.3 said, before the call
    assert lent == [1, 1] and taken == [] and made.deleted == 0
    with pytest.raises(TypeError):  # the class has no table now, and no __dlpack__
        godlpack.ops.sum(x)
