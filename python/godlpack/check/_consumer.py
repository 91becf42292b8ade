"""The consumer checks: a library's from_dlpack, fed by the checker's own instrumented producer.

Every tensor comes from a Memory (godlpack.check._memory): the checker's buffer with the layout, flags, version
and device the check wants, whose deleter counts its calls. What the consumer made is read back through the
library's own __dlpack__ (the producer checks hold that to the rules) and compared with the checker's bytes.
"""

from __future__ import annotations

import gc
import inspect
from typing import Any, Callable, Optional

from godlpack.check._dlpack import IS_COPIED, READ_ONLY, Decoded
from godlpack.check._memory import CONSUMER, InstrumentedProducer, Memory, negotiated
from godlpack.check._model import (
    VERDICTS,
    Check,
    Difference,
    Failed,
    NotApplicable,
    describe_exception,
    registrar,
)
from godlpack.check._producer import MATRIX, VECTOR, data_of, read
from godlpack.check._target import Target
from godlpack.check._values import DTYPES, FLOAT32, DType, show

CHECKS: list[Check] = []
CUDA = (2, 0)


check = registrar("consumer", CHECKS)


# ---- calling the consumer ----


def takes_keyword(function: Callable[..., Any], name: str) -> Optional[bool]:
    """Whether function's signature takes keyword `name`; None where it has no signature to read."""
    try:
        parameters = inspect.signature(function).parameters
    except (TypeError, ValueError):
        return None
    return name in parameters or any(p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters.values())


def consume(target: Target, producer: InstrumentedProducer, **kwargs: Any) -> Any:
    """target's from_dlpack(producer, **kwargs); NotApplicable or Difference where it cannot be asked that."""
    if target.from_dlpack is None:
        raise NotApplicable(f"{target.name} has no from_dlpack")
    for name in kwargs:
        if takes_keyword(target.from_dlpack, name) is False:
            raise Difference(
                f"from_dlpack takes no {name}: the array API 2022.12 signature from_dlpack(x), before 2023.12 "
                "added device and copy"
            )
    if target.from_dlpack_takes_capsules:
        if kwargs:
            raise NotApplicable(f"{target.name}'s from_dlpack takes a capsule, with no {', '.join(kwargs)}")
        result = target.from_dlpack(producer.__dlpack__())
    else:
        result = target.from_dlpack(producer, **kwargs)
    unmet = [m.unmet for m in producer.memories if m.unmet]
    if unmet:
        del result
        producer.release_capsules()
        raise NotApplicable(unmet[0])
    return result


def producer_of(make: Callable[[dict[str, Any]], Memory], **options: Any) -> InstrumentedProducer:
    return InstrumentedProducer(make, **options)


def sample(**fields: Any) -> Callable[[dict[str, Any]], Memory]:
    """A producer's answer to every call: a fresh 1-D float32 tensor of VECTOR with these Memory fields, versioned
    where the call asked for it (see negotiated)."""
    return lambda kwargs: negotiated(kwargs, lambda **f: Memory.of(VECTOR, FLOAT32, **f), **fields)


def inspect_result(target: Target, result: Any) -> tuple[Decoded, list[bytes]]:
    """What the consumer made, read through its own __dlpack__ (versioned, else legacy)."""
    try:
        return read(target, result, max_version=(1, 3))
    except (TypeError, BufferError):
        return read(target, result)


def holds_memory(target: Target, result: Any, memory: Memory) -> Decoded:
    """Fail unless result has memory's dtype, shape and elements; its description."""
    d, elements = inspect_result(target, result)
    if d.dtype != memory.dtype:
        raise Failed(f"imported as dtype {d.dtype}, the capsule said {memory.dtype}")
    if tuple(d.shape or ()) != tuple(memory.shape or ()):
        raise Failed(f"imported with shape {d.shape}, the capsule said {tuple(memory.shape or ())}")
    expected = memory.expected_elements()
    if elements != expected:
        dtype = next((t for t in DTYPES if t.triple == memory.dtype), FLOAT32)
        raise Failed(f"imported elements {show(elements, dtype)}, the capsule's are {show(expected, dtype)} "
                     f"(strides {memory.strides}, byte_offset {memory.byte_offset})")
    return d


