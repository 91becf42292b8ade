"""The producer checks: a library's arrays' __dlpack__ and __dlpack_device__, and its type's exchange API."""

from __future__ import annotations

import ctypes
import gc
import os
from typing import Any, Callable, Optional, cast

from godlpack.check import _exchange as exchange
from godlpack.check._device import RULE_STREAM, device_name, host_readable, read_device_elements, reading_stream
from godlpack.check._dlpack import IS_COPIED, READ_ONLY, Decoded, contiguous_strides, decode_dltensor, decode_managed
from godlpack.check._model import VERDICTS, Check, describe_exception, registrar
from godlpack.check._verdicts import Difference, Failed, NotApplicable
from godlpack.check._taking import Taken, version_text
from godlpack.check._target import DeviceArrays, Target
from godlpack.check._values import (
    DTYPES,
    FLOAT32,
    DType,
    expected_elements,
    flatten,
    read_elements,
    sample_values,
    shape_of,
    show,
)

VECTOR = [0.0, 1.0, 2.0, 3.0, 4.0, 5.0]
MATRIX = [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]
CUDA = (2, 0)

CHECKS: list[Check] = []


check = registrar("producer", CHECKS)


# ---- reading what the producer hands over ----


RULE_OTHER_MAJOR = (
    "array API __dlpack__, the producer's logic: for a consumer at another major version, 'did we keep an "
    "implementation of the older major version around? ... If so, use that. Else, the producer should raise a "
    "BufferError'"
)
# What a tensor is: wrong values are a failure of the check's must rule, whatever the level of the check's own.
RULE_TENSOR = (
    "dlpack.h DLTensor: data, dtype, shape, strides ('in number of elements, not bytes') and byte_offset ('The "
    "offset in bytes to the beginning pointer to data') describe the array's elements"
)


def readable_version(d: Decoded, judging_version: bool = False) -> None:
    """Raise unless d is a tensor whose fields can be read: legacy, or of major version 1.

    dlpack.h says of a tensor of another major version that 'It is not safe to access any other fields': it fails
    the checks that judge the version a producer answers (judging_version, the max_version checks: the standard
    asks a BufferError rather than another major version) and leaves nothing for the others to judge
    (NotApplicable), so that one wrong version is one failure.
    """
    if not d.versioned or d.version is None or d.version[0] == 1:
        return
    if judging_version:
        raise Failed(f"major version {d.version[0]} in a 'dltensor_versioned' capsule", level="should",
                     rule=RULE_OTHER_MAJOR)
    raise NotApplicable(f"the capsule holds a DLPack {d.version[0]}.{d.version[1]} tensor, whose fields dlpack.h says "
                        "it 'is not safe to access' (the max_version checks fail for it)")


def structural_faults(d: Decoded) -> list[str]:
    """What makes a decoded tensor of a readable version unreadable as DLPack describes it."""
    faults = []
    if d.ndim < 0:
        faults.append(f"ndim {d.ndim}")
    if d.ndim > 0 and d.shape is None:
        faults.append("shape is NULL with ndim > 0")
    if d.ndim > 0 and d.strides is None and d.versioned and d.version is not None and d.version >= (1, 2):
        faults.append(f"strides are NULL with ndim > 0 in a {d.version[0]}.{d.version[1]} tensor (DLPack 1.2+ requires them)")
    return faults


# Elements a check did not read: they are in device memory and no runtime of that device is here. None, where a
# list of each element's bytes is expected.
Elements = Optional[list[bytes]]


def elements_of(target: Target, d: Decoded, stream: Any = None) -> Elements:
    """The bytes of every element d describes, in C order, read as a consumer that passed `stream` to __dlpack__
    reads them: on the host for memory the host reads, through the device's runtime on the consumer's stream for
    device memory, and not at all (None) where there is no runtime: device memory is never read on the host."""
    if host_readable(d.device):
        return read_elements(d)
    runtime = target.runtime_for(d.device)
    if runtime is None:
        return None
    return read_device_elements(runtime, d, reading_stream(d.device[0], stream))


def read(target: Target, x: Any, judging_version: bool = False, **kwargs: Any) -> tuple[Decoded, Elements]:
    """Export x with kwargs, read every field and element (see elements_of), then consume the capsule and call
    its deleter once.

    judging_version: the check judges the version of the answer (see readable_version).
    """
    taken = Taken(target.export(x, **kwargs))
    try:
        readable_version(taken.decoded, judging_version)
        faults = structural_faults(taken.decoded)
        if faults:
            raise Failed("; ".join(faults), level="must", rule=RULE_TENSOR)
        return taken.decoded, elements_of(target, taken.decoded, kwargs.get("stream"))
    finally:
        taken.consume()
        taken.delete()
        taken.drop_capsule()


