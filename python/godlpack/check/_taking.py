"""The checker as a consumer of a producer's capsule: read it, take it, watch its deleter.

Every field is read with the ctypes decoder (godlpack.check._dlpack), never through the library under check or
through godlpack. A counting trampoline replaces the managed tensor's deleter before anyone can call it, so the
checker sees every call, whoever makes it: the producer's capsule destructor or the checker itself.
"""

from __future__ import annotations

import ctypes
import gc
from typing import Any, Optional

from godlpack.check._dlpack import (
    DLManagedTensor,
    DLManagedTensorVersioned,
    Decoded,
    LegacyDeleter,
    VersionedDeleter,
    _api,
    capsule_name,
    decode_managed,
)
from godlpack.check._verdicts import Failed

UNCONSUMED = ("dltensor", "dltensor_versioned")
# Every trampoline ever installed: a producer may call a deleter long after the check let its Taken go (a capsule
# dropped later, a consumer that holds on), and a freed ctypes callback would crash it. A few hundred small
# objects a run.
_TRAMPOLINES: list[Any] = []
# A capsule keeps a pointer to its name: the new names must live as long as the process.
_USED = {"dltensor": b"used_dltensor", "dltensor_versioned": b"used_dltensor_versioned"}


def is_capsule(x: Any) -> bool:
    return type(x).__name__ == "PyCapsule"


class Taken:
    """A producer's capsule, decoded, with a counting trampoline in front of its deleter.

    `consume()` renames the capsule as a consumer does; `delete()` is then the consumer's one deleter call.
    Dropping an unconsumed Taken leaves the deleter to the capsule's destructor, which the trampoline counts.
    """

    def __init__(self, capsule: Any) -> None:
        if not is_capsule(capsule):
            raise Failed(f"__dlpack__ returned a {type(capsule).__name__}, not a PyCapsule")
        self.name = capsule_name(capsule)
        if self.name not in UNCONSUMED:
            raise Failed(f"the capsule is named {self.name!r}, not 'dltensor' or 'dltensor_versioned'")
        self.capsule: Optional[Any] = capsule
        self.versioned = self.name == "dltensor_versioned"
        self.pointer = _api.PyCapsule_GetPointer(capsule, self.name.encode())
        if not self.pointer:
            raise Failed(f"the {self.name!r} capsule holds a NULL pointer")
        self.decoded: Decoded = decode_managed(self.pointer, versioned=self.versioned, name=self.name)
        self.calls = 0
        self._original: Any = None
        # Whatever the major version, the deleter is where 1.x has it: dlpack.h keeps 'everything until' flags
        # stable 'to ensure that deleter can be correctly called'.
        self._watch()

    def _watch(self) -> None:
        cls, kind = (DLManagedTensorVersioned, VersionedDeleter) if self.versioned else (DLManagedTensor, LegacyDeleter)
        managed = cls.from_address(self.pointer)
        address = ctypes.cast(managed.deleter, ctypes.c_void_p).value
        if not address:
            return  # NULL: the header allows a producer without a reasonable destructor
        original = kind(address)

        def trampoline(pointer: Any) -> None:
            self.calls += 1
            original(pointer)

        callback = kind(trampoline)
        self._original = original
        _TRAMPOLINES.extend([original, callback])
        managed.deleter = callback

    @property
    def has_deleter(self) -> bool:
        return self._original is not None

    def consume(self) -> None:
        """Rename the capsule "used_…": from now on the deleter is ours to call, the destructor's no longer."""
        assert self.capsule is not None
        if _api.PyCapsule_SetName(self.capsule, _USED[self.name]) != 0:
            raise RuntimeError("PyCapsule_SetName failed")

    def drop_capsule(self) -> None:
        self.capsule = None
        gc.collect()

    def delete(self) -> None:
        """The consumer's one call of the deleter (through the trampoline)."""
        if self._original is None:
            return
        cls = DLManagedTensorVersioned if self.versioned else DLManagedTensor
        managed = cls.from_address(self.pointer)
        managed.deleter(ctypes.cast(self.pointer, ctypes.POINTER(cls)))


def take(capsule: Any) -> Taken:
    """Read capsule as the checker's consumer: consumed at once, and deleted when the Taken is closed."""
    taken = Taken(capsule)
    return taken


def version_text(decoded: Decoded) -> str:
    if not decoded.versioned:
        return "a legacy 'dltensor' capsule"
    assert decoded.version is not None
    return f"a 'dltensor_versioned' capsule of version {decoded.version[0]}.{decoded.version[1]}"
