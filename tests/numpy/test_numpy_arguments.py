"""Arguments NumPy accepts: full's fill values, scale_'s factors, shapes and arange, each checked against NumPy.

Every case runs the same call through NumPy and godlpack and compares the outcome: the dtype and the bytes of
the result, or the type of the exception. Where godlpack differs on purpose, the case says so and checks what
godlpack does instead (DEVIATIONS below); every other case must match NumPy exactly.
"""

from __future__ import annotations

import math
import warnings
from typing import Any, Callable, Optional

import numpy as np
import pytest

import godlpack
import godlpack.ops


class Real:
    """An object with only __float__."""

    def __float__(self) -> float:
        return 2.5

    def __repr__(self) -> str:
        return "Real()"


class Index:
    """An object with only __index__."""

    def __index__(self) -> int:
        return 7

    def __repr__(self) -> str:
        return "Index()"


class Cplx:
    """An object with only __complex__."""

    def __complex__(self) -> complex:
        return 1 + 2j

    def __repr__(self) -> str:
        return "Cplx()"


class RealIndex:
    """An object with __float__ and __index__: NumPy reads the float for float dtypes, the int for integer ones."""

    def __float__(self) -> float:
        return 2.5

    def __index__(self) -> int:
        return 7

    def __repr__(self) -> str:
        return "RealIndex()"


Outcome = tuple[str, Any]  # ("value", (dtype name, bytes)) or ("raise", exception type)


def outcome(f: Callable[[], Any], numpy: bool = False) -> Outcome:
    try:
        with warnings.catch_warnings():
            # NumPy's ComplexWarning (it drops an imaginary part) is an answer godlpack gives as a TypeError.
            warnings.simplefilter("ignore", RuntimeWarning)  # overflow to inf in a cast: the value says it
            warnings.simplefilter("error", np.exceptions.ComplexWarning)  # a RuntimeWarning: after, to come first
            r = f()
    except np.exceptions.ComplexWarning:
        return ("raise", np.exceptions.ComplexWarning)
    except Exception as e:  # noqa: BLE001 - the exception is the outcome
        # NumPy's ufunc errors subclass TypeError: the builtin type is what a caller catches.
        base = next(t for t in type(e).__mro__ if t.__module__ == "builtins")
        return ("raise", base)
    a = r if numpy else np.from_dlpack(r)
    return ("value", (str(a.dtype), a.tobytes()))


# ---- full's fill value ----

FILL_VALUES: dict[str, Any] = {
    "np.float32(1.5)": np.float32(1.5),
    "np.float16(0.1)": np.float16(0.1),
    "np.float64(2.5)": np.float64(2.5),
    "np.longdouble(1)/3": np.longdouble(1) / 3,
    "np.True_": np.True_,
    "np.False_": np.False_,
    "np.complex64(1+2j)": np.complex64(1 + 2j),
    "np.complex64(3)": np.complex64(3),
    "np.int8(-5)": np.int8(-5),
    "np.uint64(2**64-1)": np.uint64(2**64 - 1),
    "np.array(2.5)": np.array(2.5),
    "np.array(3)": np.array(3),
    "np.array(True)": np.array(True),
    "np.array(1+2j)": np.array(1 + 2j),
    "Real()": Real(),
    "Index()": Index(),
    "Cplx()": Cplx(),
    "2**64": 2**64,
    "-2**63-1": -(2**63) - 1,
    "2**1100": 2**1100,
    "True": True,
    "1.5": 1.5,
    "-1": -1,
}
FILL_DTYPES = ["bool", "int8", "int32", "int64", "uint8", "uint64", "float16", "float32", "float64", "complex64",
               "complex128"]
INTEGER_DTYPES = {"int8", "int32", "int64", "uint8", "uint64"}


def fill_deviation(name: str, dtype: str) -> Optional[tuple[type, str]]:
    """Where godlpack answers otherwise than NumPy, on purpose: the exception it raises and why."""
    value = FILL_VALUES[name]
    if dtype in INTEGER_DTYPES and isinstance(value, (np.integer, np.ndarray)) and value.dtype.kind in "iu":
        if not np.iinfo(dtype).min <= int(value) <= np.iinfo(dtype).max:
            # NumPy casts its own integers unsafely and wraps around (np.int8(-5) -> uint8 251); a value is
            # never silently changed here.
            return OverflowError, "out of range"
    return None


