"""Broken tensors a hostile producer may hand over, each with what godlpack's BufferError must say about it.

docs/protocol.md#consumer-what-the-producer-hands-over: every one is a BufferError that names the fault, and the
producer's deleter runs exactly once, before the import returns.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from dlpack_ctypes import HandMade


class Broken(NamedTuple):
    """A broken tensor: the HandMade fields that break it, and what the error message must contain ('' for any)."""

    fields: dict[str, Any]
    names: str = ""


BROKEN: dict[str, Broken] = {
    "major version 2": Broken(dict(version=(2, 0)), "2.0"),
    "major version 3": Broken(dict(version=(3, 1)), "3.1"),
    "major version 0 in a versioned capsule": Broken(dict(version=(0, 9)), "0.9"),
    "unknown flag bit": Broken(dict(flags=1 << 5)),
    "newer minor, unknown flag bit": Broken(dict(version=(1, 99), flags=1 << 7)),
    "newer minor, unknown dtype": Broken(dict(version=(1, 99), dtype=(99, 8, 1))),
    "newer minor, unknown device": Broken(dict(version=(1, 99), device=(99, 0))),
    "newer minor, unknown device and dtype": Broken(dict(version=(1, 99), device=(99, 0), dtype=(99, 8, 1))),
    "ndim 65": Broken(dict(ndim=65), "ndim 65"),
    "65 dimensions": Broken(dict(shape=(1,) * 65, strides=(1,) * 65)),
    "ndim -1": Broken(dict(ndim=-1)),
    "ndim -2**31": Broken(dict(ndim=-(2**31))),
    "negative dimension": Broken(dict(shape=(2, -1), strides=(1, 1)), "-1"),
    "element count beyond int64": Broken(dict(shape=(2**62, 4), strides=(1, 1))),
    "element count overflow": Broken(dict(shape=(2**40, 2**40), strides=(0, 0))),
    "element count overflow, strided": Broken(dict(shape=(2**40, 2**40), strides=(1, 1))),
    "byte count overflow": Broken(dict(shape=(4, 2**61), strides=(2**61, 1))),
    "byte extent overflow": Broken(dict(shape=(3,), strides=(2**62,))),
    "NULL data": Broken(dict(null_data=True), "NULL"),
    "NULL shape": Broken(dict(shape=None, ndim=2, strides=(1, 1))),
    "NULL strides in 1.2": Broken(dict(shape=(2, 3), strides=None, version=(1, 2))),
    "NULL strides in 1.3": Broken(dict(shape=(2, 3), strides=None)),
    "opaque dtype": Broken(dict(dtype=(3, 64, 1)), "code=3, bits=64, lanes=1"),
    "unknown dtype code": Broken(dict(dtype=(99, 8, 1)), "code=99, bits=8, lanes=1"),
    "float24": Broken(dict(dtype=(2, 24, 1)), "code=2, bits=24, lanes=1"),
    "int7": Broken(dict(dtype=(0, 7, 1)), "code=0, bits=7, lanes=1"),
    "zero bits": Broken(dict(dtype=(0, 0, 1))),
    "vector of float24": Broken(dict(dtype=(2, 24, 4)), "code=2, bits=24, lanes=4"),
    "vector of 12-bit elements": Broken(dict(dtype=(15, 6, 2)), "code=15, bits=6, lanes=2"),
    "zero lanes": Broken(dict(dtype=(2, 32, 0)), "code=2, bits=32, lanes=0"),
    "packed float4, strided": Broken(dict(dtype=(17, 4, 1), strides=(2,))),
    "byte_offset wraps the address space": Broken(dict(byte_offset=2**64 - 1)),
}


def broken(case: str, versioned: bool = True) -> HandMade:
    """BROKEN[case] as a hand-made float32 tensor of shape (4,) (unless the case says otherwise)."""
    fields: dict[str, Any] = dict(shape=(4,), strides=(1,), versioned=versioned)
    fields.update(BROKEN[case].fields)
    return HandMade(**fields)
