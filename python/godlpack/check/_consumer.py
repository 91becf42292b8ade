"""The consumer checks: a library's from_dlpack, fed by the checker's own instrumented producer.

Every tensor comes from a Memory (godlpack.check._memory): the checker's buffer with the layout, flags, version,
alignment, context and device the check wants, whose deleter counts its calls. What the consumer made is read back
through the library's own __dlpack__ (the producer checks hold that to the rules) and compared with the checker's
bytes. A consumer is judged by what it does with what it was handed, never by what a producer did wrong: the
checks that watch a consumer meet a producer that breaks the copy rule are notes.
"""

from __future__ import annotations

import gc
import inspect
from typing import Any, Callable, Optional, Union

from godlpack.check._device import KDL_CUDA, RULE_STREAM, stream_fault
from godlpack.check._dlpack import IS_COPIED, READ_ONLY, Decoded
from godlpack.check._memory import CONSUMER, InstrumentedProducer, Memory, asks_versioned, negotiated
from godlpack.check._model import VERDICTS, Check, describe_exception, registrar
from godlpack.check._verdicts import Difference, Failed, Level, NotApplicable
from godlpack.check._producer import MATRIX, RULE_TENSOR, VECTOR, Elements, data_of, read
from godlpack.check._target import Target
from godlpack.check._values import DTYPES, FLOAT32, DType, show

CHECKS: list[Check] = []
CUDA = (KDL_CUDA, 0)
# The checks that report a root cause other checks see too (Failed.cause).
LIFETIME = "consumer.deleter.lifetime"
LEGACY = "consumer.capsule.legacy"
BYTE_OFFSET = "consumer.layout.byte-offset"
ASKS_MAX_VERSION = "consumer.asks.max_version"
COPY_TRUE = "consumer.copy.true"
FLAGS_COPIED = "consumer.flags.copied"
UNALIGNED = "consumer.layout.unaligned"


check = registrar("consumer", CHECKS)


# ---- calling the consumer ----


def takes_keyword(function: Callable[..., Any], name: str) -> Optional[bool]:
    """Whether function's signature takes keyword `name`; None where it has no signature to read."""
    try:
        parameters = inspect.signature(function).parameters
    except (TypeError, ValueError):
        return None
    return name in parameters or any(p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters.values())


def older_signature(names: Any) -> Difference:
    return Difference(f"from_dlpack takes no {', '.join(names)}: the array API 2022.12 signature from_dlpack(x), "
                      "before 2023.12 added device and copy")


def consume(target: Target, producer: InstrumentedProducer, **kwargs: Any) -> Any:
    """target's from_dlpack(producer, **kwargs); NotApplicable or Difference where it cannot be asked that (its
    signature has no such keyword, or, where it has none to read, it raised TypeError before it called the
    producer)."""
    if target.from_dlpack is None:
        raise NotApplicable(f"{target.name} has no from_dlpack")
    unknown = [name for name in kwargs if takes_keyword(target.from_dlpack, name) is False]
    if unknown:
        raise older_signature(unknown)
    if target.from_dlpack_takes_capsules:
        if kwargs:
            raise NotApplicable(f"{target.name}'s from_dlpack takes a capsule, with no {', '.join(kwargs)}")
        result = target.from_dlpack(producer.__dlpack__())
    else:
        try:
            result = target.from_dlpack(producer, **kwargs)
        except TypeError:
            if kwargs and not producer.calls and takes_keyword(target.from_dlpack, next(iter(kwargs))) is None:
                raise older_signature(kwargs) from None
            raise
    unmet = [m.unmet for m in producer.memories if m.unmet]
    if unmet:
        del result
        producer.release_capsules()
        raise NotApplicable(unmet[0])
    return result


def detached(error: Exception) -> Exception:
    """error without its tracebacks (its context's too): their frames may hold what the consumer made before it
    raised, whose deleter a check counts next."""
    seen: set[int] = set()
    link: Optional[BaseException] = error
    while link is not None and id(link) not in seen:
        seen.add(id(link))
        link.__traceback__ = None
        link = link.__cause__ or link.__context__
    return error


def attempt(target: Target, producer: InstrumentedProducer, **kwargs: Any) -> tuple[Any, Optional[Exception]]:
    """consume(target, producer, **kwargs): its result, or what it raised (detached), a check's verdict apart."""
    try:
        return consume(target, producer, **kwargs), None
    except VERDICTS:
        raise
    except Exception as error:
        return None, detached(error)


