"""godlpack.check, the conformance checker (docs/check.md): against godlpack, NumPy and PyTorch, against producers and
consumers broken on purpose (each must fail exactly its own check), and its command line with a library that
crashes."""

from __future__ import annotations

import ctypes
import dataclasses
import json
import subprocess
import sys
from typing import Any, Callable, Iterator

import pytest

import godlpack
from godlpack.check import Outcome, Report, Target, load_target, run_in_process, select_checks
from godlpack.check._dlpack import IS_COPIED, READ_ONLY, DLManagedTensorVersioned, _api, capsule_name

# Where godlpack follows one text of the standards and the checker reports the other: every other check passes.
# consumer.error.not-a-producer: godlpack raises TypeError for an object without __dlpack__ (docs/protocol.md,
# "Errors: which exception") where the array API's from_dlpack names AttributeError in its Raises section, whose
# types its Exceptions page makes guidance ("should rather than must").
GODLPACK_OUTCOMES = {"consumer.error.not-a-producer": Outcome.DIFFERENCE}


@pytest.fixture(scope="module")
def godlpack_report() -> Report:
    return run_in_process(load_target("godlpack"), select_checks())


@pytest.mark.parametrize("check_id", [c.id for c in select_checks()])
def test_godlpack_passes_every_check(godlpack_report: Report, check_id: str) -> None:
    result = next(r for r in godlpack_report.results if r.check == check_id)
    expected = GODLPACK_OUTCOMES.get(check_id, Outcome.PASS)
    assert result.outcome is expected, f"{check_id}: {result.outcome.value}: {result.detail}"


def outcomes(report: Report, outcome: Outcome) -> set[str]:
    return {r.check for r in report.results if r.outcome is outcome}


def test_numpy_as_measured() -> None:
    """NumPy 2: every producer rule holds but the CPU stream rule it reads strictly; as a consumer it takes copy=True
    answered with shared memory, IS_COPIED under copy=False, and refuses CUDA memory with RuntimeError."""
    report = run_in_process(load_target("numpy"), select_checks())
    assert outcomes(report, Outcome.DIFFERENCE) == {"producer.stream.minus-one"}
    assert outcomes(report, Outcome.FAIL) == {
        "consumer.copy.true-producer-shares", "consumer.copy.false-producer-copied", "consumer.device.other",
    }


def test_torch_as_measured() -> None:
    """PyTorch's documented deviations (docs/protocol.md#numpy-and-pytorch-producing and -consuming) are found."""
    report = run_in_process(load_target("torch"), select_checks())
    failed = outcomes(report, Outcome.FAIL)
    assert {"producer.copy.true", "consumer.read_only.in", "consumer.layout.negative-strides",
            "consumer.error.not-a-producer"} <= failed  # RuntimeError for an object without __dlpack__
    assert {r.check for r in report.results if r.check.startswith("producer.exchange.")} <= outcomes(report, Outcome.PASS)


# ---- producers broken on purpose: each fails exactly its check ----


class Wrapped:
    """A godlpack Tensor behind a class of its own (no exchange API), whose __dlpack__ a test breaks."""

    def __init__(self, inner: Any, target: "Breakable") -> None:
        self.inner = inner
        self.target = target

    def __dlpack__(self, **kwargs: Any) -> Any:
        return self.target.broken_export(self, kwargs)

    def __dlpack_device__(self) -> Any:
        return self.target.broken_device(self)


