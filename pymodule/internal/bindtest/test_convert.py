"""convert as documented: a tensor of any layout, and of a bool, integer or float dtype (float16 and bfloat16
among them), is converted where float32 or float64 is asked; a refusal says what the parameter takes."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import torch

import bindtest as b

SPECIAL = [1.0, -2.0, 0.5, 65504.0, 2.0**-24, -0.0, np.inf, -np.inf]  # exact in float16


def float16s() -> np.ndarray:
    return np.array(SPECIAL + [0.1, -3.14159, 1e-5, 7.0], np.float16).reshape(3, 4)


@pytest.mark.parametrize("view", [
    lambda a: a,
    lambda a: a.T,  # Fortran order
    lambda a: a[:, ::2],  # strided
    lambda a: a[::-1, ::-1],  # reversed: negative strides
], ids=["C", "transposed", "strided", "reversed"])
def test_float16_from_numpy_converts(view: Any) -> None:
    x = view(float16s())
    for convert, dtype in [(b.as_float32, np.float32), (b.as_float64, np.float64)]:
        got = convert(x)
        assert got.dtype == dtype and got.flags.c_contiguous and got.shape == x.shape
        # every float16 is exact in float32 and float64: NumPy's astype gives the same bits
        assert got.tobytes() == x.astype(dtype).tobytes()


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16])
@pytest.mark.parametrize("view", [lambda t: t, lambda t: t.T, lambda t: t[:, ::2]], ids=["C", "transposed", "strided"])
def test_half_floats_from_torch_convert(dtype: torch.dtype, view: Any) -> None:
    x = view(torch.tensor([SPECIAL[:4], SPECIAL[4:], [0.1, -3.5, 1e-3, 300.0]], dtype=dtype))
    for convert, to in [(b.as_float32, torch.float32), (b.as_float64, torch.float64)]:
        got = convert(x)
        assert got.shape == tuple(x.shape)
        assert got.tobytes() == x.to(to).numpy().tobytes()


def test_nans_stay_nans_of_their_sign() -> None:
    x = np.array([np.nan, -np.nan], np.float16)
    got = b.vector_of(x)
    assert got.dtype == np.float32 and np.isnan(got).all() and np.signbit(got).tolist() == [False, True]
    codes = np.array([0x7FC0, 0xFFC1], np.uint16).view(np.int16)  # a quiet NaN, and a negative one with a payload
    got = b.as_float64(torch.from_numpy(codes).view(torch.bfloat16))
    assert np.isnan(got).all() and np.signbit(got).tolist() == [False, True]


def test_a_float16_vector_converts_to_the_first_float_asked() -> None:
    assert b.vector_of(np.arange(4, dtype=np.float16)).dtype == np.float32  # float32|float64: float32 first
    assert b.vector_of(np.arange(4, dtype=np.float64)).dtype == np.float64  # taken as it is
    assert b.half_sum(np.array([0.5, 0.25, 2.0], np.float16)) == 2.75  # a []float32 parameter converts too
    assert b.half_sum(torch.tensor([0.5, 9.0, 1.5], dtype=torch.bfloat16)[::2]) == 2.0  # strided bfloat16


@pytest.mark.parametrize("call, x, exception, message", [
    (b.as_float32, np.ones((2, 2), np.complex64), TypeError,
     "as_float32(): argument 'x' must be a 2-D float32 tensor (any layout; bool, integer and float dtypes converted to "
     "float32), got a 2-D complex64 one"),
    (b.as_float32, np.ones(3, np.float16), TypeError,
     "as_float32(): argument 'x' must be a 2-D float32 tensor (any layout; bool, integer and float dtypes converted to "
     "float32), got a 1-D float16 one"),
    (b.vector_of, np.ones((2, 2), np.float16), TypeError,
     "vector_of(): argument 'x' must be a 1-D float32 or float64 tensor (any layout; bool, integer and float dtypes "
     "converted to float32), got a 2-D float16 one"),
    (b.half_sum, np.ones(2, np.complex128), TypeError,
     "half_sum(): argument 'x' must be a 1-D float32 tensor (any layout; bool, integer and float dtypes converted to "
     "float32), got a 1-D complex128 one"),
    (b.conv_f, np.ones(3, np.float32), TypeError,
     "conv_f(): argument 'x' must be a 2-D float32 tensor (any layout; bool, integer and float dtypes converted to "
     "float32), got a 1-D float32 one"),
], ids=["complex", "ndim", "vector", "slice", "fortran"])
def test_a_refusal_says_what_the_parameter_takes(call: Any, x: Any, exception: type, message: str) -> None:
    with pytest.raises(exception) as info:
        call(x)
    assert str(info.value) == message


WRITABLE_VIEWS = {
    "transposed": lambda a: a.T,  # Fortran order
    "strided": lambda a: a[:, ::2],
    "reversed": lambda a: a[::-1, ::-1],  # negative strides
    "C": lambda a: a,  # C-contiguous: no copy
}


@pytest.mark.parametrize("view", WRITABLE_VIEWS)
@pytest.mark.parametrize("kind", ["numpy", "torch"])
def test_a_writable_tensor_of_another_layout_is_written_back(view: str, kind: str) -> None:
    """convert on a writable parameter: the function gets a C-contiguous copy, which the binder writes back into the
    producer's memory once the function returns without an error (as NumPy's ufuncs buffer an out= array)."""
    if kind == "torch" and view == "reversed":
        pytest.skip("PyTorch has no negative strides")
    base = np.arange(48, dtype=np.float32).reshape(6, 8)
    whole: Any = torch.from_numpy(base.copy()) if kind == "torch" else base.copy()
    x = WRITABLE_VIEWS[view](whole)
    want = 2 * WRITABLE_VIEWS[view](base)
    assert b.double_(x) is None
    got = x.numpy() if isinstance(x, torch.Tensor) else x
    assert (got == want).all()
    everything = whole.numpy() if isinstance(whole, torch.Tensor) else whole
    assert everything.sum() == base.sum() + want.sum() / 2  # nothing outside the view was written


def test_a_writable_copy_is_not_written_back_when_the_function_fails() -> None:
    x = np.arange(12, dtype=np.float32).reshape(3, 4).T
    with pytest.raises(ValueError, match="failed after doubling 12 elements"):
        b.double_(x, fail=True)
    assert (x == np.arange(12, dtype=np.float32).reshape(3, 4).T).all()


def test_a_writable_tensor_converts_its_layout_only() -> None:
    with pytest.raises(TypeError, match=r"a writable 2-D float32 tensor \(any layout: a copy, written back\), got a "
                                        r"2-D float64 one"):
        b.double_(np.ones((2, 3)))
    read_only = np.ones((3, 2), np.float32).T
    read_only.flags.writeable = False
    with pytest.raises(BufferError):
        b.double_(read_only)
    shared = np.lib.stride_tricks.as_strided(np.ones(4, np.float32), (3, 4), (0, 4), writeable=True)
    with pytest.raises(ValueError, match="share memory|overlap"):
        b.double_(shared)