def producer_of(make: Callable[[dict[str, Any]], Memory], **options: Any) -> InstrumentedProducer:
    return InstrumentedProducer(make, **options)


def sample(**fields: Any) -> Callable[[dict[str, Any]], Memory]:
    """A producer's answer to every call: a fresh 1-D float32 tensor of VECTOR with these Memory fields, versioned
    where the call asked for it (see negotiated)."""
    return lambda kwargs: negotiated(kwargs, lambda **f: Memory.of(VECTOR, FLOAT32, **f), **fields)


def inspect_result(target: Target, result: Any) -> tuple[Decoded, Elements]:
    """What the consumer made, read through its own __dlpack__ (versioned, else legacy)."""
    try:
        return read(target, result, max_version=(1, 3))
    except (TypeError, BufferError):
        return read(target, result)


def dtype_named(triple: tuple[int, int, int]) -> Optional[DType]:
    return next((t for t in DTYPES if t.triple == triple), None)


def holds_memory(target: Target, result: Any, memory: Memory) -> Decoded:
    """Fail unless result has memory's dtype, shape and elements; its description.

    A wrong dtype is the failure of that dtype's own check (consumer.dtype.<name>), and a view that starts at the
    data pointer where byte_offset says otherwise the failure of consumer.layout.byte-offset: the other checks
    that see them are not applicable because of them (Failed.cause).
    """
    d, elements = inspect_result(target, result)
    dtype = dtype_named(memory.dtype)
    if d.dtype != memory.dtype:
        narrowed = " (narrowed)" if d.dtype[1] * d.dtype[2] < memory.dtype[1] * memory.dtype[2] else ""
        raise Failed(f"imported as dtype {d.dtype}{narrowed}, the capsule said {memory.dtype}", level="must",
                     rule=dtype.rule if dtype else RULE_TENSOR, cause=f"consumer.dtype.{dtype.name}" if dtype else "")
    if tuple(d.shape or ()) != tuple(memory.shape or ()):
        raise Failed(f"imported with shape {d.shape}, the capsule said {tuple(memory.shape or ())}", level="must",
                     rule=RULE_TENSOR)
    if elements is None:
        return d
    expected = memory.expected_elements()
    if elements != expected:
        shown = dtype or FLOAT32
        seen = (f"imported elements {show(elements, shown)}, the capsule's are {show(expected, shown)} "
                f"(strides {memory.strides}, byte_offset {memory.byte_offset})")
        if memory.byte_offset and data_of(d) == memory.data_address:
            raise Failed(f"{seen}: the import starts at the data pointer, byte_offset ignored", level="must",
                         rule=RULE_LAYOUT, cause=BYTE_OFFSET)
        raise Failed(seen, level="must", rule=RULE_TENSOR)
    return d


def shares_memory(d: Decoded, memory: Memory) -> bool:
    return data_of(d) == memory.data_address + memory.byte_offset


RULE_DELETER = (
    "DLPack Python spec: 'The consumer must transer [sic] ownership of the DLManagedTensor from the capsule to its own "
    "object ... the deleter of the DLManagedTensor will be called by the destructor of the consumer library object "
    "created to own the DLManagedTensor'; dlpack.h: 'When the borrowing framework doesn't need the tensor, it "
    "should call the deleter'"
)


def deleted_once(producer: InstrumentedProducer, when: str) -> str:
    """Fail unless every tensor the producer handed out was deleted exactly once; who deleted them.

    A deleter never called is consumer.deleter.lifetime's failure wherever it is seen (Failed.cause).
    """
    producer.release_capsules()
    gc.collect()
    by = []
    for memory in producer.memories:
        if memory.deleted == 0:
            raise Failed(f"{when}, the deleter was never called", level="must", rule=RULE_DELETER, cause=LIFETIME)
        if memory.deleted != 1:
            raise Failed(f"{when}, the deleter ran {memory.deleted} times, not once", level="must", rule=RULE_DELETER)
        if memory.wrong_pointers:
            raise Failed(f"the deleter was called with {memory.wrong_pointers[0]:#x}, not the managed tensor's address",
                         level="must", rule=RULE_DELETER)
        by.append(memory.deleted_by[0])
    return "deleted once by " + ", ".join(dict.fromkeys(by))


def import_and_release(target: Target, producer: InstrumentedProducer, **kwargs: Any) -> str:
    """Import, check the values, drop the result: every tensor deleted once. What was seen."""
    return refused_or_imported(target, producer, refused_must, **kwargs)