@dataclasses.dataclass
class Breakable:
    """godlpack's target with its arrays wrapped; break_export(x, kwargs, capsule_maker) is the broken __dlpack__."""

    export: Callable[[Wrapped, dict[str, Any]], Any]
    device: Callable[[Wrapped], Any] = lambda w: w.inner.__dlpack_device__()

    def broken_export(self, w: Wrapped, kwargs: dict[str, Any]) -> Any:
        return self.export(w, kwargs)

    def broken_device(self, w: Wrapped) -> Any:
        return self.device(w)

    def target(self) -> Target:
        base = load_target("godlpack")

        def wrap(f: Callable[..., Any]) -> Callable[..., Any]:
            return lambda *args: Wrapped(f(*(a.inner if isinstance(a, Wrapped) else a for a in args)), self)

        assert base.readonly is not None and base.cpu_accessible is not None
        cpu_accessible = base.cpu_accessible
        return dataclasses.replace(
            base, make=wrap(base.make), readonly=wrap(base.readonly), transpose=wrap(base.transpose),
            reverse=wrap(base.reverse), offset=wrap(base.offset), every_other_column=wrap(base.every_other_column),
            cpu_accessible=lambda: (Wrapped(cpu_accessible()[0], self), cpu_accessible()[1]),
        )


def real(w: Wrapped, **kwargs: Any) -> Any:
    return w.inner.__dlpack__(**kwargs)


def managed(capsule: Any) -> Any:
    return DLManagedTensorVersioned.from_address(_api.PyCapsule_GetPointer(capsule, capsule_name(capsule).encode()))


def mutated(capsule: Any, change: Callable[[Any], None]) -> Any:
    change(managed(capsule))
    return capsule


def when(condition: Callable[[Wrapped, dict[str, Any]], bool], broken: Callable[[Wrapped, dict[str, Any]], Any]) -> Breakable:
    return Breakable(lambda w, kw: broken(w, kw) if condition(w, kw) else real(w, **kw))


def asked(**wanted: Any) -> Callable[[Wrapped, dict[str, Any]], bool]:
    return lambda w, kw: all(kw.get(k, "absent") == v for k, v in wanted.items())


def raise_(error: BaseException) -> Any:
    raise error


# (the real capsule, renamed; the one without a destructor handed out in its place)
_SWAPPED: list[tuple[Any, Any]] = []
_NAMES = {"dltensor": (b"dltensor", b"used_dltensor"),
          "dltensor_versioned": (b"dltensor_versioned", b"used_dltensor_versioned")}


def without_destructor(capsule: Any) -> Any:
    """A second capsule over the same tensor, with no destructor; the real one is kept aside, renamed."""
    name, used = _NAMES[capsule_name(capsule)]
    pointer = _api.PyCapsule_GetPointer(capsule, name)
    _api.PyCapsule_SetName(capsule, used)
    swapped = _api.PyCapsule_New(pointer, name, None)
    _SWAPPED.append((capsule, swapped))
    return swapped


def release_swapped() -> None:
    """What a test's broken capsules leaked is deleted by the real capsules' destructors."""
    for real_capsule, swapped in _SWAPPED:
        if not capsule_name(swapped).startswith("used_"):
            _api.PyCapsule_SetName(real_capsule, _NAMES[capsule_name(swapped)][0])
    _SWAPPED.clear()


def plain_1d(w: Wrapped) -> bool:
    return w.inner.shape == (6,) and w.inner.strides == (1,) and not w.inner.readonly


