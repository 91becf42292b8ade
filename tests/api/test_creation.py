"""empty, zeros, full and arange: values, layouts, and rounding exactly as NumPy and PyTorch round."""

from __future__ import annotations

import math
import random
import struct

import numpy as np
import pytest
import torch

import godlpack


def interesting_floats() -> list[float]:
    """Values near every rounding boundary of float16 and bfloat16, plus a random spread."""
    rng = random.Random(20261129)
    values = [0.0, -0.0, 1.0, -1.0, 65504.0, 65519.99, 65520.0, 1e6, -1e6, 5.96e-8, 2.98e-8, 2.99e-8, 1e-10,
              6.1e-5, 3.4e38, 3.4e39, math.inf, -math.inf, 1 / 3, 2049.0, 2051.0, 4097.0]
    for _ in range(2000):
        values.append(rng.uniform(-1, 1) * 2.0 ** rng.randint(-30, 20))
        # Halfway cases between neighbouring float16 values, and a hair either side of them.
        h = float(np.float16(rng.uniform(-1000, 1000)))
        up = float(np.nextafter(np.float16(h), np.float16(np.inf)))
        mid = (h + up) / 2
        values += [mid, math.nextafter(mid, math.inf), math.nextafter(mid, -math.inf)]
    return values


def test_full_float16_rounds_like_numpy() -> None:
    for x in interesting_floats():
        got = godlpack.full((), x, dtype="float16").tolist()
        with np.errstate(over="ignore"):
            want = float(np.float16(x))
        assert struct.pack("<d", got) == struct.pack("<d", want), x


def test_full_bfloat16_rounds_like_torch() -> None:
    values = interesting_floats()
    want = torch.tensor(values, dtype=torch.float64).to(torch.bfloat16).to(torch.float64).tolist()
    for x, w in zip(values, want):
        got = godlpack.full((), x, dtype="bfloat16").tolist()
        assert struct.pack("<d", got) == struct.pack("<d", w), x


def test_full_nan() -> None:
    for dtype in ["float16", "bfloat16", "float32", "float64"]:
        assert math.isnan(godlpack.full(2, math.nan, dtype=dtype).tolist()[1])


@pytest.mark.parametrize("dtype", ["int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64",
                                   "float16", "bfloat16", "float32", "float64", "complex64", "complex128"])
def test_arange_every_dtype(dtype: str) -> None:
    n = 100
    t = godlpack.arange(n, dtype=dtype)
    assert t.shape == (n,) and t.strides == (1,) and t.dtype == dtype
    assert t.tolist() == list(range(n))


def test_arange_takes_numpy_integer_scalars_and_0d_arrays() -> None:
    assert godlpack.arange(np.int64(3)).tolist() == [0, 1, 2]
    assert godlpack.arange(np.array(4)).tolist() == [0, 1, 2, 3]


def test_arange_overflowing_dtype() -> None:
    with pytest.raises(OverflowError):
        godlpack.arange(300, dtype="uint8")
    assert godlpack.arange(256, dtype="uint8").tolist()[-1] == 255


def test_zeros_and_full_layouts() -> None:
    t = godlpack.zeros((2, 0, 3))
    assert t.size == 0 and t.nbytes == 0 and t.data_ptr() != 0 and t.tolist() == [[], []]
    f = godlpack.full((3, 2), 2.5, dtype="float64")
    assert np.array_equal(np.from_dlpack(f), np.full((3, 2), 2.5))
    big = godlpack.full(1 << 18, 7, dtype="int32")  # large enough that Go fills it without the GIL
    assert np.all(np.from_dlpack(big) == 7)


@pytest.mark.parametrize("nbytes", [1, 8, 256, 257, 4096, 1 << 20, 64 << 20])
def test_zeros_are_zero_in_a_block_a_full_tensor_left_dirty(nbytes: int) -> None:
    # Small blocks go back among the spares as released, dirty; zeros takes them without a memset of its own, and
    # large ones from calloc, which the kernel maps zero: each must still be zero, in C's path and in Go's.
    for _ in range(3):
        godlpack.full(nbytes, 0xAB, dtype="uint8")  # made and released at once
        for z in (godlpack.zeros(nbytes, dtype="uint8"), godlpack.zeros((1, nbytes), dtype="uint8")):
            assert not np.from_dlpack(z).any()