def refused_or_imported(target: Target, producer: InstrumentedProducer, refusal: Callable[[Exception, str], str],
                        then: Optional[Callable[[Any], None]] = None, **kwargs: Any) -> str:
    """import_and_release, where what the consumer raises (the tensors deleted once after it) is for
    refusal(error, what the deleter saw) to judge: it returns what was seen, or raises. then(result), where given,
    runs before the result is dropped."""
    result, refused = attempt(target, producer, **kwargs)
    if refused is not None:
        return refusal(refused, deleted_once(producer, "after the refusal"))
    d = holds_memory(target, result, producer.memories[-1])
    if then is not None:
        then(result)
    del result
    return f"{'zero-copy' if shares_memory(d, producer.memories[-1]) else 'copied'}; " + deleted_once(
        producer, "after the result was dropped"
    )


def refusal_fails(level: Level, rule: str, cause: Union[str, tuple[str, ...]] = "") -> Callable[[Exception, str], str]:
    def refusal(error: Exception, seen: str) -> str:
        raise Failed(f"refused with {describe_exception(error)}; {seen}", level=level, rule=rule, cause=cause)

    return refusal


def refusal_passes(why: str) -> Callable[[Exception, str], str]:
    return lambda error, seen: f"refused with {describe_exception(error)} ({why}); {seen}"


def refused_must(error: Exception, seen: str) -> str:
    raise Failed(f"raised {describe_exception(error)}; {seen}")


def takes_capsules(target: Target) -> None:
    if target.from_dlpack_takes_capsules:
        raise NotApplicable(f"{target.name}'s from_dlpack takes a capsule: it never calls __dlpack__")


# ---- capsules, versions, what the consumer asks ----


def renamed(target: Target, versioned: bool) -> str:
    """A versioned or legacy capsule imported: renamed "used_…", read as it says, deleted once. A consumer that
    refuses a legacy capsule (where it asked for max_version) fails capsule.legacy for every legacy tensor."""
    name = "dltensor_versioned" if versioned else "dltensor"
    producer = producer_of(sample(versioned=versioned))
    result, refused = attempt(target, producer)
    if refused is not None:
        seen = deleted_once(producer, "after the refusal")
        raise Failed(f"a {name!r} capsule was refused with {describe_exception(refused)}; {seen}",
                     cause="" if versioned else LEGACY)
    memory = producer.memories[-1]
    if not memory.consumed():
        raise Failed(f"the consumer kept the tensor but left the capsule named {name!r}")
    holds_memory(target, result, memory)
    del result
    return f"renamed 'used_{name}'; " + deleted_once(producer, "after the result was dropped")


RULE_RENAME = (
    "DLPack Python spec: 'The consumer must transer [sic] ownership of the DLManagedTensor from the capsule to its own "
    "object. It does so by renaming the capsule to \"used_dltensor\"'"
)


@check(
    "capsule.versioned", "capsules and versions",
    RULE_RENAME + "; 'when DLManagedTensorVersioned is in use the capsule names dltensor and used_dltensor will need "
    "a _versioned suffix'",
)
def capsule_versioned(target: Target) -> str:
    return renamed(target, versioned=True)


@check(
    "capsule.legacy", "capsules and versions",
    RULE_RENAME + "; array API __dlpack__: 'This method may return a capsule of version max_version ... or of a "
    "different version. This means the consumer must verify the version'",
)
def capsule_legacy(target: Target) -> str:
    return renamed(target, versioned=False)


@check(
    "capsule.versioned-only", "capsules and versions",
    "array API __dlpack__: a producer 'if max_version is None: ... from March 2025 onwards ... it's okay to raise "
    "BufferError here'; the consumer's logic 'x.__dlpack__(max_version=(1, 0), ...)' reads such a producer",
    "should",
)
def capsule_versioned_only(target: Target) -> str:
    takes_capsules(target)

    def versioned_only(kwargs: dict[str, Any]) -> Memory:
        if not asks_versioned(kwargs):
            raise BufferError("this producer exports DLPack 1.x capsules only (max_version=(1, x))")
        return Memory.of(VECTOR, FLOAT32)

    producer = producer_of(versioned_only)
    result, refused = attempt(target, producer)
    if refused is not None:
        asked = any(asks_versioned(call) for call in producer.calls)
        raise Failed(f"a producer that refuses legacy capsules left it nothing to import "
                     f"({describe_exception(refused)}): it asked {producer.calls}",
                     cause="" if asked else ASKS_MAX_VERSION)
    holds_memory(target, result, producer.memories[-1])
    del result
    return f"asked {producer.calls[-1]}; " + deleted_once(producer, "after the result was dropped")