def shares_memory(d: Decoded, memory: Memory) -> bool:
    return data_of(d) == memory.data_address + memory.byte_offset


def deleted_once(producer: InstrumentedProducer, when: str) -> str:
    """Fail unless every tensor the producer handed out was deleted exactly once; who deleted them."""
    producer.release_capsules()
    gc.collect()
    by = []
    for memory in producer.memories:
        if memory.deleted != 1:
            raise Failed(f"{when}, the deleter ran {memory.deleted} times, not once")
        if memory.wrong_pointers:
            raise Failed(f"the deleter was called with {memory.wrong_pointers[0]:#x}, not the managed tensor's address")
        by.append(memory.deleted_by[0])
    return "deleted once by " + ", ".join(dict.fromkeys(by))


def import_and_release(target: Target, producer: InstrumentedProducer, **kwargs: Any) -> str:
    """Import, check the values, drop the result: every tensor deleted once. What was seen."""
    result = consume(target, producer, **kwargs)
    d = holds_memory(target, result, producer.memories[-1])
    del result
    return f"{'zero-copy' if shares_memory(d, producer.memories[-1]) else 'copied'}; " + deleted_once(
        producer, "after the result was dropped"
    )


# ---- capsules, versions, what the consumer asks ----


def renamed(target: Target, versioned: bool) -> str:
    """A versioned or legacy capsule imported: renamed "used_…", read as it says, deleted once."""
    name = "dltensor_versioned" if versioned else "dltensor"
    producer = producer_of(sample(versioned=versioned))
    result = consume(target, producer)
    memory = producer.memories[-1]
    if not memory.consumed():
        raise Failed(f"the consumer kept the tensor but left the capsule named {name!r}")
    holds_memory(target, result, memory)
    del result
    return f"renamed 'used_{name}'; " + deleted_once(producer, "after the result was dropped")


@check(
    "capsule.versioned", "capsules and versions",
    "DLPack Python spec: the consumer takes the tensor by renaming the capsule; 'when DLManagedTensorVersioned is "
    "in use the capsule names dltensor and used_dltensor will need a _versioned suffix'",
)
def capsule_versioned(target: Target) -> str:
    return renamed(target, versioned=True)


@check(
    "capsule.legacy", "capsules and versions",
    "array API __dlpack__: 'This method may return a capsule of version max_version ... or of a different "
    "version. This means the consumer must verify the version'; a legacy capsule is renamed \"used_dltensor\"",
)
def capsule_legacy(target: Target) -> str:
    return renamed(target, versioned=False)


@check(
    "asks.max_version", "capsules and versions",
    "array API __dlpack__, the consumer's logic: 'x.__dlpack__(max_version=(1, 0), ...)' (the newest version "
    "the consumer reads, a tuple (major, minor))",
)
def asks_max_version(target: Target) -> str:
    if target.from_dlpack_takes_capsules:
        raise NotApplicable(f"{target.name}'s from_dlpack takes a capsule: it never calls __dlpack__")
    producer = producer_of(sample())
    result = consume(target, producer)
    del result
    deleted_once(producer, "after the result was dropped")
    asked = producer.calls[0].get("max_version")
    if not (isinstance(asked, tuple) and len(asked) == 2 and asked[0] == 1):
        raise Failed(f"__dlpack__ was called with {producer.calls[0]}: no max_version (1, x)")
    return f"asked {producer.calls[0]}"


@check(
    "asks.fallback", "capsules and versions",
    "array API __dlpack__, the consumer's logic: 'try: x.__dlpack__(max_version=(1, 0), ...) except TypeError: "
    "x.__dlpack__(...)', for producers from before the keywords",
)
def asks_fallback(target: Target) -> str:
    if target.from_dlpack_takes_capsules:
        raise NotApplicable(f"{target.name}'s from_dlpack takes a capsule: it never calls __dlpack__")
    producer = producer_of(sample(versioned=False), legacy=True)
    seen = import_and_release(target, producer)
    return f"calls {producer.calls}; {seen}"