BROKEN_PRODUCERS: dict[str, Breakable] = {
    "producer.max_version.absent": when(lambda w, kw: kw == {} and not w.inner.readonly,
                                        lambda w, kw: real(w, max_version=(1, 3))),
    "producer.max_version.0.x": when(asked(max_version=(0, 8)), lambda w, kw: real(w, max_version=(1, 3))),
    "producer.max_version.1.0": when(asked(max_version=(1, 0)),
                                     lambda w, kw: mutated(real(w, **kw), lambda m: setattr(m.version, "major", 2))),
    "producer.max_version.2.0": when(asked(max_version=(2, 0)), lambda w, kw: raise_(BufferError("no 2.0"))),
    "producer.capsule.destructor-unconsumed": Breakable(lambda w, kw: without_destructor(real(w, **kw))),
    "producer.dlpack_device.answer": Breakable(lambda w, kw: real(w, **kw), device=lambda w: (1, None)),
    "producer.dl_device.own": when(lambda w, kw: kw.get("dl_device") == (1, 0) and w.inner.device == (1, 0),
                                   lambda w, kw: real(w, max_version=(1, 3), copy=True)),
    "producer.dl_device.cpu": when(lambda w, kw: kw.get("dl_device") == (1, 0) and w.inner.device == (3, 0),
                                   lambda w, kw: real(w, max_version=(1, 3))),
    "producer.dl_device.other": when(asked(dl_device=(2, 0)), lambda w, kw: raise_(RuntimeError("no CUDA"))),
    "producer.stream.none": when(asked(stream=None), lambda w, kw: raise_(TypeError("stream"))),
    "producer.stream.cpu-int": when(asked(stream=1), lambda w, kw: real(w, max_version=(1, 3))),
    "producer.copy.true": when(lambda w, kw: kw.get("copy") is True and kw.get("max_version") and not w.inner.readonly,
                               lambda w, kw: mutated(real(w, **kw), lambda m: setattr(m, "flags", m.flags & ~IS_COPIED))),
    "producer.copy.true-writable": when(
        lambda w, kw: kw.get("copy") is True and kw.get("max_version") and not w.inner.readonly,
        lambda w, kw: mutated(real(w, **kw), lambda m: setattr(m, "flags", m.flags | READ_ONLY))),
    "producer.copy.true-of-read-only": when(
        lambda w, kw: kw.get("copy") is True and w.inner.readonly,
        lambda w, kw: mutated(real(w, **kw), lambda m: setattr(m, "flags", m.flags | READ_ONLY))),
    "producer.copy.true-legacy": when(lambda w, kw: kw == {"copy": True}, lambda w, kw: real(w)),
    "producer.copy.false": when(asked(copy=False), lambda w, kw: real(w, max_version=(1, 3), copy=True)),
    "producer.copy.none": when(asked(copy=None),
                               lambda w, kw: mutated(real(w, **kw), lambda m: setattr(m, "flags", m.flags | IS_COPIED))),
    "producer.read_only.flag": when(
        lambda w, kw: w.inner.readonly and kw == {"max_version": (1, 3)},
        lambda w, kw: mutated(real(w, **kw), lambda m: setattr(m, "flags", m.flags & ~READ_ONLY))),
    "producer.read_only.writable-clear": when(
        lambda w, kw: kw == {"max_version": (1, 3)} and plain_1d(w),
        lambda w, kw: mutated(real(w, **kw), lambda m: setattr(m, "flags", m.flags | READ_ONLY))),
    "producer.layout.c-contiguous": when(
        lambda w, kw: w.inner.shape == (2, 3) and w.inner.strides == (3, 1),
        lambda w, kw: mutated(real(w, **kw), lambda m: (m.dl_tensor.strides.__setitem__(0, 1),
                                                        m.dl_tensor.strides.__setitem__(1, 2)))),
    "producer.layout.size-0": when(
        lambda w, kw: w.inner.shape == (2, 0),
        lambda w, kw: mutated(real(w, **kw), lambda m: (m.dl_tensor.shape.__setitem__(0, 0),
                                                        m.dl_tensor.shape.__setitem__(1, 2)))),
    "producer.layout.transposed": when(
        lambda w, kw: w.inner.shape == (3, 2),
        lambda w, kw: mutated(real(w, **kw), lambda m: (m.dl_tensor.strides.__setitem__(0, 2),
                                                        m.dl_tensor.strides.__setitem__(1, 1)))),
    "producer.layout.negative-strides": when(
        lambda w, kw: w.inner.strides == (-1,),
        lambda w, kw: mutated(real(w, **kw), lambda m: m.dl_tensor.shape.__setitem__(0, 5))),
    "producer.layout.byte-offset": when(
        lambda w, kw: w.inner.shape == (4,),
        lambda w, kw: mutated(real(w, **kw), lambda m: setattr(m.dl_tensor, "byte_offset", 4))),
    "producer.layout.strided": when(
        lambda w, kw: w.inner.shape == (2, 2) and w.inner.strides == (3, 2),
        lambda w, kw: mutated(real(w, **kw), lambda m: m.dl_tensor.strides.__setitem__(1, 1))),
    "producer.dtype.int16": when(
        lambda w, kw: w.inner.dtype == "int16",
        lambda w, kw: mutated(real(w, **kw), lambda m: setattr(m.dl_tensor.dtype, "code", 1))),
    "producer.dtype.complex64": when(
        lambda w, kw: w.inner.dtype == "complex64",
        lambda w, kw: mutated(real(w, **kw), lambda m: setattr(m.dl_tensor.dtype, "bits", 32))),
}