@check(
    "asks.max_version", "capsules and versions",
    "array API __dlpack__: 'It is recommended ... this logic for the consumer': 'x.__dlpack__(max_version=(1, 0), "
    "...)' (the newest version the consumer reads, a tuple (major, minor)); 'This keyword may not be used by "
    "consumers until a later time after introduction'",
    "should",
)
def asks_max_version(target: Target) -> str:
    takes_capsules(target)
    producer = producer_of(sample())
    result = consume(target, producer)
    del result
    deleted_once(producer, "after the result was dropped")
    for call in producer.calls:
        asked = call.get("max_version")
        if isinstance(asked, tuple) and len(asked) == 2 and asked[0] == 1:
            return f"asked {call}"
    raise Failed(f"__dlpack__ was called with {', '.join(map(str, producer.calls))}: no max_version (1, x)",
                 cause=ASKS_MAX_VERSION)


@check(
    "asks.fallback", "capsules and versions",
    "array API __dlpack__: 'It is recommended ... this logic for the consumer': 'try: x.__dlpack__(max_version=(1, "
    "0), ...) except TypeError: x.__dlpack__(...)', for producers from before the keywords",
    "should",
)
def asks_fallback(target: Target) -> str:
    takes_capsules(target)
    producer = producer_of(sample(versioned=False), legacy=True)

    def refusal(error: Exception, seen: str) -> str:
        # A refusal of the legacy capsule the producer did hand out is capsule.legacy's defect; one before it
        # (the retry never made, or made with keywords) is this check's own.
        raise Failed(f"raised {describe_exception(error)} (calls {producer.calls}); {seen}",
                     cause=LEGACY if producer.memories else "")

    seen = refused_or_imported(target, producer, refusal)
    return f"calls {producer.calls}; {seen}"


@check(
    "version.newer-minor", "capsules and versions",
    "dlpack.h DLPackVersion: 'In the case of a minor version mismatch, the tensor can be safely used as long as "
    "the consumer knows how to interpret all fields'",
)
def version_newer_minor(target: Target) -> str:
    producer = producer_of(sample(version=(1, 99)))
    result, refused = attempt(target, producer)
    if isinstance(refused, BufferError):
        return f"refused with BufferError ({refused}); " + deleted_once(producer, "after the refusal")
    if refused is not None:
        raise Failed(f"raised {describe_exception(refused)}; " + deleted_once(producer, "after the refusal"))
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
    result, refused = attempt(target, producer)
    if refused is not None:
        return f"refused: {describe_exception(refused)}; " + deleted_once(producer, "after the refusal")
    del result
    raise Failed("a tensor of DLPack 2.0 was imported (its fields may mean anything)")


# ---- the deleter ----


@check("deleter.lifetime", "deleter", RULE_DELETER + ": not before, and once")
def deleter_lifetime(target: Target) -> str:
    producer = producer_of(sample())
    result = consume(target, producer)
    memory = producer.memories[-1]
    d = holds_memory(target, result, memory)
    if shares_memory(d, memory) and memory.deleted:
        raise Failed("the deleter ran while the array still viewed the memory", cause=LIFETIME)
    gc.collect()
    if shares_memory(d, memory) and memory.deleted:
        raise Failed("the deleter ran while the array still viewed the memory (after a garbage collection)",
                     cause=LIFETIME)
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


@check(
    "deleter.manager_ctx-null", "deleter",
    "dlpack.h DLManagedTensorVersioned.manager_ctx: 'the context of the original host framework ... It can also be "
    "NULL'; the deleter 'should be called to destruct manager_ctx' all the same: " + RULE_DELETER,
)
def deleter_manager_ctx_null(target: Target) -> str:
    producer = producer_of(sample(null_context=True))
    result = consume(target, producer)
    holds_memory(target, result, producer.memories[-1])
    del result
    # A deleter never called is this check's own failure where consumer.deleter.lifetime's tensors, which have a
    # context, are deleted; where they are not either, that check names the cause.
    return "manager_ctx NULL; " + deleted_once(producer, "after the result of a tensor whose manager_ctx is NULL was "
                                                         "dropped")


# ---- copy ----