@check(
    "version.newer-minor", "capsules and versions",
    "dlpack.h DLPackVersion: 'In the case of a minor version mismatch, the tensor can be safely used as long as "
    "the consumer knows how to interpret all fields'",
)
def version_newer_minor(target: Target) -> str:
    producer = producer_of(sample(version=(1, 99)))
    try:
        result = consume(target, producer)
    except BufferError as error:
        return f"refused with BufferError ({error}); " + deleted_once(producer, "after the refusal")
    holds_memory(target, result, producer.memories[-1])
    del result
    return "read as 1.x; " + deleted_once(producer, "after the result was dropped")


@check(
    "version.major-2", "capsules and versions",
    "dlpack.h DLPackVersion: with another major version 'the consumer must call the deleter (and it is safe to do "
    "so). It is not safe to access any other fields'",
)
def version_major_2(target: Target) -> str:
    producer = producer_of(sample(version=(2, 0)))
    try:
        result = consume(target, producer)
    except VERDICTS:
        raise
    except Exception as error:
        return f"refused: {describe_exception(error)}; " + deleted_once(producer, "after the refusal")
    del result
    raise Failed("a tensor of DLPack 2.0 was imported (its fields may mean anything)")


# ---- the deleter ----


@check(
    "deleter.lifetime", "deleter",
    "dlpack.h DLManagedTensorVersioned.deleter: 'When the borrowing framework doesn't need the tensor, it should "
    "call the deleter': not before, and once",
)
def deleter_lifetime(target: Target) -> str:
    producer = producer_of(sample())
    result = consume(target, producer)
    memory = producer.memories[-1]
    d = holds_memory(target, result, memory)
    if shares_memory(d, memory) and memory.deleted:
        raise Failed("the deleter ran while the array still viewed the memory")
    gc.collect()
    if shares_memory(d, memory) and memory.deleted:
        raise Failed("the deleter ran while the array still viewed the memory (after a garbage collection)")
    del result
    seen = deleted_once(producer, "after the array was dropped")
    if memory.deleted_by[0] != CONSUMER:
        raise Failed(f"the tensor was deleted by {memory.deleted_by[0]}")
    return ("not before the array went; " if shares_memory(d, memory) else "copied at once; ") + seen


@check(
    "deleter.imported-twice", "deleter",
    "dlpack.h: each managed tensor's deleter is called when its borrower is done, whatever memory it views",
)
def deleter_imported_twice(target: Target) -> str:
    shared = Memory.of(VECTOR, FLOAT32)  # one memory, and a managed tensor of its own for each import
    producer = producer_of(lambda kwargs: negotiated(kwargs, shared.sharing))
    a = consume(target, producer)
    b = consume(target, producer)
    holds_memory(target, a, producer.memories[0])
    holds_memory(target, b, producer.memories[1])
    del a, b
    return deleted_once(producer, "after both arrays over one memory were dropped")


# ---- copy ----


@check("copy.true", "copy", "array API from_dlpack: copy 'If True, the function must always copy'")
def copy_true(target: Target) -> str:
    producer = producer_of(lambda kwargs: sample(flags=IS_COPIED if kwargs.get("copy") else 0)(kwargs))
    result = consume(target, producer, copy=True)
    asked = producer.calls[-1].get("copy") if producer.calls else None
    d = holds_memory(target, result, producer.memories[-1])
    del result
    seen = deleted_once(producer, "after the result was dropped")
    if asked is not True and shares_memory(d, producer.memories[-1]):
        raise Failed(f"__dlpack__ was called with {producer.calls[-1]} and the result shares the producer's memory")
    return f"asked {producer.calls[-1] if producer.calls else 'nothing'}; {seen}"


@check(
    "copy.true-producer-shares", "copy",
    "array API from_dlpack: copy 'If True, the function must always copy': a producer that answers with its own "
    "memory (no IS_COPIED) still leaves the consumer with a copy",
)
def copy_true_producer_shares(target: Target) -> str:
    producer = producer_of(sample())
    result = consume(target, producer, copy=True)
    memory = producer.memories[-1]
    d = holds_memory(target, result, memory)
    if shares_memory(d, memory):
        del result
        deleted_once(producer, "after the result was dropped")
        raise Failed("copy=True, and the result views the producer's memory (which it handed over without IS_COPIED)")
    del result
    return "copied; " + deleted_once(producer, "after the result was dropped")