def holds(d: Decoded, elements: Elements, values: Any, dtype: DType = FLOAT32) -> str:
    """Fail unless the tensor has the shape and the elements of nested list values in dtype; its description.

    A wrong dtype is the failure of that dtype's own check (producer.dtype.<name>) wherever it is seen: the other
    checks that see it are not applicable because of it (Failed.cause).
    """
    shape = shape_of(values)
    if d.dtype != dtype.triple:
        raise Failed(f"dtype (code, bits, lanes) {d.dtype}, expected {dtype.triple} for {dtype.name}", level="must",
                     rule=dtype.rule, cause=f"producer.dtype.{dtype.name}")
    if tuple(d.shape or ()) != shape:
        raise Failed(f"shape {d.shape}, expected {shape}", level="must", rule=RULE_TENSOR)
    described = f"shape {d.shape}, strides {d.strides}, byte_offset {d.byte_offset}"
    if elements is None:
        return described + f"; elements not read: no runtime for {device_name(d.device)} here"
    expected = expected_elements(dtype, flatten(values)) if shape != (0,) else []
    if expected is not None and elements != expected:
        raise Failed(f"elements {show(elements, dtype)}, expected {show(expected, dtype)} (strides {d.strides}, "
                     f"byte_offset {d.byte_offset})", level="must", rule=RULE_TENSOR)
    return described


def plain(target: Target) -> Any:
    return target.array(VECTOR)


def made(what: str, make: Callable[[], Any]) -> Any:
    """make(), where a failure is the adapter's limit, not the library's DLPack: NotApplicable."""
    try:
        return make()
    except VERDICTS:
        raise
    except Exception as error:
        raise NotApplicable(f"could not make {what}: {describe_exception(error)}")


def readonly_array(target: Target) -> Any:
    readonly = target.readonly
    if readonly is None:
        raise NotApplicable(f"{target.name} has no read-only arrays (or no adapter makes one)")
    return made("a read-only array", lambda: readonly(VECTOR, target.dtype("float32")))


def data_of(d: Decoded) -> int:
    return d.data + d.byte_offset


# ---- max_version negotiation and the capsules it gives ----

RULE_LEGACY = (
    "array API __dlpack__: 'It is recommended for the producer to use this logic': 'if max_version is None: Keep "
    "and use the DLPack 0.X implementation' ('from March 2025 onwards ... it's okay to raise BufferError here'); "
    "DLPack Python spec: the capsule is named \"dltensor\""
)


@check("max_version.absent", "capsules and max_version", RULE_LEGACY, "should")
def max_version_absent(target: Target) -> str:
    try:
        d, elements = read(target, plain(target), judging_version=True)
    except BufferError as error:
        return f"refused a legacy capsule with BufferError, as the array API allows from March 2025 ({error})"
    if d.versioned:
        raise Failed("__dlpack__() without max_version returned a 'dltensor_versioned' capsule to a legacy consumer")
    return f"legacy capsule; {holds(d, elements, VECTOR)}"


@check("max_version.0.x", "capsules and max_version", RULE_OTHER_MAJOR, "should")
def max_version_0(target: Target) -> str:
    try:
        d, elements = read(target, plain(target), judging_version=True, max_version=(0, 8))
    except BufferError as error:
        return f"refused with BufferError ({error})"
    if d.versioned:
        raise Failed("max_version=(0, 8) was answered with a 'dltensor_versioned' capsule, which a 0.x consumer "
                     "cannot read")
    return f"legacy capsule; {holds(d, elements, VECTOR)}"


def versioned_answer(target: Target, max_version: tuple[int, int]) -> str:
    d, elements = read(target, plain(target), judging_version=True, max_version=max_version)
    if not d.versioned:
        return f"a legacy 'dltensor' capsule ('or of a different version'); {holds(d, elements, VECTOR)}"
    return f"{version_text(d)}; {holds(d, elements, VECTOR)}"


RULE_MAX_VERSION = (
    "array API __dlpack__: max_version is 'the maximum DLPack version that the consumer supports'; 'This method "
    "may return a capsule of version max_version (recommended if it does support that), or of a different "
    "version'; DLPack Python spec: 'The producer must set the PyCapsule name to \"dltensor\"' (with a "
    "'_versioned' suffix for DLManagedTensorVersioned), and the tensor is what the array holds"
)


@check("max_version.1.0", "capsules and max_version", RULE_MAX_VERSION)
def max_version_1_0(target: Target) -> str:
    return versioned_answer(target, (1, 0))


@check("max_version.1.3", "capsules and max_version", RULE_MAX_VERSION)
def max_version_1_3(target: Target) -> str:
    return versioned_answer(target, (1, 3))


@check(
    "max_version.2.0", "capsules and max_version",
    "array API __dlpack__: 'if max_version >= our_own_dlpack_version: Consumer understands us, just return a "
    "Capsule with our max version'; DLPack Python spec: 'The producer must set the PyCapsule name'",
)
def max_version_2_0(target: Target) -> str:
    return versioned_answer(target, (2, 0))


def each_capsule(target: Target, judge: Callable[[Taken, Optional[tuple[int, int]]], str]) -> str:
    """judge(taken, max_version) on the capsules of a plain array that max_version None (legacy) and (1, 3) ask
    for, where the producer makes one: what it saw of each."""
    seen = []
    for max_version in (None, (1, 3)):
        try:
            taken = Taken(target.export(plain(target), max_version=max_version))
        except (BufferError, TypeError) as error:
            seen.append(f"{max_version}: not exported ({describe_exception(error)})")
            continue
        seen.append(f"{version_text(taken.decoded)}: {judge(taken, max_version)}")
    return "; ".join(seen)