@check("copy.true", "copy", "array API from_dlpack: copy 'If True, the function must always copy'")
def copy_true(target: Target) -> str:
    producer = producer_of(lambda kwargs: sample(flags=IS_COPIED if kwargs.get("copy") else 0)(kwargs))
    result = consume(target, producer, copy=True)
    d = holds_memory(target, result, producer.memories[-1])
    del result
    seen = deleted_once(producer, "after the result was dropped")
    asked = producer.calls[-1].get("copy") if producer.calls else None
    if asked is not True and shares_memory(d, producer.memories[-1]):
        raise Failed(f"__dlpack__ was called with {producer.calls[-1]} and the result shares the producer's memory",
                     cause=COPY_TRUE)
    return f"asked {producer.calls[-1] if producer.calls else 'nothing'}; {seen}"


RULE_PRODUCER_COPIES = (
    "array API __dlpack__: copy 'If True, the function must always copy (performed by the producer ...)'; the "
    "copy is the producer's to make: what a consumer does with a producer that breaks the rule is a note"
)


@check(
    "copy.true-producer-shares", "copy",
    RULE_PRODUCER_COPIES + " (here: copy=True answered with the producer's own memory, no IS_COPIED)",
    "note",
)
def copy_true_producer_shares(target: Target) -> str:
    producer = producer_of(sample())
    result = consume(target, producer, copy=True)
    memory = producer.memories[-1]
    d = holds_memory(target, result, memory)
    del result
    seen = deleted_once(producer, "after the result was dropped")
    if shares_memory(d, memory):
        asked = producer.calls[-1].get("copy") if producer.calls else None
        # A consumer that never asked the producer for the copy fails copy.true for it; that is not a note.
        raise Failed("copy=True, answered with the producer's own memory (no IS_COPIED), and the result views it",
                     cause="" if asked is True else COPY_TRUE)
    return "copied anyway; " + seen


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
    RULE_PRODUCER_COPIES + " (here: copy=False answered with a copy flagged IS_COPIED)",
    "note",
)
def copy_false_producer_copied(target: Target) -> str:
    producer = producer_of(sample(flags=IS_COPIED))
    result, refused = attempt(target, producer, copy=False)
    if isinstance(refused, BufferError):
        return f"BufferError ({refused}); " + deleted_once(producer, "after the refusal")
    if refused is not None:
        raise Failed(f"raised {describe_exception(refused)}; " + deleted_once(producer, "after the refusal"))
    del result
    deleted_once(producer, "after the result was dropped")
    raise Failed("copy=False, answered with a tensor flagged IS_COPIED (a copy), which the consumer took")


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


# ---- flags ----

RULE_IGNORE_READ_ONLY = (
    "array API __dlpack__: 'A consumer that does not support read-only arrays should ignore this flag (this is "
    "preferred over raising an exception; the user is then responsible for ensuring the memory isn't modified)'"
)


def with_flags(target: Target, flags: int, refusal: Callable[[Exception, str], str]) -> str:
    """A tensor flagged `flags` imported, read and dropped: the memory stays until the array goes (IS_COPIED gives
    the tensor to the consumer 'until the producer-provided deleter is invoked', not its memory once deleted)."""
    producer = producer_of(sample(flags=flags))
    result, refused = attempt(target, producer)
    if refused is not None:
        return refusal(refused, deleted_once(producer, "after the refusal"))
    memory = producer.memories[-1]
    d = holds_memory(target, result, memory)
    early = shares_memory(d, memory) and memory.deleted
    del result
    seen = deleted_once(producer, "after the result was dropped")
    if early:
        raise Failed("the deleter ran while the array still viewed the memory of an IS_COPIED tensor", level="must",
                     rule=RULE_IS_COPIED, cause=(LIFETIME, FLAGS_COPIED))
    return f"{'zero-copy' if shares_memory(d, memory) else 'copied'}; {seen}"


RULE_IS_COPIED = (
    "dlpack.h DLPACK_FLAG_BITMASK_IS_COPIED: 'If set, the tensor is considered solely owned throughout its lifetime "
    "by the consumer, until the producer-provided deleter is invoked': the consumer takes it, reads it as it is and "
    "calls the deleter once, when it is done with it"
)


@check("flags.copied", "flags", RULE_IS_COPIED)
def flags_copied(target: Target) -> str:
    return "IS_COPIED; " + with_flags(target, IS_COPIED, refused_must)


@check("flags.read-only-copied", "flags", RULE_IGNORE_READ_ONLY + " (READ_ONLY | IS_COPIED, JAX's copies)", "should")
def flags_read_only_copied(target: Target) -> str:
    return "READ_ONLY | IS_COPIED; " + with_flags(target, READ_ONLY | IS_COPIED,
                                                   refusal_fails("should", RULE_IGNORE_READ_ONLY))


