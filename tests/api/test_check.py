"""godlpack.check, the conformance checker (docs/check.md): against godlpack, NumPy and PyTorch, against producers and
consumers broken on purpose (one per check: each fails exactly its own check, or the checks its break cannot leave
standing, named with the reason), and its command line with a library that crashes."""

from __future__ import annotations

import ctypes
import dataclasses
import json
import subprocess
import sys
from typing import Any, Callable, Iterator, Literal, Optional

import pytest

import godlpack
from child_env import TESTS, child_env
from godlpack.check import Outcome, Report, Target, load_target, run_in_process, select_checks
from godlpack.check import _exchange as exchange
from godlpack.check._dlpack import (
    IS_COPIED,
    READ_ONLY,
    DLDataType,
    DLManagedTensor,
    DLManagedTensorVersioned,
    DLTensor,
    LegacyDeleter,
    VersionedDeleter,
    _api,
    capsule_name,
    contiguous_strides,
    managed_tensor,
)
from godlpack.check._device import system_runtime
from godlpack.check._values import DTYPES, FLOAT32, DType

# Where godlpack follows one text of the standards and the checker reports the other: every other check passes.
# consumer.error.not-a-producer: godlpack raises TypeError for an object without __dlpack__ (docs/protocol.md,
# "Errors: which exception") where the array API's from_dlpack names AttributeError in its Raises section, whose
# types its Exceptions page makes guidance ("should rather than must").
GODLPACK_OUTCOMES = {"consumer.error.not-a-producer": Outcome.DIFFERENCE}
# The checks of streams on a device: not applicable where this machine has no CUDA (the fake device of
# tests/support/fake_cuda.py runs them, test_check_device.py).
DEVICE_CHECKS = {"producer.stream.device-none", "producer.stream.device-minus-one",
                 "producer.stream.device-synchronizes", "consumer.stream.device"}
if system_runtime(2) is None:
    GODLPACK_OUTCOMES.update(dict.fromkeys(DEVICE_CHECKS, Outcome.NOT_APPLICABLE))


@pytest.fixture(scope="module")
def godlpack_report() -> Report:
    return run_in_process(load_target("godlpack"), select_checks())


@pytest.mark.parametrize("check_id", [c.id for c in select_checks()])
def test_godlpack_passes_every_check(godlpack_report: Report, check_id: str) -> None:
    result = next(r for r in godlpack_report.results if r.check == check_id)
    expected = GODLPACK_OUTCOMES.get(check_id, Outcome.PASS)
    assert result.outcome is expected, f"{check_id}: {result.outcome.value}: {result.detail}"


def outcomes(report: Report, outcome: Outcome, level: Optional[str] = None) -> set[str]:
    return {r.check for r in report.results if r.outcome is outcome and level in (None, r.level)}


def test_numpy_as_measured() -> None:
    """NumPy 2 breaks no must rule: it reads the CPU stream rule strictly (a difference); before 2.5 it refuses CUDA
    memory with RuntimeError where the Python specification recommends BufferError (should; NumPy 2.5 raises
    BufferError); and the notes: it keeps what a producer that breaks the copy rule hands it."""
    import numpy

    report = run_in_process(load_target("numpy"), select_checks())
    assert not report.failed()
    assert outcomes(report, Outcome.DIFFERENCE) == {"producer.stream.minus-one"}
    failed = {"consumer.copy.true-producer-shares", "consumer.copy.false-producer-copied"}
    assert outcomes(report, Outcome.FAIL, "note") == failed
    should = {"consumer.device.other"} if tuple(int(p) for p in numpy.__version__.split(".")[:2]) < (2, 5) else set()
    assert outcomes(report, Outcome.FAIL, "should") == should


def test_torch_as_measured() -> None:
    """PyTorch's documented deviations (docs/protocol.md#numpy-and-pytorch-producing and -consuming) are found, at
    the level of their rules; what the texts allow is not failed: PyTorch has no read-only tensors, so it ignores
    READ_ONLY as the array API asks, and it may refuse negative strides."""
    report = run_in_process(load_target("torch"), select_checks())
    assert {"producer.copy.true"} <= outcomes(report, Outcome.FAIL, "must")
    # RuntimeError for an object without __dlpack__: the Raises section's AttributeError is guidance.
    assert "consumer.error.not-a-producer" in outcomes(report, Outcome.FAIL, "should")
    assert {"consumer.read_only.in", "consumer.read_only.re-export",
            "consumer.layout.negative-strides"} <= outcomes(report, Outcome.PASS)
    exchange_checks = {r.check for r in report.results if r.check.startswith("producer.exchange.")}
    assert exchange_checks <= outcomes(report, Outcome.PASS)


# ---- a managed tensor of the test's own in front of the one a producer hands over ----

Destructor = Literal["dlpack", "always", "never"]
# void (*)(PyObject *), the capsule passed as a bare address (a py_object argument would revive the dying capsule).
CapsuleDestructor = ctypes.CFUNCTYPE(None, ctypes.c_void_p)
_name_of_dying = ctypes.PYFUNCTYPE(ctypes.c_char_p, ctypes.c_void_p)(("PyCapsule_GetName", ctypes.pythonapi))
_incref = ctypes.PYFUNCTYPE(None, ctypes.c_void_p)(("Py_IncRef", ctypes.pythonapi))
# A capsule keeps a pointer to its name: these live as long as the process.
UNUSED = {True: b"dltensor_versioned", False: b"dltensor"}
USED = {b"dltensor_versioned": b"used_dltensor_versioned", b"dltensor": b"used_dltensor"}
# Every proxy of the session: a capsule may call its destructor long after its test (see release_proxies).
_PROXIES: list["Proxy"] = []
# Memory that changed tensors point at (their data, shape or strides), kept as long as the proxies.
_KEPT: list[Any] = []


class Proxy:
    """Takes the tensor a producer handed over and hands out a copy of its fields, in a capsule of its own.

    The producer's capsule is renamed "used_…" (taken); its shape and strides are copied into arrays of the proxy,
    so that `change(struct)` may alter any field without touching the producer's memory. The proxy's deleter calls
    the producer's deleter once (`release`) unless `forward` is False. Its capsule's destructor does what
    `destructor` says: "dlpack" calls the deleter when the capsule was not consumed (DLPack's Python
    specification), "always" whatever its name, "never" nothing. `legacy=True` hands a versioned tensor out as a
    legacy DLManagedTensor (without version and flags).
    """

    def __init__(self, capsule: Any, *, legacy: bool = False, destructor: Destructor = "dlpack",
                 change: Optional[Callable[[Any], Any]] = None) -> None:
        name = capsule_name(capsule).encode()
        self.source_cls = DLManagedTensorVersioned if name == UNUSED[True] else DLManagedTensor
        self.pointer = _api.PyCapsule_GetPointer(capsule, name)
        _api.PyCapsule_SetName(capsule, USED[name])
        source = self.source_cls.from_address(self.pointer)
        self.versioned = self.source_cls is DLManagedTensorVersioned and not legacy
        self.cls = DLManagedTensorVersioned if self.versioned else DLManagedTensor
        self.struct = self.cls()
        self.struct.dl_tensor = source.dl_tensor
        if self.versioned:
            self.struct.version = source.version
            self.struct.flags = source.flags
        self.dims: list[Any] = []
        tensor = self.struct.dl_tensor
        for field in ("shape", "strides"):
            if getattr(tensor, field):
                array = (ctypes.c_int64 * tensor.ndim)(*(getattr(tensor, field)[i] for i in range(tensor.ndim)))
                self.dims.append(array)
                setattr(tensor, field, ctypes.cast(array, ctypes.POINTER(ctypes.c_int64)))
        self.forward = True
        self.released = False
        self.on_release: Callable[[], None] = lambda: None
        self._deleter = (VersionedDeleter if self.versioned else LegacyDeleter)(self._deleted)
        self.struct.deleter = self._deleter
        self.destructor = destructor
        self._destructor = CapsuleDestructor(self._destroy)
        # What can still reach the proxy: its capsules (one whose destructor is "never" may live on unseen), and
        # the struct until its deleter is called.
        self.capsules_alive = 0
        self.struct_held = False
        if change is not None:
            change(self.struct)
        _PROXIES.append(self)

    def capsule(self) -> Any:
        destructor = None if self.destructor == "never" else ctypes.cast(self._destructor, ctypes.c_void_p)
        self.capsules_alive += 1
        self.struct_held = True
        return _api.PyCapsule_New(ctypes.addressof(self.struct), UNUSED[self.versioned], destructor)

    def release(self) -> None:
        """Call the producer's deleter, once whatever happens after."""
        if self.released:
            return
        self.released = True
        source = self.source_cls.from_address(self.pointer)
        if source.deleter:
            source.deleter(ctypes.cast(self.pointer, ctypes.POINTER(self.source_cls)))
        self.on_release()

    def unreachable(self) -> bool:
        return self.capsules_alive == 0 and not self.struct_held

    def _deleted(self, _: Any) -> None:
        self.struct_held = False
        if self.forward:
            self.release()

    def _destroy(self, capsule: int) -> None:
        if self.destructor == "always" or _name_of_dying(capsule) in USED:
            # Through the struct's field, which a consumer (the checker's counting trampoline) may have replaced.
            self.struct.deleter(ctypes.cast(ctypes.addressof(self.struct), ctypes.POINTER(self.cls)))
        self.capsules_alive -= 1


