"""complex32 and vector dtypes (lanes > 1): imported, kept, re-exported as they are, read where defined.

docs/protocol.md#dtypes-vectors-and-complex32
"""

from __future__ import annotations

import numpy as np
import pytest
import torch

import godlpack
from dlpack_ctypes import HandMade, decode


@pytest.mark.filterwarnings("ignore:ComplexHalf support is experimental")
def test_complex32_from_torch_reads_and_goes_back() -> None:
    x = torch.tensor([1 + 2j, 3 - 4.5j]).to(torch.complex32)
    g = godlpack.from_dlpack(x)
    assert g.dtype == "complex32" and (g.dtype.code, g.dtype.bits, g.dtype.lanes) == (5, 32, 1)
    assert g.itemsize == 4 and g.nbytes == 8 and g.data_ptr() == x.data_ptr()
    assert g.tolist() == [1 + 2j, 3 - 4.5j]
    y = torch.from_dlpack(g)
    assert y.dtype == torch.complex32 and y.data_ptr() == x.data_ptr()


def test_complex32_creation() -> None:
    assert godlpack.full(2, 1.5 - 2j, dtype="complex32").tolist() == [1.5 - 2j, 1.5 - 2j]
    assert godlpack.zeros(3, dtype="complex32").tolist() == [0j, 0j, 0j]
    assert godlpack.arange(3, dtype="complex32").tolist() == [0j, 1 + 0j, 2 + 0j]


def test_float4_x2_from_torch_reads_lanes_little_bit_endian() -> None:
    raw = torch.tensor([0x21, 0x43], dtype=torch.uint8)
    x = raw.view(torch.float4_e2m1fn_x2)
    g = godlpack.from_dlpack(x)
    assert (g.dtype.code, g.dtype.bits, g.dtype.lanes) == (17, 4, 2) and g.dtype == "float4_e2m1fnx2"
    assert g.itemsize == 1 and g.data_ptr() == x.data_ptr()
    # Lane i of a byte is its bits [4i, 4i + 4): float4_e2m1fn codes 1, 2, 3, 4 are 0.5, 1.0, 1.5, 2.0.
    assert g.tolist() == [[0.5, 1.0], [1.5, 2.0]]
    d = decode(g.__dlpack__(max_version=(1, 0)))
    assert d.dtype == (17, 4, 2) and d.version == (1, 1) and d.data == x.data_ptr()
    y = torch.from_dlpack(g)
    assert y.dtype == torch.float4_e2m1fn_x2 and y.data_ptr() == x.data_ptr()


def test_vector_dtype_by_name_creation_and_buffer() -> None:
    t = godlpack.full((2,), 2.5, dtype="float32x4")
    assert t.dtype == godlpack.DType("float32x4") and t.dtype.lanes == 4 and t.itemsize == 16 and t.nbytes == 32
    assert t.tolist() == [[2.5] * 4, [2.5] * 4]
    with pytest.raises(BufferError, match="no buffer format"):
        memoryview(t)
    back = godlpack.from_dlpack(t.__dlpack__(max_version=(1, 3)))
    assert back.dtype == "float32x4" and back.data_ptr() == t.data_ptr()


def test_vector_of_a_table_dtype_from_a_producer() -> None:
    h = HandMade(shape=(2,), strides=(1,), dtype=(0, 16, 3), nbytes=12)
    np.frombuffer(h.buffer, np.int16)[:6] = [1, 2, 3, -4, -5, -6]
    t = godlpack.from_dlpack(h.capsule())
    assert t.dtype == "int16x3" and t.tolist() == [[1, 2, 3], [-4, -5, -6]]
    del t


@pytest.mark.parametrize("dtype", [(16, 6, 2), (2, 24, 4), (2, 32, 0)], ids=["float6x2 is 12 bits", "no float24", "0 lanes"])
def test_vectors_that_are_not_whole_bytes_or_not_in_the_table_are_refused(dtype: tuple[int, int, int]) -> None:
    h = HandMade(shape=(2,), strides=(1,), dtype=dtype)
    with pytest.raises(BufferError, match=f"code={dtype[0]}, bits={dtype[1]}, lanes={dtype[2]}"):
        godlpack.from_dlpack(h.capsule())
    assert h.deleted == 1


def test_dtype_names_with_torch_prefix_and_vectors() -> None:
    assert godlpack.DType("torch.float32") == "float32"
    assert godlpack.zeros(2, dtype="torch.bfloat16").dtype == "bfloat16"
    assert godlpack.DType("int8x16").lanes == 16
    with pytest.raises(TypeError, match="not understood"):
        godlpack.DType("float6_e2m3fnx2")