@check(
    "copy.false", "copy",
    "array API from_dlpack: copy 'If False, the function must never copy'; the consumer passes copy on to "
    "__dlpack__ ('This logic is also applicable to handling of the new dl_device and copy keywords')",
)
def copy_false(target: Target) -> str:
    producer = producer_of(sample())
    result = consume(target, producer, copy=False)
    d = holds_memory(target, result, producer.memories[-1])
    zero_copy = shares_memory(d, producer.memories[-1])
    del result
    seen = deleted_once(producer, "after the result was dropped")
    if not zero_copy:
        raise Failed("copy=False, and the result does not view the producer's memory")
    if producer.calls and producer.calls[-1].get("copy", False) is not False:
        raise Failed(f"__dlpack__ was called with {producer.calls[-1]}")
    return f"zero-copy, asked {producer.calls[-1] if producer.calls else 'nothing'}; {seen}"


@check(
    "copy.false-producer-copied", "copy",
    "array API from_dlpack: copy 'If False, the function must never copy, and raise BufferError in case a copy is "
    "deemed necessary': a tensor flagged IS_COPIED answers copy=False with a copy",
)
def copy_false_producer_copied(target: Target) -> str:
    producer = producer_of(sample(flags=IS_COPIED))
    try:
        result = consume(target, producer, copy=False)
    except BufferError as error:
        return f"BufferError ({error}); " + deleted_once(producer, "after the refusal")
    del result
    deleted_once(producer, "after the result was dropped")
    raise Failed("copy=False, and a tensor the producer flagged IS_COPIED (a copy) was accepted")


@check(
    "copy.none", "copy",
    "DLPack Python spec: 'If possible, this must be zero-copy (i.e. y will be a view on x)'",
)
def copy_none(target: Target) -> str:
    producer = producer_of(sample())
    result = consume(target, producer)
    d = holds_memory(target, result, producer.memories[-1])
    zero_copy = shares_memory(d, producer.memories[-1])
    del result
    seen = deleted_once(producer, "after the result was dropped")
    if not zero_copy:
        raise Failed("a C-contiguous float32 CPU tensor was copied on import")
    return "zero-copy; " + seen


# ---- READ_ONLY ----


@check(
    "read_only.in", "read-only",
    "dlpack.h: DLPACK_FLAG_BITMASK_READ_ONLY 'bit mask to indicate that the tensor is read only' (the array API: "
    "a consumer that does not support read-only arrays ignores the flag and 'the user is then responsible')",
)
def read_only_in(target: Target) -> str:
    if target.write_first is None:
        raise NotApplicable(f"{target.name} has no way to write an array")
    producer = producer_of(sample(flags=READ_ONLY))
    result = consume(target, producer)
    memory = producer.memories[-1]
    holds_memory(target, result, memory)
    try:
        target.write_first(result, 42)
        refused = ""
    except Exception as error:
        refused = describe_exception(error)
    written = memory.current_elements() != memory.expected_elements()
    del result
    seen = deleted_once(producer, "after the result was dropped")
    if written:
        raise Failed("a write through the imported array changed memory the producer flagged READ_ONLY")
    return (f"the write was refused ({refused})" if refused else "the write went to a copy") + f"; {seen}"


@check(
    "read_only.re-export", "read-only",
    "dlpack.h: DLPACK_FLAG_BITMASK_READ_ONLY: an imported read-only tensor exported again says so (or is copied)",
)
def read_only_re_export(target: Target) -> str:
    producer = producer_of(sample(flags=READ_ONLY))
    result = consume(target, producer)
    memory = producer.memories[-1]
    try:
        d, _ = read(target, result, max_version=(1, 3))
    except BufferError as error:
        del result
        return f"export refused: BufferError ({error}); " + deleted_once(producer, "after the result was dropped")
    del result
    seen = deleted_once(producer, "after the result was dropped")
    if shares_memory(d, memory) and not (d.versioned and d.flags & READ_ONLY):
        raise Failed(f"re-exported as {'flags ' + hex(d.flags) if d.versioned else 'a legacy capsule'}: the read-only "
                     "memory lost its READ_ONLY flag")
    return ("READ_ONLY kept" if shares_memory(d, memory) else "re-exported as a copy") + f"; {seen}"


