"""Element types and values: the DLPack dtype table the checks use, and reading a described tensor's elements.

The checker never trusts a library to tell it what its memory holds: it reads elements itself, from the data
pointer, byte offset, shape and strides a managed tensor describes, and compares them with what the check made.
"""

from __future__ import annotations

import ctypes
import itertools
import struct
from dataclasses import dataclass
from typing import Any, Optional, Sequence

from godlpack.check._dlpack import Decoded, contiguous_strides


@dataclass(frozen=True)
class DType:
    """A dtype as DLPack names it: its (code, bits, lanes), and how Python reads one element (struct format)."""

    name: str
    code: int
    bits: int
    lanes: int = 1
    # struct format of one element; "" where struct has none (bfloat16 and the minifloats are read otherwise)
    format: str = ""

    @property
    def triple(self) -> tuple[int, int, int]:
        return (self.code, self.bits, self.lanes)

    @property
    def itemsize(self) -> int:
        return (self.bits * self.lanes + 7) // 8

    @property
    def rule(self) -> str:
        """What the dtype checks hold a library to, in dlpack.h's words."""
        return (f"dlpack.h DLDataTypeCode: {self.name} is '{CODE_NAMES[self.code]} = {self.code}U', bits {self.bits}, "
                f"lanes {self.lanes} ('Number of lanes in the type, used for vector types')")


# dlpack.h's DLDataTypeCode names, by code.
CODE_NAMES = {
    0: "kDLInt", 1: "kDLUInt", 2: "kDLFloat", 3: "kDLOpaqueHandle", 4: "kDLBfloat", 5: "kDLComplex", 6: "kDLBool",
    7: "kDLFloat8_e3m4", 8: "kDLFloat8_e4m3", 9: "kDLFloat8_e4m3b11fnuz", 10: "kDLFloat8_e4m3fn",
    11: "kDLFloat8_e4m3fnuz", 12: "kDLFloat8_e5m2", 13: "kDLFloat8_e5m2fnuz", 14: "kDLFloat8_e8m0fnu",
}


# The array API's dtypes, then the others libraries have (dlpack.h, DLDataTypeCode); kDLBool is 8 bits as
# the header's example says.
DTYPES: tuple[DType, ...] = (
    DType("bool", 6, 8, format="?"),
    DType("int8", 0, 8, format="b"),
    DType("int16", 0, 16, format="h"),
    DType("int32", 0, 32, format="i"),
    DType("int64", 0, 64, format="q"),
    DType("uint8", 1, 8, format="B"),
    DType("uint16", 1, 16, format="H"),
    DType("uint32", 1, 32, format="I"),
    DType("uint64", 1, 64, format="Q"),
    DType("float16", 2, 16, format="e"),
    DType("float32", 2, 32, format="f"),
    DType("float64", 2, 64, format="d"),
    DType("complex64", 5, 64, format="ff"),
    DType("complex128", 5, 128, format="dd"),
    DType("bfloat16", 4, 16),
    DType("float8_e3m4", 7, 8),
    DType("float8_e4m3", 8, 8),
    DType("float8_e4m3b11fnuz", 9, 8),
    DType("float8_e4m3fn", 10, 8),
    DType("float8_e4m3fnuz", 11, 8),
    DType("float8_e5m2", 12, 8),
    DType("float8_e5m2fnuz", 13, 8),
    DType("float8_e8m0fnu", 14, 8),
)
DTYPE_BY_NAME = {d.name: d for d in DTYPES}
FLOAT32 = DTYPE_BY_NAME["float32"]

# The values every dtype check stores: small integers, exact in every dtype above that struct can read.
SAMPLE = (0, 1, 2, 3, 4, 5)


def sample_values(dtype: DType) -> list[Any]:
    """SAMPLE as Python values of dtype's kind (what asarray is given to make the check's array)."""
    if dtype.name == "bool":
        return [v % 2 == 1 for v in SAMPLE]
    if dtype.code == 5:
        return [complex(v, -v) for v in SAMPLE]
    if dtype.code in (2, 4) or dtype.code >= 7:
        return [float(v) for v in SAMPLE]
    return list(SAMPLE)


def encode(dtype: DType, value: Any) -> Optional[bytes]:
    """One element's bytes, or None where this module cannot encode dtype (the minifloats)."""
    if dtype.name == "bfloat16":
        return struct.pack("<f", float(value))[2:]  # the upper half of the float32: exact for small integers
    if not dtype.format:
        return None
    if dtype.code == 5:
        return struct.pack("=" + dtype.format, value.real, value.imag)
    return struct.pack("=" + dtype.format, value)


def element_offsets(decoded: Decoded) -> tuple[int, list[int]]:
    """The element size and each element's byte offset from data + byte_offset, in C order (row-major over its
    shape); no element is read. NULL strides mean C-contiguous (what DLPack before 1.2 allowed); the caller checks
    whether the version allowed them."""
    itemsize = (decoded.dtype[1] * decoded.dtype[2] + 7) // 8
    shape = decoded.shape or ()
    if decoded.ndim and decoded.shape is None:
        raise ValueError("shape is NULL with ndim > 0")
    strides = decoded.strides if decoded.strides is not None else contiguous_strides(shape)
    if any(n == 0 for n in shape):
        return itemsize, []
    if not decoded.data:
        raise ValueError("data is NULL in a tensor with elements")
    offsets = [sum(i * s for i, s in zip(index, strides)) * itemsize
               for index in itertools.product(*(range(n) for n in shape))]
    return itemsize, offsets


def read_elements(decoded: Decoded) -> list[bytes]:
    """The bytes of every element the tensor describes, in C order, read on the host: only for memory the host can
    read (godlpack.check._device.host_readable decides; device memory goes through a device runtime). A tensor with
    no elements reads as [] without touching its data pointer."""
    itemsize, offsets = element_offsets(decoded)
    base = decoded.data + decoded.byte_offset
    return [ctypes.string_at(base + offset, itemsize) for offset in offsets]


def expected_elements(dtype: DType, values: Sequence[Any]) -> Optional[list[bytes]]:
    """The bytes values (flat, C order) must have in dtype, or None where dtype cannot be encoded here."""
    out = []
    for v in values:
        b = encode(dtype, v)
        if b is None:
            return None
        out.append(b)
    return out


def flatten(nested: Any) -> list[Any]:
    """A nested list's scalars in C order; a scalar alone is a list of one."""
    if isinstance(nested, (list, tuple)):
        return [v for item in nested for v in flatten(item)]
    return [nested]


def shape_of(nested: Any) -> tuple[int, ...]:
    """The shape of a rectangular nested list (a scalar's is ())."""
    shape: list[int] = []
    while isinstance(nested, (list, tuple)):
        shape.append(len(nested))
        if not nested:
            break
        nested = nested[0]
    return tuple(shape)


def show(elements: Sequence[bytes], dtype: DType) -> str:
    """A few elements as numbers for a message (their bytes where dtype has no struct format)."""
    shown = []
    for e in elements[:6]:
        if dtype.format and len(e) == struct.calcsize("=" + dtype.format):
            v = struct.unpack("=" + dtype.format, e)
            shown.append(str(complex(*v) if len(v) == 2 else v[0]))
        elif dtype.name == "bfloat16" and len(e) == 2:
            shown.append(str(struct.unpack("<f", b"\0\0" + e)[0]))
        else:
            shown.append(e.hex())
    return "[" + ", ".join(shown) + (", ...]" if len(elements) > 6 else "]")