# The memory test of a destructor that never calls the managed tensor's deleter through its field: arrays of
# LEAK_BYTES, LEAK_ROUNDS of them exported and dropped unconsumed, after as many again to warm the allocator up.
LEAK_BYTES = 4 << 20
LEAK_ROUNDS = 8


def resident_bytes() -> Optional[int]:
    """This process's resident memory (Linux's /proc/self/statm), or None where it cannot be read."""
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return None


def memory_released(target: Target, max_version: Optional[tuple[int, int]]) -> str:
    """Fail unless dropping unconsumed capsules of large arrays (and the arrays) gives their memory back: what
    dlpack.h's deleter is for, judged where the destructor frees the tensor by another path than the deleter field
    the checker watches (JAX's legacy capsules). What was measured."""
    values = [float(i) for i in range(LEAK_BYTES // 4)]
    size = LEAK_ROUNDS * LEAK_BYTES

    def drop_rounds() -> None:
        for _ in range(LEAK_ROUNDS):
            x = target.array(values)
            capsule = target.export(x, max_version=max_version)
            del x, capsule
            gc.collect()

    drop_rounds()  # the allocator's and the library's caches reach their size
    before = resident_bytes()
    drop_rounds()
    after = resident_bytes()
    if before is None or after is None:
        raise NotApplicable("the deleter was never called, and this system does not say how much memory the "
                            "process holds (/proc/self/statm)")
    grown = after - before
    measured = (f"resident memory grew {grown / 2**20:.0f} MB while {LEAK_ROUNDS} unconsumed capsules of "
                f"{LEAK_BYTES >> 20} MB arrays were dropped")
    if grown > size // 2:
        raise Failed(f"the destructor never called the deleter and the memory stays: {measured}")
    return f"the destructor frees the tensor without its deleter field (the checker's watch saw no call); {measured}"


@check(
    "capsule.destructor-unconsumed", "capsules and max_version",
    "DLPack Python spec: the producer must 'set PyCapsule_Destructor that calls the deleter of the DLManagedTensor "
    "when the \"dltensor\"-named capsule is no longer needed' (judged by the deleter's calls, or, where the "
    "destructor frees the tensor by another path, by whether the memory is released)",
)
def destructor_unconsumed(target: Target) -> str:
    def judge(taken: Taken, max_version: Optional[tuple[int, int]]) -> str:
        if not taken.has_deleter:
            return "NULL deleter (allowed), nothing to call"
        taken.drop_capsule()
        if taken.calls == 0:
            return memory_released(target, max_version)
        if taken.calls != 1:
            raise Failed(f"{version_text(taken.decoded)} dropped unconsumed: its destructor called the managed "
                         f"tensor's deleter {taken.calls} times, not once")
        return "deleter ran once"

    return each_capsule(target, judge)


@check(
    "capsule.destructor-consumed", "capsules and max_version",
    "DLPack Python spec: the consumer renames the capsule \"used_dltensor\" 'to ensure that PyCapsule_Destructor "
    "will not get called'; the deleter is then the consumer's to call",
)
def destructor_consumed(target: Target) -> str:
    def judge(taken: Taken, max_version: Optional[tuple[int, int]]) -> str:
        taken.consume()
        taken.drop_capsule()
        if taken.calls:
            raise Failed(f"{version_text(taken.decoded)}, renamed 'used_…' by its consumer, called the deleter "
                         "from its destructor")
        taken.delete()
        gc.collect()
        if taken.has_deleter and cast(int, taken.calls) != 1:  # (the consumer's call changed it)
            raise Failed(f"the deleter ran {taken.calls} times after the consumer's one call")
        return "left to the consumer"

    return each_capsule(target, judge)


@check(
    "capsule.outlives-array", "capsules and max_version",
    "DLPack Python spec: 'The producer keeps owning the memory of x'; dlpack.h DLManagedTensor: 'When the "
    "borrowing framework doesn't need the tensor, it should call the deleter to notify the host that the resource "
    "is no longer needed': until then the memory stays",
)
def outlives_array(target: Target) -> str:
    x = target.array(VECTOR)
    taken = Taken(target.export(x, max_version=(1, 3)))
    taken.consume()
    try:
        readable_version(taken.decoded)
        del x
        gc.collect()
        # Arrays of the same size made now would reuse the memory if the producer had freed it.
        churn = [target.array([9.0] * len(VECTOR)) for _ in range(8)]
        elements = elements_of(target, taken.decoded)
        del churn
    finally:
        taken.delete()
        taken.drop_capsule()
    return holds(taken.decoded, elements, VECTOR) + "; the data stayed after the array was dropped"


# ---- __dlpack_device__ and dl_device ----


@check(
    "dlpack_device.answer", "devices and streams",
    "array API __dlpack_device__: 'Returns device type and device ID in DLPack format': a tuple "
    "(device_type, device_id), the device of the capsule __dlpack__ hands out",
)
def dlpack_device_answer(target: Target) -> str:
    x = plain(target)
    answer = target.dlpack_device(x)
    if not isinstance(answer, tuple) or len(answer) != 2:
        raise Failed(f"__dlpack_device__() returned {answer!r}, not a (device_type, device_id) tuple")
    if not all(isinstance(v, int) for v in answer):
        raise Failed(f"__dlpack_device__() returned {answer!r}: both entries must be integers (an enum member is one)")
    d, _ = read(target, x, max_version=(1, 3))
    if tuple(int(v) for v in answer) != d.device:
        raise Failed(f"__dlpack_device__() says {tuple(map(int, answer))}, the capsule {d.device}")
    return f"{tuple(int(v) for v in answer)}, as the capsule"


RULE_DL_DEVICE = (
    "array API __dlpack__: dl_device 'Default is None, meaning the exported capsule should be on the same device "
    "as self is'; copy 'If None, the function must reuse the existing memory buffer if possible': the array's "
    "own device asks for no move and no copy"
)


@check("dl_device.own", "devices and streams", RULE_DL_DEVICE)
def dl_device_own(target: Target) -> str:
    x = plain(target)
    plain_d, _ = read(target, x, max_version=(1, 3))
    d, elements = read(target, x, max_version=(1, 3), dl_device=plain_d.device)
    if data_of(d) != data_of(plain_d) or d.flags & IS_COPIED:
        raise Failed("dl_device equal to the array's own device made a copy")
    return holds(d, elements, VECTOR) + ", same memory"


@check(
    "dl_device.cpu", "devices and streams",
    "array API __dlpack__: the standard 'only mandates that a compliant library should offer a way for "
    "__dlpack__ to return a capsule referencing an array whose underlying memory is accessible to the Python "
    "interpreter (represented by the kDLCPU enumerator in DLPack)'",
    "should",
)
def dl_device_cpu(target: Target) -> str:
    if target.cpu_accessible is None:
        raise NotApplicable(f"no {target.name} array here lives on CPU-accessible memory of another device type "
                            "(CUDA host, ROCm host, CUDA managed)")
    x, device = target.cpu_accessible()
    own, _ = read(target, x, max_version=(1, 3))
    d, elements = read(target, x, max_version=(1, 3), dl_device=(1, 0))
    if d.device != (1, 0):
        raise Failed(f"dl_device=(1, 0) of an array on {device} gave a capsule on {d.device}")
    if own.device != device:
        raise Failed(f"without dl_device the capsule is on {own.device}, not the array's {device}")
    return f"{device} memory exported as (1, 0)" + (", same memory" if data_of(d) == data_of(own) else ", a copy")


@check(
    "dl_device.other", "devices and streams",
    "array API __dlpack__: 'If the device type cannot be handled by the producer, this function must raise "
    "BufferError'",
)
def dl_device_other(target: Target) -> str:
    try:
        d, elements = read(target, plain(target), max_version=(1, 3), dl_device=CUDA)
    except BufferError as error:
        return f"BufferError ({error})"
    if d.device != CUDA:
        raise Failed(f"dl_device=(2, 0) was answered with a capsule on {d.device}")
    return "moved the data to CUDA device 0; " + holds(d, elements, VECTOR)


@check(
    "stream.none", "devices and streams",
    "array API __dlpack__: stream 'On CPU and other device types without streams, only None is accepted'",
)
def stream_none(target: Target) -> str:
    d, elements = read(target, plain(target), stream=None, max_version=(1, 3))
    return holds(d, elements, VECTOR)


@check(
    "stream.minus-one", "devices and streams",
    "array API __dlpack__: 'If stream is -1, the value may be used by the consumer to signal \"producer must not "
    "perform any synchronization\"' (and: 'On CPU ... only None is accepted')",
)
def stream_minus_one(target: Target) -> str:
    try:
        d, elements = read(target, plain(target), stream=-1, max_version=(1, 3))
    except VERDICTS:
        raise
    except Exception as error:
        raise Difference(
            f"refuses stream=-1 on the CPU ({describe_exception(error)}): it follows the array API's 'On CPU ... only "
            "None is accepted' where the same text defines -1 as 'no synchronization' for any device"
        )
    return holds(d, elements, VECTOR)


@check(
    "stream.cpu-int", "devices and streams",
    "array API __dlpack__: stream 'On CPU and other device types without streams, only None is accepted' (its "
    "note: 'when kDLCPU is in use, stream must be None')",
    "should",
)
def stream_cpu_int(target: Target) -> str:
    try:
        read(target, plain(target), stream=1, max_version=(1, 3))
    except VERDICTS:
        raise
    except Exception as error:
        return f"stream=1 refused: {describe_exception(error)}"
    raise Failed("stream=1 (CUDA's legacy default stream) was accepted for CPU data")


def on_device(target: Target) -> tuple[DeviceArrays, Any]:
    """The library's device with streams, and a plain float32 array made there; NotApplicable where it has none."""
    device = target.device
    if device is None:
        raise NotApplicable(f"no {target.name} array here lives on a device with streams (CUDA, ROCm)")
    return device, made(f"an array on {device_name(device.device)}",
                        lambda: device.make(VECTOR, target.dtype("float32")))


def optional_stream(target: Target, x: Any, stream: int, **kwargs: Any) -> tuple[Decoded, Elements]:
    """read(x) with stream; NotApplicable where the producer refuses it: 'Support for a stream value other than None
    is optional and implementation-dependent'."""
    try:
        return read(target, x, stream=stream, max_version=(1, 3), **kwargs)
    except VERDICTS:
        raise
    except Exception as error:
        raise NotApplicable(f"stream={stream} refused ({describe_exception(error)}): support for a stream other than "
                            "None 'is optional and implementation-dependent'") from None


@check("stream.device-none", "devices and streams", RULE_STREAM)
def stream_device_none(target: Target) -> str:
    device, x = on_device(target)
    d, elements = read(target, x, stream=None, max_version=(1, 3))
    if d.device != device.device:
        raise Failed(f"an array on {device_name(device.device)} was exported on {device_name(d.device)}")
    return "read on the legacy default stream; " + holds(d, elements, VECTOR)


@check("stream.device-minus-one", "devices and streams", RULE_STREAM)
def stream_device_minus_one(target: Target) -> str:
    _, x = on_device(target)
    d, elements = optional_stream(target, x, -1)
    return "read after all work on the device (-1 asks for no synchronization); " + holds(d, elements, VECTOR)


RULE_STREAM_SYNC = (
    "DLPack Python spec: 'The consumer must pass the stream it will use to the producer; the producer must "
    "synchronize or wait on the stream when necessary'; array API __dlpack__: stream instructs 'the producer to "
    "ensure that operations can safely be performed on the array (e.g., by inserting a dependency between streams "
    "via \"wait for event\")'"
)


@check("stream.device-synchronizes", "devices and streams", RULE_STREAM_SYNC)
def stream_device_synchronizes(target: Target) -> str:
    device, _ = on_device(target)
    runtime = target.runtime_for(device.device)
    if runtime is None:
        raise NotApplicable(f"no runtime of {device_name(device.device)} here to read on a stream of the checker's own")
    stream = runtime.create_stream(device.device[1])
    try:
        busy = device.busy
        x = made("an array at the end of queued work",
                 (lambda: busy(VECTOR)) if busy else lambda: device.make(VECTOR, target.dtype("float32")))
        d, elements = optional_stream(target, x, stream)
    finally:
        runtime.destroy_stream(stream)
    expected = expected_elements(FLOAT32, VECTOR)
    if elements != expected:
        raise Failed(f"read in order on the consumer's stream {stream:#x} after __dlpack__(stream={stream:#x}), the "
                     f"elements were {show(elements or [], FLOAT32)}, not {show(expected or [], FLOAT32)}: the "
                     "producer did not order that stream after its own work")
    return ("the data was ready on the consumer's own stream" + ("" if busy else " (no queued work: the adapter has "
            "no busy array)") + "; " + holds(d, elements, VECTOR))


# ---- copy ----

RULE_COPY_TRUE = (
    "array API __dlpack__: copy 'If True, the function must always copy'; 'When a copy happens, the "
    "DLPACK_FLAG_BITMASK_IS_COPIED flag must be set'"
)


COPY_TRUE = "producer.copy.true"


class Refused(Failed):
    """The producer raised `error` where the check asked for a copy."""

    def __init__(self, error: Exception, cause: str) -> None:
        super().__init__(f"raised {describe_exception(error)}", cause=cause)
        self.error = error


def copied(target: Target, x: Any, refused: str = "", shared: str = "", **kwargs: Any) -> tuple[Decoded, Elements]:
    """x exported with copy=True and kwargs: its description and elements, failed unless the memory is another than
    the array's. `refused` and `shared` are the causes (Failed.cause) of a refusal and of the array's own memory."""
    original, _ = read(target, x, max_version=(1, 3))
    try:
        d, elements = read(target, x, copy=True, **kwargs)
    except VERDICTS:
        raise
    except Exception as error:
        raise Refused(error, refused) from None
    if data_of(d) == data_of(original):
        raise Failed("copy=True handed out the array's own memory", cause=shared)
    return d, elements


@check("copy.true", "copy", RULE_COPY_TRUE)
def copy_true(target: Target) -> str:
    d, elements = copied(target, plain(target), refused=COPY_TRUE, shared=COPY_TRUE, max_version=(1, 3))
    if not d.versioned:
        raise Failed("max_version=(1, 3), copy=True gave a legacy capsule, which cannot say IS_COPIED")
    if not d.flags & IS_COPIED:
        raise Failed(f"the copy's flags are {d.flags:#x}: IS_COPIED is not set")
    return "a fresh copy flagged IS_COPIED; " + holds(d, elements, VECTOR)


RULE_COPY_WRITABLE = (
    "dlpack.h DLPACK_FLAG_BITMASK_IS_COPIED: 'If set, the tensor is considered solely owned throughout its lifetime "
    "by the consumer' (the checker infers: a private copy is the consumer's to write; no text forbids READ_ONLY on "
    "it)"
)


@check("copy.true-writable", "copy", RULE_COPY_WRITABLE, "note")
def copy_true_writable(target: Target) -> str:
    d, _ = copied(target, plain(target), refused=COPY_TRUE, shared=COPY_TRUE, max_version=(1, 3))
    if d.flags & READ_ONLY:
        raise Failed(f"the copy is flagged READ_ONLY (flags {d.flags:#x})")
    return f"flags {d.flags:#x}"


@check("copy.true-of-read-only", "copy", RULE_COPY_WRITABLE, "note")
def copy_true_of_read_only(target: Target) -> str:
    d, elements = copied(target, readonly_array(target), refused=COPY_TRUE, shared=COPY_TRUE, max_version=(1, 3))
    if d.flags & READ_ONLY:
        raise Failed(f"the copy of a read-only array is flagged READ_ONLY (flags {d.flags:#x})")
    return "a writable copy; " + holds(d, elements, VECTOR)


@check(
    "copy.true-legacy", "copy",
    "array API __dlpack__: copy 'If True, the function must always copy'; without max_version 'from March 2025 "
    "onwards ... it's okay to raise BufferError'",
)
def copy_true_legacy(target: Target) -> str:
    try:
        d, elements = copied(target, plain(target), refused=COPY_TRUE)
    except Refused as refusal:
        if isinstance(refusal.error, BufferError):
            return f"refused with BufferError, as the array API allows for a legacy request from March 2025 " \
                   f"({refusal.error})"
        raise
    return f"{version_text(d)}; " + holds(d, elements, VECTOR)


def shares(target: Target, copy: Optional[bool]) -> str:
    x = plain(target)
    original, _ = read(target, x, max_version=(1, 3))
    d, elements = read(target, x, copy=copy, max_version=(1, 3))
    if data_of(d) != data_of(original):
        raise Failed(f"copy={copy} handed out other memory than the array's")
    if d.flags & IS_COPIED:
        raise Failed(f"copy={copy} handed out the array's memory flagged IS_COPIED")
    return "the array's own memory; " + holds(d, elements, VECTOR)


@check(
    "copy.false", "copy",
    "array API __dlpack__: copy 'If False, the function must never copy, and raise a BufferError in case a copy is "
    "deemed necessary'",
)
def copy_false(target: Target) -> str:
    return shares(target, False)


@check(
    "copy.none", "copy",
    "array API __dlpack__: copy 'If None, the function must reuse the existing memory buffer if possible and copy "
    "otherwise'",
)
def copy_none(target: Target) -> str:
    return shares(target, None)


# ---- READ_ONLY ----


@check(
    "read_only.flag", "read-only",
    "dlpack.h: DLPACK_FLAG_BITMASK_READ_ONLY 'bit mask to indicate that the tensor is read only'; array API "
    "__dlpack__: 'DLPack 1.0 added a flag to indicate that the array is read-only' (no text says must: a library "
    "with read-only arrays should say so)",
    "should",
)
def read_only_flag(target: Target) -> str:
    d, elements = read(target, readonly_array(target), max_version=(1, 3))
    if not d.versioned:
        raise Failed("max_version=(1, 3) gave a legacy capsule, which cannot say READ_ONLY")
    if not d.flags & READ_ONLY:
        raise Failed(f"a read-only array was exported with flags {d.flags:#x}: READ_ONLY is not set")
    return "READ_ONLY set; " + holds(d, elements, VECTOR)


@check(
    "read_only.writable-clear", "read-only",
    "dlpack.h: DLManagedTensorVersioned.flags 'By default the flags should be set to 0': a writable array is not "
    "flagged READ_ONLY",
    "should",
)
def read_only_clear(target: Target) -> str:
    if target.immutable:
        raise NotApplicable(f"{target.name} arrays are all read-only")
    d, _ = read(target, plain(target), max_version=(1, 3))
    if d.flags & READ_ONLY:
        raise Failed(f"a writable array was exported with flags {d.flags:#x}: READ_ONLY is set")
    return f"flags {d.flags:#x}"


@check(
    "read_only.legacy", "read-only",
    "dlpack.h: only DLManagedTensorVersioned has flags; the legacy DLManagedTensor cannot say read-only (the checker "
    "infers: a read-only array's memory goes to a legacy consumer only as a copy, or not at all, with BufferError "
    "'when the data cannot be exported as DLPack'; no text says so)",
    "note",
)
def read_only_legacy(target: Target) -> str:
    x = readonly_array(target)
    own, _ = read(target, x, max_version=(1, 3))
    try:
        d, _ = read(target, x)
    except BufferError as error:
        return f"BufferError ({error})"
    if d.versioned:
        raise Failed("__dlpack__() without max_version returned a 'dltensor_versioned' capsule")
    if data_of(d) == data_of(own):
        raise Failed("the read-only array's memory went out in a legacy capsule, which says nothing of READ_ONLY")
    return "a copy"


# ---- dtypes ----

RULE_EXPORT_REFUSAL = (
    "array API __dlpack__, Raises: 'Implementations should raise BufferError when the data cannot be exported as "
    "DLPack (e.g., incompatible dtype or strides)'"
)


def dtype_check(dtype: DType) -> Callable[[Target], str]:
    def body(target: Target) -> str:
        values = sample_values(dtype)
        x = made(f"a {dtype.name} array", lambda: target.array(values, dtype.name))
        try:
            d, elements = read(target, x, max_version=(1, 3))
        except BufferError as error:
            raise NotApplicable(f"{dtype.name} is refused with BufferError, as for data 'that cannot be exported as "
                                f"DLPack (e.g., incompatible dtype)': {error}")
        except VERDICTS:
            raise
        except Exception as error:
            raise Failed(f"refused with {describe_exception(error)}, not BufferError", level="should",
                         rule=RULE_EXPORT_REFUSAL) from None
        return holds(d, elements, values, dtype)

    return body


for _dtype in DTYPES:
    check(f"dtype.{_dtype.name}", "dtypes", _dtype.rule)(dtype_check(_dtype))


# ---- layouts ----

RULE_LAYOUT = (
    "dlpack.h DLTensor: strides 'in number of elements, not bytes', 'can not be NULL if ndim != 0' (from 1.2); "
    "byte_offset 'The offset in bytes to the beginning pointer to data'"
)


def layout(target: Target, make: Callable[[], Any], values: Any) -> str:
    x = made("the view", make)
    d, elements = read(target, x, max_version=(1, 3))
    return holds(d, elements, values)


@check("layout.c-contiguous", "layouts", RULE_LAYOUT)
def layout_contiguous(target: Target) -> str:
    return layout(target, lambda: target.array(MATRIX), MATRIX)


@check(
    "layout.0-d", "layouts",
    "dlpack.h DLTensor, its size: 'size_t size = 1; for (tvm_index_t i = 0; i < t->ndim; ++i) { size *= "
    "t->shape[i]; }': ndim 0 is one element",
)
def layout_0d(target: Target) -> str:
    d, elements = read(target, target.array(7.0), max_version=(1, 3))
    if d.ndim != 0:
        raise Failed(f"a 0-d array was exported with ndim {d.ndim}")
    return holds(d, elements, 7.0) + f"; shape {'NULL' if d.shape is None else 'set'}"


@check(
    "layout.size-0", "layouts",
    "dlpack.h DLTensor: the size in bytes is the product of shape times the element size; 'if the tensor is of "
    "size zero, then the data pointer should be set to NULL'",
)
def layout_size_0(target: Target) -> str:
    seen = []
    empty: tuple[list[Any], ...] = ([], [[], []])
    for values in empty:
        d, elements = read(target, target.array(values), max_version=(1, 3))
        holds(d, elements, values)
        seen.append(f"shape {d.shape}, data {'NULL' if not d.data else 'non-NULL'}")
    return "; ".join(seen)


@check("layout.transposed", "layouts", RULE_LAYOUT)
def layout_transposed(target: Target) -> str:
    return layout(target, lambda: target.transpose(target.array(MATRIX)), [list(r) for r in zip(*MATRIX)])


@check("layout.negative-strides", "layouts", RULE_LAYOUT)
def layout_negative(target: Target) -> str:
    return layout(target, lambda: target.reverse(target.array(VECTOR)), VECTOR[::-1])


@check("layout.byte-offset", "layouts", RULE_LAYOUT)
def layout_offset(target: Target) -> str:
    return layout(target, lambda: target.offset(target.array(VECTOR)), VECTOR[2:])


@check("layout.strided", "layouts", RULE_LAYOUT)
def layout_strided(target: Target) -> str:
    return layout(target, lambda: target.every_other_column(target.array(MATRIX)), [r[::2] for r in MATRIX])


# ---- the C exchange API ----


def table(target: Target, x: Any, *uses: str) -> exchange.Table:
    """type(x)'s exchange table, whose functions `uses` the check calls.

    A function the table leaves NULL is exchange.table's failure, reported there once: a check that would call it
    has nothing to judge (NotApplicable), as for the optional dltensor_from_py_object_no_sync.
    """
    if not hasattr(type(x), exchange.ATTRIBUTE):
        raise NotApplicable(f"{type(x).__qualname__} has no {exchange.ATTRIBUTE} (it is optional)")
    try:
        t = exchange.table_of(type(x))
    except (TypeError, ValueError) as error:
        raise Failed(str(error))
    if t.version[0] != 1:
        raise Failed(f"the table speaks DLPack {t.version[0]}.{t.version[1]}")
    for name in uses:
        if not t.pointer(name):
            why = "it is optional" if name == "dltensor_from_py_object_no_sync" else "exchange.table fails for it"
            raise NotApplicable(f"{name} is NULL ({why})")
    return t


@check(
    "exchange.table", "exchange API",
    "dlpack.h DLPackExchangeAPI: a PyCapsule named \"dlpack_exchange_api\" on the type, whose header's version is "
    "DLPack's and whose functions are set (dltensor_from_py_object_no_sync may be NULL)",
)
def exchange_table(target: Target) -> str:
    t = table(target, plain(target))
    missing = [name for name in exchange.FUNCTIONS if name != "dltensor_from_py_object_no_sync" and not t.pointer(name)]
    if missing:
        raise Failed(f"NULL functions: {', '.join(missing)}")
    return f"version {t.version[0]}.{t.version[1]}, chain {t.version_chain()}"


def exchange_cases(target: Target) -> list[tuple[str, Any]]:
    cases: list[tuple[str, Any]] = [("vector", target.array(VECTOR)), ("0-d", target.array(7.0))]
    views: tuple[tuple[str, Callable[[], Any]], ...] = (
        ("transposed", lambda: target.transpose(target.array(MATRIX))), ("read-only", lambda: readonly_array(target)))
    for name, make in views:
        try:
            cases.append((name, make()))
        except NotApplicable:
            pass
    return cases


def same_description(a: Decoded, b: Decoded) -> list[str]:
    """Where two descriptions of one array differ (strides compared as C-contiguous where one is NULL)."""
    differ = []
    for field in ("device", "ndim", "dtype"):
        if getattr(a, field) != getattr(b, field):
            differ.append(f"{field} {getattr(a, field)} vs {getattr(b, field)}")
    if data_of(a) != data_of(b):
        differ.append("data")
    if tuple(a.shape or ()) != tuple(b.shape or ()):
        differ.append(f"shape {a.shape} vs {b.shape}")
    shape = tuple(a.shape or ())
    sa = a.strides if a.strides is not None else contiguous_strides(shape)
    sb = b.strides if b.strides is not None else contiguous_strides(shape)
    if a.ndim and tuple(sa) != tuple(sb) and all(n > 1 for n in shape):
        differ.append(f"strides {a.strides} vs {b.strides}")
    return differ


def each_case_as_dlpack(target: Target, what: str, describe: Callable[[Any], tuple[Decoded, list[str]]]) -> str:
    """For each of exchange_cases: describe(x) is what the exchange API says of x, and what else it got wrong;
    fail where that and __dlpack__'s description of x differ. The cases seen."""
    seen = []
    for name, x in exchange_cases(target):
        d, _ = read(target, x, max_version=(1, 3))
        api, wrong = describe(x)
        differ = same_description(api, d) + wrong
        if (api.flags & READ_ONLY) != (d.flags & READ_ONLY) and api.versioned:
            differ.append(f"READ_ONLY {bool(api.flags & READ_ONLY)} vs {bool(d.flags & READ_ONLY)}")
        if differ:
            raise Failed(f"{name}: {what} and __dlpack__ differ: {'; '.join(differ)}")
        seen.append(name)
    return ", ".join(seen)


@check(
    "exchange.matches-dlpack", "exchange API",
    "dlpack.h DLPackManagedTensorFromPyObjectNoSync: 'Exports a PyObject* Tensor/NDArray to a "
    "DLManagedTensorVersioned': the tensor __dlpack__ exports, whose deleter the consumer calls once",
)
def exchange_matches(target: Target) -> str:
    t = table(target, plain(target), "managed_tensor_from_py_object_no_sync")

    def describe(x: Any) -> tuple[Decoded, list[str]]:
        managed = exchange.from_py_object(t, x)
        watch = exchange.watch_deleter(managed)
        api = decode_managed(ctypes.addressof(managed.contents))
        exchange.release(managed)
        return api, [] if watch.calls == 1 else [f"the deleter ran {watch.calls} times on one release"]

    return "same tensor as __dlpack__ for " + each_case_as_dlpack(target, "the exchange API", describe)


@check(
    "exchange.dltensor", "exchange API",
    "dlpack.h DLPackDLTensorFromPyObjectNoSync: 'Exports a PyObject* Tensor/NDArray to a provided DLTensor' "
    "(optional: NULL where absent)",
)
def exchange_dltensor(target: Target) -> str:
    t = table(target, plain(target), "dltensor_from_py_object_no_sync")

    def describe(x: Any) -> tuple[Decoded, list[str]]:
        out = exchange.dltensor_from_py_object(t, x)
        assert out is not None  # table() made sure the function is there
        return decode_dltensor(out), []  # a bare DLTensor has no flags to compare

    return "same DLTensor as __dlpack__ for " + each_case_as_dlpack(target, "the lent DLTensor", describe)


@check(
    "exchange.allocator", "exchange API",
    "dlpack.h DLPackManagedTensorAllocator: 'Create a new DLManagedTensorVersioned within the context of the "
    "producer library. The allocation is defined via the prototype DLTensor'",
)
def exchange_allocator(target: Target) -> str:
    t = table(target, plain(target), "managed_tensor_allocator")
    managed = exchange.allocate(t, FLOAT32.triple, (2, 3))
    watch = exchange.watch_deleter(managed)
    d = decode_managed(ctypes.addressof(managed.contents))
    exchange.release(managed)
    if (d.dtype, tuple(d.shape or ()), d.device) != (FLOAT32.triple, (2, 3), (1, 0)) or not d.data:
        raise Failed(f"asked for float32 (2, 3) on the CPU, got dtype {d.dtype}, shape {d.shape}, device {d.device}")
    if watch.calls != 1:
        raise Failed(f"the deleter ran {watch.calls} times on one release")
    return "float32 (2, 3) on the CPU, deleted once"


@check(
    "exchange.to-py-object", "exchange API",
    "dlpack.h DLPackManagedTensorToPyObjectNoSync: a managed tensor becomes the producer's Python object over the "
    "same memory",
)
def exchange_to_py_object(target: Target) -> str:
    x = plain(target)
    t = table(target, x, "managed_tensor_from_py_object_no_sync", "managed_tensor_to_py_object_no_sync")
    managed = exchange.from_py_object(t, x)
    address = decode_managed(ctypes.addressof(managed.contents))
    obj = exchange.to_py_object(t, managed)
    d, elements = read(target, obj, max_version=(1, 3))
    if data_of(d) != data_of(address):
        raise Failed("the object does not view the managed tensor's memory")
    return f"a {type(obj).__qualname__} over the same memory; " + holds(d, elements, VECTOR)


@check(
    "exchange.current-work-stream", "exchange API",
    "dlpack.h DLPackCurrentWorkStream: 'When device_type is kDLCPU, the consumer do not have to query the stream and "
    "the producer can simply return NULL when queried'",
)
def exchange_stream(target: Target) -> str:
    t = table(target, plain(target), "current_work_stream")
    stream = exchange.current_work_stream(t, 1, 0)
    return f"CPU stream {'NULL' if stream is None else hex(stream)}"