@pytest.mark.parametrize("dtype", FILL_DTYPES)
@pytest.mark.parametrize("name", list(FILL_VALUES))
def test_full_fill_values_as_numpy(name: str, dtype: str) -> None:
    value = FILL_VALUES[name]
    got = outcome(lambda: godlpack.full(3, value, dtype=dtype))
    if dtype in INTEGER_DTYPES and name == "Real()":
        # NumPy calls int(), which refuses an object with only __float__; godlpack truncates any real alike.
        assert got == ("value", (dtype, np.full(3, 2, dtype=dtype).tobytes()))
        return
    deviation = fill_deviation(name, dtype)
    if deviation is not None:
        error, words = deviation
        with pytest.raises(error, match=words):
            godlpack.full(3, value, dtype=dtype)
        return
    want = outcome(lambda: np.full(3, value, dtype=dtype), numpy=True)
    if want == ("raise", np.exceptions.ComplexWarning):
        # NumPy warns that it drops the imaginary part; godlpack refuses to lose one that is not 0.
        if complex(value).imag != 0:
            assert got == ("raise", TypeError), got
            return
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            want = ("value", (dtype, np.full(3, value, dtype=dtype).tobytes()))
    assert got == want, f"full(3, {name}, dtype={dtype}): godlpack {got}, NumPy {want}"


def test_fill_value_with_only_float_into_an_integer_dtype() -> None:
    """NumPy refuses Real() for integer dtypes (int() cannot read it); godlpack truncates any real alike."""
    with pytest.raises(TypeError):
        np.full(1, Real(), dtype="int32")
    assert godlpack.full(1, Real(), dtype="int32").tolist() == [2]


def test_fill_value_whose_index_and_float_disagree() -> None:
    """NumPy reads such an object with float() for float dtypes and int() for integer ones; godlpack reads one
    number, its __index__, whatever the dtype."""
    assert np.full(1, RealIndex(), dtype="float64").tolist() == [2.5]
    assert np.full(1, RealIndex(), dtype="int64").tolist() == [7]
    assert godlpack.full(1, RealIndex(), dtype="float64").tolist() == [7.0]
    assert godlpack.full(1, RealIndex(), dtype="int64").tolist() == [7]


def test_full_of_ints_beyond_64_bits() -> None:
    assert godlpack.full(3, 2**64, dtype="float64").tolist() == [1.8446744073709552e19] * 3
    assert godlpack.full(1, -(2**70), dtype="float32").tolist() == [float(np.float32(-(2.0**70)))]
    with pytest.raises(OverflowError, match="out of range for int64"):
        godlpack.full(3, 2**64, dtype="int64")
    with pytest.raises(OverflowError, match="too large to convert to float"):
        godlpack.full(3, 2**1100, dtype="float64")


# ---- scale_'s factor ----

SCALE_CASES: list[tuple[str, Any]] = [
    ("int32", np.True_), ("int32", np.False_), ("int64", True), ("int32", np.array(3)), ("int32", -1),
    ("float32", np.True_), ("float32", np.float16(0.5)), ("float64", np.longdouble(2)), ("float64", np.array(2.5)),
    ("float32", np.int8(3)), ("float64", np.float32(2)), ("float32", 1.5), ("float64", np.uint64(3)),
    ("int32", 1.5), ("int32", np.float32(2)), ("float32", 1j), ("float64", np.complex64(2)), ("int64", np.array(2.5)),
    ("uint8", -1), ("uint8", 300), ("int32", 2**64),
]


@pytest.mark.parametrize("dtype, factor", SCALE_CASES, ids=[f"{d}-{f!r}" for d, f in SCALE_CASES])
def test_scale_factor_as_numpy(dtype: str, factor: Any) -> None:
    def numpy() -> Any:
        a = np.arange(3, dtype=dtype)
        a *= factor
        return a

    def ours() -> Any:
        a = np.arange(3, dtype=dtype)
        godlpack.ops.scale_(a, factor)
        return godlpack.from_dlpack(a)

    assert outcome(ours) == outcome(numpy, numpy=True)


def test_scale_factors_numpy_refuses_by_type() -> None:
    """NumPy refuses what its type promotion would widen (an int8 scalar into uint8, any object); godlpack reads
    the value, which fits, as it reads a Python int; a float tensor scaled by 2**64 is an OverflowError here."""
    a = np.arange(3, dtype=np.uint8)
    godlpack.ops.scale_(a, np.int8(3))
    assert a.tolist() == [0, 3, 6]
    godlpack.ops.scale_(a, Index())
    assert a.tolist() == [0, 21, 42]
    f = np.arange(3, dtype=np.float32)
    godlpack.ops.scale_(f, Real())
    assert f.tolist() == [0.0, 2.5, 5.0]
    with pytest.raises(OverflowError):
        godlpack.ops.scale_(f, 2**64)


# ---- shapes ----

SHAPES: list[Any] = [np.array(3), np.array([2, 3]), np.int64(2), (np.int32(2), np.array(3)), np.array(2.5),
                     np.array([2.5]), Index()]


@pytest.mark.parametrize("shape", SHAPES, ids=repr)
def test_shapes_as_numpy(shape: Any) -> None:
    assert outcome(lambda: godlpack.zeros(shape)) == outcome(lambda: np.zeros(shape), numpy=True)


# ---- arange ----