# ---- READ_ONLY ----

RULE_READ_ONLY_IN = (
    "dlpack.h: DLPACK_FLAG_BITMASK_READ_ONLY 'bit mask to indicate that the tensor is read only'; "
    + RULE_IGNORE_READ_ONLY
    + ": a consumer with read-only arrays makes one"
)


def no_read_only_arrays(target: Target) -> bool:
    """The library has no read-only arrays: the array API asks it to ignore READ_ONLY."""
    return target.readonly is None and not target.immutable


@check("read_only.in", "read-only", RULE_READ_ONLY_IN, "should")
def read_only_in(target: Target) -> str:
    if target.write_first is None:
        raise NotApplicable(f"{target.name} has no way to write an array")
    producer = producer_of(sample(flags=READ_ONLY))
    result, refused = attempt(target, producer)
    if refused is not None:
        deleted_once(producer, "after the refusal")
        raise Failed(f"a READ_ONLY tensor was refused with {describe_exception(refused)}", rule=RULE_IGNORE_READ_ONLY)
    memory = producer.memories[-1]
    holds_memory(target, result, memory)
    try:
        target.write_first(result, 42)
        write_refused = ""
    except Exception as error:
        write_refused = describe_exception(error)
    written = memory.current_elements() != memory.expected_elements()
    del result
    seen = deleted_once(producer, "after the result was dropped")
    if written and no_read_only_arrays(target):
        return (f"the flag is ignored: {target.name} has no read-only arrays, and the array API asks such a consumer "
                f"to ignore it; {seen}")
    if written:
        raise Failed("a write through the imported array changed memory the producer flagged READ_ONLY, and "
                     f"{target.name} has read-only arrays")
    return (f"the write was refused ({write_refused})" if write_refused else "the write went to a copy") + f"; {seen}"