# ---- devices and streams ----


@check(
    "device.cpu", "devices and streams",
    "array API from_dlpack: device 'the v2023.12 standard only mandates that a compliant library should offer a "
    "way for from_dlpack to return an array whose underlying memory is accessible to the Python interpreter'",
)
def device_cpu(target: Target) -> str:
    if target.cpu_device is None:
        raise NotApplicable(f"the adapter knows no CPU device object of {target.name}")
    producer = producer_of(sample())
    seen = import_and_release(target, producer, device=target.cpu_device)
    asked = producer.calls[-1].get("dl_device") if producer.calls else None
    if asked is not None and tuple(asked) != (1, 0):
        raise Failed(f"device={target.cpu_device!r} asked the producer for dl_device={asked!r}")
    return f"asked {producer.calls[-1] if producer.calls else 'nothing'}; {seen}"


@check(
    "device.other", "devices and streams",
    "DLPack Python spec: 'If an array that is accessed via the interchange protocol lives on a device that the "
    "requesting (consumer) library does not support, it is recommended to raise a BufferError'",
)
def device_other(target: Target) -> str:
    producer = producer_of(sample(device=CUDA), device=CUDA)
    try:
        result = consume(target, producer)
    except BufferError as error:
        return f"BufferError ({error}); " + deleted_once(producer, "after the refusal")
    except VERDICTS:
        raise
    except Exception as error:
        deleted_once(producer, "after the refusal")
        raise Failed(f"CUDA memory (no CUDA here) was refused with {describe_exception(error)}, not BufferError")
    device = tuple(target.dlpack_device(result))
    del result
    seen = deleted_once(producer, "after the result was dropped")
    if device != CUDA:
        raise Failed(f"CUDA memory was imported as an array on {device}")
    return f"kept on CUDA device 0; {seen}"


@check(
    "stream.cpu", "devices and streams",
    "array API __dlpack__: stream 'On CPU and other device types without streams, only None is accepted'",
)
def stream_cpu(target: Target) -> str:
    if target.from_dlpack_takes_capsules:
        raise NotApplicable(f"{target.name}'s from_dlpack takes a capsule: it never calls __dlpack__")
    producer = producer_of(sample())
    seen = import_and_release(target, producer)
    stream = producer.calls[0].get("stream")
    if stream is not None:
        raise Failed(f"__dlpack__ of CPU data was called with stream={stream!r}")
    return f"asked {producer.calls[0]}; {seen}"


# ---- dtypes ----


def dtype_check(dtype: DType) -> Callable[[Target], str]:
    def body(target: Target) -> str:
        target.dtype(dtype.name)  # NotApplicable where the library has none
        raw = bytes(range(6 * dtype.itemsize))
        if dtype.name == "bool":
            raw = bytes([0, 1, 1, 0, 1, 0])
        producer = producer_of(lambda kwargs: negotiated(kwargs, lambda **f: Memory(raw, dtype.triple, (6,), (1,), **f)))
        return import_and_release(target, producer)

    return body


for _dtype in DTYPES:
    check(f"dtype.{_dtype.name}", "dtypes", _dtype.rule)(dtype_check(_dtype))


# ---- layouts ----

RULE_LAYOUT = (
    "dlpack.h DLTensor: strides 'in number of elements, not bytes'; byte_offset 'The offset in bytes to the "
    "beginning pointer to data'; a consumer that cannot view a layout copies it or raises BufferError"
)


def layout(target: Target, memory: Callable[..., Memory], refusable: bool) -> str:
    producer = producer_of(lambda kwargs: negotiated(kwargs, memory))
    try:
        return import_and_release(target, producer)
    except BufferError as error:
        if not refusable:
            raise
        return f"refused with BufferError ({error}); " + deleted_once(producer, "after the refusal")


def matrix(**fields: Any) -> Memory:
    return Memory.of(MATRIX, FLOAT32, **fields)


@check("layout.0-d", "layouts", "dlpack.h DLTensor: ndim 0, shape and strides NULL: one element")
def layout_0d(target: Target) -> str:
    return layout(target, lambda **f: Memory.of(7.0, FLOAT32, **f), refusable=False)