@pytest.mark.parametrize("check_id", sorted(BROKEN_PRODUCERS))
def test_broken_producer_fails_exactly_its_check(check_id: str) -> None:
    report = run_in_process(BROKEN_PRODUCERS[check_id].target(), select_checks("producer"))
    failed = outcomes(report, Outcome.FAIL)
    assert failed == {check_id}, {r.check: r.detail for r in report.results if r.check in failed}


# ---- consumers broken on purpose ----


def conforming(x: Any, **kwargs: Any) -> Any:
    """godlpack.from_dlpack with the error kind the array API names for a non-producer (see GODLPACK_OUTCOMES)."""
    if not hasattr(type(x), "__dlpack__") and type(x).__name__ != "PyCapsule":
        raise AttributeError(f"{type(x).__name__} has no __dlpack__")
    return godlpack.from_dlpack(x, **kwargs)


def non_producer_as_runtime_error(x: Any, **kwargs: Any) -> Any:
    if not hasattr(type(x), "__dlpack__") and type(x).__name__ != "PyCapsule":
        raise RuntimeError("from_dlpack received an invalid capsule")  # PyTorch's answer
    return godlpack.from_dlpack(x, **kwargs)


def first_call(x: Any, **kwargs: Any) -> Any:
    try:
        return x.__dlpack__(max_version=(1, 3), **{k: v for k, v in kwargs.items() if k == "copy"})
    except TypeError:  # a producer from before the keywords
        return x.__dlpack__()


_CACHE: dict[int, Any] = {}


def caching(x: Any, **kwargs: Any) -> Any:
    """Takes a second tensor over memory it imported before, and never calls that tensor's deleter."""
    capsule = first_call(x, **kwargs)
    data = managed(capsule).dl_tensor.data
    if data in _CACHE:
        _api.PyCapsule_SetName(capsule, b"used_dltensor_versioned")
        return _CACHE[data]
    result = godlpack.from_dlpack(capsule)
    _CACHE.clear()
    _CACHE[data] = result
    return result


def stripped_read_only(x: Any, **kwargs: Any) -> Any:
    capsule = first_call(x, **kwargs)
    if capsule_name(capsule) == "dltensor_versioned":
        managed(capsule).flags &= ~READ_ONLY
    return godlpack.from_dlpack(capsule)


def write_through(x: Any, value: Any) -> None:
    """Writes the first element whatever the Tensor says (a consumer that ignores READ_ONLY)."""
    ctypes.c_uint8.from_address(x.data_ptr()).value = 1


def refuse_write(x: Any, value: Any) -> None:
    raise TypeError("read-only")


BROKEN_CONSUMERS: dict[str, dict[str, Any]] = {
    "consumer.copy.true-producer-shares": dict(
        from_dlpack=lambda x, **kw: conforming(first_call(x, **kw)) if kw.get("copy") else conforming(x, **kw)),
    "consumer.copy.false-producer-copied": dict(
        from_dlpack=lambda x, **kw: conforming(first_call(x, **kw)) if kw.get("copy") is False else conforming(x, **kw)),
    "consumer.read_only.in": dict(from_dlpack=conforming, write_first=write_through),
    "consumer.read_only.re-export": dict(
        from_dlpack=lambda x, **kw: stripped_read_only(x, **kw) if not kw else conforming(x, **kw), write_first=refuse_write),
    "consumer.error.propagates": dict(
        from_dlpack=lambda x, **kw: _rewrap(lambda: conforming(x)) if not kw else conforming(x, **kw)),
    "consumer.error.not-a-producer": dict(from_dlpack=non_producer_as_runtime_error),
    "consumer.device.other": dict(from_dlpack=lambda x, **kw: _cpu_only(conforming(x, **kw))),
}