def proxied(capsule: Any, change: Optional[Callable[[Any], Any]] = None, **options: Any) -> Any:
    return Proxy(capsule, change=change, **options).capsule()


def taken_and_deleted(capsule: Any) -> None:
    """What a consumer does with a tensor it refuses: take it and call its deleter."""
    Proxy(capsule).release()


@pytest.fixture(autouse=True)
def release_proxies() -> Iterator[None]:
    """What a test's broken producers and consumers left undeleted is deleted (the leak check runs after this), and
    the proxies nothing can reach any more are let go."""
    yield
    for proxy in _PROXIES:
        proxy.release()
    _PROXIES[:] = [proxy for proxy in _PROXIES if not proxy.unreachable()]


def mislabelled(dtype: DType) -> tuple[int, int, int]:
    """Another DLPack dtype of dtype's size (another code of the same bits, else two lanes of half the bits)."""
    other = next((d for d in DTYPES if d.bits == dtype.bits and d.code != dtype.code), None)
    return other.triple if other is not None else (2, dtype.bits // 2, 2)


def labelled(triple: tuple[int, int, int]) -> Callable[[Any], None]:
    return lambda m: setattr(m.dl_tensor, "dtype", DLDataType(*triple))


# ---- producers broken on purpose ----


class Wrapped:
    """A godlpack Tensor behind a class of its own, whose __dlpack__, __dlpack_device__ and exchange table (where it
    has one) a test breaks."""

    def __init__(self, inner: Any, breakable: "Breakable") -> None:
        self.inner = inner
        self.breakable = breakable

    def __dlpack__(self, **kwargs: Any) -> Any:
        return self.breakable.export(self, kwargs)

    def __dlpack_device__(self) -> Any:
        return self.breakable.device(self)

    def __del__(self) -> None:
        self.breakable.on_drop(self.inner)


def real(w: Wrapped, **kwargs: Any) -> Any:
    return w.inner.__dlpack__(**kwargs)


@dataclasses.dataclass
class Breakable:
    """godlpack's target with its arrays wrapped: export(w, kwargs) is their __dlpack__, device(w) their
    __dlpack_device__, on_drop(inner) what happens to the memory when an array goes. table(breakable), where set,
    is the exchange table their class carries."""

    export: "Export" = lambda w, kw: real(w, **kw)
    device: Callable[[Wrapped], Any] = lambda w: w.inner.__dlpack_device__()
    on_drop: Callable[[Any], None] = lambda inner: None
    table: Optional[Callable[["Breakable"], exchange.HandMadeTable]] = None
    # The class of the arrays: Wrapped, or a subclass of it that carries the table.
    kind: type = dataclasses.field(default=Wrapped, init=False)

    def target(self) -> Target:
        base = load_target("godlpack")
        if self.table is not None:
            self.kind = self.table(self).owner(Wrapped, "WrappedWithTable")

        def wrap(f: Callable[..., Any]) -> Callable[..., Any]:
            return lambda *args: self.kind(f(*(a.inner if isinstance(a, Wrapped) else a for a in args)), self)

        assert base.readonly is not None and base.cpu_accessible is not None
        cpu_accessible = base.cpu_accessible

        def wrapped_cpu_accessible() -> tuple[Any, tuple[int, int]]:
            inner, device = cpu_accessible()
            return self.kind(inner, self), device

        return dataclasses.replace(
            base, make=wrap(base.make), readonly=wrap(base.readonly), transpose=wrap(base.transpose),
            reverse=wrap(base.reverse), offset=wrap(base.offset), every_other_column=wrap(base.every_other_column),
            cpu_accessible=wrapped_cpu_accessible,
        )


Export = Callable[[Wrapped, dict[str, Any]], Any]


def when(condition: Callable[[Wrapped, dict[str, Any]], bool], broken: Export) -> Breakable:
    """A producer whose __dlpack__ is broken(w, kwargs) where condition(w, kwargs) holds, godlpack's elsewhere."""
    return Breakable(lambda w, kw: broken(w, kw) if condition(w, kw) else real(w, **kw))


def changed(change: Callable[[Any], Any], **options: Any) -> Export:
    """The real capsule of the call, behind a proxy whose struct change(struct) alters."""
    return lambda w, kw: proxied(real(w, **kw), change, **options)


def asked(**wanted: Any) -> Callable[[Wrapped, dict[str, Any]], bool]:
    return lambda w, kw: all(kw.get(k, "absent") == v for k, v in wanted.items())


def raise_(error: BaseException) -> Any:
    raise error


def plain_1d(w: Wrapped) -> bool:
    return w.inner.shape == (6,) and w.inner.strides == (1,) and not w.inner.readonly


def setting(**fields: Any) -> Callable[[Any], None]:
    """A change that sets fields of the managed tensor's DLTensor."""

    def change(m: Any) -> None:
        for name, value in fields.items():
            setattr(m.dl_tensor, name, value)

    return change


def with_flags(set_: int = 0, clear: int = 0) -> Callable[[Any], None]:
    return lambda m: setattr(m, "flags", (m.flags | set_) & ~clear)


def with_dims(shape: Optional[tuple[int, ...]] = None,
              strides: Optional[tuple[int, ...]] = None) -> Callable[[Any], None]:
    """Change the dims of a proxy's struct: written into the proxy's own copies of shape and strides."""

    def change(m: Any) -> None:
        for values, field in ((shape, m.dl_tensor.shape), (strides, m.dl_tensor.strides)):
            for i, v in enumerate(values or ()):
                field[i] = v

    return change


def _zeroed_data(m: Any) -> None:
    """Point the tensor at zeroed memory of its size (a buffer the producer never wrote), kept for the session."""
    n = 1
    for i in range(m.dl_tensor.ndim):
        n *= m.dl_tensor.shape[i]
    zeros = (ctypes.c_uint8 * max(n * m.dl_tensor.dtype.bits // 8, 1))()
    _KEPT.append(zeros)
    m.dl_tensor.data = ctypes.addressof(zeros)
    m.dl_tensor.byte_offset = 0



def _two_elements_early(m: Any) -> None:
    m.dl_tensor.data -= 2 * m.dl_tensor.dtype.bits // 8


def _as_1d_of_one(m: Any) -> None:
    """A 0-d tensor described as shape (1,), strides (1,): new arrays kept for the session."""
    for field in ("shape", "strides"):
        one = (ctypes.c_int64 * 1)(1)
        _KEPT.append(one)
        setattr(m.dl_tensor, field, ctypes.cast(one, ctypes.POINTER(ctypes.c_int64)))
    m.dl_tensor.ndim = 1


def scribble(inner: Any) -> None:
    """What a producer that frees an array's memory with the array leaves in it: 0xFF bytes."""
    ctypes.memset(inner.data_ptr(), 0xFF, inner.nbytes)


# -- the exchange table: godlpack.Tensor's own, called for the Wrapped object's inner Tensor --


def _inner_address(address: int) -> int:
    return id(ctypes.cast(address, ctypes.py_object).value.inner)


def delegating_table(**replaced: Optional[Callable[..., int]]) -> Callable[[Breakable], exchange.HandMadeTable]:
    """A table for the Wrapped class that calls godlpack.Tensor's own, except the functions `replaced` names (a
    callable taking the real table and the breakable and returning the C function, or None for NULL)."""

    def make(breakable: Breakable) -> exchange.HandMadeTable:
        api = exchange.table_of(godlpack.Tensor).api

        def to_py_object(managed: Any, out: Any, change: Callable[[Any], Any] = lambda t: t) -> int:
            got = ctypes.c_void_p()
            if api.managed_tensor_to_py_object_no_sync(managed, ctypes.byref(got)) != 0:
                return -1
            tensor = ctypes.cast(got, ctypes.py_object).value
            _api.Py_DecRef(got.value)  # the call's reference; `tensor` holds one of its own
            result = breakable.kind(change(tensor), breakable)
            _incref(id(result))  # the new reference the caller takes
            out[0] = id(result)
            return 0

        functions: dict[str, Any] = {
            "managed_tensor_allocator": lambda prototype, out, ctx, set_error: api.managed_tensor_allocator(
                prototype, out, ctx, set_error),
            "managed_tensor_from_py_object_no_sync": lambda obj, out: api.managed_tensor_from_py_object_no_sync(
                _inner_address(obj), out),
            "managed_tensor_to_py_object_no_sync": to_py_object,
            "dltensor_from_py_object_no_sync": lambda obj, out: api.dltensor_from_py_object_no_sync(
                _inner_address(obj), out),
            "current_work_stream": lambda device_type, device_id, out: api.current_work_stream(
                device_type, device_id, out),
        }
        for name, broken in replaced.items():
            if broken is None:
                del functions[name]
            else:
                functions[name] = broken(api, functions[name])
        return exchange.HandMadeTable(functions=functions)

    return make


def _allocates_float64(api: Any, _: Any) -> Callable[..., int]:
    def allocate(prototype: Any, out: Any, ctx: Any, set_error: Any) -> int:
        wrong = DLTensor.from_buffer_copy(prototype.contents)
        wrong.dtype = DLDataType(2, 64, 1)
        return int(api.managed_tensor_allocator(ctypes.pointer(wrong), out, ctx, set_error))

    return allocate


def _forgets_read_only(api: Any, delegate: Callable[..., int]) -> Callable[..., int]:
    def from_py_object(obj: int, out: Any) -> int:
        rc = delegate(obj, out)
        out[0].contents.flags &= ~READ_ONLY
        return rc

    return from_py_object


def _lends_next_element(api: Any, delegate: Callable[..., int]) -> Callable[..., int]:
    def dltensor(obj: int, out: Any) -> int:
        rc = delegate(obj, out)
        out.contents.byte_offset += out.contents.dtype.bits // 8
        return rc

    return dltensor


def _copies_to_py_object(api: Any, delegate: Callable[..., int]) -> Callable[..., int]:
    return lambda managed, out: delegate(managed, out, change=lambda t: godlpack.from_dlpack(t, copy=True))


def _reports_success_unwritten(api: Any, _: Any) -> Callable[..., int]:
    return lambda device_type, device_id, out: 0


def _dtype_breaker(dtype: DType) -> Breakable:
    """Arrays of dtype go out labelled as another dtype of its size."""
    return when(lambda w, kw: w.inner.dtype == dtype.name, changed(labelled(mislabelled(dtype))))


BROKEN_PRODUCERS: dict[str, Breakable] = {
    "producer.max_version.absent": when(lambda w, kw: kw == {} and not w.inner.readonly,
                                        lambda w, kw: real(w, max_version=(1, 3))),
    "producer.max_version.0.x": when(asked(max_version=(0, 8)), lambda w, kw: real(w, max_version=(1, 3))),
    "producer.max_version.1.0": when(asked(max_version=(1, 0)), changed(lambda m: setattr(m.version, "major", 2))),
    # Every other check reads through max_version=(1, 3): a tensor of major version 2 leaves them nothing to
    # judge (not applicable, as dlpack.h says its fields are not safe to access).
    "producer.max_version.1.3": when(asked(max_version=(1, 3)), changed(lambda m: setattr(m.version, "major", 2))),
    "producer.max_version.2.0": when(asked(max_version=(2, 0)), lambda w, kw: raise_(BufferError("no 2.0"))),
    "producer.capsule.destructor-unconsumed": Breakable(changed(lambda m: None, destructor="never")),
    "producer.capsule.destructor-consumed": Breakable(changed(lambda m: None, destructor="always")),
    "producer.capsule.outlives-array": Breakable(on_drop=scribble),
    "producer.dlpack_device.answer": Breakable(device=lambda w: (1, None)),
    "producer.dl_device.own": when(lambda w, kw: kw.get("dl_device") == (1, 0) and w.inner.device == (1, 0),
                                   lambda w, kw: real(w, max_version=(1, 3), copy=True)),
    "producer.dl_device.cpu": when(lambda w, kw: kw.get("dl_device") == (1, 0) and w.inner.device == (3, 0),
                                   lambda w, kw: real(w, max_version=(1, 3))),
    "producer.dl_device.other": when(asked(dl_device=(2, 0)), lambda w, kw: raise_(RuntimeError("no CUDA"))),
    "producer.stream.none": when(asked(stream=None), lambda w, kw: raise_(TypeError("stream"))),
    "producer.stream.minus-one": when(asked(stream=-1), changed(_zeroed_data)),
    "producer.stream.cpu-int": when(asked(stream=1), lambda w, kw: real(w, max_version=(1, 3))),
    "producer.copy.true": when(lambda w, kw: kw.get("copy") is True and kw.get("max_version") and not w.inner.readonly,
                               changed(with_flags(clear=IS_COPIED))),
    "producer.copy.true-writable": when(
        lambda w, kw: kw.get("copy") is True and kw.get("max_version") and not w.inner.readonly,
        changed(with_flags(set_=READ_ONLY))),
    "producer.copy.true-of-read-only": when(lambda w, kw: kw.get("copy") is True and w.inner.readonly,
                                            changed(with_flags(set_=READ_ONLY))),
    "producer.copy.true-legacy": when(lambda w, kw: kw == {"copy": True}, lambda w, kw: real(w)),
    "producer.copy.false": when(asked(copy=False), lambda w, kw: real(w, max_version=(1, 3), copy=True)),
    "producer.copy.none": when(asked(copy=None), changed(with_flags(set_=IS_COPIED))),
    "producer.read_only.flag": when(lambda w, kw: w.inner.readonly and kw == {"max_version": (1, 3)},
                                    changed(with_flags(clear=READ_ONLY))),
    "producer.read_only.writable-clear": when(lambda w, kw: kw == {"max_version": (1, 3)} and plain_1d(w),
                                              changed(with_flags(set_=READ_ONLY))),
    # The read-only memory itself in a legacy capsule, which cannot say READ_ONLY.
    "producer.read_only.legacy": when(lambda w, kw: kw == {} and w.inner.readonly,
                                      lambda w, kw: proxied(real(w, max_version=(1, 3)), legacy=True)),
    **{f"producer.dtype.{d.name}": _dtype_breaker(d) for d in DTYPES},
    "producer.layout.c-contiguous": when(lambda w, kw: w.inner.shape == (2, 3) and w.inner.strides == (3, 1),
                                         changed(with_dims(strides=(1, 2)))),
    "producer.layout.0-d": when(lambda w, kw: w.inner.shape == (), changed(_as_1d_of_one)),
    "producer.layout.size-0": when(lambda w, kw: w.inner.shape == (2, 0), changed(with_dims(shape=(0, 2)))),
    "producer.layout.transposed": when(lambda w, kw: w.inner.shape == (3, 2), changed(with_dims(strides=(2, 1)))),
    "producer.layout.negative-strides": when(lambda w, kw: w.inner.strides == (-1,), changed(with_dims(shape=(5,)))),
    # The view's offset dropped: the data of the vector it was sliced from, two elements before.
    "producer.layout.byte-offset": when(lambda w, kw: w.inner.shape == (4,), changed(_two_elements_early)),
    "producer.layout.strided": when(lambda w, kw: w.inner.shape == (2, 2) and w.inner.strides == (3, 2),
                                    changed(with_dims(strides=(3, 1)))),
    # current_work_stream left NULL: producer.exchange.current-work-stream has nothing to call (not applicable).
    "producer.exchange.table": Breakable(table=delegating_table(current_work_stream=None)),
    "producer.exchange.matches-dlpack": Breakable(
        table=delegating_table(managed_tensor_from_py_object_no_sync=_forgets_read_only)),
    "producer.exchange.dltensor": Breakable(
        table=delegating_table(dltensor_from_py_object_no_sync=_lends_next_element)),
    "producer.exchange.allocator": Breakable(table=delegating_table(managed_tensor_allocator=_allocates_float64)),
    "producer.exchange.to-py-object": Breakable(
        table=delegating_table(managed_tensor_to_py_object_no_sync=_copies_to_py_object)),
    "producer.exchange.current-work-stream": Breakable(
        table=delegating_table(current_work_stream=_reports_success_unwritten)),
}

FLOAT32_PRODUCER_CHECKS = {
    # Every array of these checks is float32 (the checks' VECTOR and MATRIX), and each compares the capsule's
    # dtype with float32's (code 2, bits 32, lanes 1); the others look at flags, devices and deleters only.
    "producer.max_version.absent", "producer.max_version.0.x", "producer.max_version.1.0",
    "producer.max_version.1.3", "producer.max_version.2.0", "producer.capsule.outlives-array",
    "producer.dl_device.own", "producer.stream.none", "producer.stream.minus-one", "producer.copy.true",
    "producer.copy.true-of-read-only", "producer.copy.true-legacy", "producer.copy.false", "producer.copy.none",
    "producer.read_only.flag", "producer.layout.c-contiguous", "producer.layout.0-d", "producer.layout.size-0",
    "producer.layout.transposed", "producer.layout.negative-strides", "producer.layout.byte-offset",
    "producer.layout.strided",
}
# A break whose defect other checks see too: they are not applicable "because of" the check it fails (its root
# cause, named once), and each of those named here must be.
PRODUCER_SPOILS = {"producer.dtype.float32": FLOAT32_PRODUCER_CHECKS}


def because_of(report: Report, check_id: str) -> set[str]:
    """The checks that are not applicable because check_id failed (its root cause)."""
    return {r.check for r in report.results if r.outcome is Outcome.NOT_APPLICABLE and r.cause == check_id
            and r.detail.startswith(f"because of {check_id} (")}


def assert_fails_exactly(report: Report, check_id: str, spoils: dict[str, set[str]]) -> None:
    """The break of check_id failed that check and no other; those its defect spoils are n/a because of it."""
    failed = outcomes(report, Outcome.FAIL)
    assert failed == {check_id}, {r.check: r.detail for r in report.results if r.check in failed ^ {check_id}}
    missing = spoils.get(check_id, set()) - because_of(report, check_id)
    assert not missing, {r.check: (r.outcome.value, r.detail) for r in report.results if r.check in missing}


@pytest.mark.parametrize("check_id", sorted(BROKEN_PRODUCERS))
def test_broken_producer_fails_exactly_its_check(check_id: str) -> None:
    report = run_in_process(BROKEN_PRODUCERS[check_id].target(), select_checks("producer"))
    assert_fails_exactly(report, check_id, PRODUCER_SPOILS)


def test_a_producer_whose_table_lends_godlpack_functions_passes() -> None:
    """The base of the exchange breakers: godlpack's own table behind the Wrapped class passes every check."""
    report = run_in_process(Breakable(table=delegating_table()).target(), select_checks("producer"))
    assert outcomes(report, Outcome.FAIL) == set(), [r for r in report.results if r.outcome is Outcome.FAIL]
    assert {c.id for c in select_checks("producer", "exchange")} <= outcomes(report, Outcome.PASS)

# -- a destructor that frees the tensor without its deleter field (JAX's legacy capsules) --

_libc = ctypes.CDLL(None, use_errno=True)
_libc.mmap.restype = ctypes.c_void_p
_libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_long]
_libc.munmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t]
# The capsule destructors of MappedArray's capsules, which hold their structs: a capsule may outlive its test.
_DESTRUCTORS: list[Any] = []


class Mapping:
    """A memory mapping of size bytes, unmapped (its pages given back) when its last holder releases it."""

    def __init__(self, size: int) -> None:
        self.size, self.holders = size, 1
        self.address = _libc.mmap(None, size, 3, 0x22, -1, 0)  # PROT_READ | PROT_WRITE, MAP_PRIVATE | ANONYMOUS
        assert self.address not in (None, ctypes.c_void_p(-1).value)

    def release(self) -> None:
        self.holders -= 1
        if self.holders == 0:
            _libc.munmap(self.address, self.size)


class MappedArray:
    """A float32 array over a Mapping held by the array and by each capsule of it. Its capsule's destructor frees an
    unconsumed tensor by calling the free function directly, never through the managed tensor's deleter field,
    which the checker watches: JAX's legacy capsules do so. With leak, the destructor forgets the tensor."""

    def __init__(self, values: list[float], leak: bool = False) -> None:
        self.n, self.leak = len(values), leak
        self.mapping = Mapping(max(self.n * 4, 1))
        (ctypes.c_float * self.n).from_address(self.mapping.address)[:] = values

    def __del__(self) -> None:
        self.mapping.release()

    def __dlpack_device__(self) -> tuple[int, int]:
        return (1, 0)

    def __dlpack__(self, *, stream: Any = None, max_version: Any = None, dl_device: Any = None,
                   copy: Any = None) -> Any:
        versioned = max_version is not None and max_version[0] >= 1
        keep: list[Any] = []
        mapping, leak = self.mapping, self.leak
        mapping.holders += 1

        def free(_: Any) -> None:
            mapping.release()

        struct = managed_tensor(keep, versioned=versioned, data=mapping.address, device=(1, 0), dtype=(2, 32, 1),
                                shape=(self.n,), strides=(1,), deleter=free)
        keep.append(struct)

        def destroy(capsule: int) -> None:
            if _name_of_dying(capsule) in USED and not leak:  # USED: the unconsumed names, the keys
                free(None)

        destructor = CapsuleDestructor(destroy)
        _DESTRUCTORS.append((destructor, keep))
        name = UNUSED[versioned]
        return _api.PyCapsule_New(ctypes.addressof(struct), name, ctypes.cast(destructor, ctypes.c_void_p))


def mapped_target(leak: bool = False) -> Target:
    return Target(name="mapped", version="", dtypes={"float32": FLOAT32},
                  make=lambda values, dtype: MappedArray(values, leak))


def test_a_destructor_that_frees_the_tensor_by_another_path_passes() -> None:
    """JAX's legacy capsules: the destructor never calls the deleter through the field the checker watches, and
    dropping 40 unconsumed 25 MB capsules grows its memory by 0 MB. The check judges whether the memory is released;
    a destructor that forgets the tensor still fails."""
    report = run_in_process(mapped_target(), select_checks("producer", "capsule.destructor"))
    assert outcomes(report, Outcome.PASS) == {"producer.capsule.destructor-unconsumed",
                                              "producer.capsule.destructor-consumed"}
    assert "without its deleter field" in report.results[0].detail
    report = run_in_process(mapped_target(leak=True), select_checks("producer", "capsule.destructor-unconsumed"))
    assert outcomes(report, Outcome.FAIL, "must") == {"producer.capsule.destructor-unconsumed"}
    assert "the memory stays" in report.results[0].detail


# ---- consumers broken on purpose ----


Call = Callable[[Any, dict[str, Any]], Any]


class Layer:
    """A consumer's own layer between godlpack.from_dlpack and the producer x: its __dlpack__ calls are
    call(x, kwargs), the broken consumer's way of calling x.__dlpack__(**kwargs); godlpack does the rest."""

    def __init__(self, x: Any, call: Call) -> None:
        self.x = x
        self.call = call

    def __dlpack__(self, **kwargs: Any) -> Any:
        return self.call(self.x, kwargs)

    def __dlpack_device__(self) -> Any:
        return self.x.__dlpack_device__()


def consumer(call: Call = lambda x, kw: x.__dlpack__(**kw)) -> Callable[..., Any]:
    """godlpack.from_dlpack, through a Layer(call) for every producer."""

    def from_dlpack(x: Any, **kwargs: Any) -> Any:
        return godlpack.from_dlpack(Layer(x, call) if hasattr(type(x), "__dlpack__") else x, **kwargs)

    return from_dlpack


def asking(change: Callable[[dict[str, Any]], dict[str, Any]]) -> Callable[..., Any]:
    """A consumer that asks the producer for change(kwargs) where godlpack asks for kwargs."""
    return consumer(lambda x, kw: x.__dlpack__(**change(kw)))


def answering(answer: Callable[[Any], Any]) -> Callable[..., Any]:
    """A consumer that makes answer(capsule) of the capsule the producer hands over."""
    return consumer(lambda x, kw: answer(x.__dlpack__(**kw)))


def reading(change: Callable[[Any], Any], only: Callable[[Any], bool] = lambda m: True) -> Callable[..., Any]:
    """A consumer that reads the managed tensors `only` picks as change(struct) makes them (on a proxy)."""
    return answering(lambda c: proxied(c, change) if only(managed(c)) else c)


def refusing(only: Callable[[Any], bool], error: Callable[[], BaseException]) -> Callable[..., Any]:
    """A consumer that takes the managed tensors `only` picks, calls their deleters, and raises error()."""

    def answer(capsule: Any) -> Any:
        if not only(managed(capsule)):
            return capsule
        taken_and_deleted(capsule)
        raise error()

    return answering(answer)


def managed(capsule: Any) -> Any:
    name = capsule_name(capsule)
    cls = DLManagedTensorVersioned if name == "dltensor_versioned" else DLManagedTensor
    return cls.from_address(_api.PyCapsule_GetPointer(capsule, name.encode()))


def strides(m: Any) -> Optional[tuple[int, ...]]:
    t = m.dl_tensor
    return tuple(t.strides[i] for i in range(t.ndim)) if t.strides else None


def shape(m: Any) -> tuple[int, ...]:
    return tuple(m.dl_tensor.shape[i] for i in range(m.dl_tensor.ndim))


def compact(m: Any) -> bool:
    """Whether the strides cover the elements without gaps, in some order of the dimensions (a transpose)."""
    step = 1
    for stride, n in sorted(zip(strides(m) or (), shape(m))):
        if n > 1 and stride != step:
            return False
        step *= n
    return True


def taking_a_second_capsule(capsule: Any) -> Any:
    """A new capsule over the same tensor for godlpack to take: the producer's capsule keeps its name."""
    name = capsule_name(capsule).encode()
    return _api.PyCapsule_New(_api.PyCapsule_GetPointer(capsule, name), UNUSED[name == UNUSED[True]], None)


def keeping_one_import_per_memory() -> Callable[..., Any]:
    """A consumer that holds one import per memory: a second tensor over memory it holds is taken, never deleted."""
    held: set[int] = set()

    def answer(capsule: Any) -> Any:
        proxy = Proxy(capsule)
        data = proxy.struct.dl_tensor.data
        if data in held:
            proxy.forward = False
        else:
            held.add(data)
            proxy.on_release = lambda: held.discard(data)
        return proxy.capsule()

    return answering(answer)


def deleting_at_once(capsule: Any) -> Any:
    """The tensor deleted as soon as it is imported, while the import still views its memory."""
    proxy = Proxy(capsule)
    proxy.release()
    return proxy.capsule()


def asking_itself(x: Any, **kwargs: Any) -> Any:
    """A consumer that asks the producer for what it was asked (copy included), then takes the answer as it is."""
    copy = {"copy": kwargs["copy"]} if kwargs.get("copy") is not None else {}
    return godlpack.from_dlpack(x.__dlpack__(max_version=(1, 3), **copy))


def without_fallback(x: Any, **kwargs: Any) -> Any:
    """A consumer that never retries __dlpack__ without keywords: a producer from before them is a TypeError."""
    if hasattr(type(x), "__dlpack__"):
        x = x.__dlpack__(max_version=(1, 3), **({"copy": kwargs["copy"]} if kwargs.get("copy") is not None else {}))
    return godlpack.from_dlpack(x, **kwargs)


def copying_when(wanted: Optional[bool]) -> Callable[..., Any]:
    """A consumer that copies what it imported when copy is `wanted` (False or None)."""

    def from_dlpack(x: Any, copy: Optional[bool] = None, **kwargs: Any) -> Any:
        result = godlpack.from_dlpack(x, copy=copy, **kwargs)
        if copy is not wanted:
            return result
        try:
            return godlpack.from_dlpack(result, copy=True)
        finally:
            del result  # not kept alive by a traceback: its deleter runs when this call ends, raised or not

    return from_dlpack


def dropping_copy_true(x: Any, copy: Optional[bool] = None, **kwargs: Any) -> Any:
    return godlpack.from_dlpack(x, **kwargs) if copy is True else godlpack.from_dlpack(x, copy=copy, **kwargs)


def refusing_device(x: Any, device: Any = None, **kwargs: Any) -> Any:
    if device is not None:
        raise ValueError(f"device={device!r} is not supported")
    return godlpack.from_dlpack(x, **kwargs)


def write_through(x: Any, value: Any) -> None:
    """Writes the first element whatever the Tensor says (a consumer that ignores READ_ONLY)."""
    ctypes.c_uint8.from_address(x.data_ptr()).value = 1


def refuse_write(x: Any, value: Any) -> None:
    raise TypeError("read-only")


def rewrapping_buffer_error(x: Any, kwargs: dict[str, Any]) -> Any:
    """The producer's BufferError turned into the consumer's own RuntimeError."""
    try:
        return x.__dlpack__(**kwargs)
    except BufferError as error:
        raise RuntimeError(str(error)) from None


def non_producer_as_runtime_error(x: Any, **kwargs: Any) -> Any:
    if not hasattr(type(x), "__dlpack__") and type(x).__name__ != "PyCapsule":
        raise RuntimeError("from_dlpack received an invalid capsule")  # PyTorch's answer
    return godlpack.from_dlpack(x, **kwargs)


def cpu_only(x: Any, **kwargs: Any) -> Any:
    """A consumer that refuses data on another device than the CPU with RuntimeError (after letting it go)."""
    result = godlpack.from_dlpack(x, **kwargs)
    if result.device != (1, 0):
        del result  # not kept alive by the traceback: its deleter runs before the caller sees the error
        raise RuntimeError("only CPU data")
    return result


def is_versioned(m: Any) -> bool:
    return isinstance(m, DLManagedTensorVersioned)


def _dtype_misreader(dtype: DType) -> dict[str, Any]:
    """Tensors of dtype are read as another dtype of its size."""
    return dict(from_dlpack=reading(labelled(mislabelled(dtype)), only=lambda m: (
        m.dl_tensor.dtype.code, m.dl_tensor.dtype.bits, m.dl_tensor.dtype.lanes) == dtype.triple))


def column_major(m: Any) -> bool:
    dims = strides(m)
    return dims is not None and len(dims) == 2 and dims[0] < dims[1]


def _as_c_contiguous(m: Any) -> None:
    for i, s in enumerate(contiguous_strides(shape(m))):
        m.dl_tensor.strides[i] = s


def _forwards(m: Any) -> None:
    """A view with negative strides read forwards from the data pointer."""
    for i in range(m.dl_tensor.ndim):
        m.dl_tensor.strides[i] = abs(m.dl_tensor.strides[i])
    m.dl_tensor.byte_offset = 0


def _realigned(m: Any) -> None:
    """The data pointer moved down to the 256-byte boundary before it, byte_offset kept: a consumer that 'knows'
    the pointer is aligned."""
    m.dl_tensor.data -= m.dl_tensor.data % 256


def unaligned(m: Any) -> bool:
    return bool(m.dl_tensor.data and m.dl_tensor.data % 256)


def probing_legacy_first(x: Any, **kwargs: Any) -> Any:
    """A consumer that calls __dlpack__() once to look before it asks for max_version (the look's capsule dropped):
    a producer that refuses legacy capsules refuses the look."""
    if hasattr(type(x), "__dlpack__"):
        x.__dlpack__()
    return godlpack.from_dlpack(x, **kwargs)


def not_deleting(when: Callable[[Any], bool]) -> Callable[..., Any]:
    """A consumer that never calls the deleter of the tensors `when` picks (Paddle's, for a NULL manager_ctx)."""

    def answer(capsule: Any) -> Any:
        proxy = Proxy(capsule)
        if when(proxy.source_cls.from_address(proxy.pointer)):
            proxy.forward = False
        return proxy.capsule()

    return answering(answer)


def copied_flag(m: Any) -> bool:
    return is_versioned(m) and bool(m.flags & IS_COPIED)


def fake_device() -> Any:
    import fake_cuda

    device = fake_cuda.target().device
    assert device is not None
    return device


BROKEN_CONSUMERS: dict[str, dict[str, Any]] = {
    "consumer.capsule.versioned": dict(from_dlpack=answering(
        lambda c: taking_a_second_capsule(c) if capsule_name(c) == "dltensor_versioned" else c)),
    "consumer.capsule.legacy": dict(from_dlpack=answering(
        lambda c: taking_a_second_capsule(c) if capsule_name(c) == "dltensor" else c)),
    "consumer.asks.max_version": dict(from_dlpack=asking(
        lambda kw: {k: v for k, v in kw.items() if k != "max_version"})),
    "consumer.asks.fallback": dict(from_dlpack=without_fallback),
    "consumer.version.newer-minor": dict(from_dlpack=refusing(
        lambda m: is_versioned(m) and m.version.major == 1 and m.version.minor > 3,
        lambda: ValueError("a DLPack version newer than 1.3"))),
    "consumer.version.major-2": dict(from_dlpack=reading(lambda m: setattr(m.version, "major", 1),
                                                         only=lambda m: is_versioned(m) and m.version.major == 2)),
    "consumer.deleter.lifetime": dict(from_dlpack=answering(deleting_at_once)),
    "consumer.deleter.imported-twice": dict(from_dlpack=keeping_one_import_per_memory()),
    "consumer.copy.true": dict(from_dlpack=dropping_copy_true),
    "consumer.copy.true-producer-shares": dict(from_dlpack=lambda x, **kw: asking_itself(x, **kw)
                                               if kw.get("copy") is True else godlpack.from_dlpack(x, **kw)),
    "consumer.copy.false": dict(from_dlpack=copying_when(False)),
    "consumer.copy.false-producer-copied": dict(from_dlpack=lambda x, **kw: asking_itself(x, **kw)
                                                if kw.get("copy") is False else godlpack.from_dlpack(x, **kw)),
    "consumer.copy.none": dict(from_dlpack=copying_when(None)),
    "consumer.read_only.in": dict(write_first=write_through),
    "consumer.read_only.re-export": dict(from_dlpack=reading(with_flags(clear=READ_ONLY), only=is_versioned),
                                         write_first=refuse_write),
    "consumer.device.cpu": dict(from_dlpack=refusing_device),
    "consumer.device.other": dict(from_dlpack=cpu_only),
    "consumer.stream.cpu": dict(from_dlpack=asking(lambda kw: {**kw, "stream": 1})),
    **{f"consumer.dtype.{d.name}": _dtype_misreader(d) for d in DTYPES},
    "consumer.layout.0-d": dict(from_dlpack=reading(_as_1d_of_one, only=lambda m: m.dl_tensor.ndim == 0)),
    "consumer.layout.size-0-null-data": dict(from_dlpack=refusing(
        lambda m: not m.dl_tensor.data, lambda: BufferError("NULL data"))),
    # Column-major strides read as row-major.
    "consumer.layout.transposed": dict(from_dlpack=reading(_as_c_contiguous, only=column_major)),
    "consumer.layout.negative-strides": dict(from_dlpack=reading(
        _forwards, only=lambda m: any(s < 0 for s in strides(m) or ()))),
    # The byte offset of a forward-strided tensor dropped (Paddle reads from the data pointer).
    "consumer.layout.byte-offset": dict(from_dlpack=reading(setting(byte_offset=0), only=lambda m: (
        m.dl_tensor.byte_offset != 0 and all(s > 0 for s in strides(m) or ())))),
    # Gaps between the elements read as none.
    "consumer.layout.strided": dict(from_dlpack=reading(
        _as_c_contiguous, only=lambda m: all(s > 0 for s in strides(m) or ()) and not compact(m))),
    # DLPack 1.2's rule (strides never NULL) held against a legacy tensor, which it does not bind.
    "consumer.layout.null-strides": dict(from_dlpack=refusing(
        lambda m: m.dl_tensor.ndim > 0 and not m.dl_tensor.strides, lambda: BufferError("NULL strides"))),
    # TensorFlow's answer (an abort, there) to a data pointer off a 256-byte boundary.
    "consumer.layout.unaligned": dict(from_dlpack=refusing(unaligned, lambda: RuntimeError("unaligned data"))),
    "consumer.layout.unaligned-byte-offset": dict(from_dlpack=reading(
        _realigned, only=lambda m: unaligned(m) and m.dl_tensor.byte_offset != 0)),
    "consumer.error.propagates": dict(from_dlpack=consumer(rewrapping_buffer_error)),
    "consumer.error.not-a-producer": dict(from_dlpack=non_producer_as_runtime_error),
    "consumer.capsule.versioned-only": dict(from_dlpack=probing_legacy_first),
    # Paddle's: no deleter call for a tensor whose manager_ctx is NULL.
    "consumer.deleter.manager_ctx-null": dict(from_dlpack=not_deleting(lambda m: not m.manager_ctx)),
    # IS_COPIED taken for "the memory is yours now": deleted at once, while the array views it.
    "consumer.flags.copied": dict(from_dlpack=answering(
        lambda c: deleting_at_once(c) if copied_flag(managed(c)) else c)),
    "consumer.flags.read-only-copied": dict(from_dlpack=refusing(
        lambda m: copied_flag(m) and bool(m.flags & READ_ONLY), lambda: ValueError("a read-only copy"))),
    # stream=0 for CUDA data, which the standard disallows; a fake device holds the data (tests/support/fake_cuda).
    "consumer.stream.device": dict(from_dlpack=asking(lambda kw: {**kw, "stream": 0} if kw.get("stream") == -1 else kw),
                                   device=fake_device()),
}

FLOAT32_CONSUMER_CHECKS = {
    # Every tensor the checker's producer hands over in these checks is float32 (its VECTOR and MATRIX), and each
    # compares what the consumer imported with the capsule's dtype.
    "consumer.capsule.versioned", "consumer.capsule.legacy", "consumer.capsule.versioned-only",
    "consumer.asks.fallback", "consumer.version.newer-minor", "consumer.deleter.lifetime",
    "consumer.deleter.imported-twice", "consumer.deleter.manager_ctx-null", "consumer.copy.true",
    "consumer.copy.true-producer-shares", "consumer.copy.false", "consumer.copy.none", "consumer.flags.copied",
    "consumer.flags.read-only-copied", "consumer.read_only.in", "consumer.device.cpu", "consumer.stream.cpu",
    "consumer.layout.0-d", "consumer.layout.size-0-null-data", "consumer.layout.transposed",
    "consumer.layout.negative-strides", "consumer.layout.byte-offset", "consumer.layout.strided",
    "consumer.layout.null-strides", "consumer.layout.unaligned", "consumer.layout.unaligned-byte-offset",
}
CONSUMER_SPOILS = {
    "consumer.dtype.float32": FLOAT32_CONSUMER_CHECKS,
    # A consumer that neither passes copy=True on nor copies shares the producer's memory whatever the producer
    # does: the note's producer answers as copy.true's does when not asked for a copy.
    "consumer.copy.true": {"consumer.copy.true-producer-shares"},
    # A consumer that never asks max_version gets nothing from a producer that refuses legacy capsules.
    "consumer.asks.max_version": {"consumer.capsule.versioned-only"},
    "consumer.flags.copied": {"consumer.flags.read-only-copied"},
    "consumer.layout.byte-offset": {"consumer.layout.unaligned-byte-offset"},
    "consumer.layout.unaligned": {"consumer.layout.unaligned-byte-offset"},
}


def consumer_target(**changes: Any) -> Target:
    return dataclasses.replace(load_target("godlpack"), **changes)


def test_the_base_of_the_broken_consumers_fails_nothing() -> None:
    """godlpack.from_dlpack, and the same through a Layer that changes nothing: no check fails."""
    for from_dlpack in (godlpack.from_dlpack, consumer(), reading(lambda m: None)):
        report = run_in_process(consumer_target(from_dlpack=from_dlpack), select_checks("consumer"))
        assert outcomes(report, Outcome.FAIL) == set(), [r for r in report.results if r.outcome is Outcome.FAIL]


@pytest.mark.parametrize("check_id", sorted(BROKEN_CONSUMERS))
def test_broken_consumer_fails_exactly_its_check(check_id: str) -> None:
    report = run_in_process(consumer_target(**BROKEN_CONSUMERS[check_id]), select_checks("consumer"))
    assert_fails_exactly(report, check_id, CONSUMER_SPOILS)


def test_every_check_has_a_broken_counterpart() -> None:
    """Each check fails for a producer or consumer broken for it (test_check_device.py breaks the producer checks
    of a device with streams on a fake device)."""
    import fake_cuda

    assert set(BROKEN_PRODUCERS) | set(fake_cuda.BREAKS) == {c.id for c in select_checks("producer")}
    assert not set(BROKEN_PRODUCERS) & set(fake_cuda.BREAKS)
    assert set(BROKEN_CONSUMERS) == {c.id for c in select_checks("consumer")}
    assert all(check in BROKEN_PRODUCERS for check in PRODUCER_SPOILS)
    assert all(check in BROKEN_CONSUMERS for check in CONSUMER_SPOILS)


# ---- what the texts allow is not failed; one defect is one failure ----


def test_a_consumer_that_never_calls_a_deleter_fails_once() -> None:
    """Paddle's defect, for every tensor: consumer.deleter.lifetime names it, and every other check that saw a
    deleter never called is not applicable because of it, instead of some 40 failures none of which named it."""
    report = run_in_process(consumer_target(from_dlpack=not_deleting(lambda m: True)), select_checks("consumer"))
    assert outcomes(report, Outcome.FAIL) == {"consumer.deleter.lifetime"}
    spoiled = because_of(report, "consumer.deleter.lifetime")
    assert {"consumer.capsule.versioned", "consumer.copy.none", "consumer.dtype.int8", "consumer.layout.0-d",
            "consumer.version.major-2"} <= spoiled
    assert len(spoiled) > 30

def test_a_consumer_that_refuses_legacy_capsules_fails_once() -> None:
    """pyarrow's: it reads 'dltensor_versioned' capsules only, where the array API lets a producer answer
    max_version with another version ('the consumer must verify the version'). capsule.legacy names it; the legacy
    tensors of asks.fallback and layout.null-strides are not applicable because of it."""
    versioned_only = refusing(lambda m: not is_versioned(m), lambda: ValueError("incorrect capsule name"))
    report = run_in_process(consumer_target(from_dlpack=versioned_only), select_checks("consumer"))
    assert outcomes(report, Outcome.FAIL) == {"consumer.capsule.legacy"}
    assert because_of(report, "consumer.capsule.legacy") == {"consumer.asks.fallback", "consumer.layout.null-strides"}


def test_a_consumer_without_read_only_arrays_may_ignore_read_only() -> None:
    """The array API: 'A consumer that does not support read-only arrays should ignore this flag'. A library with
    read-only arrays that writes through one fails (the broken counterparts); one without passes."""
    target = consumer_target(readonly=None, write_first=write_through,
                             from_dlpack=reading(with_flags(clear=READ_ONLY), only=is_versioned))
    report = run_in_process(target, select_checks("consumer", "read_only"))
    assert outcomes(report, Outcome.PASS) == {"consumer.read_only.in", "consumer.read_only.re-export"}
    assert all("ignore" in r.detail for r in report.results)


def test_a_layout_refusal_passes_whatever_its_exception() -> None:
    """No text names the exception with which a consumer refuses a layout it cannot view: JAX's RuntimeError for
    strides that are not compact, MLX's ValueError for negative ones pass, as a BufferError does."""
    refusing_views = refusing(lambda m: not compact(m) or any(s < 0 for s in strides(m) or ()),
                              lambda: RuntimeError("compact strides only"))
    report = run_in_process(consumer_target(from_dlpack=refusing_views), select_checks("consumer", "layout"))
    assert outcomes(report, Outcome.FAIL) == set(), [r for r in report.results if r.outcome is Outcome.FAIL]
    assert all("refused with RuntimeError" in r.detail for r in report.results
               if r.check in ("consumer.layout.negative-strides", "consumer.layout.strided"))


def test_a_consumer_that_never_asks_max_version_fails_a_should_rule() -> None:
    """The array API says the keyword 'may not be used by consumers until a later time': the run passes, and
    fails only with --strict."""
    report = run_in_process(consumer_target(**BROKEN_CONSUMERS["consumer.asks.max_version"]), select_checks("consumer"))
    assert outcomes(report, Outcome.FAIL, "should") == {"consumer.asks.max_version"}
    assert not report.failed() and report.failed(strict=True)


def test_a_legacy_copy_refused_with_buffer_error_passes() -> None:
    """pyarrow's answer to copy=True without max_version: from March 2025 the array API lets a producer refuse a
    legacy request with BufferError. Another exception still fails."""
    refusing_legacy = when(lambda w, kw: kw == {"copy": True}, lambda w, kw: raise_(BufferError("legacy")))
    report = run_in_process(refusing_legacy.target(), select_checks("producer", "copy.true-legacy"))
    assert outcomes(report, Outcome.PASS) == {"producer.copy.true-legacy"}
    erring = when(lambda w, kw: kw == {"copy": True}, lambda w, kw: raise_(RuntimeError("legacy")))
    report = run_in_process(erring.target(), select_checks("producer", "copy.true"))
    assert outcomes(report, Outcome.FAIL) == {"producer.copy.true-legacy"}

def test_a_dtype_the_consumer_lacks_is_offered_too() -> None:
    """MLX has no complex128 and imported one as complex64 unseen, where the checker offered a consumer only its
    own dtypes (not applicable). A clear refusal passes; a silent narrowing fails (must); a refusal of a dtype
    the library has is a note."""
    lacking = {name: d for name, d in load_target("godlpack").dtypes.items() if name != "complex128"}

    def complex128(m: Any) -> bool:
        return (m.dl_tensor.dtype.code, m.dl_tensor.dtype.bits) == (5, 128)

    refusing_it = consumer_target(dtypes=lacking, from_dlpack=refusing(complex128, lambda: TypeError("complex128")))
    report = run_in_process(refusing_it, select_checks("consumer", "dtype.complex128"))
    assert outcomes(report, Outcome.PASS) == {"consumer.dtype.complex128"}
    assert "has no complex128: refused with TypeError" in report.results[0].detail
    narrowing = consumer_target(dtypes=lacking, from_dlpack=reading(labelled((5, 64, 1)), only=complex128))
    report = run_in_process(narrowing, select_checks("consumer", "dtype.complex128"))
    assert outcomes(report, Outcome.FAIL, "must") == {"consumer.dtype.complex128"}
    assert "(narrowed)" in report.results[0].detail
    # A library that has the dtype and refuses it: no text makes it import every dtype it has; a note.
    refusing_its_own = consumer_target(from_dlpack=refusing(complex128, lambda: TypeError("complex128")))
    report = run_in_process(refusing_its_own, select_checks("consumer", "dtype.complex128"))
    assert outcomes(report, Outcome.FAIL, "note") == {"consumer.dtype.complex128"}


def test_what_a_refusing_consumer_made_is_released_before_the_deleter_is_counted() -> None:
    """array_api_strict imports through NumPy, then refuses float16, a dtype the array API does not have: the
    NumPy array lived on in the traceback's frames, and the checker failed the deleter (never called)."""
    def importing_then_refusing(x: Any, **kwargs: Any) -> Any:
        imported = godlpack.from_dlpack(x, **kwargs)
        if imported.dtype == "float16":
            raise TypeError("float16 is not an array API dtype")
        return imported

    lacking = {name: d for name, d in load_target("godlpack").dtypes.items() if name != "float16"}
    report = run_in_process(consumer_target(dtypes=lacking, from_dlpack=importing_then_refusing),
                            select_checks("consumer", "dtype.float16"))
    assert outcomes(report, Outcome.PASS) == {"consumer.dtype.float16"}, report.results[0].detail


class NoSignature:
    """A consumer whose signature cannot be read (nanobind's and pybind11's functions: MLX) and that takes no
    keyword: from_dlpack(x) of the array API 2022.12."""

    __signature__ = "unreadable"  # inspect.signature raises TypeError

    def __call__(self, x: Any, **kwargs: Any) -> Any:
        if kwargs:
            raise TypeError("from_dlpack(): incompatible function arguments")
        return godlpack.from_dlpack(x)


def test_a_consumer_without_the_2023_keywords_is_a_difference() -> None:
    """Where the signature cannot be read, a TypeError raised before the producer was called says that the
    keyword is not taken: the older signature, a difference, as for a signature that shows it."""
    report = run_in_process(consumer_target(from_dlpack=NoSignature()), select_checks("consumer"))
    assert outcomes(report, Outcome.FAIL) == set(), [r for r in report.results if r.outcome is Outcome.FAIL]
    assert {"consumer.copy.true", "consumer.copy.false", "consumer.device.cpu"} <= outcomes(report, Outcome.DIFFERENCE)


def test_every_check_has_a_level_and_the_words_of_its_rule() -> None:
    for c in select_checks():
        assert c.level in ("must", "should", "note"), c.id
        assert "'" in c.rule or '"' in c.rule, f"{c.id}: the rule quotes no text"


# ---- the checker's own modules ----


def checker_imports() -> dict[str, set[str]]:
    """Which of godlpack.check's modules each of them imports, at its top or inside a function (an import for the
    type checker alone, under `if TYPE_CHECKING:`, runs nothing)."""
    import ast
    from pathlib import Path

    import godlpack.check

    folder = Path(godlpack.check.__file__).parent
    modules = {path.stem for path in folder.glob("_*.py") if path.stem != "__init__"}
    graph: dict[str, set[str]] = {}
    for name in modules:
        edges = graph.setdefault(name, set())
        tree = ast.parse((folder / f"{name}.py").read_text())
        typing_only = {id(inner) for node in ast.walk(tree) if isinstance(node, ast.If)
                       and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING"
                       for inner in ast.walk(node)}
        for node in ast.walk(tree):
            if id(node) in typing_only:
                continue
            if isinstance(node, ast.ImportFrom):
                source = "." * node.level + (node.module or "")
                if source in ("godlpack.check", "."):  # from godlpack.check import _consumer
                    edges |= {alias.name for alias in node.names if alias.name in modules}
                else:
                    edges |= {source.rsplit(".", 1)[-1]} & modules
            elif isinstance(node, ast.Import):
                edges |= {alias.name.rsplit(".", 1)[-1] for alias in node.names
                          if alias.name.startswith("godlpack.check.")} & modules
    return graph


def test_the_checker_modules_import_one_way() -> None:
    """No import circle among godlpack.check's modules (lazy imports inside functions count): the targets are one
    explicit table (_adapters.ADAPTERS) that nothing registers into as a side effect of an import."""
    graph = checker_imports()
    assert "_adapters" not in graph["_target"]

    def circle_from(start: str, path: tuple[str, ...]) -> Optional[tuple[str, ...]]:
        for nxt in sorted(graph[path[-1]]):
            if nxt == start:
                return path + (nxt,)
            if nxt not in path:
                found = circle_from(start, path + (nxt,))
                if found:
                    return found
        return None

    circles = [c for c in (circle_from(name, (name,)) for name in sorted(graph)) if c]
    assert not circles, " -> ".join(circles[0])


# ---- the adapters (their libraries are not in the test extras: skipped where absent) ----


def test_pyarrow_is_checked_as_a_consumer() -> None:
    """pyarrow was 'no from_dlpack' while pa.Tensor.from_dlpack and pa.Array.from_dlpack exist."""
    pa = pytest.importorskip("pyarrow")
    target = load_target("pyarrow")
    assert target.from_dlpack == pa.Tensor.from_dlpack
    report = run_in_process(target, select_checks("consumer", "copy.none"))
    assert outcomes(report, Outcome.PASS) == {"consumer.copy.none"}


def test_jax_arrays_are_read_only() -> None:
    """Every JAX array is immutable: the producer checks of read-only arrays apply to all of them."""
    pytest.importorskip("jax")
    target = load_target("jax.numpy")
    assert target.immutable and target.readonly is target.make and target.write_first is None