@check(
    "layout.size-0-null-data", "layouts",
    "DLPack Python spec: 'If the array is of size zero, the data pointer in DLTensor should be set to either NULL "
    "or 0'",
)
def layout_size_0(target: Target) -> str:
    return layout(target, lambda **f: Memory(b"", FLOAT32.triple, (0,), (1,), null_data=True, **f), refusable=False)


@check("layout.transposed", "layouts", RULE_LAYOUT)
def layout_transposed(target: Target) -> str:
    return layout(target, lambda **f: matrix(**f).transposed(), refusable=True)


@check("layout.negative-strides", "layouts", RULE_LAYOUT)
def layout_negative(target: Target) -> str:
    return layout(target, lambda **f: Memory.of(VECTOR, FLOAT32, **f).reversed(), refusable=True)


@check("layout.byte-offset", "layouts", RULE_LAYOUT)
def layout_offset(target: Target) -> str:
    return layout(target, lambda **f: Memory.of(VECTOR, FLOAT32, **f).offset(), refusable=False)


@check("layout.strided", "layouts", RULE_LAYOUT)
def layout_strided(target: Target) -> str:
    return layout(target, lambda **f: matrix(**f).every_other_column(), refusable=True)


@check(
    "layout.null-strides", "layouts",
    "DLPack Python spec: 'When the strides field in the DLTensor struct is NULL, it indicates a row-major compact "
    "array' (legacy and 1.0/1.1 tensors)",
)
def layout_null_strides(target: Target) -> str:
    return layout(target, lambda **f: Memory(matrix().raw, FLOAT32.triple, (2, 3), None, versioned=False), refusable=False)


# ---- errors ----


@check(
    "error.propagates", "errors",
    "array API from_dlpack: 'The __dlpack__ and __dlpack_device__ methods on the input array may raise "
    "BufferError ... from_dlpack must propagate such exceptions'",
)
def error_propagates(target: Target) -> str:
    if target.from_dlpack_takes_capsules:
        raise NotApplicable(f"{target.name}'s from_dlpack takes a capsule: it never calls __dlpack__")
    refusal = BufferError("the checker's producer cannot export this")

    def refuse(kwargs: dict[str, Any]) -> Memory:
        raise refusal

    producer = producer_of(refuse)
    try:
        consume(target, producer)
    except BufferError as error:
        return f"BufferError reached the caller{'' if error is refusal else ' (another instance)'}"
    except VERDICTS:
        raise
    except Exception as error:
        raise Failed(f"the producer's BufferError reached the caller as {describe_exception(error)}")
    raise Failed("the producer raised BufferError and from_dlpack returned")


RULE_NOT_A_PRODUCER = (
    "array API from_dlpack, Raises: 'AttributeError If the __dlpack__ and __dlpack_device__ methods are not present "
    "on the input array'; its data interchange page: then 'from_dlpack may raise an AttributeError'; its "
    "Exceptions page: a Raises section's exception types are guidance, 'should rather than must', and libraries use "
    "'builtin exception ... types that are appropriate for the situation'"
)


@check("error.not-a-producer", "errors", RULE_NOT_A_PRODUCER)
def error_not_a_producer(target: Target) -> str:
    if target.from_dlpack is None:
        raise NotApplicable(f"{target.name} has no from_dlpack")
    if target.from_dlpack_takes_capsules:
        raise NotApplicable(f"{target.name}'s from_dlpack takes a capsule")
    try:
        target.from_dlpack(object())
    except AttributeError as error:
        return f"AttributeError ({error})"
    except TypeError as error:
        # Python's own type for 'an operation or function applied to an object of inappropriate type'; the array
        # API's Exceptions page leaves a Raises section's types to the library ('should rather than must').
        raise Difference(
            f"an object without __dlpack__ raised {describe_exception(error)}: the Raises section names "
            "AttributeError, which the array API's Exceptions page makes guidance ('should rather than must'), "
            "asking for the built-in type appropriate to the situation, Python's TypeError for an argument of the "
            "wrong type"
        )
    except Exception as error:
        raise Failed(f"an object without __dlpack__ raised {describe_exception(error)}, not AttributeError (or "
                     "TypeError, the built-in type for an argument of the wrong type)")
    raise Failed("from_dlpack(object()) returned")