NAN, INF = math.nan, math.inf
ARANGE_CASES: list[tuple[tuple[Any, ...], dict[str, Any]]] = [
    ((5,), {}), ((2, 5), {}), ((0, 1, 0.1), {}), ((1, 0), {}), ((5, 1, -1), {}), ((5, 1, -2), {}), ((0.5, 5), {}),
    ((0.1, 1, 0.3), {}), ((1, 2, 0.3), {}), ((-3,), {}), ((0, 5, -1), {}), ((5, 1, 0.5), {}), ((0, 3.0, 1), {}),
    ((True, 3), {}), ((0, 5, True), {}), ((True, False, -1), {}), ((np.int8(1), 5), {}), ((np.float32(1), 5), {}),
    ((2.5,), {}), ((np.float64(2),), {}), ((np.array(3),), {}),
    ((0, 10, INF), {}), ((0, 10, -INF), {}), ((0, 1e-300, 1e300), {}),
    ((3,), {"dtype": "float32"}), ((1, 2, 0.1), {"dtype": "float32"}), ((0, 1, 0.1), {"dtype": "float16"}),
    ((0, 1, 0.25), {"dtype": "float16"}), ((0, 3), {"dtype": "complex64"}), ((0.5, 2, 0.5), {"dtype": "complex128"}),
    ((0.5, 5, 1), {"dtype": "int64"}), ((0, 4, 1.5), {"dtype": "uint8"}), ((3, 0, -1), {"dtype": "uint8"}),
    ((0, 3, 1), {"dtype": "uint64"}), ((-5, 5, 3), {"dtype": "int8"}), ((2,), {"dtype": "bool"}),
    ((1, 3), {"dtype": "bool"}), ((5,), {"dtype": None}), ((0, 1000, 7.5), {"dtype": "float32"}),
    ((), {"stop": 5}), ((1,), {"stop": 5}), ((1, 5), {"step": 2}), ((5, None), {}), ((0, 5, None), {}),
    # Refused alike.
    ((0, 5, 0), {}), ((0, 5, 0.0), {}), ((0, 5, False), {}), ((0, NAN), {}), ((0, INF), {}), ((0, -INF), {}),
    ((INF, 0, -1), {}), ((0, 2**70), {}), ((0, 1, 1e-20), {}), ((3,), {"dtype": "bool"}), ((-1, 3), {"dtype": "uint8"}),
    ((NAN, 3, 1), {"dtype": "int32"}), (("1",), {}), ((None, 5), {}), ((), {"start": 5}), (([3],), {}),
    ((3,), {"dtype": "nope"}),
]


@pytest.mark.parametrize("args, kwargs", ARANGE_CASES, ids=[f"{a}-{k}" for a, k in ARANGE_CASES])
def test_arange_as_numpy(args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    got = outcome(lambda: godlpack.arange(*args, **kwargs))
    want = outcome(lambda: np.arange(*args, **kwargs), numpy=True)
    assert got == want, f"arange{args} {kwargs}: godlpack {got}, NumPy {want}"


def test_arange_deviations() -> None:
    """Where godlpack's arange differs from NumPy's on purpose."""
    # NumPy wraps integers around silently (int8: 0 … 127, -128, …); godlpack refuses.
    assert np.arange(0, 300, dtype=np.int8)[128] == -128
    with pytest.raises(OverflowError, match="does not fit in int8"):
        godlpack.arange(0, 300, dtype="int8")
    # NumPy makes a complex arange of complex arguments, counted by the real parts; godlpack takes real numbers.
    with pytest.raises(TypeError, match="real numbers"):
        godlpack.arange(1j, 3)  # type: ignore[arg-type]
    # NumPy cannot subtract objects with only __index__; godlpack reads them as the ints they stand for.
    with pytest.raises(TypeError):
        np.arange(Index())  # type: ignore[call-overload]
    assert godlpack.arange(0, Index(), 2).tolist() == [0, 2, 4, 6]
    # float8 and the other types NumPy lacks step in float32, as ml_dtypes does; arange(n) is exact.
    assert godlpack.arange(0, 2, 0.5, dtype="float8_e4m3fn").tolist() == [0.0, 0.5, 1.0, 1.5]
    assert godlpack.arange(4, dtype="bfloat16").tolist() == [0.0, 1.0, 2.0, 3.0]


def test_arange_large_and_strided_layout() -> None:
    t = godlpack.arange(0, 3 << 18, 3, dtype="float64")  # large enough that Go fills it without the GIL
    assert t.shape == (1 << 18,) and t.strides == (1,)
    assert np.array_equal(np.from_dlpack(t), np.arange(0, 3 << 18, 3, dtype=np.float64))


def test_dtype_names_of_torch() -> None:
    assert godlpack.DType("torch.float32") == "float32"
    assert godlpack.zeros(2, dtype="torch.float32").dtype == "float32"