@check(
    "read_only.re-export", "read-only",
    "dlpack.h: DLPACK_FLAG_BITMASK_READ_ONLY: an imported read-only tensor exported again says so (or is copied), "
    "where the consumer has read-only arrays; " + RULE_IGNORE_READ_ONLY,
    "should",
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
        exported = f"flags {d.flags:#x}" if d.versioned else "a legacy capsule"
        if no_read_only_arrays(target):
            return f"re-exported as {exported}: {target.name} has no read-only arrays and ignores the flag; {seen}"
        raise Failed(f"re-exported as {exported}: the read-only memory lost its READ_ONLY flag")
    return ("READ_ONLY kept" if shares_memory(d, memory) else "re-exported as a copy") + f"; {seen}"


# ---- devices and streams ----


@check(
    "device.cpu", "devices and streams",
    "array API from_dlpack: device 'the v2023.12 standard only mandates that a compliant library should offer a "
    "way for from_dlpack to return an array whose underlying memory is accessible to the Python interpreter'",
    "should",
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
    "should",
)
def device_other(target: Target) -> str:
    runtime = target.runtime_for(CUDA)  # real device memory where this machine has CUDA
    producer = producer_of(sample(device=CUDA, runtime=runtime), device=CUDA)
    where = "CUDA memory" if runtime else "CUDA memory (no CUDA here)"
    result, refused = attempt(target, producer)
    if isinstance(refused, BufferError):
        return f"BufferError ({refused}); " + deleted_once(producer, "after the refusal")
    if refused is not None:
        deleted_once(producer, "after the refusal")
        raise Failed(f"{where} was refused with {describe_exception(refused)}, not BufferError")
    device = tuple(target.dlpack_device(result))
    del result
    seen = deleted_once(producer, "after the result was dropped")
    if device != CUDA:
        raise Failed(f"{where} was imported as an array on {device}")
    return f"kept on CUDA device 0; {seen}"


@check(
    "stream.cpu", "devices and streams",
    "array API __dlpack__: stream 'On CPU and other device types without streams, only None is accepted'; 'when "
    "kDLCPU is in use, stream must be None'",
)
def stream_cpu(target: Target) -> str:
    takes_capsules(target)
    producer = producer_of(sample())
    seen = import_and_release(target, producer)
    stream = producer.calls[0].get("stream")
    if stream is not None:
        raise Failed(f"__dlpack__ of CPU data was called with stream={stream!r}")
    return f"asked {producer.calls[0]}; {seen}"


@check("stream.device", "devices and streams", RULE_STREAM)
def stream_device(target: Target) -> str:
    takes_capsules(target)
    runtime = target.runtime_for(CUDA)
    if runtime is None:
        raise NotApplicable("no CUDA runtime here to hold the checker's device memory")
    producer = producer_of(sample(device=CUDA, runtime=runtime), device=CUDA)
    result, refused = attempt(target, producer)
    if refused is not None:
        deleted_once(producer, "after the refusal")
        raise NotApplicable(f"CUDA memory is refused ({describe_exception(refused)}; consumer.device.other judges "
                            "how)")
    holds_memory(target, result, producer.memories[-1])
    del result
    seen = deleted_once(producer, "after the result was dropped")
    faults = [fault for fault in (stream_fault(KDL_CUDA, call.get("stream")) for call in producer.calls) if fault]
    if faults:
        raise Failed(f"__dlpack__ of CUDA data was called with {faults[0]}")
    return f"asked {producer.calls}; {seen}"


# ---- dtypes ----


def dtype_check(dtype: DType) -> Callable[[Target], str]:
    def body(target: Target) -> str:
        raw = bytes(range(6 * dtype.itemsize))
        if dtype.name == "bool":
            raw = bytes([0, 1, 1, 0, 1, 0])
        producer = producer_of(lambda kwargs: negotiated(
            kwargs, lambda **f: Memory(raw, dtype.triple, (6,), (1,), **f)))
        lacks = dtype.name not in target.dtypes

        def refusal(error: Exception, seen: str) -> str:
            if lacks:
                return f"{target.name} has no {dtype.name}: refused with {describe_exception(error)}; {seen}"
            # No text makes a consumer import every dtype it has; the checker notes a refusal of one.
            raise Failed(f"{target.name} has {dtype.name}, and refused it with {describe_exception(error)}; {seen}",
                         level="note", rule=dtype_rule(dtype) + " (the checker infers: a library imports the dtypes "
                         "it has)")

        return refused_or_imported(target, producer, refusal)

    return body


def dtype_rule(dtype: DType) -> str:
    return (f"{dtype.rule}; a consumer reads it as that dtype, or refuses it (a library without {dtype.name} is "
            "offered it too: a clear refusal passes, a silent conversion fails)")


for _dtype in DTYPES:
    check(f"dtype.{_dtype.name}", "dtypes", dtype_rule(_dtype))(dtype_check(_dtype))


# ---- layouts ----

RULE_LAYOUT = (
    "dlpack.h DLTensor: strides 'in number of elements, not bytes'; byte_offset 'The offset in bytes to the "
    "beginning pointer to data'"
)
# No text names the exception with which a consumer refuses a layout it cannot view ('BufferError' is the
# producer's, for data it cannot export).
MAY_REFUSE = "a consumer may refuse a layout it cannot view; no text names the exception"
RULE_BYTE_OFFSET = (
    "dlpack.h DLTensor.data: 'This pointer is always aligned to 256 bytes as in CUDA. The byte_offset field should "
    "be used to point to the beginning of the data': a consumer reads byte_offset rather than refuse it"
)
RULE_ALIGNMENT = (
    "dlpack.h DLTensor.data: 'multiple libraries ... do not adhere to this 256 byte alignment requirement ... it is "
    "recommended to not rely on the data pointer being correctly aligned'"
)


def layout(target: Target, memory: Callable[..., Memory], refusal: Callable[[Exception, str], str],
           then: Optional[Callable[[Any], None]] = None) -> str:
    producer = producer_of(lambda kwargs: negotiated(kwargs, memory))
    return refused_or_imported(target, producer, refusal, then)


def matrix(**fields: Any) -> Memory:
    return Memory.of(MATRIX, FLOAT32, **fields)


@check(
    "layout.0-d", "layouts",
    "dlpack.h DLTensor, its size: 'size_t size = 1; for (tvm_index_t i = 0; i < t->ndim; ++i) { size *= "
    "t->shape[i]; }': ndim 0 (shape and strides NULL) is one element",
)
def layout_0d(target: Target) -> str:
    return layout(target, lambda **f: Memory.of(7.0, FLOAT32, **f), refused_must)


@check(
    "layout.size-0-null-data", "layouts",
    "DLPack Python spec: 'If the array is of size zero, the data pointer in DLTensor should be set to either NULL "
    "or 0'",
)
def layout_size_0(target: Target) -> str:
    return layout(target, lambda **f: Memory(b"", FLOAT32.triple, (0,), (1,), null_data=True, **f), refused_must)


@check("layout.transposed", "layouts", RULE_LAYOUT + f" ({MAY_REFUSE})")
def layout_transposed(target: Target) -> str:
    return layout(target, lambda **f: matrix(**f).transposed(), refusal_passes(MAY_REFUSE))


@check("layout.negative-strides", "layouts", RULE_LAYOUT + f" ({MAY_REFUSE})")
def layout_negative(target: Target) -> str:
    return layout(target, lambda **f: Memory.of(VECTOR, FLOAT32, **f).reversed(), refusal_passes(MAY_REFUSE))


@check("layout.byte-offset", "layouts", RULE_LAYOUT + "; " + RULE_BYTE_OFFSET)
def layout_offset(target: Target) -> str:
    return layout(target, lambda **f: Memory.of(VECTOR, FLOAT32, **f).offset(),
                  refusal_fails("should", RULE_BYTE_OFFSET, cause=BYTE_OFFSET))


@check("layout.strided", "layouts", RULE_LAYOUT + f" ({MAY_REFUSE})")
def layout_strided(target: Target) -> str:
    return layout(target, lambda **f: matrix(**f).every_other_column(), refusal_passes(MAY_REFUSE))


RULE_NULL_STRIDES = (
    "DLPack Python spec: 'When the strides field in the DLTensor struct is NULL, it indicates a row-major compact "
    "array' (legacy and 1.0/1.1 tensors)"
)


@check("layout.null-strides", "layouts", RULE_NULL_STRIDES)
def layout_null_strides(target: Target) -> str:
    # A legacy tensor: refused, it is capsule.legacy's defect where that check fails for it too.
    return layout(target, lambda **f: Memory(matrix().raw, FLOAT32.triple, (2, 3), None, versioned=False),
                  refusal_fails("must", RULE_NULL_STRIDES, cause=LEGACY))


# A data pointer 4 bytes past a 256-byte boundary: float32 elements stay naturally aligned.
MISALIGN = 4


def computed(target: Target) -> Optional[Callable[[Any], None]]:
    """A library kernel run on the import before it goes: a consumer may take unaligned memory and fail only when
    it computes on it (TensorFlow aborts in its first kernel, not in from_dlpack). Its exception is a failure of
    the alignment rule; an abort kills the worker, which fails the check at its level."""
    compute = target.compute
    if compute is None:
        return None

    def then(result: Any) -> None:
        try:
            compute(result)
        except Exception as error:
            raise Failed(f"imported, then {target.name}'s kernel on it raised {describe_exception(error)}",
                         rule=RULE_ALIGNMENT, cause=UNALIGNED) from None

    return then


@check("layout.unaligned", "layouts", RULE_ALIGNMENT, "should", cause=UNALIGNED)
def layout_unaligned(target: Target) -> str:
    return f"data pointer {MISALIGN} bytes past a 256-byte boundary; " + layout(
        target, lambda **f: Memory.of(VECTOR, FLOAT32, misalign=MISALIGN, **f),
        refusal_fails("should", RULE_ALIGNMENT, cause=UNALIGNED), computed(target)) + (
        "; computed on" if target.compute else "")


# Refused, died or failed in the library's kernel, this tensor is layout.unaligned's defect where that check
# fails too (its unaligned data pointer), else layout.byte-offset's.
UNALIGNED_OFFSET = (UNALIGNED, BYTE_OFFSET)


@check("layout.unaligned-byte-offset", "layouts", RULE_ALIGNMENT + "; " + RULE_BYTE_OFFSET, "should",
       cause=UNALIGNED_OFFSET)
def layout_unaligned_offset(target: Target) -> str:
    return f"data pointer {MISALIGN} bytes past a 256-byte boundary, byte_offset 8; " + layout(
        target, lambda **f: Memory.of(VECTOR, FLOAT32, misalign=MISALIGN, **f).offset(),
        refusal_fails("should", RULE_ALIGNMENT, cause=UNALIGNED_OFFSET), computed(target)) + (
        "; computed on" if target.compute else "")


# ---- errors ----


@check(
    "error.propagates", "errors",
    "array API from_dlpack: 'The __dlpack__ and __dlpack_device__ methods on the input array may raise "
    "BufferError ... from_dlpack must propagate such exceptions'",
)
def error_propagates(target: Target) -> str:
    takes_capsules(target)
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


@check("error.not-a-producer", "errors", RULE_NOT_A_PRODUCER, "should")
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