def _rewrap(call: Callable[[], Any]) -> Any:
    try:
        return call()
    except BufferError as error:
        raise RuntimeError(str(error)) from None


def _cpu_only(result: Any) -> Any:
    if result.device != (1, 0):
        raise RuntimeError("only CPU data")
    return result


def _major_ignored(x: Any, **kwargs: Any) -> Any:
    capsule = first_call(x, **kwargs)
    m = managed(capsule)
    if m.version.major == 2:
        m.version.major = 1  # reads the fields of a 2.0 tensor as 1.x
    return godlpack.from_dlpack(capsule, **{k: v for k, v in kwargs.items() if k == "device"})


def consumer_target(**changes: Any) -> Target:
    return dataclasses.replace(load_target("godlpack"), **{"from_dlpack": conforming, **changes})


def test_conforming_consumer_passes() -> None:
    """The base of the broken consumers below passes every consumer check."""
    report = run_in_process(consumer_target(), select_checks("consumer"))
    assert outcomes(report, Outcome.FAIL) == set(), [r for r in report.results if r.outcome is Outcome.FAIL]


@pytest.mark.parametrize("check_id", sorted(BROKEN_CONSUMERS))
def test_broken_consumer_fails_exactly_its_check(check_id: str) -> None:
    report = run_in_process(consumer_target(**BROKEN_CONSUMERS[check_id]), select_checks("consumer"))
    failed = outcomes(report, Outcome.FAIL)
    assert failed == {check_id}, {r.check: r.detail for r in report.results if r.check in failed}


# ---- the command line ----


def crashing_target() -> Target:
    """NumPy, except that exporting a 0-d array crashes the process (a NULL read)."""
    numpy = load_target("numpy")
    export = numpy.export

    def crash(x: Any, **kwargs: Any) -> Any:
        if len(x.shape) == 0:
            ctypes.memset(0, 0, 1)  # a write to NULL: SIGSEGV
        return export(x, **kwargs)

    return dataclasses.replace(numpy, name="crashing", export=crash)


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    """The checker's command line in a child that imports this module (for test_check:crashing_target)."""
    import os
    from pathlib import Path

    here = str(Path(__file__).resolve().parent)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([here, os.environ.get("PYTHONPATH", "")]))
    return subprocess.run([sys.executable, "-m", "godlpack.check", *args], capture_output=True, text=True,
                          timeout=300, env=env)


def test_cli_reports_a_crash_as_a_failed_check_and_goes_on(tmp_path: Any) -> None:
    out = tmp_path / "r.json"
    done = run_cli("test_check:crashing_target", "--only", "producer", "-k", "layout", "--json", str(out))
    assert done.returncode == 1, done.stderr
    data = json.loads(out.read_text())
    results = {r["check"]: r for r in data["targets"][0]["results"]}
    assert results["producer.layout.0-d"]["outcome"] == "fail"
    assert "SIGSEGV" in results["producer.layout.0-d"]["detail"]
    assert all(r["outcome"] == "pass" for c, r in results.items() if c != "producer.layout.0-d")
    assert "FAIL" in done.stdout and "producer.layout.0-d" in done.stdout


def test_cli_exit_status_and_selection() -> None:
    done = run_cli("godlpack", "-k", "producer.copy", "--json", "-")
    assert done.returncode == 0, done.stdout + done.stderr
    data = json.loads(done.stdout)
    checks = [r["check"] for r in data["targets"][0]["results"]]
    assert checks and all(c.startswith("producer.copy") for c in checks)
    assert run_cli("no_such_module_here").returncode == 2


@pytest.fixture(autouse=True)
def _forget_cache() -> Iterator[None]:
    yield
    _CACHE.clear()
    release_swapped()
